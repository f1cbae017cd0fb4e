#!/usr/bin/env bash
# One call on the GPU machine for zheev work: build for sm_90 (with -lineinfo, for a profile after it), the zheev-related GPU tests, the
# sanitizers on the block path's sizes, and the heev benchmark (HEEV_BENCH_ARGS, default --small).
# Run from the repository root after `source .device/prep.sh`; logs go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/sgpu-out}
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc; cat .device/commit 2>/dev/null; } | tee "$out/machine.txt"
SGPU_CMAKE_ARGS="-DSGPU_DEV_HOOKS=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_FLAGS=-lineinfo" bash tools/build.sh > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
(cd build && ctest -V -R "${CTEST_R:-zheev|hostile|nonconvergence|c_abi|bisect}" -L gpu) > "$out/ctest.log" 2>&1; echo "ctest rc=$?"
grep -E "worst ratios|tests passed|FAIL" "$out/ctest.log" | head -30
# HEEV_BENCH_ARGS (default --small); HEEV_BENCH_N: instead, the full-size rows of these orders
# (--only-n each, without the LAPACKE loop).
if [ -n "${HEEV_BENCH_N:-}" ]; then
  for n in $HEEV_BENCH_N; do build/bench/sgpu_heev_bench --no-lapacke --only-n $n 2>&1 | grep -E "^\| $n \|"; done
else
  build/bench/sgpu_heev_bench ${HEEV_BENCH_ARGS:---small} 2>&1
fi | tee "$out/heev_bench.txt"
# Phase breakdown of the block path (SGPU_HEEV_PHASES: 1 reduction, 2 + divide and conquer, 3 all).
for n in ${BREAKDOWN_N:-}; do
  for p in 1 2 3; do
    echo "SGPU_HEEV_PHASES=$p n=$n"
    SGPU_HEEV_PHASES=$p build/bench/sgpu_heev_bench --small --no-lapacke --only-n $n 2>&1 | grep "^| $n |"
  done
done 2>&1 | tee "$out/heev_phases.txt"
# Phase 3 of the block path, jobz V: the block's own kernel, cuBLAS and the library's choice (the
# tensor cores up to tuning::kHeevMmaApplyMaxN) (SGPU_HEEV_APPLY), for the orders in APPLY_N
# (--small batch). GEMM_NB: reflectors per cuBLAS pass to try as well (SGPU_HEEV_GEMM_NB).
for n in ${APPLY_N:-}; do
  for m in block cublas default ${GEMM_NB:-}; do
    case $m in
      block | cublas) env="SGPU_HEEV_APPLY=$m" ;;
      default) env="" ;;
      *) env="SGPU_HEEV_APPLY=cublas SGPU_HEEV_GEMM_NB=$m" ;;
    esac
    echo "${env:-default} n=$n"
    env $env build/bench/sgpu_heev_bench --small --no-lapacke --only-n $n 2>&1 | grep "^| $n |"
  done
done 2>&1 | tee "$out/heev_apply.txt"
# The small-n paths at the full-size batches, device-resident, for the orders in SMALL_N: the
# global-memory warp path (SGPU_HEEV_SMALL=global) against the shared-memory kernel
# (SGPU_HEEV_SMALL=shared) with each lane count P from n / 4 to 2n (SGPU_HEEV_TEAM), the shared
# kernel's vectors by each method in SMALL_VECTORS (SGPU_HEEV_VECTORS; default inverse).
for n in ${SMALL_N:-}; do
  echo "SGPU_HEEV_SMALL=global n=$n"
  SGPU_HEEV_SMALL=global build/bench/sgpu_heev_bench --sgpu-only --only-n $n 2>&1 | grep "^| $n |"
  for v in ${SMALL_VECTORS:-inverse}; do
    for p in 2 4 8 16 32; do
      [ $((4 * p)) -lt $n ] && continue
      [ $p -gt $((2 * n)) ] && continue
      echo "shared memory, SGPU_HEEV_VECTORS=$v SGPU_HEEV_TEAM=$p n=$n"
      SGPU_HEEV_VECTORS=$v SGPU_HEEV_SMALL=shared SGPU_HEEV_TEAM=$p build/bench/sgpu_heev_bench --sgpu-only --only-n $n 2>&1 | grep "^| $n |"
    done
  done
done 2>&1 | tee "$out/heev_small.txt"
# Lanes per matrix of the small-n path (SGPU_HEEV_TEAM), for the orders in TEAM_N.
for n in ${TEAM_N:-}; do
  for p in 4 8 16 32; do
    [ $p -lt $((n / 2)) ] && continue
    echo "SGPU_HEEV_TEAM=$p n=$n"
    SGPU_HEEV_TEAM=$p build/bench/sgpu_heev_bench --small --no-lapacke --only-n $n 2>&1 | grep "^| $n |"
  done
done 2>&1 | tee "$out/heev_team.txt"
# Phase 1 by the block kernel against the register reduction (SGPU_HEEV_REDUCE=block / reg), whole
# calls device-resident, jobz N and V, for each order in REDUCE_N and batch in REDUCE_B (default
# 1 64 180 360 720): the figures behind tuning::kHeevRegReduceAnyBatchMinN and kHeevRegReduceMinBatch.
for n in ${REDUCE_N:-}; do
  for b in ${REDUCE_B:-1 64 180 360 720}; do
    line="$n x $b block / reg:"
    for j in N V; do
      for m in block reg; do
        line="$line $(SGPU_HEEV_REDUCE=$m build/bench/sgpu_heev_bench --sgpu-only --only-n $n --batch $b --jobz $j 2>&1 |
          grep "^| $n |" | awk -F'|' '{print $5}')"
      done
      line="$line ($j)"
    done
    echo "$line"
  done
done 2>&1 | tee "$out/heev_reduce.txt"
if [ "${SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  : > "$out/sanitizer.log"
  # racecheck is slow: small orders of the block path (Z, the merge tiles and the group barriers in
  # shared memory at 33 and 64) for it. SANITIZE_RUNS: "tool:test args;..." replaces the list.
  runs=${SANITIZE_RUNS:-"memcheck:test_zheev --backend gpu --sizes 4,8,16,32,33,64,200;racecheck:test_zheev --backend gpu --sizes 33,64;synccheck:test_zheev --backend gpu --sizes 33,64;memcheck:test_hostile --backend gpu --quick;racecheck:test_hostile --backend gpu --quick"}
  IFS=';' read -ra list <<< "$runs"
  for run in "${list[@]}"; do
    tool=${run%%:*}; t=${run#*:}
    timeout ${SANITIZE_TIMEOUT:-240} compute-sanitizer --tool $tool --error-exitcode 9 build/tests/$t >> "$out/sanitizer.log" 2>&1
    echo "compute-sanitizer $tool on $t: rc=$?"
  done
fi
