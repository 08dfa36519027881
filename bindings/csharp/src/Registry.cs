// SPDX-License-Identifier: MIT OR Apache-2.0
// The lwc registry: algorithm names, kinds and sizes, as liblwc.so reports them.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Lwc
{
    public enum AlgorithmKind { Aead = 0, Hash = 1, Xof = 2, Cxof = 3, Mac = 4, Prf = 5 }

    /// <summary>One registered algorithm and its sizes in bytes (0 where not applicable).</summary>
    public sealed class AlgorithmInfo
    {
        public string Name { get; private set; }
        public AlgorithmKind Kind { get; private set; }
        public int KeySize { get; private set; }
        public int SecondKeySize { get; private set; }
        public int NonceSize { get; private set; }
        public int TagSize { get; private set; }
        public int MinTagSize { get; private set; }
        public int OutputSize { get; private set; }
        /// <summary>Longest output; 0 = unbounded (XOF, PRF).</summary>
        public int MaxOutputSize { get; private set; }
        /// <summary>True when the lwc file format (<see cref="LwcFile"/>) can use this AEAD.</summary>
        public bool StreamSupported { get; private set; }

        // The library's own copy of the name (static, NUL-terminated): passed to the C calls
        // without converting the string each time.
        internal readonly IntPtr NamePtr;

        internal AlgorithmInfo(string name, IntPtr namePtr, int kind)
        {
            Name = name;
            NamePtr = namePtr;
            Kind = (AlgorithmKind)kind;
            KeySize = (int)Native.lwc_keybytes(name);
            SecondKeySize = (int)Native.lwc_secondkeybytes(name);
            NonceSize = (int)Native.lwc_npubbytes(name);
            TagSize = (int)Native.lwc_abytes(name);
            MinTagSize = (int)Native.lwc_abytes_min(name);
            OutputSize = (int)Native.lwc_outputbytes(name);
            MaxOutputSize = (int)Native.lwc_outputbytes_max(name);
            StreamSupported = Kind == AlgorithmKind.Aead && Native.lwc_stream_algorithm_supported(name) == 1;
        }

        public override string ToString() { return Name; }
    }

    public static class Registry
    {
        static readonly object Gate = new object();
        static volatile Dictionary<string, AlgorithmInfo> byName;
        static AlgorithmInfo[] all;

        /// <summary>The version of the loaded liblwc.</summary>
        public static string NativeVersion
        {
            get { return Marshal.PtrToStringAnsi(Native.lwc_version_string()); }
        }

        static void Load()
        {
            if (byName != null) return;
            lock (Gate)
            {
                if (byName != null) return;
                var list = new List<AlgorithmInfo>();
                var map = new Dictionary<string, AlgorithmInfo>(StringComparer.Ordinal);
                ulong n = (ulong)Native.lwc_algorithm_count();
                for (ulong i = 0; i < n; i++)
                {
                    IntPtr p = Native.lwc_algorithm_name((UIntPtr)i);
                    string name = Marshal.PtrToStringAnsi(p);
                    var info = new AlgorithmInfo(name, p, Native.lwc_algorithm_kind(name));
                    list.Add(info);
                    map[name] = info;
                }
                all = list.ToArray();
                byName = map;
            }
        }

        /// <summary>Every registered algorithm, in registry order.</summary>
        public static IReadOnlyList<AlgorithmInfo> Algorithms
        {
            get { Load(); return all; }
        }

        /// <summary>The named algorithm; ArgumentException when the name is unknown.</summary>
        public static AlgorithmInfo Get(string name)
        {
            if (name == null) throw new ArgumentNullException("algorithm");
            Load();
            AlgorithmInfo info;
            if (!byName.TryGetValue(name, out info))
                throw new ArgumentException("unknown lwc algorithm '" + name + "'", "algorithm");
            return info;
        }

        public static bool TryGet(string name, out AlgorithmInfo info)
        {
            info = null;
            if (name == null) return false;
            Load();
            return byName.TryGetValue(name, out info);
        }

        static AlgorithmInfo last; // the last name looked up: the common case is one algorithm

        internal static AlgorithmInfo Require(string name, string paramName, AlgorithmKind kind)
        {
            var l = last;
            if (l != null && (object)l.Name == (object)name && l.Kind == kind) return l;
            var info = Require(name, paramName, new[] { kind });
            last = info;
            return info;
        }

        internal static AlgorithmInfo Require(string name, string paramName, params AlgorithmKind[] kinds)
        {
            if (name == null) throw new ArgumentNullException(paramName);
            var l = last;
            if (l != null && (object)l.Name == (object)name)
                foreach (var k in kinds)
                    if (k == l.Kind) return l;
            AlgorithmInfo info;
            if (!TryGet(name, out info))
                throw new ArgumentException("unknown lwc algorithm '" + name + "'", paramName);
            if (Array.IndexOf(kinds, info.Kind) < 0)
                throw new ArgumentException("'" + name + "' is a " + info.Kind.ToString().ToLowerInvariant() +
                    ", not a " + string.Join(" or ", Array.ConvertAll(kinds, k => k.ToString().ToLowerInvariant())),
                    paramName);
            last = info;
            return info;
        }

        /// <summary>The C# class name of a registry name: "ascon-aead128" -> "AsconAead128".</summary>
        public static string PascalCase(string name)
        {
            var sb = new System.Text.StringBuilder();
            bool up = true;
            foreach (char ch in name)
            {
                if (!char.IsLetterOrDigit(ch)) { up = true; continue; }
                sb.Append(up ? char.ToUpperInvariant(ch) : ch);
                up = false;
            }
            if (sb.Length == 0 || char.IsDigit(sb[0])) sb.Insert(0, '_');
            return sb.ToString();
        }
    }
}
