// Goap.cs -- libgoap for C# (.NET, Mono, Unity): P/Invoke over the goap_shared library.
//
// Drop this file into a Unity project (e.g. Assets/Plugins/Goap/) next to the native library
// (Assets/Plugins/x86_64/goap_shared.dll, libgoap_shared.so or libgoap_shared.dylib). It uses
// only APIs Unity's Mono and IL2CPP have: no LPUTF8Str marshalling (strings are converted to
// and from UTF-8 by hand), native callbacks are static methods marked MonoPInvokeCallback that
// find their object through a GCHandle, and struct arrays are blittable.
//
// Objects: GoapFile (a loaded .goap file and its domain), Planner, Agent (an NPC whose actions
// are C# delegates). Each owns a SafeHandle; Dispose() frees it, and any use afterwards throws
// ObjectDisposedException. An Agent or Planner keeps its file's native object alive (SafeHandle
// reference counting), so disposing the file first is safe. Errors throw GoapException, whose
// Message for file and condition errors is exactly what the goap CLI prints.
//
// Threads: an object is used by one thread at a time; a GoapFile may be read from many.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
#if UNITY_5_3_OR_NEWER
using AOT; // Unity's MonoPInvokeCallbackAttribute
#endif

namespace Goap
{
    /// <summary>goap_status of goap.h.</summary>
    public enum Status
    {
        Ok = 0, NoPlan, NodeLimit, TimeLimit, MemoryLimit, BufferTooSmall, InProgress, Partial,
        InvalidArgument, InvalidOperation, OutOfMemory, NotFound, Duplicate, TypeMismatch,
        OutOfRange, Conflict, TooLarge, ParseError, IoError,
        Truncated, VersionMismatch, Corrupt, DomainMismatch
    }

    public enum ActionState { Running = 0, Success = 1, Failure = 2 }

    public enum EventKind
    {
        Replan = 0, Goal, Plan, PlanFailed, Repair, ActionStart, ActionSuccess, ActionFailure,
        ActionStop, Memory, GoalDone, Idle, ReservationDenied
    }

    public enum Search { AStar = 0, Backward, WeightedAStar, Greedy }

    /// <summary>An error from libgoap: a status and, for diagnostics, where.</summary>
    public class GoapException : Exception
    {
        public Status Status { get; private set; }
        public string File { get; private set; }
        public int Line { get; private set; }
        public int Column { get; private set; }
        /// <summary>The diagnostic's message alone (Message is the CLI's whole text).</summary>
        public string Diagnostic { get; private set; }

        public GoapException(Status status, string message, string file = null, int line = 0,
                             int column = 0, string diagnostic = null) : base(message)
        {
            Status = status; File = file; Line = line; Column = column;
            Diagnostic = diagnostic ?? message;
        }

        public GoapException(Status status, string message, Exception inner) : base(message, inner)
        {
            Status = status; Diagnostic = message;
        }
    }

#if !UNITY_5_3_OR_NEWER
    /// <summary>Outside Unity: stands in for AOT.MonoPInvokeCallbackAttribute, which marks
    /// native callbacks for IL2CPP.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { }
    }
#endif

    // ---- Native layouts (checked against the compiler's by the tests) -------------------
    namespace Native
    {
        [StructLayout(LayoutKind.Sequential)] public struct Cond { public int Var, Op, Value; }
        [StructLayout(LayoutKind.Sequential)] public struct Effect { public int Var, Op, Value; }

        [StructLayout(LayoutKind.Sequential)]
        public struct Diag
        {
            public int Severity, Status;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 256)] public byte[] File;
            public int Line, Col;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 512)] public byte[] Message;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 512)] public byte[] Source;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct Scenario
        {
            public IntPtr Name; public int Line, Goal; public IntPtr Want; public int WantCount;
            public IntPtr Given; public int GivenCount; public uint Expect; public double ExpectCost;
            public IntPtr ExpectPlan; public int ExpectPlanLength;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct VarInfo
        {
            public IntPtr Name; public int Type, Lo, Hi, ValueCount, DefaultValue; public uint Flags;
            public int Word, Shift, Bits;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct Request
        {
            public IntPtr Start, Want; public int WantCount, Search, Heuristic; public double Weight;
            public uint MaxNodes; public double MaxMs; public IntPtr Host; public uint Flags;
            public IntPtr Costs, Symmetry;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct Stats
        {
            public ulong Expanded, Generated, Duplicates, Reopened; public uint Nodes;
            public int ActionsConsidered; public double TimeUs; public ulong Evaluated;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct Result
        {
            public int Status; public double Cost; public IntPtr Plan;
            public int PlanCapacity, PlanLength, Partial; public Stats Stats;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct ActionBinding
        {
            public int Disabled; public double CostScale; public IntPtr Start, Tick, Stop, User;
            public double Timeout; public IntPtr OnFail; public int OnFailCount;
            public IntPtr Watch; public int WatchCount;
            public IntPtr OnStart; public int OnStartCount; public IntPtr OnEnd; public int OnEndCount;
            public IntPtr Reserve; public int ReserveCount; public IntPtr Check, CheckUser;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct GoalBinding
        {
            public int Disabled; public IntPtr Priority, User, Valid; public int ValidCount;
            public IntPtr Watch; public int WatchCount; public double Cooldown;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct SensorDesc { public IntPtr Fn, User; public double Interval; }

        [StructLayout(LayoutKind.Sequential)]
        public struct AgentTypeDesc
        {
            public IntPtr AllocFn, AllocCtx, Name, Actions; public int ActionCount;
            public IntPtr Goals; public int GoalCount; public IntPtr Sensors; public int SensorCount;
            public double SwitchMargin, GoalCheckInterval, FailedGoalCooldown;
            public int Search, Heuristic; public uint MaxNodes, ExpansionsPerUpdate;
            public double PlanningMsPerUpdate; public uint PlannerInitialNodes;
            public IntPtr Htn; public int HtnRoot; public IntPtr HtnWatch; public int HtnWatchCount;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct AgentDesc
        {
            public IntPtr Type, AllocFn, AllocCtx, Memory, Host, Blackboard, Cache, Planner, OnEvent,
                EventUser;
            public int ReplanHistory;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct AgentEvent
        {
            public int Kind; public double Time; public int Reason, Goal; public double Priority;
            public int Action, Timeout; public IntPtr Plan; public int PlanLength; public double Cost;
            public int Cached, Skipped, Status, Var, OldValue, Value;
            public IntPtr Resource;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct AgentStats
        {
            public ulong Updates, Plans, PlanFailures;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 12)] public ulong[] Replans;
            public ulong Repairs, CacheHits, Expanded, ActionsStarted, ActionsSucceeded, ActionsFailed;
            public ulong ReservationsDenied;
            public UIntPtr MemoryBytes;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct SimOptions
        {
            public IntPtr AllocFn, AllocCtx, Bind, BindUser, OnEvent, EventUser, OnWorld, WorldUser;
            public double Until, Step;
            public IntPtr Recorder, Replayer;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct SimResult
        {
            public double Time; public int Idle, Replans; public AgentStats Stats;
            public int Expectations, Failed;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 256)] public byte[] Message;
            public int Line, Col;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct TraceEvent
        {
            public int Kind; public uint Node, Parent; public int Action;
            public double G, H, F; public IntPtr State;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct FileActionInfo
        {
            public IntPtr OnFail; public int OnFailCount; public IntPtr Watch; public int WatchCount;
            public double Timeout, Duration;
            public IntPtr OnStart; public int OnStartCount; public IntPtr OnEnd; public int OnEndCount;
            public IntPtr Reserve; public int ReserveCount;
        }

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void StartFn(IntPtr agent, int action, IntPtr user);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate int TickFn(IntPtr agent, int action, double dt, IntPtr user);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void EventFn(IntPtr agent, IntPtr ev, IntPtr user);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void WorldFn(int var, int oldValue, int value, double time, IntPtr user);

        /// <summary>The C functions. Strings go in as NUL-terminated UTF-8 byte arrays.</summary>
        public static class Api
        {
            public const string Lib = "goap_shared";
            const CallingConvention C = CallingConvention.Cdecl;

            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_version();
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_status_string(int s);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_status_name(int s);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_heuristic_from_name(byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_replan_reason_name(int r);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_domain_name(IntPtr d);
            [DllImport(Lib, CallingConvention = C)] public static extern UIntPtr goap_domain_state_words(IntPtr d);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_domain_var_count(IntPtr d);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_domain_find_var(IntPtr d, byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_domain_var_info(IntPtr d, int v, out VarInfo info);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_domain_action_count(IntPtr d);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_domain_find_action(IntPtr d, byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_domain_action_name(IntPtr d, int a);
            [DllImport(Lib, CallingConvention = C)] public static extern double goap_domain_action_cost(IntPtr d, int a);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_domain_goal_count(IntPtr d);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_domain_find_goal(IntPtr d, byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_domain_goal_name(IntPtr d, int g);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_domain_goal_want(IntPtr d, int g, out int count);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_state_init(IntPtr d, ulong[] state);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_state_assign(IntPtr d, ulong[] state, IntPtr eff, int count);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_state_assign(IntPtr d, ulong[] state, Effect[] eff, int count);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_planner_create(IntPtr d, IntPtr desc);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_planner_destroy(IntPtr p);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_plan(PlannerHandle p, ref Request req, ref Result res);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_plan_finish(PlannerHandle p, ref Result res);
            [DllImport(Lib, CallingConvention = C)] public static extern UIntPtr goap_diag_format(ref Diag diag, byte[] buf, UIntPtr cap);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_parse(byte[] name, byte[] text, UIntPtr length, IntPtr alloc, out IntPtr file, out Diag err);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_load(byte[] path, IntPtr alloc, out IntPtr file, out Diag err);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_file_destroy(IntPtr f);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_file_domain(GoapFileHandle f);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_scenario_count(GoapFileHandle f);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_file_scenario(GoapFileHandle f, int i);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_find_scenario(GoapFileHandle f, byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_parse_conds(IntPtr d, byte[] name, byte[] text, [Out] Cond[] outConds, int cap, out int count, out Diag err);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_parse_assignments(IntPtr d, byte[] name, byte[] text, [Out] Effect[] outEff, int cap, out int count, out Diag err);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_bindings(GoapFileHandle f, [In, Out] ActionBinding[] acts, int actionCount, [In, Out] GoalBinding[] goals, int goalCount);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_simulation_count(GoapFileHandle f);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_find_simulation(GoapFileHandle f, byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_file_simulation_name(GoapFileHandle f, int i);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_simulate(GoapFileHandle f, int sim, ref SimOptions opt, out SimResult res);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_type_create(IntPtr d, ref AgentTypeDesc desc, out IntPtr type, out IntPtr error);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_agent_type_destroy(IntPtr t);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_agent_create(ref AgentDesc desc);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_agent_destroy(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_update(AgentHandle a, double dt);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_set(AgentHandle a, int var, int value);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_get(AgentHandle a, int var);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_goal(AgentHandle a);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_action(AgentHandle a);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_agent_plan(AgentHandle a, out int length, out int step);
            [DllImport(Lib, CallingConvention = C)] public static extern AgentStats goap_agent_get_stats(AgentHandle a);
            // save games (goap/save.h)
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_snapshot(AgentHandle a, byte[] buf, UIntPtr cap, out UIntPtr size);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_restore(AgentHandle a, byte[] data, UIntPtr size, out IntPtr error);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_snapshot_json(AgentHandle a, byte[] buf, UIntPtr cap, out UIntPtr size);
        }
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

    // ---- Safe handles ---------------------------------------------------------------------
    public sealed class GoapFileHandle : SafeHandle
    {
        public GoapFileHandle() : base(IntPtr.Zero, true) { }
        internal GoapFileHandle(IntPtr p) : base(IntPtr.Zero, true) { SetHandle(p); }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { Native.Api.goap_file_destroy(handle); return true; }
    }

    public sealed class PlannerHandle : SafeHandle
    {
        public PlannerHandle() : base(IntPtr.Zero, true) { }
        internal PlannerHandle(IntPtr p) : base(IntPtr.Zero, true) { SetHandle(p); }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { Native.Api.goap_planner_destroy(handle); return true; }
    }

    /// <summary>An agent and its agent type, destroyed together (agent first).</summary>
    public sealed class AgentHandle : SafeHandle
    {
        internal IntPtr Type;
        public AgentHandle() : base(IntPtr.Zero, true) { }
        internal AgentHandle(IntPtr agent, IntPtr type) : base(IntPtr.Zero, true)
        {
            SetHandle(agent);
            Type = type;
        }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle()
        {
            Native.Api.goap_agent_destroy(handle);
            Native.Api.goap_agent_type_destroy(Type);
            return true;
        }
    }

    internal static class Util
    {
        public static byte[] Utf8(string s)
        {
            if (s == null) throw new ArgumentNullException("s");
            if (s.IndexOf('\0') >= 0) throw new ArgumentException("string contains a NUL character");
            byte[] b = Encoding.UTF8.GetBytes(s);
            byte[] z = new byte[b.Length + 1];
            Array.Copy(b, z, b.Length);
            return z;
        }

        public static string FromUtf8(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            int n = 0;
            while (Marshal.ReadByte(p, n) != 0) n++;
            byte[] b = new byte[n];
            Marshal.Copy(p, b, 0, n);
            return Encoding.UTF8.GetString(b);
        }

        public static string FromUtf8(byte[] b)
        {
            int n = Array.IndexOf(b, (byte)0);
            return Encoding.UTF8.GetString(b, 0, n < 0 ? b.Length : n);
        }

        public static GoapException DiagError(ref Native.Diag d)
        {
            byte[] buf = new byte[4096];
            Native.Api.goap_diag_format(ref d, buf, (UIntPtr)buf.Length);
            string text = FromUtf8(buf).TrimEnd('\n');
            return new GoapException((Status)d.Status, text, FromUtf8(d.File), d.Line, d.Col,
                                     FromUtf8(d.Message));
        }

        public static GoapException StatusError(int st, string what)
        {
            return new GoapException((Status)st, what + ": " + FromUtf8(Native.Api.goap_status_string(st)));
        }

        public static string StatusName(int st) { return FromUtf8(Native.Api.goap_status_name(st)); }
    }

    /// <summary>A plan: Status, action names, Cost, Expanded nodes, Partial.</summary>
    public sealed class PlanResult
    {
        public Status Status; public string[] Actions; public double Cost; public ulong Expanded;
        public bool Partial;
        public bool Ok { get { return Status == Status.Ok; } }
        public override string ToString()
        {
            return Status + " [" + string.Join(" ", Actions) + "] cost " + Cost;
        }
    }

    /// <summary>One step of an agent's timeline (goap_agent_event), with names.</summary>
    public sealed class AgentEvent
    {
        public EventKind Kind; public double Time; public string Reason, Goal, Action, Var;
        public string[] Plan = new string[0]; public double Cost; public int OldValue, Value;
        public Status Status;

        internal static AgentEvent From(GoapFile f, IntPtr p)
        {
            var ev = (Native.AgentEvent)Marshal.PtrToStructure(p, typeof(Native.AgentEvent));
            IntPtr d = f.RawDomain;
            var e = new AgentEvent();
            e.Kind = (EventKind)ev.Kind; e.Time = ev.Time; e.Cost = ev.Cost;
            e.Status = (Status)ev.Status; e.OldValue = ev.OldValue; e.Value = ev.Value;
            e.Reason = Util.FromUtf8(Native.Api.goap_replan_reason_name(ev.Reason));
            if (ev.Goal >= 0) e.Goal = Util.FromUtf8(Native.Api.goap_domain_goal_name(d, ev.Goal));
            if (ev.Action >= 0) e.Action = Util.FromUtf8(Native.Api.goap_domain_action_name(d, ev.Action));
            if (e.Kind == EventKind.Memory) e.Var = f.VarNameRaw(ev.Var);
            if (ev.Plan != IntPtr.Zero && ev.PlanLength > 0)
            {
                e.Plan = new string[ev.PlanLength];
                for (int i = 0; i < ev.PlanLength; i++)
                    e.Plan[i] = Util.FromUtf8(Native.Api.goap_domain_action_name(d, Marshal.ReadInt32(ev.Plan, 4 * i)));
            }
            return e;
        }

        public override string ToString()
        {
            return string.Format("{0,5:0.00} {1} {2}{3}", Time, Kind, Action ?? Goal ?? "",
                                 Kind == EventKind.Memory ? " " + Var + "=" + Value : "");
        }
    }

    /// <summary>What GoapFile.Simulate returns.</summary>
    public sealed class SimulationResult
    {
        public List<AgentEvent> Events = new List<AgentEvent>();
        public double Time; public bool Idle; public int Replans, Expectations, Failed;
        public string Message; public ulong ActionsFailed;
    }

    /// <summary>A loaded .goap file: its domain, scenarios and simulations.</summary>
    public sealed class GoapFile : IDisposable
    {
        internal readonly GoapFileHandle Handle;
        public string Name { get; private set; }

        GoapFile(IntPtr p, string name) { Handle = new GoapFileHandle(p); Name = name; }

        /// <summary>Reads and parses a file; GoapException with the CLI's text on error.</summary>
        public static GoapFile Load(string path)
        {
            IntPtr f;
            Native.Diag err;
            int st = Native.Api.goap_file_load(Util.Utf8(path), IntPtr.Zero, out f, out err);
            if (st != 0) throw Util.DiagError(ref err);
            return new GoapFile(f, path);
        }

        /// <summary>Parses .goap text; name is used in error messages.</summary>
        public static GoapFile Parse(string text, string name = "<string>")
        {
            byte[] data = Encoding.UTF8.GetBytes(text);
            IntPtr f;
            Native.Diag err;
            int st = Native.Api.goap_file_parse(Util.Utf8(name), data, (UIntPtr)data.Length, IntPtr.Zero, out f, out err);
            if (st != 0) throw Util.DiagError(ref err);
            return new GoapFile(f, name);
        }

        bool disposed;

        /// <summary>Frees the file, or, while agents or planners made on it live, lets the
        /// last of them free it. Using the file afterwards throws ObjectDisposedException.</summary>
        public void Dispose() { disposed = true; Handle.Dispose(); }

        internal void Check()
        {
            if (disposed || Handle.IsClosed) throw new ObjectDisposedException("GoapFile");
        }

        internal IntPtr DomainPtr { get { Check(); return Native.Api.goap_file_domain(Handle); } }

        // For agents and planners, which hold a reference on Handle: no disposed check (a
        // SafeHandle that is really released makes the call throw ObjectDisposedException).
        internal IntPtr RawDomain { get { return Native.Api.goap_file_domain(Handle); } }

        public string DomainName { get { return Util.FromUtf8(Native.Api.goap_domain_name(DomainPtr)); } }

        public string VarName(int v) { Check(); return VarNameRaw(v); }

        internal string VarNameRaw(int v)
        {
            Native.VarInfo info;
            if (Native.Api.goap_domain_var_info(RawDomain, v, out info) != 0)
                throw new GoapException(Status.InvalidArgument, "no variable " + v);
            return Util.FromUtf8(info.Name);
        }

        public string[] Vars
        {
            get
            {
                var r = new string[Native.Api.goap_domain_var_count(DomainPtr)];
                for (int i = 0; i < r.Length; i++) r[i] = VarName(i);
                return r;
            }
        }

        public string[] Actions
        {
            get
            {
                IntPtr d = DomainPtr;
                var r = new string[Native.Api.goap_domain_action_count(d)];
                for (int i = 0; i < r.Length; i++) r[i] = Util.FromUtf8(Native.Api.goap_domain_action_name(d, i));
                return r;
            }
        }

        public string[] Goals
        {
            get
            {
                IntPtr d = DomainPtr;
                var r = new string[Native.Api.goap_domain_goal_count(d)];
                for (int i = 0; i < r.Length; i++) r[i] = Util.FromUtf8(Native.Api.goap_domain_goal_name(d, i));
                return r;
            }
        }

        public string[] Scenarios
        {
            get
            {
                Check();
                var r = new string[Native.Api.goap_file_scenario_count(Handle)];
                for (int i = 0; i < r.Length; i++) r[i] = Util.FromUtf8(ScenarioAt(i).Name);
                return r;
            }
        }

        public string[] Simulations
        {
            get
            {
                Check();
                var r = new string[Native.Api.goap_file_simulation_count(Handle)];
                for (int i = 0; i < r.Length; i++) r[i] = Util.FromUtf8(Native.Api.goap_file_simulation_name(Handle, i));
                return r;
            }
        }

        internal Native.Scenario ScenarioAt(int i)
        {
            return (Native.Scenario)Marshal.PtrToStructure(Native.Api.goap_file_scenario(Handle, i), typeof(Native.Scenario));
        }

        internal Native.Scenario FindScenario(string name)
        {
            int i = Native.Api.goap_file_find_scenario(Handle, Util.Utf8(name));
            if (i < 0) throw new GoapException(Status.NotFound, "unknown scenario '" + name + "'");
            return ScenarioAt(i);
        }

        /// <summary>The scenario's expected cost (NaN when none) and plan (null when none).</summary>
        public double ScenarioExpectedCost(string name)
        {
            Check();
            var s = FindScenario(name);
            return (s.Expect & 1) != 0 ? s.ExpectCost : double.NaN;
        }

        public string[] ScenarioExpectedPlan(string name)
        {
            Check();
            var s = FindScenario(name);
            if ((s.Expect & 2) == 0) return null;
            var r = new string[s.ExpectPlanLength];
            for (int i = 0; i < r.Length; i++)
                r[i] = Util.FromUtf8(Native.Api.goap_domain_action_name(DomainPtr, Marshal.ReadInt32(s.ExpectPlan, 4 * i)));
            return r;
        }

        public int FindAction(string name)
        {
            int a = Native.Api.goap_domain_find_action(DomainPtr, Util.Utf8(name));
            if (a < 0) throw new GoapException(Status.NotFound, "unknown action '" + name + "'");
            return a;
        }

        public int FindVar(string name) { Check(); return FindVarRaw(name); }

        internal int FindVarRaw(string name)
        {
            int v = Native.Api.goap_domain_find_var(RawDomain, Util.Utf8(name));
            if (v < 0) throw new GoapException(Status.NotFound, "unknown variable '" + name + "'");
            return v;
        }

        internal Native.Cond[] ParseConds(string text, string name, out int count)
        {
            int cap = 16;
            for (;;)
            {
                var buf = new Native.Cond[cap];
                Native.Diag err;
                int st = Native.Api.goap_parse_conds(RawDomain, Util.Utf8(name), Util.Utf8(text), buf, cap, out count, out err);
                if (st == (int)Status.BufferTooSmall && cap < 65536) { cap = Math.Max(count, cap * 4); continue; }
                if (st != 0) throw Util.DiagError(ref err);
                return buf;
            }
        }

        internal Native.Effect[] ParseAssignments(string text, string name, out int count)
        {
            int cap = 16;
            for (;;)
            {
                var buf = new Native.Effect[cap];
                Native.Diag err;
                int st = Native.Api.goap_parse_assignments(RawDomain, Util.Utf8(name), Util.Utf8(text), buf, cap, out count, out err);
                if (st == (int)Status.BufferTooSmall && cap < 65536) { cap = Math.Max(count, cap * 4); continue; }
                if (st != 0) throw Util.DiagError(ref err);
                return buf;
            }
        }

        /// <summary>Plans a scenario of the file with a planner made for the call.</summary>
        public PlanResult PlanScenario(string scenario)
        {
            Check();
            using (var p = new Planner(this)) return p.PlanScenario(scenario);
        }

        /// <summary>Plans to `want` conditions (as on a want line) from the default state with
        /// `given` assignments.</summary>
        public PlanResult Plan(string want, string given = null)
        {
            Check();
            using (var p = new Planner(this)) return p.Plan(want, given);
        }

        [MonoPInvokeCallback(typeof(Native.EventFn))]
        static void SimEventThunk(IntPtr agent, IntPtr ev, IntPtr user)
        {
            try
            {
                var ctx = (SimContext)GCHandle.FromIntPtr(user).Target;
                ctx.Result.Events.Add(AgentEvent.From(ctx.File, ev));
            }
            catch (Exception) { /* never let an exception reach native frames */ }
        }
        static readonly Native.EventFn SimEventFn = SimEventThunk;

        sealed class SimContext { public GoapFile File; public SimulationResult Result; }

        /// <summary>Runs a simulation block of the file; returns its events and result.</summary>
        public SimulationResult Simulate(string name)
        {
            Check();
            int i = Native.Api.goap_file_find_simulation(Handle, Util.Utf8(name));
            if (i < 0) throw new GoapException(Status.NotFound, "unknown simulation '" + name + "'");
            var ctx = new SimContext { File = this, Result = new SimulationResult() };
            GCHandle gh = GCHandle.Alloc(ctx);
            try
            {
                var opt = new Native.SimOptions();
                opt.OnEvent = Marshal.GetFunctionPointerForDelegate(SimEventFn);
                opt.EventUser = GCHandle.ToIntPtr(gh);
                Native.SimResult res;
                int st = Native.Api.goap_file_simulate(Handle, i, ref opt, out res);
                if (st != 0) throw Util.StatusError(st, "simulate " + name);
                var r = ctx.Result;
                r.Time = res.Time; r.Idle = res.Idle != 0; r.Replans = res.Replans;
                r.Expectations = res.Expectations; r.Failed = res.Failed;
                r.Message = Util.FromUtf8(res.Message); r.ActionsFailed = res.Stats.ActionsFailed;
                return r;
            }
            finally { gh.Free(); }
        }
    }

    /// <summary>A planner for a file's domain (reuse it: it keeps its memory between plans).</summary>
    public sealed class Planner : IDisposable
    {
        readonly GoapFile file;
        readonly PlannerHandle handle;
        bool fileRef;

        public Planner(GoapFile file)
        {
            this.file = file;
            file.Check();
            file.Handle.DangerousAddRef(ref fileRef); // the domain lives as long as this planner
            IntPtr p = Native.Api.goap_planner_create(file.DomainPtr, IntPtr.Zero);
            if (p == IntPtr.Zero)
            {
                file.Handle.DangerousRelease();
                throw new GoapException(Status.OutOfMemory, "cannot create a planner");
            }
            handle = new PlannerHandle(p);
        }

        public void Dispose()
        {
            if (handle.IsClosed) return;
            handle.Dispose();
            if (fileRef) { file.Handle.DangerousRelease(); fileRef = false; }
        }

        void Check() { if (handle.IsClosed) throw new ObjectDisposedException("Planner"); }

        // The file's native object is alive as long as this planner (DangerousAddRef), even if
        // the GoapFile was disposed.
        IntPtr Domain { get { return Native.Api.goap_file_domain(file.Handle); } }

        public PlanResult PlanScenario(string scenario)
        {
            Check();
            var s = file.FindScenario(scenario);
            ulong[] start = NewState();
            if (Native.Api.goap_state_assign(Domain, start, s.Given, s.GivenCount) != 0)
                throw new GoapException(Status.OutOfRange, "scenario '" + scenario + "': given out of range");
            return Run(start, s.Want, s.WantCount);
        }

        public PlanResult Plan(string want, string given = null)
        {
            Check();
            int n;
            Native.Cond[] conds = file.ParseConds(want, "--want", out n);
            ulong[] start = NewState();
            if (given != null)
            {
                int m;
                Native.Effect[] eff = file.ParseAssignments(given, "--given", out m);
                int st = Native.Api.goap_state_assign(Domain, start, eff, m);
                if (st != 0) throw Util.StatusError(st, "--given");
            }
            GCHandle h = GCHandle.Alloc(conds, GCHandleType.Pinned);
            try { return Run(start, h.AddrOfPinnedObject(), n); }
            finally { h.Free(); }
        }

        ulong[] NewState()
        {
            var s = new ulong[Math.Max(1, (int)(uint)Native.Api.goap_domain_state_words(Domain))];
            Native.Api.goap_state_init(Domain, s);
            return s;
        }

        PlanResult Run(ulong[] start, IntPtr want, int wantCount)
        {
            GCHandle sh = GCHandle.Alloc(start, GCHandleType.Pinned);
            int[] buf = new int[64];
            GCHandle bh = GCHandle.Alloc(buf, GCHandleType.Pinned);
            try
            {
                var req = new Native.Request { Start = sh.AddrOfPinnedObject(), Want = want, WantCount = wantCount };
                var res = new Native.Result { Plan = bh.AddrOfPinnedObject(), PlanCapacity = buf.Length };
                int st = Native.Api.goap_plan(handle, ref req, ref res);
                if (res.PlanLength > res.PlanCapacity)
                {
                    bh.Free();
                    buf = new int[res.PlanLength];
                    bh = GCHandle.Alloc(buf, GCHandleType.Pinned);
                    res.Plan = bh.AddrOfPinnedObject();
                    res.PlanCapacity = buf.Length;
                    st = Native.Api.goap_plan_finish(handle, ref res);
                }
                if (st == (int)Status.InvalidArgument || st == (int)Status.OutOfMemory)
                    throw Util.StatusError(st, "plan");
                int n = (st == 0 || res.Partial != 0) ? Math.Min(res.PlanLength, res.PlanCapacity) : 0;
                var r = new PlanResult { Status = (Status)st, Cost = res.Cost, Expanded = res.Stats.Expanded,
                                         Partial = res.Partial != 0, Actions = new string[n] };
                for (int i = 0; i < n; i++) r.Actions[i] = Util.FromUtf8(Native.Api.goap_domain_action_name(Domain, buf[i]));
                return r;
            }
            finally { sh.Free(); bh.Free(); }
        }
    }

    /// <summary>An action's tick: return Running, Success or Failure.</summary>
    public delegate ActionState ActionTick(Agent agent, string action, double dt);

    /// <summary>
    /// An agent running the file's domain, with C# action callbacks. The file's on_fail,
    /// timeout, watch and valid lines apply. An exception thrown by a callback does not cross
    /// into native code: the action is marked failed (its on_fail memory is written) and the
    /// exception is rethrown by Update() once the native update has returned.
    /// </summary>
    public sealed class Agent : IDisposable
    {
        readonly GoapFile file;
        readonly AgentHandle handle;
        readonly Dictionary<int, ActionTick> ticks = new Dictionary<int, ActionTick>();
        readonly Action<Agent, AgentEvent> onEvent;
        readonly string[] actionNames, goalNames;
        GCHandle self;
        bool fileRef, updating;
        Exception pending;

        [MonoPInvokeCallback(typeof(Native.TickFn))]
        static int TickThunk(IntPtr agent, int action, double dt, IntPtr user)
        {
            Agent a = null;
            try
            {
                a = (Agent)GCHandle.FromIntPtr(user).Target;
                if (a == null) return (int)ActionState.Failure;
                ActionTick fn;
                if (!a.ticks.TryGetValue(action, out fn)) return (int)ActionState.Success;
                return (int)fn(a, a.actionNames[action], dt);
            }
            catch (Exception e)
            {
                if (a != null && a.pending == null) a.pending = e;
                return (int)ActionState.Failure;
            }
        }

        [MonoPInvokeCallback(typeof(Native.EventFn))]
        static void EventThunk(IntPtr agent, IntPtr ev, IntPtr user)
        {
            Agent a = null;
            try
            {
                a = (Agent)GCHandle.FromIntPtr(user).Target;
                if (a != null && a.onEvent != null) a.onEvent(a, AgentEvent.From(a.file, ev));
            }
            catch (Exception e)
            {
                if (a != null && a.pending == null) a.pending = e;
            }
        }

        // Static delegates: alive for the program's lifetime, as native code may call them.
        static readonly Native.TickFn TickFnDelegate = TickThunk;
        static readonly Native.EventFn EventFnDelegate = EventThunk;

        /// <param name="actions">action name -> tick; actions without one succeed at once.</param>
        /// <param name="memory">initial memory as assignments (`door_stuck, ammo = 2`), or null.</param>
        public Agent(GoapFile file, IDictionary<string, ActionTick> actions,
                     Action<Agent, AgentEvent> onEvent = null, string name = "agent",
                     string memory = null)
        {
            this.file = file;
            this.onEvent = onEvent;
            file.Check();
            actionNames = file.Actions;
            goalNames = file.Goals;
            if (actions != null)
                foreach (var kv in actions)
                {
                    if (kv.Value == null) throw new ArgumentNullException("actions[" + kv.Key + "]");
                    ticks[file.FindAction(kv.Key)] = kv.Value;
                }
            IntPtr d = file.DomainPtr;
            int na = actionNames.Length, ng = goalNames.Length;
            var acts = new Native.ActionBinding[Math.Max(na, 1)];
            var goals = new Native.GoalBinding[Math.Max(ng, 1)];
            int st = Native.Api.goap_file_bindings(file.Handle, acts, na, goals, ng);
            if (st != 0) throw Util.StatusError(st, "bindings");
            ulong[] mem = null;
            if (memory != null)
            {
                mem = new ulong[Math.Max(1, (int)(uint)Native.Api.goap_domain_state_words(d))];
                Native.Api.goap_state_init(d, mem);
                int n;
                var eff = file.ParseAssignments(memory, "memory", out n);
                st = Native.Api.goap_state_assign(d, mem, eff, n);
                if (st != 0) throw Util.StatusError(st, "memory");
            }
            // Weak: the native side does not keep the agent alive; callbacks only run inside
            // Update(), while the agent is reachable. Freed by Dispose.
            self = GCHandle.Alloc(this, GCHandleType.Weak);
            IntPtr user = GCHandle.ToIntPtr(self);
            IntPtr tick = Marshal.GetFunctionPointerForDelegate(TickFnDelegate);
            for (int i = 0; i < na; i++)
            {
                acts[i].User = user;
                if (ticks.ContainsKey(i)) acts[i].Tick = tick;
            }
            byte[] tname = Util.Utf8(name);
            GCHandle ah = GCHandle.Alloc(acts, GCHandleType.Pinned);
            GCHandle gh = GCHandle.Alloc(goals, GCHandleType.Pinned);
            GCHandle nh = GCHandle.Alloc(tname, GCHandleType.Pinned);
            GCHandle mh = mem != null ? GCHandle.Alloc(mem, GCHandleType.Pinned) : default(GCHandle);
            try
            {
                var td = new Native.AgentTypeDesc
                {
                    Name = nh.AddrOfPinnedObject(), Actions = ah.AddrOfPinnedObject(), ActionCount = na,
                    Goals = gh.AddrOfPinnedObject(), GoalCount = ng
                };
                IntPtr type, err;
                st = Native.Api.goap_agent_type_create(d, ref td, out type, out err);
                if (st != 0)
                    throw new GoapException((Status)st, "agent type: " + (Util.FromUtf8(err) ?? Util.StatusName(st)));
                var ad = new Native.AgentDesc { Type = type, Memory = mem != null ? mh.AddrOfPinnedObject() : IntPtr.Zero };
                if (onEvent != null)
                {
                    ad.OnEvent = Marshal.GetFunctionPointerForDelegate(EventFnDelegate);
                    ad.EventUser = user;
                }
                IntPtr agent = Native.Api.goap_agent_create(ref ad);
                if (agent == IntPtr.Zero)
                {
                    Native.Api.goap_agent_type_destroy(type);
                    throw new GoapException(Status.OutOfMemory, "cannot create the agent");
                }
                file.Handle.DangerousAddRef(ref fileRef); // the domain outlives the agent
                handle = new AgentHandle(agent, type);
            }
            catch
            {
                self.Free();
                throw;
            }
            finally
            {
                ah.Free(); gh.Free(); nh.Free();
                if (mh.IsAllocated) mh.Free();
            }
        }

        void Check()
        {
            if (handle.IsClosed) throw new ObjectDisposedException("Agent");
        }

        /// <summary>Advances the agent by dt seconds; rethrows a callback's exception.</summary>
        public Status Update(double dt)
        {
            Check();
            if (updating) throw new GoapException(Status.InvalidOperation, "Agent.Update called from one of its callbacks");
            updating = true;
            int st;
            try { st = Native.Api.goap_agent_update(handle, dt); }
            finally { updating = false; }
            if (pending != null)
            {
                Exception e = pending;
                pending = null;
                throw new GoapException(Status.InvalidOperation, "an action callback threw: " + e.Message, e);
            }
            if (st == (int)Status.InvalidArgument || st == (int)Status.OutOfMemory) throw Util.StatusError(st, "update");
            return (Status)st;
        }

        public int Get(string var) { Check(); return Native.Api.goap_agent_get(handle, file.FindVarRaw(var)); }

        public void Set(string var, int value)
        {
            Check();
            int st = Native.Api.goap_agent_set(handle, file.FindVarRaw(var), value);
            if (st != 0) throw Util.StatusError(st, "set " + var);
        }

        public string Goal
        {
            get { Check(); int g = Native.Api.goap_agent_goal(handle); return g < 0 ? null : goalNames[g]; }
        }

        public string CurrentAction
        {
            get { Check(); int a = Native.Api.goap_agent_action(handle); return a < 0 ? null : actionNames[a]; }
        }

        public ulong ReplansAfterFailures
        {
            get { Check(); return Native.Api.goap_agent_get_stats(handle).Replans[3]; }
        }

        public ulong Plans { get { Check(); return Native.Api.goap_agent_get_stats(handle).Plans; } }

        // ---- inspection (goap/inspect.h): what the agent is thinking, with names ----------
        string CondText(ref Native.Cond c)
        {
            var buf = new byte[256];
            NativeInspect.goap_format_cond(file.DomainPtr, ref c, buf, (UIntPtr)256);
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

        /// <summary>The agent's whole runtime state (goap_agent_snapshot): a save game.
        /// Restore it into a new Agent made the same way (same file, name and actions).</summary>
        public byte[] Snapshot()
        {
            Check();
            UIntPtr n;
            Native.Api.goap_agent_snapshot(handle, null, UIntPtr.Zero, out n);
            var buf = new byte[(int)n];
            int st = Native.Api.goap_agent_snapshot(handle, buf, n, out n);
            if (st != 0) throw Util.StatusError(st, "snapshot");
            return buf;
        }

        /// <summary>Restores a snapshot into this agent, which must never have been updated.
        /// A refusal throws GoapException with Status Truncated, VersionMismatch, Corrupt,
        /// DomainMismatch or InvalidOperation and libgoap's message.</summary>
        public void Restore(byte[] data)
        {
            Check();
            if (data == null) throw new ArgumentNullException("data");
            IntPtr why;
            int st = Native.Api.goap_agent_restore(handle, data, (UIntPtr)data.Length, out why);
            if (st != 0) throw new GoapException((Status)st, "restore: " + Util.FromUtf8(why));
        }

        /// <summary>The agent's state as JSON (goap_agent_snapshot_json: the fields of
        /// `goap simulate --json`), for debugging.</summary>
        public string SnapshotJson()
        {
            Check();
            UIntPtr n;
            Native.Api.goap_agent_snapshot_json(handle, null, UIntPtr.Zero, out n);
            var buf = new byte[(int)n + 1];
            int st = Native.Api.goap_agent_snapshot_json(handle, buf, (UIntPtr)buf.Length, out n);
            if (st != 0) throw Util.StatusError(st, "snapshot_json");
            return System.Text.Encoding.UTF8.GetString(buf, 0, (int)n);
        }

        /// <summary>Destroys the agent; not allowed from inside one of its callbacks.</summary>
        public void Dispose()
        {
            if (updating) throw new GoapException(Status.InvalidOperation, "Agent disposed from one of its callbacks");
            if (handle == null || handle.IsClosed) return;
            handle.Dispose();
            if (fileRef) { file.Handle.DangerousRelease(); fileRef = false; }
            if (self.IsAllocated) self.Free();
        }
    }
}
