#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Converts each frame of a .y4m clip to an RGB PFM file (float32, sRGB-encoded
values in [0, 1]) for libjxl's ssimulacra2 and butteraugli_main tools, by the
conversion the ssimulacra2 feature documents (docs/features/ssimulacra2.md),
written here independently of the library with numpy:

  normalized  limited range: Y' = (Y - 16 s) / (219 s), C' = (C - 128 s) / (224 s),
              s = 2^(bits - 8); full range: Y' = Y / (2^bits - 1),
              C' = (C - 2^(bits - 1)) / (2^bits - 1)
  chroma      each chroma sample covers the luma samples of its block
              (2x2 for 4:2:0, 2x1 for 4:2:2): repeated, no filtering
  matrix      R = Y' + 2 (1 - Kr) Cr'
              G = Y' - 2 Kb (1 - Kb) / Kg Cb' - 2 Kr (1 - Kr) / Kg Cr'
              B = Y' + 2 (1 - Kb) Cb'
  output      clamped to [0, 1] in double, then rounded to float32

  yuv_to_rgb.py [--matrix auto|bt601|bt709|bt2020] [--range limited|full] IN.y4m OUTDIR

OUTDIR/000000.pfm, 000001.pfm, ... one per frame.
"""
import argparse
import os
import re
import sys

import numpy as np

WEIGHTS = {"bt601": (0.299, 0.114), "bt709": (0.2126, 0.0722), "bt2020": (0.2627, 0.0593)}


def read_y4m(path):
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"\n")
    tokens = data[:end].split()
    if tokens[0] != b"YUV4MPEG2":
        sys.exit(f"{path}: not a YUV4MPEG2 file")
    w = h = None
    cs = "420"
    for t in tokens[1:]:
        if t[:1] == b"W":
            w = int(t[1:])
        elif t[:1] == b"H":
            h = int(t[1:])
        elif t[:1] == b"C":
            cs = t[1:].decode()
    m = re.match(r"(\d{3})(?:p(\d+))?", cs)
    sub = m.group(1) if m else cs
    bits = int(m.group(2)) if m and m.group(2) else 8
    if sub not in ("420", "422", "444"):
        sys.exit(f"{path}: chroma layout C{cs} is not 4:2:0, 4:2:2 or 4:4:4")
    sx = 1 if sub in ("420", "422") else 0
    sy = 1 if sub == "420" else 0
    cw, ch = (w + sx) >> sx, (h + sy) >> sy
    dtype = np.dtype("<u2") if bits > 8 else np.dtype("u1")
    frames = []
    pos = end + 1
    n_luma, n_chroma = w * h, cw * ch
    size = (n_luma + 2 * n_chroma) * dtype.itemsize
    while pos < len(data):
        line_end = data.index(b"\n", pos)
        if not data[pos:line_end].startswith(b"FRAME"):
            sys.exit(f"{path}: bad frame header at byte {pos}")
        pos = line_end + 1
        buf = np.frombuffer(data, dtype=dtype, count=n_luma + 2 * n_chroma, offset=pos)
        pos += size
        y = buf[:n_luma].reshape(h, w)
        u = buf[n_luma:n_luma + n_chroma].reshape(ch, cw)
        v = buf[n_luma + n_chroma:].reshape(ch, cw)
        frames.append((y, u, v))
    return w, h, bits, sx, sy, frames


def convert(y, u, v, bits, sx, sy, weights, full):
    h, w = y.shape
    # Chroma repeated over its block, cut to the luma size.
    u = np.repeat(np.repeat(u, 1 << sy, axis=0), 1 << sx, axis=1)[:h, :w].astype(np.float64)
    v = np.repeat(np.repeat(v, 1 << sy, axis=0), 1 << sx, axis=1)[:h, :w].astype(np.float64)
    y = y.astype(np.float64)
    if full:
        yn = (y - 0.0) / float((1 << bits) - 1)
        cb = (u - float(1 << (bits - 1))) / float((1 << bits) - 1)
        cr = (v - float(1 << (bits - 1))) / float((1 << bits) - 1)
    else:
        s = float(1 << (bits - 8))
        yn = (y - 16.0 * s) / (219.0 * s)
        cb = (u - 128.0 * s) / (224.0 * s)
        cr = (v - 128.0 * s) / (224.0 * s)
    kr, kb = weights
    kg = 1.0 - kr - kb
    cr_r = 2.0 * (1.0 - kr)
    cb_b = 2.0 * (1.0 - kb)
    cb_g = 2.0 * kb * (1.0 - kb) / kg
    cr_g = 2.0 * kr * (1.0 - kr) / kg
    r = yn + cr_r * cr
    g = yn - cb_g * cb - cr_g * cr
    b = yn + cb_b * cb
    return [np.clip(c, 0.0, 1.0).astype(np.float32) for c in (r, g, b)]


def write_pfm(path, rgb):
    h, w = rgb[0].shape
    px = np.stack(rgb, axis=-1)[::-1]  # PFM rows run bottom to top
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (w, h))  # negative scale: little-endian
        f.write(px.astype("<f4").tobytes())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matrix", default="auto", choices=["auto", *WEIGHTS])
    ap.add_argument("--range", default="limited", choices=["limited", "full"])
    ap.add_argument("input")
    ap.add_argument("outdir")
    a = ap.parse_args()
    w, h, bits, sx, sy, frames = read_y4m(a.input)
    matrix = a.matrix
    if matrix == "auto":
        matrix = "bt709" if h > 650 else "bt601"
    os.makedirs(a.outdir, exist_ok=True)
    for i, (y, u, v) in enumerate(frames):
        rgb = convert(y, u, v, bits, sx, sy, WEIGHTS[matrix], a.range == "full")
        write_pfm(os.path.join(a.outdir, "%06d.pfm" % i), rgb)


if __name__ == "__main__":
    main()
