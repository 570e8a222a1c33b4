/*
 * bench_htn.c -- HTN planning speed on the blocks world with the Gupta-Nau stacking method
 * (GTPyhop's blocks_htn example; the domain is built by blocks_htn.h).
 *
 *   bench_htn [--reps N] [--dir DIR] [--sizes 200,500,5000] [--seeds K]
 *       times every DIR/bw_rand_n*_s*.txt problem (and checks its plan against GTPyhop's),
 *       then K random problems of each size of our own generator; prints one line per
 *       problem size with the median time per plan (over reps x problems) and plan lengths.
 *   bench_htn --check DIR
 *       only checks that every plan is identical to GTPyhop's listed plan: exit 0 when all
 *       are, 1 when one differs, 77 (skipped) when DIR does not exist.
 *
 * Timing covers goap_htn_plan only (the domain is built once per problem, as GTPyhop's
 * declarations are made once); the planner is warmed up by one untimed run.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "blocks_htn.h"
#include "bench_util.h"

typedef struct run_out {
  int ok;           /* planned and reached the goal */
  int length;
  double median_s;
} run_out;

/* Plans a problem reps times; checks the plan replays to every block done. When expect is
 * not NULL, also compares the plan with it (*same receives 1 when identical). */
static run_out run_problem(const bw_problem *pr, int reps, char **expect, int expect_len,
                           int *same, double *times, int *ntimes) {
  run_out o = {0, 0, 0.0};
  bw_domain w;
  goap_htn_planner *p;
  goap_htn_result r;
  goap_htn_request q;
  int32_t *plan;
  int cap = 8 * pr->n + 16;
  if (same) *same = 0;
  if (bw_build(pr, &w) != 0) return o;
  goap_htn_planner_create(w.h, NULL, &p);
  plan = malloc((size_t)cap * sizeof *plan);
  if (!p || !plan) goto out;
  memset(&q, 0, sizeof q);
  q.task = w.root;
  q.max_depth = 0;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = cap;
  if (goap_htn_plan(p, &q, &r) != GOAP_OK) {
    fprintf(stderr, "bench_htn: n=%d: %s\n", pr->n, goap_status_string(r.status));
    goto out;
  }
  for (int i = 0; i < reps; ++i) {
    double t0 = bench_now_s();
    goap_status st = goap_htn_plan(p, &q, &r);
    double t1 = bench_now_s();
    if (st != GOAP_OK) goto out;
    if (times) times[(*ntimes)++] = t1 - t0;
  }
  {
    goap_cond *want = malloc((size_t)pr->n * sizeof *want);
    int nw = 0;
    if (!want) goto out;
    for (int x = 1; x <= pr->n; ++x)
      if (pr->goal[x] >= 0) want[nw++] = (goap_cond){w.var_done[x], GOAP_EQ, 1};
    o.ok = goap_plan_validate(w.d, NULL, want, nw, plan, r.plan_length, NULL, NULL) == GOAP_OK;
    free(want);
  }
  o.length = r.plan_length;
  if (expect && same) {
    int eq = expect_len == r.plan_length;
    for (int i = 0; eq && i < r.plan_length; ++i) {
      char step[64];
      bw_action_text(w.d, plan[i], step, sizeof step);
      if (strcmp(step, expect[i]) != 0) {
        fprintf(stderr, "bench_htn: step %d: got '%s', GTPyhop '%s'\n", i + 1, step, expect[i]);
        eq = 0;
      }
    }
    if (expect_len != r.plan_length)
      fprintf(stderr, "bench_htn: %d steps, GTPyhop %d\n", r.plan_length, expect_len);
    *same = eq;
  }
out:
  free(plan);
  goap_htn_planner_destroy(p);
  bw_domain_free(&w);
  return o;
}

static int is_dir(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* By block count, then by name. */
static int cmp_str(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  int nx = 0, ny = 0;
  sscanf(strrchr(x, '/') + 1, "bw_rand_n%d", &nx);
  sscanf(strrchr(y, '/') + 1, "bw_rand_n%d", &ny);
  if (nx != ny) return nx < ny ? -1 : 1;
  return strcmp(x, y);
}

/* The problem files of dir, sorted; returns the count. */
static int list_problems(const char *dir, char ***out) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL;
  int n = 0, cap = 0;
  *out = NULL;
  if (!d) return 0;
  while ((e = readdir(d)) != NULL) {
    size_t L = strlen(e->d_name);
    if (strncmp(e->d_name, "bw_rand_n", 9) != 0 || L < 4 || strcmp(e->d_name + L - 4, ".txt"))
      continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 16;
      names = realloc(names, (size_t)cap * sizeof *names);
      if (!names) break;
    }
    names[n] = malloc(strlen(dir) + L + 2);
    if (!names[n]) break;
    sprintf(names[n], "%s/%s", dir, e->d_name);
    ++n;
  }
  closedir(d);
  if (names) qsort(names, (size_t)n, sizeof *names, cmp_str);
  *out = names;
  return n;
}

static void free_list(char **names, int n) {
  for (int i = 0; i < n; ++i) free(names[i]);
  free(names);
}

static int check_dir(const char *dir) {
  char **files;
  int n, bad = 0, good = 0;
  if (!is_dir(dir)) {
    printf("skipped: %s does not exist\n", dir);
    return 77;
  }
  n = list_problems(dir, &files);
  for (int i = 0; i < n; ++i) {
    bw_problem pr;
    char **plan;
    int plan_len, same = 0;
    if (bw_parse(files[i], &pr, &plan, &plan_len) != 0) {
      printf("FAIL %s: cannot read\n", files[i]);
      ++bad;
      continue;
    }
    run_out o = run_problem(&pr, 0, plan, plan_len, &same, NULL, NULL);
    if (o.ok && same) {
      printf("PASS %s (%d actions, identical to GTPyhop)\n", files[i], o.length);
      ++good;
    } else {
      printf("FAIL %s (%s)\n", files[i], o.ok ? "plan differs from GTPyhop's" : "no valid plan");
      ++bad;
    }
    bw_problem_free(&pr, plan, plan_len);
  }
  free_list(files, n);
  if (n == 0) {
    printf("FAIL: no problems in %s\n", dir);
    return 1;
  }
  printf("%d passed, %d failed\n", good, bad);
  return bad ? 1 : 0;
}

int main(int argc, char **argv) {
  int reps = 5, seeds = 3;
  const char *dir = NULL;
  int sizes[16] = {200, 500, 5000}, nsizes = 3;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--check") == 0 && i + 1 < argc) return check_dir(argv[i + 1]);
    if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc) {
      seeds = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc) {
      dir = argv[++i];
    } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
      char *s = argv[++i];
      nsizes = 0;
      while (*s && nsizes < 16) {
        sizes[nsizes++] = (int)strtol(s, &s, 10);
        if (*s == ',') ++s;
      }
    } else {
      fprintf(stderr,
              "usage: bench_htn [--reps N] [--seeds K] [--dir DIR] [--sizes A,B,...]\n"
              "       bench_htn --check DIR\n");
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  if (seeds < 1) seeds = 1;
  printf("%-28s %6s %9s %12s %8s\n", "problems", "blocks", "plan len", "median ms", "ok");
  if (dir && is_dir(dir)) {
    char **files;
    int n = list_problems(dir, &files);
    /* group by size: files are sorted by name, so sizes come together */
    for (int i = 0; i < n;) {
      bw_problem pr;
      char **plan;
      int plan_len, size = 0, j, nt = 0, lens = 0, all_ok = 1, count = 0;
      double *times;
      sscanf(strrchr(files[i], '/') + 1, "bw_rand_n%d", &size);
      for (j = i; j < n; ++j) {
        int s2 = 0;
        sscanf(strrchr(files[j], '/') + 1, "bw_rand_n%d", &s2);
        if (s2 != size) break;
      }
      times = malloc((size_t)(j - i) * (size_t)reps * sizeof *times);
      for (int k = i; k < j && times; ++k) {
        int same = 0;
        if (bw_parse(files[k], &pr, &plan, &plan_len) != 0) {
          all_ok = 0;
          continue;
        }
        run_out o = run_problem(&pr, reps, plan, plan_len, &same, times, &nt);
        all_ok &= o.ok && same;
        lens += o.length;
        ++count;
        bw_problem_free(&pr, plan, plan_len);
      }
      if (times && nt) {
        qsort(times, (size_t)nt, sizeof *times, bench_cmp_double);
        printf("%-28s %6d %9.0f %12.4f %8s\n", "GTPyhop set (identical?)", size,
               count ? (double)lens / count : 0.0, times[nt / 2] * 1e3,
               all_ok ? "yes" : "NO");
      }
      free(times);
      i = j;
    }
    free_list(files, n);
  } else if (dir) {
    printf("(skipping the GTPyhop problems: %s does not exist)\n", dir);
  }
  for (int s = 0; s < nsizes; ++s) {
    double *times = malloc((size_t)seeds * (size_t)reps * sizeof *times);
    int nt = 0, all_ok = 1;
    long lens = 0;
    for (int k = 0; k < seeds && times; ++k) {
      bw_problem pr;
      memset(&pr, 0, sizeof pr);
      if (bw_random(sizes[s], (uint64_t)(1000 * sizes[s] + k), &pr) != 0) {
        all_ok = 0;
        break;
      }
      run_out o = run_problem(&pr, reps, NULL, 0, NULL, times, &nt);
      all_ok &= o.ok;
      lens += o.length;
      bw_problem_free(&pr, NULL, 0);
    }
    if (times && nt) {
      qsort(times, (size_t)nt, sizeof *times, bench_cmp_double);
      printf("%-28s %6d %9.0f %12.4f %8s\n", "random (our generator)", sizes[s],
             (double)lens / seeds, times[nt / 2] * 1e3, all_ok ? "yes" : "NO");
    }
    free(times);
    if (!all_ok) return 1;
  }
  return 0;
}
