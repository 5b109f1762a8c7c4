# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The `vmaf` tool, the Vulkan devices, and the workers (slots) a run gets."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

from .. import _lib
from .errors import EXIT_SETUP, BatchError

# Pairs a GPU worker scores at once (--gpu-pairs). A GPU pair of small pictures
# spends most of its time waiting for the device inside library calls: on an H200,
# one GPU worker scored 31 of the 10-frame golden pairs a second one at a time, 176
# four at once and 206 eight at once, and beside 15 CPU workers 4 and 8 did as well
# (docs/batch.md). 4 is past the knee with half the contexts (device memory, host
# threads) of 8, and a pair that crashes its worker sends at most 3 others round again.
DEFAULT_GPU_PAIRS = 4

# How much lower the CPU workers' priority is beside GPU workers (--cpu-nice).
DEFAULT_CPU_NICE = 0


def _cli_ok(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_cli(explicit: str | None = None) -> str:
    """The `vmaf` tool: `explicit` (--vmaf), $VMAFVK_CLI, the tool of the build
    that $VMAFVK_LIBRARY comes from (BUILD/core/src/libvmaf.so ->
    BUILD/core/tools/vmaf), else the tool the package carries (the wheel's, of
    the same build as its library), else `vmaf` on PATH."""
    for what, path in (("--vmaf", explicit), ("$VMAFVK_CLI", os.environ.get("VMAFVK_CLI"))):
        if path:
            if not _cli_ok(path):
                raise BatchError(f"{what} {path}: not an executable file", EXIT_SETUP)
            return os.path.abspath(path)
    lib = os.environ.get("VMAFVK_LIBRARY")
    if lib:
        beside = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(lib))), "tools", "vmaf")
        if _cli_ok(beside):
            return beside
    else:
        bundled = _lib.bundled_tool()
        if bundled:
            return bundled
    found = shutil.which("vmaf")
    if found:
        return os.path.abspath(found)
    raise BatchError("no vmaf tool found: give --vmaf PATH, set VMAFVK_CLI, or put vmaf on PATH",
                     EXIT_SETUP)


def cli_version(cli: str) -> str:
    """The tool's version; refuses a `vmaf` that is not this project's (no --backend)."""
    try:
        r = subprocess.run([cli, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise BatchError(f"{cli}: cannot run it: {e}", EXIT_SETUP) from e
    text = (r.stdout + r.stderr).strip()
    if r.returncode != 0 or "-vk" not in text:
        raise BatchError(f"{cli} is not libvmaf-vk's vmaf tool (its --version says {text!r})", EXIT_SETUP)
    return text.splitlines()[-1]


# --------------------------------------------------------------------------- devices

def _library_near(cli: str) -> str | None:
    """libvmaf.so of the build or installation the tool comes from."""
    tools = os.path.dirname(os.path.realpath(cli))
    for rel in ("../src/libvmaf.so", "../lib/libvmaf.so", "../lib64/libvmaf.so"):
        p = os.path.normpath(os.path.join(tools, rel))
        if os.path.exists(p):
            return p
    lib_dir = os.path.normpath(os.path.join(tools, "..", "lib"))
    if os.path.isdir(lib_dir):
        for sub in sorted(os.listdir(lib_dir)):
            p = os.path.join(lib_dir, sub, "libvmaf.so")
            if os.path.exists(p):
                return p
    return None


_LIST_SCRIPT = ("import json, sys; sys.path.insert(0, sys.argv[1]); from vmafvk import vulkan; "
                "print(json.dumps(vulkan.list_vulkan_devices()))")


def list_devices(cli: str | None = None) -> tuple:
    """(devices, why): the Vulkan devices as vmafvk.list_vulkan_devices() gives
    them (index, name, type, usable, uuid, ...), listed in a child process so
    that a broken driver cannot take this one down; ([], reason) when there is
    no library, loader or driver. The library: $VMAFVK_LIBRARY, else the one
    beside the tool, else the system's."""
    env = dict(os.environ)
    if not env.get("VMAFVK_LIBRARY") and cli:
        near = _library_near(cli)
        if near:
            env["VMAFVK_LIBRARY"] = near
    pkg_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        r = subprocess.run([sys.executable, "-c", _LIST_SCRIPT, pkg_parent], env=env,
                           capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return [], f"listing Vulkan devices failed: {e}"
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
        return [], f"listing Vulkan devices failed: {last}"
    try:
        devices = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return [], "listing Vulkan devices failed: unreadable answer"
    return devices, "" if devices else "no Vulkan device"


def _is_decimal(text: str) -> bool:
    """ASCII digits only (str.isdigit() takes '³' and other digits int() refuses)."""
    return bool(re.fullmatch(r"[0-9]{1,9}", text))


def _describe(d: dict) -> str:
    uuid = f", uuid {d['uuid'][:8]}" if d.get("uuid") else ""
    return f"{d['index']}: {d['name']} ({d['type']}{uuid})"


def select_gpus(devices: list, spec: str = "auto") -> tuple:
    """(devices that get a worker each, in order; notices) for a --gpus value:

    auto   every usable device that is not a CPU implementation (lavapipe,
           SwiftShader), one worker per physical device (UUID);
    all    every usable device, CPU implementations too, one per physical device;
    none   no GPU worker;
    LIST   comma-separated: an index (as `vmaf --vulkan_device` counts) or a
           UUID prefix (`uuid:` before it when it is all digits). A device named
           twice, or two indices of one physical device, get two workers.

    Raises ValueError for a LIST item that matches no usable device."""
    spec = (spec or "auto").strip().lower()
    notices = []
    if spec == "none":
        return [], notices
    if spec in ("auto", "all"):
        chosen, seen = [], {}
        for d in devices:
            if not d.get("usable"):
                continue
            if spec == "auto" and d.get("type") == "cpu":
                notices.append(f"skipping Vulkan device {_describe(d)}: a CPU implementation "
                               "(name it in --gpus to use it)")
                continue
            if d.get("uuid") and d["uuid"] in seen:
                notices.append(f"Vulkan device {d['index']} is device {seen[d['uuid']]} listed again "
                               "(same UUID): one worker")
                continue
            if d.get("uuid"):
                seen[d["uuid"]] = d["index"]
            chosen.append(d)
        return chosen, notices
    chosen = []
    listing = "; ".join(_describe(d) for d in devices) or "none"
    for token in (t.strip() for t in spec.split(",")):
        if not token:
            raise ValueError(f"--gpus {spec}: empty item")
        if _is_decimal(token):
            i = int(token)
            if i >= len(devices):
                raise ValueError(f"--gpus: no Vulkan device {i} (devices: {listing})")
            d = devices[i]
        else:
            prefix = token[5:] if token.startswith("uuid:") else token
            prefix = prefix.replace("-", "")
            if not prefix or not re.fullmatch(r"[0-9a-f]+", prefix):
                raise ValueError(f"--gpus: {token!r} is neither an index nor a UUID prefix")
            hits = [d for d in devices if d.get("uuid", "").startswith(prefix)]
            if len({d["uuid"] for d in hits}) > 1:
                raise ValueError(f"--gpus: UUID prefix {prefix} matches several devices ({listing})")
            if not hits:
                raise ValueError(f"--gpus: no Vulkan device with UUID {prefix}... (devices: {listing})")
            d = hits[0]
        if not d.get("usable"):
            raise ValueError(f"--gpus: Vulkan device {_describe(d)} lacks what the kernels need")
        chosen.append(d)
    for a in range(len(chosen)):
        for b in range(a):
            x, y = chosen[a], chosen[b]
            if x["index"] == y["index"] or (x.get("uuid") and x.get("uuid") == y.get("uuid")):
                notices.append(f"two workers on one GPU (devices {y['index']} and {x['index']}), as asked")
    return chosen, notices


@dataclass(frozen=True)
class Slot:
    """One scoring process at a time: a Vulkan device (by index) or the CPU."""
    kind: str                  # "gpu" or "cpu"
    number: int                # gpuN / cpuN
    device: int | None = None  # Vulkan index, as `vmaf --vulkan_device` counts
    threads: int | None = None
    device_name: str = ""
    pairs: int = 1             # pairs its process scores at once
    nice: int = 0              # its process's niceness (added to the batch's)

    @property
    def label(self) -> str:
        return f"{self.kind}{self.number}"

    def cli_args(self) -> list:
        a = (["--backend", "vulkan", "--vulkan_device", str(self.device)] if self.kind == "gpu"
             else ["--backend", "cpu"])
        return a + (["--threads", str(self.threads)] if self.threads is not None else [])


def make_slots(gpus: list, cpu_workers: int, gpu_threads=None, cpu_threads=None,
               gpu_pairs: int = 1, cpu_nice: int = 0) -> list:
    """A slot per GPU, scoring gpu_pairs pairs at once, then the CPU slots, one
    pair at a time each (there is one per core); beside GPU workers the CPU
    workers run cpu_nice lower, so that the threads feeding a GPU get a core
    when they need one."""
    slots = [Slot("gpu", i, d["index"], gpu_threads, d["name"], max(gpu_pairs, 1))
             for i, d in enumerate(gpus)]
    nice = cpu_nice if gpus else 0
    return slots + [Slot("cpu", i, None, cpu_threads, nice=nice) for i in range(cpu_workers)]


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def gpu_worker_cores(gpu_pairs: int = 1) -> int:
    """Cores a GPU worker keeps busy: one feeding its device one pair at a time;
    with pairs in flight its threads (reading inputs, feeding frames, writing
    results) take about three (on an H200, 1 GPU worker at 4 pairs beside 13 CPU
    workers scored faster than beside 15)."""
    return 1 if gpu_pairs <= 1 else 3


def default_cpu_workers(gpu_workers: int, cpu_count: int, gpu_pairs: int = 1) -> int:
    """`--cpu-workers auto`: one per core left beside the GPU workers
    (gpu_worker_cores() each); at least one when there is no GPU worker."""
    return max(cpu_count - gpu_workers * gpu_worker_cores(gpu_pairs), 0 if gpu_workers else 1)
