/*
 * web_cli.c -- the WebAssembly module's entry points (scripts/web.sh compiles every file of
 * web/src/ together with the libraries and the `goap` tool's commands).
 *
 * Invariants:
 *  - goap_web_run runs one `goap` command line exactly as the native tool would (the CLI's
 *    main, renamed goap_cli_main at compile time): its stdout and stderr are the files
 *    /out/stdout and /out/stderr of the in-memory file system, truncated before each run, so
 *    the JSON the page reads is the CLI's `--json` output by construction.
 *  - Nothing here keeps state between calls besides those two files.
 */
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int goap_cli_main(int argc, char **argv);
int goap_web_run(const char *args);

/* args: the command line's words separated by '\n' (no program name). Returns the exit status. */
EMSCRIPTEN_KEEPALIVE int goap_web_run(const char *args) {
  size_t len = strlen(args);
  char *copy = malloc(len + 1);
  char **argv = malloc(sizeof(char *) * (len + 3));
  if (!copy || !argv) {
    free(copy);
    free(argv);
    return 2;
  }
  memcpy(copy, args, len + 1);
  static char program[] = "goap";
  int argc = 0;
  argv[argc++] = program;
  char *p = copy;
  while (len > 0) {
    argv[argc++] = p;
    char *nl = strchr(p, '\n');
    if (!nl) break;
    *nl = '\0';
    p = nl + 1;
  }
  argv[argc] = NULL;
  mkdir("/out", 0777); /* fails harmlessly when it exists */
  fflush(stdout);
  fflush(stderr);
  FILE *o = freopen("/out/stdout", "w", stdout);
  FILE *e = freopen("/out/stderr", "w", stderr);
  int rc = (o && e) ? goap_cli_main(argc, argv) : 2;
  fflush(stdout);
  fflush(stderr);
  free(argv);
  free(copy);
  return rc;
}
