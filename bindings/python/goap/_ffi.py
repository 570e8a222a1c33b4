"""ctypes declarations of the libgoap C API (include/goap/goap.h, agent.h, file.h).

Mirrors the C structs field by field; tests/test_python.py checks every size against the
compiler's (tests/bindings/layout.c). Only the standard library is used.
"""
import ctypes
import ctypes.util
import os
import sys

c_int, c_int32, c_uint32, c_uint64 = ctypes.c_int, ctypes.c_int32, ctypes.c_uint32, ctypes.c_uint64
c_double, c_size_t, c_char_p, c_void_p = ctypes.c_double, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_void_p
c_unsigned = ctypes.c_uint
P = ctypes.POINTER

REPLAN_REASON_COUNT = 12


class Allocator(ctypes.Structure):
    _fields_ = [("fn", c_void_p), ("ctx", c_void_p)]


class Cond(ctypes.Structure):
    _fields_ = [("var", c_int32), ("op", c_int), ("value", c_int32)]


class Effect(ctypes.Structure):
    _fields_ = [("var", c_int32), ("op", c_int), ("value", c_int32)]


class Error(ctypes.Structure):
    """goap_error (goap/goap.h): the one error shape of every libgoap function."""
    _fields_ = [("status", c_int), ("severity", c_int), ("file", ctypes.c_char * 256),
                ("line", c_int), ("col", c_int), ("offset", c_size_t),
                ("message", ctypes.c_char * 512), ("source", ctypes.c_char * 512)]


class Scenario(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("line", c_int), ("goal", c_int), ("want", P(Cond)),
                ("want_count", c_int), ("given", P(Effect)), ("given_count", c_int),
                ("expect", c_unsigned), ("expect_cost", c_double), ("expect_plan", P(c_int32)),
                ("expect_plan_length", c_int)]


class VarInfo(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("type", c_int), ("lo", c_int32), ("hi", c_int32),
                ("value_count", c_int), ("default_value", c_int32), ("flags", c_unsigned),
                ("word", c_int), ("shift", c_int), ("bits", c_int)]


class Request(ctypes.Structure):
    _fields_ = [("start", P(c_uint64)), ("want", P(Cond)), ("want_count", c_int),
                ("search", c_int), ("heuristic", c_int), ("weight", c_double),
                ("max_nodes", c_uint32), ("max_ms", c_double), ("host", c_void_p),
                ("flags", c_unsigned), ("costs", P(c_double)), ("symmetry", c_void_p)]


class Stats(ctypes.Structure):
    _fields_ = [("expanded", c_uint64), ("generated", c_uint64), ("duplicates", c_uint64),
                ("reopened", c_uint64), ("nodes", c_uint32), ("actions_considered", c_int32),
                ("time_us", c_double), ("evaluated", c_uint64)]


class Result(ctypes.Structure):
    _fields_ = [("status", c_int), ("cost", c_double), ("plan", P(c_int32)),
                ("plan_capacity", c_int), ("plan_length", c_int), ("partial", c_int),
                ("stats", Stats)]


# Callbacks of agent.h
START_FN = ctypes.CFUNCTYPE(None, c_void_p, c_int, c_void_p)
TICK_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_int, c_double, c_void_p)
STOP_FN = ctypes.CFUNCTYPE(None, c_void_p, c_int, c_void_p)
PRIORITY_FN = ctypes.CFUNCTYPE(c_double, c_void_p, c_int, c_void_p)
SENSOR_FN = ctypes.CFUNCTYPE(None, c_void_p, c_void_p)


class ActionBinding(ctypes.Structure):
    _fields_ = [("disabled", c_int), ("cost_scale", c_double), ("start", START_FN),
                ("tick", TICK_FN), ("stop", STOP_FN), ("user", c_void_p), ("timeout", c_double),
                ("on_fail", P(Effect)), ("on_fail_count", c_int), ("watch", P(c_int32)),
                ("watch_count", c_int), ("on_start", P(Effect)), ("on_start_count", c_int),
                ("on_end", P(Effect)), ("on_end_count", c_int), ("reserve", P(c_char_p)),
                ("reserve_count", c_int), ("check", c_void_p), ("check_user", c_void_p)]


class GoalBinding(ctypes.Structure):
    _fields_ = [("disabled", c_int), ("priority", PRIORITY_FN), ("user", c_void_p),
                ("valid", P(Cond)), ("valid_count", c_int), ("watch", P(c_int32)),
                ("watch_count", c_int), ("cooldown", c_double)]


class SensorDesc(ctypes.Structure):
    _fields_ = [("fn", SENSOR_FN), ("user", c_void_p), ("interval", c_double)]


class AgentTypeDesc(ctypes.Structure):
    _fields_ = [("allocator", Allocator), ("name", c_char_p), ("actions", P(ActionBinding)),
                ("action_count", c_int), ("goals", P(GoalBinding)), ("goal_count", c_int),
                ("sensors", P(SensorDesc)), ("sensor_count", c_int),
                ("switch_margin", c_double), ("goal_check_interval", c_double),
                ("failed_goal_cooldown", c_double), ("search", c_int), ("heuristic", c_int),
                ("max_nodes", c_uint32), ("expansions_per_update", c_uint32),
                ("planning_ms_per_update", c_double), ("planner_initial_nodes", c_uint32),
                ("htn", c_void_p), ("htn_root", c_int), ("htn_watch", P(c_int32)),
                ("htn_watch_count", c_int)]


class AgentEvent(ctypes.Structure):
    _fields_ = [("kind", c_int), ("time", c_double), ("reason", c_int), ("goal", c_int),
                ("priority", c_double), ("action", c_int), ("timeout", c_int),
                ("plan", P(c_int32)), ("plan_length", c_int), ("cost", c_double),
                ("cached", c_int), ("skipped", c_int), ("status", c_int), ("var", c_int),
                ("old_value", c_int32), ("value", c_int32), ("resource", c_char_p)]


EVENT_FN = ctypes.CFUNCTYPE(None, c_void_p, P(AgentEvent), c_void_p)
WORLD_FN = ctypes.CFUNCTYPE(None, c_int, c_int32, c_int32, c_double, c_void_p)


class AgentDesc(ctypes.Structure):
    _fields_ = [("type", c_void_p), ("allocator", Allocator), ("memory", P(c_uint64)),
                ("host", c_void_p), ("blackboard", c_void_p), ("cache", c_void_p),
                ("planner", c_void_p), ("on_event", EVENT_FN), ("event_user", c_void_p),
                ("replan_history", c_int)]


class AgentStats(ctypes.Structure):
    _fields_ = [("updates", c_uint64), ("plans", c_uint64), ("plan_failures", c_uint64),
                ("replans", c_uint64 * REPLAN_REASON_COUNT), ("repairs", c_uint64),
                ("cache_hits", c_uint64), ("expanded", c_uint64),
                ("actions_started", c_uint64), ("actions_succeeded", c_uint64),
                ("actions_failed", c_uint64), ("reservations_denied", c_uint64),
                ("memory_bytes", c_size_t)]


class SimOptions(ctypes.Structure):
    _fields_ = [("allocator", Allocator), ("bind", c_void_p), ("bind_user", c_void_p),
                ("on_event", EVENT_FN), ("event_user", c_void_p),
                ("on_world", WORLD_FN), ("world_user", c_void_p), ("until", c_double),
                ("step", c_double), ("recorder", c_void_p), ("replayer", c_void_p)]


class SimResult(ctypes.Structure):
    _fields_ = [("time", c_double), ("idle", c_int), ("replans", c_int), ("stats", AgentStats),
                ("expectations", c_int), ("failed", c_int), ("message", ctypes.c_char * 256),
                ("line", c_int), ("col", c_int)]


class FileActionInfo(ctypes.Structure):
    _fields_ = [("on_fail", P(Effect)), ("on_fail_count", c_int), ("watch", P(c_int32)),
                ("watch_count", c_int), ("timeout", c_double), ("duration", c_double),
                ("on_start", P(Effect)), ("on_start_count", c_int), ("on_end", P(Effect)),
                ("on_end_count", c_int), ("reserve", P(c_char_p)), ("reserve_count", c_int)]


class TraceEvent(ctypes.Structure):
    _fields_ = [("kind", c_int), ("node", c_uint32), ("parent", c_uint32), ("action", c_int32),
                ("g", c_double), ("h", c_double), ("f", c_double), ("state", P(c_uint64))]


TRACE_FN = ctypes.CFUNCTYPE(None, c_void_p, P(TraceEvent))


# Struct name in C -> ctypes class (checked by the tests against tests/bindings/layout.c).
LAYOUTS = {
    "goap_cond": Cond, "goap_effect": Effect, "goap_error": Error, "goap_scenario": Scenario,
    "goap_var_info": VarInfo, "goap_request": Request, "goap_stats": Stats,
    "goap_result": Result, "goap_action_binding": ActionBinding,
    "goap_goal_binding": GoalBinding, "goap_sensor_desc": SensorDesc,
    "goap_agent_type_desc": AgentTypeDesc, "goap_agent_desc": AgentDesc,
    "goap_agent_event": AgentEvent, "goap_agent_stats": AgentStats,
    "goap_sim_options": SimOptions, "goap_sim_result": SimResult,
    "goap_file_action_info": FileActionInfo, "goap_trace_event": TraceEvent,
}

# name: (restype, argtypes)
FUNCTIONS = {
    "goap_version": (c_char_p, []),
    "goap_status_string": (c_char_p, [c_int]),
    "goap_status_name": (c_char_p, [c_int]),
    "goap_search_name": (c_char_p, [c_int]),
    "goap_heuristic_name": (c_char_p, [c_int]),
    "goap_heuristic_from_name": (c_int, [c_char_p]),
    "goap_domain_name": (c_char_p, [c_void_p]),
    "goap_domain_state_words": (c_size_t, [c_void_p]),
    "goap_domain_var_count": (c_int, [c_void_p]),
    "goap_domain_find_var": (c_int, [c_void_p, c_char_p]),
    "goap_domain_var_info": (c_int, [c_void_p, c_int, P(VarInfo)]),
    "goap_domain_value_name": (c_char_p, [c_void_p, c_int, c_int32]),
    "goap_domain_find_value": (c_int32, [c_void_p, c_int, c_char_p]),
    "goap_domain_action_count": (c_int, [c_void_p]),
    "goap_domain_find_action": (c_int, [c_void_p, c_char_p]),
    "goap_domain_action_name": (c_char_p, [c_void_p, c_int]),
    "goap_domain_action_cost": (c_double, [c_void_p, c_int]),
    "goap_domain_goal_count": (c_int, [c_void_p]),
    "goap_domain_find_goal": (c_int, [c_void_p, c_char_p]),
    "goap_domain_goal_name": (c_char_p, [c_void_p, c_int]),
    "goap_domain_goal_priority": (c_double, [c_void_p, c_int]),
    "goap_domain_goal_want": (P(Cond), [c_void_p, c_int, P(c_int)]),
    "goap_state_init": (None, [c_void_p, P(c_uint64)]),
    "goap_state_get": (c_int32, [c_void_p, P(c_uint64), c_int]),
    "goap_state_assign": (c_int, [c_void_p, P(c_uint64), P(Effect), c_int]),
    "goap_planner_create": (c_int, [c_void_p, c_void_p, P(c_void_p)]),
    "goap_planner_destroy": (None, [c_void_p]),
    "goap_planner_set_trace": (None, [c_void_p, TRACE_FN, c_void_p]),
    "goap_plan": (c_int, [c_void_p, P(Request), P(Result)]),
    "goap_plan_finish": (c_int, [c_void_p, P(Result)]),
    "goap_error_format": (c_size_t, [P(Error), c_char_p, c_size_t]),
    "goap_file_parse": (c_int, [c_char_p, c_char_p, c_size_t, c_void_p, P(c_void_p), P(Error)]),
    "goap_file_load": (c_int, [c_char_p, c_void_p, P(c_void_p), P(Error)]),
    "goap_file_destroy": (None, [c_void_p]),
    "goap_file_domain": (c_void_p, [c_void_p]),
    "goap_file_scenario_count": (c_int, [c_void_p]),
    "goap_file_scenario": (P(Scenario), [c_void_p, c_int]),
    "goap_file_find_scenario": (c_int, [c_void_p, c_char_p]),
    "goap_file_warnings": (c_int, [c_void_p, P(Error), c_int]),
    "goap_file_set_position": (c_int, [c_void_p, c_int, c_int32, c_double, c_double, c_double]),
    "goap_file_position": (c_int, [c_void_p, c_int, c_int32, P(c_double), P(c_double),
                                   P(c_double)]),
    "goap_parse_conds": (c_int, [c_void_p, c_char_p, c_char_p, P(Cond), c_int, P(c_int), P(Error)]),
    "goap_parse_assignments": (c_int, [c_void_p, c_char_p, c_char_p, P(Effect), c_int, P(c_int),
                                       P(Error)]),
    "goap_file_bindings": (c_int, [c_void_p, P(ActionBinding), c_int, P(GoalBinding), c_int]),
    "goap_file_simulation_count": (c_int, [c_void_p]),
    "goap_file_find_simulation": (c_int, [c_void_p, c_char_p]),
    "goap_file_simulation_name": (c_char_p, [c_void_p, c_int]),
    "goap_file_simulate": (c_int, [c_void_p, c_int, P(SimOptions), P(SimResult)]),
    "goap_replan_reason_name": (c_char_p, [c_int]),
    "goap_agent_type_create": (c_int, [c_void_p, P(AgentTypeDesc), P(c_void_p), P(Error)]),
    "goap_agent_type_destroy": (None, [c_void_p]),
    "goap_agent_create": (c_int, [P(AgentDesc), P(c_void_p), P(Error)]),
    "goap_agent_destroy": (None, [c_void_p]),
    "goap_agent_update": (c_int, [c_void_p, c_double]),
    "goap_agent_set": (c_int, [c_void_p, c_int, c_int32]),
    "goap_agent_get": (c_int32, [c_void_p, c_int]),
    "goap_agent_replan": (None, [c_void_p]),
    "goap_agent_reset": (None, [c_void_p]),
    "goap_agent_goal": (c_int, [c_void_p]),
    "goap_agent_action": (c_int, [c_void_p]),
    "goap_agent_plan": (P(c_int32), [c_void_p, P(c_int), P(c_int)]),
    "goap_agent_plan_cost": (c_double, [c_void_p]),
    "goap_agent_time": (c_double, [c_void_p]),
    "goap_agent_get_stats": (AgentStats, [c_void_p]),
    # save games (goap/save.h)
    "goap_agent_snapshot": (c_int, [c_void_p, c_void_p, ctypes.c_size_t, P(ctypes.c_size_t)]),
    "goap_agent_restore": (c_int, [c_void_p, c_char_p, ctypes.c_size_t, P(Error)]),
    "goap_agent_snapshot_json": (c_int, [c_void_p, c_char_p, ctypes.c_size_t, P(ctypes.c_size_t)]),
    "goap_agent_type_fingerprint": (ctypes.c_uint64, [c_void_p]),
}


# ---- inspection (goap/inspect.h) -----------------------------------------------------------
class GoalInfo(ctypes.Structure):
    _fields_ = [("goal", c_int), ("state", c_int), ("priority", c_double), ("ordered", c_int),
                ("failed_cond", Cond), ("failed_at", c_double), ("fail_status", c_int),
                ("retry_at", c_double)]


class PlanStepInfo(ctypes.Structure):
    _fields_ = [("action", c_int), ("cost", c_double), ("state", c_int),
                ("relies_first", c_int), ("relies_count", c_int), ("relies_hold", c_int)]


class PlanInfo(ctypes.Structure):
    _fields_ = [("goal", c_int), ("priority", c_double), ("cost", c_double), ("length", c_int),
                ("step", c_int), ("running", c_int), ("action_time", c_double),
                ("planning", c_int), ("cond_count", c_int)]


class ReplanInfo(ctypes.Structure):
    _fields_ = [("time", c_double), ("reason", c_int), ("status", c_int), ("goal", c_int),
                ("goals_tried", c_int), ("cached", c_int), ("plan_length", c_int),
                ("cost", c_double), ("expanded", c_uint64), ("generated", c_uint64),
                ("search_us", c_double)]


class FailureInfo(ctypes.Structure):
    _fields_ = [("goal", c_int), ("action", c_int), ("var", c_int), ("value", c_int32),
                ("timeout", c_int), ("status", c_int), ("learnt", c_double),
                ("expires", c_double)]


LAYOUTS.update({"goap_goal_info": GoalInfo, "goap_plan_step_info": PlanStepInfo,
                "goap_plan_info": PlanInfo, "goap_replan_info": ReplanInfo,
                "goap_failure_info": FailureInfo})
FUNCTIONS.update({
    "goap_agent_inspect_goals": (c_int, [c_void_p, P(GoalInfo), c_int]),
    "goap_agent_inspect_plan": (c_int, [c_void_p, P(PlanInfo), P(PlanStepInfo), c_int, P(Cond),
                                        c_int]),
    "goap_agent_inspect_replans": (c_int, [c_void_p, P(ReplanInfo), c_int]),
    "goap_agent_inspect_failures": (c_int, [c_void_p, P(FailureInfo), c_int]),
    "goap_goal_state_name": (c_char_p, [c_int]),
    "goap_format_cond": (c_size_t, [c_void_p, P(Cond), c_char_p, c_size_t]),
})
# ---- end of inspection ----------------------------------------------------------------------

# ---- blackboards and squads, and their save games (goap/agent.h, goap/squad.h, goap/save.h) --
FUNCTIONS.update({
    "goap_blackboard_create": (c_int, [c_void_p, P(c_void_p)]),
    "goap_blackboard_destroy": (None, [c_void_p]),
    "goap_blackboard_set": (c_int, [c_void_p, c_char_p, c_int32]),
    "goap_blackboard_get": (c_int, [c_void_p, c_char_p, P(c_int32)]),
    "goap_blackboard_version": (ctypes.c_uint64, [c_void_p]),
    "goap_blackboard_add_resource": (c_int, [c_void_p, c_char_p, c_int]),
    "goap_blackboard_resource": (c_int, [c_void_p, c_char_p, P(c_int), P(c_int)]),
    "goap_blackboard_snapshot": (c_int, [c_void_p, c_void_p, ctypes.c_size_t,
                                         P(ctypes.c_size_t)]),
    "goap_blackboard_restore": (c_int, [c_void_p, c_char_p, ctypes.c_size_t, P(Error)]),
    "goap_squad_create": (c_int, [c_void_p, P(c_void_p)]),
    "goap_squad_destroy": (None, [c_void_p]),
    "goap_squad_add": (c_int, [c_void_p, c_void_p]),
    "goap_squad_remove": (c_int, [c_void_p, c_void_p]),
    "goap_squad_size": (c_int, [c_void_p]),
    "goap_squad_order": (c_int, [c_void_p, c_int]),
    "goap_squad_update": (None, [c_void_p]),
    "goap_squad_current": (c_int, [c_void_p]),
    "goap_squad_behavior_name": (c_char_p, [c_int]),
    "goap_squad_behavior_from_name": (c_int, [c_char_p]),
    "goap_squad_snapshot": (c_int, [c_void_p, c_void_p, ctypes.c_size_t, P(ctypes.c_size_t)]),
    "goap_squad_restore": (c_int, [c_void_p, c_char_p, ctypes.c_size_t, P(c_void_p), c_int,
                                   P(Error)]),
})


def _candidates():
    env = os.environ.get("GOAP_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    names = {"win32": ["goap_shared.dll"], "darwin": ["libgoap_shared.dylib"]}.get(
        sys.platform, ["libgoap_shared.so", "libgoap_shared.so.0"])
    for n in names:
        yield os.path.join(here, n)
    found = ctypes.util.find_library("goap_shared")
    if found:
        yield found


def load():
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            errors.append("%s: %s" % (path, e))
            continue
        for name, (res, args) in FUNCTIONS.items():
            fn = getattr(lib, name)
            fn.restype = res
            fn.argtypes = args
        return lib, path
    raise OSError("libgoap: cannot load the shared library goap_shared (set GOAP_LIBRARY to "
                  "its path). Tried: " + ("; ".join(errors) or "nothing found"))
