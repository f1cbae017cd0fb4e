#!/usr/bin/env bash
# One call on the GPU machine: Nsight Compute's per-source-line profile of one dgeev kernel
# (instructions executed and warp-stall samples per line of compat/core and cuda/), to find where a
# kernel's issue slots go. Run from the repository root after `source .device/prep.sh`; logs and
# the per-line tables go to $OUT. NCU_N: orders to profile (default 30); NCU_ARGS: benchmark
# arguments (default --small --dev-only --values-only); NCU_KERNEL: which kernel, as a regex on its
# demangled name (default the first k_eig; e.g. 'k_eig<16, 3>' for dgeev with vectors at P = 16).
set -uo pipefail
out=${OUT:-/tmp/sgpu-out}
mkdir -p "$out"
SGPU_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_FLAGS=-lineinfo" bash tools/build.sh > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
for n in ${NCU_N:-30}; do
  ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:${NCU_KERNEL:-k_eig}" --launch-count 1 --section SourceCounters \
    --section SpeedOfLight --section WarpStateStats --import-source yes -f -o "$out/prof_$n" \
    build/bench/sgpu_geev_bench ${NCU_ARGS:---small --dev-only --values-only} --only-n $n > "$out/ncu_run_$n.log" 2>&1
  echo "ncu n=$n rc=$?"
  ncu --import "$out/prof_$n.ncu-rep" --page details > "$out/details_$n.txt" 2>&1
  # Per SASS instruction (address, source line where -lineinfo gives one, executed count, stall
  # samples); compressed, as it runs to tens of MB.
  for view in sass cuda,sass; do
    ncu --import "$out/prof_$n.ncu-rep" --page source --csv --print-source $view 2>&1 | gzip > "$out/source_${n}_${view/,/_}.csv.gz"
  done
  ls -la "$out"/source_${n}_*
done
