#!/usr/bin/env bash
# Side by side on the GPU machine: this tree against other commits' source trees, product builds
# (no developer hooks) of the benchmarks for this GPU. STAGE=build builds them all (build-cmp-head,
# build-cmp-<name of each other tree>); STAGE=run (default: both stages) runs each line of $RUNS
# (a benchmark's name under bench/ and its arguments) on each tree in turn, $ROUNDS times
# (default 2), so that all see the same machine state. BASE: the other trees, space-separated
# (e.g. .device/base, made here with `git archive COMMIT | tar -x -C .device/base`). Run from the
# repository root after `source .device/prep.sh`; the log is $OUT/compare.log. TARGETS: build only
# these benchmarks (space-separated target names; default all).
set -uo pipefail
out=${OUT:-/tmp/sgpu-out}
mkdir -p "$out"
: "${BASE:?}"
stage=${STAGE:-all}
targets=${TARGETS:-}
arch=${CUDA_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')}
opts="-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=$arch -DSGPU_WITH_CUDA=ON -DSGPU_BUILD_TESTS=OFF
      -DSGPU_WITH_FORTRAN=OFF"
names="head"
for b in $BASE; do names="$names $(basename "$b")"; done
if [ "$stage" = build ] || [ "$stage" = all ]; then
  jobs=$(( $(nproc) / $(echo $names | wc -w) ))
  for b in . $BASE; do
    name=head
    [ "$b" = . ] || name=$(basename "$b")
    (cmake -S "$b" -B build-cmp-$name $opts > "$out/build_$name.log" 2>&1 &&
      cmake --build build-cmp-$name -j$jobs ${targets:+--target $targets} >> "$out/build_$name.log" 2>&1) &
  done
  wait
  for s in $names; do
    first=${targets%% *}
    [ -x "build-cmp-$s/bench/${first:-sgpu_geev_bench}" ] ||
      { echo "build $s failed"; tail -30 "$out/build_$s.log"; exit 1; }
  done
fi
if [ "$stage" = run ] || [ "$stage" = all ]; then
  : "${RUNS:?}"
  while IFS= read -r run; do
    [ -z "$run" ] && continue
    for r in $(seq "${ROUNDS:-2}"); do
      for s in $names; do
        echo "## $s, round $r: $run"
        timeout "${RUN_TIMEOUT:-300}" build-cmp-$s/bench/$run 2>&1
      done
    done
  done <<< "$RUNS" | tee -a "$out/compare.log"
fi
