/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The C ABI's file helpers (used by the C# binding) under faults: a failed call never removes
 * or changes an existing output (a misspelt algorithm, a truncated input to decrypt), the input
 * is refused as output (also through a symbolic link), a symbolic link at the output is
 * replaced rather than written through, and no temporary file stays behind. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, symlink */
#include <lwc/stream.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures = 0;
#define CHECK(c)                                                                   \
  do {                                                                             \
    if (!(c)) {                                                                    \
      fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #c,    \
              lwc_error_message());                                                \
      ++failures;                                                                  \
    }                                                                              \
  } while (0)

static char dir[64];
static char path_buf[8][128];

static const char* in_dir(int slot, const char* name) {
  snprintf(path_buf[slot], sizeof path_buf[slot], "%s/%s", dir, name);
  return path_buf[slot];
}

static void write_text(const char* path, const char* text, size_t n) {
  FILE* f = fopen(path, "wb");
  if (f == NULL || fwrite(text, 1, n, f) != n) ++failures;
  if (f != NULL) fclose(f);
}

/* 1 when the file holds exactly `text`. */
static int holds(const char* path, const char* text) {
  char buf[256];
  size_t n;
  FILE* f = fopen(path, "rb");
  if (f == NULL) return 0;
  n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return n == strlen(text) && memcmp(buf, text, n) == 0;
}

static int entries(void) {
  int n = 0;
  DIR* d = opendir(dir);
  struct dirent* e;
  if (d == NULL) return -1;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) ++n;
  closedir(d);
  return n;
}

int main(void) {
  uint8_t key[32];
  char big[100000];
  const char *plain, *enc, *out, *cut, *link;
  struct stat st;
  FILE* f;
  size_t i;
  char cmd[128];

  strcpy(dir, "/tmp/lwc-capi-files-XXXXXX");
  if (mkdtemp(dir) == NULL) return 1;
  for (i = 0; i < sizeof key; ++i) key[i] = (uint8_t)(3 * i);
  for (i = 0; i < sizeof big; ++i) big[i] = (char)('a' + i % 26);
  plain = in_dir(0, "plain");
  enc = in_dir(1, "plain.lwc");
  out = in_dir(2, "out");
  cut = in_dir(3, "cut.lwc");
  link = in_dir(4, "link");
  write_text(plain, big, sizeof big);
  CHECK(lwc_stream_encrypt_file("ascon-aead128", 10, 1, key, plain, enc, 0) == 0);
  write_text(out, "old content", 11);

  /* A misspelt algorithm: refused before the output is touched. */
  CHECK(lwc_stream_encrypt_file("ascon-aead-128", 10, 1, key, plain, out, 1) != 0);
  CHECK(holds(out, "old content"));
  /* The input as output, directly and through a symbolic link. */
  CHECK(lwc_stream_encrypt_file("ascon-aead128", 10, 1, key, plain, plain, 1) != 0);
  CHECK(symlink("plain", link) == 0);
  CHECK(lwc_stream_encrypt_file("ascon-aead128", 10, 1, key, plain, link, 1) != 0);
  CHECK(stat(plain, &st) == 0 && st.st_size == (off_t)sizeof big);
  CHECK(lwc_stream_decrypt_file(1, key, enc, enc, 1) != 0);
  /* A truncated input fails after output was written: the old output stays. */
  f = fopen(enc, "rb");
  if (f != NULL) {
    static char ct[200000];
    const size_t n = fread(ct, 1, sizeof ct, f);
    fclose(f);
    write_text(cut, ct, n - 50);
  }
  CHECK(lwc_stream_decrypt_file(1, key, cut, out, 1) != 0);
  CHECK(holds(out, "old content"));
  CHECK(entries() == 5); /* plain, plain.lwc, out, cut.lwc, link: no temporary file */
  /* A symbolic link at the output is replaced, and its target kept. */
  CHECK(lwc_stream_encrypt_file("ascon-aead128", 10, 1, key, enc, link, 0) != 0); /* exists */
  CHECK(lwc_stream_decrypt_file(1, key, enc, out, 1) == 0);
  CHECK(stat(out, &st) == 0 && st.st_size == (off_t)sizeof big);
  CHECK(unlink(link) == 0 && symlink("out", link) == 0);
  CHECK(lwc_stream_save_key(link, key, 1) == 0);
  CHECK(lstat(link, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
  CHECK(stat(out, &st) == 0 && st.st_size == (off_t)sizeof big);
  CHECK(entries() == 5);

  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) ++failures;
  if (failures != 0) fprintf(stderr, "%d checks failed\n", failures);
  return failures == 0 ? 0 : 1;
}
