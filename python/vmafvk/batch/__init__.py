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

The package, one module per job: catalog (the CSV and its pairs), devices (the
`vmaf` tool, the Vulkan devices and the slots a run gets), protocol (a worker:
the batch's side of a long-lived worker process), local (this machine's
workers and the shared queue), dask_runner (a Dask cluster), summary (the
results and summary.csv), cli (the command line). Every name is importable from
vmafvk.batch itself.
"""

# Re-exported: the names callers used when this was one module.
from .catalog import COLUMNS, Pair, read_pairs
from .cli import build_parser, main, main_exit
from .dask_runner import run_dask, score_on_worker
from .devices import (DEFAULT_CPU_NICE, DEFAULT_GPU_PAIRS, Slot, cli_version, cores, default_cpu_workers,
                      find_cli, gpu_worker_cores, list_devices, make_slots, select_gpus)
from .errors import EXIT_FAILED, EXIT_SETUP, EXIT_USAGE, BatchError
from .local import run_local
from .protocol import Worker
from .summary import load_result, result_path, write_atomic, write_summary

__all__ = ["Pair", "Slot", "Worker", "find_cli", "list_devices", "main", "read_pairs", "select_gpus",
           "COLUMNS", "DEFAULT_CPU_NICE", "DEFAULT_GPU_PAIRS", "EXIT_FAILED", "EXIT_SETUP", "EXIT_USAGE",
           "BatchError", "build_parser", "cli_version", "cores", "default_cpu_workers",
           "gpu_worker_cores", "load_result", "main_exit", "make_slots", "result_path", "run_dask",
           "run_local", "score_on_worker", "write_atomic", "write_summary"]
