// The GPU backend's tuning: every value chosen by measurement (lanes per matrix by order, block
// shapes, piece sizes, the orders where one path hands over to another), each with its reason in
// one line. The measurements behind them are in docs/tuning.md under the same names; a change
// here is a new measurement there. Constants the algorithms' structure fixes (tile geometry tied to
// thread indexing, LAPACK's criteria) stay beside their code. Where a developer build may override
// a value at run time (dev_setting.hpp), the setting's name is given in brackets.
#pragma once
#include <cstdint>

namespace sgpu {
namespace gpu {
namespace tuning {

// ---- dhseqr and dgeev, each matrix in shared memory (kernels/eig_smem) --------------------------
// Lanes per matrix: a row serves the orders up to its n, larger orders take 32; the launch widens
// P further until one warp's slots fit in a block. One P for dgeev's values and the reduction phase
// of dgeev with vectors, because a team's sums depend on P and a call's eigenvalues must not depend
// on the job flags (dhseqr and dgeev's other phases: the tables below). [SGPU_EIG_TEAM]
struct EigLanes {
  int n, lanes;
};
constexpr EigLanes kEigLanes[] = {
    {5, 2},    // P = 1 and 2 equal within the spread
    {10, 2},   // values run in registers; vectors in one kernel were 19% faster than at P = 4
    {13, 4},   // values 13% faster than P = 8 at n = 12, 3% at 13 (vectors 3% slower there)
    {15, 8},   // values 6% and vectors 4-5% faster than P = 4 at n = 14 and 15
    {20, 8},   // values 13% faster than P = 16 (re-measured with the phase kernels)
    {30, 16},  // the sweep's fastest
    {48, 32},  // the sweep's fastest
    {64, 32},  // the sweep's fastest
};
// kEigLanes' P for order n, at compile time (the register kernels below add their 2-norms in the
// order of a team of that P, so that their eigenvalues are bitwise the teams').
constexpr int eig_lanes(int n) {
  for (const EigLanes& r : kEigLanes)
    if (n <= r.n) return r.lanes;
  return 32;
}

// dhseqr's lanes per matrix without and with Schur vectors: its arithmetic does not depend on P
// (its team reductions are maxima), so each mode takes the fastest. A row serves the orders up to
// its n. [SGPU_EIG_TEAM]
struct HseqrLanes {
  int n, values, vectors;
};
constexpr HseqrLanes kHseqrLanes[] = {
    {5, 2, 2},     // not swept
    {10, 4, 8},    // job S: P = 4 20% faster than 2; compz I: P = 8 41% faster than 2
    {15, 8, 16},   // compz I: P = 16 6% faster than 8
    {20, 16, 32},  // compz I: P = 32 28% faster than 8, 10% than 16
    {30, 32, 32},  // job S: 14% faster than 16; compz I: 43% faster than 16
    {64, 32, 32},  // not swept
};
constexpr HseqrLanes hseqr_lanes(int n) {
  for (const HseqrLanes& r : kHseqrLanes)
    if (n <= r.n) return r;
  return HseqrLanes{n, 32, 32};
}

// dgeev with vectors runs in three kernels (kernels/eig_smem_kernel.cuh, k_geev_phase): the
// reduction takes kEigLanes' P (the eigenvalues' 2-norms depend on it); the Schur form and the
// eigenvectors take their own, a row serving the orders up to its n. [SGPU_EIG_SCHUR_TEAM,
// SGPU_EIG_VECTORS_TEAM]
struct GeevPhaseLanes {
  int n, schur, vectors;
};
constexpr GeevPhaseLanes kGeevPhaseLanes[] = {
    {5, 2, 2},     // not swept
    {10, 8, 2},    // Schur form 8: 15% faster than 2; vectors 4-32 slower than 2
    {15, 8, 2},    // Schur form 8 and 16: 20% faster than 4; vectors 2: 17% faster than 4
    {20, 16, 4},   // Schur form 16 and 32: 6-8% faster than 8; vectors 4: 12% faster than 8
    {30, 32, 8},   // Schur form 32: 19% faster than 16; vectors 8: 5% faster than 16
    {64, 32, 32},  // not swept
};
constexpr GeevPhaseLanes geev_phase_lanes(int n) {
  for (const GeevPhaseLanes& r : kGeevPhaseLanes)
    if (n <= r.n) return r;
  return GeevPhaseLanes{n, 32, 32};
}

// Warps per block at least (where a block of that many fits): of the shapes that keep the most
// warps resident, blocks of one warp ran slower than blocks of two.
constexpr int kEigMinWarpsPerBlock = 2;  // dgeev values n = 15, 20: 11 and 13 warps of one 9-11% slower than 10, 12

// ---- dhseqr and dgeev on global memory (kernels/eig_warp): one block per matrix -----------------
// Threads a block: kEigBlockThreads, kEigBlockWideThreads from order kEigBlockWideMinN; by order
// only (a team's sums depend on its size, and a matrix's eigenvalues must not depend on the job or
// on the piece of the batch it came in). [SGPU_EIG_BLOCK_THREADS]
constexpr int kEigBlockThreads = 256;  // dgeev n = 256: 80 / 146 ms (N,N / N,V, batch 1) against 89 / 170 at 128, 85 / 158 at 512
constexpr int kEigBlockWideMinN = 512;
constexpr int kEigBlockWideThreads = 512;  // dgeev n = 512: 464 / 906 ms (batch 1) against 499 / 962 at 256

// ---- dhseqr and dgeev eigenvalues, one thread per matrix in registers (kernels/eig_reg) ---------
// dgeev without vectors and dhseqr without T or Z take the register kernels up to this order.
// [SGPU_EIG_REG_MAX_N, lower only]
constexpr int kEigRegMaxN = 10;  // faster than the teams at 4..10 (10.1 against 11.8 ms); spills above

// ---- the streaming engine from host memory (stream/, drivers/eig.cpp) ---------------------------
// Streams (lanes) per device: one piece copying in, one computing, one copying out, so that both
// copy engines and the kernels are busy at once.
constexpr int kStreams = 3;
// Matrices per piece: kPieceBytes of input, but at least kPieceMinMatrices while that stays within
// kPieceMaxBytes. Small pieces pipeline better where the kernel is short; large ones keep the
// host's staging of pageable memory ahead once it is long. [SGPU_EIG_PIECE_BYTES]
constexpr int64_t kPieceBytes = int64_t(12) << 20;    // best, or within 5%, at n = 5 and 10 both ways
constexpr int64_t kPieceMinMatrices = 10000;          // n = 15: 16 MB pieces 9% faster pageable than 12
constexpr int64_t kPieceMaxBytes = int64_t(32) << 20;  // n = 5 and 10: 32 MB pieces 15-40% slower
// zheev's block path (one block per matrix, compute-bound) goes in rounds of kStreams equal pieces,
// as few rounds as keep a piece within kBlockPieceMaxBytes of input and within
// max(fill, kPieceMaxBytes of) matrices, fill kBlockFillMatrices or, where the eigenvalues come
// from heev_values (a launch's time the dsterf chain's latency), kValuesFillMatrices.
constexpr int64_t kBlockPieceMaxBytes = int64_t(512) << 20;  // bounds a piece's device memory (n = 512: 128)
constexpr int64_t kBlockFillMatrices = 512;  // a few blocks per SM fill it: zheev n = 64 from host 13-38% faster
constexpr int64_t kValuesFillMatrices = 2048;  // H200 pinned, 1024/2048/4096 a piece: 64 N 26.2/22.3/23.5 ms, V 47.2/39.9/44.7
// Pageable operands move through pinned staging buffers in sub-pieces of this many bytes, so that
// a sub-piece's DMA starts as soon as the host has packed it. [SGPU_STAGE_CHUNK_BYTES]
constexpr int64_t kStageChunkBytes = int64_t(16) << 20;  // zheev V n = 256 8% faster; its one loss: n = 64, 5%
// zheev with vectors on the block path splits a batch of at least this many matrices into
// kStreams pieces even on device data, so one piece's cuBLAS passes overlap another's kernel.
// [SGPU_HEEV_SPLIT]
constexpr int64_t kHeevSplitMinBatch = 200;  // 180 matrices ran up to 6% slower split, 238 and more 5-34% faster

// ---- zheev, smallest orders: one thread a matrix, Jacobi in registers (kernels/heev_jacobi) ------
// Orders 1 to kHeevJacobiMaxN (at most 8) take it, with and without vectors; above, the teams.
constexpr int kHeevJacobiMaxN = 8;  // 7 V 22.29 -> 7.32 ms, 8 V 17.74 -> 11.94 (H200, against the teams)

// ---- zheev, small orders: a team per matrix in shared memory (kernels/heev_team) ----------------
// Lanes per matrix by order for jobz N and V, whether jobz N keeps the matrix in shared memory
// (else the global-memory warp path serves it), whether jobz V takes inverse iteration (else
// the QL/QR chain; jobz N takes that method's values, so that they are bitwise jobz V's), and
// whether inverse iteration's eigenvalues come from dsterf one thread a matrix (kernels/
// heev_values, between a reduction kernel and, with vectors, an inverse-iteration kernel) rather
// than from the team's bisection (needs inverse_v and shared_n). A row serves the orders up to its
// n. [SGPU_HEEV_TEAM, SGPU_HEEV_SMALL, SGPU_HEEV_VECTORS]
struct HeevTeamRow {
  int n, lanes_n, lanes_v;
  bool shared_n, inverse_v, sterf;
};
// The stages (sterf) against the team's bisection (jobz N at 17-32 on the global path), H200, ms:
// 9 N 8.66 -> 5.46, V 26.35 -> 15.03; 16 N 9.19 -> 6.41, V 21.56 -> 14.67; 20 N 12.49 -> 7.19,
// V 28.17 -> 24.02; 28 N 11.13 -> 9.74, V 31.26 -> 25.80; 32 N 10.56 -> 11.81, V 33.85 -> 27.25.
constexpr HeevTeamRow kHeevTeam[] = {
    {4, 2, 2, true, false, false},   // P = 2 fastest both ways; the chain 35% faster than inverse iteration
    {8, 4, 4, true, false, false},   // the chain at P = 4 (18.9 ms) beats inverse iteration's best (20.4)
    {16, 8, 16, true, true, true},   // shared memory beat the global path; inverse iteration 33% faster
    {18, 16, 16, true, true, true},  // jobz N in shared memory once bisection left it (above); 17 V at 32 lanes 15.96 -> 17.84
    {32, 16, 32, true, true, true},  // jobz V at 32 lanes: 20 V 18.78 -> 16.99 ms, 24 V 23.19 -> 18.75, 28: 41.3 -> 31.2
};
// The global-memory warp path (kernels/eig_warp.cu) for zheev jobz N: the smallest power of two >= n / 2
// lanes, at least kHeevWarpMinLanes (4 best at n = 4 and 8, 8 at 16, 16 at 32). [SGPU_HEEV_TEAM]
constexpr int kHeevWarpMinLanes = 4;

// ---- zheev, n >= 33: one thread block per matrix (kernels/heev_block) ---------------------------
// Threads per block: kHeevThreadsSmall up to kHeevSmallN (rows are few, so more matrices in flight
// per SM), kHeevThreads above (two blocks per SM under 128 registers a thread).
// H100, N, ms: 128-thread blocks (four an SM) up to 512: 953 x 256 37.80 -> 37.00, 238 x 512 64.45
// -> 97.05; 256-thread blocks bounded to three an SM (85 registers): 42.59, 72.48; 128-thread
// blocks up to 256 only: 953 x 256 N 35.52 -> 35.24, V 44.68 -> 44.51 (within the spread).
constexpr int kHeevThreads = 256;
constexpr int kHeevThreadsSmall = 128;
constexpr int kHeevSmallN = 64;
// Threads per block after the register reduction with vectors (the kernel then only runs inverse
// iteration, a thread an eigenvector, and forms X): one per eigenvector up to 64 (two above), so that no warp
// idles at its barriers; Z in shared memory (shape_of plans 4 blocks an SM; at 33-48 more fit).
// H200, Z by rows: 64 V 23.3 ms; 8 blocks an SM with Z in global memory 23.8; 128 threads, Z by
// columns 25.1. With the twisted vectors (H100, ms, 64 -> 32 / 96 threads): 128 x 3814 V 29.9 ->
// 30.2 / 31.1, 96 x 6781 26.1 -> 26.3 / 26.8, 64 x 15258 18.7 -> 19.9 / 19.9.
constexpr int kHeevThreadsStein = 64;
// Calls of at most kHeevSteinWideBatchPerSm matrices an SM, above kHeevThreadsStein: that kernel
// with kHeevThreadsSmall threads instead (a thread a vector up to 128), since under a wave each
// thread's chain of solves, not the number of blocks in flight, sets its time. H100, whole calls,
// jobz V, device ms, 64 -> 128 threads: 128 x 1 0.90 -> 0.79, x 64 1.39 -> 1.29, x 132 1.62 ->
// 1.57, 100 x 132 1.03 -> 0.96; at two an SM 128 x 180 2.09 -> 2.13, 96 x 180 1.17 -> 1.09.
constexpr int kHeevSteinWideBatchPerSm = 1;
// After the register reduction with vectors, the twisted vectors' pivots (each pass over them a
// chain of dependent loads; n doubles a thread) in shared memory where they fit, in calls of at
// most this many matrices an SM. H100, whole calls, jobz V, ms, global -> shared (then with
// dstein's scratch, 2 n + n / 32 a thread): 128 x 180 2.13 -> 2.06, 128 x 64 1.29 -> 1.29. H200,
// that form -> the pivots alone (two blocks an SM at 128): 128 x 180 2.06 -> 2.09, 96 x 180 1.31
// -> 1.17, 128 x 264 2.23 -> 2.18, 128 x 64 1.29 -> 1.27; in shared memory at every batch, global
// -> shared: 128 x 3814 20.41 -> 21.17, 96 x 6781 17.31 -> 18.16, 64 x 15258 13.12 -> 15.32.
constexpr int kHeevSteinSharedBatchPerSm = 2;
// Phase 1 up to n = 128: the matrix in the registers of TR x TC threads (kernels/
// heev_reg_reduce.cu), blocks_per_sm bounding the registers, and from 64 (the full matrix is the
// register file's size at 128) each thread's first shared_cols column blocks in shared memory; a
// row serves the orders up to its n, the last row's n the largest. H200, ms for the reduction
// alone (bench/heev_reg_reduce_probe.cu, one run): 3814 x 128 32x16 (6 of 8 shared) 15.76 (5 of 8
// 16.54, 4 16.69, all in registers 18.57, 16x16 6 of 8 shared 19.30; the block kernel's phase 1
// 19.56), 6781 x 96 16x8 two an SM (8 of 12 shared) 13.50 (16x16 two an SM 4 of 6 shared 14.29,
// 32x16 3 of 6 15.30; block kernel 24.41), 15258 x 64 16x8 8.92 (16x16 10.57, 8x8 12.00; block
// kernel 12.10), 27126 x 48 16x8 7.61 (8x8 9.32), 38146 x 40 8x8 6.85 (16x8 7.91), 57392 x 33 8x8
// 7.98 (block kernel 13.40). H100, one run: 15258 x 64 16x8 in registers 8.16 (128 registers and
// 1.9 KB of spills a thread), 2 of 8 shared 8.21, 4 of 8 shared 7.05; 3814 x 128 32x16 6 of 8
// shared 14.89, 64x8 10 / 12 of 16 shared 15.83 / 16.07. H100, another run: 15258 x 64 0 / 3 / 4 /
// 5 / 6 of 8 shared 8.21 / 7.77 / 7.12 / 7.03 / 6.96, 27126 x 48 16x8 0 / 1 / 2 of 6 6.95 / 6.77 /
// 6.96, 38146 x 40 8x8 0 / 1 / 2 of 5 6.54 / 6.43 / 6.21 (those without spills at 40 and 48).
// Whole calls, jobz N, H100, ms, 0 / 0 / 4 shared -> the rows' 2 / 1 / 6: 40 x 38146 8.50 -> 8.26,
// 48 x 27126 8.42 -> 8.25, 64 x 15258 8.51 -> 8.42, 49 x 24000 10.58 -> 10.38. [SGPU_HEEV_REDUCE]
struct HeevRegReduceRow {
  int n, tr, tc, blocks_per_sm, shared_cols;
};
constexpr HeevRegReduceRow kHeevRegReduce[] = {
    {40, 8, 8, 6, 2}, {48, 16, 8, 4, 1}, {64, 16, 8, 4, 6}, {96, 16, 8, 2, 8}, {128, 32, 16, 1, 6},
};
// Above kHeevSmallN the register reduction for calls of every size from kHeevRegReduceAnyBatchMinN,
// below it only for calls of at least kHeevRegReduceMinBatch matrices (fewer: the block kernel's
// own phase 1, whose later phases spread a matrix over more threads). H100, whole calls, two-barrier
// kernel, device ms, block kernel / register reduction (bench/device_heev.sh's REDUCE_N), N; V:
// 65 x 1 0.35 / 0.32; 0.48 / 0.51, x 64 0.38 / 0.37; 0.62 / 0.62, x 180 0.41 / 0.46; 0.69 / 0.80,
// x 360 0.79 / 0.77; 1.15 / 1.12, x 720 1.31 / 1.07; 1.87 / 1.53; 96 x 1 0.60 / 0.42; 0.87 / 0.66,
// x 64 0.65 / 0.44; 0.93 / 0.89, x 180 1.22 / 0.67; 1.19 / 1.18, x 720 3.59 / 1.40; 3.83 / 2.30;
// 128 x 1 1.20 / 0.58; 1.42 / 0.90, x 180 1.53 / 1.16; 2.59 / 2.11, x 720 4.84 / 2.91; 6.21 / 4.53.
// Another run: 72 x 64 0.41 / 0.36; 0.68 / 0.69, x 180 0.48 / 0.39; 0.83 / 0.80; 80 x 64 0.48 /
// 0.48; 0.89 / 0.95, x 180 0.69 / 0.53; 1.07 / 1.05; 88 x 64 0.70 / 0.42; 0.93 / 0.82; 97 x 64
// 0.63 / 0.48; 0.95 / 0.77, x 180 1.22 / 0.85; 1.43 / 1.36; 112 x 1 0.77 / 0.52; 1.04 / 0.83, x 64
// 0.78 / 0.83; 1.22 / 1.35, x 180 1.52 / 1.23; 1.68 / 1.86 (the block kernel's W still in shared
// memory below 117; the one loss kept for a rule by order alone); from 360 the register
// reduction won at every order measured (65 to 128).
constexpr int kHeevRegReduceAnyBatchMinN = 96;
constexpr int64_t kHeevRegReduceMinBatch = 360;
// heev_values (the eigenvalues between the register reduction or the team stages and inverse
// iteration): a block a matrix by bisection from this order, below it dsterf one thread a matrix.
// H100, whole calls, jobz N, ms, thread / block: 40 x 38146 8.20 / 8.02, 48 x 27126 8.22 / 8.35,
// 56 x 19000 9.58 / 9.04 (between 48 and 56 not measured). At 64 and 128, a warp a matrix (two
// eigenvalues a lane) -> the block: 64 x 15258 N 8.40 -> 8.13, 128 x 3814 N 16.23 -> 15.78.
constexpr int kHeevValuesBlockMinN = 49;
// The bisection kernel's largest block (an eigenvalue a thread): the register reduction's largest order.
constexpr int kHeevValuesBlockMaxN = 128;
// Phase 1 (reduction to tridiagonal form): loads in flight per thread in the pass, and the order
// from which the pass reads only the lower triangle. [SGPU_HEEV_PASS]
// kHeevPassUnroll: 16 lost (H100, N, ms: 953 x 256 37.80 -> 39.11, 238 x 512 64.45 -> 67.92).
constexpr int kHeevPassUnroll = 8;
// The panel update's rank-2 steps unrolled by this factor (two steps' loads in flight together),
// with the pass's next columns loaded before its arithmetic (pass_lower). H100, one call, N, ms,
// neither -> both: 953 x 256 37.59 -> 34.89, 238 x 512 64.64 -> 60.35, 180 x 256 8.97 -> 8.34,
// 1562 x 200 30.69 -> 29.45; unrolled by 2 alone 36.32, 60.70, 8.55, 30.17; by 4 38.79, 66.51; 8
// 38.05, 64.98 (spills); the prefetch alone 37.21, 64.53. The panel step's loops over its earlier
// reflectors unrolled instead: 37.80 -> 38.55, 64.72 -> 65.33.
constexpr int kHeevPanelUpdateUnroll = 2;
// pass_lower only where W is in global memory without vectors (n >= 116 on the H100; jobz V takes
// the same pass): with W in shared memory pass_full won at 64-100.
constexpr int kHeevLowerPassMinN = 100;  // 127 N 38.3 -> 23.5 ms, V 55.9 -> 49.1; loses at 80 V
// Phase 1 in panels of kHeevPanelNb steps (passes that only read, one rank-2 nb update a panel)
// where the lower pass runs and the lower triangles of the matrices in flight exceed L2 (shape_of
// in kernels/heev_block.cu). H100, ms without -> with panels: 238 x 512 N 87.0 -> 66.0, V 130.9 ->
// 109.4; 953 x 256 N 43.8 -> 38.2; 1562 x 200 N 35.0 -> 31.0; 2441 x 160 N 29.4 -> 28.7; in L2 they
// lose: 15 x 512 N 29.8 -> 39.6, 61 x 256 N 5.4 -> 6.6, 3814 x 128 N 23.6 -> 26.5. [SGPU_HEEV_PANELS]
// 16 (H100, ms, 953 x 256 / 238 x 512): N 35.52 / 61.84 -> 36.95 / 61.68, V 44.68 / 82.04 -> 46.34 / 81.90.
constexpr int kHeevPanelNb = 8;
// Phase 2 as zheevx (dstebz's bisection by blocks, then dstein's inverse iteration, a cluster a
// thread) up to this order, with and without vectors; above it bisection, then divide and conquer
// for the vectors. [SGPU_HEEV_TRIDIAG] H100, ms, divide and conquer -> inverse iteration, jobz V:
// 15258 x 64 49.7 -> 37.8, 3814 x 128 46.1 -> 40.8, 953 x 256 64.9 -> 58.0, 238 x 512 107.3 -> 97.9;
// jobz N (dstebz's splits and sort): 15.8 -> 16.6, 23.3 -> 24.0, 38.6 -> 38.9, 66.0 -> 66.4.
constexpr int kHeevSteinMaxN = 512;
// Rows of stein's back substitution loaded ahead of the one solved (core::stein_solve's kAhead),
// after the register reduction (33-64: 64 threads a block, the scratch in L2). H200, jobz V, ms,
// one row ahead -> two: 15258 x 64 21.16 -> 20.94, 27126 x 48 19.75 -> 19.56, 57392 x 33 23.8 ->
// 23.6. Elsewhere one row (core's default): two took 953 x 256 53.1 -> 67.4, 238 x 512 88.5 -> 100.6.
constexpr int kHeevSteinAheadRec = 2;
// Inverse iteration's twisted vectors (core::stein_all) on the block path from this order, and
// in the teams' kernels (at 9-32) if kHeevTwistTeam; elsewhere dstein's iteration alone. H100,
// whole calls, jobz V, ms, dstein -> twisted: 128 x 3814 32.6 -> 29.8, 96 x 6781 29.7 -> 26.1,
// 64 x 15258 20.5 -> 18.7, 256 x 953 55.9 -> 50.2, 512 x 238 95.5 -> 86.9 (their operands four
// rows ahead instead of one: the same); but 48 x 27126 19.9 -> 24.3, 33 x 57392 23.1 -> 27.8, and
// in the teams 16 x 244140 11.29 -> 12.09, 32 x 61035 18.17 -> 19.15.
constexpr int kHeevTwistMinN = 64;
constexpr bool kHeevTwistTeam = false;
// Phase 2 (divide and conquer): merge products tiled through shared memory from this many rows
// (the plain loop took 70% of the top merge at n = 512).
constexpr int kHeevTiledMinN = 64;
// Phase 3 (back-transformation X = Q Z) in the block's own kernel, where libcublas does not load:
// reflectors per pass and rows a lane loads together (a warp per column; 16 reflectors or 2
// columns spill registers on sm_90).
constexpr int kHeevApplyNb = 8;
constexpr int kHeevApplyRows = 4;
// Phase 3 outside the block kernel from this order (the block path's first): on the tensor cores
// (below) or by batched ZGEMMs in cuBLAS, kHeevGemmNb reflectors a pass (at most kHeevGemmMaxNb).
// cuBLAS's whole calls against the block's own kernel, H200, ms: 33 V 49.4 -> 37.7, 44 45.8 ->
// 32.7, 64 37.4 -> 28.5, 96 47.9 -> 37.6; H100: 7-21% faster at 100-512.
// [SGPU_HEEV_APPLY=gemm|block: from every order, never; SGPU_HEEV_GEMM_NB]
constexpr int kHeevGemmApplyMinN = 33;
constexpr int kHeevGemmNb = 32;          // 2-5% faster than 16; 64 within the spread
constexpr int kHeevGemmMaxNb = 64;    // k_larft holds a pass's k x (k + 1) S and T in shared memory
// Phase 3 on the fp64 tensor cores (kernels/heev_apply_q.cu, passes of 32 reflectors) up to this
// order, by cuBLAS above it (at 512 the kernel's 141 KB of shared memory leave one block an SM).
// H100, whole calls, jobz V, ms, cuBLAS -> tensor cores: 57392 x 33 22.36 -> 21.68, 24000 x 49
// 21.01 -> 20.35, 15258 x 64 16.67 -> 15.45, 6781 x 96 25.49 -> 24.48, 3814 x 128 28.75 -> 27.51,
// 180 x 128 2.79 -> 2.67, 953 x 256 49.79 -> 48.53, 238 x 512 85.9 -> 97.9.
// [SGPU_HEEV_APPLY=cublas: cuBLAS at every order]
constexpr int kHeevMmaApplyMaxN = 256;

// ---- scan_cols (kernels/scan.cu, drivers/scan_plan.hpp) -----------------------------------------
// Row-major tiles of k_rows: threads across a tile row (16-byte words) and rows per thread, from
// the row-major tile sweep. [SGPU_SCAN_TUNE]
constexpr int kScanRowsTX = 16;
constexpr int kScanRowsD = 8;
// Input bytes per streamed piece: about 0.3 ms of PCIe each, three in flight (not swept).
// [SGPU_SCAN_PIECE_BYTES]
constexpr int64_t kScanPieceBytes = int64_t(16) << 20;

}  // namespace tuning
}  // namespace gpu
}  // namespace sgpu
