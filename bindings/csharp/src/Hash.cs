// SPDX-License-Identifier: MIT OR Apache-2.0
// Hashes, XOFs, CXOFs, MACs and PRFs of the registry by name, one-shot and incremental.
using System;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Threading;

namespace Lwc
{
    public static class Hash
    {
        static void CheckOutput(AlgorithmInfo info, int outputLength)
        {
            if (outputLength < 0 || (info.MaxOutputSize != 0 && outputLength > info.MaxOutputSize))
                throw new ArgumentOutOfRangeException("outputLength", outputLength, info.Name + " outputs at most " +
                    (info.MaxOutputSize == 0 ? "unbounded" : info.MaxOutputSize.ToString()) + " bytes");
        }

        static readonly AlgorithmKind[] Unkeyed = { AlgorithmKind.Hash, AlgorithmKind.Xof, AlgorithmKind.Cxof };

        internal static AlgorithmInfo GetUnkeyed(string algorithm)
        {
            return Registry.Require(algorithm, "algorithm", Unkeyed);
        }

        /// <summary>Digest of data with the algorithm's default output length (the digest size
        /// of a hash, the default length of an XOF).</summary>
        public static byte[] HashData(string algorithm, byte[] data)
        {
            var info = GetUnkeyed(algorithm);
            return HashData(info, data, info.OutputSize);
        }

        /// <summary>outputLength bytes of a hash (at most its digest size), XOF or CXOF (empty customization).</summary>
        public static byte[] HashData(string algorithm, byte[] data, int outputLength)
        {
            return HashData(GetUnkeyed(algorithm), data, outputLength);
        }

        internal static unsafe byte[] HashData(AlgorithmInfo info, byte[] data, int outputLength)
        {
            if (data == null) throw new ArgumentNullException("data");
            CheckOutput(info, outputLength);
            var output = new byte[outputLength];
            int rc;
            fixed (byte* po = output) fixed (byte* pi = data)
            {
                rc = Native.lwc_hash(info.NamePtr, po, (UIntPtr)outputLength, pi, (UIntPtr)data.Length);
            }
            if (rc != 0) throw new ArgumentException(Native.LastError());
            return output;
        }

        /// <summary>A CXOF (e.g. "ascon-cxof128") of data with a customization string.</summary>
        public static unsafe byte[] HashData(string algorithm, byte[] data, int outputLength, byte[] customization)
        {
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Cxof);
            if (data == null) throw new ArgumentNullException("data");
            if (customization == null) throw new ArgumentNullException("customization");
            CheckOutput(info, outputLength);
            var output = new byte[outputLength];
            int rc;
            fixed (byte* po = output) fixed (byte* pi = data) fixed (byte* pz = customization)
            {
                rc = Native.lwc_cxof(info.NamePtr, po, (UIntPtr)outputLength, pi, (UIntPtr)data.Length, pz,
                    (UIntPtr)customization.Length);
            }
            if (rc != 0) throw new ArgumentException(Native.LastError());
            return output;
        }

        /// <summary>Fills destination with destination.Length bytes of output: of a hash (at
        /// most its digest size), XOF or CXOF (empty customization).</summary>
        public static void HashData(string algorithm, ReadOnlySpan<byte> data, Span<byte> destination)
        {
            HashData(GetUnkeyed(algorithm), data, destination);
        }

        internal static unsafe void HashData(AlgorithmInfo info, ReadOnlySpan<byte> data, Span<byte> destination)
        {
            if (info.MaxOutputSize != 0 && destination.Length > info.MaxOutputSize)
                throw new ArgumentException(info.Name + " outputs at most " + info.MaxOutputSize + " bytes, not " +
                    destination.Length, "destination");
            int rc;
            fixed (byte* po = &MemoryMarshal.GetReference(destination))
            fixed (byte* pi = &MemoryMarshal.GetReference(data))
            {
                rc = Native.lwc_hash(info.NamePtr, po, (UIntPtr)destination.Length, pi, (UIntPtr)data.Length);
            }
            if (rc != 0) throw new ArgumentException(Native.LastError());
        }

        /// <summary>A CXOF of data with a customization string into destination (destination.Length bytes).</summary>
        public static void HashData(string algorithm, ReadOnlySpan<byte> data, Span<byte> destination,
            ReadOnlySpan<byte> customization)
        {
            HashData(Registry.Require(algorithm, "algorithm", AlgorithmKind.Cxof), data, destination, customization);
        }

        internal static unsafe void HashData(AlgorithmInfo info, ReadOnlySpan<byte> data, Span<byte> destination,
            ReadOnlySpan<byte> customization)
        {
            if (info.MaxOutputSize != 0 && destination.Length > info.MaxOutputSize)
                throw new ArgumentException(info.Name + " outputs at most " + info.MaxOutputSize + " bytes", "destination");
            int rc;
            fixed (byte* po = &MemoryMarshal.GetReference(destination))
            fixed (byte* pi = &MemoryMarshal.GetReference(data))
            fixed (byte* pz = &MemoryMarshal.GetReference(customization))
            {
                rc = Native.lwc_cxof(info.NamePtr, po, (UIntPtr)destination.Length, pi, (UIntPtr)data.Length, pz,
                    (UIntPtr)customization.Length);
            }
            if (rc != 0) throw new ArgumentException(Native.LastError());
        }

        /// <summary>MAC or PRF of data under key into destination (destination.Length bytes).</summary>
        public static unsafe void Mac(string algorithm, ReadOnlySpan<byte> key, ReadOnlySpan<byte> data,
            Span<byte> destination)
        {
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Mac, AlgorithmKind.Prf);
            if (key.Length != info.KeySize)
                throw new ArgumentException(info.Name + " takes a " + info.KeySize + "-byte key, not " + key.Length +
                    " bytes", "key");
            if (info.MaxOutputSize != 0 && destination.Length > info.MaxOutputSize)
                throw new ArgumentException(info.Name + " outputs at most " + info.MaxOutputSize + " bytes", "destination");
            int rc;
            fixed (byte* po = &MemoryMarshal.GetReference(destination))
            fixed (byte* pi = &MemoryMarshal.GetReference(data))
            fixed (byte* pk = &MemoryMarshal.GetReference(key))
            {
                rc = Native.lwc_mac(info.NamePtr, po, (UIntPtr)destination.Length, pi, (UIntPtr)data.Length, pk);
            }
            if (rc != 0) throw new ArgumentException(Native.LastError());
        }

        /// <summary>True when tag is the full MAC/PRF output of data under key (the algorithm's
        /// OutputSize bytes; constant time). A tag of any other length is false: truncated tags
        /// only through <see cref="VerifyMacTruncated(string, ReadOnlySpan{byte}, ReadOnlySpan{byte}, ReadOnlySpan{byte}, int)"/>.</summary>
        public static bool VerifyMac(string algorithm, ReadOnlySpan<byte> key, ReadOnlySpan<byte> data,
            ReadOnlySpan<byte> tag)
        {
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Mac, AlgorithmKind.Prf);
            CheckKeySize(info, key.Length);
            return VerifyMacCore(info, key, data, tag, info.OutputSize, false);
        }

        /// <summary>True when tag is the first tagLength bytes of the MAC/PRF output of data under
        /// key (constant time). tagLength is the length your protocol fixes (from the algorithm's
        /// MinTagSize to its OutputSize, for a PRF to 64), never the length of the tag received: a tag of another
        /// length is false. Shorter tags are easier to forge.</summary>
        public static bool VerifyMacTruncated(string algorithm, ReadOnlySpan<byte> key, ReadOnlySpan<byte> data,
            ReadOnlySpan<byte> tag, int tagLength)
        {
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Mac, AlgorithmKind.Prf);
            CheckKeySize(info, key.Length);
            CheckTruncatedLength(info, tagLength);
            return VerifyMacCore(info, key, data, tag, tagLength, true);
        }

        static void CheckKeySize(AlgorithmInfo info, int keyLength)
        {
            if (keyLength != info.KeySize)
                throw new ArgumentException(info.Name + " takes a " + info.KeySize + "-byte key, not " + keyLength +
                    " bytes", "key");
        }

        // As liblwc's *_truncated calls: MinTagSize to the full tag, and a PRF (whose output has no
        // fixed length) up to 64 bytes.
        internal const int MaxPrfTagSize = 64;

        internal static void CheckTruncatedLength(AlgorithmInfo info, int tagLength)
        {
            int max = info.Kind == AlgorithmKind.Prf ? MaxPrfTagSize : info.OutputSize;
            if (tagLength < info.MinTagSize || tagLength > max)
                throw new ArgumentOutOfRangeException("tagLength", tagLength, info.Name + " tags are " +
                    info.MinTagSize + " to " + max + " bytes");
        }

        // tagLength comes from the caller's configuration, already checked: a tag of another
        // length fails here, before any native call.
        static unsafe bool VerifyMacCore(AlgorithmInfo info, ReadOnlySpan<byte> key, ReadOnlySpan<byte> data,
            ReadOnlySpan<byte> tag, int tagLength, bool truncated)
        {
            if (tag.Length != tagLength) return false;
            fixed (byte* pt = &MemoryMarshal.GetReference(tag))
            fixed (byte* pi = &MemoryMarshal.GetReference(data))
            fixed (byte* pk = &MemoryMarshal.GetReference(key))
            {
                return (truncated
                    ? Native.lwc_mac_verify_truncated(info.NamePtr, pt, (UIntPtr)tagLength, pi, (UIntPtr)data.Length, pk)
                    : Native.lwc_mac_verify(info.NamePtr, pt, (UIntPtr)tagLength, pi, (UIntPtr)data.Length, pk)) == 0;
            }
        }

        static AlgorithmInfo CheckKeyed(string algorithm, byte[] key, byte[] data)
        {
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Mac, AlgorithmKind.Prf);
            if (key == null) throw new ArgumentNullException("key");
            if (data == null) throw new ArgumentNullException("data");
            if (key.Length != info.KeySize)
                throw new ArgumentException(info.Name + " takes a " + info.KeySize + "-byte key, not " + key.Length +
                    " bytes", "key");
            return info;
        }

        /// <summary>MAC or PRF of data under key; outputLength 0 = the default output length.</summary>
        public static unsafe byte[] Mac(string algorithm, byte[] key, byte[] data, int outputLength = 0)
        {
            var info = CheckKeyed(algorithm, key, data);
            if (outputLength == 0) outputLength = info.OutputSize;
            CheckOutput(info, outputLength);
            var output = new byte[outputLength];
            int rc;
            fixed (byte* po = output) fixed (byte* pi = data) fixed (byte* pk = key)
            {
                rc = Native.lwc_mac(info.NamePtr, po, (UIntPtr)outputLength, pi, (UIntPtr)data.Length, pk);
            }
            if (rc != 0) throw new ArgumentException(Native.LastError());
            return output;
        }

        /// <summary>True when tag is the full MAC/PRF output of data under key (the algorithm's
        /// OutputSize bytes; constant time); a tag of any other length is false.</summary>
        public static bool VerifyMac(string algorithm, byte[] key, byte[] data, byte[] tag)
        {
            var info = CheckKeyed(algorithm, key, data);
            if (tag == null) throw new ArgumentNullException("tag");
            return VerifyMacCore(info, key, data, tag, info.OutputSize, false);
        }

        /// <summary>As the span form: the first tagLength bytes (a length your protocol fixes, from
        /// MinTagSize to OutputSize); a tag of another length is false.</summary>
        public static bool VerifyMacTruncated(string algorithm, byte[] key, byte[] data, byte[] tag, int tagLength)
        {
            var info = CheckKeyed(algorithm, key, data);
            if (tag == null) throw new ArgumentNullException("tag");
            CheckTruncatedLength(info, tagLength);
            return VerifyMacCore(info, key, data, tag, tagLength, true);
        }

        /// <summary>An incremental hash (shape of System.Security.Cryptography.IncrementalHash).</summary>
        public static IncrementalHasher Create(string algorithm)
        {
            return new IncrementalHasher(algorithm, null, null);
        }

        /// <summary>An incremental MAC/PRF under key.</summary>
        public static IncrementalHasher CreateMac(string algorithm, byte[] key)
        {
            if (key == null) throw new ArgumentNullException("key");
            return new IncrementalHasher(algorithm, key, null);
        }

        /// <summary>An incremental CXOF with a customization string.</summary>
        public static IncrementalHasher CreateCxof(string algorithm, byte[] customization)
        {
            if (customization == null) throw new ArgumentNullException("customization");
            return new IncrementalHasher(algorithm, null, customization);
        }
    }

    /// <summary>
    /// Incremental hashing over lwc_hash_init/update/squeeze. One call at a time: a call made
    /// while another runs on the same object (from another thread) throws
    /// InvalidOperationException instead of corrupting the state. Dispose wipes the native state
    /// and the copy of the key; a hasher that is never disposed has its native state wiped and
    /// freed when it is collected.
    /// </summary>
    public sealed class IncrementalHasher : IDisposable
    {
        readonly AlgorithmInfo info;
        readonly byte[] key;    // our copy, wiped on Dispose
        readonly byte[] custom;
        readonly HashStateHandle state;
        int busy;               // 1 while a call runs (Interlocked)
        volatile bool disposed;

        public AlgorithmInfo Algorithm { get { return info; } }
        /// <summary>Bytes GetHashAndReset() returns.</summary>
        public int HashLengthInBytes { get { return info.OutputSize; } }

        internal IncrementalHasher(string algorithm, byte[] key, byte[] customization)
        {
            info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Hash, AlgorithmKind.Xof, AlgorithmKind.Cxof,
                AlgorithmKind.Mac, AlgorithmKind.Prf);
            bool keyed = info.Kind == AlgorithmKind.Mac || info.Kind == AlgorithmKind.Prf;
            if (keyed && key == null) throw new ArgumentException(info.Name + " needs a key (Hash.CreateMac)", "algorithm");
            if (!keyed && key != null) throw new ArgumentException(info.Name + " takes no key", "key");
            if (keyed && key.Length != info.KeySize)
                throw new ArgumentException(info.Name + " takes a " + info.KeySize + "-byte key, not " + key.Length +
                    " bytes", "key");
            if (customization != null && info.Kind != AlgorithmKind.Cxof)
                throw new ArgumentException(info.Name + " takes no customization", "customization");
            this.key = key == null ? null : (byte[])key.Clone();
            custom = customization == null ? null : (byte[])customization.Clone();
            state = HashStateHandle.Allocate();
            try { Init(); }
            catch
            {
                Dispose();
                throw;
            }
        }

        unsafe void Init()
        {
            int rc;
            fixed (byte* pk = key) fixed (byte* pz = custom)
            {
                rc = Native.lwc_hash_init(state, info.NamePtr, pk, (UIntPtr)(key == null ? 0 : key.Length), pz,
                    (UIntPtr)(custom == null ? 0 : custom.Length));
            }
            if (rc != 0) throw new ArgumentException(Native.LastError());
            state.Initialized = true;
        }

        // Every public call runs between Enter and Exit.
        void Enter()
        {
            if (Interlocked.CompareExchange(ref busy, 1, 0) != 0)
                throw new InvalidOperationException("lwc: this IncrementalHasher is in use by another call " +
                    "(one call at a time)");
            if (disposed)
            {
                Volatile.Write(ref busy, 0);
                throw new ObjectDisposedException("IncrementalHasher");
            }
        }

        void Exit() { Volatile.Write(ref busy, 0); }

        void Reset()
        {
            state.Free();
            Init();
        }

        public void AppendData(byte[] data)
        {
            if (data == null) throw new ArgumentNullException("data");
            AppendData(data, 0, data.Length);
        }

        public unsafe void AppendData(byte[] data, int offset, int count)
        {
            if (data == null) throw new ArgumentNullException("data");
            if (offset < 0 || count < 0 || offset > data.Length - count)
                throw new ArgumentOutOfRangeException("count", "offset and count are outside data");
            Enter();
            try
            {
                if (count == 0) return;
                int rc;
                fixed (byte* p = data) { rc = Native.lwc_hash_update(state, p + offset, (UIntPtr)count); }
                if (rc != 0) throw new InvalidOperationException(Native.LastError());
            }
            finally { Exit(); }
        }

        /// <summary>Appends data (a span: no copy, no allocation).</summary>
        public unsafe void AppendData(ReadOnlySpan<byte> data)
        {
            Enter();
            try
            {
                if (data.IsEmpty) return;
                int rc;
                fixed (byte* p = &MemoryMarshal.GetReference(data)) { rc = Native.lwc_hash_update(state, p, (UIntPtr)data.Length); }
                if (rc != 0) throw new InvalidOperationException(Native.LastError());
            }
            finally { Exit(); }
        }

        static unsafe byte[] Squeeze(HashStateHandle st, int outputLength)
        {
            var output = new byte[outputLength];
            int rc;
            fixed (byte* p = output) { rc = Native.lwc_hash_squeeze(st, p, (UIntPtr)outputLength); }
            if (rc != 0) throw new InvalidOperationException(Native.LastError());
            return output;
        }

        void CheckOutput(int outputLength)
        {
            if (outputLength < 0 || (info.MaxOutputSize != 0 && outputLength > info.MaxOutputSize))
                throw new ArgumentOutOfRangeException("outputLength");
        }

        /// <summary>The digest (default output length) of everything appended; then starts over.</summary>
        public byte[] GetHashAndReset() { return GetHashAndReset(info.OutputSize); }

        /// <summary>outputLength bytes of output (XOF/PRF any length; hash at most the digest size).</summary>
        public byte[] GetHashAndReset(int outputLength)
        {
            CheckOutput(outputLength);
            Enter();
            try
            {
                try { return Squeeze(state, outputLength); }
                finally { Reset(); }
            }
            finally { Exit(); }
        }

        // The span forms check everything before the state is touched: a destination too short
        // gets nothing written, and the hash goes on as if the call had not been made.
        void CheckDestination(Span<byte> destination, int outputLength)
        {
            CheckOutput(outputLength);
            if (destination.Length < outputLength)
                throw new ArgumentException("destination holds " + destination.Length + " bytes, " + info.Name +
                    " writes " + outputLength, "destination");
        }

        static unsafe void SqueezeInto(HashStateHandle st, Span<byte> destination, int outputLength)
        {
            int rc;
            fixed (byte* p = &MemoryMarshal.GetReference(destination)) { rc = Native.lwc_hash_squeeze(st, p, (UIntPtr)outputLength); }
            if (rc != 0) throw new InvalidOperationException(Native.LastError());
        }

        void SqueezeAndReset(Span<byte> destination, int outputLength)
        {
            try { SqueezeInto(state, destination, outputLength); }
            finally { Reset(); }
        }

        // A copy of the state, to squeeze the output so far without ending this one.
        HashStateHandle CopyState()
        {
            var copy = HashStateHandle.Allocate();
            if (Native.lwc_hash_copy(copy, state) != 0)
            {
                copy.Dispose();
                throw new InvalidOperationException(Native.LastError());
            }
            copy.Initialized = true;
            return copy;
        }

        /// <summary>Writes the digest (HashLengthInBytes bytes) to the start of destination and
        /// starts over; returns HashLengthInBytes. ArgumentException when destination is shorter
        /// (then nothing is written and nothing reset).</summary>
        public int GetHashAndReset(Span<byte> destination) { return GetHashAndReset(destination, info.OutputSize); }

        /// <summary>Writes outputLength bytes of output (XOF/PRF any length; hash at most the
        /// digest size) to the start of destination and starts over; returns outputLength.
        /// ArgumentException when destination is shorter (then nothing is written and nothing reset).</summary>
        public int GetHashAndReset(Span<byte> destination, int outputLength)
        {
            CheckDestination(destination, outputLength);
            Enter();
            try { SqueezeAndReset(destination, outputLength); }
            finally { Exit(); }
            return outputLength;
        }

        /// <summary>As GetHashAndReset(destination), but false (bytesWritten 0, nothing written,
        /// nothing reset) when destination is too short.</summary>
        public bool TryGetHashAndReset(Span<byte> destination, out int bytesWritten)
        {
            return TryGetHashAndReset(destination, info.OutputSize, out bytesWritten);
        }

        /// <summary>As GetHashAndReset(destination, outputLength), but false (bytesWritten 0,
        /// nothing written, nothing reset) when destination is too short.</summary>
        public bool TryGetHashAndReset(Span<byte> destination, int outputLength, out int bytesWritten)
        {
            CheckOutput(outputLength);
            bytesWritten = 0;
            Enter();
            try
            {
                if (destination.Length < outputLength) return false;
                SqueezeAndReset(destination, outputLength);
            }
            finally { Exit(); }
            bytesWritten = outputLength;
            return true;
        }

        /// <summary>Writes the digest so far (HashLengthInBytes bytes) to destination without
        /// resetting; returns HashLengthInBytes. ArgumentException when destination is shorter.</summary>
        public int GetCurrentHash(Span<byte> destination) { return GetCurrentHash(destination, info.OutputSize); }

        public int GetCurrentHash(Span<byte> destination, int outputLength)
        {
            CheckDestination(destination, outputLength);
            Enter();
            try
            {
                using (var copy = CopyState()) SqueezeInto(copy, destination, outputLength);
            }
            finally { Exit(); }
            return outputLength;
        }

        public bool TryGetCurrentHash(Span<byte> destination, out int bytesWritten)
        {
            return TryGetCurrentHash(destination, info.OutputSize, out bytesWritten);
        }

        public bool TryGetCurrentHash(Span<byte> destination, int outputLength, out int bytesWritten)
        {
            CheckOutput(outputLength);
            bytesWritten = 0;
            Enter();
            try
            {
                if (destination.Length < outputLength) return false;
                using (var copy = CopyState()) SqueezeInto(copy, destination, outputLength);
            }
            finally { Exit(); }
            bytesWritten = outputLength;
            return true;
        }

        /// <summary>The digest so far, without resetting (works on a copy of the state).</summary>
        public byte[] GetCurrentHash() { return GetCurrentHash(info.OutputSize); }

        public byte[] GetCurrentHash(int outputLength)
        {
            CheckOutput(outputLength);
            Enter();
            try
            {
                using (var copy = CopyState()) return Squeeze(copy, outputLength);
            }
            finally { Exit(); }
        }

        void CheckKeyed()
        {
            if (info.Kind != AlgorithmKind.Mac && info.Kind != AlgorithmKind.Prf)
                throw new InvalidOperationException("lwc: " + info.Name + " is not a MAC or PRF: nothing to verify");
        }

        // Verifies against tagLength bytes of output (tagLength configured by the caller, never
        // taken from tag) and starts over. A tag of another length fails without a native call.
        unsafe bool VerifyAndReset(ReadOnlySpan<byte> tag, int tagLength, bool truncated)
        {
            CheckKeyed();
            Enter();
            try
            {
                try
                {
                    if (tag.Length != tagLength) return false;
                    fixed (byte* p = &MemoryMarshal.GetReference(tag))
                    {
                        return (truncated ? Native.lwc_hash_verify_truncated(state, p, (UIntPtr)tagLength)
                            : Native.lwc_hash_verify(state, p, (UIntPtr)tagLength)) == 0;
                    }
                }
                finally { Reset(); }
            }
            finally { Exit(); }
        }

        /// <summary>MAC/PRF: true when tag is the full output so far (HashLengthInBytes bytes;
        /// constant time); then starts over. A tag of any other length is false: truncated tags
        /// only through <see cref="VerifyHashAndResetTruncated(byte[], int)"/>.</summary>
        public bool VerifyHashAndReset(byte[] tag)
        {
            if (tag == null) throw new ArgumentNullException("tag");
            return VerifyAndReset(tag, info.OutputSize, false);
        }

        /// <summary>As <see cref="VerifyHashAndReset(byte[])"/>: the full tag only.</summary>
        public bool VerifyHashAndReset(ReadOnlySpan<byte> tag)
        {
            return VerifyAndReset(tag, info.OutputSize, false);
        }

        /// <summary>MAC/PRF: true when tag is the first tagLength bytes of the output so far;
        /// then starts over. tagLength is the length your protocol fixes (from
        /// Algorithm.MinTagSize to HashLengthInBytes, for a PRF to 64), never the length of a tag
        /// received: a tag of another length is false. Shorter tags are easier to forge.</summary>
        public bool VerifyHashAndResetTruncated(byte[] tag, int tagLength)
        {
            if (tag == null) throw new ArgumentNullException("tag");
            return VerifyHashAndResetTruncated(new ReadOnlySpan<byte>(tag), tagLength);
        }

        /// <summary>As <see cref="VerifyHashAndResetTruncated(byte[], int)"/>.</summary>
        public bool VerifyHashAndResetTruncated(ReadOnlySpan<byte> tag, int tagLength)
        {
            CheckKeyed();
            Hash.CheckTruncatedLength(info, tagLength);
            return VerifyAndReset(tag, tagLength, true);
        }

        /// <summary>Wipes the native state and the copy of the key. Calls after it throw
        /// ObjectDisposedException; a second Dispose does nothing.</summary>
        public void Dispose()
        {
            disposed = true;
            state.Dispose();
            if (key != null) Array.Clear(key, 0, key.Length);
        }
    }
}
