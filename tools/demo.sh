#!/usr/bin/env bash
# The main job: eigenvalues of 100 000 random 15x15 matrices on the GPU if there is one, else the
# CPU, with the time and the agreement with a LAPACKE loop. Arguments: [n] [batch].
# Builds only the library and the demo, into ${SGPU_BUILD_DIR:-build-demo}: with the CUDA backend
# (for this GPU's architecture alone) when nvidia-smi lists a GPU or SGPU_WITH_CUDA=ON asks for it,
# without it otherwise (compiling GPU kernels a machine cannot run would take minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SGPU_BUILD_DIR:-build-demo}
bash tools/deps.sh
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export CUDACXX=/usr/local/cuda/bin/nvcc; fi
cuda=${SGPU_WITH_CUDA:-}
arch=""
if gpu=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1) && [ -n "$gpu" ]; then
  cuda=${cuda:-ON}
  arch="-DCMAKE_CUDA_ARCHITECTURES=${gpu//./}"
fi
cuda=${cuda:-OFF}
echo "sgpu demo: configuring $build (CUDA backend: $cuda)"
mkdir -p "$build"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSGPU_WITH_CUDA="$cuda" $arch \
  -DSGPU_BUILD_TESTS=OFF -DSGPU_BUILD_BENCH=ON -DSGPU_WITH_FORTRAN=OFF >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
echo "sgpu demo: building the library and the demo"
cmake --build "$build" --target sgpu_demo -j"$(nproc)"
"$build"/bench/sgpu_demo "$@"
