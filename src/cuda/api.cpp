// The C++ API of the CUDA engine (<lwc/cuda.hpp>): argument checks (the messages of the CPU
// batch engine), the device-pointer calls that only queue a kernel, and the host-memory calls
// that run the chunked pipeline of pipeline.hpp over the CUDA runtime. Host code only: the
// kernels are in the .cu files, reached through launch.hpp.
#include <lwc/cuda.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "launch.hpp"
#include "pipeline.hpp"

namespace lwc::cuda {

namespace detail {
namespace {

std::string cuda_message(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  throw error(std::string("lwc::cuda: ") + what + " failed (" + cuda_message(e) + ")");
}

struct probe_result {
  int count = 0;
  std::string why;  // when count == 0
};

const probe_result& probe() {
  static const probe_result r = [] {
    probe_result p;
    const cudaError_t e = cudaGetDeviceCount(&p.count);
    if (e != cudaSuccess) {
      p.count = 0;
      p.why = cuda_message(e);
      (void)cudaGetLastError();
    } else if (p.count == 0) {
      p.why = "the driver reports no device";
    }
    return p;
  }();
  return r;
}

void require_device() {
  if (probe().count == 0) throw no_device("lwc::cuda: no CUDA device is available (" + probe().why + ")");
}

// ---- argument checks -------------------------------------------------------------------------

[[noreturn]] void fail(std::string_view alg, const std::string& what) {
  throw std::invalid_argument(std::string(alg) + ": " + what);
}

const algo_info& find(std::string_view name, bool want_aead) {
  const algo_info* a = find_algo(name);
  if (a == nullptr)
    throw std::invalid_argument("algorithm '" + std::string(name) + "' is not supported by the CUDA engine");
  if (a->aead != want_aead) fail(name, want_aead ? "not an AEAD algorithm" : "not a hash or XOF algorithm");
  return *a;
}

void expect_size(std::string_view alg, const char* what, std::size_t got, std::size_t want) {
  if (got != want)
    fail(alg, std::string(what) + " must be " + std::to_string(want) + " bytes, got " + std::to_string(got));
}

void check_offset_count(std::string_view alg, const char* what, std::span<const std::size_t> off,
                        std::size_t n) {
  if (off.size() != n + 1 && !(n == 0 && off.empty()))
    fail(alg, std::string(what) + " offsets: " + std::to_string(n + 1) + " entries needed, got " +
                  std::to_string(off.size()));
}

// Host memory only: the values can be read.
void check_offset_values(std::string_view alg, const char* what, std::span<const std::size_t> off,
                         std::size_t n, std::size_t data_size) {
  for (std::size_t i = 0; i < n; ++i)
    if (off[i + 1] < off[i]) fail(alg, std::string(what) + " offsets decrease at entry " + std::to_string(i + 1));
  if (n != 0 && off[n] > data_size)
    fail(alg, std::string(what) + " offsets run past the end of the data (" + std::to_string(off[n]) +
                  " > " + std::to_string(data_size) + ")");
}

void check_tag_len(const algo_info& a, std::size_t tag_len) {
  if (tag_len < a.min_tag_size || tag_len > a.max_tag_size)
    fail(a.name, "tag length must be " +
                     (a.min_tag_size == a.max_tag_size
                          ? std::to_string(a.max_tag_size)
                          : std::to_string(a.min_tag_size) + " to " + std::to_string(a.max_tag_size)) +
                     " bytes, got " + std::to_string(tag_len));
}

// batch::full_tag stands for the algorithm's full tag.
std::size_t resolve_tag_len(std::string_view name, std::size_t tag_len) {
  if (tag_len != batch::full_tag) return tag_len;
  const algo_info* a = find_algo(name);
  return a != nullptr ? a->max_tag_size : tag_len;
}

// Sizes common to both memory kinds; values too when `host`.
const algo_info& check_aead(std::string_view name, const batch::packed_aead_inputs& in,
                            std::size_t out_size, std::size_t tags_size, std::size_t tag_len,
                            const std::size_t* ok_size, bool host) {
  const algo_info& a = find(name, true);
  check_tag_len(a, tag_len);
  const std::size_t n = in.in.count();
  check_offset_count(a.name, "message", in.in.offsets, n);
  const bool has_ad = !in.ad.offsets.empty();
  if (has_ad) check_offset_count(a.name, "associated data", in.ad.offsets, n);
  if (host) {
    check_offset_values(a.name, "message", in.in.offsets, n, in.in.data.size());
    if (has_ad) check_offset_values(a.name, "associated data", in.ad.offsets, n, in.ad.data.size());
  }
  if (in.keys.size() != n * a.key_size)
    fail(a.name, "keys must be " + std::to_string(n * a.key_size) + " bytes, got " + std::to_string(in.keys.size()));
  if (in.nonces.size() != n * a.nonce_size)
    fail(a.name, "nonces must be " + std::to_string(n * a.nonce_size) + " bytes, got " +
                     std::to_string(in.nonces.size()));
  if (!in.second_keys.empty()) {
    if (!a.nonce_masking) fail(a.name, "nonce masking is not supported");
    if (in.second_keys.size() != n * 16)
      fail(a.name, "second keys must be " + std::to_string(n * 16) + " bytes, got " +
                       std::to_string(in.second_keys.size()));
  }
  // Device offsets cannot be read here: the output must then cover all of the input buffer.
  const std::size_t need = host ? (n != 0 ? in.in.offsets[n] : 0) : in.in.data.size();
  if (n != 0 && out_size < need)
    fail(a.name, "output buffer must hold " + std::to_string(need) + " bytes, got " + std::to_string(out_size));
  if (tags_size != n * tag_len)
    fail(a.name, "tags must be " + std::to_string(n * tag_len) + " bytes, got " + std::to_string(tags_size));
  if (ok_size != nullptr && *ok_size != n)
    fail(a.name, "ok flags: " + std::to_string(n) + " needed, got " + std::to_string(*ok_size));
  return a;
}

const algo_info& check_sponge(std::string_view name, const batch::packed& in, std::size_t out_size,
                              std::size_t out_len, bool host) {
  const algo_info& a = find(name, false);
  const std::size_t n = in.count();
  check_offset_count(a.name, "message", in.offsets, n);
  if (host) check_offset_values(a.name, "message", in.offsets, n, in.data.size());
  if (n != 0 && a.fixed_output != 0) expect_size(a.name, "digest length", out_len, a.fixed_output);
  if (out_size != n * out_len)
    fail(a.name, "output buffer must be " + std::to_string(n * out_len) + " bytes, got " + std::to_string(out_size));
  return a;
}

aead_batch device_batch(const batch::packed_aead_inputs& in, std::uint8_t* out, std::uint8_t* tags,
                        std::uint8_t* ok, std::size_t tag_len) {
  aead_batch b{};
  b.keys = in.keys.data();
  b.nonces = in.nonces.data();
  b.second_keys = in.second_keys.empty() ? nullptr : in.second_keys.data();
  b.in = in.in.data.data();
  b.in_off = in.in.offsets.data();
  if (!in.ad.offsets.empty()) {
    b.ad = in.ad.data.data();
    b.ad_off = in.ad.offsets.data();
  }
  b.out = out;
  b.tags = tags;
  b.ok = ok;
  b.count = in.in.count();
  b.tag_len = static_cast<std::uint32_t>(tag_len);
  return b;
}

// ---- the CUDA backend of the pipeline --------------------------------------------------------

struct cuda_backend {
  using stream = cudaStream_t;

  void* alloc_host(std::size_t n) {
    void* p = nullptr;
    check(cudaMallocHost(&p, n), "cudaMallocHost (pinned staging buffer)");
    return p;
  }
  void free_host(void* p) noexcept { (void)cudaFreeHost(p); }
  void* alloc_device(std::size_t n) {
    void* p = nullptr;
    check(cudaMalloc(&p, n), "cudaMalloc (device staging buffer)");
    return p;
  }
  void free_device(void* p) noexcept { (void)cudaFree(p); }
  stream make_stream() {
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    return s;
  }
  void destroy_stream(stream s) noexcept { (void)cudaStreamDestroy(s); }
  bool is_pinned(const void* p) const {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return a.type == cudaMemoryTypeHost;
  }
  void h2d(void* dst, const void* src, std::size_t n, stream s) {
    if (n != 0) check(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync to the device");
  }
  void d2h(void* dst, const void* src, std::size_t n, stream s) {
    if (n != 0) check(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync to the host");
  }
  void run_aead(algo id, bool decrypt, const aead_batch& b, stream s) {
    check(static_cast<cudaError_t>(launch_aead(id, decrypt, b, s)), "kernel launch");
  }
  void run_sponge(algo id, const sponge_batch& b, stream s) {
    check(static_cast<cudaError_t>(launch_sponge(id, b, s)), "kernel launch");
  }
  void wait(stream s) { check(cudaStreamSynchronize(s), "running the batch"); }
  void wait_noexcept(stream s) noexcept { (void)cudaStreamSynchronize(s); }
};

// Pipelines keep their streams and pinned buffers between calls (allocating pinned memory
// costs far more than a batch); one per device and options, one caller at a time each. They
// live until the process ends: CUDA resources are not released from static destructors,
// which may run after the runtime has shut down.
struct pooled_pipeline {
  int device;
  pipeline_options opt;
  cuda_backend be;
  std::unique_ptr<pipeline<cuda_backend>> p;
  bool busy = false;
};

class device_guard {
 public:
  explicit device_guard(int device) {
    check(cudaGetDevice(&previous_), "cudaGetDevice");
    if (device >= 0 && device != previous_) {
      check(cudaSetDevice(device), "cudaSetDevice");
      changed_ = true;
    }
  }
  ~device_guard() {
    if (changed_) (void)cudaSetDevice(previous_);
  }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_ = 0;
  bool changed_ = false;
};

template <class Jobs>
void run_on_host(const Jobs& jobs, const host_options& opt) {
  require_device();
  device_guard guard(opt.device);
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  pipeline_options po;
  po.streams = std::clamp(opt.streams, 1u, 16u);
  po.chunk_bytes = opt.chunk_bytes;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  po.copy_threads = opt.copy_threads != 0 ? opt.copy_threads : std::clamp(hw / 2, 1u, 8u);

  static std::mutex m;
  static auto* pool = new std::vector<std::unique_ptr<pooled_pipeline>>();
  pooled_pipeline* mine = nullptr;
  {
    std::lock_guard<std::mutex> lock(m);
    for (auto& p : *pool) {
      if (!p->busy && p->device == device && p->opt.streams == po.streams &&
          p->opt.chunk_bytes == po.chunk_bytes && p->opt.copy_threads == po.copy_threads) {
        mine = p.get();
        break;
      }
    }
    if (mine == nullptr) {
      pool->push_back(std::make_unique<pooled_pipeline>(pooled_pipeline{device, po, {}, nullptr, false}));
      mine = pool->back().get();
    }
    mine->busy = true;
  }
  const auto give_back = [&] {
    std::lock_guard<std::mutex> lock(m);
    mine->busy = false;
  };
  try {
    if (!mine->p) mine->p = std::make_unique<pipeline<cuda_backend>>(mine->be, po);
    mine->p->run(jobs);
  } catch (...) {
    give_back();
    throw;
  }
  give_back();
}

}  // namespace
}  // namespace detail

using namespace detail;

bool available() noexcept { return probe().count > 0; }

int device_count() noexcept { return probe().count; }

std::string device_description(int device) {
  require_device();
  if (device < 0) check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
         std::to_string(p.multiProcessorCount) + " SMs)";
}

std::span<const std::string_view> algorithms() noexcept { return algo_names; }

bool supports(std::string_view algorithm) noexcept { return find_algo(algorithm) != nullptr; }

void encrypt_packed_async(std::string_view algorithm, const batch::packed_aead_inputs& in,
                          bytes_span out, bytes_span tags, std::size_t tag_len, stream_t stream) {
  tag_len = resolve_tag_len(algorithm, tag_len);
  const algo_info& a = check_aead(algorithm, in, out.size(), tags.size(), tag_len, nullptr, false);
  require_device();
  const aead_batch b = device_batch(in, out.data(), tags.data(), nullptr, tag_len);
  check(static_cast<cudaError_t>(launch_aead(a.id, false, b, stream)), "kernel launch");
}

void decrypt_packed_async(std::string_view algorithm, const batch::packed_aead_inputs& in,
                          bytes_view tags, bytes_span out, std::span<std::uint8_t> ok,
                          std::size_t tag_len, stream_t stream) {
  tag_len = resolve_tag_len(algorithm, tag_len);
  const std::size_t ok_size = ok.size();
  const algo_info& a = check_aead(algorithm, in, out.size(), tags.size(), tag_len, &ok_size, false);
  require_device();
  // The kernel only reads the tags when decrypting.
  const aead_batch b = device_batch(in, out.data(), const_cast<std::uint8_t*>(tags.data()), ok.data(), tag_len);
  check(static_cast<cudaError_t>(launch_aead(a.id, true, b, stream)), "kernel launch");
}

void hash_packed_async(std::string_view algorithm, const batch::packed& in, bytes_span out,
                       std::size_t out_len, stream_t stream) {
  const algo_info& a = check_sponge(algorithm, in, out.size(), out_len, false);
  require_device();
  sponge_batch b{};
  b.in = in.data.data();
  b.in_off = in.offsets.data();
  b.out = out.data();
  b.out_len = out_len;
  b.count = in.count();
  check(static_cast<cudaError_t>(launch_sponge(a.id, b, stream)), "kernel launch");
}

namespace {
host_aead_job_set host_jobs(const algo_info& a, bool decrypt, const batch::packed_aead_inputs& in,
                            std::uint8_t* out, std::uint8_t* tags, std::uint8_t* ok, std::size_t tag_len) {
  const bool ad = !in.ad.offsets.empty();
  return {&a,
          decrypt,
          in.in.count(),
          tag_len,
          in.keys.data(),
          in.nonces.data(),
          in.second_keys.empty() ? nullptr : in.second_keys.data(),
          in.in.data.data(),
          in.in.offsets.data(),
          ad ? in.ad.data.data() : nullptr,
          ad ? in.ad.offsets.data() : nullptr,
          out,
          tags,
          ok};
}
}  // namespace

void encrypt_packed(std::string_view algorithm, const batch::packed_aead_inputs& in, bytes_span out,
                    bytes_span tags, std::size_t tag_len, const host_options& opt) {
  tag_len = resolve_tag_len(algorithm, tag_len);
  const algo_info& a = check_aead(algorithm, in, out.size(), tags.size(), tag_len, nullptr, true);
  require_device();
  if (in.in.count() == 0) return;
  run_on_host(host_jobs(a, false, in, out.data(), tags.data(), nullptr, tag_len), opt);
}

std::size_t decrypt_packed(std::string_view algorithm, const batch::packed_aead_inputs& in,
                           bytes_view tags, bytes_span out, std::span<std::uint8_t> ok,
                           std::size_t tag_len, const host_options& opt) {
  tag_len = resolve_tag_len(algorithm, tag_len);
  const std::size_t ok_size = ok.size();
  const algo_info& a = check_aead(algorithm, in, out.size(), tags.size(), tag_len, &ok_size, true);
  require_device();
  if (in.in.count() == 0) return 0;
  run_on_host(host_jobs(a, true, in, out.data(), const_cast<std::uint8_t*>(tags.data()), ok.data(), tag_len),
              opt);
  return static_cast<std::size_t>(std::count(ok.begin(), ok.end(), std::uint8_t{1}));
}

void hash_packed(std::string_view algorithm, const batch::packed& in, bytes_span out, std::size_t out_len,
                 const host_options& opt) {
  const algo_info& a = check_sponge(algorithm, in, out.size(), out_len, true);
  require_device();
  if (in.count() == 0) return;
  run_on_host(host_sponge_job_set{&a, in.count(), out_len, in.data.data(), in.offsets.data(), out.data()}, opt);
}

pinned_buffer::pinned_buffer(std::size_t size) {
  require_device();
  void* p = nullptr;
  check(cudaMallocHost(&p, size == 0 ? 1 : size), "cudaMallocHost");
  mem_.reset(static_cast<std::uint8_t*>(p));
  size_ = size;
}

void pinned_buffer::release::operator()(std::uint8_t* p) const noexcept { (void)cudaFreeHost(p); }

}  // namespace lwc::cuda
