# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Shared set-up: the package from this source tree, the library under test, golden data.

Environment: VMAFVK_LIBRARY (path of the libvmaf.so under test; meson test sets
it), VMAF_MODEL_DIR (models), VMAF_TEST_DATA_DIR (golden pairs; default
tests/data of this repository).
"""

import glob
import json
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import vmafvk  # noqa: E402
from vmafvk import _lib  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.environ.get("VMAF_TEST_DATA_DIR") or os.path.join(REPO, "tests", "data")

PAIRS = sorted(os.path.basename(p)[:-len("_ref.y4m")]
               for p in glob.glob(os.path.join(DATA, "*_ref.y4m")))


def pair_paths(name):
    return (os.path.join(DATA, f"{name}_ref.y4m"), os.path.join(DATA, f"{name}_dis.y4m"))


def golden_path(name, model=None):
    suffix = f".libvmaf.{model}.json" if model else ".libvmaf.json"
    return os.path.join(DATA, name + suffix)


def golden(name, model=None):
    """{score name: per-frame float64 array} of libvmaf's output for a pair."""
    with open(golden_path(name, model)) as f:
        doc = json.load(f)
    frames = sorted(doc["frames"], key=lambda fr: fr["frameNum"])
    keys = {k for fr in frames for k in fr["metrics"]}
    return {k: np.array([fr["metrics"].get(k, np.nan) for fr in frames], dtype=float)
            for k in keys}, doc


def library_or_skip():
    try:
        return _lib.load_library()
    except OSError as e:
        pytest.skip(f"libvmaf not available: {e}")


@pytest.fixture(scope="session")
def lib():
    return library_or_skip()


def vulkan_status():
    """(usable, why not): the library's Vulkan API and a Vulkan driver on this machine."""
    lib = library_or_skip()
    ok, why = vmafvk.vulkan_support(lib)
    if not ok:
        return False, why
    return True, ""


def pytest_report_header(config):
    try:
        lib = _lib.load_library()
    except OSError as e:
        return [f"vmafvk: libvmaf not loadable ({e})"]
    ok, why = vmafvk.vulkan_support(lib)
    return [f"vmafvk: libvmaf {lib.version()} from {lib.path}",
            f"vmafvk: vulkan {'supported' if ok else 'unsupported: ' + why}"]
