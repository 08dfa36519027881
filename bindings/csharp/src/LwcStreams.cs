// System.IO.Stream over the lwc file format (docs/stream-format.md): a write-only stream that
// encrypts into an inner stream as data is written, and a read-only stream that decrypts from
// an inner stream, chunk by chunk, releasing only verified plaintext. Both drive lwc_stream_*.
using System;
using System.IO;
using System.Security.Cryptography;

namespace Lwc
{
    /// <summary>
    /// Encrypts what is written to it into <c>output</c> in the format of `lwc encrypt`. The
    /// stream ends with <see cref="FlushFinalBlock"/>, which writes the last chunk: Dispose
    /// without it (a using block left by an exception, say) writes no last chunk, so the output
    /// is a truncated file that every reader rejects rather than a shorter file that verifies.
    /// Write-only, not seekable, not thread-safe.
    /// </summary>
    public sealed class LwcEncryptStream : Stream
    {
        const int MaxPush = 1 << 20;
        Stream output;
        readonly bool leaveOpen;
        StreamHandle s;
        byte[] outbuf = new byte[0];
        bool finished, failed, disposed;

        /// <summary>chunkSize: plaintext bytes per chunk (a power of two from 64 to 1 MiB; 0 =
        /// 64 KiB); threads: 0 = one per core; leaveOpen: keep output open on Dispose.</summary>
        public LwcEncryptStream(Stream output, byte[] key, string algorithm = LwcFile.DefaultAlgorithm,
            int chunkSize = 0, int threads = 0, bool leaveOpen = false)
        {
            if (output == null) throw new ArgumentNullException("output");
            if (!output.CanWrite) throw new ArgumentException("the output stream is not writable", "output");
            LwcFile.CheckKey(key);
            var info = Registry.Require(algorithm, "algorithm", AlgorithmKind.Aead);
            if (!info.StreamSupported) throw new ArgumentException(info.Name + " has no lwc stream id", "algorithm");
            uint shift = LwcFile.ChunkShift(chunkSize);
            if (threads < 0) throw new ArgumentOutOfRangeException("threads");
            IntPtr h = Native.lwc_stream_encrypt_new(info.Name, shift, (uint)threads, key);
            if (h == IntPtr.Zero) throw new ArgumentException("lwc: " + Native.LastError());
            s = new StreamHandle(h);
            this.output = output;
            this.leaveOpen = leaveOpen;
        }

        /// <summary>True once FlushFinalBlock wrote the last chunk.</summary>
        public bool HasFlushedFinalBlock { get { return finished; } }

        public override bool CanRead { get { return false; } }
        public override bool CanSeek { get { return false; } }
        public override bool CanWrite { get { return !disposed && !finished && !failed; } }

        void Usable()
        {
            if (disposed) throw new ObjectDisposedException("LwcEncryptStream");
            if (failed) throw new InvalidOperationException("lwc: an earlier write to this stream failed");
            if (finished) throw new InvalidOperationException("lwc: the stream already ended (FlushFinalBlock)");
        }

        void Emit(int rc, UIntPtr outlen)
        {
            if (rc != 0) throw LwcFile.Failure(s);
            if ((long)outlen > 0) output.Write(outbuf, 0, (int)outlen);
        }

        public override unsafe void Write(byte[] buffer, int offset, int count)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            if (offset < 0) throw new ArgumentOutOfRangeException("offset");
            if (count < 0 || count > buffer.Length - offset) throw new ArgumentOutOfRangeException("count");
            Usable();
            try
            {
                while (count > 0)
                {
                    int n = Math.Min(count, MaxPush);
                    long bound = (long)Native.lwc_stream_push_bound(s, (UIntPtr)n);
                    outbuf = LwcFile.Grow(outbuf, bound);
                    int rc;
                    UIntPtr outlen;
                    fixed (byte* po = outbuf) fixed (byte* pi = buffer)
                    {
                        rc = Native.lwc_stream_push(s, po, (UIntPtr)outbuf.Length, out outlen, pi + offset, (UIntPtr)n);
                    }
                    Emit(rc, outlen);
                    offset += n;
                    count -= n;
                }
            }
            catch
            {
                // The native stream may have taken input whose output was lost: nothing written
                // after this could make a correct file.
                failed = true;
                throw;
            }
        }

        /// <summary>Writes the last chunk (a possibly empty remainder) and flushes output; no
        /// write is possible after it. Without it the output is not a complete lwc file.</summary>
        public unsafe void FlushFinalBlock()
        {
            Usable();
            try
            {
                long bound = (long)Native.lwc_stream_final_bound(s);
                outbuf = LwcFile.Grow(outbuf, bound);
                int rc;
                UIntPtr outlen;
                fixed (byte* po = outbuf) rc = Native.lwc_stream_final(s, po, (UIntPtr)outbuf.Length, out outlen);
                Emit(rc, outlen);
                output.Flush();
                finished = true;
            }
            catch
            {
                failed = true;
                throw;
            }
        }

        /// <summary>Flushes the inner stream; a chunk is written only once it is full, so the
        /// output may lag what was written by up to a chunk (and a batch of chunks).</summary>
        public override void Flush()
        {
            if (disposed) throw new ObjectDisposedException("LwcEncryptStream");
            output.Flush();
        }

        public override int Read(byte[] buffer, int offset, int count) { throw new NotSupportedException("LwcEncryptStream is write-only"); }
        public override long Seek(long offset, SeekOrigin origin) { throw new NotSupportedException(); }
        public override void SetLength(long value) { throw new NotSupportedException(); }
        public override long Length { get { throw new NotSupportedException(); } }
        public override long Position
        {
            get { throw new NotSupportedException(); }
            set { throw new NotSupportedException(); }
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing && !disposed)
            {
                disposed = true;
                s.Dispose();
                Array.Clear(outbuf, 0, outbuf.Length);
                if (!leaveOpen) output.Dispose();
                output = null;
            }
            base.Dispose(disposing);
        }
    }

    /// <summary>
    /// Decrypts an lwc file (as `lwc encrypt` writes) read from <c>input</c>. Read hands out a
    /// chunk's plaintext only after that chunk's tag verified, and returns 0 (end of stream)
    /// only after the last chunk verified; a wrong key, a modified, reordered or appended chunk,
    /// or a file that ends early throws <see cref="LwcFileException"/> (a
    /// CryptographicException) and so does every later Read. What was read before such a late
    /// failure is authentic but only a prefix of the original cut at a chunk boundary: treat it
    /// as unconfirmed until Read returned 0 (<see cref="Verified"/>). <see cref="LwcFile.Decrypt"/>
    /// instead holds everything back and releases nothing on failure.
    /// Read-only, not seekable, not thread-safe.
    /// </summary>
    public sealed class LwcDecryptStream : Stream
    {
        const int ReadSize = 64 * 1024;
        Stream input;
        readonly bool leaveOpen;
        StreamHandle s;
        readonly byte[] inbuf = new byte[ReadSize];
        byte[] outbuf;
        int outPos, outLen;
        bool verified, disposed;
        Exception fault;

        /// <summary>threads: 0 = one per core; leaveOpen: keep input open on Dispose.</summary>
        public LwcDecryptStream(Stream input, byte[] key, int threads = 0, bool leaveOpen = false)
        {
            if (input == null) throw new ArgumentNullException("input");
            if (!input.CanRead) throw new ArgumentException("the input stream is not readable", "input");
            LwcFile.CheckKey(key);
            if (threads < 0) throw new ArgumentOutOfRangeException("threads");
            IntPtr h = Native.lwc_stream_decrypt_new((uint)threads, key);
            if (h == IntPtr.Zero) throw new ArgumentException("lwc: " + Native.LastError());
            s = new StreamHandle(h);
            outbuf = new byte[0];
            this.input = input;
            this.leaveOpen = leaveOpen;
        }

        /// <summary>True once the whole file verified (Read returned 0): only then is what was
        /// read the complete plaintext.</summary>
        public bool Verified { get { return verified; } }

        public override bool CanRead { get { return !disposed; } }
        public override bool CanSeek { get { return false; } }
        public override bool CanWrite { get { return false; } }

        // Feeds the native stream one read of input (or the end of it) and takes what it releases.
        unsafe void Fill()
        {
            int n = input.Read(inbuf, 0, inbuf.Length);
            // The bound depends on the state (the chunk size is known once the header was read).
            long bound = (long)(n > 0 ? Native.lwc_stream_push_bound(s, (UIntPtr)n) : Native.lwc_stream_final_bound(s));
            outbuf = LwcFile.Grow(outbuf, bound);
            int rc;
            UIntPtr outlen;
            if (n > 0)
            {
                fixed (byte* po = outbuf) fixed (byte* pi = inbuf)
                {
                    rc = Native.lwc_stream_push(s, po, (UIntPtr)outbuf.Length, out outlen, pi, (UIntPtr)n);
                }
            }
            else
            {
                fixed (byte* po = outbuf) rc = Native.lwc_stream_final(s, po, (UIntPtr)outbuf.Length, out outlen);
            }
            if (rc != 0)
            {
                fault = LwcFile.Failure(s);
                throw fault;
            }
            outPos = 0;
            outLen = (int)outlen;
            if (n == 0) verified = true;
        }

        public override int Read(byte[] buffer, int offset, int count)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            if (offset < 0) throw new ArgumentOutOfRangeException("offset");
            if (count < 0 || count > buffer.Length - offset) throw new ArgumentOutOfRangeException("count");
            if (disposed) throw new ObjectDisposedException("LwcDecryptStream");
            if (fault != null) throw fault;
            if (count == 0) return 0;
            while (outPos == outLen)
            {
                if (verified) return 0;
                Fill();
            }
            int k = Math.Min(count, outLen - outPos);
            Buffer.BlockCopy(outbuf, outPos, buffer, offset, k);
            Array.Clear(outbuf, outPos, k);
            outPos += k;
            return k;
        }

        public override void Write(byte[] buffer, int offset, int count) { throw new NotSupportedException("LwcDecryptStream is read-only"); }
        public override void Flush() { }
        public override long Seek(long offset, SeekOrigin origin) { throw new NotSupportedException(); }
        public override void SetLength(long value) { throw new NotSupportedException(); }
        public override long Length { get { throw new NotSupportedException(); } }
        public override long Position
        {
            get { throw new NotSupportedException(); }
            set { throw new NotSupportedException(); }
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing && !disposed)
            {
                disposed = true;
                s.Dispose();
                Array.Clear(outbuf, 0, outbuf.Length);
                Array.Clear(inbuf, 0, inbuf.Length);
                if (!leaveOpen) input.Dispose();
                input = null;
            }
            base.Dispose(disposing);
        }
    }
}
