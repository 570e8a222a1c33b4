"""libgoap for Python: goal-oriented action planning (ctypes, standard library only).

    import goap
    with goap.File.load("examples/soldier.goap") as f:
        plan = f.plan(scenario="door_stuck")
        print(plan.actions, plan.cost)        # ['get_ammo', 'load_magazine', 'kick_door', 'shoot'] 6.0

Objects: File (a loaded .goap file: its domain, scenarios, simulations), Domain (the file's
domain, a view that lives as long as the file), Agent (an NPC whose actions are Python
callables). Errors raise GoapError, the C goap_error's shape (status, message, file, line, col,
offset); its text for file and condition errors is exactly what the `goap` CLI prints
(`file:line:col: error: message`, the source line and a caret).

Threads: an object is used by one thread at a time; a File may be shared for reading.
Closing: close() (or `with`) frees the C object; any use afterwards raises GoapError, never
crashes. Closing a File closes the agents made on it first.
"""
import ctypes
import weakref

from . import _ffi

_lib, LIBRARY_PATH = _ffi.load()

__all__ = ["File", "Domain", "Agent", "Blackboard", "Squad", "Plan", "Event", "Simulation",
           "GoapError",
           "RUNNING", "SUCCESS", "FAILURE", "version"]

STATUS_NAMES = [_lib.goap_status_name(i).decode() for i in range(64)]  # unknown codes: a name too
OK, NO_PLAN, INVALID_ARGUMENT, INVALID_OPERATION = 0, 1, 8, 9
BUFFER_TOO_SMALL, IN_PROGRESS, NOT_FOUND, OUT_OF_RANGE = 5, 6, 11, 14

RUNNING, SUCCESS, FAILURE = "running", "success", "failure"
_ACTION_STATE = {RUNNING: 0, SUCCESS: 1, FAILURE: 2, None: 0, True: 1, False: 2}

EVENT_KINDS = ["replan", "goal", "plan", "plan_failed", "repair", "action_start",
               "action_success", "action_failure", "action_stop", "memory", "goal_done", "idle",
               "reservation_denied"]
SEARCHES = ["astar", "backward", "wastar", "greedy"]
# goap_request flags (goap.h)
REQUEST_NO_PRUNING, REQUEST_PREFERRED, REQUEST_LAZY = 0x1, 0x2, 0x4
# goap_var_info flags (goap.h)
VAR_SHARED, VAR_SENSED = 0x1, 0x2


def version():
    """The C library's version string."""
    return _lib.goap_version().decode()


class GoapError(Exception):
    """An error from libgoap, with the fields of the C goap_error (goap/goap.h):
    status: the goap_status name ("parse_error", "not_found", "corrupt", ...);
    message: the message alone; file: the input's name ("" when it had none);
    line, col: 1-based position in a text (0 when not tied to one);
    offset: byte offset in a binary input (a snapshot; 0 when none).
    str(e) is goap_error_format's text, the CLI's (`file:line:col: error: message`, the source
    line and a caret; `error: message (at byte N)` for a snapshot)."""

    def __init__(self, status, message, file="", line=0, col=0, offset=0, text=None):
        super().__init__(message if text is None else text)
        self.status = STATUS_NAMES[status] if isinstance(status, int) else status
        self.message, self.file, self.line, self.col, self.offset = message, file, line, col, offset


def _error(err):
    """GoapError from a filled goap_error."""
    buf = ctypes.create_string_buffer(2048)
    _lib.goap_error_format(ctypes.byref(err), buf, len(buf))
    return GoapError(err.status, err.message.decode("utf-8", "replace"),
                     err.file.decode("utf-8", "replace"), err.line, err.col, err.offset,
                     buf.value.decode("utf-8", "replace").rstrip("\n"))


def _status_error(status, what):
    return GoapError(status, "%s: %s" % (what, _lib.goap_status_string(status).decode()))


def _snapshot(fn, p):
    """bytes of a goap_*_snapshot function (size query first)."""
    n = ctypes.c_size_t(0)
    fn(p, None, 0, ctypes.byref(n))
    buf = ctypes.create_string_buffer(max(n.value, 1))
    st = fn(p, buf, n.value, ctypes.byref(n))
    if st != OK:
        raise _status_error(st, "snapshot")
    return buf.raw[:n.value]


def _snapshot_data(data):
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("expected bytes, got %s" % type(data).__name__)
    return bytes(data)


def _enc(s):
    if not isinstance(s, str):
        raise TypeError("expected a str, got %s" % type(s).__name__)
    if "\0" in s:
        raise ValueError("string contains a NUL character")
    return s.encode("utf-8")


def _dec(b):
    return None if b is None else b.decode("utf-8", "replace")


class _Closable:
    _closed_what = "object"

    def _check(self):
        if self._ptr is None:
            raise GoapError(INVALID_OPERATION, "%s is closed" % self._closed_what)
        return self._ptr

    @property
    def closed(self):
        return self._ptr is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Domain:
    """The domain of a File (a view: valid while the file is open)."""

    def __init__(self, file):
        self._file = file

    @property
    def _ptr(self):
        return _lib.goap_file_domain(self._file._check())

    @property
    def name(self):
        return _dec(_lib.goap_domain_name(self._ptr))

    @property
    def vars(self):
        d = self._ptr
        return [self.var_name(i) for i in range(_lib.goap_domain_var_count(d))]

    def var_name(self, var):
        info = _ffi.VarInfo()
        if _lib.goap_domain_var_info(self._ptr, var, ctypes.byref(info)) != OK:
            raise GoapError(INVALID_ARGUMENT, "no variable with id %r" % (var,))
        return _dec(info.name)

    def is_sensed(self, var):
        """True for a `sensed` variable (a percept the game's sensors write; by name or id)."""
        info = _ffi.VarInfo()
        v = var if isinstance(var, int) else self.find_var(var)
        if _lib.goap_domain_var_info(self._ptr, v, ctypes.byref(info)) != OK:
            raise GoapError(INVALID_ARGUMENT, "no variable %r" % (var,))
        return bool(info.flags & VAR_SENSED)

    @property
    def actions(self):
        d = self._ptr
        return [_dec(_lib.goap_domain_action_name(d, i))
                for i in range(_lib.goap_domain_action_count(d))]

    @property
    def goals(self):
        d = self._ptr
        return [_dec(_lib.goap_domain_goal_name(d, i))
                for i in range(_lib.goap_domain_goal_count(d))]

    def _find(self, fn, kind, name):
        i = fn(self._ptr, _enc(name))
        if i < 0:
            raise GoapError("not_found", "unknown %s '%s'" % (kind, name))
        return i

    def find_var(self, name):
        return self._find(_lib.goap_domain_find_var, "variable", name)

    def find_action(self, name):
        return self._find(_lib.goap_domain_find_action, "action", name)

    def find_goal(self, name):
        return self._find(_lib.goap_domain_find_goal, "goal", name)

    def action_cost(self, name):
        return _lib.goap_domain_action_cost(self._ptr, self.find_action(name))

    def value_name(self, var, value):
        """"true"/"false" for bools, the value's name for enums, the number for ints."""
        v = _lib.goap_domain_value_name(self._ptr, var, value)
        return _dec(v) if v is not None else str(value)

    def parse_conds(self, text, name="--want"):
        """Parses `a, !b, ammo >= 2` (a `want` line) into a ctypes array of conditions.
        Errors raise GoapError with the CLI's text (`--want:1:col: error: ...`)."""
        return self._parse(_lib.goap_parse_conds, _ffi.Cond, text, name)

    def parse_assignments(self, text, name="--given"):
        return self._parse(_lib.goap_parse_assignments, _ffi.Effect, text, name)

    def _parse(self, fn, ctype, text, name):
        d = self._ptr
        cap = 16
        while True:
            arr = (ctype * cap)()
            count = ctypes.c_int(0)
            err = _ffi.Error()
            st = fn(d, _enc(name), _enc(text), arr, cap, ctypes.byref(count), ctypes.byref(err))
            if st == BUFFER_TOO_SMALL and count.value > cap:
                cap = count.value
                continue
            if st == BUFFER_TOO_SMALL:
                cap *= 4
                continue
            if st != OK:
                raise _error(err)
            return arr, count.value


class Plan:
    """The result of a planning request. status: "ok", "no_plan", "node_limit", ...;
    actions: action names; ids: action ids; cost; expanded: nodes expanded; partial."""

    def __init__(self, status, actions, ids, cost, expanded, partial, trace=None):
        self.status, self.actions, self.ids = status, actions, ids
        self.cost, self.expanded, self.partial = cost, expanded, partial
        self.trace = trace  # with plan(..., trace=True): the search, a list of TraceEvent

    @property
    def ok(self):
        return self.status == "ok"

    def __repr__(self):
        return "Plan(%s, %r, cost=%g)" % (self.status, self.actions, self.cost)


TRACE_KINDS = ["new", "duplicate", "better", "limit", "expand", "goal"]


class TraceEvent:
    """One event of a traced search (docs/trace.md): kind ("new", "duplicate", "better",
    "limit", "expand", "goal"), node, parent (None for a root), action (a name, or None), g, h,
    f, and state (a dict variable -> value; None for "limit"; forward searches only)."""

    def __init__(self, kind, node, parent, action, g, h, f, state):
        self.kind, self.node, self.parent, self.action = kind, node, parent, action
        self.g, self.h, self.f, self.state = g, h, f, state

    def __repr__(self):
        return "TraceEvent(%s, node=%d, parent=%r, action=%r, g=%g, h=%g)" % (
            self.kind, self.node, self.parent, self.action, self.g, self.h)


class Event:
    """One step of an agent's timeline (goap_agent_event): kind ("plan", "action_failure",
    ...), time, and, as the kind has them, reason, goal, action, plan, cost, var, old_value,
    value, status, priority, cached, skipped, timeout. Names, not ids."""

    def __init__(self, domain, ev):
        d = domain._ptr
        self.kind = EVENT_KINDS[ev.kind] if 0 <= ev.kind < len(EVENT_KINDS) else str(ev.kind)
        self.time = ev.time
        self.reason = _dec(_lib.goap_replan_reason_name(ev.reason))
        self.goal = _dec(_lib.goap_domain_goal_name(d, ev.goal)) if ev.goal >= 0 else None
        self.action = _dec(_lib.goap_domain_action_name(d, ev.action)) if ev.action >= 0 else None
        self.plan = ([_dec(_lib.goap_domain_action_name(d, ev.plan[i]))
                      for i in range(ev.plan_length)] if ev.plan else [])
        self.cost, self.priority = ev.cost, ev.priority
        self.cached, self.skipped, self.timeout = ev.cached, ev.skipped, ev.timeout
        self.status = STATUS_NAMES[ev.status] if 0 <= ev.status < len(STATUS_NAMES) else None
        self.var = domain.var_name(ev.var) if self.kind == "memory" else None
        self.old_value, self.value = ev.old_value, ev.value
        # memory events: the values as written in a file ("true", "angry", "3")
        self.old_value_name = domain.value_name(ev.var, ev.old_value) if self.var else None
        self.value_name = domain.value_name(ev.var, ev.value) if self.var else None

    def __repr__(self):
        extra = {"plan": " %s %r" % (self.goal, self.plan), "memory": " %s=%s" % (self.var, self.value_name),
                 "replan": " " + (self.reason or "")}.get(self.kind, " " + (self.action or self.goal or ""))
        return "<Event %.2f %s%s>" % (self.time, self.kind, extra)


class Simulation:
    """What File.simulate returns: events (the agent's timeline), world (changes of world
    variables as (time, var, old, new)), world_names (the same with the values as names:
    "true", an enum value, the number), time, idle, replans, expectations, failed, message,
    line and col (where the first failing `expect` is; 0 when none), stats (a dict of the
    agent's counters)."""

    def __repr__(self):
        return "<Simulation %s: %d events, %d replans, %d/%d expectations failed>" % (
            self.name, len(self.events), self.replans, self.failed, self.expectations)


def _stats_dict(s):
    return {"updates": s.updates, "plans": s.plans, "plan_failures": s.plan_failures,
            "replans": {_dec(_lib.goap_replan_reason_name(i)): s.replans[i]
                        for i in range(_ffi.REPLAN_REASON_COUNT) if s.replans[i]},
            "repairs": s.repairs, "cache_hits": s.cache_hits, "expanded": s.expanded,
            "actions_started": s.actions_started, "actions_succeeded": s.actions_succeeded,
            "actions_failed": s.actions_failed, "memory_bytes": s.memory_bytes}


class File(_Closable):
    """A loaded .goap file (goap_file): its domain, scenarios and simulations."""
    _closed_what = "goap.File"

    def __init__(self, ptr, name):
        self._ptr = ptr
        self.name = name
        self._agents = weakref.WeakSet()
        self.domain = Domain(self)

    @classmethod
    def load(cls, path):
        """Reads and parses a file. GoapError (status "io_error", "parse_error", ...) with the
        CLI's `path:line:col: error: message` text on failure."""
        out = ctypes.c_void_p()
        err = _ffi.Error()
        st = _lib.goap_file_load(_enc(str(path)), None, ctypes.byref(out), ctypes.byref(err))
        if st != OK:
            raise _error(err)
        return cls(out.value, str(path))

    @classmethod
    def parse(cls, text, name="<string>"):
        """Parses .goap text; `name` is used in error messages."""
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        out = ctypes.c_void_p()
        err = _ffi.Error()
        st = _lib.goap_file_parse(_enc(name), data, len(data), None, ctypes.byref(out),
                                  ctypes.byref(err))
        if st != OK:
            raise _error(err)
        return cls(out.value, name)

    def close(self):
        """Frees the file; closes the agents made on it first. Safe to call twice."""
        if self._ptr is None:
            return
        for a in list(self._agents):
            a.close()
        _lib.goap_file_destroy(self._ptr)
        self._ptr = None

    # -- scenarios ---------------------------------------------------------------------
    @property
    def scenarios(self):
        f = self._check()
        return [_dec(_lib.goap_file_scenario(f, i).contents.name)
                for i in range(_lib.goap_file_scenario_count(f))]

    def scenario(self, name):
        """A scenario as a dict: name, goal, want, given, expect_cost, expect_plan
        (None when not expected), expect_no_plan."""
        f = self._check()
        i = _lib.goap_file_find_scenario(f, _enc(name))
        if i < 0:
            raise GoapError("not_found", "unknown scenario '%s'" % name)
        s = _lib.goap_file_scenario(f, i).contents
        d = self.domain
        return {
            "name": _dec(s.name),
            "goal": d.goals[s.goal] if s.goal >= 0 else None,
            "want": [(d.var_name(s.want[k].var), s.want[k].op, s.want[k].value)
                     for k in range(s.want_count)],
            "given": [(d.var_name(s.given[k].var), s.given[k].op, s.given[k].value)
                      for k in range(s.given_count)],
            "expect_cost": s.expect_cost if s.expect & 1 else None,
            "expect_plan": ([d.actions[s.expect_plan[k]] for k in range(s.expect_plan_length)]
                            if s.expect & 2 else None),
            "expect_no_plan": bool(s.expect & 4),
        }

    # -- positions (`position VAR VALUE X Y [Z]`, docs/format.md) --------------------------
    def _position_key(self, var, value):
        """(var id, value index) from names or ids; unknown names raise GoapError not_found."""
        d = self.domain
        v = var if isinstance(var, int) else d.find_var(var)
        if isinstance(value, int):
            return v, value
        i = _lib.goap_domain_find_value(d._ptr, v, _enc(value))
        if i < 0:
            raise GoapError("not_found", "variable '%s' has no value '%s'" % (d.var_name(v), value))
        return v, i

    def _position_error(self, st, what, v, i):
        d = self.domain
        if st == INVALID_ARGUMENT:
            return GoapError(st, "%s: no variable with id %r" % (what, v))
        named = _lib.goap_domain_value_name(d._ptr, v, i)
        if st == OUT_OF_RANGE and named is None:
            return GoapError(st, "%s: variable '%s' has no value %d" % (what, d.var_name(v), i))
        name = "%s = %s" % (d.var_name(v), d.value_name(v, i))
        if st == NOT_FOUND:
            return GoapError(st, "%s: %s has no position (no `position` line)" % (what, name))
        if st == OUT_OF_RANGE:
            return GoapError(st, "%s: %s: a coordinate is not finite" % (what, name))
        return GoapError(st, "%s: %s: %s" % (what, name, _lib.goap_status_string(st).decode()))

    def set_position(self, var, value, x, y, z=0.0):
        """Moves the point of enum value `value` of `var` (names or ids) that `cost
        distance(var)` reads; the next plans price distances from it. GoapError: not_found for
        an unknown name or a variable without `position` lines, out_of_range for a bad value
        or a non-finite coordinate. Not while an agent of this file is planning."""
        f = self._check()
        v, i = self._position_key(var, value)
        st = _lib.goap_file_set_position(f, v, i, float(x), float(y), float(z))
        if st != OK:
            raise self._position_error(st, "set_position", v, i)

    def position(self, var, value):
        """The point (x, y, z) of enum value `value` of `var` (names or ids). GoapError
        not_found when it has none."""
        f = self._check()
        v, i = self._position_key(var, value)
        x, y, z = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        st = _lib.goap_file_position(f, v, i, ctypes.byref(x), ctypes.byref(y), ctypes.byref(z))
        if st != OK:
            raise self._position_error(st, "position", v, i)
        return (x.value, y.value, z.value)

    def warnings(self):
        """The warnings of `goap check`, each as the CLI prints it."""
        f = self._check()
        n = _lib.goap_file_warnings(f, None, 0)
        arr = (_ffi.Error * max(n, 1))()
        _lib.goap_file_warnings(f, arr, n)
        return [str(_error(arr[i])) for i in range(n)]

    # -- planning ----------------------------------------------------------------------
    def plan(self, scenario=None, goal=None, want=None, given=None, search="astar",
             heuristic="default", max_nodes=0, weight=0.0, trace=False, preferred=False,
             lazy=False):
        """Plans from the default state (plus a scenario's or the `given` assignments) to a
        scenario's want, a goal's want, or `want` conditions (a string as on a `want` line).
        Returns a Plan; bad names or conditions raise GoapError. trace=True records the search
        in Plan.trace (a list of TraceEvent). preferred / lazy: GOAP_REQUEST_PREFERRED /
        GOAP_REQUEST_LAZY (greedy or wastar; preferred with hff)."""
        f = self._check()
        d = self.domain._ptr
        if [scenario, goal, want].count(None) != 2:
            raise GoapError(INVALID_ARGUMENT, "say what to reach: scenario, goal or want")
        words = _lib.goap_domain_state_words(d)
        start = (ctypes.c_uint64 * max(words, 1))()
        _lib.goap_state_init(d, start)
        if scenario is not None:
            i = _lib.goap_file_find_scenario(f, _enc(scenario))
            if i < 0:
                raise GoapError("not_found", "unknown scenario '%s'" % scenario)
            s = _lib.goap_file_scenario(f, i).contents
            conds, count = s.want, s.want_count
            if _lib.goap_state_assign(d, start, s.given, s.given_count) != OK:
                raise GoapError("out_of_range", "scenario '%s': given out of range" % scenario)
        elif goal is not None:
            g = self.domain.find_goal(goal)
            n = ctypes.c_int(0)
            conds = _lib.goap_domain_goal_want(d, g, ctypes.byref(n))
            count = n.value
        else:
            conds, count = self.domain.parse_conds(want)
        if given is not None:
            eff, n = self.domain.parse_assignments(given)
            st = _lib.goap_state_assign(d, start, eff, n)
            if st != OK:
                raise _status_error(st, "--given")
        req = _ffi.Request()
        req.start = start
        req.want = ctypes.cast(conds, ctypes.POINTER(_ffi.Cond))
        req.want_count = count
        if search not in SEARCHES:
            raise GoapError(INVALID_ARGUMENT, "unknown search '%s' (%s)" % (search, ", ".join(SEARCHES)))
        req.search = SEARCHES.index(search)
        h = _lib.goap_heuristic_from_name(_enc(heuristic))
        if h < 0:
            raise GoapError(INVALID_ARGUMENT, "unknown heuristic '%s'" % heuristic)
        req.heuristic = h
        req.max_nodes = max_nodes
        req.weight = weight
        req.flags = (REQUEST_PREFERRED if preferred else 0) | (REQUEST_LAZY if lazy else 0)
        out = ctypes.c_void_p()
        st = _lib.goap_planner_create(d, None, ctypes.byref(out))
        if st != OK:
            raise _status_error(st, "planner")
        planner = out.value
        events = [] if trace else None
        if trace:
            dom = self.domain
            var_names = dom.vars
            nvars = len(var_names)
            acts_all = dom.actions
            backward = search == "backward"

            def on_trace(user, ev):
                e = ev.contents
                state = None
                if e.state and not backward:
                    state = {var_names[v]: _lib.goap_state_get(d, e.state, v)
                             for v in range(nvars)}
                events.append(TraceEvent(
                    TRACE_KINDS[e.kind] if 0 <= e.kind < len(TRACE_KINDS) else str(e.kind),
                    e.node, None if e.parent == 0xFFFFFFFF else e.parent,
                    acts_all[e.action] if 0 <= e.action < len(acts_all) else None,
                    e.g, e.h, e.f, state))

            trace_cb = _ffi.TRACE_FN(on_trace)  # kept alive for the call
            _lib.goap_planner_set_trace(planner, trace_cb, None)
        try:
            buf = (ctypes.c_int32 * 64)()
            res = _ffi.Result(plan=buf, plan_capacity=64)
            st = _lib.goap_plan(planner, ctypes.byref(req), ctypes.byref(res))
            if st == BUFFER_TOO_SMALL or res.plan_length > res.plan_capacity:
                buf = (ctypes.c_int32 * res.plan_length)()
                res.plan, res.plan_capacity = buf, res.plan_length
                st = _lib.goap_plan_finish(planner, ctypes.byref(res))
            if st in (INVALID_ARGUMENT, INVALID_OPERATION) or STATUS_NAMES[st] == "out_of_memory":
                raise _status_error(st, "plan")
            n = min(res.plan_length, res.plan_capacity)
            ids = [buf[i] for i in range(n)] if (st == OK or res.partial) else []
            acts = self.domain.actions
            return Plan(STATUS_NAMES[st], [acts[i] for i in ids], ids, res.cost,
                        res.stats.expanded, bool(res.partial), events)
        finally:
            _lib.goap_planner_destroy(planner)

    # -- simulations -------------------------------------------------------------------
    @property
    def simulations(self):
        f = self._check()
        return [_dec(_lib.goap_file_simulation_name(f, i))
                for i in range(_lib.goap_file_simulation_count(f))]

    def simulate(self, name, until=0.0, step=0.0):
        """Runs a `simulation` block; returns a Simulation with its events."""
        f = self._check()
        i = _lib.goap_file_find_simulation(f, _enc(name))
        if i < 0:
            raise GoapError("not_found", "unknown simulation '%s'" % name)
        sim = Simulation()
        sim.name, sim.events, sim.world, sim.world_names = name, [], [], []
        errors = []
        dom = self.domain

        def on_event(agent, ev, user):
            try:
                sim.events.append(Event(dom, ev.contents))
            except BaseException as e:  # never let an exception cross the C frames
                errors.append(e)

        def on_world(var, old, new, time, user):
            try:
                sim.world.append((time, dom.var_name(var), old, new))
                sim.world_names.append((time, dom.var_name(var), dom.value_name(var, old),
                                        dom.value_name(var, new)))
            except BaseException as e:
                errors.append(e)

        ev_fn, world_fn = _ffi.EVENT_FN(on_event), _ffi.WORLD_FN(on_world)
        opts = _ffi.SimOptions(on_event=ev_fn, on_world=world_fn, until=until, step=step)
        res = _ffi.SimResult()
        st = _lib.goap_file_simulate(f, i, ctypes.byref(opts), ctypes.byref(res))
        if errors:
            raise errors[0]
        if st != OK:
            raise _status_error(st, "simulate %s" % name)
        sim.time, sim.idle, sim.replans = res.time, bool(res.idle), res.replans
        sim.expectations, sim.failed = res.expectations, res.failed
        sim.message = _dec(res.message)
        sim.line, sim.col = res.line, res.col
        sim.stats = _stats_dict(res.stats)
        return sim


class Agent(_Closable):
    """An agent running the file's domain with Python action callbacks.

    actions: {action name: callable or dict}. A callable is the action's tick:
    tick(agent, action_name, dt) returns goap.RUNNING, SUCCESS or FAILURE (or None = running,
    True = success, False = failure). A dict may give "tick", "start" (agent, name) and "stop"
    (agent, name). Actions without a callback succeed at once. The file's on_fail, timeout,
    watch and valid lines apply. on_event(agent, Event) receives the timeline.

    An exception raised by a callback does not cross into C: the action is marked failed (its
    on_fail memory is written), and the exception is raised again by update() once the C
    update has returned. The agent keeps its callbacks alive as long as it lives.
    """
    _closed_what = "goap.Agent"

    def __init__(self, file, actions=None, on_event=None, name="agent", memory=None,
                 expansions_per_update=0, blackboard=None):
        self._ptr = None
        self._type = None
        self._squads = set()
        if blackboard is not None and not isinstance(blackboard, Blackboard):
            raise TypeError("blackboard: expected a goap.Blackboard")
        self.blackboard = blackboard
        f = file._check()
        d = file.domain._ptr
        self.file, self.domain = file, file.domain
        self._errors = []
        self._updating = False
        na, ng = _lib.goap_domain_action_count(d), _lib.goap_domain_goal_count(d)
        self._acts = (_ffi.ActionBinding * max(na, 1))()
        self._goals = (_ffi.GoalBinding * max(ng, 1))()
        st = _lib.goap_file_bindings(f, self._acts, na, self._goals, ng)
        if st != OK:
            raise _status_error(st, "bindings")
        names = file.domain.actions
        self._callbacks = {}
        for key, spec in (actions or {}).items():
            a = file.domain.find_action(key)
            if callable(spec):
                spec = {"tick": spec}
            elif not isinstance(spec, dict) or set(spec) - {"tick", "start", "stop"}:
                raise TypeError("action %s: give a callable or a dict of tick/start/stop" % key)
            self._callbacks[a] = spec
        self._names = names
        self._c_tick = _ffi.TICK_FN(self._on_tick)
        self._c_start = _ffi.START_FN(self._on_start)
        self._c_stop = _ffi.STOP_FN(self._on_stop)
        self._c_event = _ffi.EVENT_FN(self._on_event)
        for a, spec in self._callbacks.items():
            if "tick" in spec:
                self._acts[a].tick = self._c_tick
            if "start" in spec:
                self._acts[a].start = self._c_start
            if "stop" in spec:
                self._acts[a].stop = self._c_stop
        self._on_event_py = on_event
        td = _ffi.AgentTypeDesc()
        self._type_name = _enc(name)
        td.name = self._type_name
        td.actions, td.action_count = self._acts, na
        td.goals, td.goal_count = self._goals, ng
        td.expansions_per_update = expansions_per_update
        t = ctypes.c_void_p()
        err = _ffi.Error()
        st = _lib.goap_agent_type_create(d, ctypes.byref(td), ctypes.byref(t), ctypes.byref(err))
        if st != OK:
            raise _error(err)
        self._type = t.value
        ad = _ffi.AgentDesc()
        ad.type = self._type
        ad.on_event = self._c_event
        if blackboard is not None:
            ad.blackboard = blackboard._check()
        if memory is not None:
            words = _lib.goap_domain_state_words(d)
            self._memory0 = (ctypes.c_uint64 * max(words, 1))()
            _lib.goap_state_init(d, self._memory0)
            eff, n = file.domain.parse_assignments(memory, "memory")
            st = _lib.goap_state_assign(d, self._memory0, eff, n)
            if st != OK:
                _lib.goap_agent_type_destroy(self._type)
                self._type = None
                raise _status_error(st, "memory")
            ad.memory = self._memory0
        out = ctypes.c_void_p()
        err = _ffi.Error()
        st = _lib.goap_agent_create(ctypes.byref(ad), ctypes.byref(out), ctypes.byref(err))
        if st != OK:
            _lib.goap_agent_type_destroy(self._type)
            self._type = None
            raise _error(err)
        self._ptr = out.value
        file._agents.add(self)
        if blackboard is not None:
            blackboard._agents.add(self)

    # -- callbacks from C: never raise -------------------------------------------------
    def _call(self, action, which, *args):
        fn = self._callbacks.get(action, {}).get(which)
        return fn(self, self._names[action], *args) if fn else None

    def _on_tick(self, agent, action, dt, user):
        try:
            r = self._call(action, "tick", dt)
            if r not in _ACTION_STATE:
                raise ValueError("action %s: tick returned %r (expected goap.RUNNING, SUCCESS "
                                 "or FAILURE)" % (self._names[action], r))
            return _ACTION_STATE[r]
        except BaseException as e:
            self._errors.append(e)
            return 2  # GOAP_ACTION_FAILURE

    def _on_start(self, agent, action, user):
        try:
            self._call(action, "start")
        except BaseException as e:
            self._errors.append(e)

    def _on_stop(self, agent, action, user):
        try:
            self._call(action, "stop")
        except BaseException as e:
            self._errors.append(e)

    def _on_event(self, agent, ev, user):
        if self._on_event_py is None:
            return
        try:
            self._on_event_py(self, Event(self.domain, ev.contents))
        except BaseException as e:
            self._errors.append(e)

    # -- API ---------------------------------------------------------------------------
    def update(self, dt):
        """Advances the agent by dt seconds. Returns the status name ("ok", "in_progress",
        "no_plan"); raises the first exception a callback raised during the update."""
        p = self._check()
        if self._updating:
            raise GoapError(INVALID_OPERATION, "goap.Agent.update called from a callback")
        self._updating = True
        try:
            st = _lib.goap_agent_update(p, float(dt))
        finally:
            self._updating = False
        if self._errors:
            e, self._errors = self._errors[0], []
            raise e
        if st in (INVALID_ARGUMENT, INVALID_OPERATION) or STATUS_NAMES[st] == "out_of_memory":
            raise _status_error(st, "update")
        return STATUS_NAMES[st]

    def _var(self, var):
        return var if isinstance(var, int) else self.domain.find_var(var)

    def get(self, var):
        """A memory variable's value (by name or id)."""
        return _lib.goap_agent_get(self._check(), self._var(var))

    def get_name(self, var):
        """A memory variable's value as written in a file: "true"/"false", the enum value's
        name, or the number."""
        v = self._var(var)
        return self.domain.value_name(v, _lib.goap_agent_get(self._check(), v))

    def set(self, var, value):
        """Writes memory (an external change: watched variables interrupt)."""
        st = _lib.goap_agent_set(self._check(), self._var(var), int(value))
        if st != OK:
            raise _status_error(st, "set %s" % var)

    __getitem__ = get
    __setitem__ = set

    @property
    def goal(self):
        g = _lib.goap_agent_goal(self._check())
        return self.domain.goals[g] if g >= 0 else None

    @property
    def action(self):
        a = _lib.goap_agent_action(self._check())
        return self._names[a] if a >= 0 else None

    @property
    def plan(self):
        """(action names, index of the current step)."""
        n, step = ctypes.c_int(0), ctypes.c_int(0)
        p = _lib.goap_agent_plan(self._check(), ctypes.byref(n), ctypes.byref(step))
        return ([self._names[p[i]] for i in range(n.value)] if p else []), step.value

    @property
    def time(self):
        return _lib.goap_agent_time(self._check())

    @property
    def stats(self):
        return _stats_dict(_lib.goap_agent_get_stats(self._check()))

    # -- save games (goap/save.h) -----------------------------------------------------
    def snapshot(self):
        """The agent's whole runtime state as bytes (goap_agent_snapshot): a save game. Restore
        it with restore() into a new Agent made the same way (same file, name and actions)."""
        return _snapshot(_lib.goap_agent_snapshot, self._check())

    def restore(self, data):
        """Restores a snapshot into this agent, which must never have been updated. GoapError
        with status "truncated", "version_mismatch", "corrupt", "domain_mismatch" or
        "invalid_operation", libgoap's message and the offset in data where the problem was
        found when it is refused."""
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError("expected bytes, got %s" % type(data).__name__)
        err = _ffi.Error()
        st = _lib.goap_agent_restore(self._check(), bytes(data), len(data), ctypes.byref(err))
        if st != OK:
            raise _error(err)

    def snapshot_json(self):
        """The agent's state as a dict (goap_agent_snapshot_json: the fields of
        `goap simulate --json`), for debugging."""
        p = self._check()
        n = ctypes.c_size_t(0)
        _lib.goap_agent_snapshot_json(p, None, 0, ctypes.byref(n))
        buf = ctypes.create_string_buffer(n.value + 1)
        st = _lib.goap_agent_snapshot_json(p, buf, n.value + 1, ctypes.byref(n))
        if st != OK:
            raise _status_error(st, "snapshot_json")
        import json
        return json.loads(buf.value.decode("utf-8"))

    @property
    def fingerprint(self):
        """The agent type's fingerprint (goap_agent_type_fingerprint), saved in snapshots."""
        self._check()
        return _lib.goap_agent_type_fingerprint(self._type)

    def replan(self):
        _lib.goap_agent_replan(self._check())

    # -- inspection (goap/inspect.h): what the agent is thinking, as dicts of names --------
    def _cond_text(self, c):
        buf = ctypes.create_string_buffer(256)
        _lib.goap_format_cond(self.domain._ptr, ctypes.byref(c), buf, 256)
        return _dec(buf.value)

    def _goal_name(self, g):
        return self.domain.goals[g] if g >= 0 else None

    def inspect_goals(self):
        """The goals, best first: dicts with goal, state ("current", "candidate", "achieved",
        "invalid", "cooldown", "no_priority"), priority, ordered, failed_cond (the validity
        condition that is false, as text, or None), failed_at, fail_status, retry_at."""
        p = self._check()
        n = _lib.goap_agent_inspect_goals(p, None, 0)
        arr = (_ffi.GoalInfo * max(n, 1))()
        n = _lib.goap_agent_inspect_goals(p, arr, n)
        return [{"goal": self._goal_name(g.goal), "state": _dec(_lib.goap_goal_state_name(g.state)),
                 "priority": g.priority, "ordered": bool(g.ordered),
                 "failed_cond": self._cond_text(g.failed_cond) if g.failed_cond.var >= 0 else None,
                 "failed_at": g.failed_at if g.failed_at >= 0 else None,
                 "fail_status": STATUS_NAMES[g.fail_status] if g.failed_at >= 0 else None,
                 "retry_at": g.retry_at if g.state == 4 else None} for g in arr[:n]]

    def inspect_plan(self):
        """The current plan: a dict with goal, priority, cost, step, running, action_time,
        planning and steps (dicts with action, cost, state "done"/"running"/"pending",
        relies: the conditions it needs from memory as text, relies_hold)."""
        p = self._check()
        info = _ffi.PlanInfo()
        st = _lib.goap_agent_inspect_plan(p, ctypes.byref(info), None, 0, None, 0)
        steps = (_ffi.PlanStepInfo * max(info.length, 1))()
        conds = (_ffi.Cond * max(info.cond_count, 1))()
        if st != OK:
            st = _lib.goap_agent_inspect_plan(p, ctypes.byref(info), steps, info.length, conds,
                                              info.cond_count)
        if st != OK:
            raise _status_error(st, "inspect_plan")
        names = ("done", "running", "pending")
        return {"goal": self._goal_name(info.goal), "priority": info.priority,
                "cost": info.cost, "step": info.step, "running": bool(info.running),
                "action_time": info.action_time, "planning": bool(info.planning),
                "steps": [{"action": self._names[s.action], "cost": s.cost,
                           "state": names[s.state],
                           "relies": [self._cond_text(conds[s.relies_first + k])
                                      for k in range(s.relies_count)],
                           "relies_hold": bool(s.relies_hold)} for s in steps[:info.length]]}

    def inspect_replans(self):
        """The last replans, oldest first: dicts with time, reason, status, goal, goals_tried,
        cached, plan_length, cost, expanded, generated, search_us."""
        p = self._check()
        n = _lib.goap_agent_inspect_replans(p, None, 0)
        arr = (_ffi.ReplanInfo * max(n, 1))()
        n = _lib.goap_agent_inspect_replans(p, arr, n)
        return [{"time": r.time, "reason": _dec(_lib.goap_replan_reason_name(r.reason)),
                 "status": STATUS_NAMES[r.status], "goal": self._goal_name(r.goal),
                 "goals_tried": r.goals_tried, "cached": bool(r.cached),
                 "plan_length": r.plan_length, "cost": r.cost, "expanded": r.expanded,
                 "generated": r.generated, "search_us": r.search_us} for r in arr[:n]]

    def inspect_failures(self):
        """The failure memory: facts learnt from failed actions (dicts with action, var,
        value, timeout, learnt, expires = inf) and goals in their cooldown (goal, status,
        learnt, expires)."""
        p = self._check()
        n = _lib.goap_agent_inspect_failures(p, None, 0)
        arr = (_ffi.FailureInfo * max(n, 1))()
        n = _lib.goap_agent_inspect_failures(p, arr, n)
        out = []
        for x in arr[:n]:
            if x.goal >= 0:
                out.append({"goal": self._goal_name(x.goal), "status": STATUS_NAMES[x.status],
                            "learnt": x.learnt, "expires": x.expires})
            else:
                out.append({"action": self._names[x.action], "var": self.domain.var_name(x.var),
                            "value": x.value, "timeout": bool(x.timeout), "learnt": x.learnt,
                            "expires": x.expires})
        return out
    # -- end of inspection -------------------------------------------------------------

    def reset(self):
        _lib.goap_agent_reset(self._check())

    def close(self):
        """Destroys the agent (the running action's stop callback is called). Not allowed
        from inside one of its callbacks. Safe to call twice."""
        if getattr(self, "_updating", False):
            raise GoapError(INVALID_OPERATION, "goap.Agent closed from its own callback")
        if getattr(self, "_ptr", None) is not None:
            for sq in list(getattr(self, "_squads", ())):
                sq.remove(self)
            _lib.goap_agent_destroy(self._ptr)
            self._ptr = None
        if getattr(self, "_type", None) is not None:
            _lib.goap_agent_type_destroy(self._type)
            self._type = None


class Blackboard(_Closable):
    """A blackboard (goap_blackboard): named slots that agents share (a file's `shared`
    variables) and reservable resources. Give it to the agents that share it:
    Agent(file, ..., blackboard=bb). Close it after them (close() refuses while an attached
    agent is open)."""
    _closed_what = "goap.Blackboard"

    def __init__(self):
        self._ptr = None
        self._agents = weakref.WeakSet()
        out = ctypes.c_void_p()
        st = _lib.goap_blackboard_create(None, ctypes.byref(out))
        if st != OK:
            raise _status_error(st, "blackboard")
        self._ptr = out.value

    def set(self, name, value):
        """Writes a slot (created on first use); attached agents see it on their next update."""
        st = _lib.goap_blackboard_set(self._check(), _enc(name), int(value))
        if st != OK:
            raise _status_error(st, "set %s" % name)

    def get(self, name):
        """A slot's value; KeyError when nothing created it."""
        v = ctypes.c_int32(0)
        st = _lib.goap_blackboard_get(self._check(), _enc(name), ctypes.byref(v))
        if STATUS_NAMES[st] == "not_found":
            raise KeyError(name)
        if st != OK:
            raise _status_error(st, "get %s" % name)
        return v.value

    __getitem__ = get
    __setitem__ = set

    @property
    def version(self):
        """Counts the writes that changed a slot (goap_blackboard_version)."""
        return _lib.goap_blackboard_version(self._check())

    def add_resource(self, name, capacity):
        st = _lib.goap_blackboard_add_resource(self._check(), _enc(name), int(capacity))
        if st != OK:
            raise _status_error(st, "add_resource %s" % name)

    def resource(self, name):
        """(units held, capacity) of a resource; KeyError when there is none of that name."""
        held, cap = ctypes.c_int(0), ctypes.c_int(0)
        st = _lib.goap_blackboard_resource(self._check(), _enc(name), ctypes.byref(held),
                                           ctypes.byref(cap))
        if STATUS_NAMES[st] == "not_found":
            raise KeyError(name)
        if st != OK:
            raise _status_error(st, "resource %s" % name)
        return held.value, cap.value

    def snapshot(self):
        """Every slot, resource and the version as bytes (goap_blackboard_snapshot)."""
        return _snapshot(_lib.goap_blackboard_snapshot, self._check())

    def restore(self, data):
        """Replaces everything with a snapshot; no agent may be attached yet (restore the
        blackboard first, then create its agents with blackboard=this and restore them).
        GoapError ("truncated", "version_mismatch", "corrupt", "invalid_operation") with
        libgoap's message when refused; the blackboard is then left as it was."""
        data = _snapshot_data(data)
        err = _ffi.Error()
        st = _lib.goap_blackboard_restore(self._check(), data, len(data), ctypes.byref(err))
        if st != OK:
            raise _error(err)

    def close(self):
        """Frees the blackboard. GoapError (invalid_operation) while an attached agent is
        still open. Safe to call twice."""
        if getattr(self, "_ptr", None) is None:
            return
        if any(not a.closed for a in self._agents):
            raise GoapError(INVALID_OPERATION, "goap.Blackboard closed before its agents")
        _lib.goap_blackboard_destroy(self._ptr)
        self._ptr = None


SQUAD_BEHAVIORS = ["none", "get_to_cover", "advance_cover", "orderly_advance", "search"]


class Squad(_Closable):
    """A squad coordinator (goap_squad) with the default goal names (take_cover, suppress,
    advance, search): it orders its member agents. Closing an agent removes it from its
    squads."""
    _closed_what = "goap.Squad"

    def __init__(self):
        self._ptr = None
        self._members = []
        out = ctypes.c_void_p()
        st = _lib.goap_squad_create(None, ctypes.byref(out))
        if st != OK:
            raise _status_error(st, "squad")
        self._ptr = out.value

    @property
    def members(self):
        return list(self._members)

    def add(self, agent):
        st = _lib.goap_squad_add(self._check(), agent._check())
        if st != OK:
            raise _status_error(st, "squad add")
        self._members.append(agent)
        agent._squads.add(self)

    def remove(self, agent):
        st = _lib.goap_squad_remove(self._check(), agent._check())
        if st != OK:
            raise _status_error(st, "squad remove")
        self._members.remove(agent)
        agent._squads.discard(self)

    def order(self, behavior):
        """Gives the squad a behaviour: one of SQUAD_BEHAVIORS."""
        b = _lib.goap_squad_behavior_from_name(_enc(behavior))
        if b < 0:
            raise ValueError("unknown squad behaviour %r (one of %s)" %
                             (behavior, ", ".join(SQUAD_BEHAVIORS)))
        st = _lib.goap_squad_order(self._check(), b)
        if st != OK:
            raise _status_error(st, "squad order")

    def update(self):
        """Lets the squad re-issue its members' orders (call once per frame after theirs)."""
        _lib.goap_squad_update(self._check())

    @property
    def behavior(self):
        return _dec(_lib.goap_squad_behavior_name(_lib.goap_squad_current(self._check())))

    def snapshot(self):
        """The squad's behaviour, phase and the orders it gave, as bytes (goap_squad_snapshot).
        The members are the caller's agents: snapshot them too."""
        return _snapshot(_lib.goap_squad_snapshot, self._check())

    def restore(self, data, members):
        """Restores into this squad, which has no members yet, with its members: the restored
        agents, in the order they had when saved (as many as then). GoapError ("truncated",
        "version_mismatch", "corrupt", "domain_mismatch", "invalid_operation") with libgoap's
        message when refused."""
        data = _snapshot_data(data)
        members = list(members)
        arr = (ctypes.c_void_p * max(len(members), 1))(*[m._check() for m in members])
        err = _ffi.Error()
        st = _lib.goap_squad_restore(self._check(), data, len(data), arr, len(members),
                                     ctypes.byref(err))
        if st != OK:
            raise _error(err)
        for m in members:
            self._members.append(m)
            m._squads.add(self)

    def close(self):
        """Frees the squad (the orders it gave are cleared). Safe to call twice."""
        if getattr(self, "_ptr", None) is None:
            return
        for m in self._members:
            m._squads.discard(self)
        self._members = []
        _lib.goap_squad_destroy(self._ptr)
        self._ptr = None
