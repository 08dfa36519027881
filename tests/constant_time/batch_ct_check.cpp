// SPDX-License-Identifier: MIT OR Apache-2.0
// Constant-time check of the batch engine: for every registered algorithm and every batch
// backend this process can run, keys, nonces, associated data, messages, ciphertexts and tags
// are marked secret, so the checker (valgrind memcheck, or MemorySanitizer in the LWC_CT_MSAN
// build: see secret_marking.hpp) reports any branch or memory index that depends on them, in the SIMD lanes as in the job-by-job path. Batches mix
// lengths around the block size and hold more jobs than a backend has lanes (lanes are
// refilled mid-batch); decryption runs on valid jobs and on forged ones side by side, so the
// failure path (the zeroing of rejected outputs) is checked too. Only the ok flags are
// declassified, after the call: they are public by design.
//
// Valgrind emulates no AVX-512, so under valgrind the CPU probe reports none and the
// "avx512" backend is not runnable there; the MSan build runs natively and reaches it. The
// program prints the backends it checked, and `--require BACKEND` makes it fail when a named
// one is missing (ctest passes the backends the checker can run on this build and CPU).
// Run: valgrind --error-exitcode=1 lwc_batch_ct_check [--require portable] [--leak], or the
// MSan build's lwc_batch_ct_check directly.

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "secret_marking.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;

void secret(bytes& v) {
  lwc_ct::mark_secret(v.data(), v.size());
}
void declassify(bytes& v) {
  lwc_ct::declassify(v.data(), v.size());
}

bytes filled(std::size_t n, std::uint8_t seed) {
  bytes v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + 31 * i + i / 7);
  return v;
}

struct jobset {
  std::vector<bytes> key, second, nonce, ad, in, out, tag;
};

// Lengths around block boundaries, one job per entry, more jobs than any backend has lanes.
std::vector<std::size_t> lengths_for(const lwc::algorithm& a, std::size_t lanes) {
  const std::size_t b = a.block_size ? a.block_size : 8;
  const std::size_t pattern[] = {0, 1, b - 1, b, b + 1, 2 * b + 3, 3 * b};
  std::vector<std::size_t> out;
  for (std::size_t i = 0; out.size() < lanes + 3; ++i) {
    const std::size_t len = pattern[i % std::size(pattern)] + (i / std::size(pattern)) * b;
    if (len <= a.max_input_size) out.push_back(len);
    else out.push_back(a.max_input_size);
  }
  return out;
}

bool check_aead(const lwc::algorithm& a, std::string_view backend) {
  const auto lens = lengths_for(a, lwc::batch::lanes(backend));
  const std::size_t n = lens.size();
  jobset s;
  for (std::size_t i = 0; i < n; ++i) {
    const auto seed = static_cast<std::uint8_t>(i);
    s.key.push_back(filled(a.key_size, seed + 1));
    // Half of the jobs use nonce masking where the algorithm has it.
    s.second.push_back(a.second_key_size && i % 2 ? filled(a.second_key_size, seed + 2) : bytes{});
    s.nonce.push_back(filled(a.nonce_size, seed + 3));
    s.ad.push_back(filled(lens[n - 1 - i], seed + 4));
    s.in.push_back(filled(lens[i], seed + 5));
    s.out.emplace_back(lens[i]);
    s.tag.emplace_back(a.tag_size);
    for (bytes* v : {&s.key[i], &s.second[i], &s.nonce[i], &s.ad[i], &s.in[i]}) secret(*v);
  }
  const lwc::batch::options opt{1, backend};
  std::vector<lwc::batch::aead_job> enc, dec;
  for (std::size_t i = 0; i < n; ++i)
    enc.push_back({s.key[i], s.nonce[i], s.ad[i], s.in[i], s.out[i], s.tag[i], s.second[i]});
  lwc::batch::encrypt(a, enc, a.tag_size, opt);

  // Decrypt the ciphertexts (still secret: they were computed from secrets), every third job
  // with a forged tag.
  std::vector<bytes> pt(n);
  for (std::size_t i = 0; i < n; ++i) {
    pt[i].assign(lens[i], 0);
    if (i % 3 == 1) s.tag[i][0] ^= 1;
    dec.push_back({s.key[i], s.nonce[i], s.ad[i], s.out[i], pt[i], s.tag[i], s.second[i]});
  }
  bytes ok(n, 7);
  (void)lwc::batch::decrypt(a, dec, ok, a.tag_size, opt);
  declassify(ok);
  for (std::size_t i = 0; i < n; ++i) {
    if (ok[i] != (i % 3 == 1 ? 0 : 1)) {
      std::printf("%s on %s: job %zu: ok = %d\n", a.name.data(), std::string(backend).c_str(), i,
                  ok[i]);
      return false;
    }
  }
  // The tag length is public: truncated tags take the same path with a shorter compare.
  if (a.min_tag_size < a.tag_size) {
    std::vector<lwc::batch::aead_job> shorter;
    for (std::size_t i = 0; i < n; ++i)
      shorter.push_back({s.key[i], s.nonce[i], s.ad[i], s.in[i], s.out[i],
                         std::span<std::uint8_t>(s.tag[i].data(), a.min_tag_size), s.second[i]});
    lwc::batch::encrypt(a, shorter, a.min_tag_size, opt);
    std::vector<lwc::batch::aead_job> shorter_dec;
    for (std::size_t i = 0; i < n; ++i)
      shorter_dec.push_back({s.key[i], s.nonce[i], s.ad[i], s.out[i], pt[i],
                             std::span<std::uint8_t>(s.tag[i].data(), a.min_tag_size),
                             s.second[i]});
    bytes ok2(n, 7);
    (void)lwc::batch::decrypt(a, shorter_dec, ok2, a.min_tag_size, opt);
    declassify(ok2);
    for (std::size_t i = 0; i < n; ++i)
      if (ok2[i] != 1) return false;
  }
  return true;
}

bool check_sponge(const lwc::algorithm& a, std::string_view backend) {
  const auto lens = lengths_for(a, lwc::batch::lanes(backend));
  const std::size_t n = lens.size();
  std::vector<bytes> key(n), msg(n), custom(n), out(n);
  std::vector<lwc::batch::hash_job> jobs;
  for (std::size_t i = 0; i < n; ++i) {
    key[i] = filled(a.key_size, static_cast<std::uint8_t>(i + 1));
    msg[i] = filled(lens[i], static_cast<std::uint8_t>(i + 2));
    if (a.max_customization_size)
      custom[i] = filled(std::min<std::size_t>(lens[n - 1 - i], a.max_customization_size),
                         static_cast<std::uint8_t>(i + 3));
    secret(key[i]);
    secret(msg[i]);
    secret(custom[i]);
    out[i].resize(a.output_size);
    jobs.push_back({msg[i], out[i], a.is_keyed() ? lwc::bytes_view(key[i]) : lwc::bytes_view{},
                    custom[i]});
  }
  lwc::batch::hash(a, jobs, {1, backend});
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> required;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--leak") {
      // Negative control: a secret-dependent branch inside this program must be reported.
      bytes key = filled(16, 1);
      secret(key);
      volatile int sink = 0;
      if (key[5] & 1) sink = 1;
      return sink * 0;
    }
    if (std::string_view(argv[i]) == "--require" && i + 1 < argc) required.emplace_back(argv[++i]);
  }
  const auto backends = lwc::batch::available_backends();
  for (const auto& r : required) {
    bool found = false;
    for (auto b : backends) found |= b == r;
    if (!found) {
      std::printf("backend %s is not runnable here\n", r.c_str());
      return 1;
    }
  }
  std::size_t pairs = 0, lanes_pairs = 0;
  for (std::string_view backend : backends) {
    for (const auto& a : lwc::algorithms()) {
      const bool ok = a.is_aead() ? check_aead(a, backend) : check_sponge(a, backend);
      if (!ok) {
        std::printf("%s on %s: wrong result\n", a.name.data(), std::string(backend).c_str());
        return 1;
      }
      ++pairs;
      lanes_pairs += lwc::batch::has_lanes(a.name, backend);
    }
    std::printf("batch constant-time check: backend %s (%zu lanes): %zu algorithms\n",
                std::string(backend).c_str(), lwc::batch::lanes(backend), lwc::algorithms().size());
  }
  std::printf("batch constant-time check (%s): %zu algorithm x backend pairs (%zu in SIMD lanes, the "
              "rest job by job), all %zu registered algorithms on %zu backends\n",
              lwc_ct::checker(), pairs, lanes_pairs, lwc::algorithms().size(), backends.size());
  return 0;
}
