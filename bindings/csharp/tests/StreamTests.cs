// SPDX-License-Identifier: MIT OR Apache-2.0
// LwcEncryptStream and LwcDecryptStream: files of the lwc tool read through the decrypting
// stream and files written by the encrypting stream read by the tool, with reads and writes of
// 1 byte, chunk-1, chunk, chunk+1 and random sizes; tampered and truncated files throw (at the
// end, not a clean end of stream) after releasing only whole verified chunks.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using Lwc;

static partial class Tests
{
    // Reads everything with the given read sizes (cycled; 0 = random 1..3*chunk).
    static byte[] ReadAll(Stream s, int[] sizes, Random rng, int chunk)
    {
        var o = new MemoryStream();
        var buf = new byte[4 * chunk + 16];
        for (int i = 0; ; i++)
        {
            int want = sizes[i % sizes.Length];
            if (want == 0) want = rng.Next(1, 3 * chunk + 1);
            int n = s.Read(buf, 0, want);
            if (n == 0) break;
            Check(n > 0 && n <= want, "Read returned " + n + " for " + want);
            o.Write(buf, 0, n);
        }
        return o.ToArray();
    }

    static void WriteAll(Stream s, byte[] data, int[] sizes, Random rng, int chunk)
    {
        int off = 0;
        for (int i = 0; off < data.Length; i++)
        {
            int want = sizes[i % sizes.Length];
            if (want == 0) want = rng.Next(0, 3 * chunk + 1);
            int n = Math.Min(want, data.Length - off);
            s.Write(data, off, n);
            off += n;
        }
    }

    static void Streams()
    {
        string err;
        string keyPath = Path.Combine(tmp, "stream.key");
        File.Delete(keyPath);
        Check(Run("keygen -o " + keyPath, out err) == 0, "lwc keygen: " + err);
        var key = LwcFile.LoadKey(keyPath);
        var rng = new Random(47);
        const int chunk = 4096;
        var patterns = new[]
        {
            new[] { 1 }, new[] { chunk - 1 }, new[] { chunk }, new[] { chunk + 1 }, new[] { 0 },
            new[] { 7, chunk * 3 + 5, 1, 0 }
        };
        foreach (int size in new[] { 0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk, 100000 })
        {
            var pt = new byte[size]; rng.NextBytes(pt);
            string plain = Path.Combine(tmp, "s" + size), enc = plain + ".lwc", dec = plain + ".out";
            File.WriteAllBytes(plain, pt);
            File.Delete(enc);
            Check(Run("encrypt -k " + keyPath + " --chunk-size " + chunk + " -o " + enc + " " + plain, out err) == 0,
                "lwc encrypt: " + err);
            foreach (var p in patterns)
            {
                string what = size + " bytes, pieces " + string.Join(",", p);
                // lwc encrypt -> LwcDecryptStream
                using (var d = new LwcDecryptStream(File.OpenRead(enc), key))
                {
                    Check(!d.Verified, "not verified before reading");
                    Check(Eq(ReadAll(d, p, rng, chunk), pt), "LwcDecryptStream of lwc encrypt, " + what);
                    Check(d.Verified, "verified at the end, " + what);
                    Check(d.Read(new byte[5], 0, 5) == 0, "stays at the end, " + what);
                }
                // LwcEncryptStream -> lwc decrypt
                File.Delete(enc + "2"); File.Delete(dec);
                using (var f = File.Create(enc + "2"))
                using (var e = new LwcEncryptStream(f, key, "ascon-aead128", chunk))
                {
                    WriteAll(e, pt, p, rng, chunk);
                    e.FlushFinalBlock();
                    Check(e.HasFlushedFinalBlock && !e.CanWrite, "ended, " + what);
                }
                Check(Run("decrypt -k " + keyPath + " -o " + dec + " " + enc + "2", out err) == 0,
                    "lwc decrypt of LwcEncryptStream, " + what + ": " + err);
                Check(File.Exists(dec) && Eq(File.ReadAllBytes(dec), pt), "lwc decrypt of LwcEncryptStream, " + what);
            }
            File.Delete(plain); File.Delete(enc); File.Delete(enc + "2"); File.Delete(dec);
        }

        // Every stream-capable AEAD, default chunk size, CopyTo; 300 KB crosses several chunks.
        foreach (var info in Registry.Algorithms.Where(x => x.StreamSupported))
        {
            var pt = new byte[300000]; rng.NextBytes(pt);
            var ms = new MemoryStream();
            using (var e = new LwcEncryptStream(ms, key, info.Name, 0, 0, true))
            {
                WriteAll(e, pt, new[] { 0 }, rng, 65536);
                e.FlushFinalBlock();
            }
            var o = new MemoryStream();
            using (var d = new LwcDecryptStream(new MemoryStream(ms.ToArray()), key)) d.CopyTo(o);
            Check(Eq(o.ToArray(), pt), "stream round trip " + info.Name);
            var o2 = new MemoryStream();
            LwcFile.Decrypt(new MemoryStream(ms.ToArray()), o2, key);
            Check(Eq(o2.ToArray(), pt), "LwcFile.Decrypt of LwcEncryptStream " + info.Name);
        }

        // Failures: the exception comes where the damage is (or at the end for a missing last
        // chunk), never a clean end of stream; what came before is whole verified chunks of the
        // original, and every later Read throws again.
        var msg = new byte[10 * chunk + 123]; rng.NextBytes(msg);
        var good = EncryptBytes(msg, key, "ascon-aead128", chunk);
        const int sealedChunk = chunk + 16;
        Action<byte[], LwcFileError, string> reject = (data, code, what) =>
        {
            foreach (var p in new[] { new[] { 1 }, new[] { chunk + 1 }, new[] { 0 } })
            {
                var got = new MemoryStream();
                var d = new LwcDecryptStream(new MemoryStream(data), key);
                var buf = new byte[3 * chunk + 1];
                try
                {
                    for (int i = 0; ; i++)
                    {
                        int want = p[i % p.Length] == 0 ? rng.Next(1, buf.Length) : p[i % p.Length];
                        int n = d.Read(buf, 0, want);
                        if (n == 0) break;
                        got.Write(buf, 0, n);
                    }
                    Check(false, what + ": read to a clean end");
                }
                catch (LwcFileException e) { Check(code == LwcFileError.None || e.Error == code, what + ": " + e.Error + " " + e.Message); }
                catch (Exception e) { Check(false, what + ": " + e.GetType().Name + " " + e.Message); }
                Check(!d.Verified, what + ": not verified");
                var seen = got.ToArray();
                Check(seen.Length % chunk == 0 && Eq(seen, msg.Take(seen.Length).ToArray()),
                    what + ": released " + seen.Length + " bytes, not a prefix of whole chunks");
                Throws<LwcFileException>(() => d.Read(buf, 0, 1), what + ": the next Read throws too");
                d.Dispose();
            }
        };
        reject(good.Take(good.Length - (msg.Length % chunk + 16)).ToArray(), LwcFileError.Truncated,
            "last chunk cut off");
        reject(good.Take(60 + 4 * sealedChunk).ToArray(), LwcFileError.Truncated, "cut after 4 chunks");
        reject(good.Take(good.Length - 1).ToArray(), LwcFileError.Authentication, "truncated by 1");
        reject(good.Take(60 + 2 * sealedChunk + 100).ToArray(), LwcFileError.None, "cut inside chunk 2");
        reject(good.Take(30).ToArray(), LwcFileError.Truncated, "header cut");
        reject(new byte[0], LwcFileError.NotAStream, "empty");
        reject(Cat(good, new byte[] { 0 }), LwcFileError.Authentication, "one byte appended");
        foreach (int at in new[] { 60 + 10, 60 + 5 * sealedChunk + 7, good.Length - 3 })
        {
            var t = (byte[])good.Clone(); t[at] ^= 4;
            reject(t, LwcFileError.Authentication, "byte " + at + " flipped");
        }
        {
            var t = (byte[])good.Clone();
            Buffer.BlockCopy(good, 60 + 3 * sealedChunk, t, 60 + 2 * sealedChunk, sealedChunk);
            Buffer.BlockCopy(good, 60 + 2 * sealedChunk, t, 60 + 3 * sealedChunk, sealedChunk);
            reject(t, LwcFileError.Authentication, "chunks 2 and 3 swapped");
        }
        // A late failure in a large file: the chunks before it were verified and handed out
        // (liblwc releases plaintext in batches of several MiB, so a small file shows nothing).
        {
            var big = new byte[(13 << 20) + 999]; rng.NextBytes(big);
            var t = EncryptBytes(big, key);
            t[t.Length - 500] ^= 1;
            var got = new MemoryStream();
            var buf = new byte[100000];
            using (var d = new LwcDecryptStream(new MemoryStream(t), key))
            {
                try
                {
                    int n;
                    while ((n = d.Read(buf, 0, buf.Length)) > 0) got.Write(buf, 0, n);
                    Check(false, "13 MiB, late flip: read to a clean end");
                }
                catch (LwcFileException e) { Check(e.Error == LwcFileError.Authentication, "13 MiB, late flip: " + e.Error); }
                Check(!d.Verified, "13 MiB, late flip: not verified");
            }
            var seen = got.ToArray();
            Check(seen.Length > 0 && seen.Length % 65536 == 0 && Eq(seen, big.Take(seen.Length).ToArray()),
                "13 MiB, late flip: released " + seen.Length + " bytes, want whole verified 64 KiB chunks");
        }
        var other = (byte[])key.Clone(); other[5] ^= 1;
        Throws<LwcFileException>(() => new LwcDecryptStream(new MemoryStream(good), other).Read(new byte[10], 0, 10),
            "wrong key");

        // Disposed without FlushFinalBlock: a truncated file, for LwcFile.Decrypt and for the tool.
        {
            var ms = new MemoryStream();
            using (var e = new LwcEncryptStream(ms, key, "ascon-aead128", chunk, 0, true)) e.Write(msg, 0, msg.Length);
            Check(ms.Length > 0 && ms.Length < good.Length, "unfinished stream: " + ms.Length + " bytes");
            try { LwcFile.Decrypt(new MemoryStream(ms.ToArray()), new MemoryStream(), key); Check(false, "unfinished accepted"); }
            catch (LwcFileException e) { Check(e.Error == LwcFileError.Truncated, "unfinished: " + e.Error); }
            string path = Path.Combine(tmp, "unfinished.lwc"), outp = path + ".out";
            File.WriteAllBytes(path, ms.ToArray());
            File.Delete(outp);
            Check(Run("decrypt -k " + keyPath + " -o " + outp + " " + path, out err) == 1 && !File.Exists(outp),
                "lwc decrypt rejects an unfinished LwcEncryptStream");
            File.Delete(path);
        }

        // Usage.
        var inner = new MemoryStream();
        Throws<ArgumentNullException>(() => new LwcEncryptStream(null, key), "encrypt: null output");
        Throws<ArgumentNullException>(() => new LwcEncryptStream(inner, null), "encrypt: null key");
        Throws<ArgumentException>(() => new LwcEncryptStream(inner, new byte[16]), "encrypt: 16-byte key");
        Throws<ArgumentException>(() => new LwcEncryptStream(inner, key, "ascon-hash256"), "encrypt: a hash");
        Throws<ArgumentException>(() => new LwcEncryptStream(inner, key, "no-such"), "encrypt: unknown");
        Throws<ArgumentOutOfRangeException>(() => new LwcEncryptStream(inner, key, "ascon-aead128", 100), "encrypt: chunk 100");
        Throws<ArgumentException>(() => new LwcEncryptStream(new MemoryStream(new byte[4], false), key), "encrypt: read-only output");
        Throws<ArgumentNullException>(() => new LwcDecryptStream(null, key), "decrypt: null input");
        Throws<ArgumentException>(() => new LwcDecryptStream(inner, new byte[31]), "decrypt: 31-byte key");
        using (var e = new LwcEncryptStream(inner, key, leaveOpen: true))
        {
            Check(e.CanWrite && !e.CanRead && !e.CanSeek, "encrypt: capabilities");
            Throws<NotSupportedException>(() => e.Read(new byte[1], 0, 1), "encrypt: Read");
            Throws<NotSupportedException>(() => { var x = e.Length; }, "encrypt: Length");
            Throws<ArgumentOutOfRangeException>(() => e.Write(new byte[4], 2, 3), "encrypt: count past the end");
            Throws<ArgumentNullException>(() => e.Write(null, 0, 0), "encrypt: null buffer");
            e.Write(new byte[3], 0, 3);
            e.FlushFinalBlock();
            Throws<InvalidOperationException>(() => e.Write(new byte[1], 0, 1), "encrypt: Write after the end");
            Throws<InvalidOperationException>(() => e.FlushFinalBlock(), "encrypt: FlushFinalBlock twice");
        }
        Check(inner.CanWrite, "leaveOpen keeps the output open");
        var closed = new MemoryStream();
        using (var e = new LwcEncryptStream(closed, key)) e.FlushFinalBlock();
        Check(!closed.CanWrite, "without leaveOpen the output is disposed");
        using (var d = new LwcDecryptStream(new MemoryStream(inner.ToArray()), key))
        {
            Check(d.CanRead && !d.CanWrite && !d.CanSeek, "decrypt: capabilities");
            Throws<NotSupportedException>(() => d.Write(new byte[1], 0, 1), "decrypt: Write");
            Throws<ArgumentOutOfRangeException>(() => d.Read(new byte[4], 3, 2), "decrypt: count past the end");
            Check(d.Read(new byte[0], 0, 0) == 0 && !d.Verified, "decrypt: a read of 0 bytes reads nothing");
            var three = new byte[10];
            Check(d.Read(three, 0, 10) == 3 && d.Read(three, 0, 10) == 0 && d.Verified, "decrypt: 3 bytes");
        }
        var dd = new LwcDecryptStream(new MemoryStream(good), key);
        dd.Dispose();
        Throws<ObjectDisposedException>(() => dd.Read(new byte[1], 0, 1), "decrypt: Read after Dispose");
        File.Delete(keyPath);
    }
}
