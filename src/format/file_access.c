/*
 * file_access.c -- the read-only accessors of a loaded goap_file (goap/file.h): its domain,
 * scenarios, HTN domain and the source positions of its variables, actions, goals and tasks.
 *
 * Invariants:
 *  - Every accessor accepts NULL and out-of-range indices (NULL, -1 or line 0, and *col = 0);
 *    none allocates or modifies the file, so concurrent reads of one file are safe.
 */
#include <string.h>

#include "format_internal.h"

const goap_domain *goap_file_domain(const goap_file *f) { return f ? f->domain : NULL; }

int goap_file_scenario_count(const goap_file *f) { return f ? f->scenario_count : 0; }

const goap_scenario *goap_file_scenario(const goap_file *f, int index) {
  if (!f || index < 0 || index >= f->scenario_count) return NULL;
  return &f->scenarios[index];
}

int goap_file_find_scenario(const goap_file *f, const char *name) {
  int i;
  if (!f || !name) return -1;
  for (i = 0; i < f->scenario_count; ++i)
    if (strcmp(f->scenarios[i].name, name) == 0) return i;
  return -1;
}

static int pos_line(const goap__pos *arr, int count, int i, int *col) {
  if (!arr || i < 0 || i >= count) {
    if (col) *col = 0;
    return 0;
  }
  if (col) *col = arr[i].col;
  return arr[i].line;
}

int goap_file_var_line(const goap_file *f, int var, int *col) {
  return pos_line(f ? f->var_pos : NULL, f ? f->var_count : 0, var, col);
}

int goap_file_action_line(const goap_file *f, int action, int *col) {
  return pos_line(f ? f->action_pos : NULL, f ? f->action_count : 0, action, col);
}

int goap_file_goal_line(const goap_file *f, int goal, int *col) {
  return pos_line(f ? f->goal_pos : NULL, f ? f->goal_count : 0, goal, col);
}

const goap_htn_domain *goap_file_htn(const goap_file *f) { return f ? f->htn : NULL; }

int goap_file_task_line(const goap_file *f, int task, int *col) {
  return pos_line(f ? f->task_pos : NULL, f && f->htn ? goap_htn_domain_task_count(f->htn) : 0,
                  task, col);
}
