/*
 * bench_pddl_symmetry.c -- the cost of goap_pddl_symmetry (detecting interchangeable objects)
 * on PDDL tasks, and the classes it finds.
 *
 *   goap_bench_pddl_symmetry [--reps N] DOMAIN PROBLEM [DOMAIN PROBLEM ...]
 *
 * Per task: the task is loaded N times (default 21; the result is cached in a task, so each
 * timed call is a first call on a fresh task), and the median wall time of goap_pddl_symmetry
 * is printed with the classes found: members, variables and actions per slot, and the name of
 * member 0's first variable (which names the member's object). Exit status 1 when a task
 * cannot be loaded or detection fails.
 */
#define _POSIX_C_SOURCE 200809L
#include <goap/pddl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"

int main(int argc, char **argv) {
  int reps = 21, i = 1, rc = 0;
  if (argc > 2 && strcmp(argv[1], "--reps") == 0) {
    reps = atoi(argv[2]);
    if (reps < 1) reps = 1;
    i = 3;
  }
  if (i >= argc || (argc - i) % 2 != 0) {
    fputs("usage: goap_bench_pddl_symmetry [--reps N] DOMAIN PROBLEM [DOMAIN PROBLEM ...]\n",
          stderr);
    return 2;
  }
  double *t = (double *)malloc((size_t)reps * sizeof *t);
  if (!t) return 1;
  for (; i + 1 < argc; i += 2) {
    goap_pddl_task *last = NULL;
    const goap_symmetry *sym = NULL;
    int ok = 1;
    for (int r = 0; r < reps && ok; ++r) {
      goap_pddl_task *task = NULL;
      goap_error err;
      if (goap_pddl_load(argv[i], argv[i + 1], NULL, &task, &err) != GOAP_OK) {
        fprintf(stderr, "%s: %s\n", argv[i + 1], err.message);
        ok = 0;
        break;
      }
      double t0 = bench_now_us();
      goap_status st = goap_pddl_symmetry(task, &sym);
      t[r] = bench_now_us() - t0;
      if (st != GOAP_OK) {
        fprintf(stderr, "%s: goap_pddl_symmetry: %s\n", argv[i + 1], goap_status_name(st));
        ok = 0;
        goap_pddl_destroy(task);
        break;
      }
      goap_pddl_destroy(last);
      last = task;
    }
    if (!ok) {
      goap_pddl_destroy(last);
      rc = 1;
      continue;
    }
    qsort(t, (size_t)reps, sizeof *t, bench_cmp_double);
    goap_pddl_info info;
    goap_pddl_get_info(last, &info);
    const goap_domain *d = goap_pddl_domain(last);
    printf("%s %s: %d objects, %d variables, %d actions: median %.1f us (min %.1f), %d class%s\n",
           goap_pddl_domain_name(last), goap_pddl_problem_name(last), info.objects,
           info.variables, info.ground_actions, t[reps / 2], t[0], sym ? sym->class_count : 0,
           sym && sym->class_count == 1 ? "" : "es");
    for (int c = 0; sym && c < sym->class_count; ++c) {
      const goap_symmetry_class *k = &sym->classes[c];
      goap_var_info vi;
      goap_domain_var_info(d, k->vars[0], &vi);
      printf("  class %d: %d members, %d variables and %d actions per slot; member 0 owns '%s'\n",
             c, k->members, k->slot_vars, k->slot_actions, vi.name);
    }
    goap_pddl_destroy(last);
  }
  free(t);
  return rc;
}
