/*
 * goap/error.h -- the one error shape of the public API: what went wrong (a goap_status and a
 * one-line message) and, when it is tied to an input, where (file, line:col, byte offset, the
 * offending source line). Every function that gives detail about a failure takes a
 * `goap_error *err` (the .goap loader, PDDL/HDDL, arena maps, agent types and agents,
 * snapshots, replay logs) or, for the builders, keeps one (goap_builder_error).
 * goap_error_format is in the core library (libgoap), so no front end needs another.
 *
 * The rule for every function with a `goap_error *err` parameter: err may be NULL. On failure
 * the function fills *err (status = the returned status, message non-empty). On success it
 * sets err->status = GOAP_OK and err->message[0] = '\0' (the other fields are unspecified).
 *
 * A goap_error is a plain value (fixed-size text, no pointers): it may be copied, kept, and
 * read from any thread. The field order is part of the ABI (the bindings mirror it).
 */
#ifndef GOAP_ERROR_H
#define GOAP_ERROR_H

#include "goap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum goap_severity { GOAP_SEVERITY_ERROR = 0, GOAP_SEVERITY_WARNING } goap_severity;

/* (The typedef `goap_error` is declared in goap/goap.h, which the builders need.) */
struct goap_error {
  goap_status status;          /* GOAP_OK when there is no error; else the error's class
                                  (GOAP_PARSE_ERROR, GOAP_NOT_FOUND, ...) */
  goap_severity severity;      /* GOAP_SEVERITY_ERROR, or _WARNING for goap_file_warnings */
  char file[256];              /* the name given when loading ("" when the input had no name;
                                  truncated if longer) */
  int line, col;               /* 1-based position in a text (col counts bytes); 0 when not
                                  tied to one */
  size_t offset;               /* byte offset in the input where the problem was found (binary
                                  inputs: snapshots, replay logs; texts may set it too); 0 if
                                  none */
  char message[512];           /* one line, no trailing newline; may carry a "did you mean" */
  char source[512];            /* the offending source line, without newline ("" if none) */
};

/* Formats an error the way compilers do:
 *   file:line:col: error: message
 *     <source line>
 *     ^
 * ("warning: " for a warning). An error with no file and no position prints just
 * "error: message", followed by " (at byte N)" when offset != 0 and line == 0. Writes at most
 * cap bytes (always NUL-terminated when cap > 0); returns the length the whole text needs,
 * excluding the NUL (as snprintf). e NULL writes "" and returns 0. Thread-safe. */
GOAP_API size_t goap_error_format(const goap_error *e, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_ERROR_H */
