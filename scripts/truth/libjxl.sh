# SPDX-License-Identifier: BSD-2-Clause-Patent
# shellcheck shell=bash
# Shared by the truth scripts that run libjxl's own tools (sourced, not run):
# scripts/truth/ssimulacra2.sh (tool `ssimulacra2`) and
# scripts/truth/butteraugli.sh (tool `butteraugli_main`). The caller sets
# ffmpeg_script_name, sources this file, calls libjxl_flags 1|0 (FMA or not),
# then libjxl_build TARGET, which prints the tool's path.
#
# The tools are built from the orig tarballs of Debian sid's jpeg-xl source
# package (libjxl 0.11.2) and of sid's highway source package (1.3.0: libjxl
# 0.11 needs Highway 1.0.7 or newer, bookworm has 1.0.3). Brotli, lcms2 and
# libpng are bookworm's (libbrotli-dev, liblcms2-dev, libpng-dev, cmake). Only
# the targets asked for are built, unmodified. The sources come through the
# private apt configuration of scripts/ffmpeg/lib.sh (sid from the mirrors the
# system's own apt sources name). One cache serves every tool; it lives outside
# the repository (named after the first tool that used it):
#   ${LIBVMAF_VK_LIBJXL_CACHE:-${LIBVMAF_VK_SSIMULACRA2_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libvmaf-vk/ssimulacra2}}
#     dl/               the two orig tarballs
#     <key>/src/        libjxl with Highway in third_party/highway
#     <key>/build/      one cmake build; build/tools/<tool> are the tools
#     lock              serialises runs that share the cache
# The key is a hash of the two tarballs' hashes and the build flags below, so
# that the FMA and no-FMA builds each have one source tree and one build
# directory, whichever tools are built in it.

libjxl_script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/ffmpeg/lib.sh
source "$libjxl_script_dir/../ffmpeg/lib.sh"

libjxl_cache=${LIBVMAF_VK_LIBJXL_CACHE:-${LIBVMAF_VK_SSIMULACRA2_CACHE:-${XDG_CACHE_HOME:-${HOME:?set HOME or LIBVMAF_VK_LIBJXL_CACHE}/.cache}/libvmaf-vk/ssimulacra2}}

jxl_deb_version=0.11.2-5.1
jxl_orig=jpeg-xl_0.11.2.orig.tar.gz
jxl_orig_sha256=ab38928f7f6248e2a98cc184956021acb927b16a0dee71b4d260dc040a4320ea
hwy_deb_version=1.3.0-5.1
hwy_orig=highway_1.3.0.orig.tar.gz
hwy_orig_sha256=07b3c1ba2c1096878a85a31a5b9b3757427af963b1141ca904db2f9f4afe0bc2

# Sets jxl_cmake_flags for an FMA (1) or no-FMA (0) build.
# Only what the tools need; the rest of libjxl is left out.
# Which of Highway's x86 targets the tools are built for (one, chosen at compile
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
libjxl_flags() {
  local arch="-march=haswell -maes"
  [ "$1" = 1 ] || arch="-march=haswell"
  local cflags="-O0 -DNDEBUG $arch -ffp-contract=off -DHWY_COMPILE_ONLY_STATIC=1"
  jxl_cmake_flags=(
    -DCMAKE_BUILD_TYPE=None "-DCMAKE_C_FLAGS=$cflags" "-DCMAKE_CXX_FLAGS=$cflags" -DBUILD_TESTING=OFF -DJPEGXL_ENABLE_DEVTOOLS=ON
    -DJPEGXL_ENABLE_TOOLS=ON -DJPEGXL_ENABLE_BENCHMARK=OFF -DJPEGXL_ENABLE_EXAMPLES=OFF
    -DJPEGXL_ENABLE_MANPAGES=OFF -DJPEGXL_ENABLE_JPEGLI=OFF -DJPEGXL_ENABLE_OPENEXR=OFF
    -DJPEGXL_ENABLE_SJPEG=OFF -DJPEGXL_ENABLE_SKCMS=OFF -DJPEGXL_FORCE_SYSTEM_LCMS2=ON
    -DJPEGXL_FORCE_SYSTEM_BROTLI=ON -DJPEGXL_ENABLE_JNI=OFF -DJPEGXL_ENABLE_PLUGINS=OFF
    -DJPEGXL_ENABLE_DOXYGEN=OFF -DJPEGXL_ENABLE_FUZZERS=OFF -DJPEGXL_BUNDLE_LIBPNG=OFF
    -DJPEGXL_ENABLE_VIEWERS=OFF -DJPEGXL_ENABLE_TCMALLOC=OFF -DJPEGXL_ENABLE_AVX512=OFF
  )
}

# Puts a pinned orig tarball into dl/ (sid's source package, else the pool of
# each configured mirror) and checks its hash; prints its path.
libjxl_fetch() {
  local pkg=$1 deb_version=$2 orig=$3 sha=$4 dl=$libjxl_cache/dl
  local tarball=$dl/$orig
  mkdir -p "$dl"
  if [ ! -s "$tarball" ]; then
    ffmpeg_apt_update_once
    say "apt-get source --download-only $pkg=$deb_version"
    (cd "$dl" && ffmpeg_apt apt-get -qq source --download-only "$pkg=$deb_version" \
      >"$dl/source-$pkg.log" 2>&1) || true
    if [ ! -s "$tarball" ]; then
      ffmpeg_fetch_from_pool "$pkg" "$orig" "$tarball" "$dl/source-$pkg.log" ||
        die "no apt source serves $orig ($pkg $deb_version); copy it (sha256 $sha) to $tarball (see $dl/source-$pkg.log)"
    fi
  fi
  local got
  got=$(sha256_of "$tarball")
  [ "$got" = "$sha" ] || { mv "$tarball" "$tarball.bad"; die "$orig has sha256 $got, expected $sha (moved aside)"; }
  echo "$tarball"
}

# Builds libjxl's tool TARGET (a cmake target of tools/, built as
# build/tools/TARGET) once per key, in the key's one build directory; prints
# its path. libjxl_flags must have been called.
libjxl_build() {
  local target=$1 key dir
  key=$( { echo "$jxl_orig_sha256 $hwy_orig_sha256"; printf '%s\n' "${jxl_cmake_flags[@]}"; } | sha256sum | cut -c1-16)
  dir=$libjxl_cache/$key
  if [ -x "$dir/build/tools/$target" ]; then
    echo "$dir/build/tools/$target"
    return
  fi
  mkdir -p "$libjxl_cache"
  exec 8>"$libjxl_cache/lock"
  flock 8
  if [ ! -x "$dir/build/tools/$target" ]; then
    local jxl hwy
    jxl=$(libjxl_fetch jpeg-xl "$jxl_deb_version" "$jxl_orig" "$jxl_orig_sha256")
    hwy=$(libjxl_fetch highway "$hwy_deb_version" "$hwy_orig" "$hwy_orig_sha256")
    if [ ! -f "$dir/src/.done" ]; then
      rm -rf "$dir/src" "$dir/build" && mkdir -p "$dir/src"
      tar -xzf "$jxl" -C "$dir/src" --strip-components=1 || die "could not unpack $jxl"
      rm -rf "$dir/src/third_party/highway" && mkdir -p "$dir/src/third_party/highway"
      tar -xzf "$hwy" -C "$dir/src/third_party/highway" --strip-components=1 || die "could not unpack $hwy"
      touch "$dir/src/.done"
    fi
    say "building libjxl's $target in $dir/build (slow: one target, nice, -j2)"
    # Configured once; a second tool is built in the same build directory.
    if [ ! -f "$dir/build/build.ninja" ]; then
      cmake -S "$dir/src" -B "$dir/build" -G Ninja "${jxl_cmake_flags[@]}" >"$dir/cmake.log" 2>&1 ||
        die "cmake failed (see $dir/cmake.log)"
    fi
    nice ninja -C "$dir/build" -j2 "$target" >"$dir/build-$target.log" 2>&1 ||
      die "building $target failed (see $dir/build-$target.log)"
  fi
  flock -u 8
  echo "$dir/build/tools/$target"
}

# Converts each frame of REF and DIS (yuv_to_rgb.py, with the options after
# the first three arguments) to WORK/ref/NNNNNN.pfm and WORK/dis/NNNNNN.pfm;
# prints the number of frames.
libjxl_convert() {
  local ref=$1 dis=$2 work=$3
  shift 3
  # A Python with numpy: $PYTHON, else python3.
  local python=${PYTHON:-python3}
  "$python" -c 'import numpy' 2>/dev/null || die "$python has no numpy (install python3-numpy, or set PYTHON)"
  "$python" "$libjxl_script_dir/yuv_to_rgb.py" "$@" "$ref" "$work/ref" ||
    die "converting $ref failed"
  "$python" "$libjxl_script_dir/yuv_to_rgb.py" "$@" "$dis" "$work/dis" ||
    die "converting $dis failed"
  local nref ndis
  nref=$(find "$work/ref" -name '*.pfm' | wc -l)
  ndis=$(find "$work/dis" -name '*.pfm' | wc -l)
  [ "$nref" -eq "$ndis" ] || die "$ref has $nref frames, $dis has $ndis"
  echo "$nref"
}
