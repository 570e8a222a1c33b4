// Checks the library name the binding was compiled with: every DllImport of the assembly
// names Goap.Native.Api.Lib, and that is the expected name (argument 1). Compiled with
// -define:GOAP_INTERNAL by run.sh and run alone ("__Internal": a call then fails to bind in
// mono, which has no libgoap linked in); the main tests call LibName.Check("goap_shared").
using System;
using System.Reflection;
using System.Runtime.InteropServices;

public static class LibName
{
    /// <summary>The number of DllImports checked; throws when one names another library.</summary>
    public static int Check(string expected)
    {
        if (Goap.Native.Api.Lib != expected)
            throw new Exception("Lib is " + Goap.Native.Api.Lib + ", expected " + expected);
        int n = 0;
        foreach (Type t in typeof(Goap.Native.Api).Assembly.GetTypes())
            foreach (MethodInfo m in t.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic))
            {
                if ((m.Attributes & MethodAttributes.PinvokeImpl) == 0) continue;
                var a = (DllImportAttribute)Attribute.GetCustomAttribute(m, typeof(DllImportAttribute));
                if (a == null) throw new Exception(m.Name + ": no DllImportAttribute");
                if (a.Value != expected) throw new Exception(m.Name + " imports from " + a.Value);
                n++;
            }
        if (n < 100) throw new Exception("only " + n + " DllImports found");
        return n;
    }

    public static int Main(string[] args)
    {
        int n = Check(args[0]);
        try
        {
            Goap.Native.Api.goap_version();
            Console.WriteLine("libname: goap_version bound in a process without libgoap");
            return 1;
        }
        catch (EntryPointNotFoundException) { }
        catch (DllNotFoundException) { }
        Console.WriteLine("libname: " + n + " DllImports name " + args[0]);
        return 0;
    }
}
