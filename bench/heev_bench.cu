// sgpu_heev_bench: batched complex Hermitian eigensolvers on the GPU, one run:
//   sgpu dev     sgpu_zheev_batched on device memory (forced GPU backend), CUDA events
//   sgpu pinned  the same from pinned host memory, end to end (host clock)
//   heevjB       cusolverDnZheevjBatched (Jacobi; cuSOLVER serves n <= 32 only), device memory
//   XsyevB       cusolverDnXsyevBatched (complex128), device memory
//   LAPACKE      LAPACKE_zheev_work loop under OpenMP on all host cores
// Inputs restored (untimed) before every run; best of `reps`. A sanity column compares sgpu's
// eigenvalues with XsyevBatched's (or heevj's) on the whole batch: max |dw| / max |w|.
// Usage: sgpu_heev_bench [--small] [--only-n N (any order)] [--batch B] [--jobz N|V] [--no-lapacke]
//                        [--sgpu-only] [--no-peers] [--dump DIR]
// --batch B: with --only-n, one row of B matrices instead of the standard batch and seed 002's 180.
// --sgpu-only: sgpu's device-resident time only, next to the memory floor (the input read and the
// outputs written once, at the 3.0 TB/s measured on the H100): for sweeps of the library's settings.
// --no-peers: sgpu only, device-resident and pinned (no cuSOLVER, no LAPACKE): for the streaming
// engine's settings.
// --dump DIR: each row's eigenvalues (and with jobz V its vectors) from the device run, raw, to
// DIR/heev_<n>_<jobz>_<batch>.bin: two builds' outputs compared bit for bit (cmp).
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"
#include "cuda_common.cuh"


using namespace bench;

namespace {

cudaStream_t stream;
cudaEvent_t ev0, ev1;
cusolverDnHandle_t solver;
sgpu_context_t gctx;
bool sgpu_only = false;
bool peers = true;
const char* dump_dir = nullptr;

// Best-of-reps device time (ms) of f(); restore() runs untimed before each.
template <class R, class F>
double dev_ms(int reps, R restore, F f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    restore();
    CK(cudaStreamSynchronize(stream));
    CK(cudaEventRecord(ev0, stream));
    if (!f()) return -1;
    CK(cudaEventRecord(ev1, stream));
    CK(cudaEventSynchronize(ev1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, ev0, ev1));
    best = std::min(best, (double)ms);
  }
  return best;
}

std::string fmt(double ms) {
  if (ms < 0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", ms);
  return b;
}

void row(int n, char jobz, int64_t batch, bool lapacke) {
  const size_t nn = (size_t)n * n, elems = nn * batch;
  auto h = hermitian(n, batch, 1000 + n);
  cd *dA = nullptr, *dA0 = nullptr;
  double *dW = nullptr, *dW2 = nullptr;
  int* dInfo = nullptr;
  CK(cudaMalloc(&dA, elems * sizeof(cd)));
  CK(cudaMalloc(&dA0, elems * sizeof(cd)));
  CK(cudaMalloc(&dW, (size_t)n * batch * sizeof(double)));
  CK(cudaMalloc(&dW2, (size_t)n * batch * sizeof(double)));
  CK(cudaMalloc(&dInfo, batch * sizeof(int)));
  CK(cudaMemcpy(dA0, h.data(), elems * sizeof(cd), cudaMemcpyHostToDevice));
  auto restore = [&] { CK(cudaMemcpyAsync(dA, dA0, elems * sizeof(cd), cudaMemcpyDeviceToDevice, stream)); };
  const int reps = elems * sizeof(cd) > ((size_t)1 << 28) ? 2 : 3;
  const cusolverEigMode_t mode = jobz == 'V' ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;

  // sgpu, device memory.
  const double t_dev = dev_ms(reps, restore, [&] {
    return sgpu_zheev_batched(gctx, jobz, 'L', n, reinterpret_cast<sgpu_complex_double*>(dA), n, nn, dW, n, dInfo,
                              batch) >= 0;
  });
  std::vector<double> w_sgpu((size_t)n * batch);
  CK(cudaMemcpy(w_sgpu.data(), dW, w_sgpu.size() * sizeof(double), cudaMemcpyDeviceToHost));
  if (dump_dir) {
    char path[512];
    std::snprintf(path, sizeof path, "%s/heev_%d_%c_%lld.bin", dump_dir, n, jobz, (long long)batch);
    if (FILE* f = std::fopen(path, "wb")) {
      std::fwrite(w_sgpu.data(), sizeof(double), w_sgpu.size(), f);
      if (jobz == 'V') {
        std::vector<cd> a(elems);
        CK(cudaMemcpy(a.data(), dA, elems * sizeof(cd), cudaMemcpyDeviceToHost));
        std::fwrite(a.data(), sizeof(cd), a.size(), f);
      }
      std::fclose(f);
    }
  }
  auto free_all = [&] {
    CK(cudaFree(dA));
    CK(cudaFree(dA0));
    CK(cudaFree(dW));
    CK(cudaFree(dW2));
    CK(cudaFree(dInfo));
  };
  if (sgpu_only) {
    const double bytes = elems * sizeof(cd) * (jobz == 'V' ? 2.0 : 1.0) + (double)n * batch * sizeof(double) + 4.0 * batch;
    std::printf("| %d | %c | %lld | %s | %.3f |\n", n, jobz, (long long)batch, fmt(t_dev).c_str(), bytes / 3.0e9);
    std::fflush(stdout);
    free_all();
    return;
  }

  // sgpu, pinned host memory, end to end.
  double t_pin = -1;
  {
    cd* hA = nullptr;
    double* hW = nullptr;
    int* hInfo = nullptr;
    if (cudaMallocHost(&hA, elems * sizeof(cd)) == cudaSuccess && cudaMallocHost(&hW, (size_t)n * batch * sizeof(double)) == cudaSuccess &&
        cudaMallocHost(&hInfo, batch * sizeof(int)) == cudaSuccess) {
      t_pin = 1e300;
      for (int r = 0; r < reps; ++r) {
        std::memcpy(hA, h.data(), elems * sizeof(cd));
        const double t0 = now();
        const int st = sgpu_zheev_batched(gctx, jobz, 'L', n, reinterpret_cast<sgpu_complex_double*>(hA), n, nn, hW, n,
                                          hInfo, batch);
        const double t = (now() - t0) * 1e3;
        if (st < 0) t_pin = -1;
        else t_pin = std::min(t_pin, t);
        if (st < 0) break;
      }
    }
    (void)cudaGetLastError();
    if (hA) cudaFreeHost(hA);
    if (hW) cudaFreeHost(hW);
    if (hInfo) cudaFreeHost(hInfo);
  }

  // cuSOLVER heevjBatched (n <= 32).
  double t_heevj = -1;
  bool have_ref = false;
  if (peers && n <= 32) {
    syevjInfo_t prm = nullptr;
    int lwork = 0;
    cuDoubleComplex* work = nullptr;
    if (cusolverDnCreateSyevjInfo(&prm) == CUSOLVER_STATUS_SUCCESS &&
        cusolverDnZheevjBatched_bufferSize(solver, mode, CUBLAS_FILL_MODE_LOWER, n, reinterpret_cast<cuDoubleComplex*>(dA), n,
                                           dW2, &lwork, prm, (int)batch) == CUSOLVER_STATUS_SUCCESS &&
        cudaMalloc(&work, (size_t)lwork * sizeof(cuDoubleComplex)) == cudaSuccess) {
      t_heevj = dev_ms(reps, restore, [&] {
        return cusolverDnZheevjBatched(solver, mode, CUBLAS_FILL_MODE_LOWER, n, reinterpret_cast<cuDoubleComplex*>(dA), n,
                                       dW2, work, lwork, dInfo, prm, (int)batch) == CUSOLVER_STATUS_SUCCESS;
      });
      have_ref = t_heevj >= 0;
    }
    (void)cudaGetLastError();
    if (work) cudaFree(work);
    if (prm) cusolverDnDestroySyevjInfo(prm);
  }

  // cuSOLVER XsyevBatched.
  double t_xsyev = -1;
  if (peers) {
    cusolverDnParams_t prm = nullptr;
    size_t dbytes = 0, hbytes = 0;
    void *dwork = nullptr, *hwork = nullptr;
    if (cusolverDnCreateParams(&prm) == CUSOLVER_STATUS_SUCCESS &&
        cusolverDnXsyevBatched_bufferSize(solver, prm, mode, CUBLAS_FILL_MODE_LOWER, n, CUDA_C_64F, dA, n, CUDA_R_64F, dW2,
                                          CUDA_C_64F, &dbytes, &hbytes, batch) == CUSOLVER_STATUS_SUCCESS &&
        cudaMalloc(&dwork, std::max<size_t>(dbytes, 1)) == cudaSuccess && (hwork = std::malloc(std::max<size_t>(hbytes, 1)))) {
      t_xsyev = dev_ms(reps, restore, [&] {
        return cusolverDnXsyevBatched(solver, prm, mode, CUBLAS_FILL_MODE_LOWER, n, CUDA_C_64F, dA, n, CUDA_R_64F, dW2,
                                      CUDA_C_64F, dwork, dbytes, hwork, hbytes, dInfo, batch) == CUSOLVER_STATUS_SUCCESS;
      });
      have_ref = have_ref || t_xsyev >= 0;
    }
    (void)cudaGetLastError();
    if (dwork) cudaFree(dwork);
    std::free(hwork);
    if (prm) cusolverDnDestroyParams(prm);
  }

  // Sanity: eigenvalues against the last cuSOLVER run (both ascending).
  double rel = -1;
  if (have_ref && t_dev >= 0) {
    std::vector<double> w_ref(w_sgpu.size());
    CK(cudaMemcpy(w_ref.data(), dW2, w_ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
    double dmax = 0, wmax = 0;
    for (size_t i = 0; i < w_ref.size(); ++i) {
      dmax = std::max(dmax, std::fabs(w_ref[i] - w_sgpu[i]));
      wmax = std::max(wmax, std::fabs(w_ref[i]));
    }
    rel = wmax > 0 ? dmax / wmax : dmax;
  }

  // LAPACKE loop under OpenMP.
  double t_lapacke = -1;
  if (lapacke) {
    std::vector<cd> a(h.size());
    std::vector<double> w((size_t)n * batch);
    t_lapacke = 1e3 * best_of(reps == 3 ? 2 : 1, [&] { std::copy(h.begin(), h.end(), a.begin()); },
                              [&] { lapacke_zheev(jobz, n, a.data(), w.data(), batch); });
  }

  double best_peer = -1;
  for (double t : {t_heevj, t_xsyev})
    if (t >= 0 && (best_peer < 0 || t < best_peer)) best_peer = t;
  char ratio[32] = "-";
  if (best_peer > 0 && t_dev > 0) std::snprintf(ratio, sizeof ratio, "%.2f", best_peer / t_dev);
  char relb[32] = "-";
  if (rel >= 0) std::snprintf(relb, sizeof relb, "%.1e", rel);
  std::printf("| %d | %c | %lld | %s | %s | %s | %s | %s | %s | %s |\n", n, jobz, (long long)batch, fmt(t_dev).c_str(),
              fmt(t_pin).c_str(), fmt(t_heevj).c_str(), fmt(t_xsyev).c_str(), ratio, fmt(t_lapacke).c_str(), relb);
  std::fflush(stdout);
  free_all();
}

}  // namespace

int main(int argc, char** argv) {
  bool small = false, lapacke = true;
  int only = 0;
  int64_t only_batch = 0;
  const char* jobzs = "NV";  // --jobz: one of them (e.g. to profile one kernel)
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--small")) small = true;
    else if (!std::strcmp(argv[i], "--only-n") && i + 1 < argc) only = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--batch") && i + 1 < argc) only_batch = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--jobz") && i + 1 < argc) jobzs = argv[++i][0] == 'V' ? "V" : "N";
    else if (!std::strcmp(argv[i], "--no-lapacke")) lapacke = false;
    else if (!std::strcmp(argv[i], "--dump") && i + 1 < argc) dump_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--no-peers")) {
      peers = false;
      lapacke = false;
    }
    else if (!std::strcmp(argv[i], "--sgpu-only")) {
      sgpu_only = true;
      lapacke = false;
    }
  }
  cudaDeviceProp prop;
  if (!open_gpu(prop, stream, ev0, ev1)) return 0;
  if (cusolverDnCreate(&solver) != CUSOLVER_STATUS_SUCCESS || cusolverDnSetStream(solver, stream) != CUSOLVER_STATUS_SUCCESS)
    return 1;
  if (sgpu_context_create(&gctx) || sgpu_context_set_backend(gctx, SGPU_BACKEND_GPU) || sgpu_context_set_stream(gctx, stream))
    return 1;
  std::printf("device: %s; host: %d OpenMP threads; times in ms, best of 2-3; complex128, uplo L, random Hermitian\n",
              prop.name, omp_get_max_threads());
  if (sgpu_only) std::printf("| n | jobz | batch | sgpu dev | memory floor |\n|---:|---|---:|---:|---:|\n");
  else std::printf("| n | jobz | batch | sgpu dev | sgpu pinned e2e | heevjBatched | XsyevBatched | best cuSOLVER / sgpu dev | LAPACKE+OMP | max|dw|/max|w| |\n"
                   "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  const double bytes = small ? 6.4e7 : 1.0e9;  // data per batch (1-4 GB: the batches the benchmark was specified with)
  std::vector<int> orders = {4, 8, 16, 32, 64, 128, 256, 512};
  if (only) orders = {only};  // any order, e.g. where two paths meet
  if (only && only_batch > 0) {  // one batch, e.g. where a rule by batch switches
    for (const char* j = jobzs; *j; ++j) row(only, *j, only_batch, lapacke);
    orders.clear();
  }
  for (int n : orders) {
    const int64_t batch = std::max<int64_t>(1, (int64_t)(bytes / (16.0 * n * n)));
    for (const char* j = jobzs; *j; ++j) row(n, *j, batch, lapacke && (!small || n <= 64));
  }
  for (int n : {128, 256, 512}) {  // seed 002's 180 matrices
    if (only && (n != only || only_batch > 0)) continue;
    for (const char* j = jobzs; *j; ++j) row(n, *j, 180, lapacke);
  }
  sgpu_context_destroy(gctx);
  cusolverDnDestroy(solver);
  return 0;
}
