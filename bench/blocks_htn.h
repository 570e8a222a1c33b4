/*
 * blocks_htn.h -- the blocks world as an HTN domain with the Gupta-Nau stacking method (the
 * method order of GTPyhop's blocks_htn example), grounded for one problem. Shared by
 * bench/bench_htn.c and tests/test_htn_blocks.c (static functions, included once per program).
 *
 * Blocks are numbered 1..n; a position is 0 for the table or a block number.
 *
 * Grounding (as HTN grounders do, per problem): under these methods a block x is only ever on
 * its initial position, the table, in the hand, or on its goal position, so
 *   var pos_x: enum {table, held, on_<init>, on_<goal>}   var clear_x: bool
 *   var done_x: bool  (GTPyhop's is_done(x), kept up to date by the primitives)
 *   var hand_empty: bool
 * and the actions are pickup_x, putdown_x, unstack_x_y (y the initial or goal block of x) and
 * stack_x_g (g the goal block of x). stack_x_g requires done_g, which makes its effect done_x
 * exact; the method only stacks onto a finished tower anyway ("move-to-block").
 *
 * Tasks: move_blocks (the root), move_x_table, move_x_goal, get_x, put_x_table, put_x_goal.
 * move_blocks's methods, in GTPyhop's order: for x = 1..n, "x can go to its final place"
 * (goal block done and clear -> move there; goal table -> move to the table); then for
 * x = 1..n, "x is clear, waiting and not on the table" -> move it to the table; then "done"
 * (no subtasks). Each moving method ends with move_blocks again (right recursion).
 */
#ifndef GOAP_BENCH_BLOCKS_HTN_H
#define GOAP_BENCH_BLOCKS_HTN_H

#include <goap/goap.h>
#include <goap/htn.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define BW_FN static __attribute__((unused))
#else
#define BW_FN static
#endif

typedef struct bw_problem {
  int n;
  int *init; /* [1..n]: 0 = table, else a block */
  int *goal; /* [1..n]: 0 = table, else a block; -1: no goal position */
} bw_problem;

typedef struct bw_domain {
  goap_domain *d;
  goap_htn_domain *h;
  int root;
  int *var_pos, *var_clear, *var_done; /* [1..n] */
  int var_hand;
} bw_domain;

BW_FN void bw_domain_free(bw_domain *w) {
  goap_htn_domain_destroy(w->h);
  goap_domain_destroy(w->d);
  free(w->var_pos);
  free(w->var_clear);
  free(w->var_done);
  memset(w, 0, sizeof *w);
}

/* Is x done in the initial state (GTPyhop's is_done)? Iterative. */
BW_FN int bw_initially_done(const bw_problem *p, int x) {
  int steps = 0;
  while (x != 0 && steps++ <= p->n) {
    if (p->goal[x] >= 0 && p->goal[x] != p->init[x]) return 0;
    x = p->init[x];
  }
  return x == 0;
}

/* Builds the grounded domain; 0 on success, else prints why and returns -1. */
BW_FN int bw_build(const bw_problem *p, bw_domain *w) {
  goap_builder *b = NULL;
  goap_builder_create(NULL, &b);
  goap_htn_builder *hb = NULL;
  int n = p->n, x, ok = 0;
  char name[64], v2[32], v3[32];
  int *a_pickup = calloc((size_t)n + 1, sizeof(int)), *a_putdown = calloc((size_t)n + 1, sizeof(int));
  int *a_unstack_init = calloc((size_t)n + 1, sizeof(int)), *a_unstack_goal = calloc((size_t)n + 1, sizeof(int));
  int *a_stack = calloc((size_t)n + 1, sizeof(int));
  int *t_table = calloc((size_t)n + 1, sizeof(int)), *t_goal = calloc((size_t)n + 1, sizeof(int));
  int *t_get = calloc((size_t)n + 1, sizeof(int)), *t_put_table = calloc((size_t)n + 1, sizeof(int));
  int *t_put_goal = calloc((size_t)n + 1, sizeof(int));
  int *clear0 = calloc((size_t)n + 1, sizeof(int));
  memset(w, 0, sizeof *w);
  w->var_pos = calloc((size_t)n + 1, sizeof(int));
  w->var_clear = calloc((size_t)n + 1, sizeof(int));
  w->var_done = calloc((size_t)n + 1, sizeof(int));
  if (!b || !a_pickup || !a_putdown || !a_unstack_init || !a_unstack_goal || !a_stack ||
      !t_table || !t_goal || !t_get || !t_put_table || !t_put_goal || !clear0 || !w->var_pos ||
      !w->var_clear || !w->var_done)
    goto out;
#define BW_TRY(call)                                                        \
  do {                                                                      \
    if ((call) != GOAP_OK) {                                                \
      fprintf(stderr, "blocks: %s failed: %s / %s\n", #call,               \
              goap_builder_error(b)->message, hb ? goap_htn_builder_error(hb)->message : ""); \
      goto out;                                                             \
    }                                                                       \
  } while (0)
  for (x = 1; x <= n; ++x) clear0[x] = 1;
  for (x = 1; x <= n; ++x)
    if (p->init[x] > 0) clear0[p->init[x]] = 0;
  {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = "hand_empty";
    vd.type = GOAP_BOOL;
    vd.has_default = 1;
    vd.default_value = 1;
    BW_TRY(goap_builder_add_var(b, &vd, &w->var_hand));
  }
  /* pos_x values: 0 table, 1 held, 2 on init block (if any), 3 on goal block (if any and
   * different); absent ones are replaced by a placeholder name so indices stay fixed. */
  for (x = 1; x <= n; ++x) {
    goap_var_desc vd;
    const char *vals[4];
    snprintf(v2, sizeof v2, "on_%d", p->init[x] > 0 ? p->init[x] : 0);
    snprintf(v3, sizeof v3, "on_%d_goal", p->goal[x] > 0 ? p->goal[x] : 0);
    vals[0] = "table";
    vals[1] = "held";
    vals[2] = v2;
    vals[3] = v3;
    memset(&vd, 0, sizeof vd);
    snprintf(name, sizeof name, "pos_%d", x);
    vd.name = name;
    vd.type = GOAP_ENUM;
    vd.values = vals;
    vd.value_count = 4;
    vd.has_default = 1;
    vd.default_value = p->init[x] > 0 ? 2 : 0;
    BW_TRY(goap_builder_add_var(b, &vd, &w->var_pos[x]));
    memset(&vd, 0, sizeof vd);
    snprintf(name, sizeof name, "clear_%d", x);
    vd.name = name;
    vd.type = GOAP_BOOL;
    vd.has_default = 1;
    vd.default_value = clear0[x];
    BW_TRY(goap_builder_add_var(b, &vd, &w->var_clear[x]));
    snprintf(name, sizeof name, "done_%d", x);
    vd.name = name;
    vd.default_value = bw_initially_done(p, x);
    BW_TRY(goap_builder_add_var(b, &vd, &w->var_done[x]));
  }
  for (x = 1; x <= n; ++x) {
    goap_action_desc ad;
    goap_cond pre[4];
    goap_effect eff[5];
    int P = w->var_pos[x], C = w->var_clear[x], D = w->var_done[x], H = w->var_hand;
    int gx = p->goal[x], ix = p->init[x];
    memset(&ad, 0, sizeof ad);
    ad.cost = 1;
    ad.pre = pre;
    ad.eff = eff;
    /* pickup_x */
    snprintf(name, sizeof name, "pickup_%d", x);
    ad.name = name;
    pre[0] = (goap_cond){P, GOAP_EQ, 0};
    pre[1] = (goap_cond){C, GOAP_EQ, 1};
    pre[2] = (goap_cond){H, GOAP_EQ, 1};
    ad.pre_count = 3;
    eff[0] = (goap_effect){P, GOAP_SET, 1};
    eff[1] = (goap_effect){C, GOAP_SET, 0};
    eff[2] = (goap_effect){H, GOAP_SET, 0};
    eff[3] = (goap_effect){D, GOAP_SET, 0};
    ad.eff_count = 4;
    BW_TRY(goap_builder_add_action(b, &ad, &a_pickup[x]));
    /* putdown_x */
    snprintf(name, sizeof name, "putdown_%d", x);
    pre[0] = (goap_cond){P, GOAP_EQ, 1};
    ad.pre_count = 1;
    eff[0] = (goap_effect){P, GOAP_SET, 0};
    eff[1] = (goap_effect){C, GOAP_SET, 1};
    eff[2] = (goap_effect){H, GOAP_SET, 1};
    eff[3] = (goap_effect){D, GOAP_SET, gx <= 0 ? 1 : 0};
    ad.eff_count = 4;
    BW_TRY(goap_builder_add_action(b, &ad, &a_putdown[x]));
    /* unstack_x_init, unstack_x_goal */
    a_unstack_init[x] = a_unstack_goal[x] = -1;
    for (int k = 0; k < 2; ++k) {
      int y = k == 0 ? ix : gx;
      if (y <= 0 || (k == 1 && gx == ix)) continue;
      snprintf(name, sizeof name, "unstack_%d_%d", x, y);
      pre[0] = (goap_cond){P, GOAP_EQ, k == 0 ? 2 : 3};
      pre[1] = (goap_cond){C, GOAP_EQ, 1};
      pre[2] = (goap_cond){H, GOAP_EQ, 1};
      ad.pre_count = 3;
      eff[0] = (goap_effect){P, GOAP_SET, 1};
      eff[1] = (goap_effect){C, GOAP_SET, 0};
      eff[2] = (goap_effect){H, GOAP_SET, 0};
      eff[3] = (goap_effect){D, GOAP_SET, 0};
      eff[4] = (goap_effect){w->var_clear[y], GOAP_SET, 1};
      ad.eff_count = 5;
      BW_TRY(goap_builder_add_action(b, &ad, k == 0 ? &a_unstack_init[x] : &a_unstack_goal[x]));
    }
    /* stack_x_goal */
    a_stack[x] = -1;
    if (gx > 0) {
      snprintf(name, sizeof name, "stack_%d_%d", x, gx);
      pre[0] = (goap_cond){P, GOAP_EQ, 1};
      pre[1] = (goap_cond){w->var_clear[gx], GOAP_EQ, 1};
      pre[2] = (goap_cond){w->var_done[gx], GOAP_EQ, 1};
      ad.pre_count = 3;
      eff[0] = (goap_effect){P, GOAP_SET, gx == ix ? 2 : 3};
      eff[1] = (goap_effect){C, GOAP_SET, 1};
      eff[2] = (goap_effect){H, GOAP_SET, 1};
      eff[3] = (goap_effect){D, GOAP_SET, 1};
      eff[4] = (goap_effect){w->var_clear[gx], GOAP_SET, 0};
      ad.eff_count = 5;
      BW_TRY(goap_builder_add_action(b, &ad, &a_stack[x]));
    }
  }
  BW_TRY(goap_builder_build(b, &w->d));
  if (goap_htn_builder_create(w->d, NULL, &hb) != GOAP_OK) goto out;
  BW_TRY(goap_htn_builder_add_task(hb, "move_blocks", &w->root));
  for (x = 1; x <= n; ++x) {
    snprintf(name, sizeof name, "move_%d_table", x);
    BW_TRY(goap_htn_builder_add_task(hb, name, &t_table[x]));
    t_goal[x] = -1;
    if (p->goal[x] > 0) {
      snprintf(name, sizeof name, "move_%d_goal", x);
      BW_TRY(goap_htn_builder_add_task(hb, name, &t_goal[x]));
    }
    snprintf(name, sizeof name, "get_%d", x);
    BW_TRY(goap_htn_builder_add_task(hb, name, &t_get[x]));
    snprintf(name, sizeof name, "put_%d_table", x);
    BW_TRY(goap_htn_builder_add_task(hb, name, &t_put_table[x]));
    t_put_goal[x] = -1;
    if (p->goal[x] > 0) {
      snprintf(name, sizeof name, "put_%d_goal", x);
      BW_TRY(goap_htn_builder_add_task(hb, name, &t_put_goal[x]));
    }
  }
  for (x = 1; x <= n; ++x) {
    goap_htn_method_desc md;
    goap_htn_subtask st[2];
    goap_cond when[3];
    int P = w->var_pos[x], C = w->var_clear[x];
    memset(&md, 0, sizeof md);
    memset(st, 0, sizeof st);
    md.subtasks = st;
    md.when = when;
    /* move_x_table / move_x_goal: get, put */
    md.name = "move";
    st[0] = (goap_htn_subtask){GOAP_HTN_TASK, t_get[x], NULL, 0, NULL, 0};
    st[1] = (goap_htn_subtask){GOAP_HTN_TASK, t_put_table[x], NULL, 0, NULL, 0};
    md.subtask_count = 2;
    BW_TRY(goap_htn_builder_add_method(hb, t_table[x], &md, NULL));
    if (t_goal[x] >= 0) {
      st[1].id = t_put_goal[x];
      BW_TRY(goap_htn_builder_add_method(hb, t_goal[x], &md, NULL));
    }
    /* get_x: pickup from the table, or unstack from the block below */
    md.subtask_count = 1;
    md.name = "pickup";
    when[0] = (goap_cond){C, GOAP_EQ, 1};
    when[1] = (goap_cond){P, GOAP_EQ, 0};
    md.when_count = 2;
    st[0] = (goap_htn_subtask){GOAP_HTN_ACTION, a_pickup[x], NULL, 0, NULL, 0};
    BW_TRY(goap_htn_builder_add_method(hb, t_get[x], &md, NULL));
    if (a_unstack_init[x] >= 0) {
      md.name = "unstack_init";
      when[1] = (goap_cond){P, GOAP_EQ, 2};
      st[0].id = a_unstack_init[x];
      BW_TRY(goap_htn_builder_add_method(hb, t_get[x], &md, NULL));
    }
    if (a_unstack_goal[x] >= 0) {
      md.name = "unstack_goal";
      when[1] = (goap_cond){P, GOAP_EQ, 3};
      st[0].id = a_unstack_goal[x];
      BW_TRY(goap_htn_builder_add_method(hb, t_get[x], &md, NULL));
    }
    /* put_x_table / put_x_goal */
    md.name = "put";
    when[0] = (goap_cond){P, GOAP_EQ, 1};
    md.when_count = 1;
    st[0].id = a_putdown[x];
    BW_TRY(goap_htn_builder_add_method(hb, t_put_table[x], &md, NULL));
    if (t_put_goal[x] >= 0) {
      st[0].id = a_stack[x];
      BW_TRY(goap_htn_builder_add_method(hb, t_put_goal[x], &md, NULL));
    }
  }
  /* move_blocks, in GTPyhop's order */
  for (int pass = 0; pass < 2; ++pass) {
    for (x = 1; x <= n; ++x) {
      goap_htn_method_desc md;
      goap_htn_subtask st[2];
      goap_cond when[5];
      int gx = p->goal[x];
      memset(&md, 0, sizeof md);
      memset(st, 0, sizeof st);
      md.subtasks = st;
      md.subtask_count = 2;
      md.when = when;
      when[0] = (goap_cond){w->var_clear[x], GOAP_EQ, 1};
      when[1] = (goap_cond){w->var_done[x], GOAP_EQ, 0};
      st[1] = (goap_htn_subtask){GOAP_HTN_TASK, w->root, NULL, 0, NULL, 0};
      if (pass == 0) {
        if (gx > 0) {
          snprintf(name, sizeof name, "to_goal_%d", x);
          when[2] = (goap_cond){w->var_done[gx], GOAP_EQ, 1};
          when[3] = (goap_cond){w->var_clear[gx], GOAP_EQ, 1};
          md.when_count = 4;
          st[0] = (goap_htn_subtask){GOAP_HTN_TASK, t_goal[x], NULL, 0, NULL, 0};
        } else {
          snprintf(name, sizeof name, "to_table_%d", x);
          md.when_count = 2;
          st[0] = (goap_htn_subtask){GOAP_HTN_TASK, t_table[x], NULL, 0, NULL, 0};
        }
      } else {
        if (gx <= 0) continue; /* goal table: already covered by the first pass */
        snprintf(name, sizeof name, "unblock_%d", x);
        when[2] = (goap_cond){w->var_pos[x], GOAP_NE, 0};
        md.when_count = 3;
        st[0] = (goap_htn_subtask){GOAP_HTN_TASK, t_table[x], NULL, 0, NULL, 0};
      }
      md.name = name;
      BW_TRY(goap_htn_builder_add_method(hb, w->root, &md, NULL));
    }
  }
  {
    goap_htn_method_desc md;
    memset(&md, 0, sizeof md);
    md.name = "done";
    BW_TRY(goap_htn_builder_add_method(hb, w->root, &md, NULL));
  }
  BW_TRY(goap_htn_builder_build(hb, &w->h));
  ok = 1;
#undef BW_TRY
out:
  goap_htn_builder_destroy(hb);
  goap_builder_destroy(b);
  free(a_pickup);
  free(a_putdown);
  free(a_unstack_init);
  free(a_unstack_goal);
  free(a_stack);
  free(t_table);
  free(t_goal);
  free(t_get);
  free(t_put_table);
  free(t_put_goal);
  free(clear0);
  if (!ok) {
    bw_domain_free(w);
    return -1;
  }
  return 0;
}

/* "unstack_3_5" -> "unstack 3 5" into buf. */
BW_FN void bw_action_text(const goap_domain *d, int a, char *buf, size_t cap) {
  const char *s = goap_domain_action_name(d, a);
  size_t i;
  snprintf(buf, cap, "%s", s ? s : "?");
  for (i = 0; buf[i]; ++i)
    if (buf[i] == '_') buf[i] = ' ';
}

/* Parses a blocks-htn problem file (init/goal/plan lines). The plan lines are returned as
 * one string per step in *plan (caller frees with bw_problem_free). 0 on success. */
BW_FN int bw_parse(const char *path, bw_problem *p, char ***plan, int *plan_len) {
  FILE *f = fopen(path, "r");
  char line[256];
  int cap = 0, max_block = 0;
  memset(p, 0, sizeof *p);
  *plan = NULL;
  *plan_len = 0;
  if (!f) return -1;
  /* first pass: the number of blocks */
  while (fgets(line, sizeof line, f)) {
    int a = 0;
    if (sscanf(line, "init %d", &a) == 1 && a > max_block) max_block = a;
  }
  p->n = max_block;
  p->init = calloc((size_t)max_block + 1, sizeof(int));
  p->goal = calloc((size_t)max_block + 1, sizeof(int));
  if (!p->init || !p->goal) {
    fclose(f);
    return -1;
  }
  for (int i = 0; i <= max_block; ++i) p->goal[i] = -1;
  rewind(f);
  while (fgets(line, sizeof line, f)) {
    int a = 0, b = 0;
    char word[32];
    size_t L = strlen(line);
    while (L && (line[L - 1] == '\n' || line[L - 1] == '\r')) line[--L] = '\0';
    if (strncmp(line, "plan ", 5) == 0) {
      if (*plan_len == cap) {
        cap = cap ? cap * 2 : 64;
        *plan = realloc(*plan, (size_t)cap * sizeof **plan);
        if (!*plan) break;
      }
      {
        size_t m = strlen(line + 5) + 1;
        char *c = malloc(m);
        if (!c) break;
        memcpy(c, line + 5, m);
        (*plan)[(*plan_len)++] = c;
      }
      continue;
    }
    if (sscanf(line, "init %d %31s", &a, word) == 2 && a >= 1 && a <= max_block)
      p->init[a] = strcmp(word, "table") == 0 ? 0 : atoi(word);
    else if (sscanf(line, "goal %d %31s", &a, word) == 2 && a >= 1 && a <= max_block)
      p->goal[a] = strcmp(word, "table") == 0 ? 0 : atoi(word);
    (void)b;
  }
  fclose(f);
  return 0;
}

BW_FN void bw_problem_free(bw_problem *p, char **plan, int plan_len) {
  for (int i = 0; i < plan_len; ++i) free(plan[i]);
  free(plan);
  free(p->init);
  free(p->goal);
  memset(p, 0, sizeof *p);
}

/* A random problem: each block goes on the table with probability p_table, else on a random
 * clear block (towers), for the start and the goal independently. xorshift64* from seed. */
BW_FN uint64_t bw_rng(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}

BW_FN void bw_random_layout(int n, int *pos, double p_table, uint64_t *s) {
  int *order = malloc(((size_t)n + 1) * sizeof(int)), *tops = malloc(((size_t)n + 1) * sizeof(int));
  int ntops = 0;
  if (!order || !tops) {
    free(order);
    free(tops);
    for (int i = 1; i <= n; ++i) pos[i] = 0;
    return;
  }
  for (int i = 1; i <= n; ++i) order[i] = i;
  for (int i = n; i > 1; --i) {
    int j = 1 + (int)(bw_rng(s) % (uint64_t)i), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (int k = 1; k <= n; ++k) {
    int x = order[k];
    double r = (double)(bw_rng(s) >> 11) / 9007199254740992.0;
    if (ntops == 0 || r < p_table) {
      pos[x] = 0;
      tops[ntops++] = x;
    } else {
      int j = (int)(bw_rng(s) % (uint64_t)ntops);
      pos[x] = tops[j];
      tops[j] = x;
    }
  }
  free(order);
  free(tops);
}

BW_FN int bw_random(int n, uint64_t seed, bw_problem *p) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  p->n = n;
  p->init = calloc((size_t)n + 1, sizeof(int));
  p->goal = calloc((size_t)n + 1, sizeof(int));
  if (!p->init || !p->goal) return -1;
  bw_random_layout(n, p->init, 0.3, &s);
  bw_random_layout(n, p->goal, 0.3, &s);
  return 0;
}

#endif /* GOAP_BENCH_BLOCKS_HTN_H */
