# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The order metrics are listed in: every output format lists the same names in
the same order (per frame, pooled, aggregate) whichever backend computes them and
with any thread count, and that order is libvmaf's where its own output fixes one.
Tools that diff a GPU run against a CPU run, or read CSV columns by position,
depend on it."""
import csv
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

from clitest import Failure, check, main

SMALL = "astronaut_176x144_crf35"
# 320x240: every feature of the presets runs (cambi and float_ms_ssim need it).
PAIR = "coffee_320x240_crf28"

CONFIGS = {
    "default model": [],
    "--feature psnr": ["--feature", "psnr"],
    "--aom_ctc v7.0": ["--aom_ctc", "v7.0"],
    "--nflx_ctc v1.0": ["--nflx_ctc", "v1.0"],
}
# float_motion writes motion3 of frame 0 one frame late, from the caller's
# thread, while the frame threads write the other features of frame 0.
DELAYED = ["--feature", "psnr", "--feature", "float_motion", "--feature", "float_ssim"]

FORMATS = ("json", "csv", "xml", "sub")
# Under the sanitizers (tests/cli/meson.build) the formats that share the most
# code with the others, and each backend and thread count once: the order is
# made by the library and the same for every format; the build without
# sanitizers runs the whole matrix.
SANITIZED = os.environ.get("VMAF_TEST_SANITIZED") == "1"
if SANITIZED:
    FORMATS = ("json", "csv")


def names_json(text):
    doc = json.loads(text)
    return {"frames": [list(f["metrics"]) for f in doc["frames"]],
            "pooled": list(doc["pooled_metrics"]),
            "aggregate": list(doc["aggregate_metrics"])}


def names_csv(text):
    rows = list(csv.reader(text.splitlines()))
    return {"header": rows[0]}


def names_xml(text):
    root = ET.fromstring(text)
    return {"frames": [[k for k in f.attrib if k != "frameNum"] for f in root.find("frames")],
            "pooled": [m.get("name") for m in root.find("pooled_metrics")],
            "aggregate": list(root.find("aggregate_metrics").attrib)}


def names_sub(text):
    # {0}{1}frame: 0|psnr_y: 34.416|...|
    return {"frames": [re.findall(r"\|([^|:]+): ", line) for line in text.splitlines()]}


PARSERS = {"json": names_json, "csv": names_csv, "xml": names_xml, "sub": names_sub}


def listed(cli, pair, args, fmt, backend, threads):
    """The metric names of one run, as the output format lists them."""
    out = cli.scratch(f"order.{fmt}")
    r = cli.run(*cli.pair(pair), *args, "--backend", backend, "--threads", threads, f"--{fmt}",
                "-o", out, "-q")
    check(r.rc == 0, f"{' '.join(args)} --backend {backend} --threads {threads} --{fmt}", r)
    with open(out) as f:
        names = PARSERS[fmt](f.read())
    check(all(names.get("frames", [[0]])) and names.get("header", [0]) and names.get("pooled", [0]),
          f"no metric names in the {fmt} output", r)
    return names


def describe(a, b):
    for part in a:
        if a[part] != b[part]:
            x, y = a[part], b[part]
            if part == "frames":
                i = next(i for i in range(min(len(x), len(y))) if x[i] != y[i]) if len(x) == len(y) else None
                if i is None:
                    return f"{len(x)} frames against {len(y)}"
                x, y, part = x[i], y[i], f"frame {i}"
            return f"{part}:\n  expected {' '.join(x)}\n  got      {' '.join(y)}"
    return ""


def vulkan_available(cli):
    return cli.run(*cli.pair(SMALL), "-n", "--feature", "psnr", "--backend", "vulkan").rc == 0


def same_order_on_both_backends(cli):
    """--backend vulkan lists every metric where --backend cpu does, in every
    format, also where one GPU instance serves several configurations (the two
    VIF and ADM configurations of --aom_ctc's models)."""
    runs = [("cpu", "4")]
    if vulkan_available(cli):
        runs += [("vulkan", "4")] if SANITIZED else [("vulkan", "1"), ("vulkan", "4")]
    else:
        print("note: no Vulkan device; only CPU runs are compared")
    for label, args in CONFIGS.items():
        pair = PAIR if args[:1] in (["--aom_ctc"], ["--nflx_ctc"]) else SMALL
        for fmt in FORMATS:
            cpu = listed(cli, pair, args, fmt, "cpu", "1")
            for backend, threads in runs:
                other = listed(cli, pair, args, fmt, backend, threads)
                check(other == cpu, f"{label}, --{fmt}: --backend {backend} --threads {threads} lists the "
                                    f"metrics otherwise than --backend cpu --threads 1\n{describe(cpu, other)}")


def same_order_any_thread_count(cli):
    """A name a feature writes late (float_motion's motion3 of frame 0, integer
    motion2 at the end) keeps its place however the frames are spread over
    threads."""
    runs = [("cpu", t) for t in ("0", "2", "4", "8")]
    if vulkan_available(cli):
        runs += [("vulkan", t) for t in ("0", "4")]
    cpu = listed(cli, SMALL, DELAYED, "json", "cpu", "1")
    for _ in range(1 if SANITIZED else 3):  # the order used to depend on which thread came first
        for backend, threads in runs:
            other = listed(cli, SMALL, DELAYED, "json", backend, threads)
            check(other == cpu, f"--backend {backend} --threads {threads} lists the metrics otherwise than "
                                f"--backend cpu --threads 1\n{describe(cpu, other)}")


def order_of_libvmaf(cli):
    """Where libvmaf's own output has one order (its tool with one thread, the
    golden JSON), the CPU backend lists the metrics in it: the presets (their
    psnr runs first, as libvmaf's temporal features do) and a model alone."""
    cases = [(["--aom_ctc", "v7.0"], "aom_ctc_v7.0"), (["--nflx_ctc", "v1.0"], "nflx_ctc_v1.0"),
             (["-m", "version=vmaf_4k_v0.6.1"], "vmaf_4k_v0.6.1"),
             (["-m", "version=vmaf_v0.6.1neg"], "vmaf_v0.6.1neg")]
    for args, golden in cases:
        with open(cli.path(f"{PAIR}.libvmaf.{golden}.json")) as f:
            expected = names_json(f.read())
        got = listed(cli, PAIR, args, "json", "cpu", "1")
        check(got == expected, f"{' '.join(args)}: not libvmaf's order\n{describe(expected, got)}")


if __name__ == "__main__":
    main([same_order_on_both_backends, same_order_any_thread_count, order_of_libvmaf], sys.argv)
