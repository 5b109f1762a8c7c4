# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Batch scoring of a catalog of reference/distorted pairs.

    python -m vmafvk.batch PAIRS.csv -o results/                  # this machine's GPUs and cores
    python -m vmafvk.batch PAIRS.csv -o results/ --gpus 0 --cpu-workers 4
    python -m vmafvk.batch PAIRS.csv -o results/ --scheduler tcp://HOST:8786   # a Dask cluster

PAIRS.csv has a header and the columns `reference` and `distorted`, and
optionally `name`, `model`, `features` and `args` (see docs/batch.md). Each
worker (one per GPU, and the CPU workers) is a long-lived process
(vmafvk.batch_worker) that scores pair after pair through the bindings, a GPU
worker several at once (--gpu-pairs) on the one Vulkan device it keeps; pairs it
does not read itself go to the project's `vmaf` tool. The JSON the `vmaf` tool
would write (libvmaf's layout) is written to results/NAME.json, and
results/summary.csv gets one line per pair (status, pooled means). A pair that
crashes or hangs its worker fails alone (the worker is replaced, and the other
pairs it had in flight are scored again, one at a time). Pairs whose JSON is
already there are skipped, so an interrupted run resumes where it stopped.

Exit status: 0 when every pair is scored, 1 when some failed, 2 for a bad
command line or CSV, 3 when scoring cannot start (no `vmaf` tool, a --gpus
selection that matches nothing, an unreachable scheduler).
"""

from __future__ import annotations

import argparse
import collections
import csv
import hashlib
import io
import json
import os
import queue
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid as _uuid
from dataclasses import dataclass, field

from . import _lib

__all__ = ["Pair", "Slot", "Worker", "find_cli", "list_devices", "main", "read_pairs", "select_gpus"]

COLUMNS = ("reference", "distorted", "name", "model", "features", "args")
# Options the batch sets itself; a row's `args` may not give them.
_RESERVED = {"-r", "--reference", "-d", "--distorted", "-o", "--output", "--xml", "--json",
             "--csv", "--sub", "--backend", "--vulkan_device", "--threads", "-q", "--quiet",
             "-v", "--version", "--help"}
_NAME_OK = re.compile(r"[^A-Za-z0-9._+-]")
EXIT_FAILED, EXIT_USAGE, EXIT_SETUP = 1, 2, 3
# Pairs a GPU worker scores at once (--gpu-pairs). A GPU pair of small pictures
# spends most of its time waiting for the device inside library calls: on an H200,
# one GPU worker scored 31 of the 10-frame golden pairs a second one at a time, 176
# four at once and 206 eight at once, and beside 15 CPU workers 4 and 8 did as well
# (docs/batch.md). 4 is past the knee with half the contexts (device memory, host
# threads) of 8, and a pair that crashes its worker sends at most 3 others round again.
DEFAULT_GPU_PAIRS = 4

# How much lower the CPU workers' priority is beside GPU workers (--cpu-nice).
DEFAULT_CPU_NICE = 0


class BatchError(Exception):
    """A problem that stops the run before scoring (exit status `code`)."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


# --------------------------------------------------------------------------- pairs

@dataclass
class Pair:
    line: int                 # line of the CSV (the header is line 1)
    name: str
    reference: str            # absolute paths
    distorted: str
    models: list = field(default_factory=list)    # -m values; ["none"] for -n
    features: list = field(default_factory=list)  # --feature values
    args: list = field(default_factory=list)      # further options of the vmaf tool

    def cli_args(self) -> list:
        a = ["-r", self.reference, "-d", self.distorted]
        if self.models == ["none"]:
            a.append("-n")
        else:
            for m in self.models:
                a += ["-m", m]
        for f in self.features:
            a += ["--feature", f]
        return a + list(self.args)

    def model_names(self) -> list:
        """Score names the models give (for ordering the summary's columns)."""
        if self.models == ["none"]:
            return []
        names = []
        for m in self.models or ["version=vmaf_v0.6.1"]:
            given = [p[5:] for p in m.split(":") if p.startswith("name=")]
            names.append(given[0] if given else "vmaf")
        return names


def _split_list(cell: str) -> list:
    return [x.strip() for x in cell.split(";") if x.strip()]


def _check_args(args: list, where: str) -> None:
    for a in args:
        opt = a.split("=", 1)[0]
        if opt in _RESERVED:
            raise BatchError(f"{where}: {opt} is set by the batch tool and cannot be given in args")


def read_pairs(path: str, models=(), features=(), extra_args=()) -> list:
    """The pairs of a CSV file. Relative paths are relative to the CSV's folder.
    `models`, `features` apply to rows whose own cells are empty; `extra_args`
    come before every row's `args`."""
    base = os.path.dirname(os.path.abspath(path))
    try:
        with open(path, "rb") as raw:
            data = raw.read()
    except OSError as e:
        raise BatchError(f"{path}: {e.strerror}") from e
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise BatchError(f"{path}:{line}: not UTF-8 text (a byte 0x{data[e.start]:02x}); "
                         "save the file as UTF-8") from None
    with io.StringIO(text, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            raise BatchError(f"{path}: empty file (a header line reference,distorted is needed)")
        header = [h.strip().lower() for h in header]
        unknown = [h for h in header if h not in COLUMNS]
        if unknown:
            raise BatchError(f"{path}: unknown column(s) {', '.join(unknown)} "
                             f"(the columns are {', '.join(COLUMNS)})")
        for needed in ("reference", "distorted"):
            if needed not in header:
                raise BatchError(f"{path}: no {needed!r} column in the header")
        if len(set(header)) != len(header):
            raise BatchError(f"{path}: a column is named twice in the header")
        rows = []
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(header):
                raise BatchError(f"{path}:{line}: {len(cells)} cells, the header has {len(header)}")
            row = dict(zip(header, (c.strip() for c in cells)))
            rows.append((line, row))

    pairs = []
    for line, row in rows:
        where = f"{path}:{line}"
        ref, dis = row.get("reference", ""), row.get("distorted", "")
        if not ref or not dis:
            raise BatchError(f"{where}: empty reference or distorted cell")
        model_cell = row.get("model", "")
        pair_models = _split_list(model_cell) if model_cell else list(models)
        if "none" in pair_models and pair_models != ["none"]:
            raise BatchError(f"{where}: model 'none' cannot be combined with other models")
        feature_cell = row.get("features", "")
        pair_features = _split_list(feature_cell) if feature_cell else list(features)
        if pair_models == ["none"] and not pair_features:
            raise BatchError(f"{where}: model 'none' needs at least one feature")
        try:
            args = list(extra_args) + shlex.split(row.get("args", ""))
        except ValueError as e:
            raise BatchError(f"{where}: args: {e}") from e
        _check_args(args, where)
        pairs.append(Pair(line, row.get("name", ""), os.path.join(base, ref), os.path.join(base, dis),
                          pair_models, pair_features, args))
    _name_pairs(pairs, path)
    return pairs


def _identity(p: Pair) -> str:
    text = json.dumps([p.reference, p.distorted, p.models, p.features, p.args])
    return hashlib.sha1(text.encode()).hexdigest()[:8]


def _name_pairs(pairs: list, path: str) -> None:
    """Names: the `name` cell, else the distorted file's name without its
    extension; names shared by several rows get their pair's hash appended."""
    explicit = {}
    for p in pairs:
        if not p.name:
            continue
        clean = _NAME_OK.sub("_", p.name).lstrip(".") or "_"
        if clean in explicit:
            raise BatchError(f"{path}:{p.line}: name {p.name!r} is also the name of line "
                             f"{explicit[clean].line}")
        explicit[clean] = p
        p.name = clean
    derived = [p for p in pairs if not p.name]
    stems = {}
    for p in derived:
        stem = _NAME_OK.sub("_", os.path.splitext(os.path.basename(p.distorted))[0]).lstrip(".") or "pair"
        stems.setdefault(stem, []).append(p)
    taken = set(explicit)
    for stem, group in stems.items():
        if len(group) == 1 and stem not in taken:
            group[0].name = stem
            continue
        for p in group:
            p.name = f"{stem}-{_identity(p)}"
    seen = {}
    for p in pairs:
        if p.name in seen:
            raise BatchError(f"{path}:{p.line}: the same pair as line {seen[p.name].line}; "
                             "give them distinct names in a name column")
        seen[p.name] = p


# --------------------------------------------------------------------------- the vmaf tool

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
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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


# --------------------------------------------------------------------------- workers

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


def _error_of(stderr: str, rc: int) -> str:
    from .batch_worker import tool_error
    return tool_error(stderr, rc)


_PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_WORKER_SCRIPT = ("import sys; sys.path.insert(0, sys.argv[1]); del sys.argv[1]; "
                  "from vmafvk.batch_worker import main; sys.exit(main(sys.argv[1:]))")


def _worker_env(cli: str) -> dict:
    env = dict(os.environ)
    if not env.get("VMAFVK_LIBRARY"):
        near = _library_near(cli)
        if near:
            env["VMAFVK_LIBRARY"] = near
    return env


def _describe_exit(rc: int) -> str:
    if rc is None:
        return "it stopped answering"
    if rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit status {rc}"


@dataclass
class _Flight:
    """A pair sent to a worker process, waiting for its reply."""
    id: int
    key: object
    args: list
    name: str
    out: str                   # where the worker writes its JSON (the slot's folder)
    t0: float
    deadline: float | None
    alone: bool                # scored again, alone, after its process was lost


class Worker:
    """A slot's long-lived scoring process (vmafvk.batch_worker), scoring up to
    slot.pairs pairs at once, a GPU worker on the one Vulkan device it keeps. A
    pair that kills it or runs past the timeout fails alone: the process is
    killed (with any tool process it started); the other pairs that were in
    flight are scored again one at a time on a new process, so that a pair that
    kills that one too fails then, and the innocent ones are scored; then the
    pairs go on as before."""

    def __init__(self, slot: Slot, cli: str, tool_only: bool = False, say=None):
        self.slot, self.cli, self.tool_only = slot, cli, tool_only
        self.at_once = max(slot.pairs, 1)
        self.say = say              # say(message): a notice for the user (pairs scored again)
        self.proc = None
        self.starts = 0
        self.notice = ""            # why this worker hands pairs to the tool, if it does
        self._buf = b""
        self._log = None
        self._tmp = tempfile.mkdtemp(prefix=f"vmafvk-batch-{slot.label}-")
        self._next = 0
        self._stop = threading.Event()
        self._started = {}          # pid: Vulkan devices, processes no result has reported yet
        self._peak = 0              # most pairs in flight so far

    def _start(self, deadline) -> None:
        cmd = [sys.executable, "-c", _WORKER_SCRIPT, _PKG_PARENT, "--kind", self.slot.kind,
               "--cli", self.cli, "--pairs", str(self.at_once), "--tmp", self._tmp,
               "--parent", str(os.getpid())]
        if self.slot.kind == "gpu":
            cmd += ["--device", str(self.slot.device)]
        if self.slot.threads is not None:
            cmd += ["--threads", str(self.slot.threads)]
        if self.slot.nice:
            cmd += ["--nice", str(self.slot.nice)]
        if self.tool_only:
            cmd.append("--tool-only")
        if self._log is not None:
            self._log.close()
        self._log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._log, env=_worker_env(self.cli),
                                     start_new_session=True, close_fds=True)
        self._buf = b""
        self.starts += 1
        self._started[self.proc.pid] = 0
        ready = self._reply(deadline)
        if ready is None or not ready.get("ready"):
            raise _WorkerLost(ready)
        self._started[self.proc.pid] = ready.get("devices", 0)
        if ready.get("via") == "tool" and ready.get("why") and not self.tool_only and not self.notice:
            self.notice = ready["why"]

    def _reply(self, deadline):
        """The next line of the worker as a dict; None at its end; _Timeout."""
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                raise _Timeout()
            poller = select.poll()  # not select(): descriptors may pass FD_SETSIZE
            poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
            if not poller.poll(None if wait is None else max(1, int(wait * 1000 + 0.999))):
                raise _Timeout()
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return {"ok": False, "error": f"the worker answered {line[:200]!r}"}

    def _stderr_tail(self) -> str:
        if self._log is None:
            return ""
        try:
            size = self._log.seek(0, os.SEEK_END)
            self._log.seek(max(0, size - (1 << 16)))  # ends at the end: the shared offset stays
            lines = [x.strip() for x in self._log.read().decode("utf-8", "replace").splitlines()
                     if x.strip()]
        except OSError:
            return ""
        return lines[-1] if lines else ""

    def kill(self) -> None:
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # its tool process too
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        for f in (proc.stdin, proc.stdout):
            try:
                f.close()
            except OSError:
                pass

    def abort(self) -> None:
        """From another thread: run() stops (without results for the pairs it has)
        and the process is killed."""
        self._stop.set()
        proc = self.proc
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def _lost(self, what: str) -> str:
        rc = None
        if self.proc is not None:
            try:
                rc = self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        tail = self._stderr_tail()
        self.kill()
        return f"the worker process died ({_describe_exit(rc)}){what}" + (f": {tail}" if tail else "")

    def score(self, pair_args: list, name: str, timeout) -> dict:
        """{"ok": True, "json": text} or {"ok": False, "error": why}, with "slot",
        "seconds" and the worker's counters: one pair, alone."""
        items, got = [(name, pair_args, name)], []
        self.run(lambda: items.pop() if items else None, timeout, lambda key, r: got.append(r))
        return got[0] if got else {"ok": False, "slot": self.slot.label, "error": "abandoned"}

    def run(self, take, timeout, emit) -> None:
        """Score the pairs take() gives, as (key, tool arguments, name), until it
        gives None, up to the slot's pairs at once, each with its own deadline;
        emit(key, result) once for each (result as score()'s), in the order they
        finish. After abort() it returns without results for the pairs in flight."""
        flights = {}                 # request id: _Flight
        again = collections.deque()  # (key, args, name): lost in flight with others, to run alone
        more = True
        while not self._stop.is_set():
            try:
                more = self._fill(take, more, again, flights, timeout, emit)
                if flights:
                    self._wait(flights, again, timeout, emit)
                elif not more and not again:
                    return
            except Exception as e:  # noqa: BLE001 -- the pairs it has fail, the others go on
                self.kill()
                why = f"{type(e).__name__}: {e}"
                for f in sorted(flights.values(), key=lambda f: f.id):
                    self._emit(f, {"error": why}, emit)
                flights.clear()
                while again:
                    key, _, _ = again.popleft()
                    emit(key, {"ok": False, "slot": self.slot.label, "error": why})
        self.kill()

    def _fill(self, take, more, again, flights, timeout, emit) -> bool:
        """Sends pairs while there is room: up to the slot's pairs at once, but a
        pair scored again goes alone. Returns whether take() may give more."""
        while not self._stop.is_set():
            if flights and (self.proc is None or self.proc.poll() is not None):
                break  # it ended with pairs in flight: _wait reads its last replies first
            if any(f.alone for f in flights.values()):
                break
            if again:
                if flights:
                    break
                key, args, name = again.popleft()
                alone = True
            else:
                if not more or len(flights) >= self.at_once:
                    break
                item = take()
                if item is None:
                    return False
                key, args, name = item
                alone = False
            self._send(key, args, name, alone, flights, timeout, emit)
        return more

    def _send(self, key, args, name, alone, flights, timeout, emit) -> None:
        t0 = time.monotonic()
        deadline = None if timeout is None else t0 + timeout
        self._next += 1
        f = _Flight(self._next, key, args, name, os.path.join(self._tmp, f"pair{self._next}.json"),
                    t0, deadline, alone)
        if not flights and (self.proc is None or self.proc.poll() is not None):
            # A new process; the pair's deadline covers its start.
            try:
                self.kill()
                if self._stop.is_set():
                    return None
                self._start(deadline)
            except _Timeout:
                self.kill()
                return self._emit(f, {"error": f"timed out after {timeout:g} s"}, emit)
            except _WorkerLost:
                return self._emit(f, {"error": self._lost(" while scoring this pair")}, emit)
            except OSError as e:
                self.kill()
                return self._emit(f, {"error": f"cannot run the worker: {e}"}, emit)
        if not flights:
            # The log holds what the worker says about the pairs in flight only (shared offset).
            self._log.seek(0)
            self._log.truncate()
        flights[f.id] = f
        self._peak = max(self._peak, len(flights))
        req = json.dumps({"id": f.id, "name": name, "args": args, "out": f.out})
        try:
            self.proc.stdin.write((req + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            pass  # it ended: _wait reads what it answered, then finds it lost

    def _wait(self, flights, again, timeout, emit) -> None:
        """The next reply, a pair past its deadline, or the process's end."""
        deadlines = [f.deadline for f in flights.values() if f.deadline is not None]
        try:
            reply = self._reply(min(deadlines) if deadlines else None)
        except _Timeout:
            if self._stop.is_set():
                return
            now = time.monotonic()
            late = ([f for f in flights.values() if f.deadline is not None and f.deadline <= now]
                    or [min(flights.values(), key=lambda f: f.deadline)])
            self.kill()
            for f in late:
                del flights[f.id]
                self._emit(f, {"error": f"timed out after {timeout:g} s"}, emit)
            if flights:
                names = ", ".join(f.name for f in late)
                self._again(flights, again, f"{names} timed out (its process was killed)")
            return
        if self._stop.is_set():
            return
        f = flights.pop(reply.get("id"), None) if isinstance(reply, dict) else None
        if f is not None:
            return self._emit(f, self._result(f, reply), emit)
        # The process ended, or wrote a line that answers no pair in flight.
        if reply is None:
            why = self._lost(" while scoring this pair" if len(flights) == 1 else "")
        else:
            self.kill()
            why = reply.get("error") if isinstance(reply, dict) and reply.get("error") else \
                f"the worker answered {str(reply)[:200]}"
        if len(flights) == 1:
            self._emit(flights.popitem()[1], {"error": why}, emit)
        else:
            self._again(flights, again, why)

    def _again(self, flights, again, why) -> None:
        """The pairs in flight on a process that was killed or died: each is scored
        again, alone, so that the one that kills a process fails alone."""
        lost = sorted(flights.values(), key=lambda f: f.id)
        flights.clear()
        for f in lost:
            _unlink(f.out)
            again.append((f.key, f.args, f.name))
        if self.say is not None:
            self.say(f"{self.slot.label}: {why}; scoring again, one at a time, the pair(s) "
                     f"that were in flight: {', '.join(f.name for f in lost)}")

    def _result(self, f: _Flight, reply: dict) -> dict:
        result = {k: reply[k] for k in ("via", "why", "pid", "devices", "pairs", "phases")
                  if k in reply}
        if reply.get("ok"):
            try:
                with open(f.out, encoding="utf-8") as fh:
                    text = fh.read()
                json.loads(text)
                result.update(ok=True, json=text)
            except (OSError, ValueError) as e:
                result["error"] = f"the worker scored the pair but its JSON is unreadable: {e}"
        else:
            result["error"] = reply.get("error", "failed")
        return result

    def _emit(self, f: _Flight, result: dict, emit) -> None:
        _unlink(f.out)
        r = {"ok": False, "slot": self.slot.label, **result,
             "seconds": time.monotonic() - f.t0, "at_once": self._peak}
        if f.alone:
            r["again"] = True
        if self._started:  # every process started is counted once, answered or not
            r["processes"], self._started = self._started, {}
        emit(f.key, r)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                # Said before the end of its input: without it, that end is this
                # process's death, and the worker removes self._tmp and exits.
                self.proc.stdin.write(b'{"close": true}\n')
                self.proc.stdin.flush()
                self.proc.stdin.close()
                self.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        if self._log is not None:
            self._log.close()
        shutil.rmtree(self._tmp, ignore_errors=True)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class _Timeout(Exception):
    pass


class _WorkerLost(Exception):
    pass


def run_local(todo: list, slots: list, cli: str, timeout, on_result, tool_only: bool = False,
              notice=None) -> dict:
    """Score `todo` with one long-lived worker process per slot, each scoring its
    slot's pairs at once from a shared queue; on_result(pair, result) is called
    on this thread, in completion order, once per pair. Returns {slot label:
    Worker}, closed."""
    work = queue.Queue()
    for p in todo:
        work.put(p)
    done = queue.Queue()
    workers = {s.label: Worker(s, cli, tool_only, notice) for s in slots}

    def run(slot):
        w = workers[slot.label]
        told = []

        def take():
            try:
                p = work.get_nowait()
            except queue.Empty:
                return None
            return p, p.cli_args(), p.name

        def emit(p, r):
            if w.notice and not told and notice is not None:
                notice(f"{slot.label}: pairs go to the vmaf tool, one process each: {w.notice}")
                told.append(True)
            elif (r.get("via") == "tool" and r.get("why", "").startswith("failed in process")
                  and not told and notice is not None):
                # A pair the worker should have scored: say so once per worker.
                notice(f"{slot.label}: {p.name} went to the vmaf tool: {r['why']}")
                told.append(True)
            done.put((p, r))

        w.run(take, timeout, emit)

    threads = [threading.Thread(target=run, args=(s,), daemon=True, name=f"vmafvk-{s.label}")
               for s in slots]
    for t in threads:
        t.start()
    finished = False
    try:
        for _ in range(len(todo)):
            on_result(*done.get())
        finished = True
    finally:
        while True:  # what is left is not taken any more
            try:
                work.get_nowait()
            except queue.Empty:
                break
        if not finished:  # interrupted: the pairs being scored are abandoned
            for w in workers.values():
                w.abort()
        for t in threads:
            t.join()
        for w in workers.values():
            w.close()
    return workers


# --------------------------------------------------------------------------- Dask

class _SlotPool:
    """A Dask worker process's slots; tasks take a free one, GPUs first."""

    def __init__(self, slots: list, cli: str | None, why: str, notices: list):
        self.slots, self.cli, self.why, self.notices = slots, cli, why, notices
        self._free = list(slots)
        self._cond = threading.Condition()
        self._workers = {}

    def worker(self, slot: Slot, tool_only: bool) -> "Worker":
        """The slot's long-lived scoring process, kept for the Dask worker's life."""
        with self._cond:
            w = self._workers.get(slot.label)
            if w is None:
                w = self._workers[slot.label] = Worker(slot, self.cli, tool_only)
                if len(self._workers) == 1:
                    import atexit
                    atexit.register(self.close)
            return w

    def close(self) -> None:
        for w in list(self._workers.values()):
            w.close()

    def acquire(self) -> Slot:
        with self._cond:
            while not self._free:
                self._cond.wait()
            self._free.sort(key=lambda s: (s.kind != "gpu", s.number))
            return self._free.pop(0)

    def release(self, slot: Slot) -> None:
        with self._cond:
            self._free.append(slot)
            self._cond.notify()


_worker_pool = None
_worker_pool_lock = threading.Lock()


def _pool_for_worker(options: dict) -> _SlotPool:
    """Built once per worker process, from what that machine has."""
    global _worker_pool
    with _worker_pool_lock:
        if _worker_pool is None:
            nthreads = None
            try:
                from distributed import get_worker
                nthreads = getattr(get_worker(), "nthreads", None)
            except (ImportError, ValueError):
                pass
            nthreads = nthreads or cores()
            try:
                given = options.get("vmaf")
                cli = find_cli(given if given and _cli_ok(given) else None)
                devices, _ = list_devices(cli)
                gpus, notices = select_gpus(devices, options.get("gpus", "auto"))
                gpus = gpus[:nthreads]
                n_cpu = options.get("cpu_workers")
                if n_cpu is None:
                    n_cpu = default_cpu_workers(len(gpus), nthreads)
                slots = make_slots(gpus, n_cpu, options.get("gpu_threads"), options.get("cpu_threads"))
                if not slots:
                    raise BatchError("no GPU and no CPU worker on this Dask worker")
                _worker_pool = _SlotPool(slots, cli, "", notices)
            except (BatchError, ValueError) as e:
                _worker_pool = _SlotPool([], None, str(e), [])
        return _worker_pool


def score_on_worker(pair_args: list, options: dict, name: str = "") -> dict:
    """A Dask task: score one pair on a free slot of this worker. Failures of
    the pair are returned (not raised), so that Dask does not retry them."""
    pool = _pool_for_worker(options)
    host = ""
    try:
        from distributed import get_worker
        host = get_worker().address
    except (ImportError, ValueError):
        pass
    if pool.cli is None:
        return {"ok": False, "slot": host, "error": f"worker {host}: {pool.why}"}
    slot = pool.acquire()
    try:
        r = pool.worker(slot, options.get("scorer") == "tool").score(pair_args, name,
                                                                     options.get("timeout"))
    finally:
        pool.release(slot)
    r["slot"] = f"{host} {slot.label}".strip()
    return r


def run_dask(address: str, todo: list, options: dict, on_result) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError as e:
        raise BatchError(f"--scheduler needs Dask's distributed package ({e})", EXIT_SETUP) from e
    try:
        client = Client(address, timeout=options.get("connect_timeout", 30))
    except (OSError, TimeoutError) as e:
        raise BatchError(f"cannot reach the Dask scheduler at {address}: {e}", EXIT_SETUP) from e
    # By reference (workers import vmafvk.batch), also when this file runs as __main__.
    from vmafvk.batch import score_on_worker as task
    try:
        run = _uuid.uuid4().hex[:8]
        futures = {}
        for p in todo:
            f = client.submit(task, p.cli_args(), options, p.name, key=f"vmafvk-{run}-{p.name}",
                              pure=False)
            futures[f] = p
        for f in as_completed(futures):
            p = futures[f]
            try:
                r = f.result()
            except Exception as e:  # noqa: BLE001 -- e.g. KilledWorker after allowed-failures
                r = {"ok": False, "slot": "", "error": f"{type(e).__name__}: {e}"}
            on_result(p, r)
            f.release()
    finally:
        client.close()


# --------------------------------------------------------------------------- results

def result_path(out_dir: str, p: Pair) -> str:
    return os.path.join(out_dir, p.name + ".json")


def load_result(path: str) -> dict | None:
    """A pair's scores, or None when the file is absent or not a whole document."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("frames"), list):
        return None
    return doc


def write_atomic(path: str, text: str) -> None:
    """Write through a temporary file in the same folder, renamed over `path`.
    The temporary name is short, whatever the length of `path`'s: a name the
    folder takes is not refused for the temporary's sake. OSError on failure
    (no file is left behind)."""
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".vmafvk-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _fmt(v) -> str:
    return repr(float(v)) if isinstance(v, (int, float)) else ""


def write_summary(out_dir: str, pairs: list, failures: dict) -> str:
    """results/summary.csv from every pair's JSON (so it is whole after a resume):
    name, status (ok, failed, not scored), reference, distorted, frames, the
    pooled mean of each score, error."""
    docs = {p.name: load_result(result_path(out_dir, p)) for p in pairs}
    models, metrics = [], []
    for p in pairs:
        for m in p.model_names():
            if m not in models:
                models.append(m)
        doc = docs[p.name]
        for k in (doc or {}).get("pooled_metrics", {}) or {}:
            if k not in metrics:
                metrics.append(k)
    columns = [m for m in models if m in metrics] + [m for m in metrics if m not in models]
    path = os.path.join(out_dir, "summary.csv")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["name", "status", "reference", "distorted", "frames", *columns, "error"])
    for p in pairs:
        doc = docs[p.name]
        if doc is not None:
            pooled = doc.get("pooled_metrics", {}) or {}
            means = [_fmt((pooled.get(c) or {}).get("mean")) for c in columns]
            w.writerow([p.name, "ok", p.reference, p.distorted, len(doc["frames"]), *means, ""])
        else:
            status = "failed" if p.name in failures else "not scored"
            w.writerow([p.name, status, p.reference, p.distorted, "", *[""] * len(columns),
                        failures.get(p.name, "")])
    write_atomic(path, buf.getvalue())
    return path


# --------------------------------------------------------------------------- command line

def _account(stats: dict, r: dict) -> None:
    """Per worker: its processes, Vulkan devices created, pairs in process or by
    the tool, pairs at once and scored again alone, and where the time went
    (each pair's own times: pairs scored at once overlap)."""
    st = stats.setdefault(r.get("slot", ""), {"pids": {}, "via": {}, "n": 0, "seconds": 0.0,
                                              "phases": {}, "at_once": 1, "again": 0})
    # Processes: those that answered, and every one started (a result reports it once).
    for pid, devices in [*(r.get("processes") or {}).items(),
                         *([(r["pid"], r.get("devices", 0))] if "pid" in r else [])]:
        st["pids"][pid] = max(st["pids"].get(pid, 0), devices)
    st["at_once"] = max(st["at_once"], r.get("at_once", 1))
    st["again"] += 1 if r.get("again") else 0
    if "via" in r:
        st["via"][r["via"]] = st["via"].get(r["via"], 0) + 1
    st["n"] += 1
    st["seconds"] += r.get("seconds", 0.0)
    if r.get("phases"):
        st["in_process"] = st.get("in_process", 0) + 1
    for k, v in (r.get("phases") or {}).items():
        st["phases"][k] = st["phases"].get(k, 0.0) + v


def _stats_lines(stats: dict) -> list:
    lines = []
    for label in sorted(stats):
        st = stats[label]
        if not st["pids"]:
            continue
        via = ", ".join(f"{n} {'in process' if k == 'bindings' else 'by the tool'}"
                        for k, n in sorted(st["via"].items()))
        devices = sum(st["pids"].values())
        phases = ", ".join(f"{k} {1000 * v / st['in_process']:.1f}" for k, v in st["phases"].items())
        at_once = f", up to {st['at_once']} pairs at once" if st["at_once"] > 1 else ""
        again = f", {st['again']} scored again alone" if st["again"] else ""
        lines.append(f"{label}: {st['n']} pairs ({via}) in {len(st['pids'])} process(es), "
                     f"{devices} Vulkan device(s) created{at_once}{again}; "
                     f"{1000 * st['seconds'] / st['n']:.1f} ms a pair"
                     + (f" (ms: {phases})" if phases else ""))
    return lines


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m vmafvk.batch",
        description="Score every reference/distorted pair of a CSV file with the vmaf tool: "
                    "one JSON per pair (libvmaf's layout) and a summary CSV.")
    p.add_argument("pairs", help="CSV file: reference,distorted[,name][,model][,features][,args]")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="folder for NAME.json and summary.csv (created if needed)")
    p.add_argument("--gpus", default="auto", metavar="auto|all|none|LIST",
                   help="Vulkan devices that get a worker: auto (every GPU, not CPU implementations "
                        "such as lavapipe), all, none, or a comma list of indices / UUID prefixes "
                        "(a device named twice gets two workers)")
    p.add_argument("--cpu-workers", default="auto", metavar="N|auto",
                   help="CPU workers (the CPU backend); auto: one per core beside the GPU "
                        "workers, at least one when there is no GPU")
    p.add_argument("--cpu-threads", type=_count, default=None, metavar="N",
                   help="frame threads of each CPU worker (the tool's --threads; default: its default)")
    p.add_argument("--gpu-threads", type=_count, default=None, metavar="N",
                   help="frame threads of each GPU worker (the tool's --threads; default: its default)")
    p.add_argument("--gpu-pairs", type=_count, default=None, metavar="N",
                   help=f"pairs each GPU worker scores at once, on threads of its process sharing "
                        f"its Vulkan device (default {DEFAULT_GPU_PAIRS}; 1: one after the other). "
                        "CPU workers and Dask slots score one pair at a time")
    p.add_argument("--cpu-nice", type=_count, default=DEFAULT_CPU_NICE, metavar="N",
                   help=f"beside GPU workers, CPU workers run at this much lower priority (nice, "
                        f"0 to 19; default {DEFAULT_CPU_NICE}), so that the threads feeding a GPU "
                        "are not kept waiting for a core")
    p.add_argument("-m", "--model", action="append", default=[], metavar="PARAMS",
                   help="model for rows without a model cell (repeatable; default: the tool's, "
                        "vmaf_v0.6.1)")
    p.add_argument("--feature", action="append", default=[], metavar="NAME[=OPTS]",
                   help="feature for rows without a features cell (repeatable)")
    p.add_argument("--args", dest="extra_args", default="", metavar="'OPTIONS'",
                   help="further vmaf options for every pair, before the row's args "
                        "(e.g. '--subsample 2')")
    p.add_argument("--scorer", choices=("bindings", "tool"), default="bindings",
                   help="bindings (default): each worker is one long-lived process scoring pair "
                        "after pair in process (a GPU worker on one Vulkan device), handing the "
                        "pairs it cannot score exactly as the tool to the vmaf tool; tool: one vmaf "
                        "process per pair")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="a pair taking longer fails (its vmaf process is killed)")
    p.add_argument("--vmaf", metavar="PATH",
                   help="the vmaf tool (default: $VMAFVK_CLI, the build of $VMAFVK_LIBRARY, PATH)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="score on this Dask cluster instead of local workers")
    p.add_argument("--list-devices", action="store_true",
                   help="list the Vulkan devices and the workers --gpus gives, then exit")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary line")
    return p


def _say(msg: str, bar=None) -> None:
    if bar is not None:
        bar.write(f"batch: {msg}", file=sys.stderr)
    else:
        print(f"batch: {msg}", file=sys.stderr, flush=True)


def _progress(total: int, quiet: bool):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    # disable=None: tqdm turns itself off when stderr is not a terminal.
    return tqdm(total=total, unit="pair", file=sys.stderr, disable=True if quiet else None,
                dynamic_ncols=True, smoothing=0.1)


def _is_decimal(text: str) -> bool:
    """ASCII digits only (str.isdigit() takes '³' and other digits int() refuses)."""
    return bool(re.fullmatch(r"[0-9]{1,9}", text))


def _count(text: str) -> int:
    """An argparse type: a whole number of ASCII digits (no sign, space or '_')."""
    if not _is_decimal(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (digits only)")
    return int(text)


def _parse_cpu_workers(text: str):
    if text == "auto":
        return None
    if not _is_decimal(text):
        raise BatchError(f"--cpu-workers {text}: a number or auto")
    return int(text)


class _Terminated(BaseException):
    """SIGTERM, raised on the main thread: ends the run as Ctrl-C does."""


def _on_sigterm(signum, frame):
    raise _Terminated()


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    # SIGTERM ends the run as SIGINT does: the workers (and the tool processes
    # they started) are killed, the results written so far stay and the summary
    # is written. A worker whose parent dies without that (SIGKILL) ends itself.
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread: the caller handles its signals
        previous = None
    try:
        return _main(args)
    except BatchError as e:
        print(f"batch: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("batch: interrupted; run again to score the rest", file=sys.stderr)
        return 130
    except _Terminated:
        print("batch: terminated (SIGTERM); run again to score the rest", file=sys.stderr)
        return 128 + signal.SIGTERM
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main(args) -> int:
    cpu_workers = _parse_cpu_workers(args.cpu_workers)
    for opt in ("cpu_threads", "gpu_threads"):
        if getattr(args, opt) is not None and getattr(args, opt) < 0:
            raise BatchError(f"--{opt.replace('_', '-')} must be 0 or more")
    if args.timeout is not None and args.timeout <= 0:
        raise BatchError("--timeout must be positive")
    if args.gpu_pairs is not None and args.gpu_pairs < 1:
        raise BatchError("--gpu-pairs must be 1 or more")
    gpu_pairs = DEFAULT_GPU_PAIRS if args.gpu_pairs is None else args.gpu_pairs
    if not 0 <= args.cpu_nice <= 19:
        raise BatchError("--cpu-nice must be 0 to 19")
    try:
        extra = shlex.split(args.extra_args)
    except ValueError as e:
        raise BatchError(f"--args: {e}") from e
    _check_args(extra, "--args")

    cli = None
    if not args.scheduler or args.list_devices:
        cli = find_cli(args.vmaf)
        version = cli_version(cli)

    gpus, slots = [], []
    if not args.scheduler:
        devices, why = (list_devices(cli) if args.gpus.strip().lower() != "none" or args.list_devices
                        else ([], ""))
        try:
            gpus, notices = select_gpus(devices, args.gpus)
        except ValueError as e:
            raise BatchError(str(e), EXIT_SETUP) from e
        if args.list_devices:
            for d in devices:
                n = sum(1 for g in gpus if g["index"] == d["index"])
                usable = "" if d["usable"] else ", not usable"
                print(f"{d['index']}: {d['name']} ({d['type']}{usable}) uuid {d.get('uuid') or '-'}"
                      f"  workers: {n}")
            if not devices:
                print(f"no Vulkan device ({why})")
            for n in notices:
                print(f"note: {n}")
            return 0
        n_cpu = cpu_workers if cpu_workers is not None else default_cpu_workers(len(gpus), cores(), gpu_pairs)
        slots = make_slots(gpus, n_cpu, args.gpu_threads, args.cpu_threads, gpu_pairs, args.cpu_nice)
        if not args.quiet:
            for n in notices:
                _say(n)
        if not gpus and args.gpus.strip().lower() in ("auto", "all") and not args.quiet:
            _say(f"no GPU worker ({why or 'no usable Vulkan GPU'}): CPU workers only")
        if not slots:
            raise BatchError("no worker: --gpus selects no device and --cpu-workers is 0", EXIT_SETUP)

    pairs = read_pairs(args.pairs, args.model, args.feature, extra)
    out_dir = args.output
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise BatchError(f"{out_dir}: {e.strerror}", EXIT_SETUP) from e
    todo = [p for p in pairs if load_result(result_path(out_dir, p)) is None]
    skipped = len(pairs) - len(todo)

    if not args.quiet:
        if args.scheduler:
            where = f"Dask scheduler {args.scheduler}"
            if gpu_pairs != 1 and args.gpu_pairs is not None:
                _say("--gpu-pairs is not used with --scheduler: a Dask slot scores one pair at a time")
        else:
            gpu_part = ", ".join(f"{s.label}=device {s.device} ({s.device_name}, {s.pairs} "
                                 f"pair{'s' if s.pairs > 1 else ''} at once)"
                                 for s in slots if s.kind == "gpu")
            n_cpu = sum(1 for s in slots if s.kind == "cpu")
            where = ", ".join(x for x in (gpu_part, f"{n_cpu} CPU worker(s)" if n_cpu else "") if x)
            where += f"; {cli} {version}"
        _say(f"{len(pairs)} pairs, {skipped} already scored, {len(todo)} to score on {where}")

    failures = {}
    counts = {"ok": 0, "failed": 0}
    by_slot = {}
    stats = {}
    bar = _progress(len(todo), args.quiet) if todo else None

    def on_result(p: Pair, r: dict) -> None:
        _account(stats, r)
        if r.get("ok"):
            # A result that cannot be written (a name too long for the folder, a
            # full disk) fails its pair alone; the run goes on.
            path = result_path(out_dir, p)
            try:
                write_atomic(path, r["json"])
            except OSError as e:
                r = {**r, "ok": False, "error": f"scored, but {path} cannot be written: "
                                                f"{e.strerror or e}"}
        if r.get("ok"):
            counts["ok"] += 1
            by_slot[r.get("slot", "")] = by_slot.get(r.get("slot", ""), 0) + 1
        else:
            failures[p.name] = r.get("error", "failed")
            counts["failed"] += 1
            where = f" ({r['slot']})" if r.get("slot") else ""
            _say(f"{p.name} (line {p.line}) failed{where}: {failures[p.name]}", bar)
        if bar is not None:
            bar.update(1)

    t0 = time.monotonic()
    try:
        if todo:
            if args.scheduler:
                options = {"gpus": args.gpus, "cpu_workers": cpu_workers, "cpu_threads": args.cpu_threads,
                           "gpu_threads": args.gpu_threads, "timeout": args.timeout,
                           "vmaf": os.path.abspath(args.vmaf) if args.vmaf else None,
                           "scorer": args.scorer}
                run_dask(args.scheduler, todo, options, on_result)
            else:
                run_local(todo, slots, cli, args.timeout, on_result, args.scorer == "tool",
                          None if args.quiet else (lambda m: _say(m, bar)))
    finally:
        if bar is not None:
            bar.close()
        seconds = time.monotonic() - t0
        try:
            summary = write_summary(out_dir, pairs, failures)
        except OSError as e:
            summary = None
            _say(f"{os.path.join(out_dir, 'summary.csv')} cannot be written: {e.strerror or e}; "
                 "run again to write it (scored pairs are not scored again)")
    if summary is None:
        return EXIT_FAILED
    if not args.quiet:
        for line in _stats_lines(stats):
            _say(line)
        rate = counts["ok"] / seconds if seconds > 0 and counts["ok"] else 0.0
        per = ", ".join(f"{k} {v}" for k, v in sorted(by_slot.items()))
        _say(f"{counts['ok']} scored, {counts['failed']} failed, {skipped} already scored; "
             f"{seconds:.2f} s, {rate:.2f} pairs/s" + (f" (scored by {per})" if per else "")
             + f"; {summary}")
    missing = sum(1 for p in pairs if load_result(result_path(out_dir, p)) is None)
    return EXIT_FAILED if missing else 0


def main_exit() -> None:
    sys.exit(main())


if __name__ == "__main__":
    main_exit()
