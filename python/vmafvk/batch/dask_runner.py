# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Runs on a Dask distributed cluster: a task per pair, each Dask worker process
keeping a pool of slots with their long-lived worker processes."""

from __future__ import annotations

import threading
import uuid as _uuid

from .devices import Slot, _cli_ok, cores, default_cpu_workers, find_cli, list_devices, make_slots, select_gpus
from .errors import EXIT_SETUP, BatchError
from .protocol import Worker

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
    # By reference: Dask's workers import it from this module.
    task = score_on_worker
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
