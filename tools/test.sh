#!/usr/bin/env bash
# Builds sgpu and runs the whole conformance suite (CPU backend; GPU variants run where there is a
# GPU and are skipped where there is none; with a GPU present a skip fails the run), then the CPU path again under AddressSanitizer and
# UndefinedBehaviorSanitizer with the argument fuzzer (tools/sanitize.sh). Installs missing
# packages first when run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
# Every part of the suite must build (a missing tool fails the configure, not a silent skip). On a
# machine with a GPU the CUDA backend must build too, and no test may skip: exit 77 means "no GPU".
gpu=0
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q "^GPU"; then gpu=1; fi
args="-DSGPU_REQUIRE_TEST_DEPS=ON"
[ "$gpu" = 1 ] && args="$args -DSGPU_WITH_CUDA=ON"
SGPU_CMAKE_ARGS="$args ${SGPU_CMAKE_ARGS:-}" bash tools/build.sh
log=$(mktemp)
(cd "${SGPU_BUILD_DIR:-build}" && ctest --no-tests=error --output-on-failure -j"$(nproc)") 2>&1 | tee "$log"
if [ "$gpu" = 1 ] && grep -q "\*\*\*Skipped" "$log"; then
  echo "sgpu: a test skipped on a machine with a GPU:" >&2
  grep "\*\*\*Skipped" "$log" >&2
  exit 1
fi
rm -f "$log"
bash tools/sanitize.sh
