// dhseqr, dgeev and zheev from host memory on the GPU backend: the streamed pipeline
// (cuda/drivers/eig.cpp, through cuda/stream/engine.cpp) cuts the batch into pieces (SGPU_EIG_PIECE_BYTES is set small by CTest,
// and SGPU_STAGE_CHUNK_BYTES smaller, so that staged pieces move in sub-pieces), from pageable
// and from pinned memory, and must give bitwise the results of the same call on device memory (whose
// accuracy the conformance suite checks): every output element written, the gaps inside and
// between matrices untouched, and one matrix holding NaN failing alone (info > 0) while all the
// others converge. Skips (77) without a GPU.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "sgpu.h"

#include "gpu_expect.hpp"

namespace {

constexpr double kSentinel = -7.25;
// zheev's block path applies Q by batched ZGEMMs in cuBLAS from this order
// (cuda/kernels/heev_block.cu, kGemmApplyMinN), where libcublas can be loaded.
constexpr int kCublasMinN = 33;

// Where an operand lives during one call.
enum Where { kPageable, kPinned, kDevice };
const char* where_name(Where w) { return w == kPageable ? "pageable" : w == kPinned ? "pinned" : "device"; }

// A host image of one operand, put where a run wants it and read back after.
template <class T>
struct Buf {
  std::vector<T> host;
  T* p = nullptr;
  Where w = kPageable;
  T* place(Where where) {
    w = where;
    if (w == kPageable) return host.data();
    if (w == kPinned) {
      CUDA_OK(cudaMallocHost(&p, sizeof(T) * host.size()));
      std::memcpy(p, host.data(), sizeof(T) * host.size());
    } else {
      CUDA_OK(cudaMalloc(&p, sizeof(T) * host.size()));
      CUDA_OK(cudaMemcpy(p, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice));
    }
    return p;
  }
  std::vector<T> result() {
    std::vector<T> r(host);
    if (w == kPinned) {
      std::memcpy(r.data(), p, sizeof(T) * r.size());
      cudaFreeHost(p);
    } else if (w == kDevice) {
      CUDA_OK(cudaMemcpy(r.data(), p, sizeof(T) * r.size(), cudaMemcpyDeviceToHost));
      cudaFree(p);
    }
    p = nullptr;
    return r;
  }
};

struct Outputs {
  std::vector<double> a, wr, wi, z, vl;
  std::vector<int> info;
  int status = 0;
};

bool same_bits(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), sizeof(double) * x.size()) == 0;
}

// One case: routine (dhseqr job/compz or dgeev jobvl/jobvr), order n, packed with ld = n + 1 (gaps
// inside each matrix, none between), eigenvalues strideW = n + 2 (gaps between).
void run_case(sgpu_context_t gpu, bool geev, char f1, char f2, int n, int64_t batch, int bad) {
  const int ld = n + 1;
  const int64_t sM = (int64_t)ld * n, sW = n + 2;
  std::mt19937_64 g(4242 + n);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a0(batch * sM, kSentinel), z0(batch * sM, kSentinel);
  for (int64_t b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        a0[b * sM + i + j * ld] = (!geev && i > j + 1) ? 0.0 : u(g);  // dhseqr: upper Hessenberg
        z0[b * sM + i + j * ld] = u(g);
      }
  a0[bad * sM + (n / 2) + (n / 2) * ld] = NAN;
  const bool want_z = geev ? f2 == 'V' : f2 != 'N';
  const bool want_vl = geev && f1 == 'V';
  char what[96];
  std::snprintf(what, sizeof what, "%s %c%c n=%d batch=%lld", geev ? "dgeev" : "dhseqr", f1, f2, n, (long long)batch);

  auto run = [&](Where w) {
    Buf<double> A{a0}, WR{std::vector<double>(batch * sW, kSentinel)}, WI{WR.host}, Z{geev ? WR.host : z0}, VL{};
    if (geev) Z.host.assign(batch * sM, kSentinel);
    VL.host.assign(batch * sM, kSentinel);
    Buf<int> INFO{std::vector<int>(batch, -12345)};
    double *a = A.place(w), *wr = WR.place(w), *wi = WI.place(w);
    double* z = want_z ? Z.place(w) : nullptr;
    double* vl = want_vl ? VL.place(w) : nullptr;
    int* info = INFO.place(w);
    Outputs o;
    o.status = geev ? sgpu_dgeev_batched(gpu, f1, f2, n, a, ld, sM, wr, wi, sW, vl, ld, sM, z, ld, sM, info, batch)
                    : sgpu_dhseqr_batched(gpu, f1, f2, n, 1, n, a, ld, sM, wr, wi, sW, z, ld, sM, info, batch);
    o.a = A.result();
    o.wr = WR.result();
    o.wi = WI.result();
    o.z = want_z ? Z.result() : Z.host;
    o.vl = want_vl ? VL.result() : VL.host;
    o.info = INFO.result();
    return o;
  };

  const Outputs ref = run(kDevice);
  EXPECT(ref.status == 1, "%s on device memory: status %d (want 1: one matrix fails)", what, ref.status);
  for (int64_t b = 0; b < batch; ++b)
    if (b == bad) EXPECT(ref.info[b] > 0, "%s: info[%lld] = %d for the NaN matrix", what, (long long)b, ref.info[b]);
    else if (ref.info[b] != 0) {
      EXPECT(false, "%s: info[%lld] = %d", what, (long long)b, ref.info[b]);
      break;
    }
  // Every eigenvalue written, every gap kept (device run; the others are compared with it bitwise).
  int64_t unwritten = 0, gaps = 0;
  for (int64_t k = 0; k < batch * sW; ++k) {
    const bool gap = k % sW >= n;
    if (gap) gaps += ref.wr[k] != kSentinel || ref.wi[k] != kSentinel;
    else unwritten += ref.wr[k] == kSentinel || ref.wi[k] == kSentinel;
  }
  for (const std::vector<double>* m : {&ref.a, &ref.z, &ref.vl})
    for (int64_t k = 0; k < batch * sM; ++k) {
      const bool gap = k % sM % ld >= n;
      if (gap) gaps += (*m)[k] != kSentinel;
    }
  if (want_z)
    for (int64_t k = 0; k < batch * sM; ++k) unwritten += k % sM % ld < n && ref.z[k] == kSentinel;
  EXPECT(unwritten == 0 && gaps == 0, "%s on device memory: %lld unwritten, %lld gaps changed", what,
         (long long)unwritten, (long long)gaps);
  if (geev) EXPECT(same_bits(ref.a, a0), "%s: dgeev wrote A", what);

  for (Where w : {kPageable, kPinned}) {
    const Outputs o = run(w);
    EXPECT(o.status == ref.status, "%s from %s memory: status %d, device %d", what, where_name(w), o.status, ref.status);
    EXPECT(o.info == ref.info, "%s from %s memory: info differs from the device run", what, where_name(w));
    EXPECT(same_bits(o.wr, ref.wr) && same_bits(o.wi, ref.wi), "%s from %s memory: eigenvalues differ", what,
           where_name(w));
    EXPECT(same_bits(o.a, ref.a), "%s from %s memory: H/A differs", what, where_name(w));
    EXPECT(same_bits(o.z, ref.z) && same_bits(o.vl, ref.vl), "%s from %s memory: vectors differ", what, where_name(w));
  }
}

// zheev: order n, packed with lda = n + 1 (gaps inside each matrix, none between), w with
// strideW = n + 2; one matrix holds a NaN. Pageable and pinned runs against the device run, as
// above (A compared only for jobz V: with jobz N its contents on exit are unspecified, as LAPACK's).
void run_heev_case(sgpu_context_t gpu, char jobz, char uplo, int n, int64_t batch, int bad) {
  const int ld = n + 1;
  const int64_t sM = (int64_t)ld * n, sW = n + 2;
  std::mt19937_64 g(777 + n);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a0(2 * batch * sM, kSentinel);  // complex, as pairs
  for (int64_t b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        a0[2 * (b * sM + i + j * ld)] = u(g);
        a0[2 * (b * sM + i + j * ld) + 1] = i == j ? 0.0 : u(g);
      }
  a0[2 * (bad * sM + (n - 1) + (n - 1) * ld)] = NAN;  // on the diagonal: in either triangle
  char what[96];
  std::snprintf(what, sizeof what, "zheev %c%c n=%d batch=%lld", jobz, uplo, n, (long long)batch);
  auto run = [&](Where w) {
    Buf<double> A{a0}, W{std::vector<double>(batch * sW, kSentinel)};
    Buf<int> INFO{std::vector<int>(batch, -12345)};
    double* a = A.place(w);
    double* wv = W.place(w);
    int* info = INFO.place(w);
    Outputs o;
    o.status = sgpu_zheev_batched(gpu, jobz, uplo, n, reinterpret_cast<sgpu_complex_double*>(a), ld, sM, wv, sW,
                                  info, batch);
    o.a = A.result();
    o.wr = W.result();
    o.info = INFO.result();
    return o;
  };
  const Outputs ref = run(kDevice);
  EXPECT(ref.status == 1, "%s on device memory: status %d (want 1: one matrix fails)", what, ref.status);
  int64_t wrong_info = 0, unwritten = 0, gaps = 0;
  for (int64_t b = 0; b < batch; ++b) wrong_info += b == bad ? ref.info[b] <= 0 : ref.info[b] != 0;
  for (int64_t k = 0; k < batch * sW; ++k)
    if (k % sW >= n) gaps += ref.wr[k] != kSentinel;
    else unwritten += ref.wr[k] == kSentinel;
  for (int64_t k = 0; k < batch * sM; ++k)
    if (k % sM % ld >= n) gaps += ref.a[2 * k] != kSentinel || ref.a[2 * k + 1] != kSentinel;
  EXPECT(wrong_info == 0 && unwritten == 0 && gaps == 0,
         "%s on device memory: %lld wrong info, %lld eigenvalues unwritten, %lld gaps changed", what,
         (long long)wrong_info, (long long)unwritten, (long long)gaps);
  for (Where w : {kPageable, kPinned}) {
    const Outputs o = run(w);
    EXPECT(o.status == ref.status, "%s from %s memory: status %d, device %d", what, where_name(w), o.status, ref.status);
    EXPECT(o.info == ref.info, "%s from %s memory: info differs from the device run", what, where_name(w));
    EXPECT(same_bits(o.wr, ref.wr), "%s from %s memory: eigenvalues differ", what, where_name(w));
    if (jobz == 'V' && n < kCublasMinN) {
      EXPECT(same_bits(o.a, ref.a), "%s from %s memory: eigenvectors differ", what, where_name(w));
    } else if (jobz == 'V') {
      // cuBLAS picks its ZGEMM kernels by batch count, so the pieces' vectors may differ from the
      // whole batch's in the last bits: within 20 n ulp of unit vectors.
      double worst = 0;
      int64_t nan_mismatch = 0;
      for (size_t k = 0; k < o.a.size(); ++k) {
        if (std::isnan(o.a[k]) || std::isnan(ref.a[k])) nan_mismatch += std::isnan(o.a[k]) != std::isnan(ref.a[k]);
        else worst = std::fmax(worst, std::fabs(o.a[k] - ref.a[k]));
      }
      EXPECT(nan_mismatch == 0 && worst <= 20.0 * n * 2.220446049250313e-16,
             "%s from %s memory: eigenvectors differ by %.3g, %lld NaN where the other has none", what, where_name(w),
             worst, (long long)nan_mismatch);
    }
  }
}

}  // namespace

int main() {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("SKIP: no CUDA device on this machine\n");
    return 77;
  }
  sgpu_context_t gpu;
  sgpu_context_create(&gpu);
  sgpu_context_set_backend(gpu, SGPU_BACKEND_GPU);
  for (int n : {3, 7, 12, 40}) {
    const int64_t batch = n < 40 ? 2001 : 203;
    run_case(gpu, false, 'E', 'N', n, batch, 777 % batch);
    run_case(gpu, false, 'S', 'V', n, batch, 5);
    run_case(gpu, true, 'N', 'N', n, batch, batch - 1);
    run_case(gpu, true, 'V', 'V', n, batch, 0);
  }
  for (int n : {1, 4, 9, 16, 32}) {
    const int64_t batch = 1501;
    run_heev_case(gpu, 'N', 'L', n, batch, 700);
    run_heev_case(gpu, 'V', 'U', n, batch, 3);
  }
  // The block path (one thread block per matrix), W in shared memory (40) and in global memory (120).
  for (int n : {40, 120}) {
    const int64_t batch = n < 100 ? 41 : 13;
    run_heev_case(gpu, 'N', 'U', n, batch, 7);
    run_heev_case(gpu, 'V', 'L', n, batch, batch - 1);
  }
  sgpu_context_destroy(gpu);
  std::printf("test_eig_stream: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
