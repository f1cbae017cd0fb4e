#!/usr/bin/env python3
"""Per-file and per-source-line totals of an Nsight Compute source export (device_ncu_source.sh's
source_<n>_cuda_sass.csv.gz): share of instructions executed and of warp-stall samples.
Usage: ncu_lines.py FILE.csv[.gz] [lines to list, default 40]"""
import collections
import csv
import gzip
import sys

path = sys.argv[1]
top = int(sys.argv[2]) if len(sys.argv) > 2 else 40
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt", newline="") as f:
    rows = list(csv.reader(f))
cur = None
inst, stall, text = collections.Counter(), collections.Counter(), {}
for r in rows:
    if len(r) == 2 and r[0] == "File Path":
        cur = r[1].split("/")[-1]
        continue
    if len(r) < 8 or r[0] in ("", "Line No"):
        continue
    try:
        n_inst, n_stall = int(r[7]), int(r[4])
    except ValueError:
        continue
    key = (cur, int(r[0]))
    inst[key] += n_inst
    stall[key] += n_stall
    text[key] = r[1][:90]
ti, ts = max(sum(inst.values()), 1), max(sum(stall.values()), 1)
print(f"instructions executed {ti}, stall samples {ts}")
fi, fs = collections.Counter(), collections.Counter()
for (name, _), v in inst.items():
    fi[name] += v
for (name, _), v in stall.items():
    fs[name] += v
for name, v in fi.most_common():
    print(f"{name:30s} inst {100 * v / ti:5.1f}%  stall {100 * fs[name] / ts:5.1f}%")
for key in sorted(inst, key=lambda k: -stall[k])[:top]:
    print(f"{key[0][:14]:14s}:{key[1]:<4d} inst {100 * inst[key] / ti:5.1f}% stall {100 * stall[key] / ts:5.1f}%  {text[key]}")
