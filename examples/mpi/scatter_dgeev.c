/* One large batch of dgeev problems spread over MPI ranks.
 *
 * Rank 0 holds the batch. It scatters whole matrices (MPI_Scatterv: the shares differ by at most
 * one matrix), every rank calls sgpu_dgeev_batched on its share (on its GPU where it has one,
 * otherwise on the CPU backend), and rank 0 gathers the eigenvalues and info (MPI_Gatherv).
 * Nothing here is sgpu-specific networking: the batch layout (matrices one after another) is what
 * makes a share a contiguous range.
 *
 *   mpirun -np 2 ./scatter_dgeev [n] [batch] [--check]
 *
 * --check (the CTest run): rank 0 also runs LAPACKE_dgeev on every matrix and compares each
 * eigenvalue with the nearest unused LAPACK one, within 1e3 n ulp ||A||_1 (eigenvalues of a random
 * matrix are well separated; a matrix sent to the wrong rank or gathered into the wrong slot
 * fails by far more). Exit status 0 when every matrix matches.
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sgpu.h"

#ifdef SGPU_EXAMPLE_CHECK
#include <lapacke.h>
#endif

/* Shares of `batch` items over `ranks`: counts and displacements, times `per` elements each. */
static void shares(int64_t batch, int ranks, int per, int *counts, int *displs) {
  int64_t at = 0;
  for (int r = 0; r < ranks; ++r) {
    const int64_t items = batch / ranks + (r < batch % ranks);
    counts[r] = (int)(items * per);
    displs[r] = (int)(at * per);
    at += items;
  }
}

#ifdef SGPU_EXAMPLE_CHECK
/* Matrix b's eigenvalues (wr, wi) against LAPACKE_dgeev's: 0 when they match. */
static int check_matrix(int n, const double *a, const double *wr, const double *wi) {
  double *w = malloc(sizeof(double) * (size_t)n * n), *rr = malloc(sizeof(double) * n),
         *ri = malloc(sizeof(double) * n);
  int *used = calloc((size_t)n, sizeof(int));
  double anorm = 0.0;
  for (int j = 0; j < n; ++j) {
    double col = 0.0;
    for (int i = 0; i < n; ++i) col += fabs(a[i + (size_t)j * n]);
    if (col > anorm) anorm = col;
  }
  memcpy(w, a, sizeof(double) * (size_t)n * n);
  int bad = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n, w, n, rr, ri, NULL, 1, NULL, 1) != 0;
  const double tol = 1e3 * n * DBL_EPSILON * anorm;
  for (int k = 0; k < n && !bad; ++k) {
    int best = -1;
    double dist = INFINITY;
    for (int m = 0; m < n; ++m) {
      const double d = hypot(wr[k] - rr[m], wi[k] - ri[m]);
      if (!used[m] && d < dist) dist = d, best = m;
    }
    if (best < 0 || !(dist <= tol)) bad = 1;
    else used[best] = 1;
  }
  free(w);
  free(rr);
  free(ri);
  free(used);
  return bad;
}
#endif

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int n = 8, check = 0;
  int64_t batch = 10007;  /* prime: the shares are unequal */
  int pos = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--check")) check = 1;
    else if (pos++ == 0) n = atoi(argv[i]);
    else batch = atoll(argv[i]);
  }
  if (n < 1 || batch < ranks || (int64_t)n * n * batch > INT32_MAX) {
    if (rank == 0) fprintf(stderr, "scatter_dgeev: need n >= 1, batch >= ranks, n*n*batch < 2^31\n");
    MPI_Finalize();
    return 2;
  }

  int *counts = malloc(sizeof(int) * ranks), *displs = malloc(sizeof(int) * ranks);
  int *wcounts = malloc(sizeof(int) * ranks), *wdispls = malloc(sizeof(int) * ranks);
  int *icounts = malloc(sizeof(int) * ranks), *idispls = malloc(sizeof(int) * ranks);
  shares(batch, ranks, n * n, counts, displs);
  shares(batch, ranks, n, wcounts, wdispls);
  shares(batch, ranks, 1, icounts, idispls);
  const int64_t mine = icounts[rank];

  /* Rank 0's whole batch: random entries in [-1, 1] from a printed seed. */
  double *A = NULL, *WR = NULL, *WI = NULL;
  int *INFO = NULL;
  unsigned seed = (unsigned)time(NULL) % 1000003u;
  if (rank == 0) {
    const char *s = getenv("SGPU_TEST_SEED");
    if (s) seed = (unsigned)strtoul(s, NULL, 10);
    printf("scatter_dgeev: %d ranks, %lld matrices of %d x %d, seed %u\n", ranks, (long long)batch, n, n, seed);
    A = malloc(sizeof(double) * (size_t)n * n * batch);
    WR = malloc(sizeof(double) * (size_t)n * batch);
    WI = malloc(sizeof(double) * (size_t)n * batch);
    INFO = malloc(sizeof(int) * batch);
    srand(seed);
    for (int64_t i = 0; i < (int64_t)n * n * batch; ++i) A[i] = 2.0 * rand() / RAND_MAX - 1.0;
  }

  double *a = malloc(sizeof(double) * (size_t)n * n * mine), *wr = malloc(sizeof(double) * (size_t)n * mine),
         *wi = malloc(sizeof(double) * (size_t)n * mine);
  int *info = malloc(sizeof(int) * mine);
  MPI_Scatterv(A, counts, displs, MPI_DOUBLE, a, counts[rank], MPI_DOUBLE, 0, MPI_COMM_WORLD);

  /* Each rank's share in one call. dgeev overwrites its A: keep rank 0's copy for --check. */
  const int st = sgpu_dgeev_batched(NULL, 'N', 'N', n, a, n, (int64_t)n * n, wr, wi, n, NULL, 1, 0, NULL, 1, 0,
                                    info, mine);
  if (st < 0) fprintf(stderr, "rank %d: sgpu_dgeev_batched returned %d (%s)\n", rank, st, sgpu_strerror(st));
  int failed = st != 0, any_failed = 0;
  MPI_Reduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);

  MPI_Gatherv(wr, wcounts[rank], MPI_DOUBLE, WR, wcounts, wdispls, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gatherv(wi, wcounts[rank], MPI_DOUBLE, WI, wcounts, wdispls, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gatherv(info, icounts[rank], MPI_INT, INFO, icounts, idispls, MPI_INT, 0, MPI_COMM_WORLD);

  int rc = any_failed;
  if (rank == 0) {
    int64_t bad = 0;
    for (int64_t b = 0; b < batch; ++b) bad += INFO[b] != 0;
#ifdef SGPU_EXAMPLE_CHECK
    if (check)
      for (int64_t b = 0; b < batch; ++b)
        bad += check_matrix(n, A + b * n * n, WR + b * n, WI + b * n);
#else
    if (check) fprintf(stderr, "scatter_dgeev: built without LAPACKE, --check ignored\n");
#endif
    printf("scatter_dgeev: %lld matrices, %lld failed%s\n", (long long)batch, (long long)bad,
           check ? " (checked against LAPACKE)" : "");
    rc = rc || bad != 0;
    free(A);
    free(WR);
    free(WI);
    free(INFO);
  }
  free(a);
  free(wr);
  free(wi);
  free(info);
  free(counts);
  free(displs);
  free(wcounts);
  free(wdispls);
  free(icounts);
  free(idispls);
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return rc;
}
