#!/usr/bin/env bash
# One call on the GPU machine: Nsight Compute's per-source-line profile of one dgeev kernel
# (instructions executed and warp-stall samples per line of compat/core and cuda/), to find where a
# kernel's issue slots go. Run from the repository root after `source .device/prep.sh`; logs and
# the per-line tables go to $OUT. NCU_N: orders to profile (default 30); NCU_ARGS: benchmark
# arguments (default --small --dev-only --values-only); NCU_KERNEL: which kernel, as a regex on its
# demangled name (default the first k_eig; e.g. 'k_eig<16, 3>' for dgeev with vectors at P = 16);
# NCU_BENCH: the benchmark program in build/bench (default sgpu_geev_bench; e.g. sgpu_heev_bench
# with NCU_ARGS="--small --sgpu-only" NCU_KERNEL=k_heev_team).
set -uo pipefail
out=${OUT:-/tmp/sgpu-out}
mkdir -p "$out"
# NCU_SKIP_BUILD=1: build/ is already there with -lineinfo (device_heev.sh builds that way).
if [ "${NCU_SKIP_BUILD:-0}" != 1 ]; then
  SGPU_CMAKE_ARGS="-DSGPU_DEV_HOOKS=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_FLAGS=-lineinfo" bash tools/build.sh > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
fi
for n in ${NCU_N:-30}; do
  ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:${NCU_KERNEL:-k_eig}" --launch-count 1 --section SourceCounters \
    --section SpeedOfLight --section WarpStateStats --import-source yes -f -o "$out/prof_$n" \
    build/bench/${NCU_BENCH:-sgpu_geev_bench} ${NCU_ARGS:---small --dev-only --values-only} --only-n $n > "$out/ncu_run_$n.log" 2>&1
  echo "ncu n=$n rc=$?"
  ncu --import "$out/prof_$n.ncu-rep" --page details > "$out/details_$n.txt" 2>&1
  # Per SASS instruction (address, source line where -lineinfo gives one, executed count, stall
  # samples); compressed, as it runs to tens of MB.
  for view in sass cuda,sass; do
    ncu --import "$out/prof_$n.ncu-rep" --page source --csv --print-source $view 2>&1 | gzip > "$out/source_${n}_${view/,/_}.csv.gz"
  done
  ls -la "$out"/source_${n}_*
  command -v python3 >/dev/null && python3 bench/ncu_lines.py "$out/source_${n}_cuda_sass.csv.gz" 50 > "$out/lines_$n.txt" 2>&1
  tail -5 "$out/ncu_run_$n.log"
done
