// The generic team path of the eigensolvers: a team of lanes per matrix running the shared
// numerical core (compat/core/) on global memory, directly on the MW arrangement the caller gave.
// It serves dhseqr and dgeev at orders whose shared-memory slots do not fit, one block per matrix
// (its column and row loops spread over the block: a large matrix's steps are bound by the
// latency of their passes over memory, not by the number of matrices in flight), or one warp per
// matrix for dgeev where its values-only call fits shared memory. It serves zheev for n <= 32
// where the tuning table prefers it to the shared-memory teams (teams of P lanes, several matrices
// per warp). The drivers' view is eig_warp.hpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>

#include "core/geev.hpp"
#include "core/heev.hpp"
#include "core/hseqr.hpp"
#include "backend.hpp"
#include "device/dev_setting.hpp"
#include "device/fault.hpp"
#include "device/team.cuh"
#include "kernels/eig_warp.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace eig_warp {

namespace {

using core::Mat1;
using core::Vec1;
constexpr int kWarpsPerBlock = 4;
constexpr int64_t kMaxWorkspaceBytes = int64_t(1) << 30;  // device workspace of one call, at most

// dhseqr and dgeev: one block per matrix (blocks loop over the batch), the whole block its team;
// dgeev where its eigenvalues must match a 32-lane team's, one warp per matrix (kWarpsPerBlock
// a block). One warp per matrix was slower at every order and batch measured: dgeev V,V
// n = 98-127, batches 1-1024, and N,V 128-512, batches 1-1024.
constexpr int kBlockMaxThreads = 512;  // the block kernels' launch bound: block_threads() at most

__global__ void __launch_bounds__(kBlockMaxThreads)
    k_dhseqr(bool wantt, int compz, int n, int ilo, int ihi, double* H, int ldh, int64_t sH, double* wr, double* wi,
             int64_t sW, double* Z, int ldz, int64_t sZ, int* info, int64_t batch) {
  __shared__ double red[kBlockMaxThreads / 32];
  const cuda::BlockTeam t{red};
  for (int64_t b = blockIdx.x; b < batch; b += gridDim.x) {
    int r = core::hseqr(t, wantt, compz, n, ilo, ihi, Mat1<double>{H + b * sH, 1, ldh},
                        Vec1<double>{wr + b * sW, 1}, Vec1<double>{wi + b * sW, 1},
                        Mat1<double>{compz ? Z + b * sZ : nullptr, 1, ldz});
    if (t.leader()) info[b] = r;
  }
}

template <bool kWarp>
__global__ void __launch_bounds__(kWarp ? 32 * kWarpsPerBlock : kBlockMaxThreads)
    k_dgeev(bool wantvl, bool wantvr, int n, double* A, int lda, int64_t sA, double* wr, double* wi, int64_t sW,
            double* VL, int ldvl, int64_t sVL, double* VR, int ldvr, int64_t sVR, int* info, int64_t batch,
            double* ws, int64_t ws_per) {
  __shared__ double red[kWarp ? 1 : kBlockMaxThreads / 32];
  const auto t = [&] {
    if constexpr (kWarp)
      return cuda::WarpTeam<32>::make();
    else
      return cuda::BlockTeam{red};
  }();
  const int64_t team = kWarp ? (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / 32 : (int64_t)blockIdx.x;
  const int64_t teams = kWarp ? gridDim.x * (int64_t)blockDim.x / 32 : (int64_t)gridDim.x;
  double* work = ws + team * ws_per;
  for (int64_t b = team; b < batch; b += teams) {
    int r = core::geev(t, wantvl, wantvr, n, Mat1<double>{A + b * sA, 1, lda}, Vec1<double>{wr + b * sW, 1},
                       Vec1<double>{wi + b * sW, 1}, Mat1<double>{wantvl ? VL + b * sVL : nullptr, 1, ldvl},
                       Mat1<double>{wantvr ? VR + b * sVR : nullptr, 1, ldvr}, work);
    if (t.leader()) info[b] = r;
  }
}

// Threads of dhseqr's and dgeev's blocks at order n. [SGPU_EIG_BLOCK_THREADS: a multiple of 32 up
// to kBlockMaxThreads, at every order]
int block_threads(int n) {
  static const int forced = [] {
    const char* e = dev::setting("SGPU_EIG_BLOCK_THREADS");
    const int p = e ? std::atoi(e) : 0;
    return p >= 32 && p <= kBlockMaxThreads && p % 32 == 0 ? p : 0;
  }();
  if (forced) return forced;
  return n >= tuning::kEigBlockWideMinN ? tuning::kEigBlockWideThreads : tuning::kEigBlockThreads;
}
static_assert(tuning::kEigBlockThreads <= kBlockMaxThreads && tuning::kEigBlockWideThreads <= kBlockMaxThreads,
              "the block kernels' launch bound");

// zheev for small n on global memory: teams of P lanes, 32 / P matrices per warp (several per warp
// as seed 000's SWB assignment with p threads per matrix). P by n: lanes beyond n would idle in
// every team loop. Vectors (kWantz) by inverse iteration, as the shared-memory teams take them for
// n = 9-32, and values (either way) by dstebz's bisection, as inverse iteration's.
template <int P, bool kWantz>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    k_zheev(bool lower, int n, core::zc* A, int lda, int64_t sA, double* w, int64_t sW, int* info, int64_t batch,
            double* ws, int64_t ws_per) {
  const cuda::WarpTeam<P> t = cuda::WarpTeam<P>::make();
  const int64_t team = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / P;
  const int64_t teams = gridDim.x * (int64_t)blockDim.x / P;
  double* work = ws + team * ws_per;
  for (int64_t b = team; b < batch; b += teams) {
    int r = core::heev(t, kWantz, lower, n, Mat1<core::zc>{A + b * sA, 1, lda}, Vec1<double>{w + b * sW, 1}, work,
                       core::kHeevInverse);
    if (t.leader()) info[b] = r;
  }
}

// Lanes per matrix for the small-n zheev: the smallest power of two >= n / 2, at least
// tuning::kHeevWarpMinLanes.
constexpr int table_lanes(int n) {
  int p = tuning::kHeevWarpMinLanes;
  while (2 * p < n && p < 32) p *= 2;
  return p;
}

// The developer setting SGPU_HEEV_TEAM=4|8|16|32 forces the lanes.
int zheev_team_lanes(int n) {
  static const int forced = [] {
    const char* e = dev::setting("SGPU_HEEV_TEAM");
    const int p = e ? std::atoi(e) : 0;
    return p == 4 || p == 8 || p == 16 || p == 32 ? p : 0;
  }();
  return forced ? forced : table_lanes(n);
}

// Only what the tuning table sends here is instantiated: jobz N at the orders whose kHeevTeam row
// keeps the matrix off shared memory (today n = 17-32: P = 16). jobz V comes here only when the
// developer setting SGPU_HEEV_SMALL=global forces it, and developer builds, whose settings may
// force any P, build every size both ways.
#ifdef SGPU_DEV_HOOKS
constexpr bool kAllZheev = true;
#else
constexpr bool kAllZheev = false;
#endif
constexpr bool zheev_dispatched(int P, bool wantz) {
  if (wantz) return false;
  int lo = 1;
  for (const tuning::HeevTeamRow& r : tuning::kHeevTeam) {
    for (int n = lo; n <= r.n; ++n)
      if (!r.shared_n && table_lanes(n) == P) return true;
    lo = r.n + 1;
  }
  return false;
}

using ZheevKernel = void (*)(bool, int, core::zc*, int, int64_t, double*, int64_t, int*, int64_t, double*, int64_t);

template <int P, bool kWantz>
ZheevKernel zheev_built() {
  if constexpr (kAllZheev || zheev_dispatched(P, kWantz))
    return k_zheev<P, kWantz>;
  else
    return nullptr;
}

// The kernel for P lanes, or null where it is not built.
template <bool kWantz>
ZheevKernel zheev_kernel(int p) {
  switch (p) {
    case 4: return zheev_built<4, kWantz>();
    case 8: return zheev_built<8, kWantz>();
    case 16: return zheev_built<16, kWantz>();
    case 32: return zheev_built<32, kWantz>();
    default: return nullptr;
  }
}

// Launches launch(grid, block, ws, ws_per) on s for `batch` matrices in blocks of `threads`
// threads, `per_block` teams a block (a team, one matrix at a time), with ws_per doubles of
// stream-ordered device workspace per team (freed behind the kernel). Enough blocks to fill the
// GPU several times over, each team looping over its matrices; the workspace is capped at
// kMaxWorkspaceBytes, so large n gets fewer teams rather than gigabytes. 0 or SGPU_ERR_*.
// ws_limit (0: none) lowers the cap (the context's device-memory limit); one block's workspace
// that does not fit is SGPU_ERR_DEVICE_ALLOC.
template <class Launch>
int launch_teams(int64_t batch, int threads, int64_t per_block, int64_t ws_per, int64_t ws_limit, cudaStream_t s,
                 Launch launch) {
  int sms = 0, dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
    return SGPU_ERR_DEVICE;
  int64_t blocks = std::min<int64_t>((batch + per_block - 1) / per_block, (int64_t)sms * 16);
  const int64_t block_ws = (int64_t)sizeof(double) * ws_per * per_block;
  const int64_t most = ws_limit > 0 ? std::min(ws_limit, kMaxWorkspaceBytes) : kMaxWorkspaceBytes;
  if (block_ws > most) return SGPU_ERR_DEVICE_ALLOC;
  if (block_ws > 0) blocks = std::max<int64_t>(1, std::min<int64_t>(blocks, most / block_ws));
  double* ws = nullptr;
  if (ws_per > 0 && fault::dev_malloc_async(reinterpret_cast<void**>(&ws), (size_t)(block_ws * blocks), s) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE_ALLOC;
  }
  launch((int)blocks, threads, ws, ws_per);
  const bool launched = fault::launch_status() == cudaSuccess;
  if (ws && fault::dev_free_async(ws, s) != cudaSuccess) (void)cudaGetLastError();
  return launched ? 0 : SGPU_ERR_DEVICE;
}

// A warp's teams: kWarpsPerBlock warps a block, per_warp teams each.
template <class Launch>
int launch_warps(int64_t batch, int per_warp, int64_t ws_per, int64_t ws_limit, cudaStream_t s, Launch launch) {
  return launch_teams(batch, 32 * kWarpsPerBlock, (int64_t)kWarpsPerBlock * per_warp, ws_per, ws_limit, s, launch);
}

}  // namespace

int eig(const EigJob& j, bool warp, cudaStream_t s) {
  const int64_t ws_per = j.geev ? core::geev_work(j.n) : 0;
  if (warp && j.geev)
    return launch_warps(j.batch, 1, ws_per, j.ws_limit, s, [&](int grid, int block, double* ws, int64_t per) {
      k_dgeev<true><<<grid, block, 0, s>>>(j.wantvl, j.wantvr, j.n, j.A, j.lda, j.sA, j.wr, j.wi, j.sW, j.VL, j.ldvl,
                                           j.sVL, j.Z, j.ldz, j.sZ, j.info, j.batch, ws, per);
    });
  return launch_teams(j.batch, block_threads(j.n), 1, ws_per, j.ws_limit, s,
                      [&](int grid, int block, double* ws, int64_t per) {
                        if (j.geev)
                          k_dgeev<false><<<grid, block, 0, s>>>(j.wantvl, j.wantvr, j.n, j.A, j.lda, j.sA, j.wr, j.wi,
                                                                j.sW, j.VL, j.ldvl, j.sVL, j.Z, j.ldz, j.sZ, j.info,
                                                                j.batch, ws, per);
                        else
                          k_dhseqr<<<grid, block, 0, s>>>(j.wantt, j.compz, j.n, j.ilo, j.ihi, j.A, j.lda, j.sA, j.wr,
                                                          j.wi, j.sW, j.Z, j.ldz, j.sZ, j.info, j.batch);
                      });
}

int64_t eig_workspace(const EigJob& j, bool warp) {
  return j.geev ? (int64_t)sizeof(double) * core::geev_work(j.n) * (warp ? kWarpsPerBlock : 1) : 0;
}

int zheev(const EigJob& j, cudaStream_t s) {
  const int n = j.n;
  if (j.batch == 0) return 0;
  const int p = zheev_team_lanes(n);
  const ZheevKernel k = j.wantz ? zheev_kernel<true>(p) : zheev_kernel<false>(p);
  if (!k) return SGPU_ERR_DEVICE;
  return launch_warps(j.batch, 32 / p, core::heev_work(n, j.wantz, core::kHeevInverse, p), j.ws_limit, s,
                      [&](int grid, int block, double* ws, int64_t per) {
                        k<<<grid, block, 0, s>>>(j.lower, n, reinterpret_cast<core::zc*>(j.A), j.lda, j.sA, j.wr,
                                                 j.sW, j.info, j.batch, ws, per);
                      });
}

int64_t zheev_workspace(int n, bool wantz) {
  const int p = zheev_team_lanes(n);  // launch_warps: one block of 32 / p matrices per warp
  return (int64_t)sizeof(double) * core::heev_work(n, wantz, core::kHeevInverse, p) * kWarpsPerBlock * (32 / p);
}

}  // namespace eig_warp
}  // namespace gpu
}  // namespace sgpu
