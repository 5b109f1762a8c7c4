#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Compares libvmaf JSON logs of one clip pair: every run against every other
on all the metrics they share, and each run against the golden JSON (Netflix
libvmaf's, or another tool's truth in the same layout) on the metrics it has.
Prints one summary line; exits 1 (saying where: the run, frame, metric and
both values) when a difference exceeds the tolerance or the runs disagree on
what they measured.

    compare.py --golden NAME.libvmaf.json --tolerance 1e-4 vulkan=A.json cpu=B.json cli=C.json
    compare.py --golden NAME.ssimulacra2.json --golden NAME.butteraugli.json --printed \\
        --metric ssimulacra2=1e-6 --metric butteraugli=0 cpu=A.json vulkan=B.json

--golden may be given more than once: the files' frames are merged. A golden
with a VMAF score requires one in every run, per frame and pooled (the mean).
--metric NAME=TOL: NAME must be in every run and in the golden, and is held to
TOL instead of --tolerance. --printed: a run's value stands for anything within
half a unit of the last decimal its JSON printed (libvmaf writes 6 decimals),
so that allowance is added to the tolerance and the comparison is made in
exact decimal arithmetic on the printed text: with a tolerance of 0 a run must
print the golden value rounded to its decimals.
"""

import argparse
import json
import sys
from decimal import Decimal


class Number(float):
    """A JSON number that keeps the text it was written as."""

    def __new__(cls, text):
        n = super().__new__(cls, text)
        n.text = text
        return n


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f, parse_float=Number, parse_int=Number)
    except (OSError, ValueError) as e:
        sys.exit(f"compare: cannot read {path}: {e}")
    frames = doc.get("frames")
    if not frames:
        sys.exit(f"compare: {path} has no frames")
    return [f["metrics"] for f in frames], doc.get("pooled_metrics", {})


def half_unit(v):
    """Half a unit of the last decimal v was printed with."""
    return Decimal(5).scaleb(Decimal(v.text).as_tuple().exponent - 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--golden", required=True, action="append")
    ap.add_argument("--tolerance", type=float, default=1e-4)
    ap.add_argument("--metric", action="append", default=[], metavar="NAME=TOL")
    ap.add_argument("--printed", action="store_true")
    ap.add_argument("--label", default="")
    ap.add_argument("runs", nargs="+", help="NAME=FILE")
    args = ap.parse_args()

    metric_tol = {}
    for spec in args.metric:
        name, _, tol = spec.partition("=")
        try:
            metric_tol[name] = Decimal(tol) if args.printed else float(tol)
        except (ArithmeticError, ValueError):
            sys.exit(f"compare: --metric {spec}: not NAME=TOLERANCE")
    default_tol = Decimal(str(args.tolerance)) if args.printed else args.tolerance

    def tolerance(k):
        return metric_tol.get(k, default_tol)

    def diff(a, b):
        if args.printed:
            return abs(Decimal(a.text) - Decimal(b.text))
        return abs(a - b)

    def allowed(k, a, b, golden):
        """The tolerance for a run's value a against b (a golden or another run's)."""
        if not args.printed:
            return tolerance(k)
        return tolerance(k) + half_unit(a) + (0 if golden else half_unit(b))

    def worst(a, b, keys, golden=False):
        """Per key, the frame where |a - b| exceeds its tolerance most; and the
        largest |a - b| over all frames and keys."""
        over = {}
        largest = 0
        for i, (fa, fb) in enumerate(zip(a, b)):
            for k in keys:
                d = diff(fa[k], fb[k])
                largest = max(largest, d)
                excess = d - allowed(k, fa[k], fb[k], golden)
                if excess > 0 and (k not in over or excess > over[k][0]):
                    over[k] = (excess, i, fa[k], fb[k], d)
        return largest, [(k, *over[k][1:]) for k in sorted(over)]

    runs = {}
    for spec in args.runs:
        name, _, path = spec.partition("=")
        runs[name] = load(path)
    golden, golden_pooled = load(args.golden[0])
    for path in args.golden[1:]:
        more, more_pooled = load(path)
        if len(more) != len(golden):
            sys.exit(f"compare: {path} has {len(more)} frames, {args.golden[0]} {len(golden)}")
        golden = [{**g, **m} for g, m in zip(golden, more)]
        golden_pooled = {**golden_pooled, **more_pooled}
    # Netflix libvmaf's JSON, or another tool's truth.
    golden_name = "libvmaf" if "vmaf" in golden[0] else "golden"
    golden_desc = "libvmaf's JSON" if "vmaf" in golden[0] else "the golden JSON"

    failures = []
    names = list(runs)
    first = names[0]
    n = len(golden)
    for name in names:
        if len(runs[name][0]) != n:
            failures.append(f"{name} has {len(runs[name][0])} frames, {golden_desc} {n}")
    keys = set(runs[first][0][0])
    for name in names[1:]:
        other = set(runs[name][0][0])
        if other != keys:
            failures.append(f"{first} and {name} measured different metrics: "
                            f"only {first}: {sorted(keys - other)}, only {name}: {sorted(other - keys)}")
            keys &= other
    if "vmaf" in golden[0] and "vmaf" not in keys:
        failures.append("no vmaf score in the runs")
    for k in sorted(metric_tol):
        if k not in keys:
            failures.append(f"no {k} in the runs")
        if k not in golden[0]:
            failures.append(f"no {k} in {golden_desc}")
    golden_keys = keys & set(golden[0])

    report = []
    pairs = [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]
    for a, b in pairs:
        largest, over = worst(runs[a][0], runs[b][0], sorted(keys))
        report.append(f"{a}-{b} {float(largest):.2g}")
        for k, i, va, vb, d in over:
            failures.append(f"{a} vs {b}: frame {i} {k} {va!r} vs {vb!r} (|diff| {float(d):.3g}, allowed {float(allowed(k, va, vb, False)):.3g})")
    for name in names:
        largest, over = worst(runs[name][0], golden, sorted(golden_keys), golden=True)
        report.append(f"{name}-{golden_name} {float(largest):.2g}")
        for k, i, va, vb, d in over:
            failures.append(f"{name} vs {golden_name}: frame {i} {k} {va!r} vs {vb!r} (|diff| {float(d):.3g}, allowed {float(allowed(k, va, vb, True)):.3g})")
        if "vmaf" in golden[0]:
            want = golden_pooled.get("vmaf", {}).get("mean")
            pooled = runs[name][1].get("vmaf", {}).get("mean")
            if pooled is None or want is None or abs(pooled - want) > args.tolerance:
                failures.append(f"{name}: pooled VMAF mean {pooled!r}, libvmaf {want!r}")

    vmaf_mean = runs[first][1].get("vmaf", {}).get("mean")
    print(f"{args.label}: {n} frames, {len(keys)} metrics ({len(golden_keys)} in {golden_desc}), "
          f"VMAF {vmaf_mean}, max |diff|: " + ", ".join(report))
    for f in failures:
        print(f"{args.label}: FAIL {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
