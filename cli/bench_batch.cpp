// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc bench --batch: the multi-message engine (src/batch), one backend per instruction set.
// Each operation is one call that processes a whole batch of equal messages; its bytes are
// the sum of the messages, so MB/s compare with the single-message figures.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <lwc/batch.hpp>

#include "bench.hpp"

namespace lwc::cli::bench {

namespace {

prepared batch_prepare(std::string backend_name, unsigned threads, const algorithm& a,
                       operation op, std::size_t n) {
  const std::size_t lanes = std::max<std::size_t>(1, lwc::batch::lanes(backend_name));
  // Enough messages to fill every lane of every thread several times, and about 1 MiB.
  std::size_t count = std::max<std::size_t>(4 * lanes * threads, (1u << 20) / std::max<std::size_t>(n, 1));
  count = (count + lanes - 1) / lanes * lanes;
  struct buffers {
    std::vector<std::uint8_t> keys, nonces, ad, in, out, tags, ok;
    std::vector<lwc::batch::aead_job> aead;
    std::vector<lwc::batch::hash_job> hash;
    lwc::batch::options opt;
    std::string backend;
  };
  auto b = std::make_shared<buffers>();
  b->backend = std::move(backend_name);
  b->opt.threads = threads;
  b->opt.backend = b->backend;
  const std::size_t out_len = a.is_aead() ? a.tag_size : a.output_size;
  b->keys.assign(count * a.key_size, 1);
  b->nonces.assign(count * a.nonce_size, 2);
  b->ad.assign(32, 3);
  b->in.assign(count * n, 4);
  b->out.assign(count * n, 0);
  b->tags.assign(count * out_len, 0);
  b->ok.assign(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    if (a.is_aead()) {
      b->aead.push_back({{b->keys.data() + i * a.key_size, a.key_size},
                         {b->nonces.data() + i * a.nonce_size, a.nonce_size},
                         b->ad,
                         {b->in.data() + i * n, n},
                         {b->out.data() + i * n, n},
                         {b->tags.data() + i * out_len, out_len},
                         {}});
    } else {
      b->hash.push_back({{b->in.data() + i * n, n}, {b->tags.data() + i * out_len, out_len}});
    }
  }
  prepared p;
  p.bytes_per_op = count * n;
  const lwc::algorithm* alg = &a;  // a registry entry: lives as long as the program
  if (op == operation::encrypt) {
    p.run = [b, alg](std::uint64_t iters) {
      for (std::uint64_t i = 0; i < iters; ++i) {
        lwc::batch::encrypt(*alg, b->aead, lwc::batch::full_tag, b->opt);
        keep(b->out.data());
      }
    };
  } else if (op == operation::decrypt) {
    // Decrypt what encryption produced: ciphertexts into `in`, in place.
    std::vector<lwc::batch::aead_job> seal = b->aead;
    for (std::size_t i = 0; i < count; ++i) seal[i].out = {b->in.data() + i * n, n};
    lwc::batch::encrypt(*alg, seal, lwc::batch::full_tag, b->opt);
    p.run = [b, alg](std::uint64_t iters) {
      for (std::uint64_t i = 0; i < iters; ++i) {
        if (lwc::batch::decrypt(*alg, b->aead, b->ok, lwc::batch::full_tag, b->opt) != b->aead.size())
          throw std::runtime_error("batch decryption failed to verify its own output");
        keep(b->out.data());
      }
    };
  } else {
    p.run = [b, alg](std::uint64_t iters) {
      for (std::uint64_t i = 0; i < iters; ++i) {
        lwc::batch::hash(*alg, b->hash, b->opt);
        keep(b->tags.data());
      }
    };
  }
  return p;
}

}  // namespace

std::vector<backend> batch_backends(unsigned threads, std::string& why_not) {
  std::vector<backend> out;
  for (std::string_view be : lwc::batch::available_backends()) {
    backend b;
    b.name = "batch-" + std::string(be);
    b.threads = threads;
    // The engine runs every registered algorithm; keyed hashing is not measured here.
    b.supports = [](const algorithm&, operation op) { return op != operation::mac; };
    b.prepare = [name = std::string(be), threads](const algorithm& a, operation op, std::size_t n) {
      return batch_prepare(name, threads, a, op, n);
    };
    out.push_back(std::move(b));
  }
  if (out.empty()) why_not = "the batch engine reports no usable backend";
  return out;
}

}  // namespace lwc::cli::bench
