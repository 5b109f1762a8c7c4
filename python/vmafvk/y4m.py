# SPDX-License-Identifier: BSD-2-Clause-Patent
"""A small YUV4MPEG2 (.y4m) reader on numpy.

Frames come back as a tuple of planes (Y, U, V), or (Y,) for monochrome
files, each a 2-D numpy array: uint8 for 8-bit files, uint16 (little-endian
in the file, native in memory) above 8 bits. The file is memory-mapped and
indexed once, so random access (``reader[i]``) and ``len(reader)`` are cheap.

Supported colour spaces (the ``C`` header tag): 420jpeg, 420paldv, 420mpeg2,
420, 422, 444, mono, and 420p10, 422p10, 444p10, mono10 and the same at 12 and
16 bits. Without a ``C`` tag the file is 4:2:0 8-bit.

The header follows the rules of the `vmaf` tool's reader (core/tools/io), so
that a file one refuses the other refuses too (tests/data/y4m_headers.json
holds the cases both are tested on): one line of at most 4096 bytes with its
newline, ``YUV4MPEG2`` then tags separated by spaces, printable ASCII only;
``W`` and ``H`` whole numbers from 1 to 65536 (decimal digits only), ``F`` as
``num:den``, ``I`` progressive (``p`` or ``?``; interlaced files are refused),
``C`` one of the colour spaces above; other tags are ignored. Each frame is
``FRAME``, optional parameters after a space, a newline, and its samples.
"""

from __future__ import annotations

import os
import re

import numpy as np

__all__ = ["Y4MReader", "Y4MError", "read_y4m"]

_MAGIC = b"YUV4MPEG2"
_MAX_HEADER = 4096  # bytes of a header line (and of a frame's), its newline included
_MAX_DIM = 65536

# Chroma subsampling shifts (x, y) per layout; None for monochrome.
_LAYOUTS = {
    "420": (1, 1),
    "422": (1, 0),
    "444": (0, 0),
    "mono": None,
}
# The ``C`` tags the vmaf tool reads: layout and bits per component.
_COLORSPACES = {
    "420jpeg": ("420", 8), "420paldv": ("420", 8), "420mpeg2": ("420", 8), "420": ("420", 8),
    "422": ("422", 8), "444": ("444", 8), "mono": ("mono", 8),
    **{f"{layout}{'' if layout == 'mono' else 'p'}{bpc}": (layout, bpc)
       for layout in ("420", "422", "444", "mono") for bpc in (10, 12, 16)},
}
_DIGITS = re.compile(r"[0-9]{1,10}")


class Y4MError(ValueError):
    """The file is not a Y4M file this reader understands, or it is truncated."""


def _parse_colorspace(tag: str):
    if tag not in _COLORSPACES:
        raise Y4MError(f"unsupported Y4M colour space C{tag}")
    return _COLORSPACES[tag]


def _decimal(text: str, limit: int):
    """A whole number of decimal digits only, at most `limit`; None otherwise."""
    if not _DIGITS.fullmatch(text):
        return None
    v = int(text)
    return v if v <= limit else None


class Y4MReader:
    """Index of the frames of one .y4m file.

    Attributes: ``width``, ``height``, ``bpc`` (bits per component),
    ``layout`` ("420", "422", "444" or "mono"), ``pix_fmt`` (same, for
    vmafvk.Context), ``fps`` (a float, or None), ``plane_shapes``.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        with open(self.path, "rb") as f:
            head = f.read(_MAX_HEADER)
        end = head.find(b"\n")
        if not head.startswith(_MAGIC) or end < 0:
            raise Y4MError(f"{self.path}: not a YUV4MPEG2 file")
        line = head[:end]
        if len(line) > len(_MAGIC) and line[len(_MAGIC)] != 0x20:
            raise Y4MError(f"{self.path}: not a YUV4MPEG2 file (bad signature)")
        bad = next((b for b in line if b < 0x20 or b > 0x7E), None)
        if bad is not None:
            raise Y4MError(f"{self.path}: Y4M header has a byte 0x{bad:02x} "
                           "(tags are printable ASCII separated by spaces)")
        self._parse_header(line.decode("ascii"))
        self._data_start = end + 1
        self._map = None
        size = os.path.getsize(self.path)
        if size > self._data_start:
            # Slices of a plain array view: a memmap's slices are memmaps, slower to make.
            self._map = np.asarray(np.memmap(self.path, dtype=np.uint8, mode="r"))
        self._offsets = self._index(size)

    def _parse_header(self, line: str) -> None:
        self.width = self.height = None
        self.fps = None
        colorspace = "420"
        for token in line[len(_MAGIC):].split(" "):
            if not token:
                continue
            key, value = token[0], token[1:]
            if key in "WH":
                v = _decimal(value, _MAX_DIM)
                if not v:
                    raise Y4MError(f"{self.path}: Y4M header W/H: {token} is not a whole number "
                                   f"from 1 to {_MAX_DIM}")
                if key == "W":
                    self.width = v
                else:
                    self.height = v
            elif key == "F":
                num, _, den = value.partition(":")
                num, den = _decimal(num, 2**32 - 1), _decimal(den, 2**32 - 1)
                if num is None or den is None:
                    raise Y4MError(f"{self.path}: Y4M frame rate {token} is not F<num>:<den>")
                self.fps = num / den if den else None
            elif key == "I":
                if value in ("t", "b", "m"):
                    raise Y4MError(f"{self.path}: interlaced Y4M ({token}) is not supported")
                if value not in ("p", "?"):
                    raise Y4MError(f"{self.path}: unknown Y4M interlacing {token} "
                                   "(Ip, I?, It, Ib, Im)")
            elif key == "C":
                colorspace = value
        if not self.width or not self.height:
            raise Y4MError(f"{self.path}: Y4M header has no valid W/H")
        self.layout, self.bpc = _parse_colorspace(colorspace)
        self.pix_fmt = self.layout
        self.dtype = np.dtype(np.uint8) if self.bpc == 8 else np.dtype("<u2")
        shift = _LAYOUTS[self.layout]
        shapes = [(self.height, self.width)]
        if shift is not None:
            sx, sy = shift
            c = ((self.height + sy) >> sy, (self.width + sx) >> sx)
            shapes += [c, c]
        self.plane_shapes = tuple(shapes)
        self.frame_bytes = sum(h * w for h, w in shapes) * self.dtype.itemsize

    def _index(self, size: int) -> list:
        """Byte offsets of each frame's samples, checking every FRAME marker."""
        offsets = []
        pos = self._data_start
        while pos < size:
            line_end = self._find_newline(pos, size)
            if (self._map[pos:pos + 5].tobytes() != b"FRAME" or line_end < 0
                    or (line_end > pos + 5 and self._map[pos + 5] != 0x20)):
                raise Y4MError(f"{self.path}: frame {len(offsets)}: missing FRAME marker "
                               f"at byte {pos}")
            data = line_end + 1
            if data + self.frame_bytes > size:
                raise Y4MError(f"{self.path}: frame {len(offsets)} is truncated "
                               f"({size - data} of {self.frame_bytes} bytes)")
            offsets.append(data)
            pos = data + self.frame_bytes
        return offsets

    def _find_newline(self, pos: int, size: int) -> int:
        window = self._map[pos:min(pos + _MAX_HEADER, size)]
        hits = np.flatnonzero(window == 0x0A)
        return pos + int(hits[0]) if hits.size else -1

    def __len__(self) -> int:
        return len(self._offsets)

    def __getitem__(self, index: int) -> tuple:
        n = len(self._offsets)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"frame {index} out of range ({n} frames)")
        pos = self._offsets[index]
        planes = []
        for h, w in self.plane_shapes:
            nbytes = h * w * self.dtype.itemsize
            raw = self._map[pos:pos + nbytes]
            plane = raw.view(self.dtype).reshape(h, w)
            if not plane.dtype.isnative:
                plane = plane.astype(np.uint16)
            planes.append(plane)
            pos += nbytes
        return tuple(planes)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return (f"Y4MReader({self.path!r}: {self.width}x{self.height} {self.layout} "
                f"{self.bpc}-bit, {len(self)} frames)")


def read_y4m(path: str | os.PathLike) -> list:
    """All frames of `path` as a list of plane tuples (copies, not views of the file)."""
    reader = Y4MReader(path)
    return [tuple(np.array(p) for p in frame) for frame in reader]
