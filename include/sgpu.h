/* sgpu: batched LAPACK-style solvers for many small dense problems.
 *
 * The only public header. C99 and C++; needs no CUDA header.
 *
 * Batches are matrices stored one after another in column-major order: matrix b of a batch
 * starts at A + b*strideA (all offsets are computed in 64 bits). Sizes are int as in LAPACK;
 * strides and batch counts are int64_t. Arguments have LAPACK's order and meaning.
 *
 * Return value of every routine:
 *   0       every matrix succeeded;
 *   -i      argument i is illegal (ctx is argument 1); checked in argument order before
 *           anything is written, then outputs that overlap an earlier operand (see README
 *           "Argument checks"); SGPU_VERBOSE=1 names it on stderr;
 *   k > 0   k matrices finished with info[b] != 0 (info[b] has LAPACK's meaning);
 *   < -1000 a resource or backend error (SGPU_ERR_*); see sgpu_strerror().
 */
#ifndef SGPU_H
#define SGPU_H

#include <stddef.h>
#include <stdint.h>

#define SGPU_VERSION_MAJOR 0
#define SGPU_VERSION_MINOR 1
#define SGPU_VERSION_PATCH 0

#if defined(_WIN32)
#define SGPU_API __declspec(dllexport)
#else
#define SGPU_API __attribute__((visibility("default")))
#endif

/* Complex double: layout-compatible with double _Complex, std::complex<double>, Fortran
 * complex(c_double_complex) and cuDoubleComplex. A LAPACKE user's lapack_complex_double is
 * the same type, so pointers pass without a cast. Define SGPU_COMPLEX_DOUBLE to override. */
#if defined(SGPU_COMPLEX_DOUBLE)
typedef SGPU_COMPLEX_DOUBLE sgpu_complex_double;
#elif defined(lapack_complex_double)
typedef lapack_complex_double sgpu_complex_double;
#elif defined(__cplusplus)
#include <complex>
typedef std::complex<double> sgpu_complex_double;
#else
typedef double _Complex sgpu_complex_double;
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sgpu_context *sgpu_context_t;

/* The enums below are int in C. In C++ they are given int as their underlying type, so that any
 * int a caller passes (C allows any) is a value of the type and the library's check can reject
 * it: without it, C++ reads an out-of-range enum value as undefined behaviour. */
#if defined(__cplusplus)
#define SGPU_ENUM_INT_ : int
#else
#define SGPU_ENUM_INT_
#endif

/* Backend choice of a context. AUTO: the GPU when one is present and the routine has a GPU
 * implementation, otherwise the CPU. The environment variable SGPU_BACKEND=cpu|gpu|auto (any case),
 * read when a context is created, overrides AUTO; SGPU_VERBOSE=1 logs each choice to stderr. */
typedef enum SGPU_ENUM_INT_ { SGPU_BACKEND_AUTO = 0, SGPU_BACKEND_CPU = 1, SGPU_BACKEND_GPU = 2 } sgpu_backend_t;

/* Element types of sgpu_scan_cols. */
typedef enum SGPU_ENUM_INT_ {
  SGPU_R_32F = 0, /* float */
  SGPU_R_64F = 1, /* double */
  SGPU_R_32I = 2, /* int32_t */
  SGPU_R_64I = 3, /* int64_t */
  SGPU_R_8U = 4,  /* uint8_t */
  SGPU_R_32U = 5  /* uint32_t */
} sgpu_type_t;

/* Layouts, as LAPACKE's. */
#define SGPU_ROW_MAJOR 101
#define SGPU_COL_MAJOR 102

/* Error codes (below -1000, distinct from -i argument errors). */
#define SGPU_SUCCESS 0
#define SGPU_ERR_HOST_ALLOC (-1001)      /* host memory allocation failed */
#define SGPU_ERR_DEVICE_ALLOC (-1002)    /* device memory allocation failed */
#define SGPU_ERR_DEVICE (-1003)          /* a CUDA call or kernel launch failed */
#define SGPU_ERR_NO_BACKEND (-1004)      /* the requested backend is not available here */
#define SGPU_ERR_NOT_SUPPORTED (-1005)   /* this backend cannot run this routine/argument yet */
#define SGPU_ERR_INVALID_CONTEXT (-1006) /* context setter given a bad context or value */

/* info[b] after a call that returned below -1000: matrix b was not computed (or its result was not
 * delivered). Every info[b] of such a call holds it, so that no matrix reads as done. */
#define SGPU_INFO_NOT_COMPUTED (-1)

/* Context: backend choice, device, optional CUDA stream (cudaStream_t as void*), CPU thread
 * count (0: OpenMP's default), cached workspace. NULL wherever a context is taken means the
 * library's default context (created lazily, thread-safe). A handle is checked against the live
 * contexts without being read: once destroyed it is illegal for good. set_backend(GPU) returns
 * SGPU_ERR_NO_BACKEND where no GPU is usable; set_num_threads takes 0..max(256, 4 x processors)
 * (within OMP_THREAD_LIMIT) and returns SGPU_ERR_INVALID_CONTEXT beyond. */
SGPU_API int sgpu_context_create(sgpu_context_t *ctx);
SGPU_API int sgpu_context_destroy(sgpu_context_t ctx);
SGPU_API int sgpu_context_set_backend(sgpu_context_t ctx, sgpu_backend_t backend);
SGPU_API int sgpu_context_get_backend(sgpu_context_t ctx, sgpu_backend_t *backend);
SGPU_API int sgpu_context_set_device(sgpu_context_t ctx, int device);
SGPU_API int sgpu_context_set_stream(sgpu_context_t ctx, void *stream);
SGPU_API int sgpu_context_set_num_threads(sgpu_context_t ctx, int nthreads);

/* Several GPUs. A call on host memory is cut into pieces of whole matrices (the scan:
 * of whole matrices or columns) and the pieces are shared out in contiguous runs over the listed
 * devices, one pipeline per device; each matrix's result is bitwise what one device gives. Data in
 * device memory is computed where it is, on the first listed device, ordered on the context's
 * stream (which belongs to that device). A device may be listed twice (it then runs two
 * pipelines). count: 1..SGPU_MAX_DEVICES; ids are not checked against the machine here (a call on
 * a missing device returns SGPU_ERR_DEVICE). sgpu_context_set_device(ctx, d) is the list {d}, the
 * default {0}. Setters are not to be called while a call on the same context runs. */
#define SGPU_MAX_DEVICES 16
SGPU_API int sgpu_context_set_devices(sgpu_context_t ctx, const int *devices, int count);
/* Writes min(count, capacity) device ids to devices and the count to *count. */
SGPU_API int sgpu_context_get_devices(sgpu_context_t ctx, int *devices, int capacity, int *count);

/* Device memory one call may allocate on each device (bytes; 0, the default: no limit but the
 * device's). Host data then goes in pieces small enough that the pipeline's buffers and the
 * kernels' workspaces stay within it, and operands that must be staged whole go in sub-batches;
 * results are bitwise those of an unlimited call. A call whose smallest piece (one matrix; the
 * scan: one column) does not fit returns SGPU_ERR_DEVICE_ALLOC, writing only info (every entry
 * SGPU_INFO_NOT_COMPUTED). Not counted: the CUDA context, cuBLAS's own workspace, and the operands
 * the caller keeps in device memory. */
SGPU_API int sgpu_context_set_device_memory_limit(sgpu_context_t ctx, size_t bytes);

/* Number of usable CUDA devices (0 when built without CUDA or none is present). */
SGPU_API int sgpu_gpu_count(void);
/* "major.minor.patch". */
SGPU_API const char *sgpu_version(void);
/* A static description of any return value. */
SGPU_API const char *sgpu_strerror(int status);

/* Eigenvalues, Schur form (job 'E'|'S') and Schur vectors (compz 'N'|'I'|'V') of upper
 * Hessenberg matrices, as LAPACK dhseqr. Eigenvalues of matrix b go to wr/wi + b*strideW. */
SGPU_API int sgpu_dhseqr_batched(sgpu_context_t ctx, char job, char compz, int n, int ilo, int ihi,
                                 double *H, int ldh, int64_t strideH,
                                 double *wr, double *wi, int64_t strideW,
                                 double *Z, int ldz, int64_t strideZ,
                                 int *info, int64_t batch);

/* Eigenvalues and left/right eigenvectors (jobvl, jobvr 'N'|'V') of general real matrices, as
 * LAPACK dgeev (with balancing). A is overwritten (its contents on exit are unspecified, as
 * LAPACK's: the GPU backend leaves it unchanged). */
SGPU_API int sgpu_dgeev_batched(sgpu_context_t ctx, char jobvl, char jobvr, int n,
                                double *A, int lda, int64_t strideA,
                                double *wr, double *wi, int64_t strideW,
                                double *VL, int ldvl, int64_t strideVL,
                                double *VR, int ldvr, int64_t strideVR,
                                int *info, int64_t batch);

/* Eigenvalues (ascending) and eigenvectors (jobz 'N'|'V', overwriting A) of Hermitian matrices
 * given by their uplo ('U'|'L') triangle, as LAPACK zheev. With vectors and n > 25 the
 * tridiagonal stage is divide and conquer, as LAPACK zheevd; on the GPU backend, for n = 9-512, it
 * is inverse iteration, as LAPACK zheevx, from eigenvalues found by dsterf on each of dstebz's
 * blocks (n <= 64) or by bisection (n > 64). The eigenvalues are bitwise the same with and without
 * vectors (on one backend). info[b] > 0: matrix b's iteration failed (its w, and with vectors its
 * A, are then not all meaningful; by inverse iteration, info[b] vectors did not converge, each
 * still stored); n: it held NaN/Inf. */
SGPU_API int sgpu_zheev_batched(sgpu_context_t ctx, char jobz, char uplo, int n,
                                sgpu_complex_double *A, int lda, int64_t strideA,
                                double *w, int64_t strideW,
                                int *info, int64_t batch);

/* Inclusive column-wise prefix sums B[i][j] = sum_{k<=i} A[k][j] of a batch of m x n matrices.
 * layout SGPU_COL_MAJOR (element (i,j) at i + j*ld) or SGPU_ROW_MAJOR (at i*ld + j). Type pairs:
 * 32F->32F, 64F->64F, 32I->32I, 64I->64I, 8U->32U, 32F->64F. Integer sums wrap modulo 2^w.
 * In place (A == B) is allowed when lda == ldb, strideA == strideB and the element sizes match.
 * Floating-point sums are bitwise reproducible run to run on each backend; the backends differ in
 * association order (docs/design.md gives both and the error bound). On the GPU backend with A and
 * B in device memory the call is asynchronous, ordered on the context's stream (as cuBLAS); with
 * host memory it streams the data through the GPU in pieces and returns when B is written. AUTO
 * runs it on the GPU for device data only. */
SGPU_API int sgpu_scan_cols(sgpu_context_t ctx, int layout, sgpu_type_t type_in, sgpu_type_t type_out,
                            int m, int n, const void *A, int lda, int64_t strideA,
                            void *B, int ldb, int64_t strideB, int64_t batch);

#ifdef __cplusplus
}
#endif

#endif /* SGPU_H */
