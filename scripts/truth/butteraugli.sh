#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Reference scores for the butteraugli feature from libjxl's own
# `butteraugli_main` tool, unmodified.
#
#   scripts/truth/butteraugli.sh [--no-fma] REF.y4m DIS.y4m OUT.json [-- CONVERSION OPTIONS]
#   scripts/truth/butteraugli.sh [--no-fma] --build     only build (or find) the tool
#
# 1. The tool is built once from the orig tarballs of Debian sid's jpeg-xl source
#    package (libjxl 0.11.2) and of sid's highway source package (1.3.0), by
#    scripts/truth/libjxl.sh, with the flags and in the same source tree and
#    build directory as scripts/truth/ssimulacra2.sh's tool (--no-fma builds
#    Highway's SSE2 code, without fused multiply-adds). Only the
#    butteraugli_main target is built. The cache lives outside the repository:
#      ${LIBVMAF_VK_LIBJXL_CACHE:-${LIBVMAF_VK_SSIMULACRA2_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libvmaf-vk/ssimulacra2}}
# 2. scripts/truth/yuv_to_rgb.py (numpy, independent of the library) converts
#    each frame of both clips to float RGB PFM files (libjxl reads PFM as
#    nonlinear sRGB, its float values as they are), as for ssimulacra2; its
#    options (--matrix, --range, ...) are those after `--`.
# 3. The tool compares each pair of PFM files with its defaults (3-norm,
#    intensity target 80 for sRGB input) and --rawdistmap: it prints the
#    distance ("%.10f") and the 3-norm ("3-norm: %f"), and writes the raw
#    distance map (PFM, float32). The distance is the map's maximum, a float:
#    it is taken exactly from the map (and checked against the printed value);
#    the 3-norm is taken as the tool prints it (6 decimals). Both are written
#    in libvmaf's JSON layout: frames[i].metrics.butteraugli (the map's
#    maximum, 17 significant digits) and frames[i].metrics.butteraugli_3norm.
set -euo pipefail

ba_script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export ffmpeg_script_name=truth/butteraugli
# shellcheck source=scripts/truth/libjxl.sh
source "$ba_script_dir/libjxl.sh"

jxl_fma=1
if [ "${1:-}" = --no-fma ]; then
  jxl_fma=0
  shift
fi
libjxl_flags "$jxl_fma"

if [ "${1:-}" = --build ]; then
  libjxl_build butteraugli_main
  exit 0
fi

[ $# -ge 3 ] || die "usage: $0 [--no-fma] REF.y4m DIS.y4m OUT.json [-- yuv_to_rgb.py options] | $0 [--no-fma] --build"
ref=$1 dis=$2 out=$3
shift 3
[ "${1:-}" != -- ] || shift
tool=$(libjxl_build butteraugli_main)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nframes=$(libjxl_convert "$ref" "$dis" "$work" "$@")
mkdir -p "$work/map" "$work/out"
for ((i = 0; i < nframes; i++)); do
  f=$(printf '%06d.pfm' "$i")
  "$tool" "$work/ref/$f" "$work/dis/$f" --rawdistmap "$work/map/$f" >"$work/out/$f.txt" ||
    die "butteraugli_main failed on frame $i"
done
python3 - "$work" "$nframes" "$out" <<'PY'
import math, os, re, struct, sys
work, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def pfm_max(path):
    """The largest value of a grayscale little-endian PFM file ("Pf", scale
    -1.0), as the float32 it is (exactly, as a Python float)."""
    with open(path, "rb") as f:
        data = f.read()
    m = re.match(rb"Pf\n(\d+) (\d+)\n(-1\.0)\n", data)
    if not m:
        sys.exit("%s: not a little-endian grayscale PFM file" % path)
    w, h = int(m.group(1)), int(m.group(2))
    body = data[m.end():]
    if len(body) != 4 * w * h:
        sys.exit("%s: %d bytes of samples, expected %d" % (path, len(body), 4 * w * h))
    values = struct.unpack("<%df" % (w * h), body)
    if not all(math.isfinite(v) for v in values):
        sys.exit("%s: not all values are finite" % path)
    return max(values)


frames = []
for i in range(n):
    name = "%06d.pfm" % i
    text = open(os.path.join(work, "out", name + ".txt")).read()
    m = re.fullmatch(r"(\d+\.\d{10})\n3-norm: (\d+\.\d{6})\n", text)
    if not m:
        sys.exit("frame %d: unexpected output of butteraugli_main: %r" % (i, text))
    printed, pnorm = m.group(1), m.group(2)
    # The distance is the map's maximum (0 for an empty difference).
    distance = max(0.0, pfm_max(os.path.join(work, "map", name)))
    if "%.10f" % distance != printed:
        sys.exit("frame %d: the map's maximum %.17g is not the printed distance %s"
                 % (i, distance, printed))
    frames.append('    {"frameNum": %d, "metrics": {"butteraugli": %s, "butteraugli_3norm": %s}}'
                  % (i, "%.17g" % distance, pnorm))
with open(out, "w") as f:
    f.write('{\n  "frames": [\n%s\n  ]\n}\n' % ",\n".join(frames))
PY
