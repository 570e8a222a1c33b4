/*
 * util.c -- helpers shared by the `goap` subcommands: option parsing, loading with
 * diagnostics, planning with a growable plan buffer, and text/JSON formatting.
 *
 * Invariants:
 *  - Every error message goes to stderr; nothing here writes to stdout.
 *  - A cli_buf's data is NUL-terminated whenever it is non-NULL; running out of memory
 *    aborts the process with a message (the CLI has no way to recover meaningfully).
 *  - cli_plan's buffer is owned by the cli_plan and only ever grows.
 */
#include "cli.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */
/* Memory                                                                                   */
/* ---------------------------------------------------------------------------------------- */

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fputs("goap: out of memory\n", stderr);
    exit(CLI_EXIT_USAGE);
  }
  return q;
}

/* ---------------------------------------------------------------------------------------- */
/* Growable strings                                                                         */
/* ---------------------------------------------------------------------------------------- */

void cli_buf_init(cli_buf *b) {
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
}

void cli_buf_free(cli_buf *b) {
  free(b->data);
  cli_buf_init(b);
}

const char *cli_buf_str(const cli_buf *b) { return b->data ? b->data : ""; }

static void buf_reserve(cli_buf *b, size_t extra) {
  size_t need = b->len + extra + 1;
  if (need <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need) cap *= 2;
  b->data = xrealloc(b->data, cap);
  b->cap = cap;
}

static void buf_vprintf(cli_buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  buf_reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void cli_buf_printf(cli_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

static void buf_putc(cli_buf *b, char c) {
  buf_reserve(b, 1);
  b->data[b->len++] = c;
  b->data[b->len] = '\0';
}

/* ---------------------------------------------------------------------------------------- */
/* Command-line parsing                                                                     */
/* ---------------------------------------------------------------------------------------- */

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "goap%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry 'goap%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
  return CLI_EXIT_USAGE;
}

/* Edit distance with adjacent transpositions ("hepl" is one edit from "help"; optimal string
 * alignment), capped: returns a value > cap when it is larger. */
static size_t edit_distance(const char *a, const char *b, size_t cap) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64) return cap + 1;
  if ((la > lb ? la - lb : lb - la) > cap) return cap + 1;
  size_t prev2[65], prev[65], row[65];
  for (size_t j = 0; j <= lb; j++) prev[j] = j;
  for (size_t i = 1; i <= la; i++) {
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t best = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u);
      if (prev[j] + 1 < best) best = prev[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          prev2[j - 2] + 1 < best)
        best = prev2[j - 2] + 1;
      row[j] = best;
    }
    memcpy(prev2, prev, (lb + 1) * sizeof *prev);
    memcpy(prev, row, (lb + 1) * sizeof *row);
  }
  return prev[lb];
}

const char *cli_suggest(const char *word, const char *const *known) {
  const char *best = NULL;
  size_t best_d = 3; /* accept distances 1..2 */
  for (size_t i = 0; known[i]; i++) {
    size_t d = edit_distance(word, known[i], best_d);
    if (d < best_d) {
      best_d = d;
      best = known[i];
    }
  }
  return best;
}

int cli_unknown_option(const char *cmd, const char *arg, const char *const *known) {
  char name[128];
  /* Compare the option name without any "=value" part. */
  size_t n = strcspn(arg, "=");
  if (n >= sizeof name) n = sizeof name - 1;
  memcpy(name, arg, n);
  name[n] = '\0';
  const char *s = cli_suggest(name, known);
  if (s) return cli_usage_error(cmd, "unknown option '%s' (did you mean '%s'?)", name, s);
  return cli_usage_error(cmd, "unknown option '%s'", name);
}

int cli_opt_value(const char *cmd, int argc, char **argv, int *i, const char *name,
                  const char **value) {
  const char *arg = argv[*i];
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0) return 0;
  if (arg[n] == '=') {
    *value = arg + n + 1;
    return 1;
  }
  if (arg[n] != '\0') return 0;
  if (*i + 1 >= argc) {
    cli_usage_error(cmd, "option '%s' needs a value", name);
    return -1;
  }
  *i += 1;
  *value = argv[*i];
  return 1;
}

void cli_search_opts_init(cli_search_opts *o) {
  o->search = GOAP_SEARCH_ASTAR;
  o->heuristic = GOAP_H_DEFAULT;
  o->weight = 0.0;
  o->max_nodes = 0;
  o->max_ms = 0.0;
  o->flags = 0;
}

/* Parses a finite double filling the whole text. */
static int parse_double(const char *text, double *out) {
  if (!*text) return 0;
  char *end = NULL;
  errno = 0;
  double v = strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !isfinite(v)) return 0;
  *out = v;
  return 1;
}

int cli_parse_search(const char *cmd, const char *text, cli_search_opts *o) {
  static const goap_search all[] = {GOAP_SEARCH_ASTAR, GOAP_SEARCH_BACKWARD,
                                    GOAP_SEARCH_WASTAR, GOAP_SEARCH_GREEDY};
  size_t n = strcspn(text, ":");
  for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
    const char *name = goap_search_name(all[k]);
    if (!name || strlen(name) != n || strncmp(name, text, n) != 0) continue;
    o->search = all[k];
    o->weight = 0.0;
    if (text[n] == ':') {
      double w;
      if (all[k] != GOAP_SEARCH_WASTAR)
        return cli_usage_error(cmd, "only wastar takes a weight ('%s')", text);
      if (!parse_double(text + n + 1, &w) || w < 1.0)
        return cli_usage_error(cmd, "bad weight in '%s': expected a number >= 1", text);
      o->weight = w;
    }
    return 0;
  }
  return cli_usage_error(cmd, "unknown search '%s' (expected astar, backward, wastar[:W] or greedy)",
                         text);
}

int cli_parse_heuristic(const char *cmd, const char *text, cli_search_opts *o) {
  int h = goap_heuristic_from_name(text);
  if (h < 0)
    return cli_usage_error(cmd,
                           "unknown heuristic '%s' (expected default, zero, goal-count, "
                           "goal-count-adm, hmax, hadd, hff or lmcut)",
                           text);
  o->heuristic = (goap_heuristic)h;
  return 0;
}

int cli_parse_max_nodes(const char *cmd, const char *text, cli_search_opts *o) {
  const char *p = text;
  unsigned long long v = 0;
  if (!*p) return cli_usage_error(cmd, "--max-nodes needs a number");
  for (; *p; p++) {
    if (*p < '0' || *p > '9' || v > UINT32_MAX)
      return cli_usage_error(cmd, "bad --max-nodes '%s': expected an integer 0..%lu", text,
                             (unsigned long)UINT32_MAX);
    v = v * 10u + (unsigned long long)(*p - '0');
  }
  if (v > UINT32_MAX)
    return cli_usage_error(cmd, "bad --max-nodes '%s': expected an integer 0..%lu", text,
                           (unsigned long)UINT32_MAX);
  o->max_nodes = (uint32_t)v;
  return 0;
}

int cli_parse_max_ms(const char *cmd, const char *text, cli_search_opts *o) {
  double v;
  if (!parse_double(text, &v) || v < 0.0)
    return cli_usage_error(cmd, "bad --max-ms '%s': expected a number of milliseconds >= 0",
                           text);
  o->max_ms = v;
  return 0;
}

int cli_search_option(const char *cmd, int argc, char **argv, int *i, cli_search_opts *o) {
  static const char *const names[] = {"--search", "--heuristic", "--max-nodes", "--max-ms"};
  for (int k = 0; k < 4; ++k) {
    const char *v = NULL;
    int r = cli_opt_value(cmd, argc, argv, i, names[k], &v);
    if (r < 0) return -1;
    if (r == 0) continue;
    int bad = k == 0   ? cli_parse_search(cmd, v, o)
              : k == 1 ? cli_parse_heuristic(cmd, v, o)
              : k == 2 ? cli_parse_max_nodes(cmd, v, o)
                       : cli_parse_max_ms(cmd, v, o);
    return bad ? -1 : k + 1;
  }
  if (strcmp(argv[*i], "--preferred") == 0) {
    o->flags |= GOAP_REQUEST_PREFERRED;
    return 5;
  }
  if (strcmp(argv[*i], "--lazy") == 0) {
    o->flags |= GOAP_REQUEST_LAZY;
    return 6;
  }
  return 0;
}

int cli_check_search(const char *cmd, const cli_search_opts *o) {
  if (!(o->flags & (GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY))) return 0;
  if ((o->flags & GOAP_REQUEST_PREFERRED) && o->search != GOAP_SEARCH_GREEDY &&
      o->search != GOAP_SEARCH_WASTAR)
    return cli_usage_error(cmd, "--preferred needs --search greedy or wastar");
  if ((o->flags & GOAP_REQUEST_LAZY) && o->search == GOAP_SEARCH_BACKWARD)
    return cli_usage_error(cmd, "--lazy needs a forward search (astar, wastar or greedy)");
  if ((o->flags & GOAP_REQUEST_PREFERRED) && o->heuristic != GOAP_H_FF)
    return cli_usage_error(cmd, "--preferred needs --heuristic hff");
  return 0;
}

void cli_describe_search(const cli_search_opts *o, char *buf, size_t cap) {
  const char *s = goap_search_name(o->search);
  const char *h = goap_heuristic_name(o->heuristic);
  if (o->search == GOAP_SEARCH_WASTAR && o->weight > 0.0) {
    char w[64];
    cli_format_number(o->weight, w, sizeof w);
    snprintf(buf, cap, "%s:%s, heuristic %s", s ? s : "?", w, h ? h : "?");
  } else {
    snprintf(buf, cap, "%s, heuristic %s", s ? s : "?", h ? h : "?");
  }
  size_t n = strlen(buf);
  if (n < cap && (o->flags & GOAP_REQUEST_PREFERRED))
    n += (size_t)snprintf(buf + n, cap - n, ", preferred operators");
  if (n < cap && (o->flags & GOAP_REQUEST_LAZY)) snprintf(buf + n, cap - n, ", lazy");
}

/* ---------------------------------------------------------------------------------------- */
/* Loading and diagnostics                                                                  */
/* ---------------------------------------------------------------------------------------- */

void cli_print_diag(FILE *out, const goap_error *d) {
  char small[2048];
  char *text = small;
  size_t n = goap_error_format(d, small, sizeof small);
  if (n >= sizeof small) {
    text = xrealloc(NULL, n + 1);
    goap_error_format(d, text, n + 1);
  }
  fputs(text, out);
  if (n == 0 || text[n - 1] != '\n') fputc('\n', out);
  if (text != small) free(text);
}

/* Reads all of stdin (at most GOAP_FILE_MAX_BYTES + 1 bytes: the parser reports the excess).
 * Returns NULL on a read error. */
static char *read_stdin(size_t *len) {
  size_t cap = 4096, n = 0;
  char *buf = xrealloc(NULL, cap);
  for (;;) {
    if (n == cap) {
      if (cap > (size_t)GOAP_FILE_MAX_BYTES) break;
      cap *= 2;
      buf = xrealloc(buf, cap);
    }
    size_t got = fread(buf + n, 1, cap - n, stdin);
    n += got;
    if (got == 0) break;
  }
  if (ferror(stdin)) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

const char **cli_scenario_names(const goap_file *f) {
  int n = goap_file_scenario_count(f);
  const char **names = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof *names);
  if (!names) return NULL;
  int k = 0;
  for (int i = 0; i < n; i++) {
    const goap_scenario *s = goap_file_scenario(f, i);
    if (s && s->name) names[k++] = s->name;
  }
  names[k] = NULL;
  return names;
}

const char **cli_goal_names(const goap_domain *d) {
  int n = goap_domain_goal_count(d);
  const char **names = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof *names);
  if (!names) return NULL;
  int k = 0;
  for (int i = 0; i < n; i++) {
    const char *s = goap_domain_goal_name(d, i);
    if (s) names[k++] = s;
  }
  names[k] = NULL;
  return names;
}

const char **cli_simulation_names(const goap_file *f) {
  int n = goap_file_simulation_count(f);
  const char **names = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof *names);
  if (!names) return NULL;
  int k = 0;
  for (int i = 0; i < n; i++) {
    const char *s = goap_file_simulation_name(f, i);
    if (s) names[k++] = s;
  }
  names[k] = NULL;
  return names;
}

int cli_not_found(const char *cmd, const char *file, const char *kind, const char *name,
                  const char **names) {
  const char *s = names ? cli_suggest(name, names) : NULL;
  fprintf(stderr, "goap %s: %s has no %s '%s'", cmd, file, kind, name);
  if (s) fprintf(stderr, " (did you mean '%s'?)", s);
  fputc('\n', stderr);
  if (names && names[0]) {
    fprintf(stderr, "%ss in %s:", kind, file);
    for (int i = 0; names[i]; i++) fprintf(stderr, " %s", names[i]);
    fputc('\n', stderr);
  }
  free(names);
  return CLI_EXIT_USAGE;
}

const char *cli_display_name(const char *path) {
  return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

goap_file *cli_load(const char *path, goap_status *status) {
  goap_file *f = NULL;
  goap_error err;
  memset(&err, 0, sizeof err);
  goap_status st;
  if (strcmp(path, "-") == 0) {
    size_t len = 0;
    char *text = read_stdin(&len);
    if (!text) {
      if (status) *status = GOAP_IO_ERROR;
      fputs("<stdin>: error: cannot read standard input\n", stderr);
      return NULL;
    }
    st = goap_file_parse("<stdin>", text, len, NULL, &f, &err);
    free(text);
  } else {
    st = goap_file_load(path, NULL, &f, &err);
  }
  if (status) *status = st;
  if (st != GOAP_OK || !f) {
    if (err.message[0]) {
      cli_print_diag(stderr, &err);
    } else {
      fprintf(stderr, "%s: error: %s\n", path, goap_status_string(st));
    }
    goap_file_destroy(f);
    return NULL;
  }
  return f;
}

/* ---------------------------------------------------------------------------------------- */
/* Planning                                                                                 */
/* ---------------------------------------------------------------------------------------- */

/* The first buffer is small on purpose: long plans exercise the retry path. */
#define CLI_PLAN_INITIAL_CAP 8

void cli_plan_init(cli_plan *pl) {
  memset(pl, 0, sizeof *pl);
  pl->buf = NULL;
  pl->cap = 0;
}

void cli_plan_free(cli_plan *pl) {
  free(pl->buf);
  pl->buf = NULL;
  pl->cap = 0;
}

static int plan_grow(cli_plan *pl, int need) {
  if (need <= pl->cap) return 1;
  if (need > (1 << 28)) return 0;
  pl->buf = xrealloc(pl->buf, (size_t)need * sizeof *pl->buf);
  pl->cap = need;
  return 1;
}

/* Runs the search with the sliced API (begin, one unbounded step, finish) so that the
 * finished search can be read again with a bigger buffer instead of being redone: a redone
 * search under a time budget could end elsewhere. */
goap_status cli_run_plan(goap_planner *p, const goap_request *req, cli_plan *pl) {
  if (pl->cap < CLI_PLAN_INITIAL_CAP && !plan_grow(pl, CLI_PLAN_INITIAL_CAP))
    return GOAP_OUT_OF_MEMORY;
  /* begin returns GOAP_IN_PROGRESS, or at once a final status that finish then reports. */
  goap_status begun = goap_plan_begin(p, req);
  if (begun == GOAP_IN_PROGRESS) goap_plan_step(p, 0, NULL);
  return cli_finish_plan(p, begun, pl);
}

goap_status cli_finish_plan(goap_planner *p, goap_status begun, cli_plan *pl) {
  goap_status st = begun;
  if (pl->cap < CLI_PLAN_INITIAL_CAP && !plan_grow(pl, CLI_PLAN_INITIAL_CAP))
    return GOAP_OUT_OF_MEMORY;
  for (int attempt = 0; attempt < 3; attempt++) {
    memset(&pl->result, 0, sizeof pl->result);
    pl->result.plan = pl->buf;
    pl->result.plan_capacity = pl->cap;
    st = goap_plan_finish(p, &pl->result);
    if (st == GOAP_INVALID_OPERATION && begun != GOAP_IN_PROGRESS) {
      /* begin refused the request before any search: its status is the answer */
      memset(&pl->result, 0, sizeof pl->result);
      pl->result.status = begun;
      return begun;
    }
    /* a plan (found or partial) longer than the buffer is not written; plan_length says how
     * long it is, and finish can be asked again */
    int need = pl->result.plan_length;
    if (need <= pl->cap) break;
    if (!plan_grow(pl, need)) return GOAP_OUT_OF_MEMORY;
  }
  return st;
}

int cli_plan_length(const cli_plan *pl) {
  int n = pl->result.plan_length;
  if (n < 0) n = 0;
  if (n > pl->cap) n = 0; /* not written */
  return n;
}

void cli_request_from_opts(const cli_search_opts *o, goap_request *req) {
  memset(req, 0, sizeof *req);
  req->search = o->search;
  req->heuristic = o->heuristic;
  req->weight = o->weight;
  req->max_nodes = o->max_nodes;
  req->max_ms = o->max_ms;
  req->flags = o->flags | GOAP_REQUEST_TIMED; /* the commands report the search's time */
}

/* ---------------------------------------------------------------------------------------- */
/* Formatting                                                                               */
/* ---------------------------------------------------------------------------------------- */

void cli_format_number(double v, char *buf, size_t cap) {
  char tmp[64]; /* "%.17g" of any double fits */
  if (!buf || cap == 0) return;
  if (!isfinite(v)) {
    snprintf(tmp, sizeof tmp, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
  } else if (v == floor(v) && fabs(v) < 1e15) {
    snprintf(tmp, sizeof tmp, "%.0f", v == 0.0 ? 0.0 : v); /* no "-0" */
  } else {
    for (int prec = 1; prec <= 17; prec++) {
      snprintf(tmp, sizeof tmp, "%.*g", prec, v);
      if (strtod(tmp, NULL) == v) break;
    }
  }
  size_t n = strlen(tmp);
  if (n >= cap) n = cap - 1;
  memcpy(buf, tmp, n);
  buf[n] = '\0';
}

void cli_json_string(cli_buf *b, const char *s) {
  static const char hex[] = "0123456789abcdef";
  buf_putc(b, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    unsigned char c = *p;
    switch (c) {
    case '"': cli_buf_printf(b, "\\\""); break;
    case '\\': cli_buf_printf(b, "\\\\"); break;
    case '\b': cli_buf_printf(b, "\\b"); break;
    case '\f': cli_buf_printf(b, "\\f"); break;
    case '\n': cli_buf_printf(b, "\\n"); break;
    case '\r': cli_buf_printf(b, "\\r"); break;
    case '\t': cli_buf_printf(b, "\\t"); break;
    default:
      if (c < 0x20 || c == 0x7f) {
        cli_buf_printf(b, "\\u00%c%c", hex[c >> 4], hex[c & 15u]);
      } else {
        buf_putc(b, (char)c);
      }
    }
  }
  buf_putc(b, '"');
}

void cli_format_conds(cli_buf *b, const goap_domain *d, const goap_cond *c, int n) {
  char text[512];
  for (int i = 0; i < n; i++) {
    goap_format_cond(d, &c[i], text, sizeof text);
    cli_buf_printf(b, "%s%s", i ? ", " : "", text);
  }
}

void cli_format_effects(cli_buf *b, const goap_domain *d, const goap_effect *e, int n) {
  char text[512];
  for (int i = 0; i < n; i++) {
    goap_format_effect(d, &e[i], text, sizeof text);
    cli_buf_printf(b, "%s%s", i ? ", " : "", text);
  }
}

void cli_format_plan(cli_buf *b, const goap_domain *d, const int32_t *plan, int n,
                     const char *sep) {
  for (int i = 0; i < n; i++) {
    const char *name = goap_domain_action_name(d, plan[i]);
    cli_buf_printf(b, "%s%s", i ? sep : "", name ? name : "?");
  }
}

int cli_cost_equal(double a, double b) {
  double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  if (scale < 1.0) scale = 1.0;
  return fabs(a - b) <= 1e-9 * scale;
}
