# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The command line: python -m vmafvk.batch (docs/batch.md)."""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
import time

from . import summary as _summary
from .catalog import Pair, _check_args, read_pairs
from .dask_runner import run_dask
from .devices import (DEFAULT_CPU_NICE, DEFAULT_GPU_PAIRS, _is_decimal, cli_version, cores,
                      default_cpu_workers, find_cli, list_devices, make_slots, select_gpus)
from .errors import EXIT_FAILED, EXIT_SETUP, BatchError
from .local import run_local
from .summary import _account, _stats_lines, load_result, result_path, write_summary


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
                _summary.write_atomic(path, r["json"])
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
                          None if args.quiet else (lambda m: _say(m, bar)),
                          adaptive=cpu_workers is None)
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

