// SPDX-License-Identifier: MIT OR Apache-2.0
// The temporary file of LwcFile.Decrypt: owner-only (0600) and nameless from the start, on both
// ways it is made (O_TMPFILE and mkstemp), even under umask 0; large files that fail late leave
// no output, no descriptor and no file behind.
using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using Lwc;

static partial class Tests
{
    [DllImport("libc")] static extern int umask(int mask);

    static string Sh(string command)
    {
        var psi = new ProcessStartInfo("/bin/sh", "-c \"" + command + "\"")
        { UseShellExecute = false, RedirectStandardOutput = true };
        using (var p = Process.Start(psi))
        {
            string o = p.StandardOutput.ReadToEnd();
            p.WaitForExit();
            return o.Trim();
        }
    }

    static readonly Type SpillType = typeof(LwcFile).Assembly.GetType("Lwc.SpillFile");

    static string SpillMethod
    {
        get { return (string)SpillType.GetField("LastMethod", BindingFlags.NonPublic | BindingFlags.Static).GetValue(null); }
        set { SpillType.GetField("LastMethod", BindingFlags.NonPublic | BindingFlags.Static).SetValue(null, value); }
    }

    static int OpenDescriptors() { return Directory.GetFileSystemEntries("/proc/self/fd").Length; }

    static string[] SpillNames()
    {
        return Directory.GetFiles(Path.GetTempPath(), "lwc-spill-*").Concat(
            Directory.GetFiles(Path.GetTempPath(), "lwc-*.tmp")).ToArray();
    }

    static void Spill()
    {
        if (!RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
        {
            Console.WriteLine("spill: not Linux, mode checks skipped");
            return;
        }
        var open = SpillType.GetMethod("Open", BindingFlags.NonPublic | BindingFlags.Static);
        int pid = Process.GetCurrentProcess().Id;
        // Under umask 0 a file created with the default permissions would be 0666 (0644 under the
        // usual 022): only an explicit 0600 passes.
        int oldMask = umask(0);
        try
        {
            foreach (bool useTmpFile in new[] { true, false })
            {
                var before = SpillNames();
                var s = (Stream)open.Invoke(null, new object[] { useTmpFile });
                try
                {
                    string how = SpillMethod;
                    Check(how == (useTmpFile ? "O_TMPFILE" : "mkstemp"), "spill made by " + how);
                    var prop = s.GetType().GetProperty("Descriptor", BindingFlags.NonPublic | BindingFlags.Instance);
                    Check(prop != null, how + ": a " + s.GetType().Name + ", not a DescriptorStream");
                    if (prop == null) continue;
                    string link = "/proc/" + pid + "/fd/" + (int)prop.GetValue(s, null);
                    // %a: permission bits; %h: number of names (0: nothing can open it by a path).
                    string st = Sh("stat -L -c '%a %h' " + link);
                    Check(st == "600 0", how + ": mode and links '" + st + "', want '600 0'");
                    string target = Sh("readlink " + link);
                    Check(target.EndsWith("(deleted)"), how + ": no name (" + target + ")");
                    Check(!SpillNames().Except(before).Any(), how + ": no file left in the temp directory");
                    var data = new byte[200003];
                    new Random(7).NextBytes(data);
                    s.Write(data, 0, 100000);
                    s.Write(data, 100000, data.Length - 100000);
                    Check(s.Length == data.Length && s.Position == data.Length, how + ": length");
                    s.Position = 0;
                    var back = new byte[data.Length];
                    int got = 0, n;
                    while ((n = s.Read(back, got, Math.Min(65536, back.Length - got))) > 0) got += n;
                    Check(got == data.Length && Eq(back, data), how + ": reads back what was written");
                    Check(s.Read(back, 0, 10) == 0, how + ": end of file");
                }
                finally { s.Dispose(); }
            }
        }
        finally { umask(oldMask); }

        // Decrypt beyond 4 MiB spills; failures late in the file release nothing and leave no
        // descriptor open. liblwc's stream hands out plaintext in batches (4 MiB each with the
        // default threads here) and lags its input by up to two of them, hence 13 MiB for a
        // failure near the end to come after the spill began.
        var key = LwcFile.GenerateKey();
        var rng = new Random(46);
        var pt = new byte[(13 << 20) + 12345];
        rng.NextBytes(pt);
        var good = EncryptBytes(pt, key);
        SpillMethod = null;
        var o = new MemoryStream();
        LwcFile.Decrypt(new MemoryStream(good), o, key);
        Check(Eq(o.ToArray(), pt), "13 MiB decrypt");
        Check(SpillMethod == "O_TMPFILE" || SpillMethod == "mkstemp", "13 MiB decrypt used the spill file: " + SpillMethod);
        int fds = OpenDescriptors();
        const int chunk = 65536 + 16;
        int last = (good.Length - 60) / chunk * chunk + 60; // start of the final (partial) chunk
        Action<byte[], LwcFileError, string> reject = (data, code, what) =>
        {
            SpillMethod = null;
            var sink = new MemoryStream();
            try { LwcFile.Decrypt(new MemoryStream(data), sink, key); Check(false, what + ": accepted"); }
            catch (LwcFileException e) { Check(e.Error == code, what + ": " + e.Error + " " + e.Message); }
            catch (Exception e) { Check(false, what + ": " + e.GetType().Name + " " + e.Message); }
            Check(SpillMethod != null, what + ": had spilled before failing (" + SpillMethod + ")");
            Check(sink.Length == 0, what + ": " + sink.Length + " bytes released");
            Check(OpenDescriptors() == fds, what + ": descriptors " + OpenDescriptors() + ", before " + fds);
        };
        var t = (byte[])good.Clone(); t[good.Length - 5] ^= 1;
        reject(t, LwcFileError.Authentication, "13 MiB, last tag flipped");
        t = (byte[])good.Clone(); t[last - 100] ^= 0x80;
        reject(t, LwcFileError.Authentication, "13 MiB, next-to-last chunk flipped");
        reject(good.Take(good.Length - 1).ToArray(), LwcFileError.Authentication, "13 MiB, truncated by 1");
        reject(good.Take(last).ToArray(), LwcFileError.Truncated, "13 MiB, final chunk cut off");
    }
}
