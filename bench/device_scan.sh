#!/usr/bin/env bash
# The scan's GPU run: build for sm_90, the scan conformance tests on the GPU backend,
# compute-sanitizer (memcheck, racecheck, synccheck) on them, then the benchmark table and, with
# --sweep, the row-major tile sweep. Run from the repository root after `source .device/prep.sh`.
set -uo pipefail
out=${OUT:-/tmp/sgpu-out}
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; cat .device/commit 2>/dev/null; } | tee "$out/machine.txt"
SGPU_CMAKE_ARGS="-DSGPU_DEV_HOOKS=ON -DCMAKE_CUDA_ARCHITECTURES=90" bash tools/build.sh > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
export SGPU_SCAN_PIECE_BYTES=65536  # as CTest: host data cut into many streamed pieces
for t in "test_scan --backend gpu" "test_gpu_seam" "test_args --backend gpu" "test_hostile --backend gpu"; do
  build/tests/$t > "$out/$(echo $t | tr ' ' _).log" 2>&1; echo "$t: rc=$?"; tail -2 "$out/$(echo $t | tr ' ' _).log"
done
if [[ " $* " == *" --sanitize "* ]]; then
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 build/tests/test_scan --backend gpu --quick > "$out/san_$tool.log" 2>&1
    echo "compute-sanitizer $tool test_scan --quick: rc=$?"; tail -1 "$out/san_$tool.log"
  done
  SGPU_TEST_SEED=7 compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/test_scan --backend gpu > "$out/san_memcheck_full.log" 2>&1
  echo "compute-sanitizer memcheck test_scan (full): rc=$?"; tail -1 "$out/san_memcheck_full.log"
fi
if [[ " $* " == *" --sweep "* ]]; then
  for tune in 8,8 16,8 32,8 16,4 32,4 64,4 8,4; do
    echo "SGPU_SCAN_TUNE=$tune"
    SGPU_SCAN_TUNE=$tune build/bench/sgpu_scan_bench --only row --repeats 3 | grep -E "K x|32 x|2 x|tall|100000"
  done 2>&1 | tee "$out/sweep.txt"
fi
unset SGPU_SCAN_PIECE_BYTES
build/bench/sgpu_scan_bench ${SCAN_BENCH_ARGS:-} 2>&1 | tee "$out/scan_bench.txt"
build/bench/sgpu_bench --only scan_cols 2>&1 | tee "$out/bench_scan_host.txt" | tail -4
