// Tests of the C# binding's runtime (GoapRuntime.cs) and of its engine-grade promises: every
// struct offset, zero managed allocation on the hot path, native objects released by
// finalizers in the right order. Part of Tests (Tests.cs), run by CTest (test `csharp`).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using Goap;

static partial class Tests
{
    static string Squad { get { return Path.Combine(Examples, "squad.goap"); } }

    static List<string> RunLines(string exe, string args)
    {
        var psi = new ProcessStartInfo(exe, args) { UseShellExecute = false, RedirectStandardOutput = true };
        var lines = new List<string>();
        using (var p = Process.Start(psi))
        {
            string line;
            while ((line = p.StandardOutput.ReadLine()) != null) lines.Add(line);
            p.WaitForExit();
            Eq(p.ExitCode, 0, exe + " exit status");
        }
        return lines;
    }

    static string Norm(string name) { return name.Replace("_", "").ToLowerInvariant(); }

    // The C structs the binding mirrors -> their C# types.
    static readonly Dictionary<string, Type> Layouts = new Dictionary<string, Type>
    {
        {"goap_allocator", typeof(Goap.Native.Allocator)},
        {"goap_cond", typeof(Goap.Native.Cond)}, {"goap_effect", typeof(Goap.Native.Effect)},
        {"goap_error", typeof(Goap.Native.Error)}, {"goap_scenario", typeof(Goap.Native.Scenario)},
        {"goap_var_info", typeof(Goap.Native.VarInfo)}, {"goap_planner_desc", typeof(Goap.Native.PlannerDesc)},
        {"goap_request", typeof(Goap.Native.Request)},
        {"goap_stats", typeof(Goap.Native.Stats)}, {"goap_result", typeof(Goap.Native.Result)},
        {"goap_action_binding", typeof(Goap.Native.ActionBinding)},
        {"goap_goal_binding", typeof(Goap.Native.GoalBinding)},
        {"goap_sensor_desc", typeof(Goap.Native.SensorDesc)},
        {"goap_agent_type_desc", typeof(Goap.Native.AgentTypeDesc)},
        {"goap_agent_desc", typeof(Goap.Native.AgentDesc)},
        {"goap_agent_event", typeof(Goap.Native.AgentEvent)},
        {"goap_agent_stats", typeof(Goap.Native.AgentStats)},
        {"goap_plan_cache_stats", typeof(Goap.Native.PlanCacheStats)},
        {"goap_squad_desc", typeof(Goap.Native.SquadDesc)},
        {"goap_world_desc", typeof(Goap.Native.WorldDesc)},
        {"goap_world_stats", typeof(Goap.Native.WorldStats)},
        {"goap_sim_options", typeof(Goap.Native.SimOptions)},
        {"goap_sim_result", typeof(Goap.Native.SimResult)},
        {"goap_file_action_info", typeof(Goap.Native.FileActionInfo)},
        {"goap_trace_event", typeof(Goap.Native.TraceEvent)},
        {"goap_goal_info", typeof(Goap.NativeInspect.GoalInfo)},
        {"goap_plan_step_info", typeof(Goap.NativeInspect.PlanStepInfo)},
        {"goap_plan_info", typeof(Goap.NativeInspect.PlanInfo)},
        {"goap_replan_info", typeof(Goap.NativeInspect.ReplanInfo)},
        {"goap_failure_info", typeof(Goap.NativeInspect.FailureInfo)},
    };

    /// <summary>Checks `layout --fields` output ("S name size", "F name field offset") against
    /// the C# structs: same size, same fields (C name = C# name in PascalCase), same offsets,
    /// and every struct blittable (pinning a non-blittable one throws).</summary>
    static void CheckLayouts(List<string> lines, int pointerSize)
    {
        var seen = new HashSet<string>();
        var fieldsSeen = new Dictionary<string, int>();
        int offsets = 0;
        foreach (var line in lines)
        {
            var p = line.Split(' ');
            Type t;
            if (!Layouts.TryGetValue(p[1], out t)) throw new Exception("no C# type for " + p[1]);
            if (p[0] == "S")
            {
                Eq(Marshal.SizeOf(t), int.Parse(p[2]), "sizeof " + p[1]);
                seen.Add(p[1]);
                fieldsSeen[p[1]] = 0;
                object o = Activator.CreateInstance(t);
                GCHandle h = GCHandle.Alloc(o, GCHandleType.Pinned); // throws when not blittable
                h.Free();
                continue;
            }
            FieldInfo f = null;
            foreach (var fi in t.GetFields(BindingFlags.Public | BindingFlags.Instance))
                if (Norm(fi.Name) == Norm(p[2])) f = fi;
            if (f == null) throw new Exception(p[1] + "." + p[2] + ": no such field in " + t.Name);
            Eq((int)Marshal.OffsetOf(t, f.Name), int.Parse(p[3]), "offsetof " + p[1] + "." + p[2]);
            fieldsSeen[p[1]]++;
            offsets++;
        }
        foreach (var kv in Layouts)
        {
            if (!seen.Contains(kv.Key)) throw new Exception(kv.Key + ": not printed by layout");
            Eq(kv.Value.GetFields(BindingFlags.Public | BindingFlags.Instance).Length, fieldsSeen[kv.Key],
               kv.Key + ": C# fields vs C fields");
        }
        Eq(fieldsSeen["goap_error"], 8, "goap_error: the offset of each of its 8 fields checked");
        // Every struct of the Native namespaces is checked.
        foreach (Type t in typeof(Goap.Native.Api).Assembly.GetTypes())
            if (t.IsValueType && !t.IsEnum && (t.Namespace == "Goap.Native" || t.DeclaringType == typeof(Goap.NativeInspect))
                && !t.Name.Contains("<") && !Layouts.ContainsValue(t))
                throw new Exception(t.FullName + ": not in the layout test");
        if (offsets < 200) throw new Exception("only " + offsets + " offsets checked");
    }

    // The i386 System V layout of a C# struct (what Mono on 32-bit Linux gives a sequential
    // struct: 4-byte pointers, 8-byte scalars aligned on 4), computed from the field types,
    // to check against `layout --fields` compiled with -m32: a field declared with the wrong
    // width (long for size_t, int for a pointer) shows there even when 64-bit padding hides it.
    static void Layout32(Type t, out int size, out int align, Dictionary<string, int> offsets)
    {
        var fields = new List<FieldInfo>(t.GetFields(BindingFlags.Public | BindingFlags.Instance));
        fields.Sort((a, b) => ((long)Marshal.OffsetOf(t, a.Name)).CompareTo((long)Marshal.OffsetOf(t, b.Name)));
        int off = 0;
        align = 1;
        foreach (var f in fields)
        {
            int fs, fa;
            var fixedBuf = (System.Runtime.CompilerServices.FixedBufferAttribute)Attribute.GetCustomAttribute(
                f, typeof(System.Runtime.CompilerServices.FixedBufferAttribute));
            if (fixedBuf != null)
            {
                Scalar32(fixedBuf.ElementType, out fs, out fa);
                fs *= fixedBuf.Length;
            }
            else Scalar32(f.FieldType, out fs, out fa);
            off = (off + fa - 1) / fa * fa;
            if (offsets != null) offsets[Norm(f.Name)] = off;
            off += fs;
            align = Math.Max(align, fa);
        }
        size = (off + align - 1) / align * align;
    }

    static void Scalar32(Type t, out int size, out int align)
    {
        if (t.IsEnum) t = Enum.GetUnderlyingType(t);
        if (t == typeof(byte)) { size = 1; align = 1; }
        else if (t == typeof(int) || t == typeof(uint) || t == typeof(IntPtr) || t == typeof(UIntPtr) || t == typeof(float))
        { size = 4; align = 4; }
        else if (t == typeof(double) || t == typeof(ulong) || t == typeof(long)) { size = 8; align = 4; }
        else if (t.IsValueType && !t.IsPrimitive) Layout32(t, out size, out align, null);
        else throw new Exception("no i386 layout for " + t);
    }

    static void CheckLayouts32(List<string> lines)
    {
        int checkedOffsets = 0;
        var model = new Dictionary<string, Dictionary<string, int>>();
        var fieldsSeen = new Dictionary<string, int>();
        foreach (var line in lines)
        {
            var p = line.Split(' ');
            Type t = Layouts[p[1]];
            if (p[0] == "S")
            {
                int size, align;
                var offs = new Dictionary<string, int>();
                Layout32(t, out size, out align, offs);
                model[p[1]] = offs;
                fieldsSeen[p[1]] = 0;
                Eq(size, int.Parse(p[2]), "i386 sizeof " + p[1]);
                continue;
            }
            int o;
            if (!model[p[1]].TryGetValue(Norm(p[2]), out o)) throw new Exception(p[1] + "." + p[2] + ": no such field");
            Eq(o, int.Parse(p[3]), "i386 offsetof " + p[1] + "." + p[2]);
            fieldsSeen[p[1]]++;
            checkedOffsets++;
        }
        Eq(model.Count, Layouts.Count, "i386 structs checked");
        foreach (var kv in model) Eq(fieldsSeen[kv.Key], kv.Value.Count, "i386 " + kv.Key + ": C fields vs C# fields");
        Eq(fieldsSeen["goap_error"], 8, "i386 goap_error: the offset of each of its 8 fields checked");
        if (checkedOffsets < 200) throw new Exception("only " + checkedOffsets + " i386 offsets checked");
    }

    static long Allocated() { return GC.GetAllocatedBytesForCurrentThread(); }

    static void Collect()
    {
        for (int i = 0; i < 4; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
    }

    static ActionState Succeed(Agent a, int action, double dt) { return ActionState.Success; }

    static void RuntimeTests()
    {
        string layout32 = Environment.GetEnvironmentVariable("GOAP_LAYOUT32");
        if (string.IsNullOrEmpty(layout32))
            Console.WriteLine("csharp: i386 layouts not checked: no -m32 toolchain (Debian: gcc-multilib) or the kernel cannot run i386 programs");
        else
            Run("layouts on i386 (-m32): every field offset and size", () => CheckLayouts32(RunLines(layout32, "--fields")));

        Run("GC.GetAllocatedBytesForCurrentThread measures on this runtime", () =>
        {
            long b0 = Allocated();
            var junk = new byte[1000];
            long b1 = Allocated();
            if (b1 - b0 < 1000) throw new Exception("a 1000-byte array counted " + (b1 - b0) + " bytes");
            GC.KeepAlive(junk);
        });

        Run("hot path: Planner.Plan by ids allocates 0 bytes", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            using (var planner = new Planner(f))
            {
                ulong[] start = f.NewState();
                f.Assign(start, "door_stuck, kick_failed");
                Goap.Native.Cond[] want = f.Conditions("target_dead");
                var plan = new int[16];
                int n = 0; double cost = 0;
                int goal = f.FindGoal("kill_enemy");
                for (int i = 0; i < 10; i++) planner.Plan(start, want, want.Length, plan, out n, out cost);
                for (int i = 0; i < 10; i++) planner.PlanGoal(start, goal, plan, out n, out cost);
                long b0 = Allocated();
                Status st = Status.Ok;
                for (int i = 0; i < 1000; i++)
                {
                    st = planner.Plan(start, want, want.Length, plan, out n, out cost);
                    st = planner.PlanGoal(start, goal, plan, out n, out cost);
                }
                long bytes = Allocated() - b0;
                Eq(bytes, 0L, "bytes allocated by 2000 plans");
                Eq(st, Status.Ok, "status");
                Eq(cost, 8.0, "cost");
                var names = new string[n];
                for (int i = 0; i < n; i++) names[i] = f.Actions[plan[i]];
                SeqEq(names, planner.Plan("target_dead", "door_stuck, kick_failed").Actions, "same plan as by names");
                Eq(planner.Plan(start, want, want.Length, new int[1], out n, out cost), Status.BufferTooSmall, "small buffer");
                Eq(n, 4, "length needed");
                long b1 = Allocated();
                planner.Plan("target_dead");
                if (Allocated() - b1 <= 0) throw new Exception("the string API should be seen allocating");
            }
        });

        Run("hot path: Agent.Update, Get/Set by id and name, plan, ids, stats, raw events, snapshots, blackboard keys allocate 0 bytes", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            {
                int events = 0;
                var type = new AgentTypeBuilder(f) { Name = "soldier" }.OnTickAll(Succeed).Build();
                var bb = new Blackboard();
                var key = bb.Key("alarm");
                var opt = new AgentOptions { Blackboard = bb, OnRawEvent = (Agent ag, ref Goap.Native.AgentEvent e) => events++ };
                using (var a = new Agent(type, opt))
                {
                    int dead = f.FindVar("target_dead");
                    int doorStuck = f.FindVar("door_stuck");
                    var plan = new int[16];
                    var snap = new byte[4096];
                    int step, size;
                    Action frames = () =>
                    {
                        for (int i = 0; i < 300; i++)
                        {
                            a.Update(0.1);
                            if (a.Get(dead) == 1) { a.Set(dead, 0); a.Set(doorStuck, i & 1); }
                            a.Get("target_dead");
                            a.Set("in_b", 0);
                            a.GetPlan(plan, out step);
                            bb.Set(key, i);
                            int v; bb.TryGet(key, out v);
                            var s = a.Stats;
                            if (s.Updates == 0) throw new Exception("no updates");
                            if (a.GoalId < -1 || a.ActionId < -1) throw new Exception("ids");
                            if (i % 50 == 0 && !a.TrySnapshot(snap, out size)) throw new Exception("snapshot size " + size);
                        }
                    };
                    frames(); // warm-up: JIT, first plans, pools
                    int before = events;
                    ulong plansBefore = a.Plans;
                    long b0 = Allocated();
                    frames();
                    long bytes = Allocated() - b0;
                    Eq(bytes, 0L, "bytes allocated by 300 frames");
                    if (a.Plans - plansBefore < 50) throw new Exception("too few plans: " + (a.Plans - plansBefore));
                    if (events - before < 100) throw new Exception("too few events: " + (events - before));
                }
                type.Dispose();
                bb.Dispose();
            }
        });

        Run("hot path: World.Update with a plan cache allocates 0 bytes", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            using (var type = new AgentTypeBuilder(f).OnTickAll(Succeed).Build())
            using (var cache = new PlanCache())
            using (var world = new World(lanes: 2, seed: 7))
            {
                var agents = new List<Agent>();
                for (int i = 0; i < 20; i++)
                {
                    var a = new Agent(type, new AgentOptions { Cache = cache });
                    agents.Add(a);
                    world.Add(a, 0, i);     // agents sharing a cache share a lane
                }
                using (var lone = new Agent(type, new AgentOptions { Cache = cache }))
                    Eq(Throws<GoapException>(() => world.Add(lone, 1), "cache across lanes").Status,
                       Status.InvalidArgument, "a cache shared across lanes");
                int dead = f.FindVar("target_dead");
                Action frames = () =>
                {
                    for (int i = 0; i < 200; i++)
                    {
                        world.Update(0.1, 256);
                        foreach (var a in agents) if (a.Get(dead) == 1) a.Set(dead, 0);
                    }
                };
                frames();
                var s0 = world.Stats;
                long b0 = Allocated();
                frames();
                Eq(Allocated() - b0, 0L, "bytes allocated by 200 world frames");
                Eq(world.Stats.Frames - s0.Frames, 200UL, "frames");
                if (cache.Stats.Hits == 0) throw new Exception("no cache hit");
                Throws<GoapException>(() => agents[0].Update(0.1), "Update of an agent in a world");
                world.Remove(agents[0]);
                agents[0].Update(0.1);
                Eq(world.Count, 19, "count after remove");
                foreach (var a in agents) a.Dispose();   // leaves the world first
                Eq(world.Count, 0, "count after dispose");
            }
        });

        Run("finalizers: never-disposed files, types, agents, blackboards, squads, worlds release all native memory", () =>
        {
            NativeMemory.Track = true;
            try
            {
                Collect();
                long bytes0 = NativeMemory.LiveBytes, handles0 = NativeMemory.LiveHandles;
                Action round = () =>
                {
                    var f = GoapFile.Load(Squad);
                    var bb = f.CreateBlackboard();
                    var cache = new PlanCache(16);
                    var planner = new Planner(f);
                    var squad = new Squad();
                    var world = new World();
                    foreach (var block in new[] { "gunner", "rifleman", "shotgunner" })
                    {
                        var t = new AgentTypeBuilder(f, block).OnTickAll(Succeed).Build();
                        var a = new Agent(t, new AgentOptions { Blackboard = bb, Cache = cache, Planner = planner });
                        squad.Add(a);
                        world.Add(a);
                    }
                    squad.Order(SquadBehavior.GetToCover);
                    for (int i = 0; i < 5; i++) world.Update(0.1);
                    var lone = new Agent(AgentType.FromFile(f, "medic"),
                                         new AgentOptions { Blackboard = bb });
                    lone.Update(0.1);
                };
                // Rounds on another thread, which then ends: Mono scans stacks conservatively,
                // so a stale slot on this thread's stack could keep a dropped object alive.
                Action<int> rounds = k =>
                {
                    var th = new System.Threading.Thread(() => { for (int i = 0; i < k; i++) round(); });
                    th.Start();
                    th.Join();
                };
                rounds(20);
                Collect();
                long bytes20 = NativeMemory.LiveBytes, handles20 = NativeMemory.LiveHandles;
                rounds(280);
                Collect();
                Eq(NativeMemory.LiveHandles, handles20, "live handles after 300 rounds vs 20");
                Eq(NativeMemory.LiveBytes, bytes20, "live native bytes after 300 rounds vs 20");
                Eq(NativeMemory.LiveHandles, handles0, "live handles vs before");
                Eq(NativeMemory.LiveBytes, bytes0, "live native bytes vs before");
                // The counter does see the objects: one live round holds memory and handles.
                var keep = GoapFile.Load(Squad);
                if (NativeMemory.LiveBytes <= bytes0 || NativeMemory.LiveHandles != handles0 + 1)
                    throw new Exception("a live file is not counted");
                keep.Dispose();
                Eq(NativeMemory.LiveBytes, bytes0, "after Dispose");
            }
            finally { NativeMemory.Track = false; }
        });

        Run("lifetimes: disposing in any order frees native objects after their users", () =>
        {
            NativeMemory.Track = true;
            try
            {
                Collect();
                long bytes0 = NativeMemory.LiveBytes, handles0 = NativeMemory.LiveHandles;
                using (var f0 = GoapFile.Load(Squad))
                using (var t0 = AgentType.FromFile(f0, "rifleman"))   // reserves: needs a blackboard
                    Throws<GoapException>(() => new Agent(t0), "agent not made");
                Eq(NativeMemory.LiveHandles, handles0, "a failed agent holds nothing");
                Eq(NativeMemory.LiveBytes, bytes0, "nor native memory");
                var f = GoapFile.Load(Squad);
                var bb = f.CreateBlackboard();
                var t = AgentType.FromFile(f, "rifleman");
                var a = new Agent(t, new AgentOptions { Blackboard = bb });
                var s = new Squad();
                s.Add(a);
                f.Dispose(); t.Dispose(); bb.Dispose();       // the agent holds them
                Eq(NativeMemory.LiveHandles, handles0 + 5, "all alive while the agent is");
                a.Update(0.1);
                a.Dispose();                                   // leaves the squad; frees type, bb, file
                Eq(NativeMemory.LiveHandles, handles0 + 1, "only the squad left");
                s.Dispose();
                Eq(NativeMemory.LiveHandles, handles0, "nothing left");
                Eq(NativeMemory.LiveBytes, bytes0, "no native bytes left");
            }
            finally { NativeMemory.Track = false; }
        });

        Run("agent types from agent blocks: actions, roles, HTN", () =>
        {
            using (var f = GoapFile.Load(Squad))
            {
                SeqEq(f.AgentTypes, new[] { "rifleman", "assault_rifleman", "gunner", "shotgunner", "medic" }, "agent blocks");
                Throws<GoapException>(() => new AgentTypeBuilder(f, "sniper"), "unknown block");
                using (var bb = f.CreateBlackboard())
                using (var gunner = AgentType.FromFile(f, "gunner"))
                using (var a = new Agent(gunner, new AgentOptions { Blackboard = bb }))
                {
                    Eq(gunner.Name, "gunner", "name");
                    Eq(gunner.IsHtn, false, "GOAP type");
                    a.Update(0.1);
                    Eq(a.Goal, "suppress", "the gunner's best goal");
                    SeqEq(a.Plan, new[] { "move_to_cover", "provide_suppression" }, "only its actions");
                    // cost scale of its role: provide_suppression * 0.4 -> 1 + 0.8
                    Eq(Math.Round(a.PlanCost, 6), 1.8, "role cost");
                }
            }
            using (var f = GoapFile.Load(Path.Combine(Examples, "trunk_thumper.goap")))
            using (var troll = AgentType.FromFile(f, "troll"))
            using (var a = new Agent(troll))
            {
                Eq(troll.IsHtn, true, "HTN type");
                a.Update(0.1);
                Eq(a.GoalId, -1, "HTN agents have no goal");
                if (a.Plan.Length == 0) throw new Exception("no HTN plan");
            }
        });

        Run("callbacks: start, tick, stop, check, priority, sensor, exceptions", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            {
                var log = new List<string>();
                int sensed = 0;
                var b = new AgentTypeBuilder(f) { Name = "soldier" }
                    .OnStart("get_ammo", (a, id) => log.Add("start " + f.Actions[id]))
                    .OnTick("get_ammo", (a, id, dt) => { log.Add("tick " + f.Actions[id]); return ActionState.Running; })
                    .OnStop("get_ammo", (a, id) => log.Add("stop " + f.Actions[id]))
                    .AddSensor(a => sensed++, 0.5);
                using (var t = b.Build())
                using (var a = new Agent(t))
                {
                    for (int i = 0; i < 10; i++) a.Update(0.1);
                    Eq(a.CurrentAction, "get_ammo", "running");
                    SeqEq(log.GetRange(0, 3).ToArray(), new[] { "start get_ammo", "tick get_ammo", "tick get_ammo" }, "start then ticks");
                    Eq(log.Count, 11, "one start and ten ticks");
                    if (sensed < 2 || sensed > 3) throw new Exception("sensor every 0.5 s over 1 s: " + sensed);
                    Eq(Math.Round(a.Time, 6), 1.0, "agent time");
                    Eq(a.IsPlanning, false, "not planning");
                    a.Replan();                                   // interrupts: stop
                    Eq(log[log.Count - 1], "stop get_ammo", "stop on replan");
                    Eq(a.CurrentAction, null, "no action after replan");
                    a.Update(0.1);
                    Eq(a.CurrentAction, "get_ammo", "started again");
                    a.Reset();
                    Eq(log[log.Count - 1], "stop get_ammo", "stop on reset");
                    Eq(a.Replans(ReplanReason.Requested), 1UL, "one requested replan counted");
                }
                using (var t = new AgentTypeBuilder(f).Build())
                {
                    var e = Throws<GoapException>(() => new Agent(t, new AgentOptions { Memory = "door_stuck, ammo = 2" }), "bad memory");
                    Eq(e.Message.Split('\n')[0], "memory:1:13: error: unknown variable 'ammo'", "memory error");
                    using (var a = new Agent(t, new AgentOptions { Memory = "door_stuck" }))
                        Eq(a.Get("door_stuck"), 1, "initial memory");
                }
                // check: get_ammo refused -> the plan without it is the punch
                using (var t = new AgentTypeBuilder(f).Check("get_ammo", (a, id) => false).Build())
                using (var a = new Agent(t))
                {
                    a.Update(0.1);
                    SeqEq(a.Plan, new[] { "open_door", "punch" }, "plan without get_ammo");
                }
                // priority: a dynamic priority makes a goal win; an exception reaches Update
                using (var t = new AgentTypeBuilder(f).Priority("kill_enemy", (a, g) => { throw new InvalidOperationException("prio"); }).Build())
                using (var a = new Agent(t))
                {
                    var e = Throws<GoapException>(() => a.Update(0.1), "priority exception");
                    Eq(e.InnerException.Message, "prio", "inner");
                }
                using (var t = new AgentTypeBuilder(f).AddSensor(a => { throw new ArgumentException("sensor"); }).Build())
                using (var a = new Agent(t))
                    Eq(Throws<GoapException>(() => a.Update(0.1), "sensor exception").InnerException.Message, "sensor", "inner");
                using (var t = new AgentTypeBuilder(f).AddSensor(a => a.Set("door_stuck", 1)).Build())
                using (var a = new Agent(t))
                {
                    a.Update(0.1);
                    Eq(a.Get("door_stuck"), 1, "the sensor wrote memory");
                    Eq(a.Plan.Length > 0 && Array.IndexOf(a.Plan, "open_door") < 0, true, "planned around the door");
                }
            }
        });

        Run("blackboards, resources, reservations, holders, orders, squads", () =>
        {
            using (var f = GoapFile.Load(Squad))
            using (var bb = f.CreateBlackboard())
            using (var rifle = new AgentTypeBuilder(f, "shotgunner").OnTickAll(Succeed)
                       .OnTick("flank_to_cover", (a, id, dt) => ActionState.Running)
                       .OnTick("fire_from_cover", (a, id, dt) => ActionState.Running).Build())
            using (var gunner = new AgentTypeBuilder(f, "gunner").OnTickAll(Succeed)
                       .OnTick("provide_suppression", (a, id, dt) => ActionState.Running).Build())
            {
                int held, cap;
                bb.Resource("flank_slot", out held, out cap);
                Eq(cap, 1, "the file's capacity");
                using (var plain = new Blackboard())
                {
                    plain.AddResource("flank_slot", 3);
                    plain.ApplyResources(f);
                    plain.Resource("flank_slot", out held, out cap);
                    Eq(cap, 1, "ApplyResources sets the file's capacity");
                    Eq(Throws<GoapException>(() => plain.Resource("nope", out held, out cap), "unknown").Status, Status.NotFound, "unknown resource");
                    Eq(Throws<GoapException>(() => plain.Get("nope"), "no slot").Status, Status.NotFound, "no slot");
                    ulong v0 = plain.Version;
                    plain.Set("x", 4);
                    Eq(plain.Get("x"), 4, "slot");
                    Eq(plain.Version, v0 + 1, "version");
                }
                var e = Throws<GoapException>(() => new Agent(rifle), "reserving without a blackboard");
                Eq(e.Status, Status.InvalidArgument, "status");
                if (!e.Message.Contains("blackboard")) throw new Exception(e.Message);
                var denied = new List<string>();
                RawEventHandler onEv = (Agent ag, ref Goap.Native.AgentEvent ev) =>
                {
                    if (ev.Kind == (int)EventKind.ReservationDenied)
                        denied.Add((string)ag.Host + " " + Marshal.PtrToStringAnsi(ev.Resource));
                };
                var g = new Agent(gunner, new AgentOptions { Blackboard = bb, Host = "g" });
                var s1 = new Agent(rifle, new AgentOptions { Blackboard = bb, Host = "s1", OnRawEvent = onEv });
                var s2 = new Agent(rifle, new AgentOptions { Blackboard = bb, Host = "s2", OnRawEvent = onEv });
                using (var squad = new Squad())
                {
                    squad.Add(g); squad.Add(s1); squad.Add(s2);
                    Eq(squad.Count, 3, "members");
                    Eq(squad[1], s1, "member by index is the same Agent");
                    Throws<GoapException>(() => squad.Add(g), "duplicate");
                    squad.Order(SquadBehavior.GetToCover);
                    Eq(squad.Current, SquadBehavior.GetToCover, "behaviour");
                    Eq(f.Goals[g.OrderedGoal], "suppress", "the gunner suppresses");
                    Eq(f.Goals[s1.OrderedGoal], "take_cover", "the others take cover");
                    for (int i = 0; i < 30; i++) { g.Update(0.1); s1.Update(0.1); s2.Update(0.1); squad.Update(); }
                    Eq(bb.Get("suppressive_fire_tokens"), 1, "on_start token on the blackboard");
                    bb.Resource("flank_slot", out held, out cap);
                    Eq(held, 1, "one flanker");
                    var holders = bb.Holders("flank_slot");
                    Eq(holders.Length, 1, "holders");
                    var flanker = holders[0];
                    Eq(flanker.CurrentAction, "flank_to_cover", "the holder flanks");
                    var other = flanker == s1 ? s2 : s1;
                    Eq(other.CurrentAction, "fire_from_cover", "the other, refused the flank, fires from cover");
                    if (!denied.Contains(other.Host + " flank_slot")) throw new Exception("no reservation denied to " + other.Host);
                    Eq(Throws<GoapException>(() => bb.SetCapacity("flank_slot", 0), "below held").Status,
                       Status.InvalidOperation, "capacity below held");
                    bb.SetCapacity("flank_slot", 2);
                    other.Order("kill_player", 50);
                    Eq(other.OrderedGoal, f.FindGoal("kill_player"), "order");
                    other.ClearOrder();
                    Eq(other.OrderedGoal, -1, "cleared");
                }
                Eq(g.OrderedGoal, -1, "the squad's orders end with it");
                g.Dispose(); s1.Dispose(); s2.Dispose();
            }
        });

        Run("plan cache and shared planner", () =>
        {
            using (var f = GoapFile.Load(Soldier))
            using (var other = GoapFile.Load(Squad))
            using (var t = new AgentTypeBuilder(f).OnTickAll(Succeed).Build())
            using (var cache = new PlanCache(8))
            using (var planner = new Planner(f))
            using (var wrong = new Planner(other))
            {
                var opt = new AgentOptions { Cache = cache, Planner = planner };
                using (var a = new Agent(t, opt))
                using (var b = new Agent(t, opt))
                {
                    a.Update(0.1); b.Update(0.1);
                    SeqEq(b.Plan, a.Plan, "same plan");
                    Eq(b.Stats.CacheHits, 1UL, "the second agent's plan came from the cache");
                    Eq(cache.Stats.Entries, 1, "one entry");
                    cache.Clear();
                    Eq(cache.Stats.Entries, 0, "cleared");
                }
                Eq(Throws<GoapException>(() => new Agent(t, new AgentOptions { Planner = wrong }), "other domain").Status,
                   Status.InvalidArgument, "planner of another domain");
            }
        });

        Run("save games: blackboard, agents and squad restored go on identically", () =>
        {
            using (var f = GoapFile.Load(Squad))
            {
                var types = new List<AgentType>();
                foreach (var n in new[] { "gunner", "rifleman", "shotgunner", "medic" })
                    types.Add(new AgentTypeBuilder(f, n).OnTickAll(Succeed)
                              .OnTick("provide_suppression", (a, id, dt) => ActionState.Running).Build());
                Func<Blackboard, Agent[]> make = bb =>
                {
                    var r = new Agent[types.Count];
                    for (int i = 0; i < r.Length; i++) r[i] = new Agent(types[i], new AgentOptions { Blackboard = bb });
                    return r;
                };
                Action<Agent[], Squad, int> run = (agents, sq, frames) =>
                {
                    for (int k = 0; k < frames; k++)
                    {
                        foreach (var a in agents) a.Update(0.1);
                        sq.Update();
                    }
                };
                var bb1 = f.CreateBlackboard();
                var team1 = make(bb1);
                var sq1 = new Squad();
                foreach (var a in team1) sq1.Add(a);
                sq1.Order(SquadBehavior.GetToCover);
                run(team1, sq1, 7);
                team1[3].Set("man_down", 1);
                byte[] bbSave = bb1.Snapshot(), sqSave = sq1.Snapshot();
                var agentSaves = new List<byte[]>();
                foreach (var a in team1) agentSaves.Add(a.Snapshot());

                var bb2 = new Blackboard();
                bb2.Restore(bbSave);
                var team2 = make(bb2);
                for (int i = 0; i < team2.Length; i++) team2[i].Restore(agentSaves[i]);
                var sq2 = new Squad();
                sq2.Restore(sqSave, team2);
                Eq(sq2.Current, SquadBehavior.GetToCover, "squad behaviour restored");
                Eq(sq2.Count, 4, "members");
                Eq(Convert.ToBase64String(bb2.Snapshot()), Convert.ToBase64String(bbSave), "blackboard snapshot");
                run(team1, sq1, 40);
                run(team2, sq2, 40);
                for (int i = 0; i < team1.Length; i++)
                    Eq(Convert.ToBase64String(team2[i].Snapshot()), Convert.ToBase64String(team1[i].Snapshot()), "agent " + i + " after 40 frames");
                Eq(Convert.ToBase64String(sq2.Snapshot()), Convert.ToBase64String(sq1.Snapshot()), "squad after 40 frames");
                Eq(team2[3].Get("man_down"), 0, "the medic rescued");
                var buf = new byte[8];
                int size;
                Eq(team1[0].TrySnapshot(buf, out size), false, "small buffer");
                buf = new byte[size];
                Eq(team1[0].TrySnapshot(buf, out size), true, "buffer of the size asked");
                var bad = (byte[])bbSave.Clone();
                bad[bad.Length - 1] ^= 1;
                Eq(Throws<GoapException>(() => new Blackboard().Restore(bad), "corrupt").Status, Status.Corrupt, "corrupt blackboard");
                Eq(Throws<GoapException>(() => new Squad().Restore(sqSave, new Agent[0]), "no members").Status,
                   Status.InvalidOperation, "squad restore without its members");
                sq1.Dispose(); sq2.Dispose();
                foreach (var a in team1) a.Dispose();
                foreach (var a in team2) a.Dispose();
                foreach (var t in types) t.Dispose();
                bb1.Dispose(); bb2.Dispose();
            }
        });
    }
}
