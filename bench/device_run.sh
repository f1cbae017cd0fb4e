#!/usr/bin/env bash
# One call on the GPU machine: build for sm_90, the whole suite (GPU variants included, under
# compute-sanitizer where there is GPU code to check), the benchmark table and the demo.
# Run from the repository root after `source .device/prep.sh`; logs go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/sgpu-out}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  nproc
  # The device copy has no .git: the caller writes the commit into .device/commit before the run.
  cat .device/commit 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || true
} | tee "$out/machine.txt"
SGPU_CMAKE_ARGS="-DSGPU_DEV_HOOKS=ON -DCMAKE_CUDA_ARCHITECTURES=90" bash tools/build.sh > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
(cd build && ctest -V -j8) > "$out/ctest.log" 2>&1; echo "ctest rc=$?"
# Each test's seed and worst ratios (ctest -V prefixes a test's lines with its number).
grep -E "^ *[0-9]+: (test_[a-z_]+: backend|worst ratios|test_[a-z_]+: [0-9]+ checks)" "$out/ctest.log" | sort -n -s -k1,1
grep -E "tests passed|Skipped|Failed|SKIP:" "$out/ctest.log" | sort | uniq | head -30
grep -E "test_.*_gpu .*(Passed|Failed|Skipped)" "$out/ctest.log" | sed 's/^ *[0-9]*\/[0-9]* //'
if command -v compute-sanitizer >/dev/null; then
  export SGPU_SCAN_PIECE_BYTES=65536  # as CTest: streamed host data in many pieces
  : > "$out/sanitizer.log"
  for t in test_gpu_seam "test_dgeev --backend gpu --quick" "test_dhseqr --backend gpu --quick" \
           "test_zheev --backend gpu --quick" "test_hostile --backend gpu --quick" "test_scan --backend gpu --quick"; do
    for tool in memcheck racecheck synccheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 build/tests/$t >> "$out/sanitizer.log" 2>&1
      echo "compute-sanitizer $tool on $t: rc=$?"
    done
  done
fi
unset SGPU_SCAN_PIECE_BYTES
SGPU_BACKEND=gpu build/bench/sgpu_demo 2>&1 | tee "$out/demo_gpu.txt"
build/bench/sgpu_bench 2>&1 | tee "$out/bench.txt" | tail -16
build/bench/sgpu_demo 2>&1 | tee "$out/demo.txt"
build/bench/sgpu_scan_bench 2>&1 | tee "$out/scan_bench.txt"
