#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds and runs out-of-tree consumers
# against the installed tree only: C via pkg-config, Fortran via the module and pkg-config, and C
# via find_package(sgpu CONFIG). Usage: consumers.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(find "$prefix" -name sgpu.pc -printf '%h\n' | head -1)
export PKG_CONFIG_PATH=$libdir
# No LD_LIBRARY_PATH: each consumer finds the library as the README says, by a runpath.
unset LD_LIBRARY_PATH
export SGPU_BACKEND=${SGPU_BACKEND:-auto}
echo "pkg-config sgpu: $(pkg-config --modversion sgpu) $(pkg-config --cflags --libs sgpu)"

rpath="-Wl,-rpath,$(pkg-config --variable=libdir sgpu)"
cc -std=c99 -Wall -o "$work/c_consumer" "$src/examples/consumer/consumer.c" $(pkg-config --cflags --libs sgpu) "$rpath" -lm
"$work/c_consumer"

if command -v gfortran >/dev/null && pkg-config --exists sgpu-fortran; then
  gfortran -o "$work/f_consumer" "$src/examples/consumer/consumer.f90" $(pkg-config --cflags --libs sgpu-fortran) "$rpath"
  "$work/f_consumer"
else
  echo "no gfortran or no installed module: Fortran consumer not built"
fi

cmake -S "$src/examples/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/consumer"
