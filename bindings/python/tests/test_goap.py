"""Tests of the Python binding (unittest, standard library only).

Environment: GOAP_LIBRARY (the goap_shared library), GOAP_LAYOUT (tests/bindings/layout
program), GOAP_CLI (the goap tool), GOAP_EXAMPLES (examples/), GOAP_TESTS (tests/).
Run by CTest (test python); by hand:  GOAP_LIBRARY=build/libgoap_shared.so ... python3 -m unittest
"""
import gc
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import goap  # noqa: E402

EXAMPLES = os.environ.get("GOAP_EXAMPLES", os.path.join(os.path.dirname(__file__), "../../../examples"))
TESTS = os.environ.get("GOAP_TESTS", os.path.join(os.path.dirname(__file__), "../../../tests"))
SOLDIER = os.path.join(EXAMPLES, "soldier.goap")
SQUAD = os.path.join(EXAMPLES, "squad.goap")


def door_held_agent(f, record, raise_in=None):
    """The soldier in a world where the door is held: open_door and kick_door fail."""
    def tick(agent, action, dt):
        record.append(action)
        if action == raise_in:
            raise RuntimeError("boom in " + action)
        if action in ("open_door", "kick_door"):
            return goap.FAILURE
        return goap.SUCCESS
    events = []
    a = goap.Agent(f, actions={n: tick for n in f.domain.actions},
                   on_event=lambda ag, ev: events.append(ev), name="soldier")
    return a, events


class Layout(unittest.TestCase):
    def test_struct_sizes_match_the_compiler(self):
        exe = os.environ.get("GOAP_LAYOUT")
        if not exe:
            self.skipTest("GOAP_LAYOUT not set")
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
        sizes = dict(line.split() for line in out.splitlines())
        self.assertEqual(set(sizes), set(goap._ffi.LAYOUTS))
        for name, cls in goap._ffi.LAYOUTS.items():
            self.assertEqual(int(sizes[name]), goap._ffi.ctypes.sizeof(cls), name)


class Files(unittest.TestCase):
    def test_load_and_domain(self):
        with goap.File.load(SOLDIER) as f:
            self.assertEqual(f.domain.name, "soldier")
            self.assertIn("door_stuck", f.domain.vars)
            self.assertEqual(f.domain.goals, ["kill_enemy"])
            self.assertEqual(f.domain.action_cost("kick_door"), 3.0)
            self.assertEqual(len(f.scenarios), 5)
        self.assertTrue(f.closed)

    def test_five_scenarios_meet_their_expectations(self):
        with goap.File.load(SOLDIER) as f:
            for name in f.scenarios:
                s = f.scenario(name)
                p = f.plan(scenario=name)
                self.assertTrue(p.ok, name)
                self.assertEqual(p.cost, s["expect_cost"], name)
                self.assertEqual(p.actions, s["expect_plan"], name)
            self.assertEqual(f.plan(scenario="armory_empty").actions, ["open_door", "punch"])

    def test_trace_of_the_door_stuck_search(self):
        with goap.File.load(SOLDIER) as f:
            p = f.plan(scenario="door_stuck", trace=True)
            untraced = f.plan(scenario="door_stuck")
            self.assertEqual(p.actions, untraced.actions)  # tracing does not change the plan
            kinds = [e.kind for e in p.trace]
            self.assertEqual(kinds.count("expand"), p.expanded)
            self.assertEqual(kinds[-1], "goal")
            nodes = {e.node: e for e in p.trace if e.kind == "new"}
            root = [e for e in nodes.values() if e.parent is None]
            self.assertEqual(len(root), 1)
            self.assertEqual(root[0].state["door_stuck"], 1)
            # the goal node's chain of parents spells the plan, and its state has the target dead
            goal = p.trace[-1]
            path, n = [], goal.node
            while nodes[n].parent is not None:
                path.append(nodes[n].action)
                n = nodes[n].parent
            self.assertEqual(list(reversed(path)), p.actions)
            self.assertEqual(goal.state["target_dead"], 1)
            self.assertAlmostEqual(goal.g, p.cost)

    def test_want_and_given_strings(self):
        with goap.File.load(SOLDIER) as f:
            p = f.plan(want="target_dead", given="door_stuck, kick_failed")
            self.assertEqual(p.actions, ["get_ammo", "load_magazine", "jump_window", "shoot"])
            self.assertEqual(p.cost, 8.0)
            self.assertEqual(f.plan(goal="kill_enemy").cost, 4.0)
            self.assertEqual(f.plan(want="target_dead", search="backward").cost, 4.0)
            p = f.plan(want="target_dead", search="greedy", heuristic="hff", preferred=True,
                       lazy=True)
            self.assertEqual(p.status, "ok")
            self.assertEqual(p.actions[-1], "shoot")
            with self.assertRaises(goap.GoapError) as cm:  # A*: refused
                f.plan(want="target_dead", preferred=True)
            self.assertEqual(cm.exception.status, "invalid_argument")
            p = f.plan(want="target_dead, !in_b", given="in_b")
            self.assertEqual(p.status, "no_plan")
            self.assertEqual(p.actions, [])

    def test_file_error_is_the_cli_text(self):
        path = os.path.join(TESTS, "cli", "broken.goap")
        with self.assertRaises(goap.GoapError) as cm:
            goap.File.load(path)
        e = cm.exception
        self.assertEqual((e.file, e.line, e.col, e.offset, e.status), (path, 6, 7, 0, "not_found"))
        self.assertTrue(e.message.startswith("unknown variable 'has_amo'"), e.message)
        self.assertNotIn("\n", e.message)
        cli = os.environ.get("GOAP_CLI")
        if cli:
            r = subprocess.run([cli, "plan", path, "--goal", "g"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2)
            self.assertIn(str(e), r.stderr)
            self.assertTrue(str(e).startswith(path + ":6:7: error: "))

    def test_want_error_is_the_cli_text(self):
        with goap.File.load(SOLDIER) as f:
            with self.assertRaises(goap.GoapError) as cm:
                f.plan(want="target_dead, ammo >= 2")
            e = cm.exception
            self.assertEqual((e.file, e.line, e.col), ("--want", 1, 14))
            cli = os.environ.get("GOAP_CLI")
            if cli:
                r = subprocess.run([cli, "plan", SOLDIER, "--want", "target_dead, ammo >= 2"],
                                   capture_output=True, text=True)
                self.assertIn(str(e), r.stderr)

    def test_parse_text_and_io_error(self):
        with self.assertRaises(goap.GoapError) as cm:
            goap.File.parse("domain d\nvar a: bol\n", "mem.goap")
        self.assertEqual((cm.exception.file, cm.exception.line), ("mem.goap", 2))
        with goap.File.parse("domain d\nvar a: bool\naction x\n  eff a\n", "mem.goap") as f:
            self.assertEqual(f.plan(want="a").actions, ["x"])
        with self.assertRaises(goap.GoapError) as cm:
            goap.File.load("/nonexistent/x.goap")
        self.assertEqual((cm.exception.status, cm.exception.file), ("io_error", "/nonexistent/x.goap"))

    def test_status_errors_have_the_same_shape(self):
        with goap.File.load(SOLDIER) as f:
            a = goap.Agent(f)
            with self.assertRaises(goap.GoapError) as cm:
                a["in_b"] = 7
            e = cm.exception
            self.assertEqual((e.status, e.file, e.line, e.col, e.offset),
                             ("out_of_range", "", 0, 0, 0))
            self.assertEqual(e.message, str(e))
            a.close()

    def test_use_after_close_raises(self):
        f = goap.File.load(SOLDIER)
        f.close()
        f.close()  # twice is fine
        for call in (lambda: f.plan(scenario="default"), lambda: f.domain.vars,
                     lambda: f.simulate("door_held"), lambda: f.scenarios):
            with self.assertRaises(goap.GoapError):
                call()

    def test_bad_names_raise(self):
        with goap.File.load(SOLDIER) as f:
            for kw in ({"scenario": "nope"}, {"goal": "nope"}, {"want": "a b c"},
                       {"want": "target_dead", "heuristic": "nope"}):
                with self.assertRaises(goap.GoapError):
                    f.plan(**kw)
            with self.assertRaises(goap.GoapError):
                f.simulate("nope")
            with self.assertRaises(ValueError):
                f.plan(want="target_dead\0x")


class Simulations(unittest.TestCase):
    def test_door_held(self):
        with goap.File.load(SOLDIER) as f:
            self.assertIn("door_held", f.simulations)
            s = f.simulate("door_held")
            self.assertEqual(s.failed, 0, s.message)
            self.assertEqual(s.replans, 2)
            fails = [e.action for e in s.events if e.kind == "action_failure"]
            self.assertEqual(fails, ["open_door", "kick_door"])
            plans = [e.plan for e in s.events if e.kind == "plan"]
            self.assertEqual(plans[-1], ["jump_window", "shoot"])
            learnt = [(e.var, e.value) for e in s.events if e.kind == "memory"]
            self.assertIn(("door_stuck", 1), learnt)
            self.assertIn(("kick_failed", 1), learnt)
            self.assertEqual(s.world, [(0.0, "door_held", 0, 1)])
            self.assertEqual(s.world_names, [(0.0, "door_held", "false", "true")])
            self.assertEqual(s.stats["actions_failed"], 2)
            self.assertEqual((s.line, s.col), (0, 0))

    def test_values_by_name_and_failure_position(self):
        text = ("var mood: enum {calm, angry} sensed\nvar done: bool\n"
                "action calm_down\n  pre mood == angry\n  eff mood = calm, done\n"
                "goal g\n  want done\n"
                "simulation s\n  at 1 mood = angry\n  until 3\n"
                "  expect final !done, mood == angry\n")
        with goap.File.parse(text, "m.goap") as f:
            self.assertTrue(f.domain.is_sensed("mood"))
            self.assertFalse(f.domain.is_sensed("done"))
            s = f.simulate("s")
            mem = [(e.var, e.old_value_name, e.value_name) for e in s.events if e.kind == "memory"]
            self.assertIn(("mood", "angry", "calm"), mem)  # calm_down, after sensing angry
            self.assertIn("mood=calm", repr([e for e in s.events if e.kind == "memory"]))
            self.assertEqual(s.failed, 1)
            self.assertEqual(s.message, "expected final memory '!done', but the value is true")
            self.assertEqual((s.line, s.col), (11, 16))


class Agents(unittest.TestCase):
    def run_agent(self, a, frames=50):
        for _ in range(frames):
            if a.get("target_dead"):
                break
            a.update(0.1)

    def test_door_held_agent(self):
        with goap.File.load(SOLDIER) as f:
            ticks = []
            a, events = door_held_agent(f, ticks)
            self.run_agent(a)
            self.assertEqual(a["target_dead"], 1)
            self.assertEqual((a["door_stuck"], a["kick_failed"]), (1, 1))  # on_fail memory
            self.assertIn("jump_window", ticks)
            plans = [e.plan for e in events if e.kind == "plan"]
            self.assertEqual(plans, [["get_ammo", "load_magazine", "open_door", "shoot"],
                                     ["kick_door", "shoot"], ["jump_window", "shoot"]])
            self.assertEqual(a.stats["replans"].get("action_failed"), 2)
            a.close()

    def test_exception_in_callback_fails_the_action_and_is_raised(self):
        with goap.File.load(SOLDIER) as f:
            ticks = []
            a, events = door_held_agent(f, ticks, raise_in="get_ammo")
            with self.assertRaises(RuntimeError) as cm:
                for _ in range(5):
                    a.update(0.1)
            self.assertIn("boom in get_ammo", str(cm.exception))
            failed = [e.action for e in events if e.kind == "action_failure"]
            self.assertEqual(failed, ["get_ammo"])
            self.assertEqual(a["armory_empty"], 1)  # get_ammo's on_fail was written
            self.run_agent(a)                      # the agent goes on: door held, no ammo
            self.assertEqual(a["target_dead"], 1)
            self.assertEqual(ticks[-1], "punch")

    def test_bad_return_value_is_an_error(self):
        with goap.File.load(SOLDIER) as f:
            a = goap.Agent(f, actions={"get_ammo": lambda ag, n, dt: "maybe"})
            with self.assertRaises(ValueError):
                for _ in range(3):
                    a.update(0.1)
            self.assertEqual(a["armory_empty"], 1)

    def test_misuse_from_callbacks_and_after_close(self):
        with goap.File.load(SOLDIER) as f:
            holder = {}

            def tick(agent, name, dt):
                agent.close()  # not allowed during update
                return goap.SUCCESS
            a = goap.Agent(f, actions={"get_ammo": tick})
            holder["a"] = a
            with self.assertRaises(goap.GoapError):
                a.update(0.1)
            self.assertFalse(a.closed)

            def reenter(agent, name, dt):
                agent.update(0.1)
                return goap.SUCCESS
            b = goap.Agent(f, actions={"get_ammo": reenter})
            with self.assertRaises(goap.GoapError):
                b.update(0.1)
            b.close()
            with self.assertRaises(goap.GoapError):
                b.update(0.1)
            with self.assertRaises(goap.GoapError):
                b.get("in_b")
            with self.assertRaises(goap.GoapError):
                a.set("nope", 1)
            with self.assertRaises(goap.GoapError):
                a.set("in_b", 7)  # out of range
        # closing the file closed the agents made on it
        self.assertTrue(a.closed)
        with self.assertRaises(goap.GoapError):
            a.update(0.1)

    def test_callbacks_survive_garbage_collection(self):
        f = goap.File.load(SOLDIER)
        seen = []
        a = goap.Agent(f, actions={"get_ammo": lambda ag, n, dt: seen.append(n) or goap.SUCCESS},
                       memory="door_stuck")
        gc.collect()
        self.run_agent(a)
        self.assertEqual(seen, ["get_ammo"])
        self.assertEqual(a["target_dead"], 1)
        self.assertEqual(a.plan[0][-1], "shoot")
        del a
        gc.collect()
        f.close()


# ---- inspection (goap/inspect.h) --------------------------------------------------------------
class Inspection(unittest.TestCase):
    def test_door_held_failure_memory_and_replans(self):
        with goap.File.load(SOLDIER) as f:
            a, events = door_held_agent(f, [])
            self.assertEqual(a.inspect_replans()[0]["status"], "in_progress")
            while not any(e.kind == "action_failure" for e in events):
                a.update(0.1)
            t = [e.time for e in events if e.kind == "action_failure"][0]
            self.assertEqual(a.inspect_failures(), [
                {"action": "open_door", "var": "door_stuck", "value": 1, "timeout": False,
                 "learnt": t, "expires": float("inf")}])
            r = a.inspect_replans()
            self.assertEqual([(x["reason"], x["status"]) for x in r],
                             [("start", "ok"), ("action_failed", "in_progress")])
            self.assertEqual((r[0]["goal"], r[0]["plan_length"], r[0]["cost"], r[0]["goals_tried"]),
                             ("kill_enemy", 4, 4.0, 1))
            self.assertEqual(r[0]["expanded"], a.stats["expanded"])
            self.assertEqual(a.inspect_plan()["steps"], [])
            self.assertEqual(a.inspect_plan()["goal"], None)
            g = a.inspect_goals()
            self.assertEqual([(x["goal"], x["state"], x["priority"]) for x in g],
                             [("kill_enemy", "candidate", 10.0)])
            a.update(0.1)  # kick_door, shoot: the kick fails at once
            r = a.inspect_replans()
            self.assertEqual([(x["reason"], x["status"], x["plan_length"]) for x in r],
                             [("start", "ok", 4), ("action_failed", "ok", 2),
                              ("action_failed", "in_progress", 0)])
            self.assertEqual([(x["action"], x["var"]) for x in a.inspect_failures()],
                             [("open_door", "door_stuck"), ("kick_door", "kick_failed")])
            a.close()

    def test_plan_steps_and_what_they_rely_on(self):
        with goap.File.load(SOLDIER) as f:
            a = goap.Agent(f, actions={n: (lambda ag, act, dt: goap.RUNNING)
                                       for n in f.domain.actions})
            a.update(0.1)
            p = a.inspect_plan()
            self.assertEqual((p["goal"], p["cost"], p["step"], p["running"], p["planning"]),
                             ("kill_enemy", 4.0, 0, True, False))
            self.assertEqual([(s["action"], s["state"], s["cost"], s["relies"]) for s in p["steps"]],
                             [("get_ammo", "running", 1.0, ["!armory_empty"]),
                              ("load_magazine", "pending", 1.0, []),
                              ("open_door", "pending", 1.0, ["!door_stuck"]),
                              ("shoot", "pending", 1.0, [])])
            a.set("door_stuck", 1)  # the host learns it: the plan's third step no longer holds
            self.assertEqual([s["relies_hold"] for s in a.inspect_plan()["steps"]],
                             [True, True, False, True])
            self.assertEqual(a.inspect_goals()[0]["state"], "current")
            a.close()
            with self.assertRaises(goap.GoapError):
                a.inspect_goals()
# ---- end of inspection ------------------------------------------------------------------------


class SaveGames(unittest.TestCase):
    """Agent.snapshot / restore / snapshot_json (goap/save.h)."""

    def test_saved_agent_goes_on_as_if_never_stopped(self):
        with goap.File.load(SOLDIER) as f:
            ref_ticks, ticks = [], []
            ref, ref_events = door_held_agent(f, ref_ticks)
            for _ in range(30):
                ref.update(0.1)
            a, events = door_held_agent(f, ticks)
            for _ in range(3):
                a.update(0.1)
            data = a.snapshot()
            self.assertIsInstance(data, bytes)
            self.assertEqual(data[:4], b"GOAP")
            self.assertEqual(int.from_bytes(data[16:24], "little"), a.fingerprint)
            b, b_events = door_held_agent(f, ticks)
            b.restore(data)
            self.assertEqual(b.plan, a.plan)
            self.assertEqual(b.snapshot(), data)
            a.close()
            for _ in range(27):
                b.update(0.1)
            self.assertEqual(b["target_dead"], 1)
            self.assertEqual([(e.kind, e.time) for e in events + b_events],
                             [(e.kind, e.time) for e in ref_events])
            self.assertEqual(b.stats, ref.stats)

    def test_refused_snapshots_say_why(self):
        with goap.File.load(SOLDIER) as f:
            a, _ = door_held_agent(f, [])
            a.update(0.1)
            data = a.snapshot()
            b, _ = door_held_agent(f, [])
            with self.assertRaises(goap.GoapError) as cm:
                b.restore(data[:-1])
            e = cm.exception
            self.assertEqual((e.status, e.message, e.offset),
                             ("truncated", "snapshot truncated: fewer bytes than its header says",
                              len(data) - 1))  # where the data ends
            self.assertEqual((e.file, e.line, e.col), ("", 0, 0))
            self.assertEqual(str(e), "error: snapshot truncated: fewer bytes than its header says"
                                     " (at byte %d)" % (len(data) - 1))
            bad = bytearray(data)
            bad[30] ^= 4
            with self.assertRaises(goap.GoapError) as cm:
                b.restore(bytes(bad))
            e = cm.exception
            # the header's checksum field (bytes 12..15) does not match the payload
            self.assertEqual((e.status, e.message, e.offset),
                             ("corrupt", "snapshot corrupted: checksum mismatch", 12))
            self.assertEqual(str(e), "error: snapshot corrupted: checksum mismatch (at byte 12)")
            other = goap.Agent(f, name="another_type")
            with self.assertRaises(goap.GoapError) as cm:
                other.restore(data)
            # the header's fingerprint (bytes 16..23) is another type's
            self.assertEqual((cm.exception.status, cm.exception.offset), ("domain_mismatch", 16))
            with self.assertRaises(goap.GoapError) as cm:
                a.restore(data)  # updated already
            self.assertEqual(cm.exception.status, "invalid_operation")
            b.restore(data)      # the refusals changed nothing
            self.assertEqual(b.time, a.time)

    def test_snapshot_json(self):
        with goap.File.load(SOLDIER) as f:
            a, _ = door_held_agent(f, [])
            for _ in range(2):
                a.update(0.1)
            j = a.snapshot_json()
            self.assertEqual(j["type"], "soldier")
            self.assertEqual(j["goal"], "kill_enemy")
            self.assertEqual(j["plan"], a.plan[0])
            self.assertEqual(j["memory"]["target_dead"], False)


class SquadSaveGames(unittest.TestCase):
    """Blackboard and Squad, their snapshot / restore (goap/save.h)."""

    @staticmethod
    def squad_world(f, bb):
        """Three members of examples/squad.goap on blackboard bb; an action succeeds on every
        third tenth of a second of the agent's clock (the host keeps no state of its own)."""
        def tick(ag, act, dt):
            return goap.SUCCESS if round(ag.time * 10) % 3 == 0 else goap.RUNNING
        events = []
        members = []
        for i in range(3):
            def on_event(ag, ev, i=i):
                events.append((i, ev.kind, round(ev.time, 6), ev.goal, ev.action))
            members.append(goap.Agent(f, actions={n: tick for n in f.domain.actions},
                                      on_event=on_event, name="member", blackboard=bb))
        return members, events

    @staticmethod
    def frame(members, squad, bb, k):
        """Frame k: the host's script (a member goes down, is rescued; the squad regroups),
        the members' updates, the squad's."""
        if k == 6:
            bb["man_down"] = 1
        if k == 12:
            squad.order("get_to_cover")
            members[2]["in_cover"] = 0
        for m in members:
            m.update(0.1)
        squad.update()

    def test_blackboard_snapshot_restore(self):
        bb = goap.Blackboard()
        bb["suppressive_fire_tokens"] = 3
        bb["player_down"] = 1
        bb.add_resource("flank_slot", 2)
        data = bb.snapshot()
        self.assertEqual(data[:5], b"GOAPB")
        b2 = goap.Blackboard()
        b2["stale"] = 7
        b2.restore(data)
        self.assertEqual((b2["suppressive_fire_tokens"], b2["player_down"]), (3, 1))
        with self.assertRaises(KeyError):
            b2["stale"]          # replaced by the snapshot's slots
        self.assertEqual(b2.resource("flank_slot"), (0, 2))
        self.assertEqual(b2.version, bb.version)
        self.assertEqual(b2.snapshot(), data)
        b3 = goap.Blackboard()
        with self.assertRaises(goap.GoapError) as cm:
            b3.restore(data[:-1])
        self.assertEqual((cm.exception.status, cm.exception.offset), ("truncated", len(data) - 1))
        self.assertIn("fewer bytes than its header says", str(cm.exception))
        bad = bytearray(data)
        bad[-1] ^= 1
        with self.assertRaises(goap.GoapError) as cm:
            b3.restore(bytes(bad))
        self.assertEqual((cm.exception.status, cm.exception.offset), ("corrupt", 12))
        with self.assertRaises(TypeError):
            b3.restore("not bytes")
        with goap.File.load(SQUAD) as f:
            a = goap.Agent(f, name="member", blackboard=b3)
            with self.assertRaises(goap.GoapError) as cm:
                b3.restore(data)     # an agent is attached already
            self.assertEqual(cm.exception.status, "invalid_operation")
            with self.assertRaises(goap.GoapError):
                b3.close()           # before its agent
            a.close()
        b3.close()
        self.assertTrue(b3.closed)

    def test_squad_saved_mid_fight_goes_on_as_if_never_stopped(self):
        with goap.File.load(SQUAD) as f:
            bb = goap.Blackboard()
            bb.add_resource("flank_slot", 1)
            members, events = self.squad_world(f, bb)
            squad = goap.Squad()
            for m in members:
                squad.add(m)
            squad.order("get_to_cover")
            for k in range(4):
                self.frame(members, squad, bb, k)
            self.assertIsNotNone(members[0].action)  # saved with an action running
            saved_events = list(events)
            bb_data, squad_data = bb.snapshot(), squad.snapshot()
            agent_data = [m.snapshot() for m in members]
            self.assertEqual(squad_data[:5], b"GOAPS")
            # a new runtime: the blackboard first, then its agents, then the squad
            bb2 = goap.Blackboard()
            bb2.restore(bb_data)
            members2, events2 = self.squad_world(f, bb2)
            for m, d in zip(members2, agent_data):
                m.restore(d)
            squad2 = goap.Squad()
            with self.assertRaises(goap.GoapError) as cm:
                squad2.restore(squad_data, members2[:2])   # as many members as saved
            self.assertEqual(cm.exception.status, "invalid_operation")
            squad2.restore(squad_data, members2)
            self.assertEqual(squad2.behavior, "get_to_cover")
            self.assertEqual(squad2.members, members2)
            self.assertEqual(squad2.snapshot(), squad_data)
            self.assertEqual(bb2.snapshot(), bb_data)
            self.assertEqual([m.snapshot() for m in members2], agent_data)
            for k in range(4, 30):
                self.frame(members, squad, bb, k)
            for k in range(4, 30):
                self.frame(members2, squad2, bb2, k)
            self.assertEqual(events2, events[len(saved_events):])
            kinds = set(e[1] for e in events2)
            self.assertTrue({"action_start", "action_success", "plan", "goal_done"} <= kinds)
            self.assertIn("save_member", set(e[3] for e in events2))
            self.assertEqual(bb2.snapshot(), bb.snapshot())
            self.assertEqual(squad2.snapshot(), squad.snapshot())
            self.assertEqual([m.snapshot() for m in members2], [m.snapshot() for m in members])
            with self.assertRaises(ValueError):
                squad2.order("charge")
            members2[0].close()      # leaves its squad
            self.assertEqual(len(squad2.members), 2)
            squad.close()
            squad2.close()
            for m in members + members2:
                m.close()
            bb.close()
            bb2.close()


class Positions(unittest.TestCase):
    # examples/ammo_run.goap; plans and costs as `goap plan` prints them for the file and for
    # a copy whose near_box line reads `position loc near_box 300 400`.
    def test_moving_the_small_box_far_away_makes_the_crate_win(self):
        with goap.File.load(os.path.join(EXAMPLES, "ammo_run.goap")) as f:
            self.assertEqual(f.position("loc", "near_box"), (3.0, 4.0, 0.0))
            p = f.plan(goal="armed")
            self.assertEqual((p.actions, p.cost), (["go_near_box", "take_box"], 7.0))
            f.set_position("loc", "near_box", 300, 400)
            self.assertEqual(f.position("loc", "near_box"), (300.0, 400.0, 0.0))
            p = f.plan(goal="armed")
            self.assertEqual((p.actions, p.cost), (["go_far_crate", "take_crate"], 52.0))
            # the second walk is priced from the crate (450 m), not from the post (500 m)
            p = f.plan(goal="well_armed")
            self.assertEqual((p.actions, p.cost),
                             (["go_far_crate", "take_crate", "go_near_box", "take_box"], 504.0))
            # by id, back where it was: the box wins again
            loc = f.domain.find_var("loc")
            f.set_position(loc, 1, 3, 4, 0)
            self.assertEqual(f.position(loc, 1), (3.0, 4.0, 0.0))
            p = f.plan(goal="armed")
            self.assertEqual((p.actions, p.cost), (["go_near_box", "take_box"], 7.0))

    def test_position_errors(self):
        with goap.File.load(os.path.join(EXAMPLES, "ammo_run.goap")) as f:
            cases = [
                (lambda: f.position("place", "post"), "not_found", "unknown variable 'place'"),
                (lambda: f.set_position("loc", "river", 1, 2), "not_found",
                 "variable 'loc' has no value 'river'"),
                (lambda: f.position("ammo", 0), "not_found",
                 "position: ammo = 0 has no position (no `position` line)"),
                (lambda: f.set_position("box_taken", "true", 1, 2), "not_found",
                 "set_position: box_taken = true has no position (no `position` line)"),
                (lambda: f.set_position(99, 0, 1, 2), "invalid_argument",
                 "set_position: no variable with id 99"),
                (lambda: f.set_position("loc", 7, 1, 2), "out_of_range",
                 "set_position: variable 'loc' has no value 7"),
                (lambda: f.set_position("loc", "post", float("nan"), 0), "out_of_range",
                 "set_position: loc = post: a coordinate is not finite"),
            ]
            for call, status, text in cases:
                with self.assertRaises(goap.GoapError) as cm:
                    call()
                self.assertEqual((cm.exception.status, str(cm.exception)), (status, text))
            self.assertEqual(f.position("loc", "post"), (0.0, 0.0, 0.0))  # unchanged
        with self.assertRaises(goap.GoapError) as cm:
            f.position("loc", "post")
        self.assertEqual(cm.exception.status, "invalid_operation")


if __name__ == "__main__":
    unittest.main()
