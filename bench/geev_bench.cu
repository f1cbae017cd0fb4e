// sgpu_geev_bench: batched dgeev on the GPU, one run, side by side:
//   dev       sgpu_dgeev_batched on device memory (forced GPU backend), CUDA events
//   pinned    the same from pinned host memory, end to end (host clock; streamed pipeline)
//   pageable  the same from pageable host memory (SGPU_PAGEABLE picks staging or registration)
//   floor     the PCIe floor: cudaMemcpy of the same input bytes H2D plus output bytes D2H (pinned)
//   LAPACKE   LAPACKE_dgeev_work loop under OpenMP on all host cores (on a subsample when the batch
//             is large, scaled linearly; the table says which)
//   Xgeev     cuSOLVER's cusolverDnXgeev, one matrix per call as torch/jax/cupy do, on a subsample,
//             scaled to the batch
// Inputs: uniform random entries in [-1, 1] (seed printed). Eigenvalues only (jobvl = jobvr = N)
// and with right eigenvectors (jobvr = V). Best of `reps`. The check column: sgpu's eigenvalues
// against LAPACKE's on the subsample: max over eigenvalues of the distance to the nearest of
// LAPACKE's for the same matrix, over max |lambda|. fp64 %: the device-resident time against the
// GPU's fp64 peak for 12 n^3 flops a matrix without vectors and 26 n^3 with right vectors (Golub and
// Van Loan's counts: Hessenberg reduction and double-shift QR for T alone; with Q, Z, the
// eigenvectors of T and the back-transformation).
// --only-n N runs order N alone (any order), --batch B with B matrices; --dhseqr times sgpu_dhseqr_batched instead (job E and S,
// compz N and I, device-resident). Usage: sgpu_geev_bench [--small] [--only-n N] [--values-only]
// [--batch B] [--no-lapacke] [--pageable-only] [--dev-only] [--dhseqr]
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cmath>
#include <cstring>
#include <string>

#include "common.hpp"
#include "cuda_common.cuh"

using namespace bench;

namespace {

cudaStream_t stream;
cudaEvent_t ev0, ev1;
sgpu_context_t gctx;
cusolverDnHandle_t solver;
cusolverDnParams_t params;
bool pageable_only = false, run_lapacke = true, dev_only = false;
double peak_gflops = 0;  // fp64

std::string fmt(double ms, int digits = 2) {
  if (ms < 0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, ms);
  return b;
}

// Random matrices, filled in parallel (matrix b from its own seed, so the batch is the same for
// any thread count).
std::vector<double> random_batch(int n, int64_t batch, uint64_t seed) {
  std::vector<double> a((size_t)batch * n * n);
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < batch; ++b) {
    std::mt19937_64 g(seed * 1000003 + (uint64_t)b);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int k = 0; k < n * n; ++k) a[(size_t)b * n * n + k] = u(g);
  }
  return a;
}

template <class F>
double best_ms(int reps, F f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) best = std::min(best, f());
  return best;
}

// One matrix per cusolverDnXgeev call over `count` matrices; ms for the whole loop.
double xgeev_loop(int n, bool vectors, const double* a0, int count) {
  double *dA = nullptr, *dVR = nullptr;
  cuDoubleComplex* dW = nullptr;
  int* dInfo = nullptr;
  CK(cudaMalloc(&dA, sizeof(double) * n * n));
  CK(cudaMalloc(&dVR, sizeof(double) * n * n));
  CK(cudaMalloc(&dW, sizeof(cuDoubleComplex) * n));
  CK(cudaMalloc(&dInfo, sizeof(int)));
  const cusolverEigMode_t jv = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  size_t dbytes = 0, hbytes = 0;
  if (cusolverDnXgeev_bufferSize(solver, params, CUSOLVER_EIG_MODE_NOVECTOR, jv, n, CUDA_R_64F, dA, n, CUDA_C_64F, dW,
                                 CUDA_R_64F, nullptr, n, CUDA_R_64F, dVR, n, CUDA_R_64F, &dbytes,
                                 &hbytes) != CUSOLVER_STATUS_SUCCESS)
    return -1;
  void* dwork = nullptr;
  std::vector<char> hwork(std::max<size_t>(hbytes, 1));
  CK(cudaMalloc(&dwork, std::max<size_t>(dbytes, 1)));
  double ok = 0;
  const double t0 = now();
  for (int b = 0; b < count; ++b) {
    CK(cudaMemcpyAsync(dA, a0 + (size_t)b * n * n, sizeof(double) * n * n, cudaMemcpyHostToDevice, stream));
    if (cusolverDnXgeev(solver, params, CUSOLVER_EIG_MODE_NOVECTOR, jv, n, CUDA_R_64F, dA, n, CUDA_C_64F, dW,
                        CUDA_R_64F, nullptr, n, CUDA_R_64F, dVR, n, CUDA_R_64F, dwork, dbytes, hwork.data(), hbytes,
                        dInfo) != CUSOLVER_STATUS_SUCCESS) {
      ok = -1;
      break;
    }
  }
  CK(cudaStreamSynchronize(stream));
  const double ms = (now() - t0) * 1e3;
  cudaFree(dA);
  cudaFree(dVR);
  cudaFree(dW);
  cudaFree(dInfo);
  cudaFree(dwork);
  return ok < 0 ? -1 : ms;
}

void row(int n, int64_t batch, bool vectors) {
  const size_t nn = (size_t)n * n, elems = nn * batch;
  const uint64_t seed = 5000 + n;
  const char jr = vectors ? 'V' : 'N';
  auto a0 = random_batch(n, batch, seed);
  const int reps = elems * sizeof(double) > ((size_t)1 << 30) ? 2 : 3;
  // Device buffers.
  double *dA = nullptr, *dA0 = nullptr, *dWr = nullptr, *dWi = nullptr, *dVR = nullptr;
  int* dInfo = nullptr;
  CK(cudaMalloc(&dA, elems * sizeof(double)));
  CK(cudaMalloc(&dA0, elems * sizeof(double)));
  CK(cudaMalloc(&dWr, (size_t)n * batch * sizeof(double)));
  CK(cudaMalloc(&dWi, (size_t)n * batch * sizeof(double)));
  if (vectors) CK(cudaMalloc(&dVR, elems * sizeof(double)));
  CK(cudaMalloc(&dInfo, batch * sizeof(int)));
  CK(cudaMemcpy(dA0, a0.data(), elems * sizeof(double), cudaMemcpyHostToDevice));
  auto free_device = [&] {
    for (double* p : {dA, dA0, dWr, dWi, dVR})
      if (p) cudaFree(p);
    cudaFree(dInfo);
  };
  int64_t failed = 0;
  auto call = [&](double* a, double* wr, double* wi, double* vr, int* info) {
    int st = sgpu_dgeev_batched(gctx, 'N', jr, n, a, n, nn, wr, wi, n, nullptr, 1, 0, vr, n, nn, info, batch);
    if (st < 0) {
      std::printf("sgpu_dgeev_batched failed: %d (%s)\n", st, sgpu_strerror(st));
      std::exit(1);
    }
    failed = st;
  };
  double t_dev = -1, t_pin = -1, t_floor = -1;
  std::vector<double> wr((size_t)n * batch), wi((size_t)n * batch);
  if (!pageable_only) {
    t_dev = best_ms(reps, [&] {
      CK(cudaMemcpy(dA, dA0, elems * sizeof(double), cudaMemcpyDeviceToDevice));
      CK(cudaEventRecord(ev0, 0));
      call(dA, dWr, dWi, dVR, dInfo);
      CK(cudaEventRecord(ev1, 0));
      CK(cudaEventSynchronize(ev1));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, ev0, ev1));
      return (double)ms;
    });
  }
  if (!pageable_only && !dev_only) {
    // Pinned host memory, end to end.
    double *hA = nullptr, *hWr = nullptr, *hWi = nullptr, *hVR = nullptr;
    int* hInfo = nullptr;
    CK(cudaMallocHost(&hA, elems * sizeof(double)));
    CK(cudaMallocHost(&hWr, (size_t)n * batch * sizeof(double)));
    CK(cudaMallocHost(&hWi, (size_t)n * batch * sizeof(double)));
    if (vectors) CK(cudaMallocHost(&hVR, elems * sizeof(double)));
    CK(cudaMallocHost(&hInfo, batch * sizeof(int)));
    t_pin = best_ms(reps, [&] {
      std::memcpy(hA, a0.data(), elems * sizeof(double));
      const double t0 = now();
      call(hA, hWr, hWi, hVR, hInfo);
      return (now() - t0) * 1e3;
    });
    std::memcpy(wr.data(), hWr, wr.size() * sizeof(double));
    std::memcpy(wi.data(), hWi, wi.size() * sizeof(double));
    // The PCIe floor: the same bytes, plain copies, pinned.
    const size_t in_bytes = elems * sizeof(double);
    const size_t out_bytes = 2 * (size_t)n * batch * sizeof(double) + batch * sizeof(int) + (vectors ? in_bytes : 0);
    char* dOut = nullptr;
    CK(cudaMalloc(&dOut, out_bytes));
    char* hOut = nullptr;
    CK(cudaMallocHost(&hOut, out_bytes));
    t_floor = best_ms(reps, [&] {
      const double t0 = now();
      CK(cudaMemcpy(dA, hA, in_bytes, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(hOut, dOut, out_bytes, cudaMemcpyDeviceToHost));
      return (now() - t0) * 1e3;
    });
    cudaFree(dOut);
    cudaFreeHost(hOut);
    cudaFreeHost(hA);
    cudaFreeHost(hWr);
    cudaFreeHost(hWi);
    if (hVR) cudaFreeHost(hVR);
    cudaFreeHost(hInfo);
  }
  const double flops = (vectors ? 26.0 : 12.0) * n * n * n * (double)batch;
  const std::string pct = t_dev > 0 && peak_gflops > 0 ? fmt(100.0 * flops / (t_dev * 1e6 * peak_gflops), 1) : "-";
  if (dev_only) {
    std::printf("| %d | %lld | %s | %s | %s | dev only |\n", n, (long long)batch, vectors ? "N,V" : "N,N",
                fmt(t_dev, 3).c_str(), pct.c_str());
    std::fflush(stdout);
    free_device();
    return;
  }
  // Pageable host memory, end to end.
  std::vector<double> pA(elems), pWr((size_t)n * batch), pWi((size_t)n * batch), pVR(vectors ? elems : 0);
  std::vector<int> pInfo(batch);
  const double t_page = best_ms(reps, [&] {
    std::memcpy(pA.data(), a0.data(), elems * sizeof(double));
    const double t0 = now();
    call(pA.data(), pWr.data(), pWi.data(), vectors ? pVR.data() : nullptr, pInfo.data());
    return (now() - t0) * 1e3;
  });
  if (pageable_only) {
    wr = pWr;
    wi = pWi;
  }
  // LAPACKE loop on a subsample (all of it when small), scaled; and the eigenvalue check.
  const int64_t sub = std::min<int64_t>(batch, 50000);
  double t_lap = -1, check = -1;
  if (run_lapacke) {
    std::vector<double> la(a0.begin(), a0.begin() + sub * nn), lwr(sub * n), lwi(sub * n),
        lvr(vectors ? sub * nn : 0);
    const double t0 = now();
    lapacke_dgeev('N', jr, n, la.data(), lwr.data(), lwi.data(), nullptr, vectors ? lvr.data() : nullptr, sub);
    t_lap = (now() - t0) * 1e3 * (double)batch / (double)sub;
    // Each of sgpu's eigenvalues against the nearest of LAPACKE's for the same matrix (the two may
    // order a matrix's eigenvalues differently).
    double dmax = 0, wmax = 0;
    for (int64_t b = 0; b < sub; ++b)
      for (int i = 0; i < n; ++i) {
        const size_t k = (size_t)b * n + i;
        double best = 1e300;
        for (int m = 0; m < n; ++m) {
          const size_t q = (size_t)b * n + m;
          best = std::min(best, std::hypot(wr[k] - lwr[q], wi[k] - lwi[q]));
        }
        dmax = std::max(dmax, best);
        wmax = std::max(wmax, std::hypot(lwr[k], lwi[k]));
      }
    check = dmax / wmax;
  }
  const int xs = n <= 30 ? 200 : 50;
  const double t_x = pageable_only ? -1 : xgeev_loop(n, vectors, a0.data(), xs);
  const double t_xs = t_x < 0 ? -1 : t_x * (double)batch / xs;
  std::printf("| %d | %lld | %s | %s | %s | %s | %s | %s | %s | %s | %s%s | %s | %.1e | %lld |\n", n, (long long)batch,
              vectors ? "N,V" : "N,N", fmt(t_dev, 3).c_str(), pct.c_str(), fmt(t_pin).c_str(), fmt(t_page).c_str(),
              fmt(t_floor).c_str(), t_floor > 0 ? fmt(t_pin / t_floor).c_str() : "-", fmt(t_lap, 0).c_str(),
              fmt(t_xs, 0).c_str(), xs < batch ? " (s)" : "",
              t_lap > 0 && t_pin > 0 ? fmt(t_lap / t_pin, 1).c_str() : "-", check, (long long)failed);
  std::fflush(stdout);
  free_device();
}

}  // namespace

// dhseqr on device memory (--dhseqr): random upper Hessenberg matrices, the job and compz given,
// device-resident time only (best of 3), in the table's first columns.
void hseqr_row(int n, int64_t batch, char job, char compz) {
  const size_t nn = (size_t)n * n, elems = nn * batch;
  auto h0 = random_batch(n, batch, 7000 + n);
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < batch; ++b)
    for (int c = 0; c < n; ++c)
      for (int r = c + 2; r < n; ++r) h0[(size_t)b * nn + r + (size_t)c * n] = 0.0;
  double *dH = nullptr, *dH0 = nullptr, *dWr = nullptr, *dWi = nullptr, *dZ = nullptr;
  int* dInfo = nullptr;
  CK(cudaMalloc(&dH, elems * sizeof(double)));
  CK(cudaMalloc(&dH0, elems * sizeof(double)));
  CK(cudaMalloc(&dWr, (size_t)n * batch * sizeof(double)));
  CK(cudaMalloc(&dWi, (size_t)n * batch * sizeof(double)));
  if (compz != 'N') CK(cudaMalloc(&dZ, elems * sizeof(double)));
  CK(cudaMalloc(&dInfo, batch * sizeof(int)));
  CK(cudaMemcpy(dH0, h0.data(), elems * sizeof(double), cudaMemcpyHostToDevice));
  int64_t failed = 0;
  const double t = best_ms(3, [&] {
    CK(cudaMemcpy(dH, dH0, elems * sizeof(double), cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(ev0, 0));
    const int st = sgpu_dhseqr_batched(gctx, job, compz, n, 1, n, dH, n, nn, dWr, dWi, n, dZ, dZ ? n : 1,
                                       dZ ? nn : 0, dInfo, batch);
    if (st < 0) {
      std::printf("sgpu_dhseqr_batched failed: %d (%s)\n", st, sgpu_strerror(st));
      std::exit(1);
    }
    failed = st;
    CK(cudaEventRecord(ev1, 0));
    CK(cudaEventSynchronize(ev1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, ev0, ev1));
    return (double)ms;
  });
  std::printf("| %d | %lld | dhseqr %c,%c | %s | - | dev only | info>0: %lld |\n", n, (long long)batch, job, compz,
              fmt(t, 3).c_str(), (long long)failed);
  std::fflush(stdout);
  for (double* p : {dH, dH0, dWr, dWi, dZ})
    if (p) cudaFree(p);
  cudaFree(dInfo);
}

int main(int argc, char** argv) {
  bool small = false, values_only = false, hseqr = false;
  int only = 0;
  int64_t only_batch = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--small")) small = true;
    else if (!std::strcmp(argv[i], "--values-only")) values_only = true;
    else if (!std::strcmp(argv[i], "--no-lapacke")) run_lapacke = false;
    else if (!std::strcmp(argv[i], "--pageable-only")) pageable_only = true;
    else if (!std::strcmp(argv[i], "--dev-only")) dev_only = true;
    else if (!std::strcmp(argv[i], "--only-n") && i + 1 < argc) only = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--batch") && i + 1 < argc) only_batch = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--dhseqr")) hseqr = true;
  }
  cudaDeviceProp prop;
  if (!open_gpu(prop, stream, ev0, ev1)) return 0;
  if (cusolverDnCreate(&solver) != CUSOLVER_STATUS_SUCCESS || cusolverDnSetStream(solver, stream) != CUSOLVER_STATUS_SUCCESS ||
      cusolverDnCreateParams(&params) != CUSOLVER_STATUS_SUCCESS) {
    std::printf("cuSOLVER unavailable\n");
    return 1;
  }
  sgpu_context_create(&gctx);
  sgpu_context_set_backend(gctx, SGPU_BACKEND_GPU);
  const char* pg = std::getenv("SGPU_PAGEABLE");
  peak_gflops = fp64_peak_gflops(prop);
  std::printf("device: %s, %d host threads, pageable mode %s, seeds 5000+n, fp64 peak %.0f GFLOP/s\n", prop.name,
              omp_get_max_threads(), pg ? pg : "stage", peak_gflops);
  std::printf("| n | batch | jobvl,jobvr | sgpu dev (ms) | dev fp64 %% | sgpu pinned (ms) | sgpu pageable (ms) | PCIe floor (ms) | "
              "pinned/floor | LAPACKE+OMP (ms) | Xgeev loop (ms) | LAPACKE/pinned | check | info>0 |\n");
  std::printf("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::vector<int> orders{5, 10, 15, 20, 25, 30, 48, 64};
  if (only) orders = {only};  // any order, with the batch of the next listed one
  for (int n : orders) {
    int64_t batch = n <= 30 ? 500000 : n == 48 ? 200000 : 100000;
    if (small) batch /= 10;
    if (only_batch > 0) batch = only_batch;
    if (hseqr) {
      hseqr_row(n, batch, 'E', 'N');
      hseqr_row(n, batch, 'S', 'N');
      hseqr_row(n, batch, 'S', 'I');
      continue;
    }
    row(n, batch, false);
    if (!values_only) row(n, batch, true);
  }
  sgpu_context_destroy(gctx);
  return 0;
}
