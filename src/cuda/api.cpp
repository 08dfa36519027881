// SPDX-License-Identifier: MIT OR Apache-2.0
// The C++ API of the CUDA engine (<lwc/cuda.hpp>): argument checks (the messages of the CPU
// batch engine), the device-pointer calls that only queue a kernel, and the host-memory calls
// that run the chunked pipeline of pipeline.hpp over the CUDA runtime. Host code only: the
// kernels are in the .cu files, reached through launch.hpp.
#include <lwc/cuda.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../jobs/checks.hpp"
#include "launch.hpp"
#include "pipeline.hpp"
#include "pipeline_pool.hpp"

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

// ---- argument checks (shared with the CPU engine) ------------------------------------------

const algo_info& info_of(const lwc::algorithm& a) { return algo_table[lwc::index_of(a)]; }

// ---- the CUDA backend of the pipeline --------------------------------------------------------

// Pipelines kept per device between calls (see pipeline_pool.hpp): enough for a few threads
// calling at once with the default settings.
constexpr std::size_t max_kept_pipelines = 4;

struct cuda_backend {
  using stream = cudaStream_t;

  void* alloc_host(std::size_t n) {
    void* p = nullptr;
    check(cudaMallocHost(&p, n), "cudaMallocHost (pinned staging buffer)");
    return p;
  }
  void free_host(void* p) noexcept { (void)cudaFreeHost(p); }
  void zero_host(void* p, std::size_t n) noexcept { secure_wipe(p, n); }
  void* alloc_device(std::size_t n) {
    void* p = nullptr;
    check(cudaMalloc(&p, n), "cudaMalloc (device staging buffer)");
    return p;
  }
  void free_device(void* p) noexcept { (void)cudaFree(p); }
  void zero_device_async(void* p, std::size_t n, stream s) {
    check(cudaMemsetAsync(p, 0, n, s), "cudaMemsetAsync (wiping a device staging buffer)");
  }
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
    check(static_cast<cudaError_t>(launchers().aead[id](decrypt, b, s)), "kernel launch");
  }
  void run_sponge(algo id, const sponge_batch& b, stream s) {
    check(static_cast<cudaError_t>(launchers().sponge[id](b, s)), "kernel launch");
  }
  void wait(stream s) { check(cudaStreamSynchronize(s), "running the batch"); }
  void wait_noexcept(stream s) noexcept { (void)cudaStreamSynchronize(s); }
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
  const pipeline_options po =
      pipeline_options_for(opt.streams, opt.chunk_bytes, opt.copy_threads, std::thread::hardware_concurrency());
  // Never destroyed: CUDA resources are not released from static destructors, which may run
  // after the runtime has shut down.
  static auto* pool = new pipeline_pool<cuda_backend>(max_kept_pipelines);
  pool->run(device, po, jobs);
}

}  // namespace

const launch_table& launchers() {
  static const launch_table table = [] {
    launch_table t;
    [&]<std::size_t... Shard>(std::index_sequence<Shard...>) {
      (add_shard<Shard>(t), ...);
    }(std::make_index_sequence<kernel_shards>{});
    return t;
  }();
  return table;
}

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

namespace {

namespace checks = lwc::jobs::checks;

// The kernels take one output length per batch: a hash form's offset output column must give
// every job the same length.
std::size_t uniform_output_length(const lwc::algorithm& a, const jobs::packed_hash_jobs& f) {
  if (f.count == 0) return 0;
  const jobs::columns::reader<std::uint8_t> out(f.out);
  const std::size_t len = out[0].size;
  for (std::size_t i = 1; i < f.count; ++i)
    if (out[i].size != len)
      checks::fail_job(a, i, "output of " + std::to_string(out[i].size) + " bytes; the CUDA engine takes " +
                                 "one output length per batch (job 0: " + std::to_string(len) + ")");
  return len;
}

}  // namespace

void encrypt_async(algorithm_ref algorithm, const jobs::packed_aead_jobs& jobs, std::size_t tag_len,
                   stream_t stream) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  tag_len = checks::tag_length(a, tag_len);
  checks::aead_form(a, jobs, tag_len, false, nullptr, 0, checks::memory::device);
  require_device();
  const aead_batch b = form_batch(info_of(a), jobs, tag_len, nullptr);
  check(static_cast<cudaError_t>(launchers().aead[lwc::index_of(a)](false, b, stream)), "kernel launch");
}

void decrypt_async(algorithm_ref algorithm, const jobs::packed_aead_jobs& jobs,
                   std::span<std::uint8_t> ok, std::size_t tag_len, stream_t stream) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  tag_len = checks::tag_length(a, tag_len);
  checks::aead_form(a, jobs, tag_len, true, ok.data(), ok.size(), checks::memory::device);
  require_device();
  const aead_batch b = form_batch(info_of(a), jobs, tag_len, ok.data());
  check(static_cast<cudaError_t>(launchers().aead[lwc::index_of(a)](true, b, stream)), "kernel launch");
}

void hash_async(algorithm_ref algorithm, const jobs::packed_hash_jobs& jobs, stream_t stream) {
  const lwc::algorithm& a = checks::resolve(algorithm, false);
  checks::hash_form(a, jobs, checks::memory::device);
  require_device();
  const sponge_batch b = form_batch(info_of(a), jobs);
  check(static_cast<cudaError_t>(launchers().sponge[lwc::index_of(a)](b, stream)), "kernel launch");
}

void encrypt_packed(algorithm_ref algorithm, const jobs::packed_aead_inputs& in, bytes_span out,
                    bytes_span tags, std::size_t tag_len, const host_options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  tag_len = checks::tag_length(a, tag_len);
  checks::packed_aead(a, in, out.size(), tags.size(), tag_len, nullptr, checks::memory::host);
  require_device();
  const std::size_t n = in.in.count();
  if (n == 0) return;
  run_on_host(packed_job_set(&info_of(a), false, n, tag_len, in.keys.data(), in.nonces.data(),
                             in.second_keys.empty() ? nullptr : in.second_keys.data(),
                             in.in.data.data(), in.in.offsets.data(),
                             in.ad.offsets.empty() ? nullptr : in.ad.data.data(),
                             in.ad.offsets.empty() ? nullptr : in.ad.offsets.data(), out.data(),
                             tags.data(), nullptr),
              opt);
}

std::size_t decrypt_packed(algorithm_ref algorithm, const jobs::packed_aead_inputs& in,
                           bytes_view tags, bytes_span out, std::span<std::uint8_t> ok,
                           std::size_t tag_len, const host_options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  tag_len = checks::tag_length(a, tag_len);
  const std::size_t ok_size = ok.size();
  checks::packed_aead(a, in, out.size(), tags.size(), tag_len, &ok_size, checks::memory::host);
  require_device();
  const std::size_t n = in.in.count();
  if (n == 0) return 0;
  // Decryption only reads the tags.
  run_on_host(packed_job_set(&info_of(a), true, n, tag_len, in.keys.data(), in.nonces.data(),
                             in.second_keys.empty() ? nullptr : in.second_keys.data(),
                             in.in.data.data(), in.in.offsets.data(),
                             in.ad.offsets.empty() ? nullptr : in.ad.data.data(),
                             in.ad.offsets.empty() ? nullptr : in.ad.offsets.data(), out.data(),
                             const_cast<std::uint8_t*>(tags.data()), ok.data()),
              opt);
  return static_cast<std::size_t>(std::count(ok.begin(), ok.end(), std::uint8_t{1}));
}

void hash_packed(algorithm_ref algorithm, const jobs::packed_hash_inputs& in, bytes_span out,
                 std::size_t out_len, const host_options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, false);
  checks::packed_hash(a, in, out.size(), out_len, checks::memory::host);
  require_device();
  const std::size_t n = in.in.count();
  if (n == 0) return;
  const bool custom = !in.customization.offsets.empty();
  run_on_host(packed_job_set(&info_of(a), n, out_len, in.in.data.data(), in.in.offsets.data(),
                             out.data(), in.keys.empty() ? nullptr : in.keys.data(),
                             custom ? in.customization.data.data() : nullptr,
                             custom ? in.customization.offsets.data() : nullptr),
              opt);
}

void encrypt(algorithm_ref algorithm, const jobs::packed_aead_jobs& jobs, std::size_t tag_len,
             const host_options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  tag_len = checks::tag_length(a, tag_len);
  checks::aead_form(a, jobs, tag_len, false, nullptr, 0);
  require_device();
  if (jobs.count == 0) return;
  run_on_host(host_aead_job_set{&info_of(a), false, tag_len, jobs, nullptr}, opt);
}

std::size_t decrypt(algorithm_ref algorithm, const jobs::packed_aead_jobs& jobs,
                    std::span<std::uint8_t> ok, std::size_t tag_len, const host_options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  tag_len = checks::tag_length(a, tag_len);
  checks::aead_form(a, jobs, tag_len, true, ok.data(), ok.size());
  require_device();
  if (jobs.count == 0) return 0;
  run_on_host(host_aead_job_set{&info_of(a), true, tag_len, jobs, ok.data()}, opt);
  return static_cast<std::size_t>(std::count(ok.begin(), ok.end(), std::uint8_t{1}));
}

void hash(algorithm_ref algorithm, const jobs::packed_hash_jobs& jobs, const host_options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, false);
  checks::hash_form(a, jobs);
  const std::size_t out_len = uniform_output_length(a, jobs);
  require_device();
  if (jobs.count == 0) return;
  run_on_host(host_sponge_job_set{&info_of(a), out_len, jobs}, opt);
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
