#!/usr/bin/env bash
# Configures and builds sgpu into ${SGPU_BUILD_DIR:-build} (Release, CUDA when nvcc is found).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export CUDACXX=/usr/local/cuda/bin/nvcc; fi
build=${SGPU_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${SGPU_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)"
