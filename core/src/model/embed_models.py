#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Writes the table of built-in models: a C++ source with one string constant per
model file given, named by its version (the file name without .json).

    embed_models.py OUTPUT.cpp [MODEL.json ...]

The files are copied byte for byte (escaped into string literals, which compilers
read far faster than lists of numbers). With no files the table is empty."""
import os
import sys

LINE = 96  # characters of escaped text per source line


def escaped_lines(data):
    """The bytes as the pieces of one C++ string literal, a piece per source line."""
    out, piece = [], []
    width = 0
    for b in data:
        if b == 0x5C:
            s = "\\\\"
        elif b == 0x22:
            s = '\\"'
        elif b == 0x0A:
            s = "\\n"
        elif 0x20 <= b < 0x7F:
            s = chr(b)
        else:
            s = "\\%03o" % b  # always three digits: the next character cannot extend it
        piece.append(s)
        width += len(s)
        if width >= LINE or b == 0x0A:
            out.append("".join(piece))
            piece, width = [], 0
    if piece:
        out.append("".join(piece))
    return out


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: embed_models.py OUTPUT.cpp [MODEL.json ...]\n")
        return 2
    output, inputs = argv[1], argv[2:]
    seen = {}
    entries = []
    for path in inputs:
        name = os.path.basename(path)
        if not name.endswith(".json"):
            sys.stderr.write("embed_models.py: %s is not a .json model file\n" % path)
            return 1
        version = name[: -len(".json")]
        if not version or any(not (c.isascii() and (c.isalnum() or c in "._-")) for c in version):
            sys.stderr.write("embed_models.py: %s: a version name is letters, digits, '.', '_' and '-'\n" % path)
            return 1
        if version in seen:
            sys.stderr.write("embed_models.py: version %s given twice (%s, %s)\n" % (version, seen[version], path))
            return 1
        seen[version] = path
        with open(path, "rb") as f:
            data = f.read()
        if not data.lstrip().startswith(b"{"):
            sys.stderr.write("embed_models.py: %s is not a JSON model\n" % path)
            return 1
        entries.append((version, data))

    src = [
        "// Generated at build time by core/src/model/embed_models.py from the model",
        "// directory the build was configured with; not a source file of the project.",
        '#include "model/model.h"',
        "",
        "namespace vmaf {",
        "",
        "namespace {",
        "",
    ]
    for i, (version, data) in enumerate(entries):
        src.append("// %s (%d bytes)" % (version, len(data)))
        src.append("constexpr char kModel%d[] =" % i)
        lines = escaped_lines(data) or [""]
        for line in lines[:-1]:
            src.append('    "%s"' % line)
        src.append('    "%s";' % lines[-1])
        src.append("")
    if entries:
        src.append("constexpr BuiltInModel kModels[] = {")
        for i, (version, data) in enumerate(entries):
            src.append('    {"%s", {kModel%d, sizeof(kModel%d) - 1}},' % (version, i, i))
        src.append("};")
        src.append("")
    src.append("}  // namespace")
    src.append("")
    src.append("std::span<const BuiltInModel> built_in_models()")
    src.append("{")
    src.append("    return %s;" % ("kModels" if entries else "{}"))
    src.append("}")
    src.append("")
    src.append("}  // namespace vmaf")
    text = "\n".join(src) + "\n"
    tmp = output + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write(text)
    os.replace(tmp, output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
