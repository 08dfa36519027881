# SPDX-License-Identifier: MIT OR Apache-2.0
"""A second, independent implementation of what the lwc tool computes, in plain Python: the
Ascon permutation and modes it needs (Ascon-AEAD128, Ascon-128/128a/80pq, Ascon-Hash256,
Ascon-XOF128, Ascon-CXOF128), written from the specifications, and the lwc stream format
as described in docs/stream-format.md. Slow; meant for small test inputs only.

The tests check this module against the published KAT files first, then use it to check the
format vectors in the documentation and files written by the C++ tool.
"""

MASK = (1 << 64) - 1


def _rotr(x, n):
    return ((x >> n) | (x << (64 - n))) & MASK


def permute(s, rounds):
    x0, x1, x2, x3, x4 = s
    for i in range(12 - rounds, 12):
        x2 ^= ((0xF - i) << 4) | i
        # S-box layer (bitsliced chi-like map with the affine pre/post steps of the spec)
        x0 ^= x4
        x4 ^= x3
        x2 ^= x1
        t0 = ~x0 & x1
        t1 = ~x1 & x2
        t2 = ~x2 & x3
        t3 = ~x3 & x4
        t4 = ~x4 & x0
        x0 ^= t1
        x1 ^= t2
        x2 ^= t3
        x3 ^= t4
        x4 ^= t0
        x1 ^= x0
        x0 ^= x4
        x3 ^= x2
        x2 = ~x2
        x0 &= MASK; x1 &= MASK; x2 &= MASK; x3 &= MASK; x4 &= MASK
        # linear layer
        x0 ^= _rotr(x0, 19) ^ _rotr(x0, 28)
        x1 ^= _rotr(x1, 61) ^ _rotr(x1, 39)
        x2 ^= _rotr(x2, 1) ^ _rotr(x2, 6)
        x3 ^= _rotr(x3, 10) ^ _rotr(x3, 17)
        x4 ^= _rotr(x4, 7) ^ _rotr(x4, 41)
    s[:] = [x0, x1, x2, x3, x4]


class _Lanes:
    """How bytes map onto state words: little endian (SP 800-232) or big endian (v1.2)."""

    def __init__(self, order):
        self.order = order
        self.pad_byte = 0x01 if order == "little" else 0x80
        self.dsep = (1 << 63) if order == "little" else 1

    def load(self, b):
        return int.from_bytes(b, self.order)

    def store(self, w):
        return w.to_bytes(8, self.order)

    def rate_bytes(self, s, rate):
        return b"".join(self.store(s[i]) for i in range(rate // 8))

    def xor_rate(self, s, block):
        for i in range(len(block) // 8):
            s[i] ^= self.load(block[8 * i:8 * i + 8])

    def padded(self, data, rate):
        data = bytes(data) + bytes([self.pad_byte])
        return data + bytes(-len(data) % rate)


# name: (byte order, IV, key bytes, rate, rounds between blocks)
AEADS = {
    "ascon-aead128": ("little", 0x00001000808C0001, 16, 16, 8),
    "ascon-128": ("big", 0x80400C0600000000, 16, 8, 6),
    "ascon-128a": ("big", 0x80800C0800000000, 16, 16, 8),
    "ascon-80pq": ("big", 0xA0400C0600000000, 20, 8, 6),
}


def _aead_init(name, key, nonce):
    order, iv, key_size, rate, rounds = AEADS[name]
    assert len(key) == key_size and len(nonce) == 16
    L = _Lanes(order)
    if key_size == 20:
        k0 = int.from_bytes(key[:4], "big")
        k1, k2 = L.load(key[4:12]), L.load(key[12:20])
        s = [iv | k0, k1, k2, L.load(nonce[:8]), L.load(nonce[8:])]
        permute(s, 12)
        s[2] ^= k0
    else:
        k0 = 0
        k1, k2 = L.load(key[:8]), L.load(key[8:])
        s = [iv, k1, k2, L.load(nonce[:8]), L.load(nonce[8:])]
        permute(s, 12)
    s[3] ^= k1
    s[4] ^= k2
    return L, rate, rounds, key_size, (k0, k1, k2), s


def _aead_ad(L, rate, rounds, s, ad):
    if ad:
        padded = L.padded(ad, rate)
        for i in range(0, len(padded), rate):
            L.xor_rate(s, padded[i:i + rate])
            permute(s, rounds)
    s[4] ^= L.dsep


def _aead_final(L, rate, key_size, k, s):
    k0, k1, k2 = k
    if key_size == 20:
        s[1] ^= ((k0 << 32) | (k1 >> 32)) & MASK
        s[2] ^= ((k1 << 32) | (k2 >> 32)) & MASK
        s[3] ^= (k2 << 32) & MASK
    else:
        s[rate // 8] ^= k1
        s[rate // 8 + 1] ^= k2
    permute(s, 12)
    s[3] ^= k1
    s[4] ^= k2
    return L.store(s[3]) + L.store(s[4])


def aead_encrypt(name, key, nonce, ad, pt):
    """Returns ciphertext || 16-byte tag."""
    L, rate, rounds, key_size, k, s = _aead_init(name, key, nonce)
    _aead_ad(L, rate, rounds, s, ad)
    padded = L.padded(pt, rate)
    ct = bytearray()
    for i in range(0, len(padded), rate):
        block = padded[i:i + rate]
        L.xor_rate(s, block)
        ct += L.rate_bytes(s, rate)
        if i + rate < len(padded):
            permute(s, rounds)
    return bytes(ct[:len(pt)]) + _aead_final(L, rate, key_size, k, s)


def aead_decrypt(name, key, nonce, ad, ct_and_tag):
    """Returns the plaintext, or None when the tag does not verify."""
    if len(ct_and_tag) < 16:
        return None
    ct, tag = ct_and_tag[:-16], ct_and_tag[-16:]
    L, rate, rounds, key_size, k, s = _aead_init(name, key, nonce)
    _aead_ad(L, rate, rounds, s, ad)
    pt = bytearray()
    full = len(ct) - len(ct) % rate
    for i in range(0, full, rate):
        block = ct[i:i + rate]
        pt += bytes(a ^ b for a, b in zip(L.rate_bytes(s, rate), block))
        for w in range(rate // 8):
            s[w] = L.load(block[8 * w:8 * w + 8])
        permute(s, rounds)
    last = ct[full:]
    keystream = L.rate_bytes(s, rate)
    tail = bytes(a ^ b for a, b in zip(keystream, last))
    pt += tail
    L.xor_rate(s, L.padded(tail, rate)[:rate])
    if _aead_final(L, rate, key_size, k, s) != tag:
        return None
    return bytes(pt)


# name: (IV, has customization)
SPONGES = {
    "ascon-hash256": (0x0000080100CC0002, False),
    "ascon-xof128": (0x0000080000CC0003, False),
    "ascon-cxof128": (0x0000080000CC0004, True),
}


def sponge(name, msg, out_len, customization=b""):
    iv, custom = SPONGES[name]
    L = _Lanes("little")
    s = [iv, 0, 0, 0, 0]
    permute(s, 12)

    def absorb(data):
        for i in range(0, len(data), 8):
            s[0] ^= L.load(data[i:i + 8])
            permute(s, 12)

    if custom:
        absorb((8 * len(customization)).to_bytes(8, "little"))
        absorb(L.padded(customization, 8))
    else:
        assert not customization
    absorb(L.padded(msg, 8))
    out = bytearray()
    while len(out) < out_len:
        out += L.store(s[0])
        if len(out) < out_len:
            permute(s, 12)
    return bytes(out[:out_len])


# ---- the lwc stream format (docs/stream-format.md) ---------------------------------------

MAGIC = bytes([0x89]) + b"lwc\r\n\x1a\n"
VERSION = 1
ALGORITHM_IDS = {"ascon-aead128": 1, "ascon-128": 2, "ascon-128a": 3, "ascon-80pq": 4}
KDF_CUSTOMIZATION = b"lwc stream v1"


def derive(master_key, header_prefix, name):
    key_size = AEADS[name][2]
    out = sponge("ascon-cxof128", master_key + header_prefix, 16 + key_size + 7,
                 KDF_CUSTOMIZATION)
    return out[:16], out[16:16 + key_size], out[16 + key_size:]


def chunk_nonce(prefix, index, last):
    return prefix + index.to_bytes(8, "big") + bytes([1 if last else 0])


def stream_encrypt(master_key, plaintext, name="ascon-aead128", chunk_shift=16, salt=None):
    assert len(master_key) == 32 and len(salt) == 32
    prefix = MAGIC + bytes([VERSION, ALGORITHM_IDS[name], chunk_shift, 0]) + salt
    check, key, nonce_prefix = derive(master_key, prefix, name)
    out = bytearray(prefix + check)
    chunk = 1 << chunk_shift
    index = 0
    pos = 0
    while True:
        piece = plaintext[pos:pos + chunk]
        last = len(piece) < chunk
        out += aead_encrypt(name, key, chunk_nonce(nonce_prefix, index, last), b"", piece)
        pos += len(piece)
        index += 1
        if last:
            return bytes(out)


def stream_decrypt(master_key, data):
    """Returns the plaintext; raises ValueError naming the first problem."""
    if len(data) < 60 or data[:8] != MAGIC:
        raise ValueError("not an lwc stream")
    if data[8] != VERSION or data[11] != 0 or not 6 <= data[10] <= 20:
        raise ValueError("bad header")
    names = {v: k for k, v in ALGORITHM_IDS.items()}
    if data[9] not in names:
        raise ValueError("unknown algorithm")
    name = names[data[9]]
    check, key, nonce_prefix = derive(master_key, data[:44], name)
    if check != data[44:60]:
        raise ValueError("key check failed")
    chunk = 1 << data[10]
    slot = chunk + 16
    body = data[60:]
    out = bytearray()
    index = 0
    while True:
        piece = body[index * slot:(index + 1) * slot]
        last = len(piece) < slot
        if len(piece) < 16:
            raise ValueError("truncated")
        pt = aead_decrypt(name, key, chunk_nonce(nonce_prefix, index, last), b"", piece)
        if pt is None:
            raise ValueError("chunk %d failed" % index)
        out += pt
        index += 1
        if last:
            return bytes(out)
