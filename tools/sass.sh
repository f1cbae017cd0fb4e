#!/usr/bin/env bash
# The SASS of a CUDA object's kernels on a machine without a GPU or a full toolkit: cuobjdump and
# nvdisasm come from NVIDIA's PyPI wheels (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm), fetched
# once into $SGPU_SASS_TOOLS (default ~/.cache/sgpu-sass).
# Usage: tools/sass.sh OBJECT [NAME]  (NAME: a substring of the mangled kernel name; without it,
# the kernels' names and instruction counts). E.g., from a build directory:
#   tools/sass.sh CMakeFiles/sgpu.dir/cuda/kernels/heev_reg_reduce.cu.o ILi32ELi16E
set -euo pipefail
obj=${1:?usage: tools/sass.sh OBJECT [NAME]}
name=${2:-}
dir=${SGPU_SASS_TOOLS:-$HOME/.cache/sgpu-sass}
bin=$dir/nvidia/cu13/bin
if [ ! -x "$bin/cuobjdump" ] || [ ! -x "$bin/nvdisasm" ]; then
  mkdir -p "$dir/wheels"
  python3 -m pip download --no-deps -q -d "$dir/wheels" nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
  for w in "$dir"/wheels/*.whl; do python3 -m zipfile -e "$w" "$dir"; done
  bin=$(dirname "$(find "$dir" -name cuobjdump -type f | head -1)")
  chmod +x "$bin"/*
fi
sass=$(PATH=$bin:$PATH cuobjdump -sass "$obj")
if [ -z "$name" ]; then
  # Each kernel's name and its instruction count.
  echo "$sass" | awk '/Function :/ {if (f) print n, f; f = $3; n = 0} /^ +\/\*[0-9a-f]+\*\// {n++} END {if (f) print n, f}'
else
  echo "$sass" | awk -v want="$name" '/Function :/ {on = index($3, want) > 0; if (on) print; next} on'
fi
