# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The wheel: built offline from a meson build directory, installed into a fresh
virtual environment, it scores with the library and the tool it carries, with no
VMAFVK_* variable set and from a folder outside the checkout.

The build directory is the one of the library under test ($VMAFVK_CLI or
$VMAFVK_LIBRARY, as meson test sets them), else the repository's build/.
"""

import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile

import pytest

from conftest import golden_path, pair_paths

PYTHON = sys.executable
PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(PKG_DIR)
PAIR = "coffee_320x240_crf28"

# The library carries the published models (built_in_models): the runs below get
# no VMAF_MODEL_DIR, as on a machine with no model folder.
BUILTIN_MODELS = True

# Environment variables the installed package must not need (the bundled tool
# finds the bundled library beside it, not through LD_LIBRARY_PATH).
UNSET = ("VMAFVK_LIBRARY", "VMAFVK_CLI", "PYTHONPATH", "VMAFVK_BUILD_DIR", "LD_LIBRARY_PATH")


def meson_build_dir():
    cli = os.environ.get("VMAFVK_CLI")
    if cli:  # BUILD/core/tools/vmaf
        return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(cli))))
    lib = os.environ.get("VMAFVK_LIBRARY")
    if lib:  # BUILD/core/src/libvmaf.so
        return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(lib))))
    return os.path.join(REPO, "build")


def needs_sanitizer_runtime(path):
    readelf = shutil.which("readelf")
    if not readelf:
        return False
    out = subprocess.run([readelf, "-d", path], capture_output=True, text=True).stdout
    return any(s in out for s in ("libasan", "libubsan", "libtsan"))


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    if BUILTIN_MODELS:
        env.pop("VMAF_MODEL_DIR", None)
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """(python of a fresh venv with the wheel installed, a folder outside the checkout)."""
    build = meson_build_dir()
    lib = os.path.join(build, "core", "src", "libvmaf.so.3")
    tool = os.path.join(build, "core", "tools", "vmaf")
    if not (os.path.isfile(lib) and os.path.isfile(tool)):
        pytest.skip(f"no library and tool built in {build}")
    if needs_sanitizer_runtime(lib):
        pytest.skip("a sanitizer build: the wheel carries a release build's binaries")
    for module in ("setuptools", "wheel", "pip", "venv"):
        if subprocess.run([PYTHON, "-c", f"import {module}"], capture_output=True).returncode:
            pytest.skip(f"{PYTHON} has no {module} module")

    tmp = tmp_path_factory.mktemp("wheel")
    # A copy of python/: the build writes its scratch folders there, not into the checkout.
    src = tmp / "src"
    shutil.copytree(PKG_DIR, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "dist"))
    dist = tmp / "dist"
    r = subprocess.run([PYTHON, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                        "-w", str(dist), str(src)],
                       env=clean_env(VMAFVK_BUILD_DIR=build), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    wheels = glob.glob(str(dist / "vmafvk-*.whl"))
    assert len(wheels) == 1, wheels
    assert "-py3-none-linux_" in os.path.basename(wheels[0]), wheels[0]
    # Every module of the package is in the wheel (vmafvk.batch is a package of its own).
    with zipfile.ZipFile(wheels[0]) as z:
        packaged = {n for n in z.namelist() if n.endswith(".py")}
    sources = {os.path.relpath(p, PKG_DIR).replace(os.sep, "/")
               for p in glob.glob(os.path.join(PKG_DIR, "vmafvk", "**", "*.py"), recursive=True)}
    assert "vmafvk/batch/cli.py" in sources and not sources - packaged, sorted(sources - packaged)

    env_dir = tmp / "venv"
    # --without-pip: the system's pip (a site package it sees) installs into it.
    subprocess.run([PYTHON, "-m", "venv", "--system-site-packages", "--without-pip", str(env_dir)],
                   check=True, timeout=120)
    py = str(env_dir / "bin" / "python")
    r = subprocess.run([py, "-m", "pip", "install", "--no-index", "--no-deps", wheels[0]],
                       env=clean_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    work = tmp / "work"
    work.mkdir()
    return py, str(work)


def run(venv, *args, env=None, timeout=300):
    py, work = venv
    return subprocess.run([py, *map(str, args)], cwd=work, env=env or clean_env(),
                          capture_output=True, text=True, timeout=timeout)


def golden_mean():
    with open(golden_path(PAIR)) as f:
        return json.load(f)["pooled_metrics"]["vmaf"]["mean"]


def test_package_library_and_tool_are_the_bundled_ones(venv):
    r = run(venv, "-c", textwrap.dedent("""
        import json, os, vmafvk
        from vmafvk import _lib, batch
        print(json.dumps({"package": os.path.dirname(vmafvk.__file__),
                          "library": _lib.load_library().path,
                          "tool": batch.find_cli(),
                          "version": vmafvk.library_version()}))
        """))
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    site = os.path.dirname(os.path.dirname(venv[0]))
    assert got["package"].startswith(site), got
    assert got["library"] == os.path.join(got["package"], "_bundled", "libvmaf.so.3"), got
    assert got["tool"] == os.path.join(got["package"], "_bundled", "vmaf"), got
    assert "-vk" in got["version"], got


def test_parity_on_both_backends(venv):
    ref, dis = pair_paths(PAIR)
    ok = run(venv, "-c", "import vmafvk; print(any(d['usable'] for d in vmafvk.list_vulkan_devices()))")
    assert ok.returncode == 0, ok.stderr
    vulkan = ok.stdout.strip().splitlines()[-1] == "True"
    args = ["-m", "vmafvk.parity", ref, dis, "--reference-json", golden_path(PAIR)]
    r = run(venv, *args, *([] if vulkan else ["--allow-missing-vulkan"]))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS" in r.stdout
    # Each backend's per-frame VMAF within 5e-5 of libvmaf's, hence its mean too.
    row = next(l for l in r.stdout.splitlines() if l.startswith("vmaf "))
    assert row.endswith("pass"), row
    if vulkan:
        assert any(l.startswith("vulkan: libvmaf ") for l in r.stdout.splitlines()), r.stdout


SCORE_MEAN = textwrap.dedent("""
    import json, sys, vmafvk
    ref, dis, backend = sys.argv[1:4]
    try:
        with vmafvk.Context(backend=backend) as ctx:
            ctx.use_model(version="vmaf_v0.6.1")
            ctx.feed_y4m(ref, dis)
            print(json.dumps({"backend": ctx.backend, "mean": ctx.pooled("vmaf"),
                              "why": ctx.vulkan_unavailable_reason}))
    except vmafvk.VmafError as e:
        print(json.dumps({"error": str(e)}))
    """)


def score_mean(venv, backend, env=None):
    ref, dis = pair_paths(PAIR)
    r = run(venv, "-c", SCORE_MEAN, ref, dis, backend, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_golden_mean_on_each_backend(venv):
    want = golden_mean()
    cpu = score_mean(venv, "cpu")
    assert cpu["backend"] == "cpu" and abs(cpu["mean"] - want) < 5e-5, (cpu, want)
    vk = score_mean(venv, "vulkan")
    if "error" in vk:
        pytest.skip(f"no usable Vulkan device: {vk['error']}")
    assert vk["backend"] == "vulkan" and abs(vk["mean"] - want) < 5e-5, (vk, want)


def test_without_a_vulkan_driver(venv):
    """--backend vulkan says there is none; only auto scores on the CPU instead."""
    no_driver = clean_env(VK_DRIVER_FILES="/nonexistent/icd.json", VK_ICD_FILENAMES="/nonexistent/icd.json")
    vk = score_mean(venv, "vulkan", env=no_driver)
    assert "error" in vk and "vulkan" in vk["error"].lower(), vk
    auto = score_mean(venv, "auto", env=no_driver)
    assert auto["backend"] == "cpu" and auto["why"], auto
    assert abs(auto["mean"] - golden_mean()) < 5e-5, auto
    ref, dis = pair_paths(PAIR)
    r = run(venv, "-m", "vmafvk.parity", ref, dis, "--reference-json", golden_path(PAIR), env=no_driver)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "vulkan: unavailable" in r.stdout and "FAIL: no Vulkan run" in r.stdout, r.stdout
    # The bundled tool, as the batch runs it: --backend vulkan refuses, naming the cause.
    tool = run(venv, "-c", "from vmafvk import _lib; print(_lib.bundled_tool())").stdout.strip()
    r = subprocess.run([tool, "-r", ref, "-d", dis, "--backend", "vulkan", "-q"], cwd=venv[1], env=no_driver,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "no usable Vulkan device" in r.stderr, r.stderr


def one_pair_csv(tmp_path):
    ref, dis = pair_paths(PAIR)
    pairs = tmp_path / "pairs.csv"
    with open(pairs, "w", newline="") as f:
        csv.writer(f).writerows([("reference", "distorted", "name"), (ref, dis, PAIR)])
    return pairs


def check_batch(r, out, worker):
    assert r.returncode == 0, r.stdout + r.stderr
    with open(out / "summary.csv", newline="") as f:
        summary = list(csv.DictReader(f))
    assert [(s["name"], s["status"]) for s in summary] == [(PAIR, "ok")], summary
    assert abs(float(summary[0]["vmaf"]) - golden_mean()) < 5e-5, summary
    with open(out / f"{PAIR}.json") as f:
        assert len(json.load(f)["frames"]) == 10
    final = next(l for l in reversed(r.stderr.splitlines()) if " scored, " in l)
    assert f"(scored by {worker} 1)" in final, final


def test_batch_one_pair_on_the_cpu(venv, tmp_path):
    out = tmp_path / "results"
    r = run(venv, "-m", "vmafvk.batch", one_pair_csv(tmp_path), "-o", out, "--gpus", "none",
            "--cpu-workers", "1")
    check_batch(r, out, "cpu0")


def test_batch_one_pair_on_vulkan_with_the_tool(venv, tmp_path):
    """The bundled vmaf tool, run by the batch with --backend vulkan on the first usable device."""
    r = run(venv, "-c", "import vmafvk; print(next((d['index'] for d in vmafvk.list_vulkan_devices() "
                        "if d['usable']), ''))")
    assert r.returncode == 0, r.stderr
    index = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    if index == "":
        pytest.skip("no usable Vulkan device")
    out = tmp_path / "results"
    r = run(venv, "-m", "vmafvk.batch", one_pair_csv(tmp_path), "-o", out, "--gpus", index,
            "--cpu-workers", "0", "--scorer", "tool")
    check_batch(r, out, "gpu0")
