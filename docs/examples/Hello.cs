// SPDX-License-Identifier: MIT OR Apache-2.0
// The C# getting-started example; the documentation's test stage compiles it against Lwc.dll
// and runs it.
using System;
using System.Security.Cryptography;
using System.Text;

static class Hello
{
    static int Main()
    {
        byte[] key = new byte[16], nonce = new byte[16];
        using (var rng = RandomNumberGenerator.Create())
        {
            rng.GetBytes(key);
            rng.GetBytes(nonce); // never reuse a nonce with the same key
        }
        byte[] message = Encoding.UTF8.GetBytes("attack at dawn");
        byte[] header = Encoding.UTF8.GetBytes("header");

        byte[] sealedBytes = Lwc.Aead.Encrypt("ascon-aead128", message, header, nonce, key);
        byte[] opened = Lwc.Aead.Decrypt("ascon-aead128", sealedBytes, header, nonce, key);
        Console.WriteLine("decrypted: " + Encoding.UTF8.GetString(opened));

        sealedBytes[0] ^= 1;
        byte[] forged;
        bool accepted = Lwc.Aead.TryDecrypt("ascon-aead128", sealedBytes, header, nonce, key, out forged);
        Console.WriteLine("forgery accepted: " + accepted);

        byte[] digest = Lwc.Hash.HashData("ascon-hash256", message);
        Console.WriteLine("ascon-hash256: " + BitConverter.ToString(digest).Replace("-", "").ToLowerInvariant());
        return accepted ? 1 : 0;
    }
}
