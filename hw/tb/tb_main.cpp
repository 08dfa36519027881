// SPDX-License-Identifier: MIT OR Apache-2.0
// Verilator test bench of one stream engine (lwc_ascon_stream or lwc_acorn_stream, one
// parameter setting per binary): runs KAT files and random jobs back to back through the
// simulated hardware and compares every output word with the KAT file or with lwc's C++ core.
// With --protocol it also sends misframed jobs (every `bytes` value on every word, `last` on
// single words, decryptions longer than the FIFO, the aliasing forgeries of a word of 17 bytes),
// each followed by a good job, under random stalls on both streams; their expected outcome comes
// from a model of the framing rules below, not from the hardware. On every clock of every run
// the output bus must be zero while out_valid is low.
//
//   tb [--random N] [--seed S] [--max-len L] [--protocol | --protocol-only LABEL-TEXT] [--cycles]
//      [ALGORITHM=KATFILE ...]
//
// The last line of output is "N passed, N failed" (KAT vectors, random jobs, protocol cases and
// the output-bus check).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "verilated.h"

// The build names the model (TB_TOP) and the core family (TB_FAMILY_ID: ascon or acorn) as
// bare tokens. Every configuration of a core has the same model interface, so this file is
// compiled once per family; each configuration's program links a definition of
// tb_config_name of its own (hw/run-tests.sh writes it).
#define TB_STRING2(x) #x
#define TB_STRING(x) TB_STRING2(x)
#include TB_STRING(TB_TOP.h)
extern const char tb_config_name[];
#define TB_NAME tb_config_name
#define TB_FAMILY TB_STRING(TB_FAMILY_ID)

#include "reference.hpp"

using hwtb::bytes;

namespace {

// Status codes of the STATUS word (data[7:0]), as the cores define them.
enum status_code : int { status_tag_fail = 0, status_ok = 1, status_protocol_error = 2, status_too_long = 4 };

// Uncommitted words the default FIFO (1,024 entries) holds: one entry stays for the status word.
constexpr std::size_t kFifoPlaintextWords = 1023;

struct word {
  bytes data;        // 0..16 bytes
  bool last = false;
  int nbytes = -1;   // the `bytes` field when it differs from data.size() (0..31)
  unsigned field() const { return nbytes >= 0 ? static_cast<unsigned>(nbytes) : static_cast<unsigned>(data.size()); }
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
  // Returns the clocks taken, or 0 when the hardware stopped making progress or ran far past any
  // plausible length (a misparsed word taken as an XOF header could squeeze for days).
  std::uint64_t run(const std::vector<const hwtb::job*>& jobs, std::vector<result>& results,
                    int stall_percent, std::uint64_t seed) {
    std::deque<word> in;
    for (const auto* j : jobs) encode(*j, in);
    return run_words(std::move(in), jobs.size(), results, stall_percent, seed);
  }

  // The same for input words as given, `job_count` jobs (each ends with one `out_last` word).
  std::uint64_t run_words(std::deque<word> in, std::size_t job_count, std::vector<result>& results,
                          int stall_percent, std::uint64_t seed) {
    std::mt19937 rng(static_cast<std::uint32_t>(seed));
    results.assign(job_count, result{});
    std::size_t done = 0;
    std::uint64_t clocks = 0, idle = 0;
    const std::uint64_t clock_budget = 500000 + 64 * in.size() + 4000 * job_count;
    while (done < job_count) {
      if (clocks > clock_budget) return 0;
      const bool hold_in = stall_percent && static_cast<int>(rng() % 100) < stall_percent;
      const bool hold_out = stall_percent && static_cast<int>(rng() % 100) < stall_percent;
      top_->in_valid = !in.empty() && !hold_in;
      if (!in.empty()) {
        const word& w = in.front();
        for (int i = 0; i < 4; ++i) top_->in_data[i] = 0;
        for (std::size_t i = 0; i < w.data.size(); ++i)
          top_->in_data[i / 4] |= static_cast<std::uint32_t>(w.data[i]) << (8 * (i % 4));
        top_->in_bytes = static_cast<std::uint8_t>(w.field());
        top_->in_last = w.last;
      }
      top_->out_ready = !hold_out;
      top_->clk = 0;
      top_->eval();
      check_idle_bus();
      const bool in_fire = top_->in_valid && top_->in_ready;
      const bool out_fire = top_->out_valid && top_->out_ready;
      if (out_fire) take(results[done], done);
      top_->clk = 1;
      top_->eval();
      check_idle_bus();
      ++clocks;
      if (in_fire) in.pop_front();
      idle = (in_fire || out_fire) ? 0 : idle + 1;
      if (idle > 20000) return 0;
    }
    return clocks;
  }

  // Clocks on which out_valid was low while some bit of the output bus was not.
  std::uint64_t idle_bus_violations() const { return idle_bus_violations_; }

 private:
  void tick() {
    top_->clk = 0;
    top_->eval();
    top_->clk = 1;
    top_->eval();
  }

  // The bus carries committed words only: nothing, not even a stale word, while out_valid is low.
  void check_idle_bus() {
    if (top_->out_valid) return;
    bool zero = top_->out_bytes == 0 && top_->out_kind == 0 && top_->out_last == 0;
    for (int i = 0; i < 4; ++i) zero = zero && top_->out_data[i] == 0;
    if (!zero) ++idle_bus_violations_;
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
      r.status = static_cast<int>(top_->out_data[0] & 0xff);
      if (!top_->out_last) r.framing = "STATUS word not last";
    } else {
      r.framing = "unknown word kind";
    }
    if (top_->out_last) ++done;
  }

  std::unique_ptr<TB_TOP> top_;
  std::uint64_t idle_bus_violations_ = 0;
};

// Compares a job's output with what was expected; empty when they agree.
std::string compare(const hwtb::job& j, const hwtb::expected& e, const result& r) {
  if (!r.framing.empty()) return r.framing;
  if (j.mode == hwtb::decrypt) {
    if (r.status != (e.ok ? status_ok : status_tag_fail))
      return "status " + std::to_string(r.status) + ", expected " +
             std::to_string(e.ok ? status_ok : status_tag_fail);
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

// --- Protocol cases -------------------------------------------------------------------------

// What a misframed (or well-framed) word sequence must produce.
struct framed_expect {
  int status = -1;   // the STATUS word's code, -1 for none
  bytes data;        // DATA bytes released
  bytes tag;         // TAG word, empty for none
};

struct framed_case {
  std::string label;
  std::vector<word> words;   // one job's input words
  framed_expect want;
};

// The framing rules of the cores, written from their specification: single words (header, key,
// nonce, tag) carry 16 bytes and no `last`; a sequence's words carry 16 bytes except the one with
// `last`, which carries 1..16, or 0 when it is the sequence's only word. The first rule broken
// decides the status. A well-framed job is decoded and given to lwc's C++ core.
framed_expect model(const std::string& family, const std::vector<word>& words) {
  framed_expect e;
  std::size_t i = 0;
  auto fail = [&](int code) {
    e.status = code;
    e.tag.clear();
    return e;
  };
  auto single_ok = [&]() { return i < words.size() && words[i].field() == 16 && !words[i].last; };
  const int mode = words.at(0).data.at(0) & 3;
  hwtb::job j;
  j.mode = mode;
  for (int b = 0; b < 4; ++b) j.out_len |= static_cast<std::size_t>(words[0].data.at(4 + b)) << (8 * b);
  if (!single_ok() || (family == "acorn" && mode >= 2)) return fail(status_protocol_error);
  ++i;
  // One sequence into `out`; false on a framing error. For a decryption, a word that would not fit
  // the FIFO is too long; for an encryption the words before an error have been released.
  int error = 0;
  auto sequence = [&](bytes& out, bool is_message) {
    std::size_t written = 0;
    for (bool first = true;; first = false) {
      if (i >= words.size()) throw std::logic_error("job ends inside a sequence");
      const word& w = words[i++];
      const unsigned n = w.field();
      const bool ok = w.last ? ((n >= 1 && n <= 16) || (n == 0 && first)) : n == 16;
      if (!ok) {
        error = status_protocol_error;
        return false;
      }
      if (is_message && mode == hwtb::decrypt && n != 0 && ++written > kFifoPlaintextWords) {
        error = status_too_long;
        return false;
      }
      out.insert(out.end(), w.data.begin(), w.data.begin() + std::min<long>(n, static_cast<long>(w.data.size())));
      if (w.last) return true;
    }
  };
  if (mode == hwtb::encrypt || mode == hwtb::decrypt) {
    j.algorithm = family == "ascon" ? "ascon-aead128" : "acorn-128";
    for (bytes* field : {&j.key, &j.nonce}) {
      if (!single_ok()) return fail(status_protocol_error);
      *field = words[i++].data;
    }
    if (!sequence(j.ad, false)) return fail(error);
    if (!sequence(j.msg, true)) {
      if (mode == hwtb::encrypt && !j.msg.empty()) {
        // The ciphertext of the full words before the faulty one: that of the prefix alone.
        hwtb::job prefix = j;
        e.data = hwtb::reference(prefix).data;
      }
      return fail(error);
    }
    if (mode == hwtb::decrypt) {
      if (!single_ok()) return fail(status_protocol_error);
      j.tag = words[i++].data;
    }
  } else {
    j.algorithm = mode == hwtb::hash ? "ascon-hash256" : "ascon-xof128";
    if (!sequence(j.msg, true)) return fail(error);
  }
  if (i != words.size()) throw std::logic_error("words left after the job");
  const hwtb::expected r = hwtb::reference(j);
  e.data = r.data;
  if (mode == hwtb::encrypt) e.tag = r.tag;
  if (mode == hwtb::decrypt) e.status = r.ok ? status_ok : status_tag_fail;
  return e;
}

std::vector<word> words_of(const hwtb::job& j) {
  std::deque<word> q;
  encode(j, q);
  return {q.begin(), q.end()};
}

// A valid job of the family: a real ciphertext and tag for a decryption.
hwtb::job make_job(const std::string& family, int mode, const bytes& ad, const bytes& pt,
                   std::mt19937_64& rng) {
  auto random_bytes = [&](std::size_t n) {
    bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return b;
  };
  hwtb::job j;
  j.mode = mode;
  if (mode == hwtb::hash || mode == hwtb::xof) {
    j.algorithm = mode == hwtb::hash ? "ascon-hash256" : "ascon-xof128";
    j.msg = pt;
    j.out_len = mode == hwtb::hash ? 0 : 40;
    return j;
  }
  j.algorithm = family == "ascon" ? "ascon-aead128" : "acorn-128";
  j.key = random_bytes(16);
  j.nonce = random_bytes(16);
  j.ad = ad;
  j.msg = pt;
  if (mode == hwtb::decrypt) {
    hwtb::job enc = j;
    enc.mode = hwtb::encrypt;
    const hwtb::expected c = hwtb::reference(enc);
    j.msg = c.data;
    j.tag = c.tag;
  }
  return j;
}

std::vector<framed_case> protocol_cases(const std::string& family, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto random_bytes = [&](std::size_t n) {
    bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return b;
  };
  std::vector<framed_case> out;
  auto add = [&](std::string label, std::vector<word> words) {
    framed_expect want = model(family, words);
    out.push_back({std::move(label), std::move(words), std::move(want)});
  };

  // Every `bytes` value on every word of jobs with multi-word and one-word sequences, and `last`
  // on every single word (the job then ends there).
  std::vector<int> modes = {hwtb::encrypt, hwtb::decrypt};
  if (family == "ascon") modes.insert(modes.end(), {hwtb::hash, hwtb::xof});
  for (int mode : modes) {
    for (const auto& [ad_len, msg_len] : {std::pair<std::size_t, std::size_t>{40, 40}, {5, 7}}) {
      const std::vector<word> base = words_of(make_job(family, mode, random_bytes(ad_len), random_bytes(msg_len), rng));
      for (std::size_t at = 0; at < base.size(); ++at) {
        for (int n = 0; n < 32; ++n) {
          std::vector<word> w = base;
          w[at].nbytes = n;
          // A field longer than the data puts nonzero bytes behind it on the bus.
          if (n > static_cast<int>(w[at].data.size())) w[at].data.resize(16, static_cast<std::uint8_t>(rng() | 1));
          add("mode " + std::to_string(mode) + " word " + std::to_string(at) + " bytes=" + std::to_string(n), std::move(w));
        }
        const bool single = at == 0 || (mode <= hwtb::decrypt && (at == 1 || at == 2)) ||
                            (mode == hwtb::decrypt && at + 1 == base.size());
        if (single) {
          std::vector<word> w(base.begin(), base.begin() + static_cast<long>(at) + 1);
          w[at].last = true;
          add("mode " + std::to_string(mode) + " last on single word " + std::to_string(at), std::move(w));
        }
      }
    }
  }

  if (family == "acorn")   // a hashing job, framed as for Ascon: the Acorn core has no hashing
    for (int mode : {hwtb::hash, hwtb::xof})
      add("mode " + std::to_string(mode) + " on the Acorn core", words_of(make_job(family, mode, {}, random_bytes(20), rng)));

  // The aliasing forgery: a tag made over AD a (15 bytes for Ascon, whose padding then adds 0x01;
  // 17 bytes ending in 0 for Acorn, which steps the zero byte) sent as one 16-byte word with
  // bytes = 17. It must be a protocol error, not a verified message.
  {
    const bytes pt = random_bytes(16);
    bytes ad = random_bytes(15), word_bytes = ad;
    word_bytes.push_back(0x01);
    if (family == "acorn") {
      ad = random_bytes(16);
      word_bytes = ad;
      ad.push_back(0x00);
    }
    const hwtb::job honest = make_job(family, hwtb::decrypt, ad, pt, rng);
    std::vector<word> w = words_of(honest);
    std::vector<word> forged;
    for (std::size_t k = 0; k < 3; ++k) forged.push_back(w[k]);
    forged.push_back({word_bytes, true, 17});
    for (std::size_t k = 3 + (ad.size() + 15) / 16; k < w.size(); ++k) forged.push_back(w[k]);
    add("forgery: AD of " + std::to_string(ad.size()) + " bytes as one word with bytes=17", std::move(forged));
    // The same on the last message word: a 15-byte ciphertext sent as ciphertext || 1 byte with
    // bytes = 17 must not verify either.
    const hwtb::job short_msg = make_job(family, hwtb::decrypt, random_bytes(3), random_bytes(15), rng);
    std::vector<word> m = words_of(short_msg);
    m[4].data.push_back(0x01);
    m[4].nbytes = 17;
    add("forgery: 15-byte message as one word with bytes=17", std::move(m));
  }

  // Messages around the FIFO's size: decryptions that fit exactly and that do not, an encryption
  // far longer (ciphertext is committed as it goes), a failing and a too-long decryption in a row.
  const std::size_t fit = kFifoPlaintextWords * 16;
  for (std::size_t len : {fit, fit + 1, fit + 16, std::size_t{20000}}) {
    add("decrypt " + std::to_string(len) + " bytes", words_of(make_job(family, hwtb::decrypt, random_bytes(9), random_bytes(len), rng)));
  }
  add("encrypt 20000 bytes", words_of(make_job(family, hwtb::encrypt, random_bytes(9), random_bytes(20000), rng)));
  {
    std::vector<word> w = words_of(make_job(family, hwtb::decrypt, random_bytes(9), random_bytes(fit), rng));
    w.back().data[0] ^= 1;
    add("decrypt " + std::to_string(fit) + " bytes, forged tag", std::move(w));
  }
  return out;
}

std::string compare_framed(const framed_expect& e, const result& r) {
  if (!r.framing.empty()) return r.framing;
  if (r.status != e.status)
    return "status " + std::to_string(r.status) + ", expected " + std::to_string(e.status);
  if (r.data != e.data)
    return "data of " + std::to_string(r.data.size()) + " bytes, expected " + std::to_string(e.data.size());
  if (r.tag != e.tag) return "tag " + hwtb::hex(r.tag) + ", expected " + hwtb::hex(e.tag);
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  std::size_t random_count = 0, max_len = 2048;
  std::uint64_t seed = 1;
  bool cycles = false, protocol = false;
  std::string protocol_only;
  std::vector<std::pair<std::string, std::string>> kats;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--random" && i + 1 < argc) random_count = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--max-len" && i + 1 < argc) max_len = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--cycles") cycles = true;
    else if (a == "--protocol") protocol = true;
    else if (a == "--protocol-only" && i + 1 < argc) protocol = true, protocol_only = argv[++i];
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
  std::vector<framed_case> cases;
  if (protocol) {
    cases = protocol_cases(TB_FAMILY, seed + 11);
    std::erase_if(cases, [&](const framed_case& c) { return c.label.find(protocol_only) == std::string::npos; });
    if (cases.empty()) std::printf("%s: no protocol case matches '%s'\n", TB_NAME, protocol_only.c_str());
  }
  if (!cases.empty()) {
    // Each misframed job is followed by a good one, which must come out right.
    auto good = hwtb::random_checks(TB_FAMILY, cases.size(), seed + 13, 64);
    std::deque<word> in;
    std::vector<const framed_expect*> want;
    std::vector<framed_expect> good_want(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      in.insert(in.end(), cases[i].words.begin(), cases[i].words.end());
      want.push_back(&cases[i].want);
      const hwtb::job& gj = good[i].jobs[0];
      const hwtb::expected& ge = good[i].want[0];
      for (const word& w : words_of(gj)) in.push_back(w);
      good_want[i].data = ge.data;
      if (gj.mode == hwtb::encrypt) good_want[i].tag = ge.tag;
      if (gj.mode == hwtb::decrypt) good_want[i].status = ge.ok ? status_ok : status_tag_fail;
      want.push_back(&good_want[i]);
    }
    std::vector<result> results;
    const std::uint64_t clocks = b.run_words(std::move(in), want.size(), results, 25, seed + 17);
    if (clocks == 0) {
      std::printf("%s: the hardware stopped making progress (or ran past its clock budget) in the protocol cases\n", TB_NAME);
      std::printf("0 passed, %zu failed\n", cases.size());
      return 1;
    }
    for (std::size_t i = 0; i < cases.size(); ++i) {
      std::string why = compare_framed(cases[i].want, results[2 * i]);
      if (why.empty() && !(why = compare_framed(good_want[i], results[2 * i + 1])).empty())
        why = "the good job after it: " + why;
      if (why.empty()) {
        ++passed;
      } else {
        if (failed < 10) std::printf("FAIL %s protocol case %s: %s\n", TB_NAME, cases[i].label.c_str(), why.c_str());
        ++failed;
      }
    }
    const auto expecting = [&](int code) {
      return std::count_if(cases.begin(), cases.end(), [&](const framed_case& c) { return c.want.status == code; });
    };
    std::printf("%s: %zu protocol cases (%ld protocol errors, %ld too long, %ld tag failures expected), "
                "%zu jobs in %llu clocks (with stalls)\n", TB_NAME, cases.size(),
                static_cast<long>(expecting(status_protocol_error)), static_cast<long>(expecting(status_too_long)),
                static_cast<long>(expecting(status_tag_fail)), want.size(), static_cast<unsigned long long>(clocks));
  }
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
      std::printf("%s: the hardware stopped making progress (or ran past its clock budget)\n", TB_NAME);
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
  if (b.idle_bus_violations() == 0) {
    ++passed;
  } else {
    std::printf("FAIL %s: the output bus was not zero on %llu clocks with out_valid low\n", TB_NAME,
                static_cast<unsigned long long>(b.idle_bus_violations()));
    ++failed;
  }
  std::printf("%ld passed, %ld failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
