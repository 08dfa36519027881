// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc: the command-line face of the library. Every algorithm choice comes from the registry;
// the commands live in hash.cpp, crypt.cpp, list.cpp and bench.cpp.
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>
#include <lwc/registry.hpp>
#ifdef LWC_CLI_HAVE_BATCH
#include <lwc/batch.hpp>
#endif

#include "commands.hpp"
#include <lwc/stream/format.hpp>
#include "util.hpp"

#ifndef LWC_VERSION
#define LWC_VERSION "unknown"
#endif

namespace {

using namespace lwc::cli;

// The names of the algorithms that `pred` takes, current ones first; superseded ones (Ascon
// v1.2) follow under a "legacy" label, so that the standard's algorithm is the obvious pick.
std::string names_where(bool (*pred)(const lwc::algorithm&)) {
  std::string current, legacy;
  std::string_view legacy_standard;
  for (const auto& a : lwc::algorithms()) {
    if (!pred(a)) continue;
    std::string& list = a.legacy ? legacy : current;
    list += (list.empty() ? "" : ", ") + std::string(a.name);
    if (a.legacy) legacy_standard = a.standard;
  }
  if (legacy.empty()) return current;
  return current + "; legacy (" + std::string(legacy_standard) + "): " + legacy;
}

bool hashable(const lwc::algorithm& a) {
  return a.kind == lwc::algorithm_kind::hash || a.kind == lwc::algorithm_kind::xof ||
         a.kind == lwc::algorithm_kind::cxof;
}
bool streamable(const lwc::algorithm& a) { return a.is_aead() && lwc::stream::unsuitable(a).empty(); }

// The version and the code paths this CPU gets (after LWC_FORCE_PORTABLE and LWC_BACKEND),
// so that a bug report or a benchmark says which code ran.
std::string version_text() {
  std::string s = "lwc " LWC_VERSION "\ncode paths: ascon ";
  s += lwc::ascon::active_implementation() == lwc::ascon::implementation::bmi2 ? "bmi1+bmi2"
                                                                               : "portable";
  s += ", acorn ";
  s += lwc::acorn::active_implementation() == lwc::acorn::implementation::bmi2 ? "bmi2"
                                                                               : "portable";
  s += ", grain ";
  s += lwc::grain::active_implementation() == lwc::grain::implementation::bmi2_pclmul
           ? "bmi2+pclmul"
           : "portable";
#ifdef LWC_CLI_HAVE_BATCH
  s += "; batch engine " + std::string(lwc::batch::default_backend());
#else
  s += "; no batch engine";
#endif
  return s;
}

int run(int argc, char** argv) {
  CLI::App app{"lwc " LWC_VERSION
               ": lightweight cryptography from the command line: Ascon (NIST SP 800-232, and the\n"
               "legacy Ascon v1.2), Acorn and the ten NIST LWC finalists.\n"
               "Hash and check files like sha256sum/b3sum; encrypt files like age.",
               "lwc"};
  app.set_version_flag("--version", version_text);
  app.require_subcommand(1);
  app.footer(
      "Run 'lwc COMMAND --help' for the options of a command. Exit status: 0 success, 1 failure\n"
      "(verification failed, mismatch, unreadable input), 2 bad command line.\n"
      "Formats: docs/cli.md and docs/stream-format.md in the lwc sources.\n");

  // ---- list
  auto* list = app.add_subcommand("list", "Print every algorithm in the registry with its sizes");

  // ---- hash
  hash_options hopt;
  std::size_t length = 0;
  auto* hash = app.add_subcommand("hash", "Print or check the digests of files (like b3sum, sha256sum)");
  auto* alg_opt = hash->add_option("-a,--algorithm", hopt.algorithm,
                                   "Hash or XOF: " + names_where(hashable))
                      ->capture_default_str()
                      ->type_name("ALG");
  auto* len_opt = hash->add_option("-l,--length", length,
                                   "Output length in bytes (XOFs only; default 32)")
                      ->type_name("BYTES");
  hash->add_option("--customization", hopt.customization,
                   "Customization string for ascon-cxof128 (default empty)")
      ->type_name("TEXT");
  hash->add_flag("--tag", hopt.tag, "BSD-style lines: 'ALG (NAME) = HEX'");
  hash->add_flag("-c,--check", hopt.check,
                 "Read lists of digests from the FILEs (as printed by lwc hash, either style) "
                 "and check every listed file; exit 1 on any mismatch, unreadable file or bad line");
  hash->add_flag("-q,--quiet", hopt.quiet, "With --check: do not print OK lines");
  hash->add_option("-j,--threads", hopt.threads, "Files hashed at once (default: one per core)")
      ->type_name("N");
  hash->add_flag("--no-progress", hopt.no_progress, "Never draw a progress line");
  hash->add_option("FILE", hopt.files, "Files to hash, '-' for standard input (the default)")
      ->type_name("FILE");
  hash->footer(
      "Output: one line 'HEX  NAME' per file. Each file is streamed in pieces (constant memory);\n"
      "several files are hashed in parallel and printed in the order given.\n"
      "Examples:\n"
      "  lwc hash *.iso > SUMS          lwc hash -c SUMS\n"
      "  lwc hash -a ascon-xof128 -l 64 file\n"
      "  cat file | lwc hash --tag -\n");

  // ---- keygen
  std::string key_out = "-";
  bool key_force = false;
  auto* keygen = app.add_subcommand("keygen", "Create a new random 256-bit key file");
  keygen->add_option("-o,--output", key_out, "Key file to create (mode 0600); default: standard output")
      ->type_name("KEYFILE");
  keygen->add_flag("-f,--force", key_force, "Replace an existing key file (its old key is lost!)");
  keygen->footer(
      "The key file is one line 'lwc-key-v1 <64 hex digits>' from the kernel's CSPRNG\n"
      "(getrandom). lwc refuses key files that other users can read or write.\n"
      "Example: lwc keygen -o ~/.lwc.key\n");

  // ---- encrypt / decrypt
  crypt_options eopt, dopt;
  auto* encrypt = app.add_subcommand("encrypt", "Encrypt a file into the lwc stream format");
  encrypt->add_option("-k,--key", eopt.key_file, "Key file (from lwc keygen)")
      ->required()
      ->type_name("KEYFILE");
  encrypt->add_option("-a,--algorithm", eopt.algorithm, "AEAD: " + names_where(streamable))
      ->capture_default_str()
      ->type_name("ALG");
  encrypt->add_option("-o,--output", eopt.output, "Output file; default: standard output (never a terminal)")
      ->type_name("OUT");
  encrypt->add_option("--chunk-size", eopt.chunk_size, "Plaintext bytes per chunk: a power of two, 64 to 1M")
      ->capture_default_str()
      ->type_name("SIZE");
  encrypt->add_flag("-f,--force", eopt.force, "Replace OUT if it exists");
  encrypt->add_option("-j,--threads", eopt.threads, "Worker threads (default: one per core)")->type_name("N");
  encrypt->add_flag("--no-progress", eopt.no_progress, "Never draw a progress line");
  encrypt->add_option("IN", eopt.input, "Input file, '-' for standard input (the default)")
      ->type_name("FILE");
  encrypt->footer(
      "Each file gets its own key and nonces, derived from the key file and a random salt.\n"
      "OUT is written to a temporary file next to it and renamed when complete.\n"
      "Example: lwc encrypt -k my.key -o notes.txt.lwc notes.txt\n");

  auto* decrypt = app.add_subcommand("decrypt", "Decrypt and verify an lwc encrypted file");
  decrypt->add_option("-k,--key", dopt.key_file, "Key file used to encrypt")->required()->type_name("KEYFILE");
  decrypt->add_option("-o,--output", dopt.output, "Output file; default: standard output")->type_name("OUT");
  decrypt->add_flag("-f,--force", dopt.force, "Replace OUT if it exists");
  decrypt->add_option("-j,--threads", dopt.threads, "Worker threads (default: one per core)")->type_name("N");
  decrypt->add_flag("--no-progress", dopt.no_progress, "Never draw a progress line");
  decrypt->add_option("IN", dopt.input, "Encrypted file, '-' for standard input (the default)")
      ->type_name("FILE");
  decrypt->footer(
      "Nothing unauthenticated is ever released: OUT is written to a temporary file next to it\n"
      "and renamed only after the last chunk verified; on any failure there is no OUT and the\n"
      "exit status is 1. To standard output, the plaintext is held back (in memory, then in an\n"
      "unnamed file in $TMPDIR) until the whole input verified, then written.\n"
      "The algorithm and chunk size come from the file's header.\n"
      "Example: lwc decrypt -k my.key -o notes.txt notes.txt.lwc\n");

  // ---- bench
  bench_options bopt;
  auto* bench = app.add_subcommand("bench", "Measure the throughput of the algorithms on this machine");
  bench->add_option("-a,--algorithm", bopt.algorithms, "Algorithms to measure (default: all; repeat or use commas)")
      ->delimiter(',')
      ->type_name("ALG");
  bench->add_option("--sizes", bopt.sizes, "Message sizes (default 64,1K,4K,64K)")
      ->delimiter(',')
      ->type_name("SIZE");
  bench->add_option("--operation", bopt.operations, "Only these operations: encrypt, decrypt, hash, xof, mac")
      ->delimiter(',')
      ->type_name("OP");
  bench->add_flag("--batch", bopt.batch, "Also measure the multi-message batch engine's backends");
  bench->add_option("-j,--threads", bopt.threads, "Threads for the batch backends")
      ->capture_default_str()
      ->type_name("N");
  bench->add_option("--time", bopt.seconds, "Seconds per measurement")->capture_default_str()->type_name("SECONDS");
  bench->add_option("--json", bopt.json, "Also write the results as JSON to FILE ('-': standard output)")
      ->type_name("FILE");
  bench->footer(
      "Columns: algorithm, operation, message bytes, backend, MB/s (1e6 message bytes per\n"
      "second). 'portable' is the header-only core on one thread; with --batch, 'batch-<isa>'\n"
      "rows run many messages per call on --threads threads. Plot JSON with tools/plot_bench.py.\n"
      "Example: lwc bench -a ascon-aead128,ascon-hash256 --sizes 64,1K,64K --json bench.json\n");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string cmd = "lwc";
    for (const CLI::App* sub : app.get_subcommands()) cmd += " " + sub->get_name();
    std::fprintf(stderr, "lwc: %s\nRun '%s --help' for more information.\n", e.what(), cmd.c_str());
    return exit_usage;
  }

  try {
    if (*list) return run_list();
    if (*hash) {
      hopt.algorithm_given = alg_opt->count() != 0;
      if (len_opt->count() != 0) hopt.length = length;
      return run_hash(hopt);
    }
    install_signal_cleanup();
    if (*keygen) return run_keygen(key_out, key_force);
    if (*encrypt) return run_encrypt(eopt);
    if (*decrypt) return run_decrypt(dopt);
    if (*bench) return run_bench(bopt);
  } catch (const failure& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "lwc: %s\n", e.what());
    return e.code();
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "lwc: error: %s\n", e.what());
    return exit_failure;
  }
  return exit_usage;
}

}  // namespace

int main(int argc, char** argv) { return run(argc, argv); }
