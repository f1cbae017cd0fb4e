// lib/auto_model.hpp, AUTO's size model for host data, against the measurements it came from and
// its own rules:
//  - at every point sgpu_auto_bench measured (H100, 16 host threads; the log lines below, as
//    printed), AUTO never picks a backend that was over 10% slower there, and it takes the GPU
//    wherever the GPU was faster there and at every larger batch of the same order;
//  - the GPU from some batch on means at every larger batch; more host threads never lower the
//    crossover; orders outside the measured rows, and the scan, stay on the CPU; an order between
//    rows takes the smaller order's row.
#include <cstdint>
#include <cstdio>
#include <initializer_list>

#include "auto_model.hpp"

namespace {
using K = sgpu::auto_model::Kind;
using sgpu::auto_model::crossover;
using sgpu::auto_model::gpu_pays;
using sgpu::auto_model::kNever;

struct Point {
  K kind;
  int n;
  int64_t batch;
  double cpu_ms, gpu_ms;
};
// sgpu_auto_bench's measurements (docs/performance.md, "AUTO for host data", with their commit and
// command): H100 80GB HBM3, 16 host threads, pageable host memory, best of 3.
constexpr Point kPoints[] = {
    {K::kDgeev, 4, 1, 0.006, 0.088},
    {K::kDgeev, 4, 4, 0.019, 0.097},
    {K::kDgeev, 4, 16, 0.059, 0.140},
    {K::kDgeev, 4, 64, 0.062, 0.142},
    {K::kDgeev, 4, 256, 0.075, 0.170},
    {K::kDgeev, 4, 1024, 0.249, 0.239},
    {K::kDgeev, 4, 4096, 0.908, 0.333},
    {K::kDgeev, 4, 16384, 3.645, 0.550},
    {K::kDgeev, 4, 65536, 15.077, 1.651},
    {K::kDgeev, 4, 262144, 59.520, 5.553},
    {K::kDgeev, 4, 1048576, 240.635, 21.836},
    {K::kDgeev, 8, 1, 0.017, 0.212},
    {K::kDgeev, 8, 4, 0.085, 0.286},
    {K::kDgeev, 8, 16, 0.141, 0.418},
    {K::kDgeev, 8, 64, 0.150, 0.461},
    {K::kDgeev, 8, 256, 0.276, 0.479},
    {K::kDgeev, 8, 1024, 0.890, 0.594},
    {K::kDgeev, 8, 4096, 3.334, 0.766},
    {K::kDgeev, 8, 16384, 12.964, 1.566},
    {K::kDgeev, 8, 65536, 53.948, 4.160},
    {K::kDgeev, 8, 262144, 214.784, 17.882},
    {K::kDgeev, 16, 1, 0.063, 0.460},
    {K::kDgeev, 16, 4, 0.248, 0.720},
    {K::kDgeev, 16, 16, 0.493, 0.754},
    {K::kDgeev, 16, 64, 0.543, 0.806},
    {K::kDgeev, 16, 256, 1.023, 0.904},
    {K::kDgeev, 16, 1024, 3.597, 1.054},
    {K::kDgeev, 16, 4096, 13.706, 2.062},
    {K::kDgeev, 16, 16384, 53.960, 7.097},
    {K::kDgeev, 16, 65536, 207.271, 32.294},
    {K::kDgeev, 32, 1, 0.315, 1.146},
    {K::kDgeev, 32, 4, 0.786, 1.185},
    {K::kDgeev, 32, 16, 2.600, 1.225},
    {K::kDgeev, 32, 64, 2.823, 1.371},
    {K::kDgeev, 32, 256, 5.677, 1.520},
    {K::kDgeev, 32, 1024, 18.570, 2.540},
    {K::kDgeev, 32, 4096, 76.843, 8.978},
    {K::kDgeev, 32, 16384, 288.151, 40.800},
    {K::kDgeev, 64, 1, 1.977, 4.576},
    {K::kDgeev, 64, 4, 7.948, 4.712},
    {K::kDgeev, 64, 16, 17.297, 4.833},
    {K::kDgeev, 64, 64, 17.663, 5.015},
    {K::kDgeev, 64, 256, 37.296, 5.606},
    {K::kDgeev, 64, 1024, 137.053, 16.526},
    {K::kDgeev, 64, 4096, 490.845, 54.302},
    {K::kDhseqr, 4, 1, 0.007, 0.071},
    {K::kDhseqr, 4, 4, 0.016, 0.081},
    {K::kDhseqr, 4, 16, 0.026, 0.091},
    {K::kDhseqr, 4, 64, 0.029, 0.104},
    {K::kDhseqr, 4, 256, 0.048, 0.101},
    {K::kDhseqr, 4, 1024, 0.137, 0.147},
    {K::kDhseqr, 4, 4096, 0.497, 0.289},
    {K::kDhseqr, 4, 16384, 1.988, 0.510},
    {K::kDhseqr, 4, 65536, 8.067, 1.200},
    {K::kDhseqr, 4, 262144, 35.166, 2.892},
    {K::kDhseqr, 4, 1048576, 135.290, 12.669},
    {K::kDhseqr, 8, 1, 0.013, 0.138},
    {K::kDhseqr, 8, 4, 0.064, 0.213},
    {K::kDhseqr, 8, 16, 0.089, 0.289},
    {K::kDhseqr, 8, 64, 0.096, 0.303},
    {K::kDhseqr, 8, 256, 0.165, 0.322},
    {K::kDhseqr, 8, 1024, 0.507, 0.484},
    {K::kDhseqr, 8, 4096, 2.181, 0.682},
    {K::kDhseqr, 8, 16384, 8.516, 1.438},
    {K::kDhseqr, 8, 65536, 31.823, 2.940},
    {K::kDhseqr, 8, 262144, 121.891, 9.336},
    {K::kDhseqr, 16, 1, 0.027, 0.272},
    {K::kDhseqr, 16, 4, 0.106, 0.400},
    {K::kDhseqr, 16, 16, 0.270, 0.458},
    {K::kDhseqr, 16, 64, 0.316, 0.486},
    {K::kDhseqr, 16, 256, 0.664, 0.705},
    {K::kDhseqr, 16, 1024, 2.251, 0.878},
    {K::kDhseqr, 16, 4096, 8.760, 1.663},
    {K::kDhseqr, 16, 16384, 34.424, 3.898},
    {K::kDhseqr, 16, 65536, 142.220, 10.828},
    {K::kDhseqr, 32, 1, 0.131, 0.686},
    {K::kDhseqr, 32, 4, 0.517, 0.745},
    {K::kDhseqr, 32, 16, 1.683, 0.771},
    {K::kDhseqr, 32, 64, 1.798, 0.936},
    {K::kDhseqr, 32, 256, 3.639, 1.105},
    {K::kDhseqr, 32, 1024, 12.773, 1.858},
    {K::kDhseqr, 32, 4096, 51.338, 5.313},
    {K::kDhseqr, 32, 16384, 188.720, 14.609},
    {K::kDhseqr, 64, 1, 0.676, 2.612},
    {K::kDhseqr, 64, 4, 2.832, 2.839},
    {K::kDhseqr, 64, 16, 9.934, 3.133},
    {K::kDhseqr, 64, 64, 11.588, 3.287},
    {K::kDhseqr, 64, 256, 22.871, 3.945},
    {K::kDhseqr, 64, 1024, 83.811, 11.783},
    {K::kDhseqr, 64, 4096, 316.355, 36.103},
    {K::kZheevV, 4, 1, 0.004, 0.068},
    {K::kZheevV, 4, 4, 0.023, 0.089},
    {K::kZheevV, 4, 16, 0.027, 0.098},
    {K::kZheevV, 4, 64, 0.032, 0.099},
    {K::kZheevV, 4, 256, 0.048, 0.106},
    {K::kZheevV, 4, 1024, 0.155, 0.144},
    {K::kZheevV, 4, 4096, 0.574, 0.246},
    {K::kZheevV, 4, 16384, 2.330, 0.588},
    {K::kZheevV, 4, 65536, 9.283, 1.278},
    {K::kZheevV, 4, 262144, 38.278, 3.396},
    {K::kZheevV, 4, 1048576, 160.752, 11.880},
    {K::kZheevV, 8, 1, 0.012, 0.129},
    {K::kZheevV, 8, 4, 0.057, 0.201},
    {K::kZheevV, 8, 16, 0.090, 0.205},
    {K::kZheevV, 8, 64, 0.095, 0.211},
    {K::kZheevV, 8, 256, 0.174, 0.253},
    {K::kZheevV, 8, 1024, 0.628, 0.351},
    {K::kZheevV, 8, 4096, 2.470, 0.660},
    {K::kZheevV, 8, 16384, 9.666, 1.383},
    {K::kZheevV, 8, 65536, 40.391, 3.304},
    {K::kZheevV, 8, 262144, 161.941, 13.714},
    {K::kZheevV, 16, 1, 0.043, 0.193},
    {K::kZheevV, 16, 4, 0.189, 0.201},
    {K::kZheevV, 16, 16, 0.357, 0.205},
    {K::kZheevV, 16, 64, 0.405, 0.236},
    {K::kZheevV, 16, 256, 0.791, 0.442},
    {K::kZheevV, 16, 1024, 2.648, 0.711},
    {K::kZheevV, 16, 4096, 10.460, 1.793},
    {K::kZheevV, 16, 16384, 40.902, 3.463},
    {K::kZheevV, 16, 65536, 160.923, 11.644},
    {K::kZheevV, 32, 1, 0.291, 0.504},
    {K::kZheevV, 32, 4, 1.101, 0.545},
    {K::kZheevV, 32, 16, 1.860, 0.580},
    {K::kZheevV, 32, 64, 2.517, 0.798},
    {K::kZheevV, 32, 256, 5.164, 1.084},
    {K::kZheevV, 32, 1024, 17.230, 2.534},
    {K::kZheevV, 32, 4096, 63.850, 4.914},
    {K::kZheevV, 32, 16384, 245.400, 13.935},
    {K::kZheevV, 64, 1, 1.898, 1.285},
    {K::kZheevV, 64, 4, 6.710, 1.322},
    {K::kZheevV, 64, 16, 15.592, 1.541},
    {K::kZheevV, 64, 64, 16.267, 1.694},
    {K::kZheevV, 64, 256, 35.826, 2.570},
    {K::kZheevV, 64, 1024, 112.170, 5.673},
    {K::kZheevV, 64, 4096, 437.825, 17.457},
    {K::kZheevV, 128, 1, 13.524, 3.310},
    {K::kZheevV, 128, 4, 54.964, 3.673},
    {K::kZheevV, 128, 16, 96.645, 4.113},
    {K::kZheevV, 128, 64, 125.321, 5.005},
    {K::kZheevV, 128, 256, 259.128, 7.397},
    {K::kZheevV, 128, 1024, 875.057, 23.790},
    {K::kZheevN, 4, 1, 0.002, 0.049},
    {K::kZheevN, 4, 4, 0.008, 0.054},
    {K::kZheevN, 4, 16, 0.018, 0.059},
    {K::kZheevN, 4, 64, 0.024, 0.058},
    {K::kZheevN, 4, 256, 0.041, 0.078},
    {K::kZheevN, 4, 1024, 0.120, 0.127},
    {K::kZheevN, 4, 4096, 0.453, 0.199},
    {K::kZheevN, 4, 16384, 1.855, 0.422},
    {K::kZheevN, 4, 65536, 7.430, 0.936},
    {K::kZheevN, 4, 262144, 30.038, 2.076},
    {K::kZheevN, 4, 1048576, 118.708, 7.123},
    {K::kZheevN, 8, 1, 0.007, 0.073},
    {K::kZheevN, 8, 4, 0.038, 0.089},
    {K::kZheevN, 8, 16, 0.058, 0.086},
    {K::kZheevN, 8, 64, 0.057, 0.147},
    {K::kZheevN, 8, 256, 0.115, 0.174},
    {K::kZheevN, 8, 1024, 0.412, 0.264},
    {K::kZheevN, 8, 4096, 1.525, 0.481},
    {K::kZheevN, 8, 16384, 6.226, 0.967},
    {K::kZheevN, 8, 65536, 25.320, 2.672},
    {K::kZheevN, 8, 262144, 106.635, 8.498},
    {K::kZheevN, 16, 1, 0.017, 0.134},
    {K::kZheevN, 16, 4, 0.075, 0.147},
    {K::kZheevN, 16, 16, 0.197, 0.144},
    {K::kZheevN, 16, 64, 0.196, 0.166},
    {K::kZheevN, 16, 256, 0.425, 0.358},
    {K::kZheevN, 16, 1024, 1.505, 0.527},
    {K::kZheevN, 16, 4096, 5.866, 1.141},
    {K::kZheevN, 16, 16384, 24.512, 2.464},
    {K::kZheevN, 16, 65536, 90.175, 7.443},
    {K::kZheevN, 32, 1, 0.068, 0.475},
    {K::kZheevN, 32, 4, 0.321, 0.536},
    {K::kZheevN, 32, 16, 0.840, 0.482},
    {K::kZheevN, 32, 64, 0.913, 0.712},
    {K::kZheevN, 32, 256, 1.857, 0.839},
    {K::kZheevN, 32, 1024, 6.269, 1.489},
    {K::kZheevN, 32, 4096, 25.951, 3.251},
    {K::kZheevN, 32, 16384, 100.949, 8.469},
    {K::kZheevN, 64, 1, 0.373, 0.392},
    {K::kZheevN, 64, 4, 1.589, 0.426},
    {K::kZheevN, 64, 16, 3.512, 0.526},
    {K::kZheevN, 64, 64, 5.785, 0.655},
    {K::kZheevN, 64, 256, 11.524, 1.143},
    {K::kZheevN, 64, 1024, 37.699, 2.689},
    {K::kZheevN, 64, 4096, 150.316, 7.538},
    {K::kZheevN, 128, 1, 2.530, 1.654},
    {K::kZheevN, 128, 4, 9.802, 1.754},
    {K::kZheevN, 128, 16, 23.002, 1.893},
    {K::kZheevN, 128, 64, 39.744, 2.569},
    {K::kZheevN, 128, 256, 80.583, 4.064},
    {K::kZheevN, 128, 1024, 274.370, 10.957},
    {K::kScan, 64, 1, 0.003, 0.041},
    {K::kScan, 64, 4, 0.006, 0.050},
    {K::kScan, 64, 16, 0.010, 0.171},
    {K::kScan, 64, 64, 0.038, 0.365},
    {K::kScan, 64, 256, 0.093, 0.996},
    {K::kScan, 64, 1024, 0.518, 3.218},
    {K::kScan, 64, 4096, 2.751, 15.140},
    {K::kScan, 64, 16384, 10.935, 58.748},
    {K::kScan, 1024, 1, 0.045, 0.269},
    {K::kScan, 1024, 4, 0.060, 0.456},
    {K::kScan, 1024, 16, 0.100, 1.245},
    {K::kScan, 1024, 64, 0.503, 3.233},
    {K::kScan, 1024, 256, 2.081, 16.105},
    {K::kScan, 1024, 1024, 8.711, 64.285},
    {K::kScan, 16384, 1, 0.875, 1.131},
    {K::kScan, 16384, 4, 0.916, 3.439},
    {K::kScan, 16384, 16, 1.319, 16.084},
    {K::kScan, 16384, 64, 6.263, 63.777},
    {K::kDgeev, 128, 1, 7.558, 46.317},
    {K::kDgeev, 128, 4, 30.682, 74.649},
    {K::kDgeev, 128, 16, 63.837, 75.589},
    {K::kDgeev, 256, 1, 75.633, 398.412},
    {K::kDgeev, 256, 4, 307.302, 541.128},
    {K::kDgeev, 256, 16, 675.359, 547.636},
    {K::kDhseqr, 128, 1, 10.808, 30.022},
    {K::kDhseqr, 128, 4, 25.283, 47.945},
    {K::kDhseqr, 128, 16, 65.513, 50.109},
    {K::kDhseqr, 256, 1, 86.811, 259.978},
    {K::kDhseqr, 256, 4, 445.180, 340.552},
    {K::kDhseqr, 256, 16, 769.420, 343.341},
    {K::kZheevV, 256, 1, 55.032, 11.581},
    {K::kZheevV, 256, 4, 242.005, 12.741},
    {K::kZheevV, 256, 16, 496.479, 14.010},
    {K::kZheevV, 256, 64, 779.441, 16.892},
    {K::kZheevV, 256, 256, 2064.205, 32.274},
    {K::kZheevV, 512, 1, 1088.411, 62.513},
    {K::kZheevV, 512, 4, 4406.202, 65.673},
    {K::kZheevV, 512, 16, 9297.599, 72.828},
    {K::kZheevN, 256, 1, 18.430, 7.564},
    {K::kZheevN, 256, 4, 59.493, 7.496},
    {K::kZheevN, 256, 16, 154.975, 8.021},
    {K::kZheevN, 256, 64, 256.426, 9.615},
    {K::kZheevN, 256, 256, 455.850, 17.327},
    {K::kZheevN, 512, 1, 184.698, 42.183},
    {K::kZheevN, 512, 4, 496.797, 42.647},
    {K::kZheevN, 512, 16, 1160.166, 45.274}};
constexpr int kThreads = 16;
const char* name(K k) {
  return k == K::kDgeev ? "dgeev" : k == K::kDhseqr ? "dhseqr" : k == K::kZheevV ? "zheev V" : k == K::kZheevN ? "zheev N" : "scan";
}
}  // namespace

int main() {
  int failures = 0, checks = 0;
  auto check = [&](bool ok, const char* what, K k, int n, int64_t batch, int threads) {
    ++checks;
    if (ok) return;
    if (++failures <= 20)
      std::printf("FAIL %s: %s n=%d batch=%lld threads=%d\n", what, name(k), n, (long long)batch, threads);
  };
  const int count = (int)(sizeof kPoints / sizeof kPoints[0]);
  for (int i = 0; i < count; ++i) {
    const Point& p = kPoints[i];
    const bool gpu = gpu_pays(p.kind, p.n, p.batch, kThreads);
    check(!gpu || p.gpu_ms <= 1.1 * p.cpu_ms, "GPU chosen where it was over 10% slower", p.kind, p.n, p.batch, kThreads);
    check(gpu || p.cpu_ms <= 1.1 * p.gpu_ms, "CPU chosen where it was over 10% slower (a point may be cautious)",
          p.kind, p.n, p.batch, kThreads);
    bool gpu_from_here = true;  // the GPU faster here and at every larger batch of this order
    for (int j = i; j < count; ++j)
      if (kPoints[j].kind == p.kind && kPoints[j].n == p.n && kPoints[j].batch >= p.batch)
        gpu_from_here = gpu_from_here && kPoints[j].gpu_ms < kPoints[j].cpu_ms;
    check(!gpu_from_here || gpu, "CPU kept past the measured crossover", p.kind, p.n, p.batch, kThreads);
  }
  for (K k : {K::kDgeev, K::kDhseqr, K::kZheevV, K::kZheevN, K::kScan}) {
    for (int n = 1; n <= 1100; n += (n < 70 ? 1 : 7)) {
      for (int t : {1, 2, 4, 16, 64, 256}) {
        const int64_t b = crossover(k, n, t);
        check(b == kNever || b >= 1, "crossover below one matrix", k, n, b, t);
        // Monotone in the batch: once the GPU, the GPU at every larger batch.
        bool seen = false;
        for (int64_t batch = 1; batch <= (int64_t(1) << 24); batch *= 2) {
          const bool g = gpu_pays(k, n, batch, t);
          check(!seen || g, "CPU again at a larger batch", k, n, batch, t);
          seen = seen || g;
        }
        // More host threads make the CPU faster: never a lower crossover.
        const int64_t more = crossover(k, n, 2 * t);
        check(b == kNever ? more == kNever : (more == kNever || more >= b), "crossover fell with more threads", k, n, b, t);
      }
    }
    // Outside the measured orders (4 to 256 or 512), and the scan: the CPU, whatever the batch.
    for (int n : {1, 2, 3, 600, 1024, 4096})
      check(!gpu_pays(k, n, int64_t(1) << 40, kThreads), "GPU outside the measured orders", k, n, int64_t(1) << 40,
            kThreads);
    check(k != K::kScan || !gpu_pays(k, 16384, int64_t(1) << 40, kThreads), "scan of host data on the GPU", k, 16384,
          0, kThreads);
  }
  // Between rows: the smaller order's row (dgeev n = 12 as n = 8, zheev V n = 24 as n = 16).
  check(crossover(K::kDgeev, 12, kThreads) == crossover(K::kDgeev, 8, kThreads), "between rows", K::kDgeev, 12, 0, kThreads);
  check(crossover(K::kZheevV, 24, kThreads) == crossover(K::kZheevV, 16, kThreads), "between rows", K::kZheevV, 24, 0,
        kThreads);
  // Threads scale the crossover: dgeev n = 4 crosses at 1024 matrices on 16 threads, 128 on 2.
  check(crossover(K::kDgeev, 4, 2) * 8 == crossover(K::kDgeev, 4, 16), "threads scaling", K::kDgeev, 4, 0, 2);
  std::printf("test_auto_model: %d measured points, %d checks, %d failures\n", count, checks, failures);
  return failures ? 1 : 0;
}
