// SPDX-License-Identifier: MIT OR Apache-2.0
// The subcommands of the lwc tool; main.cpp parses the command line into these options.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lwc::cli {

struct hash_options {
  std::string algorithm = "ascon-hash256";
  bool algorithm_given = false;
  std::optional<std::size_t> length;
  std::string customization;
  bool tag = false;
  bool check = false;
  bool quiet = false;
  unsigned threads = 0;  // 0: one per core
  bool no_progress = false;
  std::vector<std::string> files;
};
int run_hash(const hash_options& opt);

struct crypt_options {
  std::string key_file;
  std::string algorithm = "ascon-aead128";
  std::string chunk_size = "64K";
  std::string output = "-";
  std::string input = "-";
  bool force = false;
  unsigned threads = 0;
  bool no_progress = false;
};
int run_encrypt(const crypt_options& opt);
int run_decrypt(const crypt_options& opt);

int run_keygen(const std::string& output, bool force);

int run_list();

struct bench_options {
  std::vector<std::string> algorithms;
  std::vector<std::string> sizes;
  std::vector<std::string> operations;
  bool batch = false;
  unsigned threads = 1;  // batch backends only; the portable backend is one thread
  double seconds = 0.2;
  std::string json;
};
int run_bench(const bench_options& opt);

}  // namespace lwc::cli
