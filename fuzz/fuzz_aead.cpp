// SPDX-License-Identifier: MIT OR Apache-2.0
// Differential fuzzing of every AEAD of the registry. The input picks the algorithm, the tag
// length, nonce masking, the key, nonce, associated data and plaintext, one bit to flip, and
// the shape of a batch. Checked: decryption inverts encryption; the flipped bit (in the
// ciphertext, tag, associated data or nonce) makes decryption fail with the output zeroed; the
// batch engine on every backend this CPU runs gives the single-message results for every job
// (lengths and forgeries chosen by the input), in place or not.
#include <cstring>

#include <lwc/batch.hpp>

#include "fuzz_input.hpp"

using namespace lwc::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto aeads = pick_list(true);
  input in(data, size);
  const lwc::algorithm& a = *aeads[in.byte() % aeads.size()];
  const std::size_t tag_len = a.min_tag_size + in.byte() % (a.tag_size - a.min_tag_size + 1);
  const std::uint8_t flags = in.byte();
  const std::size_t flip_field = flags & 3, flip_bit = in.u16();
  const bool masked = a.second_key_size != 0 && (flags & 4);
  const std::size_t jobs = 1 + in.byte() % 19;
  const std::size_t ad_share = in.byte();
  const bytes key = in.take(a.key_size), nonce = in.take(a.nonce_size);
  const bytes second = masked ? in.take(a.second_key_size) : bytes{};
  const std::size_t rest = std::min<std::size_t>(in.left(), 4096);
  const std::size_t ad_len = rest * ad_share / 256;
  const bytes ad = in.take(ad_len), pt = in.take(rest - ad_len);

  bytes ct(pt.size()), tag(tag_len);
  lwc::aead_encrypt(a, key, nonce, ad, pt, ct, tag, second);
  bytes back(pt.size(), 0xA5);
  require(lwc::aead_decrypt_truncated(a, key, nonce, ad, ct, tag, back, second), a, "round trip fails");
  require(back == pt, a, "round trip changes the plaintext");

  // One bit flipped in the field the input chose (the tag when the chosen field is empty).
  bytes c2 = ct, t2 = tag, ad2 = ad, n2 = nonce;
  bytes* field[] = {&c2, &t2, &ad2, &n2};
  bytes* f = field[flip_field]->empty() ? &t2 : field[flip_field];
  (*f)[flip_bit / 8 % f->size()] ^= static_cast<std::uint8_t>(1u << (flip_bit % 8));
  std::fill(back.begin(), back.end(), 0xA5);
  require(!lwc::aead_decrypt_truncated(a, key, n2, ad2, c2, t2, back, second), a, "forgery accepted");
  require(all_zero(back), a, "rejected plaintext not zeroed");

  // A batch of prefixes of the message (job i: the first i * len / jobs bytes, its AD a
  // suffix), every third job forged, on every backend; the expected results come from the
  // single-message code.
  std::vector<bytes> jpt(jobs), jad(jobs), jct(jobs), jtag(jobs);
  for (std::size_t i = 0; i < jobs; ++i) {
    jpt[i].assign(pt.begin(), pt.begin() + static_cast<std::ptrdiff_t>(pt.size() * i / jobs));
    jad[i].assign(ad.begin() + static_cast<std::ptrdiff_t>(ad.size() * i / jobs), ad.end());
    jct[i].resize(jpt[i].size());
    jtag[i].resize(tag_len);
    lwc::aead_encrypt(a, key, nonce, jad[i], jpt[i], jct[i], jtag[i], second);
  }
  for (std::string_view backend : lwc::batch::available_backends()) {
    const lwc::batch::options opt{static_cast<unsigned>(1 + (flags >> 7)), backend};
    std::vector<bytes> out(jobs), otag(jobs, bytes(tag_len));
    std::vector<lwc::batch::aead_job> enc, dec;
    for (std::size_t i = 0; i < jobs; ++i) {
      out[i] = jpt[i];  // encrypted in place
      enc.push_back({key, nonce, jad[i], out[i], out[i], otag[i], second});
    }
    lwc::batch::encrypt(a, enc, tag_len, opt);
    for (std::size_t i = 0; i < jobs; ++i) {
      require(out[i] == jct[i] && otag[i] == jtag[i], a, "batch encryption differs");
      if (i % 3 == 2) otag[i][i % tag_len] ^= 0x20;
      dec.push_back({key, nonce, jad[i], out[i], out[i], otag[i], second});
    }
    std::vector<std::uint8_t> ok(jobs, 9);
    const std::size_t passed = lwc::batch::decrypt(a, dec, ok, tag_len, opt);
    std::size_t expected = 0;
    for (std::size_t i = 0; i < jobs; ++i) {
      const bool forged = i % 3 == 2;
      expected += !forged;
      require(ok[i] == (forged ? 0 : 1), a, "batch verdict wrong");
      require(forged ? all_zero(out[i]) : out[i] == jpt[i], a, "batch decryption differs");
    }
    require(passed == expected, a, "batch count wrong");
  }
  return 0;
}
