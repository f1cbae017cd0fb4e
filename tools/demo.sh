#!/usr/bin/env bash
# The main job: eigenvalues of 100 000 random 15x15 matrices on the GPU if there is one, else the
# CPU, with the time and the agreement with a LAPACKE loop. Arguments: [n] [batch].
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
bash tools/build.sh >/dev/null
"${SGPU_BUILD_DIR:-build}"/bench/sgpu_demo "$@"
