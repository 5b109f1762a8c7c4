# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Local runs: this machine's workers taking pairs from a shared queue.

When the queue is empty, a worker with room scores again a pair still running on
a slower worker (a straggler): the first result of a pair is the one written,
and the other copy is cancelled (ADR 0082). With `--cpu-workers auto` beside GPU
workers, the CPU workers take no new pairs once the GPU workers are measured to
score more pairs a second than all of them together.
"""

from __future__ import annotations

import collections
import queue
import threading
import time

from .protocol import WAIT, Worker

# A pair is scored again on an idle worker when it is expected to take longer
# where it runs than its whole time on that worker.
MAX_COPIES = 2            # the pair where it runs, and one copy
# Pairs after a worker's first ones (which include its start) before its rate counts.
_RATE_MIN_WARM = 2
# A CPU worker's unfinished pair bounds its rate only after this long (its first
# pair includes the process's start).
_BOUND_MIN_SECONDS = 0.5


class _Pool:
    """The shared queue, which worker has which pair, and how long each worker
    takes a pair (its measured rate). Thread-safe; `clock` for the tests."""

    def __init__(self, todo: list, slots: list, adaptive: bool = False, notice=None,
                 clock=time.monotonic):
        self.pairs = {p.name: p for p in todo}
        self.queue = collections.deque(p.name for p in todo)
        self.slots = {s.label: s for s in slots}
        self.adaptive = adaptive and any(s.kind == "gpu" for s in slots) and \
            any(s.kind == "cpu" for s in slots)
        self.notice, self.clock = notice, clock
        self.workers = {}                 # label -> Worker (wake, cancel)
        self.copies = {}                  # name -> {label: time given} (unfinished pairs)
        self.done = set()
        self.retired = set()              # workers that take no new pair
        self.closed = False
        self.times = collections.defaultdict(list)   # label -> seconds of its pairs scored
        self.second = {}                  # name -> the worker given its second copy
        self.again_won = 0                # pairs whose second copy was written
        self._lock = threading.Lock()

    # -- measured times ---------------------------------------------------------------

    def _warm(self, label: str) -> list:
        """Seconds of the worker's pairs after its first ones: the first pair of each
        of its threads (one, or --gpu-pairs) includes the process's start."""
        return (self.times.get(label) or [])[self.slots[label].pairs:]

    def _own(self, label: str):
        """Seconds a pair takes on this worker: the mean of its warm pairs, else of
        its first ones; None before it scored one."""
        t = self._warm(label) or self.times.get(label) or []
        return sum(t) / len(t) if t else None

    def _expected(self, label: str):
        """As _own(), else the mean of its kind's workers; None when none finished."""
        own = self._own(label)
        if own is not None:
            return own
        kind = self.slots[label].kind
        means = [m for m in (self._own(x) for x, s in self.slots.items() if s.kind == kind)
                 if m is not None]
        return sum(means) / len(means) if means else None

    def _straggler(self, label: str, now: float):
        """The unfinished pair another worker is expected to finish last, if that is
        later than this worker would finish it; None otherwise."""
        mine = self._own(label)
        if mine is None:
            return None
        best, best_left = None, mine
        for name, on in self.copies.items():
            if label in on or len(on) >= MAX_COPIES:
                continue
            left = 0.0
            for other, t0 in on.items():
                expected = self._expected(other)
                # Nothing measured there yet: it has taken `now - t0` and is not done.
                left = max(left, float("inf") if expected is None else expected - (now - t0))
            if left > best_left:
                best, best_left = name, left
        return best

    # -- the workers' side ------------------------------------------------------------

    def take(self, label: str):
        """(key, tool arguments, name) for this worker, None when it is done, or
        WAIT when it may get a pair to score again later."""
        with self._lock:
            if self.closed:
                return None
            now = self.clock()
            name = None
            if label not in self.retired and self.queue:
                name = self.queue.popleft()
            elif not self.copies or label in self.retired:
                return None
            else:
                name = self._straggler(label, now)
                if name is None:
                    return WAIT
                self.second[name] = label
            self.copies.setdefault(name, {})[label] = now
            p = self.pairs[name]
            return name, p.cli_args(), p.name

    def finish(self, label: str, name: str, r: dict):
        """A worker's result for pair `name`: the result to write (the first
        success, or the last copy's failure), or None (a later copy, or a failure
        while another copy still runs)."""
        with self._lock:
            on = self.copies.get(name, {})
            on.pop(label, None)
            if r.get("ok"):
                self.times[label].append(r.get("seconds", 0.0))
            if name in self.done or (not r.get("ok") and on):
                return None
            self.done.add(name)
            self.copies.pop(name, None)
            if r.get("ok") and self.second.get(name) == label:
                self.again_won += 1
            others = [self.workers[x] for x in on if x in self.workers]
            waiting = list(self.workers.values())
            stopped = self._decide() if self.adaptive and r.get("ok") else []
        for w in others:
            w.cancel(name)
        for w, key in stopped:  # CPU copies of pairs now back in the queue
            w.cancel(key)
        for w in waiting:  # a pair to score again, or the end
            w.wake()
        return r

    def _decide(self) -> list:
        """--cpu-workers auto beside GPU workers: once the GPU workers are measured,
        the CPU workers take no new pair while the GPU workers score more pairs a
        second than all the CPU workers together would. A worker's rate is the
        pairs it has at once divided by the mean time of its warm pairs (pairs
        scored at once overlap: 4 at once of 1 s each are 4 a second). Before any
        CPU worker has finished warm pairs, each one's rate is bounded by its
        unfinished pair: it takes longer than it has run so far. When even that
        bound is outpaced, the CPU workers' pairs go back to the queue and their
        copies are stopped (returned as (worker, pair) to cancel), so that they
        no longer take the cores the GPU workers' threads need. Under the lock."""
        gpu_rate = 0.0
        for label, s in self.slots.items():
            if s.kind != "gpu":
                continue
            warm = self._warm(label)
            if len(warm) < _RATE_MIN_WARM:
                return []
            gpu_rate += s.pairs / (sum(warm) / len(warm))
        cpu = [label for label, s in self.slots.items() if s.kind == "cpu"]
        warm = [t for label in cpu for t in self._warm(label)]
        bounded = len(warm) < _RATE_MIN_WARM
        if not bounded:
            cpu_rate = len(cpu) / (sum(warm) / len(warm))
        else:
            now = self.clock()
            running = {}
            for name, on in self.copies.items():
                for label, t0 in on.items():
                    if label in cpu:
                        running[label] = max(running.get(label, 0.0), now - t0)
            if len(running) < len(cpu) or min(running.values()) < _BOUND_MIN_SECONDS:
                return []  # a CPU worker with nothing measured and nothing running: no bound
            cpu_rate = sum(1.0 / e for e in running.values())
        if cpu_rate >= gpu_rate or self.retired:
            return []
        self.retired.update(cpu)
        self.adaptive = False
        stopped = []
        if bounded:
            for name in list(self.copies):
                on = self.copies[name]
                held = [label for label in on if label in cpu]
                for label in held:
                    del on[label]
                    if label in self.workers:
                        stopped.append((self.workers[label], name))
                if held and not on:
                    del self.copies[name]
                    self.second.pop(name, None)
                    self.queue.appendleft(name)
        if self.notice is not None:
            about = "at most" if bounded else "about"
            self.notice(f"the GPU worker(s) score {gpu_rate:.2f} pairs/s and the {len(cpu)} CPU "
                        f"workers together {about} {cpu_rate:.2f}: the CPU workers take no new pair "
                        "(--cpu-workers auto)" + (f"; their {len(stopped)} unfinished pair(s) go to "
                                                  "the GPU" if stopped else ""))
        return stopped

    def close(self) -> None:
        with self._lock:
            self.closed = True
            self.queue.clear()
            waiting = list(self.workers.values())
        for w in waiting:
            w.wake()


def run_local(todo: list, slots: list, cli: str, timeout, on_result, tool_only: bool = False,
              notice=None, adaptive: bool = False) -> dict:
    """Score `todo` with one long-lived worker process per slot, each scoring its
    slot's pairs at once from a shared queue; when the queue is empty, an idle
    worker scores again a pair a slower worker still has, and the first result
    counts. on_result(pair, result) is called on this thread, in completion
    order, once per pair. `adaptive` (--cpu-workers auto): the CPU workers stop
    taking pairs when the GPU workers outpace them all. Returns {slot label:
    Worker}, closed."""
    pool = _Pool(todo, slots, adaptive, notice)
    done = queue.Queue()
    workers = {s.label: Worker(s, cli, tool_only, notice) for s in slots}
    pool.workers = workers

    def run(slot):
        w = workers[slot.label]
        told = []

        def take():
            return pool.take(slot.label)

        def emit(name, r):
            if w.notice and not told and notice is not None:
                notice(f"{slot.label}: pairs go to the vmaf tool, one process each: {w.notice}")
                told.append(True)
            elif (r.get("via") == "tool" and r.get("why", "").startswith("failed in process")
                  and not told and notice is not None):
                # A pair the worker should have scored: say so once per worker.
                notice(f"{slot.label}: {name} went to the vmaf tool: {r['why']}")
                told.append(True)
            r = pool.finish(slot.label, name, r)
            if r is not None:
                done.put((pool.pairs[name], r))

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
        pool.close()  # what is left is not taken any more
        if not finished:  # interrupted: the pairs being scored are abandoned
            for w in workers.values():
                w.abort()
        for t in threads:
            t.join()
        for w in workers.values():
            w.close()
    if pool.second and notice is not None:
        notice(f"{len(pool.second)} pair(s) scored again beside a slower worker when the queue "
               f"was empty; {pool.again_won} written from the second copy")
    return workers
