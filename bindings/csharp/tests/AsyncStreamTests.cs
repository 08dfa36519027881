// SPDX-License-Identifier: MIT OR Apache-2.0
// The async overrides of LwcEncryptStream and LwcDecryptStream: files of the lwc tool read with
// ReadAsync and files written with WriteAsync/FlushFinalBlockAsync read by the tool (over
// asynchronous FileStreams and over an inner stream whose synchronous calls throw, so only its
// async calls can have been used), CopyToAsync, a tampered file throwing from ReadAsync, and
// cancellation: before the call (a cancelled task, nothing changed) and while the inner stream
// holds the call (decrypt: nothing handed out, the stream goes on; encrypt: the stream fails
// and its output is rejected by every reader, never a shorter file that verifies).
using System;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Lwc;

// An inner stream over a MemoryStream with asynchronous calls only (its Read, Write and Flush
// throw). The HoldAt-th async call (0-based, reads and writes counted apart) waits until its
// token is cancelled, signalling Held first; a held read then consumes LoseOnCancel bytes and a
// held write writes the first LoseOnCancel bytes of its buffer before giving up, as a stream
// that lost data in a cancelled call would.
sealed class GateStream : Stream
{
    public readonly MemoryStream Inner;
    public int HoldAt = -1, LoseOnCancel, Reads, Writes;
    public readonly TaskCompletionSource<bool> Held = new TaskCompletionSource<bool>();
    public CancellationTokenSource CancelOnFirstWrite;

    public GateStream(MemoryStream inner) { Inner = inner; }

    async Task Hold(int call, CancellationToken token, Action lose)
    {
        if (call != HoldAt) return;
        Held.TrySetResult(true);
        try { await Task.Delay(Timeout.Infinite, token).ConfigureAwait(false); }
        catch (OperationCanceledException) { lose(); throw; }
    }

    public override async Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken token)
    {
        await Task.Yield();
        await Hold(Reads++, token, () => Inner.Position = Math.Min(Inner.Length, Inner.Position + LoseOnCancel));
        return Inner.Read(buffer, offset, count);
    }

    public override async Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken token)
    {
        await Task.Yield();
        await Hold(Writes++, token, () => Inner.Write(buffer, offset, Math.Min(count, LoseOnCancel)));
        Inner.Write(buffer, offset, count);
        if (CancelOnFirstWrite != null) { CancelOnFirstWrite.Cancel(); CancelOnFirstWrite = null; }
    }

    public override async Task FlushAsync(CancellationToken token) { await Task.Yield(); token.ThrowIfCancellationRequested(); }

    public override int Read(byte[] b, int o, int c) { throw new InvalidOperationException("GateStream: synchronous Read"); }
    public override void Write(byte[] b, int o, int c) { throw new InvalidOperationException("GateStream: synchronous Write"); }
    public override void Flush() { throw new InvalidOperationException("GateStream: synchronous Flush"); }
    public override bool CanRead { get { return true; } }
    public override bool CanWrite { get { return true; } }
    public override bool CanSeek { get { return false; } }
    public override long Seek(long offset, SeekOrigin origin) { throw new NotSupportedException(); }
    public override void SetLength(long value) { throw new NotSupportedException(); }
    public override long Length { get { throw new NotSupportedException(); } }
    public override long Position { get { throw new NotSupportedException(); } set { throw new NotSupportedException(); } }
}

static partial class Tests
{
    static readonly TimeSpan AsyncWait = TimeSpan.FromSeconds(30);

    static async Task<byte[]> ReadAllAsync(Stream s, Random rng, int chunk)
    {
        var o = new MemoryStream();
        var buf = new byte[3 * chunk + 16];
        int n;
        while ((n = await s.ReadAsync(buf, 0, rng.Next(1, buf.Length + 1))) > 0) o.Write(buf, 0, n);
        return o.ToArray();
    }

    static async Task WriteAllAsync(Stream s, byte[] data, Random rng, int chunk)
    {
        for (int off = 0; off < data.Length; )
        {
            int n = Math.Min(rng.Next(0, 3 * chunk + 1), data.Length - off);
            await s.WriteAsync(data, off, n);
            off += n;
        }
    }

    static FileStream OpenAsync(string path, bool write)
    {
        return write ? new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, 4096, true)
            : new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 4096, true);
    }

    // What a task that should end ended with: its exception (unwrapped; a TaskCanceledException
    // when cancelled), or null when it succeeded.
    static Exception Fault(Task t)
    {
        try { t.Wait(AsyncWait); return t.IsCompleted ? null : new TimeoutException("the task did not end"); }
        catch (AggregateException e) { return e.InnerException; }
    }

    static void AsyncStreams()
    {
        AsyncStreamsCore().Wait();
        AsyncCancellation();
    }

    static async Task AsyncStreamsCore()
    {
        string err;
        string keyPath = Path.Combine(tmp, "async.key");
        File.Delete(keyPath);
        Check(Run("keygen -o " + keyPath, out err) == 0, "lwc keygen: " + err);
        var key = LwcFile.LoadKey(keyPath);
        var rng = new Random(50);
        const int chunk = 4096;
        foreach (int size in new[] { 0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk, 100000, 300000 })
        {
            var pt = new byte[size]; rng.NextBytes(pt);
            string plain = Path.Combine(tmp, "a" + size), enc = plain + ".lwc", enc2 = plain + ".2.lwc",
                dec = plain + ".out";
            File.WriteAllBytes(plain, pt);
            File.Delete(enc);
            Check(Run("encrypt -k " + keyPath + " --chunk-size " + chunk + " -o " + enc + " " + plain, out err) == 0,
                "lwc encrypt: " + err);
            // lwc encrypt -> ReadAsync, over an asynchronous FileStream and over async calls only.
            using (var d = new LwcDecryptStream(OpenAsync(enc, false), key))
            {
                Check(Eq(await ReadAllAsync(d, rng, chunk), pt) && d.Verified, "ReadAsync of lwc encrypt, " + size);
                Check(await d.ReadAsync(new byte[3], 0, 3) == 0, "ReadAsync stays at the end, " + size);
            }
            using (var d = new LwcDecryptStream(new GateStream(new MemoryStream(File.ReadAllBytes(enc))), key))
                Check(Eq(await ReadAllAsync(d, rng, chunk), pt) && d.Verified, "ReadAsync of lwc encrypt, async inner calls only, " + size);
            var copied = new MemoryStream();
            using (var d = new LwcDecryptStream(OpenAsync(enc, false), key))
            {
                await d.CopyToAsync(copied);
                Check(Eq(copied.ToArray(), pt) && d.Verified, "CopyToAsync of lwc encrypt, " + size);
            }

            // WriteAsync + FlushFinalBlockAsync -> lwc decrypt.
            File.Delete(enc2); File.Delete(dec);
            using (var e = new LwcEncryptStream(OpenAsync(enc2, true), key, "ascon-aead128", chunk))
            {
                await WriteAllAsync(e, pt, rng, chunk);
                await e.FlushFinalBlockAsync();
                Check(e.HasFlushedFinalBlock && !e.CanWrite, "FlushFinalBlockAsync ended the stream, " + size);
            }
            Check(Run("decrypt -k " + keyPath + " -o " + dec + " " + enc2, out err) == 0 && Eq(File.ReadAllBytes(dec), pt),
                "lwc decrypt of WriteAsync, " + size + ": " + err);
            var gate = new GateStream(new MemoryStream());
            using (var e = new LwcEncryptStream(gate, key, "ascon-aead128", chunk, 0, true))
            {
                await new MemoryStream(pt).CopyToAsync(e, 1000);
                await e.FlushAsync();
                await e.FlushFinalBlockAsync();
            }
            File.Delete(enc2); File.Delete(dec);
            File.WriteAllBytes(enc2, gate.Inner.ToArray());
            Check(Run("decrypt -k " + keyPath + " -o " + dec + " " + enc2, out err) == 0 && Eq(File.ReadAllBytes(dec), pt),
                "lwc decrypt of CopyToAsync, async inner calls only, " + size + ": " + err);
            File.Delete(plain); File.Delete(enc); File.Delete(enc2); File.Delete(dec);
        }

        // The Memory<byte> forms, which Mono 6.8's Stream (as .NET Core's) routes to the byte[]
        // overrides: over an inner stream with async calls only, so a fallback to the synchronous
        // calls would throw.
        {
            var pt = new byte[50000]; rng.NextBytes(pt);
            var gate = new GateStream(new MemoryStream());
            using (var e = new LwcEncryptStream(gate, key, "ascon-aead128", chunk, 0, true))
            {
                for (int off = 0; off < pt.Length; off += 7000)
                    await e.WriteAsync(new ReadOnlyMemory<byte>(pt, off, Math.Min(7000, pt.Length - off)), CancellationToken.None);
                await e.FlushFinalBlockAsync();
            }
            var o = new MemoryStream();
            using (var d = new LwcDecryptStream(new GateStream(new MemoryStream(gate.Inner.ToArray())), key))
            {
                var buf = new byte[chunk + 3];
                int n;
                while ((n = await d.ReadAsync(new Memory<byte>(buf, 3, chunk), CancellationToken.None)) > 0) o.Write(buf, 3, n);
                Check(d.Verified, "ReadAsync(Memory) verified");
            }
            Check(Eq(o.ToArray(), pt), "WriteAsync(ReadOnlyMemory) and ReadAsync(Memory) round trip");
        }

        // One WriteAsync of several 1 MiB pieces.
        {
            var pt = new byte[(3 << 20) + 77]; rng.NextBytes(pt);
            var ms = new MemoryStream();
            using (var e = new LwcEncryptStream(ms, key, leaveOpen: true))
            {
                await e.WriteAsync(pt, 0, pt.Length);
                await e.FlushFinalBlockAsync();
            }
            var o = new MemoryStream();
            LwcFile.Decrypt(new MemoryStream(ms.ToArray()), o, key);
            Check(Eq(o.ToArray(), pt), "one WriteAsync of 3 MiB");
        }

        // A tampered file: ReadAsync throws where the damage is, releases only whole verified
        // chunks before it, and every later ReadAsync throws again.
        {
            var msg = new byte[10 * chunk + 123]; rng.NextBytes(msg);
            var good = EncryptBytes(msg, key, "ascon-aead128", chunk);
            foreach (int at in new[] { 70, 60 + 5 * (chunk + 16) + 7, good.Length - 3, -1 })
            {
                var t = at < 0 ? good.Take(good.Length - 1).ToArray() : (byte[])good.Clone();
                if (at >= 0) t[at] ^= 8;
                string what = at < 0 ? "truncated by 1" : "byte " + at + " flipped";
                var got = new MemoryStream();
                var buf = new byte[chunk + 1];
                using (var d = new LwcDecryptStream(new GateStream(new MemoryStream(t)), key))
                {
                    try
                    {
                        int n;
                        while ((n = await d.ReadAsync(buf, 0, buf.Length)) > 0) got.Write(buf, 0, n);
                        Check(false, "ReadAsync, " + what + ": read to a clean end");
                    }
                    catch (LwcFileException e) { Check(e.Error == LwcFileError.Authentication, "ReadAsync, " + what + ": " + e.Error); }
                    Check(!d.Verified, "ReadAsync, " + what + ": not verified");
                    var again = d.ReadAsync(buf, 0, 1);
                    Check(again.IsFaulted && again.Exception.InnerException is LwcFileException,
                        "ReadAsync, " + what + ": the next ReadAsync fails too");
                }
                var seen = got.ToArray();
                Check(seen.Length % chunk == 0 && Eq(seen, msg.Take(seen.Length).ToArray()),
                    "ReadAsync, " + what + ": released " + seen.Length + " bytes, not whole verified chunks");
            }
            var other = (byte[])key.Clone(); other[0] ^= 1;
            using (var d = new LwcDecryptStream(new MemoryStream(good), other))
            {
                var f = Fault(d.ReadAsync(new byte[10], 0, 10));
                Check(f is LwcFileException && ((LwcFileException)f).Error == LwcFileError.WrongKey,
                    "ReadAsync, wrong key: " + (f == null ? "no exception" : f.GetType().Name));
            }
        }
        File.Delete(keyPath);
    }

    static void AsyncCancellation()
    {
        var rng = new Random(51);
        var key = LwcFile.GenerateKey();
        string keyPath = Path.Combine(tmp, "cancel.key");
        File.Delete(keyPath);
        LwcFile.SaveKey(keyPath, key);
        const int chunk = 4096;
        var cancelled = new CancellationToken(true);

        // A token cancelled before the call: a cancelled task, and nothing changed.
        {
            var pt = new byte[5 * chunk + 9]; rng.NextBytes(pt);
            var ms = new MemoryStream();
            using (var e = new LwcEncryptStream(ms, key, "ascon-aead128", chunk, 0, true))
            {
                e.Write(pt, 0, 100);
                long before = ms.Length;
                Check(e.WriteAsync(pt, 100, pt.Length - 100, cancelled).IsCanceled, "WriteAsync, cancelled token: a cancelled task");
                Check(e.FlushAsync(cancelled).IsCanceled, "encrypt FlushAsync, cancelled token: a cancelled task");
                Check(e.FlushFinalBlockAsync(cancelled).IsCanceled && !e.HasFlushedFinalBlock && e.CanWrite,
                    "FlushFinalBlockAsync, cancelled token: a cancelled task, the stream goes on");
                Check(ms.Length == before, "cancelled calls wrote nothing");
                Check(Fault(e.WriteAsync(pt, 100, pt.Length - 100)) == null, "WriteAsync after a cancelled one");
                Check(Fault(e.FlushFinalBlockAsync()) == null && e.HasFlushedFinalBlock, "FlushFinalBlockAsync after a cancelled one");
            }
            var o = new MemoryStream();
            LwcFile.Decrypt(new MemoryStream(ms.ToArray()), o, key);
            Check(Eq(o.ToArray(), pt), "a stream with cancelled calls before they began is the whole file");

            var src = new MemoryStream(ms.ToArray());
            using (var d = new LwcDecryptStream(src, key, 0, true))
            {
                var buf = Enumerable.Repeat((byte)0x77, 100).ToArray();
                Check(d.ReadAsync(buf, 0, 100, cancelled).IsCanceled && buf.All(b => b == 0x77) && src.Position == 0,
                    "ReadAsync, cancelled token: a cancelled task, nothing read or handed out");
                Check(d.FlushAsync(cancelled).IsCanceled && d.FlushAsync().IsCompleted, "decrypt FlushAsync");
                var got = new MemoryStream();
                int n;
                while ((n = d.Read(buf, 0, 100)) > 0)
                {
                    got.Write(buf, 0, n);
                    // Plaintext held but not yet handed out stays held.
                    Check(d.ReadAsync(buf, 0, 100, cancelled).IsCanceled, "ReadAsync, cancelled token, mid-stream");
                }
                Check(Eq(got.ToArray(), pt) && d.Verified, "decrypt after a cancelled ReadAsync");
            }
        }

        // Decrypt, cancelled while the inner stream holds a read: nothing handed out by that call,
        // a second call meanwhile refused; then the stream goes on to the end (the inner stream lost
        // nothing) or throws LwcFileException having released only whole verified chunks (it lost
        // 1000 bytes).
        var msg = new byte[300000]; rng.NextBytes(msg);
        var file = EncryptBytes(msg, key, "ascon-aead128", chunk);
        foreach (int lose in new[] { 0, 1000 })
        {
            string what = "ReadAsync cancelled in the inner read" + (lose > 0 ? ", " + lose + " bytes lost" : "");
            var gate = new GateStream(new MemoryStream(file)) { HoldAt = 2, LoseOnCancel = lose };
            var got = new MemoryStream();
            var buf = new byte[chunk];
            using (var d = new LwcDecryptStream(gate, key))
            using (var cts = new CancellationTokenSource())
            {
                bool held = false;
                while (!held)
                {
                    for (int i = 0; i < buf.Length; i++) buf[i] = 0x5A;
                    var t = d.ReadAsync(buf, 0, buf.Length, cts.Token);
                    int which = Task.WaitAny(new Task[] { t, gate.Held.Task }, AsyncWait);
                    if (which == 0 && !gate.Held.Task.IsCompleted)
                    {
                        Check(t.Result > 0, what + ": end before the held read");
                        if (t.Result == 0) break;
                        got.Write(buf, 0, t.Result);
                        continue;
                    }
                    Check(which >= 0, what + ": the read was not held");
                    held = true;
                    Throws<InvalidOperationException>(() => d.ReadAsync(new byte[1], 0, 1), what + ": a second ReadAsync meanwhile");
                    Throws<InvalidOperationException>(() => d.Read(new byte[1], 0, 1), what + ": a Read meanwhile");
                    cts.Cancel();
                    var f = Fault(t);
                    Check(t.IsCanceled && f is OperationCanceledException, what + ": a cancelled task, not " +
                        (f == null ? "a result" : f.GetType().Name));
                    Check(buf.All(b => b == 0x5A), what + ": nothing handed out");
                    Check(!d.Verified, what + ": not verified");
                }
                try
                {
                    int n;
                    while ((n = d.ReadAsync(buf, 0, buf.Length).Result) > 0) got.Write(buf, 0, n);
                    Check(lose == 0 && Eq(got.ToArray(), msg) && d.Verified, what + ": read on to a verified end");
                }
                catch (AggregateException e)
                {
                    var f = e.InnerException as LwcFileException;
                    Check(lose > 0 && f != null, what + ": " + e.InnerException.GetType().Name + " " + e.InnerException.Message);
                    Check(!d.Verified, what + ": not verified");
                    var seen = got.ToArray();
                    Check(seen.Length % chunk == 0 && Eq(seen, msg.Take(seen.Length).ToArray()),
                        what + ": released " + seen.Length + " bytes, not whole verified chunks");
                }
            }
        }

        // Encrypt, cancelled while the inner stream holds a write (writing nothing, or part of
        // the buffer), between 1 MiB pieces, or in FlushFinalBlockAsync: the call ends cancelled,
        // the stream is failed, and what the inner stream got never verifies.
        var big = new byte[(9 << 20) + 5]; rng.NextBytes(big);
        foreach (string mode in new[] { "held write", "held write, part written", "between pieces", "final",
            "final, part written", "final, all written" })
        {
            var gate = new GateStream(new MemoryStream());
            var cts = new CancellationTokenSource();
            if (mode == "between pieces") gate.CancelOnFirstWrite = cts;
            else if (!mode.StartsWith("final")) gate.HoldAt = 1;
            if (mode.EndsWith("part written")) gate.LoseOnCancel = 1000;
            if (mode.EndsWith("all written")) gate.LoseOnCancel = int.MaxValue;
            // One thread: liblwc hands out encrypted batches of about 512 KiB per thread, so 9 MiB
            // reaches the inner stream in several writes before the end.
            var e = new LwcEncryptStream(gate, key, "ascon-aead128", chunk, 1, true);
            Task t;
            if (mode.StartsWith("final"))
            {
                Check(Fault(e.WriteAsync(big, 0, 3 * chunk + 5)) == null, mode + ": WriteAsync before");
                gate.HoldAt = gate.Writes;
                t = e.FlushFinalBlockAsync(cts.Token);
            }
            else t = e.WriteAsync(big, 0, big.Length, cts.Token);
            if (mode != "between pieces")
            {
                Check(Task.WaitAny(new Task[] { t, gate.Held.Task }, AsyncWait) == 1, mode + ": the write was not held");
                Throws<InvalidOperationException>(() => e.WriteAsync(big, 0, 1), mode + ": a second WriteAsync meanwhile");
                cts.Cancel();
            }
            var f = Fault(t);
            Check(t.IsCanceled && f is OperationCanceledException, mode + ": a cancelled task, not " +
                (f == null ? "success" : f.GetType().Name));
            Check(!e.CanWrite && !e.HasFlushedFinalBlock, mode + ": the stream failed");
            Throws<InvalidOperationException>(() => e.Write(big, 0, 1), mode + ": Write after cancellation");
            Throws<InvalidOperationException>(() => e.FlushFinalBlockAsync(), mode + ": FlushFinalBlockAsync after cancellation");
            Throws<InvalidOperationException>(() => e.FlushFinalBlock(), mode + ": FlushFinalBlock after cancellation");
            e.Dispose();
            var output = gate.Inner.ToArray();
            Check(output.Length > 0 || mode == "final", mode + ": the inner stream got something before the cancellation");
            if (mode.EndsWith("all written"))
            {
                // The inner stream took the whole last write before it reported the cancellation:
                // the file is complete, and verifies as all of it, not less.
                var o = new MemoryStream();
                LwcFile.Decrypt(new MemoryStream(output), o, key);
                Check(Eq(o.ToArray(), big.Take(3 * chunk + 5).ToArray()), mode + ": the whole file");
                continue;
            }
            try
            {
                LwcFile.Decrypt(new MemoryStream(output), new MemoryStream(), key);
                Check(false, mode + ": the output of a cancelled stream verified");
            }
            catch (LwcFileException x)
            {
                Check(x.Error == LwcFileError.Truncated || x.Error == LwcFileError.Authentication, mode + ": " + x.Error);
            }
            string path = Path.Combine(tmp, "cancelled.lwc"), outp = path + ".out";
            File.WriteAllBytes(path, output);
            File.Delete(outp);
            string err;
            Check(Run("decrypt -k " + keyPath + " -o " + outp + " " + path, out err) != 0 && !File.Exists(outp),
                mode + ": lwc decrypt rejects the output of a cancelled stream");
            File.Delete(path);
        }
        File.Delete(keyPath);
    }
}
