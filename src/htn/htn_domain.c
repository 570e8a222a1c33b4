/*
 * htn_domain.c -- the HTN builder and the compiled HTN domain, plus the condition compiler
 * (allocation, the name table and the clock are base/base.h's).
 *
 * Invariants:
 *  - add_task / add_method validate completely before changing anything: a failed call adds
 *    nothing and leaves the builder usable (also when the allocator fails).
 *  - Method descriptions are deep-copied (names, conditions, subtasks and their lists).
 *  - build groups methods by task (keeping their order) into flat pools and compiles the
 *    conditions; the builder is left unchanged.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htn_internal.h"

/* ------------------------------------------------------------------------------------------
 * Utilities
 * ---------------------------------------------------------------------------------------- */
int htn__compile_cond(const goap_domain *d, const goap_cond *c, htn__test *out) {
  goap_var_info vi;
  int64_t lo, hi, v;
  memset(out, 0, sizeof *out);
  if (goap_domain_var_info(d, c->var, &vi) != GOAP_OK) return 0;
  lo = vi.lo;
  hi = vi.hi;
  v = c->value;
  switch (c->op) {
    case GOAP_EQ: lo = hi = v; break;
    case GOAP_NE:
      out->has_ne = v >= vi.lo && v <= vi.hi;
      out->ne = (uint64_t)(v - vi.lo);
      break;
    case GOAP_LT: if (v - 1 < hi) hi = v - 1; break;
    case GOAP_LE: if (v < hi) hi = v; break;
    case GOAP_GT: if (v + 1 > lo) lo = v + 1; break;
    case GOAP_GE: if (v > lo) lo = v; break;
  }
  if (lo < vi.lo) lo = vi.lo;
  if (hi > vi.hi) hi = vi.hi;
  out->word = (uint32_t)vi.word;
  out->shift = (uint32_t)vi.shift;
  out->mask = vi.bits >= 64 ? ~0ull : ((1ull << vi.bits) - 1);
  if (lo > hi) return 0;
  out->a = (uint64_t)(lo - vi.lo);
  out->b = (uint64_t)(hi - vi.lo);
  return 1;
}

/* ------------------------------------------------------------------------------------------
 * The builder
 * ---------------------------------------------------------------------------------------- */
typedef struct bmethod {
  char *name;
  int32_t task;
  goap_cond *when;
  int nwhen;
  goap_htn_subtask *subs; /* conds / effs deep-copied */
  int nsubs;
} bmethod;

struct goap_htn_builder {
  goap_allocator alloc;
  const goap_domain *d;
  char **tasks;
  size_t ntasks, tasks_cap;
  int32_t *task_nmethods;
  size_t task_nmethods_cap;
  bmethod *methods;
  size_t nmethods, methods_cap;
  goap__names names; /* tasks: ns -1; methods: ns = task */
  goap_error error; /* the last call's (goap_htn_builder_error) */
  goap_htn_item item;
  int item_index, item_sub;
};

goap_status goap_htn_builder_create(const goap_domain *d, const goap_allocator *alloc,
                                    goap_htn_builder **out) {
  goap_allocator a = goap__resolve(alloc);
  goap_htn_builder *b;
  if (!out) return GOAP_INVALID_ARGUMENT;
  *out = NULL;
  if (!d) return GOAP_INVALID_ARGUMENT;
  b = (goap_htn_builder *)goap__alloc(&a, sizeof *b);
  if (!b) return GOAP_OUT_OF_MEMORY;
  memset(b, 0, sizeof *b);
  b->alloc = a;
  b->d = d;
  goap__err_clear(&b->error);
  *out = b;
  return GOAP_OK;
}

static void free_subs(const goap_allocator *a, goap_htn_subtask *subs, int n) {
  int i;
  if (!subs) return;
  for (i = 0; i < n; ++i) {
    goap__free(a, (void *)(uintptr_t)subs[i].conds, (size_t)subs[i].cond_count * sizeof(goap_cond));
    goap__free(a, (void *)(uintptr_t)subs[i].effs, (size_t)subs[i].eff_count * sizeof(goap_effect));
  }
  goap__free(a, subs, (size_t)n * sizeof *subs);
}

static void free_bmethod(const goap_allocator *a, bmethod *m) {
  goap__strfree(a, m->name);
  goap__free(a, m->when, (size_t)m->nwhen * sizeof *m->when);
  free_subs(a, m->subs, m->nsubs);
}

void goap_htn_builder_destroy(goap_htn_builder *b) {
  goap_allocator a;
  size_t i;
  if (!b) return;
  a = b->alloc;
  for (i = 0; i < b->ntasks; ++i) goap__strfree(&a, b->tasks[i]);
  goap__free(&a, b->tasks, b->tasks_cap * sizeof *b->tasks);
  goap__free(&a, b->task_nmethods, b->task_nmethods_cap * sizeof *b->task_nmethods);
  for (i = 0; i < b->nmethods; ++i) free_bmethod(&a, &b->methods[i]);
  goap__free(&a, b->methods, b->methods_cap * sizeof *b->methods);
  goap__names_free(&a, &b->names);
  goap__free(&a, b, sizeof *b);
}

static goap_status fail(goap_htn_builder *b, goap_status st, goap_htn_item item, int index,
                        int sub, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static goap_status fail(goap_htn_builder *b, goap_status st, goap_htn_item item, int index,
                        int sub, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  goap__err_clear(&b->error);
  b->error.status = st;
  vsnprintf(b->error.message, sizeof b->error.message, fmt, ap);
  va_end(ap);
  b->item = item;
  b->item_index = index;
  b->item_sub = sub;
  return st;
}

static void clear_error(goap_htn_builder *b) {
  goap__err_clear(&b->error);
  b->item = GOAP_HTN_ITEM_NONE;
  b->item_index = b->item_sub = -1;
}

static int valid_name(const char *s) {
  const char *p;
  if (!s || !*s) return 0;
  if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
  for (p = s + 1; *p; ++p)
    if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
          *p == '_'))
      return 0;
  return (size_t)(p - s) <= 255;
}

goap_status goap_htn_builder_add_task(goap_htn_builder *b, const char *name, int *out_id) {
  char *copy;
  if (!b) return GOAP_INVALID_ARGUMENT;
  clear_error(b);
  if (!name)
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_NAME, -1, -1, "task name is NULL");
  if (!valid_name(name))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_NAME, -1, -1,
                "invalid task name '%.64s': names match [A-Za-z_][A-Za-z0-9_]* (at most 255 "
                "characters)", name);
  if (goap__names_findz(&b->names, -1, name) >= 0)
    return fail(b, GOAP_DUPLICATE, GOAP_HTN_ITEM_NAME, -1, -1, "duplicate task '%s'", name);
  if (b->ntasks >= 0x7fffffff / 2)
    return fail(b, GOAP_TOO_LARGE, GOAP_HTN_ITEM_NONE, -1, -1, "too many tasks");
  if (!goap__grow(&b->alloc, (void **)&b->tasks, &b->tasks_cap, b->ntasks + 1, sizeof *b->tasks) ||
      !goap__grow(&b->alloc, (void **)&b->task_nmethods, &b->task_nmethods_cap, b->ntasks + 1,
                 sizeof *b->task_nmethods))
    return fail(b, GOAP_OUT_OF_MEMORY, GOAP_HTN_ITEM_NONE, -1, -1, "out of memory");
  copy = goap__strdup(&b->alloc, name);
  if (!copy) return fail(b, GOAP_OUT_OF_MEMORY, GOAP_HTN_ITEM_NONE, -1, -1, "out of memory");
  if (!goap__names_putz(&b->alloc, &b->names, -1, copy, (int32_t)b->ntasks)) {
    goap__strfree(&b->alloc, copy);
    return fail(b, GOAP_OUT_OF_MEMORY, GOAP_HTN_ITEM_NONE, -1, -1, "out of memory");
  }
  b->tasks[b->ntasks] = copy;
  b->task_nmethods[b->ntasks] = 0;
  if (out_id) *out_id = (int)b->ntasks;
  ++b->ntasks;
  return GOAP_OK;
}

/* Validates a condition; writes a message (without context) into msg. */
static goap_status check_cond(const goap_domain *d, const goap_cond *c, char *msg, size_t cap) {
  goap_var_info vi;
  if (goap_domain_var_info(d, c->var, &vi) != GOAP_OK) {
    snprintf(msg, cap, "unknown variable id %ld", (long)c->var);
    return GOAP_INVALID_ARGUMENT;
  }
  if ((unsigned)c->op > (unsigned)GOAP_GE) {
    snprintf(msg, cap, "invalid operator %d on '%s'", (int)c->op, vi.name);
    return GOAP_INVALID_ARGUMENT;
  }
  if (vi.type != GOAP_INT && c->op != GOAP_EQ && c->op != GOAP_NE) {
    snprintf(msg, cap, "'%s' is %s: only == and != apply", vi.name,
             vi.type == GOAP_BOOL ? "a bool" : "an enum");
    return GOAP_TYPE_MISMATCH;
  }
  if (c->value < vi.lo || c->value > vi.hi) {
    snprintf(msg, cap, "value %ld is outside the range %ld..%ld of '%s'", (long)c->value,
             (long)vi.lo, (long)vi.hi, vi.name);
    return GOAP_OUT_OF_RANGE;
  }
  return GOAP_OK;
}

static goap_status check_effects(const goap_domain *d, const goap_effect *e, int n, int *bad,
                                 char *msg, size_t cap) {
  int i, j;
  for (i = 0; i < n; ++i) {
    goap_var_info vi;
    *bad = i;
    if (goap_domain_var_info(d, e[i].var, &vi) != GOAP_OK) {
      snprintf(msg, cap, "unknown variable id %ld", (long)e[i].var);
      return GOAP_INVALID_ARGUMENT;
    }
    if (e[i].op == GOAP_SET) {
      if (e[i].value < vi.lo || e[i].value > vi.hi) {
        snprintf(msg, cap, "value %ld is outside the range %ld..%ld of '%s'", (long)e[i].value,
                 (long)vi.lo, (long)vi.hi, vi.name);
        return GOAP_OUT_OF_RANGE;
      }
    } else if (e[i].op == GOAP_ADD || e[i].op == GOAP_ADD_CLAMP) {
      if (vi.type != GOAP_INT) {
        snprintf(msg, cap, "'+=' needs an int variable; '%s' is %s", vi.name,
                 vi.type == GOAP_BOOL ? "a bool" : "an enum");
        return GOAP_TYPE_MISMATCH;
      }
    } else {
      snprintf(msg, cap, "invalid effect operator %d on '%s'", (int)e[i].op, vi.name);
      return GOAP_INVALID_ARGUMENT;
    }
    for (j = 0; j < i; ++j)
      if (e[j].var == e[i].var) {
        snprintf(msg, cap, "two effects on variable '%s'", vi.name);
        return GOAP_CONFLICT;
      }
  }
  *bad = -1;
  return GOAP_OK;
}

goap_status goap_htn_builder_add_method(goap_htn_builder *b, int task,
                                        const goap_htn_method_desc *desc, int *out_index) {
  const goap_domain *d;
  bmethod m;
  char msg[256];
  int i;
  goap_status st;
  if (!b) return GOAP_INVALID_ARGUMENT;
  clear_error(b);
  d = b->d;
  if (!desc) return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_NONE, -1, -1, "desc is NULL");
  if (task < 0 || (size_t)task >= b->ntasks)
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_NONE, -1, -1, "unknown task id %d",
                task);
  if (!desc->name)
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_NAME, -1, -1,
                "task '%s': method name is NULL", b->tasks[task]);
  if (!valid_name(desc->name))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_NAME, -1, -1,
                "task '%s': invalid method name '%.64s': names match [A-Za-z_][A-Za-z0-9_]*",
                b->tasks[task], desc->name);
  if (goap__names_findz(&b->names, task, desc->name) >= 0)
    return fail(b, GOAP_DUPLICATE, GOAP_HTN_ITEM_NAME, -1, -1,
                "task '%s': duplicate method '%s'", b->tasks[task], desc->name);
  if (desc->when_count < 0 || (desc->when_count > 0 && !desc->when))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_NONE, -1, -1,
                "method '%s': bad condition list", desc->name);
  if (desc->subtask_count < 0 || (desc->subtask_count > 0 && !desc->subtasks))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_NONE, -1, -1,
                "method '%s': bad subtask list", desc->name);
  for (i = 0; i < desc->when_count; ++i) {
    st = check_cond(d, &desc->when[i], msg, sizeof msg);
    if (st != GOAP_OK)
      return fail(b, st, GOAP_HTN_ITEM_WHEN, i, -1, "method '%s' of task '%s': %s", desc->name,
                  b->tasks[task], msg);
  }
  for (i = 0; i < desc->subtask_count; ++i) {
    const goap_htn_subtask *s = &desc->subtasks[i];
    int j, bad = -1;
    switch (s->kind) {
      case GOAP_HTN_ACTION:
        if (s->id < 0 || s->id >= goap_domain_action_count(d))
          return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_SUBTASK, i, -1,
                      "method '%s' of task '%s': subtask %d: unknown action id %ld", desc->name,
                      b->tasks[task], i + 1, (long)s->id);
        break;
      case GOAP_HTN_TASK:
        if (s->id < 0 || (size_t)s->id >= b->ntasks)
          return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_SUBTASK, i, -1,
                      "method '%s' of task '%s': subtask %d: unknown task id %ld", desc->name,
                      b->tasks[task], i + 1, (long)s->id);
        break;
      case GOAP_HTN_ACHIEVE_GOAL:
        if (s->id < 0 || s->id >= goap_domain_goal_count(d))
          return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_SUBTASK, i, -1,
                      "method '%s' of task '%s': subtask %d: unknown goal id %ld", desc->name,
                      b->tasks[task], i + 1, (long)s->id);
        break;
      case GOAP_HTN_ACHIEVE:
        if (s->cond_count < 0 || (s->cond_count > 0 && !s->conds))
          return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_SUBTASK, i, -1,
                      "method '%s' of task '%s': subtask %d: bad condition list", desc->name,
                      b->tasks[task], i + 1);
        for (j = 0; j < s->cond_count; ++j) {
          st = check_cond(d, &s->conds[j], msg, sizeof msg);
          if (st != GOAP_OK)
            return fail(b, st, GOAP_HTN_ITEM_SUBTASK, i, j,
                        "method '%s' of task '%s': achieve: %s", desc->name, b->tasks[task],
                        msg);
        }
        break;
      case GOAP_HTN_SET:
        if (s->eff_count <= 0 || !s->effs)
          return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_SUBTASK, i, -1,
                      "method '%s' of task '%s': subtask %d: 'set' needs at least one effect",
                      desc->name, b->tasks[task], i + 1);
        st = check_effects(d, s->effs, s->eff_count, &bad, msg, sizeof msg);
        if (st != GOAP_OK)
          return fail(b, st, GOAP_HTN_ITEM_SUBTASK, i, bad, "method '%s' of task '%s': set: %s",
                      desc->name, b->tasks[task], msg);
        break;
      case GOAP_HTN_PAUSE:
        break;
      default:
        return fail(b, GOAP_INVALID_ARGUMENT, GOAP_HTN_ITEM_SUBTASK, i, -1,
                    "method '%s' of task '%s': subtask %d: invalid kind %d", desc->name,
                    b->tasks[task], i + 1, (int)s->kind);
    }
  }
  if (b->task_nmethods[task] >= 0x7fff0000)
    return fail(b, GOAP_TOO_LARGE, GOAP_HTN_ITEM_NONE, -1, -1, "too many methods");
  /* Copy. */
  memset(&m, 0, sizeof m);
  m.task = task;
  m.name = goap__strdup(&b->alloc, desc->name);
  if (!m.name) goto oom;
  if (desc->when_count) {
    m.when = (goap_cond *)goap__alloc(&b->alloc, (size_t)desc->when_count * sizeof *m.when);
    if (!m.when) goto oom;
    m.nwhen = desc->when_count;
    memcpy(m.when, desc->when, (size_t)desc->when_count * sizeof *m.when);
  }
  if (desc->subtask_count) {
    m.subs = (goap_htn_subtask *)goap__alloc(&b->alloc,
                                            (size_t)desc->subtask_count * sizeof *m.subs);
    if (!m.subs) goto oom;
    memset(m.subs, 0, (size_t)desc->subtask_count * sizeof *m.subs);
    m.nsubs = desc->subtask_count;
    for (i = 0; i < desc->subtask_count; ++i) {
      const goap_htn_subtask *s = &desc->subtasks[i];
      goap_htn_subtask *t = &m.subs[i];
      t->kind = s->kind;
      t->id = s->kind == GOAP_HTN_ACTION || s->kind == GOAP_HTN_TASK ||
                      s->kind == GOAP_HTN_ACHIEVE_GOAL
                  ? s->id
                  : -1;
      if (s->kind == GOAP_HTN_ACHIEVE && s->cond_count) {
        goap_cond *c = (goap_cond *)goap__alloc(&b->alloc, (size_t)s->cond_count * sizeof *c);
        if (!c) goto oom;
        memcpy(c, s->conds, (size_t)s->cond_count * sizeof *c);
        t->conds = c;
        t->cond_count = s->cond_count;
      }
      if (s->kind == GOAP_HTN_SET) {
        goap_effect *e = (goap_effect *)goap__alloc(&b->alloc, (size_t)s->eff_count * sizeof *e);
        if (!e) goto oom;
        memcpy(e, s->effs, (size_t)s->eff_count * sizeof *e);
        t->effs = e;
        t->eff_count = s->eff_count;
      }
    }
  }
  if (!goap__grow(&b->alloc, (void **)&b->methods, &b->methods_cap, b->nmethods + 1,
                 sizeof *b->methods))
    goto oom;
  if (!goap__names_putz(&b->alloc, &b->names, task, m.name, b->task_nmethods[task])) goto oom;
  b->methods[b->nmethods++] = m;
  if (out_index) *out_index = b->task_nmethods[task];
  b->task_nmethods[task]++;
  return GOAP_OK;
oom:
  free_bmethod(&b->alloc, &m);
  return fail(b, GOAP_OUT_OF_MEMORY, GOAP_HTN_ITEM_NONE, -1, -1, "out of memory");
}

int goap_htn_builder_find_task(const goap_htn_builder *b, const char *name) {
  if (!b || !name) return -1;
  return goap__names_findz(&b->names, -1, name);
}

const goap_error *goap_htn_builder_error(const goap_htn_builder *b) {
  return b ? &b->error : NULL;
}

goap_htn_item goap_htn_builder_error_item(const goap_htn_builder *b, int *index, int *sub) {
  if (index) *index = b ? b->item_index : -1;
  if (sub) *sub = b ? b->item_sub : -1;
  return b ? b->item : GOAP_HTN_ITEM_NONE;
}

/* ------------------------------------------------------------------------------------------
 * Build
 * ---------------------------------------------------------------------------------------- */
void goap_htn_domain_destroy(goap_htn_domain *h) {
  goap_allocator a;
  int i;
  if (!h) return;
  a = h->alloc;
  for (i = 0; i < h->ntasks; ++i) goap__strfree(&a, h->task_names ? h->task_names[i] : NULL);
  goap__free(&a, h->task_names, (size_t)h->ntasks * sizeof *h->task_names);
  goap__free(&a, h->task_m0, (size_t)h->ntasks * sizeof *h->task_m0);
  goap__free(&a, h->task_mn, (size_t)h->ntasks * sizeof *h->task_mn);
  for (i = 0; i < h->nmethods; ++i) {
    if (!h->methods) break;
    goap__strfree(&a, h->methods[i].name);
    goap__free(&a, h->methods[i].when, (size_t)h->methods[i].nwhen * sizeof(goap_cond));
  }
  goap__free(&a, h->methods, (size_t)h->nmethods * sizeof *h->methods);
  goap__free(&a, h->subs, ((size_t)h->nsubs + (size_t)h->ntasks) * sizeof *h->subs);
  goap__free(&a, h->conds, h->nconds * sizeof *h->conds);
  goap__free(&a, h->effs, h->neffs * sizeof *h->effs);
  goap__free(&a, h->tests, h->ntests * sizeof *h->tests);
  goap__free(&a, h->aw, h->naw * sizeof *h->aw);
  goap__free(&a, h->aw_off, ((size_t)h->nactions + 1) * sizeof *h->aw_off);
  goap__free(&a, h->var_word, (size_t)h->nvars * sizeof *h->var_word);
  goap__names_free(&a, &h->names);
  goap__free(&a, h, sizeof *h);
}

goap_status goap_htn_builder_build(goap_htn_builder *b, goap_htn_domain **out) {
  goap_htn_domain *h;
  const goap_allocator *a;
  size_t i, nsubs = 0, nconds = 0, neffs = 0, ntests = 0, si = 0, ci = 0, ei = 0, ti = 0;
  int t, nactions, nvars;
  int32_t *fill = NULL;
  if (out) *out = NULL;
  if (!b || !out) return GOAP_INVALID_ARGUMENT;
  clear_error(b);
  a = &b->alloc;
  for (i = 0; i < b->ntasks; ++i)
    if (b->task_nmethods[i] == 0)
      return fail(b, GOAP_INVALID_OPERATION, GOAP_HTN_ITEM_TASK, (int)i, -1,
                  "task '%s' has no method", b->tasks[i]);
  for (i = 0; i < b->nmethods; ++i) {
    int k;
    nsubs += (size_t)b->methods[i].nsubs;
    ntests += (size_t)b->methods[i].nwhen;
    for (k = 0; k < b->methods[i].nsubs; ++k) {
      nconds += (size_t)b->methods[i].subs[k].cond_count;
      neffs += (size_t)b->methods[i].subs[k].eff_count;
    }
  }
  if (nsubs + b->ntasks >= 0x7fffffffu || ntests >= 0xffffffffu)
    return fail(b, GOAP_TOO_LARGE, GOAP_HTN_ITEM_NONE, -1, -1, "too many subtasks");
  h = (goap_htn_domain *)goap__alloc(a, sizeof *h);
  if (!h) return fail(b, GOAP_OUT_OF_MEMORY, GOAP_HTN_ITEM_NONE, -1, -1, "out of memory");
  memset(h, 0, sizeof *h);
  h->alloc = *a;
  h->d = b->d;
  nactions = goap_domain_action_count(b->d);
  nvars = goap_domain_var_count(b->d);
  h->words = (uint32_t)goap_domain_state_words(b->d);
#define ALLOC_N(ptr, n)                                                     \
  do {                                                                      \
    (ptr) = goap__alloc(a, (size_t)(n) * sizeof *(ptr));                     \
    if (!(ptr)) goto oom;                                                   \
    memset((ptr), 0, (size_t)(n) * sizeof *(ptr));                          \
  } while (0)
  ALLOC_N(h->task_names, b->ntasks);
  h->ntasks = (int)b->ntasks;
  ALLOC_N(h->task_m0, b->ntasks);
  ALLOC_N(h->task_mn, b->ntasks);
  ALLOC_N(h->methods, b->nmethods);
  h->nmethods = (int)b->nmethods;
  ALLOC_N(h->subs, nsubs + b->ntasks);
  h->nsubs = (uint32_t)nsubs;
  ALLOC_N(h->conds, nconds);
  h->nconds = nconds;
  ALLOC_N(h->effs, neffs);
  h->neffs = neffs;
  ALLOC_N(h->tests, ntests);
  h->ntests = ntests;
  ALLOC_N(h->aw_off, (size_t)nactions + 1);
  h->nactions = nactions;
  ALLOC_N(h->var_word, nvars);
  h->nvars = nvars;
  ALLOC_N(fill, b->ntasks);
  for (t = 0; t < nvars; ++t) {
    goap_var_info vi;
    goap_domain_var_info(b->d, t, &vi);
    h->var_word[t] = (uint32_t)vi.word;
  }
  {
    size_t total = 0;
    int act;
    for (act = 0; act < nactions; ++act) {
      int n = 0;
      goap_domain_action_eff(b->d, act, &n);
      total += (size_t)n;
    }
    ALLOC_N(h->aw, total);
    h->naw = total;
    total = 0;
    for (act = 0; act < nactions; ++act) {
      int n = 0, k, j;
      const goap_effect *e = goap_domain_action_eff(b->d, act, &n);
      h->aw_off[act] = (uint32_t)total;
      for (k = 0; k < n; ++k) {
        uint32_t w = h->var_word[e[k].var];
        for (j = (int)h->aw_off[act]; j < (int)total; ++j)
          if (h->aw[j] == w) break;
        if (j == (int)total) h->aw[total++] = w;
      }
    }
    h->aw_off[nactions] = (uint32_t)total;
  }
  for (i = 0; i < b->ntasks; ++i) {
    h->task_names[i] = goap__strdup(a, b->tasks[i]);
    if (!h->task_names[i]) goto oom;
    if (!goap__names_putz(a, &h->names, -1, h->task_names[i], (int32_t)i)) goto oom;
  }
  {
    int32_t acc = 0;
    for (i = 0; i < b->ntasks; ++i) {
      h->task_m0[i] = acc;
      h->task_mn[i] = b->task_nmethods[i];
      acc += b->task_nmethods[i];
    }
  }
  /* Methods grouped by task in insertion order; subtasks in method order of the new layout. */
  for (i = 0; i < b->nmethods; ++i) {
    const bmethod *bm = &b->methods[i];
    int32_t idx = h->task_m0[bm->task] + fill[bm->task]++;
    htn__method *m = &h->methods[idx];
    m->task = bm->task;
    m->name = goap__strdup(a, bm->name);
    if (!m->name) goto oom;
    if (bm->nwhen) {
      m->when = (goap_cond *)goap__alloc(a, (size_t)bm->nwhen * sizeof *m->when);
      if (!m->when) goto oom;
      memcpy(m->when, bm->when, (size_t)bm->nwhen * sizeof *m->when);
      m->nwhen = bm->nwhen;
    }
  }
  {
    /* Second pass in the new order: for each task, its methods in order. */
    size_t *order;
    size_t k;
    int32_t *seen;
    order = (size_t *)goap__alloc(a, (b->nmethods ? b->nmethods : 1) * sizeof *order);
    if (!order) goto oom;
    seen = fill;
    memset(seen, 0, b->ntasks * sizeof *seen);
    for (k = 0; k < b->nmethods; ++k) {
      const bmethod *bm = &b->methods[k];
      order[(size_t)(h->task_m0[bm->task] + seen[bm->task]++)] = k;
    }
    for (k = 0; k < b->nmethods; ++k) {
      const bmethod *bm = &b->methods[order[k]];
      htn__method *m = &h->methods[k];
      int j;
      m->s0 = (uint32_t)si;
      m->sn = (uint32_t)bm->nsubs;
      m->t0 = (uint32_t)ti;
      m->tn = (uint32_t)bm->nwhen;
      for (j = 0; j < bm->nwhen; ++j)
        if (!htn__compile_cond(b->d, &bm->when[j], &h->tests[ti++])) m->never = 1;
      for (j = 0; j < bm->nsubs; ++j) {
        const goap_htn_subtask *s = &bm->subs[j];
        goap_htn_subtask *d2 = &h->subs[si++];
        *d2 = *s;
        d2->conds = NULL;
        d2->effs = NULL;
        if (s->cond_count) {
          memcpy(&h->conds[ci], s->conds, (size_t)s->cond_count * sizeof *h->conds);
          d2->conds = &h->conds[ci];
          ci += (size_t)s->cond_count;
        }
        if (s->eff_count) {
          memcpy(&h->effs[ei], s->effs, (size_t)s->eff_count * sizeof *h->effs);
          d2->effs = &h->effs[ei];
          ei += (size_t)s->eff_count;
        }
      }
    }
    goap__free(a, order, (b->nmethods ? b->nmethods : 1) * sizeof *order);
  }
  for (i = 0; i < b->ntasks; ++i) {
    goap_htn_subtask *r = &h->subs[nsubs + i];
    memset(r, 0, sizeof *r);
    r->kind = GOAP_HTN_TASK;
    r->id = (int32_t)i;
  }
  goap__free(a, fill, b->ntasks * sizeof *fill);
  *out = h;
  return GOAP_OK;
oom:
  goap__free(a, fill, b->ntasks * sizeof *fill);
  goap_htn_domain_destroy(h);
  return fail(b, GOAP_OUT_OF_MEMORY, GOAP_HTN_ITEM_NONE, -1, -1, "out of memory");
#undef ALLOC_N
}

/* ------------------------------------------------------------------------------------------
 * Queries
 * ---------------------------------------------------------------------------------------- */
const goap_domain *goap_htn_domain_goap(const goap_htn_domain *h) { return h ? h->d : NULL; }
int goap_htn_domain_task_count(const goap_htn_domain *h) { return h ? h->ntasks : 0; }
int goap_htn_domain_find_task(const goap_htn_domain *h, const char *name) {
  if (!h || !name) return -1;
  return goap__names_findz(&h->names, -1, name);
}
const char *goap_htn_domain_task_name(const goap_htn_domain *h, int task) {
  if (!h || task < 0 || task >= h->ntasks) return NULL;
  return h->task_names[task];
}
int goap_htn_domain_method_count(const goap_htn_domain *h, int task) {
  if (!h || task < 0 || task >= h->ntasks) return 0;
  return h->task_mn[task];
}
static const htn__method *method_at(const goap_htn_domain *h, int task, int method) {
  if (!h || task < 0 || task >= h->ntasks || method < 0 || method >= h->task_mn[task])
    return NULL;
  return &h->methods[h->task_m0[task] + method];
}
const char *goap_htn_domain_method_name(const goap_htn_domain *h, int task, int method) {
  const htn__method *m = method_at(h, task, method);
  return m ? m->name : NULL;
}
const goap_cond *goap_htn_domain_method_when(const goap_htn_domain *h, int task, int method,
                                             int *count) {
  const htn__method *m = method_at(h, task, method);
  if (count) *count = m ? m->nwhen : 0;
  return m ? m->when : NULL;
}
const goap_htn_subtask *goap_htn_domain_method_subtasks(const goap_htn_domain *h, int task,
                                                        int method, int *count) {
  const htn__method *m = method_at(h, task, method);
  if (count) *count = m ? (int)m->sn : 0;
  return m && m->sn ? &h->subs[m->s0] : NULL;
}
