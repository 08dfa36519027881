// SPDX-License-Identifier: MIT OR Apache-2.0
// Many independent messages in one call, through liblwc's batch engine (include/lwc/batch.h):
// SIMD lanes and threads, results equal to the single-message calls byte for byte. Every call
// is one lwc_batch_form_* call on the packed job form: the jobs' arrays joined into columns.
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
        // Both directions run on the packed job form (lwc_batch_form_*): the jobs' byte arrays
        // joined into one column with 64-bit offsets, keys and nonces as fixed-stride columns,
        // and the tags appended by the engine, written after each ciphertext when encrypting
        // and read from the end of each sealed message when decrypting.

        /// <summary>Encrypts messages[i] under keys[i] and nonces[i] with associatedData[i]
        /// (associatedData may be null: none); returns ciphertext || tag for each job, as
        /// <see cref="Aead.Encrypt(string, byte[], byte[], byte[], byte[])"/> does.</summary>
        public static unsafe byte[][] Encrypt(string algorithm, byte[][] messages, byte[][] associatedData,
            byte[][] nonces, byte[][] keys, int threads = 0, string backend = null)
        {
            var info = Aead.GetInfo(algorithm);
            if (messages == null) throw new ArgumentNullException("messages");
            int n = messages.Length;
            byte[] keyBytes = JoinFixed(keys, "keys", n, info.KeySize, null, n);
            byte[] nonceBytes = JoinFixed(nonces, "nonces", n, info.NonceSize, null, n);
            int tag = info.TagSize;
            long[] offsets = Offsets(messages, "messages", n, null, n), adOffsets = null;
            long[] sealedOffsets = ShiftOffsets(offsets, tag, "messages");
            byte[] ad = associatedData == null ? null : Join(associatedData, "associatedData", n, null, n, out adOffsets);
            byte[] input = Gather(messages, null, offsets);
            var output = new byte[sealedOffsets[n]];
            var opt = Options(threads, backend);
            int rc;
            fixed (byte* pk = keyBytes) fixed (byte* pn = nonceBytes) fixed (byte* pi = input)
            fixed (long* po = offsets) fixed (byte* pa = ad) fixed (long* pao = adOffsets)
            fixed (byte* pout = output) fixed (long* pso = sealedOffsets)
            {
                var form = new Native.BatchAeadForm
                {
                    Count = (UIntPtr)n,
                    Keys = FixedColumn(pk, keyBytes.Length, info.KeySize),
                    Nonces = FixedColumn(pn, nonceBytes.Length, info.NonceSize),
                    Ad = ad == null ? default(Native.BatchColumn) : OffsetColumn(pa, ad.Length, pao),
                    In = OffsetColumn(pi, input.Length, po),
                    Out = OffsetColumn(pout, output.Length, pso),
                    Tags = Native.BatchTagsAppended,
                };
                rc = Native.lwc_batch_form_encrypt(info.NamePtr, &form, (UIntPtr)tag, ref opt);
            }
            Array.Clear(keyBytes, 0, keyBytes.Length);
            if (rc != 0) throw new ArgumentException(Native.LastError());
            return Split(output, sealedOffsets, n);
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
            // Jobs too short to hold a tag fail on their own; the others go to the engine.
            var jobOf = new int[n];
            int m = 0;
            for (int i = 0; i < n; ++i)
            {
                if (sealedMessages[i] == null) throw new ArgumentNullException("sealedMessages[" + i + "]");
                if (sealedMessages[i].Length >= tag) jobOf[m++] = i;
            }
            byte[] keyBytes = JoinFixed(keys, "keys", n, info.KeySize, jobOf, m);
            byte[] nonceBytes = JoinFixed(nonces, "nonces", n, info.NonceSize, jobOf, m);
            long[] offsets, adOffsets = null;
            byte[] input = Join(sealedMessages, "sealedMessages", n, jobOf, m, out offsets);
            byte[] ad = associatedData == null ? null : Join(associatedData, "associatedData", n, jobOf, m, out adOffsets);
            long[] plainOffsets = ShiftOffsets(offsets, -tag, "sealedMessages");
            var output = new byte[plainOffsets[m]];
            // 2: not written; the engine writes 0 or 1 for every job once the arguments pass.
            var flags = new byte[m];
            for (int k = 0; k < m; ++k) flags[k] = 2;
            var opt = Options(threads, backend);
            int rc = 0;
            if (m != 0)
            {
                fixed (byte* pk = keyBytes) fixed (byte* pn = nonceBytes) fixed (byte* pi = input)
                fixed (long* po = offsets) fixed (byte* pa = ad) fixed (long* pao = adOffsets)
                fixed (byte* pout = output) fixed (long* ppo = plainOffsets) fixed (byte* pok = flags)
                {
                    var form = new Native.BatchAeadForm
                    {
                        Count = (UIntPtr)m,
                        Keys = FixedColumn(pk, keyBytes.Length, info.KeySize),
                        Nonces = FixedColumn(pn, nonceBytes.Length, info.NonceSize),
                        Ad = ad == null ? default(Native.BatchColumn) : OffsetColumn(pa, ad.Length, pao),
                        In = OffsetColumn(pi, input.Length, po),
                        Out = OffsetColumn(pout, output.Length, ppo),
                        Tags = Native.BatchTagsAppended,
                    };
                    rc = Native.lwc_batch_form_decrypt(info.NamePtr, &form, (UIntPtr)tag, pok, ref opt);
                }
            }
            Array.Clear(keyBytes, 0, keyBytes.Length);
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
                int len = (int)(plainOffsets[k + 1] - plainOffsets[k]);
                plaintexts[i] = new byte[len];
                Buffer.BlockCopy(output, (int)plainOffsets[k], plaintexts[i], 0, len);
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
            long[] offsets, customOffsets = null;
            byte[] input = Join(messages, "messages", n, null, n, out offsets);
            byte[] keyBytes = keys == null ? null : JoinFixed(keys, "keys", n, info.KeySize, null, n);
            byte[] custom = customizations == null ? null
                : Join(customizations, "customizations", n, null, n, out customOffsets);
            var output = new byte[ArraySize((long)n * outputLength, "outputs")];
            var opt = Options(threads, backend);
            int rc;
            fixed (byte* pi = input) fixed (long* po = offsets) fixed (byte* pk = keyBytes)
            fixed (byte* pc = custom) fixed (long* pco = customOffsets) fixed (byte* pout = output)
            {
                var form = new Native.BatchHashForm
                {
                    Count = (UIntPtr)n,
                    In = OffsetColumn(pi, input.Length, po),
                    Out = FixedColumn(pout, output.Length, outputLength),
                    Keys = keyBytes == null ? default(Native.BatchColumn) : FixedColumn(pk, keyBytes.Length, info.KeySize),
                    Customization = custom == null ? default(Native.BatchColumn) : OffsetColumn(pc, custom.Length, pco),
                };
                rc = Native.lwc_batch_form_hash(info.NamePtr, &form, ref opt);
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

        static unsafe Native.BatchColumn FixedColumn(byte* data, int size, int stride)
        {
            return new Native.BatchColumn
            {
                Data = data, Size = (UIntPtr)size, Stride = (UIntPtr)stride, OffsetType = Native.BatchOffsetsNone
            };
        }

        static unsafe Native.BatchColumn OffsetColumn(byte* data, int size, long* offsets)
        {
            return new Native.BatchColumn
            {
                Data = data, Size = (UIntPtr)size, Offsets = offsets, OffsetType = Native.BatchOffsetsI64
            };
        }

        // A size that one .NET byte array can hold.
        static int ArraySize(long size, string what)
        {
            if (size < 0 || size > int.MaxValue)
                throw new ArgumentException(what + ": more than 2 GiB in one batch", what);
            return (int)size;
        }

        // The jobs' count of `what` must be n; `pick` (null: all n) lists the m jobs that run.
        static void CheckCount(byte[][] items, string what, int n)
        {
            if (items == null) throw new ArgumentNullException(what);
            if (items.Length != n) throw new ArgumentException(what + ": " + n + " jobs, got " + items.Length, what);
            for (int i = 0; i < n; ++i)
                if (items[i] == null) throw new ArgumentNullException(what + "[" + i + "]");
        }

        // Where the picked items go when joined: m + 1 offsets, the sizes added up checked (a
        // sizing pass, so that a batch too large is refused before anything is copied).
        static long[] Offsets(byte[][] items, string what, int n, int[] pick, int m)
        {
            CheckCount(items, what, n);
            var offsets = new long[m + 1];
            long total = 0;
            for (int k = 0; k < m; ++k)
            {
                offsets[k] = total;
                total += items[pick == null ? k : pick[k]].Length;
                ArraySize(total, what);
            }
            offsets[m] = total;
            return offsets;
        }

        // The picked items back to back, at their offsets.
        static byte[] Gather(byte[][] items, int[] pick, long[] offsets)
        {
            int m = offsets.Length - 1;
            var joined = new byte[offsets[m]];
            for (int k = 0; k < m; ++k)
            {
                byte[] item = items[pick == null ? k : pick[k]];
                Buffer.BlockCopy(item, 0, joined, (int)offsets[k], item.Length);
            }
            return joined;
        }

        static byte[] Join(byte[][] items, string what, int n, int[] pick, int m, out long[] offsets)
        {
            offsets = Offsets(items, what, n, pick, m);
            return Gather(items, pick, offsets);
        }

        // Fixed-size items (keys, nonces), the picked ones back to back; each of the n must have
        // the algorithm's size.
        static byte[] JoinFixed(byte[][] items, string what, int n, int size, int[] pick, int m)
        {
            CheckCount(items, what, n);
            for (int i = 0; i < n; ++i)
                if (items[i].Length != size)
                    throw new ArgumentException(what + "[" + i + "] must be " + size + " bytes, got " + items[i].Length, what);
            var joined = new byte[ArraySize((long)m * size, what)];
            for (int k = 0; k < m; ++k)
                Buffer.BlockCopy(items[pick == null ? k : pick[k]], 0, joined, k * size, size);
            return joined;
        }

        // The offsets of the same jobs with `perJob` bytes more (a tag appended) or fewer (a tag
        // removed) each: element k starts perJob * k bytes later.
        static long[] ShiftOffsets(long[] offsets, int perJob, string what)
        {
            var shifted = new long[offsets.Length];
            for (int k = 0; k < offsets.Length; ++k) shifted[k] = offsets[k] + (long)perJob * k;
            ArraySize(shifted[offsets.Length - 1], what);
            return shifted;
        }

        // Element k of the column, a fresh array each.
        static byte[][] Split(byte[] data, long[] offsets, int n)
        {
            var items = new byte[n][];
            for (int k = 0; k < n; ++k)
            {
                int len = (int)(offsets[k + 1] - offsets[k]);
                items[k] = new byte[len];
                Buffer.BlockCopy(data, (int)offsets[k], items[k], 0, len);
            }
            return items;
        }
    }
}
