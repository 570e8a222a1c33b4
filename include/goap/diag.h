/*
 * goap/diag.h -- diagnostics: where an error in a text is and what it is, formatted the way
 * compilers do. Shared by the `.goap` loader (goap/file.h) and the PDDL/HDDL front end
 * (goap/pddl.h); goap_diag_format is in the core library (libgoap), so neither front end needs
 * the other.
 *
 * A goap_diag is a plain value (fixed-size text, no pointers): it may be copied, kept, and
 * read from any thread.
 */
#ifndef GOAP_DIAG_H
#define GOAP_DIAG_H

#include "goap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum goap_severity { GOAP_SEVERITY_ERROR = 0, GOAP_SEVERITY_WARNING } goap_severity;

/* A diagnostic: where and what. Fixed-size text so it can live on the stack. line and col are
 * 1-based (0 when not tied to a position); col counts bytes. */
typedef struct goap_diag {
  goap_severity severity;
  goap_status status;          /* the error's class (GOAP_PARSE_ERROR, GOAP_NOT_FOUND, ...) */
  char file[256];              /* the name given when loading (truncated if longer) */
  int line, col;
  char message[512];           /* one line, no trailing newline; may carry a "did you mean" */
  char source[512];            /* the offending source line, without newline ("" if none) */
} goap_diag;

/* Formats a diagnostic the way compilers do:
 *   file:line:col: error: message
 *     <source line>
 *     ^
 * Writes at most cap bytes (always NUL-terminated when cap > 0); returns the length the whole
 * text needs, excluding the NUL (as snprintf). */
GOAP_API size_t goap_diag_format(const goap_diag *diag, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_DIAG_H */
