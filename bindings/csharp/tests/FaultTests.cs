// SPDX-License-Identifier: MIT OR Apache-2.0
// Fault tests of the binding's edges: input streams that lie about their counts or fail half
// way, the base Stream's pooled buffers (no plaintext may be left in ArrayPool<byte>.Shared),
// paths with a NUL or other invalid characters, disposal and finalization of every native-backed
// object, re-entrant calls, verifiers given a tag of another length than configured, and the
// file writers under failure (input == output, corrupt input, a symlink at the output path, a
// full disk, a writer killed half way).
using System;
using System.Buffers;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Security.Cryptography;
using System.Threading;
using System.Threading.Tasks;
using Lwc;

// A readable stream over data whose Read misbehaves on its Lie-th call (0-based): reports
// Report instead of what it copied (Report may exceed the request, or be negative), or throws.
sealed class LyingStream : Stream
{
    readonly byte[] data;
    int pos, calls;
    public int LieAt = -1;
    public Func<int, int> Report;   // request -> reported count
    public bool Throw;
    public int MaxPerRead = int.MaxValue;

    public LyingStream(byte[] data) { this.data = data; }

    int Next(byte[] buffer, int offset, int count)
    {
        int call = calls++;
        if (call == LieAt && Throw) throw new IOException("LyingStream: failed on purpose");
        int n = Math.Min(Math.Min(count, data.Length - pos), MaxPerRead);
        Buffer.BlockCopy(data, pos, buffer, offset, n);
        pos += n;
        return call == LieAt ? Report(count) : n;
    }

    public override int Read(byte[] buffer, int offset, int count) { return Next(buffer, offset, count); }
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken token)
    {
        try { return Task.FromResult(Next(buffer, offset, count)); }
        catch (Exception e) { return Task.FromException<int>(e); }
    }
    public override bool CanRead { get { return true; } }
    public override bool CanWrite { get { return false; } }
    public override bool CanSeek { get { return false; } }
    public override void Write(byte[] b, int o, int c) { throw new NotSupportedException(); }
    public override void Flush() { }
    public override long Seek(long offset, SeekOrigin origin) { throw new NotSupportedException(); }
    public override void SetLength(long value) { throw new NotSupportedException(); }
    public override long Length { get { throw new NotSupportedException(); } }
    public override long Position { get { throw new NotSupportedException(); } set { throw new NotSupportedException(); } }
}

// Memory that is not an array as far as MemoryMarshal.TryGetArray can tell, so that the base
// Stream's Memory forms would have to copy it through a pooled array.
sealed class NonArrayMemory : MemoryManager<byte>
{
    readonly byte[] storage;
    public NonArrayMemory(int length) { storage = new byte[length]; }
    public override Span<byte> GetSpan() { return new Span<byte>(storage); }
    public override MemoryHandle Pin(int elementIndex = 0) { throw new NotSupportedException("not pinned in these tests"); }
    public override void Unpin() { }
    protected override void Dispose(bool disposing) { Array.Clear(storage, 0, storage.Length); }
}

// A writable MemoryStream that runs OnWrite (once) inside its first Write: a re-entrant call.
sealed class CallbackStream : MemoryStream
{
    public Action OnWrite;
    public override void Write(byte[] buffer, int offset, int count)
    {
        var a = OnWrite;
        OnWrite = null;
        if (a != null) a();
        base.Write(buffer, offset, count);
    }
}

static partial class Tests
{
    static void Faults()
    {
        var key = LwcFile.GenerateKey();
        LyingInputs(key);
        PooledBuffers(key);
        InvalidPaths(key);
        Disposal(key);
        Reentry(key);
        ConcurrentHasher();
        TagLengths();
        FileFaults(key);
    }

    // ---- input streams that lie -------------------------------------------------------------

    static void LyingInputs(byte[] key)
    {
        var rng = new Random(91);
        var pt = new byte[200000]; rng.NextBytes(pt);
        var file = EncryptBytes(pt, key, "ascon-aead128", 4096);
        var lies = new Dictionary<string, Func<int, int>>
        {
            { "over-report by 1", c => c + 1 },
            { "over-report by 4 KiB", c => c + 4096 },
            { "over-report by 1 GiB", c => c + (1 << 30) },
            { "int.MaxValue", c => int.MaxValue },
            { "negative", c => -1 },
            { "int.MinValue", c => int.MinValue },
        };
        foreach (var lie in lies)
        {
            foreach (int at in new[] { 0, 2 })
            {
                string what = lie.Key + " at read " + at;
                // Encrypting: a clear IOException, and never a file that decrypts.
                var o = new MemoryStream();
                var src = new LyingStream(pt) { LieAt = at, Report = lie.Value };
                Throws<IOException>(() => LwcFile.Encrypt(src, o, key, "ascon-aead128", 4096), "LwcFile.Encrypt: " + what);
                Check(!DecryptsTo(o.ToArray(), key, null), "LwcFile.Encrypt: " + what + ": output decrypts");
                // Decrypting, whole file: nothing released.
                o = new MemoryStream();
                src = new LyingStream(file) { LieAt = at, Report = lie.Value };
                Throws<IOException>(() => LwcFile.Decrypt(src, o, key), "LwcFile.Decrypt: " + what);
                Check(o.Length == 0, "LwcFile.Decrypt: " + what + ": " + o.Length + " bytes released");
                // The decrypting stream, each way of reading: the error, then again at every read.
                foreach (var mode in new[] { "Read", "ReadAsync", "Read(Span)", "CopyTo", "CopyToAsync" })
                {
                    src = new LyingStream(file) { LieAt = at, Report = lie.Value };
                    using (var d = new LwcDecryptStream(src, key))
                    {
                        Action all = () => DrainWith(d, mode, new MemoryStream());
                        Throws<IOException>(all, "LwcDecryptStream." + mode + ": " + what);
                        Throws<IOException>(() => d.Read(new byte[10], 0, 10), "LwcDecryptStream." + mode + ": " + what +
                            ": a later Read");
                        Check(!d.Verified, "LwcDecryptStream." + mode + ": " + what + ": verified");
                    }
                }
            }
        }
        // Short reads are not lies: 1..7 bytes at a time still round trip.
        {
            var o = new MemoryStream();
            LwcFile.Encrypt(new LyingStream(pt) { MaxPerRead = 7 }, o, key, "ascon-aead128", 4096);
            Check(DecryptsTo(o.ToArray(), key, pt), "LwcFile.Encrypt of short reads");
            var back = new MemoryStream();
            using (var d = new LwcDecryptStream(new LyingStream(file) { MaxPerRead = 1000 }, key)) d.CopyTo(back);
            Check(Eq(back.ToArray(), pt), "LwcDecryptStream of short reads");
        }
        // An exception half way comes through as itself, and the stream stays failed.
        {
            var o = new MemoryStream();
            Throws<IOException>(() => LwcFile.Encrypt(new LyingStream(pt) { LieAt = 1, Throw = true }, o, key),
                "LwcFile.Encrypt: input throws");
            using (var d = new LwcDecryptStream(new LyingStream(file) { LieAt = 1, Throw = true }, key))
            {
                Throws<IOException>(() => d.CopyTo(new MemoryStream()), "LwcDecryptStream: input throws");
                Throws<IOException>(() => d.Read(new byte[1], 0, 1), "LwcDecryptStream: read after the input threw");
            }
            var same = new MemoryStream(file);
            Throws<ArgumentException>(() => LwcFile.Decrypt(same, same, key), "LwcFile.Decrypt: input is output");
        }
    }

    static void DrainWith(Stream d, string mode, Stream into)
    {
        var buf = new byte[5000];
        int n;
        switch (mode)
        {
            case "Read": while ((n = d.Read(buf, 0, buf.Length)) > 0) into.Write(buf, 0, n); break;
            case "ReadAsync":
                try { while ((n = d.ReadAsync(buf, 0, buf.Length).Result) > 0) into.Write(buf, 0, n); }
                catch (AggregateException e) { throw e.InnerException; }
                break;
            case "Read(Span)": while ((n = d.Read(new Span<byte>(buf))) > 0) into.Write(buf, 0, n); break;
            case "ReadMemory":
                try { while ((n = d.ReadAsync(new Memory<byte>(buf)).AsTask().Result) > 0) into.Write(buf, 0, n); }
                catch (AggregateException e) { throw e.InnerException; }
                break;
            case "ReadNonArray":
                using (var um = new NonArrayMemory(buf.Length))
                {
                    try
                    {
                        while ((n = d.ReadAsync(um.Memory).AsTask().Result) > 0)
                        {
                            um.GetSpan().Slice(0, n).CopyTo(buf);
                            into.Write(buf, 0, n);
                        }
                    }
                    catch (AggregateException e) { throw e.InnerException; }
                    um.GetSpan().Clear();
                }
                break;
            case "ReadByte": while ((n = d.ReadByte()) >= 0) into.WriteByte((byte)n); break;
            case "CopyTo": d.CopyTo(into); break;
            case "CopyToAsync":
                try { d.CopyToAsync(into).Wait(); }
                catch (AggregateException e) { throw e.InnerException; }
                break;
            default: throw new ArgumentException(mode);
        }
    }

    // True when file decrypts (to expected, unless null).
    static bool DecryptsTo(byte[] file, byte[] key, byte[] expected)
    {
        var o = new MemoryStream();
        try { LwcFile.Decrypt(new MemoryStream(file), o, key); }
        catch (CryptographicException) { return false; }
        return expected == null || Eq(o.ToArray(), expected);
    }

    // ---- pooled buffers ---------------------------------------------------------------------

    // The base Stream's span, Memory, CopyTo and byte forms copy through ArrayPool<byte>.Shared
    // (or a temporary array) and return it uncleared. Our streams override every one of them;
    // after each, whatever the shared pool hands out on this thread must not hold the plaintext.
    static void PooledBuffers(byte[] key)
    {
        var streamMethods = new[]
        {
            "Read(System.Span`1[System.Byte])", "Write(System.ReadOnlySpan`1[System.Byte])",
            "ReadAsync(System.Memory`1[System.Byte], System.Threading.CancellationToken)",
            "WriteAsync(System.ReadOnlyMemory`1[System.Byte], System.Threading.CancellationToken)",
            "CopyTo(System.IO.Stream, Int32)", "CopyToAsync(System.IO.Stream, Int32, System.Threading.CancellationToken)",
            "ReadByte()", "WriteByte(Byte)",
        };
        foreach (var t in new[] { typeof(LwcEncryptStream), typeof(LwcDecryptStream) })
            foreach (var sig in streamMethods)
            {
                var m = t.GetMethods(BindingFlags.Public | BindingFlags.Instance)
                    .FirstOrDefault(x => x.ToString().EndsWith(" " + sig));
                Check(m != null && m.DeclaringType == t, t.Name + " overrides " + sig);
            }

        // A plaintext no pool would hold by chance.
        var pt = new byte[70000];
        for (int i = 0; i < pt.Length; i++) pt[i] = (byte)(0xA5 ^ (i * 7));
        var file = EncryptBytes(pt, key, "ascon-aead128", 1024);
        Action<string> poolClean = what =>
        {
            foreach (int size in new[] { 1, 16, 256, 4096, 5000, 16384, 65536, 70000, 81920, 1 << 17, 1 << 20 })
            {
                var a = ArrayPool<byte>.Shared.Rent(size);
                bool found = Contains(a, 32);
                ArrayPool<byte>.Shared.Return(a);
                Check(!found, what + ": plaintext left in a pooled array of " + a.Length + " bytes");
            }
        };
        foreach (var mode in new[] { "Read(Span)", "ReadMemory", "ReadNonArray", "ReadByte", "CopyTo", "CopyToAsync" })
        {
            var back = new MemoryStream();
            using (var d = new LwcDecryptStream(new MemoryStream(file), key)) DrainWith(d, mode, back);
            Check(Eq(back.ToArray(), pt), "LwcDecryptStream " + mode + ": plaintext");
            poolClean("LwcDecryptStream " + mode);
        }
        foreach (var mode in new[] { "Write(Span)", "WriteMemory", "WriteNonArray", "WriteByte" })
        {
            var o = new MemoryStream();
            using (var e = new LwcEncryptStream(o, key, "ascon-aead128", 1024, leaveOpen: true))
            {
                if (mode == "Write(Span)") { e.Write(new ReadOnlySpan<byte>(pt, 0, 5000)); e.Write(new ReadOnlySpan<byte>(pt, 5000, pt.Length - 5000)); }
                else if (mode == "WriteMemory") e.WriteAsync(new ReadOnlyMemory<byte>(pt)).AsTask().Wait();
                else if (mode == "WriteNonArray")
                    using (var um = new NonArrayMemory(pt.Length))
                    {
                        new ReadOnlySpan<byte>(pt).CopyTo(um.GetSpan());
                        e.WriteAsync(um.Memory).AsTask().Wait();
                        um.GetSpan().Clear();
                    }
                else foreach (var b in pt) e.WriteByte(b);
                e.FlushFinalBlock();
            }
            Check(DecryptsTo(o.ToArray(), key, pt), "LwcEncryptStream " + mode + ": round trip");
            poolClean("LwcEncryptStream " + mode);
        }
    }

    // True when hay holds window + 1 consecutive bytes of the plaintext, wherever they came from:
    // the plaintext's rule pt[i] = 0xA5 ^ 7i makes consecutive bytes step by 7 once unmasked.
    static bool Contains(byte[] hay, int window)
    {
        int run = 0;
        for (int j = 1; j < hay.Length; j++)
        {
            bool step = (byte)((hay[j] ^ 0xA5) - (hay[j - 1] ^ 0xA5)) == 7;
            run = step ? run + 1 : 0;
            if (run >= window) return true;
        }
        return false;
    }

    // ---- paths ------------------------------------------------------------------------------

    static void InvalidPaths(byte[] key)
    {
        string dir = Path.Combine(tmp, "paths");
        if (Directory.Exists(dir)) Directory.Delete(dir, true);
        Directory.CreateDirectory(dir);
        string plain = Path.Combine(dir, "report.txt");
        File.WriteAllBytes(plain, new byte[] { 1, 2, 3 });
        string enc = Path.Combine(dir, "report.lwc");
        LwcFile.EncryptFile(plain, enc, key);
        string sep = dir + Path.DirectorySeparatorChar;   // Path.Combine itself refuses a NUL
        var bad = new[] { plain + "\0.lwc", sep + "a\0b", "\0", "", sep + "x\uD800y", sep + "x\uDC00" };
        foreach (var p in bad)
        {
            string shown = p.Replace("\0", "\\0");
            Throws<ArgumentException>(() => LwcFile.EncryptFile(plain, p, key, overwrite: true), "EncryptFile to " + shown);
            Throws<ArgumentException>(() => LwcFile.EncryptFile(p, Path.Combine(dir, "o1"), key), "EncryptFile from " + shown);
            Throws<ArgumentException>(() => LwcFile.DecryptFile(enc, p, key, overwrite: true), "DecryptFile to " + shown);
            Throws<ArgumentException>(() => LwcFile.DecryptFile(p, Path.Combine(dir, "o2"), key), "DecryptFile from " + shown);
            Throws<ArgumentException>(() => LwcFile.SaveKey(p, key, true), "SaveKey to " + shown);
            Throws<ArgumentException>(() => LwcFile.LoadKey(p), "LoadKey from " + shown);
        }
        Check(Eq(File.ReadAllBytes(plain), new byte[] { 1, 2, 3 }), "paths: report.txt untouched");
        var left = Directory.GetFiles(dir).Select(Path.GetFileName).OrderBy(x => x).ToArray();
        Check(left.SequenceEqual(new[] { "report.lwc", "report.txt" }), "paths: files made: " + string.Join(" ", left));
        // UTF-8 names that are valid go through as themselves.
        string utf = Path.Combine(dir, "r\u00e9sum\u00e9-\u6587\u4ef6.lwc");
        LwcFile.EncryptFile(plain, utf, key);
        Check(File.Exists(utf), "paths: a UTF-8 name");
        Directory.Delete(dir, true);
    }

    // ---- disposal and finalization ------------------------------------------------------------

    static void Disposal(byte[] key)
    {
        // Only SafeHandles own native memory: no other type of Lwc.dll may free anything from a
        // finalizer (it could run while a native call still uses the memory).
        foreach (var t in typeof(Aead).Assembly.GetTypes())
        {
            var fin = t.GetMethod("Finalize", BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.DeclaredOnly);
            Check(fin == null || t.IsSubclassOf(typeof(System.Runtime.InteropServices.SafeHandle)),
                t.FullName + " has a finalizer");
            if (t.IsSubclassOf(typeof(System.Runtime.InteropServices.SafeHandle))) continue;
            foreach (var f in t.GetFields(BindingFlags.NonPublic | BindingFlags.Public | BindingFlags.Instance))
                Check(f.FieldType != typeof(IntPtr) || (t == typeof(AlgorithmInfo) && f.Name == "NamePtr"),
                    t.FullName + "." + f.Name + " holds a raw native pointer");
        }

        var mac = Registry.Algorithms.First(x => x.Kind == AlgorithmKind.Mac);
        var macKey = new byte[mac.KeySize];
        var tag = Hash.Mac(mac.Name, macKey, new byte[3]);
        var hashers = new List<Func<IncrementalHasher>>
        {
            () => Hash.Create("ascon-hash256"), () => Hash.CreateMac(mac.Name, macKey),
            () => Hash.CreateCxof("ascon-cxof128", new byte[] { 1 }),
        };
        foreach (var make in hashers)
        {
            var h = make();
            string name = h.Algorithm.Name;
            h.AppendData(new byte[100]);
            h.Dispose();
            h.Dispose();
            Check(true, name + ": Dispose twice");
            var span = new byte[64];
            int w;
            Throws<ObjectDisposedException>(() => h.AppendData(new byte[1]), name + ": AppendData after Dispose");
            Throws<ObjectDisposedException>(() => h.AppendData(new ReadOnlySpan<byte>(span)), name + ": AppendData(span) after Dispose");
            Throws<ObjectDisposedException>(() => h.GetHashAndReset(), name + ": GetHashAndReset after Dispose");
            Throws<ObjectDisposedException>(() => h.GetHashAndReset(new Span<byte>(span)), name + ": GetHashAndReset(span) after Dispose");
            Throws<ObjectDisposedException>(() => h.TryGetHashAndReset(new Span<byte>(span), out w), name + ": TryGetHashAndReset after Dispose");
            Throws<ObjectDisposedException>(() => h.GetCurrentHash(), name + ": GetCurrentHash after Dispose");
            Throws<ObjectDisposedException>(() => h.TryGetCurrentHash(new Span<byte>(span), out w), name + ": TryGetCurrentHash after Dispose");
            if (h.Algorithm.Kind == AlgorithmKind.Mac)
            {
                Throws<ObjectDisposedException>(() => h.VerifyHashAndReset(tag), name + ": VerifyHashAndReset after Dispose");
                Throws<ObjectDisposedException>(() => h.VerifyHashAndResetTruncated(tag, tag.Length),
                    name + ": VerifyHashAndResetTruncated after Dispose");
            }
        }
        // Streams: Dispose twice, use after Dispose.
        {
            var e = new LwcEncryptStream(new MemoryStream(), key);
            e.Dispose(); e.Dispose();
            Throws<ObjectDisposedException>(() => e.Write(new byte[1], 0, 1), "LwcEncryptStream: Write after Dispose");
            Throws<ObjectDisposedException>(() => e.Write(new ReadOnlySpan<byte>(new byte[1])), "LwcEncryptStream: Write(span) after Dispose");
            Throws<ObjectDisposedException>(() => e.WriteByte(1), "LwcEncryptStream: WriteByte after Dispose");
            Throws<ObjectDisposedException>(() => e.FlushFinalBlock(), "LwcEncryptStream: FlushFinalBlock after Dispose");
            var d = new LwcDecryptStream(new MemoryStream(EncryptBytes(new byte[10], key)), key);
            d.Dispose(); d.Dispose();
            Throws<ObjectDisposedException>(() => d.Read(new byte[1], 0, 1), "LwcDecryptStream: Read after Dispose");
            Throws<ObjectDisposedException>(() => d.Read(new Span<byte>(new byte[1])), "LwcDecryptStream: Read(span) after Dispose");
            Throws<ObjectDisposedException>(() => d.ReadByte(), "LwcDecryptStream: ReadByte after Dispose");
            Throws<ObjectDisposedException>(() => d.CopyTo(new MemoryStream()), "LwcDecryptStream: CopyTo after Dispose");
        }
        // Finalization: objects dropped in use, disposed or not, and a collection racing with
        // native calls on objects that are no longer referenced after the call.
        for (int i = 0; i < 200; i++)
        {
            var h = hashers[i % hashers.Count]();
            h.AppendData(new byte[i]);
            if (i % 2 == 0) h.Dispose();
            var e = new LwcEncryptStream(new MemoryStream(), key);
            e.Write(new byte[i], 0, i);
            if (i % 3 == 0) e.Dispose();
            var d = new LwcDecryptStream(new MemoryStream(EncryptBytes(new byte[i], key)), key);
            d.Read(new byte[1], 0, 1);
            if (i % 5 == 0) d.Dispose();
        }
        var stop = false;
        var collector = new Thread(() => { while (!Volatile.Read(ref stop)) { GC.Collect(); GC.WaitForPendingFinalizers(); } });
        collector.Start();
        var big = new byte[1 << 20];
        var expected = Hash.HashData("ascon-hash256", big);
        bool same = true;
        for (int i = 0; i < 30; i++)
        {
            Hash.Create("ascon-hash256").AppendData(big);
            var h = Hash.Create("ascon-hash256");
            h.AppendData(big);
            same &= Eq(h.GetHashAndReset(), expected);
        }
        Volatile.Write(ref stop, true);
        collector.Join();
        GC.Collect();
        GC.WaitForPendingFinalizers();
        Check(same, "hashing while the collector runs");
    }

    // ---- re-entry ---------------------------------------------------------------------------

    static void Reentry(byte[] key)
    {
        var pt = new byte[100000];
        new Random(5).NextBytes(pt);
        LwcEncryptStream e = null;
        Exception inner = null;
        var output = new CallbackStream();
        output.OnWrite = () =>
        {
            try { e.Write(pt, 0, 10); }
            catch (Exception x) { inner = x; }
        };
        e = new LwcEncryptStream(output, key, "ascon-aead128", 1024);
        e.Write(pt, 0, pt.Length);
        e.FlushFinalBlock();
        Check(inner is InvalidOperationException, "LwcEncryptStream: a Write from inside the output's Write: " +
            (inner == null ? "accepted" : inner.GetType().Name));
        Check(DecryptsTo(output.ToArray(), key, pt), "LwcEncryptStream: output after the refused re-entry");

        LwcDecryptStream d = null;
        Exception dinner = null;
        var into = new CallbackStream();
        into.OnWrite = () =>
        {
            try { d.Read(new byte[10], 0, 10); }
            catch (Exception x) { dinner = x; }
        };
        d = new LwcDecryptStream(new MemoryStream(EncryptBytes(pt, key, "ascon-aead128", 1024)), key);
        d.CopyTo(into);
        Check(dinner is InvalidOperationException, "LwcDecryptStream: a Read from inside CopyTo's destination: " +
            (dinner == null ? "accepted" : dinner.GetType().Name));
        Check(Eq(into.ToArray(), pt), "LwcDecryptStream: CopyTo after the refused re-entry");
    }

    // One hasher, two threads: while one thread's call runs, the other's calls are refused (the
    // long call lasts a few hundred milliseconds; the other thread tries until it is over).
    static void ConcurrentHasher()
    {
        var h = Hash.Create("ascon-hash256");
        var big = new byte[16 << 20];
        int refused = 0;
        Exception other = null;
        var started = new ManualResetEventSlim();
        var done = false;
        var worker = new Thread(() =>
        {
            started.Set();
            // The worker can be the one refused, when the main thread's short call holds the
            // hasher at that moment: it retries, so that three long calls do run.
            for (int i = 0; i < 3; )
            {
                try { h.AppendData(big); i++; }
                catch (InvalidOperationException) { Interlocked.Increment(ref refused); }
            }
            Volatile.Write(ref done, true);
        });
        worker.Start();
        started.Wait();
        while (!Volatile.Read(ref done))
        {
            try { h.AppendData(new byte[1]); }
            catch (InvalidOperationException) { Interlocked.Increment(ref refused); }
            catch (Exception e) { other = e; break; }
        }
        worker.Join();
        Check(other == null, "IncrementalHasher, second thread: " + (other == null ? "" : other.GetType().Name));
        Check(refused > 0, "IncrementalHasher: a call from a second thread during a running call was not refused");
        h.Dispose();
    }

    // ---- tag lengths ------------------------------------------------------------------------

    static void TagLengths()
    {
        var rng = new Random(17);
        var data = new byte[13]; rng.NextBytes(data);   // within Ascon-PRF-short's 16-byte input
        foreach (var info in Registry.Algorithms.Where(x => x.Kind == AlgorithmKind.Mac || x.Kind == AlgorithmKind.Prf))
        {
            var key = new byte[info.KeySize]; rng.NextBytes(key);
            var full = Hash.Mac(info.Name, key, data);
            Check(full.Length == info.OutputSize, info.Name + ": default tag is the full tag");
            Check(Hash.VerifyMac(info.Name, key, data, full), info.Name + ": full tag");
            Check(Hash.VerifyMac(info.Name, new ReadOnlySpan<byte>(key), data, full), info.Name + ": full tag (span)");
            var longer = Hash.Mac(info.Name, key, data, info.MaxOutputSize == 0 ? full.Length + 8 : full.Length);
            if (longer.Length > full.Length)
                Check(!Hash.VerifyMac(info.Name, key, data, longer), info.Name + ": a longer tag is not the full tag");
            for (int len = info.MinTagSize; len < full.Length; len++)
            {
                var prefix = full.Take(len).ToArray();
                string what = info.Name + ": " + len + "-byte prefix";
                Check(!Hash.VerifyMac(info.Name, key, data, prefix), what + " accepted by VerifyMac");
                Check(!Hash.VerifyMac(info.Name, new ReadOnlySpan<byte>(key), data, prefix), what + " accepted by VerifyMac (span)");
                using (var h = Hash.CreateMac(info.Name, key))
                {
                    h.AppendData(data);
                    Check(!h.VerifyHashAndReset(prefix), what + " accepted by VerifyHashAndReset");
                    h.AppendData(data);
                    Check(!h.VerifyHashAndReset(new ReadOnlySpan<byte>(prefix)), what + " accepted by VerifyHashAndReset (span)");
                    h.AppendData(data);
                    Check(h.VerifyHashAndResetTruncated(prefix, len), what + ": VerifyHashAndResetTruncated");
                    h.AppendData(data);
                    Check(!h.VerifyHashAndResetTruncated(prefix, len + 1), what + ": VerifyHashAndResetTruncated, other length");
                }
                Check(Hash.VerifyMacTruncated(info.Name, key, data, prefix, len), what + ": VerifyMacTruncated");
                Check(Hash.VerifyMacTruncated(info.Name, new ReadOnlySpan<byte>(key), data, prefix, len),
                    what + ": VerifyMacTruncated (span)");
                Check(!Hash.VerifyMacTruncated(info.Name, key, data, full, len), what + ": VerifyMacTruncated took a full tag");
                var forged = (byte[])prefix.Clone(); forged[len - 1] ^= 0x40;
                Check(!Hash.VerifyMacTruncated(info.Name, key, data, forged, len), what + ": VerifyMacTruncated forged");
            }
            Throws<ArgumentOutOfRangeException>(() => Hash.VerifyMacTruncated(info.Name, key, data, full, info.MinTagSize - 1),
                info.Name + ": truncated length below the minimum");
            int maxTag = info.Kind == AlgorithmKind.Prf ? 64 : full.Length;
            Throws<ArgumentOutOfRangeException>(() => Hash.VerifyMacTruncated(info.Name, key, data, full, maxTag + 1),
                info.Name + ": named length above the longest verified tag");
            if (longer.Length > full.Length)
                Check(Hash.VerifyMacTruncated(info.Name, key, data, longer, longer.Length),
                    info.Name + ": a longer PRF tag verifies under its named length");
            var cls = Type.GetType("Lwc." + Registry.PascalCase(info.Name) + ", Lwc");
            var verify = cls == null ? null : cls.GetMethod("Verify", new[] { typeof(byte[]), typeof(byte[]), typeof(byte[]) });
            if (verify != null && full.Length > info.MinTagSize)
                Check(!(bool)verify.Invoke(null, new object[] { key, data, full.Take(info.MinTagSize).ToArray() }),
                    cls.Name + ".Verify took a truncated tag");
        }
        foreach (var info in Registry.Algorithms.Where(x => x.Kind == AlgorithmKind.Aead))
        {
            var key = new byte[info.KeySize]; rng.NextBytes(key);
            var nonce = new byte[info.NonceSize]; rng.NextBytes(nonce);
            byte[] tag;
            var c = Aead.EncryptDetached(info.Name, data, null, nonce, key, out tag);
            Check(Eq(Aead.DecryptDetached(info.Name, c, tag, null, nonce, key), data), info.Name + ": full detached tag");
            for (int len = info.MinTagSize; len < info.TagSize; len++)
            {
                string what = info.Name + ": " + len + "-byte tag";
                byte[] shortTag;
                var c2 = Aead.EncryptDetached(info.Name, data, null, nonce, key, out shortTag, len);
                Throws<CryptographicException>(() => Aead.DecryptDetached(info.Name, c2, shortTag, null, nonce, key),
                    what + " accepted by DecryptDetached");
                Throws<CryptographicException>(() => Aead.DecryptDetached(info.Name, c, tag.Take(len).ToArray(), null, nonce, key),
                    what + " (prefix of the full tag) accepted by DecryptDetached");
                Check(Eq(Aead.DecryptDetachedTruncated(info.Name, c2, shortTag, len, null, nonce, key), data),
                    what + ": DecryptDetachedTruncated");
                Throws<CryptographicException>(() => Aead.DecryptDetachedTruncated(info.Name, c2, shortTag, len + 1, null, nonce, key),
                    what + ": DecryptDetachedTruncated, other length");
                Throws<CryptographicException>(() => Aead.DecryptDetachedTruncated(info.Name, c, tag, len, null, nonce, key),
                    what + ": DecryptDetachedTruncated took the full tag");
            }
            Throws<ArgumentOutOfRangeException>(() => Aead.DecryptDetachedTruncated(info.Name, c, tag, info.MinTagSize - 1, null,
                nonce, key), info.Name + ": truncated length below the minimum");
            var empty = new byte[0];
            Throws<CryptographicException>(() => Aead.DecryptDetached(info.Name, c, empty, null, nonce, key),
                info.Name + ": empty tag");
        }
    }

    // ---- files ------------------------------------------------------------------------------

    static string[] Listing(string dir)
    {
        return Directory.GetFileSystemEntries(dir).Select(Path.GetFileName).OrderBy(x => x, StringComparer.Ordinal).ToArray();
    }

    static bool Failed(Action a)
    {
        try { a(); return false; }
        catch (Exception e) when (e is IOException || e is CryptographicException || e is ArgumentException) { return true; }
    }

    static void FileFaults(byte[] key)
    {
        string dir = Path.Combine(tmp, "file-faults");
        if (Directory.Exists(dir)) Directory.Delete(dir, true);
        Directory.CreateDirectory(dir);
        var rng = new Random(23);
        var pt = new byte[300000]; rng.NextBytes(pt);
        string plain = Path.Combine(dir, "plain"), enc = Path.Combine(dir, "plain.lwc");
        File.WriteAllBytes(plain, pt);
        LwcFile.EncryptFile(plain, enc, key, chunkSize: 4096);
        var encBytes = File.ReadAllBytes(enc);
        var old = new byte[] { 9, 9, 9 };

        // input == output, spelled the same, spelled differently, through a symlink and a hard link.
        string viaDots = Path.Combine(dir, ".", "plain");
        string link = Path.Combine(dir, "plain-link"), hard = Path.Combine(dir, "plain-hard");
        bool links = Shell("ln -s plain " + Quote(link) + " && ln " + Quote(plain) + " " + Quote(hard), dir);
        foreach (var same in new[] { plain, viaDots, link, hard })
        {
            if (!links && same != plain && same != viaDots) continue;
            Check(Failed(() => LwcFile.EncryptFile(plain, same, key, overwrite: true)), "EncryptFile: input == output (" + Path.GetFileName(same) + ")");
            Check(Eq(File.ReadAllBytes(plain), pt), "EncryptFile: input == output (" + Path.GetFileName(same) + "): input intact");
            File.WriteAllBytes(plain, pt);
        }
        foreach (var same in new[] { enc, Path.Combine(dir, ".", "plain.lwc") })
        {
            Check(Failed(() => LwcFile.DecryptFile(enc, same, key, overwrite: true)), "DecryptFile: input == output");
            Check(Eq(File.ReadAllBytes(enc), encBytes), "DecryptFile: input == output: input intact");
            File.WriteAllBytes(enc, encBytes);
        }
        if (links) { File.Delete(link); File.Delete(hard); }
        var before = Listing(dir);

        // A failure after the output was opened: corrupt input, over an existing output.
        string outPath = Path.Combine(dir, "out");
        var corrupt = (byte[])encBytes.Clone();
        corrupt[corrupt.Length / 2] ^= 1;
        string bad = Path.Combine(dir, "bad.lwc");
        File.WriteAllBytes(bad, corrupt);
        before = Listing(dir);
        File.WriteAllBytes(outPath, old);
        Check(Failed(() => LwcFile.DecryptFile(bad, outPath, key, overwrite: true)), "DecryptFile: corrupt input accepted");
        Check(Eq(File.ReadAllBytes(outPath), old), "DecryptFile: corrupt input: old output changed");
        var truncated = encBytes.Take(encBytes.Length - 100).ToArray();
        File.WriteAllBytes(bad, truncated);
        Check(Failed(() => LwcFile.DecryptFile(bad, outPath, key, overwrite: true)), "DecryptFile: truncated input accepted");
        Check(Eq(File.ReadAllBytes(outPath), old), "DecryptFile: truncated input: old output changed");
        Check(Failed(() => LwcFile.DecryptFile(enc, outPath, LwcFile.GenerateKey(), overwrite: true)), "DecryptFile: wrong key accepted");
        Check(Eq(File.ReadAllBytes(outPath), old), "DecryptFile: wrong key: old output changed");
        Check(Failed(() => LwcFile.EncryptFile(Path.Combine(dir, "missing"), outPath, key, overwrite: true)),
            "EncryptFile: a missing input accepted");
        Check(Eq(File.ReadAllBytes(outPath), old), "EncryptFile: missing input: old output changed");
        Check(Failed(() => LwcFile.EncryptFile(dir, outPath, key, overwrite: true)), "EncryptFile: a folder as input accepted");
        Check(Eq(File.ReadAllBytes(outPath), old), "EncryptFile: folder input: old output changed");
        // Without overwrite an existing output is refused and left alone.
        Check(Failed(() => LwcFile.EncryptFile(plain, outPath, key)), "EncryptFile: existing output replaced without overwrite");
        Check(Eq(File.ReadAllBytes(outPath), old), "EncryptFile: no overwrite: old output changed");
        Check(Listing(dir).SequenceEqual(before.Concat(new[] { "out" }).OrderBy(x => x, StringComparer.Ordinal)),
            "file faults: files left: " + string.Join(" ", Listing(dir)));
        // With overwrite and good input, the output is replaced by the complete result.
        LwcFile.DecryptFile(enc, outPath, key, overwrite: true);
        Check(Eq(File.ReadAllBytes(outPath), pt), "DecryptFile: overwrite");
        File.Delete(outPath); File.Delete(bad);

        // A symlink at the output path: never written through.
        if (links)
        {
            string target = Path.Combine(dir, "target"), sym = Path.Combine(dir, "sym");
            File.WriteAllBytes(target, old);
            Shell("ln -s target " + Quote(sym), dir);
            Check(Failed(() => LwcFile.EncryptFile(plain, sym, key)), "EncryptFile: a symlink at the output accepted without overwrite");
            // Replacing the link itself, or refusing, are both right; writing into target is not.
            Failed(() => LwcFile.EncryptFile(plain, sym, key, overwrite: true));
            Check(Eq(File.ReadAllBytes(target), old), "EncryptFile: wrote through a symlink at the output");
            File.Delete(sym);
            Shell("ln -s target " + Quote(sym), dir);
            Failed(() => LwcFile.DecryptFile(enc, sym, key, overwrite: true));
            Check(Eq(File.ReadAllBytes(target), old), "DecryptFile: wrote through a symlink at the output");
            File.Delete(sym);
            string dangling = Path.Combine(dir, "dangling"), nowhere = Path.Combine(dir, "nowhere");
            Shell("ln -s nowhere " + Quote(dangling), dir);
            Check(Failed(() => LwcFile.EncryptFile(plain, dangling, key)), "EncryptFile: a dangling symlink at the output accepted");
            Check(!File.Exists(nowhere), "EncryptFile: created the target of a dangling symlink");
            File.Delete(dangling); File.Delete(target);
        }

        FullDisk(key, pt, enc);
        KilledWriter(key, dir);
        Directory.Delete(dir, true);
    }

    static string Quote(string s) { return "'" + s.Replace("'", "'\\''") + "'"; }

    static bool Shell(string command, string dir)
    {
        var psi = new ProcessStartInfo("/bin/sh", "-c " + Quote(command))
        {
            UseShellExecute = false, RedirectStandardError = true, RedirectStandardOutput = true, WorkingDirectory = dir
        };
        try
        {
            using (var p = Process.Start(psi))
            {
                p.StandardOutput.ReadToEnd();
                p.StandardError.ReadToEnd();
                p.WaitForExit();
                return p.ExitCode == 0;
            }
        }
        catch (Exception) { return false; }
    }

    // A small tmpfs: the writer fails with ENOSPC, the old output stays and no temporary file is left.
    static void FullDisk(byte[] key, byte[] pt, string enc)
    {
        string mnt = Path.Combine(tmp, "full-disk");
        Directory.CreateDirectory(mnt);
        if (!Shell("mount -t tmpfs -o size=128k tmpfs " + Quote(mnt), tmp))
        {
            Console.WriteLine("  full disk: skipped (cannot mount a tmpfs here)");
            Directory.Delete(mnt);
            return;
        }
        try
        {
            string outPath = Path.Combine(mnt, "out");
            var old = new byte[] { 7, 7, 7 };
            File.WriteAllBytes(outPath, old);
            string plain = Path.Combine(tmp, "full-disk-plain");
            File.WriteAllBytes(plain, pt);
            Check(Failed(() => LwcFile.EncryptFile(plain, outPath, key, overwrite: true)), "EncryptFile on a full disk succeeded");
            Check(Eq(File.ReadAllBytes(outPath), old), "EncryptFile on a full disk: old output changed");
            Check(Failed(() => LwcFile.DecryptFile(enc, outPath, key, overwrite: true)), "DecryptFile on a full disk succeeded");
            Check(Eq(File.ReadAllBytes(outPath), old), "DecryptFile on a full disk: old output changed");
            Check(Listing(mnt).SequenceEqual(new[] { "out" }), "full disk: files left: " + string.Join(" ", Listing(mnt)));
            File.Delete(plain);
        }
        finally
        {
            Shell("umount " + Quote(mnt), tmp);
            Directory.Delete(mnt, true);
        }
    }

    // A writer killed half way (SIGKILL: no cleanup runs): the old output is still there, whole.
    // The writer is this test program in its --encrypt-file mode (LwcFile.EncryptFile); it is
    // killed as soon as a new entry (its temporary file) in the folder holds 1 MiB.
    static void KilledWriter(byte[] key, string dir)
    {
        string keyPath = Path.Combine(dir, "kill.key");
        LwcFile.SaveKey(keyPath, key, true);
        string big = Path.Combine(dir, "big");
        var data = new byte[32 << 20];
        new Random(3).NextBytes(data);
        File.WriteAllBytes(big, data);
        string outPath = Path.Combine(dir, "killed");
        var old = new byte[] { 5, 5, 5 };
        string self = Assembly.GetExecutingAssembly().Location;
        int midWrite = 0;
        for (int attempt = 0; attempt < 3; attempt++)
        {
            File.WriteAllBytes(outPath, old);
            var known = new HashSet<string>(Listing(dir));
            var psi = new ProcessStartInfo("mono", Quote(self) + " --encrypt-file " + Quote(big) + " " + Quote(outPath) + " " +
                Quote(keyPath)) { UseShellExecute = false };
            using (var p = Process.Start(psi))
            {
                var clock = Stopwatch.StartNew();
                bool killed = false;
                while (!p.HasExited && clock.Elapsed.TotalSeconds < 60)
                {
                    if (Listing(dir).Any(x => !known.Contains(x) && Written(Path.Combine(dir, x)) >= (1 << 20)))
                    {
                        p.Kill();
                        killed = true;
                        break;
                    }
                    Thread.Sleep(1);
                }
                if (!p.HasExited && !killed) { p.Kill(); killed = true; }
                p.WaitForExit();
                var now = File.ReadAllBytes(outPath);
                if (killed)
                {
                    midWrite++;
                    Check(Eq(now, old), "writer killed half way: the output is not the old file (" + now.Length + " bytes)");
                }
                else Check(p.ExitCode == 0 && DecryptsTo(now, key, data), "writer not killed: output is not the new file");
                // What a killed writer leaves is its temporary file, never anything under the output's name.
                foreach (var x in Listing(dir).Where(x => !known.Contains(x)))
                {
                    Check(x.StartsWith(".killed"), "killed writer left " + x);
                    File.Delete(Path.Combine(dir, x));
                }
            }
        }
        if (midWrite == 0) Console.WriteLine("  killed writer: every writer finished before it could be killed");
        File.Delete(big);
    }

    static long Written(string path)
    {
        try { return new FileInfo(path).Length; }
        catch (IOException) { return 0; }
    }

    // The child of KilledWriter: Tests.exe --encrypt-file IN OUT KEYFILE.
    static int EncryptFileChild(string[] args)
    {
        LwcFile.EncryptFile(args[1], args[2], LwcFile.LoadKey(args[3]), overwrite: true);
        return 0;
    }
}
