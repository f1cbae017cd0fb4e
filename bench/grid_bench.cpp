// sgpu_grid_bench: every order and every batch against the loop it replaces. For each routine, a
// grid of orders n and batches: sgpu on AUTO, on the forced CPU backend and (where there is a GPU)
// on the forced GPU backend, all from pageable host memory, next to a LAPACKE loop under OpenMP on
// all host threads (common.hpp: a short batch spread over every thread, single-threaded OpenBLAS
// inside the parallel region). Best of 3 after a warm-up call on each, inputs restored untimed before every
// run. Prints one table per routine with the ratio sgpu / loop per cell (<= 1: sgpu is at least as
// fast), and the worst cell of AUTO and of the CPU backend over the whole grid.
// A cell is skipped (marked "-") when its arrays would pass --max-mb or when the previous batch
// of its row took the loop or sgpu over --max-s / 4 seconds (the next is about 4x larger).
// --no-gpu leaves out the forced GPU backend (AUTO may still take the GPU).
// Usage: sgpu_grid_bench [--only dgeev|dgeev_nv|dgeev_vv|dhseqr|zheev_n|zheev_v]
//                        [--n 32,64,...] [--batch 1,4,...] [--max-s S] [--max-mb MB] [--no-gpu]
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "common.hpp"

using namespace bench;

namespace {

struct Cell {
  double t_auto = -1, t_cpu = -1, t_gpu = -1, t_loop = -1;
};

// The contexts: AUTO (the default context's choice), forced CPU, forced GPU (null without a GPU).
struct Contexts {
  sgpu_context_t cpu = nullptr, gpu = nullptr;
  Contexts() {
    if (sgpu_context_create(&cpu) == 0) sgpu_context_set_backend(cpu, SGPU_BACKEND_CPU);
    if (sgpu_gpu_count() > 0 && sgpu_context_create(&gpu) == 0) sgpu_context_set_backend(gpu, SGPU_BACKEND_GPU);
  }
  ~Contexts() {
    sgpu_context_destroy(cpu);
    if (gpu) sgpu_context_destroy(gpu);
  }
};

// One routine's job at (n, batch): restore() puts the inputs back, call(ctx) runs sgpu (ctx null:
// AUTO), loop() runs the LAPACKE loop.
struct Job {
  std::function<void()> restore;
  std::function<int(sgpu_context_t)> call;
  std::function<void()> loop;
};
using MakeJob = std::function<Job(int n, int64_t batch)>;

double time_it(const Job& j, const std::function<void()>& f) {
  j.restore();
  f();  // warm-up
  return best_of(3, j.restore, f);
}

// Upper Hessenberg inputs for dhseqr: uniform entries, zero below the subdiagonal.
std::vector<double> hessenberg(int n, int64_t batch, uint64_t seed) {
  std::vector<double> h = uniform((size_t)n * n * batch, seed);
  for (int64_t b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j)
      for (int i = j + 2; i < n; ++i) h[(size_t)b * n * n + i + (size_t)j * n] = 0.0;
  return h;
}

struct Routine {
  const char* name;
  size_t bytes_per_matrix(int n) const { return (size_t)n * n * elem * arrays; }
  size_t elem;
  int arrays;  // n x n arrays a matrix takes (input copy, working copy, vectors)
  MakeJob make;
};

std::vector<Routine> routines() {
  std::vector<Routine> r;
  auto dgeev = [](char jl, char jr) {
    return [jl, jr](int n, int64_t batch) {
      const size_t nn = (size_t)n * n;
      auto a0 = std::make_shared<std::vector<double>>(uniform(nn * batch, 42 + n));
      auto a = std::make_shared<std::vector<double>>(a0->size());
      auto wr = std::make_shared<std::vector<double>>((size_t)n * batch);
      auto wi = std::make_shared<std::vector<double>>((size_t)n * batch);
      auto vl = std::make_shared<std::vector<double>>(jl == 'V' ? nn * batch : 1);
      auto vr = std::make_shared<std::vector<double>>(jr == 'V' ? nn * batch : 1);
      auto info = std::make_shared<std::vector<int>>(batch);
      Job j;
      j.restore = [=] { std::copy(a0->begin(), a0->end(), a->begin()); };
      j.call = [=](sgpu_context_t c) {
        return sgpu_dgeev_batched(c, jl, jr, n, a->data(), n, nn, wr->data(), wi->data(), n,
                                  jl == 'V' ? vl->data() : nullptr, n, nn, jr == 'V' ? vr->data() : nullptr, n, nn,
                                  info->data(), batch);
      };
      j.loop = [=] {
        lapacke_dgeev(jl, jr, n, a->data(), wr->data(), wi->data(), jl == 'V' ? vl->data() : nullptr,
                   jr == 'V' ? vr->data() : nullptr, batch);
      };
      return j;
    };
  };
  r.push_back({"dgeev", sizeof(double), 2, dgeev('N', 'N')});
  r.push_back({"dgeev_nv", sizeof(double), 3, dgeev('N', 'V')});
  r.push_back({"dgeev_vv", sizeof(double), 4, dgeev('V', 'V')});
  r.push_back({"dhseqr", sizeof(double), 2, [](int n, int64_t batch) {
                 const size_t nn = (size_t)n * n;
                 auto h0 = std::make_shared<std::vector<double>>(hessenberg(n, batch, 7 + n));
                 auto h = std::make_shared<std::vector<double>>(h0->size());
                 auto wr = std::make_shared<std::vector<double>>((size_t)n * batch);
                 auto wi = std::make_shared<std::vector<double>>((size_t)n * batch);
                 auto info = std::make_shared<std::vector<int>>(batch);
                 Job j;
                 j.restore = [=] { std::copy(h0->begin(), h0->end(), h->begin()); };
                 j.call = [=](sgpu_context_t c) {
                   return sgpu_dhseqr_batched(c, 'E', 'N', n, 1, n, h->data(), n, nn, wr->data(), wi->data(), n,
                                              nullptr, 1, 0, info->data(), batch);
                 };
                 j.loop = [=] { lapacke_dhseqr(n, h->data(), wr->data(), wi->data(), batch); };
                 return j;
               }});
  auto zheev = [](char jobz) {
    return [jobz](int n, int64_t batch) {
      const size_t nn = (size_t)n * n;
      auto a0 = std::make_shared<std::vector<cd>>(hermitian(n, batch, 3 + n));
      auto a = std::make_shared<std::vector<cd>>(a0->size());
      auto w = std::make_shared<std::vector<double>>((size_t)n * batch);
      auto info = std::make_shared<std::vector<int>>(batch);
      Job j;
      j.restore = [=] { std::copy(a0->begin(), a0->end(), a->begin()); };
      j.call = [=](sgpu_context_t c) {
        return sgpu_zheev_batched(c, jobz, 'L', n, reinterpret_cast<sgpu_complex_double*>(a->data()), n, nn,
                                  w->data(), n, info->data(), batch);
      };
      j.loop = [=] { lapacke_zheev(jobz, n, a->data(), w->data(), batch); };
      return j;
    };
  };
  r.push_back({"zheev_n", 2 * sizeof(double), 2, zheev('N')});
  r.push_back({"zheev_v", 2 * sizeof(double), 2, zheev('V')});
  return r;
}

std::string ms(double t) {
  if (t < 0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", 1e3 * t);
  return b;
}

std::string ratio(double t, double ref) {
  if (t < 0 || ref <= 0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", t / ref);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  const char* only = nullptr;
  std::vector<int> orders = {32, 64, 128, 256, 512, 1024};
  std::vector<int> batches = {1, 4, 16, 64, 256, 1024};
  double max_s = 3.0, max_mb = 4096;
  bool forced_gpu = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--n") && i + 1 < argc) orders = parse_list(argv[++i]);
    else if (!std::strcmp(argv[i], "--batch") && i + 1 < argc) batches = parse_list(argv[++i]);
    else if (!std::strcmp(argv[i], "--max-s") && i + 1 < argc) max_s = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--max-mb") && i + 1 < argc) max_mb = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-gpu")) forced_gpu = false;
  }
  Contexts ctx;
  std::printf("sgpu_grid_bench: %d host threads, %s; ms, best of 3; ratio = sgpu / LAPACKE loop\n",
              omp_get_max_threads(), ctx.gpu ? "GPU present" : "no GPU");
  struct Worst {
    double r = 0;
    std::string where;
  } worst_auto, worst_cpu;
  for (const Routine& rt : routines()) {
    if (only && std::strcmp(only, rt.name)) continue;
    std::printf("\n%s\n| n | batch | AUTO | CPU | GPU | LAPACKE loop | AUTO/loop | CPU/loop | GPU/loop |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                rt.name);
    for (int n : orders) {
      double prev = 0;
      for (int64_t batch : batches) {
        const double mb = (double)rt.bytes_per_matrix(n) * (double)batch / 1048576.0;
        if (mb > max_mb || prev > max_s / 4) {
          std::printf("| %d | %lld | - | - | - | - | - | - | - |\n", n, (long long)batch);
          continue;
        }
        Job j = rt.make(n, batch);
        Cell c;
        int st = 0;
        c.t_loop = time_it(j, j.loop);
        c.t_cpu = time_it(j, [&] { st |= j.call(ctx.cpu) < 0; });
        c.t_auto = time_it(j, [&] { st |= j.call(nullptr) < 0; });
        if (ctx.gpu && forced_gpu) c.t_gpu = time_it(j, [&] { st |= j.call(ctx.gpu) < 0; });
        prev = std::max({c.t_loop, c.t_cpu, c.t_auto, c.t_gpu});
        std::printf("| %d | %lld | %s | %s | %s | %s | %s | %s | %s |%s\n", n, (long long)batch, ms(c.t_auto).c_str(),
                    ms(c.t_cpu).c_str(), ms(c.t_gpu).c_str(), ms(c.t_loop).c_str(),
                    ratio(c.t_auto, c.t_loop).c_str(), ratio(c.t_cpu, c.t_loop).c_str(),
                    ratio(c.t_gpu, c.t_loop).c_str(), st ? " (error status)" : "");
        std::fflush(stdout);
        char where[96];
        std::snprintf(where, sizeof where, "%s n=%d batch=%lld", rt.name, n, (long long)batch);
        if (c.t_auto / c.t_loop > worst_auto.r) worst_auto = {c.t_auto / c.t_loop, where};
        if (c.t_cpu / c.t_loop > worst_cpu.r) worst_cpu = {c.t_cpu / c.t_loop, where};
      }
    }
  }
  std::printf("\nworst AUTO/loop %.2f (%s); worst CPU/loop %.2f (%s)\n", worst_auto.r, worst_auto.where.c_str(),
              worst_cpu.r, worst_cpu.where.c_str());
  return 0;
}
