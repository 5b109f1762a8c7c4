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
