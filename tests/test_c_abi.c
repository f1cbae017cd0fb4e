/* The C ABI from C99: a LAPACKE user's lapack_complex_double* goes to sgpu_zheev_batched with no
 * cast (compiled with -Werror), sgpu_complex_double has double _Complex's layout, and the results
 * agree with LAPACKE_zheev on the same data. */
#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sgpu.h"

_Static_assert(sizeof(sgpu_complex_double) == 2 * sizeof(double), "sgpu_complex_double is two doubles");
_Static_assert(_Alignof(sgpu_complex_double) == _Alignof(double _Complex), "same alignment as double _Complex");

int main(int argc, char **argv) {
  const int gpu = argc > 2 && !strcmp(argv[2], "gpu");
  enum { N = 5 };
  lapack_complex_double a[N * N], b[N * N];
  double w_ref[N], w[N];
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      double re = 1.0 / (1 + i + j), im = i < j ? 0.1 * (j - i) : i > j ? -0.1 * (i - j) : 0.0;
      a[i + j * N] = re + im * I;
    }
  memcpy(b, a, sizeof a);
  int info = LAPACKE_zheev(LAPACK_COL_MAJOR, 'N', 'U', N, b, N, w_ref);
  sgpu_context_t ctx;
  sgpu_context_create(&ctx);
  sgpu_context_set_backend(ctx, gpu ? SGPU_BACKEND_GPU : SGPU_BACKEND_CPU);
  int sinfo = -1;
  int st = sgpu_zheev_batched(ctx, 'V', 'U', N, a, N, N * N, w, N, &sinfo, 1); /* no cast */
  sgpu_context_destroy(ctx);
  if (gpu && (st == SGPU_ERR_NOT_SUPPORTED || st == SGPU_ERR_NO_BACKEND)) {
    printf("SKIP: %s\n", sgpu_strerror(st));
    return 77;
  }
  int bad = info != 0 || st != 0 || sinfo != 0;
  for (int i = 0; i < N; ++i) bad += fabs(w[i] - w_ref[i]) > 1e-13;
  printf("test_c_abi: %s\n", bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}
