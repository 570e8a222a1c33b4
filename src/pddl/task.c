/*
 * task.c -- the public API of the PDDL front end: loading (read, parse, ground), accessors,
 * formatting ground actions, destruction.
 *
 * Invariants:
 *  - A task is returned only when every phase succeeded; on failure everything allocated is
 *    released and *err holds the first error.
 *  - The source texts are borrowed during loading only: after it no pointer into them is kept
 *    (src[].text is cleared), so callers may free their buffers at once.
 *  - Files are read whole through the task's allocator, at most max_bytes + 1 bytes (the
 *    excess is reported as GOAP_TOO_LARGE by the reader).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goap/hddl.h"
#include "pddl_internal.h"

static void free_core(px_task_core *t) {
  const goap_allocator *a = &t->alloc;
  goap__px_symmetry_free(t);
  goap__px_ground_free(t);
  goap__px_htn_free(t);
  goap__px_syms_free(a, &t->syms);
  goap__px_free(a, t->nodes, t->cnodes * sizeof *t->nodes);
  goap__px_free(a, t->types, t->ctypes * sizeof *t->types);
  goap__px_free(a, t->objects, t->cobjects * sizeof *t->objects);
  goap__px_free(a, t->preds, t->cpreds * sizeof *t->preds);
  goap__px_free(a, t->funcs, t->cfuncs * sizeof *t->funcs);
  goap__px_free(a, t->schemas, t->cschemas * sizeof *t->schemas);
  goap__px_free(a, t->lits, t->clits * sizeof *t->lits);
  goap__px_ivec_free(a, &t->args);
  goap__px_ivec_free(a, &t->init);
  goap__px_tset_free(a, &t->fvals);
  goap__px_free(a, t->fval, t->cfval * sizeof *t->fval);
  goap__px_free(a, t->is_a, t->nobjects * t->ntypes > 0 ? t->nobjects * t->ntypes : 1);
  goap__px_ivec_free(a, &t->type_of);
  goap__px_ivec_free(a, &t->obj_of);
  goap__px_ivec_free(a, &t->pred_of);
  goap__px_ivec_free(a, &t->func_of);
  goap__px_ivec_free(a, &t->schema_of);
  goap__px_ivec_free(a, &t->param_of);
}

void goap_pddl_destroy(goap_pddl_task *task) {
  if (!task) return;
  goap_allocator a = task->c.alloc;
  free_core(&task->c);
  goap__px_free(&a, task, sizeof *task);
}

static void set_options(px_task_core *t, const goap_pddl_options *opt) {
  memset(&t->opt, 0, sizeof t->opt);
  if (opt) t->opt = *opt;
  if (!t->opt.max_bytes) t->opt.max_bytes = GOAP_PDDL_MAX_BYTES;
  if (t->opt.max_depth <= 0) t->opt.max_depth = GOAP_PDDL_MAX_DEPTH;
  if (t->opt.max_depth > 1024) t->opt.max_depth = 1024;
  if (!t->opt.max_atoms) t->opt.max_atoms = GOAP_PDDL_MAX_ATOMS;
  if (t->opt.max_atoms > (uint32_t)INT32_MAX / 4) t->opt.max_atoms = (uint32_t)INT32_MAX / 4;
  if (!t->opt.max_actions) t->opt.max_actions = GOAP_PDDL_MAX_ACTIONS;
  if (t->opt.max_actions > (uint32_t)INT32_MAX / 4) t->opt.max_actions = (uint32_t)INT32_MAX / 4;
  if (!t->opt.max_work) t->opt.max_work = GOAP_PDDL_MAX_WORK;
}

goap_status goap_pddl_parse(const char *domain_name, const char *domain_text,
                            size_t domain_length, const char *problem_name,
                            const char *problem_text, size_t problem_length,
                            const goap_pddl_options *opt, goap_pddl_task **out,
                            goap_error *err) {
  goap_error local;
  goap_error *d = err ? err : &local;
  memset(d, 0, sizeof *d);
  if (out) *out = NULL;
  if (!out || (!domain_text && domain_length) || (!problem_text && problem_length)) {
    d->status = GOAP_INVALID_ARGUMENT;
    snprintf(d->message, sizeof d->message, "NULL argument");
    return GOAP_INVALID_ARGUMENT;
  }
  goap_allocator a = {goap_libc_realloc, NULL};
  if (opt && opt->allocator.fn) a = opt->allocator;
  goap_pddl_task *task = (goap_pddl_task *)goap__px_alloc(&a, sizeof *task);
  if (!task) {
    d->status = GOAP_OUT_OF_MEMORY;
    snprintf(d->message, sizeof d->message, "out of memory");
    return GOAP_OUT_OF_MEMORY;
  }
  memset(task, 0, sizeof *task);
  px_task_core *t = &task->c;
  t->alloc = a;
  set_options(t, opt);
  t->diag = d;
  t->status = GOAP_OK;
  t->total_cost = -1;
  t->domain_sym = t->problem_sym = -1;
  /* The argument pool is never NULL, so `args.v + offset` is defined even for a task whose
   * literals have no arguments at all (UBSan: zero offset applied to a null pointer). */
  if (!goap__grow(&t->alloc, (void **)&t->args.v, &t->args.cap, 1, sizeof *t->args.v)) {
    goap_pddl_destroy(task);
    d->status = GOAP_OUT_OF_MEMORY;
    snprintf(d->message, sizeof d->message, "out of memory");
    return GOAP_OUT_OF_MEMORY;
  }
  t->htn.htn_node = -1;
  if (t->opt.flags & GOAP_PDDL_HTN) t->opt.flags |= GOAP_PDDL_PARSE_ONLY;
  t->src[0].name = domain_name ? domain_name : "<domain>";
  t->src[0].text = domain_text ? domain_text : "";
  t->src[0].len = domain_length;
  t->src[1].name = problem_name ? problem_name : "<problem>";
  t->src[1].text = problem_text ? problem_text : "";
  t->src[1].len = problem_length;
  int32_t root = -1;
  if (goap__px_read(t, 0, &root) == GOAP_OK && goap__px_parse_domain(t, root) == GOAP_OK &&
      goap__px_read(t, 1, &root) == GOAP_OK && goap__px_parse_problem(t, root) == GOAP_OK &&
      !(t->opt.flags & GOAP_PDDL_PARSE_ONLY))
    (void)goap__px_ground(t);
  t->src[0].text = t->src[1].text = NULL;
  t->src[0].name = t->src[1].name = NULL;
  t->diag = NULL;
  goap_status st = t->status;
  if (st != GOAP_OK) {
    goap_pddl_destroy(task);
    return st;
  }
  t->info.types = (int)t->ntypes;
  t->info.objects = (int)t->nobjects;
  t->info.predicates = (int)t->npreds;
  t->info.functions = (int)t->nfuncs;
  t->info.schemas = (int)t->nschemas;
  t->info.init_atoms = (int)(t->init.n / 2);
  *out = task;
  return GOAP_OK;
}

/* Reads a whole file through the allocator. */
static goap_status read_file(const goap_allocator *a, const char *path, size_t max, char **text,
                             size_t *len, size_t *cap, goap_error *d) {
  *text = NULL;
  *len = *cap = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    d->status = GOAP_IO_ERROR;
    snprintf(d->file, sizeof d->file, "%s", path);
    snprintf(d->message, sizeof d->message, "cannot open the file");
    return GOAP_IO_ERROR;
  }
  size_t n = 0, c = 0;
  char *buf = NULL;
  for (;;) {
    if (n == c) {
      if (n > max) break;
      if (!goap__grow(a, (void **)&buf, &c, n + 65536, 1)) {
        fclose(f);
        goap__px_free(a, buf, c);
        d->status = GOAP_OUT_OF_MEMORY;
        snprintf(d->message, sizeof d->message, "out of memory");
        return GOAP_OUT_OF_MEMORY;
      }
    }
    size_t got = fread(buf + n, 1, c - n, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    goap__px_free(a, buf, c);
    d->status = GOAP_IO_ERROR;
    snprintf(d->file, sizeof d->file, "%s", path);
    snprintf(d->message, sizeof d->message, "cannot read the file");
    return GOAP_IO_ERROR;
  }
  *text = buf;
  *len = n;
  *cap = c;
  return GOAP_OK;
}

goap_status goap_pddl_load(const char *domain_path, const char *problem_path,
                           const goap_pddl_options *opt, goap_pddl_task **out,
                           goap_error *err) {
  goap_error local;
  goap_error *d = err ? err : &local;
  memset(d, 0, sizeof *d);
  if (out) *out = NULL;
  if (!domain_path || !problem_path || !out) {
    d->status = GOAP_INVALID_ARGUMENT;
    snprintf(d->message, sizeof d->message, "NULL argument");
    return GOAP_INVALID_ARGUMENT;
  }
  goap_allocator a = {goap_libc_realloc, NULL};
  if (opt && opt->allocator.fn) a = opt->allocator;
  size_t max = opt && opt->max_bytes ? opt->max_bytes : GOAP_PDDL_MAX_BYTES;
  char *dt = NULL, *pt = NULL;
  size_t dl = 0, dc = 0, pl = 0, pc = 0;
  goap_status st = read_file(&a, domain_path, max, &dt, &dl, &dc, d);
  if (st == GOAP_OK) st = read_file(&a, problem_path, max, &pt, &pl, &pc, d);
  if (st == GOAP_OK)
    st = goap_pddl_parse(domain_path, dt, dl, problem_path, pt, pl, opt, out, d);
  goap__px_free(&a, dt, dc);
  goap__px_free(&a, pt, pc);
  return st;
}

int goap_hddl_is_htn(const goap_pddl_task *t) {
  return t && (t->c.opt.flags & GOAP_PDDL_HTN) && t->c.htn.htn_node >= 0;
}

const goap_domain *goap_pddl_domain(const goap_pddl_task *t) { return t ? t->c.domain : NULL; }
const goap_word *goap_pddl_start(const goap_pddl_task *t) { return t ? t->c.start : NULL; }

const goap_cond *goap_pddl_goal(const goap_pddl_task *t, int *count) {
  if (count) *count = t && t->c.domain ? t->c.ngoalc : 0;
  return t && t->c.domain ? t->c.goal : NULL;
}

const char *goap_pddl_domain_name(const goap_pddl_task *t) {
  return t ? px_name(&t->c, t->c.domain_sym) : NULL;
}
const char *goap_pddl_problem_name(const goap_pddl_task *t) {
  return t ? px_name(&t->c, t->c.problem_sym) : NULL;
}

int goap_pddl_has_costs(const goap_pddl_task *t) {
  return t && t->c.metric && t->c.uses_costs;
}

void goap_pddl_get_info(const goap_pddl_task *t, goap_pddl_info *out) {
  if (!out) return;
  if (!t) {
    memset(out, 0, sizeof *out);
    return;
  }
  *out = t->c.info;
}

size_t goap_pddl_format_action(const goap_pddl_task *task, int action, char *buf, size_t cap) {
  if (!task || !task->c.domain || action < 0 ||
      action >= goap_domain_action_count(task->c.domain)) {
    if (cap) snprintf(buf, cap, "(?)");
    return 3;
  }
  const px_task_core *t = &task->c;
  int32_t e = t->act_of[action];
  int n = 0;
  const int32_t *args = px_tset_args(&t->gacts, e, &n);
  const px_schema *s = &t->schemas[px_tset_id(&t->gacts, e)];
  size_t len = 0;
  int k = snprintf(buf, cap, "(%s", px_name(t, s->sym));
  len += (size_t)(k > 0 ? k : 0);
  for (int i = 0; i < n; ++i) {
    k = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, " %s",
                 px_name(t, t->objects[args[i]].sym));
    len += (size_t)(k > 0 ? k : 0);
  }
  k = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, ")");
  len += (size_t)(k > 0 ? k : 0);
  return len;
}
