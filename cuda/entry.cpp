// The GPU backend's entry points for the eigensolvers: each decodes its job flags once into a job
// (eig_smem::Job) and hands it to the pipeline (eig_pipeline.cu), which decides by where the
// operands are how the call runs. The scan's entry point is in scan_cols.cu.
#include <cctype>

#include "../compat/core/hseqr.hpp"
#include "../lib/internal.hpp"
#include "eig_pipeline.hpp"

namespace sgpu {
namespace gpu {

namespace {
bool is(char c, char want) { return std::toupper((unsigned char)c) == want; }
}  // namespace

int dhseqr(sgpu_context* ctx, char job, char compz, int n, int ilo, int ihi, double* H, int ldh, int64_t strideH,
           double* wr, double* wi, int64_t strideW, double* Z, int ldz, int64_t strideZ, int* info, int64_t batch) {
  eig_smem::Job j;
  j.wantt = is(job, 'S');
  j.compz = is(compz, 'I') ? core::kCompzI : is(compz, 'V') ? core::kCompzV : core::kCompzN;
  j.n = n;
  j.ilo = ilo;
  j.ihi = ihi;
  j.A = H;
  j.lda = ldh;
  j.sA = strideH;
  j.wr = wr;
  j.wi = wi;
  j.sW = strideW;
  j.Z = j.compz ? Z : nullptr;
  j.ldz = ldz;
  j.sZ = strideZ;
  j.info = info;
  j.batch = batch;
  return eig_pipeline::run(ctx, j);
}

int dgeev(sgpu_context* ctx, char jobvl, char jobvr, int n, double* A, int lda, int64_t strideA, double* wr,
          double* wi, int64_t strideW, double* VL, int ldvl, int64_t strideVL, double* VR, int ldvr,
          int64_t strideVR, int* info, int64_t batch) {
  eig_smem::Job j;
  j.geev = true;
  j.wantvl = is(jobvl, 'V');
  j.wantvr = is(jobvr, 'V');
  j.n = n;
  j.A = A;
  j.lda = lda;
  j.sA = strideA;
  j.wr = wr;
  j.wi = wi;
  j.sW = strideW;
  j.Z = j.wantvr ? VR : nullptr;
  j.ldz = ldvr;
  j.sZ = strideVR;
  j.VL = j.wantvl ? VL : nullptr;
  j.ldvl = ldvl;
  j.sVL = strideVL;
  j.info = info;
  j.batch = batch;
  return eig_pipeline::run(ctx, j);
}

int zheev(sgpu_context* ctx, char jobz, char uplo, int n, void* A, int lda, int64_t strideA, double* w,
          int64_t strideW, int* info, int64_t batch) {
  eig_smem::Job j;
  j.heev = true;
  j.wantz = is(jobz, 'V');
  j.lower = is(uplo, 'L');
  j.n = n;
  j.A = static_cast<double*>(A);
  j.lda = lda;
  j.sA = strideA;
  j.wr = w;
  j.sW = strideW;
  j.info = info;
  j.batch = batch;
  return eig_pipeline::run(ctx, j);
}

}  // namespace gpu
}  // namespace sgpu
