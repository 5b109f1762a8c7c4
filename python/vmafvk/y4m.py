"""A small YUV4MPEG2 (.y4m) reader on numpy.

Frames come back as a tuple of planes (Y, U, V), or (Y,) for monochrome
files, each a 2-D numpy array: uint8 for 8-bit files, uint16 (little-endian
in the file, native in memory) above 8 bits. The file is memory-mapped and
indexed once, so random access (``reader[i]``) and ``len(reader)`` are cheap.

Supported colour spaces (the ``C`` header tag): 420jpeg, 420paldv, 420mpeg2,
420, 422, 444, mono, and their high-bit-depth forms 420p10, 422p12, 444p16,
mono10, ... (9 to 16 bits). Without a ``C`` tag the file is 4:2:0 8-bit.
"""

from __future__ import annotations

import os
import re

import numpy as np

__all__ = ["Y4MReader", "Y4MError", "read_y4m"]

_MAGIC = b"YUV4MPEG2"
_MAX_HEADER = 4096

# Chroma subsampling shifts (x, y) per layout; None for monochrome.
_LAYOUTS = {
    "420": (1, 1),
    "422": (1, 0),
    "444": (0, 0),
    "mono": None,
}
_COLORSPACE = re.compile(r"^(420|422|444|mono)(jpeg|paldv|mpeg2)?(?:p?(\d+))?$")


class Y4MError(ValueError):
    """The file is not a Y4M file this reader understands, or it is truncated."""


def _parse_colorspace(tag: str):
    m = _COLORSPACE.match(tag)
    if not m:
        raise Y4MError(f"unsupported Y4M colour space C{tag}")
    layout, siting, depth = m.groups()
    if siting and layout != "420":
        raise Y4MError(f"unsupported Y4M colour space C{tag}")
    bpc = int(depth) if depth else 8
    if not 8 <= bpc <= 16:
        raise Y4MError(f"unsupported Y4M bit depth {bpc} (C{tag})")
    return layout, bpc


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
        self._parse_header(head[:end].decode("ascii", "replace"))
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
        for token in line.split()[1:]:
            key, value = token[0], token[1:]
            try:
                if key == "W":
                    self.width = int(value)
                elif key == "H":
                    self.height = int(value)
                elif key == "F":
                    num, den = (int(v) for v in value.split(":"))
                    self.fps = num / den if den else None
                elif key == "C":
                    colorspace = value
            except ValueError:
                raise Y4MError(f"{self.path}: bad Y4M header field {token!r}") from None
        if not self.width or not self.height or self.width < 0 or self.height < 0:
            raise Y4MError(f"{self.path}: Y4M header lacks a valid W and H")
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
            if self._map[pos:pos + 5].tobytes() != b"FRAME" or line_end < 0:
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
        window = self._map[pos:min(pos + 256, size)]
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
