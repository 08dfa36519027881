// SPDX-License-Identifier: MIT OR Apache-2.0
// Throughput of the C# binding: Ascon-AEAD128 encrypt and decrypt at 64 B, 1 KiB, 64 KiB and
// 1 MiB (new arrays, the SUPERCOP call and the span overloads into the caller's buffer),
// Ascon-Hash256 at the same sizes, the cost of one call (a 0-byte hash, a 0-byte encryption),
// the incremental hasher at 64 B and 1 KiB (byte[] calls against the span overloads), and the
// lwc file format on 16 MiB in memory (LwcFile and the two Stream classes, 64 KiB writes and
// reads, synchronous and async), and Lwc.Batch (Ascon-AEAD128 encrypt and decrypt of 10^4 x
// 64 B and 10^3 x 1 KiB jobs, one thread and all threads). Each figure is the best of 5 runs of
// about 0.2 s.
//   mono Bench.exe [batch]      (batch: the Lwc.Batch figures only)
using System;
using System.Diagnostics;
using System.IO;
using Lwc;

static class Bench
{
    static double Time(Action f, int bytes)
    {
        int iters = 1;
        for (;;)
        {
            var sw = Stopwatch.StartNew();
            for (int i = 0; i < iters; i++) f();
            if (sw.Elapsed.TotalSeconds > 0.05) break;
            iters *= 4;
        }
        double best = double.MaxValue;
        int n = (int)Math.Max(1, iters * 4);
        for (int run = 0; run < 5; run++)
        {
            var sw = Stopwatch.StartNew();
            for (int i = 0; i < n; i++) f();
            best = Math.Min(best, sw.Elapsed.TotalSeconds * 1e9 / n);
        }
        return best;
    }

    static void Report(string what, int bytes, double ns)
    {
        if (bytes > 0)
            Console.WriteLine("{0,-36} {1,8} B {2,12:F1} ns/call {3,9:F1} MB/s", what, bytes, ns, bytes * 1e3 / ns);
        else
            Console.WriteLine("{0,-36} {1,8} B {2,12:F1} ns/call", what, bytes, ns);
    }

    static int Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "batch")
        {
            BatchJobs();
            return 0;
        }
        Console.WriteLine("lwc C# binding, liblwc " + Registry.NativeVersion + ", " + Environment.ProcessorCount + " cpus, "
            + (IntPtr.Size * 8) + "-bit");
        var key = new byte[16]; var nonce = new byte[16]; var ad = new byte[0];
        var empty = new byte[0];
        Report("ascon-hash256 (Hash.HashData)", 0, Time(() => Hash.HashData("ascon-hash256", empty), 0));
        Report("ascon-hash256 (AsconHash256.HashData)", 0, Time(() => AsconHash256.HashData(empty), 0));
        Report("ascon-aead128 encrypt (AsconAead128)", 0, Time(() => AsconAead128.Encrypt(empty, ad, nonce, key), 0));
        var c16 = new byte[16];
        int clen;
        Report("ascon-aead128 crypto_aead_encrypt", 0,
            Time(() => AsconAead128.crypto_aead_encrypt(c16, out clen, empty, 0, ad, 0, null, nonce, key), 0));
        foreach (int size in new[] { 64, 1024, 64 * 1024, 1024 * 1024 })
        {
            var m = new byte[size];
            var c = AsconAead128.Encrypt(m, ad, nonce, key);
            var cbuf = new byte[size + 16];
            Report("ascon-aead128 encrypt", size, Time(() => AsconAead128.Encrypt(m, ad, nonce, key), size));
            Report("ascon-aead128 crypto_aead_encrypt", size,
                Time(() => AsconAead128.crypto_aead_encrypt(cbuf, out clen, m, size, ad, 0, null, nonce, key), size));
            Report("ascon-aead128 encrypt (span)", size,
                Time(() => AsconAead128.Encrypt(m, ad, nonce, key, cbuf), size));
            Report("ascon-aead128 decrypt", size, Time(() => AsconAead128.Decrypt(c, ad, nonce, key), size));
            var mbuf = new byte[size];
            Report("ascon-aead128 decrypt (span)", size, Time(() => AsconAead128.Decrypt(c, ad, nonce, key, mbuf), size));
            Report("ascon-hash256", size, Time(() => AsconHash256.HashData(m), size));
            if (size <= 1024)
                using (var h = Hash.Create("ascon-hash256"))
                {
                    Report("ascon-hash256 incremental (byte[])", size, Time(() =>
                    {
                        h.AppendData(m);
                        h.GetHashAndReset();
                    }, size));
                    var digest = new byte[32];
                    Report("ascon-hash256 incremental (span)", size, Time(() =>
                    {
                        h.AppendData(new ReadOnlySpan<byte>(m));
                        h.GetHashAndReset(new Span<byte>(digest));
                    }, size));
                }
        }
        FileFormat();
        BatchJobs();
        return 0;
    }

    static byte[][] Items(Random rng, int n, int size)
    {
        var items = new byte[n][];
        for (int i = 0; i < n; i++)
        {
            items[i] = new byte[size];
            rng.NextBytes(items[i]);
        }
        return items;
    }

    static void BatchJobs()
    {
        var rng = new Random(1);
        foreach (var shape in new[] { new[] { 10000, 64 }, new[] { 1000, 1024 } })
        {
            int n = shape[0], size = shape[1];
            var keys = Items(rng, n, 16);
            var nonces = Items(rng, n, 16);
            var messages = Items(rng, n, size);
            var sealedJobs = Batch.Encrypt("ascon-aead128", messages, null, nonces, keys);
            bool[] ok;
            foreach (int threads in new[] { 1, 0 })
            {
                string label = " (" + n + " jobs, " + (threads == 0 ? "all threads" : "1 thread") + ")";
                Report("Batch.Encrypt" + label, n * size,
                    Time(() => Batch.Encrypt("ascon-aead128", messages, null, nonces, keys, threads), n * size));
                Report("Batch.Decrypt" + label, n * size,
                    Time(() => Batch.Decrypt("ascon-aead128", sealedJobs, null, nonces, keys, out ok, threads), n * size));
            }
        }
    }

    static void FileFormat()
    {
        const int size = 16 << 20, piece = 64 * 1024;
        var key = LwcFile.GenerateKey();
        var plain = new byte[size];
        var encrypted = new MemoryStream();
        LwcFile.Encrypt(new MemoryStream(plain), encrypted, key);
        var file = encrypted.ToArray();
        var sink = new byte[piece];
        Report("lwc file: LwcFile.Encrypt", size, Time(() =>
            LwcFile.Encrypt(new MemoryStream(plain), new MemoryStream(file.Length), key), size));
        Report("lwc file: LwcEncryptStream", size, Time(() =>
        {
            using (var e = new LwcEncryptStream(new MemoryStream(file.Length), key))
            {
                for (int off = 0; off < size; off += piece) e.Write(plain, off, piece);
                e.FlushFinalBlock();
            }
        }, size));
        // Beyond 4 MiB LwcFile.Decrypt holds the plaintext in its temporary file.
        Report("lwc file: LwcFile.Decrypt", size, Time(() =>
            LwcFile.Decrypt(new MemoryStream(file), new MemoryStream(size), key), size));
        Report("lwc file: LwcDecryptStream", size, Time(() =>
        {
            using (var d = new LwcDecryptStream(new MemoryStream(file), key))
                while (d.Read(sink, 0, piece) > 0) { }
        }, size));
        Report("lwc file: LwcEncryptStream async", size, Time(() => EncryptAsync(plain, file.Length, key, piece).Wait(), size));
        Report("lwc file: LwcDecryptStream async", size, Time(() => DecryptAsync(file, sink, key).Wait(), size));
    }

    static async System.Threading.Tasks.Task EncryptAsync(byte[] plain, int fileLength, byte[] key, int piece)
    {
        using (var e = new LwcEncryptStream(new MemoryStream(fileLength), key))
        {
            for (int off = 0; off < plain.Length; off += piece) await e.WriteAsync(plain, off, piece);
            await e.FlushFinalBlockAsync();
        }
    }

    static async System.Threading.Tasks.Task DecryptAsync(byte[] file, byte[] sink, byte[] key)
    {
        using (var d = new LwcDecryptStream(new MemoryStream(file), key))
            while (await d.ReadAsync(sink, 0, sink.Length) > 0) { }
    }
}
