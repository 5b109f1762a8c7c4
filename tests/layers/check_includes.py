#!/usr/bin/env python3
"""No folder of core/src includes a folder above it.

usage: check_includes.py CORE_SRC_DIR

Reads every #include "..." of core/src and fails when a file of one folder
includes a header of a folder above it in LAYERS, unless the arrow is in
ALLOWED (with the reason it stays). Also fails when a folder is missing from
LAYERS, or an allowed arrow is no longer there (so the list stays the truth).
"""
import pathlib
import re
import sys

# Top to bottom: a folder may include the folders below it (and itself).
LAYERS = [
    'api',      # the extern "C" exports
    'output',   # writers of the collected scores
    'context',  # vmaf::Context: configuration, scheduling, the collector, frames
    'model',    # model loading, prediction, pooling
    'gpu',      # the frame engine and the interface of GPU twins
    'feature',  # the extractors and their GPU twins, the registry
    'vulkan',   # the device runtime
    'picture',  # picture storage and pools, the frame format
    'util',     # logging, environment, SIMD dispatch, the thread pool
]

# (including folder, included header): why the upward arrow stays.
ALLOWED = {
    ('feature', 'gpu/feature.h'):
        'a GPU twin implements the interface the engine drives; the header itself '
        'includes only feature/extractor.h, vulkan/ and picture/, no feature folder',
    ('gpu', 'context/collector.h'):
        'the engine marks the scores it writes per frame (CallScope) so that they '
        'are listed as the CPU extraction would write them',
    ('picture', 'api/export.h'):
        'the visibility macro of the picture exports in picture.cpp (a header '
        'without includes)',
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    root = pathlib.Path(sys.argv[1])
    folders = {p.name for p in root.iterdir() if p.is_dir()}
    errors = []
    for f in sorted(folders - set(LAYERS)):
        errors.append(f'{f}/: not placed in LAYERS')
    seen = set()
    for path in sorted(root.rglob('*')):
        if path.suffix not in ('.c', '.cpp', '.h'):
            continue
        src = path.relative_to(root).parts[0]
        if src not in LAYERS:
            continue
        for inc in INCLUDE.findall(path.read_text()):
            dst = inc.split('/')[0]
            if '/' not in inc or dst not in LAYERS:
                continue  # libvmaf/ (public), generated (spirv.h), same-directory
            if LAYERS.index(dst) >= LAYERS.index(src):
                continue
            if (src, inc) in ALLOWED:
                seen.add((src, inc))
                continue
            errors.append(f'{path.relative_to(root)}: includes "{inc}", a folder above {src}/')
    for arrow in sorted(set(ALLOWED) - seen):
        errors.append(f'allowed arrow {arrow[0]}/ -> {arrow[1]} no longer exists: remove it from ALLOWED')
    for e in errors:
        print(e)
    if not errors:
        print(f'{len(LAYERS)} folders, arrows downward only but {len(ALLOWED)} allowed')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
