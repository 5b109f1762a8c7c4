# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Score parity: the CPU backend against the Vulkan backend and a reference.

    python -m vmafvk.parity REF.y4m DIST.y4m [--reference-json libvmaf.json]
        [--places 4] [--model version=vmaf_v0.6.1] [--feature psnr ...]
        [--allow-missing-vulkan] [--threads N] [--device N]

Scores the pair with the CPU backend and, when the library has Vulkan and a
device is usable, with the Vulkan backend; optionally reads a reference
document in libvmaf's JSON layout (frames[i].metrics). For every per-frame
score it prints the largest |difference| over the frames between the CPU
and Vulkan runs and between each run and the reference; a score passes when
every difference is below 0.5 * 10^-places (agreement to `places` decimals).

Exit status: 0 when every score passes, 1 when one fails or Vulkan is
unavailable (unless --allow-missing-vulkan), 2 when the comparison could not
run (bad arguments, unreadable files, library errors).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

import numpy as np

from ._lib import VmafError
from .context import Context, parse_model_spec

__all__ = ["main", "run_backend", "compare"]

DEFAULT_MODEL = "version=vmaf_v0.6.1"


def run_backend(backend: str, ref: str, dist: str, models, features, threads: int = 0,
                device=None) -> tuple:
    """Score the pair on one backend: ({score name: per-frame array}, description).
    The Vulkan run logs at info level: the library then says on stderr which device
    it uses and how many features its GPU engine runs (the others run on the CPU)."""
    log_level = "info" if backend == "vulkan" else "error"
    with Context(backend=backend, threads=threads, device=device, log_level=log_level) as ctx:
        for spec in models:
            ctx.use_model(**parse_model_spec(spec))
        for name, opts in features:
            ctx.use_feature(name, **opts)
        ctx.feed_y4m(ref, dist)
        ctx.flush()
        scores = {name: ctx.feature(name) for name in ctx.feature_names()}
        what = f"libvmaf {ctx.library_version}"
        if ctx.device_name is not None:
            what += f" on {ctx.device_name}"
        return scores, what


def load_reference(path: str) -> dict:
    """Per-frame scores of a libvmaf JSON document, frames ordered by frameNum."""
    with open(path) as f:
        doc = json.load(f)
    frames = doc.get("frames")
    if not isinstance(frames, list) or not frames:
        raise ValueError(f"{path}: no frames[] in this document")
    frames = sorted(frames, key=lambda fr: fr.get("frameNum", 0))
    names = []
    for fr in frames:
        for key in fr.get("metrics", {}):
            if key not in names:
                names.append(key)
    out = {}
    for key in names:
        values = [fr.get("metrics", {}).get(key) for fr in frames]
        out[key] = np.array([math.nan if v is None else float(v) for v in values])
    return out


def max_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    """Largest |a - b|; frames where exactly one side has a value count as infinite,
    frames where neither has one are skipped."""
    if a.shape != b.shape:
        return math.inf
    missing = np.isnan(a) != np.isnan(b)
    if missing.any():
        return math.inf
    both = ~np.isnan(a)
    if not both.any():
        return 0.0
    return float(np.max(np.abs(a[both] - b[both])))


def compare(cpu: dict, vulkan: dict | None, reference: dict | None, places: int) -> list:
    """Rows (name, cpu-vs-vulkan, cpu-vs-ref, vulkan-vs-ref, passed); None where
    a comparison does not apply."""
    tol = 0.5 * 10.0 ** -places
    names = list(cpu)
    if vulkan is not None:
        names += [n for n in vulkan if n not in cpu]
    rows = []
    for name in names:
        diffs = []
        if vulkan is not None:
            a, b = cpu.get(name), vulkan.get(name)
            diffs.append(math.inf if a is None or b is None else max_abs_diff(a, b))
        else:
            diffs.append(None)
        for run in (cpu, vulkan):
            if run is None or reference is None or name not in reference or name not in run:
                diffs.append(None)
            else:
                diffs.append(max_abs_diff(run[name], reference[name]))
        passed = all(d is None or d < tol for d in diffs)
        rows.append((name, *diffs, passed))
    return rows


def _fmt(d) -> str:
    if d is None:
        return "-"
    return "missing" if math.isinf(d) else f"{d:.3e}"


def print_table(rows, places: int, out=sys.stdout) -> None:
    width = max([len("feature")] + [len(r[0]) for r in rows])
    head = (f"{'feature':<{width}}  {'cpu-vs-vulkan':>13}  {'cpu-vs-ref':>11}  "
            f"{'vulkan-vs-ref':>13}  result")
    print(head, file=out)
    print("-" * len(head), file=out)
    for name, cv, cr, vr, ok in rows:
        print(f"{name:<{width}}  {_fmt(cv):>13}  {_fmt(cr):>11}  {_fmt(vr):>13}  "
              f"{'pass' if ok else 'FAIL'}", file=out)
    print(f"tolerance: max |diff| < {0.5 * 10.0 ** -places:g} ({places} decimal places)", file=out)


def _feature_arg(text: str) -> tuple:
    """--feature NAME[:key=value...]"""
    name, *parts = text.split(":")
    opts = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"bad feature option {part!r} (expected key=value)")
        opts[key] = value
    if not name:
        raise argparse.ArgumentTypeError("empty feature name")
    return name, opts


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m vmafvk.parity",
        description="Compare per-frame scores of the CPU and Vulkan backends and a reference "
                    "libvmaf JSON document.")
    p.add_argument("ref", help="reference .y4m")
    p.add_argument("dist", help="distorted .y4m")
    p.add_argument("--reference-json", metavar="JSON",
                   help="expected scores in libvmaf's JSON layout (frames[i].metrics)")
    p.add_argument("--places", type=int, default=4,
                   help="decimal places that must agree: |diff| < 0.5*10^-places (default 4)")
    p.add_argument("--model", action="append", default=None, metavar="SPEC",
                   help="model in libvmaf's syntax, e.g. version=vmaf_v0.6.1 or path=m.json "
                        f"(repeatable; default {DEFAULT_MODEL} unless --feature is given)")
    p.add_argument("--feature", action="append", default=[], type=_feature_arg,
                   metavar="NAME[:k=v]", help="extra feature extractor, e.g. psnr (repeatable)")
    p.add_argument("--allow-missing-vulkan", action="store_true",
                   help="pass without a Vulkan run when the library or machine has no Vulkan")
    p.add_argument("--threads", type=int, default=0, help="frame threads of each run")
    p.add_argument("--device", default=None,
                   help="Vulkan device: an index or a name substring (default: the library's choice)")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.places < 0 or args.places > 15:
        print("parity: --places must be between 0 and 15", file=sys.stderr)
        return 2
    if args.device is not None and args.device.isdigit():
        args.device = int(args.device)
    models = args.model if args.model is not None else ([] if args.feature else [DEFAULT_MODEL])
    try:
        for spec in models:
            parse_model_spec(spec)
        for path in (args.ref, args.dist) + ((args.reference_json,) if args.reference_json else ()):
            if not os.path.isfile(path):
                raise FileNotFoundError(f"{path}: no such file")
        reference = load_reference(args.reference_json) if args.reference_json else None
        cpu, cpu_what = run_backend("cpu", args.ref, args.dist, models, args.feature, args.threads)
    except (OSError, ValueError, VmafError) as e:
        print(f"parity: {e}", file=sys.stderr)
        return 2

    n = len(next(iter(cpu.values()))) if cpu else 0
    print(f"cpu: {cpu_what}, {n} frames, {len(cpu)} scores")
    vulkan = None
    vulkan_ok = True
    try:
        vulkan, vk_what = run_backend("vulkan", args.ref, args.dist, models, args.feature,
                                      args.threads, args.device)
        print(f"vulkan: {vk_what}")
    except VmafError as e:
        print(f"vulkan: unavailable ({e})")
        vulkan_ok = args.allow_missing_vulkan
    frames_ok = True
    if reference is not None:
        ref_n = len(next(iter(reference.values())))
        print(f"reference: {args.reference_json}, {ref_n} frames")
        if ref_n != n:
            print(f"reference has {ref_n} frames, the runs have {n}")
            frames_ok = False
    print()

    rows = compare(cpu, vulkan, reference, args.places)
    print_table(rows, args.places)
    compared = [r for r in rows if r[1] is not None or r[2] is not None or r[3] is not None]
    all_pass = all(r[-1] for r in rows)
    if not compared:
        print("nothing was compared: no Vulkan run and no score in common with the reference")
    ok = all_pass and frames_ok and vulkan_ok and bool(compared)
    failed = [r[0] for r in rows if not r[-1]]
    if failed:
        print(f"FAIL: {len(failed)} of {len(rows)} scores differ: {', '.join(failed)}")
    elif not vulkan_ok:
        print("FAIL: no Vulkan run (pass --allow-missing-vulkan to accept)")
    elif ok:
        print(f"PASS: {len(compared)} scores agree to {args.places} decimal places")
    else:
        print("FAIL")
    return 0 if ok else 1


def main_exit() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    main_exit()
