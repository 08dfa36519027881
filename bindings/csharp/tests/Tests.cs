// SPDX-License-Identifier: MIT OR Apache-2.0
// Tests of Lwc.dll: every KAT file of the registry's algorithms in tests/vectors (generic and
// generated per-algorithm APIs), tampering, bad input, incremental hashing, and lwc files in
// both directions with the lwc tool. A plain console runner: exit status 1 on any failure.
//   mono Tests.exe VECTORS_DIR LWC_CLI TMPDIR
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Security.Cryptography;
using Lwc;

static partial class Tests
{
    static int checks, failures;
    static string vectors, cli, tmp;

    static void Check(bool ok, string what)
    {
        checks++;
        if (!ok)
        {
            failures++;
            if (failures <= 50) Console.WriteLine("FAIL: " + what);
        }
    }

    static void Throws<T>(Action a, string what) where T : Exception
    {
        try { a(); Check(false, what + ": no exception"); }
        catch (T) { Check(true, what); }
        catch (Exception e) { Check(false, what + ": " + e.GetType().Name + ": " + e.Message); }
    }

    static byte[] Hex(string s)
    {
        var b = new byte[s.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(s.Substring(2 * i, 2), 16);
        return b;
    }

    static string ToHex(byte[] b) { return BitConverter.ToString(b).Replace("-", ""); }
    static bool Eq(byte[] a, byte[] b) { return a != null && b != null && a.SequenceEqual(b); }
    static byte[] Cat(byte[] a, byte[] b) { return a.Concat(b).ToArray(); }

    // Same format and file-to-algorithm rule as tests/support/kat_reader.hpp.
    static List<Dictionary<string, string>> ReadKat(string path)
    {
        var records = new List<Dictionary<string, string>>();
        var cur = new Dictionary<string, string>();
        foreach (var raw in File.ReadLines(path).Concat(new[] { "" }))
        {
            string line = raw.Trim();
            if (line.Length == 0)
            {
                if (cur.Count > 0) records.Add(cur);
                cur = new Dictionary<string, string>();
                continue;
            }
            int eq = line.IndexOf('=');
            if (eq < 0) throw new Exception(path + ": no '=' in " + line);
            cur[line.Substring(0, eq).Trim()] = line.Substring(eq + 1).Trim();
        }
        return records;
    }

    static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "--encrypt-file") return EncryptFileChild(args);
        vectors = args[0]; cli = args[1]; tmp = args[2];
        Directory.CreateDirectory(tmp);
        var sw = Stopwatch.StartNew();
        Console.WriteLine("liblwc " + Registry.NativeVersion + ", " + Registry.Algorithms.Count + " algorithms");
        int before;
        before = checks; Kat(); Console.WriteLine("KAT: " + (checks - before) + " checks");
        before = checks; Wycheproof(); Console.WriteLine("Wycheproof: " + (checks - before) + " checks");
        before = checks; Generated(); Console.WriteLine("generated classes: " + (checks - before) + " checks");
        before = checks; Tamper(); Console.WriteLine("tamper: " + (checks - before) + " checks");
        before = checks; BadInput(); Console.WriteLine("bad input: " + (checks - before) + " checks");
        before = checks; Incremental(); Console.WriteLine("incremental hash: " + (checks - before) + " checks");
        before = checks; HasherSpans(); Console.WriteLine("incremental hash, spans: " + (checks - before) + " checks");
        before = checks; Files(); Console.WriteLine("lwc files: " + (checks - before) + " checks");
        before = checks; Spans(); Console.WriteLine("spans: " + (checks - before) + " checks");
        before = checks; Streams(); Console.WriteLine("lwc file streams: " + (checks - before) + " checks");
        before = checks; AsyncStreams(); Console.WriteLine("lwc file streams, async: " + (checks - before) + " checks");
        before = checks; Spill(); Console.WriteLine("spill file: " + (checks - before) + " checks");
        before = checks; Faults(); Console.WriteLine("faults: " + (checks - before) + " checks");
        before = checks; BatchJobs(); Console.WriteLine("batch: " + (checks - before) + " checks");
        Console.WriteLine(string.Format("{0} checks, {1} failures, {2:F1} s", checks, failures,
            sw.Elapsed.TotalSeconds));
        return failures == 0 ? 0 : 1;
    }

    // ---- KAT ----------------------------------------------------------------------------------

    static void Kat()
    {
        var files = Directory.GetFiles(vectors, "*.txt", SearchOption.AllDirectories)
            .Where(p => !p.Contains(Path.DirectorySeparatorChar + "wycheproof" + Path.DirectorySeparatorChar))
            .OrderBy(p => p, StringComparer.Ordinal).ToList();
        int nfiles = 0, nrecords = 0;
        foreach (var info in Registry.Algorithms)
        {
            var mine = files.Where(p =>
            {
                string stem = Path.GetFileNameWithoutExtension(p);
                return stem == info.Name || stem.StartsWith(info.Name + ".");
            }).ToList();
            Check(mine.Count > 0, "no KAT file for " + info.Name);
            foreach (var path in mine)
            {
                var records = ReadKat(path);
                Check(records.Count > 0, path + " has no records");
                nfiles++;
                foreach (var r in records)
                {
                    nrecords++;
                    string where = Path.GetFileName(path) + " Count=" + (r.ContainsKey("Count") ? r["Count"] : "?");
                    try
                    {
                        if (info.Kind == AlgorithmKind.Aead) KatAead(info, r, where);
                        else KatHash(info, r, where);
                    }
                    catch (Exception e) { Check(false, where + ": " + e.GetType().Name + ": " + e.Message); }
                }
            }
        }
        foreach (var p in files)
        {
            string stem = Path.GetFileNameWithoutExtension(p).Split('.')[0];
            AlgorithmInfo unused;
            Check(Registry.TryGet(stem, out unused), p + " belongs to no registered algorithm");
        }
        Console.WriteLine("KAT: " + nfiles + " files, " + nrecords + " records");
    }

    static readonly Type[] Arrays4 = { typeof(byte[]), typeof(byte[]), typeof(byte[]), typeof(byte[]) };

    static void KatAead(AlgorithmInfo info, Dictionary<string, string> r, string where)
    {
        byte[] key = Hex(r["Key"]), nonce = Hex(r["Nonce"]), ad = Hex(r["AD"]), ct = Hex(r["CT"]), tag;
        if (r.ContainsKey("Tag")) tag = Hex(r["Tag"]);
        else
        {
            tag = ct.Skip(ct.Length - info.TagSize).ToArray();
            ct = ct.Take(ct.Length - info.TagSize).ToArray();
        }
        byte[] second = r.ContainsKey("SecondKey") ? Hex(r["SecondKey"]) : null;
        bool mustFail = r.ContainsKey("TestPassed") && r["TestPassed"] == "False";
        bool decryptOnly = (r.ContainsKey("Direction") && r["Direction"] == "decrypt") || r.ContainsKey("TestPassed");
        bool plain = tag.Length == info.TagSize && second == null;
        var cls = Type.GetType("Lwc." + Registry.PascalCase(info.Name) + ", Lwc");
        var full = Cat(ct, tag);
        if (!decryptOnly)
        {
            var pt = Hex(r["PT"]);
            Check(Eq(Aead.Encrypt(info.Name, pt, ad, nonce, key, tag.Length, second), full), where + ": encrypt");
            byte[] t2;
            var c2 = Aead.EncryptDetached(info.Name, pt, ad, nonce, key, out t2, tag.Length, second);
            Check(Eq(c2, ct) && Eq(t2, tag), where + ": encrypt detached");
            if (plain)
            {
                Check(Eq(Aead.Encrypt(info.Name, pt, ad, nonce, key), full), where + ": encrypt (full tag)");
                var c = (byte[])cls.GetMethod("Encrypt", Arrays4).Invoke(null, new object[] { pt, ad, nonce, key });
                Check(Eq(c, full), where + ": " + cls.Name + ".Encrypt");
                var cbuf = new byte[pt.Length + info.TagSize + 3];
                var a = new object[] { cbuf, 0, pt, pt.Length, ad, ad.Length, null, nonce, key };
                int rc = (int)cls.GetMethod("crypto_aead_encrypt").Invoke(null, a);
                Check(rc == 0 && (int)a[1] == full.Length && Eq(cbuf.Take(full.Length).ToArray(), full),
                    where + ": crypto_aead_encrypt");
            }
        }
        if (plain)
            SpanKatAead(info, cls, r.ContainsKey("PT") ? Hex(r["PT"]) : null, !decryptOnly, ad, nonce, key, full, mustFail,
                where);
        if (mustFail)
        {
            Throws<CryptographicException>(() => Aead.Decrypt(info.Name, full, ad, nonce, key, tag.Length, second),
                where + ": decrypt must fail");
            byte[] m;
            Check(!Aead.TryDecrypt(info.Name, full, ad, nonce, key, tag.Length, second, out m) && m == null,
                where + ": TryDecrypt must fail");
            Throws<CryptographicException>(() => DecryptDetachedAnyTag(info, ct, tag, ad, nonce, key, second),
                where + ": decrypt detached must fail");
        }
        else
        {
            var pt = Hex(r["PT"]);
            Check(Eq(Aead.Decrypt(info.Name, full, ad, nonce, key, tag.Length, second), pt), where + ": decrypt");
            Check(Eq(DecryptDetachedAnyTag(info, ct, tag, ad, nonce, key, second), pt), where + ": decrypt detached");
            if (plain)
            {
                Check(Eq(Aead.Decrypt(info.Name, full, ad, nonce, key), pt), where + ": decrypt (full tag)");
                var m = (byte[])cls.GetMethod("Decrypt", Arrays4).Invoke(null, new object[] { full, ad, nonce, key });
                Check(Eq(m, pt), where + ": " + cls.Name + ".Decrypt");
                var mbuf = new byte[pt.Length + 1];
                var a = new object[] { mbuf, 0, null, full, full.Length, ad, ad.Length, nonce, key };
                int rc = (int)cls.GetMethod("crypto_aead_decrypt").Invoke(null, a);
                Check(rc == 0 && (int)a[1] == pt.Length && Eq(mbuf.Take(pt.Length).ToArray(), pt),
                    where + ": crypto_aead_decrypt");
            }
        }
    }

    // The KAT's tag length is the configuration here: truncated tags through the named calls.
    static byte[] DecryptDetachedAnyTag(AlgorithmInfo info, byte[] ct, byte[] tag, byte[] ad, byte[] nonce, byte[] key,
        byte[] second)
    {
        return tag.Length == info.TagSize ? Aead.DecryptDetached(info.Name, ct, tag, ad, nonce, key, second)
            : Aead.DecryptDetachedTruncated(info.Name, ct, tag, tag.Length, ad, nonce, key, second);
    }

    static void KatHash(AlgorithmInfo info, Dictionary<string, string> r, string where)
    {
        bool keyed = info.KeySize != 0;
        var msg = Hex(r["Msg"]);
        var expected = Hex(keyed ? r["Tag"] : r["MD"]);
        byte[] z = r.ContainsKey("Z") ? Hex(r["Z"]) : null;
        byte[] key = keyed ? Hex(r["Key"]) : null;
        int len = expected.Length;
        // Hashes with a fixed digest: KAT files may list a prefix of it.
        Func<Func<int, byte[]>, byte[]> output = f =>
            info.MaxOutputSize != 0 && info.Kind == AlgorithmKind.Hash ? f(info.OutputSize).Take(len).ToArray() : f(len);
        byte[] got;
        if (keyed) got = output(n => Hash.Mac(info.Name, key, msg, n));
        else if (z != null) got = output(n => Hash.HashData(info.Name, msg, n, z));
        else got = output(n => Hash.HashData(info.Name, msg, n));
        Check(Eq(got, expected), where + ": one-shot");
        if (!keyed && z == null && info.OutputSize == len)
            Check(Eq(Hash.HashData(info.Name, msg), expected), where + ": default length");
        // Incremental, in three pieces, and the generated class.
        using (var h = keyed ? Hash.CreateMac(info.Name, key) : z != null ? Hash.CreateCxof(info.Name, z) : Hash.Create(info.Name))
        {
            int third = msg.Length / 3;
            h.AppendData(msg, 0, third);
            h.AppendData(msg, third, third);
            h.AppendData(msg.Skip(2 * third).ToArray());
            Check(Eq(output(n => h.GetCurrentHash(n)), expected), where + ": GetCurrentHash");
            Check(Eq(output(n => h.GetHashAndReset(n)), expected), where + ": incremental");
            h.AppendData(msg);
            Check(Eq(output(n => h.GetHashAndReset(n)), expected), where + ": after reset");
            // Verifiers take tags from MinTagSize to the full tag (a PRF's longer outputs are
            // checked above as outputs).
            if (keyed && len >= info.MinTagSize && len <= info.OutputSize)
            {
                h.AppendData(msg);
                bool full = len == info.OutputSize;
                Check(full ? h.VerifyHashAndReset(expected) : h.VerifyHashAndResetTruncated(expected, len),
                    where + ": VerifyHashAndReset");
                Check(full ? Hash.VerifyMac(info.Name, key, msg, expected)
                    : Hash.VerifyMacTruncated(info.Name, key, msg, expected, len), where + ": VerifyMac");
                var forged = (byte[])expected.Clone();
                forged[forged.Length - 1] ^= 1;
                Check(!Hash.VerifyMacTruncated(info.Name, key, msg, forged, len), where + ": VerifyMac forged");
                if (!full) Check(!Hash.VerifyMac(info.Name, key, msg, expected), where + ": VerifyMac took a truncated tag");
            }
        }
        var cls = Type.GetType("Lwc." + Registry.PascalCase(info.Name) + ", Lwc");
        Check(cls != null, where + ": generated class");
        if (cls != null && (info.MaxOutputSize == 0 || len <= info.MaxOutputSize)) SpanKatHash(info, cls, msg, key, z, expected, where);
        if (cls != null && !keyed && z == null)
        {
            var m = cls.GetMethod("HashData", new[] { typeof(byte[]), typeof(int) });
            Check(Eq(output(n => (byte[])m.Invoke(null, new object[] { msg, n })), expected), where + ": " + cls.Name);
        }
        if (cls != null && keyed)
        {
            var m = cls.GetMethod("Mac", new[] { typeof(byte[]), typeof(byte[]), typeof(int) });
            Check(Eq(output(n => (byte[])m.Invoke(null, new object[] { key, msg, n })), expected), where + ": " + cls.Name);
        }
    }

    // ---- Project Wycheproof (tests/vectors/wycheproof) ---------------------------------------

    static void Wycheproof()
    {
        var files = new Dictionary<string, string[]>
        {
            { "ascon128_test.json", new[] { "ASCON128", "ascon-128", "192" } },
            { "ascon128a_test.json", new[] { "ASCON128A", "ascon-128a", "192" } },
            { "ascon80pq_test.json", new[] { "ASCON80PQ", "ascon-80pq", "192" } },
            { "ascon_sp800_232_aead128_test.json", new[] { "ASCON-AEAD128", "ascon-aead128", "252" } },
        };
        var dir = Path.Combine(vectors, "wycheproof");
        Check(Directory.GetFiles(dir, "*.json").Select(Path.GetFileName).OrderBy(x => x)
            .SequenceEqual(files.Keys.OrderBy(x => x)), "Wycheproof: the set of files");
        var json = new System.Web.Script.Serialization.JavaScriptSerializer { MaxJsonLength = int.MaxValue };
        int total = 0;
        foreach (var kv in files)
        {
            var doc = (Dictionary<string, object>)json.DeserializeObject(File.ReadAllText(Path.Combine(dir, kv.Key)));
            Check((string)doc["algorithm"] == kv.Value[0], kv.Key + ": algorithm");
            var info = Registry.Get(kv.Value[1]);
            int count = 0;
            foreach (Dictionary<string, object> g in (object[])doc["testGroups"])
            {
                int tagBits = (int)g["tagSize"];
                bool supported = (int)g["keySize"] == 8 * info.KeySize && (int)g["ivSize"] == 8 * info.NonceSize
                    && tagBits % 8 == 0 && info.MinTagSize <= tagBits / 8 && tagBits / 8 <= info.TagSize;
                foreach (Dictionary<string, object> t in (object[])g["tests"])
                {
                    count++;
                    string where = kv.Key + " tcId " + t["tcId"];
                    byte[] key = Hex((string)t["key"]), nonce = Hex((string)t["iv"]), ad = Hex((string)t["aad"]);
                    byte[] msg = Hex((string)t["msg"]), ct = Hex((string)t["ct"]), tag = Hex((string)t["tag"]);
                    bool valid = (string)t["result"] == "valid";
                    var full = Cat(ct, tag);
                    if (!supported)
                    {
                        Check(!valid, where + ": unsupported yet valid");
                        Throws<ArgumentException>(() => Aead.Decrypt(info.Name, full, ad, nonce, key, tag.Length, null),
                            where + ": unsupported sizes");
                        continue;
                    }
                    var produced = Aead.Encrypt(info.Name, msg, ad, nonce, key, tag.Length, null);
                    byte[] m;
                    bool ok = Aead.TryDecrypt(info.Name, full, ad, nonce, key, tag.Length, null, out m);
                    if (valid)
                        Check(Eq(produced, full) && ok && Eq(m, msg), where + ": valid vector");
                    else
                        Check(!Eq(produced, full) && !ok && m == null, where + ": invalid vector accepted");
                }
            }
            Check(count == int.Parse(kv.Value[2]), kv.Key + ": " + count + " vectors");
            total += count;
        }
        Check(total == 828, "Wycheproof: " + total + " vectors");
    }

    // ---- generated classes --------------------------------------------------------------------

    static void Generated()
    {
        var asm = typeof(Aead).Assembly;
        foreach (var info in Registry.Algorithms)
        {
            var cls = asm.GetType("Lwc." + Registry.PascalCase(info.Name));
            Check(cls != null, "class for " + info.Name);
            if (cls == null) continue;
            Check((string)cls.GetField("Name").GetValue(null) == info.Name, cls.Name + ".Name");
            if (info.Kind == AlgorithmKind.Aead)
            {
                Check((int)cls.GetField("KeySize").GetValue(null) == info.KeySize, cls.Name + ".KeySize");
                Check((int)cls.GetField("NonceSize").GetValue(null) == info.NonceSize, cls.Name + ".NonceSize");
                Check((int)cls.GetField("TagSize").GetValue(null) == info.TagSize, cls.Name + ".TagSize");
            }
        }
        // Spot check: the names the issue spells out, called directly.
        var k = new byte[16]; var n = new byte[16];
        var c = AsconAead128.Encrypt(new byte[] { 1, 2, 3 }, null, n, k);
        Check(Eq(AsconAead128.Decrypt(c, new byte[0], n, k), new byte[] { 1, 2, 3 }), "AsconAead128 round trip");
        Check(Eq(Ascon128.Decrypt(Ascon128.Encrypt(new byte[0], null, n, k), null, n, k), new byte[0]), "Ascon128");
        Check(Xoodyak.KeySize == 16 && Xoodyak.TagSize == 16, "Xoodyak sizes");
        Check(AsconHash256.HashData(new byte[0]).Length == 32, "AsconHash256");
    }

    // ---- tampering ----------------------------------------------------------------------------

    static void Tamper()
    {
        var rng = new Random(23);
        foreach (var info in Registry.Algorithms.Where(a => a.Kind == AlgorithmKind.Aead))
        {
            var key = new byte[info.KeySize]; rng.NextBytes(key);
            var nonce = new byte[info.NonceSize]; rng.NextBytes(nonce);
            var ad = new byte[3]; rng.NextBytes(ad);
            var pt = new byte[5]; rng.NextBytes(pt);
            var c = Aead.Encrypt(info.Name, pt, ad, nonce, key);
            Check(Eq(Aead.Decrypt(info.Name, c, ad, nonce, key), pt), info.Name + ": round trip");
            int rejected = 0, total = 0, wiped = 0;
            Action<byte[], byte[], byte[], byte[]> tryAll = (cc, aa, nn, kk) =>
            {
                total++;
                byte[] m;
                bool ok = Aead.TryDecrypt(info.Name, cc, aa, nn, kk, out m);
                var mbuf = Enumerable.Repeat((byte)0xAA, cc.Length).ToArray();
                int mlen;
                int rc = Aead.CryptoAeadDecrypt(info.Name, mbuf, out mlen, null, cc, cc.Length, aa, aa.Length, nn, kk);
                bool threw = false;
                try { Aead.Decrypt(info.Name, cc, aa, nn, kk); } catch (CryptographicException) { threw = true; }
                if (!ok && m == null && rc == -1 && mlen == 0 && threw) rejected++;
                if (mbuf.Take(cc.Length - info.TagSize).All(b => b == 0)) wiped++;
            };
            for (int bit = 0; bit < 8 * c.Length; bit++)
            {
                var t = (byte[])c.Clone(); t[bit / 8] ^= (byte)(1 << (bit % 8));
                tryAll(t, ad, nonce, key);
            }
            for (int bit = 0; bit < 8 * ad.Length; bit++)
            {
                var t = (byte[])ad.Clone(); t[bit / 8] ^= (byte)(1 << (bit % 8));
                tryAll(c, t, nonce, key);
            }
            for (int bit = 0; bit < 8 * nonce.Length; bit++)
            {
                var t = (byte[])nonce.Clone(); t[bit / 8] ^= (byte)(1 << (bit % 8));
                tryAll(c, ad, t, key);
            }
            tryAll(c.Take(c.Length - 1).ToArray(), ad, nonce, key);          // truncated
            tryAll(Cat(c, new byte[] { 0 }), ad, nonce, key);                 // appended byte
            tryAll(c, Cat(ad, new byte[] { 0 }), nonce, key);                 // longer AD
            Check(rejected == total, info.Name + ": " + (total - rejected) + " of " + total + " tampered inputs accepted");
            Check(wiped == total, info.Name + ": crypto_aead_decrypt left output after a failure");
            byte[] none;
            Check(!Aead.TryDecrypt(info.Name, new byte[info.TagSize - 1], ad, nonce, key, out none), info.Name + ": short");
        }
    }

    // ---- bad input ----------------------------------------------------------------------------

    static void BadInput()
    {
        string a = "ascon-aead128";
        var k = new byte[16]; var n = new byte[16]; var m = new byte[4];
        Throws<ArgumentNullException>(() => Aead.Encrypt(null, m, null, n, k), "null algorithm");
        Throws<ArgumentNullException>(() => Aead.Encrypt(a, null, null, n, k), "null message");
        Throws<ArgumentNullException>(() => Aead.Encrypt(a, m, null, null, k), "null nonce");
        Throws<ArgumentNullException>(() => Aead.Encrypt(a, m, null, n, null), "null key");
        Throws<ArgumentNullException>(() => Aead.Decrypt(a, null, null, n, k), "null ciphertext");
        Throws<ArgumentException>(() => Aead.Encrypt("ascon-aead129", m, null, n, k), "unknown name");
        Throws<ArgumentException>(() => Aead.Encrypt("ascon-hash256", m, null, n, k), "hash as AEAD");
        Throws<ArgumentException>(() => Aead.Encrypt(a, m, null, n, new byte[15]), "short key");
        Throws<ArgumentException>(() => Aead.Encrypt(a, m, null, n, new byte[17]), "long key");
        Throws<ArgumentException>(() => Aead.Encrypt(a, m, null, new byte[12], k), "short nonce");
        Throws<ArgumentException>(() => Aead.Decrypt(a, new byte[20], null, n, new byte[8]), "decrypt short key");
        Throws<ArgumentException>(() => AsconAead128.Encrypt(m, null, new byte[17], k), "class: long nonce");
        Throws<ArgumentException>(() => Ascon80pq.Encrypt(m, null, n, k), "ascon-80pq with a 16-byte key");
        Throws<ArgumentOutOfRangeException>(() => Aead.Encrypt(a, m, null, n, k, 2, null), "tag too short");
        Throws<ArgumentOutOfRangeException>(() => Aead.Encrypt(a, m, null, n, k, 17, null), "tag too long");
        Throws<ArgumentException>(() => Aead.Encrypt("xoodyak", m, null, n, k, 16, new byte[16]), "second key");
        int clen;
        Throws<ArgumentException>(() => AsconAead128.crypto_aead_encrypt(new byte[19], out clen, m, 4, null, 0, null, n, k),
            "crypto_aead_encrypt: c too small");
        Throws<ArgumentException>(() => AsconAead128.crypto_aead_encrypt(new byte[40], out clen, m, 5, null, 0, null, n, k),
            "crypto_aead_encrypt: mlen past m");
        Throws<ArgumentNullException>(() => AsconAead128.crypto_aead_encrypt(new byte[40], out clen, null, 4, null, 0, null, n, k),
            "crypto_aead_encrypt: m null");
        int mlen;
        Check(AsconAead128.crypto_aead_decrypt(new byte[4], out mlen, null, new byte[15], 15, null, 0, n, k) == -1,
            "crypto_aead_decrypt: shorter than a tag");
        Throws<ArgumentNullException>(() => Hash.HashData("ascon-hash256", null), "hash: null data");
        Throws<ArgumentException>(() => Hash.HashData("nope", m), "hash: unknown");
        Throws<ArgumentException>(() => Hash.HashData("ascon-aead128", m), "hash: AEAD name");
        Throws<ArgumentOutOfRangeException>(() => Hash.HashData("ascon-hash256", m, 33), "hash: too long");
        Check(Hash.HashData("ascon-xof128", m, 1000).Length == 1000, "xof: long output");
        Throws<ArgumentException>(() => Hash.Mac("ascon-mac", new byte[15], m), "mac: short key");
        Throws<ArgumentException>(() => Hash.Create("ascon-mac"), "incremental MAC without key");
        Throws<ArgumentException>(() => Hash.Create("nope"), "incremental: unknown");
        Throws<ArgumentNullException>(() => Hash.Create(null), "incremental: null");
        Throws<ArgumentNullException>(() => LwcFile.Encrypt(null, new MemoryStream(), new byte[32]), "file: null input");
        Throws<ArgumentException>(() => LwcFile.Encrypt(new MemoryStream(), new MemoryStream(), new byte[16]), "file: short key");
        Throws<ArgumentException>(() => LwcFile.Encrypt(new MemoryStream(), new MemoryStream(), new byte[32], "ascon-hash256"),
            "file: hash algorithm");
        Throws<ArgumentOutOfRangeException>(() => LwcFile.Encrypt(new MemoryStream(), new MemoryStream(), new byte[32],
            chunkSize: 100), "file: chunk size");
    }

    static void Incremental()
    {
        var data = Enumerable.Range(0, 1000).Select(i => (byte)i).ToArray();
        foreach (var info in Registry.Algorithms.Where(x => x.Kind == AlgorithmKind.Hash || x.Kind == AlgorithmKind.Xof))
        {
            var one = Hash.HashData(info.Name, data);
            using (var h = Hash.Create(info.Name))
            {
                for (int i = 0; i < data.Length; i += 7) h.AppendData(data, i, Math.Min(7, data.Length - i));
                Check(Eq(h.GetHashAndReset(), one), info.Name + ": 7-byte pieces");
                Check(Eq(h.GetHashAndReset(), Hash.HashData(info.Name, new byte[0])), info.Name + ": reset state is empty");
                Throws<ArgumentOutOfRangeException>(() => h.AppendData(data, 999, 2), info.Name + ": range");
            }
            var d = Hash.Create(info.Name); d.Dispose();
            Throws<ObjectDisposedException>(() => d.AppendData(data), info.Name + ": disposed");
        }
    }

    // ---- lwc files ----------------------------------------------------------------------------

    static int Run(string args, out string stderr)
    {
        var psi = new ProcessStartInfo(cli, args) { UseShellExecute = false, RedirectStandardError = true };
        using (var p = Process.Start(psi))
        {
            stderr = p.StandardError.ReadToEnd();
            p.WaitForExit();
            return p.ExitCode;
        }
    }

    static byte[] EncryptBytes(byte[] pt, byte[] key, string alg = LwcFile.DefaultAlgorithm, int chunk = 0)
    {
        var o = new MemoryStream();
        LwcFile.Encrypt(new MemoryStream(pt), o, key, alg, chunk);
        return o.ToArray();
    }

    static void Files()
    {
        string err;
        string keyPath = Path.Combine(tmp, "cli.key");
        File.Delete(keyPath);
        Check(Run("keygen -o " + keyPath, out err) == 0, "lwc keygen: " + err);
        var key = LwcFile.LoadKey(keyPath);
        Check(key.Length == 32, "LoadKey");
        var rng = new Random(45);
        foreach (int size in new[] { 0, 1, 63, 64, 65, 1000, 100000, 5 << 20 })
        {
            var pt = new byte[size]; rng.NextBytes(pt);
            string plain = Path.Combine(tmp, "p" + size), enc = plain + ".lwc", dec = plain + ".out";
            File.WriteAllBytes(plain, pt);
            File.Delete(enc); File.Delete(dec);
            // lwc encrypt -> C#
            Check(Run("encrypt -k " + keyPath + " --chunk-size 4096 -o " + enc + " " + plain, out err) == 0, "lwc encrypt: " + err);
            var o = new MemoryStream();
            using (var f = File.OpenRead(enc)) LwcFile.Decrypt(f, o, key);
            Check(Eq(o.ToArray(), pt), "C# decrypt of lwc encrypt, " + size + " bytes");
            // C# -> lwc decrypt
            foreach (var alg in new[] { "ascon-aead128", "xoodyak" })
            {
                File.WriteAllBytes(enc, EncryptBytes(pt, key, alg, size > 100000 ? 0 : 64));
                File.Delete(dec);
                Check(Run("decrypt -k " + keyPath + " -o " + dec + " " + enc, out err) == 0, "lwc decrypt (" + alg + "): " + err);
                Check(File.Exists(dec) && Eq(File.ReadAllBytes(dec), pt), "lwc decrypt of C# " + alg + ", " + size + " bytes");
            }
            // EncryptFile / DecryptFile
            File.Delete(enc); File.Delete(dec);
            LwcFile.EncryptFile(plain, enc, key);
            LwcFile.DecryptFile(enc, dec, key);
            Check(Eq(File.ReadAllBytes(dec), pt), "EncryptFile/DecryptFile, " + size + " bytes");
            File.Delete(plain); File.Delete(enc); File.Delete(dec);
        }
        // Every stream-capable AEAD round trips.
        foreach (var info in Registry.Algorithms.Where(x => x.StreamSupported))
        {
            var pt = new byte[300]; rng.NextBytes(pt);
            var o = new MemoryStream();
            LwcFile.Decrypt(new MemoryStream(EncryptBytes(pt, key, info.Name, 64)), o, key);
            Check(Eq(o.ToArray(), pt), "round trip " + info.Name);
        }
        // Rejections: nothing at all reaches the output.
        var msg = new byte[10000]; rng.NextBytes(msg);
        var good = EncryptBytes(msg, key, "ascon-aead128", 1024);
        Action<byte[], LwcFileError, string> reject = (data, code, what) =>
        {
            var o = new MemoryStream();
            try
            {
                LwcFile.Decrypt(new MemoryStream(data), o, key);
                Check(false, what + ": accepted");
            }
            catch (LwcFileException e) { Check(code == LwcFileError.None || e.Error == code, what + ": " + e.Error + " " + e.Message); }
            catch (Exception e) { Check(false, what + ": " + e.GetType().Name + " " + e.Message); }
            Check(o.Length == 0, what + ": " + o.Length + " bytes released");
        };
        for (int cut = 1; cut < good.Length; cut += 97)
            reject(good.Take(good.Length - cut).ToArray(), LwcFileError.None, "truncated by " + cut);
        reject(good.Take(good.Length - 1).ToArray(), LwcFileError.None, "truncated by 1");
        reject(good.Take(10).ToArray(), LwcFileError.Truncated, "header cut");
        reject(new byte[0], LwcFileError.NotAStream, "empty");
        reject(Cat(good, new byte[] { 0 }), LwcFileError.Authentication, "one byte appended");
        reject(Cat(good, good.Skip(60).Take(1040).ToArray()), LwcFileError.Authentication, "chunk appended");
        for (int i = 60; i < good.Length; i += 331)
        {
            var t = (byte[])good.Clone(); t[i] ^= 0x10;
            reject(t, LwcFileError.None, "byte " + i + " flipped");
        }
        var other = (byte[])key.Clone(); other[0] ^= 1;
        {
            var o = new MemoryStream();
            try { LwcFile.Decrypt(new MemoryStream(good), o, other); Check(false, "wrong key accepted"); }
            catch (LwcFileException e) { Check(e.Error == LwcFileError.WrongKey, "wrong key: " + e.Error); }
            Check(o.Length == 0, "wrong key: output");
        }
        // The CLI rejects what C# truncated; C# SaveKey files work with the CLI.
        string trunc = Path.Combine(tmp, "trunc.lwc"), outp = Path.Combine(tmp, "trunc.out");
        File.WriteAllBytes(trunc, good.Take(good.Length - 1040).ToArray());
        File.Delete(outp);
        Check(Run("decrypt -k " + keyPath + " -o " + outp + " " + trunc, out err) == 1 && !File.Exists(outp),
            "lwc decrypt of a truncated file");
        Throws<CryptographicException>(() => LwcFile.DecryptFile(trunc, outp, key), "DecryptFile truncated");
        Check(!File.Exists(outp), "DecryptFile truncated: no output");
        string key2 = Path.Combine(tmp, "cs.key");
        File.Delete(key2);
        var k2 = LwcFile.GenerateKey();
        LwcFile.SaveKey(key2, k2);
        File.WriteAllBytes(trunc, EncryptBytes(msg, k2));
        Check(Run("decrypt -k " + key2 + " -o " + outp + " " + trunc, out err) == 0 && Eq(File.ReadAllBytes(outp), msg),
            "lwc decrypt with a C# SaveKey file: " + err);
        Check(Eq(LwcFile.LoadKey(key2), k2), "LoadKey(SaveKey)");
        Throws<IOException>(() => LwcFile.SaveKey(key2, k2), "SaveKey refuses an existing file");
        File.Delete(trunc); File.Delete(outp); File.Delete(key2); File.Delete(keyPath);
    }
}
