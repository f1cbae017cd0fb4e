// Eigenvalues and eigenvectors of a real symmetric tridiagonal matrix by divide and conquer
// (Cuppen's method with Gu and Eisenstat's eigenvectors, as LAPACK dstedc / dlaed0-dlaed4): the
// matrix is cut into leaves of at most kStedcLeaf rows by rank-one tears, each leaf is solved by
// implicit QL/QR (steqr), and neighbouring blocks are merged bottom-up. A merge deflates small
// components of the updating vector z and nearly equal poles (Givens rotations), finds each root
// of the secular equation 1 + rho sum z_j^2 / (d_j - lambda) = 0 in its own interval, recomputes
// z from the roots (Loewner's formula, so that the eigenvectors come out orthogonal), and forms the
// block's eigenvectors with one matrix product.
//
// One code for every backend: the CPU runs it with its team of one (zheev with vectors,
// n > kStedcLeaf), the GPU's warp path with a warp, and the block path schedules the same pieces
// (stedc_plan/prepare/leaf/merge/finish) over its warps: leaves side by side, then each level's
// merges side by side, a merge's roots, vectors and product rows spread over its team. Where it
// departs from LAPACK: each secular root is found in coordinates relative to its nearer pole
// (relative accuracy of the distance to the pole, which is what the vectors need) by dlaed4's
// "middle way" model but its own simpler safeguard (a bracket, bisection when a step leaves it;
// it stops, as dlaed4, when g is zero to within its rounding error, or when a step no longer
// changes u), and the merge's product uses the full block instead of its two diagonal halves.
#pragma once
#include "steqr.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

constexpr int kStedcLeaf = 25;  // LAPACK's SMLSIZ
constexpr int kMergeCols = 8;   // columns of a merge's product per work item (loads of Q reused)

// Workspace of stedc for order n: doubles and ints.
SGPU_HD int64_t stedc_work(int n) { return 2 * (int64_t)n * n + 10 * (int64_t)n; }
SGPU_HD int64_t stedc_iwork(int n) { return 6 * (int64_t)n; }

namespace stedc_detail {

// A root of one merge's secular equation: lambda = d[o] + s * u, with u > 0 the distance from its
// nearer pole d[o] (s = +1: the pole below, -1: the pole above).
struct Root {
  int o, s;
  double u;
};

// The secular function in a root's coordinates: lambda = d_o + s u, g(u) = s (1 + rho sum z_j^2 /
// (d_j - lambda)) = s + psi0 + psi1, increasing in u, where psi0 sums the poles on the origin's
// side (u <= 0, o included) and psi1 the others (u >= the other pole); dpsi* are their
// derivatives in u.
struct SecularEval {
  double g, psi0, dpsi0, psi1, dpsi1;
};
SGPU_HD SecularEval secular_eval(int k, const double* d, const double* z, double rho, int o, int s, double u) {
  double p0 = 0.0, q0 = 0.0, p1 = 0.0, q1 = 0.0;
  for (int j = 0; j < k; ++j) {
    const double inv = 1.0 / ((d[j] - d[o]) - s * u);
    const double tj = rho * z[j] * z[j] * inv;  // s * (its term in g); its u-derivative is tj * inv
    if (s * (j - o) <= 0) {
      p0 += tj;
      q0 += tj * inv;
    } else {
      p1 += tj;
      q1 += tj * inv;
    }
  }
  p0 *= s;
  p1 *= s;
  return SecularEval{s + p0 + p1, p0, q0, p1, q1};
}

// Root i (0-based) of 1 + rho sum z_j^2 / (d_j - lambda) = 0, d ascending, z_j != 0, rho > 0.
// In the coordinates of the nearer pole (u in (0, w]) by Li's "middle way" (as dlaed4): psi0
// and psi1 are each modelled by a + b / (pole - u), matching value and derivative at the
// current u, and the model's root is the next u; quadratic convergence. Each step keeps a
// bracket from g's sign, and a step that would leave it is replaced by a bisection (geometric
// while the bracket spans more than a factor 8), so the iteration always ends.
SGPU_HD Root secular_root(int k, const double* d, const double* z, double rho, int i) {
  Root r;
  double w;        // the root lies at u in (0, w]
  double D = 0.0;  // the other pole's u (interior roots); none for the last root
  const bool last = i == k - 1;
  if (!last) {
    D = d[i + 1] - d[i];
    const double half = 0.5 * D;
    double g = 1.0;
    for (int j = 0; j < k; ++j) g += rho * z[j] * z[j] / ((d[j] - d[i]) - half);
    r.o = g >= 0.0 ? i : i + 1;
    r.s = g >= 0.0 ? 1 : -1;
    w = half;
  } else {
    double zz = 0.0;
    for (int j = 0; j < k; ++j) zz += z[j] * z[j];
    r.o = i;
    r.s = 1;
    w = rho * zz;
  }
  double lo = 0.0, hi = w;
  // Start: the pole's own term against the others at u = 0 (u0 = rho z_o^2 / c).
  double u = 0.5 * w;
  {
    double c = 1.0;
    for (int j = 0; j < k; ++j)
      if (j != r.o) c += rho * z[j] * z[j] / (d[j] - d[r.o]);
    c *= r.s;
    const double u0 = c > 0.0 ? rho * z[r.o] * z[r.o] / c : 0.0;
    if (u0 > 0.0 && u0 < hi) u = u0;
  }
  for (int it = 0; it < 400; ++it) {
    const SecularEval f = secular_eval(k, d, z, rho, r.o, r.s, u);
    if (f.g > 0.0) hi = u;
    else if (f.g < 0.0) lo = u;
    else break;
    // g is zero to within its rounding error (dlaed4's test: about 8 ulps of each side's sum, 2 of
    // the constant, and the error of u's representation times the slope): converged.
    if (fabs(f.g) <= Mach::eps * (2.0 + 8.0 * (fabs(f.psi0) + fabs(f.psi1)) + u * (f.dpsi0 + f.dpsi1))) break;
    if (lo > 0.0 && hi - lo <= 2.0 * Mach::eps * lo) {
      u = 0.5 * (lo + hi);
      break;
    }
    // The model's root: c + b0 / (-u - eta) + b1 / (D - u - eta) = 0.
    const double b0 = f.dpsi0 * u * u;
    double un = -1.0;
    double near = -1.0;  // the model's smallest step |un - u| where it has a root, in or off the bracket
    if (last) {
      const double c = r.s + f.psi0 + b0 / u;
      if (c > 0.0) {
        un = b0 / c;
        near = fabs(un - u);
      }
    } else {
      const double e0 = -u, e1 = D - u;
      const double b1 = f.dpsi1 * e1 * e1;
      const double c = r.s + (f.psi0 - b0 / e0) + (f.psi1 - b1 / e1);
      const double A2 = c, A1 = c * (e0 + e1) + b0 + b1, A0 = f.g * e0 * e1;
      double disc = A1 * A1 - 4.0 * A0 * A2;
      disc = disc > 0.0 ? sqrt(disc) : 0.0;
      const double q = 0.5 * (A1 + (A1 >= 0.0 ? disc : -disc));
      // The two roots, q / A2 and A0 / q: the one inside the bracket, the smaller step if both.
      const double eta1 = A2 != 0.0 ? q / A2 : 0.0, eta2 = q != 0.0 ? A0 / q : 0.0;
      const bool in1 = A2 != 0.0 && u + eta1 > lo && u + eta1 < hi;
      const bool in2 = q != 0.0 && u + eta2 > lo && u + eta2 < hi;
      if (A2 != 0.0) near = fabs(eta1);
      if (q != 0.0 && (near < 0.0 || fabs(eta2) < near)) near = fabs(eta2);
      if (in1 && (!in2 || fabs(eta1) <= fabs(eta2))) un = u + eta1;
      else if (in2) un = u + eta2;
    }
    // u is the model's root to rounding: converged. (Its step may land on u's own end of the
    // bracket, hi or lo being u itself; bisecting from there would throw the root away.)
    if (near >= 0.0 && near <= 2.0 * Mach::eps * u) break;
    if (!(un > lo && un < hi))  // off the bracket (or no model root): bisect
      un = (lo > 0.0 && hi > 8.0 * lo) ? sqrt(lo) * sqrt(hi) : (lo == 0.0 ? 0.125 * hi : 0.5 * (lo + hi));
    if (!(un > lo && un < hi)) break;  // the bracket holds no other double
    const bool done = fabs(un - u) <= 2.0 * Mach::eps * u;
    u = un;
    if (done) break;
  }
  r.u = u;
  return r;
}

// d_i - lambda_j, accurate relative to the distance from lambda_j's pole.
SGPU_HD double gap(const double* d, int i, const Root& rj) { return (d[i] - d[rj.o]) - rj.s * rj.u; }

// A merge's product B = Q(lo.., ck) U: B N x K (ld N), Q's kept columns ck[0..K), U = A (K x K).
// Each entry is summed over i in order, so a tiled product (cuda/heev_block.cu) that keeps that
// order gives the same numbers. Here: a row and kMergeCols columns per work item.
struct PlainProduct {
  template <class Team>
  SGPU_HD void operator()(const Team& t, int N, int K, int lo, Mat1<double> q, const int* ck, const double* A,
                          double* B) const {
    const int chunks = (K + kMergeCols - 1) / kMergeCols;
    for (int it = t.first(0); it < N * chunks; it += t.step()) {
      const int r = it % N, j0 = (it / N) * kMergeCols;
      double acc[kMergeCols];
      for (int u = 0; u < kMergeCols; ++u) acc[u] = 0.0;
      for (int i = 0; i < K; ++i) {
        const double x = q(lo + r, ck[i]);
        for (int u = 0; u < kMergeCols; ++u) {
          const int j = j0 + u < K ? j0 + u : K - 1;
          acc[u] += x * A[i + (int64_t)j * K];
        }
      }
      for (int u = 0; u < kMergeCols && j0 + u < K; ++u) B[r + (int64_t)(j0 + u) * N] = acc[u];
    }
  }
};

// Merges the solved blocks [lo, m] and [m + 1, hi] (1-based rows and columns of q) joined by
// rho = e(m): on return d(lo..hi) ascending and q(lo..hi, lo..hi) their eigenvectors. Workspace
// of this merge alone (merges of one level run side by side on disjoint slices): A and B N x N,
// v 10 N doubles, iw 6 N ints, N = hi - lo + 1. The bookkeeping (z, the sorted poles, deflation)
// is the leader's; the members share the rotations, the roots, the vectors and the products.
template <class Team, class Product>
SGPU_HD void merge(const Team& t, int lo, int m, int hi, double rho, Vec1<double> d, Mat1<double> q, double* A,
                   double* B, double* v, int* iw, const Product& prod) {
  const int N = hi - lo + 1, n1 = m - lo + 1;
  double* z = v;  // N each from here
  double* dl = z + N;
  double* dk = dl + N;
  double* zk = dk + N;
  double* dd = zk + N;
  double* zh = dd + N;
  double* val = zh + N;
  Root* roots = reinterpret_cast<Root*>(val + N);  // N Roots: 2N doubles of room
  double* rc = zh;   // deflation rotations (cosine, sine), until the roots overwrite them
  double* rs = val;
  int* p = iw;  // N each
  int* ck = p + N;
  int* cd = ck + N;
  int* rl = cd + N;  // deflation rotations' columns; later the sorted sources
  int* rj = rl + N;
  const bool flip = rho < 0.0;
  rho = fabs(2.0 * rho);
  // z: the last row of the upper block's vectors and the first row of the lower block's (its
  // sign flipped for a negative rho, so that rho > 0 below). Shared by the team: a row of q is N
  // loads one column apart, each a round trip to memory on the GPU.
  const double s2 = 1.0 / sqrt(2.0);
  for (int i = t.first(0); i < N; i += t.step())
    z[i] = (i < n1 ? q(m, lo + i) : (flip ? -1.0 : 1.0) * q(m + 1, lo + i)) * s2;
  t.sync();
  if (t.leader()) {
    // Merge the two ascending lists of eigenvalues (p: block column of each sorted position).
    int a = 0, b = n1;
    for (int k = 0; k < N; ++k) {
      const bool take_a = b >= N || (a < n1 && d[lo + a] <= d[lo + b]);
      p[k] = take_a ? a++ : b++;
      dl[k] = d[lo + p[k]];
    }
    double dmax = 0.0, zmax = 0.0;
    for (int i = 0; i < N; ++i) {
      dmax = dmax > fabs(dl[i]) ? dmax : fabs(dl[i]);
      zmax = zmax > fabs(z[i]) ? zmax : fabs(z[i]);
    }
    const double tol = 8.0 * Mach::eps * (dmax > zmax ? dmax : zmax);
    // Deflation (dlaed2): small z components, and nearly equal poles by a rotation that zeroes one
    // of the two z components. K kept (dk, zk, column ck), D deflated (dd, column cd); the
    // rotations are recorded (rl, rj, rc, rs) and applied by the team below, in order.
    int K = 0, D = 0, G = 0;
    for (int j = 0; j < N; ++j) {
      const int cj = lo + p[j];
      const double zj = z[p[j]], dj = dl[j];
      if (rho * fabs(zj) <= tol) {
        dd[D] = dj;
        cd[D++] = cj;
        continue;
      }
      if (K > 0) {
        double s = zk[K - 1], c = zj;
        const double tau = lapy2(c, s), tt = dj - dk[K - 1];
        c /= tau;
        s = -s / tau;
        if (fabs(tt * c * s) <= tol) {
          const int cl = ck[K - 1];
          rl[G] = cl;
          rj[G] = cj;
          rc[G] = c;
          rs[G++] = s;
          dd[D] = dk[K - 1] * c * c + dj * s * s;
          cd[D++] = cl;
          dk[K - 1] = dk[K - 1] * s * s + dj * c * c;
          zk[K - 1] = tau;
          ck[K - 1] = cj;
          continue;
        }
      }
      dk[K] = dj;
      zk[K] = zj;
      ck[K++] = cj;
    }
    p[0] = K;  // p is free from here; N >= 2
    p[1] = G;
  }
  t.sync();
  const int K = p[0], G = p[1];
  if (G > 0) {
    for (int r = t.first(lo); r <= hi; r += t.step())
      for (int g = 0; g < G; ++g) {
        const int cl = rl[g], cj = rj[g];
        const double c = rc[g], s = rs[g], x = q(r, cl), y = q(r, cj);
        q(r, cl) = c * x + s * y;
        q(r, cj) = c * y - s * x;
      }
    t.sync();
  }
  // The roots and their vectors (columns of U in A, K x K), and Q * U into B.
  if (K == 1) {
    if (t.leader()) val[0] = dk[0] + rho * zk[0] * zk[0];
    for (int r = t.first(0); r < N; r += t.step()) B[r] = q(lo + r, ck[0]);
  } else if (K > 1) {
    for (int i = t.first(0); i < K; i += t.step()) {
      roots[i] = secular_root(K, dk, zk, rho, i);
      val[i] = dk[roots[i].o] + roots[i].s * roots[i].u;
    }
    t.sync();
    // Loewner: the z for which the computed roots are exact, so that the vectors are orthogonal.
    for (int i = t.first(0); i < K; i += t.step()) {
      double w = gap(dk, i, roots[i]);
      for (int j = 0; j < K; ++j)
        if (j != i) w *= gap(dk, i, roots[j]) / (dk[i] - dk[j]);
      zh[i] = copysign(sqrt(fabs(w)), zk[i]);
    }
    t.sync();
    for (int j = t.first(0); j < K; j += t.step()) {
      double nrm = 0.0;
      for (int i = 0; i < K; ++i) {
        const double x = zh[i] / gap(dk, i, roots[j]);
        A[i + (int64_t)j * K] = x;
        nrm += x * x;
      }
      nrm = 1.0 / sqrt(nrm);
      for (int i = 0; i < K; ++i) A[i + (int64_t)j * K] *= nrm;
    }
    t.sync();
    prod(t, N, K, lo, q, ck, A, B);
  }
  t.sync();
  // Everything ascending, by rank (a stable sort: ties keep roots before deflated values, each in
  // its order): roots from B, deflated values from q's columns. rl: source of each sorted
  // position (>= 0: column of B; < 0: deflated entry -1 - src); dl: the sorted values.
  for (int a = t.first(0); a < N; a += t.step()) {
    const double va = a < K ? val[a] : dd[a - K];
    int rank = 0;
    for (int b = 0; b < N; ++b) {
      const double vb = b < K ? val[b] : dd[b - K];
      rank += (vb < va || (vb == va && b < a)) ? 1 : 0;
    }
    dl[rank] = va;
    rl[rank] = a < K ? a : -1 - (a - K);
  }
  t.sync();
  // Each member gathers its rows into A, then writes them back (a row's sources are its own).
  for (int r = t.first(0); r < N; r += t.step()) {
    for (int f = 0; f < N; ++f)
      A[r + (int64_t)f * N] = rl[f] >= 0 ? B[r + (int64_t)rl[f] * N] : q(lo + r, cd[-1 - rl[f]]);
    for (int f = 0; f < N; ++f) q(lo + r, lo + f) = A[r + (int64_t)f * N];
  }
  if (t.leader())
    for (int f = 0; f < N; ++f) d[lo + f] = dl[f];
  t.sync();
}

}  // namespace stedc_detail

// The leaves: 2^k blocks of at most kStedcLeaf rows, block b on rows start(b)..start(b+1)-1.
// Leaves are independent, and so are the merges of one level: a team may be split to run them
// side by side (cuda/heev_block.cu), each on its own slice of the workspace.
struct StedcPlan {
  int n, leaves;
  SGPU_HD int start(int b) const { return 1 + (int)((int64_t)b * n / leaves); }
  // Merges of the level that joins blocks of `width` leaves pairwise.
  SGPU_HD int merges(int width) const { return leaves / (2 * width); }
  // Order of the largest merge of that level.
  SGPU_HD int merge_size(int width) const {
    int mx = 0;
    for (int b = 0; b < leaves; b += 2 * width) {
      const int sz = start(b + 2 * width) - start(b);
      mx = mx > sz ? mx : sz;
    }
    return mx;
  }
};

SGPU_HD StedcPlan stedc_plan(int n) {
  int leaves = 1;
  while ((n + leaves - 1) / leaves > kStedcLeaf) leaves *= 2;
  return StedcPlan{n, leaves};
}

// q = I; T scaled to unit max norm (dstedc does, so the secular equations neither overflow nor
// underflow); the rank-one tears T = diag(T1', T2', ...) + sum rho v v^T, v = e_m + e_{m+1}.
// Returns the scale, 0 when T is zero (then d, q are already the answer).
template <class Team>
SGPU_HD double stedc_prepare(const Team& t, const StedcPlan& pl, Vec1<double> d, Vec1<double> e, Mat1<double> q) {
  const int n = pl.n;
  for (int c = 1; c <= n; ++c)  // members on consecutive rows
    for (int r = t.first(1); r <= n; r += t.step()) q(r, c) = r == c ? 1.0 : 0.0;
  double anrm = 0.0;
  for (int i = 1; i <= n; ++i) anrm = dmax(anrm, fabs(d[i]));
  for (int i = 1; i < n; ++i) anrm = dmax(anrm, fabs(e[i]));
  t.sync();  // every member has read d and e
  if (anrm == 0.0) return 0.0;
  if (t.leader()) {
    for (int i = 1; i <= n; ++i) d[i] /= anrm;
    for (int i = 1; i < n; ++i) e[i] /= anrm;
    for (int b = 1; b < pl.leaves; ++b) {
      const int m = pl.start(b) - 1;
      d[m] -= fabs(e[m]);
      d[m + 1] -= fabs(e[m]);
    }
  }
  t.sync();
  return anrm;
}

// Leaf b by implicit QL/QR (steqr) into its diagonal block of q. Returns 0, or (lo - 1) + the
// leaf's steqr info: in 1..n-1, the last unconverged off-diagonal's row. Every member runs the
// chain on its own copy of the leaf's d and e and of each sweep's rotations (identical in all),
// applies them to its rows of q, and only the leader writes d back: the members of a team never
// write a shared scalar.
template <class Team>
SGPU_HD int stedc_leaf(const Team& t, const StedcPlan& pl, int b, Vec1<double> d, Vec1<double> e, Mat1<double> q) {
  const int lo = pl.start(b), hi = pl.start(b + 1) - 1, len = hi - lo + 1;
  double dl[kStedcLeaf], el[kStedcLeaf], cw[kStedcLeaf], sw[kStedcLeaf];
  for (int i = 0; i < len; ++i) {
    dl[i] = d[lo + i];
    el[i] = i + 1 < len ? e[lo + i] : 0.0;
  }
  const Mat1<double> ql{&q(lo, lo), q.rs, q.cs};
  const int info = steqr(t, true, len, Vec1<double>{dl, 1}, Vec1<double>{el, 1}, len, ql, Vec1<double>{cw, 1},
                         Vec1<double>{sw, 1});
  if (t.leader())
    for (int i = 0; i < len; ++i) d[lo + i] = dl[i];
  t.sync();
  return info != 0 ? lo - 1 + info : 0;
}

// Merge j of the level joining blocks of `width` leaves (j < pl.merges(width)). The merge's
// vectors (10 n doubles, 6 n ints for the whole level) are in work and iwork as stedc_work lays
// them out, or in vwork and viwork where the caller gives them (a GPU block: shared memory, as
// the bookkeeping and the secular equations read them over and over).
template <class Team, class Product = stedc_detail::PlainProduct>
SGPU_HD void stedc_merge(const Team& t, const StedcPlan& pl, int width, int j, Vec1<double> d, Vec1<double> e,
                         Mat1<double> q, double* work, int* iwork, const Product& prod = Product{},
                         double* vwork = nullptr, int* viwork = nullptr) {
  const int b = 2 * width * j, n = pl.n;
  const int lo = pl.start(b), m = pl.start(b + width) - 1, hi = pl.start(b + 2 * width) - 1;
  const int64_t o = lo - 1;
  double* v = vwork ? vwork : work + 2 * (int64_t)n * n;
  int* iw = viwork ? viwork : iwork;
  stedc_detail::merge(t, lo, m, hi, e[m], d, q, work + o * n, work + (int64_t)n * n + o * n, v + 10 * o, iw + 6 * o,
                      prod);
}

// The scale back onto the eigenvalues.
template <class Team>
SGPU_HD void stedc_finish(const Team& t, const StedcPlan& pl, Vec1<double> d, double anrm) {
  if (t.leader())
    for (int i = 1; i <= pl.n; ++i) d[i] *= anrm;
  t.sync();
}

// dstedc (compz = I): d holds the eigenvalues ascending on return, q (n x n) the eigenvectors;
// e is destroyed. work: stedc_work(n) doubles, iwork: stedc_iwork(n) ints. Returns 0, or i > 0
// when a leaf's QL/QR failed (as dstedc's info; d is then not meaningful).
template <class Team>
SGPU_HD int stedc(const Team& t, int n, Vec1<double> d, Vec1<double> e, Mat1<double> q, double* work, int* iwork) {
  if (n <= 0) return 0;
  const StedcPlan pl = stedc_plan(n);
  const double anrm = stedc_prepare(t, pl, d, e, q);
  if (anrm == 0.0) return 0;
  int info = 0;
  for (int b = 0; b < pl.leaves && info == 0; ++b) info = stedc_leaf(t, pl, b, d, e, q);
  if (info == 0)
    for (int width = 1; width < pl.leaves; width *= 2)
      for (int j = 0; j < pl.merges(width); ++j) stedc_merge(t, pl, width, j, d, e, q, work, iwork);
  stedc_finish(t, pl, d, anrm);
  return info;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
