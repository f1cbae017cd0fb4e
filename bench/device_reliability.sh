#!/usr/bin/env bash
# Reliability on the GPU machine, one stage a call (each within the device tool's 10 minutes):
#   STAGE=suite  build for sm_90, the GPU suite (ctest -L gpu), compute-sanitizer memcheck on the
#                hostile-input test (the fuzzer's edge cases on the GPU kernels);
#   STAGE=caps   fault-injection build: test_memcap (device-memory limit, metered), test_multi_gpu,
#                test_faults;
#   STAGE=multi  build with the benchmarks, test_multi_gpu and sgpu_multi_gpu_bench (several GPUs);
#   STAGE=pieces the benchmark's rows ROWS (MEMORY: pinned unless set, "" both) under forced piece
#                sizes (SGPU_EIG_PIECE_BYTES, the list BYTES), ROUNDS times: does a shorter
#                pipeline fill and drain close the gap?
#   STAGE=trace  the pipeline's timeline (-DSGPU_PIPE_TRACE, bench/pipe_trace.py) on the pinned
#                rows ROWS;
#   STAGE=faults build with -DSGPU_DEV_HOOKS=ON into build-fi and run test_faults (every
#                allocation, launch and copy of its calls failing in turn), then the same under
#                compute-sanitizer memcheck --leak-check full with a smaller sweep;
#   STAGE=checks fault-injection build with the tests: every GPU test but the soak (ctest -L gpu,
#                with CTest's environments), then compute-sanitizer memcheck on test_eig_stream
#                (the streamed pipeline, small pieces; racecheck did not finish it in 10 minutes);
#   STAGE=auto   sgpu_auto_bench: the CPU backend against the GPU backend on host data over growing
#                batches, the crossovers behind AUTO's size model (AUTO_ARGS: its arguments);
#   STAGE=pageable the benchmark's pageable rows where host staging dominates, under each of the
#                host-copy settings that could explain their loss on several devices (host thread
#                counts, OpenMP's wait policy, the same device twice, registered memory).
# Run from the repository root after `source .device/prep.sh`; logs go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/sgpu-out}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  cat .device/commit 2>/dev/null || true
} | tee "$out/machine.txt"
# The library and sgpu_multi_gpu_bench only, into build/ (the studies' stages).
build_bench() {
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSGPU_DEV_HOOKS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > "$out/build.log" 2>&1
  cmake --build build -j"$(nproc)" --target sgpu_multi_gpu_bench >> "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
}
case "${STAGE:-suite}" in
  suite)
    SGPU_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DSGPU_BUILD_BENCH=OFF" bash tools/build.sh > "$out/build.log" 2>&1 ||
      { tail -40 "$out/build.log"; exit 1; }
    (cd build && ctest -j4 -L gpu --timeout 500 -V) > "$out/ctest_gpu.log" 2>&1
    echo "ctest -L gpu rc=$?"
    grep -E "test_.*_gpu .*(Passed|Failed|Skipped)|tests passed" "$out/ctest_gpu.log" | sed 's/^ *[0-9]*\/[0-9]* //'
    grep -E "^ *[0-9]+: FAIL" "$out/ctest_gpu.log" | head -20
    grep -E "soak|device memory|resident" "$out/ctest_gpu.log" | tail -6
    if command -v compute-sanitizer >/dev/null; then
      compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/test_hostile --backend gpu --quick \
        > "$out/sanitizer_hostile.log" 2>&1
      echo "compute-sanitizer memcheck test_hostile: rc=$?"
    fi
    ;;
  caps)
    # The device-memory limit (metered: a fault-injection build counts the library's device
    # allocations) and device lists, then the fault sweep again (the pipelines' allocations moved).
    cmake -S . -B build-fi -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSGPU_BUILD_BENCH=OFF \
      -DSGPU_DEV_HOOKS=ON > "$out/build_fi.log" 2>&1
    cmake --build build-fi -j"$(nproc)" --target test_memcap test_multi_gpu test_faults >> "$out/build_fi.log" 2>&1 ||
      { tail -40 "$out/build_fi.log"; exit 1; }
    build-fi/tests/test_memcap > "$out/test_memcap.log" 2>&1
    echo "test_memcap rc=$?"
    grep -E "FAIL|squeeze|test_memcap:" "$out/test_memcap.log" | head -40
    build-fi/tests/test_multi_gpu > "$out/test_multi_gpu.log" 2>&1
    echo "test_multi_gpu rc=$?"
    grep -E "FAIL|test_multi_gpu:" "$out/test_multi_gpu.log" | head -40
    SGPU_EIG_PIECE_BYTES=65536 SGPU_STAGE_CHUNK_BYTES=16384 SGPU_SCAN_PIECE_BYTES=65536 build-fi/tests/test_faults > "$out/test_faults.log" 2>&1
    echo "test_faults rc=$?"
    grep -E "FAIL|test_faults:" "$out/test_faults.log" | head -30
    ;;
  multi)
    # Several GPUs: the suite's device-list test and the benchmark table (nvidia-h200-x2).
    SGPU_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90" bash tools/build.sh > "$out/build.log" 2>&1 ||
      { tail -40 "$out/build.log"; exit 1; }
    build/tests/test_multi_gpu > "$out/test_multi_gpu.log" 2>&1
    echo "test_multi_gpu rc=$?"
    grep -E "FAIL|test_multi_gpu:" "$out/test_multi_gpu.log" | head -40
    build/bench/sgpu_multi_gpu_bench ${BENCH_ARGS:-} 2>&1 | tee "$out/multi_gpu_bench.log"
    ;;
  pageable)
    {
      echo "nproc $(nproc)"; lscpu | grep -E "^(Model name|Socket|Core|Thread|NUMA)"
      env | grep -E "^(OMP|GOMP|KMP)_" || echo "no OpenMP variables"
      nvidia-smi topo -m
    } 2>&1 | tee "$out/host.txt"
    build_bench
    b="build/bench/sgpu_multi_gpu_bench --memory pageable --rows ${ROWS:-3,4,7}"
    run() { echo "## $*"; env "$@" | grep -E "^\\| [a-z]" | grep -v "^| routine"; }
    {
      run $b --devices 0,1
      run $b --devices 0,0
      run OMP_WAIT_POLICY=passive $b --devices 0,1
      run $b --devices 0,1 --threads 16
      run $b --devices 0,1 --threads 24
      run $b --devices 0,1 --threads 8
      run SGPU_PAGEABLE=register $b --devices 0,1
    } 2>&1 | tee "$out/pageable.log"
    ;;
  pieces)
    build_bench
    for round in $(seq "${ROUNDS:-1}"); do
      for bytes in ${BYTES:-default 2097152 4194304 8388608 16777216 67108864}; do
        echo "## round $round, SGPU_EIG_PIECE_BYTES=$bytes"
        if [ "$bytes" = default ]; then e=(); else e=(SGPU_EIG_PIECE_BYTES=$bytes); fi
        env "${e[@]}" build/bench/sgpu_multi_gpu_bench --memory "${MEMORY-pinned}" --rows "${ROWS:-0,4,7}" |
          grep -E "^\\| [a-z]" | grep -v "^| routine"
      done
    done 2>&1 | tee "$out/pieces.log"
    ;;
  trace)
    # The pipeline's timeline on the pinned rows ROWS: a build with -DSGPU_PIPE_TRACE
    # (cuda/pipe_trace.hpp), summarized by bench/pipe_trace.py.
    cmake -S . -B build-t -G Ninja -DCMAKE_BUILD_TYPE=Release -DSGPU_DEV_HOOKS=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DCMAKE_CXX_FLAGS=-DSGPU_PIPE_TRACE -DCMAKE_CUDA_FLAGS=-DSGPU_PIPE_TRACE > "$out/build-t.log" 2>&1
    cmake --build build-t -j"$(nproc)" --target sgpu_multi_gpu_bench >> "$out/build-t.log" 2>&1 ||
      { tail -30 "$out/build-t.log"; exit 1; }
    IFS=, read -ra rows <<< "${ROWS:-4,7,0}"
    for row in "${rows[@]}"; do
      echo "## trace, row $row"
      build-t/bench/sgpu_multi_gpu_bench --memory pinned --rows "$row" 2> "$out/trace_row$row.txt" |
        grep -E "^\\| [a-z]" | grep -v "^| routine"
      python3 bench/pipe_trace.py --pieces 2,7,8 < "$out/trace_row$row.txt"
    done 2>&1 | tee "$out/trace.log"
    ;;
  checks)
    cmake -S . -B build-fi -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSGPU_BUILD_BENCH=OFF \
      -DSGPU_DEV_HOOKS=ON > "$out/build_fi.log" 2>&1
    cmake --build build-fi -j"$(nproc)" >> "$out/build_fi.log" 2>&1 || { tail -40 "$out/build_fi.log"; exit 1; }
    SGPU_BACKEND=auto SGPU_VERBOSE=1 build-fi/tests/test_env auto 2>&1 | tee "$out/test_env_auto.log"  # AUTO's choices
    (cd build-fi && ctest -j4 -L gpu -E soak --timeout 900 -V) > "$out/ctest_gpu.log" 2>&1
    echo "ctest -L gpu -E soak rc=$?"
    grep -E "tests passed|_gpu .*(Passed|Failed|Skipped|Timeout)" "$out/ctest_gpu.log" | sed 's/^ *[0-9]*\/[0-9]* //'
    grep -E "^ *[0-9]+: .*(FAIL|checks|failures)" "$out/ctest_gpu.log" | head -30
    if command -v compute-sanitizer >/dev/null; then
      export SGPU_EIG_PIECE_BYTES=4096 SGPU_STAGE_CHUNK_BYTES=1000
      for tool in memcheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 build-fi/tests/test_eig_stream > "$out/sanitizer_$tool.log" 2>&1
        echo "compute-sanitizer $tool test_eig_stream: rc=$?"
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer_$tool.log" | head -3
      done
    fi
    ;;
  auto)
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSGPU_DEV_HOOKS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > "$out/build.log" 2>&1
    cmake --build build -j"$(nproc)" --target sgpu_auto_bench >> "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
    build/bench/sgpu_auto_bench ${AUTO_ARGS:-} 2>&1 | tee "$out/auto_bench.log" | grep -E "^(crossover|sgpu_auto)"
    ;;
  faults)
    cmake -S . -B build-fi -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSGPU_BUILD_BENCH=OFF \
      -DSGPU_DEV_HOOKS=ON > "$out/build_fi.log" 2>&1
    cmake --build build-fi -j"$(nproc)" --target test_faults >> "$out/build_fi.log" 2>&1 ||
      { tail -40 "$out/build_fi.log"; exit 1; }
    export SGPU_EIG_PIECE_BYTES=65536 SGPU_STAGE_CHUNK_BYTES=16384 SGPU_SCAN_PIECE_BYTES=65536
    build-fi/tests/test_faults > "$out/test_faults.log" 2>&1
    echo "test_faults rc=$?"
    grep -E "FAIL|occurrences|device memory|test_faults:" "$out/test_faults.log" | head -60
    if command -v compute-sanitizer >/dev/null; then
      SGPU_FAULT_MAX_PER_KIND=4 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
        build-fi/tests/test_faults > "$out/sanitizer_faults.log" 2>&1
      echo "compute-sanitizer memcheck --leak-check full test_faults (4 faults a kind): rc=$?"
      grep -E "LEAK|ERROR SUMMARY|Leaked" "$out/sanitizer_faults.log" | head
    fi
    ;;
esac
