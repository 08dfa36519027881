// P/Invoke declarations for liblwc.so (include/lwc.h and include/lwc/stream.h).
using System;
using System.Runtime.InteropServices;

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
        [DllImport(Lib)]
        internal static extern unsafe int lwc_aead_decrypt_detached(
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

        internal const int HashStateBytes = 256;
        [DllImport(Lib)]
        internal static extern unsafe int lwc_hash_init(IntPtr st, IntPtr alg,
            byte* key, UIntPtr keylen, byte* custom, UIntPtr customlen);
        [DllImport(Lib)] internal static extern unsafe int lwc_hash_update(IntPtr st, byte* input, UIntPtr inlen);
        [DllImport(Lib)] internal static extern unsafe int lwc_hash_squeeze(IntPtr st, byte* output, UIntPtr outlen);
        [DllImport(Lib)] internal static extern unsafe int lwc_hash_verify(IntPtr st, byte* tag, UIntPtr taglen);
        [DllImport(Lib)] internal static extern int lwc_hash_copy(IntPtr dst, IntPtr src);
        [DllImport(Lib)] internal static extern void lwc_hash_free(IntPtr st);
        [DllImport(Lib)] internal static extern void lwc_memzero(IntPtr p, UIntPtr len);

        // ---- stream format ----
        internal const int StreamKeyBytes = 32;
        [DllImport(Lib)] internal static extern int lwc_stream_algorithm_supported([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)] internal static extern int lwc_stream_algorithm_id([MarshalAs(UnmanagedType.LPStr)] string alg);
        [DllImport(Lib)]
        internal static extern IntPtr lwc_stream_encrypt_new([MarshalAs(UnmanagedType.LPStr)] string alg,
            uint chunkShift, uint threads, byte[] key);
        [DllImport(Lib)] internal static extern IntPtr lwc_stream_decrypt_new(uint threads, byte[] key);
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
        [DllImport(Lib)]
        internal static extern int lwc_stream_encrypt_file([MarshalAs(UnmanagedType.LPStr)] string alg,
            uint chunkShift, uint threads, byte[] key, [MarshalAs(UnmanagedType.LPStr)] string inPath,
            [MarshalAs(UnmanagedType.LPStr)] string outPath, int overwrite);
        [DllImport(Lib)]
        internal static extern int lwc_stream_decrypt_file(uint threads, byte[] key,
            [MarshalAs(UnmanagedType.LPStr)] string inPath, [MarshalAs(UnmanagedType.LPStr)] string outPath,
            int overwrite);
        [DllImport(Lib)] internal static extern int lwc_stream_load_key(byte[] key, [MarshalAs(UnmanagedType.LPStr)] string path);
        [DllImport(Lib)]
        internal static extern int lwc_stream_save_key([MarshalAs(UnmanagedType.LPStr)] string path, byte[] key, int overwrite);
        [DllImport(Lib)] internal static extern int lwc_stream_keygen(byte[] key);

        internal static string LastError()
        {
            IntPtr p = lwc_error_message();
            return p == IntPtr.Zero ? "unknown error" : Marshal.PtrToStringAnsi(p);
        }
    }

    internal sealed class StreamHandle : SafeHandle
    {
        internal StreamHandle(IntPtr h) : base(IntPtr.Zero, true) { SetHandle(h); }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { Native.lwc_stream_free(handle); return true; }
    }
}
