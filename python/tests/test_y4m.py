# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The pure-Python Y4M reader: every layout and depth, against bytes written here."""

import json
import os

import numpy as np
import pytest

from vmafvk import Y4MError, Y4MReader, read_y4m
from conftest import PAIRS, pair_paths


def write_y4m(path, w, h, colorspace, frames, frame_params=""):
    """Write `frames` (lists of planes) with an independent, byte-level writer."""
    with open(path, "wb") as f:
        tag = f" C{colorspace}" if colorspace else ""
        f.write(f"YUV4MPEG2 W{w} H{h} F30000:1001 Ip A1:1{tag} XYSCSS=TEST\n".encode())
        for planes in frames:
            f.write(f"FRAME{frame_params}\n".encode())
            for p in planes:
                f.write(p.astype("<u2" if p.dtype == np.uint16 else np.uint8).tobytes())


LAYOUTS = [
    # colorspace, bpc, chroma (h, w) for a 7x5 (w x h) picture; None: monochrome
    ("420jpeg", 8, (3, 4)),
    ("420paldv", 8, (3, 4)),
    ("420", 8, (3, 4)),
    ("422", 8, (5, 4)),
    ("444", 8, (5, 7)),
    ("mono", 8, None),
    ("420p10", 10, (3, 4)),
    ("422p12", 12, (5, 4)),
    ("444p16", 16, (5, 7)),
    ("mono16", 16, None),
    (None, 8, (3, 4)),  # no C tag: 4:2:0 8-bit
]


@pytest.mark.parametrize("colorspace,bpc,chroma", LAYOUTS)
def test_layouts_round_trip(tmp_path, colorspace, bpc, chroma):
    rng = np.random.default_rng(7)
    dtype = np.uint8 if bpc == 8 else np.uint16
    shapes = [(5, 7)] + ([chroma, chroma] if chroma else [])
    frames = [[rng.integers(0, 1 << bpc, s).astype(dtype) for s in shapes] for _ in range(3)]
    path = tmp_path / "clip.y4m"
    write_y4m(path, 7, 5, colorspace, frames, frame_params=" Ixyz")
    r = Y4MReader(path)
    assert (r.width, r.height, r.bpc, len(r)) == (7, 5, bpc, 3)
    assert r.fps == pytest.approx(30000 / 1001)
    assert r.plane_shapes == tuple(shapes)
    for i, expected in enumerate(frames):
        got = r[i]
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert g.dtype == dtype and g.dtype.isnative
            np.testing.assert_array_equal(g, e)
    np.testing.assert_array_equal(r[-1][0], frames[2][0])
    with pytest.raises(IndexError):
        r[3]


@pytest.mark.parametrize("name", PAIRS)
def test_golden_pairs(name):
    ref = Y4MReader(pair_paths(name)[0])
    assert len(ref) == 10
    y, u, v = ref[0]
    assert y.shape == (ref.height, ref.width)
    raw = open(ref.path, "rb").read()
    start = raw.index(b"FRAME\n") + len(b"FRAME\n")
    first = np.frombuffer(raw[start:start + y.size * y.itemsize], dtype=y.dtype.newbyteorder("<"))
    np.testing.assert_array_equal(y.ravel(), first)


def test_10bit_samples_fit():
    r = Y4MReader(pair_paths("rocket_320x240_10bit_crf30")[0])
    assert r.bpc == 10 and r.layout == "420"
    assert max(int(p.max()) for p in r[0]) < 1024


def test_read_y4m_copies(tmp_path):
    path = tmp_path / "a.y4m"
    frames = [[np.full((2, 2), 9, np.uint8)]]
    write_y4m(path, 2, 2, "mono", frames)
    out = read_y4m(path)
    out[0][0][0, 0] = 1  # a copy, so writable
    assert out[0][0][1, 1] == 9


def test_empty_file_has_no_frames(tmp_path):
    path = tmp_path / "empty.y4m"
    write_y4m(path, 4, 4, "420", [])
    assert len(Y4MReader(path)) == 0


def test_bad_files(tmp_path):
    bad = tmp_path / "bad.y4m"
    bad.write_bytes(b"RIFF....")
    with pytest.raises(Y4MError, match="not a YUV4MPEG2"):
        Y4MReader(bad)
    bad.write_bytes(b"YUV4MPEG2 W4 C420\n")
    with pytest.raises(Y4MError, match="no valid W/H"):
        Y4MReader(bad)
    bad.write_bytes(b"YUV4MPEG2 W4 H4 C444alpha\n")
    with pytest.raises(Y4MError, match="colour space"):
        Y4MReader(bad)
    bad.write_bytes(b"YUV4MPEG2 W4 H4 C420p18\n")
    with pytest.raises(Y4MError, match="colour space"):
        Y4MReader(bad)
    bad.write_bytes(b"YUV4MPEG2 Wx H4\n")
    with pytest.raises(Y4MError, match="W/H: Wx"):
        Y4MReader(bad)
    write_y4m(bad, 4, 4, "420", [[np.zeros((4, 4), np.uint8)] + [np.zeros((2, 2), np.uint8)] * 2] * 2)
    data = bad.read_bytes()
    bad.write_bytes(data[:-3])
    with pytest.raises(Y4MError, match="frame 1 is truncated"):
        Y4MReader(bad)
    bad.write_bytes(data.replace(b"FRAME", b"FRAMX", 2).replace(b"FRAMX", b"FRAME", 1))
    with pytest.raises(Y4MError, match="frame 1: missing FRAME"):
        Y4MReader(bad)
    with pytest.raises(FileNotFoundError):
        Y4MReader(tmp_path / "absent.y4m")


# The table of hostile headers the vmaf tool is tested on too (tests/cli/cli_y4m_headers.py):
# both readers accept or refuse the same files.
_TABLE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "cli", "y4m_headers.json")
with open(_TABLE) as _f:
    HOSTILE = json.load(_f)["cases"]


def _case_bytes(case):
    """The same bytes as tests/cli/cli_y4m_headers.py writes for a case."""
    header = case["header"].encode("latin-1")
    if "pad_to" in case:
        header += b" X" + b"a" * (case["pad_to"] - len(header) - 2)
    frame = case.get("frame", "FRAME").encode("latin-1") + b"\n"
    samples = bytes(range(256)) * (case.get("frame_bytes", 384) // 256 + 1)
    return header + b"\n" + (frame + samples[:case.get("frame_bytes", 384)]) * 2


@pytest.mark.parametrize("case", HOSTILE, ids=[repr(c["header"][:40]) for c in HOSTILE])
def test_hostile_headers_as_the_tool(tmp_path, case):
    path = tmp_path / "case.y4m"
    path.write_bytes(_case_bytes(case))
    if case["ok"]:
        r = Y4MReader(path)
        assert len(r) == 2
        # The samples of a frame are where the table put them.
        raw = b"".join(p.astype(p.dtype.newbyteorder("<")).tobytes() for p in r[1])
        assert raw == (bytes(range(256)) * 8)[:case.get("frame_bytes", 384)]
    else:
        with pytest.raises(Y4MError):
            Y4MReader(path)
