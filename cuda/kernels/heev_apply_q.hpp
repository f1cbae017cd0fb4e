// zheev's phase 3 with vectors on the fp64 tensor cores (heev_apply_q.cu): X = Q X for the block
// path, Q = H(1) ... H(n-1) phase 1's reflectors, in passes of kNb reflectors from the last, each
// I - V T V^H as zunmqr's blocked form.
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

namespace sgpu {
namespace gpu {
namespace heev_apply_q {

// Reflectors a pass: the kernel's warps each take 8 of them.
constexpr int kNb = 32;

// Whether the current device has fp64 MMAs (compute capability 8.0 and above).
bool serves();

// Complex elements of scratch a matrix takes (each pass's kNb x kNb T).
int64_t scratch_elems(int n);

// X's start where the block kernel leaves it to this one: X = diag(ph) Z(:, ord), Z real, Z(r, c)
// (1-based) of matrix b at z[b zs + (r - 1) rs + (c - 1) cs]; matrix b's ph (n doubles) at
// phord + b 2n and its ord (n ints, 1-based columns of Z; out-of-range entries taken as 1) right
// after them.
struct XStart {
  const double* z;
  int64_t rs, cs, zs;
  const double* phord;
};

// For `cnt` matrices of order n (2 <= n): X is rows 1..n of A (ld lda, stride sA complex elements),
// on entry there or, where xs is not null, as xs describes;
// V is W's global image as the block kernel's prepare_gemm_apply leaves it with passes of kNb
// (ld n, stride n^2: reflector i in column i, its unit element on row i + 1 and zeros above it
// down to its pass's first row); tau n a matrix; T scratch_elems(n) a matrix. Asynchronous on st.
// 0 or SGPU_ERR_DEVICE.
int launch(int n, int cnt, void* A, int lda, int64_t sA, const void* V, const void* tau, void* T, const XStart* xs,
           cudaStream_t st);

}  // namespace heev_apply_q
}  // namespace gpu
}  // namespace sgpu
