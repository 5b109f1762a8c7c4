#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Cross-builds ffmpeg.exe for Windows x86-64 (FFmpeg 9.0.2 with ffmpeg-patches/9.0/)
# against the MinGW DLL build of this library, as redistributable Windows FFmpeg
# builds are made: FFmpeg's own libraries static inside ffmpeg.exe, no nonfree
# part, libvmaf-3.dll beside it at run time (adr/0083). Prints the path of
# ffmpeg.exe.
#   bash scripts/windows.sh                       # the library's cross build first
#   bash scripts/ffmpeg/build_windows.sh [BUILD_DIR]   # default build-windows
# Steps:
#  1. the orig tarball and sid's Vulkan headers, from the cache that
#     scripts/ffmpeg/build.sh uses (lib.sh; fetched when missing);
#  2. BUILD_DIR installed into the cache (meson install --destdir), its
#     libvmaf.pc pointed at where it landed;
#  3. a tree of its own, <version>-windows/src (base + series, as lib.sh makes
#     src/ for the Linux build), built in <version>-windows/build. While it
#     builds, only this tree is locked, not the cache as a whole;
#  4. configure with the MinGW-w64 cross compiler (posix thread model, the one
#     the library is built with), FFmpeg's own Windows threads, Vulkan (headers
#     only: FFmpeg opens vulkan-1.dll at run time) and libvmaf; components just
#     for the tests: file/pipe, y4m and raw video in, the null muxer, the
#     libvmaf, libvmaf_vulkan, hwupload and format filters; FFmpeg's xpsnr
#     filter, as in the Linux build (build.sh), to compare xpsnr with;
#  5. make. Keyed like build.sh's build: the tarball hash, the series hash,
#     libvmaf's installed headers and version, the Vulkan headers, the compiler
#     and the configure line; the same key twice does nothing.
# Env: LIBVMAF_VK_FFMPEG_CACHE, LIBVMAF_VK_FFMPEG_TARBALL (see lib.sh), JOBS
# (make -j, default 2).
set -euo pipefail
export ffmpeg_script_name=ffmpeg-build-windows
# shellcheck source=scripts/ffmpeg/lib.sh
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
win_build=
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage ;;
    -*) say "unknown option $1"; usage ;;
    *) [ -z "$win_build" ] || usage; win_build=$1 ;;
  esac
  shift
done
win_build=${win_build:-build-windows}
case $win_build in /*) ;; *) win_build=$ffmpeg_root/$win_build ;; esac
jobs=${JOBS:-2}
[ "$ffmpeg_version" = 9.0.2 ] || die "FFMPEG_VERSION=$ffmpeg_version: the Windows build is made of 9.0.2 only"

cross=x86_64-w64-mingw32
cc=$cross-gcc-posix
for tool in apt-get dpkg-deb git make pkg-config flock sha256sum xz meson "$cc" "$cross-ar" "$cross-objdump"; do
  command -v "$tool" >/dev/null || die "$tool is not installed (bash scripts/windows.sh installs the cross compiler)"
done
[ -f "$win_build/build.ninja" ] && [ -f "$win_build/core/src/libvmaf-3.dll" ] ||
  die "$win_build has no libvmaf-3.dll: run bash scripts/windows.sh first"

# 1. Sources, under the lock of the shared cache (released before the build).
ffmpeg_lock_cache
tarball=$(ffmpeg_fetch_source)
vulkan_pcdir=$(ffmpeg_fetch_vulkan_headers)
vulkan_version=$(PKG_CONFIG_PATH=$vulkan_pcdir pkg-config --modversion vulkan)
vulkan_incdir=$(PKG_CONFIG_PATH=$vulkan_pcdir pkg-config --variable=includedir vulkan)
exec 9>&-

# From here on the Windows tree has a lock of its own: Linux builds that share
# the cache go on meanwhile.
ffmpeg_vcache=$ffmpeg_cache/$ffmpeg_version-windows
mkdir -p "$ffmpeg_vcache"
exec 8>"$ffmpeg_vcache/lock"
if ! flock -n 8; then
  say "waiting for another Windows build in $ffmpeg_vcache"
  flock 8
fi
src=$(ffmpeg_prepare_tree "$tarball")

# 2. The library installed as a user's would be: DLL, import library, headers, .pc.
stage=$ffmpeg_vcache/libvmaf-install
rm -rf "$stage"
nice ninja -C "$win_build" -j"$jobs" >"$ffmpeg_vcache/libvmaf-build.log" 2>&1 ||
  die "building $win_build failed (see $ffmpeg_vcache/libvmaf-build.log)"
meson install -C "$win_build" --no-rebuild --destdir "$stage" >"$ffmpeg_vcache/libvmaf-install.log" 2>&1 ||
  die "meson install of $win_build failed (see $ffmpeg_vcache/libvmaf-install.log)"
pc=$(find "$stage" -name libvmaf.pc | head -n 1)
[ -n "$pc" ] || die "the installation of $win_build has no libvmaf.pc"
vmaf_prefix=$(cd "$(dirname "$pc")/../.." && pwd)
sed -i "s#^prefix=.*#prefix=$vmaf_prefix#" "$pc"
vmaf_dll=$vmaf_prefix/bin/libvmaf-3.dll
[ -f "$vmaf_dll" ] && [ -f "$vmaf_prefix/lib/libvmaf.dll.a" ] ||
  die "the installation of $win_build lacks bin/libvmaf-3.dll or lib/libvmaf.dll.a"
# pkg-config sees this folder alone: libvmaf.pc, and a vulkan.pc for the headers
# (FFmpeg's check for Vulkan reads headers only; it links no loader).
pcdir=$ffmpeg_vcache/pkgconfig
rm -rf "$pcdir" && mkdir -p "$pcdir"
cp "$pc" "$pcdir/"
printf 'prefix=%s\nincludedir=${prefix}/include\n\nName: Vulkan-Loader\nDescription: Vulkan headers (the loader is vulkan-1.dll, opened at run time)\nVersion: %s\nCflags: -I${includedir}\nLibs:\n' \
  "$(dirname "$vulkan_incdir")" "$vulkan_version" >"$pcdir/vulkan.pc"
vmaf_version=$(PKG_CONFIG_LIBDIR=$pcdir pkg-config --modversion libvmaf)

# shellcheck disable=SC2054 # commas separate configure's component lists
configure_args=(
  --prefix="$ffmpeg_vcache/install"
  --extra-version=libvmaf-vk
  --enable-cross-compile --target-os=mingw32 --arch=x86_64
  --cross-prefix="$cross-" --cc="$cc" --cxx="$cross-g++-posix" --pkg-config=pkg-config
  --enable-static --disable-shared
  # clock_gettime and nanosleep, which configure finds in the compiler's
  # winpthread: from its static archive, not libwinpthread-1.dll.
  --extra-libs=-Wl,-Bstatic,-lwinpthread,-Bdynamic
  --disable-everything --disable-autodetect --enable-w32threads
  --disable-doc --disable-debug --disable-ffplay --disable-ffprobe
  --disable-avdevice --disable-network
  --enable-vulkan --enable-libvmaf
  --enable-protocol=file,pipe
  --enable-demuxer=yuv4mpegpipe,rawvideo
  --enable-decoder=rawvideo,wrapped_avframe
  --enable-encoder=rawvideo,wrapped_avframe
  --enable-muxer=null,rawvideo,yuv4mpegpipe
  --enable-filter=buffer,buffersink,format,hwupload,hwdownload,scale,null,nullsink,split,testsrc2,xpsnr,libvmaf,libvmaf_vulkan
)
# As for the Linux build: without nasm FFmpeg's x86 assembly is left out.
command -v nasm >/dev/null || configure_args+=(--disable-x86asm)

libvmaf_inputs=$(
  echo "libvmaf $vmaf_version $vmaf_prefix"
  (cd "$vmaf_prefix/include" && find libvmaf -name '*.h' | LC_ALL=C sort | xargs sha256sum)
)
configure_key=$(
  {
    sha256sum <"$src/configure"
    echo "vulkan-headers $vulkan_version"
    echo "compiler $("$cc" --version | head -n 1)"
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
exe=$build/ffmpeg.exe
# The DLL goes beside the program, where Windows looks first; it is copied on
# every run, as the library's build may have changed without a new key.
place_dll() { cp "$vmaf_dll" "$build/libvmaf-3.dll"; }
if [ -f "$exe" ] && [ "$(cat "$build/.libvmaf-vk-key" 2>/dev/null)" = "$key" ]; then
  place_dll
  say "cached Windows build of FFmpeg $ffmpeg_version is up to date (key ${key:0:16})"
  echo "$exe"
  exit 0
fi

mkdir -p "$build"
rm -f "$build/.libvmaf-vk-key"
start=$(date +%s)
if [ -f "$build/ffbuild/config.mak" ] && [ "$(cat "$build/.configure-key" 2>/dev/null)" = "$configure_key" ]; then
  say "configure: unchanged, skipped"
else
  rm -f "$build/.configure-key"
  say "configure for $cross (libvmaf $vmaf_version from $win_build, Vulkan headers $vulkan_version)"
  (cd "$build" && PKG_CONFIG_LIBDIR=$pcdir PKG_CONFIG_PATH='' "$src/configure" "${configure_args[@]}") \
    >"$build/configure.out" 2>&1 ||
    die "configure failed: $(tail -n 3 "$build/configure.out" | tr '\n' ' ') (full log: $build/ffbuild/config.log)"
  echo "$configure_key" >"$build/.configure-key"
fi
configured=$(date +%s)
for f in libvmaf libvmaf_vulkan hwupload; do
  grep -q "^#define CONFIG_$(echo "$f" | tr '[:lower:]' '[:upper:]')_FILTER 1" "$build/config_components.h" ||
    die "configure left out the $f filter (see $build/ffbuild/config.log)"
done
grep -q '^#define CONFIG_VULKAN 1' "$build/config.h" || die "configure left out Vulkan (see $build/ffbuild/config.log)"
# Relinking is cheap and picks up a new import library: always done.
rm -f "$exe" "$build/ffmpeg_g.exe"
say "make -j$jobs (log: $build/make.log)"
nice make -C "$build" -j"$jobs" ffmpeg.exe >"$build/make.log" 2>&1 ||
  die "make failed: $(grep -m 3 -E 'error|Error' "$build/make.log" | tr '\n' ' ') (full log: $build/make.log)"
built=$(date +%s)

# What the program needs at run time: the system's DLLs, libvmaf's, and nothing
# of the compiler's (FFmpeg is C; its threads are Windows' own; winpthread's
# clock functions are linked in, above).
imports=$("$cross-objdump" -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr '[:upper:]' '[:lower:]' | sort -u)
grep -qx 'libvmaf-3.dll' <<<"$imports" || die "ffmpeg.exe does not import libvmaf-3.dll (imports: $(echo $imports))"
odd=$(grep -v -x -E 'libvmaf-3\.dll|kernel32\.dll|msvcrt\.dll|user32\.dll|bcrypt\.dll|advapi32\.dll|shell32\.dll|ole32\.dll|api-ms-win-.*\.dll' <<<"$imports" || true)
[ -z "$odd" ] || die "ffmpeg.exe imports DLLs a Windows machine does not have: $(echo $odd)"
place_dll
say "configure $((configured - start)) s, make $((built - configured)) s; ffmpeg.exe imports: $(echo $imports)"
echo "$key" >"$build/.libvmaf-vk-key"
echo "$exe"
