/*
 * planner_result.c -- a finished search's result (goap_plan_finish) and the statistics of a
 * running one (goap_plan_progress), split from planner.c: the
 * plan read back along the parent links, its cost, and the best partial plan when a budget
 * ran out.
 *
 * Invariants:
 *  - Only reads the search's nodes; p->best caches the partial plan's end once found.
 *  - The cost reported is the cost of the path the parent links give (a written plan's summed
 *    from the root, as g accumulates; positional costs priced again along it), which may be
 *    below the end node's g after a reopening with an inconsistent heuristic.
 *  - A plan that does not fit the caller's buffer is not written: plan_length tells the size
 *    needed (GOAP_BUFFER_TOO_SMALL, or the partial plan's status).
 *  - The partial plan ends at the stored node of the lowest h, then the deepest, then the
 *    first stored; lazy A*'s unevaluated nodes (a lower bound only) are not ranked.
 *  - A request the micro search planned whole (small_search.c) has its plan and cost there,
 *    not in the nodes: the same plan, cost (the same sum, from the start) and status.
 */
#include <math.h>
#include <string.h>

#include "planner.h"

#define NONE UINT32_MAX

static uint32_t node_depth(const goap_planner *p, uint32_t n) {
  uint32_t d = 0;
  while (p->nodes.parent[n] != NONE) {
    n = p->nodes.parent[n];
    ++d;
  }
  return d;
}

/* The best partial plan's end: of the stored nodes, the lowest h, then the deepest, then the
 * first stored. Only needed when a budget runs out, so it is searched for then, not tracked
 * (depths are counted along parent links, for the nodes of the lowest h only). */
static uint32_t find_best(const goap_planner *p) {
  uint32_t best = NONE, best_depth = 0;
  float hmin = INFINITY;
  /* lazy A*'s unevaluated nodes hold only a lower bound (often 0): not ranked */
  int skip = p->lazy_astar;
  for (uint32_t n = 0; n < p->nodes.count; ++n)
    if (fabsf(p->nodes.h[n]) < hmin && !(skip && signbit(p->nodes.h[n])))
      hmin = fabsf(p->nodes.h[n]);
  if (isinf(hmin)) return NONE;
  for (uint32_t n = 0; n < p->nodes.count; ++n) {
    if (!(fabsf(p->nodes.h[n]) <= hmin) || (skip && signbit(p->nodes.h[n]))) continue;
    uint32_t dn = node_depth(p, n);
    if (best == NONE || dn > best_depth) {
      best = n;
      best_depth = dn;
    }
  }
  return best;
}

/* The result of a request the micro search planned whole (small_search.c): as below, from
 * its plan and cost (never partial: it stops at no budget). goap_plan calls it directly. */
goap_status goap__planner_finish_micro(goap_planner *p, goap_result *res) {
  goap_status st = p->final;
  int len = st == GOAP_OK ? p->small_search.micro_len : 0;
  res->partial = 0;
  res->plan_length = len;
  if (len > 0 && (res->plan_capacity < len || !res->plan)) {
    const int32_t *plan = p->small_search.micro_plan;
    double c = 0.0;
    st = GOAP_BUFFER_TOO_SMALL;
    for (int i = len - 1; i >= 0; --i) c += p->acost[plan[i]]; /* as from the end node */
    res->cost = c;
  } else {
    for (int i = 0; i < len; ++i) res->plan[i] = p->small_search.micro_plan[i];
    res->cost = len > 0 ? p->small_search.micro_cost : 0.0;
  }
  p->stats.time_us = p->elapsed_ns ? (double)p->elapsed_ns / 1000.0 : 0.0;
  res->stats = p->stats;
  res->status = st;
  return st;
}

/* The cost of the written plan (canonical actions when symmetry is on: mapped here) that
 * ends at node end, summed from the root, as g accumulates. */
static double plan_cost(goap_planner *p, int32_t *plan, int len, uint32_t end) {
  int backward = p->search == GOAP_SEARCH_BACKWARD;
  if (p->sym.on) goap__sym_map_plan(p, plan, len); /* canonical -> real actions */
  double c = 0.0;
  if (p->scost_on) { /* priced again along the plan, from the start (forward only) */
    goap_word *s = p->scratch;
    memcpy(s, p->start, p->W * sizeof *s);
    for (int i = 0; i < len; ++i) {
      c += goap__planner_step_cost(p, plan[i], s);
      goap__action_do(p->d, &p->d->actions[plan[i]], s);
    }
  } else if (p->small_search.run && p->stats.reopened == 0) {
    /* the small search's g is its parent's plus the action's cost, summed in this order
     * (from the root's 0.0); a g changes after its node has children only when the node is
     * reopened: with none, the sum along the path is the end node's g exactly */
    c = p->nodes.g[end];
  } else {
    for (int i = 0; i < len; ++i) c += p->acost[plan[backward ? len - 1 - i : i]];
  }
  return c;
}

goap_status goap__planner_finish(goap_planner *p, goap_result *res) {
  if (p->small_search.micro_done) return goap__planner_finish_micro(p, res);
  goap_status st = p->final;
  res->partial = 0;
  res->plan_length = 0;
  res->cost = 0.0;
  uint32_t end = NONE;
  if (st == GOAP_OK) end = p->found;
  else if (st == GOAP_NODE_LIMIT || st == GOAP_TIME_LIMIT || st == GOAP_MEMORY_LIMIT) {
    if (p->best == NONE) p->best = find_best(p);
    end = p->best;
    res->partial = 1;
  }
  if (end != NONE && p->search != GOAP_SEARCH_BACKWARD && res->plan &&
      res->plan_capacity >= 0 && (uint64_t)res->plan_capacity + 1 >= p->nodes.count) {
    /* the path has fewer steps than there are nodes, so it fits: one walk along the parent
     * links writes it from the end, then it is turned round in place */
    const uint32_t *par = p->nodes.parent, *act = p->nodes.action;
    int32_t *plan = res->plan;
    int len = 0;
    for (uint32_t n = end, up; (up = par[n]) != NONE; n = up)
      plan[len++] = (int32_t)(act[n] & ~GOAP__NODE_CLOSED) - 1;
    for (int i = 0, j = len - 1; i < j; ++i, --j) {
      int32_t t = plan[i];
      plan[i] = plan[j];
      plan[j] = t;
    }
    res->plan_length = len;
    res->cost = plan_cost(p, res->plan, len, end);
  } else if (end != NONE) {
    int len = (int)node_depth(p, end);
    res->plan_length = len;
    /* the cost of the path the parent links give. It is ng[end] unless an ancestor was
     * reached more cheaply after end's g was set (reopening with an inconsistent heuristic)
     * and end was taken out before that ancestor was expanded again. Summed in the order g
     * accumulates (from the root) when the plan is written. */
    if (len > 0 && (res->plan_capacity < len || !res->plan)) {
      /* not written: plan_length tells the size needed (a partial plan keeps its status) */
      if (st == GOAP_OK) st = GOAP_BUFFER_TOO_SMALL;
      double c = 0.0;
      for (uint32_t n = end; p->nodes.parent[n] != NONE; n = p->nodes.parent[n]) {
        int32_t a = goap__node_action(p, n);
        c += p->scost_on ? goap__planner_step_cost(
                               p, a, p->nodes.states + (size_t)p->nodes.parent[n] * p->stride)
                         : p->acost[a];
      }
      res->cost = c;
    } else {
      int backward = p->search == GOAP_SEARCH_BACKWARD;
      const uint32_t *par = p->nodes.parent, *act = p->nodes.action;
      uint32_t n = end;
      if (backward) {
        for (int i = 0; i < len; ++i, n = par[n])
          res->plan[i] = (int32_t)(act[n] & ~GOAP__NODE_CLOSED) - 1;
      } else {
        for (int i = len - 1; i >= 0; --i, n = par[n])
          res->plan[i] = (int32_t)(act[n] & ~GOAP__NODE_CLOSED) - 1;
      }
      res->cost = plan_cost(p, res->plan, len, end);
    }
  }
  p->stats.time_us = (double)p->elapsed_ns / 1000.0;
  res->stats = p->stats;
  res->status = st;
  return st;
}

goap_status goap_plan_progress(const goap_planner *p, goap_stats *stats) {
  if (!p || !stats) return GOAP_INVALID_ARGUMENT;
  if (p->phase == PHASE_IDLE) return GOAP_INVALID_OPERATION;
  *stats = p->stats;
  stats->time_us = (double)p->elapsed_ns / 1000.0;
  return GOAP_OK;
}
