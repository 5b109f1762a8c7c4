# SPDX-License-Identifier: BSD-2-Clause-Patent
"""A worker: the batch's side of a long-lived scoring process (vmafvk.batch_worker)
and the exchange with it, a line of JSON per request and per reply."""

from __future__ import annotations

import collections
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

from .devices import Slot, _library_near

def _error_of(stderr: str, rc: int) -> str:
    from ..batch_worker import tool_error
    return tool_error(stderr, rc)


# The folder that holds the vmafvk package (python/ or site-packages/).
_PKG_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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
    cancelled: bool = False    # another worker's copy was written first: its reply is dropped


# take() gives this when it has no pair now but may have one later (a pair to
# score again beside a slower worker): the worker waits for wake().
WAIT = object()
_WOKEN = object()


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
        self._waiting = False       # take() said WAIT: wait for wake() or a reply
        self._cancels = set()       # keys to drop (cancel()), from other threads
        self._cancel_lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)

    def wake(self) -> None:
        """From another thread: run() asks take() again (it may have a pair now)."""
        try:
            os.write(self._wake_w, b"w")
        except OSError:  # full (a wake is pending anyway) or closed
            pass

    def cancel(self, key) -> None:
        """From another thread: the pair `key` needs no result from this worker any
        more (another worker's was written). If it is in flight here, it is
        dropped: a process scoring one pair at a time is killed (with any tool
        process it started), one scoring several is told to stop that pair; its
        temporary output is removed and nothing is emitted for it."""
        with self._cancel_lock:
            self._cancels.add(key)
        self.wake()

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_r, 4096):
                pass
        except (BlockingIOError, OSError):
            pass

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

    def _reply(self, deadline, wake: bool = False):
        """The next line of the worker as a dict; None at its end; _Timeout; with
        `wake`, _WOKEN when wake() was called first."""
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                raise _Timeout()
            poller = select.poll()  # not select(): descriptors may pass FD_SETSIZE
            poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
            if wake:
                poller.register(self._wake_r, select.POLLIN)
            events = dict(poller.poll(None if wait is None else max(1, int(wait * 1000 + 0.999))))
            if not events:
                raise _Timeout()
            if fd not in events:
                self._drain_wake()
                return _WOKEN
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
        self.wake()
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
                self._drop_cancelled(flights)
                if flights:
                    self._wait(flights, again, timeout, emit)
                elif not more and not again:
                    return
                elif self._waiting:
                    self._idle()
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
        self._waiting = False
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
                if item is WAIT:
                    self._waiting = True
                    break
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

    def _idle(self) -> None:
        """No pair in flight, none to take now: wait for wake()."""
        poller = select.poll()
        poller.register(self._wake_r, select.POLLIN)
        poller.poll()
        self._drain_wake()

    def _drop_cancelled(self, flights) -> None:
        """The pairs cancel() named: a process with nothing else in flight, or one
        that reads its requests one at a time, is killed; else it is told to drop
        them, and their replies are not emitted."""
        with self._cancel_lock:
            keys, self._cancels = self._cancels, set()
        hit = [f for f in flights.values() if f.key in keys and not f.cancelled]
        if not hit:
            return
        hit_ids = {f.id for f in hit}
        if self.at_once == 1 or all(f.cancelled or f.id in hit_ids for f in flights.values()):
            self.kill()
            for f in list(flights.values()):
                _unlink(f.out)
            flights.clear()
            return
        for f in hit:
            f.cancelled = True
            try:
                self.proc.stdin.write((json.dumps({"cancel": f.id}) + "\n").encode())
                self.proc.stdin.flush()
            except OSError:
                pass  # it ended: _wait finds it lost

    def _wait(self, flights, again, timeout, emit) -> None:
        """The next reply, a pair past its deadline, the process's end, or wake()."""
        deadlines = [f.deadline for f in flights.values() if f.deadline is not None]
        try:
            reply = self._reply(min(deadlines) if deadlines else None, wake=True)
            if reply is _WOKEN:
                return
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
        lost = [f for f in lost if not f.cancelled]  # another worker's copy was written
        for f in lost:
            again.append((f.key, f.args, f.name))
        if not lost:
            return
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
        if f.cancelled:
            return
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
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._wake_r = self._wake_w = -1
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
