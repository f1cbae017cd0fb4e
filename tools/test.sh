#!/usr/bin/env bash
# Builds sgpu and runs the whole conformance suite (CPU backend; GPU variants run where there is a
# GPU and are skipped where there is none), then the CPU path again under AddressSanitizer and
# UndefinedBehaviorSanitizer with the argument fuzzer (tools/sanitize.sh). Installs missing
# packages first when run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
bash tools/build.sh
(cd "${SGPU_BUILD_DIR:-build}" && ctest --output-on-failure -j"$(nproc)")
bash tools/sanitize.sh
