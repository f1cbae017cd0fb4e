#!/usr/bin/env bash
# The suite on a machine with a GPU: the CUDA backend built for this GPU with the developer hooks
# (-DSGPU_DEV_HOOKS=ON: fault injection, so test_faults runs, and the settings the streaming tests
# use), every GPU test (a skip fails: exit 77 means only "no GPU"), then compute-sanitizer's
# memcheck, racecheck and synccheck over the GPU conformance tests at orders that reach every
# kernel path (shared-memory teams, one warp per matrix, zheev's team and block paths with
# each form of phase 3, its reduction in panels, the scan). "Sanitizer clean" means this script's last line reads
# "sanitizer: 0 errors, 0 hazards".
#   STAGE=build|test|sanitize|all (default all); logs in $OUT (default /tmp/sgpu-gpu).
#   SAN_FILTER: an extended regex; the sanitizer stage runs only the tests it matches (the whole
#   stage takes longer than one 10-minute call: e.g. SAN_FILTER='seam|dgeev', then 'dhseqr|zheev',
#   then 'hostile|scan|args'). SAN_TOOLS: the tools to run (default "memcheck racecheck synccheck").
#   SAN_TIMEOUT: seconds per sanitizer run (default 900).
#   CUDA_ARCH (default: the GPU's own, e.g. 90); SGPU_BUILD_DIR (default build-gpu).
# The GPU machine lacks LAPACKE: `source .device/prep.sh` first (../shared/device/README.md).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/sgpu-gpu}
build=${SGPU_BUILD_DIR:-build-gpu}
stage=${STAGE:-all}
mkdir -p "$out"
if ! nvidia-smi -L 2>/dev/null | grep -q "^GPU"; then
  echo "gpu_test: no GPU on this machine" >&2
  exit 1
fi
arch=${CUDA_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/machine.txt"
cat .device/commit 2>/dev/null | tee -a "$out/machine.txt"

build_tree() {
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSGPU_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    -DSGPU_DEV_HOOKS=ON -DSGPU_BUILD_BENCH=${SGPU_GPU_BENCH:-OFF} -DSGPU_WITH_FORTRAN=OFF >"$out/configure.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" >"$out/build.log" 2>&1
}
if [ "$stage" = build ] || [ "$stage" = all ] || [ ! -x "$build/tests/test_dgeev" ]; then
  start=$(date +%s)
  build_tree || { tail -30 "$out/build.log" "$out/configure.log"; exit 1; }
  echo "gpu_test: build $(($(date +%s) - start)) s"
fi

rc=0
if [ "$stage" = test ] || [ "$stage" = all ]; then
  (cd "$build" && ctest --no-tests=error -L gpu -j4 --output-on-failure ${CTEST_ARGS:-}) >"$out/ctest.log" 2>&1
  trc=$?
  grep -E "tests passed|\*\*\*|Failed" "$out/ctest.log" | grep -v "^ *Start" | head -40
  grep -E "test_[a-z_]+: [0-9]+ checks|worst ratios" "$out/ctest.log" | head -40
  if grep -q "\*\*\*Skipped" "$out/ctest.log"; then
    echo "gpu_test: a GPU test skipped"
    rc=1
  fi
  [ $trc -ne 0 ] && rc=1
  echo "gpu_test: ctest rc=$trc"
fi

if [ "$stage" = sanitize ] || [ "$stage" = all ]; then
  export SGPU_SCAN_PIECE_BYTES=65536 SGPU_EIG_PIECE_BYTES=4096 OMP_NUM_THREADS=4
  t=$build/tests
  runs=(
    "$t/test_gpu_seam"
    "$t/test_dgeev --backend gpu --sizes 1,5,16,30,97,98,119,167 --kinds 0,9,11,15"
    "$t/test_dhseqr --backend gpu --sizes 2,8,30,119,120,170 --kinds 0,9,11"
    "$t/test_zheev --backend gpu --sizes 1,8,16,32,33,48,64,100,128 --kinds 0,1,6"
    "env SGPU_HEEV_APPLY=block $t/test_zheev --backend gpu --sizes 40,100,128 --kinds 0,6"
    "env SGPU_HEEV_APPLY=cublas $t/test_zheev --backend gpu --sizes 64,200 --kinds 0,6"
    "env SGPU_HEEV_REDUCE=block $t/test_zheev --backend gpu --sizes 40,64,128 --kinds 0,6"
    "env SGPU_HEEV_REDUCE=reg $t/test_zheev --backend gpu --sizes 65,128 --kinds 0,6"
    "env SGPU_HEEV_PANELS=on SGPU_HEEV_REDUCE=block $t/test_zheev --backend gpu --sizes 117,200 --kinds 0,6"
    "$t/test_hostile --backend gpu --quick"
    "$t/test_scan --backend gpu --quick"
    "$t/test_args --backend gpu"
  )
  errors=0
  hazards=0
  : >"$out/sanitizer.log"
  for r in "${runs[@]}"; do
    [ -n "${SAN_FILTER:-}" ] && ! echo "$r" | grep -Eq "$SAN_FILTER" && continue
    for tool in ${SAN_TOOLS:-memcheck racecheck synccheck}; do
      start=$(date +%s)
      log="$out/san_one.log"
      # racecheck runs 10-100x slower on the shared-memory kernels: one matrix kind a size.
      args=$r
      [ $tool = racecheck ] && case $r in *--kinds*) args="${r% --kinds*} --kinds 0" ;; esac
      timeout "${SAN_TIMEOUT:-900}" compute-sanitizer --tool $tool --error-exitcode 9 $args >"$log" 2>&1
      trc=$?
      # memcheck and synccheck end with "ERROR SUMMARY: k errors", racecheck with "RACECHECK
      # SUMMARY: k hazards displayed (e errors, w warnings)"; neither: the run did not finish.
      e=$(grep -Eo "ERROR SUMMARY: [0-9]+" "$log" | grep -Eo "[0-9]+" | tail -1)
      hz=$(grep -Eo "RACECHECK SUMMARY: [0-9]+ hazard" "$log" | grep -Eo "[0-9]+" | tail -1)
      ok=$(grep -Ec "[0-9]+ checks, 0 failures" "$log")
      [ -z "$e" ] && [ -n "$hz" ] && e=0
      [ -z "$e" ] && e=1
      errors=$((errors + e))
      hazards=$((hazards + ${hz:-0}))
      echo "compute-sanitizer $tool $(echo "$args" | sed "s|$t/||"): rc=$trc errors=$e hazards=${hz:-0} ($(($(date +%s) - start)) s)" |
        tee -a "$out/sanitizer.log"
      [ $trc -ne 0 ] && { grep -E "Hazard|Error|FAIL|=========" "$log" | head -20 >>"$out/sanitizer.log"; rc=1; }
      [ "$ok" = 0 ] && { echo "  (the test itself did not pass)" | tee -a "$out/sanitizer.log"; rc=1; }
    done
  done
  echo "sanitizer: $errors errors, $hazards hazards"
  [ $errors -ne 0 ] || [ $hazards -ne 0 ] && rc=1
fi
exit $rc
