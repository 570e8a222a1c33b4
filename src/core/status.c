/*
 * status.c -- status strings, option names and the version. Constant tables only.
 */
#include <string.h>

#include "core_internal.h"

const char *goap_version(void) { return GOAP_VERSION_STRING; }

static const char *const status_text[GOAP_STATUS_COUNT] = {
    "ok",
    "no plan",
    "node limit reached",
    "time limit reached",
    "memory limit reached",
    "buffer too small",
    "in progress",
    "partial plan",
    "invalid argument",
    "invalid operation",
    "out of memory",
    "not found",
    "duplicate name",
    "type mismatch",
    "value out of range",
    "conflicting definitions",
    "too large",
    "parse error",
    "I/O error",
    "truncated data",
    "unsupported format version",
    "corrupted data",
    "saved for another domain",
};

static const char *const status_id[GOAP_STATUS_COUNT] = {
    "ok",           "no_plan",          "node_limit",      "time_limit",     "memory_limit",
    "buffer_too_small", "in_progress",  "partial",         "invalid_argument",
    "invalid_operation", "out_of_memory", "not_found",     "duplicate",      "type_mismatch",
    "out_of_range", "conflict",         "too_large",       "parse_error",    "io_error",
    "truncated",    "version_mismatch", "corrupt",         "domain_mismatch",
};

const char *goap_status_string(goap_status s) {
  if ((unsigned)s >= (unsigned)GOAP_STATUS_COUNT) return "unknown status";
  return status_text[s];
}

const char *goap_status_name(goap_status s) {
  if ((unsigned)s >= (unsigned)GOAP_STATUS_COUNT) return "unknown";
  return status_id[s];
}

const char *goap_search_name(goap_search s) {
  switch (s) {
    case GOAP_SEARCH_ASTAR: return "astar";
    case GOAP_SEARCH_BACKWARD: return "backward";
    case GOAP_SEARCH_WASTAR: return "wastar";
    case GOAP_SEARCH_GREEDY: return "greedy";
  }
  return "unknown";
}

static const char *const heuristic_names[] = {"default", "zero", "goal-count", "goal-count-adm",
                                              "hmax", "hadd", "hff", "lmcut"};

const char *goap_heuristic_name(goap_heuristic h) {
  if ((unsigned)h >= sizeof heuristic_names / sizeof heuristic_names[0]) return "unknown";
  return heuristic_names[h];
}

int goap_heuristic_from_name(const char *name) {
  if (!name) return -1;
  for (size_t i = 0; i < sizeof heuristic_names / sizeof heuristic_names[0]; ++i)
    if (strcmp(name, heuristic_names[i]) == 0) return (int)i;
  return -1;
}

int goap_config_is_optimal(goap_search s, goap_heuristic h) {
  if (s != GOAP_SEARCH_ASTAR && s != GOAP_SEARCH_BACKWARD) return 0;
  return h == GOAP_H_DEFAULT || h == GOAP_H_ZERO || h == GOAP_H_GOAL_COUNT_ADMISSIBLE ||
         h == GOAP_H_MAX || h == GOAP_H_LMCUT;
}
