// SPDX-License-Identifier: MIT OR Apache-2.0
// One timed pass of the C++ stream API over a file, as an application would write it: read()
// the input in 64 KiB pieces (the size shutil.copyfileobj uses) and push each into an
// lwc::stream::encryptor (or decryptor) whose sink is the output file. Driven by
// stream_bench.py, which times it side by side with `lwc encrypt` and the Python objects.
//   usage: lwc_stream_api_bench encrypt|decrypt KEYFILE IN OUT [threads]
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <lwc/stream.hpp>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s encrypt|decrypt KEYFILE IN OUT [threads]\n", argv[0]);
    return 2;
  }
  try {
    const bool enc = std::strcmp(argv[1], "encrypt") == 0;
    const lwc::stream::master_key key = lwc::stream::load_key(argv[2]);
    const int in = ::open(argv[3], O_RDONLY | O_CLOEXEC);
    const int out = ::open(argv[4], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (in < 0 || out < 0) {
      std::perror("open");
      return 1;
    }
    lwc::stream::options opt;
    if (argc > 5) opt.threads = static_cast<unsigned>(std::atoi(argv[5]));
    lwc::stream::fd_sink sink(out, argv[4]);
    std::vector<std::uint8_t> buf(64 << 10);
    lwc::stream::encryptor e(key, opt);
    lwc::stream::decryptor d(key, opt);
    for (;;) {
      const ssize_t n = ::read(in, buf.data(), buf.size());
      if (n < 0) {
        std::perror("read");
        return 1;
      }
      if (n == 0) break;
      const lwc::bytes_view piece(buf.data(), static_cast<std::size_t>(n));
      if (enc) e.write(piece, sink);
      else d.write(piece, sink);
    }
    if (enc) e.finish(sink);
    else d.finish(sink);
    ::close(out);
    ::close(in);
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "lwc_stream_api_bench: %s\n", ex.what());
    return 1;
  }
  return 0;
}
