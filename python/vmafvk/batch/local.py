# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Local runs: this machine's workers taking pairs from a shared queue."""

from __future__ import annotations

import queue
import threading

from .protocol import Worker


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
