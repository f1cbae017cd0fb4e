// The per-thread Jacobi zheev (cuda/kernels/heev_jacobi_thread.hpp) on the CPU, judged as
// TESTING/EIG judges LAPACK, on every Hermitian kind of the conformance suite at N = 1..8:
// eigenvalues within 2 * 60 n ulp ||A||_1 of LAPACKE_zheev's and ascending, ||A - U L U^H||_1 /
// (n ulp ||A||_1) < 60, ||I - U^H U||_1 / (n ulp) < 60, info 0, the eigenvalues bitwise the same
// without vectors, and the vectors bitwise the same kept in memory (SlotVectors); NaN or Inf
// anywhere: info = N, every output NaN. CPU only: skips with --backend gpu.
#include "common.hpp"
#include "kernels/heev_jacobi_thread.hpp"

using namespace st;
namespace core = sgpu::core;
namespace hj = sgpu::gpu::heev_jacobi;

namespace {

template <int N>
void check(Harness& h, double& worst_res, double& worst_orth, double& worst_ev) {
  for (int k = 0; k < (int)HKind::kCount; ++k)
    for (int rep = 0; rep < (h.quick ? 2 : 20); ++rep) {
      const HKind kind = (HKind)k;
      const std::vector<cd> a0 = make_hermitian(h, kind, N);
      std::vector<cd> ra = a0;
      std::vector<double> ref(N);
      h.expect(LAPACKE_zheev(LAPACK_COL_MAJOR, 'N', 'L', N, ra.data(), N, ref.data()) == 0, "LAPACKE_zheev failed");
      char c[96];
      std::snprintf(c, sizeof c, "jacobi N=%d kind=%s rep %d", N, hkind_name(kind), rep);
      core::zc a[N][N], an[N][N], v[N][N], vn[N][N];
      double w[N], wn[N];
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
          a[i][j] = core::zc{a0[i + (size_t)j * N].real(), a0[i + (size_t)j * N].imag()};
          an[i][j] = a[i][j];
        }
      core::zc as[N][N];
      std::memcpy(as, a, sizeof as);
      const int info = hj::heev<N, true>(a, w, v);
      const int infon = hj::heev<N, false>(an, wn, vn);
      if (!h.expect(info == 0 && infon == 0, "%s: info %d / %d", c, info, infon)) continue;
      h.expect(std::memcmp(w, wn, sizeof w) == 0, "%s: values differ without vectors", c);
      // The vectors column-major in memory (the kernel's slot): bit for bit those in registers.
      core::zc slot[N * N];
      double ws[N];
      const int infos = hj::heev_into<N, true>(as, ws, hj::SlotVectors<N>{slot});
      bool same = infos == 0 && std::memcmp(w, ws, sizeof w) == 0;
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j)
          same = same && std::memcmp(&v[i][j], &slot[i + j * N], sizeof(core::zc)) == 0;
      h.expect(same, "%s: vectors in memory differ from those in registers", c);
      std::vector<cd> u((size_t)N * N);
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) u[i + (size_t)j * N] = cd(v[i][j].re, v[i][j].im);
      expect_hermitian_eig(h, c, N, a0, w, u, ref, worst_res, worst_orth, worst_ev);
    }
  // Non-finite entries: info N and NaN everywhere, wherever the entry sits.
  for (double bad : {(double)NAN, (double)INFINITY})
    for (int pos = 0; pos < N * N; ++pos) {
      core::zc a[N][N], v[N][N];
      double w[N];
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) a[i][j] = core::zc{i == j ? 1.0 : 0.25, i < j ? 0.5 : -0.5};
      a[pos % N][pos / N].re = bad;
      const int info = hj::heev<N, true>(a, w, v);
      bool nan = true;
      for (int i = 0; i < N; ++i) {
        nan = nan && std::isnan(w[i]);
        for (int j = 0; j < N; ++j) nan = nan && std::isnan(v[i][j].re) && std::isnan(v[i][j].im);
      }
      h.expect(info == N && nan, "jacobi N=%d: non-finite entry at %d: info %d, NaN outputs %d", N, pos, info, nan);
    }
}

}  // namespace

int main(int argc, char** argv) {
  Harness h("test_heev_jacobi", argc, argv);
  if (h.gpu) {
    std::printf("SKIP: the per-thread algorithm, CPU only\n");
    return kSkip;
  }
  double res = 0, orth = 0, ev = 0;
  check<1>(h, res, orth, ev);
  check<2>(h, res, orth, ev);
  check<3>(h, res, orth, ev);
  check<4>(h, res, orth, ev);
  check<5>(h, res, orth, ev);
  check<6>(h, res, orth, ev);
  check<7>(h, res, orth, ev);
  check<8>(h, res, orth, ev);
  std::printf("jacobi: worst residual %.3g, orthogonality %.3g (threshold 60); eigenvalue distance/bound %.3g\n", res,
              orth, ev);
  return h.finish();
}
