# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Results: each pair's JSON written once, summary.csv, and the per-worker lines."""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile

from .catalog import Pair

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
