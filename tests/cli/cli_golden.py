# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Every golden pair through the CLI, against Netflix libvmaf's own output.

For each pair and each libvmaf command line a golden output exists for (the
default features and models, the float family and other features, SpEED, the
--aom_ctc v7.0 and --nflx_ctc v1.0 presets, the VMAF v1 models), runs the same command line here
and compares every per-frame score libvmaf printed (each must be present in
ours), every pooled value of every score and every aggregate metric, within
1e-4. Prints the largest difference of each name.
"""
import glob
import json
import os
import sys

from clitest import Failure, check, main

TOLERANCE = 1e-4
MODEL_DIR = os.environ.get("VMAF_MODEL_DIR", "")


def ms_ssim_if_large(pair):
    """libvmaf's default golden run added float_ms_ssim where the frame is at least 320x240."""
    w, h = (int(v) for v in pair.split("_")[1].split("x"))
    return ["--feature", "float_ms_ssim"] if w >= 320 and h >= 240 else []


# (golden file suffix, extra arguments: a list, or a function of the pair name),
# as MANIFEST.md of the golden data gives libvmaf's command lines; the default
# model is vmaf_v0.6.1. The files from the second golden set were printed by a
# libvmaf build that ran its AVX2 code, whose integer ADM differs from its
# AVX-512 code at the right edge of some odd sizes (adr/0023): those runs
# reproduce it with VMAF_ADM_EDGE_AS=avx2.
# libvmaf runs whose features this library does not compute yet, with why; each is
# reported as not run (and test_golden's kPending says the same).
PENDING = {}
AVX2_BUILD = {"libvmaf.more.json", "libvmaf.speed.json", "libvmaf.aom_ctc_v7.0.json",
              "libvmaf.nflx_ctc_v1.0.json"}
MODELS = [
    ("libvmaf.json", lambda pair: ["--feature", "psnr", "--feature", "float_ssim",
                                   "--feature", "cambi", "--feature", "float_vif",
                                   "--feature", "float_adm", "--feature", "float_motion",
                                   *ms_ssim_if_large(pair)]),
    ("libvmaf.vmaf_v0.6.1neg.json", ["-m", "version=vmaf_v0.6.1neg"]),
    ("libvmaf.vmaf_4k_v0.6.1.json", ["-m", "version=vmaf_4k_v0.6.1"]),
    ("libvmaf.vmaf_b_v0.6.3.json", ["-m", "version=vmaf_b_v0.6.3"]),
    ("libvmaf.more.json", ["--feature", "float_psnr", "--feature", "float_ansnr",
                           "--feature", "float_moment", "--feature", "ciede",
                           "--feature", "psnr_hvs", "-m", "version=vmaf_v0.6.1",
                           "-m", f"path={MODEL_DIR}/vmaf_float_v0.6.1.json:name=vmaf_float"]),
    ("libvmaf.speed.json", ["--feature", "speed_chroma", "--feature", "speed_temporal"]),
    ("libvmaf.aom_ctc_v7.0.json", ["--aom_ctc", "v7.0"]),
    ("libvmaf.nflx_ctc_v1.0.json", ["--nflx_ctc", "v1.0"]),
    # VMAF v1, by name here (libvmaf ran them by path); absent where libvmaf fails.
    ("libvmaf.v1_3d0h.json", ["-m", "version=vmaf_v1.0.16_3d0h"]),
    ("libvmaf.v1_5d0h.json", ["-m", "version=vmaf_v1.0.16_5d0h"]),
    ("libvmaf.v1_3d0h_2160.json", ["-m", "version=vmaf_v1.0.16_3d0h_2160"]),
    ("libvmaf.v1_1d5h_2160.json", ["-m", "version=vmaf_v1.0.16_1d5h_2160"]),
]


def pairs(cli):
    refs = sorted(glob.glob(os.path.join(cli.data, "*_ref.y4m")))
    return [os.path.basename(r)[:-len("_ref.y4m")] for r in refs]


def compare(pair, suffix, ours, theirs):
    """Largest |difference| per feature; a Failure listing every one beyond tolerance."""
    check(len(ours["frames"]) == len(theirs["frames"]),
          f"{pair} ({suffix}): {len(ours['frames'])} frames, libvmaf has {len(theirs['frames'])}")
    worst, bad = {}, []

    def cmp(label, a, b):
        if b is None or a is None:  # libvmaf writes null for a score that is not finite
            if a is not b:
                bad.append(f"  {label}: {a} vs libvmaf {b}")
            return
        d = abs(a - b)
        worst[label] = max(worst.get(label, 0.0), d)
        if not d <= TOLERANCE:
            bad.append(f"  {label}: {a} vs libvmaf {b} (|diff| {d:.3g})")

    for mine, ref in zip(ours["frames"], theirs["frames"]):
        check(mine["frameNum"] == ref["frameNum"], f"{pair}: frame numbers differ")
        missing = ref["metrics"].keys() - mine["metrics"].keys()
        check(not missing, f"{pair} ({suffix}): frame {mine['frameNum']} lacks {sorted(missing)}")
        for name, b in ref["metrics"].items():
            cmp(f"frame {mine['frameNum']} {name}", mine["metrics"][name], b)
    for name, methods in theirs["pooled_metrics"].items():
        check(name in ours["pooled_metrics"], f"{pair} ({suffix}): no pooled {name}")
        for method, b in methods.items():
            cmp(f"pooled {name} {method}", ours["pooled_metrics"][name][method], b)
    # The per-name maximum over frames (frame labels fold into the name), and
    # one figure for every pooled value and one for the aggregates.
    folded = {}
    for label, d in worst.items():
        key = label.split(" ", 2)[2] if label.startswith("frame ") else label
        key = "pooled (all)" if key.startswith("pooled ") else key
        key = "aggregate (all)" if key.startswith("aggregate ") else key
        folded[key] = max(folded.get(key, 0.0), d)
    worst.clear()
    worst.update(folded)
    for name, b in theirs.get("aggregate_metrics", {}).items():
        check(name in ours.get("aggregate_metrics", {}), f"{pair} ({suffix}): no aggregate {name}")
        cmp(f"aggregate {name}", ours["aggregate_metrics"][name], b)
    return worst, bad


def cases(cli):
    """[(pair, suffix, args)]: every pair with every command line it has a golden
    output for. Under the sanitizers (tests/cli/meson.build) the pairs of
    VMAF_TEST_GOLDEN_PAIRS, one of each format, depth and edge, with every command
    line they have an output for, and each other command line on the first pair
    that has one: the same code paths, which the build without sanitizers runs on
    every pair."""
    found = []
    for pair in pairs(cli):
        for suffix, args in MODELS:
            if not os.path.exists(cli.path(f"{pair}.{suffix}")):
                continue
            if suffix in PENDING:
                print(f"{pair} ({suffix}): not run: {PENDING[suffix]}")
                continue
            found.append((pair, suffix, args))
    chosen = os.environ.get("VMAF_TEST_GOLDEN_PAIRS", "")
    if os.environ.get("VMAF_TEST_SANITIZED") != "1" or not chosen:
        return found
    chosen = set(chosen.split(","))
    missing = chosen - {pair for pair, _, _ in found}
    check(not missing, f"VMAF_TEST_GOLDEN_PAIRS names pairs without golden outputs: {sorted(missing)}")
    covered = {suffix for pair, suffix, _ in found if pair in chosen}
    extra = {}
    for pair, suffix, _ in found:
        if suffix not in covered:
            extra.setdefault(suffix, pair)
    kept = [c for c in found if c[0] in chosen or extra.get(c[1]) == c[0]]
    print(f"under the sanitizers: {len(kept)} of {len(found)} runs, every command line at least once")
    return kept


def golden(cli):
    failures = []
    for pair, suffix, args in cases(cli):
        path = cli.path(f"{pair}.{suffix}")
        with open(path) as f:
            theirs = json.load(f)
        try:
            extra = args(pair) if callable(args) else args
            env = {"VMAF_ADM_EDGE_AS": "avx2"} if suffix in AVX2_BUILD else None
            ours = cli.run_json(*cli.pair(pair), *extra, name=f"{pair}.{suffix}", env=env)
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
