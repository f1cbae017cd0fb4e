// Build check, not a backend: instantiates every per-matrix algorithm of the shared core for the
// device, with a team of one and with a warp team, so CI (which has nvcc but no GPU) proves the
// core stays host+device code. Linked into no library.
#include "../compat/core/geev.hpp"
#include "../compat/core/heev.hpp"
#include "../compat/core/hseqr.hpp"
#include "../compat/core/scan.hpp"
#include "../compat/core/stedc.hpp"
#include "team.cuh"

using namespace sgpu::core;

template <class Team>
__device__ void instantiate(const Team& t, int n, double* a, double* w, double* v, double* work, int* info) {
  Mat1<double> m{a, 1, n}, z{v, 1, n};
  Vec1<double> wr{w, 1}, wi{w + n, 1};
  info[0] = geev(t, true, true, n, m, wr, wi, z, z, work);
  info[1] = hseqr(t, true, kCompzI, n, 1, n, m, wr, wi, z);
  info[2] = heev(t, true, true, n, Mat1<zc>{reinterpret_cast<zc*>(a), 1, n}, wr, work);
  info[3] = stedc(t, n, wr, wi, z, work, info + 4);
  scan_cols(t, n, 0, n, Mat<const float>{reinterpret_cast<const float*>(a), 1, n}, Mat<double>{v, 1, n});
  scan_cols_down(t, n, 0, n, Mat<const float>{reinterpret_cast<const float*>(a), 1, n}, Mat<double>{v, 1, n});
}

__global__ void core_compile_check(int n, double* a, double* w, double* v, double* work, int* info) {
  if (blockIdx.x == 0) instantiate(TeamOne{}, n, a, w, v, work, info);
  else instantiate(sgpu::cuda::WarpTeam<8>::make(), n, a, w, v, work, info);
}
