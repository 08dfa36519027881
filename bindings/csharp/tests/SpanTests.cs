// SPDX-License-Identifier: MIT OR Apache-2.0
// The Span overloads: every KAT record through the generic calls and through each generated
// class (bound as delegates, since a span cannot be passed through MethodInfo.Invoke), buffers
// at offsets inside larger arrays, in-place operation, overlap and size errors, wiping on a
// wrong tag.
using System;
using System.Linq;
using System.Security.Cryptography;
using Lwc;

static partial class Tests
{
    delegate int SpanEncrypt(ReadOnlySpan<byte> m, ReadOnlySpan<byte> ad, ReadOnlySpan<byte> n, ReadOnlySpan<byte> k,
        Span<byte> d);
    delegate bool SpanTryDecrypt(ReadOnlySpan<byte> c, ReadOnlySpan<byte> ad, ReadOnlySpan<byte> n,
        ReadOnlySpan<byte> k, Span<byte> d, out int written);
    delegate void SpanHash(ReadOnlySpan<byte> data, Span<byte> d);
    delegate void SpanMac(ReadOnlySpan<byte> key, ReadOnlySpan<byte> data, Span<byte> d);

    static readonly Type Ros = typeof(ReadOnlySpan<byte>), Sp = typeof(Span<byte>);

    static T Bind<T>(Type cls, string name, params Type[] args) where T : class
    {
        var m = cls.GetMethod(name, args);
        return m == null ? null : (T)(object)Delegate.CreateDelegate(typeof(T), m);
    }

    // Called by KatAead for records with the full tag and no second key.
    static void SpanKatAead(AlgorithmInfo info, Type cls, byte[] pt, bool encrypt, byte[] ad, byte[] nonce, byte[] key,
        byte[] full, bool mustFail, string where)
    {
        var enc = Bind<SpanEncrypt>(cls, "Encrypt", Ros, Ros, Ros, Ros, Sp);
        var tryDec = Bind<SpanTryDecrypt>(cls, "TryDecrypt", Ros, Ros, Ros, Ros, Sp, typeof(int).MakeByRefType());
        Check(enc != null && tryDec != null, where + ": " + cls.Name + " span overloads");
        if (enc == null || tryDec == null) return;
        // Outputs at offset 3 of a larger buffer, inputs as slices of padded arrays.
        var padded = new byte[full.Length + 7];
        Buffer.BlockCopy(full, 0, padded, 2, full.Length);
        var cspan = new ReadOnlySpan<byte>(padded, 2, full.Length);
        int written;
        if (encrypt)
        {
            var buf = new byte[full.Length + 6];
            Check(enc(pt, ad, nonce, key, new Span<byte>(buf, 3, full.Length + 2)) == full.Length &&
                Eq(buf.Skip(3).Take(full.Length).ToArray(), full) && buf[2] == 0 && buf[full.Length + 3] == 0,
                where + ": " + cls.Name + ".Encrypt(span)");
            Array.Clear(buf, 0, buf.Length);
            Check(Aead.Encrypt(info.Name, pt, ad, nonce, key, new Span<byte>(buf, 1, full.Length)) == full.Length &&
                Eq(buf.Skip(1).Take(full.Length).ToArray(), full), where + ": Aead.Encrypt(span)");
        }
        var mbuf = Enumerable.Repeat((byte)0xAA, full.Length - info.TagSize + 4).ToArray();
        bool ok = tryDec(cspan, ad, nonce, key, new Span<byte>(mbuf, 2, full.Length - info.TagSize), out written);
        if (mustFail)
        {
            Check(!ok && written == 0 && mbuf.Skip(2).Take(full.Length - info.TagSize).All(b => b == 0),
                where + ": " + cls.Name + ".TryDecrypt(span) must fail, plaintext wiped");
            var d = new byte[full.Length];
            Throws<CryptographicException>(() => Aead.Decrypt(info.Name, full, ad, nonce, key, new Span<byte>(d)),
                where + ": Aead.Decrypt(span) must fail");
        }
        else
        {
            Check(ok && written == pt.Length && Eq(mbuf.Skip(2).Take(written).ToArray(), pt) && mbuf[1] == 0xAA &&
                mbuf[mbuf.Length - 1] == 0xAA, where + ": " + cls.Name + ".TryDecrypt(span)");
            var d = new byte[full.Length];
            Check(Aead.Decrypt(info.Name, full, ad, nonce, key, new Span<byte>(d)) == pt.Length &&
                Eq(d.Take(pt.Length).ToArray(), pt), where + ": Aead.Decrypt(span)");
            // In place: the plaintext replaces the ciphertext at the same start.
            var inPlace = (byte[])full.Clone();
            Check(Aead.TryDecrypt(info.Name, inPlace, ad, nonce, key, new Span<byte>(inPlace), out written) &&
                Eq(inPlace.Take(written).ToArray(), pt), where + ": decrypt in place");
        }
    }

    // Called by KatHash: expected is the KAT output (for a fixed digest maybe a prefix of it).
    static void SpanKatHash(AlgorithmInfo info, Type cls, byte[] msg, byte[] key, byte[] z, byte[] expected, string where)
    {
        int n = info.Kind == AlgorithmKind.Hash && info.MaxOutputSize != 0 ? info.OutputSize : expected.Length;
        var buf = new byte[n + 2];
        var d = new Span<byte>(buf, 1, n);
        if (key != null)
        {
            Hash.Mac(info.Name, key, msg, d);
            Check(Eq(buf.Skip(1).Take(expected.Length).ToArray(), expected), where + ": Hash.Mac(span)");
            var mac = Bind<SpanMac>(cls, "Mac", Ros, Ros, Sp);
            Array.Clear(buf, 0, buf.Length);
            Check(mac != null, where + ": " + cls.Name + ".Mac(span)");
            if (mac != null) mac(key, msg, new Span<byte>(buf, 1, n));
            Check(Eq(buf.Skip(1).Take(expected.Length).ToArray(), expected), where + ": " + cls.Name + ".Mac(span)");
            if (n == expected.Length && n >= info.MinTagSize && n <= info.OutputSize)
            {
                var k = new ReadOnlySpan<byte>(key);
                Check(n == info.OutputSize ? Hash.VerifyMac(info.Name, k, msg, new ReadOnlySpan<byte>(expected))
                    : Hash.VerifyMacTruncated(info.Name, k, msg, new ReadOnlySpan<byte>(expected), n), where + ": VerifyMac(span)");
                var forged = (byte[])expected.Clone(); forged[0] ^= 0x40;
                Check(!Hash.VerifyMacTruncated(info.Name, k, msg, new ReadOnlySpan<byte>(forged), n), where + ": VerifyMac(span) forged");
            }
        }
        else if (z != null)
        {
            Hash.HashData(info.Name, msg, d, z);
            Check(Eq(buf.Skip(1).Take(expected.Length).ToArray(), expected), where + ": Hash.HashData(span, customization)");
        }
        else
        {
            Hash.HashData(info.Name, msg, d);
            Check(Eq(buf.Skip(1).Take(expected.Length).ToArray(), expected), where + ": Hash.HashData(span)");
            var h = Bind<SpanHash>(cls, "HashData", Ros, Sp);
            Array.Clear(buf, 0, buf.Length);
            Check(h != null, where + ": " + cls.Name + ".HashData(span)");
            if (h != null) h(msg, new Span<byte>(buf, 1, n));
            Check(Eq(buf.Skip(1).Take(expected.Length).ToArray(), expected) && buf[0] == 0 && buf[n + 1] == 0,
                where + ": " + cls.Name + ".HashData(span)");
        }
    }

    static void Spans()
    {
        var rng = new Random(48);
        var key = new byte[AsconAead128.KeySize]; rng.NextBytes(key);
        var nonce = new byte[AsconAead128.NonceSize]; rng.NextBytes(nonce);
        var ad = new byte[] { 1, 2, 3 };
        foreach (int size in new[] { 0, 1, 15, 16, 17, 1000 })
        {
            var pt = new byte[size]; rng.NextBytes(pt);
            var expect = AsconAead128.Encrypt(pt, ad, nonce, key);
            // The generated classes called directly (what a program compiles against).
            var c = new byte[size + AsconAead128.TagSize];
            Check(AsconAead128.Encrypt(pt, ad, nonce, key, c) == c.Length && Eq(c, expect), "AsconAead128.Encrypt(span) " + size);
            var m = new byte[size];
            Check(AsconAead128.Decrypt(c, ad, nonce, key, m) == size && Eq(m, pt), "AsconAead128.Decrypt(span) " + size);
            // Encryption in place: the message at the start of the buffer that receives c || tag.
            var buf = new byte[size + AsconAead128.TagSize];
            Buffer.BlockCopy(pt, 0, buf, 0, size);
            Check(AsconAead128.Encrypt(new ReadOnlySpan<byte>(buf, 0, size), ad, nonce, key, buf) == buf.Length &&
                Eq(buf, expect), "encrypt in place " + size);
            // Null and empty associated data are none.
            var x = new byte[size + Xoodyak.TagSize];
            Xoodyak.Encrypt(pt, null, nonce, key, x);
            Check(Eq(x, Xoodyak.Encrypt(pt, null, nonce, key)), "Xoodyak.Encrypt(span), null associated data " + size);
            int w;
            Check(Xoodyak.TryDecrypt(x, default(ReadOnlySpan<byte>), nonce, key, m, out w) && w == size && Eq(m, pt),
                "Xoodyak.TryDecrypt(span), default associated data " + size);
            // A wrong tag: false, destination zeroed.
            c[c.Length - 1] ^= 1;
            var junk = Enumerable.Repeat((byte)0x55, size).ToArray();
            Check(!AsconAead128.TryDecrypt(c, ad, nonce, key, junk, out w) && w == 0 && junk.All(b => b == 0),
                "wrong tag wipes destination " + size);
            Throws<CryptographicException>(() => AsconAead128.Decrypt(c, ad, nonce, key, new byte[size]),
                "Decrypt(span) wrong tag " + size);
        }
        var ctx = AsconAead128.Encrypt(new byte[40], ad, nonce, key);
        int written;
        Check(!AsconAead128.TryDecrypt(new byte[AsconAead128.TagSize - 1], ad, nonce, key, new byte[0], out written),
            "TryDecrypt(span) shorter than a tag");
        Throws<ArgumentException>(() => AsconAead128.Encrypt(new byte[40], ad, nonce, key, new byte[55]), "Encrypt(span): destination short");
        Throws<ArgumentException>(() => AsconAead128.Decrypt(ctx, ad, nonce, key, new byte[39]), "Decrypt(span): destination short");
        Throws<ArgumentException>(() => AsconAead128.Encrypt(new byte[4], ad, nonce, new byte[15], new byte[20]), "Encrypt(span): 15-byte key");
        Throws<ArgumentException>(() => AsconAead128.Encrypt(new byte[4], ad, new byte[17], key, new byte[20]), "Encrypt(span): 17-byte nonce");
        Throws<ArgumentException>(() => AsconAead128.Decrypt(ctx, ad, nonce, new byte[0], new byte[40]), "Decrypt(span): empty key");
        Throws<ArgumentException>(() => Aead.Encrypt("ascon-hash256", new byte[4], ad, nonce, key, new byte[20]), "Aead.Encrypt(span): a hash");
        {
            var b = new byte[100];
            Throws<ArgumentException>(() => AsconAead128.Encrypt(new ReadOnlySpan<byte>(b, 0, 40), ad, nonce, key,
                new Span<byte>(b, 1, 56)), "Encrypt(span): destination one byte after the message");
            Throws<ArgumentException>(() => AsconAead128.Encrypt(new ReadOnlySpan<byte>(b, 20, 40), ad, nonce, key,
                new Span<byte>(b, 0, 56)), "Encrypt(span): tag over the message");
            Throws<ArgumentException>(() => AsconAead128.Encrypt(new ReadOnlySpan<byte>(b, 0, 10), ad, nonce,
                new ReadOnlySpan<byte>(b, 20, 16), new Span<byte>(b, 0, 26)), "Encrypt(span): destination over the key");
            Buffer.BlockCopy(ctx, 0, b, 10, ctx.Length);
            Throws<ArgumentException>(() => AsconAead128.Decrypt(new ReadOnlySpan<byte>(b, 10, ctx.Length), ad, nonce, key,
                new Span<byte>(b, 5, 40)), "Decrypt(span): partial overlap");
        }
        // Hashes.
        var data = new byte[77]; rng.NextBytes(data);
        var digest = new byte[AsconHash256.OutputSize];
        AsconHash256.HashData(data, digest);
        Check(Eq(digest, AsconHash256.HashData(data)), "AsconHash256.HashData(span)");
        var xof = new byte[100];
        AsconXof128.HashData(data, xof);
        Check(Eq(xof, AsconXof128.HashData(data, 100)), "AsconXof128.HashData(span), 100 bytes");
        AsconCxof128.HashData(data, xof, new byte[] { 9, 9 });
        Check(Eq(xof, AsconCxof128.HashData(data, 100, new byte[] { 9, 9 })), "AsconCxof128.HashData(span, customization)");
        Throws<ArgumentException>(() => AsconHash256.HashData(data, new byte[33]), "HashData(span): 33 bytes of a 32-byte hash");
        Throws<ArgumentException>(() => Hash.HashData("ascon-aead128", data, new byte[32]), "Hash.HashData(span): an AEAD");
        var macKey = new byte[AsconMac.KeySize];
        var tag = new byte[AsconMac.OutputSize];
        AsconMac.Mac(macKey, data, tag);
        Check(Eq(tag, AsconMac.Mac(macKey, data)) && AsconMac.Verify(macKey, data, new ReadOnlySpan<byte>(tag)), "AsconMac.Mac(span)");
        Throws<ArgumentException>(() => AsconMac.Mac(new byte[3], data, tag), "Mac(span): 3-byte key");
    }
}
