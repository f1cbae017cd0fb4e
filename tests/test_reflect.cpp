// The core's complex reflector scalars from a plain sum of squares (core::zlarfg_scalars_in_range,
// the GPU register reduction's serial step) against core::zlarfg_scalars (LAPACK zlarfg's path):
// for random alpha (complex, real of either sign, zero, negative zero, imaginary) and x at scales
// 1e-135..1e135 and orders 2..64, in range: beta, tau and inv within 8 ulp of zlarfg_scalars',
// and H^H (alpha; x) = (beta; 0) with v = (1; inv x) and H = I - tau v v^H to 20 n ulp |beta|;
// out of range (x = 0, sums of squares below 1e-280 or above 1e280): false, nothing set. The CPU
// evaluates the same formulas with exact reciprocals (the GPU's approximations are checked by
// test_zheev --backend gpu). Runs the CPU core directly: skips with --backend gpu.
#include "common.hpp"
#include "core/reflect.hpp"

using namespace st;
namespace core = sgpu::core;

namespace {

cd to_cd(core::zc z) { return {z.re, z.im}; }
core::zc to_zc(cd z) { return core::zc{z.real(), z.imag()}; }
double rel(cd a, cd b) { return std::abs(a - b) / std::max(std::abs(b), unfl); }

}  // namespace

int main(int argc, char** argv) {
  Harness h("test_reflect", argc, argv);
  if (h.gpu) {
    std::printf("SKIP: core test, CPU only\n");
    return kSkip;
  }
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const char* kinds[] = {"complex", "real+", "real-", "zero", "-0", "imaginary"};
  double worst_scal = 0.0, worst_h = 0.0;
  int in_range = 0, out_of_range = 0;
  for (int n : {2, 3, 5, 17, 64})
    for (double scale : {1e-145, 1e-135, 1e-60, 1e-8, 1.0, 1e8, 1e60, 1e135, 1e145})
      for (int kind = 0; kind < 6; ++kind)
        for (int rep = 0; rep < (h.quick ? 2 : 20); ++rep) {
          std::vector<core::zc> x(n - 1);
          double ssq = 0.0;
          for (auto& e : x) {
            e = core::zc{scale * u(h.rng), scale * u(h.rng)};
            ssq += e.re * e.re + e.im * e.im;
          }
          cd alpha{scale * u(h.rng), scale * u(h.rng)};
          switch (kind) {
            case 1: alpha = {std::abs(alpha.real()), 0.0}; break;
            case 2: alpha = {-std::abs(alpha.real()), 0.0}; break;
            case 3: alpha = {0.0, 0.0}; break;
            case 4: alpha = {-0.0, alpha.imag()}; break;
            case 5: alpha = {0.0, alpha.imag()}; break;
          }
          const core::zc unset{7.0, 7.0};
          core::zc tau = unset, inv = unset;
          double beta = 7.0;
          const bool ok = core::zlarfg_scalars_in_range(n, to_zc(alpha), ssq, beta, tau, inv);
          const double s2 = ssq + std::norm(alpha);
          const bool expect_ok = ssq >= core::kSsqMin && s2 <= core::kSsqMax;
          h.expect(ok == expect_ok, "n=%d scale %g %s: in range %d, expected %d", n, scale, kinds[kind], ok, expect_ok);
          if (!ok) {
            ++out_of_range;
            h.expect(beta == 7.0 && tau.re == 7.0 && tau.im == 7.0 && inv.re == 7.0 && inv.im == 7.0,
                     "n=%d scale %g %s: out of range but set", n, scale, kinds[kind]);
            continue;
          }
          ++in_range;
          // LAPACK's path on a copy (it may rescale x).
          std::vector<core::zc> xr = x;
          const core::Vec<core::zc> xv{xr.data(), 1};
          core::zc tau_ref, inv_ref;
          const double beta_ref = core::zlarfg_scalars(core::TeamOne{}, n, to_zc(alpha), xv,
                                                       core::znrm2(core::TeamOne{}, n - 1, xv), tau_ref, inv_ref);
          const double e = std::max({std::abs(beta - beta_ref) / std::abs(beta_ref), rel(to_cd(tau), to_cd(tau_ref)),
                                     rel(to_cd(inv), to_cd(inv_ref))}) / ulp;
          worst_scal = std::max(worst_scal, e);
          h.expect(e <= 8.0, "n=%d scale %g %s: scalars differ from zlarfg_scalars by %.3g ulp", n, scale, kinds[kind], e);
          // H^H y = y - conj(tau) v (v^H y), y = (alpha; x), v = (1; inv x): should be (beta; 0).
          std::vector<cd> y(n), v(n);
          y[0] = alpha;
          v[0] = 1.0;
          for (int i = 1; i < n; ++i) {
            y[i] = to_cd(x[i - 1]);
            v[i] = to_cd(inv) * y[i];
          }
          cd vy = 0.0;
          for (int i = 0; i < n; ++i) vy += std::conj(v[i]) * y[i];
          double err = 0.0;
          for (int i = 0; i < n; ++i) {
            const cd hy = y[i] - std::conj(to_cd(tau)) * v[i] * vy;
            err = std::max(err, std::abs(hy - (i == 0 ? cd(beta, 0.0) : cd(0.0, 0.0))));
          }
          const double r = err / (20.0 * n * ulp * std::abs(beta));
          worst_h = std::max(worst_h, r);
          h.expect(r <= 1.0, "n=%d scale %g %s: H^H (alpha; x) - (beta; 0) is %.3g |beta| (x%.3g of the bound)", n,
                   scale, kinds[kind], err / std::abs(beta), r);
        }
  h.expect(in_range > 0 && out_of_range > 0, "both paths taken: %d in range, %d out", in_range, out_of_range);
  std::printf("%d in range (worst scalars %.3g ulp, worst reflection x%.3g of the bound), %d out of range\n", in_range,
              worst_scal, worst_h, out_of_range);
  return h.finish();
}
