/*
 * error.c -- filling a goap_error (goap/goap.h) for the functions that take a
 * `goap_error *err`: cleared on success, status and message (and a byte offset) on failure.
 *
 * Invariants: every function accepts err == NULL and does nothing then; every string field
 * written is NUL-terminated and truncated to fit; a filled error's status is the status the
 * caller returns and its message is never empty.
 */
#include <stdio.h>

#include "base.h"

void goap__err_clear(goap_error *e) {
  if (!e) return;
  e->status = GOAP_OK;
  e->severity = GOAP_SEVERITY_ERROR;
  e->file[0] = '\0';
  e->line = 0;
  e->col = 0;
  e->offset = 0;
  e->message[0] = '\0';
  e->source[0] = '\0';
}

goap_status goap__err_set(goap_error *e, goap_status st, size_t offset, const char *msg) {
  if (!e) return st;
  goap__err_clear(e);
  e->status = st;
  e->offset = offset;
  if (!msg || !msg[0]) msg = "failed"; /* callers give one; base cannot name statuses */
  snprintf(e->message, sizeof e->message, "%s", msg);
  return st;
}
