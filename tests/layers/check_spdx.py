#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Every source, shader, script and build file names its licence.

usage: check_spdx.py REPOSITORY_ROOT [--add]

Lists the files git tracks (or, outside a git checkout such as an unpacked
release tarball, walks the tree) and fails on each source (.c, .cpp, .h and
their .in templates), shader (.comp, .glsl), script (.py, .sh, .ci/run) or
build file (meson.build, meson_options.txt) whose first lines carry no
"SPDX-License-Identifier:". Data, documents and the FFmpeg series (which keeps
FFmpeg's own licence headers in what it adds to FFmpeg) are not sources here.
--add writes the project's line into the files that lack one, after a "#!"
line where there is one.
"""
import pathlib
import subprocess
import sys

LICENSE = 'BSD-2-Clause-Patent'
TAG = 'SPDX-License-Identifier:'
# How far down the line may stand: below a "#!" line and an encoding line.
HEAD_LINES = 3

C_STYLE = {'.c', '.cpp', '.h', '.comp', '.glsl'}
HASH_STYLE = {'.py', '.sh'}
HASH_NAMES = {'meson.build', 'meson_options.txt', 'run'}


def comment_for(path):
    """The comment leader of a file that needs a line, or None."""
    name = path.name
    if name.endswith('.in'):
        name = name[:-3]
    suffix = pathlib.PurePath(name).suffix
    if suffix in C_STYLE:
        return '//'
    if suffix in HASH_STYLE or name in HASH_NAMES:
        if name == 'run' and path.parent.name != '.ci':
            return None
        return '#'
    return None


def tracked_files(root):
    try:
        out = subprocess.run(['git', '-C', str(root), 'ls-files', '-z'], check=True,
                             capture_output=True).stdout
        return [root / p for p in out.decode().split('\0') if p]
    except (OSError, subprocess.CalledProcessError):
        skip = {'.git', 'build', 'subprojects'}
        return [p for p in root.rglob('*')
                if p.is_file() and not (set(p.relative_to(root).parts) & skip)
                and not p.relative_to(root).parts[0].startswith('build')]


def has_line(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        head = [f.readline() for _ in range(HEAD_LINES)]
    return any(TAG in line for line in head)


def add_line(path, leader):
    text = path.read_text(encoding='utf-8')
    line = f'{leader} {TAG} {LICENSE}\n'
    if text.startswith('#!'):
        first, _, rest = text.partition('\n')
        path.write_text(first + '\n' + line + rest, encoding='utf-8')
    else:
        path.write_text(line + text, encoding='utf-8')


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    add = '--add' in sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(args[0]).resolve()
    missing = []
    checked = 0
    for path in sorted(tracked_files(root)):
        rel = path.relative_to(root)
        if rel.parts[0] in ('ffmpeg-patches',) or 'corpus' in rel.parts:
            continue
        leader = comment_for(path)
        if leader is None or not path.is_file():
            continue
        checked += 1
        if not has_line(path):
            if add:
                add_line(path, leader)
            else:
                missing.append(str(rel))
    for m in missing:
        print(f'{m}: no "{TAG}" line in its first {HEAD_LINES} lines', file=sys.stderr)
    print(f'check_spdx: {checked} files, {len(missing)} without a licence line')
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
