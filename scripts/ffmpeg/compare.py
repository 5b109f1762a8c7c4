#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Compares libvmaf JSON logs of one clip pair: every run against every other
on all the metrics they share, and each run against Netflix libvmaf's golden
JSON on the metrics it has. Prints one summary line; exits 1 (saying where)
when a difference exceeds the tolerance or the runs disagree on what they
measured.

    compare.py --golden NAME.libvmaf.json --tolerance 1e-4 vulkan=A.json cpu=B.json cli=C.json
"""

import argparse
import json
import sys


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"compare: cannot read {path}: {e}")
    frames = doc.get("frames")
    if not frames:
        sys.exit(f"compare: {path} has no frames")
    return [f["metrics"] for f in frames], doc.get("pooled_metrics", {})


def worst(a, b, keys):
    """Largest |a - b| over frames and keys, with where it is."""
    best = (0.0, None, None, None, None)
    for i, (fa, fb) in enumerate(zip(a, b)):
        for k in keys:
            d = abs(fa[k] - fb[k])
            if d > best[0]:
                best = (d, i, k, fa[k], fb[k])
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--golden", required=True)
    ap.add_argument("--tolerance", type=float, default=1e-4)
    ap.add_argument("--label", default="")
    ap.add_argument("runs", nargs="+", help="NAME=FILE")
    args = ap.parse_args()

    runs = {}
    for spec in args.runs:
        name, _, path = spec.partition("=")
        runs[name] = load(path)
    golden, golden_pooled = load(args.golden)

    failures = []
    names = list(runs)
    first = names[0]
    n = len(golden)
    for name in names:
        if len(runs[name][0]) != n:
            failures.append(f"{name} has {len(runs[name][0])} frames, libvmaf's JSON {n}")
    keys = set(runs[first][0][0])
    for name in names[1:]:
        other = set(runs[name][0][0])
        if other != keys:
            failures.append(f"{first} and {name} measured different metrics: "
                            f"only {first}: {sorted(keys - other)}, only {name}: {sorted(other - keys)}")
            keys &= other
    if "vmaf" not in keys:
        failures.append("no vmaf score in the runs")
    golden_keys = keys & set(golden[0])

    report = []
    pairs = [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]
    for a, b in pairs:
        d, i, k, va, vb = worst(runs[a][0], runs[b][0], sorted(keys))
        report.append(f"{a}-{b} {d:.2g}")
        if d > args.tolerance:
            failures.append(f"{a} vs {b}: frame {i} {k} {va!r} vs {vb!r} (|diff| {d:.3g})")
    for name in names:
        d, i, k, va, vb = worst(runs[name][0], golden, sorted(golden_keys))
        report.append(f"{name}-libvmaf {d:.2g}")
        if d > args.tolerance:
            failures.append(f"{name} vs libvmaf: frame {i} {k} {va!r} vs {vb!r} (|diff| {d:.3g})")
        pooled = runs[name][1].get("vmaf", {}).get("mean")
        want = golden_pooled.get("vmaf", {}).get("mean")
        if pooled is None or want is None or abs(pooled - want) > args.tolerance:
            failures.append(f"{name}: pooled VMAF mean {pooled!r}, libvmaf {want!r}")

    vmaf_mean = runs[first][1].get("vmaf", {}).get("mean")
    print(f"{args.label}: {n} frames, {len(keys)} metrics ({len(golden_keys)} in libvmaf's JSON), "
          f"VMAF {vmaf_mean}, max |diff|: " + ", ".join(report))
    for f in failures:
        print(f"{args.label}: FAIL {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
