// Verilator test bench of one stream engine (lwc_ascon_stream or lwc_acorn_stream, one
// parameter setting per binary): runs KAT files and random jobs back to back through the
// simulated hardware and compares every output word with the KAT file or with lwc's C++ core.
//
//   tb [--random N] [--seed S] [--max-len L] [--cycles] [ALGORITHM=KATFILE ...]
//
// The last line of output is "N passed, N failed" (KAT vectors and random jobs).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "verilated.h"

// The build names the model (TB_TOP), the configuration (TB_CONFIG) and the core family
// (TB_FAMILY_ID: ascon or acorn) as bare tokens.
#define TB_STRING2(x) #x
#define TB_STRING(x) TB_STRING2(x)
#include TB_STRING(TB_TOP.h)
#define TB_NAME TB_STRING(TB_CONFIG)
#define TB_FAMILY TB_STRING(TB_FAMILY_ID)

#include "reference.hpp"

using hwtb::bytes;

namespace {

struct word {
  bytes data;        // 0..16 bytes
  bool last = false;
};

// The input words of a job, in the order the cores expect them.
void encode(const hwtb::job& j, std::deque<word>& q) {
  auto header = bytes(16, 0);
  header[0] = static_cast<std::uint8_t>(j.mode);
  for (int i = 0; i < 4; ++i) header[4 + i] = static_cast<std::uint8_t>(j.out_len >> (8 * i));
  q.push_back({header, false});
  auto sequence = [&](const bytes& b) {
    if (b.empty()) {
      q.push_back({{}, true});
      return;
    }
    for (std::size_t at = 0; at < b.size(); at += 16) {
      const std::size_t n = std::min<std::size_t>(16, b.size() - at);
      q.push_back({bytes(b.begin() + static_cast<long>(at), b.begin() + static_cast<long>(at + n)),
                   at + n == b.size()});
    }
  };
  if (j.mode == hwtb::encrypt || j.mode == hwtb::decrypt) {
    q.push_back({j.key, false});
    q.push_back({j.nonce, false});
    sequence(j.ad);
  }
  sequence(j.msg);
  if (j.mode == hwtb::decrypt) q.push_back({j.tag, false});
}

// What one job produced.
struct result {
  bytes data;
  bytes tag;
  int status = -1;
  std::string framing;   // non-empty when the words broke the output format
};

class bench {
 public:
  bench() : top_(std::make_unique<TB_TOP>()) {
    top_->clk = 0;
    top_->rst = 1;
    top_->in_valid = 0;
    top_->out_ready = 1;
    for (int i = 0; i < 4; ++i) tick();
    top_->rst = 0;
  }

  // Runs jobs back to back; `stall_percent` of the clocks withhold input or output handshakes.
  // Returns the clocks taken, or 0 when the hardware stopped making progress.
  std::uint64_t run(const std::vector<const hwtb::job*>& jobs, std::vector<result>& results,
                    int stall_percent, std::uint64_t seed) {
    std::mt19937 rng(static_cast<std::uint32_t>(seed));
    std::deque<word> in;
    for (const auto* j : jobs) encode(*j, in);
    results.assign(jobs.size(), result{});
    std::size_t done = 0;
    std::uint64_t clocks = 0, idle = 0;
    while (done < jobs.size()) {
      const bool hold_in = stall_percent && static_cast<int>(rng() % 100) < stall_percent;
      const bool hold_out = stall_percent && static_cast<int>(rng() % 100) < stall_percent;
      top_->in_valid = !in.empty() && !hold_in;
      if (!in.empty()) {
        const word& w = in.front();
        for (int i = 0; i < 4; ++i) top_->in_data[i] = 0;
        for (std::size_t i = 0; i < w.data.size(); ++i)
          top_->in_data[i / 4] |= static_cast<std::uint32_t>(w.data[i]) << (8 * (i % 4));
        top_->in_bytes = static_cast<std::uint8_t>(w.data.size());
        top_->in_last = w.last;
      }
      top_->out_ready = !hold_out;
      top_->clk = 0;
      top_->eval();
      const bool in_fire = top_->in_valid && top_->in_ready;
      const bool out_fire = top_->out_valid && top_->out_ready;
      if (out_fire) take(results[done], done);
      top_->clk = 1;
      top_->eval();
      ++clocks;
      if (in_fire) in.pop_front();
      idle = (in_fire || out_fire) ? 0 : idle + 1;
      if (idle > 20000) return 0;
    }
    return clocks;
  }

 private:
  void tick() {
    top_->clk = 0;
    top_->eval();
    top_->clk = 1;
    top_->eval();
  }

  void take(result& r, std::size_t& done) {
    const unsigned n = top_->out_bytes, kind = top_->out_kind;
    bytes b(n > 16 ? 16 : n);
    for (std::size_t i = 0; i < b.size(); ++i)
      b[i] = static_cast<std::uint8_t>(top_->out_data[i / 4] >> (8 * (i % 4)));
    if (n > 16) r.framing = "word of more than 16 bytes";
    if (kind == 0) {
      if (!r.data.empty() && r.data.size() % 16 != 0) r.framing = "short DATA word before the end";
      r.data.insert(r.data.end(), b.begin(), b.end());
    } else if (kind == 1) {
      r.tag = b;
      if (!top_->out_last) r.framing = "TAG word not last";
    } else if (kind == 2) {
      r.status = top_->out_data[0] & 1;
      if (!top_->out_last) r.framing = "STATUS word not last";
    } else {
      r.framing = "unknown word kind";
    }
    if (top_->out_last) ++done;
  }

  std::unique_ptr<TB_TOP> top_;
};

// Compares a job's output with what was expected; empty when they agree.
std::string compare(const hwtb::job& j, const hwtb::expected& e, const result& r) {
  if (!r.framing.empty()) return r.framing;
  if (j.mode == hwtb::decrypt) {
    if (r.status != (e.ok ? 1 : 0))
      return std::string("verification ") + (r.status == 1 ? "passed" : "failed") + ", expected " +
             (e.ok ? "pass" : "fail");
    if (!e.ok && !r.data.empty()) return "plaintext of a failed verification released";
  } else if (r.status != -1) {
    return "unexpected STATUS word";
  }
  if (r.data != e.data) return "data " + hwtb::hex(r.data) + ", expected " + hwtb::hex(e.data);
  if (j.mode == hwtb::encrypt) {
    if (r.tag.size() != 16) return "no 16-byte tag";
    if (!std::equal(e.tag.begin(), e.tag.end(), r.tag.begin()))
      return "tag " + hwtb::hex(r.tag) + ", expected " + hwtb::hex(e.tag);
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  std::size_t random_count = 0, max_len = 2048;
  std::uint64_t seed = 1;
  bool cycles = false;
  std::vector<std::pair<std::string, std::string>> kats;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--random" && i + 1 < argc) random_count = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--max-len" && i + 1 < argc) max_len = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--cycles") cycles = true;
    else if (a.find('=') != std::string::npos) kats.emplace_back(a.substr(0, a.find('=')), a.substr(a.find('=') + 1));
    else if (a.rfind("+verilator", 0) != 0) {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }

  std::vector<hwtb::check> checks;
  int skipped = 0;
  std::vector<std::string> notes;
  for (const auto& [algorithm, path] : kats) {
    auto c = hwtb::kat_checks(algorithm, path, skipped, notes);
    std::printf("%s: %zu vectors from %s\n", TB_NAME, c.size(), path.c_str());
    checks.insert(checks.end(), std::make_move_iterator(c.begin()), std::make_move_iterator(c.end()));
  }
  for (const auto& n : notes) std::printf("%s: %s\n", TB_NAME, n.c_str());
  const std::size_t kat_count = checks.size();
  if (random_count) {
    auto c = hwtb::random_checks(TB_FAMILY, random_count, seed, max_len);
    checks.insert(checks.end(), std::make_move_iterator(c.begin()), std::make_move_iterator(c.end()));
  }

  bench b;
  long passed = 0, failed = 0;
  // KAT vectors and the first half of the random jobs run at full speed, the rest with random
  // stalls on both streams.
  const std::size_t split = kat_count + (checks.size() - kat_count) / 2;
  for (int part = 0; part < 2; ++part) {
    const std::size_t from = part == 0 ? 0 : split, to = part == 0 ? split : checks.size();
    std::vector<const hwtb::job*> jobs;
    for (std::size_t i = from; i < to; ++i)
      for (const auto& j : checks[i].jobs) jobs.push_back(&j);
    if (jobs.empty()) continue;
    std::vector<result> results;
    const std::uint64_t clocks = b.run(jobs, results, part == 0 ? 0 : 25, seed + 7);
    if (clocks == 0) {
      std::printf("%s: the hardware stopped making progress\n", TB_NAME);
      std::printf("0 passed, %zu failed\n", to - from);
      return 1;
    }
    std::size_t k = 0;
    for (std::size_t i = from; i < to; ++i) {
      std::string why;
      for (std::size_t n = 0; n < checks[i].jobs.size(); ++n, ++k)
        if (why.empty()) why = compare(checks[i].jobs[n], checks[i].want[n], results[k]);
      if (why.empty()) {
        ++passed;
      } else {
        if (failed < 10) std::printf("FAIL %s: %s\n", checks[i].label.c_str(), why.c_str());
        ++failed;
      }
    }
    std::printf("%s: %zu checks, %zu jobs in %llu clocks%s\n", TB_NAME, to - from, jobs.size(),
                static_cast<unsigned long long>(clocks), part == 0 ? "" : " (with stalls)");
  }

  if (cycles) {
    // Clocks of single jobs on an idle engine, from the header word to the last output word.
    auto measure = [&](const hwtb::job& j) {
      bench fresh;
      std::vector<result> r;
      return fresh.run({&j}, r, 0, 1);
    };
    std::vector<hwtb::job> probes;
    const bytes key(16, 1), nonce(16, 2);
    if (std::string(TB_FAMILY) == "ascon") {
      for (std::size_t n : {0, 32, 1024}) {
        probes.push_back({"ascon-aead128", hwtb::encrypt, key, nonce, bytes(n, 3), bytes(n, 4)});
      }
      for (std::size_t n : {0, 32, 1024}) probes.push_back({"ascon-hash256", hwtb::hash, {}, {}, {}, bytes(n, 4)});
    } else {
      for (std::size_t n : {0, 32, 1024}) {
        probes.push_back({"acorn-128", hwtb::encrypt, key, nonce, bytes(n, 3), bytes(n, 4)});
      }
      probes.push_back({"acorn-128", hwtb::encrypt, key, nonce, bytes(32, 3), bytes(64, 4)});
      probes.push_back({"acorn-128", hwtb::encrypt, key, nonce, bytes(32, 3), bytes(4096, 4)});
    }
    for (const auto& p : probes)
      std::printf("%s: cycles %s ad=%zu msg=%zu: %llu\n", TB_NAME, p.algorithm.c_str(), p.ad.size(),
                  p.msg.size(), static_cast<unsigned long long>(measure(p)));
  }
  std::printf("%ld passed, %ld failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
