// SPDX-License-Identifier: MIT OR Apache-2.0
// The lwc file format (docs/stream-format.md) over lwc_stream_*: what `lwc encrypt` writes and
// `lwc decrypt` reads, from and to System.IO.Stream.
using System;
using System.Collections.Generic;
using System.IO;
using System.Security.Cryptography;

namespace Lwc
{
    /// <summary>Why an lwc file was rejected (LWC_STREAM_E_* of include/lwc/stream.h).</summary>
    public enum LwcFileError
    {
        None = 0, Usage = 1, NotAStream = 2, Unsupported = 3, BadHeader = 4, Truncated = 5, WrongKey = 6,
        Authentication = 7, KeyFile = 8, IO = 9
    }

    /// <summary>An lwc file failed to decrypt (or to be made); <see cref="Error"/> tells why.</summary>
    public class LwcFileException : CryptographicException
    {
        public LwcFileError Error { get; private set; }
        public LwcFileException(LwcFileError error, string message) : base(message) { Error = error; }
    }

    /// <summary>
    /// Encrypts and decrypts in the format of the lwc tool: a file made by `lwc encrypt -k KEY`
    /// decrypts here with the key of KEY (<see cref="LoadKey"/>), and the reverse. Keys are
    /// 32 bytes; every file derives its own key from it.
    /// Decrypt(Stream, Stream) releases nothing unverified: like `lwc decrypt` to standard output,
    /// it holds the plaintext (in memory up to 4 MiB, beyond that in a temporary file that only
    /// its owner can read and that has no name) until the whole input verified, then writes it all; on failure nothing
    /// at all is written to the output.
    /// </summary>
    public static class LwcFile
    {
        public const int KeySize = 32;
        public const string DefaultAlgorithm = "ascon-aead128";
        const int ReadSize = 64 * 1024;
        const int MemorySpool = 4 << 20;

        internal static void CheckKey(byte[] key)
        {
            if (key == null) throw new ArgumentNullException("key");
            if (key.Length != KeySize)
                throw new ArgumentException("lwc file keys are " + KeySize + " bytes, not " + key.Length, "key");
        }

        internal static uint ChunkShift(int chunkSize)
        {
            if (chunkSize == 0) return 0;
            for (int s = 6; s <= 20; s++)
                if (chunkSize == 1 << s) return (uint)s;
            throw new ArgumentOutOfRangeException("chunkSize", chunkSize, "a power of two from 64 to 1 MiB, or 0");
        }

        internal static Exception Failure(StreamHandle s)
        {
            var code = (LwcFileError)Native.lwc_stream_error_code(s);
            string msg = "lwc: " + Native.LastError();
            if (code == LwcFileError.Usage) return new InvalidOperationException(msg);
            if (code == LwcFileError.IO) return new IOException(msg);
            return new LwcFileException(code, msg);
        }

        // The bounds of lwc_stream_push grow with the input that the native stream holds (up to
        // two batches of several MiB), a little at every call: growing the output buffer to each
        // new bound would allocate (and wipe) a multi-MiB array per call, ten times slower than
        // the encryption itself. Doubling keeps it to a few allocations per stream.
        internal static byte[] Grow(byte[] buf, long need)
        {
            if (need <= buf.Length) return buf;
            long size = Math.Min(Math.Max(need, 2L * buf.Length), int.MaxValue - 64);
            if (size < need) throw new OutOfMemoryException("lwc: output bound of " + need + " bytes");
            Array.Clear(buf, 0, buf.Length);
            return new byte[size];
        }

        // A Stream is the caller's code: a count outside 0..count would make the native side read
        // past the buffer (encrypting whatever lies behind it) or lose data: an IOException instead.
        internal static int CheckedCount(Stream stream, int n, int count)
        {
            if (n < 0 || n > count)
                throw new IOException("lwc: " + stream.GetType().FullName + ".Read returned " + n + " for a buffer of " +
                    count + " bytes");
            return n;
        }

        internal static int ReadChecked(Stream stream, byte[] buffer, int offset, int count)
        {
            return CheckedCount(stream, stream.Read(buffer, offset, count), count);
        }

        // Feeds input through s; emit gets each piece of output (valid until the next call).
        static unsafe void Run(StreamHandle s, Stream input, Action<byte[], int> emit)
        {
            var inbuf = new byte[ReadSize];
            var outbuf = new byte[Math.Max((long)Native.lwc_stream_push_bound(s, (UIntPtr)ReadSize),
                (long)Native.lwc_stream_final_bound(s))];
            try
            {
                int n;
                UIntPtr outlen;
                while ((n = ReadChecked(input, inbuf, 0, inbuf.Length)) > 0)
                {
                    long bound = (long)Native.lwc_stream_push_bound(s, (UIntPtr)n);
                    outbuf = Grow(outbuf, bound);
                    int rc;
                    fixed (byte* po = outbuf) fixed (byte* pi = inbuf)
                    {
                        rc = Native.lwc_stream_push(s, po, (UIntPtr)outbuf.Length, out outlen, pi, (UIntPtr)n);
                    }
                    if (rc != 0) throw Failure(s);
                    if ((long)outlen > 0) emit(outbuf, (int)outlen);
                }
                long fb = (long)Native.lwc_stream_final_bound(s);
                outbuf = Grow(outbuf, fb);
                int frc;
                fixed (byte* po = outbuf)
                {
                    frc = Native.lwc_stream_final(s, po, (UIntPtr)outbuf.Length, out outlen);
                }
                if (frc != 0) throw Failure(s);
                if ((long)outlen > 0) emit(outbuf, (int)outlen);
            }
            finally
            {
                Array.Clear(inbuf, 0, inbuf.Length);
                Array.Clear(outbuf, 0, outbuf.Length);
            }
        }

        /// <summary>Encrypts all of input into output in the lwc format. chunkSize: plaintext bytes
        /// per chunk (a power of two from 64 to 1 MiB; 0 = 64 KiB); threads: 0 = one per core.</summary>
        public static void Encrypt(Stream input, Stream output, byte[] key, string algorithm = DefaultAlgorithm,
            int chunkSize = 0, int threads = 0)
        {
            if (input == null) throw new ArgumentNullException("input");
            if (output == null) throw new ArgumentNullException("output");
            if (ReferenceEquals(input, output)) throw new ArgumentException("input and output are the same stream", "output");
            CheckKey(key);
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Aead);
            if (!info.StreamSupported)
                throw new ArgumentException(info.Name + " has no lwc stream id", "algorithm");
            uint shift = ChunkShift(chunkSize);
            if (threads < 0) throw new ArgumentOutOfRangeException("threads");
            using (var s = Native.lwc_stream_encrypt_new(info.NamePtr, shift, (uint)threads, key))
            {
                if (s.IsInvalid) throw new ArgumentException("lwc: " + Native.LastError());
                Run(s, input, (buf, n) => output.Write(buf, 0, n));
            }
            output.Flush();
        }

        /// <summary>Decrypts an lwc file from input into output; LwcFileException (a
        /// CryptographicException) when it is not authentic (wrong key, modified, truncated,
        /// reordered or appended data), and then nothing was written to output.</summary>
        public static void Decrypt(Stream input, Stream output, byte[] key, int threads = 0)
        {
            if (input == null) throw new ArgumentNullException("input");
            if (output == null) throw new ArgumentNullException("output");
            if (ReferenceEquals(input, output)) throw new ArgumentException("input and output are the same stream", "output");
            CheckKey(key);
            if (threads < 0) throw new ArgumentOutOfRangeException("threads");
            StreamHandle h = Native.lwc_stream_decrypt_new((uint)threads, key);
            if (h.IsInvalid)
            {
                h.Dispose();
                throw new ArgumentException("lwc: " + Native.LastError());
            }
            var memory = new List<byte[]>();
            long held = 0;
            Stream spill = null;
            try
            {
                using (var s = h)
                {
                    Run(s, input, (buf, n) =>
                    {
                        if (spill == null && held + n > MemorySpool) spill = SpillFile.Open();
                        if (spill != null) spill.Write(buf, 0, n);
                        else
                        {
                            var piece = new byte[n];
                            Buffer.BlockCopy(buf, 0, piece, 0, n);
                            memory.Add(piece);
                        }
                        held += n;
                    });
                }
                // Verified: release it all, in order.
                foreach (var piece in memory) output.Write(piece, 0, piece.Length);
                if (spill != null)
                {
                    spill.Position = 0;
                    var buf = new byte[ReadSize];
                    int n;
                    while ((n = ReadChecked(spill, buf, 0, buf.Length)) > 0) output.Write(buf, 0, n);
                    Array.Clear(buf, 0, buf.Length);
                }
                output.Flush();
            }
            finally
            {
                foreach (var piece in memory) Array.Clear(piece, 0, piece.Length);
                if (spill != null) spill.Dispose();
            }
        }

        // The same path spelled the same way is refused here; liblwc also refuses the input under
        // any other name (a symlink, a hard link), comparing the files themselves.
        static void CheckDistinct(string inputPath, string outputPath)
        {
            if (Path.GetFullPath(inputPath) == Path.GetFullPath(outputPath))
                throw new ArgumentException("the output is the input file; write to another file", "outputPath");
        }

        /// <summary>Encrypts a file as `lwc encrypt -o` does: the output is written to a temporary
        /// file in the same folder, synced and renamed, so an existing outputPath is replaced only
        /// by a complete file (and only with overwrite) and is left as it was on any failure.
        /// inputPath and outputPath must differ. ArgumentException for a path with a NUL or
        /// another invalid character.</summary>
        public static void EncryptFile(string inputPath, string outputPath, byte[] key,
            string algorithm = DefaultAlgorithm, int chunkSize = 0, bool overwrite = false, int threads = 0)
        {
            byte[] inPath = Native.PathBytes(inputPath, "inputPath");
            byte[] outPath = Native.PathBytes(outputPath, "outputPath");
            CheckDistinct(inputPath, outputPath);
            CheckKey(key);
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Aead);
            if (threads < 0) throw new ArgumentOutOfRangeException("threads");
            uint shift = ChunkShift(chunkSize);
            if (Native.lwc_stream_encrypt_file(info.NamePtr, shift, (uint)threads, key, inPath, outPath,
                    overwrite ? 1 : 0) != 0)
                throw new IOException("lwc: " + Native.LastError());
        }

        /// <summary>Decrypts a file as `lwc decrypt -o` does: outputPath appears (atomically,
        /// through a temporary file in the same folder, synced and renamed) only after the last
        /// chunk verified; on any failure an existing outputPath is left as it was. inputPath and
        /// outputPath must differ.</summary>
        public static void DecryptFile(string inputPath, string outputPath, byte[] key, bool overwrite = false,
            int threads = 0)
        {
            byte[] inPath = Native.PathBytes(inputPath, "inputPath");
            byte[] outPath = Native.PathBytes(outputPath, "outputPath");
            CheckDistinct(inputPath, outputPath);
            CheckKey(key);
            if (threads < 0) throw new ArgumentOutOfRangeException("threads");
            if (Native.lwc_stream_decrypt_file((uint)threads, key, inPath, outPath, overwrite ? 1 : 0) != 0)
                throw new CryptographicException("lwc: " + Native.LastError());
        }

        /// <summary>Reads a key file ("lwc-key-v1 ..." as `lwc keygen` writes, mode 0600).</summary>
        public static byte[] LoadKey(string path)
        {
            byte[] p = Native.PathBytes(path, "path");
            var key = new byte[KeySize];
            if (Native.lwc_stream_load_key(key, p) != 0)
            {
                Array.Clear(key, 0, key.Length);
                throw new IOException("lwc: " + Native.LastError());
            }
            return key;
        }

        /// <summary>Writes a key file as `lwc keygen -o` does (mode 0600).</summary>
        public static void SaveKey(string path, byte[] key, bool overwrite = false)
        {
            byte[] p = Native.PathBytes(path, "path");
            CheckKey(key);
            if (Native.lwc_stream_save_key(p, key, overwrite ? 1 : 0) != 0)
                throw new IOException("lwc: " + Native.LastError());
        }

        /// <summary>A new random 32-byte key (the kernel's CSPRNG, as `lwc keygen`).</summary>
        public static byte[] GenerateKey()
        {
            var key = new byte[KeySize];
            if (Native.lwc_stream_keygen(key) != 0) throw new CryptographicException("lwc: " + Native.LastError());
            return key;
        }
    }
}
