/*
 * layout.c -- prints the size of every public struct the bindings mirror, one "name size"
 * line each, so that the Python (ctypes) and C# (P/Invoke) tests can check their copies of
 * the layouts against the compiler's. Invariants: no state; output only.
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/inspect.h>

#include <stdio.h>

#define SIZE(t) printf("%s %zu\n", #t, sizeof(t))

int main(void) {
  SIZE(goap_cond);
  SIZE(goap_effect);
  SIZE(goap_diag);
  SIZE(goap_scenario);
  SIZE(goap_var_info);
  SIZE(goap_request);
  SIZE(goap_stats);
  SIZE(goap_result);
  SIZE(goap_action_binding);
  SIZE(goap_goal_binding);
  SIZE(goap_sensor_desc);
  SIZE(goap_agent_type_desc);
  SIZE(goap_agent_desc);
  SIZE(goap_agent_event);
  SIZE(goap_agent_stats);
  SIZE(goap_sim_options);
  SIZE(goap_sim_result);
  SIZE(goap_file_action_info);
  SIZE(goap_trace_event);
  SIZE(goap_goal_info);
  SIZE(goap_plan_step_info);
  SIZE(goap_plan_info);
  SIZE(goap_replan_info);
  SIZE(goap_failure_info);
  return 0;
}
