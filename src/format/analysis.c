/*
 * analysis.c -- warnings for `goap check`: a relaxed reachability analysis that ignores delete
 * effects, computed once when a file is loaded, through the public domain query API only.
 *
 * The relaxation: bool and enum variables hold a *set* of reached values (starting with the
 * default; `shared`, `sensed` and `world` variables start with every value, since other agents,
 * the game's sensors or the world may set them); int variables an interval [lo, hi] of reachable
 * values (starting at the default and widened by the effects of reached actions: `= k` to
 * include k, `+= n` up to the variable's hi, `-= n` down to its lo). An action is reached when
 * each of its preconditions can hold in that relaxed state and each strict `+=` / `-=` (not
 * `clamp`) stays in range from some reachable value; reached actions add their effects, to a
 * fixpoint.
 *
 * Invariants:
 *  - The fixpoint is a worklist over actions: an action is re-examined only when a variable it
 *    reads changed; every change strictly grows a finite set or interval, so it terminates.
 *  - HTN: a `set` subtask's effects are added to the relaxed start (they may happen whenever a
 *    method runs), and a method whose `when` cannot hold in the fixpoint is reported.
 *  - Warnings are stored compactly (kind, id, detail, position, source line) and formatted on
 *    demand, so goap_file_warnings allocates nothing and the file stays immutable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format_internal.h"

typedef struct relax {
  const goap_domain *d;
  int nv, na;
  goap_var_info *vi;
  size_t *off;          /* bool/enum: offset of the var's values in reached */
  unsigned char *reached;
  int32_t *nreached;    /* bool/enum: number of reached values */
  int32_t *ilo, *ihi;   /* int: reachable interval */
} relax;

static int cond_holds(const relax *r, const goap_cond *c) {
  const goap_var_info *vi;
  if (c->var < 0 || c->var >= r->nv) return 0;
  vi = &r->vi[c->var];
  if (vi->type == GOAP_INT) {
    int32_t a = r->ilo[c->var], b = r->ihi[c->var];
    switch (c->op) {
      case GOAP_EQ: return a <= c->value && c->value <= b;
      case GOAP_NE: return !(a == b && a == c->value);
      case GOAP_LT: return a < c->value;
      case GOAP_LE: return a <= c->value;
      case GOAP_GT: return b > c->value;
      case GOAP_GE: return b >= c->value;
    }
    return 0;
  }
  {
    int in = c->value >= 0 && c->value < vi->value_count &&
             r->reached[r->off[c->var] + (size_t)c->value];
    if (c->op == GOAP_EQ) return in;
    if (c->op == GOAP_NE) return r->nreached[c->var] - in > 0;
    return 0;
  }
}

/* Applies one effect to the relaxed state; returns 1 if it changed anything. */
static int apply_effect(relax *r, const goap_effect *e) {
  const goap_var_info *vi;
  if (e->var < 0 || e->var >= r->nv) return 0;
  vi = &r->vi[e->var];
  if (vi->type == GOAP_INT) {
    int changed = 0;
    if (e->op == GOAP_SET) {
      if (e->value < r->ilo[e->var]) {
        r->ilo[e->var] = e->value;
        changed = 1;
      }
      if (e->value > r->ihi[e->var]) {
        r->ihi[e->var] = e->value;
        changed = 1;
      }
    } else if (e->value > 0 && r->ihi[e->var] < vi->hi) {
      r->ihi[e->var] = vi->hi;
      changed = 1;
    } else if (e->value < 0 && r->ilo[e->var] > vi->lo) {
      r->ilo[e->var] = vi->lo;
      changed = 1;
    }
    return changed;
  }
  if (e->op != GOAP_SET || e->value < 0 || e->value >= vi->value_count) return 0;
  if (r->reached[r->off[e->var] + (size_t)e->value]) return 0;
  r->reached[r->off[e->var] + (size_t)e->value] = 1;
  ++r->nreached[e->var];
  return 1;
}

static int first_failing(const relax *r, const goap_cond *c, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (!cond_holds(r, &c[i])) return i;
  return -1;
}

/* A strict `x += n` / `x -= n` needs x + n within the range: its implicit precondition. 1 when
 * some reachable value of x allows it (a saturating ADD_CLAMP always does). */
static int effect_fits(const relax *r, const goap_effect *e) {
  const goap_var_info *vi;
  int64_t lo, hi;
  if (e->op != GOAP_ADD || e->var < 0 || e->var >= r->nv) return 1;
  vi = &r->vi[e->var];
  lo = (int64_t)vi->lo - e->value; /* the values x that keep x + n in [vi->lo, vi->hi] */
  hi = (int64_t)vi->hi - e->value;
  return (int64_t)r->ilo[e->var] <= hi && lo <= (int64_t)r->ihi[e->var];
}

static int first_bad_effect(const relax *r, const goap_effect *e, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (!effect_fits(r, &e[i])) return i;
  return -1;
}

static int cmp_warning(const void *a, const void *b) {
  const goap__warning *x = (const goap__warning *)a, *y = (const goap__warning *)b;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* Copies the source line at off into the file's arena. */
static const char *copy_line(goap_file *f, const char *text, size_t len, size_t off) {
  size_t n = 0;
  while (off + n < len && text[off + n] != '\n' && n < 600) ++n;
  if (n > 0 && text[off + n - 1] == '\r') --n;
  return goap__arena_strndup(&f->alloc, &f->arena, text + off, n);
}

static goap_status add_warning(goap_file *f, const char *text, size_t len, goap__wkind kind,
                               int id, int detail, const goap__pos *pos) {
  goap__warning *w;
  void *g = goap__mem_grow(&f->alloc, f->warnings, &f->warnings_cap,
                           (size_t)f->warning_count + 1, sizeof *f->warnings);
  if (!g) return GOAP_OUT_OF_MEMORY;
  f->warnings = (goap__warning *)g;
  w = &f->warnings[f->warning_count];
  w->kind = kind;
  w->id = id;
  w->detail = detail;
  w->lo = w->hi = 0;
  w->line = pos->line;
  w->col = pos->col;
  w->src = copy_line(f, text, len, pos->line_off);
  if (!w->src) return GOAP_OUT_OF_MEMORY;
  ++f->warning_count;
  return GOAP_OK;
}

/* The compound task a method starts with (its first subtask), or -1. */
static int first_task(const goap_htn_domain *h, int t, int m) {
  int n = 0;
  const goap_htn_subtask *s = goap_htn_domain_method_subtasks(h, t, m, &n);
  return n > 0 && s[0].kind == GOAP_HTN_TASK ? (int)s[0].id : -1;
}

/* Left recursion: a method whose first subtask leads back to its own task through first
 * subtasks only decomposes again in the same state, so it never ends (the planner cuts it at
 * its depth limit) or never applies. One warning per such method, at its name. */
static goap_status left_cycles(goap_file *f, const char *text, size_t len) {
  const goap_htn_domain *h = f->htn;
  int nt = h ? goap_htn_domain_task_count(h) : 0, t, m, g = 0;
  goap_status st = GOAP_OK;
  unsigned char *seen;
  int *stack;
  if (nt <= 0 || !f->method_pos) return GOAP_OK;
  seen = (unsigned char *)goap__mem_alloc(&f->alloc, (size_t)nt);
  stack = (int *)goap__mem_alloc(&f->alloc, (size_t)nt * sizeof *stack);
  if (!seen || !stack) st = GOAP_OUT_OF_MEMORY;
  for (t = 0; st == GOAP_OK && t < nt; ++t)
    for (m = 0; st == GOAP_OK && m < goap_htn_domain_method_count(h, t); ++m, ++g) {
      int u = first_task(h, t, m), sp = 0, back = 0;
      if (u < 0) continue;
      memset(seen, 0, (size_t)nt);
      seen[u] = 1;
      stack[sp++] = u;
      while (sp > 0 && !back) { /* can u reach t through first subtasks? */
        int x = stack[--sp], k;
        if (x == t) back = 1;
        for (k = 0; !back && k < goap_htn_domain_method_count(h, x); ++k) {
          int y = first_task(h, x, k);
          if (y >= 0 && !seen[y]) {
            seen[y] = 1;
            stack[sp++] = y;
          }
        }
      }
      if (back) st = add_warning(f, text, len, GOAP__W_CYCLE, g, u, &f->method_pos[g]);
    }
  goap__mem_free(&f->alloc, seen, (size_t)nt);
  goap__mem_free(&f->alloc, stack, (size_t)nt * sizeof *stack);
  return st;
}

goap_status goap__analyse(goap_file *f, const char *text, size_t len) {
  const goap_allocator *a = &f->alloc;
  relax r;
  size_t total = 0, nwatch = 0;
  int i, j, ng, head = 0, tail = 0, qn = 0;
  goap_status st = GOAP_OUT_OF_MEMORY;
  unsigned char *used = NULL, *act_reached = NULL, *in_queue = NULL;
  int *queue = NULL, *wstart = NULL, *wlist = NULL;
  size_t sz_vi, sz_off, sz_n;
  memset(&r, 0, sizeof r);
  r.d = f->domain;
  r.nv = goap_domain_var_count(r.d);
  r.na = goap_domain_action_count(r.d);
  ng = goap_domain_goal_count(r.d);
  if (r.nv < 0 || r.na < 0 || ng < 0) return GOAP_INVALID_OPERATION;
  sz_vi = (size_t)r.nv * sizeof *r.vi;
  sz_off = (size_t)r.nv * sizeof *r.off;
  sz_n = (size_t)r.nv * sizeof(int32_t);
  r.vi = (goap_var_info *)goap__mem_alloc(a, sz_vi);
  r.off = (size_t *)goap__mem_alloc(a, sz_off);
  r.nreached = (int32_t *)goap__mem_alloc(a, sz_n);
  r.ilo = (int32_t *)goap__mem_alloc(a, sz_n);
  r.ihi = (int32_t *)goap__mem_alloc(a, sz_n);
  used = (unsigned char *)goap__mem_alloc(a, (size_t)r.nv);
  act_reached = (unsigned char *)goap__mem_alloc(a, (size_t)r.na);
  in_queue = (unsigned char *)goap__mem_alloc(a, (size_t)r.na);
  queue = (int *)goap__mem_alloc(a, (size_t)r.na * sizeof *queue);
  wstart = (int *)goap__mem_alloc(a, ((size_t)r.nv + 1) * sizeof *wstart);
  if (!r.vi || !r.off || !r.nreached || !r.ilo || !r.ihi || !used || !act_reached ||
      !in_queue || !queue || !wstart)
    goto done;
  memset(used, 0, (size_t)r.nv);
  memset(act_reached, 0, (size_t)r.na);
  memset(in_queue, 0, (size_t)r.na);
  for (i = 0; i < r.nv; ++i) {
    if (goap_domain_var_info(r.d, i, &r.vi[i]) != GOAP_OK) {
      st = GOAP_INVALID_OPERATION;
      goto done;
    }
    r.off[i] = total;
    if (r.vi[i].type != GOAP_INT) total += (size_t)r.vi[i].value_count;
    r.nreached[i] = 0;
    r.ilo[i] = r.ihi[i] = r.vi[i].default_value;
  }
  r.reached = (unsigned char *)goap__mem_alloc(a, total);
  if (!r.reached) goto done;
  memset(r.reached, 0, total);
  for (i = 0; i < r.nv; ++i) {
    if ((r.vi[i].flags & (GOAP_VAR_SHARED | GOAP_VAR_SENSED)) || goap_file_is_world_var(f, i)) {
      /* other members (the blackboard), the game's sensors or the world may give it any
       * value */
      if (r.vi[i].type == GOAP_INT) {
        r.ilo[i] = r.vi[i].lo;
        r.ihi[i] = r.vi[i].hi;
      } else {
        memset(r.reached + r.off[i], 1, (size_t)r.vi[i].value_count);
        r.nreached[i] = r.vi[i].value_count;
      }
      continue;
    }
    if (r.vi[i].type != GOAP_INT && r.vi[i].default_value >= 0 &&
        r.vi[i].default_value < r.vi[i].value_count) {
      r.reached[r.off[i] + (size_t)r.vi[i].default_value] = 1;
      r.nreached[i] = 1;
    }
  }
  /* HTN `set` effects: plan-time effects any method may make (over-approximated as always) */
  for (i = 0; f->htn && i < goap_htn_domain_task_count(f->htn); ++i)
    for (j = 0; j < goap_htn_domain_method_count(f->htn, i); ++j) {
      int ns = 0, k, q;
      const goap_htn_subtask *s = goap_htn_domain_method_subtasks(f->htn, i, j, &ns);
      for (k = 0; k < ns; ++k)
        for (q = 0; q < s[k].eff_count; ++q) apply_effect(&r, &s[k].effs[q]);
    }
  /* on_fail (failure memory), on_start and on_end effects: the runtime writes them when an
   * action fails, starts or ends (over-approximated as always) */
  for (i = 0; f->action_rt && i < r.na && i < f->action_count; ++i) {
    const goap__action_rt *rt = &f->action_rt[i];
    uint32_t q;
    for (q = 0; q < rt->on_fail_count; ++q) apply_effect(&r, &f->rt_effs[rt->on_fail + q]);
    for (q = 0; q < rt->on_start_count; ++q) apply_effect(&r, &f->rt_effs[rt->on_start + q]);
    for (q = 0; q < rt->on_end_count; ++q) apply_effect(&r, &f->rt_effs[rt->on_end + q]);
  }
  /* who reads what: watchers of each variable, CSR layout */
  memset(wstart, 0, ((size_t)r.nv + 1) * sizeof *wstart);
  for (i = 0; i < r.na; ++i) {
    int n = 0, k;
    const goap_cond *pre = goap_domain_action_pre(r.d, i, &n);
    const goap_effect *eff;
    for (k = 0; k < n; ++k)
      if (pre[k].var >= 0 && pre[k].var < r.nv) {
        ++wstart[pre[k].var + 1];
        used[pre[k].var] = 1;
        ++nwatch;
      }
    n = 0;
    eff = goap_domain_action_eff(r.d, i, &n);
    for (k = 0; k < n; ++k)
      if (eff[k].var >= 0 && eff[k].var < r.nv) {
        used[eff[k].var] = 1;
        if (eff[k].op == GOAP_ADD) { /* its range test reads the variable */
          ++wstart[eff[k].var + 1];
          ++nwatch;
        }
      }
  }
  for (i = 0; i < r.nv; ++i) wstart[i + 1] += wstart[i];
  wlist = (int *)goap__mem_alloc(a, nwatch * sizeof *wlist);
  if (!wlist) goto done;
  /* fill in reverse: wstart[v + 1] (the end of v's slice) counts down to v's start */
  for (i = r.na - 1; i >= 0; --i) {
    int n = 0, k;
    const goap_cond *pre = goap_domain_action_pre(r.d, i, &n);
    const goap_effect *eff;
    for (k = 0; k < n; ++k)
      if (pre[k].var >= 0 && pre[k].var < r.nv) wlist[--wstart[pre[k].var + 1]] = i;
    n = 0;
    eff = goap_domain_action_eff(r.d, i, &n);
    for (k = 0; k < n; ++k)
      if (eff[k].var >= 0 && eff[k].var < r.nv && eff[k].op == GOAP_ADD)
        wlist[--wstart[eff[k].var + 1]] = i;
  }
  for (i = 0; i < r.nv; ++i) wstart[i] = wstart[i + 1];
  wstart[r.nv] = (int)nwatch;
  /* the fixpoint */
  for (i = 0; i < r.na; ++i) {
    queue[tail] = i;
    tail = (tail + 1) % r.na;
    in_queue[i] = 1;
    ++qn;
  }
  while (qn > 0) {
    int act = queue[head], n = 0, k;
    const goap_cond *pre;
    const goap_effect *eff;
    head = (head + 1) % r.na;
    --qn;
    in_queue[act] = 0;
    if (act_reached[act]) continue;
    pre = goap_domain_action_pre(r.d, act, &n);
    if (first_failing(&r, pre, n) >= 0) continue;
    n = 0;
    eff = goap_domain_action_eff(r.d, act, &n);
    if (first_bad_effect(&r, eff, n) >= 0) continue;
    act_reached[act] = 1;
    for (k = 0; k < n; ++k) {
      int v = eff[k].var, w;
      if (!apply_effect(&r, &eff[k])) continue;
      for (w = wstart[v]; w < wstart[v + 1]; ++w) {
        int x = wlist[w];
        if (act_reached[x] || in_queue[x]) continue;
        queue[tail] = x;
        tail = (tail + 1) % r.na;
        in_queue[x] = 1;
        ++qn;
      }
    }
  }
  /* uses by goals and scenarios */
  for (i = 0; i < ng; ++i) {
    int n = 0, k;
    const goap_cond *want = goap_domain_goal_want(r.d, i, &n);
    for (k = 0; k < n; ++k)
      if (want[k].var >= 0 && want[k].var < r.nv) used[want[k].var] = 1;
  }
  for (i = 0; i < f->scenario_count; ++i) {
    const goap_scenario *sc = &f->scenarios[i];
    for (j = 0; j < sc->want_count; ++j)
      if (sc->want[j].var >= 0 && sc->want[j].var < r.nv) used[sc->want[j].var] = 1;
    for (j = 0; j < sc->given_count; ++j)
      if (sc->given[j].var >= 0 && sc->given[j].var < r.nv) used[sc->given[j].var] = 1;
  }
  for (i = 0; f->htn && i < goap_htn_domain_task_count(f->htn); ++i) /* HTN methods */
    for (j = 0; j < goap_htn_domain_method_count(f->htn, i); ++j) {
      int n = 0, ns = 0, k, q;
      const goap_cond *w = goap_htn_domain_method_when(f->htn, i, j, &n);
      const goap_htn_subtask *s = goap_htn_domain_method_subtasks(f->htn, i, j, &ns);
      for (k = 0; k < n; ++k)
        if (w[k].var >= 0 && w[k].var < r.nv) used[w[k].var] = 1;
      for (k = 0; k < ns; ++k) {
        for (q = 0; q < s[k].cond_count; ++q)
          if (s[k].conds[q].var >= 0 && s[k].conds[q].var < r.nv) used[s[k].conds[q].var] = 1;
        for (q = 0; q < s[k].eff_count; ++q)
          if (s[k].effs[q].var >= 0 && s[k].effs[q].var < r.nv) used[s[k].effs[q].var] = 1;
      }
    }
  /* the warnings */
  for (i = 0; i < r.nv && i < f->var_count; ++i)
    if (!used[i] && !goap_file_is_world_var(f, i) &&
        add_warning(f, text, len, GOAP__W_VAR, i, -1, &f->var_pos[i]) != GOAP_OK)
      goto done;
  for (i = 0; i < r.na && i < f->action_count; ++i) {
    int n = 0, k;
    const goap_cond *pre;
    if (act_reached[i]) continue;
    pre = goap_domain_action_pre(r.d, i, &n);
    k = first_failing(&r, pre, n);
    if (k < 0) { /* every precondition can hold: a strict += / -= leaves the range */
      const goap_effect *eff;
      n = 0;
      eff = goap_domain_action_eff(r.d, i, &n);
      k = first_bad_effect(&r, eff, n);
      if (k < 0) continue;
      if (add_warning(f, text, len, GOAP__W_ACTION, i, -2 - k, &f->action_pos[i]) != GOAP_OK)
        goto done;
      f->warnings[f->warning_count - 1].lo = r.ilo[eff[k].var];
      f->warnings[f->warning_count - 1].hi = r.ihi[eff[k].var];
      continue;
    }
    if (add_warning(f, text, len, GOAP__W_ACTION, i, k, &f->action_pos[i]) != GOAP_OK)
      goto done;
  }
  for (i = 0; i < ng && i < f->goal_count; ++i) {
    int n = 0, k;
    const goap_cond *want = goap_domain_goal_want(r.d, i, &n);
    k = first_failing(&r, want, n);
    if (k >= 0 && add_warning(f, text, len, GOAP__W_GOAL, i, k, &f->goal_pos[i]) != GOAP_OK)
      goto done;
  }
  {
    int g = 0; /* methods whose conditions cannot hold */
    for (i = 0; f->htn && f->method_pos && i < goap_htn_domain_task_count(f->htn); ++i)
      for (j = 0; j < goap_htn_domain_method_count(f->htn, i); ++j, ++g) {
        int n = 0, k;
        const goap_cond *w = goap_htn_domain_method_when(f->htn, i, j, &n);
        k = first_failing(&r, w, n);
        if (k >= 0 &&
            add_warning(f, text, len, GOAP__W_METHOD, g, k, &f->method_pos[g]) != GOAP_OK)
          goto done;
      }
  }
  if (left_cycles(f, text, len) != GOAP_OK) goto done;
  if (f->warning_count > 1)
    qsort(f->warnings, (size_t)f->warning_count, sizeof *f->warnings, cmp_warning);
  st = GOAP_OK;
done:
  goap__mem_free(a, r.vi, sz_vi);
  goap__mem_free(a, r.off, sz_off);
  goap__mem_free(a, r.nreached, sz_n);
  goap__mem_free(a, r.ilo, sz_n);
  goap__mem_free(a, r.ihi, sz_n);
  goap__mem_free(a, r.reached, total);
  goap__mem_free(a, used, (size_t)r.nv);
  goap__mem_free(a, act_reached, (size_t)r.na);
  goap__mem_free(a, in_queue, (size_t)r.na);
  goap__mem_free(a, queue, (size_t)r.na * sizeof *queue);
  goap__mem_free(a, wstart, ((size_t)r.nv + 1) * sizeof *wstart);
  goap__mem_free(a, wlist, nwatch * sizeof *wlist);
  return st;
}

/* The text of condition `detail` of a list, or "?" when it is out of range. */
static void detail_text(const goap_domain *d, const goap_cond *conds, int n, int detail,
                        char *buf, size_t cap) {
  if (conds && detail >= 0 && detail < n) goap_format_cond(d, &conds[detail], buf, cap);
  else snprintf(buf, cap, "?");
}

int goap_file_warnings(const goap_file *f, goap_error *out, int cap) {
  int i;
  if (!f) return 0;
  for (i = 0; out && i < cap && i < f->warning_count; ++i) {
    const goap__warning *w = &f->warnings[i];
    const goap_domain *d = f->domain;
    char ct[300];
    int n = 0;
    switch (w->kind) {
      case GOAP__W_VAR: {
        goap_var_info vi;
        if (goap_domain_var_info(d, w->id, &vi) != GOAP_OK) vi.name = "?";
        goap__diag_set(&out[i], GOAP_SEVERITY_WARNING, GOAP_OK, f->name, w->line, w->col,
                       w->src, strlen(w->src), "variable '%s' is never read or written",
                       vi.name);
        break;
      }
      case GOAP__W_ACTION: {
        const goap_cond *pre;
        if (w->detail <= -2) { /* a strict ADD effect that no reachable value keeps in range */
          const goap_effect *eff = goap_domain_action_eff(d, w->id, &n);
          int k = -2 - w->detail;
          goap_var_info vi;
          char from[96];
          if (!eff || k >= n || goap_domain_var_info(d, eff[k].var, &vi) != GOAP_OK) break;
          goap_format_effect(d, &eff[k], ct, sizeof ct);
          if (w->lo == w->hi) snprintf(from, sizeof from, "%s = %ld", vi.name, (long)w->lo);
          else snprintf(from, sizeof from, "%s in %ld..%ld", vi.name, (long)w->lo, (long)w->hi);
          goap__diag_set(&out[i], GOAP_SEVERITY_WARNING, GOAP_OK, f->name, w->line, w->col,
                         w->src, strlen(w->src),
                         "action '%s' can never be applied: '%s' leaves %ld..%ld from %s "
                         "(write '%s clamp' to stop at the bound)",
                         goap_domain_action_name(d, w->id), ct, (long)vi.lo, (long)vi.hi,
                         from, ct);
          break;
        }
        pre = goap_domain_action_pre(d, w->id, &n);
        detail_text(d, pre, n, w->detail, ct, sizeof ct);
        goap__diag_set(&out[i], GOAP_SEVERITY_WARNING, GOAP_OK, f->name, w->line, w->col,
                       w->src, strlen(w->src),
                       "action '%s' can never be applied: precondition '%s' is unreachable "
                       "from the default state",
                       goap_domain_action_name(d, w->id), ct);
        break;
      }
      case GOAP__W_METHOD: {
        int t = 0, m = w->id;
        const goap_cond *when;
        while (t < goap_htn_domain_task_count(f->htn) &&
               m >= goap_htn_domain_method_count(f->htn, t))
          m -= goap_htn_domain_method_count(f->htn, t++);
        when = goap_htn_domain_method_when(f->htn, t, m, &n);
        detail_text(d, when, n, w->detail, ct, sizeof ct);
        goap__diag_set(&out[i], GOAP_SEVERITY_WARNING, GOAP_OK, f->name, w->line, w->col,
                       w->src, strlen(w->src),
                       "method '%s' of task '%s' can never apply: condition '%s' is "
                       "unreachable from the default state",
                       goap_htn_domain_method_name(f->htn, t, m),
                       goap_htn_domain_task_name(f->htn, t), ct);
        break;
      }
      case GOAP__W_CYCLE: {
        int t = 0, m = w->id;
        while (t < goap_htn_domain_task_count(f->htn) &&
               m >= goap_htn_domain_method_count(f->htn, t))
          m -= goap_htn_domain_method_count(f->htn, t++);
        goap__diag_set(&out[i], GOAP_SEVERITY_WARNING, GOAP_OK, f->name, w->line, w->col,
                       w->src, strlen(w->src),
                       "method '%s' of task '%s' is a cycle: its first subtask '%s' decomposes "
                       "back into '%s' with no state change in between (left recursion; the "
                       "planner can only cut it at its depth limit)",
                       goap_htn_domain_method_name(f->htn, t, m),
                       goap_htn_domain_task_name(f->htn, t),
                       goap_htn_domain_task_name(f->htn, w->detail),
                       goap_htn_domain_task_name(f->htn, t));
        break;
      }
      case GOAP__W_GOAL: {
        const goap_cond *want = goap_domain_goal_want(d, w->id, &n);
        detail_text(d, want, n, w->detail, ct, sizeof ct);
        goap__diag_set(&out[i], GOAP_SEVERITY_WARNING, GOAP_OK, f->name, w->line, w->col,
                       w->src, strlen(w->src),
                       "goal '%s' cannot be reached: condition '%s' is unreachable",
                       goap_domain_goal_name(d, w->id), ct);
        break;
      }
    }
  }
  return f->warning_count;
}
