#!/usr/bin/env bash
# The CPU path under AddressSanitizer and UndefinedBehaviorSanitizer (clang, no CUDA), with the
# libFuzzer harness over the four routines' arguments (fuzz/). Runs every CPU test of the suite
# except those that measure memory (test_soak: the sanitizers' own) or install the tree, then the
# fuzzer for SGPU_FUZZ_SECONDS (default 120). Build tree: ${SGPU_SAN_BUILD_DIR:-build-san}.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SGPU_SAN_BUILD_DIR:-build-san}
if ! command -v clang++ >/dev/null; then
  echo "sgpu: the sanitizer and fuzzer stage needs clang++ (tools/deps.sh installs it as root)" >&2
  exit 1
fi
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSGPU_WITH_CUDA=OFF \
  -DSGPU_WITH_FORTRAN=OFF -DSGPU_BUILD_BENCH=OFF -DSGPU_SANITIZE=address,undefined -DSGPU_BUILD_FUZZ=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
cd "$build"
# detect_leaks: LeakSanitizer as well; halt_on_error: the first report fails the test.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export SGPU_TEST_QUICK=1  # the suite's small sizes (the full suite under ASan takes 10 min on 2 cores)
ctest --no-tests=error --output-on-failure -j"$(nproc)" -L cpu -LE valgrind -E "install_consumers|test_soak|test_scan_extent"
