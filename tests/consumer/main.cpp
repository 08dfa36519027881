// SPDX-License-Identifier: MIT OR Apache-2.0
// Consumer smoke test: the installed headers work and give the known Ascon-Hash256 of "".
#include <lwc/lwc.hpp>

#include <cstdio>

int main() {
  const auto d = lwc::ascon::hash256::digest({});
  const bool ok = d[0] == 0x0B && d[31] == 0xB2 && lwc::find_algorithm("ascon-aead128") != nullptr;
  std::puts(ok ? "consumer_cpp: ok" : "consumer_cpp: WRONG");
  return ok ? 0 : 1;
}
