/* A C consumer of an installed sgpu, built with nothing but `pkg-config --cflags --libs sgpu`.
 * Self-checking: matrices with known spectra (Householder similarity of a diagonal), so it needs
 * no LAPACK. Exit status 0 when every result agrees. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <sgpu.h>

enum { N = 6, BATCH = 100 };

/* A = H D H with H = I - 2 v v^T / (v^T v): eigenvalues are the diagonal of D. */
static void similar_to_diag(double *a, const double *d, const double *v) {
  double vv = 0, h[N][N];
  for (int i = 0; i < N; ++i) vv += v[i] * v[i];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) h[i][j] = (i == j) - 2 * v[i] * v[j] / vv;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < N; ++k) s += h[i][k] * d[k] * h[k][j];
      a[i + j * N] = s;
    }
}

static int cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int main(void) {
  static double a[BATCH * N * N], wr[BATCH * N], wi[BATCH * N], d[BATCH][N];
  static sgpu_complex_double z[BATCH * N * N];
  static double w[BATCH * N];
  int info[BATCH], bad = 0;
  srand(7);
  for (int b = 0; b < BATCH; ++b) {
    double v[N];
    for (int i = 0; i < N; ++i) {
      d[b][i] = i + 1 + 0.5 * b;
      v[i] = rand() / (double)RAND_MAX - 0.5;
    }
    similar_to_diag(a + b * N * N, d[b], v);
    /* A real symmetric matrix is Hermitian: the same spectrum through zheev. */
    for (int k = 0; k < N * N; ++k) z[b * N * N + k] = a[b * N * N + k];
  }
  int st = sgpu_dgeev_batched(NULL, 'N', 'N', N, a, N, N * N, wr, wi, N, NULL, 1, 0, NULL, 1, 0, info, BATCH);
  if (st != 0) {
    printf("dgeev: %s\n", sgpu_strerror(st));
    return 1;
  }
  for (int b = 0; b < BATCH; ++b) {
    qsort(wr + b * N, N, sizeof(double), cmp);
    for (int i = 0; i < N; ++i)
      if (fabs(wr[b * N + i] - d[b][i]) > 1e-10 * (N + 0.5 * b) || wi[b * N + i] != 0) ++bad;
  }
  st = sgpu_zheev_batched(NULL, 'V', 'L', N, z, N, N * N, w, N, info, BATCH);
  if (st != 0) {
    printf("zheev: %s\n", sgpu_strerror(st));
    return 1;
  }
  for (int b = 0; b < BATCH; ++b)
    for (int i = 0; i < N; ++i)
      if (fabs(w[b * N + i] - d[b][i]) > 1e-10 * (N + 0.5 * b)) ++bad;
  float x[4] = {1, 2, 3, 4}, y[4];
  st = sgpu_scan_cols(NULL, SGPU_COL_MAJOR, SGPU_R_32F, SGPU_R_32F, 4, 1, x, 4, 4, y, 4, 4, 1);
  if (st != 0 || y[3] != 10.0f) ++bad;
  printf("sgpu %s C consumer: %s (%d mismatches)\n", sgpu_version(), bad ? "FAILED" : "ok", bad);
  return bad ? 1 : 0;
}
