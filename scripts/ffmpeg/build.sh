#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Builds FFmpeg (FFMPEG_VERSION: 9.0.2, the default, or 8.1.2) with its
# libvmaf-vk patch series (ffmpeg-patches/9.0/ or 8.1/) against libvmaf-vk
# installed in a prefix, and prints the path of the ffmpeg program on stdout
# (what it does goes to stderr).
#
#   scripts/ffmpeg/build.sh PREFIX      # libvmaf-vk installed with --prefix=PREFIX
#   scripts/ffmpeg/build.sh             # libvmaf found through PKG_CONFIG_PATH
#   scripts/ffmpeg/build.sh --libs ...  # also install FFmpeg's static libraries and
#                                       # headers into the cache; print the
#                                       # PKG_CONFIG_PATH the vmaf tool builds with
#   scripts/ffmpeg/build.sh --objects ...  # configure, then compile only the C files
#                                       # the series changes (no link): a quick
#                                       # check of a base (CI's for 8.1.2)
#
# Steps, each skipped when its result is already in the cache (see lib.sh):
#  1. Debian's ffmpeg source from sid through a private apt configuration
#     (the system's apt sources and lists are left alone); the orig tarball's
#     sha256 must match the pin.
#  2. sid's libvulkan-dev unpacked into the cache for its headers (FFmpeg needs
#     newer ones than bookworm's); the Vulkan loader used at run time is the
#     system's.
#  3. The tarball as a git tree, the series applied with git am.
#  4. A minimal configure: Vulkan, the h264/hevc Vulkan hwaccels, y4m, Matroska and
#     MP4 demuxers, hwupload/hwdownload/format/scale, libvmaf and libvmaf_vulkan.
#  5. make. The build is keyed by the tarball hash, the series hash, libvmaf's
#     installed headers and version, the Vulkan headers and the configure line: the
#     same key twice does nothing; a new key rebuilds what changed.
#
# Env: FFMPEG_VERSION (9.0.2 or 8.1.2), LIBVMAF_VK_FFMPEG_CACHE (cache
# directory), JOBS (make -j, default: cores), LIBVMAF_VK_FFMPEG_TARBALL (a local
# copy of the orig tarball, hash-checked), LIBVMAF_VK_FFMPEG_SKIP (patch numbers
# to leave out, for measurements: see lib.sh).
set -euo pipefail
export ffmpeg_script_name=ffmpeg-build
# shellcheck source=scripts/ffmpeg/lib.sh
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
prefix=
libs=0
objects=0
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage ;;
    --libs) libs=1 ;;
    --objects) objects=1 ;;
    -*) say "unknown option $1"; usage ;;
    *) [ -z "$prefix" ] || usage; prefix=$1 ;;
  esac
  shift
done
jobs=${JOBS:-$(nproc)}

for tool in apt-get dpkg-deb git make gcc pkg-config flock sha256sum xz; do
  command -v "$tool" >/dev/null || die "$tool is not installed"
done

# libvmaf: from the prefix when given, else whatever pkg-config finds.
if [ -n "$prefix" ]; then
  [ -d "$prefix" ] || die "libvmaf prefix $prefix does not exist"
  prefix=$(cd "$prefix" && pwd)
  pcdir=
  for d in "$prefix"/lib/*/pkgconfig "$prefix"/lib/pkgconfig "$prefix"/lib64/pkgconfig "$prefix"/share/pkgconfig; do
    if [ -f "$d/libvmaf.pc" ]; then pcdir=$d; break; fi
  done
  [ -n "$pcdir" ] || die "no libvmaf.pc under $prefix (install libvmaf-vk with: meson setup B --prefix=$prefix && ninja -C B install)"
  export PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
fi
pkg-config --exists libvmaf ||
  die "pkg-config cannot find libvmaf$(pkg-config --print-errors --exists libvmaf 2>&1 | sed 's/^/: /' | head -n 1) (give the install prefix as an argument)"
vmaf_libdir=$(pkg-config --variable=libdir libvmaf)
vmaf_incdir=$(pkg-config --variable=includedir libvmaf)
vmaf_version=$(pkg-config --modversion libvmaf)
[ -f "$vmaf_incdir/libvmaf/libvmaf.h" ] || die "libvmaf.pc points at $vmaf_incdir, which has no libvmaf/libvmaf.h"

ffmpeg_lock_cache
tarball=$(ffmpeg_fetch_source)
vulkan_pcdir=$(ffmpeg_fetch_vulkan_headers)
vulkan_version=$(PKG_CONFIG_PATH=$vulkan_pcdir pkg-config --modversion vulkan)
src=$(ffmpeg_prepare_tree "$tarball")

# shellcheck disable=SC2054 # commas separate configure's component lists
configure_args=(
  --prefix="$ffmpeg_vcache/install"
  --extra-version=libvmaf-vk
  --disable-everything --disable-autodetect --enable-pthreads
  --disable-doc --disable-debug --disable-ffplay --disable-ffprobe
  --enable-vulkan --enable-libvmaf
  --enable-protocol=file,pipe
  --enable-demuxer=yuv4mpegpipe,matroska,mov,rawvideo
  --enable-decoder=rawvideo,h264,hevc,wrapped_avframe
  --enable-parser=h264,hevc
  --enable-hwaccel=h264_vulkan,hevc_vulkan
  --enable-encoder=rawvideo,wrapped_avframe
  --enable-muxer=null,rawvideo,yuv4mpegpipe
  --enable-filter=buffer,buffersink,format,hwupload,hwdownload,scale,null,nullsink,split,streamselect,testsrc2,xpsnr,hstack,libvmaf,libvmaf_vulkan
  --enable-indev=lavfi
)
# nasm is optional: without it FFmpeg's x86 assembly is left out (slower decoding).
command -v nasm >/dev/null || configure_args+=(--disable-x86asm)

# What configure's result depends on, and what the whole build depends on.
libvmaf_inputs=$(
  echo "libvmaf $vmaf_version $vmaf_libdir"
  (cd "$vmaf_incdir" && find libvmaf -name '*.h' | LC_ALL=C sort | xargs sha256sum)
)
configure_key=$(
  {
    sha256sum <"$src/configure"
    echo "vulkan-headers $vulkan_version"
    echo "$libvmaf_inputs"
    printf '%s\n' "${configure_args[@]}"
  } | sha256sum | cut -d' ' -f1
)
key=$(
  {
    echo "orig $ffmpeg_orig_sha256"
    echo "series $(ffmpeg_series_hash)"
    echo "configure $configure_key"
  } | sha256sum | cut -d' ' -f1
)
build=$ffmpeg_vcache/build
# --libs: libavformat, libavcodec and libavutil (static, with pkg-config files)
# and the Vulkan headers their hwcontext_vulkan.h includes, installed into the
# configure prefix for the vmaf tool's --hwdec vulkan (docs/cli.md). Prints the
# pkg-config directory instead of the program.
install_libs() {
  local inst=$ffmpeg_vcache/install
  make -C "$build" install-libs install-headers >"$build/install.log" 2>&1 ||
    die "installing the libraries failed (log: $build/install.log)"
  mkdir -p "$inst/include"
  rm -rf "$inst/include/vulkan" "$inst/include/vk_video"
  local vk_inc
  vk_inc=$(PKG_CONFIG_PATH=$vulkan_pcdir pkg-config --variable=includedir vulkan)
  cp -r "$vk_inc/vulkan" "$vk_inc/vk_video" "$inst/include/"
  say "libraries installed in $inst; build the vmaf tool with PKG_CONFIG_PATH=$inst/lib/pkgconfig"
  echo "$inst/lib/pkgconfig"
}
if [ "$objects" = 0 ] && [ -x "$build/ffmpeg" ] && [ "$(cat "$build/.libvmaf-vk-key" 2>/dev/null)" = "$key" ]; then
  say "cached build of FFmpeg $ffmpeg_version is up to date (key ${key:0:16})"
  if [ "$libs" = 1 ]; then install_libs; else echo "$build/ffmpeg"; fi
  exit 0
fi
[ -z "${LIBVMAF_VK_FFMPEG_SKIP:-}" ] || say "leaving out patches ${LIBVMAF_VK_FFMPEG_SKIP} (LIBVMAF_VK_FFMPEG_SKIP)"

mkdir -p "$build"
[ "$objects" = 1 ] || rm -f "$build/.libvmaf-vk-key"
start=$(date +%s)
if [ -f "$build/ffbuild/config.mak" ] && [ "$(cat "$build/.configure-key" 2>/dev/null)" = "$configure_key" ]; then
  say "configure: unchanged, skipped"
else
  rm -f "$build/.configure-key"
  say "configure (libvmaf $vmaf_version from $vmaf_libdir, Vulkan headers $vulkan_version)"
  (cd "$build" && PKG_CONFIG_PATH=$vulkan_pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} "$src/configure" "${configure_args[@]}") \
    >"$build/configure.out" 2>&1 ||
    die "configure failed: $(tail -n 3 "$build/configure.out" | tr '\n' ' ') (full log: $build/ffbuild/config.log)"
  echo "$configure_key" >"$build/.configure-key"
fi
configured=$(date +%s)
# configure quietly drops a filter whose dependency check failed.
filter_built() {
  grep -q "^#define CONFIG_$(echo "$1" | tr '[:lower:]' '[:upper:]')_FILTER 1" "$build/config_components.h"
}
if [ "$objects" = 1 ]; then
  # The objects of the C files the series adds or changes, compiled as the full
  # build would; nothing is linked.
  mapfile -t objs < <(git -C "$src" diff --name-only --diff-filter=AM "$ffmpeg_base_tag" HEAD -- '*.c' | sed 's/\.c$/.o/')
  [ ${#objs[@]} -gt 0 ] || die "the series changes no C file"
  filter_built libvmaf_vulkan ||
    die "configure left out the libvmaf_vulkan filter (see $build/ffbuild/config.log)"
  say "make -j$jobs ${objs[*]} (log: $build/make-objects.log)"
  make -C "$build" -j"$jobs" "${objs[@]}" >"$build/make-objects.log" 2>&1 ||
    die "compiling failed: $(grep -m 3 -E 'error|Error' "$build/make-objects.log" | tr '\n' ' ') (full log: $build/make-objects.log)"
  say "configure $((configured - start)) s, compile $(($(date +%s) - configured)) s: ${#objs[@]} files of the series compile on FFmpeg $ffmpeg_version"
  printf '%s\n' "${objs[@]/#/$build/}"
  exit 0
fi
# The program finds libvmaf through its run path, given to the linker by
# LD_RUN_PATH rather than on the configure line (which config.h records: a new
# prefix would rebuild everything). Relinking is cheap, so it is always done.
rm -f "$build/ffmpeg" "$build/ffmpeg_g"
say "make -j$jobs (log: $build/make.log)"
LD_RUN_PATH=$vmaf_libdir make -C "$build" -j"$jobs" ffmpeg >"$build/make.log" 2>&1 ||
  die "make failed: $(grep -m 3 -E 'error|Error' "$build/make.log" | tr '\n' ' ') (full log: $build/make.log)"
built=$(date +%s)

# Say which filters configure left out.
for f in libvmaf libvmaf_vulkan; do
  if filter_built "$f"; then
    say "filter $f: built"
  else
    say "filter $f: NOT built: configure's check failed (see $build/ffbuild/config.log)"
  fi
done
say "configure $((configured - start)) s, make $((built - configured)) s"
echo "$key" >"$build/.libvmaf-vk-key"
if [ "$libs" = 1 ]; then install_libs; else echo "$build/ffmpeg"; fi
