#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Reference scores for the ssimulacra2 feature from libjxl's own `ssimulacra2`
# tool, unmodified.
#
#   scripts/truth/ssimulacra2.sh [--no-fma] REF.y4m DIS.y4m OUT.json [-- CONVERSION OPTIONS]
#   scripts/truth/ssimulacra2.sh [--no-fma] --build     only build (or find) the tool
#
# 1. The tool is built once from the orig tarballs of Debian sid's jpeg-xl source
#    package (libjxl 0.11.2) and of sid's highway source package (1.3.0), by
#    scripts/truth/libjxl.sh (which says how, and with which flags; --no-fma
#    builds Highway's SSE2 code, without fused multiply-adds). Only the
#    ssimulacra2 target is built. The cache, keyed by the two tarballs' hashes
#    and the build flags, lives outside the repository, shared with
#    scripts/truth/butteraugli.sh:
#      ${LIBVMAF_VK_SSIMULACRA2_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libvmaf-vk/ssimulacra2}
#    (LIBVMAF_VK_LIBJXL_CACHE, if set, takes precedence.)
# 2. scripts/truth/yuv_to_rgb.py (numpy, independent of the library) converts
#    each frame of both clips to float RGB PFM files (libjxl reads PFM as sRGB,
#    its float values as they are), by the same conversion the extractor documents
#    (docs/features/ssimulacra2.md); its options (--matrix, --range, ...) are
#    those after `--`.
# 3. The tool scores each pair of PFM files; the scores are written in libvmaf's
#    JSON layout (frames[i].metrics.ssimulacra2, 17 significant digits).
set -euo pipefail

ssim2_script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export ffmpeg_script_name=truth/ssimulacra2
# shellcheck source=scripts/truth/libjxl.sh
source "$ssim2_script_dir/libjxl.sh"

jxl_fma=1
if [ "${1:-}" = --no-fma ]; then
  jxl_fma=0
  shift
fi
libjxl_flags "$jxl_fma"

if [ "${1:-}" = --build ]; then
  libjxl_build ssimulacra2
  exit 0
fi

[ $# -ge 3 ] || die "usage: $0 [--no-fma] REF.y4m DIS.y4m OUT.json [-- yuv_to_rgb.py options] | $0 [--no-fma] --build"
ref=$1 dis=$2 out=$3
shift 3
[ "${1:-}" != -- ] || shift
tool=$(libjxl_build ssimulacra2)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nframes=$(libjxl_convert "$ref" "$dis" "$work" "$@")
: >"$work/scores"
for ((i = 0; i < nframes; i++)); do
  f=$(printf '%06d.pfm' "$i")
  "$tool" "$work/ref/$f" "$work/dis/$f" >>"$work/scores" ||
    die "ssimulacra2 failed on frame $i"
done
python3 - "$work/scores" "$out" <<'PY'
import json, sys
scores = [float(line) for line in open(sys.argv[1]) if line.strip()]
frames = ",\n".join(
    '    {"frameNum": %d, "metrics": {"ssimulacra2": %s}}' % (i, "%.17g" % s)
    for i, s in enumerate(scores))
with open(sys.argv[2], "w") as f:
    f.write('{\n  "frames": [\n%s\n  ]\n}\n' % frames)
PY
