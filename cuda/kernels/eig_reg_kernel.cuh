// dgeev and dhseqr eigenvalues for small orders, one thread per matrix with the matrix in
// registers: the kernel (eig_reg.cu has the launcher and the why; eig_reg_thread.hpp the
// per-thread algorithm). No thread waits for another between the load and the store; a warp's 32
// matrices run side by side.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

#include "kernels/eig_job.hpp"
#include "kernels/eig_reg_thread.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace eig_reg {

constexpr int kThreads = 128;  // per block: 4 warps, each with its own staging rows

// The warp's 32 matrices through its staging rows (kS doubles a matrix: odd, so that lane q's
// row q lies in distinct banks from its neighbours'), one column at a time: consecutive lanes on
// consecutive elements of global memory, then each lane reads its own row.
template <int N>
struct Staging {
  static constexpr int kS = N | 1;
  double* s;  // 32 * kS doubles
  int lane, cnt;
  // Column c of the warp's matrices (element (r, c) of matrix q at g[q*sg + r + c*ldg]) into row
  // `lane`, returned through col[r].
  __device__ void load_col(const double* g, int64_t ldg, int64_t sg, int c, double (&col)[N]) const {
    for (int e = lane; e < cnt * N; e += 32) {
      const int q = e / N, r = e - q * N;
      s[q * kS + r] = g[q * sg + r + c * ldg];
    }
    __syncwarp();
#pragma unroll
    for (int r = 0; r < N; ++r) col[r] = lane < cnt ? s[lane * kS + r] : 0.0;
    __syncwarp();
  }
  // The rows' first N doubles (written by each lane) out to global memory.
  __device__ void store(double* g, int64_t ldg, int64_t sg, int c, const double* rows) const {
    for (int e = lane; e < cnt * N; e += 32) {
      const int q = e / N, r = e - q * N;
      g[q * sg + r + c * ldg] = rows[q * kS + r];
    }
  }
};

template <int N, int P, bool kGeev>
__global__ void __launch_bounds__(kThreads) k_eig_reg(const EigJob j) {
  constexpr int kS = Staging<N>::kS;
  __shared__ double rows[kThreads / 32][2][32 * kS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t stride = (int64_t)gridDim.x * kThreads;
  for (int64_t b0 = (int64_t)blockIdx.x * kThreads + warp * 32; b0 < j.batch; b0 += stride) {
    const int cnt = (int)(j.batch - b0 < 32 ? j.batch - b0 : 32);
    double* s0 = rows[warp][0];
    double* s1 = rows[warp][1];
    const Staging<N> st{s0, lane, cnt};
    RegEig<N, P> m;
#pragma unroll
    for (int c = 0; c < N; ++c) {
      double col[N];
      st.load_col(j.A + b0 * j.sA, j.lda, j.sA, c, col);
#pragma unroll
      for (int r = 0; r < N; ++r) m.h[r][c] = col[r];
    }
    m.wr = s0 + lane * kS;
    m.wi = s1 + lane * kS;
    int info = 0;
    if (lane < cnt) info = kGeev ? m.geev() : m.hseqr(j.ilo, j.ihi);
    __syncwarp();
    st.store(j.wr + b0 * j.sW, 0, j.sW, 0, s0);
    st.store(j.wi + b0 * j.sW, 0, j.sW, 0, s1);
    if (lane < cnt) j.info[b0 + lane] = info;
    if (!kGeev) {
      // dhseqr's H goes back (dgeev's A is overwritten with nothing a caller may use, as LAPACK's).
#pragma unroll
      for (int c = 0; c < N; ++c) {
        __syncwarp();
#pragma unroll
        for (int r = 0; r < N; ++r) s0[lane * kS + r] = m.h[r][c];
        __syncwarp();
        st.store(j.A + b0 * j.sA, j.lda, j.sA, c, s0);
      }
    }
    __syncwarp();
  }
}

using Kernel = void (*)(const EigJob);

// The kernel for order n (1..tuning::kEigRegMaxN), dgeev (kGeev) or dhseqr; each mode's
// instances are compiled in a translation unit of their own (eig_reg_<mode>.cu), so that a build
// spreads them over its cores.
template <bool kGeev>
Kernel kernel_for(int n);

#ifdef SGPU_EIG_REG_INSTANTIATE
template <bool kGeev, int... Ns>
Kernel kernel_at(int n, std::integer_sequence<int, Ns...>) {
  static constexpr Kernel k[] = {k_eig_reg<Ns + 1, tuning::eig_lanes(Ns + 1), kGeev>...};
  return k[n - 1];
}
template <bool kGeev>
Kernel kernel_for(int n) {
  return kernel_at<kGeev>(n, std::make_integer_sequence<int, tuning::kEigRegMaxN>{});
}
#endif

extern template Kernel kernel_for<true>(int);
extern template Kernel kernel_for<false>(int);

}  // namespace eig_reg
}  // namespace gpu
}  // namespace sgpu
