// SPDX-License-Identifier: MIT OR Apache-2.0
// The temporary file in which LwcFile.Decrypt holds unverified plaintext beyond 4 MiB. Only its
// owner may read it and it has no name while it holds data: on Linux it is opened with
// O_TMPFILE (never named), elsewhere on Unix made by mkstemp (mode 0600, O_EXCL) and unlinked
// before the first byte is written. Mono's FileStream does not accept a descriptor that it did
// not open itself ("Invalid handle"), so the descriptor is wrapped in a Stream of its own over
// read/write/lseek. Other systems get a FileStream with DeleteOnClose in the user's temp
// directory.
using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;

namespace Lwc
{
    internal static class SpillFile
    {
        const int O_RDWR = 2, O_EXCL = 0x80, O_CLOEXEC = 0x80000;
        const int Mode0600 = 0x180;
        internal const int EINTR = 4;

        [DllImport("libc", EntryPoint = "open", SetLastError = true)]
        static extern int open(byte[] path, int flags, int mode);
        [DllImport("libc", EntryPoint = "mkstemp", SetLastError = true)]
        static extern int mkstemp(byte[] template);
        [DllImport("libc", EntryPoint = "unlink", SetLastError = true)]
        static extern int unlink(byte[] path);
        [DllImport("libc", EntryPoint = "close", SetLastError = true)]
        internal static extern int close(int fd);
        [DllImport("libc", EntryPoint = "read", SetLastError = true)]
        internal static extern unsafe IntPtr read(int fd, byte* buf, UIntPtr count);
        [DllImport("libc", EntryPoint = "write", SetLastError = true)]
        internal static extern unsafe IntPtr write(int fd, byte* buf, UIntPtr count);
        [DllImport("libc", EntryPoint = "lseek", SetLastError = true)]
        internal static extern long lseek(int fd, long offset, int whence);

        // O_TMPFILE is __O_TMPFILE | O_DIRECTORY, and O_DIRECTORY differs between architectures.
        static int TmpFileFlag()
        {
            switch (RuntimeInformation.ProcessArchitecture)
            {
                case Architecture.X64: return 0x410000;   // 020200000
                case Architecture.Arm64: return 0x404000; // 020040000
                default: return 0;
            }
        }

        static bool UnixDescriptors
        {
            // lseek's off_t is 64 bits only on 64-bit processes (32-bit ones would need lseek64).
            get { return IntPtr.Size == 8 && (RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ||
                RuntimeInformation.IsOSPlatform(OSPlatform.OSX)); }
        }

        static byte[] CString(string s)
        {
            return Encoding.UTF8.GetBytes(s + "\0");
        }

        /// <summary>How the last Open made its file: "O_TMPFILE", "mkstemp" or "FileStream".</summary>
        internal static string LastMethod;

        /// <summary>A new empty read-write temporary file, owner-only and already nameless.
        /// useTmpFile false skips O_TMPFILE (the mkstemp path, for the tests).</summary>
        internal static Stream Open(bool useTmpFile = true)
        {
            if (!UnixDescriptors)
            {
                LastMethod = "FileStream";
                string path = Path.Combine(Path.GetTempPath(), "lwc-" + Guid.NewGuid().ToString("N") + ".tmp");
                return new FileStream(path, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.None, 1 << 16,
                    FileOptions.DeleteOnClose);
            }
            string dir = Path.GetTempPath();
            int flag = TmpFileFlag();
            if (useTmpFile && flag != 0 && RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
            {
                // Fails on kernels before 3.11 and file systems without it (EISDIR, EOPNOTSUPP):
                // then mkstemp.
                int fd = open(CString(dir), flag | O_RDWR | O_EXCL | O_CLOEXEC, Mode0600);
                if (fd >= 0) { LastMethod = "O_TMPFILE"; return new DescriptorStream(fd); }
            }
            var template = CString(Path.Combine(dir, "lwc-spill-XXXXXX"));
            int tfd = mkstemp(template);
            if (tfd < 0)
                throw new IOException("lwc: cannot create a temporary file in " + dir + " (errno " +
                    Marshal.GetLastWin32Error() + ")");
            if (unlink(template) != 0)
            {
                int errno = Marshal.GetLastWin32Error();
                close(tfd);
                throw new IOException("lwc: cannot unlink the temporary file " +
                    Encoding.UTF8.GetString(template, 0, template.Length - 1) + " (errno " + errno + ")");
            }
            LastMethod = "mkstemp";
            return new DescriptorStream(tfd);
        }
    }

    internal sealed class DescriptorHandle : SafeHandle
    {
        internal DescriptorHandle(int fd) : base(new IntPtr(-1), true) { SetHandle(new IntPtr(fd)); }
        public override bool IsInvalid { get { return handle.ToInt64() < 0; } }
        protected override bool ReleaseHandle() { return SpillFile.close(handle.ToInt32()) == 0; }
    }

    /// <summary>A seekable read-write Stream over a Unix file descriptor that it owns.</summary>
    internal sealed class DescriptorStream : Stream
    {
        readonly DescriptorHandle fd;
        long position, length;

        internal DescriptorStream(int fd) { this.fd = new DescriptorHandle(fd); }

        /// <summary>The descriptor (for the tests, which check its mode and name through /proc).</summary>
        internal int Descriptor { get { return fd.DangerousGetHandle().ToInt32(); } }

        public override bool CanRead { get { return !fd.IsClosed; } }
        public override bool CanWrite { get { return !fd.IsClosed; } }
        public override bool CanSeek { get { return !fd.IsClosed; } }
        public override long Length { get { Open(); return length; } }
        public override long Position
        {
            get { Open(); return position; }
            set { Seek(value, SeekOrigin.Begin); }
        }

        void Open() { if (fd.IsClosed) throw new ObjectDisposedException("DescriptorStream"); }

        static void CheckArgs(byte[] buffer, int offset, int count)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            if (offset < 0 || count < 0 || count > buffer.Length - offset)
                throw new ArgumentOutOfRangeException("count");
        }

        public override long Seek(long offset, SeekOrigin origin)
        {
            Open();
            long target = origin == SeekOrigin.Begin ? offset : origin == SeekOrigin.Current ? position + offset :
                length + offset;
            if (target < 0) throw new IOException("seek before the start");
            if (SpillFile.lseek(Descriptor, target, 0) != target)
                throw new IOException("lwc: lseek failed (errno " + Marshal.GetLastWin32Error() + ")");
            position = target;
            return position;
        }

        public override unsafe int Read(byte[] buffer, int offset, int count)
        {
            CheckArgs(buffer, offset, count);
            Open();
            if (count == 0) return 0;
            while (true)
            {
                long n;
                fixed (byte* p = buffer) n = SpillFile.read(Descriptor, p + offset, (UIntPtr)count).ToInt64();
                if (n >= 0) { position += n; return (int)n; }
                int errno = Marshal.GetLastWin32Error();
                if (errno != SpillFile.EINTR) throw new IOException("lwc: read from the temporary file failed (errno " + errno + ")");
            }
        }

        public override unsafe void Write(byte[] buffer, int offset, int count)
        {
            CheckArgs(buffer, offset, count);
            Open();
            while (count > 0)
            {
                long n;
                fixed (byte* p = buffer) n = SpillFile.write(Descriptor, p + offset, (UIntPtr)count).ToInt64();
                if (n < 0)
                {
                    int errno = Marshal.GetLastWin32Error();
                    if (errno == SpillFile.EINTR) continue;
                    throw new IOException("lwc: write to the temporary file failed (errno " + errno + ")");
                }
                offset += (int)n; count -= (int)n; position += n;
                if (position > length) length = position;
            }
        }

        public override void Flush() { }
        public override void SetLength(long value) { throw new NotSupportedException(); }

        protected override void Dispose(bool disposing)
        {
            if (disposing) fd.Dispose();
            base.Dispose(disposing);
        }
    }
}
