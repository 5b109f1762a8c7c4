# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Per-frame plots of libvmaf JSON logs.

    python -m vmafvk.plot LOG.json [LOG2.json ...] -o out.png [--feature psnr_y ...]

The first panel shows the model score (--score, default "vmaf") over the
frame number; each --feature adds a panel below it. Every log is one line in
every panel, labelled with its file name and its pooled mean. Only needs
matplotlib and the JSON files, not libvmaf.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

__all__ = ["main", "plot_logs"]


def _label(path: str) -> str:
    name = os.path.basename(path)
    return name[:-5] if name.endswith(".json") else name


def _series(doc: dict, name: str):
    """(frame numbers, values, pooled mean) of `name` in one document, or None."""
    xs, ys = [], []
    for i, fr in enumerate(doc.get("frames", [])):
        v = fr.get("metrics", {}).get(name)
        if v is None:
            continue
        xs.append(fr.get("frameNum", i))
        ys.append(float(v))
    if not xs:
        return None
    pooled = doc.get("pooled_metrics", {}).get(name, {})
    mean = pooled.get("mean")
    if mean is None:
        mean = math.fsum(ys) / len(ys)
    return xs, ys, float(mean)


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
    names = [score] + [f for f in features if f != score]
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
        for k, (doc, label) in enumerate(zip(docs, labels)):
            s = _series(doc, name)
            if s is None:
                continue
            xs, ys, mean = s
            ax.plot(xs, ys, marker=markers[k % len(markers)], markersize=4, linewidth=1.5,
                    linestyle=styles[k % len(styles)], color=colors[k % len(colors)],
                    label=f"{label}  (mean {mean:.4f})")
        ax.set_title(name)
        ax.set_ylabel(f"{name} (dB)" if name.startswith(("psnr", "float_psnr")) else name)
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
                   help="also plot this per-frame score in its own panel (repeatable)")
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
