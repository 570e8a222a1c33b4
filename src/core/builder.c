/*
 * builder.c -- collects and validates variables, actions and goals; compiles a domain.
 *
 * Invariants:
 *  - Everything stored in the builder has been validated completely by the add_* call that
 *    stored it; a failed call stores nothing (all-or-nothing) and records one error message and
 *    the offending item (kind + index).
 *  - Strings are deep-copied on add; the domain made by build() copies them again, so the
 *    builder and the domain can be destroyed in any order. An action's name, conditions and
 *    effects are copied into 16 KiB chunks freed only with the builder (a call that fails
 *    after taking chunk space stores nothing; the space is just unused).
 *  - Packing: fields are placed by decreasing width (ties by id), first fit, never straddling a
 *    word, so a domain whose fields fit in 64 bits uses exactly one word.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

struct goap_builder {
  goap_allocator alloc;
  char *name;
  goap__var *vars;
  size_t nvars, cvars;
  goap__action *actions;
  size_t nactions, cactions;
  goap__goal *goals;
  size_t ngoals, cgoals;
  goap__names var_names, action_names, goal_names;
  goap_error err; /* the last call's (goap_builder_error) */
  goap_item_kind err_item;
  int err_index;
  uint32_t *seen;      /* per variable: the stamp of the last action that wrote it */
  size_t cseen;
  uint32_t stamp;
  struct bchunk *chunks; /* actions' names, conditions and effects (newest chunk first) */
  size_t chunk_used;     /* bytes used in the newest chunk */
};

/* A block of action data: one allocation serves many actions (freed with the builder). The
 * 16-byte header keeps the data after it aligned for goap_cond and goap_effect. */
typedef struct bchunk {
  struct bchunk *prev;
  size_t size; /* bytes of data after this header */
} bchunk;
#define CHUNK_BYTES 16384u

#define MAX_NAME 4096

/* ---- errors -------------------------------------------------------------------------------- */

static goap_status fail(goap_builder *b, goap_status st, goap_item_kind item, int index,
                        const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  goap__err_clear(&b->err);
  b->err.status = st;
  vsnprintf(b->err.message, sizeof b->err.message, fmt, ap);
  va_end(ap);
  b->err_item = item;
  b->err_index = index;
  return st;
}

static void clear_error(goap_builder *b) {
  goap__err_clear(&b->err);
  b->err_item = GOAP_ITEM_NONE;
  b->err_index = -1;
}

static int valid_name(const char *s) {
  if (!s || !*s) return 0;
  size_t n = 0;
  for (; *s; ++s, ++n) {
    if ((unsigned char)*s < 0x20 || *s == 0x7f) return 0;
    if (n >= MAX_NAME) return 0;
  }
  return 1;
}

/* ---- lifetime ------------------------------------------------------------------------------ */

goap_status goap_builder_create(const goap_allocator *alloc, goap_builder **out) {
  goap_allocator a = {0, 0};
  if (!out) return GOAP_INVALID_ARGUMENT;
  *out = NULL;
  if (alloc) a = *alloc;
  goap_builder *b = (goap_builder *)goap__alloc(&a, sizeof *b);
  if (!b) return GOAP_OUT_OF_MEMORY;
  memset(b, 0, sizeof *b);
  b->alloc = a;
  clear_error(b);
  *out = b;
  return GOAP_OK;
}

static void free_var(const goap_allocator *a, goap__var *v) {
  goap__strfree(a, v->name);
  if (v->values) {
    for (int i = 0; i < v->nvalues; ++i) goap__strfree(a, v->values[i]);
    goap__free(a, v->values, (size_t)v->nvalues * sizeof *v->values);
  }
}

/* n bytes (rounded up to 16) in the newest chunk, or in a new one; NULL when out of memory. */
static void *chunk_space(goap_builder *b, size_t n) {
  n = (n + 15u) & ~(size_t)15u;
  if (!b->chunks || b->chunks->size - b->chunk_used < n) {
    size_t size = n > CHUNK_BYTES ? n : CHUNK_BYTES;
    bchunk *c = (bchunk *)goap__alloc(&b->alloc, sizeof *c + size);
    if (!c) return NULL;
    c->prev = b->chunks;
    c->size = size;
    b->chunks = c;
    b->chunk_used = 0;
  }
  char *p = (char *)(b->chunks + 1) + b->chunk_used;
  b->chunk_used += n;
  return p;
}

static void free_goal(const goap_allocator *a, goap__goal *g) {
  goap__strfree(a, g->name);
  goap__free(a, g->want, (size_t)g->nwant * sizeof *g->want);
}

void goap_builder_destroy(goap_builder *b) {
  if (!b) return;
  goap_allocator a = b->alloc;
  for (size_t i = 0; i < b->nvars; ++i) free_var(&a, &b->vars[i]);
  while (b->chunks) { /* the actions' names, conditions and effects */
    bchunk *c = b->chunks;
    b->chunks = c->prev;
    goap__free(&a, c, sizeof *c + c->size);
  }
  for (size_t i = 0; i < b->ngoals; ++i) free_goal(&a, &b->goals[i]);
  goap__free(&a, b->vars, b->cvars * sizeof *b->vars);
  goap__free(&a, b->actions, b->cactions * sizeof *b->actions);
  goap__free(&a, b->goals, b->cgoals * sizeof *b->goals);
  goap__names_free(&a, &b->var_names);
  goap__names_free(&a, &b->action_names);
  goap__names_free(&a, &b->goal_names);
  goap__free(&a, b->seen, b->cseen * sizeof *b->seen);
  goap__strfree(&a, b->name);
  goap__free(&a, b, sizeof *b);
}

goap_status goap_builder_set_name(goap_builder *b, const char *name) {
  if (!b) return GOAP_INVALID_ARGUMENT;
  clear_error(b);
  if (!valid_name(name))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NAME, -1, "invalid domain name");
  char *n = goap__strdup(&b->alloc, name);
  if (!n) return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
  goap__strfree(&b->alloc, b->name);
  b->name = n;
  return GOAP_OK;
}

const goap_error *goap_builder_error(const goap_builder *b) { return b ? &b->err : NULL; }

goap_item_kind goap_builder_error_item(const goap_builder *b, int *index) {
  if (!b) {
    if (index) *index = -1;
    return GOAP_ITEM_NONE;
  }
  if (index) *index = b->err_index;
  return b->err_item;
}

int goap_builder_find_var(const goap_builder *b, const char *name) {
  return b ? (int)goap__names_findz(&b->var_names, 0, name) : -1;
}
int goap_builder_find_action(const goap_builder *b, const char *name) {
  return b ? (int)goap__names_findz(&b->action_names, 0, name) : -1;
}
int goap_builder_find_goal(const goap_builder *b, const char *name) {
  return b ? (int)goap__names_findz(&b->goal_names, 0, name) : -1;
}

/* ---- variables ----------------------------------------------------------------------------- */

static uint32_t bits_for(uint64_t range) {
  uint32_t n = 1;
  while (n < 64 && (range >> n) != 0) ++n;
  return n;
}

goap_status goap_builder_add_var(goap_builder *b, const goap_var_desc *d, int *out_id) {
  if (!b) return GOAP_INVALID_ARGUMENT;
  clear_error(b);
  if (!d) return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NONE, -1, "NULL variable description");
  if (!valid_name(d->name))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NAME, -1, "invalid variable name");
  if (goap__names_findz(&b->var_names, 0, d->name) >= 0)
    return fail(b, GOAP_DUPLICATE, GOAP_ITEM_NAME, -1, "variable '%s' is already defined",
                d->name);
  if (b->nvars >= (size_t)INT32_MAX / 2)
    return fail(b, GOAP_TOO_LARGE, GOAP_ITEM_NONE, -1, "too many variables");
  goap__var v;
  memset(&v, 0, sizeof v);
  v.type = d->type;
  v.flags = d->flags;
  switch (d->type) {
    case GOAP_BOOL:
      v.lo = 0;
      v.hi = 1;
      v.nvalues = 2;
      break;
    case GOAP_ENUM:
      if (d->value_count < 1 || d->value_count > GOAP_MAX_ENUM_VALUES || !d->values)
        return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_VALUE, -1,
                    "variable '%s': an enum needs 1 to %d values", d->name,
                    GOAP_MAX_ENUM_VALUES);
      {
        goap__names seen_values = {NULL, 0, 0};
        for (int i = 0; i < d->value_count; ++i) {
          if (!valid_name(d->values[i])) {
            goap__names_free(&b->alloc, &seen_values);
            return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_VALUE, i,
                        "variable '%s': invalid enum value name", d->name);
          }
          if (goap__names_findz(&seen_values, 0, d->values[i]) >= 0) {
            goap__names_free(&b->alloc, &seen_values);
            return fail(b, GOAP_DUPLICATE, GOAP_ITEM_VALUE, i,
                        "variable '%s': enum value '%s' is listed twice", d->name,
                        d->values[i]);
          }
          if (!goap__names_putz(&b->alloc, &seen_values, 0, d->values[i], i)) {
            goap__names_free(&b->alloc, &seen_values);
            return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
          }
        }
        goap__names_free(&b->alloc, &seen_values);
      }
      v.lo = 0;
      v.hi = d->value_count - 1;
      v.nvalues = d->value_count;
      break;
    case GOAP_INT:
      if (d->lo > d->hi)
        return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_RANGE, -1,
                    "variable '%s': empty range %ld..%ld", d->name, (long)d->lo, (long)d->hi);
      v.lo = d->lo;
      v.hi = d->hi;
      v.nvalues = 0;
      break;
    default:
      return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NONE, -1, "variable '%s': unknown type",
                  d->name);
  }
  v.def = v.lo;
  if (d->has_default) {
    if (d->default_value < v.lo || d->default_value > v.hi)
      return fail(b, GOAP_OUT_OF_RANGE, GOAP_ITEM_DEFAULT, -1,
                  "variable '%s': default %ld is outside %ld..%ld", d->name,
                  (long)d->default_value, (long)v.lo, (long)v.hi);
    v.def = d->default_value;
  }
  v.range = (uint64_t)((int64_t)v.hi - (int64_t)v.lo);
  v.bits = bits_for(v.range);
  v.fmask = (v.bits >= 64) ? ~0ull : ((1ull << v.bits) - 1);

  if (!goap__grow(&b->alloc, (void **)&b->vars, &b->cvars, b->nvars + 1, sizeof *b->vars))
    return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
  v.name = goap__strdup(&b->alloc, d->name);
  if (!v.name) return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
  if (d->type == GOAP_ENUM) {
    v.values = (char **)goap__alloc(&b->alloc, (size_t)v.nvalues * sizeof *v.values);
    if (!v.values) {
      goap__strfree(&b->alloc, v.name);
      return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
    }
    memset(v.values, 0, (size_t)v.nvalues * sizeof *v.values);
    for (int i = 0; i < v.nvalues; ++i) {
      v.values[i] = goap__strdup(&b->alloc, d->values[i]);
      if (!v.values[i]) {
        free_var(&b->alloc, &v);
        return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
      }
    }
  }
  if (!goap__names_putz(&b->alloc, &b->var_names, 0, v.name, (int32_t)b->nvars)) {
    free_var(&b->alloc, &v);
    return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
  }
  b->vars[b->nvars] = v;
  if (out_id) *out_id = (int)b->nvars;
  ++b->nvars;
  return GOAP_OK;
}

/* ---- conditions and effects ---------------------------------------------------------------- */

goap_status goap__check_cond(const goap__var *vars, int nvars, const goap_cond *c, char *msg,
                             size_t cap) {
  if (c->var < 0 || c->var >= nvars) {
    snprintf(msg, cap, "unknown variable id %ld", (long)c->var);
    return GOAP_NOT_FOUND;
  }
  const goap__var *v = &vars[c->var];
  if ((unsigned)c->op > (unsigned)GOAP_GE) {
    snprintf(msg, cap, "invalid operator on '%s'", v->name);
    return GOAP_INVALID_ARGUMENT;
  }
  if (v->type != GOAP_INT && c->op != GOAP_EQ && c->op != GOAP_NE) {
    snprintf(msg, cap, "'%s' is %s: only == and != apply", v->name,
             v->type == GOAP_BOOL ? "a bool" : "an enum");
    return GOAP_TYPE_MISMATCH;
  }
  if ((c->op == GOAP_EQ || c->op == GOAP_NE) && (c->value < v->lo || c->value > v->hi)) {
    snprintf(msg, cap, "value %ld is outside the range of '%s' (%ld..%ld)", (long)c->value,
             v->name, (long)v->lo, (long)v->hi);
    return GOAP_OUT_OF_RANGE;
  }
  return GOAP_OK;
}

static goap_status check_effect(const goap__var *vars, int nvars, const goap_effect *e,
                                char *msg, size_t cap) {
  if (e->var < 0 || e->var >= nvars) {
    snprintf(msg, cap, "unknown variable id %ld", (long)e->var);
    return GOAP_NOT_FOUND;
  }
  const goap__var *v = &vars[e->var];
  if (e->op == GOAP_SET) {
    if (e->value < v->lo || e->value > v->hi) {
      snprintf(msg, cap, "value %ld is outside the range of '%s' (%ld..%ld)", (long)e->value,
               v->name, (long)v->lo, (long)v->hi);
      return GOAP_OUT_OF_RANGE;
    }
    return GOAP_OK;
  }
  if (e->op == GOAP_ADD || e->op == GOAP_ADD_CLAMP) {
    if (v->type != GOAP_INT) {
      snprintf(msg, cap, "'%s' is %s: += and -= apply to ints only", v->name,
               v->type == GOAP_BOOL ? "a bool" : "an enum");
      return GOAP_TYPE_MISMATCH;
    }
    uint64_t mag = e->value < 0 ? (uint64_t)(-(int64_t)e->value) : (uint64_t)e->value;
    if (mag > v->range && e->op == GOAP_ADD) {
      snprintf(msg, cap, "adding %ld to '%s' always leaves its range %ld..%ld", (long)e->value,
               v->name, (long)v->lo, (long)v->hi);
      return GOAP_OUT_OF_RANGE;
    }
    return GOAP_OK;
  }
  snprintf(msg, cap, "invalid effect operator on '%s'", v->name);
  return GOAP_INVALID_ARGUMENT;
}

static goap_status check_conds(goap_builder *b, const char *what, const char *name,
                               const goap_cond *c, int n, goap_item_kind kind) {
  if (n < 0 || (n > 0 && !c))
    return fail(b, GOAP_INVALID_ARGUMENT, kind, -1, "%s '%s': bad condition array", what,
                name);
  char msg[256];
  for (int i = 0; i < n; ++i) {
    goap_status st = goap__check_cond(b->vars, (int)b->nvars, &c[i], msg, sizeof msg);
    if (st != GOAP_OK) return fail(b, st, kind, i, "%s '%s': %s", what, name, msg);
  }
  return GOAP_OK;
}

/* ---- actions and goals --------------------------------------------------------------------- */

goap_status goap_builder_set_state_cost(goap_builder *b, int action, goap_state_cost_fn fn,
                                        void *user, double min_cost, unsigned flags) {
  if (!b) return GOAP_INVALID_ARGUMENT;
  clear_error(b);
  if (action < 0 || (size_t)action >= b->nactions)
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NONE, -1, "no action with id %d", action);
  goap__action *a = &b->actions[action];
  if (!fn && (min_cost != 0.0 || flags))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_COST, -1,
                "action '%s': min_cost and flags need a state cost callback", a->name);
  if (!(min_cost >= 0.0) || !isfinite(min_cost))
    return fail(b, GOAP_OUT_OF_RANGE, GOAP_ITEM_COST, -1,
                "action '%s': min_cost must be a finite number >= 0", a->name);
  if (flags & ~GOAP_STATE_COST_PURE)
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_COST, -1,
                "action '%s': unknown state cost flags 0x%x", a->name,
                flags & ~GOAP_STATE_COST_PURE);
  a->scost = fn;
  a->scost_user = user;
  a->min_cost = min_cost;
  a->scost_flags = flags;
  return GOAP_OK;
}

goap_status goap_builder_add_action(goap_builder *b, const goap_action_desc *d, int *out_id) {
  if (!b) return GOAP_INVALID_ARGUMENT;
  clear_error(b);
  if (!d) return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NONE, -1, "NULL action description");
  if (!valid_name(d->name))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NAME, -1, "invalid action name");
  size_t key_len = strlen(d->name);
  uint32_t name_hash = goap__names_hash(0, d->name, key_len);
  if (goap__names_find_h(&b->action_names, 0, d->name, key_len, name_hash) >= 0)
    return fail(b, GOAP_DUPLICATE, GOAP_ITEM_NAME, -1, "action '%s' is already defined",
                d->name);
  if (!(d->cost >= 0.0) || !isfinite(d->cost))
    return fail(b, GOAP_OUT_OF_RANGE, GOAP_ITEM_COST, -1,
                "action '%s': cost must be a finite number >= 0", d->name);
  if (b->nactions >= (size_t)INT32_MAX / 2)
    return fail(b, GOAP_TOO_LARGE, GOAP_ITEM_NONE, -1, "too many actions");
  goap_status st = check_conds(b, "action", d->name, d->pre, d->pre_count, GOAP_ITEM_PRE);
  if (st != GOAP_OK) return st;
  if (d->eff_count < 0 || (d->eff_count > 0 && !d->eff))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_EFF, -1, "action '%s': bad effect array",
                d->name);
  char msg[256];
  /* one effect per variable: stamp each variable with this call's number (linear time) */
  size_t old_seen = b->cseen;
  if (!goap__grow(&b->alloc, (void **)&b->seen, &b->cseen, b->nvars ? b->nvars : 1,
                  sizeof *b->seen))
    return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
  if (b->cseen > old_seen)
    memset(b->seen + old_seen, 0, (b->cseen - old_seen) * sizeof *b->seen);
  if (++b->stamp == 0) {
    memset(b->seen, 0, b->cseen * sizeof *b->seen);
    b->stamp = 1;
  }
  for (int i = 0; i < d->eff_count; ++i) {
    st = check_effect(b->vars, (int)b->nvars, &d->eff[i], msg, sizeof msg);
    if (st != GOAP_OK) return fail(b, st, GOAP_ITEM_EFF, i, "action '%s': %s", d->name, msg);
    uint32_t *mark = &b->seen[d->eff[i].var];
    if (*mark == b->stamp)
      return fail(b, GOAP_CONFLICT, GOAP_ITEM_EFF, i,
                  "action '%s': two effects on variable '%s'", d->name,
                  b->vars[d->eff[i].var].name);
    *mark = b->stamp;
  }
  if (!goap__grow(&b->alloc, (void **)&b->actions, &b->cactions, b->nactions + 1,
                  sizeof *b->actions))
    return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
  goap__action a;
  memset(&a, 0, sizeof a);
  a.cost = d->cost;
  a.check = d->check;
  a.dyn_cost = d->dynamic_cost;
  a.user = d->user;
  a.npre = d->pre_count;
  a.neff = d->eff_count;
  /* conditions, effects and name in one piece of a chunk (kept until the builder goes, even
   * when the insertion below fails) */
  size_t pre_bytes = (size_t)a.npre * sizeof *a.pre, eff_bytes = (size_t)a.neff * sizeof *a.eff;
  size_t name_len = strlen(d->name);
  char *space = (char *)chunk_space(b, pre_bytes + eff_bytes + name_len + 1);
  if (space) {
    if (a.npre) a.pre = (goap_cond *)(void *)space;
    if (a.neff) a.eff = (goap_effect *)(void *)(space + pre_bytes);
    a.name = space + pre_bytes + eff_bytes;
    memcpy(a.name, d->name, name_len + 1);
  }
  if (!space ||
      !goap__names_put_h(&b->alloc, &b->action_names, 0, a.name, key_len, (int32_t)b->nactions,
                         name_hash))
    return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
  if (a.npre) memcpy(a.pre, d->pre, (size_t)a.npre * sizeof *a.pre);
  if (a.neff) memcpy(a.eff, d->eff, (size_t)a.neff * sizeof *a.eff);
  b->actions[b->nactions] = a;
  if (out_id) *out_id = (int)b->nactions;
  ++b->nactions;
  return GOAP_OK;
}

goap_status goap_builder_add_goal(goap_builder *b, const goap_goal_desc *d, int *out_id) {
  if (!b) return GOAP_INVALID_ARGUMENT;
  clear_error(b);
  if (!d) return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NONE, -1, "NULL goal description");
  if (!valid_name(d->name))
    return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NAME, -1, "invalid goal name");
  if (goap__names_findz(&b->goal_names, 0, d->name) >= 0)
    return fail(b, GOAP_DUPLICATE, GOAP_ITEM_NAME, -1, "goal '%s' is already defined", d->name);
  if (!isfinite(d->priority))
    return fail(b, GOAP_OUT_OF_RANGE, GOAP_ITEM_NONE, -1, "goal '%s': priority must be finite",
                d->name);
  goap_status st = check_conds(b, "goal", d->name, d->want, d->want_count, GOAP_ITEM_WANT);
  if (st != GOAP_OK) return st;
  if (!goap__grow(&b->alloc, (void **)&b->goals, &b->cgoals, b->ngoals + 1, sizeof *b->goals))
    return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
  goap__goal g;
  memset(&g, 0, sizeof g);
  g.priority = d->priority;
  g.nwant = d->want_count;
  g.name = goap__strdup(&b->alloc, d->name);
  if (g.nwant) g.want = (goap_cond *)goap__alloc(&b->alloc, (size_t)g.nwant * sizeof *g.want);
  if (!g.name || (g.nwant && !g.want) ||
      !goap__names_putz(&b->alloc, &b->goal_names, 0, g.name ? g.name : "", (int32_t)b->ngoals)) {
    free_goal(&b->alloc, &g);
    return fail(b, GOAP_OUT_OF_MEMORY, GOAP_ITEM_NONE, -1, "out of memory");
  }
  if (g.nwant) memcpy(g.want, d->want, (size_t)g.nwant * sizeof *g.want);
  b->goals[b->ngoals] = g;
  if (out_id) *out_id = (int)b->ngoals;
  ++b->ngoals;
  return GOAP_OK;
}

/* ---- build ---------------------------------------------------------------------------------- */

goap_status goap__domain_compile(const goap_allocator *a, const char *name,
                                 const goap__var *vars, int nvars, const goap__action *actions,
                                 int nactions, const goap__goal *goals, int ngoals,
                                 goap_domain **out);

goap_status goap_builder_build(goap_builder *b, goap_domain **out) {
  if (!b) return GOAP_INVALID_ARGUMENT;
  clear_error(b);
  if (!out) return fail(b, GOAP_INVALID_ARGUMENT, GOAP_ITEM_NONE, -1, "NULL output pointer");
  *out = NULL;
  goap_status st = goap__domain_compile(&b->alloc, b->name ? b->name : "domain", b->vars,
                                        (int)b->nvars, b->actions, (int)b->nactions, b->goals,
                                        (int)b->ngoals, out);
  if (st == GOAP_OUT_OF_MEMORY) return fail(b, st, GOAP_ITEM_NONE, -1, "out of memory");
  if (st != GOAP_OK) return fail(b, st, GOAP_ITEM_NONE, -1, "%s", goap_status_string(st));
  return GOAP_OK;
}
