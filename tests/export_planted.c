/*
 * export_planted.c -- a library with one stray external symbol (planted_stray) next to a
 * well-named one, for the exports_planted test: scripts/check_exports.py must name the stray
 * one and fail. Nothing links it.
 */
int goap__planted_ok(void);
int goap__planted_ok(void) { return 1; }
int planted_stray(void);
int planted_stray(void) { return 2; }
