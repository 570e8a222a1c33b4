// Tests of the C# binding, run by CTest (test `csharp`) under Mono: compiled with mcs
// together with ../Goap.cs by tests/run.sh. Environment: GOAP_EXAMPLES, GOAP_TESTS, GOAP_CLI,
// GOAP_LAYOUT; the native goap_shared is found through LD_LIBRARY_PATH.
// Prints "N passed, M failed"; the exit status is non-zero on any failure.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Runtime.InteropServices;
using Goap;

static partial class Tests
{
    static int passed, failed;
    static string Examples { get { return Environment.GetEnvironmentVariable("GOAP_EXAMPLES") ?? "examples"; } }
    static string TestsDir { get { return Environment.GetEnvironmentVariable("GOAP_TESTS") ?? "tests"; } }
    static string Soldier { get { return Path.Combine(Examples, "soldier.goap"); } }

    internal static void Run(string name, Action fn)
    {
        try { fn(); passed++; }
        catch (Exception e) { failed++; Console.Error.WriteLine("FAIL: " + name + ": " + e); }
    }

    internal static void Eq<T>(T actual, T expected, string what)
    {
        if (!EqualityComparer<T>.Default.Equals(actual, expected))
            throw new Exception(what + ": expected " + expected + ", got " + actual);
    }

    internal static void SeqEq(string[] actual, string[] expected, string what)
    {
        Eq(string.Join(" ", actual), string.Join(" ", expected), what);
    }

    internal static T Throws<T>(Action fn, string what) where T : Exception
    {
        try { fn(); }
        catch (T e) { return e; }
        throw new Exception(what + ": expected " + typeof(T).Name);
    }

    static string RunCli(params string[] args)
    {
        string cli = Environment.GetEnvironmentVariable("GOAP_CLI");
        if (cli == null) return null;
        var psi = new ProcessStartInfo(cli, string.Join(" ", args));
        psi.UseShellExecute = false;
        psi.RedirectStandardError = true;
        psi.RedirectStandardOutput = true;
        using (var p = Process.Start(psi))
        {
            string err = p.StandardError.ReadToEnd();
            p.StandardOutput.ReadToEnd();
            p.WaitForExit();
            return err;
        }
    }

    // The door_held world: open_door and kick_door fail.
    static Agent DoorHeld(GoapFile f, List<string> ticks, List<AgentEvent> events, string throwIn = null)
    {
        ActionTick tick = (agent, action, dt) =>
        {
            ticks.Add(action);
            if (action == throwIn) throw new InvalidOperationException("boom in " + action);
            return action == "open_door" || action == "kick_door" ? ActionState.Failure : ActionState.Success;
        };
        var acts = new Dictionary<string, ActionTick>();
        foreach (var a in f.Actions) acts[a] = tick;
        return new Agent(f, acts, (agent, ev) => events.Add(ev), "soldier");
    }

    static int Main()
    {
        RuntimeTests();
        Run("layouts: every field offset, every size, all blittable", () =>
        {
            string exe = Environment.GetEnvironmentVariable("GOAP_LAYOUT");
            if (exe == null) throw new Exception("GOAP_LAYOUT not set");
            CheckLayouts(RunLines(exe, "--fields"), IntPtr.Size);
        });

        Run("library name: every DllImport names Native.Api.Lib", () =>
        {
            Eq(LibName.Check("goap_shared") > 100, true, "DllImports");
        });

        Run("five scenarios", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            {
                Eq(f.DomainName, "soldier", "domain");
                Eq(f.Scenarios.Length, 5, "scenarios");
                foreach (var s in f.Scenarios)
                {
                    var p = f.PlanScenario(s);
                    Eq(p.Status, Status.Ok, s);
                    Eq(p.Cost, f.ScenarioExpectedCost(s), s + " cost");
                    SeqEq(p.Actions, f.ScenarioExpectedPlan(s), s + " plan");
                }
                SeqEq(f.PlanScenario("door_stuck").Actions, new[] {"get_ammo", "load_magazine", "kick_door", "shoot"}, "door_stuck");
                using (var planner = new Planner(f))
                {
                    var p = planner.Plan("target_dead", "door_stuck, kick_failed");
                    Eq(p.Cost, 8.0, "want/given cost");
                    Eq(planner.Plan("target_dead, !in_b", "in_b").Status, Status.NoPlan, "no plan");
                }
            }
        });

        Run("errors are the CLI's", () =>
        {
            string path = Path.Combine(TestsDir, "cli/broken.goap");
            var e = Throws<GoapException>(() => GoapFile.Load(path), "broken file");
            Eq(e.Status, Status.NotFound, "status");
            Eq(e.Line, 6, "line"); Eq(e.Column, 7, "col"); Eq(e.File, path, "file"); Eq(e.Offset, 0L, "offset");
            if (!e.Message.StartsWith(path + ":6:7: error: unknown variable 'has_amo'")) throw new Exception(e.Message);
            if (!e.ErrorMessage.StartsWith("unknown variable 'has_amo'") || e.ErrorMessage.Contains("\n"))
                throw new Exception("ErrorMessage: " + e.ErrorMessage);
            string cli = RunCli("plan", path, "--goal", "g");
            if (cli != null && !cli.Contains(e.Message)) throw new Exception("CLI differs: " + cli);
            using (var f = GoapFile.Load(Soldier))
            {
                var w = Throws<GoapException>(() => f.Plan("target_ded"), "bad want");
                if (!w.Message.StartsWith("--want:1:1: error: unknown variable 'target_ded'")) throw new Exception(w.Message);
                cli = RunCli("plan", Soldier, "--want", "target_ded");
                if (cli != null && !cli.Contains(w.Message)) throw new Exception("CLI differs: " + cli);
                Throws<GoapException>(() => f.PlanScenario("nope"), "unknown scenario");
            }
            var pe = Throws<GoapException>(() => GoapFile.Parse("domain d\nvar a: bol\n", "mem.goap"), "parse");
            Eq(pe.Line, 2, "parse line"); Eq(pe.File, "mem.goap", "parse file"); Eq(pe.Status, Status.ParseError, "parse status");
            var io = Throws<GoapException>(() => GoapFile.Load("/nonexistent/x.goap"), "io");
            Eq(io.Status, Status.IoError, "io"); Eq(io.File, "/nonexistent/x.goap", "io file");
        });

        // examples/ammo_run.goap; plans and costs as `goap plan` prints them for the file and for
        // a copy whose near_box line reads `position loc near_box 300 400`.
        Run("positions: moving the small box far away makes the crate win", () =>
        {
            using (var f = GoapFile.Load(Path.Combine(Examples, "ammo_run.goap")))
            using (var planner = new Planner(f))
            {
                double x, y, z;
                f.Position("loc", "near_box", out x, out y, out z);
                Eq(x + "," + y + "," + z, "3,4,0", "near_box");
                var p = planner.Plan("ammo >= 5");
                SeqEq(p.Actions, new[] {"go_near_box", "take_box"}, "armed"); Eq(p.Cost, 7.0, "armed cost");
                f.SetPosition("loc", "near_box", 300, 400);
                f.Position("loc", "near_box", out x, out y, out z);
                Eq(x + "," + y + "," + z, "300,400,0", "moved");
                p = planner.Plan("ammo >= 5");
                SeqEq(p.Actions, new[] {"go_far_crate", "take_crate"}, "armed, moved");
                Eq(p.Cost, 52.0, "armed, moved cost");
                // the second walk is priced from the crate (450 m), not from the post (500 m)
                p = planner.Plan("ammo >= 20");
                SeqEq(p.Actions, new[] {"go_far_crate", "take_crate", "go_near_box", "take_box"}, "well armed");
                Eq(p.Cost, 504.0, "well armed cost");
                // by id, back where it was: the box wins again
                int loc = f.FindVar("loc");
                f.SetPosition(loc, 1, 3, 4, 0);
                f.Position(loc, 1, out x, out y, out z);
                Eq(x + "," + y + "," + z, "3,4,0", "by id");
                p = f.Plan("ammo >= 5");
                SeqEq(p.Actions, new[] {"go_near_box", "take_box"}, "back"); Eq(p.Cost, 7.0, "back cost");
            }
        });

        Run("positions: errors", () =>
        {
            var f = GoapFile.Load(Path.Combine(Examples, "ammo_run.goap"));
            double x, y, z;
            Action<Action, Status, string> err = (fn, st, text) =>
            {
                var e = Throws<GoapException>(fn, text);
                Eq(e.Status, st, text + " status");
                Eq(e.Message, text, "message");
            };
            err(() => f.Position("place", "post", out x, out y, out z), Status.NotFound, "unknown variable 'place'");
            err(() => f.SetPosition("loc", "river", 1, 2), Status.NotFound, "variable 'loc' has no value 'river'");
            err(() => f.Position(f.FindVar("ammo"), 0, out x, out y, out z), Status.NotFound,
                "Position: ammo = 0 has no position (no `position` line)");
            err(() => f.SetPosition("box_taken", "true", 1, 2), Status.NotFound,
                "SetPosition: box_taken = true has no position (no `position` line)");
            err(() => f.SetPosition(99, 0, 1, 2), Status.InvalidArgument, "SetPosition: no variable 99");
            err(() => f.SetPosition(f.FindVar("loc"), 7, 1, 2), Status.OutOfRange,
                "SetPosition: variable 'loc' has no value 7");
            err(() => f.SetPosition("loc", "post", double.NaN, 0), Status.OutOfRange,
                "SetPosition: loc = post: a coordinate is not finite");
            f.Position("loc", "post", out x, out y, out z);
            Eq(x + y + z, 0.0, "post unchanged");
            f.Dispose();
            Throws<ObjectDisposedException>(() => f.Position(0, 0, out x, out y, out z), "disposed");
        });

        Run("simulation door_held", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            {
                var s = f.Simulate("door_held");
                Eq(s.Failed, 0, "failed expectations");
                Eq(s.Replans, 2, "replans");
                var fails = new List<string>();
                foreach (var e in s.Events) if (e.Kind == EventKind.ActionFailure) fails.Add(e.Action);
                SeqEq(fails.ToArray(), new[] {"open_door", "kick_door"}, "failures");
            }
        });

        Run("door agent with C# actions", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            {
                var ticks = new List<string>();
                var events = new List<AgentEvent>();
                using (var a = DoorHeld(f, ticks, events))
                {
                    GC.Collect();
                    GC.WaitForPendingFinalizers();
                    for (int i = 0; i < 50 && a.Get("target_dead") == 0; i++) a.Update(0.1);
                    Eq(a.Get("target_dead"), 1, "target_dead");
                    Eq(a.Get("door_stuck"), 1, "on_fail door_stuck");
                    Eq(a.Get("kick_failed"), 1, "on_fail kick_failed");
                    Eq(a.ReplansAfterFailures, 2UL, "replans after failures");
                    var plans = new List<string>();
                    foreach (var e in events) if (e.Kind == EventKind.Plan) plans.Add(string.Join(" ", e.Plan));
                    SeqEq(plans.ToArray(), new[] {"get_ammo load_magazine open_door shoot", "kick_door shoot", "jump_window shoot"}, "plans");
                    if (!ticks.Contains("jump_window")) throw new Exception("no jump_window");
                }
            }
        });

        Run("exceptions in callbacks", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            {
                var ticks = new List<string>();
                var events = new List<AgentEvent>();
                using (var a = DoorHeld(f, ticks, events, "get_ammo"))
                {
                    var e = Throws<GoapException>(() => { for (int i = 0; i < 5; i++) a.Update(0.1); }, "callback exception");
                    if (!(e.InnerException is InvalidOperationException)) throw new Exception("inner: " + e.InnerException);
                    Eq(a.Get("armory_empty"), 1, "get_ammo's on_fail");
                    for (int i = 0; i < 50 && a.Get("target_dead") == 0; i++) a.Update(0.1);
                    Eq(a.Get("target_dead"), 1, "goes on");
                    Eq(ticks[ticks.Count - 1], "punch", "last action");
                }
            }
        });

        Run("misuse", () =>
        {
            var f = GoapFile.Load(Soldier);
            Agent self = null;
            var acts = new Dictionary<string, ActionTick>();
            acts["get_ammo"] = (agent, action, dt) => { agent.Update(0.1); return ActionState.Success; };
            self = new Agent(f, acts);
            Throws<GoapException>(() => self.Update(0.1), "reentrant update");
            Throws<GoapException>(() => self.Set("in_b", 7), "out of range");
            Throws<GoapException>(() => self.Get("nope"), "unknown var");
            Throws<GoapException>(() => new Agent(f, new Dictionary<string, ActionTick> { { "nope", (a, n, d) => ActionState.Success } }), "unknown action");
            var planner = new Planner(f);
            f.Dispose();                                   // the agent and planner keep the domain
            Throws<ObjectDisposedException>(() => f.PlanScenario("default"), "file disposed");
            Eq(planner.Plan("target_dead").Cost, 4.0, "planner after file disposed");
            for (int i = 0; i < 20; i++) self.Update(0.1);
            self.Dispose();
            self.Dispose();                                // twice is fine
            planner.Dispose();
            Throws<ObjectDisposedException>(() => self.Update(0.1), "agent disposed");
            Throws<ObjectDisposedException>(() => planner.Plan("target_dead"), "planner disposed");
        });

        // ---- inspection (goap/inspect.h) ---------------------------------------------------
        Run("inspection: door_held failure memory and replans", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            {
                var ticks = new List<string>();
                var events = new List<AgentEvent>();
                using (var a = DoorHeld(f, ticks, events))
                {
                    double failedAt = -1;
                    for (int i = 0; i < 20 && failedAt < 0; i++)
                    {
                        a.Update(0.1);
                        foreach (var e in events) if (e.Kind == EventKind.ActionFailure) failedAt = e.Time;
                    }
                    var fi = a.InspectFailures();
                    Eq(fi.Length, 1, "facts");
                    Eq(fi[0].Action, "open_door", "fact action");
                    Eq(fi[0].Var, "door_stuck", "fact var");
                    Eq(fi[0].Value, 1, "fact value");
                    Eq(fi[0].Goal, null, "fact goal");
                    Eq(fi[0].Learnt, failedAt, "learnt");
                    Eq(double.IsPositiveInfinity(fi[0].Expires), true, "expires");
                    var r = a.InspectReplans();
                    Eq(r.Length, 2, "replans");
                    Eq(r[0].Reason, "start", "first reason");
                    Eq(r[0].Status, Status.Ok, "first status");
                    Eq(r[0].Goal, "kill_enemy", "first goal");
                    Eq(r[0].PlanLength, 4, "first plan");
                    Eq(r[0].Cost, 4.0, "first cost");
                    Eq(r[1].Reason, "action_failed", "second reason");
                    Eq(r[1].Status, Status.InProgress, "second status");
                    var g = a.InspectGoals();
                    Eq(g.Length, 1, "goals");
                    Eq(g[0].Goal, "kill_enemy", "goal");
                    Eq(g[0].State, GoalState.Candidate, "goal state");
                    Eq(g[0].Priority, 10.0, "priority");
                }
            }
        });

        Run("inspection: plan steps and what they rely on", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            {
                var acts = new Dictionary<string, ActionTick>();
                foreach (var n in f.Actions) acts[n] = (agent, action, dt) => ActionState.Running;
                using (var a = new Agent(f, acts))
                {
                    a.Update(0.1);
                    var p = a.InspectPlan();
                    Eq(p.Goal, "kill_enemy", "goal");
                    Eq(p.Cost, 4.0, "cost");
                    Eq(p.Running, true, "running");
                    Eq(p.Steps.Length, 4, "steps");
                    Eq(p.Steps[0].Action, "get_ammo", "step 1");
                    Eq(p.Steps[0].State, StepState.Running, "step 1 state");
                    SeqEq(p.Steps[0].Relies, new[] { "!armory_empty" }, "step 1 relies");
                    SeqEq(p.Steps[1].Relies, new string[0], "step 2 relies");
                    SeqEq(p.Steps[2].Relies, new[] { "!door_stuck" }, "step 3 relies");
                    a.Set("door_stuck", 1);
                    Eq(a.InspectPlan().Steps[2].ReliesHold, false, "step 3 holds");
                    Eq(a.InspectGoals()[0].State, GoalState.Current, "current");
                }
            }
        });
        // ---- end of inspection -----------------------------------------------------------

        Run("save games", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            {
                var refEvents = new List<AgentEvent>();
                var events = new List<AgentEvent>();
                byte[] data;
                using (var r = DoorHeld(f, new List<string>(), refEvents))
                    for (int i = 0; i < 30; i++) r.Update(0.1);
                using (var a = DoorHeld(f, new List<string>(), events))
                {
                    for (int i = 0; i < 3; i++) a.Update(0.1);
                    data = a.Snapshot();
                    Eq(System.Text.Encoding.ASCII.GetString(data, 0, 4), "GOAP", "magic");
                    var e = Throws<GoapException>(() => a.Restore(data), "not fresh");
                    Eq(e.Status, Status.InvalidOperation, "not fresh");
                    string json = a.SnapshotJson();
                    Eq(json.StartsWith("{\"t\": 0.3"), true, "json");
                    Eq(json.Contains("\"target_dead\": false"), true, "json memory");
                }
                using (var b = DoorHeld(f, new List<string>(), events))
                {
                    b.Restore(data);
                    Eq(Convert.ToBase64String(b.Snapshot()), Convert.ToBase64String(data), "same snapshot");
                    for (int i = 3; i < 30; i++) b.Update(0.1);
                    Eq(b.Get("target_dead"), 1, "goes on");
                }
                Eq(events.Count, refEvents.Count, "timeline length");
                for (int i = 0; i < events.Count && i < refEvents.Count; i++)
                    Eq(events[i].Kind + "@" + events[i].Time, refEvents[i].Kind + "@" + refEvents[i].Time, "event " + i);
                using (var c = DoorHeld(f, new List<string>(), new List<AgentEvent>()))
                {
                    var cut = new byte[data.Length - 1];
                    Array.Copy(data, cut, cut.Length);
                    var e = Throws<GoapException>(() => c.Restore(cut), "truncated");
                    Eq(e.Status, Status.Truncated, "truncated");
                    Eq(e.ErrorMessage, "snapshot truncated: fewer bytes than its header says", "message");
                    Eq(e.Offset, (long)cut.Length, "truncated: offset where the data ends");
                    Eq(e.Message, "error: snapshot truncated: fewer bytes than its header says (at byte " + cut.Length + ")", "text");
                    Eq(e.File + e.Line + e.Column, "00", "no file or position");
                    var bad = (byte[])data.Clone();
                    bad[30] ^= 4;
                    e = Throws<GoapException>(() => c.Restore(bad), "corrupt");
                    Eq(e.Status, Status.Corrupt, "corrupt");
                    Eq(e.Offset, 12L, "corrupt: offset of the header's checksum field");
                    Eq(e.Message, "error: snapshot corrupted: checksum mismatch (at byte 12)", "corrupt text");
                    using (var other = new Agent(f, null, null, "another_type"))
                    {
                        e = Throws<GoapException>(() => other.Restore(data), "other type");
                        Eq(e.Status, Status.DomainMismatch, "other type");
                        Eq(e.Offset, 16L, "other type: offset of the header's fingerprint");
                    }
                    c.Restore(data);
                }
            }
        });

        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
