# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The parity and plot command-line tools, run as a CI would run them."""

import json
import os
import subprocess
import sys

import pytest

import vmafvk
from conftest import golden_path, pair_paths

PYTHON = sys.executable
PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAIR = "coffee_320x240_crf28"


def run_tool(module, *args):
    env = dict(os.environ)
    env["PYTHONPATH"] = PKG_DIR + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([PYTHON, "-m", module, *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=600)


def parity(*args):
    ref, dist = pair_paths(PAIR)
    return run_tool("vmafvk.parity", ref, dist, *args)


def vulkan_usable():
    ok, _ = vmafvk.vulkan_support()
    return ok and any(d["usable"] for d in vmafvk.list_vulkan_devices())


def test_parity_passes_on_golden_pair(lib):
    r = parity("--reference-json", golden_path(PAIR), "--feature", "psnr", "--feature", "motion",
               "--allow-missing-vulkan")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS" in r.stdout
    for name in ("psnr_y", "psnr_cb", "psnr_cr", "integer_motion2"):
        line = next(l for l in r.stdout.splitlines() if l.startswith(name + " "))
        assert line.endswith("pass"), line
    if not vulkan_usable():
        assert "vulkan: unavailable" in r.stdout


def test_parity_default_model_passes_on_golden_pair(lib):
    r = parity("--reference-json", golden_path(PAIR), "--allow-missing-vulkan")
    assert r.returncode == 0, r.stdout + r.stderr
    assert any(l.startswith("vmaf ") and l.endswith("pass") for l in r.stdout.splitlines())


def test_parity_fails_on_tampered_reference(lib, tmp_path):
    with open(golden_path(PAIR)) as f:
        doc = json.load(f)
    doc["frames"][4]["metrics"]["psnr_cb"] += 1e-3
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc))
    r = parity("--reference-json", tampered, "--feature", "psnr", "--allow-missing-vulkan")
    assert r.returncode == 1, r.stdout + r.stderr
    line = next(l for l in r.stdout.splitlines() if l.startswith("psnr_cb "))
    assert "1.000e-03" in line and line.endswith("FAIL")
    assert next(l for l in r.stdout.splitlines() if l.startswith("psnr_y ")).endswith("pass")


def test_parity_places_sets_the_tolerance(lib, tmp_path):
    with open(golden_path(PAIR)) as f:
        doc = json.load(f)
    doc["frames"][0]["metrics"]["psnr_y"] += 4e-3
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc))
    base = ("--reference-json", tampered, "--feature", "psnr", "--allow-missing-vulkan")
    assert parity(*base, "--places", "2").returncode == 0
    assert parity(*base, "--places", "3").returncode == 1


def test_parity_frame_count_mismatch_fails(lib, tmp_path):
    with open(golden_path(PAIR)) as f:
        doc = json.load(f)
    del doc["frames"][-1]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(doc))
    r = parity("--reference-json", short, "--feature", "psnr", "--allow-missing-vulkan")
    assert r.returncode == 1, r.stdout + r.stderr


def test_parity_without_vulkan_fails_unless_allowed(lib):
    if vulkan_usable():
        pytest.skip("this library and machine have Vulkan; covered by test_vulkan.py")
    r = parity("--reference-json", golden_path(PAIR), "--feature", "psnr")
    assert r.returncode == 1
    assert "vulkan: unavailable" in r.stdout


def test_parity_cannot_run(lib, tmp_path):
    ref, _ = pair_paths(PAIR)
    r = run_tool("vmafvk.parity", ref, tmp_path / "absent.y4m", "--feature", "psnr")
    assert r.returncode == 2
    assert "absent.y4m" in r.stderr
    r = parity("--feature", "no_such_feature", "--allow-missing-vulkan")
    assert r.returncode == 2
    assert "no_such_feature" in r.stderr


def test_plot_writes_png(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "plot.png"
    r = run_tool("vmafvk.plot", golden_path(PAIR), golden_path(PAIR, "vmaf_4k_v0.6.1"),
                 "--feature", "psnr_y", "--feature", "integer_adm2", "-o", out)
    assert r.returncode == 0, r.stderr
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10000


def test_plot_bad_input(tmp_path):
    pytest.importorskip("matplotlib")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = run_tool("vmafvk.plot", bad, "-o", tmp_path / "x.png")
    assert r.returncode == 2 and "frames" in r.stderr
    r = run_tool("vmafvk.plot", golden_path(PAIR), "--score", "nope", "-o", tmp_path / "x.png")
    assert r.returncode == 2
    assert not (tmp_path / "x.png").exists()


def tool_log(tmp_path, pair, *features):
    """The vmaf tool's JSON for a golden pair with these --feature values."""
    from vmafvk import batch
    try:
        cli = batch.find_cli()
    except batch.BatchError as e:
        pytest.skip(f"no vmaf tool: {e}")
    ref, dist = pair_paths(pair)
    out = tmp_path / f"{pair}.json"
    args = [a for f in features for a in ("--feature", f)]
    r = subprocess.run([cli, "-r", ref, "-d", dist, *args, "-q", "--json", "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return str(out)


def ffmpeg_xpsnr(pair):
    """FFmpeg's xpsnr filter's stats file: ({plane: [per-frame value or inf]},
    {plane: its "XPSNR average" over the clip})."""
    planes, average = {"y": [], "cb": [], "cr": []}, {}
    data_dir = os.path.dirname(golden_path(pair))
    with open(os.path.join(data_dir, f"{pair}.ffmpeg.xpsnr.txt")) as f:
        for line in f:
            words = line.split()
            for plane, tag in (("y", "y:"), ("cb", "u:"), ("cr", "v:")):
                if tag in words and line.startswith("n:"):
                    planes[plane].append(float(words[words.index(tag) + 1]))
                elif tag in words and line.startswith("XPSNR average"):
                    average[plane] = float(words[words.index(tag) + 1])
    return planes, average


def test_plot_xpsnr_and_ssimulacra2(tmp_path):
    """`--feature xpsnr` draws xpsnr_y, xpsnr_cb and xpsnr_cr (FFmpeg's xpsnr filter's
    numbers at its 4 decimals, the label with the pooled mean and the whole-clip
    score), `--feature ssimulacra2` libjxl's scores, `--feature butteraugli` libjxl's
    distances; identical frames (XPSNR infinite, null in the JSON) are gaps, counted
    in the label."""
    pytest.importorskip("matplotlib")
    from vmafvk import plot
    pair, same = PAIR, "chelsea_176x144_identical"
    logs = [tool_log(tmp_path, p, "xpsnr", "ssimulacra2", "butteraugli") for p in (pair, same)]
    out = tmp_path / "plot.png"
    r = run_tool("vmafvk.plot", *logs, "--feature", "xpsnr", "--feature", "ssimulacra2", "--feature",
                 "butteraugli", "-o", out)
    assert r.returncode == 0 and "skipped" not in r.stderr, r.stderr
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")

    docs = [plot.load_log(p) for p in logs]
    names = plot.panel_names(docs, ["vmaf", "xpsnr", "ssimulacra2", "butteraugli"])
    assert names == ["vmaf", "xpsnr_y", "xpsnr_cb", "xpsnr_cr", "ssimulacra2", "butteraugli"]
    truth, average = ffmpeg_xpsnr(pair)
    for plane in ("y", "cb", "cr"):
        lines = plot.panel_lines(docs, ["dist", "same"], f"xpsnr_{plane}")
        assert [line["log"] for line in lines] == [0, 1]
        dist, ident = lines
        assert dist["xs"] == list(range(len(truth[plane])))
        assert [round(v, 4) for v in dist["ys"]] == truth[plane]
        mean = docs[0]["pooled_metrics"][f"xpsnr_{plane}"]["mean"]
        clip = docs[0]["aggregate_metrics"][f"axpsnr_{plane}"]
        assert round(clip, 4) == average[plane]
        assert dist["label"] == f"dist  (mean {mean:.4f}, whole clip {clip:.4f})"
        assert ffmpeg_xpsnr(same)[0][plane] == [float("inf")] * 10
        assert ident["xs"] == [] and ident["label"] == (
            "same  (mean not finite, whole clip not finite; 10 of 10 frames not finite)")
    with open(os.path.join(os.path.dirname(golden_path(pair)), f"{pair}.ssimulacra2.json")) as f:
        libjxl = [fr["metrics"]["ssimulacra2"] for fr in json.load(f)["frames"]]
    dist, ident = plot.panel_lines(docs, ["dist", "same"], "ssimulacra2")
    assert len(dist["ys"]) == len(libjxl)
    assert all(abs(a - b) <= 1e-6 for a, b in zip(dist["ys"], libjxl))
    assert ident["ys"] == [100.0] * 10
    with open(os.path.join(os.path.dirname(golden_path(pair)), f"{pair}.butteraugli.json")) as f:
        libjxl = [fr["metrics"]["butteraugli"] for fr in json.load(f)["frames"]]
    dist, ident = plot.panel_lines(docs, ["dist", "same"], "butteraugli")
    assert len(dist["ys"]) == len(libjxl)
    assert all(abs(a - b) <= 5e-7 for a, b in zip(dist["ys"], libjxl))  # the JSON's 6 decimals
    assert ident["ys"] == [0.0] * 10


def test_plot_xpsnr_whole_clip_with_options():
    """Each xpsnr name's whole-clip score is the aggregate of the same suffix, so two
    xpsnr features with different options are labelled with their own; a log written
    before aggregates carried the suffix still gives the plain one where the plane
    has a single xpsnr name."""
    from vmafvk import plot
    doc = {"frames": [{"frameNum": 0, "metrics": {"xpsnr_y": 30.0, "xpsnr_y_fps_50": 31.0}}],
           "aggregate_metrics": {"axpsnr_y": 29.5, "axpsnr_y_fps_50": 30.5}}
    assert plot._whole_clip(doc, "xpsnr_y") == (True, 29.5)
    assert plot._whole_clip(doc, "xpsnr_y_fps_50") == (True, 30.5)
    old = {"frames": [{"frameNum": 0, "metrics": {"xpsnr_y_fps_50": 31.0}}],
           "aggregate_metrics": {"axpsnr_y": 30.5}}
    assert plot._whole_clip(old, "xpsnr_y_fps_50") == (True, 30.5)
    both_old = {"frames": [{"frameNum": 0, "metrics": {"xpsnr_y": 30.0, "xpsnr_y_fps_50": 31.0}}],
                "aggregate_metrics": {"axpsnr_y": 29.5}}
    assert plot._whole_clip(both_old, "xpsnr_y_fps_50") == (False, None)
    assert plot._whole_clip(doc, "psnr_y") == (False, None)
