#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build and test sgpu (when run as root; otherwise
# lists what is missing). The CUDA toolkit is the machine's own: it is used when nvcc is found
# (on PATH or in /usr/local/cuda/bin) and otherwise sgpu builds without its CUDA backend.
set -euo pipefail
# clang, its runtime and libomp: the sanitizer and fuzzer build (tools/sanitize.sh); Open MPI: examples/mpi.
pkgs="cmake ninja-build g++ gfortran pkg-config liblapacke-dev libopenblas-openmp-dev libtmglib-dev valgrind
      clang libclang-rt-14-dev libomp-dev openmpi-bin libopenmpi-dev"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "sgpu: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq $missing >/dev/null
  else
    echo "sgpu: missing packages:$missing (run as root to install them)" >&2
  fi
fi
