// lib/auto_model.hpp, AUTO's size model for host data, against the measurements it came from and
// its own rules:
//  - at every point sgpu_auto_bench measured (16 host threads; the log lines below, as
//    printed), AUTO never picks the GPU where it was over 10% slower, and it takes the GPU
//    wherever the GPU was over 10% faster there and faster at every larger batch of the same
//    order (within 10% the two are level: either choice is right; where the GPU
//    won at one batch and lost at a larger one, a crossover, which holds for every larger batch,
//    keeps the CPU: the scan of one 16384 x 64 matrix won on the GPU, of 4 and more lost);
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
// command), pageable host memory, best of 3: H200 with 16 host threads up to order 64 (128 for
// zheev), H100 with 16 host threads above (the GPU's one block per matrix there).
constexpr Point kPoints[] = {
    {K::kDgeev, 4, 1, 0.004, 0.180},
    {K::kDgeev, 4, 4, 0.011, 0.219},
    {K::kDgeev, 4, 16, 0.020, 0.269},
    {K::kDgeev, 4, 64, 0.053, 0.267},
    {K::kDgeev, 4, 256, 0.066, 0.293},
    {K::kDgeev, 4, 1024, 0.204, 0.324},
    {K::kDgeev, 4, 4096, 0.789, 0.440},
    {K::kDgeev, 4, 16384, 3.123, 0.599},
    {K::kDgeev, 4, 65536, 12.845, 1.295},
    {K::kDgeev, 4, 262144, 52.559, 3.311},
    {K::kDgeev, 4, 1048576, 205.230, 9.138},
    {K::kDgeev, 8, 1, 0.013, 0.292},
    {K::kDgeev, 8, 4, 0.030, 0.371},
    {K::kDgeev, 8, 16, 0.041, 0.449},
    {K::kDgeev, 8, 64, 0.108, 0.456},
    {K::kDgeev, 8, 256, 0.220, 0.500},
    {K::kDgeev, 8, 1024, 0.778, 0.620},
    {K::kDgeev, 8, 4096, 3.111, 0.797},
    {K::kDgeev, 8, 16384, 12.445, 1.460},
    {K::kDgeev, 8, 65536, 48.190, 4.550},
    {K::kDgeev, 8, 262144, 185.068, 13.380},
    {K::kDgeev, 16, 1, 0.040, 0.557},
    {K::kDgeev, 16, 4, 0.076, 0.743},
    {K::kDgeev, 16, 16, 0.084, 0.862},
    {K::kDgeev, 16, 64, 0.284, 0.910},
    {K::kDgeev, 16, 256, 0.794, 1.037},
    {K::kDgeev, 16, 1024, 3.254, 1.206},
    {K::kDgeev, 16, 4096, 12.406, 1.871},
    {K::kDgeev, 16, 16384, 47.116, 5.605},
    {K::kDgeev, 16, 65536, 172.351, 17.812},
    {K::kDgeev, 32, 1, 0.155, 1.275},
    {K::kDgeev, 32, 4, 0.223, 1.326},
    {K::kDgeev, 32, 16, 0.277, 1.383},
    {K::kDgeev, 32, 64, 1.050, 1.550},
    {K::kDgeev, 32, 256, 3.795, 1.648},
    {K::kDgeev, 32, 1024, 14.050, 2.334},
    {K::kDgeev, 32, 4096, 57.018, 7.381},
    {K::kDgeev, 32, 16384, 207.775, 25.219},
    {K::kDgeev, 64, 1, 0.878, 4.800},
    {K::kDgeev, 64, 4, 0.969, 4.979},
    {K::kDgeev, 64, 16, 1.542, 5.178},
    {K::kDgeev, 64, 64, 5.011, 5.566},
    {K::kDgeev, 64, 256, 19.408, 5.741},
    {K::kDgeev, 64, 1024, 76.661, 17.235},
    {K::kDgeev, 64, 4096, 276.288, 56.430},
    {K::kDhseqr, 4, 1, 0.006, 0.067},
    {K::kDhseqr, 4, 4, 0.020, 0.081},
    {K::kDhseqr, 4, 16, 0.018, 0.099},
    {K::kDhseqr, 4, 64, 0.045, 0.099},
    {K::kDhseqr, 4, 256, 0.050, 0.100},
    {K::kDhseqr, 4, 1024, 0.143, 0.150},
    {K::kDhseqr, 4, 4096, 0.527, 0.305},
    {K::kDhseqr, 4, 16384, 2.044, 0.459},
    {K::kDhseqr, 4, 65536, 8.403, 1.188},
    {K::kDhseqr, 4, 262144, 33.471, 2.932},
    {K::kDhseqr, 4, 1048576, 131.408, 12.925},
    {K::kDhseqr, 8, 1, 0.011, 0.102},
    {K::kDhseqr, 8, 4, 0.024, 0.156},
    {K::kDhseqr, 8, 16, 0.027, 0.160},
    {K::kDhseqr, 8, 64, 0.074, 0.178},
    {K::kDhseqr, 8, 256, 0.146, 0.203},
    {K::kDhseqr, 8, 1024, 0.507, 0.362},
    {K::kDhseqr, 8, 4096, 1.938, 0.533},
    {K::kDhseqr, 8, 16384, 7.422, 1.309},
    {K::kDhseqr, 8, 65536, 29.184, 2.662},
    {K::kDhseqr, 8, 262144, 120.523, 11.375},
    {K::kDhseqr, 16, 1, 0.030, 0.228},
    {K::kDhseqr, 16, 4, 0.054, 0.245},
    {K::kDhseqr, 16, 16, 0.063, 0.250},
    {K::kDhseqr, 16, 64, 0.192, 0.282},
    {K::kDhseqr, 16, 256, 0.575, 0.445},
    {K::kDhseqr, 16, 1024, 2.151, 0.596},
    {K::kDhseqr, 16, 4096, 9.046, 1.536},
    {K::kDhseqr, 16, 16384, 34.227, 4.119},
    {K::kDhseqr, 16, 65536, 131.825, 14.800},
    {K::kDhseqr, 32, 1, 0.121, 0.685},
    {K::kDhseqr, 32, 4, 0.210, 0.742},
    {K::kDhseqr, 32, 16, 0.222, 0.771},
    {K::kDhseqr, 32, 64, 0.774, 0.911},
    {K::kDhseqr, 32, 256, 2.786, 1.061},
    {K::kDhseqr, 32, 1024, 10.439, 1.744},
    {K::kDhseqr, 32, 4096, 42.606, 5.436},
    {K::kDhseqr, 32, 16384, 159.777, 15.162},
    {K::kDhseqr, 64, 1, 0.692, 2.614},
    {K::kDhseqr, 64, 4, 1.081, 2.850},
    {K::kDhseqr, 64, 16, 1.270, 3.126},
    {K::kDhseqr, 64, 64, 4.072, 3.265},
    {K::kDhseqr, 64, 256, 17.161, 3.917},
    {K::kDhseqr, 64, 1024, 60.633, 12.005},
    {K::kDhseqr, 64, 4096, 236.421, 37.363},
    {K::kZheevV, 4, 1, 0.003, 0.059},
    {K::kZheevV, 4, 4, 0.011, 0.074},
    {K::kZheevV, 4, 16, 0.013, 0.094},
    {K::kZheevV, 4, 64, 0.027, 0.094},
    {K::kZheevV, 4, 256, 0.054, 0.098},
    {K::kZheevV, 4, 1024, 0.172, 0.130},
    {K::kZheevV, 4, 4096, 0.638, 0.248},
    {K::kZheevV, 4, 16384, 2.685, 0.508},
    {K::kZheevV, 4, 65536, 10.785, 1.212},
    {K::kZheevV, 4, 262144, 41.312, 3.208},
    {K::kZheevV, 4, 1048576, 164.294, 10.875},
    {K::kZheevV, 8, 1, 0.007, 0.117},
    {K::kZheevV, 8, 4, 0.018, 0.191},
    {K::kZheevV, 8, 16, 0.023, 0.197},
    {K::kZheevV, 8, 64, 0.049, 0.202},
    {K::kZheevV, 8, 256, 0.160, 0.242},
    {K::kZheevV, 8, 1024, 0.487, 0.328},
    {K::kZheevV, 8, 4096, 1.956, 0.602},
    {K::kZheevV, 8, 16384, 7.574, 1.285},
    {K::kZheevV, 8, 65536, 31.391, 3.202},
    {K::kZheevV, 8, 262144, 124.520, 11.920},
    {K::kZheevV, 16, 1, 0.025, 0.184},
    {K::kZheevV, 16, 4, 0.043, 0.192},
    {K::kZheevV, 16, 16, 0.048, 0.196},
    {K::kZheevV, 16, 64, 0.133, 0.222},
    {K::kZheevV, 16, 256, 0.434, 0.411},
    {K::kZheevV, 16, 1024, 1.578, 0.679},
    {K::kZheevV, 16, 4096, 6.183, 1.783},
    {K::kZheevV, 16, 16384, 26.182, 4.460},
    {K::kZheevV, 16, 65536, 98.676, 12.374},
    {K::kZheevV, 32, 1, 0.119, 0.496},
    {K::kZheevV, 32, 4, 0.212, 0.531},
    {K::kZheevV, 32, 16, 0.188, 0.569},
    {K::kZheevV, 32, 64, 0.629, 0.778},
    {K::kZheevV, 32, 256, 2.520, 1.044},
    {K::kZheevV, 32, 1024, 10.031, 2.492},
    {K::kZheevV, 32, 4096, 39.970, 4.997},
    {K::kZheevV, 32, 16384, 157.151, 13.931},
    {K::kZheevV, 64, 1, 0.801, 1.269},
    {K::kZheevV, 64, 4, 1.982, 1.294},
    {K::kZheevV, 64, 16, 1.856, 1.514},
    {K::kZheevV, 64, 64, 4.583, 1.680},
    {K::kZheevV, 64, 256, 19.082, 2.488},
    {K::kZheevV, 64, 1024, 70.908, 6.309},
    {K::kZheevV, 64, 4096, 268.926, 17.632},
    {K::kZheevV, 128, 1, 7.598, 3.345},
    {K::kZheevV, 128, 4, 7.898, 3.660},
    {K::kZheevV, 128, 16, 10.637, 4.254},
    {K::kZheevV, 128, 64, 40.292, 4.950},
    {K::kZheevV, 128, 256, 135.516, 7.771},
    {K::kZheevV, 128, 1024, 532.037, 29.071},
    {K::kZheevN, 4, 1, 0.003, 0.048},
    {K::kZheevN, 4, 4, 0.010, 0.055},
    {K::kZheevN, 4, 16, 0.013, 0.057},
    {K::kZheevN, 4, 64, 0.019, 0.058},
    {K::kZheevN, 4, 256, 0.041, 0.076},
    {K::kZheevN, 4, 1024, 0.128, 0.124},
    {K::kZheevN, 4, 4096, 0.468, 0.204},
    {K::kZheevN, 4, 16384, 1.998, 0.450},
    {K::kZheevN, 4, 65536, 7.734, 0.974},
    {K::kZheevN, 4, 262144, 30.571, 2.723},
    {K::kZheevN, 4, 1048576, 123.289, 7.849},
    {K::kZheevN, 8, 1, 0.007, 0.075},
    {K::kZheevN, 8, 4, 0.017, 0.080},
    {K::kZheevN, 8, 16, 0.015, 0.096},
    {K::kZheevN, 8, 64, 0.039, 0.149},
    {K::kZheevN, 8, 256, 0.109, 0.169},
    {K::kZheevN, 8, 1024, 0.378, 0.266},
    {K::kZheevN, 8, 4096, 1.386, 0.438},
    {K::kZheevN, 8, 16384, 5.795, 1.004},
    {K::kZheevN, 8, 65536, 22.126, 2.739},
    {K::kZheevN, 8, 262144, 89.386, 8.984},
    {K::kZheevN, 16, 1, 0.016, 0.131},
    {K::kZheevN, 16, 4, 0.033, 0.148},
    {K::kZheevN, 16, 16, 0.030, 0.143},
    {K::kZheevN, 16, 64, 0.087, 0.172},
    {K::kZheevN, 16, 256, 0.300, 0.349},
    {K::kZheevN, 16, 1024, 1.167, 0.526},
    {K::kZheevN, 16, 4096, 4.500, 1.111},
    {K::kZheevN, 16, 16384, 17.258, 2.853},
    {K::kZheevN, 16, 65536, 66.163, 8.557},
    {K::kZheevN, 32, 1, 0.048, 0.409},
    {K::kZheevN, 32, 4, 0.075, 0.458},
    {K::kZheevN, 32, 16, 0.078, 0.507},
    {K::kZheevN, 32, 64, 0.270, 0.697},
    {K::kZheevN, 32, 256, 1.072, 0.798},
    {K::kZheevN, 32, 1024, 4.079, 1.479},
    {K::kZheevN, 32, 4096, 15.931, 3.389},
    {K::kZheevN, 32, 16384, 60.025, 9.243},
    {K::kZheevN, 64, 1, 0.178, 0.377},
    {K::kZheevN, 64, 4, 0.265, 0.417},
    {K::kZheevN, 64, 16, 0.280, 0.525},
    {K::kZheevN, 64, 64, 0.963, 0.626},
    {K::kZheevN, 64, 256, 4.263, 1.120},
    {K::kZheevN, 64, 1024, 18.695, 2.888},
    {K::kZheevN, 64, 4096, 62.057, 8.768},
    {K::kZheevN, 128, 1, 0.914, 1.648},
    {K::kZheevN, 128, 4, 1.252, 1.725},
    {K::kZheevN, 128, 16, 1.553, 1.836},
    {K::kZheevN, 128, 64, 6.075, 2.489},
    {K::kZheevN, 128, 256, 23.624, 4.211},
    {K::kZheevN, 128, 1024, 82.643, 11.731},
    {K::kScan, 64, 1, 0.003, 0.023},
    {K::kScan, 64, 4, 0.008, 0.032},
    {K::kScan, 64, 16, 0.007, 0.075},
    {K::kScan, 64, 64, 0.018, 0.117},
    {K::kScan, 64, 256, 0.060, 0.435},
    {K::kScan, 64, 1024, 0.263, 1.215},
    {K::kScan, 64, 4096, 1.267, 3.387},
    {K::kScan, 64, 16384, 7.878, 11.610},
    {K::kScan, 1024, 1, 0.038, 0.071},
    {K::kScan, 1024, 4, 0.050, 0.138},
    {K::kScan, 1024, 16, 0.067, 0.382},
    {K::kScan, 1024, 64, 0.291, 1.278},
    {K::kScan, 1024, 256, 1.252, 3.428},
    {K::kScan, 1024, 1024, 6.748, 12.557},
    {K::kScan, 16384, 1, 0.693, 0.436},
    {K::kScan, 16384, 4, 0.824, 1.203},
    {K::kScan, 16384, 16, 1.108, 2.941},
    {K::kScan, 16384, 64, 5.955, 10.945},
    // Orders 128 and up for dgeev and dhseqr, 256 and up for zheev: H100 with 16 host threads
    // (sgpu_auto_bench --large, and --large --n 320,384,448 for dgeev and dhseqr).
    {K::kDgeev, 128, 1, 5.419, 48.787},
    {K::kDgeev, 128, 4, 9.465, 74.171},
    {K::kDgeev, 128, 16, 10.092, 76.013},
    {K::kDgeev, 128, 64, 36.206, 76.190},
    {K::kDgeev, 128, 256, 153.561, 93.831},
    {K::kDgeev, 128, 1024, 567.158, 268.438},
    {K::kDgeev, 256, 1, 52.778, 149.940},
    {K::kDgeev, 256, 4, 66.493, 153.108},
    {K::kDgeev, 256, 16, 65.219, 152.442},
    {K::kDgeev, 256, 64, 209.635, 173.144},
    {K::kDgeev, 256, 256, 879.285, 636.734},
    {K::kDgeev, 320, 1, 81.994, 292.551},
    {K::kDgeev, 320, 4, 90.236, 297.947},
    {K::kDgeev, 320, 16, 113.141, 300.497},
    {K::kDgeev, 320, 64, 405.255, 403.124},
    {K::kDgeev, 320, 256, 1674.716, 1611.967},
    {K::kDgeev, 384, 1, 94.702, 477.265},
    {K::kDgeev, 384, 4, 154.314, 485.616},
    {K::kDgeev, 384, 16, 183.061, 495.337},
    {K::kDgeev, 384, 64, 730.705, 761.976},
    {K::kDgeev, 448, 1, 148.206, 738.496},
    {K::kDgeev, 448, 4, 244.113, 745.549},
    {K::kDgeev, 448, 16, 255.848, 787.991},
    {K::kDgeev, 448, 64, 984.347, 2031.761},
    {K::kDgeev, 512, 1, 195.742, 917.729},
    {K::kDgeev, 512, 4, 297.846, 923.543},
    {K::kDgeev, 512, 16, 375.972, 1003.822},
    {K::kDgeev, 512, 64, 1371.938, 2826.302},
    {K::kDhseqr, 128, 1, 3.621, 17.858},
    {K::kDhseqr, 128, 4, 6.732, 18.215},
    {K::kDhseqr, 128, 16, 7.493, 19.564},
    {K::kDhseqr, 128, 64, 28.791, 21.654},
    {K::kDhseqr, 128, 256, 130.488, 35.406},
    {K::kDhseqr, 128, 1024, 479.960, 105.147},
    {K::kDhseqr, 256, 1, 26.117, 93.557},
    {K::kDhseqr, 256, 4, 39.709, 98.136},
    {K::kDhseqr, 256, 16, 45.593, 98.875},
    {K::kDhseqr, 256, 64, 170.754, 126.653},
    {K::kDhseqr, 256, 256, 585.791, 302.651},
    {K::kDhseqr, 320, 1, 38.825, 187.129},
    {K::kDhseqr, 320, 4, 57.531, 187.757},
    {K::kDhseqr, 320, 16, 66.684, 195.808},
    {K::kDhseqr, 320, 64, 233.921, 254.548},
    {K::kDhseqr, 320, 256, 981.851, 756.939},
    {K::kDhseqr, 384, 1, 90.259, 270.658},
    {K::kDhseqr, 384, 4, 63.451, 296.908},
    {K::kDhseqr, 384, 16, 111.974, 310.495},
    {K::kDhseqr, 384, 64, 459.921, 452.574},
    {K::kDhseqr, 448, 1, 74.858, 424.534},
    {K::kDhseqr, 448, 4, 113.853, 452.077},
    {K::kDhseqr, 448, 16, 134.500, 498.687},
    {K::kDhseqr, 448, 64, 510.306, 1058.618},
    {K::kDhseqr, 512, 1, 68.328, 527.405},
    {K::kDhseqr, 512, 4, 66.225, 597.423},
    {K::kDhseqr, 512, 16, 86.031, 643.937},
    {K::kDhseqr, 512, 64, 336.316, 1328.069},
    {K::kZheevV, 256, 1, 47.070, 11.603},
    {K::kZheevV, 256, 4, 47.756, 13.129},
    {K::kZheevV, 256, 16, 61.659, 14.402},
    {K::kZheevV, 256, 64, 191.511, 17.045},
    {K::kZheevV, 256, 256, 866.084, 31.229},
    {K::kZheevV, 512, 1, 327.848, 63.910},
    {K::kZheevV, 512, 4, 391.122, 65.786},
    {K::kZheevV, 512, 16, 625.200, 72.864},
    {K::kZheevV, 512, 64, 1815.185, 89.434},
    {K::kZheevN, 256, 1, 5.606, 8.238},
    {K::kZheevN, 256, 4, 11.343, 7.534},
    {K::kZheevN, 256, 16, 10.484, 8.016},
    {K::kZheevN, 256, 64, 39.956, 9.818},
    {K::kZheevN, 256, 256, 162.003, 18.049},
    {K::kZheevN, 512, 1, 44.830, 42.194},
    {K::kZheevN, 512, 4, 66.761, 42.845},
    {K::kZheevN, 512, 16, 85.706, 45.437},
    {K::kZheevN, 512, 64, 289.340, 57.663},
};
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
    // The GPU over 10% faster here and faster at every larger batch of this order (within 10%
    // either way the two are level, and the CPU may keep it).
    bool gpu_from_here = p.gpu_ms * 1.1 < p.cpu_ms;
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
  // Threads scale the crossover: dgeev n = 4 crosses at 4096 matrices on 16 threads, 512 on 2.
  check(crossover(K::kDgeev, 4, 2) * 8 == crossover(K::kDgeev, 4, 16), "threads scaling", K::kDgeev, 4, 0, 2);
  std::printf("test_auto_model: %d measured points, %d checks, %d failures\n", count, checks, failures);
  return failures ? 1 : 0;
}
