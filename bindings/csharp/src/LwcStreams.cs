// SPDX-License-Identifier: MIT OR Apache-2.0
// System.IO.Stream over the lwc file format (docs/stream-format.md): a write-only stream that
// encrypts into an inner stream as data is written, and a read-only stream that decrypts from
// an inner stream, chunk by chunk, releasing only verified plaintext. Both drive lwc_stream_*.
// The async overrides do the inner stream's I/O with its own async calls; the native work
// (encrypting or verifying a batch of chunks) runs on the calling thread, as CryptoStream's
// transform does, since liblwc already spreads a batch over its own threads.
using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Threading;
using System.Threading.Tasks;

namespace Lwc
{
    /// <summary>
    /// Encrypts what is written to it into <c>output</c> in the format of `lwc encrypt`. The
    /// stream ends with <see cref="FlushFinalBlock"/>, which writes the last chunk: Dispose
    /// without it (a using block left by an exception, say) writes no last chunk, so the output
    /// is a truncated file that every reader rejects rather than a shorter file that verifies.
    /// WriteAsync, FlushAsync and <see cref="FlushFinalBlockAsync"/> honour their token: one
    /// already cancelled returns a cancelled task and changes nothing. A cancellation once
    /// WriteAsync or FlushFinalBlockAsync began (between 1 MiB pieces, or inside the inner
    /// stream's call) leaves the stream failed like any other error: the caller cannot know how
    /// much of the call's data reached the output, so later writes and FlushFinalBlock throw,
    /// and the output lacks its last chunk or has it cut short, which every reader rejects. It
    /// is never a shorter file that verifies (at most, when the inner stream took all of the last
    /// write before it reported the cancellation, it is the whole file). Discard it. FlushAsync
    /// hands the output nothing new, so a cancelled one changes nothing.
    /// Write-only, not seekable. One operation at a time: a call while another runs (on another
    /// thread, or from the output stream's own code) or while an async one is pending throws
    /// InvalidOperationException. The span and Memory forms encrypt straight from the caller's
    /// memory: no pooled or temporary buffer ever holds the plaintext.
    /// </summary>
    public sealed class LwcEncryptStream : Stream
    {
        const int MaxPush = 1 << 20;
        Stream output;
        readonly bool leaveOpen;
        StreamHandle s;
        byte[] outbuf = new byte[0];
        bool finished, failed;
        volatile bool disposed;
        int busy;   // 1 while a call runs, or an async call's task is pending (Interlocked)

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
            s = Native.lwc_stream_encrypt_new(info.NamePtr, shift, (uint)threads, key);
            if (s.IsInvalid)
            {
                s.Dispose();
                throw new ArgumentException("lwc: " + Native.LastError());
            }
            this.output = output;
            this.leaveOpen = leaveOpen;
        }

        /// <summary>True once FlushFinalBlock wrote the last chunk.</summary>
        public bool HasFlushedFinalBlock { get { return finished; } }

        public override bool CanRead { get { return false; } }
        public override bool CanSeek { get { return false; } }
        public override bool CanWrite { get { return !disposed && !finished && !failed; } }

        // Every call that touches the native stream runs between Enter and Exit: a second call
        // meanwhile (another thread, or the output stream calling back into this one) is refused.
        void Enter()
        {
            if (disposed) throw new ObjectDisposedException("LwcEncryptStream");
            if (Interlocked.CompareExchange(ref busy, 1, 0) != 0)
                throw new InvalidOperationException("lwc: another operation on this stream is running or pending " +
                    "(one at a time)");
            string refusal = failed ? "lwc: an earlier write to this stream failed or was cancelled"
                : finished ? "lwc: the stream already ended (FlushFinalBlock)" : null;
            if (refusal != null)
            {
                Exit();
                throw new InvalidOperationException(refusal);
            }
        }

        void Exit() { Volatile.Write(ref busy, 0); }

        static void CheckBuffer(byte[] buffer, int offset, int count)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            if (offset < 0) throw new ArgumentOutOfRangeException("offset");
            if (count < 0 || count > buffer.Length - offset) throw new ArgumentOutOfRangeException("count");
        }

        // Encrypts piece (at most MaxPush bytes) into outbuf; returns the bytes of output it
        // released. Kept apart from the loops because an async method cannot pin.
        unsafe int Push(ReadOnlySpan<byte> piece)
        {
            long bound = (long)Native.lwc_stream_push_bound(s, (UIntPtr)piece.Length);
            outbuf = LwcFile.Grow(outbuf, bound);
            int rc;
            UIntPtr outlen;
            fixed (byte* po = outbuf) fixed (byte* pi = &MemoryMarshal.GetReference(piece))
            {
                rc = Native.lwc_stream_push(s, po, (UIntPtr)outbuf.Length, out outlen, pi, (UIntPtr)piece.Length);
            }
            if (rc != 0) throw LwcFile.Failure(s);
            return (int)outlen;
        }

        int Push(ReadOnlyMemory<byte> piece) { return Push(piece.Span); }

        // The last chunk (and whatever the native stream still held) into outbuf.
        unsafe int Final()
        {
            long bound = (long)Native.lwc_stream_final_bound(s);
            outbuf = LwcFile.Grow(outbuf, bound);
            int rc;
            UIntPtr outlen;
            fixed (byte* po = outbuf) rc = Native.lwc_stream_final(s, po, (UIntPtr)outbuf.Length, out outlen);
            if (rc != 0) throw LwcFile.Failure(s);
            return (int)outlen;
        }

        public override void Write(byte[] buffer, int offset, int count)
        {
            CheckBuffer(buffer, offset, count);
            WriteSpan(new ReadOnlySpan<byte>(buffer, offset, count));
        }

#if !NETSTANDARD2_0
        /// <summary>As Write(byte[], int, int), from a span: no copy of the plaintext is made.</summary>
        public override void Write(ReadOnlySpan<byte> buffer) { WriteSpan(buffer); }
#endif

        void WriteSpan(ReadOnlySpan<byte> buffer)
        {
            Enter();
            try
            {
                while (buffer.Length > 0)
                {
                    int n = Math.Min(buffer.Length, MaxPush);
                    int m = Push(buffer.Slice(0, n));
                    if (m > 0) output.Write(outbuf, 0, m);
                    buffer = buffer.Slice(n);
                }
            }
            catch
            {
                // The native stream may have taken input whose output was lost: nothing written
                // after this could make a correct file.
                failed = true;
                throw;
            }
            finally { Exit(); }
        }

        public override unsafe void WriteByte(byte value)
        {
            WriteSpan(new ReadOnlySpan<byte>(&value, 1));
        }

        /// <summary>As Write, with the inner stream's WriteAsync. A token cancelled before the
        /// call returns a cancelled task and changes nothing; a cancellation after it began leaves
        /// the stream failed (see the class summary).</summary>
        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        {
            CheckBuffer(buffer, offset, count);
            return StartWrite(new ReadOnlyMemory<byte>(buffer, offset, count), cancellationToken);
        }

#if !NETSTANDARD2_0
        /// <summary>As WriteAsync(byte[], int, int, CancellationToken), from memory: no copy of the
        /// plaintext is made. buffer must not change until the task completes.</summary>
        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            return new ValueTask(StartWrite(buffer, cancellationToken));
        }
#endif

        Task StartWrite(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken)
        {
            if (cancellationToken.IsCancellationRequested) return Task.FromCanceled(cancellationToken);
            Enter();
            return WriteCore(buffer, cancellationToken);
        }

        async Task WriteCore(ReadOnlyMemory<byte> buffer, CancellationToken token)
        {
            try
            {
                bool first = true;
                while (buffer.Length > 0)
                {
                    // The first piece was checked by the caller; between pieces the native stream
                    // has taken input already, so stopping here fails the stream (below).
                    if (!first) token.ThrowIfCancellationRequested();
                    first = false;
                    int n = Math.Min(buffer.Length, MaxPush);
                    int m = Push(buffer.Slice(0, n));
                    if (m > 0) await output.WriteAsync(outbuf, 0, m, token).ConfigureAwait(false);
                    if (disposed) throw new ObjectDisposedException("LwcEncryptStream");
                    buffer = buffer.Slice(n);
                }
            }
            catch
            {
                failed = true;
                throw;
            }
            finally { Exit(); }
        }

        /// <summary>Writes the last chunk (a possibly empty remainder) and flushes output; no
        /// write is possible after it. Without it the output is not a complete lwc file.</summary>
        public void FlushFinalBlock()
        {
            Enter();
            try
            {
                int m = Final();
                if (m > 0) output.Write(outbuf, 0, m);
                output.Flush();
                finished = true;
            }
            catch
            {
                failed = true;
                throw;
            }
            finally { Exit(); }
        }

        /// <summary>As FlushFinalBlock, with the inner stream's WriteAsync and FlushAsync. A token
        /// cancelled before the call returns a cancelled task and changes nothing (call it again);
        /// cancelled after it began, the stream is failed and HasFlushedFinalBlock stays false: the
        /// output may then hold all of the file or lack part of its last batch, which every reader
        /// rejects; it is never a shorter file that verifies. Treat it as lost.</summary>
        public Task FlushFinalBlockAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            if (cancellationToken.IsCancellationRequested) return Task.FromCanceled(cancellationToken);
            Enter();
            return FinalCore(cancellationToken);
        }

        async Task FinalCore(CancellationToken token)
        {
            try
            {
                int m = Final();
                if (m > 0) await output.WriteAsync(outbuf, 0, m, token).ConfigureAwait(false);
                if (disposed) throw new ObjectDisposedException("LwcEncryptStream");
                await output.FlushAsync(token).ConfigureAwait(false);
                finished = true;
            }
            catch
            {
                failed = true;
                throw;
            }
            finally { Exit(); }
        }

        /// <summary>Flushes the inner stream; a chunk is written only once it is full, so the
        /// output may lag what was written by up to a chunk (and a batch of chunks).</summary>
        public override void Flush()
        {
            if (disposed) throw new ObjectDisposedException("LwcEncryptStream");
            output.Flush();
        }

        /// <summary>The inner stream's FlushAsync. Flushing hands nothing new to the output (see
        /// Flush), so a cancelled flush leaves the stream as it was.</summary>
        public override Task FlushAsync(CancellationToken cancellationToken)
        {
            if (cancellationToken.IsCancellationRequested) return Task.FromCanceled(cancellationToken);
            if (disposed) throw new ObjectDisposedException("LwcEncryptStream");
            return output.FlushAsync(cancellationToken);
        }

        // Write-only: the read forms throw here rather than in a base class that would rent a
        // buffer first.
        public override int Read(byte[] buffer, int offset, int count) { throw new NotSupportedException("LwcEncryptStream is write-only"); }
#if !NETSTANDARD2_0
        public override int Read(Span<byte> buffer) { throw new NotSupportedException("LwcEncryptStream is write-only"); }
#endif
        public override int ReadByte() { throw new NotSupportedException("LwcEncryptStream is write-only"); }
        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        {
            throw new NotSupportedException("LwcEncryptStream is write-only");
        }
#if !NETSTANDARD2_0
        public override ValueTask<int> ReadAsync(Memory<byte> buffer,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            throw new NotSupportedException("LwcEncryptStream is write-only");
        }
#endif
#if !NETSTANDARD2_0
        public override void CopyTo(Stream destination, int bufferSize) { throw new NotSupportedException("LwcEncryptStream is write-only"); }
#endif
        public override Task CopyToAsync(Stream destination, int bufferSize, CancellationToken cancellationToken)
        {
            throw new NotSupportedException("LwcEncryptStream is write-only");
        }
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
    /// ReadAsync reads the inner stream with its ReadAsync and honours its token: one already
    /// cancelled returns a cancelled task and changes nothing; cancelled while it waits for the
    /// inner stream, it hands out nothing and the stream stays usable, the next read continuing
    /// from wherever the inner stream is. If the cancelled inner read lost bytes, the file no
    /// longer verifies from there and a later read throws LwcFileException: a gap is never taken
    /// for data, so nothing unverified is released either way.
    /// A Read count the input stream reports outside 0..requested, or an exception from it, fails
    /// the stream (IOException or that exception, now and at every later read).
    /// Read-only, not seekable. One operation at a time: a call while another runs (on another
    /// thread, or from the input stream's own code) or while an async one is pending throws
    /// InvalidOperationException. Read(Span), ReadAsync(Memory), ReadByte, CopyTo and
    /// CopyToAsync are its own: no pooled or temporary buffer ever holds the plaintext.
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
        bool verified;
        volatile bool disposed;
        int busy;   // 1 while a call runs, or an async call's task is pending (Interlocked)
        Exception fault;

        /// <summary>threads: 0 = one per core; leaveOpen: keep input open on Dispose.</summary>
        public LwcDecryptStream(Stream input, byte[] key, int threads = 0, bool leaveOpen = false)
        {
            if (input == null) throw new ArgumentNullException("input");
            if (!input.CanRead) throw new ArgumentException("the input stream is not readable", "input");
            LwcFile.CheckKey(key);
            if (threads < 0) throw new ArgumentOutOfRangeException("threads");
            s = Native.lwc_stream_decrypt_new((uint)threads, key);
            if (s.IsInvalid)
            {
                s.Dispose();
                throw new ArgumentException("lwc: " + Native.LastError());
            }
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

        // Feeds the native stream n bytes of inbuf (n = 0: the end of the input) and takes what
        // it releases. Kept apart from the read loops because an async method cannot pin.
        unsafe void Process(int n)
        {
            // n is a count the input stream returned, checked by the caller; checked again here
            // because the native side reads n bytes from inbuf.
            if (n < 0 || n > inbuf.Length) throw new InvalidOperationException("lwc: input count out of range");
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

        // A failure of the input stream itself (an exception, a count out of range) leaves the
        // native stream short of input: it fails this stream for good, as a bad file does.
        int ReadInput()
        {
            try { return LwcFile.ReadChecked(input, inbuf, 0, inbuf.Length); }
            catch (Exception e)
            {
                fault = e;
                throw;
            }
        }

        static void CheckBuffer(byte[] buffer, int offset, int count)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            if (offset < 0) throw new ArgumentOutOfRangeException("offset");
            if (count < 0 || count > buffer.Length - offset) throw new ArgumentOutOfRangeException("count");
        }

        // Every call runs between Enter and Exit: a second call meanwhile (another thread, or
        // the input stream calling back into this one) is refused.
        void Enter()
        {
            if (disposed) throw new ObjectDisposedException("LwcDecryptStream");
            if (Interlocked.CompareExchange(ref busy, 1, 0) != 0)
                throw new InvalidOperationException("lwc: another operation on this stream is running or pending " +
                    "(one at a time)");
        }

        void Exit() { Volatile.Write(ref busy, 0); }

        // Hands out up to destination.Length bytes of verified plaintext already held, wiping
        // our copy.
        int Take(Span<byte> destination)
        {
            int k = Math.Min(destination.Length, outLen - outPos);
            new ReadOnlySpan<byte>(outbuf, outPos, k).CopyTo(destination);
            Array.Clear(outbuf, outPos, k);
            outPos += k;
            return k;
        }

        int Take(Memory<byte> destination) { return Take(destination.Span); }

        public override int Read(byte[] buffer, int offset, int count)
        {
            CheckBuffer(buffer, offset, count);
            return ReadSpan(new Span<byte>(buffer, offset, count));
        }

#if !NETSTANDARD2_0
        /// <summary>As Read(byte[], int, int), into a span: the plaintext goes nowhere else.</summary>
        public override int Read(Span<byte> buffer) { return ReadSpan(buffer); }
#endif

        int ReadSpan(Span<byte> buffer)
        {
            Enter();
            try
            {
                if (fault != null) throw fault;
                if (buffer.Length == 0) return 0;
                while (outPos == outLen)
                {
                    if (verified) return 0;
                    Process(ReadInput());
                }
                return Take(buffer);
            }
            finally { Exit(); }
        }

        public override unsafe int ReadByte()
        {
            byte b;
            return ReadSpan(new Span<byte>(&b, 1)) == 0 ? -1 : b;
        }

        /// <summary>As Read, with the inner stream's ReadAsync (see the class summary for
        /// cancellation). A failure of the file comes as a faulted task, at this and every later
        /// read.</summary>
        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        {
            CheckBuffer(buffer, offset, count);
            return StartRead(new Memory<byte>(buffer, offset, count), cancellationToken);
        }

#if !NETSTANDARD2_0
        /// <summary>As ReadAsync(byte[], int, int, CancellationToken), into memory.</summary>
        public override ValueTask<int> ReadAsync(Memory<byte> buffer,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            return new ValueTask<int>(StartRead(buffer, cancellationToken));
        }
#endif

        Task<int> StartRead(Memory<byte> buffer, CancellationToken cancellationToken)
        {
            if (cancellationToken.IsCancellationRequested) return Task.FromCanceled<int>(cancellationToken);
            Enter();
            bool started = false;
            try
            {
                if (fault != null) return Task.FromException<int>(fault);
                if (buffer.Length == 0) return Task.FromResult(0);
                if (outPos < outLen) return Task.FromResult(Take(buffer));
                if (verified) return Task.FromResult(0);
                started = true;
                return ReadCore(buffer, cancellationToken);
            }
            finally { if (!started) Exit(); }
        }

        async Task<int> ReadCore(Memory<byte> buffer, CancellationToken token)
        {
            try
            {
                while (outPos == outLen)
                {
                    if (verified) return 0;
                    // Cancelled here or inside the inner read, nothing was handed out and the
                    // native stream took nothing: the stream stays as it was.
                    token.ThrowIfCancellationRequested();
                    Process(await ReadInputAsync(token).ConfigureAwait(false));
                }
                return Take(buffer);
            }
            finally { Exit(); }
        }

        async Task<int> ReadInputAsync(CancellationToken token)
        {
            int n = await input.ReadAsync(inbuf, 0, inbuf.Length, token).ConfigureAwait(false);
            if (disposed) throw new ObjectDisposedException("LwcDecryptStream");
            try { return LwcFile.CheckedCount(input, n, inbuf.Length); }
            catch (Exception e)
            {
                fault = e;
                throw;
            }
        }

#if !NETSTANDARD2_0
        /// <summary>Writes the rest of the plaintext to destination, a batch of chunks at a time,
        /// each only after it verified (no buffer of the base class holds plaintext). On a failure
        /// of the file, destination has what verified before it (see the class summary).</summary>
        public override void CopyTo(Stream destination, int bufferSize)
        {
            CheckCopy(destination, bufferSize);
            Enter();
            try
            {
                if (fault != null) throw fault;
                while (true)
                {
                    while (outPos == outLen)
                    {
                        if (verified) return;
                        Process(ReadInput());
                    }
                    destination.Write(outbuf, outPos, outLen - outPos);
                    Array.Clear(outbuf, outPos, outLen - outPos);
                    outPos = outLen;
                }
            }
            finally { Exit(); }
        }
#endif

        /// <summary>As CopyTo, with the inner streams' async calls. Cancelled while it writes to
        /// destination, how much of that batch destination got is unknown.</summary>
        public override Task CopyToAsync(Stream destination, int bufferSize, CancellationToken cancellationToken)
        {
            CheckCopy(destination, bufferSize);
            if (cancellationToken.IsCancellationRequested) return Task.FromCanceled(cancellationToken);
            Enter();
            return CopyCore(destination, cancellationToken);
        }

        async Task CopyCore(Stream destination, CancellationToken token)
        {
            try
            {
                if (fault != null) throw fault;
                while (true)
                {
                    while (outPos == outLen)
                    {
                        if (verified) return;
                        token.ThrowIfCancellationRequested();
                        Process(await ReadInputAsync(token).ConfigureAwait(false));
                    }
                    await destination.WriteAsync(outbuf, outPos, outLen - outPos, token).ConfigureAwait(false);
                    if (disposed) throw new ObjectDisposedException("LwcDecryptStream");
                    Array.Clear(outbuf, outPos, outLen - outPos);
                    outPos = outLen;
                }
            }
            finally { Exit(); }
        }

        static void CheckCopy(Stream destination, int bufferSize)
        {
            if (destination == null) throw new ArgumentNullException("destination");
            if (bufferSize <= 0) throw new ArgumentOutOfRangeException("bufferSize");
            if (!destination.CanWrite) throw new NotSupportedException("the destination stream is not writable");
        }

        // Read-only: the write forms throw here rather than in a base class that would rent a
        // buffer first.
        public override void Write(byte[] buffer, int offset, int count) { throw new NotSupportedException("LwcDecryptStream is read-only"); }
#if !NETSTANDARD2_0
        public override void Write(ReadOnlySpan<byte> buffer) { throw new NotSupportedException("LwcDecryptStream is read-only"); }
#endif
        public override void WriteByte(byte value) { throw new NotSupportedException("LwcDecryptStream is read-only"); }
        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        {
            throw new NotSupportedException("LwcDecryptStream is read-only");
        }
#if !NETSTANDARD2_0
        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            throw new NotSupportedException("LwcDecryptStream is read-only");
        }
#endif
        public override void Flush() { }

        public override Task FlushAsync(CancellationToken cancellationToken)
        {
            // Nothing to flush; the base class would queue Flush on the thread pool.
            return cancellationToken.IsCancellationRequested ? Task.FromCanceled(cancellationToken) : Task.CompletedTask;
        }
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
