// Goap.cs -- libgoap for C# (.NET, Mono, Unity): P/Invoke over the goap_shared library.
// This file: the native layouts and functions, the safe handles, the native-memory counter,
// files and planners. GoapRuntime.cs: agent types, agents, blackboards, plan caches, squads,
// worlds, save games and inspection. Compile both, with unsafe code allowed (mcs -unsafe;
// Unity: "Allow 'unsafe' Code" or an asmdef with allowUnsafeCode).
//
// Drop both files into a Unity project (e.g. Assets/Plugins/Goap/) next to the native library
// (Assets/Plugins/x86_64/goap_shared.dll, libgoap_shared.so or libgoap_shared.dylib). They use
// only APIs Unity's Mono and IL2CPP have: no LPUTF8Str marshalling (strings are converted to
// and from UTF-8 by hand), native callbacks are static methods marked MonoPInvokeCallback that
// find their object through a GCHandle, and every struct passed to native code is blittable
// (fixed buffers, no ByValArray), so calls on the hot path allocate no managed memory.
//
// The library name is Native.Api.Lib: "goap_shared", or "__Internal" (the native code linked
// into the player) when GOAP_INTERNAL is defined, and in Unity on iOS and WebGL players.
//
// Lifetimes: each native object is owned by a SafeHandle; Dispose() frees it and any use
// afterwards throws ObjectDisposedException. A handle holds a reference on the handles its
// native object needs (an agent: its type, blackboard, plan cache and shared planner; a type:
// its file; a squad and a world: their agents), so native objects are always freed in the
// right order, by Dispose or by the finalizer of an object that was never disposed.
//
// Threads: an object is used by one thread at a time; a GoapFile may be read from many.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
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

    /// <summary>goap_replan_reason of agent.h.</summary>
    public enum ReplanReason
    {
        None = 0, Start, PlanDone, ActionFailed, Timeout, Preconditions, Watch, BetterGoal,
        GoalInvalid, Idle, Requested, Order
    }

    public enum Search { AStar = 0, Backward, WeightedAStar, Greedy }

    /// <summary>An error from libgoap, with the fields of the C goap_error (goap/goap.h):
    /// what went wrong (Status, ErrorMessage) and where (File, Line, Column in a text; Offset in
    /// a binary input such as a snapshot). Message is goap_error_format's whole text, the CLI's
    /// (`file:line:col: error: message`, the source line and a caret).</summary>
    public class GoapException : Exception
    {
        public Status Status { get; private set; }
        /// <summary>goap_error.message: the message alone, without position.</summary>
        public string ErrorMessage { get; private set; }
        /// <summary>The input's name ("" when it had none).</summary>
        public string File { get; private set; }
        /// <summary>1-based line and column in a text; 0 when not tied to one.</summary>
        public int Line { get; private set; }
        public int Column { get; private set; }
        /// <summary>Byte offset in a binary input (a snapshot) where the problem was found; 0 if none.</summary>
        public long Offset { get; private set; }

        public GoapException(Status status, string message, string file = "", int line = 0,
                             int column = 0, long offset = 0, string text = null)
            : base(text ?? message)
        {
            Status = status; ErrorMessage = message; File = file ?? ""; Line = line; Column = column;
            Offset = offset;
        }

        public GoapException(Status status, string message, Exception inner) : base(message, inner)
        {
            Status = status; ErrorMessage = message; File = "";
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

    // ---- Native layouts (every field offset checked against the compiler's by the tests) ------
    // All blittable: primitive fields, pointers as IntPtr, fixed buffers for C arrays. A field's
    // name is its C name in PascalCase (the layout test matches them so).
    namespace Native
    {
        [StructLayout(LayoutKind.Sequential)] public struct Allocator { public IntPtr Fn, Ctx; }
        [StructLayout(LayoutKind.Sequential)] public struct Cond { public int Var, Op, Value; }
        [StructLayout(LayoutKind.Sequential)] public struct Effect { public int Var, Op, Value; }

        [StructLayout(LayoutKind.Sequential)]
        public unsafe struct Error
        {
            public int Status, Severity;
            public fixed byte File[256];
            public int Line, Col;
            public UIntPtr Offset;
            public fixed byte Message[512];
            public fixed byte Source[512];
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct Scenario
        {
            public IntPtr Name; public int Line, Goal; public IntPtr Want; public int WantCount;
            public IntPtr Given; public int GivenCount; public uint Expect; public double ExpectCost;
            public IntPtr ExpectPlan; public int ExpectPlanLength, Task;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct VarInfo
        {
            public IntPtr Name; public int Type, Lo, Hi, ValueCount, DefaultValue; public uint Flags;
            public int Word, Shift, Bits;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct PlannerDesc
        {
            public Allocator Allocator; public uint InitialNodes, MaxNodes; public UIntPtr MaxMemory;
            public uint GoalCache;
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
            public Allocator Allocator; public IntPtr Name, Actions; public int ActionCount;
            public IntPtr Goals; public int GoalCount; public IntPtr Sensors; public int SensorCount;
            public double SwitchMargin, GoalCheckInterval, FailedGoalCooldown;
            public int Search, Heuristic; public uint MaxNodes, ExpansionsPerUpdate;
            public double PlanningMsPerUpdate; public uint PlannerInitialNodes;
            public IntPtr Htn; public int HtnRoot; public IntPtr HtnWatch; public int HtnWatchCount;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct AgentDesc
        {
            public IntPtr Type; public Allocator Allocator;
            public IntPtr Memory, Host, Blackboard, Cache, Planner, OnEvent, EventUser;
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
        public unsafe struct AgentStats
        {
            public ulong Updates, Plans, PlanFailures;
            public fixed ulong Replans[12];   // by ReplanReason
            public ulong Repairs, CacheHits, Expanded, ActionsStarted, ActionsSucceeded, ActionsFailed;
            public ulong ReservationsDenied;
            public UIntPtr MemoryBytes;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct PlanCacheStats { public ulong Hits, Misses, Stores, Evictions; public int Entries; }

        [StructLayout(LayoutKind.Sequential)]
        public struct SquadDesc
        {
            public Allocator Allocator; public IntPtr SuppressGoal, CoverGoal, AdvanceGoal, SearchGoal;
            public double OrderPriority;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct WorldDesc
        {
            public Allocator Allocator; public int Lanes; public IntPtr Parallel, ParallelUser;
            public ulong Seed; public int NoJitter; public uint InitialNodes, AgentShare;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct WorldStats
        {
            public ulong Frames, Expansions; public int Wanting, Served, MaxWait, Planners, Leased;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct SimOptions
        {
            public Allocator Allocator; public IntPtr Bind, BindUser, OnEvent, EventUser, OnWorld, WorldUser;
            public double Until, Step;
            public IntPtr Recorder, Replayer;
        }

        [StructLayout(LayoutKind.Sequential)]
        public unsafe struct SimResult
        {
            public double Time; public int Idle, Replans; public AgentStats Stats;
            public int Expectations, Failed;
            public fixed byte Message[256];
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
        public delegate IntPtr ReallocFn(IntPtr ctx, IntPtr ptr, UIntPtr oldSize, UIntPtr newSize);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void StartFn(IntPtr agent, int action, IntPtr user);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate int TickFn(IntPtr agent, int action, double dt, IntPtr user);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate int CheckFn(IntPtr agent, int action, IntPtr user);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate double PriorityFn(IntPtr agent, int goal, IntPtr user);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void SensorFn(IntPtr agent, IntPtr user);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void EventFn(IntPtr agent, IntPtr ev, IntPtr user);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void WorldFn(int var, int oldValue, int value, double time, IntPtr user);

        /// <summary>The C functions. Strings go in as NUL-terminated UTF-8 byte arrays.</summary>
        public static class Api
        {
            /// <summary>The native library every DllImport of the binding names (the only
            /// place it is written): "__Internal" for players that link libgoap statically
            /// (iOS, WebGL; or define GOAP_INTERNAL), else "goap_shared".</summary>
#if GOAP_INTERNAL || ((UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR)
            public const string Lib = "__Internal";
#else
            public const string Lib = "goap_shared";
#endif
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
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_state_get(IntPtr d, ulong[] state, int var);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_state_set(IntPtr d, ulong[] state, int var, int value);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_state_assign(IntPtr d, ulong[] state, IntPtr eff, int count);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_state_assign(IntPtr d, ulong[] state, Effect[] eff, int count);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_planner_create(IntPtr d, ref PlannerDesc desc, out IntPtr planner);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_planner_destroy(IntPtr p);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_plan(IntPtr p, ref Request req, ref Result res);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_plan_finish(IntPtr p, ref Result res);
            [DllImport(Lib, CallingConvention = C)] public static extern UIntPtr goap_error_format(ref Error err, byte[] buf, UIntPtr cap);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_parse(byte[] name, byte[] text, UIntPtr length, ref Allocator alloc, out IntPtr file, out Error err);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_load(byte[] path, ref Allocator alloc, out IntPtr file, out Error err);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_file_destroy(IntPtr f);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_file_domain(IntPtr f);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_scenario_count(IntPtr f);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_file_scenario(IntPtr f, int i);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_find_scenario(IntPtr f, byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_set_position(IntPtr f, int v, int value, double x, double y, double z);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_position(IntPtr f, int v, int value, out double x, out double y, out double z);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_domain_find_value(IntPtr d, int v, byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_domain_value_name(IntPtr d, int v, int value);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_parse_conds(IntPtr d, byte[] name, byte[] text, [Out] Cond[] outConds, int cap, out int count, out Error err);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_parse_assignments(IntPtr d, byte[] name, byte[] text, [Out] Effect[] outEff, int cap, out int count, out Error err);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_agent_bindings(IntPtr f, int type, [In, Out] ActionBinding[] acts, int actionCount, [In, Out] GoalBinding[] goals, int goalCount);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_agent_type_count(IntPtr f);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_file_agent_type_name(IntPtr f, int type);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_find_agent_type(IntPtr f, byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_agent_type_htn(IntPtr f, int type, out IntPtr watch, out int watchCount);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_file_htn(IntPtr f);
            [DllImport(Lib, CallingConvention = C)] public static extern double goap_file_switch_margin(IntPtr f, int type, int sim);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_blackboard_create(IntPtr f, ref Allocator alloc, out IntPtr bb);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_apply_resources(IntPtr f, IntPtr bb);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_simulation_count(IntPtr f);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_find_simulation(IntPtr f, byte[] name);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_file_simulation_name(IntPtr f, int i);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_file_simulate(IntPtr f, int sim, ref SimOptions opt, out SimResult res);
            // runtime (goap/agent.h)
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_type_create(IntPtr d, ref AgentTypeDesc desc, out IntPtr type, out Error err);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_agent_type_destroy(IntPtr t);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_create(ref AgentDesc desc, out IntPtr agent, out Error err);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_agent_destroy(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_agent_host(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_update(IntPtr a, double dt);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_set(IntPtr a, int var, int value);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_get(IntPtr a, int var);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_goal(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_action(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_agent_plan(IntPtr a, out int length, out int step);
            [DllImport(Lib, CallingConvention = C)] public static extern double goap_agent_plan_cost(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_is_planning(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern double goap_agent_time(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_agent_replan(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_agent_reset(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_order(IntPtr a, int goal, double priority);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_agent_clear_order(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_ordered_goal(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern AgentStats goap_agent_get_stats(IntPtr a);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_blackboard_create(ref Allocator alloc, out IntPtr bb);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_blackboard_destroy(IntPtr bb);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_blackboard_set(IntPtr bb, byte[] name, int value);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_blackboard_get(IntPtr bb, byte[] name, out int value);
            [DllImport(Lib, CallingConvention = C)] public static extern ulong goap_blackboard_version(IntPtr bb);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_blackboard_add_resource(IntPtr bb, byte[] name, int capacity);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_blackboard_set_capacity(IntPtr bb, byte[] name, int capacity);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_blackboard_resource(IntPtr bb, byte[] name, out int held, out int capacity);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_blackboard_holders(IntPtr bb, byte[] name, [Out] IntPtr[] agents, int cap, out int count);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_plan_cache_create(ref Allocator alloc, int capacity, out IntPtr cache);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_plan_cache_destroy(IntPtr c);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_plan_cache_clear(IntPtr c);
            [DllImport(Lib, CallingConvention = C)] public static extern PlanCacheStats goap_plan_cache_get_stats(IntPtr c);
            // squads (goap/squad.h)
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_squad_create(ref SquadDesc desc, out IntPtr squad);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_squad_destroy(IntPtr s);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_squad_add(IntPtr s, IntPtr agent);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_squad_remove(IntPtr s, IntPtr agent);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_squad_size(IntPtr s);
            [DllImport(Lib, CallingConvention = C)] public static extern IntPtr goap_squad_member(IntPtr s, int index);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_squad_order(IntPtr s, int behavior);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_squad_update(IntPtr s);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_squad_current(IntPtr s);
            // worlds (goap/world.h)
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_world_create(ref WorldDesc desc, out IntPtr world);
            [DllImport(Lib, CallingConvention = C)] public static extern void goap_world_destroy(IntPtr w);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_world_add(IntPtr w, IntPtr agent, int lane, double priority);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_world_remove(IntPtr w, IntPtr agent);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_world_set_priority(IntPtr w, IntPtr agent, double priority);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_world_agent_count(IntPtr w);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_world_update(IntPtr w, double dt, ulong expansions);
            [DllImport(Lib, CallingConvention = C)] public static extern WorldStats goap_world_get_stats(IntPtr w);
            // save games (goap/save.h)
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_snapshot(IntPtr a, byte[] buf, UIntPtr cap, out UIntPtr size);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_restore(IntPtr a, byte[] data, UIntPtr size, out Error err);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_agent_snapshot_json(IntPtr a, byte[] buf, UIntPtr cap, out UIntPtr size);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_blackboard_snapshot(IntPtr bb, byte[] buf, UIntPtr cap, out UIntPtr size);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_blackboard_restore(IntPtr bb, byte[] data, UIntPtr size, out Error err);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_squad_snapshot(IntPtr s, byte[] buf, UIntPtr cap, out UIntPtr size);
            [DllImport(Lib, CallingConvention = C)] public static extern int goap_squad_restore(IntPtr s, byte[] data, UIntPtr size, IntPtr[] members, int count, out Error err);
        }
    }

    // ---- Native memory: an optional counting allocator ------------------------------------
    /// <summary>
    /// With Track set, native objects created afterwards (files, planners, agent types,
    /// agents, blackboards, plan caches, squads, worlds) allocate through the binding
    /// (Marshal.AllocHGlobal), which counts the bytes and blocks they hold. Objects keep the
    /// allocator they were created with. LiveHandles counts the binding's native objects not
    /// yet freed (tracked or not). Use both to find leaks (a scene reload that does not give
    /// its memory back) and to budget memory per platform.
    /// </summary>
    public static class NativeMemory
    {
        static long bytes, blocks, handles;
        static volatile bool track;
        public static bool Track { get { return track; } set { track = value; } }
        public static long LiveBytes { get { return Interlocked.Read(ref bytes); } }
        public static long LiveBlocks { get { return Interlocked.Read(ref blocks); } }
        public static long LiveHandles { get { return Interlocked.Read(ref handles); } }

        internal static void HandleCreated() { Interlocked.Increment(ref handles); }
        internal static void HandleReleased() { Interlocked.Decrement(ref handles); }

        [MonoPInvokeCallback(typeof(Native.ReallocFn))]
        static IntPtr Realloc(IntPtr ctx, IntPtr ptr, UIntPtr oldSize, UIntPtr newSize)
        {
            try
            {
                long o = (long)(ulong)oldSize, n = (long)(ulong)newSize;
                if (n == 0)
                {
                    if (ptr != IntPtr.Zero)
                    {
                        Marshal.FreeHGlobal(ptr);
                        Interlocked.Add(ref bytes, -o);
                        Interlocked.Decrement(ref blocks);
                    }
                    return IntPtr.Zero;
                }
                if (ptr == IntPtr.Zero)
                {
                    IntPtr p = Marshal.AllocHGlobal((IntPtr)n);
                    Interlocked.Add(ref bytes, n);
                    Interlocked.Increment(ref blocks);
                    return p;
                }
                IntPtr q = Marshal.ReAllocHGlobal(ptr, (IntPtr)n);
                Interlocked.Add(ref bytes, n - o);
                return q;
            }
            catch (Exception) { return IntPtr.Zero; } // OutOfMemoryException: libgoap reports it
        }
        static readonly Native.ReallocFn ReallocDelegate = Realloc;
        static readonly IntPtr ReallocPtr = Marshal.GetFunctionPointerForDelegate(ReallocDelegate);

        /// <summary>The allocator for an object created now: the counter, or zero (libc).</summary>
        internal static Native.Allocator Current()
        {
            var a = new Native.Allocator();
            if (track) a.Fn = ReallocPtr;
            return a;
        }
    }

    // ---- Safe handles ---------------------------------------------------------------------
    /// <summary>A native object, and the handles it holds a reference on (released after it
    /// is destroyed: what it needs outlives it, whether it is disposed or finalized).</summary>
    public abstract class NativeHandle : SafeHandle
    {
        readonly List<SafeHandle> deps = new List<SafeHandle>();

        protected NativeHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        internal void Set(IntPtr p)
        {
            SetHandle(p);
            NativeMemory.HandleCreated();
        }

        /// <summary>Holds h until this handle is released (or Drop(h)).</summary>
        internal void Hold(SafeHandle h)
        {
            bool ok = false;
            h.DangerousAddRef(ref ok);
            lock (deps) deps.Add(h);
        }

        internal void Drop(SafeHandle h)
        {
            lock (deps) if (!deps.Remove(h)) return;
            h.DangerousRelease();
        }

        /// <summary>Releases every held handle: for a native object that was never created.</summary>
        internal void DropAll()
        {
            SafeHandle[] held;
            lock (deps) { held = deps.ToArray(); deps.Clear(); }
            for (int i = held.Length - 1; i >= 0; i--) held[i].DangerousRelease();
        }

        /// <summary>The pointer; valid while the handle is not closed (check first).</summary>
        internal IntPtr Ptr { get { return handle; } }

        protected abstract void Destroy(IntPtr p);

        protected override bool ReleaseHandle()
        {
            Destroy(handle);
            NativeMemory.HandleReleased();
            SafeHandle[] held;
            lock (deps) { held = deps.ToArray(); deps.Clear(); }
            for (int i = held.Length - 1; i >= 0; i--) held[i].DangerousRelease();
            return true;
        }
    }

    public sealed class GoapFileHandle : NativeHandle
    {
        protected override void Destroy(IntPtr p) { Native.Api.goap_file_destroy(p); }
    }

    public sealed class PlannerHandle : NativeHandle
    {
        protected override void Destroy(IntPtr p) { Native.Api.goap_planner_destroy(p); }
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

        public static unsafe string FromUtf8(byte* p, int cap)
        {
            int n = 0;
            while (n < cap && p[n] != 0) n++;
            var b = new byte[n];
            for (int i = 0; i < n; i++) b[i] = p[i];
            return Encoding.UTF8.GetString(b);
        }

        /// <summary>The exception of a filled goap_error.</summary>
        public static unsafe GoapException Error(ref Native.Error e)
        {
            byte[] buf = new byte[4096];
            Native.Api.goap_error_format(ref e, buf, (UIntPtr)buf.Length);
            string text = FromUtf8(buf).TrimEnd('\n');
            fixed (Native.Error* p = &e)
                return new GoapException((Status)e.Status, FromUtf8(p->Message, 512), FromUtf8(p->File, 256),
                                         e.Line, e.Col, (long)(ulong)e.Offset, text);
        }

        public static GoapException StatusError(int st, string what)
        {
            return new GoapException((Status)st, what + ": " + FromUtf8(Native.Api.goap_status_string(st)));
        }

        public static string StatusName(int st) { return FromUtf8(Native.Api.goap_status_name(st)); }

        /// <summary>Runs a snapshot function twice: for the size, then into a new array.</summary>
        public delegate int SnapshotFn(byte[] buf, UIntPtr cap, out UIntPtr size);
        public static byte[] Snapshot(SnapshotFn fn, string what)
        {
            UIntPtr n;
            fn(null, UIntPtr.Zero, out n);
            var buf = new byte[(int)n];
            int st = fn(buf, n, out n);
            if (st != 0) throw StatusError(st, what);
            return buf;
        }
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

    /// <summary>One step of an agent's timeline (goap_agent_event), with names. For a timeline
    /// without allocation, use AgentOptions.OnRawEvent (the native struct, ids).</summary>
    public sealed class AgentEvent
    {
        public EventKind Kind; public double Time; public string Reason, Goal, Action, Var, Resource;
        public string[] Plan = new string[0]; public double Cost; public int OldValue, Value;
        public Status Status;

        internal static unsafe AgentEvent From(GoapFile f, IntPtr p)
        {
            Native.AgentEvent ev = *(Native.AgentEvent*)p;
            IntPtr d = f.RawDomain;
            var e = new AgentEvent();
            e.Kind = (EventKind)ev.Kind; e.Time = ev.Time; e.Cost = ev.Cost;
            e.Status = (Status)ev.Status; e.OldValue = ev.OldValue; e.Value = ev.Value;
            e.Reason = Util.FromUtf8(Native.Api.goap_replan_reason_name(ev.Reason));
            if (ev.Goal >= 0) e.Goal = Util.FromUtf8(Native.Api.goap_domain_goal_name(d, ev.Goal));
            if (ev.Action >= 0) e.Action = Util.FromUtf8(Native.Api.goap_domain_action_name(d, ev.Action));
            if (e.Kind == EventKind.Memory) e.Var = f.VarNameRaw(ev.Var);
            if (ev.Resource != IntPtr.Zero) e.Resource = Util.FromUtf8(ev.Resource);
            if (ev.Plan != IntPtr.Zero && ev.PlanLength > 0)
            {
                e.Plan = new string[ev.PlanLength];
                int* plan = (int*)ev.Plan;
                for (int i = 0; i < ev.PlanLength; i++)
                    e.Plan[i] = Util.FromUtf8(Native.Api.goap_domain_action_name(d, plan[i]));
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
    /// <summary>A loaded .goap file: its domain, scenarios, simulations, agent types.</summary>
    public sealed class GoapFile : IDisposable
    {
        internal readonly GoapFileHandle Handle;
        readonly IntPtr domain;
        readonly Dictionary<string, int> varIds = new Dictionary<string, int>();
        readonly int stateWords;
        public string Name { get; private set; }

        GoapFile(GoapFileHandle h, string name)
        {
            Handle = h; Name = name;
            domain = Native.Api.goap_file_domain(h.Ptr);
            stateWords = Math.Max(1, (int)(uint)Native.Api.goap_domain_state_words(domain));
        }

        /// <summary>Reads and parses a file; GoapException with the CLI's text on error.</summary>
        public static GoapFile Load(string path)
        {
            IntPtr f;
            Native.Error err;
            var alloc = NativeMemory.Current();
            var h = new GoapFileHandle();
            int st = Native.Api.goap_file_load(Util.Utf8(path), ref alloc, out f, out err);
            if (st != 0) throw Util.Error(ref err);
            h.Set(f);
            return new GoapFile(h, path);
        }

        /// <summary>Parses .goap text; name is used in error messages.</summary>
        public static GoapFile Parse(string text, string name = "<string>")
        {
            byte[] data = Encoding.UTF8.GetBytes(text);
            IntPtr f;
            Native.Error err;
            var alloc = NativeMemory.Current();
            var h = new GoapFileHandle();
            int st = Native.Api.goap_file_parse(Util.Utf8(name), data, (UIntPtr)data.Length, ref alloc, out f, out err);
            if (st != 0) throw Util.Error(ref err);
            h.Set(f);
            return new GoapFile(h, name);
        }

        bool disposed;

        /// <summary>Frees the file, or, while agent types, agents or planners made on it live,
        /// lets the last of them free it. Using the file afterwards throws
        /// ObjectDisposedException. A file never disposed is freed by its finalizer, after them.</summary>
        public void Dispose() { disposed = true; Handle.Dispose(); }

        internal void Check()
        {
            if (disposed || Handle.IsClosed) throw new ObjectDisposedException("GoapFile");
        }

        internal IntPtr DomainPtr { get { Check(); return domain; } }

        // For agents and planners, which hold a reference on Handle: no disposed check.
        internal IntPtr RawDomain { get { return domain; } }
        internal IntPtr RawFile { get { return Handle.Ptr; } }

        public string DomainName { get { return Util.FromUtf8(Native.Api.goap_domain_name(DomainPtr)); } }

        /// <summary>Words of a state of the domain (the length of NewState's arrays).</summary>
        public int StateWords { get { return stateWords; } }

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

        /// <summary>The names of the file's `agent` blocks (agent types).</summary>
        public string[] AgentTypes
        {
            get
            {
                Check();
                var r = new string[Native.Api.goap_file_agent_type_count(RawFile)];
                for (int i = 0; i < r.Length; i++) r[i] = Util.FromUtf8(Native.Api.goap_file_agent_type_name(RawFile, i));
                return r;
            }
        }

        public string[] Scenarios
        {
            get
            {
                Check();
                var r = new string[Native.Api.goap_file_scenario_count(RawFile)];
                for (int i = 0; i < r.Length; i++) r[i] = Util.FromUtf8(ScenarioAt(i).Name);
                return r;
            }
        }

        public string[] Simulations
        {
            get
            {
                Check();
                var r = new string[Native.Api.goap_file_simulation_count(RawFile)];
                for (int i = 0; i < r.Length; i++) r[i] = Util.FromUtf8(Native.Api.goap_file_simulation_name(RawFile, i));
                return r;
            }
        }

        internal unsafe Native.Scenario ScenarioAt(int i)
        {
            return *(Native.Scenario*)Native.Api.goap_file_scenario(RawFile, i);
        }

        internal Native.Scenario FindScenario(string name)
        {
            int i = Native.Api.goap_file_find_scenario(RawFile, Util.Utf8(name));
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

        public int FindGoal(string name)
        {
            int g = Native.Api.goap_domain_find_goal(DomainPtr, Util.Utf8(name));
            if (g < 0) throw new GoapException(Status.NotFound, "unknown goal '" + name + "'");
            return g;
        }

        /// <summary>A variable's id (resolve names once; the id-based calls allocate nothing).</summary>
        public int FindVar(string name) { Check(); return FindVarRaw(name); }

        internal int FindVarRaw(string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            int v;
            lock (varIds)
                if (varIds.TryGetValue(name, out v)) return v;
            v = Native.Api.goap_domain_find_var(RawDomain, Util.Utf8(name));
            if (v < 0) throw new GoapException(Status.NotFound, "unknown variable '" + name + "'");
            lock (varIds) varIds[name] = v;
            return v;
        }

        /// <summary>The index of an enum value of variable v ("true"/"false" for bools).</summary>
        public int FindValue(int v, string name)
        {
            Check();
            if (name == null) throw new ArgumentNullException("name");
            string vn = VarNameRaw(v);
            int i = Native.Api.goap_domain_find_value(RawDomain, v, Util.Utf8(name));
            if (i < 0) throw new GoapException(Status.NotFound, "variable '" + vn + "' has no value '" + name + "'");
            return i;
        }

        /// <summary>Moves the point of value `value` of `v` (a `position` line, docs/format.md)
        /// that `cost distance(v)` reads; the next plans price distances from it. Throws
        /// GoapException: NotFound when the variable has no `position` line, OutOfRange for a
        /// bad value or a non-finite coordinate, InvalidArgument for a bad id. Not while an
        /// agent of this file is planning.</summary>
        public void SetPosition(int v, int value, double x, double y, double z = 0)
        {
            Check();
            int st = Native.Api.goap_file_set_position(RawFile, v, value, x, y, z);
            if (st != 0) throw PositionError(st, "SetPosition", v, value);
        }

        public void SetPosition(string v, string value, double x, double y, double z = 0)
        {
            int id = FindVar(v);
            SetPosition(id, FindValue(id, value), x, y, z);
        }

        /// <summary>The point of value `value` of `v`. Throws NotFound when it has none.</summary>
        public void Position(int v, int value, out double x, out double y, out double z)
        {
            Check();
            int st = Native.Api.goap_file_position(RawFile, v, value, out x, out y, out z);
            if (st != 0) throw PositionError(st, "Position", v, value);
        }

        public void Position(string v, string value, out double x, out double y, out double z)
        {
            int id = FindVar(v);
            Position(id, FindValue(id, value), out x, out y, out z);
        }

        GoapException PositionError(int st, string what, int v, int value)
        {
            if ((Status)st == Status.InvalidArgument)
                return new GoapException(Status.InvalidArgument, what + ": no variable " + v);
            string vn = VarNameRaw(v);
            IntPtr named = Native.Api.goap_domain_value_name(RawDomain, v, value);
            if ((Status)st == Status.OutOfRange && named == IntPtr.Zero)
                return new GoapException(Status.OutOfRange, what + ": variable '" + vn + "' has no value " + value);
            string name = vn + " = " + (named == IntPtr.Zero ? value.ToString() : Util.FromUtf8(named));
            if ((Status)st == Status.NotFound)
                return new GoapException(Status.NotFound, what + ": " + name + " has no position (no `position` line)");
            if ((Status)st == Status.OutOfRange)
                return new GoapException(Status.OutOfRange, what + ": " + name + ": a coordinate is not finite");
            return Util.StatusError(st, what + ": " + name);
        }

        /// <summary>A new state holding the domain's default values.</summary>
        public ulong[] NewState() { Check(); return NewStateRaw(); }

        internal ulong[] NewStateRaw()
        {
            var s = new ulong[stateWords];
            Native.Api.goap_state_init(RawDomain, s);
            return s;
        }

        public int StateGet(ulong[] state, int var) { Check(); return Native.Api.goap_state_get(RawDomain, state, var); }

        public void StateSet(ulong[] state, int var, int value)
        {
            Check();
            int st = Native.Api.goap_state_set(RawDomain, state, var, value);
            if (st != 0) throw Util.StatusError(st, "state set " + var);
        }

        /// <summary>Applies assignments as on a `given` line (`door_stuck, ammo = 2`).</summary>
        public void Assign(ulong[] state, string assignments) { Check(); Assign(state, assignments, "--given"); }

        internal void Assign(ulong[] state, string assignments, string name)
        {
            int m;
            Native.Effect[] eff = ParseAssignments(assignments, name, out m);
            int st = Native.Api.goap_state_assign(RawDomain, state, eff, m);
            if (st != 0) throw Util.StatusError(st, name);
        }

        /// <summary>Conditions as on a `want` line (`target_dead, ammo >= 2`), for Planner.Plan.</summary>
        public Native.Cond[] Conditions(string want)
        {
            int n;
            var c = ParseConds(want, "--want", out n);
            var r = new Native.Cond[n];
            Array.Copy(c, r, n);
            return r;
        }

        internal Native.Cond[] ParseConds(string text, string name, out int count)
        {
            int cap = 16;
            for (;;)
            {
                var buf = new Native.Cond[cap];
                Native.Error err;
                int st = Native.Api.goap_parse_conds(RawDomain, Util.Utf8(name), Util.Utf8(text), buf, cap, out count, out err);
                if (st == (int)Status.BufferTooSmall && cap < 65536) { cap = Math.Max(count, cap * 4); continue; }
                if (st != 0) throw Util.Error(ref err);
                return buf;
            }
        }

        internal Native.Effect[] ParseAssignments(string text, string name, out int count)
        {
            int cap = 16;
            for (;;)
            {
                var buf = new Native.Effect[cap];
                Native.Error err;
                int st = Native.Api.goap_parse_assignments(RawDomain, Util.Utf8(name), Util.Utf8(text), buf, cap, out count, out err);
                if (st == (int)Status.BufferTooSmall && cap < 65536) { cap = Math.Max(count, cap * 4); continue; }
                if (st != 0) throw Util.Error(ref err);
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

        /// <summary>A blackboard holding the file's `resource NAME capacity N` lines.</summary>
        public Blackboard CreateBlackboard()
        {
            Check();
            return Blackboard.FromFile(this);
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
        public unsafe SimulationResult Simulate(string name)
        {
            Check();
            int i = Native.Api.goap_file_find_simulation(RawFile, Util.Utf8(name));
            if (i < 0) throw new GoapException(Status.NotFound, "unknown simulation '" + name + "'");
            var ctx = new SimContext { File = this, Result = new SimulationResult() };
            GCHandle gh = GCHandle.Alloc(ctx);
            try
            {
                var opt = new Native.SimOptions();
                opt.OnEvent = Marshal.GetFunctionPointerForDelegate(SimEventFn);
                opt.EventUser = GCHandle.ToIntPtr(gh);
                Native.SimResult res;
                int st = Native.Api.goap_file_simulate(RawFile, i, ref opt, out res);
                if (st != 0) throw Util.StatusError(st, "simulate " + name);
                var r = ctx.Result;
                r.Time = res.Time; r.Idle = res.Idle != 0; r.Replans = res.Replans;
                r.Expectations = res.Expectations; r.Failed = res.Failed;
                r.Message = Util.FromUtf8(res.Message, 256); r.ActionsFailed = res.Stats.ActionsFailed;
                return r;
            }
            finally { gh.Free(); }
        }
    }

    /// <summary>A planner for a file's domain (reuse it: it keeps its memory between plans).
    /// Also the shared planner of agents (AgentOptions.Planner).</summary>
    public sealed class Planner : IDisposable
    {
        readonly GoapFile file;
        internal readonly PlannerHandle Handle;

        /// <param name="initialNodes">nodes reserved at creation (0: 1024)</param>
        public Planner(GoapFile file, uint initialNodes = 0)
        {
            this.file = file;
            file.Check();
            var desc = new Native.PlannerDesc { Allocator = NativeMemory.Current(), InitialNodes = initialNodes };
            Handle = new PlannerHandle();
            Handle.Hold(file.Handle); // the domain lives as long as this planner
            IntPtr p;
            int st = Native.Api.goap_planner_create(file.RawDomain, ref desc, out p);
            if (st != 0)
            {
                Handle.DropAll();
                throw Util.StatusError(st, "planner");
            }
            Handle.Set(p);
        }

        public GoapFile File { get { return file; } }

        public void Dispose() { Handle.Dispose(); }

        void Check() { if (Handle.IsClosed) throw new ObjectDisposedException("Planner"); }

        // The file's native object is alive as long as this planner (Hold), even if the
        // GoapFile was disposed.
        IntPtr Domain { get { return file.RawDomain; } }

        public PlanResult PlanScenario(string scenario)
        {
            Check();
            var s = file.FindScenario(scenario);
            ulong[] start = file.NewStateRaw();
            if (Native.Api.goap_state_assign(Domain, start, s.Given, s.GivenCount) != 0)
                throw new GoapException(Status.OutOfRange, "scenario '" + scenario + "': given out of range");
            return Run(start, s.Want, s.WantCount);
        }

        public PlanResult Plan(string want, string given = null)
        {
            Check();
            Native.Cond[] conds = file.Conditions(want);
            ulong[] start = file.NewStateRaw();
            if (given != null) file.Assign(start, given, "--given");
            GCHandle h = GCHandle.Alloc(conds, GCHandleType.Pinned);
            try { return Run(start, h.AddrOfPinnedObject(), conds.Length); }
            finally { h.Free(); }
        }

        PlanResult Run(ulong[] start, IntPtr want, int wantCount)
        {
            int[] buf = new int[64];
            int n; double cost; Native.Stats stats; bool partial;
            int st = Raw(start, want, wantCount, ref buf, out n, out cost, out stats, out partial);
            var r = new PlanResult { Status = (Status)st, Cost = cost, Expanded = stats.Expanded,
                                     Partial = partial, Actions = new string[n] };
            for (int i = 0; i < n; i++) r.Actions[i] = Util.FromUtf8(Native.Api.goap_domain_action_name(Domain, buf[i]));
            return r;
        }

        unsafe int Raw(ulong[] start, IntPtr want, int wantCount, ref int[] buf, out int n,
                       out double cost, out Native.Stats stats, out bool partial)
        {
            int st;
            var res = new Native.Result();
            fixed (ulong* s = start)
            fixed (int* b = buf)
            {
                var req = new Native.Request { Start = (IntPtr)s, Want = want, WantCount = wantCount };
                res.Plan = (IntPtr)b;
                res.PlanCapacity = buf.Length;
                st = Native.Api.goap_plan(Handle.Ptr, ref req, ref res);
            }
            if (res.PlanLength > res.PlanCapacity && st == (int)Status.BufferTooSmall)
            {
                buf = new int[res.PlanLength];
                fixed (int* b = buf)
                {
                    res.Plan = (IntPtr)b;
                    res.PlanCapacity = buf.Length;
                    st = Native.Api.goap_plan_finish(Handle.Ptr, ref res);
                }
            }
            if (st == (int)Status.InvalidArgument || st == (int)Status.OutOfMemory)
                throw Util.StatusError(st, "plan");
            n = (st == 0 || res.Partial != 0) ? Math.Min(res.PlanLength, res.PlanCapacity) : 0;
            cost = res.Cost; stats = res.Stats; partial = res.Partial != 0;
            return st;
        }

        /// <summary>
        /// The hot-path plan: ids in, ids out, no managed allocation. start: a state of the
        /// domain (GoapFile.NewState), want[0..wantCount) conditions (GoapFile.Conditions),
        /// plan: the caller's buffer for action ids. Returns Ok (length actions written, or
        /// BufferTooSmall with length the size needed), NoPlan, NodeLimit, ...; throws only on
        /// a bad argument.
        /// </summary>
        public unsafe Status Plan(ulong[] start, Native.Cond[] want, int wantCount, int[] plan,
                                  out int length, out double cost)
        {
            Check();
            if (start == null || want == null || plan == null) throw new ArgumentNullException();
            if (wantCount < 0 || wantCount > want.Length) throw new ArgumentOutOfRangeException("wantCount");
            fixed (Native.Cond* w = want) return PlanPtr(start, (IntPtr)w, wantCount, plan, out length, out cost);
        }

        /// <summary>The hot-path plan for one of the domain's goals (by id).</summary>
        public Status PlanGoal(ulong[] start, int goal, int[] plan, out int length, out double cost)
        {
            Check();
            if (start == null || plan == null) throw new ArgumentNullException();
            int n;
            IntPtr want = Native.Api.goap_domain_goal_want(Domain, goal, out n);
            if (want == IntPtr.Zero && n == 0 && (goal < 0 || goal >= Native.Api.goap_domain_goal_count(Domain)))
                throw new ArgumentOutOfRangeException("goal");
            return PlanPtr(start, want, n, plan, out length, out cost);
        }

        unsafe Status PlanPtr(ulong[] start, IntPtr want, int n, int[] plan, out int length, out double cost)
        {
            if (start.Length < file.StateWords) throw new ArgumentException("start: not a state of the domain");
            var res = new Native.Result();
            int st;
            fixed (ulong* s = start)
            fixed (int* b = plan)
            {
                var req = new Native.Request { Start = (IntPtr)s, Want = want, WantCount = n };
                res.Plan = (IntPtr)b;
                res.PlanCapacity = plan.Length;
                st = Native.Api.goap_plan(Handle.Ptr, ref req, ref res);
            }
            if (st == (int)Status.InvalidArgument || st == (int)Status.OutOfMemory)
                throw Util.StatusError(st, "plan");
            length = res.PlanLength;
            cost = res.Cost;
            return (Status)st;
        }
    }
}
