#!/usr/bin/env bash
# A/B of one compile-time switch on the GPU machine: builds the benchmark target $TARGET twice (build-a
# without, build-b with the definitions in $B_DEFS, e.g. "-DSGPU_DIVIDER_SCALED"), then runs
# "$RUN" (its first word the program's name under bench/) alternately on each, $ROUNDS times, so
# that both sides see the same machine state. Run from the repository root after
# `source .device/prep.sh`; logs go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/sgpu-out}
mkdir -p "$out"
: "${TARGET:?}" "${B_DEFS:?}" "${RUN:?}"
base="-G Ninja -DCMAKE_BUILD_TYPE=Release -DSGPU_DEV_HOOKS=ON -DCMAKE_CUDA_ARCHITECTURES=90"
half=$(( $(nproc) / 2 ))
(cmake -S . -B build-a $base > "$out/build_a.log" 2>&1 && cmake --build build-a -j$half --target "$TARGET" >> "$out/build_a.log" 2>&1) &
(cmake -S . -B build-b $base -DCMAKE_CXX_FLAGS="$B_DEFS" -DCMAKE_CUDA_FLAGS="$B_DEFS" > "$out/build_b.log" 2>&1 &&
  cmake --build build-b -j$half --target "$TARGET" >> "$out/build_b.log" 2>&1) &
wait
for s in a b; do [ -x "build-$s/bench/${RUN%% *}" ] || { echo "build $s failed"; tail -30 "$out/build_$s.log"; exit 1; }; done
for r in $(seq "${ROUNDS:-2}"); do
  for s in a b; do
    echo "## round $r, build $s"
    build-$s/bench/$RUN
  done
done 2>&1 | tee -a "$out/ab.log"
