// dhseqr and dgeev with the matrices in shared memory (seed 000 §4.4's SWB assignment, on Hopper),
// the driver: team size, slot and launch shapes, the grid. The kernel is eig_smem_kernel.cuh.
//
// Why no separate MW -> RW / EW rearrangement kernel (the seed's Table 4.1): the warp's copy reads
// the caller's MW data coalesced already (consecutive matrices are consecutive in memory), so a
// rearrangement pass would only add a read and a write of the whole batch. The seed's EW/MWB
// assignment ran the QR sweeps on global memory; here every step works on shared memory, and the
// whole batch passes through global memory once each way.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "backend.hpp"
#include "device/dev_setting.hpp"
#include "kernels/eig_smem_kernel.cuh"
#include "device/fault.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace eig_smem {

namespace {

Kernel kernel_for(const Job& j) {
  switch (mode_of(j)) {
    case kHseqrValues: return kernel_for_lanes<kHseqrValues>(j.lanes);
    case kHseqrVectors: return kernel_for_lanes<kHseqrVectors>(j.lanes);
    default: return kernel_for_lanes<kGeevValues>(j.lanes);
  }
}

// A developer setting of lanes per matrix: 1, 2, 4, 8, 16 or 32, else 0.
int setting_lanes(const char* name) {
  const char* e = dev::setting(name);
  const int p = e ? std::atoi(e) : 0;
  return p == 1 || p == 2 || p == 4 || p == 8 || p == 16 || p == 32 ? p : 0;
}

int forced_lanes() {
  static const int v = setting_lanes("SGPU_EIG_TEAM");
  return v;
}

// SGPU_EIG_GRID=group|resident: 1 or 2 (forces Job::block_per_group; the benchmark's hook), else 0.
int forced_grid() {
  static const int v = [] {
    const char* e = dev::setting("SGPU_EIG_GRID");
    if (!e) return 0;
    return std::strcmp(e, "group") == 0 ? 1 : std::strcmp(e, "resident") == 0 ? 2 : 0;
  }();
  return v;
}

struct DeviceLimits {
  int sms = 0, optin = 0, err = 0;
};
DeviceLimits limits() {
  DeviceLimits d;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&d.optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) {
    (void)cudaGetLastError();
    d.err = SGPU_ERR_DEVICE;
  }
  return d;
}

}  // namespace

// Lanes per matrix by order (tuning.hpp; the developer setting SGPU_EIG_TEAM forces it).
int team_lanes(int n) {
  if (int f = forced_lanes()) return f;
  return tuning::eig_lanes(n);
}

namespace {

// j's lanes and launch shape for slots of `slot` doubles: P = lanes, widened until one warp's
// slots fit in a block. False when not even P = 32 fits.
bool fit(Job& j, int lanes, int64_t slot, const DeviceLimits& d) {
  const int64_t bytes = slot * (int64_t)sizeof(double);
  for (int p = lanes; p <= 32; p *= 2) {
    const int64_t warp_bytes = bytes * (32 / p);
    const int64_t warps = std::min<int64_t>(kMaxWarpsPerBlock, d.optin / warp_bytes);
    if (warps >= 1) {
      j.lanes = p;
      j.slot = slot;
      j.warps = (int)warps;
      j.smem = (size_t)(warps * warp_bytes);
      return true;
    }
  }
  return false;
}

// Lanes per matrix of dgeev's Schur-form and eigenvector phases (tuning.hpp; the developer
// settings SGPU_EIG_SCHUR_TEAM and SGPU_EIG_VECTORS_TEAM force them).
int phase_lanes(int phase, int n) {
  static const int forced[2] = {setting_lanes("SGPU_EIG_SCHUR_TEAM"), setting_lanes("SGPU_EIG_VECTORS_TEAM")};
  if (int f = forced[phase == kSchur ? 0 : 1]) return f;
  const tuning::GeevPhaseLanes r = tuning::geev_phase_lanes(n);
  return phase == kSchur ? r.schur : r.vectors;
}

}  // namespace

bool plan(Job& j) {
  const DeviceLimits d = limits();
  if (d.err || j.n < 1) return false;
  j.ld = j.n | 1;
  // Odd: the same element of neighbouring slots in distinct banks.
  // dhseqr's arithmetic does not depend on P, so its table is its own.
  int lanes = team_lanes(j.n);
  if (!j.geev && !forced_lanes()) lanes = j.compz ? tuning::hseqr_lanes(j.n).vectors : tuning::hseqr_lanes(j.n).values;
  return fit(j, lanes, SlotShape(j, mode_of(j) == kGeevValues).end(j) | 1, d);
}

namespace {

// Launches kernel k for job j (after plan) on s, with args after the job.
template <class K, class... Args>
int launch_kernel(K k, const Job& job, const DeviceLimits& d, cudaStream_t s, Args... args) {
  Job j = job;
  // Warps per block: the most warps resident per SM (smem_slots::block_shape).
  smem_slots::Shape shape;
  if (smem_slots::block_shape(k, j.smem / (size_t)j.warps, j.warps, shape, tuning::kEigMinWarpsPerBlock) != 0)
    return SGPU_ERR_DEVICE;
  const int best_occ = shape.blocks_per_sm;
  j.warps = shape.warps;
  j.smem = shape.smem;
  // Grid: j.block_per_group (SGPU_EIG_GRID=group|resident forces it). One block per group of
  // matrices lets the hardware's block scheduler balance the matrices' uneven iteration counts;
  // only the resident blocks, each looping over a fixed share of groups, leaves the GPU idling on
  // the slowest shares but lets the streamed pipeline's pieces overlap each other's tails.
  // Measured (docs/tuning.md, "Grid"): the drivers ask for one block per group except when staging.
  const int64_t per_block = (int64_t)j.warps * (32 / j.lanes);
  const int64_t groups = (j.batch + per_block - 1) / per_block;
  const int forced = forced_grid();
  const bool per_group = forced ? forced == 1 : j.block_per_group;
  const int64_t grid = std::min<int64_t>(per_group ? (int64_t)INT32_MAX : (int64_t)best_occ * d.sms, groups);
  k<<<(unsigned)grid, 32 * j.warps, j.smem, s>>>(j, args...);
  if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
  return 0;
}

// The job's matrices b0 .. b0 + nb - 1.
Job slice(const Job& j, int64_t b0, int64_t nb) {
  Job c = j;
  c.A += b0 * j.sA;
  c.wr += b0 * j.sW;
  c.wi += b0 * j.sW;
  if (c.Z) c.Z += b0 * j.sZ;
  if (c.VL) c.VL += b0 * j.sVL;
  c.info += b0;
  c.batch = nb;
  return c;
}

// dgeev with vectors: its three phase kernels in turn over each chunk of matrices whose carry
// fits the job's workspace limit (kMaxCarryBytes at most).
constexpr int64_t kMaxCarryBytes = int64_t(1) << 30;
int launch_geev_phases(const Job& job, const DeviceLimits& d, cudaStream_t s) {
  const int64_t per = workspace_per_matrix(job);
  const int64_t cap = job.ws_limit > 0 ? std::min(job.ws_limit, kMaxCarryBytes) : kMaxCarryBytes;
  if (cap < per) return SGPU_ERR_DEVICE_ALLOC;
  const int64_t chunk = std::min(job.batch, cap / per);
  // The reduction runs on the plan's P, whose 2-norms the eigenvalues without vectors share; the
  // other phases' arithmetic does not depend on P. The Schur form's slots need no work.
  Job phases[3] = {job, job, job};
  if (!fit(phases[kSchur], phase_lanes(kSchur, job.n), SlotShape(job, false).work | 1, d) ||
      !fit(phases[kVectors], phase_lanes(kVectors, job.n), job.slot, d))
    return SGPU_ERR_DEVICE;
  const PhaseKernel ks[] = {phase_kernel_for_lanes<kReduce>(phases[kReduce].lanes),
                            phase_kernel_for_lanes<kSchur>(phases[kSchur].lanes),
                            phase_kernel_for_lanes<kVectors>(phases[kVectors].lanes)};
  double* carry = nullptr;
  if (fault::dev_malloc_async(reinterpret_cast<void**>(&carry), (size_t)(chunk * per), s) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE_ALLOC;
  }
  int rc = 0;
  for (int64_t b0 = 0; b0 < job.batch && rc == 0; b0 += chunk) {
    for (int ph = kReduce; ph <= kVectors && rc == 0; ++ph)
      rc = launch_kernel(ks[ph], slice(phases[ph], b0, std::min(chunk, job.batch - b0)), d, s, carry);
  }
  if (fault::dev_free_async(carry, s) != cudaSuccess) (void)cudaGetLastError();
  return rc;
}

}  // namespace

int64_t workspace_per_matrix(const Job& j) {
  return mode_of(j) == kGeevVectors ? geev_carry_doubles(j.n) * (int64_t)sizeof(double) : 0;
}

int launch(const Job& job, cudaStream_t s) {
  if (job.batch == 0) return 0;
  const DeviceLimits d = limits();
  if (d.err) return d.err;
  if (mode_of(job) == kGeevVectors) return launch_geev_phases(job, d, s);
  return launch_kernel(kernel_for(job), job, d, s);
}

}  // namespace eig_smem
}  // namespace gpu
}  // namespace sgpu
