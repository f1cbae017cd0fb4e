// Calls of every routine as reusable cases for the tests of a context's device settings
// (test_memcap: the device-memory limit; test_multi_gpu: device lists): each case makes its inputs
// from a fixed seed, places every operand where a run asks (pageable, pinned or device memory),
// poisons the outputs, and returns what the call returned and wrote, so that two contexts' runs
// can be compared bitwise. Needs gpu_expect.hpp's EXPECT/CUDA_OK.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "sgpu.h"

namespace cases {

enum Where { kPageable, kPinned, kDevice };
inline const char* where_name(Where w) { return w == kPageable ? "pageable" : w == kPinned ? "pinned" : "device"; }

constexpr double kPoison = -7.25;

// One operand: its host image, placed where the run wants it, read back after.
struct Buf {
  std::vector<unsigned char> host;
  Where w = kPageable;
  void* p = nullptr;
  template <class T>
  static Buf of(const std::vector<T>& v) {
    Buf b;
    b.host.resize(sizeof(T) * v.size());
    std::memcpy(b.host.data(), v.data(), b.host.size());
    return b;
  }
  template <class T>
  T* place(Where where) {
    w = where;
    if (w == kPageable) return reinterpret_cast<T*>(host.data());
    if (w == kPinned) {
      CUDA_OK(cudaMallocHost(&p, host.size()));
      std::memcpy(p, host.data(), host.size());
    } else {
      CUDA_OK(cudaMalloc(&p, host.size()));
      CUDA_OK(cudaMemcpy(p, host.data(), host.size(), cudaMemcpyHostToDevice));
    }
    return static_cast<T*>(p);
  }
  std::vector<unsigned char> result() {
    std::vector<unsigned char> r(host);
    if (w == kPinned) {
      std::memcpy(r.data(), p, r.size());
      cudaFreeHost(p);
    } else if (w == kDevice) {
      CUDA_OK(cudaMemcpy(r.data(), p, r.size(), cudaMemcpyDeviceToHost));
      cudaFree(p);
    }
    p = nullptr;
    return r;
  }
};

struct Result {
  int status = 0;
  std::vector<int> info;
  std::vector<std::vector<unsigned char>> outs;  // every output operand, whole spans
};

struct Case {
  std::string name;
  // Outputs from this index on are compared within a tolerance, not bitwise: zheev's vectors on
  // its block path (n >= 33), applied by cuBLAS's batched ZGEMMs, whose algorithm may vary with the
  // batch count (a piece's); the eigenvalues are bitwise in every case.
  size_t approx_from = 1000;
  std::function<Result(sgpu_context_t, Where)> run;
};

inline std::vector<double> uniform(size_t count, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(count);
  for (double& x : v) x = u(g);
  return v;
}

// dgeev (jobvl, jobvr) or dhseqr (job S, compz) of order n; `gap` extra doubles between matrices
// (0: packed, the streamed path; > 0: staged whole).
inline Case eig_case(bool geev, char f1, char f2, int n, int64_t batch, int gap) {
  Case c;
  char name[96];
  std::snprintf(name, sizeof name, "%s %c%c n=%d batch=%lld gap=%d", geev ? "dgeev" : "dhseqr", f1, f2, n,
                (long long)batch, gap);
  c.name = name;
  c.run = [=](sgpu_context_t ctx, Where w) {
    const int64_t sM = (int64_t)n * n + gap, sW = n;
    std::vector<double> a0 = uniform((size_t)(batch * sM), 91 + n);
    if (!geev)
      for (int64_t b = 0; b < batch; ++b)
        for (int j = 0; j < n; ++j)
          for (int i = j + 2; i < n; ++i) a0[b * sM + i + (int64_t)j * n] = 0.0;  // upper Hessenberg
    const std::vector<double> poison((size_t)(batch * sM), kPoison), wpoison((size_t)(batch * sW), kPoison);
    const bool want_z = geev ? f2 == 'V' : f2 != 'N', want_vl = geev && f1 == 'V';
    Buf A = Buf::of(a0), WR = Buf::of(wpoison), WI = Buf::of(wpoison), Z = Buf::of(poison), VL = Buf::of(poison);
    Buf INFO = Buf::of(std::vector<int>((size_t)batch, -12345));
    double *a = A.place<double>(w), *wr = WR.place<double>(w), *wi = WI.place<double>(w);
    double* z = want_z ? Z.place<double>(w) : nullptr;
    double* vl = want_vl ? VL.place<double>(w) : nullptr;
    int* info = INFO.place<int>(w);
    Result r;
    r.status = geev ? sgpu_dgeev_batched(ctx, f1, f2, n, a, n, sM, wr, wi, sW, vl, n, sM, z, n, sM, info, batch)
                    : sgpu_dhseqr_batched(ctx, 'S', f2, n, 1, n, a, n, sM, wr, wi, sW, z, n, sM, info, batch);
    const std::vector<unsigned char> a_out = A.result();
    if (!geev) r.outs.push_back(a_out);  // (dgeev's A on exit is unspecified)
    r.outs.push_back(WR.result());
    r.outs.push_back(WI.result());
    if (want_z) r.outs.push_back(Z.result());
    if (want_vl) r.outs.push_back(VL.result());
    const std::vector<unsigned char> ib = INFO.result();
    r.info.resize((size_t)batch);
    std::memcpy(r.info.data(), ib.data(), ib.size());
    return r;
  };
  return c;
}

// zheev (jobz, lower) of order n; `gap` extra complex elements between matrices.
inline Case heev_case(char jobz, int n, int64_t batch, int gap) {
  Case c;
  char name[96];
  std::snprintf(name, sizeof name, "zheev %cL n=%d batch=%lld gap=%d", jobz, n, (long long)batch, gap);
  c.name = name;
  if (jobz == 'V' && n >= 33) c.approx_from = 1;  // outs: w, then A (the vectors)
  c.run = [=](sgpu_context_t ctx, Where w) {
    const int64_t sM = (int64_t)n * n + gap;
    std::vector<double> a0 = uniform((size_t)(2 * batch * sM), 17 + n);
    for (int64_t b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i) a0[2 * (b * sM + i + (int64_t)i * n) + 1] = 0.0;  // real diagonal
    Buf A = Buf::of(a0), W = Buf::of(std::vector<double>((size_t)(batch * n), kPoison));
    Buf INFO = Buf::of(std::vector<int>((size_t)batch, -12345));
    double* a = A.place<double>(w);
    double* wv = W.place<double>(w);
    int* info = INFO.place<int>(w);
    Result r;
    r.status = sgpu_zheev_batched(ctx, jobz, 'L', n, reinterpret_cast<sgpu_complex_double*>(a), n, sM, wv, n, info,
                                  batch);
    r.outs.push_back(W.result());
    const std::vector<unsigned char> a_out = A.result();
    if (jobz == 'V') r.outs.push_back(a_out);
    const std::vector<unsigned char> ib = INFO.result();
    r.info.resize((size_t)batch);
    std::memcpy(r.info.data(), ib.data(), ib.size());
    return r;
  };
  return c;
}

// scan_cols float -> double of `batch` m x n matrices in `layout`; `gap` extra elements between
// matrices (0: packed).
inline Case scan_case(int layout, int m, int n, int64_t batch, int gap) {
  Case c;
  char name[96];
  std::snprintf(name, sizeof name, "scan %s %dx%d batch=%lld gap=%d", layout == SGPU_ROW_MAJOR ? "row" : "col", m, n,
                (long long)batch, gap);
  c.name = name;
  c.run = [=](sgpu_context_t ctx, Where w) {
    const int ld = layout == SGPU_ROW_MAJOR ? n : m;
    const int64_t s = (int64_t)m * n + gap;
    std::mt19937 g(5 + m);
    std::uniform_int_distribution<int> u(-8, 8);
    std::vector<float> a0((size_t)(batch * s));
    for (float& x : a0) x = (float)u(g) * 0.25f;
    Buf A = Buf::of(a0), B = Buf::of(std::vector<double>((size_t)(batch * s), kPoison));
    const float* a = A.place<float>(w);
    double* b = B.place<double>(w);
    Result r;
    r.status = sgpu_scan_cols(ctx, layout, SGPU_R_32F, SGPU_R_64F, m, n, a, ld, s, b, ld, s, batch);
    (void)A.result();
    r.outs.push_back(B.result());
    return r;
  };
  return c;
}

// Largest |x - y| over two double outputs, relative to the largest |y| (NaN when shapes differ).
inline double rel_diff(const std::vector<unsigned char>& x, const std::vector<unsigned char>& y) {
  if (x.size() != y.size()) return NAN;
  const size_t k = x.size() / sizeof(double);
  const double* a = reinterpret_cast<const double*>(x.data());
  const double* b = reinterpret_cast<const double*>(y.data());
  double d = 0, m = 0;
  for (size_t i = 0; i < k; ++i) {
    d = std::fmax(d, std::fabs(a[i] - b[i]));
    m = std::fmax(m, std::fabs(b[i]));
  }
  return m > 0 ? d / m : d;
}

// Expects run r to match reference ref: status, info, outputs (bitwise, or within 1e-12 from
// c.approx_from on). Returns whether it did.
inline bool same(const Case& c, const Result& r, const Result& ref, const char* what) {
  const int before = failures;
  EXPECT(r.status == ref.status, "%s, %s: status %d, reference %d", c.name.c_str(), what, r.status, ref.status);
  EXPECT(r.info == ref.info, "%s, %s: info differs", c.name.c_str(), what);
  EXPECT(r.outs.size() == ref.outs.size(), "%s, %s: output count", c.name.c_str(), what);
  for (size_t k = 0; k < r.outs.size() && k < ref.outs.size(); ++k) {
    if (k >= c.approx_from) {
      const double d = rel_diff(r.outs[k], ref.outs[k]);
      EXPECT(d <= 1e-12, "%s, %s: output %zu differs by %.3g", c.name.c_str(), what, k, d);
    } else {
      EXPECT(r.outs[k] == ref.outs[k], "%s, %s: output %zu not bitwise the reference", c.name.c_str(), what, k);
    }
  }
  return failures == before;
}

}  // namespace cases
