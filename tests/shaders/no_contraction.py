#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Checks that no kernel leaves a floating-point add open to fusing with a multiply.

The GPU twins match the CPU to the bit only if the driver computes a * b + c as
two rounded operations, as the CPU build does (it is compiled without FMA
contraction). GLSL's `precise` marks such operations NoContraction in SPIR-V,
but glslc drops the decoration in some rewrites (loop unrolling among them), and
a driver may then fuse. This test disassembles every kernel and fails where an
OpFAdd/OpFSub without NoContraction takes the result of an OpFMul without it.

usage: no_contraction.py GLSLC SPIRV_DIS SHADER.spv...

(glslc's optimizer turns a plain a * b + c into an explicit Fma, whose result
is fused on every driver, so the parity tests see it; this test
covers the pairs left to each driver's choice.) It first checks itself on two
small kernels compiled here without optimization, one that computes a * b + c
plainly (must be found) and one that computes it `precise` (must not).
"""
import os
import re
import subprocess
import sys
import tempfile

PROBE = """#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float v[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    %s float r = v[i] * v[i + 64u] + v[i + 128u];
    v[i] = r;
}
"""


def open_pairs(asm):
    decorated = set(re.findall(r"OpDecorate (%\S+) NoContraction", asm))
    defs = {}
    for line in asm.splitlines():
        m = re.match(r"\s*(%\S+) = (Op\w+) (.*)", line)
        if m:
            defs[m.group(1)] = (m.group(2), m.group(3).split())
    pairs = []
    for rid, (op, args) in defs.items():
        if op not in ("OpFAdd", "OpFSub") or rid in decorated:
            continue
        for a in args[1:]:
            if a in defs and defs[a][0] == "OpFMul" and a not in decorated:
                pairs.append((rid, a))
    return pairs


def disassemble(dis, spv):
    return subprocess.run([dis, "--raw-id", spv], check=True, capture_output=True, text=True).stdout


def self_check(glslc, dis):
    with tempfile.TemporaryDirectory() as tmp:
        for qualifier, expect_pairs in (("", True), ("precise", False)):
            src, spv = os.path.join(tmp, "probe.comp"), os.path.join(tmp, "probe.spv")
            with open(src, "w") as f:
                f.write(PROBE % qualifier)
            subprocess.run([glslc, "--target-env=vulkan1.2", "-O0", src, "-o", spv], check=True)
            found = bool(open_pairs(disassemble(dis, spv)))
            if found != expect_pairs:
                print(f"self-check failed: a * b + c {qualifier or 'plain'}: pairs found = {found}")
                return False
    return True


def main():
    glslc, dis, shaders = sys.argv[1], sys.argv[2], sys.argv[3:]
    if not self_check(glslc, dis):
        return 1
    bad = 0
    for spv in shaders:
        asm = disassemble(dis, spv)
        arith = len(re.findall(r"= Op(FAdd|FSub|FMul) ", asm))
        pairs = open_pairs(asm)
        print(f"{spv}: {arith} float add/sub/mul, {len(pairs)} add(mul) pairs without NoContraction")
        for add, mul in pairs:
            print(f"  {add} adds {mul}")
        bad += len(pairs)
    if not shaders:
        print("no shaders given")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
