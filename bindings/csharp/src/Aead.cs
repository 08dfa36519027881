// SPDX-License-Identifier: MIT OR Apache-2.0
// Authenticated encryption by registry name over lwc_aead_{en,de}crypt_detached.
using System;
using System.Runtime.InteropServices;
using System.Security.Cryptography;

namespace Lwc
{
    /// <summary>
    /// Every AEAD of the lwc registry by name ("ascon-aead128", "xoodyak", ...). Combined mode:
    /// the ciphertext is followed by the tag. Decryption checks the tag before anything is
    /// released; a wrong tag throws <see cref="CryptographicException"/> (or makes TryDecrypt
    /// return false) and no plaintext is returned. A null associatedData means none; every other
    /// null argument throws <see cref="ArgumentNullException"/>.
    /// Never encrypt two messages with the same key and nonce.
    /// </summary>
    public static class Aead
    {
        /// <summary>Sizes of the named AEAD; ArgumentException when it is unknown or no AEAD.</summary>
        public static AlgorithmInfo GetInfo(string algorithm)
        {
            return Registry.Require(algorithm, "algorithm", AlgorithmKind.Aead);
        }

        static AlgorithmInfo Check(AlgorithmInfo info, byte[] nonce, byte[] key, byte[] secondKey, int tagLength)
        {
            if (nonce == null) throw new ArgumentNullException("nonce");
            if (key == null) throw new ArgumentNullException("key");
            if (key.Length != info.KeySize)
                throw new ArgumentException(info.Name + " takes a " + info.KeySize + "-byte key, not " +
                    key.Length + " bytes", "key");
            if (nonce.Length != info.NonceSize)
                throw new ArgumentException(info.Name + " takes a " + info.NonceSize + "-byte nonce, not " +
                    nonce.Length + " bytes", "nonce");
            if (secondKey != null)
            {
                if (info.SecondKeySize == 0)
                    throw new ArgumentException(info.Name + " takes no second key", "secondKey");
                if (secondKey.Length != info.SecondKeySize)
                    throw new ArgumentException(info.Name + " takes a " + info.SecondKeySize +
                        "-byte second key, not " + secondKey.Length + " bytes", "secondKey");
            }
            if (tagLength < info.MinTagSize || tagLength > info.TagSize)
                throw new ArgumentOutOfRangeException("tagLength", tagLength, info.Name + " tags are " +
                    info.MinTagSize + " to " + info.TagSize + " bytes");
            return info;
        }

        static readonly byte[] Empty = new byte[0];

        // ---- the core calls: spans given as (array, offset, count), already checked ----------
        internal static unsafe void EncryptCore(AlgorithmInfo info, byte[] c, int cOff, byte[] tag, int tagOff, int tagLen,
            byte[] m, int mOff, int mLen, byte[] ad, int adOff, int adLen, byte[] nonce, byte[] key, byte[] secondKey)
        {
            if (ad == null) ad = Empty;
            int rc;
            fixed (byte* pc = c) fixed (byte* pt = tag) fixed (byte* pm = m) fixed (byte* pa = ad)
            fixed (byte* pn = nonce) fixed (byte* pk = key) fixed (byte* ps = secondKey)
            {
                rc = Native.lwc_aead_encrypt_detached(info.NamePtr, pc == null ? null : pc + cOff, pt + tagOff,
                    (UIntPtr)tagLen, pm == null ? null : pm + mOff, (UIntPtr)mLen,
                    pa == null ? null : pa + adOff, (UIntPtr)adLen, pn, pk, ps);
            }
            if (rc != 0) throw new CryptographicException(Native.LastError());
        }

        // True when the tag verified; on false the mLen bytes at m are zero. tagLen is the caller's
        // configuration (the full tag unless a truncated length was asked for by name), checked.
        internal static unsafe bool DecryptCore(AlgorithmInfo info, byte[] m, int mOff, byte[] c, int cOff, int cLen,
            byte[] tag, int tagOff, int tagLen, byte[] ad, int adOff, int adLen, byte[] nonce, byte[] key,
            byte[] secondKey)
        {
            if (ad == null) ad = Empty;
            int rc;
            fixed (byte* pm = m) fixed (byte* pc = c) fixed (byte* pt = tag) fixed (byte* pa = ad)
            fixed (byte* pn = nonce) fixed (byte* pk = key) fixed (byte* ps = secondKey)
            {
                byte* mp = pm == null ? null : pm + mOff, cp = pc == null ? null : pc + cOff;
                byte* ap = pa == null ? null : pa + adOff;
                rc = tagLen == info.TagSize
                    ? Native.lwc_aead_decrypt_detached(info.NamePtr, mp, cp, (UIntPtr)cLen, pt + tagOff,
                        (UIntPtr)tagLen, ap, (UIntPtr)adLen, pn, pk, ps)
                    : Native.lwc_aead_decrypt_detached_truncated(info.NamePtr, mp, cp, (UIntPtr)cLen, pt + tagOff,
                        (UIntPtr)tagLen, ap, (UIntPtr)adLen, pn, pk, ps);
            }
            if (rc != 0 && m != null) Array.Clear(m, mOff, cLen);
            return rc == 0;
        }

        // ---- combined mode ---------------------------------------------------------------

        /// <summary>Encrypts message; returns ciphertext || tag (message.Length + TagSize bytes).</summary>
        public static byte[] Encrypt(string algorithm, byte[] message, byte[] associatedData, byte[] nonce, byte[] key)
        {
            var info = GetInfo(algorithm);
            return Encrypt(info, message, associatedData, nonce, key, info.TagSize, null);
        }

        /// <summary>Encrypt with a truncated tag (tagLength bytes) and/or the nonce-masking second key.</summary>
        public static byte[] Encrypt(string algorithm, byte[] message, byte[] associatedData, byte[] nonce,
            byte[] key, int tagLength, byte[] secondKey)
        {
            return Encrypt(GetInfo(algorithm), message, associatedData, nonce, key, tagLength, secondKey);
        }

        internal static byte[] Encrypt(AlgorithmInfo info, byte[] message, byte[] associatedData, byte[] nonce,
            byte[] key, int tagLength, byte[] secondKey)
        {
            if (message == null) throw new ArgumentNullException("message");
            Check(info, nonce, key, secondKey, tagLength);
            if (message.Length > int.MaxValue - tagLength) throw new ArgumentException("message too long", "message");
            var c = new byte[message.Length + tagLength];
            EncryptCore(info, c, 0, c, message.Length, tagLength, message, 0, message.Length,
                associatedData, 0, associatedData == null ? 0 : associatedData.Length, nonce, key, secondKey);
            return c;
        }

        /// <summary>Decrypts ciphertext || tag; CryptographicException when the tag is wrong.</summary>
        public static byte[] Decrypt(string algorithm, byte[] ciphertext, byte[] associatedData, byte[] nonce, byte[] key)
        {
            var info = GetInfo(algorithm);
            return Decrypt(info, ciphertext, associatedData, nonce, key, info.TagSize, null);
        }

        /// <summary>Decrypts ciphertext || tag where the tag is the last tagLength bytes: a length
        /// your protocol fixes (from MinTagSize to TagSize), never one read from the input.</summary>
        public static byte[] Decrypt(string algorithm, byte[] ciphertext, byte[] associatedData, byte[] nonce,
            byte[] key, int tagLength, byte[] secondKey)
        {
            return Decrypt(GetInfo(algorithm), ciphertext, associatedData, nonce, key, tagLength, secondKey);
        }

        internal static byte[] Decrypt(AlgorithmInfo info, byte[] ciphertext, byte[] associatedData, byte[] nonce,
            byte[] key, int tagLength, byte[] secondKey)
        {
            byte[] m;
            if (!TryDecrypt(info, ciphertext, associatedData, nonce, key, tagLength, secondKey, out m))
                throw new CryptographicException("lwc: " + info.Name + ": authentication failed");
            return m;
        }

        /// <summary>False (and plaintext null) when the tag is wrong or the input is shorter than a tag.</summary>
        public static bool TryDecrypt(string algorithm, byte[] ciphertext, byte[] associatedData, byte[] nonce,
            byte[] key, out byte[] plaintext)
        {
            var info = GetInfo(algorithm);
            return TryDecrypt(info, ciphertext, associatedData, nonce, key, info.TagSize, null, out plaintext);
        }

        public static bool TryDecrypt(string algorithm, byte[] ciphertext, byte[] associatedData, byte[] nonce,
            byte[] key, int tagLength, byte[] secondKey, out byte[] plaintext)
        {
            return TryDecrypt(GetInfo(algorithm), ciphertext, associatedData, nonce, key, tagLength, secondKey,
                out plaintext);
        }

        internal static bool TryDecrypt(AlgorithmInfo info, byte[] ciphertext, byte[] associatedData, byte[] nonce,
            byte[] key, int tagLength, byte[] secondKey, out byte[] plaintext)
        {
            plaintext = null;
            if (ciphertext == null) throw new ArgumentNullException("ciphertext");
            Check(info, nonce, key, secondKey, tagLength);
            if (ciphertext.Length < tagLength) return false;
            int n = ciphertext.Length - tagLength;
            var m = new byte[n];
            if (!DecryptCore(info, m, 0, ciphertext, 0, n, ciphertext, n, tagLength, associatedData, 0,
                    associatedData == null ? 0 : associatedData.Length, nonce, key, secondKey))
                return false;
            plaintext = m;
            return true;
        }

        // ---- detached tag --------------------------------------------------------------------

        /// <summary>Encrypts message into a ciphertext of the same length and a separate tag
        /// (tagLength bytes; 0 = the full tag).</summary>
        public static byte[] EncryptDetached(string algorithm, byte[] message, byte[] associatedData, byte[] nonce,
            byte[] key, out byte[] tag, int tagLength = 0, byte[] secondKey = null)
        {
            if (message == null) throw new ArgumentNullException("message");
            var info = GetInfo(algorithm);
            if (tagLength == 0) tagLength = info.TagSize;
            Check(info, nonce, key, secondKey, tagLength);
            var c = new byte[message.Length];
            var t = new byte[tagLength];
            EncryptCore(info, c, 0, t, 0, tagLength, message, 0, message.Length, associatedData, 0,
                associatedData == null ? 0 : associatedData.Length, nonce, key, secondKey);
            tag = t;
            return c;
        }

        /// <summary>Decrypts a ciphertext with a separate full tag (TagSize bytes);
        /// CryptographicException when the tag is wrong or of another length. Truncated tags only
        /// through <see cref="DecryptDetachedTruncated"/>.</summary>
        public static byte[] DecryptDetached(string algorithm, byte[] ciphertext, byte[] tag, byte[] associatedData,
            byte[] nonce, byte[] key, byte[] secondKey = null)
        {
            var info = GetInfo(algorithm);
            return DecryptDetached(info, ciphertext, tag, info.TagSize, associatedData, nonce, key, secondKey);
        }

        /// <summary>As DecryptDetached, for a tag truncated to tagLength bytes: the length your
        /// protocol fixes (from MinTagSize to TagSize), never the length of the tag received; a
        /// tag of another length fails. Shorter tags are easier to forge.</summary>
        public static byte[] DecryptDetachedTruncated(string algorithm, byte[] ciphertext, byte[] tag, int tagLength,
            byte[] associatedData, byte[] nonce, byte[] key, byte[] secondKey = null)
        {
            return DecryptDetached(GetInfo(algorithm), ciphertext, tag, tagLength, associatedData, nonce, key,
                secondKey);
        }

        static byte[] DecryptDetached(AlgorithmInfo info, byte[] ciphertext, byte[] tag, int tagLength,
            byte[] associatedData, byte[] nonce, byte[] key, byte[] secondKey)
        {
            if (ciphertext == null) throw new ArgumentNullException("ciphertext");
            if (tag == null) throw new ArgumentNullException("tag");
            Check(info, nonce, key, secondKey, tagLength);
            if (tag.Length != tagLength)
                throw new CryptographicException("lwc: " + info.Name + ": authentication failed (a " + tag.Length +
                    "-byte tag where " + tagLength + " bytes are expected)");
            var m = new byte[ciphertext.Length];
            if (!DecryptCore(info, m, 0, ciphertext, 0, ciphertext.Length, tag, 0, tagLength, associatedData,
                    0, associatedData == null ? 0 : associatedData.Length, nonce, key, secondKey))
                throw new CryptographicException("lwc: " + info.Name + ": authentication failed");
            return m;
        }

        // ---- spans -------------------------------------------------------------------------
        // Pinned with &MemoryMarshal.GetReference(span) (an empty span gives a null pointer,
        // which liblwc accepts with a zero length): Mono's mcs has no fixed (byte* p = span).

        static void CheckSizes(AlgorithmInfo info, int nonceLength, int keyLength)
        {
            if (keyLength != info.KeySize)
                throw new ArgumentException(info.Name + " takes a " + info.KeySize + "-byte key, not " +
                    keyLength + " bytes", "key");
            if (nonceLength != info.NonceSize)
                throw new ArgumentException(info.Name + " takes a " + info.NonceSize + "-byte nonce, not " +
                    nonceLength + " bytes", "nonce");
        }

        // liblwc allows the output to be the input buffer itself (c == m), not a partial overlap.
        static unsafe void CheckOverlap(byte* output, int outLength, byte* input, int inLength, string inName)
        {
            if (output == null || input == null || outLength == 0 || inLength == 0 || output == input) return;
            if (output < input + inLength && input < output + outLength)
                throw new ArgumentException("destination overlaps " + inName + " (only the same start is allowed)",
                    "destination");
        }

        static unsafe void CheckApart(byte* output, int outLength, byte* input, int inLength, string inName)
        {
            if (output == null || input == null || outLength == 0 || inLength == 0) return;
            if (output < input + inLength && input < output + outLength)
                throw new ArgumentException("destination overlaps " + inName, "destination");
        }

        /// <summary>Encrypts message into destination as ciphertext || tag; returns the bytes
        /// written (message.Length + TagSize). destination may be message itself (same start).
        /// An empty associatedData (or null) means none.</summary>
        public static int Encrypt(string algorithm, ReadOnlySpan<byte> message, ReadOnlySpan<byte> associatedData,
            ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> key, Span<byte> destination)
        {
            return Encrypt(GetInfo(algorithm), message, associatedData, nonce, key, destination);
        }

        internal static unsafe int Encrypt(AlgorithmInfo info, ReadOnlySpan<byte> message,
            ReadOnlySpan<byte> associatedData, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> key, Span<byte> destination)
        {
            CheckSizes(info, nonce.Length, key.Length);
            if (message.Length > int.MaxValue - info.TagSize)
                throw new ArgumentException("message too long", "message");
            int total = message.Length + info.TagSize;
            if (destination.Length < total)
                throw new ArgumentException("destination has " + destination.Length + " bytes, " + total +
                    " are needed (message + tag)", "destination");
            int rc;
            fixed (byte* pd = &MemoryMarshal.GetReference(destination))
            fixed (byte* pm = &MemoryMarshal.GetReference(message))
            fixed (byte* pa = &MemoryMarshal.GetReference(associatedData))
            fixed (byte* pn = &MemoryMarshal.GetReference(nonce))
            fixed (byte* pk = &MemoryMarshal.GetReference(key))
            {
                CheckOverlap(pd, message.Length, pm, message.Length, "message");
                CheckApart(pd + message.Length, info.TagSize, pm, message.Length, "message");
                CheckApart(pd, total, pa, associatedData.Length, "associatedData");
                CheckApart(pd, total, pn, nonce.Length, "nonce");
                CheckApart(pd, total, pk, key.Length, "key");
                rc = Native.lwc_aead_encrypt_detached(info.NamePtr, pd, pd + message.Length, (UIntPtr)info.TagSize,
                    pm, (UIntPtr)message.Length, pa, (UIntPtr)associatedData.Length, pn, pk, null);
            }
            if (rc != 0) throw new CryptographicException(Native.LastError());
            return total;
        }

        /// <summary>Decrypts ciphertext || tag into destination (at least ciphertext.Length -
        /// TagSize bytes, or the ciphertext itself); returns the plaintext length, or throws
        /// CryptographicException when the tag is wrong (then those bytes of destination are zero).</summary>
        public static int Decrypt(string algorithm, ReadOnlySpan<byte> ciphertext, ReadOnlySpan<byte> associatedData,
            ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> key, Span<byte> destination)
        {
            return Decrypt(GetInfo(algorithm), ciphertext, associatedData, nonce, key, destination);
        }

        internal static int Decrypt(AlgorithmInfo info, ReadOnlySpan<byte> ciphertext,
            ReadOnlySpan<byte> associatedData, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> key, Span<byte> destination)
        {
            int n;
            if (!TryDecrypt(info, ciphertext, associatedData, nonce, key, destination, out n))
                throw new CryptographicException("lwc: " + info.Name + ": authentication failed");
            return n;
        }

        /// <summary>As Decrypt, but false (bytesWritten 0) when the tag is wrong or the input is
        /// shorter than a tag.</summary>
        public static bool TryDecrypt(string algorithm, ReadOnlySpan<byte> ciphertext,
            ReadOnlySpan<byte> associatedData, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> key,
            Span<byte> destination, out int bytesWritten)
        {
            return TryDecrypt(GetInfo(algorithm), ciphertext, associatedData, nonce, key, destination, out bytesWritten);
        }

        internal static unsafe bool TryDecrypt(AlgorithmInfo info, ReadOnlySpan<byte> ciphertext,
            ReadOnlySpan<byte> associatedData, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> key,
            Span<byte> destination, out int bytesWritten)
        {
            bytesWritten = 0;
            CheckSizes(info, nonce.Length, key.Length);
            if (ciphertext.Length < info.TagSize) return false;
            int n = ciphertext.Length - info.TagSize;
            if (destination.Length < n)
                throw new ArgumentException("destination has " + destination.Length + " bytes, " + n +
                    " are needed", "destination");
            int rc;
            fixed (byte* pd = &MemoryMarshal.GetReference(destination))
            fixed (byte* pc = &MemoryMarshal.GetReference(ciphertext))
            fixed (byte* pa = &MemoryMarshal.GetReference(associatedData))
            fixed (byte* pn = &MemoryMarshal.GetReference(nonce))
            fixed (byte* pk = &MemoryMarshal.GetReference(key))
            {
                CheckOverlap(pd, n, pc, n, "ciphertext");
                CheckApart(pd, n, pc + n, info.TagSize, "the tag");
                CheckApart(pd, n, pa, associatedData.Length, "associatedData");
                CheckApart(pd, n, pn, nonce.Length, "nonce");
                CheckApart(pd, n, pk, key.Length, "key");
                rc = Native.lwc_aead_decrypt_detached(info.NamePtr, pd, pc, (UIntPtr)n, pc + n,
                    (UIntPtr)info.TagSize, pa, (UIntPtr)associatedData.Length, pn, pk, null);
            }
            if (rc != 0)
            {
                destination.Slice(0, n).Clear();
                return false;
            }
            bytesWritten = n;
            return true;
        }

        // ---- SUPERCOP / NIST LWC calling convention ---------------------------------------------

        static void CheckSpan(byte[] a, int len, string name)
        {
            if (len < 0) throw new ArgumentOutOfRangeException(name + "len");
            if (len > 0 && a == null) throw new ArgumentNullException(name);
            if (a != null && len > a.Length)
                throw new ArgumentException(name + "len exceeds the length of " + name, name + "len");
        }

        /// <summary>crypto_aead_encrypt: c (at least mlen + TagSize bytes) = ciphertext || tag;
        /// nsec is unused (must be null). Returns 0.</summary>
        public static int CryptoAeadEncrypt(string algorithm, byte[] c, out int clen, byte[] m, int mlen, byte[] ad,
            int adlen, byte[] nsec, byte[] npub, byte[] k)
        {
            return CryptoAeadEncrypt(GetInfo(algorithm), c, out clen, m, mlen, ad, adlen, nsec, npub, k);
        }

        internal static int CryptoAeadEncrypt(AlgorithmInfo info, byte[] c, out int clen, byte[] m, int mlen, byte[] ad,
            int adlen, byte[] nsec, byte[] npub, byte[] k)
        {
            clen = 0;
            Check(info, npub, k, null, info.TagSize);
            CheckSpan(m, mlen, "m");
            CheckSpan(ad, adlen, "ad");
            if (c == null) throw new ArgumentNullException("c");
            if (c.Length < (long)mlen + info.TagSize)
                throw new ArgumentException("c must hold mlen + " + info.TagSize + " bytes", "c");
            EncryptCore(info, c, 0, c, mlen, info.TagSize, m, 0, mlen, ad, 0, adlen, npub, k, null);
            clen = mlen + info.TagSize;
            return 0;
        }

        /// <summary>crypto_aead_decrypt: m (at least clen - TagSize bytes); returns 0, or -1 when the
        /// tag is wrong or clen is shorter than a tag (then the clen - TagSize bytes of m are zero).</summary>
        public static int CryptoAeadDecrypt(string algorithm, byte[] m, out int mlen, byte[] nsec, byte[] c, int clen,
            byte[] ad, int adlen, byte[] npub, byte[] k)
        {
            return CryptoAeadDecrypt(GetInfo(algorithm), m, out mlen, nsec, c, clen, ad, adlen, npub, k);
        }

        internal static int CryptoAeadDecrypt(AlgorithmInfo info, byte[] m, out int mlen, byte[] nsec, byte[] c,
            int clen, byte[] ad, int adlen, byte[] npub, byte[] k)
        {
            mlen = 0;
            Check(info, npub, k, null, info.TagSize);
            CheckSpan(c, clen, "c");
            CheckSpan(ad, adlen, "ad");
            if (clen < info.TagSize) return -1;
            int n = clen - info.TagSize;
            if (m == null && n > 0) throw new ArgumentNullException("m");
            if (m != null && m.Length < n) throw new ArgumentException("m must hold clen - " + info.TagSize + " bytes", "m");
            if (!DecryptCore(info, m, 0, c, 0, n, c, n, info.TagSize, ad, 0, adlen, npub, k, null)) return -1;
            mlen = n;
            return 0;
        }
    }
}
