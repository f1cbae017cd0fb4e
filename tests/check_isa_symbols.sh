#!/usr/bin/env bash
# The x86-64-v3 copy of the CPU backend's solvers (compat/cpu_solve.hpp) must stay in its own
# functions: an instruction of AVX, AVX2, FMA or BMI in any other function of the library would end
# a process on a processor without them (the linker keeps one copy of each inline function, and a
# library template compiled for x86-64-v3 could be the one it keeps). Lists each function outside
# namespace x86_64_v3 that holds such an instruction; exits 1 if there is one, 77 (skip) without
# objdump or without an x86-64-v3 copy.
# Usage: check_isa_symbols.sh path/to/libsgpu.so
set -euo pipefail
lib=$1
command -v objdump >/dev/null || { echo "SKIP: no objdump"; exit 77; }
dis=$(objdump -d --no-show-raw-insn "$lib")
grep -q '9x86_64_v3' <<<"$dis" || { echo "SKIP: $lib has no x86-64-v3 copy"; exit 77; }
bad=$(awk '
  /^[0-9a-f]+ <.*>:$/ { fn = $2; next }
  /^ +[0-9a-f]+:\t/ {
    split($0, f, "\t"); split(f[2], w, " "); op = w[1]
    if (op ~ /^v/ || op ~ /^(andn|bextr|blsi|blsmsk|blsr|bzhi|pdep|pext|rorx|sarx|shlx|shrx|lzcnt|tzcnt|movbe)$/)
      if (fn !~ /9x86_64_v3/) n[fn]++
  }
  END { for (g in n) print n[g], g }' <<<"$dis")
if [[ -n $bad ]]; then
  echo "FAIL: x86-64-v3 instructions outside the x86-64-v3 copy (count, function):"
  echo "$bad"
  exit 1
fi
echo "PASS: every AVX/FMA/BMI instruction of $lib is in the x86-64-v3 copy"
