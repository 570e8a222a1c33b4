// GoapRuntime.cs -- libgoap for C#: the runtime (goap/agent.h, squad.h, world.h, save.h,
// inspect.h). Compiled together with Goap.cs (see there: unsafe code, the library name).
//
// Agent types come from a file's `agent` blocks (or every action and goal of the file) with
// C# callbacks: start / tick / stop per action, procedural checks, goal priorities, sensors.
// Callbacks find their Agent through the native agent's host pointer (a weak GCHandle), so
// one static thunk per kind serves every agent and no delegate is made per call. Calls by id
// (Get/Set, Update, World.Update, Blackboard with a BlackboardKey, Planner.Plan with arrays)
// allocate no managed memory; the name-based ones resolve the name once and cache it.
//
// An exception thrown by a callback never crosses into native code: an action's tick reports
// Failure (its on_fail memory is written), a check says "not now", a priority is NaN, and
// Update() (or World.Update()) throws a GoapException whose InnerException is the original
// once the native update has returned.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
#if UNITY_5_3_OR_NEWER
using AOT;
#endif

namespace Goap
{
    /// <summary>An action's tick (legacy, by name): return Running, Success or Failure.</summary>
    public delegate ActionState ActionTick(Agent agent, string action, double dt);
    /// <summary>An action's tick by id.</summary>
    public delegate ActionState ActionUpdate(Agent agent, int action, double dt);
    public delegate void ActionStart(Agent agent, int action);
    public delegate void ActionStop(Agent agent, int action);
    /// <summary>A procedural precondition: false plans without the action this time.</summary>
    public delegate bool ActionCheck(Agent agent, int action);
    /// <summary>A goal's dynamic priority.</summary>
    public delegate double GoalPriority(Agent agent, int goal);
    /// <summary>A sensor: writes the agent's memory (agent.Set) every interval.</summary>
    public delegate void Sensor(Agent agent);
    /// <summary>The native event, by reference and with ids: no allocation. Read it only (it is
    /// libgoap's const struct), during the call (its plan pointer dies with it).</summary>
    public delegate void RawEventHandler(Agent agent, ref Native.AgentEvent ev);

    public enum SquadBehavior { None = 0, GetToCover, AdvanceCover, OrderlyAdvance, Search }

    // ---- Handles of the runtime ---------------------------------------------------------------
    public sealed class AgentTypeHandle : NativeHandle
    {
        protected override void Destroy(IntPtr p) { Native.Api.goap_agent_type_destroy(p); }
    }

    /// <summary>An agent. Destroyed before what it holds (its type, blackboard, cache, shared
    /// planner); its weak GCHandle (the host pointer) is freed after the native agent, whose
    /// destruction may still call the stop callback.</summary>
    public sealed class AgentHandle : NativeHandle
    {
        internal IntPtr Self;
        protected override void Destroy(IntPtr p)
        {
            Native.Api.goap_agent_destroy(p);
            if (Self != IntPtr.Zero) { GCHandle.FromIntPtr(Self).Free(); Self = IntPtr.Zero; }
        }
    }

    public sealed class BlackboardHandle : NativeHandle
    {
        protected override void Destroy(IntPtr p) { Native.Api.goap_blackboard_destroy(p); }
    }

    public sealed class PlanCacheHandle : NativeHandle
    {
        protected override void Destroy(IntPtr p) { Native.Api.goap_plan_cache_destroy(p); }
    }

    /// <summary>A squad; holds its members' handles (destroyed before them).</summary>
    public sealed class SquadHandle : NativeHandle
    {
        protected override void Destroy(IntPtr p) { Native.Api.goap_squad_destroy(p); }
    }

    /// <summary>A world; holds its agents' handles (destroyed, releasing them, before them).</summary>
    public sealed class WorldHandle : NativeHandle
    {
        protected override void Destroy(IntPtr p) { Native.Api.goap_world_destroy(p); }
    }

    // ---- Agent types --------------------------------------------------------------------------
    /// <summary>
    /// Describes an agent type before it is built: the actions and goals of one `agent` block
    /// of the file (or all of them), the file's on_fail / timeout / watch / valid / reserve
    /// lines and role costs, plus C# callbacks and tuning. Build() makes the immutable AgentType.
    /// </summary>
    public sealed class AgentTypeBuilder
    {
        internal readonly GoapFile File;
        internal readonly int Block;
        internal readonly int ActionCount, GoalCount;
        internal readonly ActionStart[] Starts;
        internal readonly ActionUpdate[] Ticks;
        internal readonly ActionStop[] Stops;
        internal readonly ActionCheck[] Checks;
        internal readonly GoalPriority[] Priorities;
        internal readonly List<Sensor> Sensors = new List<Sensor>();
        internal readonly List<double> SensorIntervals = new List<double>();

        public string Name;
        /// <summary>From the block's `switch_margin` (0: the runtime's default 1.0; -1: none).</summary>
        public double SwitchMargin;
        public double GoalCheckInterval, FailedGoalCooldown, PlanningMsPerUpdate;
        public Search Search;
        public int Heuristic;
        public uint MaxNodes, ExpansionsPerUpdate, PlannerInitialNodes;

        /// <param name="agentBlock">the name of an `agent` block of the file; null: every
        /// action and goal of the file (the type of the legacy Agent constructor).</param>
        public AgentTypeBuilder(GoapFile file, string agentBlock = null)
        {
            if (file == null) throw new ArgumentNullException("file");
            file.Check();
            File = file;
            Block = -1;
            if (agentBlock != null)
            {
                Block = Native.Api.goap_file_find_agent_type(file.RawFile, Util.Utf8(agentBlock));
                if (Block < 0) throw new GoapException(Status.NotFound, "unknown agent type '" + agentBlock + "'");
            }
            Name = agentBlock ?? "agent";
            SwitchMargin = Native.Api.goap_file_switch_margin(file.RawFile, Block, -1);
            ActionCount = Native.Api.goap_domain_action_count(file.RawDomain);
            GoalCount = Native.Api.goap_domain_goal_count(file.RawDomain);
            Starts = new ActionStart[ActionCount];
            Ticks = new ActionUpdate[ActionCount];
            Stops = new ActionStop[ActionCount];
            Checks = new ActionCheck[ActionCount];
            Priorities = new GoalPriority[GoalCount];
        }

        int A(string action) { return File.FindAction(action); }

        int Aid(int action)
        {
            if (action < 0 || action >= ActionCount) throw new ArgumentOutOfRangeException("action");
            return action;
        }

        public AgentTypeBuilder OnStart(string action, ActionStart fn) { Starts[A(action)] = fn; return this; }
        public AgentTypeBuilder OnStart(int action, ActionStart fn) { Starts[Aid(action)] = fn; return this; }
        public AgentTypeBuilder OnTick(string action, ActionUpdate fn) { Ticks[A(action)] = fn; return this; }
        public AgentTypeBuilder OnTick(int action, ActionUpdate fn) { Ticks[Aid(action)] = fn; return this; }
        public AgentTypeBuilder OnStop(string action, ActionStop fn) { Stops[A(action)] = fn; return this; }
        public AgentTypeBuilder OnStop(int action, ActionStop fn) { Stops[Aid(action)] = fn; return this; }
        public AgentTypeBuilder Check(string action, ActionCheck fn) { Checks[A(action)] = fn; return this; }
        public AgentTypeBuilder Check(int action, ActionCheck fn) { Checks[Aid(action)] = fn; return this; }

        /// <summary>The same tick for every action (actions without one succeed at once).</summary>
        public AgentTypeBuilder OnTickAll(ActionUpdate fn)
        {
            for (int i = 0; i < ActionCount; i++) Ticks[i] = fn;
            return this;
        }

        public AgentTypeBuilder Priority(string goal, GoalPriority fn) { Priorities[File.FindGoal(goal)] = fn; return this; }

        /// <summary>A sensor run every `interval` seconds (0: every update).</summary>
        public AgentTypeBuilder AddSensor(Sensor fn, double interval = 0)
        {
            if (fn == null) throw new ArgumentNullException("fn");
            Sensors.Add(fn);
            SensorIntervals.Add(interval);
            return this;
        }

        public AgentType Build() { return new AgentType(this); }
    }

    /// <summary>An agent type: immutable, shared by any number of agents. Dispose() lets go of
    /// it; the native type lives until its last agent is freed.</summary>
    public sealed class AgentType : IDisposable
    {
        public GoapFile File { get; private set; }
        internal readonly AgentTypeHandle Handle;
        internal readonly ActionStart[] Starts;
        internal readonly ActionUpdate[] Ticks;
        internal readonly ActionStop[] Stops;
        internal readonly ActionCheck[] Checks;
        internal readonly GoalPriority[] Priorities;
        internal readonly Sensor[] Sensors;
        internal readonly string[] ActionNames, GoalNames;
        public string Name { get; private set; }
        /// <summary>True when the block has `htn TASK` (an HTN agent: no goals).</summary>
        public bool IsHtn { get; private set; }

        internal AgentType(AgentTypeBuilder b)
        {
            File = b.File;
            File.Check();
            Name = b.Name;
            Starts = (ActionStart[])b.Starts.Clone();
            Ticks = (ActionUpdate[])b.Ticks.Clone();
            Stops = (ActionStop[])b.Stops.Clone();
            Checks = (ActionCheck[])b.Checks.Clone();
            Priorities = (GoalPriority[])b.Priorities.Clone();
            Sensors = b.Sensors.ToArray();
            ActionNames = File.Actions;
            GoalNames = File.Goals;
            int na = b.ActionCount, ng = b.GoalCount;
            var acts = new Native.ActionBinding[Math.Max(na, 1)];
            var goals = new Native.GoalBinding[Math.Max(ng, 1)];
            int st = Native.Api.goap_file_agent_bindings(File.RawFile, b.Block, acts, na, goals, ng);
            if (st != 0) throw Util.StatusError(st, "bindings");
            for (int i = 0; i < na; i++)
            {
                if (Starts[i] != null) acts[i].Start = Thunks.StartPtr;
                if (Ticks[i] != null) acts[i].Tick = Thunks.TickPtr;
                if (Stops[i] != null) acts[i].Stop = Thunks.StopPtr;
                if (Checks[i] != null) acts[i].Check = Thunks.CheckPtr;
            }
            for (int g = 0; g < ng; g++)
                if (Priorities[g] != null) goals[g].Priority = Thunks.PriorityPtr;
            var sensors = new Native.SensorDesc[Math.Max(Sensors.Length, 1)];
            for (int i = 0; i < Sensors.Length; i++)
                sensors[i] = new Native.SensorDesc { Fn = Thunks.SensorPtr, User = (IntPtr)i, Interval = b.SensorIntervals[i] };
            IntPtr watch = IntPtr.Zero;
            int watchCount = 0, root = -1;
            if (b.Block >= 0) root = Native.Api.goap_file_agent_type_htn(File.RawFile, b.Block, out watch, out watchCount);
            IsHtn = root >= 0;
            byte[] name = Util.Utf8(Name);
            GCHandle ah = GCHandle.Alloc(acts, GCHandleType.Pinned);
            GCHandle gh = GCHandle.Alloc(goals, GCHandleType.Pinned);
            GCHandle sh = GCHandle.Alloc(sensors, GCHandleType.Pinned);
            GCHandle nh = GCHandle.Alloc(name, GCHandleType.Pinned);
            Handle = new AgentTypeHandle();
            try
            {
                var td = new Native.AgentTypeDesc
                {
                    Allocator = NativeMemory.Current(), Name = nh.AddrOfPinnedObject(),
                    Actions = ah.AddrOfPinnedObject(), ActionCount = na,
                    Goals = IsHtn ? IntPtr.Zero : gh.AddrOfPinnedObject(), GoalCount = IsHtn ? 0 : ng,
                    Sensors = sh.AddrOfPinnedObject(), SensorCount = Sensors.Length,
                    SwitchMargin = b.SwitchMargin, GoalCheckInterval = b.GoalCheckInterval,
                    FailedGoalCooldown = b.FailedGoalCooldown, Search = (int)b.Search, Heuristic = b.Heuristic,
                    MaxNodes = b.MaxNodes, ExpansionsPerUpdate = b.ExpansionsPerUpdate,
                    PlanningMsPerUpdate = b.PlanningMsPerUpdate, PlannerInitialNodes = b.PlannerInitialNodes
                };
                if (IsHtn)
                {
                    td.Htn = Native.Api.goap_file_htn(File.RawFile);
                    td.HtnRoot = root;
                    td.HtnWatch = watch;
                    td.HtnWatchCount = watchCount;
                }
                Handle.Hold(File.Handle); // the bindings point into the file; the domain too
                IntPtr type;
                Native.Error err;
                st = Native.Api.goap_agent_type_create(File.RawDomain, ref td, out type, out err);
                if (st != 0)
                {
                    Handle.DropAll();
                    throw Util.Error(ref err);
                }
                Handle.Set(type);
            }
            finally { ah.Free(); gh.Free(); sh.Free(); nh.Free(); }
        }

        /// <summary>The type made from one `agent` block, without callbacks (actions succeed at once).</summary>
        public static AgentType FromFile(GoapFile file, string agentBlock)
        {
            return new AgentTypeBuilder(file, agentBlock).Build();
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>Native callbacks: one static thunk per kind for every agent.</summary>
    internal static class Thunks
    {
        [MonoPInvokeCallback(typeof(Native.StartFn))]
        static void Start(IntPtr agent, int action, IntPtr user)
        {
            Agent a = null;
            try
            {
                a = Agent.FromNative(agent);
                if (a != null) a.type.Starts[action](a, action);
            }
            catch (Exception e) { if (a != null) a.Fail(e); }
        }

        [MonoPInvokeCallback(typeof(Native.TickFn))]
        static int Tick(IntPtr agent, int action, double dt, IntPtr user)
        {
            Agent a = null;
            try
            {
                a = Agent.FromNative(agent);
                if (a == null) return (int)ActionState.Failure;
                return (int)a.type.Ticks[action](a, action, dt);
            }
            catch (Exception e)
            {
                if (a != null) a.Fail(e);
                return (int)ActionState.Failure;
            }
        }

        [MonoPInvokeCallback(typeof(Native.StartFn))]
        static void Stop(IntPtr agent, int action, IntPtr user)
        {
            Agent a = null;
            try
            {
                a = Agent.FromNative(agent);
                if (a != null) a.type.Stops[action](a, action);
            }
            catch (Exception e) { if (a != null) a.Fail(e); }
        }

        [MonoPInvokeCallback(typeof(Native.CheckFn))]
        static int Check(IntPtr agent, int action, IntPtr user)
        {
            Agent a = null;
            try
            {
                a = Agent.FromNative(agent);
                return a != null && a.type.Checks[action](a, action) ? 1 : 0;
            }
            catch (Exception e)
            {
                if (a != null) a.Fail(e);
                return 0;
            }
        }

        [MonoPInvokeCallback(typeof(Native.PriorityFn))]
        static double Priority(IntPtr agent, int goal, IntPtr user)
        {
            Agent a = null;
            try
            {
                a = Agent.FromNative(agent);
                return a != null ? a.type.Priorities[goal](a, goal) : double.NaN;
            }
            catch (Exception e)
            {
                if (a != null) a.Fail(e);
                return double.NaN;
            }
        }

        [MonoPInvokeCallback(typeof(Native.SensorFn))]
        static void Sense(IntPtr agent, IntPtr user)
        {
            Agent a = null;
            try
            {
                a = Agent.FromNative(agent);
                if (a != null) a.type.Sensors[(int)user](a);
            }
            catch (Exception e) { if (a != null) a.Fail(e); }
        }

        [MonoPInvokeCallback(typeof(Native.EventFn))]
        static unsafe void Event(IntPtr agent, IntPtr ev, IntPtr user)
        {
            Agent a = null;
            try
            {
                a = Agent.FromNative(agent);
                if (a == null) return;
                if (a.onRawEvent != null) a.onRawEvent(a, ref *(Native.AgentEvent*)ev);
                if (a.onEvent != null) a.onEvent(a, AgentEvent.From(a.file, ev));
            }
            catch (Exception e) { if (a != null) a.Fail(e); }
        }

        // Static delegates: alive for the program's lifetime, as native code may call them.
        static readonly Native.StartFn StartD = Start, StopD = Stop;
        static readonly Native.TickFn TickD = Tick;
        static readonly Native.CheckFn CheckD = Check;
        static readonly Native.PriorityFn PriorityD = Priority;
        static readonly Native.SensorFn SensorD = Sense;
        static readonly Native.EventFn EventD = Event;
        internal static readonly IntPtr StartPtr = Marshal.GetFunctionPointerForDelegate(StartD);
        internal static readonly IntPtr StopPtr = Marshal.GetFunctionPointerForDelegate(StopD);
        internal static readonly IntPtr TickPtr = Marshal.GetFunctionPointerForDelegate(TickD);
        internal static readonly IntPtr CheckPtr = Marshal.GetFunctionPointerForDelegate(CheckD);
        internal static readonly IntPtr PriorityPtr = Marshal.GetFunctionPointerForDelegate(PriorityD);
        internal static readonly IntPtr SensorPtr = Marshal.GetFunctionPointerForDelegate(SensorD);
        internal static readonly IntPtr EventPtr = Marshal.GetFunctionPointerForDelegate(EventD);
    }

    /// <summary>How an agent is made beyond its type (all optional).</summary>
    public sealed class AgentOptions
    {
        /// <summary>Receives and provides the `shared` variables and holds the resources.
        /// Needed when the type reserves (a `reserve` line).</summary>
        public Blackboard Blackboard;
        public PlanCache Cache;
        /// <summary>A planner shared by agents updated on one thread (GoapFile's domain).</summary>
        public Planner Planner;
        /// <summary>Initial memory as assignments (`door_stuck, ammo = 2`), or null.</summary>
        public string Memory;
        /// <summary>The game's object for the agent (Agent.Host).</summary>
        public object Host;
        /// <summary>The timeline with names (allocates per event).</summary>
        public Action<Agent, AgentEvent> OnEvent;
        /// <summary>The timeline as the native struct (no allocation).</summary>
        public RawEventHandler OnRawEvent;
        /// <summary>Replans kept for inspection (0: 8; &lt; 0: none).</summary>
        public int ReplanHistory;
    }

    /// <summary>
    /// An agent running an AgentType. Update(dt) once per frame (or add it to a World).
    /// An agent never disposed is freed by its finalizer (its SafeHandle), before its type,
    /// blackboard, cache and shared planner, which outlive it.
    /// </summary>
    public sealed class Agent : IDisposable
    {
        internal readonly GoapFile file;
        internal readonly AgentType type;
        readonly AgentHandle handle;
        readonly string[] actionNames, goalNames;
        internal readonly Action<Agent, AgentEvent> onEvent;
        internal readonly RawEventHandler onRawEvent;
        readonly AgentType ownedType;   // the legacy constructor's type
        internal Squad squad;
        internal World world;
        bool updating;
        Exception pending;

        /// <summary>The game's object given in AgentOptions.Host.</summary>
        public object Host;
        public AgentType Type { get { return type; } }
        public Blackboard Blackboard { get; private set; }

        internal static Agent FromNative(IntPtr agent)
        {
            IntPtr h = Native.Api.goap_agent_host(agent);
            return h == IntPtr.Zero ? null : GCHandle.FromIntPtr(h).Target as Agent;
        }

        internal void Fail(Exception e) { if (pending == null) pending = e; }

        internal void ThrowPending()
        {
            if (pending == null) return;
            Exception e = pending;
            pending = null;
            throw new GoapException(Status.InvalidOperation, "an action callback threw: " + e.Message, e);
        }

        public Agent(AgentType type, AgentOptions options = null)
        {
            if (type == null) throw new ArgumentNullException("type");
            if (type.Handle.IsClosed) throw new ObjectDisposedException("AgentType");
            options = options ?? new AgentOptions();
            this.type = type;
            file = type.File;
            actionNames = type.ActionNames;
            goalNames = type.GoalNames;
            onEvent = options.OnEvent;
            onRawEvent = options.OnRawEvent;
            Host = options.Host;
            Blackboard = options.Blackboard;
            ulong[] mem = null;
            if (options.Memory != null)
            {
                mem = file.NewStateRaw();
                file.Assign(mem, options.Memory, "memory");
            }
            if (options.Planner != null && options.Planner.File.RawDomain != file.RawDomain)
                throw new GoapException(Status.InvalidArgument, "the shared planner is for another domain");
            handle = new AgentHandle();
            // Weak: the native side does not keep the agent alive; callbacks run inside
            // Update() (the agent is reachable then) or while it is destroyed (then null).
            GCHandle self = GCHandle.Alloc(this, GCHandleType.Weak);
            GCHandle mh = mem != null ? GCHandle.Alloc(mem, GCHandleType.Pinned) : default(GCHandle);
            try
            {
                var ad = new Native.AgentDesc
                {
                    Type = type.Handle.Ptr, Allocator = NativeMemory.Current(),
                    Memory = mem != null ? mh.AddrOfPinnedObject() : IntPtr.Zero,
                    Host = GCHandle.ToIntPtr(self), ReplanHistory = options.ReplanHistory
                };
                if (onEvent != null || onRawEvent != null) ad.OnEvent = Thunks.EventPtr;
                handle.Hold(type.Handle);
                if (options.Blackboard != null) { handle.Hold(options.Blackboard.Handle); ad.Blackboard = options.Blackboard.Ptr; }
                if (options.Cache != null) { handle.Hold(options.Cache.Handle); ad.Cache = options.Cache.Ptr; }
                if (options.Planner != null) { handle.Hold(options.Planner.Handle); ad.Planner = options.Planner.Handle.Ptr; }
                IntPtr agent;
                Native.Error err;
                int st = Native.Api.goap_agent_create(ref ad, out agent, out err);
                if (st != 0) throw Util.Error(ref err);
                handle.Self = GCHandle.ToIntPtr(self);
                handle.Set(agent);
            }
            catch
            {
                if (handle.Self == IntPtr.Zero)
                {
                    self.Free();
                    handle.SetHandleAsInvalid();
                    handle.DropAll(); // what it held for an agent that was not made
                }
                throw;
            }
            finally
            {
                if (mh.IsAllocated) mh.Free();
            }
        }

        /// <summary>The legacy constructor: every action and goal of the file, ticks by name.</summary>
        /// <param name="actions">action name -> tick; actions without one succeed at once.</param>
        /// <param name="memory">initial memory as assignments (`door_stuck, ammo = 2`), or null.</param>
        public Agent(GoapFile file, IDictionary<string, ActionTick> actions,
                     Action<Agent, AgentEvent> onEvent = null, string name = "agent",
                     string memory = null)
            : this(LegacyType(file, actions, name), new AgentOptions { OnEvent = onEvent, Memory = memory })
        {
            ownedType = type;
            ownedType.Dispose(); // the native type lives as long as this agent (held by its handle)
        }

        static AgentType LegacyType(GoapFile file, IDictionary<string, ActionTick> actions, string name)
        {
            var b = new AgentTypeBuilder(file) { Name = name };
            string[] names = file.Actions;
            if (actions != null)
                foreach (var kv in actions)
                {
                    if (kv.Value == null) throw new ArgumentNullException("actions[" + kv.Key + "]");
                    ActionTick fn = kv.Value;
                    b.OnTick(kv.Key, (a, id, dt) => fn(a, names[id], dt));
                }
            return b.Build();
        }

        void Check()
        {
            if (handle.IsClosed) throw new ObjectDisposedException("Agent");
        }

        internal IntPtr Ptr { get { Check(); return handle.Ptr; } }
        internal AgentHandle Handle { get { return handle; } }
        public GoapFile File { get { return file; } }

        /// <summary>Advances the agent by dt seconds; rethrows a callback's exception.
        /// Allocates no managed memory (unless a callback does). Not for an agent in a World.</summary>
        public Status Update(double dt)
        {
            Check();
            if (updating) throw new GoapException(Status.InvalidOperation, "Agent.Update called from one of its callbacks");
            if (world != null) throw new GoapException(Status.InvalidOperation, "the agent is in a World: World.Update updates it");
            updating = true;
            int st;
            try { st = Native.Api.goap_agent_update(handle.Ptr, dt); }
            finally { updating = false; }
            ThrowPending();
            if (st == (int)Status.InvalidArgument || st == (int)Status.OutOfMemory) throw Util.StatusError(st, "update");
            return (Status)st;
        }

        /// <summary>A memory value by variable id (GoapFile.FindVar); allocates nothing.</summary>
        public int Get(int var) { Check(); return Native.Api.goap_agent_get(handle.Ptr, var); }

        /// <summary>Writes memory by variable id; allocates nothing (throws on a bad value).</summary>
        public void Set(int var, int value)
        {
            Check();
            int st = Native.Api.goap_agent_set(handle.Ptr, var, value);
            if (st != 0) throw Util.StatusError(st, "set " + var);
        }

        /// <summary>By name: the id is resolved once and cached by the file.</summary>
        public int Get(string var) { Check(); return Native.Api.goap_agent_get(handle.Ptr, file.FindVarRaw(var)); }

        public void Set(string var, int value)
        {
            Check();
            int st = Native.Api.goap_agent_set(handle.Ptr, file.FindVarRaw(var), value);
            if (st != 0) throw Util.StatusError(st, "set " + var);
        }

        /// <summary>The current goal's id, -1 when none.</summary>
        public int GoalId { get { Check(); return Native.Api.goap_agent_goal(handle.Ptr); } }
        /// <summary>The running action's id, -1 when none.</summary>
        public int ActionId { get { Check(); return Native.Api.goap_agent_action(handle.Ptr); } }

        public string Goal { get { int g = GoalId; return g < 0 ? null : goalNames[g]; } }
        public string CurrentAction { get { int a = ActionId; return a < 0 ? null : actionNames[a]; } }

        /// <summary>The plan's action ids into buf (up to buf.Length); returns its length, and
        /// the index of the next (or running) step. No allocation.</summary>
        public int GetPlan(int[] buf, out int step)
        {
            Check();
            int n;
            IntPtr p = Native.Api.goap_agent_plan(handle.Ptr, out n, out step);
            if (p != IntPtr.Zero && buf != null) Marshal.Copy(p, buf, 0, Math.Min(n, buf.Length));
            return n;
        }

        public string[] Plan
        {
            get
            {
                int step;
                int n = GetPlan(null, out step);
                var ids = new int[n];
                GetPlan(ids, out step);
                var r = new string[n];
                for (int i = 0; i < n; i++) r[i] = actionNames[ids[i]];
                return r;
            }
        }

        public double PlanCost { get { Check(); return Native.Api.goap_agent_plan_cost(handle.Ptr); } }
        public bool IsPlanning { get { Check(); return Native.Api.goap_agent_is_planning(handle.Ptr) != 0; } }
        public double Time { get { Check(); return Native.Api.goap_agent_time(handle.Ptr); } }

        /// <summary>Drops the plan (stopping its action); plans again on the next update.</summary>
        public void Replan() { Check(); Native.Api.goap_agent_replan(handle.Ptr); }
        /// <summary>Replan, and forget goal failures and the goal-check timer.</summary>
        public void Reset() { Check(); Native.Api.goap_agent_reset(handle.Ptr); }

        /// <summary>An order: the goal with this priority (a squad's order).</summary>
        public void Order(int goal, double priority)
        {
            Check();
            int st = Native.Api.goap_agent_order(handle.Ptr, goal, priority);
            if (st != 0) throw Util.StatusError(st, "order " + goal);
        }

        public void Order(string goal, double priority) { Order(file.FindGoal(goal), priority); }
        public void ClearOrder() { Check(); Native.Api.goap_agent_clear_order(handle.Ptr); }
        /// <summary>The ordered goal's id, -1 when none.</summary>
        public int OrderedGoal { get { Check(); return Native.Api.goap_agent_ordered_goal(handle.Ptr); } }

        /// <summary>The agent's statistics (a copy; no allocation).</summary>
        public Native.AgentStats Stats { get { Check(); return Native.Api.goap_agent_get_stats(handle.Ptr); } }

        public unsafe ulong Replans(ReplanReason reason)
        {
            var s = Stats;
            int r = (int)reason;
            if (r < 0 || r >= 12) throw new ArgumentOutOfRangeException("reason");
            return s.Replans[r];
        }

        public ulong ReplansAfterFailures { get { return Replans(ReplanReason.ActionFailed); } }
        public ulong Plans { get { return Stats.Plans; } }

        /// <summary>The agent's whole runtime state (goap_agent_snapshot): a save game.
        /// Restore it into a new Agent of the same type, never updated.</summary>
        public byte[] Snapshot()
        {
            Check();
            IntPtr p = handle.Ptr;
            return Util.Snapshot((byte[] b, UIntPtr c, out UIntPtr n) => Native.Api.goap_agent_snapshot(p, b, c, out n), "snapshot");
        }

        /// <summary>Snapshot into the caller's buffer (no allocation): true and the size, or
        /// false with the size needed.</summary>
        public bool TrySnapshot(byte[] buf, out int size)
        {
            Check();
            UIntPtr n;
            int st = Native.Api.goap_agent_snapshot(handle.Ptr, buf, (UIntPtr)(buf == null ? 0 : buf.Length), out n);
            size = (int)n;
            if (st == (int)Status.BufferTooSmall) return false;
            if (st != 0) throw Util.StatusError(st, "snapshot");
            return true;
        }

        /// <summary>Restores a snapshot into this agent, which must never have been updated.
        /// A refusal throws GoapException with Status Truncated, VersionMismatch, Corrupt,
        /// DomainMismatch or InvalidOperation, libgoap's message and the Offset in data where
        /// the problem was found.</summary>
        public void Restore(byte[] data)
        {
            Check();
            if (data == null) throw new ArgumentNullException("data");
            Native.Error err;
            int st = Native.Api.goap_agent_restore(handle.Ptr, data, (UIntPtr)data.Length, out err);
            if (st != 0) throw Util.Error(ref err);
        }

        /// <summary>The agent's state as JSON (goap_agent_snapshot_json), for debugging.</summary>
        public string SnapshotJson()
        {
            Check();
            UIntPtr n;
            Native.Api.goap_agent_snapshot_json(handle.Ptr, null, UIntPtr.Zero, out n);
            var buf = new byte[(int)n + 1];
            int st = Native.Api.goap_agent_snapshot_json(handle.Ptr, buf, (UIntPtr)buf.Length, out n);
            if (st != 0) throw Util.StatusError(st, "snapshot_json");
            return System.Text.Encoding.UTF8.GetString(buf, 0, (int)n);
        }

        /// <summary>Destroys the agent (leaving its squad and world first); not allowed from
        /// inside one of its callbacks.</summary>
        public void Dispose()
        {
            if (updating) throw new GoapException(Status.InvalidOperation, "Agent disposed from one of its callbacks");
            if (handle == null || handle.IsClosed) return;
            if (world != null) world.Remove(this);
            if (squad != null) squad.Remove(this);
            handle.Dispose();
        }

        // ---- inspection (goap/inspect.h): what the agent is thinking, with names ----------
        string CondText(ref Native.Cond c)
        {
            var buf = new byte[256];
            NativeInspect.goap_format_cond(file.RawDomain, ref c, buf, (UIntPtr)256);
            return Util.FromUtf8(buf);
        }

        /// <summary>The goals, best first, with why each is (not) pursued.</summary>
        public GoalInspection[] InspectGoals()
        {
            Check();
            int n = NativeInspect.goap_agent_inspect_goals(handle, null, 0);
            var raw = new NativeInspect.GoalInfo[Math.Max(n, 1)];
            n = NativeInspect.goap_agent_inspect_goals(handle, raw, n);
            var res = new GoalInspection[n];
            for (int i = 0; i < n; i++)
                res[i] = new GoalInspection
                {
                    Goal = goalNames[raw[i].Goal], State = (GoalState)raw[i].State,
                    Priority = raw[i].Priority, Ordered = raw[i].Ordered != 0,
                    FailedCond = raw[i].FailedCond.Var >= 0 ? CondText(ref raw[i].FailedCond) : null,
                    FailedAt = raw[i].FailedAt,
                    FailStatus = raw[i].FailedAt >= 0 ? (Status)raw[i].FailStatus : Status.Ok,
                    RetryAt = raw[i].RetryAt
                };
            return res;
        }

        /// <summary>The current plan: each step's cost, state and the conditions it relies on.</summary>
        public PlanInspection InspectPlan()
        {
            Check();
            var info = new NativeInspect.PlanInfo();
            NativeInspect.goap_agent_inspect_plan(handle, ref info, null, 0, null, 0);
            var steps = new NativeInspect.PlanStepInfo[Math.Max(info.Length, 1)];
            var conds = new Native.Cond[Math.Max(info.CondCount, 1)];
            int st = NativeInspect.goap_agent_inspect_plan(handle, ref info, steps, info.Length, conds, info.CondCount);
            if (st != 0) throw Util.StatusError(st, "inspect plan");
            var res = new PlanInspection
            {
                Goal = info.Goal >= 0 ? goalNames[info.Goal] : null, Priority = info.Priority,
                Cost = info.Cost, Step = info.Step, Running = info.Running != 0,
                ActionTime = info.ActionTime, Planning = info.Planning != 0,
                Steps = new PlanStepInspection[info.Length]
            };
            for (int i = 0; i < info.Length; i++)
            {
                var relies = new string[steps[i].ReliesCount];
                for (int k = 0; k < relies.Length; k++) relies[k] = CondText(ref conds[steps[i].ReliesFirst + k]);
                res.Steps[i] = new PlanStepInspection
                {
                    Action = actionNames[steps[i].Action], Cost = steps[i].Cost,
                    State = (StepState)steps[i].State, Relies = relies, ReliesHold = steps[i].ReliesHold != 0
                };
            }
            return res;
        }

        /// <summary>The last replans, oldest first.</summary>
        public ReplanInspection[] InspectReplans()
        {
            Check();
            int n = NativeInspect.goap_agent_inspect_replans(handle, null, 0);
            var raw = new NativeInspect.ReplanInfo[Math.Max(n, 1)];
            n = NativeInspect.goap_agent_inspect_replans(handle, raw, n);
            var res = new ReplanInspection[n];
            for (int i = 0; i < n; i++)
                res[i] = new ReplanInspection
                {
                    Time = raw[i].Time, Reason = Util.FromUtf8(Native.Api.goap_replan_reason_name(raw[i].Reason)),
                    Status = (Status)raw[i].Status, Goal = raw[i].Goal >= 0 ? goalNames[raw[i].Goal] : null,
                    GoalsTried = raw[i].GoalsTried, Cached = raw[i].Cached != 0, PlanLength = raw[i].PlanLength,
                    Cost = raw[i].Cost, Expanded = raw[i].Expanded, Generated = raw[i].Generated,
                    SearchUs = raw[i].SearchUs
                };
            return res;
        }

        /// <summary>Failure memory: facts learnt from failed actions, goals in their cooldown.</summary>
        public FailureInspection[] InspectFailures()
        {
            Check();
            int n = NativeInspect.goap_agent_inspect_failures(handle, null, 0);
            var raw = new NativeInspect.FailureInfo[Math.Max(n, 1)];
            n = NativeInspect.goap_agent_inspect_failures(handle, raw, n);
            var res = new FailureInspection[n];
            for (int i = 0; i < n; i++)
                res[i] = new FailureInspection
                {
                    Goal = raw[i].Goal >= 0 ? goalNames[raw[i].Goal] : null,
                    Action = raw[i].Action >= 0 ? actionNames[raw[i].Action] : null,
                    Var = raw[i].Var >= 0 ? file.VarNameRaw(raw[i].Var) : null, Value = raw[i].Value,
                    Timeout = raw[i].Timeout != 0, Status = (Status)raw[i].Status,
                    Learnt = raw[i].Learnt, Expires = raw[i].Expires
                };
            return res;
        }
        // ---- end of inspection -------------------------------------------------------------
    }

    // ---- Blackboards ------------------------------------------------------------------------
    /// <summary>A slot or resource name encoded once: Get/Set with it allocate nothing.</summary>
    public sealed class BlackboardKey
    {
        public readonly string Name;
        internal readonly byte[] Utf8;
        public BlackboardKey(string name) { Name = name; Utf8 = Util.Utf8(name); }
    }

    /// <summary>Named integer slots and resources shared by the agents attached to it.</summary>
    public sealed class Blackboard : IDisposable
    {
        internal readonly BlackboardHandle Handle;

        public Blackboard()
        {
            Handle = new BlackboardHandle();
            var alloc = NativeMemory.Current();
            IntPtr p;
            int st = Native.Api.goap_blackboard_create(ref alloc, out p);
            if (st != 0) throw Util.StatusError(st, "blackboard");
            Handle.Set(p);
        }

        Blackboard(BlackboardHandle h) { Handle = h; }

        internal static Blackboard FromFile(GoapFile f)
        {
            var h = new BlackboardHandle();
            var alloc = NativeMemory.Current();
            IntPtr p;
            int st = Native.Api.goap_file_blackboard_create(f.RawFile, ref alloc, out p);
            if (st != 0) throw Util.StatusError(st, "blackboard");
            h.Set(p);
            return new Blackboard(h);
        }

        internal IntPtr Ptr { get { if (Handle.IsClosed) throw new ObjectDisposedException("Blackboard"); return Handle.Ptr; } }

        /// <summary>Agents attached to it keep it alive; it is freed after the last of them.</summary>
        public void Dispose() { Handle.Dispose(); }

        public BlackboardKey Key(string name) { return new BlackboardKey(name); }

        public void Set(BlackboardKey key, int value)
        {
            int st = Native.Api.goap_blackboard_set(Ptr, key.Utf8, value);
            if (st != 0) throw Util.StatusError(st, "blackboard set " + key.Name);
        }

        /// <summary>The slot's value; false when nobody created it.</summary>
        public bool TryGet(BlackboardKey key, out int value)
        {
            return Native.Api.goap_blackboard_get(Ptr, key.Utf8, out value) == 0;
        }

        public int Get(BlackboardKey key)
        {
            int v;
            if (!TryGet(key, out v)) throw new GoapException(Status.NotFound, "no blackboard slot '" + key.Name + "'");
            return v;
        }

        public void Set(string name, int value) { Set(new BlackboardKey(name), value); }
        public int Get(string name) { return Get(new BlackboardKey(name)); }

        /// <summary>Incremented by every write that changes a value.</summary>
        public ulong Version { get { return Native.Api.goap_blackboard_version(Ptr); } }

        public void AddResource(string name, int capacity)
        {
            int st = Native.Api.goap_blackboard_add_resource(Ptr, Util.Utf8(name), capacity);
            if (st != 0) throw Util.StatusError(st, "add resource " + name);
        }

        /// <summary>InvalidOperation (unchanged) below the units held now: reservations are
        /// never revoked behind an agent's back.</summary>
        public void SetCapacity(string name, int capacity)
        {
            int st = Native.Api.goap_blackboard_set_capacity(Ptr, Util.Utf8(name), capacity);
            if (st != 0) throw Util.StatusError(st, "set capacity " + name);
        }

        public void Resource(string name, out int held, out int capacity)
        {
            int st = Native.Api.goap_blackboard_resource(Ptr, Util.Utf8(name), out held, out capacity);
            if (st != 0) throw Util.StatusError(st, "resource " + name);
        }

        /// <summary>Who holds the resource: one entry per unit, oldest first.</summary>
        public Agent[] Holders(string name)
        {
            byte[] n = Util.Utf8(name);
            int count;
            int st = Native.Api.goap_blackboard_holders(Ptr, n, null, 0, out count);
            if (st != 0 && st != (int)Status.BufferTooSmall) throw Util.StatusError(st, "holders " + name);
            var ptrs = new IntPtr[Math.Max(count, 1)];
            st = Native.Api.goap_blackboard_holders(Ptr, n, ptrs, count, out count);
            if (st != 0) throw Util.StatusError(st, "holders " + name);
            var r = new Agent[count];
            for (int i = 0; i < count; i++) r[i] = ptrs[i] == IntPtr.Zero ? null : Agent.FromNative(ptrs[i]);
            return r;
        }

        public void ApplyResources(GoapFile file)
        {
            int st = Native.Api.goap_file_apply_resources(file.RawFile, Ptr);
            if (st != 0) throw Util.StatusError(st, "apply resources");
        }

        public byte[] Snapshot()
        {
            IntPtr p = Ptr;
            return Util.Snapshot((byte[] b, UIntPtr c, out UIntPtr n) => Native.Api.goap_blackboard_snapshot(p, b, c, out n), "blackboard snapshot");
        }

        /// <summary>Into a blackboard no agent is attached to yet (restore it first).</summary>
        public void Restore(byte[] data)
        {
            Native.Error err;
            int st = Native.Api.goap_blackboard_restore(Ptr, data, (UIntPtr)data.Length, out err);
            if (st != 0) throw Util.Error(ref err);
        }
    }

    // ---- Plan cache ------------------------------------------------------------------------------
    /// <summary>Plans keyed by (agent type, goal, start state), shared by the agents given it.</summary>
    public sealed class PlanCache : IDisposable
    {
        internal readonly PlanCacheHandle Handle;

        /// <param name="capacity">plans kept (0: 256), least recently used out</param>
        public PlanCache(int capacity = 0)
        {
            Handle = new PlanCacheHandle();
            var alloc = NativeMemory.Current();
            IntPtr p;
            int st = Native.Api.goap_plan_cache_create(ref alloc, capacity, out p);
            if (st != 0) throw Util.StatusError(st, "plan cache");
            Handle.Set(p);
        }

        internal IntPtr Ptr { get { if (Handle.IsClosed) throw new ObjectDisposedException("PlanCache"); return Handle.Ptr; } }
        public void Dispose() { Handle.Dispose(); }
        public void Clear() { Native.Api.goap_plan_cache_clear(Ptr); }
        public Native.PlanCacheStats Stats { get { return Native.Api.goap_plan_cache_get_stats(Ptr); } }
    }

    // ---- Squads ------------------------------------------------------------------------------------
    /// <summary>A squad coordinator (goap/squad.h): members are the caller's agents; the squad
    /// holds them (their native agents outlive it).</summary>
    public sealed class Squad : IDisposable
    {
        internal readonly SquadHandle Handle;
        readonly List<Agent> members = new List<Agent>();

        public Squad(string suppressGoal = null, string coverGoal = null, string advanceGoal = null,
                     string searchGoal = null, double orderPriority = 0)
        {
            byte[][] names = { Z(suppressGoal), Z(coverGoal), Z(advanceGoal), Z(searchGoal) };
            var hs = new GCHandle[4];
            Handle = new SquadHandle();
            try
            {
                for (int i = 0; i < 4; i++) if (names[i] != null) hs[i] = GCHandle.Alloc(names[i], GCHandleType.Pinned);
                var d = new Native.SquadDesc
                {
                    Allocator = NativeMemory.Current(), OrderPriority = orderPriority,
                    SuppressGoal = P(hs[0]), CoverGoal = P(hs[1]), AdvanceGoal = P(hs[2]), SearchGoal = P(hs[3])
                };
                IntPtr s;
                int st = Native.Api.goap_squad_create(ref d, out s);
                if (st != 0) throw Util.StatusError(st, "squad");
                Handle.Set(s);
            }
            finally { for (int i = 0; i < 4; i++) if (hs[i].IsAllocated) hs[i].Free(); }
        }

        static byte[] Z(string s) { return s == null ? null : Util.Utf8(s); }
        static IntPtr P(GCHandle h) { return h.IsAllocated ? h.AddrOfPinnedObject() : IntPtr.Zero; }

        IntPtr Ptr { get { if (Handle.IsClosed) throw new ObjectDisposedException("Squad"); return Handle.Ptr; } }

        /// <summary>Clears the orders it gave and lets go of the members.</summary>
        public void Dispose()
        {
            if (Handle.IsClosed) return;
            foreach (var m in members) m.squad = null;
            members.Clear();
            Handle.Dispose();
        }

        public void Add(Agent a)
        {
            if (a.squad != null && a.squad != this) throw new GoapException(Status.InvalidOperation, "the agent is in another squad");
            int st = Native.Api.goap_squad_add(Ptr, a.Ptr);
            if (st != 0) throw Util.StatusError(st, "squad add");
            Handle.Hold(a.Handle);
            members.Add(a);
            a.squad = this;
        }

        public void Remove(Agent a)
        {
            int st = Native.Api.goap_squad_remove(Ptr, a.Ptr);
            if (st != 0) throw Util.StatusError(st, "squad remove");
            members.Remove(a);
            a.squad = null;
            Handle.Drop(a.Handle);
        }

        public int Count { get { return Native.Api.goap_squad_size(Ptr); } }

        public Agent this[int index]
        {
            get
            {
                IntPtr p = Native.Api.goap_squad_member(Ptr, index);
                if (p == IntPtr.Zero) throw new ArgumentOutOfRangeException("index");
                return Agent.FromNative(p);
            }
        }

        /// <summary>Gives the behaviour's orders now (None clears every order).</summary>
        public void Order(SquadBehavior behavior)
        {
            int st = Native.Api.goap_squad_order(Ptr, (int)behavior);
            if (st != 0) throw Util.StatusError(st, "squad order");
        }

        /// <summary>Once per frame after the members' updates (moves OrderlyAdvance on).</summary>
        public void Update() { Native.Api.goap_squad_update(Ptr); }
        public SquadBehavior Current { get { return (SquadBehavior)Native.Api.goap_squad_current(Ptr); } }

        public byte[] Snapshot()
        {
            IntPtr p = Ptr;
            return Util.Snapshot((byte[] b, UIntPtr c, out UIntPtr n) => Native.Api.goap_squad_snapshot(p, b, c, out n), "squad snapshot");
        }

        /// <summary>Into a squad without members: gives it `members` (the restored agents, in
        /// the saved order) and what it knew (behaviour, phase, orders).</summary>
        public void Restore(byte[] data, Agent[] restoredMembers)
        {
            if (members.Count != 0) throw new GoapException(Status.InvalidOperation, "squad restore: the squad has members");
            var ptrs = new IntPtr[Math.Max(restoredMembers.Length, 1)];
            for (int i = 0; i < restoredMembers.Length; i++)
            {
                if (restoredMembers[i].squad != null) throw new GoapException(Status.InvalidOperation, "squad restore: an agent is in a squad");
                ptrs[i] = restoredMembers[i].Ptr;
            }
            Native.Error err;
            int st = Native.Api.goap_squad_restore(Ptr, data, (UIntPtr)data.Length, ptrs, restoredMembers.Length, out err);
            if (st != 0) throw Util.Error(ref err);
            foreach (var a in restoredMembers)
            {
                Handle.Hold(a.Handle);
                members.Add(a);
                a.squad = this;
            }
        }
    }

    // ---- Worlds --------------------------------------------------------------------------------------
    /// <summary>
    /// Updates many agents per frame under one planning budget (goap/world.h): priority first,
    /// then the longest waiting; start-phase jitter of timers; planners kept per lane. Lanes
    /// run one after another on the calling thread (no job system from C#). The world holds
    /// its agents (it is destroyed before them); an agent in a world is updated only by it.
    /// </summary>
    public sealed class World : IDisposable
    {
        internal readonly WorldHandle Handle;
        readonly List<Agent> agents = new List<Agent>();
        bool updating;

        /// <param name="lanes">1..1024 (0: 1)</param>
        /// <param name="seed">the phases of the agents' timers</param>
        /// <param name="agentShare">most expansions one agent spends per frame under a budget (0: 512)</param>
        public World(int lanes = 1, ulong seed = 0, bool noJitter = false, uint agentShare = 0, uint initialNodes = 0)
        {
            Handle = new WorldHandle();
            var d = new Native.WorldDesc
            {
                Allocator = NativeMemory.Current(), Lanes = lanes, Seed = seed, NoJitter = noJitter ? 1 : 0,
                AgentShare = agentShare, InitialNodes = initialNodes
            };
            IntPtr w;
            int st = Native.Api.goap_world_create(ref d, out w);
            if (st != 0) throw Util.StatusError(st, "world");
            Handle.Set(w);
        }

        IntPtr Ptr { get { if (Handle.IsClosed) throw new ObjectDisposedException("World"); return Handle.Ptr; } }

        /// <summary>Releases the agents (they can be updated by Agent.Update again).</summary>
        public void Dispose()
        {
            if (updating) throw new GoapException(Status.InvalidOperation, "World disposed during its update");
            if (Handle.IsClosed) return;
            foreach (var a in agents) a.world = null;
            agents.Clear();
            Handle.Dispose();
        }

        public void Add(Agent a, int lane = 0, double priority = 0)
        {
            if (a.world != null) throw new GoapException(Status.InvalidOperation, "the agent is in a world");
            int st = Native.Api.goap_world_add(Ptr, a.Ptr, lane, priority);
            if (st != 0) throw Util.StatusError(st, "world add");
            Handle.Hold(a.Handle);
            agents.Add(a);
            a.world = this;
        }

        public void Remove(Agent a)
        {
            if (updating) throw new GoapException(Status.InvalidOperation, "World.Remove during its update");
            int st = Native.Api.goap_world_remove(Ptr, a.Ptr);
            if (st != 0) throw Util.StatusError(st, "world remove");
            agents.Remove(a);
            a.world = null;
            Handle.Drop(a.Handle);
        }

        public void SetPriority(Agent a, double priority)
        {
            int st = Native.Api.goap_world_set_priority(Ptr, a.Ptr, priority);
            if (st != 0) throw Util.StatusError(st, "world priority");
        }

        public int Count { get { return Native.Api.goap_world_agent_count(Ptr); } }

        /// <summary>Updates every agent by dt with at most `expansions` node expansions of
        /// planning for all (0: each its type's budget). Rethrows the first callback exception.
        /// Allocates no managed memory.</summary>
        public Status Update(double dt, ulong expansions = 0)
        {
            IntPtr w = Ptr;
            if (updating) throw new GoapException(Status.InvalidOperation, "World.Update called from a callback");
            updating = true;
            int st;
            try { st = Native.Api.goap_world_update(w, dt, expansions); }
            finally { updating = false; }
            for (int i = 0; i < agents.Count; i++) agents[i].ThrowPending();
            if (st != 0) throw Util.StatusError(st, "world update");
            return Status.Ok;
        }

        public Native.WorldStats Stats { get { return Native.Api.goap_world_get_stats(Ptr); } }
    }

    // ---- Inspection (goap/inspect.h) -----------------------------------------------------------
    public enum GoalState { Current = 0, Candidate, Achieved, Invalid, Cooldown, NoPriority }
    public enum StepState { Done = 0, Running, Pending }

    public sealed class GoalInspection
    {
        public string Goal, FailedCond; public GoalState State; public double Priority, FailedAt, RetryAt;
        public bool Ordered; public Status FailStatus;
    }

    public sealed class PlanStepInspection
    {
        public string Action; public double Cost; public StepState State; public string[] Relies;
        public bool ReliesHold;
    }

    public sealed class PlanInspection
    {
        public string Goal; public double Priority, Cost, ActionTime; public int Step;
        public bool Running, Planning; public PlanStepInspection[] Steps;
    }

    public sealed class ReplanInspection
    {
        public double Time, Cost, SearchUs; public string Reason, Goal; public Status Status;
        public int GoalsTried, PlanLength; public bool Cached; public ulong Expanded, Generated;
    }

    public sealed class FailureInspection
    {
        public string Goal, Action, Var; public int Value; public bool Timeout; public Status Status;
        public double Learnt, Expires;
    }

    public static class NativeInspect
    {
        [StructLayout(LayoutKind.Sequential)]
        public struct GoalInfo
        {
            public int Goal, State; public double Priority; public int Ordered;
            public Native.Cond FailedCond; public double FailedAt; public int FailStatus; public double RetryAt;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct PlanStepInfo
        {
            public int Action; public double Cost; public int State, ReliesFirst, ReliesCount, ReliesHold;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct PlanInfo
        {
            public int Goal; public double Priority, Cost; public int Length, Step, Running;
            public double ActionTime; public int Planning, CondCount;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct ReplanInfo
        {
            public double Time; public int Reason, Status, Goal, GoalsTried, Cached, PlanLength;
            public double Cost; public ulong Expanded, Generated; public double SearchUs;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct FailureInfo
        {
            public int Goal, Action, Var, Value, Timeout, Status; public double Learnt, Expires;
        }

        const CallingConvention C = CallingConvention.Cdecl;
        [DllImport(Native.Api.Lib, CallingConvention = C)] public static extern int goap_agent_inspect_goals(AgentHandle a, [Out] GoalInfo[] info, int cap);
        [DllImport(Native.Api.Lib, CallingConvention = C)] public static extern int goap_agent_inspect_plan(AgentHandle a, ref PlanInfo info, [Out] PlanStepInfo[] steps, int stepCap, [Out] Native.Cond[] conds, int condCap);
        [DllImport(Native.Api.Lib, CallingConvention = C)] public static extern int goap_agent_inspect_replans(AgentHandle a, [Out] ReplanInfo[] info, int cap);
        [DllImport(Native.Api.Lib, CallingConvention = C)] public static extern int goap_agent_inspect_failures(AgentHandle a, [Out] FailureInfo[] info, int cap);
        [DllImport(Native.Api.Lib, CallingConvention = C)] public static extern UIntPtr goap_format_cond(IntPtr d, ref Native.Cond c, byte[] buf, UIntPtr cap);
    }
    // ---- end of inspection ---------------------------------------------------------------------
}
