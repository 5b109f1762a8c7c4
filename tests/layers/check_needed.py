#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The library (and the vmaf tool) load where neither libva nor a Vulkan loader is installed.

usage: check_needed.py READELF FILE[=LIBRARY]...

Reads the NEEDED entries of each FILE's dynamic section (`READELF -d`) and fails
when one names libva (libva.so.2, libva-drm.so.2, ...) or libvulkan: both are
opened at run time, libvulkan by volk and libva on the first VA-API import
(adr/0070). Also fails when a FILE has no NEEDED libc (it always has), so that
a change of readelf's output cannot make the check pass empty, and, for
FILE=LIBRARY, when FILE does not need LIBRARY (the programs load the installed
library, adr/0085).
"""
import re
import subprocess
import sys

# Libraries the library must open with dlopen, never link.
FORBIDDEN = [
    (re.compile(r'^libva([-.]|$)'), 'libva (the VA-API import dlopens libva.so.2)'),
    (re.compile(r'^libvulkan([-.]|$)'), 'libvulkan (volk dlopens libvulkan.so.1)'),
]


def needed(readelf, library):
    out = subprocess.run([readelf, '-d', '-W', library], check=True,
                         capture_output=True, text=True).stdout
    return re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', out)


def check(readelf, arg):
    """True when `path` links none of FORBIDDEN (and the library `arg` names, if any)."""
    path, _, want = arg.partition('=')
    names = needed(readelf, path)
    print(f'{path}: NEEDED {", ".join(names) or "(none)"}')
    if not any(n.startswith('libc.so') for n in names):
        print(f'FAIL: no NEEDED libc.so in {path}: readelf output not understood', file=sys.stderr)
        return False
    bad = [(n, why) for n in names for pattern, why in FORBIDDEN if pattern.match(n)]
    for n, why in bad:
        print(f'FAIL: {path} needs {n}; it must not link {why}', file=sys.stderr)
    if want and want not in names:
        print(f'FAIL: {path} does not need {want}: it must link the installed library', file=sys.stderr)
        return False
    return not bad


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    results = [check(argv[1], path) for path in argv[2:]]
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
