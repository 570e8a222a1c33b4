/*
 * layout.c -- prints the size of every public struct the bindings mirror, one "name size"
 * line each, so that the Python (ctypes) and C# (P/Invoke) tests can check their copies of
 * the layouts against the compiler's. With --fields it prints, for the C# test, every struct
 * the C# binding mirrors ("S name size") and every field's offset in declaration order
 * ("F name field offset"), so a test can check each offset, not only the sizes.
 * Invariants: no state; output only.
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/sim.h>
#include <goap/inspect.h>
#include <goap/squad.h>
#include <goap/world.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define SIZE(t) printf("%s %zu\n", #t, sizeof(t))
#define S(t) printf("S %s %zu\n", #t, sizeof(t))
#define F(t, f) printf("F %s %s %zu\n", #t, #f, offsetof(t, f))

static void fields(void) {
  S(goap_allocator); F(goap_allocator, fn); F(goap_allocator, ctx);
  S(goap_cond); F(goap_cond, var); F(goap_cond, op); F(goap_cond, value);
  S(goap_effect); F(goap_effect, var); F(goap_effect, op); F(goap_effect, value);
  S(goap_error); F(goap_error, status); F(goap_error, severity); F(goap_error, file);
  F(goap_error, line); F(goap_error, col); F(goap_error, offset); F(goap_error, message);
  F(goap_error, source);
  S(goap_scenario); F(goap_scenario, name); F(goap_scenario, line); F(goap_scenario, goal);
  F(goap_scenario, want); F(goap_scenario, want_count); F(goap_scenario, given);
  F(goap_scenario, given_count); F(goap_scenario, expect); F(goap_scenario, expect_cost);
  F(goap_scenario, expect_plan); F(goap_scenario, expect_plan_length); F(goap_scenario, task);
  S(goap_var_info); F(goap_var_info, name); F(goap_var_info, type); F(goap_var_info, lo);
  F(goap_var_info, hi); F(goap_var_info, value_count); F(goap_var_info, default_value);
  F(goap_var_info, flags); F(goap_var_info, word); F(goap_var_info, shift); F(goap_var_info, bits);
  S(goap_planner_desc); F(goap_planner_desc, allocator); F(goap_planner_desc, initial_nodes);
  F(goap_planner_desc, max_nodes); F(goap_planner_desc, max_memory);
  F(goap_planner_desc, goal_cache);
  S(goap_request); F(goap_request, start); F(goap_request, want); F(goap_request, want_count);
  F(goap_request, search); F(goap_request, heuristic); F(goap_request, weight);
  F(goap_request, max_nodes); F(goap_request, max_ms); F(goap_request, host);
  F(goap_request, flags); F(goap_request, costs); F(goap_request, symmetry);
  S(goap_stats); F(goap_stats, expanded); F(goap_stats, generated); F(goap_stats, duplicates);
  F(goap_stats, reopened); F(goap_stats, nodes); F(goap_stats, actions_considered);
  F(goap_stats, time_us); F(goap_stats, evaluated);
  S(goap_result); F(goap_result, status); F(goap_result, cost); F(goap_result, plan);
  F(goap_result, plan_capacity); F(goap_result, plan_length); F(goap_result, partial);
  F(goap_result, stats);
  S(goap_action_binding); F(goap_action_binding, disabled); F(goap_action_binding, cost_scale);
  F(goap_action_binding, start); F(goap_action_binding, tick); F(goap_action_binding, stop);
  F(goap_action_binding, user); F(goap_action_binding, timeout); F(goap_action_binding, on_fail);
  F(goap_action_binding, on_fail_count); F(goap_action_binding, watch);
  F(goap_action_binding, watch_count); F(goap_action_binding, on_start);
  F(goap_action_binding, on_start_count); F(goap_action_binding, on_end);
  F(goap_action_binding, on_end_count); F(goap_action_binding, reserve);
  F(goap_action_binding, reserve_count); F(goap_action_binding, check);
  F(goap_action_binding, check_user);
  S(goap_goal_binding); F(goap_goal_binding, disabled); F(goap_goal_binding, priority);
  F(goap_goal_binding, user); F(goap_goal_binding, valid); F(goap_goal_binding, valid_count);
  F(goap_goal_binding, watch); F(goap_goal_binding, watch_count); F(goap_goal_binding, cooldown);
  S(goap_sensor_desc); F(goap_sensor_desc, fn); F(goap_sensor_desc, user);
  F(goap_sensor_desc, interval);
  S(goap_agent_type_desc); F(goap_agent_type_desc, allocator); F(goap_agent_type_desc, name);
  F(goap_agent_type_desc, actions); F(goap_agent_type_desc, action_count);
  F(goap_agent_type_desc, goals); F(goap_agent_type_desc, goal_count);
  F(goap_agent_type_desc, sensors); F(goap_agent_type_desc, sensor_count);
  F(goap_agent_type_desc, switch_margin); F(goap_agent_type_desc, goal_check_interval);
  F(goap_agent_type_desc, failed_goal_cooldown); F(goap_agent_type_desc, search);
  F(goap_agent_type_desc, heuristic); F(goap_agent_type_desc, max_nodes);
  F(goap_agent_type_desc, expansions_per_update);
  F(goap_agent_type_desc, planning_ms_per_update);
  F(goap_agent_type_desc, planner_initial_nodes); F(goap_agent_type_desc, htn);
  F(goap_agent_type_desc, htn_root); F(goap_agent_type_desc, htn_watch);
  F(goap_agent_type_desc, htn_watch_count);
  S(goap_agent_desc); F(goap_agent_desc, type); F(goap_agent_desc, allocator);
  F(goap_agent_desc, memory); F(goap_agent_desc, host); F(goap_agent_desc, blackboard);
  F(goap_agent_desc, cache); F(goap_agent_desc, planner); F(goap_agent_desc, on_event);
  F(goap_agent_desc, event_user); F(goap_agent_desc, replan_history);
  S(goap_agent_event); F(goap_agent_event, kind); F(goap_agent_event, time);
  F(goap_agent_event, reason); F(goap_agent_event, goal); F(goap_agent_event, priority);
  F(goap_agent_event, action); F(goap_agent_event, timeout); F(goap_agent_event, plan);
  F(goap_agent_event, plan_length); F(goap_agent_event, cost); F(goap_agent_event, cached);
  F(goap_agent_event, skipped); F(goap_agent_event, status); F(goap_agent_event, var);
  F(goap_agent_event, old_value); F(goap_agent_event, value); F(goap_agent_event, resource);
  S(goap_agent_stats); F(goap_agent_stats, updates); F(goap_agent_stats, plans);
  F(goap_agent_stats, plan_failures); F(goap_agent_stats, replans); F(goap_agent_stats, repairs);
  F(goap_agent_stats, cache_hits); F(goap_agent_stats, expanded);
  F(goap_agent_stats, actions_started); F(goap_agent_stats, actions_succeeded);
  F(goap_agent_stats, actions_failed); F(goap_agent_stats, reservations_denied);
  F(goap_agent_stats, memory_bytes);
  S(goap_plan_cache_stats); F(goap_plan_cache_stats, hits); F(goap_plan_cache_stats, misses);
  F(goap_plan_cache_stats, stores); F(goap_plan_cache_stats, evictions);
  F(goap_plan_cache_stats, entries);
  S(goap_squad_desc); F(goap_squad_desc, allocator); F(goap_squad_desc, suppress_goal);
  F(goap_squad_desc, cover_goal); F(goap_squad_desc, advance_goal);
  F(goap_squad_desc, search_goal); F(goap_squad_desc, order_priority);
  S(goap_world_desc); F(goap_world_desc, allocator); F(goap_world_desc, lanes);
  F(goap_world_desc, parallel); F(goap_world_desc, parallel_user); F(goap_world_desc, seed);
  F(goap_world_desc, no_jitter); F(goap_world_desc, initial_nodes);
  F(goap_world_desc, agent_share);
  S(goap_world_stats); F(goap_world_stats, frames); F(goap_world_stats, expansions);
  F(goap_world_stats, wanting); F(goap_world_stats, served); F(goap_world_stats, max_wait);
  F(goap_world_stats, planners); F(goap_world_stats, leased);
  S(goap_sim_options); F(goap_sim_options, allocator); F(goap_sim_options, bind);
  F(goap_sim_options, bind_user); F(goap_sim_options, on_event); F(goap_sim_options, event_user);
  F(goap_sim_options, on_world); F(goap_sim_options, world_user); F(goap_sim_options, until);
  F(goap_sim_options, step); F(goap_sim_options, recorder); F(goap_sim_options, replayer);
  S(goap_sim_result); F(goap_sim_result, time); F(goap_sim_result, idle);
  F(goap_sim_result, replans); F(goap_sim_result, stats); F(goap_sim_result, expectations);
  F(goap_sim_result, failed); F(goap_sim_result, message); F(goap_sim_result, line);
  F(goap_sim_result, col);
  S(goap_file_action_info); F(goap_file_action_info, on_fail);
  F(goap_file_action_info, on_fail_count); F(goap_file_action_info, watch);
  F(goap_file_action_info, watch_count); F(goap_file_action_info, timeout);
  F(goap_file_action_info, duration); F(goap_file_action_info, on_start);
  F(goap_file_action_info, on_start_count); F(goap_file_action_info, on_end);
  F(goap_file_action_info, on_end_count); F(goap_file_action_info, reserve);
  F(goap_file_action_info, reserve_count);
  S(goap_trace_event); F(goap_trace_event, kind); F(goap_trace_event, node);
  F(goap_trace_event, parent); F(goap_trace_event, action); F(goap_trace_event, g);
  F(goap_trace_event, h); F(goap_trace_event, f); F(goap_trace_event, state);
  S(goap_goal_info); F(goap_goal_info, goal); F(goap_goal_info, state);
  F(goap_goal_info, priority); F(goap_goal_info, ordered); F(goap_goal_info, failed_cond);
  F(goap_goal_info, failed_at); F(goap_goal_info, fail_status); F(goap_goal_info, retry_at);
  S(goap_plan_step_info); F(goap_plan_step_info, action); F(goap_plan_step_info, cost);
  F(goap_plan_step_info, state); F(goap_plan_step_info, relies_first);
  F(goap_plan_step_info, relies_count); F(goap_plan_step_info, relies_hold);
  S(goap_plan_info); F(goap_plan_info, goal); F(goap_plan_info, priority);
  F(goap_plan_info, cost); F(goap_plan_info, length); F(goap_plan_info, step);
  F(goap_plan_info, running); F(goap_plan_info, action_time); F(goap_plan_info, planning);
  F(goap_plan_info, cond_count);
  S(goap_replan_info); F(goap_replan_info, time); F(goap_replan_info, reason);
  F(goap_replan_info, status); F(goap_replan_info, goal); F(goap_replan_info, goals_tried);
  F(goap_replan_info, cached); F(goap_replan_info, plan_length); F(goap_replan_info, cost);
  F(goap_replan_info, expanded); F(goap_replan_info, generated); F(goap_replan_info, search_us);
  S(goap_failure_info); F(goap_failure_info, goal); F(goap_failure_info, action);
  F(goap_failure_info, var); F(goap_failure_info, value); F(goap_failure_info, timeout);
  F(goap_failure_info, status); F(goap_failure_info, learnt); F(goap_failure_info, expires);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--fields") == 0) {
    fields();
    return 0;
  }
  SIZE(goap_cond);
  SIZE(goap_effect);
  SIZE(goap_error);
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
