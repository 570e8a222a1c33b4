/*
 * runs.c -- goap_bench_runs: the wall time of whole process runs, measured from a small C
 * parent (fork + exec + wait), for bench/tiny.sh.
 *
 * usage: goap_bench_runs RUNS PROGRAM [ARG...]
 * Runs PROGRAM RUNS times with its stdout and stderr sent to /dev/null and prints one line:
 * "median_ms min_ms exit_status median_faults" (the exit status of the last run; the child's
 * minor page faults, from wait4's rusage: on a virtual machine each first touch of a page costs
 * 7-16 us, a large share of a short run). Each time spans the spawn
 * to the child's reaping, so it holds the child's whole life: exec, dynamic loading, its work
 * and exit. posix_spawn (a vfork-style clone in glibc) lets the child run at once in the
 * parent's place, as Python's subprocess does; a plain fork leaves it to the scheduler. A Python parent adds 2-3 ms of its own to every run (it is a large process to fork);
 * this one adds well under a millisecond, which tiny.sh measures with /bin/true.
 */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bench_util.h"

extern char **environ;

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: goap_bench_runs RUNS PROGRAM [ARG...]\n");
    return 2;
  }
  long runs = strtol(argv[1], NULL, 10);
  if (runs < 1 || runs > 100000) {
    fprintf(stderr, "goap_bench_runs: RUNS must be 1..100000\n");
    return 2;
  }
  double *ts = malloc((size_t)runs * sizeof *ts);
  double *faults = malloc((size_t)runs * sizeof *faults);
  if (!ts || !faults) return 2;
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0 ||
      posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) != 0 ||
      posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0) != 0)
    return 2;
  int last = 0;
  for (long i = 0; i < runs; ++i) {
    double t0 = bench_now_ms();
    pid_t pid;
    int rc = posix_spawn(&pid, argv[2], &fa, NULL, argv + 2, environ);
    if (rc != 0) {
      fprintf(stderr, "goap_bench_runs: cannot run %s\n", argv[2]);
      return 2;
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
      perror("goap_bench_runs: wait4");
      return 2;
    }
    ts[i] = bench_now_ms() - t0;
    faults[i] = (double)ru.ru_minflt;
    last = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  }
  qsort(ts, (size_t)runs, sizeof *ts, bench_cmp_double);
  qsort(faults, (size_t)runs, sizeof *faults, bench_cmp_double);
  printf("%.3f %.3f %d %.0f\n", bench_median(ts, runs), ts[0], last, bench_median(faults, runs));
  posix_spawn_file_actions_destroy(&fa);
  free(ts);
  free(faults);
  return 0;
}
