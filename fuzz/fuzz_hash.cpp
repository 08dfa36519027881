// SPDX-License-Identifier: MIT OR Apache-2.0
// Differential fuzzing of every hash, XOF, CXOF, MAC and PRF of the registry. The input picks
// the algorithm, key, customization string, message, output length, the split points of the
// message and of the output, and a batch shape. Checked: the output of one update and one read
// equals that of updates and reads at every split the input chose, a copied state continues
// the same way, MAC/PRF verification accepts the output and refuses it with one bit flipped,
// and the batch engine on every backend this CPU runs equals the single-message code.
#include <lwc/batch.hpp>

#include "fuzz_input.hpp"

using namespace lwc::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto hashes = pick_list(false);
  input in(data, size);
  const lwc::algorithm& a = *hashes[in.byte() % hashes.size()];
  const std::size_t out_len =
      a.max_output_size ? a.output_size : 1 + in.u16() % 300;  // XOFs, PRFs: any length
  const std::size_t splits = in.byte() % 8;
  std::vector<std::size_t> cuts;
  for (std::size_t i = 0; i < splits; ++i) cuts.push_back(in.u16());
  const std::size_t out_cut = in.u16() % (out_len + 1);
  const std::size_t jobs = 1 + in.byte() % 19;
  const bytes key = in.take(a.key_size);
  const bytes custom = in.take(in.byte() % (std::min<std::size_t>(a.max_customization_size, 64) + 1));
  const bytes msg = in.take(std::min({in.left(), a.max_input_size, std::size_t{4096}}));

  bytes one(out_len);
  lwc::digest(a, msg, one, key, custom);

  // The same message through update() at the chosen cut points, the output read in two parts.
  std::size_t m = msg.size();
  for (auto& c : cuts) c = m ? c % (m + 1) : 0;
  std::sort(cuts.begin(), cuts.end());
  lwc::hasher h(a, key, custom);
  std::size_t at = 0;
  for (std::size_t c : cuts) {
    h.update(lwc::bytes_view(msg).subspan(at, c - at));
    at = c;
  }
  lwc::hasher copy(h);  // a copy mid-stream continues independently
  h.update(lwc::bytes_view(msg).subspan(at));
  copy.update(lwc::bytes_view(msg).subspan(at));
  bytes pieces(out_len);
  h.squeeze(lwc::bytes_span(pieces).first(out_cut));
  h.squeeze(lwc::bytes_span(pieces).subspan(out_cut));
  require(pieces == one, a, "incremental output differs from one-shot");
  bytes from_copy(out_len);
  copy.squeeze(from_copy);
  require(from_copy == one, a, "copied state differs");

  // verify_truncated() takes tags from min_tag_size to the maximum output (64 bytes for PRFs).
  const std::size_t verify_max = a.max_output_size ? a.max_output_size : 64;
  if (a.is_keyed() && out_len >= a.min_tag_size && out_len <= verify_max) {
    lwc::hasher v(a, key, custom);
    v.update(msg);
    require(v.verify_truncated(one), a, "verify refuses the right tag");
    bytes forged = one;
    forged[out_cut % out_len] ^= 0x01;
    lwc::hasher w(a, key, custom);
    w.update(msg);
    require(!w.verify_truncated(forged), a, "verify accepts a forged tag");
  }

  // Batch: prefixes of the message (CXOFs: each job with the chosen customization).
  std::vector<bytes> expected(jobs, bytes(out_len));
  for (std::size_t i = 0; i < jobs; ++i)
    lwc::digest(a, lwc::bytes_view(msg).first(m * i / jobs), expected[i], key, custom);
  for (std::string_view backend : lwc::batch::available_backends()) {
    std::vector<bytes> out(jobs, bytes(out_len));
    std::vector<lwc::batch::hash_job> hj;
    for (std::size_t i = 0; i < jobs; ++i)
      hj.push_back({lwc::bytes_view(msg).first(m * i / jobs), out[i], key, custom});
    lwc::batch::hash(a, hj, {1, backend});
    require(out == expected, a, "batch output differs");
  }
  return 0;
}
