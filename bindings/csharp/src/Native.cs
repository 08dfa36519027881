// SPDX-License-Identifier: MIT OR Apache-2.0
// P/Invoke declarations for liblwc.so (include/lwc.h, include/lwc/stream.h and include/lwc/batch.h).
using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;

namespace Lwc
{
    internal static class Native
    {
        // "lwc" resolves to liblwc.so (Linux), liblwc.dylib or lwc.dll.
        internal const string Lib = "lwc";

        [DllImport(Lib)] internal static extern IntPtr lwc_version_string();
        [DllImport(Lib)] internal static extern IntPtr lwc_error_message();

        [DllImport(Lib)] internal static extern UIntPtr lwc_algorithm_count();
        [DllImport(Lib)] internal static extern IntPtr lwc_algorithm_name(UIntPtr index);
        [DllImport(Lib)] internal static extern int lwc_algorithm_kind([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)] internal static extern UIntPtr lwc_keybytes([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)] internal static extern UIntPtr lwc_secondkeybytes([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)] internal static extern UIntPtr lwc_npubbytes([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)] internal static extern UIntPtr lwc_abytes([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)] internal static extern UIntPtr lwc_abytes_min([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)] internal static extern UIntPtr lwc_outputbytes([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)] internal static extern UIntPtr lwc_outputbytes_max([MarshalAs(UnmanagedType.LPStr)] string alg);

        // Pointers rather than arrays so that callers can pass offsets and pin once.
        [DllImport(Lib)]
        internal static extern unsafe int lwc_aead_encrypt_detached(
            IntPtr alg, byte* c, byte* tag, UIntPtr taglen,
            byte* m, UIntPtr mlen, byte* ad, UIntPtr adlen, byte* npub, byte* k, byte* secondKey);
        // Accepts the full tag only; the _truncated form takes a length the caller configured.
        [DllImport(Lib)]
        internal static extern unsafe int lwc_aead_decrypt_detached(
            IntPtr alg, byte* m, byte* c, UIntPtr clen,
            byte* tag, UIntPtr taglen, byte* ad, UIntPtr adlen, byte* npub, byte* k, byte* secondKey);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_aead_decrypt_detached_truncated(
            IntPtr alg, byte* m, byte* c, UIntPtr clen,
            byte* tag, UIntPtr taglen, byte* ad, UIntPtr adlen, byte* npub, byte* k, byte* secondKey);

        [DllImport(Lib)]
        internal static extern unsafe int lwc_hash(IntPtr alg,
            byte* output, UIntPtr outlen, byte* input, UIntPtr inlen);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_cxof(IntPtr alg,
            byte* output, UIntPtr outlen, byte* input, UIntPtr inlen, byte* custom, UIntPtr customlen);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_mac(IntPtr alg,
            byte* output, UIntPtr outlen, byte* input, UIntPtr inlen, byte* k);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_mac_verify(IntPtr alg,
            byte* tag, UIntPtr taglen, byte* input, UIntPtr inlen, byte* k);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_mac_verify_truncated(IntPtr alg,
            byte* tag, UIntPtr taglen, byte* input, UIntPtr inlen, byte* k);

        internal const int HashStateBytes = 256;
        [DllImport(Lib)]
        internal static extern unsafe int lwc_hash_init(HashStateHandle st, IntPtr alg,
            byte* key, UIntPtr keylen, byte* custom, UIntPtr customlen);
        [DllImport(Lib)] internal static extern unsafe int lwc_hash_update(HashStateHandle st, byte* input, UIntPtr inlen);
        [DllImport(Lib)] internal static extern unsafe int lwc_hash_squeeze(HashStateHandle st, byte* output, UIntPtr outlen);
        [DllImport(Lib)] internal static extern unsafe int lwc_hash_verify(HashStateHandle st, byte* tag, UIntPtr taglen);
        [DllImport(Lib)] internal static extern unsafe int lwc_hash_verify_truncated(HashStateHandle st, byte* tag, UIntPtr taglen);
        [DllImport(Lib)] internal static extern int lwc_hash_copy(HashStateHandle dst, HashStateHandle src);
        [DllImport(Lib)] internal static extern void lwc_hash_free(IntPtr st);
        [DllImport(Lib)] internal static extern void lwc_memzero(IntPtr p, UIntPtr len);

        // ---- batch engine (include/lwc/batch.h) ----
        [StructLayout(LayoutKind.Sequential)]
        internal struct BatchOptions
        {
            internal uint Threads;
            [MarshalAs(UnmanagedType.LPStr)] internal string Backend;
        }

        // The packed job form (lwc_batch_column, lwc_batch_aead_form, lwc_batch_hash_form).
        internal const int BatchOffsetsNone = 0, BatchOffsetsI64 = 4;
        internal const int BatchTagsAppended = 1;

        [StructLayout(LayoutKind.Sequential)]
        internal unsafe struct BatchColumn
        {
            internal byte* Data;
            internal UIntPtr Size;
            internal UIntPtr Stride;
            internal void* Offsets;
            internal int OffsetType;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct BatchAeadForm
        {
            internal UIntPtr Count;
            internal BatchColumn Keys;
            internal BatchColumn Nonces;
            internal BatchColumn Ad;
            internal BatchColumn SecondKeys;
            internal BatchColumn In;
            internal BatchColumn Out;
            internal int Tags;
            internal BatchColumn TagsOut;
            internal BatchColumn TagsIn;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct BatchHashForm
        {
            internal UIntPtr Count;
            internal BatchColumn In;
            internal BatchColumn Out;
            internal BatchColumn Keys;
            internal BatchColumn Customization;
        }

        [DllImport(Lib)] internal static extern IntPtr lwc_batch_default_backend();
        [DllImport(Lib)] internal static extern int lwc_batch_backend_available([MarshalAs(UnmanagedType.LPStr)] string backend);
        [DllImport(Lib)]
        internal static extern int lwc_batch_has_lanes([MarshalAs(UnmanagedType.LPStr)] string alg,
            [MarshalAs(UnmanagedType.LPStr)] string backend);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_batch_form_encrypt(IntPtr alg, BatchAeadForm* jobs, UIntPtr taglen,
            ref BatchOptions opt);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_batch_form_decrypt(IntPtr alg, BatchAeadForm* jobs, UIntPtr taglen,
            byte* ok, ref BatchOptions opt);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_batch_form_hash(IntPtr alg, BatchHashForm* jobs, ref BatchOptions opt);

        // ---- stream format ----
        internal const int StreamKeyBytes = 32;
        [DllImport(Lib)] internal static extern int lwc_stream_algorithm_supported([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)] internal static extern int lwc_stream_algorithm_id([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)]
        internal static extern StreamHandle lwc_stream_encrypt_new(IntPtr alg, uint chunkShift, uint threads, byte[] key);
        [DllImport(Lib)] internal static extern StreamHandle lwc_stream_decrypt_new(uint threads, byte[] key);
        [DllImport(Lib)] internal static extern void lwc_stream_free(IntPtr s);
        [DllImport(Lib)] internal static extern UIntPtr lwc_stream_push_bound(StreamHandle s, UIntPtr inlen);
        [DllImport(Lib)] internal static extern UIntPtr lwc_stream_final_bound(StreamHandle s);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_stream_push(StreamHandle s, byte* output, UIntPtr outcap,
            out UIntPtr outlen, byte* input, UIntPtr inlen);
        [DllImport(Lib)]
        internal static extern unsafe int lwc_stream_final(StreamHandle s, byte* output, UIntPtr outcap,
            out UIntPtr outlen);
        [DllImport(Lib)] internal static extern int lwc_stream_error_code(StreamHandle s);
        // Paths go as NUL-terminated UTF-8 made by PathBytes, never as marshalled strings: the
        // marshaller would cut a path at an embedded NUL and write to a different file.
        [DllImport(Lib)]
        internal static extern int lwc_stream_encrypt_file(IntPtr alg,
            uint chunkShift, uint threads, byte[] key, byte[] inPath, byte[] outPath, int overwrite);
        [DllImport(Lib)]
        internal static extern int lwc_stream_decrypt_file(uint threads, byte[] key, byte[] inPath, byte[] outPath,
            int overwrite);
        [DllImport(Lib)] internal static extern int lwc_stream_load_key(byte[] key, byte[] path);
        [DllImport(Lib)]
        internal static extern int lwc_stream_save_key(byte[] path, byte[] key, int overwrite);
        [DllImport(Lib)] internal static extern int lwc_stream_keygen(byte[] key);

        static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        /// <summary>path as NUL-terminated UTF-8 for the C calls. ArgumentException for an empty
        /// path, a NUL or another character no file name can hold, or a lone UTF-16 surrogate
        /// (which would be written as U+FFFD, a different name).</summary>
        internal static byte[] PathBytes(string path, string paramName)
        {
            if (path == null) throw new ArgumentNullException(paramName);
            if (path.Length == 0) throw new ArgumentException("the path is empty", paramName);
            if (path.IndexOfAny(Path.GetInvalidPathChars()) >= 0 || path.IndexOf('\0') >= 0)
                throw new ArgumentException("the path holds a NUL or another character invalid in paths", paramName);
            byte[] bytes;
            try { bytes = StrictUtf8.GetBytes(path); }
            catch (EncoderFallbackException)
            {
                throw new ArgumentException("the path holds a lone UTF-16 surrogate", paramName);
            }
            var z = new byte[bytes.Length + 1];
            Buffer.BlockCopy(bytes, 0, z, 0, bytes.Length);
            return z;
        }

        internal static string LastError()
        {
            IntPtr p = lwc_error_message();
            return p == IntPtr.Zero ? "unknown error" : Marshal.PtrToStringAnsi(p);
        }
    }

    /// <summary>
    /// The unmanaged memory of an lwc_hash_state. A SafeHandle so that the runtime keeps it
    /// alive for the length of every native call that gets it (a finalizer cannot free it under
    /// a running call) and frees it exactly once. Initialized is set after lwc_hash_init
    /// succeeded and cleared by lwc_hash_free, so that release frees a live state only.
    /// </summary>
    internal sealed class HashStateHandle : SafeHandle
    {
        internal bool Initialized;

        HashStateHandle() : base(IntPtr.Zero, true) { }

        internal static HashStateHandle Allocate()
        {
            var h = new HashStateHandle();
            // The allocation and the handle's ownership of it must not be split by an
            // asynchronous exception, or the memory would leak.
            try { }
            finally { h.SetHandle(Marshal.AllocHGlobal(Native.HashStateBytes)); }
            return h;
        }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        /// <summary>Wipes a live state (lwc_hash_free); the memory stays for another init.</summary>
        internal void Free()
        {
            if (!Initialized) return;
            bool added = false;
            try
            {
                DangerousAddRef(ref added);
                Native.lwc_hash_free(handle);
                Initialized = false;
            }
            finally { if (added) DangerousRelease(); }
        }

        protected override bool ReleaseHandle()
        {
            if (Initialized) Native.lwc_hash_free(handle);
            Initialized = false;
            // Also wipes a state whose init finished while Dispose ran on another thread.
            Native.lwc_memzero(handle, (UIntPtr)Native.HashStateBytes);
            Marshal.FreeHGlobal(handle);
            return true;
        }
    }

    /// <summary>An lwc_stream, returned by the P/Invoke calls themselves so that no raw pointer is
    /// ever held outside a SafeHandle (the runtime keeps it alive through every call that gets it
    /// and frees it once).</summary>
    internal sealed class StreamHandle : SafeHandle
    {
        StreamHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { Native.lwc_stream_free(handle); return true; }
    }
}
