# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Hostile Y4M headers: the vmaf tool accepts or refuses each case of
y4m_headers.json (the table python/tests/test_y4m.py runs through the Python
reader too), a refusal being exit status 2 with a message naming the file."""
import json
import os
import sys

from clitest import check, main

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "y4m_headers.json")


def case_bytes(case):
    """The file of one case: its header line and two frames."""
    header = case["header"].encode("latin-1")
    if "pad_to" in case:
        header += b" X" + b"a" * (case["pad_to"] - len(header) - 2)
    frame = case.get("frame", "FRAME").encode("latin-1") + b"\n"
    samples = bytes(range(256)) * (case.get("frame_bytes", 384) // 256 + 1)
    return header + b"\n" + (frame + samples[:case.get("frame_bytes", 384)]) * 2


def cases():
    with open(TABLE) as f:
        return json.load(f)["cases"]


def hostile_headers(cli):
    wrong = []
    for i, case in enumerate(cases()):
        path = cli.scratch(f"case{i}.y4m")
        with open(path, "wb") as f:
            f.write(case_bytes(case))
        r = cli.run("-r", path, "-d", path, "--backend", "cpu", "-n", "--feature", "psnr", "-q",
                    "--json", "-o", cli.scratch(f"case{i}.json"))
        if case["ok"]:
            good = r.rc == 0
        else:
            good = r.rc == 2 and path in r.err
        if not good:
            wrong.append(f"{case['header']!r} (expected {'accepted' if case['ok'] else 'refused'}): "
                         f"exit {r.rc}, {r.err.strip()[-300:]}")
    check(not wrong, f"{len(wrong)} of {len(cases())} cases wrong:\n" + "\n".join(wrong))


if __name__ == "__main__":
    main([hostile_headers], sys.argv)
