// The register kernels' per-thread algorithm (cuda/kernels/eig_reg_thread.hpp: dgeev and dhseqr
// eigenvalues of one matrix of compile-time order N) against the core on the CPU, bitwise: for
// every order it serves (1..16 are compiled here) and every matrix kind of the suite, with a team
// of one (P = 1, the core's TeamOne order), the same eigenvalues, info and (dhseqr) H as
// core::geev / core::hseqr. NaN/Inf inputs, active blocks ilo..ihi and, with a second build of both
// under tiny iteration limits (SGPU_EIG_REG_ITMAX_TEST), the failure paths are compared too.
// The GPU's own run of it (with the teams' order of sums) is checked by test_dgeev and
// test_dhseqr, whose eigenvalues must not depend on the job flags. CPU only: skips with --backend gpu.
#ifdef SGPU_EIG_REG_ITMAX_TEST
#define SGPU_CORE_LAHQR_ITMAX(nh) 3
#endif
#include <cstring>
#include <utility>

#include "common.hpp"
#include "core/geev.hpp"
#include "core/hseqr.hpp"
#include "kernels/eig_reg_thread.hpp"

using namespace st;
namespace core = sgpu::core;
namespace reg = sgpu::gpu::eig_reg;

namespace {

bool same(const double* x, const double* y, size_t k) { return std::memcmp(x, y, k * sizeof(double)) == 0; }

template <int N>
void orders(Harness& h, int& cases) {
  const int n = N;
  for (int k = 0; k < (int)Kind::kCount; ++k) {
    const Kind kind = (Kind)k;
    for (int rep = 0; rep < 4; ++rep) {
      std::vector<double> a0 = make_general(h, kind, n);
      if (rep == 3) a0[h.randint(0, n * n - 1)] = h.randint(0, 1) ? NAN : -INFINITY;
      // dgeev, no vectors.
      {
        std::vector<double> a = a0, wr(n, -7.0), wi(n, -7.0), work(core::geev_work(n));
        const int info = core::geev(core::TeamOne{}, false, false, n, core::Mat1<double>{a.data(), 1, n},
                                    core::Vec1<double>{wr.data(), 1}, core::Vec1<double>{wi.data(), 1},
                                    core::Mat1<double>{nullptr, 1, n}, core::Mat1<double>{nullptr, 1, n}, work.data());
        // The core's own run with its work overlapping wr and wi, as the GPU's shared-memory slots
        // place it (geev's contract without vectors): the same results.
        {
          std::vector<double> a2 = a0, buf(core::geev_work(n), -7.0);
          const int info2 = core::geev(core::TeamOne{}, false, false, n, core::Mat1<double>{a2.data(), 1, n},
                                       core::Vec1<double>{buf.data(), 1}, core::Vec1<double>{buf.data() + n, 1},
                                       core::Mat1<double>{nullptr, 1, n}, core::Mat1<double>{nullptr, 1, n}, buf.data());
          const int f2 = info > 0 ? info : 0;
          h.expect(info2 == info && same(wr.data() + f2, buf.data() + f2, n - f2) &&
                       same(wi.data() + f2, buf.data() + n + f2, n - f2),
                   "dgeev n=%d kind=%s rep=%d: work overlapping wr and wi changes the eigenvalues", n, kind_name(kind),
                   rep);
        }
        reg::RegEig<N, 1> m;
        std::vector<double> rr(n, -7.0), ri(n, -7.0);
        for (int c = 0; c < n; ++c)
          for (int r = 0; r < n; ++r) m.h[r][c] = a0[r + (size_t)c * n];
        m.wr = rr.data();
        m.wi = ri.data();
        const int rinfo = m.geev();
        // Eigenvalues that did not converge are unspecified (LAPACK); compare info+1..n and, on a
        // failure, the isolated ones below ilo as the core leaves them: the whole vectors when info = 0.
        const int from = info > 0 ? info : 0;
        h.expect(rinfo == info && same(wr.data() + from, rr.data() + from, n - from) &&
                     same(wi.data() + from, ri.data() + from, n - from),
                 "dgeev n=%d kind=%s rep=%d: info %d/%d, eigenvalues differ from the core's", n, kind_name(kind), rep,
                 rinfo, info);
        ++cases;
      }
      // dhseqr on the Hessenberg part, job E compz N, the whole matrix and an inner active block.
      std::vector<double> h0 = a0;
      for (int c = 0; c < n; ++c)
        for (int r = c + 2; r < n; ++r) h0[r + (size_t)c * n] = 0.0;
      for (int blk = 0; blk < 2; ++blk) {
        int ilo = 1, ihi = n;
        if (blk == 1) {
          if (n < 3) continue;
          ilo = h.randint(1, n);
          ihi = h.randint(ilo, n);
          // Outside the active block H is upper triangular there (dgebal's output), as dhseqr requires.
          for (int c = 0; c < n; ++c)
            for (int r = c + 1; r < n; ++r)
              if (c + 1 < ilo || r + 1 > ihi) h0[r + (size_t)c * n] = 0.0;
        }
        std::vector<double> hc = h0, wr(n, -7.0), wi(n, -7.0);
        const int info = core::hseqr(core::TeamOne{}, false, core::kCompzN, n, ilo, ihi,
                                     core::Mat1<double>{hc.data(), 1, n}, core::Vec1<double>{wr.data(), 1},
                                     core::Vec1<double>{wi.data(), 1}, core::Mat1<double>{nullptr, 1, n});
        reg::RegEig<N, 1> m;
        std::vector<double> rr(n, -7.0), ri(n, -7.0), hr((size_t)n * n);
        for (int c = 0; c < n; ++c)
          for (int r = 0; r < n; ++r) m.h[r][c] = h0[r + (size_t)c * n];
        m.wr = rr.data();
        m.wi = ri.data();
        const int rinfo = m.hseqr(ilo, ihi);
        for (int c = 0; c < n; ++c)
          for (int r = 0; r < n; ++r) hr[r + (size_t)c * n] = m.h[r][c];
        bool ok = rinfo == info && same(hc.data(), hr.data(), hc.size());
        for (int i = 0; i < n && ok; ++i) {
          const bool valid = info == 0 || i + 1 < ilo || i + 1 > info;  // converged or isolated
          if (valid) ok = same(&wr[i], &rr[i], 1) && same(&wi[i], &ri[i], 1);
        }
        h.expect(ok, "dhseqr n=%d kind=%s rep=%d ilo=%d ihi=%d: info %d/%d, results differ from the core's", n,
                 kind_name(kind), rep, ilo, ihi, rinfo, info);
        ++cases;
      }
    }
  }
}

template <int... Ns>
void all_orders(Harness& h, int& cases, std::integer_sequence<int, Ns...>) {
  (orders<Ns + 1>(h, cases), ...);
}

}  // namespace

int main(int argc, char** argv) {
  Harness h("test_eig_reg", argc, argv);
  if (h.gpu) {
    std::printf("SKIP: the kernels' per-thread algorithm on the CPU\n");
    return kSkip;
  }
  int cases = 0;
  all_orders(h, cases, std::make_integer_sequence<int, 16>{});
  std::printf("%d cases compared\n", cases);
  return h.finish();
}
