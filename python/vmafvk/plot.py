# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Per-frame plots of libvmaf JSON logs.

    python -m vmafvk.plot LOG.json [LOG2.json ...] -o out.png [--feature psnr_y ...]

The first panel shows the model score (--score, default "vmaf") over the
frame number; each --feature adds a panel below it: a score's name (psnr_y,
ssimulacra2), or a feature as the tool's --feature names it (xpsnr, psnr) for
each of its per-plane scores (xpsnr_y, xpsnr_cb, xpsnr_cr, also with an option
suffix such as xpsnr_y_fps_60). Every log is one line in every panel, labelled
with its file name and its pooled mean (and XPSNR's whole-clip score). Frames
whose score is not finite (JSON null: XPSNR or PSNR of identical planes) are
gaps, counted in the label. Only needs matplotlib and the JSON files, not libvmaf.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

__all__ = ["main", "panel_lines", "panel_names", "plot_logs"]

_PLANES = ("y", "cb", "cr")
# Scores in decibels (the y axis says so).
_DECIBELS = ("psnr", "float_psnr", "xpsnr")


def _label(path: str) -> str:
    name = os.path.basename(path)
    return name[:-5] if name.endswith(".json") else name


def _series(doc: dict, name: str):
    """(frame numbers, values, pooled mean, frames not finite) of `name` in one
    document, or None when no frame has it. A frame whose value is null (the
    writers' infinite or NaN) is left out and counted; the mean is then None
    unless the document pooled it."""
    xs, ys, not_finite = [], [], 0
    for i, fr in enumerate(doc.get("frames", [])):
        metrics = fr.get("metrics", {})
        if name not in metrics:
            continue
        v = metrics[name]
        if v is None or not math.isfinite(float(v)):
            not_finite += 1
            continue
        xs.append(fr.get("frameNum", i))
        ys.append(float(v))
    if not xs and not not_finite:
        return None
    pooled = (doc.get("pooled_metrics", {}) or {}).get(name, {}) or {}
    mean = pooled.get("mean")
    if mean is None and ys and not not_finite:
        mean = math.fsum(ys) / len(ys)
    return xs, ys, None if mean is None else float(mean), not_finite


def _metric_names(docs) -> list:
    names = []
    for doc in docs:
        for fr in doc.get("frames", []):
            for k in fr.get("metrics", {}):
                if k not in names:
                    names.append(k)
    return names


def panel_names(docs, names) -> list:
    """The scores to draw for the names asked: a score any log has stays as it
    is; a feature's name that no log has as a score (xpsnr, psnr) stands for its
    per-plane scores NAME_y, NAME_cb, NAME_cr (each also with an option suffix,
    xpsnr_y_fps_60), in that order; a name that matches nothing stays (and is
    reported as absent)."""
    have = _metric_names(docs)
    out = []
    for name in names:
        found = [name] if name in have else [
            m for p in _PLANES for m in have if m == f"{name}_{p}" or m.startswith(f"{name}_{p}_")]
        for m in found or [name]:
            if m not in out:
                out.append(m)
    return out


def _whole_clip(doc: dict, name: str):
    """XPSNR's whole-clip score for a per-frame xpsnr name: the aggregate "a" + name
    (axpsnr_y, axpsnr_y_fps_50: the same option suffix), or in logs written before
    aggregates carried the suffix, axpsnr_PLANE when that plane has one xpsnr name
    only: (True, value or None when not finite) or (False, None)."""
    if not name.startswith("xpsnr_"):
        return False, None
    agg = doc.get("aggregate_metrics", {}) or {}
    key = "a" + name
    if key not in agg:
        plane = name.split("_")[1]
        frames = doc.get("frames") or [{}]
        same_plane = [m for m in frames[0].get("metrics", {})
                      if m == f"xpsnr_{plane}" or m.startswith(f"xpsnr_{plane}_")]
        if same_plane == [name]:
            key = f"axpsnr_{plane}"
    return (key in agg), agg.get(key)


def panel_lines(docs, labels, name) -> list:
    """One dict per log that has `name`: label (with its means), xs, ys."""
    lines = []
    for k, (doc, label) in enumerate(zip(docs, labels)):
        s = _series(doc, name)
        if s is None:
            continue
        xs, ys, mean, not_finite = s
        text = f"mean {mean:.4f}" if mean is not None else "mean not finite"
        has_clip, clip = _whole_clip(doc, name)
        if has_clip:
            text += f", whole clip {clip:.4f}" if clip is not None else ", whole clip not finite"
        if not_finite:
            text += f"; {not_finite} of {not_finite + len(ys)} frames not finite"
        lines.append({"log": k, "label": f"{label}  ({text})", "xs": xs, "ys": ys})
    return lines


def load_log(path: str) -> dict:
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("frames"), list):
        raise ValueError(f"{path}: not a libvmaf JSON log (no frames[])")
    return doc


def plot_logs(paths, out: str, score: str = "vmaf", features=(), labels=None,
              title: str | None = None, dpi: int = 120) -> list:
    """Draw the panels and write `out`; returns the names that were plotted."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    docs = [load_log(p) for p in paths]
    labels = list(labels) if labels else [_label(p) for p in paths]
    if len(labels) != len(paths):
        raise ValueError(f"{len(labels)} labels for {len(paths)} logs")
    names = panel_names(docs, [score] + [f for f in features if f != score])
    present = [n for n in names if any(_series(d, n) for d in docs)]
    absent = [n for n in names if n not in present]
    if absent:
        print(f"plot: no log has {', '.join(absent)}; skipped", file=sys.stderr)
    if not present:
        raise ValueError(f"none of {', '.join(names)} is in the logs")

    fig, axes = plt.subplots(len(present), 1, sharex=True, squeeze=False,
                             figsize=(10, 1.2 + 3.0 * len(present)))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    markers = "os^Dv<>p*h"
    # Runs that agree draw on top of each other: vary the dashes so every one stays visible.
    styles = ["-", "--", "-.", ":"]
    for ax, name in zip(axes[:, 0], present):
        for line in panel_lines(docs, labels, name):
            k = line["log"]
            ax.plot(line["xs"], line["ys"], marker=markers[k % len(markers)], markersize=4,
                    linewidth=1.5, linestyle=styles[k % len(styles)], color=colors[k % len(colors)],
                    label=line["label"])
        ax.set_title(name)
        ax.set_ylabel(f"{name} (dB)" if name.startswith(_DECIBELS) else name)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", loc="best")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[-1, 0].set_xlabel("frame number")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=dpi)
    plt.close(fig)
    return present


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m vmafvk.plot",
                                description="Plot per-frame scores of libvmaf JSON logs.")
    p.add_argument("logs", nargs="+", metavar="LOG.json", help="libvmaf JSON output")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png", help="image to write")
    p.add_argument("--feature", action="append", default=[], metavar="NAME",
                   help="also plot this per-frame score in its own panel (repeatable); a "
                        "feature's name (xpsnr, psnr) plots each of its per-plane scores")
    p.add_argument("--score", default="vmaf", help="model score of the first panel (default vmaf)")
    p.add_argument("--label", action="append", default=None,
                   help="legend label per log, in order (default: the file names)")
    p.add_argument("--title", help="figure title")
    p.add_argument("--dpi", type=int, default=120)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        plot_logs(args.logs, args.output, args.score, args.feature, args.label, args.title,
                  args.dpi)
    except (OSError, ValueError) as e:
        print(f"plot: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}")
    return 0


def main_exit() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    main_exit()
