#!/usr/bin/env python3
"""Summarizes the "trace ..." lines of a -DSGPU_PIPE_TRACE build (cuda/pipe_trace.hpp) read from
stdin: one row per device share of each call; ms.
  late    host time from the call's start to the share's start (its thread's start-up)
  ready   host time the share took to record its first device event
  span    device time from that event to the share's last output copy end
  end     late + ready + span: about when the share ended, from the call's start
  fill    the first piece's input copy end (no kernel can start before)
  drain   last output copy end minus the last kernel end
  kbusy   time some piece of the share has its input on the device and its kernels not ended
          (an upper bound on kernel time: a piece may wait for the multiprocessors)
  out     time some output copy is queued or running
  hwait   host time blocked waiting for lanes (and draining pageable outputs)
  enq     host time at which the last piece was enqueued
With --pieces C1,C2,..., also every piece of those shares (the "call" column; sgpu_multi_gpu_bench
on one row: 0-2 are the one-device calls, 3-8 the two-device calls' shares)."""
import re
import sys
from collections import defaultdict


def union(iv):
    tot, end = 0.0, -1e300
    for a, b in sorted(iv):
        if b <= end:
            continue
        tot += b - max(a, end)
        end = b
    return tot


rows = []
for line in sys.stdin:
    if not line.startswith("trace "):
        continue
    d = dict(kv.split("=") for kv in line.split()[1:])
    rows.append({k: (float(v) if "." in v else int(v)) for k, v in d.items()})
shares = defaultdict(list)
for r in rows:
    shares[(r["call"], r["dev"], r["host0"])].append(r)
print("| call | dev | late | ready | pieces | span | end | fill | drain | kbusy | out | hwait | enq |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (call, dev, host0), ps in sorted(shares.items()):
    p0 = ps[0]
    span = max(p["out"] for p in ps)
    first = min(ps, key=lambda p: p["piece"])
    lastk = max(p["k"] for p in ps)
    print("| %d | %d | %.2f | %.2f | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
        call, dev, p0["late"], p0["ready"], len(ps), span, p0["late"] + p0["ready"] + span, first["in"],
        span - lastk, union([(p["in"], p["k"]) for p in ps]), union([(p["k"], p["out"]) for p in ps]),
        sum(p["wait"] for p in ps), max(p["enq"] for p in ps)))
if "--pieces" in sys.argv:
    want = [int(c) for c in sys.argv[sys.argv.index("--pieces") + 1].split(",")]
    for (call, dev, host0), ps in sorted(shares.items()):
        if call not in want:
            continue
        print("\ncall %d dev %d" % (call, dev))
        print("piece lane   enq  wait    in     k   out")
        for p in sorted(ps, key=lambda p: p["piece"]):
            print("%5d %4d %5.2f %5.2f %5.2f %5.2f %5.2f" % (
                p["piece"], p["lane"], p["enq"], p["wait"], p["in"], p["k"], p["out"]))
