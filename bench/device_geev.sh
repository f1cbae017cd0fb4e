#!/usr/bin/env bash
# One call on the GPU machine for dhseqr/dgeev work: build for sm_90, the GPU tests, the
# sanitizers, the lanes-per-matrix sweep (TEAM_N), the register kernels' sweep (REG_N) and the benchmark (GEEV_BENCH_ARGS, default
# --small). Run from the repository root after `source .device/prep.sh`; logs go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/sgpu-out}
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc; cat .device/commit 2>/dev/null; } | tee "$out/machine.txt"
SGPU_CMAKE_ARGS="-DSGPU_DEV_HOOKS=ON -DCMAKE_CUDA_ARCHITECTURES=90" bash tools/build.sh > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
if [ "${TESTS:-1}" = 1 ]; then
  (cd build && ctest -V -R "${CTEST_R:-dgeev|dhseqr|eig_stream|hostile|nonconvergence|c_abi|gpu_seam}" -L gpu) > "$out/ctest.log" 2>&1
  echo "ctest rc=$?"
  grep -E "worst ratios|tests passed|FAIL|Failed|Passed|Skipped" "$out/ctest.log" | head -40
fi
# Lanes per matrix (SGPU_EIG_TEAM) for the orders in TEAM_N: device-resident, values and vectors.
for n in ${TEAM_N:-}; do
  for p in 1 2 4 8 16 32; do
    echo "SGPU_EIG_TEAM=$p n=$n"
    SGPU_EIG_TEAM=$p timeout 120 build/bench/sgpu_geev_bench ${TEAM_ARGS:---small --dev-only} --only-n $n 2>&1 | grep "^| $n |"
  done
done 2>&1 | tee "$out/geev_team.txt"
# The register kernels' orders (SGPU_EIG_REG_MAX_N) for the orders in REG_N: device-resident
# eigenvalues with the register kernels (max n) and without them (0: the shared-memory teams).
for n in ${REG_N:-}; do
  for m in 0 $n; do
    echo "SGPU_EIG_REG_MAX_N=$m n=$n"
    SGPU_EIG_REG_MAX_N=$m timeout 120 build/bench/sgpu_geev_bench --values-only --dev-only --no-lapacke --only-n $n 2>&1 | grep "^| $n |"
  done
done 2>&1 | tee "$out/geev_reg.txt"
if [ -n "${GEEV_BENCH_ARGS-x}" ]; then
  build/bench/sgpu_geev_bench ${GEEV_BENCH_ARGS:---small} 2>&1 | tee "$out/geev_bench.txt"
fi
if [ -n "${PAGEABLE_REGISTER:-}" ]; then
  SGPU_PAGEABLE=register build/bench/sgpu_geev_bench ${GEEV_BENCH_ARGS:---small} --pageable-only --no-lapacke 2>&1 | tee "$out/geev_register.txt"
fi
if [ "${SANITIZE:-0}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  : > "$out/sanitizer.log"
  # SANITIZE_RUNS: "tool:test args;tool:test args;..." (default: all of these)
  runs=${SANITIZE_RUNS:-"memcheck:test_dgeev --backend gpu --quick;racecheck:test_dgeev --backend gpu --quick;memcheck:test_dhseqr --backend gpu --quick;racecheck:test_dhseqr --backend gpu --quick;memcheck:test_eig_stream;memcheck:test_hostile --backend gpu;racecheck:test_hostile --backend gpu"}
  IFS=';' read -ra list <<< "$runs"
  for run in "${list[@]}"; do
    tool=${run%%:*}; t=${run#*:}
    SGPU_EIG_PIECE_BYTES=4096 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 build/tests/$t >> "$out/sanitizer.log" 2>&1
    echo "compute-sanitizer $tool on $t: rc=$?"
  done
fi
