// SPDX-License-Identifier: MIT OR Apache-2.0
// IncrementalHasher's span overloads against its byte[] calls, for every hash, XOF, CXOF, MAC
// and PRF of the registry: random inputs split at random points and appended as spans inside
// larger arrays, default and explicit output lengths (XOFs beyond their default), and a
// destination too short, which must throw or return false with nothing written and nothing
// reset.
using System;
using System.Linq;
using Lwc;

static partial class Tests
{
    static IncrementalHasher NewHasher(AlgorithmInfo info, byte[] key, byte[] custom)
    {
        if (info.Kind == AlgorithmKind.Mac || info.Kind == AlgorithmKind.Prf) return Hash.CreateMac(info.Name, key);
        if (info.Kind == AlgorithmKind.Cxof) return Hash.CreateCxof(info.Name, custom);
        return Hash.Create(info.Name);
    }

    // data appended as spans of random lengths (empty ones included), each at a random offset of
    // a larger array filled with other bytes, so a span that reached past its end would show.
    static void AppendSpans(IncrementalHasher h, byte[] data, Random rng)
    {
        int off = 0;
        while (off < data.Length || rng.Next(4) == 0)
        {
            int n = Math.Min(data.Length - off, rng.Next(0, 3) == 0 ? rng.Next(0, 4) : rng.Next(0, 200));
            int pad = rng.Next(0, 9);
            var host = new byte[pad + n + rng.Next(0, 9)];
            rng.NextBytes(host);
            Buffer.BlockCopy(data, off, host, pad, n);
            h.AppendData(new ReadOnlySpan<byte>(host, pad, n));
            off += n;
            if (off == data.Length && rng.Next(2) == 0) break;
        }
    }

    // The longest input to try: some PRFs take short inputs only (ascon-prfshort: 16 bytes),
    // which the registry does not list, so ask the one-shot call.
    static int MaxInput(AlgorithmInfo info, byte[] key)
    {
        foreach (int n in new[] { 5000, 64, 32, 16, 8, 0 })
        {
            try
            {
                if (key.Length > 0) Hash.Mac(info.Name, key, new byte[n]);
                else Hash.HashData(info.Name, new byte[n]);
                return n;
            }
            catch (ArgumentException) { }
        }
        return 0;
    }

    static void HasherSpans()
    {
        var rng = new Random(49);
        foreach (var info in Registry.Algorithms.Where(x => x.Kind != AlgorithmKind.Aead))
        {
            bool keyed = info.Kind == AlgorithmKind.Mac || info.Kind == AlgorithmKind.Prf;
            var key = new byte[keyed ? info.KeySize : 0]; rng.NextBytes(key);
            var custom = new byte[rng.Next(0, 40)]; rng.NextBytes(custom);
            int maxIn = MaxInput(info, key);
            // Output lengths: the default, shorter ones, and for XOFs and PRFs longer ones.
            var lengths = new[] { info.OutputSize, 0, 1, info.OutputSize - 1, info.OutputSize + 1, 3 * info.OutputSize + 5 }
                .Where(l => l >= 0 && (info.MaxOutputSize == 0 || l <= info.MaxOutputSize)).Distinct().ToArray();
            using (var a = NewHasher(info, key, custom))
            using (var b = NewHasher(info, key, custom))
            {
                Check(a.HashLengthInBytes == info.OutputSize, info.Name + ": HashLengthInBytes");
                for (int round = 0; round < 12; round++)
                {
                    var data = new byte[rng.Next(0, Math.Min(maxIn, round < 6 ? 300 : 5000) + 1)]; rng.NextBytes(data);
                    string what = info.Name + ", " + data.Length + " bytes, round " + round;
                    // a by spans, b by the byte[] calls at other split points.
                    AppendSpans(a, data, rng);
                    for (int off = 0; off < data.Length; )
                    {
                        int n = rng.Next(0, data.Length - off + 1);
                        b.AppendData(data, off, n);
                        off += n;
                    }
                    int len = round == 0 ? info.OutputSize : lengths[rng.Next(lengths.Length)];
                    var cur = new byte[len + 7];
                    Check(a.GetCurrentHash(new Span<byte>(cur, 3, len), len) == len &&
                        Eq(cur.Skip(3).Take(len).ToArray(), b.GetCurrentHash(len)), what + ": GetCurrentHash(span, " + len + ")");
                    var expect = b.GetHashAndReset(len);
                    // Destination larger than the output, with a sentinel: only the first len bytes change.
                    var dest = Enumerable.Repeat((byte)0xA5, len + 5).ToArray();
                    int w;
                    switch (round % 3)
                    {
                        case 0:
                            w = len == info.OutputSize && round % 2 == 0 ? a.GetHashAndReset(new Span<byte>(dest))
                                : a.GetHashAndReset(new Span<byte>(dest), len);
                            break;
                        case 1:
                            Check(a.TryGetHashAndReset(new Span<byte>(dest), len, out w), what + ": TryGetHashAndReset");
                            break;
                        default:
                            if (len == info.OutputSize) Check(a.TryGetHashAndReset(new Span<byte>(dest), out w), what + ": TryGetHashAndReset");
                            else w = a.GetHashAndReset(new Span<byte>(dest), len);
                            break;
                    }
                    Check(w == len && Eq(dest.Take(len).ToArray(), expect) && dest.Skip(len).All(x => x == 0xA5),
                        what + ": span output of " + len + " bytes, wrote " + w);
                }
                // Reset: both start over from the empty input.
                var empty = b.GetHashAndReset();
                var e2 = new byte[info.OutputSize];
                a.GetHashAndReset(e2);
                Check(Eq(e2, empty), info.Name + ": reset state is empty");

                // A destination one byte short: nothing written, nothing reset, nothing consumed.
                var piece = new byte[Math.Min(50, maxIn)]; rng.NextBytes(piece);
                a.AppendData(new ReadOnlySpan<byte>(piece));
                b.AppendData(piece);
                int want = Math.Max(info.OutputSize, 1);
                var shortDest = Enumerable.Repeat((byte)0x3C, want - 1).ToArray();
                Throws<ArgumentException>(() => a.GetHashAndReset(new Span<byte>(shortDest), want),
                    info.Name + ": GetHashAndReset(span) one byte short");
                int written = -1;
                Check(!a.TryGetHashAndReset(new Span<byte>(shortDest), want, out written) && written == 0,
                    info.Name + ": TryGetHashAndReset(span) one byte short is false");
                if (info.OutputSize > 0)
                {
                    Throws<ArgumentException>(() => a.GetHashAndReset(new Span<byte>(shortDest)),
                        info.Name + ": GetHashAndReset(span) default length one byte short");
                    Check(!a.TryGetHashAndReset(new Span<byte>(shortDest), out written) && written == 0,
                        info.Name + ": TryGetHashAndReset(span) default length one byte short is false");
                    Throws<ArgumentException>(() => a.GetCurrentHash(new Span<byte>(shortDest)),
                        info.Name + ": GetCurrentHash(span) one byte short");
                    Check(!a.TryGetCurrentHash(new Span<byte>(shortDest), out written) && written == 0,
                        info.Name + ": TryGetCurrentHash(span) one byte short is false");
                }
                Check(shortDest.All(x => x == 0x3C), info.Name + ": a short destination got nothing written");
                var after = new byte[want];
                a.GetHashAndReset(new Span<byte>(after), want);
                Check(Eq(after, b.GetHashAndReset(want)), info.Name + ": a short destination reset nothing");
                if (info.MaxOutputSize != 0)
                    Throws<ArgumentOutOfRangeException>(() => a.GetHashAndReset(new Span<byte>(new byte[info.MaxOutputSize + 1]),
                        info.MaxOutputSize + 1), info.Name + ": GetHashAndReset(span) beyond the digest size");

                if (keyed)
                {
                    a.AppendData(new ReadOnlySpan<byte>(piece));
                    var tag = Hash.Mac(info.Name, key, piece);
                    Check(a.VerifyHashAndReset(new ReadOnlySpan<byte>(tag)), info.Name + ": VerifyHashAndReset(span)");
                    a.AppendData(new ReadOnlySpan<byte>(piece));
                    tag[0] ^= 1;
                    Check(!a.VerifyHashAndReset(new ReadOnlySpan<byte>(tag)), info.Name + ": VerifyHashAndReset(span), wrong tag");
                }
            }
            var d = NewHasher(info, key, custom);
            d.Dispose();
            Throws<ObjectDisposedException>(() => d.AppendData(new ReadOnlySpan<byte>(new byte[3])), info.Name + ": AppendData(span) after Dispose");
            Throws<ObjectDisposedException>(() => d.GetHashAndReset(new Span<byte>(new byte[info.OutputSize])),
                info.Name + ": GetHashAndReset(span) after Dispose");
        }
    }
}
