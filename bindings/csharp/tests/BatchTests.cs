// SPDX-License-Identifier: MIT OR Apache-2.0
// Lwc.Batch against the single-message calls: every AEAD, hash, XOF, CXOF, MAC and PRF of the
// registry on random inputs of random lengths, every backend this CPU runs, a forged job failing
// alone, and bad arguments failing with a message.
using System;
using System.Linq;
using Lwc;

static partial class Tests
{
    static byte[][] RandomItems(Random rng, int n, Func<int, int> length)
    {
        var items = new byte[n][];
        for (int i = 0; i < n; ++i)
        {
            items[i] = new byte[length(i)];
            rng.NextBytes(items[i]);
        }
        return items;
    }

    // The CXOFs' limit (SP 800-232: customization strings of up to 2048 bits).
    const int MaxCustomization = 256;

    static void BatchJobs()
    {
        var rng = new Random(7);
        string[] backends = { "portable", "avx2", "avx512" };
        Check(BackendsContain(Batch.DefaultBackend, backends), "Batch.DefaultBackend: " + Batch.DefaultBackend);
        Check(Batch.HasLanes("ascon-aead128", "portable") && !Batch.HasLanes("grain-128aead", "portable"),
            "Batch.HasLanes");
        Throws<ArgumentException>(() => Batch.HasLanes("no-such-algorithm", "portable"), "HasLanes: unknown algorithm");
        Throws<ArgumentException>(() => Batch.HasLanes("ascon-aead128", "no-such-backend"), "HasLanes: unknown backend");
        const int n = 13;
        foreach (var backend in backends.Where(Batch.BackendAvailable))
        {
            foreach (var info in Registry.Algorithms)
            {
                string where = "Batch " + info.Name + " (" + backend + ")";
                var keys = RandomItems(rng, n, i => info.KeySize);
                int maxInput = TakesLongInput(info, keys[0]) ? 300 : 17;
                var messages = RandomItems(rng, n, i => i == 0 ? 0 : rng.Next(maxInput));
                switch (info.Kind)
                {
                    case AlgorithmKind.Aead:
                    {
                        var nonces = RandomItems(rng, n, i => info.NonceSize);
                        var ad = RandomItems(rng, n, i => rng.Next(40));
                        var sealedJobs = Batch.Encrypt(info.Name, messages, ad, nonces, keys, 2, backend);
                        bool same = true;
                        for (int i = 0; i < n; ++i)
                            same &= Eq(sealedJobs[i], Aead.Encrypt(info.Name, messages[i], ad[i], nonces[i], keys[i]));
                        Check(same, where + ": Encrypt equals Aead.Encrypt");
                        sealedJobs[5][rng.Next(sealedJobs[5].Length)] ^= 0x10;
                        sealedJobs[9] = new byte[info.TagSize - 1];
                        bool[] ok;
                        var plain = Batch.Decrypt(info.Name, sealedJobs, ad, nonces, keys, out ok, 0, backend);
                        bool good = true;
                        for (int i = 0; i < n; ++i)
                            good &= i == 5 || i == 9 ? !ok[i] && plain[i] == null : ok[i] && Eq(plain[i], messages[i]);
                        Check(good, where + ": Decrypt: the forged and the short job fail alone");
                        var noAd = Batch.Encrypt(info.Name, messages, null, nonces, keys);
                        Check(Eq(noAd[3], Aead.Encrypt(info.Name, messages[3], null, nonces[3], keys[3])),
                            where + ": no associated data");
                        keys[4] = new byte[info.KeySize + 1];
                        Throws<ArgumentException>(() => Batch.Encrypt(info.Name, messages, ad, nonces, keys), where + ": key size");
                        break;
                    }
                    case AlgorithmKind.Hash:
                    case AlgorithmKind.Xof:
                    {
                        int length = info.Kind == AlgorithmKind.Hash ? info.OutputSize : 1 + rng.Next(100);
                        var digests = Batch.HashData(info.Name, messages, length, 1, backend);
                        bool same = true;
                        for (int i = 0; i < n; ++i) same &= Eq(digests[i], Hash.HashData(info.Name, messages[i], length));
                        Check(same, where + ": HashData equals Hash.HashData");
                        break;
                    }
                    case AlgorithmKind.Cxof:
                    {
                        int length = 1 + rng.Next(100);
                        var custom = RandomItems(rng, n, i => rng.Next(MaxCustomization + 1));
                        var digests = Batch.HashData(info.Name, messages, length, custom, 0, backend);
                        bool same = true;
                        for (int i = 0; i < n; ++i)
                            same &= Eq(digests[i], Hash.HashData(info.Name, messages[i], length, custom[i]));
                        Check(same, where + ": CXOF HashData equals Hash.HashData");
                        custom[2] = new byte[MaxCustomization + 1];
                        Throws<ArgumentException>(() => Batch.HashData(info.Name, messages, length, custom),
                            where + ": customization string too long");
                        break;
                    }
                    default:
                    {
                        int length = info.Kind == AlgorithmKind.Mac ? info.OutputSize : 1 + rng.Next(100);
                        var tags = Batch.Mac(info.Name, keys, messages, length, 0, backend);
                        bool same = true;
                        for (int i = 0; i < n; ++i) same &= Eq(tags[i], Hash.Mac(info.Name, keys[i], messages[i], length));
                        Check(same, where + ": Mac equals Hash.Mac");
                        Throws<ArgumentNullException>(() => Batch.Mac(info.Name, null, messages), where + ": no keys");
                        keys[1] = new byte[info.KeySize - 1];
                        Throws<ArgumentException>(() => Batch.Mac(info.Name, keys, messages), where + ": key size");
                        break;
                    }
                }
            }
        }
        Throws<ArgumentException>(() => Batch.HashData("ascon-mac", new[] { new byte[1] }), "HashData refuses a MAC");
        Throws<ArgumentException>(() => Batch.Mac("ascon-hash256", new[] { new byte[16] }, new[] { new byte[1] }),
            "Mac refuses a hash");
        Throws<ArgumentException>(() => Batch.HashData("ascon-hash256", new[] { new byte[1] }, 0, 1, "no-such-backend"),
            "unknown backend");
        Check(Batch.HashData("ascon-hash256", new byte[0][]).Length == 0, "an empty batch");
        Check(Batch.Mac("ascon-mac", new byte[0][], new byte[0][]).Length == 0, "an empty batch of MACs");
        Check(Batch.Encrypt("ascon-aead128", new byte[0][], null, new byte[0][], new byte[0][]).Length == 0,
            "an empty batch of AEAD jobs");
        BatchManyJobs();
        BatchRefusals();
    }

    // A batch of hundreds of jobs of random lengths (empty ones included), with and without
    // associated data, and short and forged jobs spread through a decryption.
    static void BatchManyJobs()
    {
        var rng = new Random(9);
        const int n = 500;
        var keys = RandomItems(rng, n, i => 16);
        var nonces = RandomItems(rng, n, i => 16);
        var messages = RandomItems(rng, n, i => i % 50 == 0 ? 0 : rng.Next(2000));
        var ad = RandomItems(rng, n, i => i % 3 == 0 ? 0 : rng.Next(100));
        foreach (var withAd in new[] { true, false })
        {
            string where = "Batch, " + n + " jobs" + (withAd ? "" : " without associated data");
            var a = withAd ? ad : null;
            var sealedJobs = Batch.Encrypt("ascon-aead128", messages, a, nonces, keys);
            bool same = true;
            for (int i = 0; i < n; ++i)
                same &= Eq(sealedJobs[i], Aead.Encrypt("ascon-aead128", messages[i], withAd ? ad[i] : null, nonces[i], keys[i]));
            Check(same, where + ": Encrypt equals Aead.Encrypt");
            var bad = new[] { 0, 1, 250, 499 };
            sealedJobs[0] = new byte[3];
            sealedJobs[1][0] ^= 1;
            sealedJobs[250][sealedJobs[250].Length - 1] ^= 0x80;
            sealedJobs[499] = new byte[0];
            bool[] ok;
            var plain = Batch.Decrypt("ascon-aead128", sealedJobs, a, nonces, keys, out ok);
            bool good = true;
            for (int i = 0; i < n; ++i)
                good &= bad.Contains(i) ? !ok[i] && plain[i] == null : ok[i] && Eq(plain[i], messages[i]);
            Check(good, where + ": Decrypt: the forged and short jobs fail alone");
        }
        var digests = Batch.HashData("ascon-hash256", messages);
        var macs = Batch.Mac("ascon-mac", keys, messages);
        bool hashed = true;
        for (int i = 0; i < n; ++i)
            hashed &= Eq(digests[i], Hash.HashData("ascon-hash256", messages[i])) && Eq(macs[i], Hash.Mac("ascon-mac", keys[i], messages[i]));
        Check(hashed, "Batch, " + n + " jobs: HashData and Mac equal the single calls");
    }

    // Counts that do not match the messages, and batches whose joined columns would not fit in
    // one array, fail with ArgumentException before the engine runs (the large batches share
    // one 64 MiB array, so nothing of their size is allocated).
    static void BatchRefusals()
    {
        const string aead = "ascon-aead128";
        var rng = new Random(11);
        var messages = RandomItems(rng, 4, i => rng.Next(50));
        var keys = RandomItems(rng, 4, i => 16);
        var nonces = RandomItems(rng, 4, i => 16);
        var ad = RandomItems(rng, 4, i => rng.Next(20));
        var sealedJobs = Batch.Encrypt(aead, messages, ad, nonces, keys);
        bool[] ok;
        Throws<ArgumentException>(() => Batch.Encrypt(aead, messages, ad, nonces, keys.Take(3).ToArray()),
            "Batch.Encrypt: fewer keys than messages");
        Throws<ArgumentException>(() => Batch.Encrypt(aead, messages, ad, nonces.Concat(nonces).ToArray(), keys),
            "Batch.Encrypt: more nonces than messages");
        Throws<ArgumentException>(() => Batch.Encrypt(aead, messages, ad.Take(2).ToArray(), nonces, keys),
            "Batch.Encrypt: fewer associated data than messages");
        Throws<ArgumentException>(() => Batch.Decrypt(aead, sealedJobs, ad, nonces.Take(3).ToArray(), keys, out ok),
            "Batch.Decrypt: fewer nonces than messages");
        Throws<ArgumentException>(() => Batch.Decrypt(aead, sealedJobs, ad.Take(3).ToArray(), nonces, keys, out ok),
            "Batch.Decrypt: fewer associated data than messages");
        Throws<ArgumentException>(() => Batch.Mac("ascon-mac", keys.Take(1).ToArray(), messages),
            "Batch.Mac: fewer keys than messages");
        Throws<ArgumentException>(() => Batch.HashData("ascon-cxof128", messages, 32, new byte[3][]),
            "Batch.HashData: fewer customization strings than messages");

        var big = new byte[(1 << 26) - 1];
        var keys33 = Enumerable.Repeat(keys[0], 33).ToArray();
        // 33 messages of 64 MiB - 1: more than an array holds, joined.
        var tooMany = Enumerable.Repeat(big, 33).ToArray();
        Throws<ArgumentException>(() => Batch.HashData("ascon-hash256", tooMany),
            "Batch.HashData: messages over 2 GiB");
        Throws<ArgumentException>(() => Batch.Encrypt(aead, tooMany, null, RandomItems(rng, 33, i => 16), keys33),
            "Batch.Encrypt: messages over 2 GiB");
        // 32 of them fit (31 bytes short of the limit), but not with their 32 tags.
        var almost = Enumerable.Repeat(big, 32).ToArray();
        Throws<ArgumentException>(() => Batch.Encrypt(aead, almost, null, RandomItems(rng, 32, i => 16), keys33.Take(32).ToArray()),
            "Batch.Encrypt: ciphertexts and tags over 2 GiB");
        // n * outputLength past int: 2^16 empty messages of 2^16-byte outputs.
        var empties = Enumerable.Repeat(new byte[0], 1 << 16).ToArray();
        Throws<ArgumentException>(() => Batch.HashData("ascon-xof128", empties, 1 << 16),
            "Batch.HashData: outputs over 2 GiB");
    }

    // The short-input PRFs (ascon-prfshort) take messages of up to 16 bytes.
    static bool TakesLongInput(AlgorithmInfo info, byte[] key)
    {
        if (info.Kind != AlgorithmKind.Mac && info.Kind != AlgorithmKind.Prf) return true;
        try { Hash.Mac(info.Name, key, new byte[17]); return true; }
        catch (ArgumentException) { return false; }
    }

    static bool BackendsContain(string name, string[] backends) { return backends.Contains(name); }
}
