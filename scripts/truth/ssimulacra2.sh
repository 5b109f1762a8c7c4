#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Reference scores for the ssimulacra2 feature from libjxl's own `ssimulacra2`
# tool, unmodified.
#
#   scripts/truth/ssimulacra2.sh [--no-fma] REF.y4m DIS.y4m OUT.json [-- CONVERSION OPTIONS]
#   scripts/truth/ssimulacra2.sh [--no-fma] --build     only build (or find) the tool
#
# 1. The tool is built once from the orig tarballs of Debian sid's jpeg-xl source
#    package (libjxl 0.11.2) and of sid's highway source package (1.3.0: libjxl
#    0.11 needs Highway 1.0.7 or newer, bookworm has 1.0.3). Brotli, lcms2 and
#    libpng are bookworm's (libbrotli-dev, liblcms2-dev, libpng-dev, cmake). Only
#    the ssimulacra2 target is built. The sources come through the private apt
#    configuration of scripts/ffmpeg/lib.sh (sid from the mirrors the system's own
#    apt sources name); the cache, keyed by the two tarballs' hashes and the build
#    flags below, lives outside the repository:
#      ${LIBVMAF_VK_SSIMULACRA2_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libvmaf-vk/ssimulacra2}
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
# shellcheck source=scripts/ffmpeg/lib.sh
source "$ssim2_script_dir/../ffmpeg/lib.sh"

ssim2_cache=${LIBVMAF_VK_SSIMULACRA2_CACHE:-${XDG_CACHE_HOME:-${HOME:?set HOME or LIBVMAF_VK_SSIMULACRA2_CACHE}/.cache}/libvmaf-vk/ssimulacra2}

jxl_deb_version=0.11.2-5.1
jxl_orig=jpeg-xl_0.11.2.orig.tar.gz
jxl_orig_sha256=ab38928f7f6248e2a98cc184956021acb927b16a0dee71b4d260dc040a4320ea
hwy_deb_version=1.3.0-5.1
hwy_orig=highway_1.3.0.orig.tar.gz
hwy_orig_sha256=07b3c1ba2c1096878a85a31a5b9b3757427af963b1141ca904db2f9f4afe0bc2

# Only what the ssimulacra2 tool needs; the rest of libjxl is left out.
# Which of Highway's x86 targets the tool is built for (one, chosen at compile
# time: a third of the compile time of a default build's runtime dispatch).
# The default is AVX2 (with FMA: -march=haswell -maes; Highway wants AES and
# PCLMUL for SSE4 and up), the code a default build runs on an AVX2 machine.
# --no-fma leaves -maes out, so that Highway's static target is SSE2, whose
# multiply-adds are not fused: the code a default build runs without AVX2
# (the extractor's libjxl_fma=0). Contraction stays off so that the code
# outside Highway fuses nothing, as in a default build for baseline x86-64.
# Without optimization (the pictures are small) the build takes a fraction of
# the time; IEEE arithmetic without -ffast-math gives the same results at any
# level.
jxl_fma=1
if [ "${1:-}" = --no-fma ]; then
  jxl_fma=0
  shift
fi
jxl_arch="-march=haswell -maes"
[ "$jxl_fma" = 1 ] || jxl_arch="-march=haswell"
jxl_cflags="-O0 -DNDEBUG $jxl_arch -ffp-contract=off -DHWY_COMPILE_ONLY_STATIC=1"
jxl_cmake_flags=(
  -DCMAKE_BUILD_TYPE=None "-DCMAKE_C_FLAGS=$jxl_cflags" "-DCMAKE_CXX_FLAGS=$jxl_cflags" -DBUILD_TESTING=OFF -DJPEGXL_ENABLE_DEVTOOLS=ON
  -DJPEGXL_ENABLE_TOOLS=ON -DJPEGXL_ENABLE_BENCHMARK=OFF -DJPEGXL_ENABLE_EXAMPLES=OFF
  -DJPEGXL_ENABLE_MANPAGES=OFF -DJPEGXL_ENABLE_JPEGLI=OFF -DJPEGXL_ENABLE_OPENEXR=OFF
  -DJPEGXL_ENABLE_SJPEG=OFF -DJPEGXL_ENABLE_SKCMS=OFF -DJPEGXL_FORCE_SYSTEM_LCMS2=ON
  -DJPEGXL_FORCE_SYSTEM_BROTLI=ON -DJPEGXL_ENABLE_JNI=OFF -DJPEGXL_ENABLE_PLUGINS=OFF
  -DJPEGXL_ENABLE_DOXYGEN=OFF -DJPEGXL_ENABLE_FUZZERS=OFF -DJPEGXL_BUNDLE_LIBPNG=OFF
  -DJPEGXL_ENABLE_VIEWERS=OFF -DJPEGXL_ENABLE_TCMALLOC=OFF -DJPEGXL_ENABLE_AVX512=OFF
)

# Puts a pinned orig tarball into dl/ (sid's source package, else the pool of
# each configured mirror) and checks its hash; prints its path.
ssim2_fetch() {
  local pkg=$1 deb_version=$2 orig=$3 sha=$4 dl=$ssim2_cache/dl
  local tarball=$dl/$orig
  mkdir -p "$dl"
  if [ ! -s "$tarball" ]; then
    ffmpeg_apt_update_once
    say "apt-get source --download-only $pkg=$deb_version"
    (cd "$dl" && ffmpeg_apt apt-get -qq source --download-only "$pkg=$deb_version" \
      >"$dl/source-$pkg.log" 2>&1) || true
    if [ ! -s "$tarball" ]; then
      local mirror prefix=${pkg:0:1}
      while read -r mirror; do
        if python3 - "$mirror/pool/main/$prefix/$pkg/$orig" "$tarball.part" >>"$dl/source-$pkg.log" 2>&1 <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=120) as r, open(sys.argv[2], "wb") as f:
    while chunk := r.read(1 << 20):
        f.write(chunk)
PY
        then mv "$tarball.part" "$tarball"; break; fi
      done < <(ffmpeg_apt_mirrors)
      rm -f "$tarball.part"
      [ -s "$tarball" ] || die "no apt source serves $orig ($pkg $deb_version); copy it (sha256 $sha) to $tarball (see $dl/source-$pkg.log)"
    fi
  fi
  local got
  got=$(sha256_of "$tarball")
  [ "$got" = "$sha" ] || { mv "$tarball" "$tarball.bad"; die "$orig has sha256 $got, expected $sha (moved aside)"; }
  echo "$tarball"
}

# Builds libjxl's ssimulacra2 tool once per key; prints its path.
ssim2_build() {
  local key dir
  key=$( { echo "$jxl_orig_sha256 $hwy_orig_sha256"; printf '%s\n' "${jxl_cmake_flags[@]}"; } | sha256sum | cut -c1-16)
  dir=$ssim2_cache/$key
  if [ -x "$dir/build/tools/ssimulacra2" ]; then
    echo "$dir/build/tools/ssimulacra2"
    return
  fi
  mkdir -p "$ssim2_cache"
  exec 8>"$ssim2_cache/lock"
  flock 8
  if [ ! -x "$dir/build/tools/ssimulacra2" ]; then
    local jxl hwy
    jxl=$(ssim2_fetch jpeg-xl "$jxl_deb_version" "$jxl_orig" "$jxl_orig_sha256")
    hwy=$(ssim2_fetch highway "$hwy_deb_version" "$hwy_orig" "$hwy_orig_sha256")
    if [ ! -f "$dir/src/.done" ]; then
      rm -rf "$dir/src" && mkdir -p "$dir/src"
      tar -xzf "$jxl" -C "$dir/src" --strip-components=1 || die "could not unpack $jxl"
      rm -rf "$dir/src/third_party/highway" && mkdir -p "$dir/src/third_party/highway"
      tar -xzf "$hwy" -C "$dir/src/third_party/highway" --strip-components=1 || die "could not unpack $hwy"
      touch "$dir/src/.done"
    fi
    say "building libjxl's ssimulacra2 in $dir/build (slow: one target, nice, -j2)"
    cmake -S "$dir/src" -B "$dir/build" -G Ninja "${jxl_cmake_flags[@]}" >"$dir/cmake.log" 2>&1 ||
      die "cmake failed (see $dir/cmake.log)"
    nice ninja -C "$dir/build" -j2 ssimulacra2 >"$dir/build.log" 2>&1 ||
      die "building ssimulacra2 failed (see $dir/build.log)"
  fi
  flock -u 8
  echo "$dir/build/tools/ssimulacra2"
}

if [ "${1:-}" = --build ]; then
  ssim2_build
  exit 0
fi

[ $# -ge 3 ] || die "usage: $0 [--no-fma] REF.y4m DIS.y4m OUT.json [-- yuv_to_rgb.py options] | $0 [--no-fma] --build"
ref=$1 dis=$2 out=$3
shift 3
[ "${1:-}" != -- ] || shift
tool=$(ssim2_build)

# A Python with numpy: $PYTHON, else python3.
python=${PYTHON:-python3}
"$python" -c 'import numpy' 2>/dev/null || die "$python has no numpy (install python3-numpy, or set PYTHON)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" "$ssim2_script_dir/yuv_to_rgb.py" "$@" "$ref" "$work/ref" ||
  die "converting $ref failed"
"$python" "$ssim2_script_dir/yuv_to_rgb.py" "$@" "$dis" "$work/dis" ||
  die "converting $dis failed"
nref=$(find "$work/ref" -name '*.pfm' | wc -l)
ndis=$(find "$work/dis" -name '*.pfm' | wc -l)
[ "$nref" -eq "$ndis" ] || die "$ref has $nref frames, $dis has $ndis"
: >"$work/scores"
for ((i = 0; i < nref; i++)); do
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
