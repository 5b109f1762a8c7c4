# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Helpers shared by the vmaf command-line tests (Python 3 standard library only).

Each test script is run by meson as: python3 SCRIPT VMAF_EXECUTABLE DATA_DIR.
"""
import json
import os
import subprocess
import sys
import tempfile
import traceback

TIMEOUT_S = 120  # a run that takes longer has hung


class Result:
    def __init__(self, args, proc):
        self.args = args
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def describe(self):
        return (f"command: {' '.join(self.args)}\nexit status: {self.rc}\n"
                f"stdout:\n{self.out[-2000:]}\nstderr:\n{self.err[-2000:]}")


class Failure(Exception):
    pass


class Cli:
    def __init__(self, argv):
        if len(argv) != 3:
            sys.exit(f"usage: {argv[0]} VMAF_EXECUTABLE DATA_DIR")
        self.exe = os.path.abspath(argv[1])
        self.data = os.path.abspath(argv[2])
        self.tmp = tempfile.TemporaryDirectory(prefix="vmaf-cli-test-")

    def path(self, name):
        """A file of the golden data set."""
        return os.path.join(self.data, name)

    def pair(self, name):
        return ["-r", self.path(name + "_ref.y4m"), "-d", self.path(name + "_dis.y4m")]

    def scratch(self, name):
        """A path in this run's temporary directory."""
        return os.path.join(self.tmp.name, name)

    def run(self, *args, env=None):
        args = [self.exe, *args]
        env = dict(os.environ, **env) if env else None
        if "--backend" in args and args[args.index("--backend") + 1:][:1] != ["cpu"]:
            # A sanitized build's leak check would report the Vulkan driver's own
            # allocations (see tests/meson.build); address checks stay on.
            env = dict(env or os.environ, ASAN_OPTIONS="detect_leaks=0")
        try:
            proc = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
        except subprocess.TimeoutExpired:
            raise Failure(f"timed out after {TIMEOUT_S} s: {' '.join(args)}")
        r = Result(args, proc)
        if r.rc < 0:
            raise Failure(f"killed by signal {-r.rc}\n{r.describe()}")
        return r

    def run_json(self, *args, name="out.json", env=None):
        """Run with --json -o FILE and return the parsed document."""
        out = self.scratch(name)
        r = self.run(*args, "--json", "-o", out, "-q", env=env)
        if r.rc != 0:
            raise Failure(f"expected success\n{r.describe()}")
        with open(out) as f:
            try:
                return json.load(f)
            except json.JSONDecodeError as e:
                raise Failure(f"output is not JSON ({e})\n{r.describe()}")


def main(cases, argv):
    """Run every case(cli) in `cases`; print a line per case; exit 1 if any failed."""
    cli = Cli(argv)
    failed = 0
    for case in cases:
        try:
            case(cli)
            print(f"ok    {case.__name__}")
        except Failure as e:
            failed += 1
            print(f"FAIL  {case.__name__}\n{e}\n")
        except Exception:  # a broken expectation in the test itself, e.g. a missing key
            failed += 1
            print(f"FAIL  {case.__name__}\n{traceback.format_exc()}")
    print(f"{len(cases) - failed} passed, {failed} failed")
    cli.tmp.cleanup()
    sys.exit(1 if failed else 0)


def check(cond, message, result=None):
    if not cond:
        raise Failure(message + ("\n" + result.describe() if result else ""))


def expect_error(r, code, *phrases):
    """A clean failure: the given exit status and a message with every phrase."""
    check(r.rc == code, f"expected exit status {code}", r)
    for p in phrases:
        check(p.lower() in r.err.lower(), f"expected {p!r} in the error message", r)
