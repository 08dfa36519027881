// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.arrow's AEAD path: Arrow binary columns straight into the batch engine and back.
//
// lwc/arrow.py hands over the column's own buffers (values, 32- or 64-bit offsets as Arrow
// stores them, fixed-size key and nonce rows, or one key for all rows) and an allocator
// (pa.allocate_buffer). The column becomes the packed job form (<lwc/packed_jobs.hpp>) as it
// is: its offsets are the jobs' offsets, the result's offsets are written once into a buffer
// from the Arrow memory pool, and the engine writes ciphertext || tag of each row straight
// into the result's values buffer, with the caller's thread count (the engine splits the
// work). Rows that do not run (a null message, key or nonce, a ciphertext shorter than the
// tag) are left out of the engine's jobs: those rows are gathered into buffers of their own
// first, the only copy, taken only when such rows exist.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "columns.hpp"
#include "common.hpp"

namespace lwc::python {

void register_arrow_columns(nb::module_& m);

namespace {

using namespace nb::literals;
using lwc::jobs::column;
using lwc::jobs::columns::reader;

// An Arrow offsets buffer (int32, or int64 when large) over `values`, checked by the engines'
// own column check: n + 1 entries, from 0 up, never decreasing, inside the values.
column arrow_column(const lwc::algorithm& a, const held_buffer& values, const held_buffer& offsets,
                    bool large, const char* what, std::size_t& n) {
  const std::size_t width = large ? 8 : 4;
  if (offsets.size() < width || offsets.size() % width != 0)
    value_error(std::string(what) + ": an array of " + num(width) + "-byte offsets is expected");
  n = offsets.size() / width - 1;
  const column c = large ? column::with_offsets<std::int64_t>(
                               values.view(), {reinterpret_cast<const std::int64_t*>(offsets.data()), n + 1})
                         : column::with_offsets<std::int32_t>(
                               values.view(), {reinterpret_cast<const std::int32_t*>(offsets.data()), n + 1});
  check_column(a, what, c, n);
  return c;
}

// Keys, nonces or second keys: n rows of `size` bytes, or one value for every row.
column key_rows(column_buffers& cols, const held_buffer& b, std::size_t n, std::size_t size,
                const char* what) {
  if (n != 1 && b.size() == size) return cols.repeated(b.view(), n);
  if (b.size() != checked_mul(n, size, what))
    value_error(std::string(what) + ": " + num(n) + " rows of " + num(size) +
                " bytes or one value expected, got " + num(b.size()) + " bytes");
  return column::fixed(b.view(), size);
}

// The rows that run, gathered: element k of each column is element rows[k] of the column
// given (associated data: empty where ad_valid says null).
struct gathered {
  std::vector<std::uint8_t> keys, nonces, second, in, ad;
  std::vector<std::uint64_t> in_off, ad_off;
};

column gather_fixed(std::vector<std::uint8_t>& to, const column& c, std::size_t size,
                    const std::vector<std::size_t>& rows) {
  const reader<const std::uint8_t> r(c);
  to.resize(rows.size() * size);
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (size != 0) std::memcpy(to.data() + k * size, r[rows[k]].data, size);
  return column::fixed({to.data(), to.size()}, size);
}

column gather_var(std::vector<std::uint8_t>& to, std::vector<std::uint64_t>& off, const column& c,
                  const std::vector<std::size_t>& rows, const std::uint8_t* valid) {
  const reader<const std::uint8_t> r(c);
  off.assign(rows.size() + 1, 0);
  std::size_t total = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (valid == nullptr || valid[rows[k]] != 0) total += r[rows[k]].size;
    off[k + 1] = total;
  }
  to.resize(total);
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (off[k + 1] != off[k]) std::memcpy(to.data() + off[k], r[rows[k]].data, off[k + 1] - off[k]);
  return column::with_offsets<std::uint64_t>({to.data(), to.size()}, off);
}

// Encrypt: returns (values, offsets, None): ciphertext || tag of every row that runs, the
// other rows empty. Decrypt: (values, offsets, ok): the plaintexts of the rows that verified,
// every other row empty and its bytes absent from values; ok holds one flag byte per row (0
// for rows that did not run, and for ciphertexts shorter than the tag). offsets are Arrow
// offsets of 64 bits when out_large or the result needs them, else 32, starting at 0. Also
// returned: how many bytes of values the rows use (values may be longer; the rest is zeros),
// and whether the offsets are 64-bit.
nb::tuple arrow_aead(bool decrypt, std::size_t index, nb::handle keys_obj, nb::handle nonces_obj,
                     nb::handle second_obj, nb::handle values_obj, nb::handle offsets_obj,
                     bool large, nb::handle run_obj, nb::handle ad_obj, nb::handle ad_offsets_obj,
                     bool ad_large, nb::handle ad_valid_obj, std::size_t tag_len, bool out_large,
                     nb::handle alloc, nb::handle threads, nb::handle backend) {
  const lwc::algorithm& a = entry_at(index, true);
  const held_buffer values(values_obj, "values", true), offsets(offsets_obj, "offsets"),
      keys(keys_obj, "keys"), nonces(nonces_obj, "nonces"),
      second(second_obj, "second_keys", true), run_mask(run_obj, "rows", true),
      ad(ad_obj, "associated_data", true),
      ad_offsets(ad_offsets_obj, "associated_data offsets", true),
      ad_valid(ad_valid_obj, "associated_data validity", true);
  // lwc/arrow.py passes a checked tag length; the pass below sizes the result with it before
  // the engine sees it.
  if (tag_len < a.min_tag_size || tag_len > a.tag_size)
    value_error(str(a.name) + ": tag length " + num(tag_len) + " outside " + num(a.min_tag_size) +
                ".." + num(a.tag_size));
  column_buffers cols;
  lwc::batch::packed_aead_jobs jobs;
  std::size_t n = 0;
  jobs.in = arrow_column(a, values, offsets, large, "messages", n);
  jobs.keys = key_rows(cols, keys, n, a.key_size, "keys");
  // One nonce for every row is for decrypting only: encrypting would reuse it.
  if (!decrypt && n > 1 && nonces.size() == a.nonce_size)
    value_error("nonces: one value for " + num(n) + " rows would encrypt every row under the same "
                "nonce; give one nonce per row");
  jobs.nonces = key_rows(cols, nonces, n, a.nonce_size, "nonces");
  if (second.present()) jobs.second_keys = key_rows(cols, second, n, a.second_key_size, "second_keys");
  const std::uint8_t* ad_ok = nullptr;  // null: every entry valid
  if (ad_offsets.present()) {
    std::size_t n_ad = 0;
    jobs.ad = arrow_column(a, ad, ad_offsets, ad_large, "associated_data", n_ad);
    if (n_ad != n) value_error("associated_data: " + num(n_ad) + " entries for " + num(n) + " rows");
    if (ad_valid.present()) {
      if (ad_valid.size() != n) value_error("associated_data validity: one byte per row expected");
      ad_ok = ad_valid.data();
    }
  }
  const std::uint8_t* run = nullptr;
  if (run_mask.present()) {
    if (run_mask.size() != n) value_error("rows: one byte per row expected");
    run = run_mask.data();
  }

  // Which rows run, and the result's size (and so the width of its offsets).
  const reader<const std::uint8_t> in(jobs.in);
  bool all_run = true;
  std::vector<std::size_t> rows;  // the rows that run, listed once some row does not
  bool null_ad_holds_bytes = false;
  std::uint64_t total = 0;
  if (run == nullptr && ad_ok == nullptr && !decrypt) {
    // Every row runs: the values the offsets span, and a tag per row (no pass over the rows).
    const auto span =
        n == 0 ? std::size_t{0} : static_cast<std::size_t>(in[n - 1].data + in[n - 1].size - in[0].data);
    total = checked_add(span, checked_mul(n, tag_len, "result"), "result");
  } else {
    nb::gil_scoped_release unlocked;
    const reader<const std::uint8_t> ad_rows(jobs.ad);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t len = in[i].size;
      if ((run != nullptr && run[i] == 0) || (decrypt && len < tag_len)) {
        if (all_run) {
          all_run = false;
          rows.reserve(n);
          for (std::size_t k = 0; k < i; ++k) rows.push_back(k);
        }
        continue;
      }
      if (!all_run) rows.push_back(i);
      if (ad_ok != nullptr && ad_ok[i] == 0 && ad_rows[i].size != 0) null_ad_holds_bytes = true;
      total += decrypt ? len - tag_len : len + tag_len;
    }
  }
  const auto runs = [&](std::size_t i, std::size_t& next) {
    if (all_run) return true;
    if (next < rows.size() && rows[next] == i) {
      ++next;
      return true;
    }
    return false;
  };
  // A result past 32-bit offsets gets 64-bit ones (pa.large_binary), whatever the input had.
  if (total > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) out_large = true;
  nb::object out_obj = alloc(static_cast<std::size_t>(total));
  const std::size_t out_offsets_size = checked_mul(checked_add(n, 1, "result offsets"), out_large ? 8 : 4, "result offsets");
  nb::object off_obj = alloc(out_offsets_size);
  nb::object ok_obj = nb::none();
  std::uint8_t* ok = nullptr;
  if (decrypt) {
    ok_obj = new_bytes(n, ok);
    std::memset(ok, 0, n);
  }
  const held_buffer& out = cols.hold(out_obj, "result values", held_buffer::writable);
  const held_buffer& out_off = cols.hold(off_obj, "result offsets", held_buffer::writable);
  if (out.size() < total || out_off.size() < out_offsets_size) value_error("alloc returned a buffer too small");
  std::uint8_t* const off = out_off.mutable_data();
  const auto set_off = [off, out_large](std::size_t i, std::uint64_t v) {
    if (out_large) {
      const auto w = static_cast<std::int64_t>(v);
      std::memcpy(off + 8 * i, &w, 8);
    } else {
      const auto w = static_cast<std::int32_t>(v);
      std::memcpy(off + 4 * i, &w, 4);
    }
  };
  const auto get_off = [off, out_large](std::size_t i) -> std::uint64_t {
    if (out_large) {
      std::int64_t v;
      std::memcpy(&v, off + 8 * i, 8);
      return static_cast<std::uint64_t>(v);
    }
    std::int32_t v;
    std::memcpy(&v, off + 4 * i, 4);
    return static_cast<std::uint32_t>(v);
  };

  std::string backend_name;
  const lwc::batch::options opt = engine_options(threads, backend, backend_name);
  std::size_t used = static_cast<std::size_t>(total);
  gathered g;
  std::vector<std::uint64_t> sub_out_off;
  std::vector<std::uint8_t> sub_ok;
  try {
    nb::gil_scoped_release unlocked;
    // The result's offsets, written in place (rows that do not run are empty).
    if (all_run) {
      // Row i starts where its input does, less the first row's start, plus or minus i tags:
      // one typed pass.
      lwc::jobs::columns::with_offset_type(jobs.in.offset_kind, [&](auto zero) {
        using T = decltype(zero);
        const auto first = static_cast<std::uint64_t>(lwc::jobs::columns::entry<T>(jobs.in.offsets, 0));
        const auto write = [&](auto out_zero) {
          using O = decltype(out_zero);
          for (std::size_t i = 0; i <= n; ++i) {
            const std::uint64_t start =
                static_cast<std::uint64_t>(lwc::jobs::columns::entry<T>(jobs.in.offsets, i)) - first;
            const std::uint64_t tags = static_cast<std::uint64_t>(i) * tag_len;
            const auto v = static_cast<O>(decrypt ? start - tags : start + tags);
            std::memcpy(off + sizeof(O) * i, &v, sizeof(O));
          }
        };
        if (out_large) write(std::int64_t{});
        else write(std::int32_t{});
      });
    } else {
      std::uint64_t p = 0;
      std::size_t next = 0;
      for (std::size_t i = 0; i < n; ++i) {
        set_off(i, p);
        if (!runs(i, next)) continue;
        const std::size_t len = in[i].size;
        p += decrypt ? len - tag_len : len + tag_len;
      }
      set_off(n, p);
    }
    jobs.tags = lwc::jobs::tag_place::appended;
    if (all_run && !null_ad_holds_bytes) {
      // Every row runs: the column's own buffers, and the result's offsets, as they are.
      jobs.count = n;
      jobs.out = out_large ? lwc::jobs::out_column::with_offsets<std::int64_t>(
                                 {out.mutable_data(), static_cast<std::size_t>(total)},
                                 {reinterpret_cast<const std::int64_t*>(off), n + 1})
                           : lwc::jobs::out_column::with_offsets<std::int32_t>(
                                 {out.mutable_data(), static_cast<std::size_t>(total)},
                                 {reinterpret_cast<const std::int32_t*>(off), n + 1});
      if (decrypt) (void)lwc::batch::decrypt(a, jobs, {ok, n}, tag_len, opt);
      else lwc::batch::encrypt(a, jobs, tag_len, opt);
    } else {
      if (all_run) {
        rows.resize(n);
        for (std::size_t i = 0; i < n; ++i) rows[i] = i;
      }
      const std::size_t m = rows.size();
      jobs.count = m;
      jobs.keys = gather_fixed(g.keys, jobs.keys, a.key_size, rows);
      jobs.nonces = gather_fixed(g.nonces, jobs.nonces, a.nonce_size, rows);
      if (!jobs.second_keys.absent())
        jobs.second_keys = gather_fixed(g.second, jobs.second_keys, a.second_key_size, rows);
      if (!jobs.ad.absent()) jobs.ad = gather_var(g.ad, g.ad_off, jobs.ad, rows, ad_ok);
      jobs.in = gather_var(g.in, g.in_off, jobs.in, rows, nullptr);
      // Rows that do not run are empty in the result: job k's output ends where row
      // rows[k] + 1 starts.
      sub_out_off.resize(m + 1);
      for (std::size_t k = 0; k < m; ++k) sub_out_off[k] = get_off(rows[k]);
      sub_out_off[m] = m != 0 ? get_off(rows[m - 1] + 1) : 0;
      jobs.out = lwc::jobs::out_column::with_offsets<std::uint64_t>(
          {out.mutable_data(), static_cast<std::size_t>(total)}, sub_out_off);
      if (decrypt) {
        sub_ok.resize(m);
        (void)lwc::batch::decrypt(a, jobs, sub_ok, tag_len, opt);
        for (std::size_t k = 0; k < m; ++k) ok[rows[k]] = sub_ok[k];
      } else {
        lwc::batch::encrypt(a, jobs, tag_len, opt);
      }
    }
    if (decrypt) {
      // Rows that did not verify (zeroed by the engine) leave the values buffer: the verified
      // plaintexts move down over them, and the tail they leave is zeroed.
      std::uint8_t* const values_out = out.mutable_data();
      std::uint64_t w = 0, from = get_off(0);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t to = get_off(i + 1), len = to - from;
        set_off(i, w);
        if (ok[i] != 0) {
          if (w != from) std::memmove(values_out + w, values_out + from, static_cast<std::size_t>(len));
          w += len;
        }
        from = to;
      }
      set_off(n, w);
      if (w != total) std::memset(values_out + w, 0, static_cast<std::size_t>(total - w));
      used = static_cast<std::size_t>(w);
    }
  } catch (const std::invalid_argument& e) {
    value_error(e.what());
  }
  return nb::make_tuple(out_obj, off_obj, ok_obj, used, out_large);
}

}  // namespace

void register_arrow_columns(nb::module_& m) {
  m.def("_arrow_aead", &arrow_aead, "decrypt"_a, "index"_a, "keys"_a, "nonces"_a,
        "second_keys"_a.none(), "values"_a.none(), "offsets"_a, "large"_a, "rows"_a.none(),
        "ad"_a.none(), "ad_offsets"_a.none(), "ad_large"_a, "ad_valid"_a.none(), "tag_len"_a,
        "out_large"_a, "alloc"_a, "threads"_a.none(), "backend"_a.none());
}

}  // namespace lwc::python
