# SPDX-License-Identifier: BSD-2-Clause-Patent
"""A long-lived scoring process of vmafvk.batch: one per GPU or CPU worker.

It scores pair after pair through the bindings in its own process, keeping
one Vulkan device (a VmafVulkanState) for all of them when it is a GPU
worker, so a pair costs neither a process start nor a device creation. A pair
it cannot score exactly as the `vmaf` tool would (an input that is not .y4m,
an option it does not know) is handed to the tool, and so is a pair that
fails in process, so that its error is the tool's own message. The
result is the tool's JSON document either way: the same library writes it
with vmaf_write_output.

The parent (vmafvk.batch) starts it, sends one request per line on standard
input and reads one reply per line (JSON objects):

    request  {"id": N, "name": NAME, "args": [vmaf tool arguments of the pair], "out": PATH}
    reply    {"id": N, "ok": true|false, "error": WHY, "via": "bindings"|"tool",
              "pid": PID, "devices": DEVICES CREATED SO FAR, "pairs": PAIRS SO FAR,
              "seconds": S, "phases": {...}}

A request {"close": true} ends it as the end of its input does.

The first line it writes is {"ready": true|false, ...}: a GPU worker creates
its device before it. With --pairs N it scores up to N requests at once, each
on a thread of its own with its own context (a GPU worker's contexts all
import its one device); replies then come in the order pairs finish, each
line written whole, and the parent matches them by id. It exits at the end of
its input, once the pairs it has are answered. The parent enforces timeouts
and restarts a worker that dies, so that a pair which crashes or hangs the
process costs only that pair (the parent runs the other pairs that were in
flight again, one at a time).

When the parent is gone (killed, even with SIGKILL, so that it could not end
its workers itself), the worker notices within a fraction of a second (its
parent process changes, polled on a thread of its own): it kills the tool
processes it started, removes the parent's folder for its results (--tmp)
and exits at once, without finishing or answering the pairs it has, so that
nothing holds a device or waits for a pair that hangs.

VMAFVK_BATCH_FAULT (tests only): "NAME=crash,NAME2=hang,NAME3=exit,NAME4=raise"
makes the worker abort, hang or exit when it is given pair NAME, or fail in
process after its first frame; "@cpu=sleep:S" (or "@gpu=...") makes a worker of
that kind wait S seconds before each pair, as a much slower worker would.

A request {"cancel": ID} (another worker's result for that pair was written
first) stops pair ID: it stops between frames (or its wait), its output is
removed and it is answered {"id": ID, "ok": false, "cancelled": true}. A pair the
tool is running finishes and is answered as usual (the batch drops it).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

__all__ = ["PairJob", "parse_pair_args", "main"]

# Options of the tool this worker reproduces in process: name -> takes a value.
_OPTIONS = {
    "-r": True, "--reference": True, "-d": True, "--distorted": True,
    "-m": True, "--model": True, "--feature": True, "-n": False, "--no_prediction": False,
    "--subsample": True, "--frame_cnt": True, "--frame_skip_ref": True, "--frame_skip_dist": True,
}


class PairJob:
    """What the tool would do with a pair's arguments, for the cases scored in process."""

    def __init__(self):
        self.ref = self.dist = None
        self.models = []      # dicts: version|path, name, disable_clip, enable_transform, overloads
        self.features = []    # (name, {option: value})
        self.no_prediction = False
        self.subsample = 1
        self.frame_cnt = 0
        self.skip_ref = self.skip_dist = 0


def _number(text: str, top: int):
    # The tool's parse_number: decimal or 0x hex, no sign, within [0, top].
    if not text or text[0] in "-+ ":
        return None
    try:
        v = int(text, 16) if text.lower().startswith("0x") else int(text, 10)
    except ValueError:
        return None
    return v if 0 <= v <= top else None


def _items(text: str) -> list:
    return [x for x in text.split(":") if x]


def _model(text: str):
    m = {"name": "vmaf", "disable_clip": False, "enable_transform": False, "overloads": {}}
    for item in _items(text):
        key, eq, val = item.partition("=")
        if not eq:
            val = "true"
        if key in ("path", "version") and eq:
            m[key] = val
        elif key == "name" and eq:
            m["name"] = val
        elif key in ("disable_clip", "enable_transform"):
            if val not in ("true", "1", "false", "0"):
                return None
            m[key] = val in ("true", "1")
        elif eq and 0 < key.find(".") < len(key) - 1:
            feature, _, opt = key.partition(".")
            if feature in m["overloads"]:
                return None  # several overloads of one feature: the tool's order of calls
            m["overloads"][feature] = {opt: val}
        else:
            return None
    if ("path" in m) == ("version" in m) or not m["name"]:
        return None
    return m


def _feature(text: str):
    name, eq, rest = text.partition("=")
    if not name:
        return None
    opts = {}
    if eq:
        for item in _items(rest):
            k, e, v = item.partition("=")
            if not e or not k or k in opts:
                return None
            opts[k] = v
    return name, opts


def parse_pair_args(args: list):
    """(PairJob, "") when the worker scores these tool arguments exactly as the
    tool would, else (None, why not): then the tool scores the pair."""
    job = PairJob()
    i = 0
    while i < len(args):
        a = args[i]
        opt, eq, inline = a.partition("=") if a.startswith("--") else (a, "", "")
        if opt not in _OPTIONS:
            return None, f"option {a}"
        if _OPTIONS[opt]:
            if eq:
                val = inline
            elif i + 1 < len(args):
                i += 1
                val = args[i]
            else:
                return None, f"{a} without a value"
        elif eq:
            return None, f"option {a}"
        if opt in ("-r", "--reference"):
            job.ref = val
        elif opt in ("-d", "--distorted"):
            job.dist = val
        elif opt in ("-m", "--model"):
            m = _model(val)
            if m is None:
                return None, f"model {val}"
            job.models.append(m)
        elif opt == "--feature":
            f = _feature(val)
            if f is None:
                return None, f"feature {val}"
            job.features.append(f)
        elif opt in ("-n", "--no_prediction"):
            job.no_prediction = True
        else:
            top = (1 << 20) if opt == "--subsample" else 0xFFFFFFFF
            v = _number(val, top)
            if v is None:
                return None, f"{opt} {val}"
            setattr(job, {"--subsample": "subsample", "--frame_cnt": "frame_cnt",
                          "--frame_skip_ref": "skip_ref", "--frame_skip_dist": "skip_dist"}[opt], v)
        i += 1
    if not job.ref or not job.dist:
        return None, "no reference or distorted"
    for p in (job.ref, job.dist):
        if not p.endswith(".y4m"):
            return None, f"{p} is not .y4m"
    if job.no_prediction and not job.features:
        return None, "-n without a feature"
    if not job.models and not job.no_prediction:
        job.models.append({"version": "vmaf_v0.6.1", "name": "vmaf", "disable_clip": False,
                           "enable_transform": False, "overloads": {}})
    names = [m["name"] for m in job.models]
    if len(set(names)) != len(names):
        return None, "two models of one name"
    return job, ""


class _Fallback(Exception):
    """The pair goes to the tool (before anything was scored in process)."""


class _Cancelled(Exception):
    """The batch needs this pair's result no more (cancel)."""


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class Scorer:
    """Scores requests, from several threads at once; holds the Vulkan device of a
    GPU worker, which the contexts of the pairs being scored share."""

    def __init__(self, kind: str, device, threads, cli: str):
        self.kind, self.device_index, self.threads, self.cli = kind, device, threads, cli
        self.devices = 0
        self.pairs = 0
        self.device = None
        self._lock = threading.Lock()  # the counters and the device
        self._users = {}               # device -> contexts of pairs using it
        self.why_tool = ""
        self._cancels = {}             # request id -> Event, set by cancel()
        self.faults = {}
        for item in filter(None, os.environ.get("VMAFVK_BATCH_FAULT", "").split(",")):
            name, _, what = item.partition("=")
            self.faults[name] = what
        try:
            import numpy  # noqa: F401
            from . import _lib
            from .context import Context
            from .y4m import Y4MReader
            self._lib = _lib
            self.Context, self.Y4MReader = Context, Y4MReader
            _lib.load_library()
        except (ImportError, OSError) as e:
            self.why_tool = f"the bindings cannot score here ({e})"

    def expect(self, rid) -> None:
        """Request `rid` was read: cancel(rid) may name it from now on."""
        with self._lock:
            self._cancels[rid] = threading.Event()

    def forget(self, rid) -> None:
        with self._lock:
            self._cancels.pop(rid, None)

    def cancel(self, rid) -> None:
        with self._lock:
            ev = self._cancels.get(rid)
        if ev is not None:
            ev.set()

    def open_device(self) -> None:
        """A GPU worker's device, made once (again only after a failed pair)."""
        with self._lock:
            self._open_device()

    def _open_device(self) -> None:
        if self.kind != "gpu" or self.why_tool or self.device is not None:
            return
        from .vulkan import VulkanDevice
        self.device = VulkanDevice(self.device_index)
        self.devices += 1

    def take_device(self):
        """The device for a pair's context (None for a CPU worker), counted as
        used until give_device()."""
        with self._lock:
            self._open_device()
            dev = self.device
            if dev is not None:
                self._users[dev] = self._users.get(dev, 0) + 1
            return dev

    def give_device(self, dev, failed: bool) -> None:
        """A pair is done with `dev`. After a failure the device may be what
        failed: pairs that start later get a new one, and this one is closed
        when the last pair using it is done."""
        if dev is None:
            return
        with self._lock:
            self._users[dev] -= 1
            if failed and self.device is dev:
                self.device = None
            retired = self.device is not dev and not self._users[dev]
            if retired:
                del self._users[dev]
        if retired:
            _close_quietly(dev)

    def drop_device(self) -> None:
        with self._lock:
            dev, self.device = self.device, None
            busy = dev is not None and self._users.get(dev)
        if dev is not None and not busy:
            _close_quietly(dev)

    # -- the tool ------------------------------------------------------------

    def run_tool(self, args: list, out: str) -> dict:
        backend = (["--backend", "vulkan", "--vulkan_device", str(self.device_index)]
                   if self.kind == "gpu" else ["--backend", "cpu"])
        if self.threads is not None:
            backend += ["--threads", str(self.threads)]
        cmd = [self.cli, *args, *backend, "-q", "--json", "-o", out]
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True, errors="replace")
        except OSError as e:
            return {"ok": False, "error": f"cannot run {self.cli}: {e.strerror}"}
        with _TOOLS_LOCK:
            _TOOLS.add(proc)
        try:
            _, stderr = proc.communicate()
        finally:
            with _TOOLS_LOCK:
                _TOOLS.discard(proc)
        if proc.returncode != 0:
            return {"ok": False, "error": tool_error(stderr, proc.returncode)}
        return {"ok": True}

    # -- in process ----------------------------------------------------------

    def _open_inputs(self, job: PairJob):
        try:
            ref, dist = self.Y4MReader(job.ref), self.Y4MReader(job.dist)
        except (OSError, ValueError) as e:
            raise _Fallback(str(e)) from None
        for attr in ("width", "height", "layout", "bpc"):
            if getattr(ref, attr) != getattr(dist, attr):
                raise _Fallback(f"inputs differ in {attr}")
        n = min(len(ref) - job.skip_ref, len(dist) - job.skip_dist)
        if job.frame_cnt:
            n = min(n, job.frame_cnt)
        if n <= 0:
            raise _Fallback("no frames")
        return ref, dist, n

    def score_in_process(self, job: PairJob, out: str, phases: dict, device=None,
                         fault=None, cancelled=None) -> None:
        t = time.monotonic()
        ref, dist, n = self._open_inputs(job)
        lib = self._lib
        try:
            if self.kind == "gpu":
                ctx = self.Context("vulkan", threads=self.threads or 0, subsample=job.subsample,
                                   device=device, log_level="warning")
            else:
                ctx = self.Context("cpu", threads=self.threads or 0, subsample=job.subsample,
                                   log_level="warning")
        except (lib.VmafError, ValueError) as e:
            raise _Fallback(str(e)) from None
        with ctx:
            # Set-up in the tool's order: models, then features.
            models = []
            try:
                for m in job.models:
                    source = {"version": m["version"]} if "version" in m else {"path": m["path"]}
                    if "path" in source and not os.path.isfile(source["path"]):
                        raise _Fallback("model file")
                    models.append(ctx.use_model(name=m["name"], disable_clip=m["disable_clip"],
                                                enable_transform=m["enable_transform"],
                                                feature_options=m["overloads"] or None, **source))
                for name, opts in job.features:
                    ctx.use_feature(name, **opts)
            except (lib.VmafError, ValueError, TypeError) as e:
                raise _Fallback(str(e)) from None
            phases["setup"] = time.monotonic() - t
            t = time.monotonic()
            bpc = ref.bpc if ref.bpc > 8 else None
            for i in range(n):
                if cancelled is not None and cancelled.is_set():
                    raise _Cancelled()
                ctx.feed(ref[job.skip_ref + i], dist[job.skip_dist + i], bpc=bpc)
                if fault == "raise":
                    raise RuntimeError("VMAFVK_BATCH_FAULT: an error after the first frame")
            lib_ = ctx._lib
            lib_.call("vmaf_read_pictures", ctx._handle, None, None, 0)
            ctx._flushed = True
            phases["frames"] = time.monotonic() - t
            t = time.monotonic()
            # What the tool's report does, model by model: the pooled mean (which
            # computes the per-frame scores), and a collection's bootstrap scores.
            mean = lib.POOL_METHODS["mean"]
            for model in models:
                score = ctypes.c_double()
                lib_.call("vmaf_score_pooled", ctx._handle, model._handle, mean,
                          ctypes.byref(score), 0, n - 1)
                if model._collection:
                    s = lib.VmafModelCollectionScore()
                    lib_.call("vmaf_score_pooled_model_collection", ctx._handle, model._collection,
                              mean, ctypes.byref(s), 0, n - 1)
            ctx.write(out, "json")
            phases["output"] = time.monotonic() - t

    def handle(self, req: dict) -> dict:
        t0 = time.monotonic()
        name, args, out = req.get("name", ""), req["args"], req["out"]
        with self._lock:
            cancelled = self._cancels.get(req.get("id"))
        fault = self.faults.get(name)
        slow = self.faults.get("@" + self.kind, "")
        if slow.startswith("sleep:"):
            (cancelled or threading.Event()).wait(float(slow[6:]))
        if cancelled is not None and cancelled.is_set():  # before it started
            return {"id": req.get("id"), "ok": False, "cancelled": True, "pid": os.getpid()}
        if fault == "crash":
            os.abort()
        elif fault == "exit":
            os._exit(3)
        elif fault == "hang":
            while True:
                time.sleep(3600)
        with self._lock:
            self.pairs += 1
        phases = {}
        reply = {"via": "bindings"}
        job, why = (None, self.why_tool) if self.why_tool else parse_pair_args(args)
        device = None
        if job is not None:
            try:
                device = self.take_device()
            except Exception as e:  # noqa: BLE001 -- the tool says why, in its words
                job, why = None, f"cannot create the Vulkan device: {e}"
        if job is not None:
            failed = False
            try:
                self.score_in_process(job, out, phases, device, fault, cancelled)
                reply["ok"] = True
            except _Cancelled:
                _remove(out)
                return {"id": req.get("id"), "ok": False, "cancelled": True, "pid": os.getpid()}
            except _Fallback as e:
                job, why = None, f"set-up failed in process: {e}"
            except Exception as e:  # noqa: BLE001 -- the tool scores it, or says why not
                job, why = None, f"failed in process: {type(e).__name__}: {e}"
                # The device may be what failed: the next pairs get a new one.
                failed = True
            finally:
                self.give_device(device, failed)
        if job is None:
            reply = {"via": "tool", "why": why, **self.run_tool(args, out)}
        with self._lock:
            counters = {"devices": self.devices, "pairs": self.pairs}
        reply.update(id=req.get("id"), pid=os.getpid(), **counters,
                     seconds=time.monotonic() - t0, phases=phases)
        return reply


def _close_quietly(dev) -> None:
    try:
        dev.close()
    except Exception:  # noqa: BLE001 -- a context still holds it: leave it
        pass


def tool_error(stderr: str, rc: int) -> str:
    """The tool's failure as one line: its last `vmaf:` message (else its last line)."""
    lines = [x.strip() for x in stderr.splitlines() if x.strip()]
    tool = [x for x in lines if x.startswith("vmaf:")]
    msg = (tool or lines or [""])[-1]
    if rc < 0:
        try:
            what = f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            what = f"killed by signal {-rc}"
        return f"{what}: {msg}" if msg else what
    return f"exit status {rc}: {msg}" if msg else f"exit status {rc}"


# The tool processes running now, killed when the parent is gone.
_TOOLS = set()
_TOOLS_LOCK = threading.Lock()
# Set when the parent is gone: nothing more is answered (a reply would fail on
# the closed pipe and end the process before its clean-up).
_ORPHANED = threading.Event()


def _orphaned(tmp) -> None:
    """The parent is gone: end the tool processes, remove its folder, exit now."""
    _ORPHANED.set()
    with _TOOLS_LOCK:
        tools = list(_TOOLS)
    for proc in tools:
        try:
            proc.kill()
        except OSError:
            pass
    for proc in tools:
        try:
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    os._exit(EXIT_ORPHANED)


def watch_parent(tmp, parent=None, interval: float = 0.2) -> threading.Thread:
    """A thread that calls _orphaned() once this process's parent is not
    `parent` (default: the parent now): the parent died and the process was
    adopted by another."""
    parent = os.getppid() if parent is None else parent

    def watch():
        while True:
            if os.getppid() != parent:
                _orphaned(tmp)
            time.sleep(interval)

    t = threading.Thread(target=watch, name="parent-watch", daemon=True)
    t.start()
    return t


EXIT_ORPHANED = 4


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m vmafvk.batch_worker")
    p.add_argument("--kind", choices=("gpu", "cpu"), required=True)
    p.add_argument("--device", type=int, default=None)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--pairs", type=int, default=1, help="pairs scored at once (threads)")
    p.add_argument("--cli", required=True)
    p.add_argument("--tool-only", action="store_true")
    p.add_argument("--nice", type=int, default=0, help="lower this process's priority (before any thread)")
    p.add_argument("--tmp", default=None, help="the parent's folder for results, removed if the parent dies")
    p.add_argument("--parent", type=int, default=None, help="the parent's process id (default: the parent now)")
    a = p.parse_args(argv)
    parent = os.getppid() if a.parent is None else a.parent
    watch_parent(a.tmp, parent)
    if a.nice:
        os.nice(a.nice)
    at_once = max(a.pairs, 1)
    if at_once > 1:
        # The bindings put each library call's stderr into the error they raise by
        # pointing file descriptor 2 at a file, under one lock for the process: that
        # would run the pairs' library calls (where a GPU pair waits) one at a time.
        # Without it the library's messages go straight to stderr (the parent's log).
        os.environ["VMAFVK_CAPTURE_STDERR"] = "0"
    # Replies go to the parent on the original standard output; anything else
    # written to file descriptor 1 (the library, a stray print) goes to stderr.
    reply_fd = os.dup(1)
    os.dup2(2, 1)
    replies = os.fdopen(reply_fd, "w", buffering=1, encoding="utf-8")
    sys.stdout = sys.stderr
    send_lock = threading.Lock()

    def send(obj):
        if _ORPHANED.is_set():
            threading.Event().wait()  # the process is ending
        line = json.dumps(obj) + "\n"
        with send_lock:  # one whole line per reply, whichever thread sends it
            replies.write(line)
            replies.flush()

    scorer = Scorer(a.kind, a.device, a.threads, a.cli)
    if a.tool_only:
        scorer.why_tool = "--scorer tool"
    ready = {"ready": True, "pid": os.getpid(), "via": "tool" if scorer.why_tool else "bindings",
             "why": scorer.why_tool}
    try:
        scorer.open_device()
    except Exception as e:  # noqa: BLE001 -- pairs go to the tool, which says why in its words
        ready.update(via="tool", why=f"cannot create the Vulkan device {a.device}: {e}")
    ready["devices"] = scorer.devices
    send(ready)

    def serve(req):
        try:
            reply = scorer.handle(req)
        except Exception as e:  # noqa: BLE001 -- a bad request: its pair fails, the others go on
            reply = {"id": req.get("id"), "ok": False, "pid": os.getpid(),
                     "error": f"the worker failed: {type(e).__name__}: {e}"}
        finally:
            scorer.forget(req.get("id"))
        send(reply)

    closed = False

    def requests():
        nonlocal closed
        for line in sys.stdin:
            if line.strip():
                req = json.loads(line)
                if req.get("close"):
                    closed = True
                    return
                if "cancel" in req:
                    scorer.cancel(req["cancel"])
                    continue
                scorer.expect(req.get("id"))
                yield req

    if at_once == 1:
        for req in requests():
            serve(req)
    else:
        with ThreadPoolExecutor(max_workers=at_once, thread_name_prefix="pair") as pool:
            for req in requests():
                pool.submit(serve, req)
    # The batch says {"close": true} before it closes the input: an end without
    # it is the parent's death (seen here before the parent has changed).
    if a.tmp and not closed:
        _orphaned(a.tmp)
    scorer.drop_device()
    return 0


if __name__ == "__main__":
    sys.exit(main())
