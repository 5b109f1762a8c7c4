"""Every golden pair through the CLI, against Netflix libvmaf's own output.

For each pair and each model libvmaf's output exists for, runs
`vmaf -r REF -d DIS [-m version=MODEL] --feature psnr --json` and compares every
per-frame score present in both documents, and the pooled vmaf, within 1e-4.
`vmaf` itself must be present. Prints the largest difference of each feature.
"""
import glob
import json
import os
import sys

from clitest import Failure, check, main

TOLERANCE = 1e-4
# (golden file suffix, extra arguments); the default model is vmaf_v0.6.1.
MODELS = [
    ("libvmaf.json", ["--feature", "psnr"]),
    ("libvmaf.vmaf_v0.6.1neg.json", ["-m", "version=vmaf_v0.6.1neg"]),
    ("libvmaf.vmaf_4k_v0.6.1.json", ["-m", "version=vmaf_4k_v0.6.1"]),
    ("libvmaf.vmaf_b_v0.6.3.json", ["-m", "version=vmaf_b_v0.6.3"]),
]


def pairs(cli):
    refs = sorted(glob.glob(os.path.join(cli.data, "*_ref.y4m")))
    return [os.path.basename(r)[:-len("_ref.y4m")] for r in refs]


def compare(pair, suffix, ours, theirs):
    """Largest |difference| per feature; a Failure listing every one beyond tolerance."""
    check(len(ours["frames"]) == len(theirs["frames"]),
          f"{pair} ({suffix}): {len(ours['frames'])} frames, libvmaf has {len(theirs['frames'])}")
    worst, bad = {}, []
    for mine, ref in zip(ours["frames"], theirs["frames"]):
        check(mine["frameNum"] == ref["frameNum"], f"{pair}: frame numbers differ")
        check("vmaf" in mine["metrics"], f"{pair} ({suffix}): frame {mine['frameNum']} has no vmaf")
        for name in mine["metrics"].keys() & ref["metrics"].keys():
            a, b = mine["metrics"][name], ref["metrics"][name]
            d = abs(a - b)
            worst[name] = max(worst.get(name, 0.0), d)
            if not d <= TOLERANCE:
                bad.append(f"  frame {mine['frameNum']} {name}: {a} vs libvmaf {b} (|diff| {d:.3g})")
    for method, b in theirs["pooled_metrics"]["vmaf"].items():
        a = ours["pooled_metrics"]["vmaf"][method]
        d = abs(a - b)
        worst["pooled vmaf " + method] = d
        if not d <= TOLERANCE:
            bad.append(f"  pooled vmaf {method}: {a} vs libvmaf {b} (|diff| {d:.3g})")
    return worst, bad


def golden(cli):
    failures = []
    for pair in pairs(cli):
        for suffix, args in MODELS:
            path = cli.path(f"{pair}.{suffix}")
            if not os.path.exists(path):
                continue
            with open(path) as f:
                theirs = json.load(f)
            try:
                ours = cli.run_json(*cli.pair(pair), *args, name=f"{pair}.{suffix}")
                worst, bad = compare(pair, suffix, ours, theirs)
            except Failure as e:
                # The full story once; a line per case after that.
                failures.append(f"{pair} ({suffix}): {e}" if not failures else f"{pair} ({suffix})")
                reason = next((l for l in str(e).splitlines() if l.startswith("vmaf:")),
                              str(e).splitlines()[0])
                print(f"{pair} ({suffix}): FAILED: {reason}")
                continue
            summary = ", ".join(f"{k} {v:.2g}" for k, v in sorted(worst.items()))
            print(f"{pair} ({suffix}): {len(worst)} compared, max |diff|: {summary}")
            if bad:
                failures.append(f"{pair} ({suffix}): beyond {TOLERANCE}:\n" + "\n".join(bad[:20]))
    check(not failures, "\n".join(failures))


if __name__ == "__main__":
    main([golden], sys.argv)
