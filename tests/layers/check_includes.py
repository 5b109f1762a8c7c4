#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Includes point downward only: core/src by its layers, the feature folders
never sideways, core/tools only to the public headers, and core/os below both
(ADR 0062, ADR 0077, ADR 0085).

usage: check_includes.py CORE_SRC_DIR

Reads every #include "..." of core/src (C++ sources and headers, and the GLSL
of the kernels: .comp and .glsl) and of core/tools, and fails when

  - a file of one core/src folder includes a header of a folder above it in
    LAYERS (there is no exception: a shared interface moves down instead);
  - a file of one feature folder (feature/A/) includes one of another
    (feature/B/): a feature folder includes its own files, feature/common/ and
    the headers of the feature/ root; feature/common/ includes itself and the
    root; a header of the root includes only the root (so including one never
    brings a feature folder in). The root's sources (the registry) name every
    feature and may include any folder;
  - a file of core/tools includes a header of core/src: the programs include
    the public headers (libvmaf/*.h, core/include), their own folder's and the
    shared folders' (io/, options/, caller/, included by their path from
    core/tools) and core/os's ("os/os.h"), and no internal header;
  - a file of core/os (what differs on Windows, the bottom layer that the
    library and the programs both link) includes anything but its own files;
  - a folder of core/src is missing from LAYERS, or an include cannot be found
    where the build looks for it.

Each run first checks itself on a small tree with one wrong include of every
kind, so a rule that stopped working fails the test too.

Where an include is looked for, as the build does: C++ of core/src by its path
from core/src (`-I core/src`; names without a folder are the same folder or
generated, spirv.h), "os/..." from core; C++ of core/tools in its own folder,
core/tools, core/include, core ("os/..."), then core/src; GLSL (glslc's `#include` of GL_GOOGLE_include_directive,
core/src/gpu/meson.build) in the including file's folder, then core/src, then
the generated `<name>_tables.glsl`, which belongs to the folder of the program
that writes it (`<name>_tables_glsl.cpp`).
"""
import pathlib
import re
import sys
import tempfile

# Top to bottom: a folder may include the folders below it (and itself).
LAYERS = [
    'api',      # the extern "C" exports (thin shims over the folders below)
    'output',   # writers of the collected scores
    'context',  # vmaf::Context: configuration, scheduling, the collector, frames
    'model',    # model loading, prediction, pooling
    'gpu',      # the frame engine, which drives the GPU twins
    'feature',  # the extractors, their GPU twins and the interface of both, the registry
    'vulkan',   # the device runtime
    'picture',  # picture storage and pools, the frame format
    'util',     # logging, environment, SIMD dispatch, the thread pool
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
CXX = ('.c', '.cpp', '.h')
GLSL = ('.comp', '.glsl')


def includes(path):
    return INCLUDE.findall(path.read_text())


def feature_rule(src_parts, dst_parts, src_is_header):
    """None when a file in feature folder src may include one in dst (both
    given as parts from core/src, both under feature/), else why not."""
    s = src_parts[1] if len(src_parts) > 1 else None  # None: the feature/ root
    d = dst_parts[1] if len(dst_parts) > 1 else None
    if d is None or d == s:
        return None
    if s is None:
        if src_is_header:
            return 'a header of the feature/ root includes only the root'
        return None  # the registry
    if d == 'common':
        return None
    if s == 'common':
        return 'feature/common/ includes only itself and the feature/ root'
    return f'feature/{s}/ includes only itself, feature/common/ and the feature/ root, never feature/{d}/'


def layer_rule(src_top, dst_top):
    if dst_top not in LAYERS or src_top not in LAYERS:
        return None
    if LAYERS.index(dst_top) < LAYERS.index(src_top):
        return f'a folder above {src_top}/'
    return None


class Checker:
    def __init__(self, core_src):
        self.src = core_src.resolve()
        self.tools = (core_src / '..' / 'tools').resolve()
        self.public = (core_src / '..' / 'include').resolve()
        self.os = (core_src / '..' / 'os').resolve()
        self.errors = []
        self.tables = {}  # generated <name>_tables.glsl -> the folder of its program
        for p in self.src.rglob('*_tables_glsl.cpp'):
            name = p.name[:-len('_tables_glsl.cpp')]
            self.tables[name + '_tables.glsl'] = p.parent

    def error(self, path, msg):
        self.errors.append(f'{path}: {msg}')

    def check_src_file(self, path):
        rel = path.relative_to(self.src)
        top = rel.parts[0]
        if top not in LAYERS:
            return
        glsl = path.suffix in GLSL
        for inc in includes(path):
            if glsl:
                target = self.resolve_glsl(path, inc)
                if target is None:
                    self.error(rel, f'includes "{inc}", which is neither beside it, under core/src nor a generated table')
                    continue
            else:
                if '/' not in inc:
                    continue  # same folder, or generated (spirv.h)
                if self.os_header(inc):
                    continue  # core/os, below every folder
                target = self.src / inc
                if inc.split('/')[0] not in LAYERS:
                    continue  # libvmaf/ (public)
            dst = target.relative_to(self.src)
            why = layer_rule(top, dst.parts[0])
            if why is None and top == 'feature' and dst.parts[0] == 'feature':
                why = feature_rule(rel.parts[:-1], dst.parts[:-1], path.suffix in ('.h', '.glsl'))
            if why:
                self.error(rel, f'includes "{inc}": {why}')

    def os_header(self, inc):
        """Whether inc names a header of core/os ("os/NAME")."""
        parts = inc.split('/')
        return len(parts) == 2 and parts[0] == 'os' and (self.os / parts[1]).is_file()

    def check_os_file(self, path):
        rel = path.relative_to(self.os)
        for inc in includes(path):
            if not self.os_header(inc):
                self.error(f'core/os/{rel}', f'includes "{inc}": core/os is below the library and the '
                           'programs and includes only its own headers ("os/...")')

    def resolve_glsl(self, path, inc):
        for base in (path.parent, self.src):
            cand = (base / inc).resolve()
            if cand.is_file() and self.src in cand.parents:
                return cand
        if '/' not in inc and inc in self.tables:
            return self.tables[inc] / inc  # generated into the build, from that folder's program
        return None

    def check_tool_file(self, path):
        rel = path.relative_to(self.tools)
        for inc in includes(path):
            local = [(path.parent / inc), (self.tools / inc)]
            if any(c.resolve().is_file() for c in local):
                continue  # the tools' own headers
            if (self.public / inc).is_file():
                continue  # libvmaf/*.h
            if self.os_header(inc):
                continue  # core/os, below the programs too
            if (self.src / inc).is_file():
                self.error(f'core/tools/{rel}',
                           f'includes "{inc}", an internal header of core/src: the programs include '
                           'the public headers (libvmaf/*.h) and their own only')
                continue
            self.error(f'core/tools/{rel}', f'includes "{inc}", which is not found where the build looks')

    def run(self):
        folders = {p.name for p in self.src.iterdir() if p.is_dir()}
        for f in sorted(folders - set(LAYERS)):
            self.error(f'{f}/', 'not placed in LAYERS')
        for path in sorted(self.src.rglob('*')):
            if path.suffix in CXX + GLSL:
                self.check_src_file(path)
        if self.os.is_dir():
            for path in sorted(self.os.rglob('*')):
                if path.suffix in CXX:
                    self.check_os_file(path)
        if self.tools.is_dir():
            for path in sorted(self.tools.rglob('*')):
                if path.suffix in CXX:
                    self.check_tool_file(path)
        return self.errors


def self_test():
    """The rules catch one wrong include of each kind on a small tree."""
    files = {
        'src/util/log.h': '',
        'src/context/collector.h': '',
        'src/gpu/engine.cpp': '#include "context/collector.h"\n',                   # upward
        'src/feature/extractor.h': '',
        'src/feature/twin.h': '#include "feature/extractor.h"\n',                  # fine
        'src/feature/registry.cpp': '#include "feature/b/b.h"\n',                  # fine
        'src/feature/common/c.h': '#include "feature/extractor.h"\n',             # fine
        'src/feature/a/a.cpp': '#include "feature/twin.h"\n#include "feature/common/c.h"\n'
                               '#include "feature/b/b.h"\n',                         # sideways
        'src/feature/a/a.comp': '#include "a_tables.glsl"\n#include "feature/b/b.glsl"\n',  # sideways
        'src/feature/a/a_tables_glsl.cpp': '',
        'src/feature/b/b.h': '',
        'src/feature/b/b.glsl': '#include "a.glsl"\n',                             # not found
        'src/feature/b/b_k.comp': '#include "a_tables.glsl"\n',                    # sideways (generated)
        'src/feature/common/c.glsl': '#include "feature/a/a.comp"\n',              # common -> a folder
        'src/feature/root.h': '#include "feature/common/c.h"\n',                   # root header -> common
        'src/picture/picture.cpp': '#include "util/log.h"\n#include "os/os.h"\n',  # fine
        'os/os.h': '',
        'os/os.cpp': '#include "os/os.h"\n#include "util/log.h"\n',              # os -> core/src
        'include/libvmaf/libvmaf.h': '',
        'tools/tool.cpp': '#include "libvmaf/libvmaf.h"\n#include "io/r.h"\n#include "os/os.h"\n'
                          '#include "util/log.h"\n',
        'tools/io/r.h': '#include "tool.h"\n',                                    # not found
    }
    expect = [
        'gpu/engine.cpp: includes "context/collector.h"',
        'feature/a/a.cpp: includes "feature/b/b.h"',
        'feature/a/a.comp: includes "feature/b/b.glsl"',
        'feature/b/b.glsl: includes "a.glsl"',
        'feature/b/b_k.comp: includes "a_tables.glsl"',
        'feature/common/c.glsl: includes "feature/a/a.comp"',
        'feature/root.h: includes "feature/common/c.h"',
        'core/tools/tool.cpp: includes "util/log.h"',
        'core/os/os.cpp: includes "util/log.h"',
        'core/tools/io/r.h: includes "tool.h"',
    ]
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d) / 'core'
        for name, text in files.items():
            p = root / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        errors = Checker(root / 'src').run()
    got = errors
    problems = []
    for e in expect:
        if not any(g.startswith(e) for g in got):
            problems.append(f'self-test: the rules miss {e!r}')
    for g in got:
        if not any(g.startswith(e) for e in expect):
            problems.append(f'self-test: a correct include is reported: {g}')
    return problems


def main():
    errors = self_test()
    if not errors:
        errors = Checker(pathlib.Path(sys.argv[1])).run()
    for e in errors:
        print(e)
    if not errors:
        print(f'{len(LAYERS)} folders and the GLSL of their kernels, arrows downward only; '
              f'feature folders never sideways; core/os: its own only; core/tools: public headers and core/os only')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
