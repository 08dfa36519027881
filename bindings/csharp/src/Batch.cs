// SPDX-License-Identifier: MIT OR Apache-2.0
// Many independent messages in one call, through liblwc's batch engine (include/lwc/batch.h):
// SIMD lanes and threads, results equal to the single-message calls byte for byte.
using System;
using System.Runtime.InteropServices;

namespace Lwc
{
    /// <summary>
    /// Many independent messages at once: every job has its own key, nonce, associated data and
    /// length. The jobs run in SIMD lanes where the algorithm has a lane kernel for the backend
    /// (see <see cref="HasLanes"/>), else job by job, on <c>threads</c> threads (0: all). The
    /// calls keep no state and may be made from many threads at once. Tags are the algorithm's
    /// full tag. Never use a nonce twice under one key.
    /// </summary>
    public static class Batch
    {
        /// <summary>The backend used when none is named: the fastest this CPU runs, or the one
        /// named by the environment variable LWC_BACKEND.</summary>
        public static string DefaultBackend
        {
            get { return Marshal.PtrToStringAnsi(Native.lwc_batch_default_backend()); }
        }

        /// <summary>True when this build and CPU run the backend ("portable", "avx2", "avx512", "neon").</summary>
        public static bool BackendAvailable(string backend)
        {
            if (backend == null) throw new ArgumentNullException("backend");
            return Native.lwc_batch_backend_available(backend) == 1;
        }

        /// <summary>True when backend runs algorithm in SIMD lanes, false when it runs it job by
        /// job (same results, slower). ArgumentException for an unknown algorithm or a backend
        /// this build and CPU do not run.</summary>
        public static bool HasLanes(string algorithm, string backend)
        {
            if (algorithm == null) throw new ArgumentNullException("algorithm");
            if (backend == null) throw new ArgumentNullException("backend");
            int r = Native.lwc_batch_has_lanes(algorithm, backend);
            if (r < 0) throw new ArgumentException(Native.LastError());
            return r == 1;
        }

        // ---- AEAD ----------------------------------------------------------------------------

        /// <summary>Encrypts messages[i] under keys[i] and nonces[i] with associatedData[i]
        /// (associatedData may be null: none); returns ciphertext || tag for each job, as
        /// <see cref="Aead.Encrypt(string, byte[], byte[], byte[], byte[])"/> does.</summary>
        public static unsafe byte[][] Encrypt(string algorithm, byte[][] messages, byte[][] associatedData,
            byte[][] nonces, byte[][] keys, int threads = 0, string backend = null)
        {
            var info = Aead.GetInfo(algorithm);
            if (messages == null) throw new ArgumentNullException("messages");
            int n = messages.Length;
            byte[] keyBytes = JoinFixed(keys, "keys", n, info.KeySize);
            byte[] nonceBytes = JoinFixed(nonces, "nonces", n, info.NonceSize);
            UIntPtr[] offsets, adOffsets = null;
            byte[] input = Join(messages, "messages", n, out offsets);
            byte[] ad = associatedData == null ? null : Join(associatedData, "associatedData", n, out adOffsets);
            int tag = info.TagSize;
            var output = new byte[input.Length];
            var tags = new byte[checked(n * tag)];
            var opt = Options(threads, backend);
            int rc;
            fixed (byte* pk = keyBytes) fixed (byte* pn = nonceBytes) fixed (byte* pi = input)
            fixed (UIntPtr* po = offsets) fixed (byte* pa = ad) fixed (UIntPtr* pao = adOffsets)
            fixed (byte* pout = output) fixed (byte* pt = tags)
            {
                var jobs = new Native.BatchPackedJobs
                {
                    Keys = pk, Nonces = pn, SecondKeys = null, In = pi, Offsets = po, Ad = pa, AdOffsets = pao
                };
                rc = Native.lwc_batch_encrypt_packed(info.NamePtr, (UIntPtr)n, &jobs, pout, pt, (UIntPtr)tag, ref opt);
            }
            Array.Clear(keyBytes, 0, keyBytes.Length);
            if (rc != 0) throw new ArgumentException(Native.LastError());
            var sealedJobs = new byte[n][];
            for (int i = 0; i < n; ++i)
            {
                int len = messages[i].Length;
                var c = new byte[checked(len + tag)];
                Buffer.BlockCopy(output, (int)(ulong)offsets[i], c, 0, len);
                Buffer.BlockCopy(tags, i * tag, c, len, tag);
                sealedJobs[i] = c;
            }
            return sealedJobs;
        }

        /// <summary>Decrypts sealed[i] (ciphertext || full tag) under keys[i] and nonces[i] with
        /// associatedData[i] (associatedData may be null: none). A bad tag does not throw:
        /// ok[i] is false and the plaintext of job i is null (also when sealed[i] is shorter than
        /// a tag), so that one forged message does not stop the batch. Unverified plaintext is
        /// never returned: the engine zeroes a failed job's output before this call copies
        /// anything.</summary>
        public static unsafe byte[][] Decrypt(string algorithm, byte[][] sealedMessages, byte[][] associatedData,
            byte[][] nonces, byte[][] keys, out bool[] ok, int threads = 0, string backend = null)
        {
            var info = Aead.GetInfo(algorithm);
            if (sealedMessages == null) throw new ArgumentNullException("sealedMessages");
            int n = sealedMessages.Length;
            int tag = info.TagSize;
            byte[] keyBytes = JoinFixed(keys, "keys", n, info.KeySize);
            byte[] nonceBytes = JoinFixed(nonces, "nonces", n, info.NonceSize);
            if (associatedData != null && associatedData.Length != n)
                throw new ArgumentException("associatedData: " + n + " jobs, got " + associatedData.Length, "associatedData");
            // Jobs too short to hold a tag fail on their own; the others go to the engine.
            var jobOf = new int[n];
            int m = 0;
            for (int i = 0; i < n; ++i)
            {
                if (sealedMessages[i] == null) throw new ArgumentNullException("sealedMessages[" + i + "]");
                if (associatedData != null && associatedData[i] == null)
                    throw new ArgumentNullException("associatedData[" + i + "]");
                if (sealedMessages[i].Length >= tag) jobOf[m++] = i;
            }
            var ciphertexts = new byte[m][];
            var ads = associatedData == null ? null : new byte[m][];
            var tags = new byte[checked(m * tag)];
            var selectedKeys = new byte[checked(m * info.KeySize)];
            var selectedNonces = new byte[checked(m * info.NonceSize)];
            for (int k = 0; k < m; ++k)
            {
                int i = jobOf[k];
                int len = sealedMessages[i].Length - tag;
                ciphertexts[k] = new byte[len];
                Buffer.BlockCopy(sealedMessages[i], 0, ciphertexts[k], 0, len);
                Buffer.BlockCopy(sealedMessages[i], len, tags, k * tag, tag);
                Buffer.BlockCopy(keyBytes, i * info.KeySize, selectedKeys, k * info.KeySize, info.KeySize);
                Buffer.BlockCopy(nonceBytes, i * info.NonceSize, selectedNonces, k * info.NonceSize, info.NonceSize);
                if (ads != null) ads[k] = associatedData[i];
            }
            UIntPtr[] offsets, adOffsets = null;
            byte[] input = Join(ciphertexts, "sealedMessages", m, out offsets);
            byte[] ad = ads == null ? null : Join(ads, "associatedData", m, out adOffsets);
            var output = new byte[input.Length];
            // 2: not written; the engine writes 0 or 1 for every job once the arguments pass.
            var flags = new byte[m];
            for (int k = 0; k < m; ++k) flags[k] = 2;
            var opt = Options(threads, backend);
            int rc = 0;
            if (m != 0)
            {
                fixed (byte* pk = selectedKeys) fixed (byte* pn = selectedNonces) fixed (byte* pi = input)
                fixed (UIntPtr* po = offsets) fixed (byte* pa = ad) fixed (UIntPtr* pao = adOffsets)
                fixed (byte* pout = output) fixed (byte* pt = tags) fixed (byte* pok = flags)
                {
                    var jobs = new Native.BatchPackedJobs
                    {
                        Keys = pk, Nonces = pn, SecondKeys = null, In = pi, Offsets = po, Ad = pa, AdOffsets = pao
                    };
                    rc = Native.lwc_batch_decrypt_packed(info.NamePtr, (UIntPtr)m, &jobs, pt, pout, (UIntPtr)tag,
                        pok, ref opt);
                }
            }
            Array.Clear(keyBytes, 0, keyBytes.Length);
            Array.Clear(selectedKeys, 0, selectedKeys.Length);
            bool ran = true;
            for (int k = 0; k < m; ++k) ran &= flags[k] <= 1;
            if (rc != 0 && !ran)
            {
                Array.Clear(output, 0, output.Length);
                throw new ArgumentException(Native.LastError());
            }
            ok = new bool[n];
            var plaintexts = new byte[n][];
            for (int k = 0; k < m; ++k)
            {
                int i = jobOf[k];
                ok[i] = flags[k] == 1;
                if (!ok[i]) continue;
                int len = ciphertexts[k].Length;
                plaintexts[i] = new byte[len];
                Buffer.BlockCopy(output, (int)(ulong)offsets[k], plaintexts[i], 0, len);
            }
            Array.Clear(output, 0, output.Length);
            return plaintexts;
        }

        // ---- hashes, XOFs, CXOFs, MACs, PRFs -------------------------------------------------

        /// <summary>Digest of every message: outputLength bytes (a hash: its digest size; an XOF
        /// or CXOF: any length, a CXOF with an empty customization string); 0: the algorithm's
        /// default output length.</summary>
        public static byte[][] HashData(string algorithm, byte[][] messages, int outputLength = 0,
            int threads = 0, string backend = null)
        {
            var info = Hash.GetUnkeyed(algorithm);
            return Run(info, messages, null, null, outputLength, threads, backend);
        }

        /// <summary>A CXOF (e.g. "ascon-cxof128") of messages[i] with customizations[i].</summary>
        public static byte[][] HashData(string algorithm, byte[][] messages, int outputLength,
            byte[][] customizations, int threads = 0, string backend = null)
        {
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Cxof);
            if (customizations == null) throw new ArgumentNullException("customizations");
            return Run(info, messages, null, customizations, outputLength, threads, backend);
        }

        /// <summary>MAC or PRF of messages[i] under keys[i]; outputLength 0: the default output
        /// length (a MAC: its tag size; a PRF: any length).</summary>
        public static byte[][] Mac(string algorithm, byte[][] keys, byte[][] messages, int outputLength = 0,
            int threads = 0, string backend = null)
        {
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Mac, AlgorithmKind.Prf);
            if (keys == null) throw new ArgumentNullException("keys");
            return Run(info, messages, keys, null, outputLength, threads, backend);
        }

        static unsafe byte[][] Run(AlgorithmInfo info, byte[][] messages, byte[][] keys, byte[][] customizations,
            int outputLength, int threads, string backend)
        {
            if (messages == null) throw new ArgumentNullException("messages");
            if (outputLength < 0) throw new ArgumentOutOfRangeException("outputLength");
            if (outputLength == 0) outputLength = info.OutputSize;
            int n = messages.Length;
            UIntPtr[] offsets, customOffsets = null;
            byte[] input = Join(messages, "messages", n, out offsets);
            byte[] keyBytes = keys == null ? null : JoinFixed(keys, "keys", n, info.KeySize);
            byte[] custom = customizations == null ? null : Join(customizations, "customizations", n, out customOffsets);
            var output = new byte[checked(n * outputLength)];
            var opt = Options(threads, backend);
            int rc;
            fixed (byte* pi = input) fixed (UIntPtr* po = offsets) fixed (byte* pk = keyBytes)
            fixed (byte* pc = custom) fixed (UIntPtr* pco = customOffsets) fixed (byte* pout = output)
            {
                var jobs = new Native.BatchPackedHashJobs
                {
                    In = pi, Offsets = po, Keys = pk, KeysLen = (UIntPtr)(keyBytes == null ? 0 : keyBytes.Length),
                    Customization = pc, CustomizationOffsets = pco
                };
                rc = Native.lwc_batch_hash_packed_jobs(info.NamePtr, (UIntPtr)n, &jobs, pout, (UIntPtr)outputLength,
                    ref opt);
            }
            if (keyBytes != null) Array.Clear(keyBytes, 0, keyBytes.Length);
            if (rc != 0) throw new ArgumentException(Native.LastError());
            var digests = new byte[n][];
            for (int i = 0; i < n; ++i)
            {
                digests[i] = new byte[outputLength];
                Buffer.BlockCopy(output, i * outputLength, digests[i], 0, outputLength);
            }
            return digests;
        }

        // ---- packing -------------------------------------------------------------------------

        static Native.BatchOptions Options(int threads, string backend)
        {
            if (threads < 0) throw new ArgumentOutOfRangeException("threads", threads, "0 (all) or more");
            return new Native.BatchOptions { Threads = (uint)threads, Backend = backend };
        }

        // The items back to back, with n + 1 offsets; the sizes add up with overflow checks.
        static byte[] Join(byte[][] items, string what, int n, out UIntPtr[] offsets)
        {
            if (items == null) throw new ArgumentNullException(what);
            if (items.Length != n) throw new ArgumentException(what + ": " + n + " jobs, got " + items.Length, what);
            offsets = new UIntPtr[n + 1];
            int total = 0;
            for (int i = 0; i < n; ++i)
            {
                if (items[i] == null) throw new ArgumentNullException(what + "[" + i + "]");
                offsets[i] = (UIntPtr)total;
                try { total = checked(total + items[i].Length); }
                catch (OverflowException) { throw new ArgumentException(what + ": more than 2 GiB in one batch", what); }
            }
            offsets[n] = (UIntPtr)total;
            var joined = new byte[total];
            for (int i = 0; i < n; ++i) Buffer.BlockCopy(items[i], 0, joined, (int)(ulong)offsets[i], items[i].Length);
            return joined;
        }

        // Fixed-size items (keys, nonces) back to back; each must have the algorithm's size.
        static byte[] JoinFixed(byte[][] items, string what, int n, int size)
        {
            if (items == null) throw new ArgumentNullException(what);
            if (items.Length != n) throw new ArgumentException(what + ": " + n + " jobs, got " + items.Length, what);
            var joined = new byte[checked(n * size)];
            for (int i = 0; i < n; ++i)
            {
                if (items[i] == null) throw new ArgumentNullException(what + "[" + i + "]");
                if (items[i].Length != size)
                    throw new ArgumentException(what + "[" + i + "] must be " + size + " bytes, got " + items[i].Length, what);
                Buffer.BlockCopy(items[i], 0, joined, i * size, size);
            }
            return joined;
        }
    }
}
