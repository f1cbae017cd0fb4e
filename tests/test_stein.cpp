// The core's inverse iteration (compat/core/stein.hpp: twisted vectors, and LAPACK's dstein
// where they are rejected; the GPU's zheev finds its vectors with it) on the CPU, judged as
// TESTING/EIG judges LAPACK:
//  1. Tridiagonals (random, clustered, graded, glued Wilkinson, split, tiny, huge, constant, zero,
//     and spectra whose gaps sit just above and below dstein's reorthogonalization threshold
//     1e-3 ||T||), eigenvalues on each block by bisection (stebz_stein) and by dsterf (stebz_sterf,
//     then stein_all, and stein_all with dstein's iteration for every vector): within
//     2 * 60 n ulp ||T||_1 of LAPACKE_dsterf's, residual ||T Z - Z L||_1 / (n ulp ||T||_1) < 60 and
//     orthogonality ||Z^T Z - I||_1 / (n ulp) < 60 (dstt21's ratios, the Hermitian threshold);
//     stein_all loading dstein's back substitution's rows two and three ahead, and the twisted
//     vectors' operands four ahead, gives vectors bitwise the same as one ahead, and teams of 2, 5
//     and 32 members (host threads) bitwise the same as a team of one (the vectors dealt among them),
//     also with the twisted vectors' scratch in an array of its own.
//  2. core::heev with kHeevInverse (bisection, inverse iteration, then Q Z), and the GPU's stages
//     composed from the core (heev_start, stebz_sterf, heev_inverse_vectors; with jobz N bitwise
//     the same values), on every Hermitian kind of the conformance suite, uplo L and U:
//     eigenvalues within 2 * 60 n ulp ||A||_1 of LAPACKE_zheev's, ||A - U L U^H||_1 /
//     (n ulp ||A||_1) < 60, ||I - U^H U||_1 / (n ulp) < 60.
// A team of one runs here; the GPU's teams deal the same clusters to several members, and
// test_zheev --backend gpu judges their results the same way. CPU only: skips with --backend gpu.
#include "common.hpp"
#include "core/bisect.hpp"
#include "core/heev.hpp"
#include "core/stein.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

using namespace st;
namespace core = sgpu::core;

namespace {

// A team of p members, a host thread each, with the GPU teams' interface as stein_all uses it:
// sync a barrier, sum in member order.
struct ThreadTeamRoom {
  int p;
  std::vector<double> slot;
  std::mutex m;
  std::condition_variable cv;
  int arrived = 0;
  long gen = 0;
  explicit ThreadTeamRoom(int p_) : p(p_), slot(p_) {}
  void wait() {
    std::unique_lock<std::mutex> l(m);
    const long g = gen;
    if (++arrived == p) {
      arrived = 0;
      ++gen;
      cv.notify_all();
    } else {
      cv.wait(l, [&] { return gen != g; });
    }
  }
};
struct ThreadTeam {
  ThreadTeamRoom* room;
  int rank;
  int first(int lo) const { return lo + rank; }
  int step() const { return room->p; }
  bool leader() const { return rank == 0; }
  void sync() const { room->wait(); }
  double sum(double x) const {
    room->slot[rank] = x;
    room->wait();
    double t = 0.0;
    for (double v : room->slot) t += v;
    room->wait();
    return t;
  }
};

// stein_all by a team of p threads into z (n x n, ld n); returns member 0's count. twist_apart:
// the twisted vectors' scratch in its own array of exactly their size, as the GPU keeps it in
// shared memory after the register reduction.
int stein_all_threads(int p, int n, core::Vec1<double> d, core::Vec1<double> e, core::Vec1<double> w,
                      std::vector<double>& z, bool twist_apart = false) {
  ThreadTeamRoom room(p);
  const int members = std::min(p, std::max(n, 1));
  std::vector<double> scratch(core::stein_member_work(n) * members + 1);
  std::vector<double> twist(twist_apart ? core::stein_twist_member_work(n) * members : 0, NAN);
  std::vector<int> info(p);
  std::vector<std::thread> threads;
  for (int r = 0; r < p; ++r)
    threads.emplace_back([&, r] {
      info[r] = core::stein_all(ThreadTeam{&room, r}, n, d, e, w, core::Mat1<double>{z.data(), 1, n}, scratch.data(),
                                true, twist_apart ? twist.data() : nullptr);
    });
  for (auto& m : threads) m.join();
  return info[0];
}

void tridiagonals(Harness& h, double& worst_res, double& worst_orth) {
  std::vector<int> sizes = h.quick ? std::vector<int>{1, 2, 5, 16, 33}
                                   : std::vector<int>{1, 2, 3, 4, 5, 8, 12, 16, 17, 21, 31, 32, 33, 64, 100, 128};
  for (int n : sizes)
    for (int kind = 0; kind < kTridiagonalKinds; ++kind)
      for (int rep = 0; rep < (h.quick ? 1 : 3); ++rep) {
        std::vector<double> d, e;
        make_tridiagonal(h, kind, n, d, e);
        for (int method = 0; method < 3; ++method) {
          std::vector<double> wb(n, NAN), zb((size_t)n * std::max(n, 1), NAN);
          std::vector<double> scratch(core::stein_member_work(n) + 1);  // >= n: stebz_sterf's too
          std::vector<int> order(n, -1);
          const std::vector<double> d0 = d, e0 = e;
          const core::Vec1<double> dv{d.data(), 1}, ev{e.data(), 1}, wv{wb.data(), 1};
          const core::Mat1<double> zv{zb.data(), 1, n};
          const core::Vec1<int> ov{order.data(), 1};
          int info = 0;
          if (method == 0) {
            info = core::stebz_stein(core::TeamOne{}, n, dv, ev, wv, zv, ov, scratch.data());
          } else if (method == 2) {  // dstein's iteration for every vector, as the GPU's teams
            core::stebz_sterf(n, dv, ev, wv, ov, core::Vec1<double>{scratch.data(), 1});
            info = core::stein_all<1, 0>(core::TeamOne{}, n, dv, ev, wv, zv, scratch.data());
          } else {
            core::stebz_sterf(n, dv, ev, wv, ov, core::Vec1<double>{scratch.data(), 1});
            info = core::stein_all(core::TeamOne{}, n, dv, ev, wv, zv, scratch.data());
            // The back substitution's look-ahead (the GPU takes two rows after its register
            // reduction) only moves loads: the vectors must be bitwise the same.
            for (int ahead : {2, 3, 4}) {
              std::vector<double> za((size_t)n * std::max(n, 1), NAN), sa(scratch.size());
              const core::Mat1<double> zav{za.data(), 1, n};
              const int ia = ahead == 2   ? core::stein_all<2>(core::TeamOne{}, n, dv, ev, wv, zav, sa.data())
                             : ahead == 3 ? core::stein_all<3>(core::TeamOne{}, n, dv, ev, wv, zav, sa.data())
                                          : core::stein_all<4>(core::TeamOne{}, n, dv, ev, wv, zav, sa.data());
              h.expect(ia == info && std::memcmp(za.data(), zb.data(), sizeof(double) * za.size()) == 0,
                       "tridiagonal n=%d %s rep %d: stein_all with %d rows ahead differs from one ahead", n,
                       tridiagonal_kind_name(kind), rep, ahead);
            }
            // Each vector is the same whichever member finds it, and wherever the twisted
            // vectors' scratch lies.
            for (int p : {2, 5, 32})
              for (bool apart : {false, true}) {
                std::vector<double> zt((size_t)n * std::max(n, 1), NAN);
                const int it = stein_all_threads(p, n, dv, ev, wv, zt, apart);
                h.expect(it == info && std::memcmp(zt.data(), zb.data(), sizeof(double) * zt.size()) == 0,
                         "tridiagonal n=%d %s rep %d: stein_all by %d members (twisted scratch %s) differs from one",
                         n, tridiagonal_kind_name(kind), rep, p, apart ? "apart" : "shared");
              }
          }
          // Ascending by the order returned.
          std::vector<double> w(n), z((size_t)n * n);
          for (int j = 0; j < n; ++j) {
            w[j] = wb[order[j] - 1];
            for (int i = 0; i < n; ++i) z[i + (size_t)j * n] = zb[i + (size_t)(order[j] - 1) * n];
          }
          char c[112];
          std::snprintf(c, sizeof c, "tridiagonal n=%d %s rep %d, values by %s%s", n, tridiagonal_kind_name(kind), rep,
                        method ? "dsterf" : "bisection", method == 2 ? ", vectors by dstein alone" : "");
          h.expect(d == d0 && e == e0, "%s: T changed", c);
          h.expect(info == 0, "%s: info %d", c, info);
          const double tn = tridiagonal_norm1(n, d, e, unfl);
          double res = 0.0;
          for (int j = 0; j < n; ++j) {
            double rc = 0.0;
            for (int i = 0; i < n; ++i) {
              double tq = d[i] * z[i + (size_t)j * n];
              if (i > 0) tq += e[i - 1] * z[i - 1 + (size_t)j * n];
              if (i + 1 < n) tq += e[i] * z[i + 1 + (size_t)j * n];
              rc += std::abs(tq - w[j] * z[i + (size_t)j * n]);
            }
            res = std::max(res, rc);
          }
          res /= n * ulp * tn;
          std::vector<double> ref = d, re = e;
          h.expect(LAPACKE_dsterf(n, ref.data(), re.data()) == 0, "dsterf failed");
          double dist = 0.0;
          for (int i = 0; i < n; ++i) {
            dist = std::max(dist, std::abs(w[i] - ref[i]));
            if (i + 1 < n) h.expect(w[i] <= w[i + 1], "%s: not ascending at %d", c, i);
          }
          const double rev = dist / (2 * 60 * n * ulp * tn);
          h.expect(rev <= 1.0, "%s: eigenvalues differ from dsterf by %.3g (x%.3g of the bound)", c, dist, rev);
          const double orth = orth_ratio(n, z.data(), n);
          worst_res = std::max(worst_res, res);
          worst_orth = std::max(worst_orth, orth);
          h.expect(res < 60, "%s: residual ratio %.3g", c, res);
          h.expect(orth < 60, "%s: orthogonality ratio %.3g", c, orth);
        }
      }
}

// The GPU's stages at 9-64 composed from the core as its kernels compose them (a team of one):
// heev_start, then (wantz) Q in place and the phase scaling, the eigenvalues of a copy of T by
// stebz_sterf (heev_values works on the record's copy), then heev_inverse_vectors. w unscaled as
// heev does; returns info (n for non-finite input).
int staged_heev(bool wantz, bool lower, int n, std::vector<cd>& a, std::vector<double>& w) {
  std::vector<double> work(core::heev_work(n, true, core::kHeevInverse, 1));
  core::Mat1<core::zc> m{reinterpret_cast<core::zc*>(a.data()), 1, n};
  const core::Vec1<double> wv{w.data(), 1};
  double sigma = 1.0;
  const int st = core::heev_start(core::TeamOne{}, wantz, lower, n, m, wv, work.data(), sigma);
  if (st != 0) return st < 0 ? n : 0;
  double* wk = work.data();
  core::zc* zw = reinterpret_cast<core::zc*>(wk + 4 * n);
  const core::Vec1<core::zc> e{zw, 1}, tau{zw + n, 1}, y{zw + 2 * n, 1};
  if (wantz) core::ungtr_inplace(core::TeamOne{}, n, m, tau);
  core::phase_scale(core::TeamOne{}, n, e, core::Vec1<double>{wk + n, 1}, y, wantz, n, m);
  std::vector<double> d(wk, wk + n), er(wk + n, wk + 2 * n), vals(n), ework(n);
  std::vector<int> order(n);
  core::stebz_sterf(n, core::Vec1<double>{d.data(), 1}, core::Vec1<double>{er.data(), 1},
                    core::Vec1<double>{vals.data(), 1}, core::Vec1<int>{order.data(), 1},
                    core::Vec1<double>{ework.data(), 1});
  int info = 0;
  if (wantz) {
    for (int i = 0; i < n; ++i) {
      wk[2 * n + i] = vals[i];
      reinterpret_cast<int*>(wk + 3 * n)[i] = order[i];
    }
    info = core::heev_inverse_vectors(core::TeamOne{}, n, m, wk);
    for (int i = 0; i < n; ++i) w[i] = sigma != 1.0 ? wk[i] / sigma : wk[i];
  } else {
    for (int i = 0; i < n; ++i) w[i] = sigma != 1.0 ? vals[order[i] - 1] / sigma : vals[order[i] - 1];
  }
  return info;
}

void hermitian(Harness& h, double& worst_res, double& worst_orth, double& worst_ev) {
  std::vector<int> sizes = h.quick ? std::vector<int>{1, 2, 5, 16, 32}
                                   : std::vector<int>{1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 48};
  for (int n : sizes)
    for (int k = 0; k < (int)HKind::kCount; ++k)
      for (int rep = 0; rep < (h.quick ? 1 : 2); ++rep) {
        const HKind kind = (HKind)k;
        // Spike matrices included: scaled as zheevx (core::heev_scale), inverse iteration
        // converges on every vector there, as LAPACK's zheevx does.
        const std::vector<cd> a0 = make_hermitian(h, kind, n);
        std::vector<cd> ra = a0;
        std::vector<double> ref(n);
        h.expect(LAPACKE_zheev(LAPACK_COL_MAJOR, 'N', 'L', n, ra.data(), n, ref.data()) == 0, "LAPACKE_zheev failed");
        for (int staged = 0; staged < 2; ++staged)
        for (char uplo : {'L', 'U'}) {
          char c[112];
          std::snprintf(c, sizeof c, "heev n=%d kind=%s uplo=%c rep %d%s", n, hkind_name(kind), uplo, rep,
                        staged ? ", staged (dsterf's values)" : "");
          std::vector<cd> u = a0;
          std::vector<double> w(n, NAN), work(core::heev_work(n, true, core::kHeevInverse, 1));
          int info = 0;
          if (staged) {
            info = staged_heev(true, uplo == 'L', n, u, w);
            // Without vectors the same values, bit for bit (the GPU's contract).
            std::vector<cd> un = a0;
            std::vector<double> wn(n, NAN);
            h.expect(staged_heev(false, uplo == 'L', n, un, wn) == 0, "%s: jobz N info", c);
            h.expect(std::memcmp(w.data(), wn.data(), sizeof(double) * n) == 0, "%s: values differ with jobz N", c);
          } else {
            info = core::heev(core::TeamOne{}, true, uplo == 'L', n,
                              core::Mat1<core::zc>{reinterpret_cast<core::zc*>(u.data()), 1, n},
                              core::Vec1<double>{w.data(), 1}, work.data(), core::kHeevInverse);
          }
          if (!h.expect(info == 0, "%s: info %d", c, info)) continue;
          expect_hermitian_eig(h, c, n, a0, w.data(), u, ref, worst_res, worst_orth, worst_ev);
        }
      }
}

}  // namespace

int main(int argc, char** argv) {
  Harness h("test_stein", argc, argv);
  if (h.gpu) {
    std::printf("SKIP: core test, CPU only\n");
    return kSkip;
  }
  double tres = 0, torth = 0, hres = 0, horth = 0, hev = 0;
  tridiagonals(h, tres, torth);
  hermitian(h, hres, horth, hev);
  std::printf("tridiagonals: worst residual %.3g, orthogonality %.3g (threshold 60)\n", tres, torth);
  std::printf("heev by inverse iteration: worst residual %.3g, orthogonality %.3g (threshold 60); eigenvalue "
              "distance/bound %.3g\n", hres, horth, hev);
  return h.finish();
}
