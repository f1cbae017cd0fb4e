// Which kernel family serves an eigensolver job on device memory. dgeev/dhseqr: eigenvalues only
// at small orders one thread per matrix in registers (kernels/eig_reg); else the shared-memory
// teams (kernels/eig_smem) where a matrix's slot fits a block, else one block per matrix on
// global memory (kernels/eig_warp), or one warp for dgeev where its values-only call fits the
// shared-memory teams (their 32-lane sums, so that its eigenvalues do not depend on the job).
// zheev: at the smallest orders (tuning::kHeevJacobiMaxN) one thread per matrix (kernels/
// heev_jacobi); for n <= 32 the shared-memory teams (kernels/heev_team) or, where their table says
// (jobz N from n = 9), teams on global memory (kernels/eig_warp); the block path (kernels/
// heev_block) above.
#include "drivers/eig_kernels.hpp"

#include "kernels/eig_reg.hpp"
#include "kernels/eig_smem.hpp"
#include "kernels/eig_warp.hpp"
#include "kernels/heev_jacobi.hpp"
#include "kernels/heev_team.hpp"

namespace sgpu {
namespace gpu {

bool heev_block_path(int n) { return heev_block::serves(n); }
bool heev_values_path(int n, int64_t call_batch) { return heev_block::values_kernel(n, call_batch); }

namespace {

// Whether dgeev's job j, off the shared-memory teams, takes one warp per matrix: where its
// values-only call runs on the teams (32 lanes at these orders), so that every job's team
// reductions, and so its eigenvalues, are the same.
bool geev_warp(const EigJob& j) {
  if (!j.geev) return false;
  EigJob values = j;
  values.wantvl = values.wantvr = false;
  return eig_smem::plan(values);
}

}  // namespace

int enqueue_eig(const EigJob& j, cudaStream_t s, stream::Lane& l) {
  if (j.batch == 0) return 0;
  if (j.heev) {
    if (heev_jacobi::serves(j.n))
      return heev_jacobi::launch(j.wantz, j.lower, j.n, j.A, j.lda, j.sA, j.wr, j.sW, j.info, j.batch, s);
    HeevState* st = l.state<HeevState>();
    if (!st || !st->ws) return SGPU_ERR_HOST_ALLOC;
    if (heev_block::serves(j.n))
      return heev_block::enqueue(st->ws, s, j.wantz, j.lower, j.n, j.A, j.lda, j.sA, j.wr, j.sW, j.info, j.batch,
                                 j.call_batch, (size_t)j.ws_limit);
    if (heev_team::serves(j.n, j.wantz))
      return heev_team::launch(j.wantz, j.lower, j.n, j.A, j.lda, j.sA, j.wr, j.sW, j.info, j.batch, j.ws_limit,
                               st->ws, s);
    return eig_warp::zheev(j, s);
  }
  if (eig_reg::serves(j)) return eig_reg::launch(j, s);
  EigJob pj = j;
  if (eig_smem::plan(pj)) return eig_smem::launch(pj, s);
  return eig_warp::eig(j, geev_warp(j), s);
}

WorkspaceNeed workspace_need(const EigJob& j) {
  WorkspaceNeed w;
  if (j.heev) {
    if (heev_block::serves(j.n)) w.per_matrix = heev_block::workspace_per_matrix(j.wantz, j.n, j.call_batch);
    else if (heev_jacobi::serves(j.n)) w.per_matrix = 0;
    else if (heev_team::serves(j.n, j.wantz)) w.per_matrix = heev_team::workspace_per_matrix(j.n, j.wantz);
    else w.fixed = eig_warp::zheev_workspace(j.n, j.wantz);
    return w;
  }
  EigJob probe = j;
  if (eig_reg::serves(j)) return w;
  if (eig_smem::plan(probe)) w.per_matrix = eig_smem::workspace_per_matrix(probe);
  else w.fixed = eig_warp::eig_workspace(j, geev_warp(j));
  return w;
}

}  // namespace gpu
}  // namespace sgpu
