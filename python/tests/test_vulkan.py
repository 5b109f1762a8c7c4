# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The Vulkan backend through the bindings: device listing, scores against the
CPU backend and Netflix libvmaf, the parity tool with a Vulkan run.

Skipped (with the reason) only when the library reports no Vulkan support. A
library with Vulkan needs a usable device here: lavapipe (mesa-vulkan-drivers)
on machines without a GPU."""

import numpy as np
import pytest

import vmafvk
from conftest import golden, golden_path, library_or_skip, pair_paths
from test_tools import parity

library_or_skip()
_SUPPORTED, _WHY = vmafvk.vulkan_support()
if not _SUPPORTED:
    print(f"vulkan tests skipped: {_WHY}")
    pytest.skip(f"no Vulkan support: {_WHY}", allow_module_level=True)

TOL = 1e-4
PARITY_TOL = 0.5e-4  # what `python -m vmafvk.parity` checks with its default --places 4
PAIRS = ["coffee_320x240_crf28", "rocket_320x240_10bit_crf30", "astronaut_320x240_422_crf33",
         "chelsea_322x186_rescale"]


def usable_devices():
    devices = [d for d in vmafvk.list_vulkan_devices() if d["usable"]]
    assert devices, ("the library has Vulkan but sees no usable device; install a driver "
                     "(lavapipe: mesa-vulkan-drivers) or check VK_ICD_FILENAMES")
    return devices


def scores(name, backend, features=(), model=None):
    ref, dist = pair_paths(name)
    with vmafvk.Context(backend=backend) as ctx:
        assert ctx.backend == backend
        if model:
            ctx.use_model(version=model)
        for f in features:
            ctx.use_feature(f)
        ctx.feed_y4m(ref, dist)
        return {n: ctx.feature(n) for n in ctx.feature_names()}


def test_devices_are_listed():
    devices = usable_devices()
    for i, d in enumerate(vmafvk.list_vulkan_devices()):
        assert d["index"] == i and d["name"]
        assert d["type"] in ("other", "integrated_gpu", "discrete_gpu", "virtual_gpu", "cpu")
        if d["usable"]:  # Vulkan 1.2 devices report a device UUID: 16 bytes, not all zero
            assert len(d["uuid"]) == 32 and int(d["uuid"], 16) != 0
    assert devices[0]["api_version"].startswith("1.")


@pytest.mark.parametrize("feature", ["psnr", "motion", "vif", "adm"])
@pytest.mark.parametrize("name", PAIRS)
def test_features_match_cpu_and_libvmaf(name, feature):
    usable_devices()
    cpu = scores(name, "cpu", [feature])
    gpu = scores(name, "vulkan", [feature])
    assert gpu.keys() == cpu.keys()
    exp, _ = golden(name)
    for key in cpu:
        diff = np.nanmax(np.abs(gpu[key] - cpu[key]))
        assert diff < PARITY_TOL, f"{key}: vulkan vs cpu max |diff| {diff:.3g}"
        if key in exp:
            diff = np.nanmax(np.abs(gpu[key] - exp[key]))
            assert diff <= TOL, f"{key}: vulkan vs libvmaf max |diff| {diff:.3g}"


@pytest.mark.parametrize("name", PAIRS)
def test_vmaf_matches_libvmaf(name):
    usable_devices()
    got = scores(name, "vulkan", model="vmaf_v0.6.1")
    exp, _ = golden(name)
    diff = np.nanmax(np.abs(got["vmaf"] - exp["vmaf"]))
    assert diff <= TOL, f"vmaf max |diff| {diff:.3g}"


def test_device_choice():
    devices = usable_devices()
    first = devices[0]
    with vmafvk.Context(backend="vulkan", device=first["index"]) as ctx:
        assert ctx.device_name == first["name"]
    with vmafvk.Context(backend="vulkan", device=first["name"][:4].upper()) as ctx:
        assert ctx.backend == "vulkan"
    with pytest.raises(vmafvk.VmafError) as e:
        vmafvk.Context(backend="vulkan", device=len(vmafvk.list_vulkan_devices()) + 5)
    assert e.value.function == "vmaf_init_backend"
    with vmafvk.Context(backend="auto", device="no such device anywhere") as ctx:
        assert ctx.backend == "cpu"
        assert ctx.vulkan_unavailable_reason


def test_parity_tool_with_vulkan():
    usable_devices()
    name = "coffee_320x240_crf28"
    r = parity("--reference-json", golden_path(name), "--feature", "psnr", "--feature", "motion")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "vulkan: libvmaf" in r.stdout
    line = next(l for l in r.stdout.splitlines() if l.startswith("psnr_y "))
    assert line.split()[1] != "-"  # a CPU-vs-Vulkan difference was measured


def test_one_device_for_several_contexts():
    usable_devices()
    cpu = {n: scores(n, "cpu", model="vmaf_v0.6.1")["vmaf"] for n in PAIRS[:2]}
    with vmafvk.VulkanDevice() as dev:
        assert dev.device_name and not dev.closed
        for n in PAIRS[:2] + PAIRS[:1]:  # one after the other, a pair again
            ref, dist = pair_paths(n)
            with vmafvk.Context(backend="vulkan", device=dev) as ctx:
                assert ctx.backend == "vulkan" and ctx.device_name == dev.device_name
                ctx.use_model(version="vmaf_v0.6.1")
                ctx.feed_y4m(ref, dist)
                np.testing.assert_array_equal(ctx.feature("vmaf"), cpu[n])
                want, _ = golden(n)
                assert np.abs(ctx.feature("vmaf") - want["vmaf"]).max() <= TOL
        # Two at once; the device outlives both, and cannot be freed under them.
        ref, dist = pair_paths(PAIRS[0])
        a = vmafvk.Context(backend="vulkan", device=dev)
        b = vmafvk.Context(backend="vulkan", device=dev)
        for ctx in (a, b):
            ctx.use_model(version="vmaf_v0.6.1")
            ctx.feed_y4m(ref, dist)
        a.close()
        with pytest.raises(vmafvk.VmafError) as e:
            dev.close()
        assert e.value.errno_name == "EBUSY"
        np.testing.assert_array_equal(b.feature("vmaf"), cpu[PAIRS[0]])
        b.close()
    assert dev.closed
    with pytest.raises(ValueError, match="closed"):
        vmafvk.Context(backend="vulkan", device=dev)
