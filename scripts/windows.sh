#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Windows x86-64 from Debian bookworm: a MinGW-w64 cross build into
# build-windows/ (libvmaf-3.dll with its import library libvmaf.dll.a, vmaf.exe,
# vmaf_bench.exe), then, with `test`, the Windows vmaf.exe run under Wine on every
# golden pair of tests/data against the native build's JSON (build/, or
# NATIVE_BUILD_DIR): every number must be the same. docs/windows.md.
#   bash scripts/windows.sh          # the cross build (installs the compiler as root)
#   bash scripts/windows.sh test     # ... then the comparison under Wine
#   BACKEND=vulkan bash scripts/windows.sh test   # the same with --backend vulkan (Wine's Vulkan)
# The Windows build reads y4m and raw YUV only (no FFmpeg libraries, no VA-API).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

mode=${1:-build}
case "$mode" in build|test) ;; *) echo "usage: bash scripts/windows.sh [test]" >&2; exit 2;; esac

build_dir=${BUILD_DIR:-build-windows}
packages=(meson ninja-build pkg-config python3 glslc libvulkan-dev libvulkan-volk-dev nlohmann-json3-dev
          g++-mingw-w64-x86-64-posix)
[ "$mode" = test ] && packages+=(wine64)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "windows: missing Debian packages (run as root or install them): ${missing[*]}" >&2
    exit 1
  fi
  echo "windows: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

model_dir=$(bash scripts/get-models.sh)

# The headers the cross compiler borrows from the build machine: they are plain
# C/C++ and platform-neutral (Vulkan's own, volk's, nlohmann_json's), but the
# build machine's /usr/include as a whole must not be seen by it. A folder of
# links to just those, and a pkg-config folder with nlohmann_json alone.
mkdir -p "$build_dir"
deps="$root/$build_dir/deps"
rm -rf "$deps"
mkdir -p "$deps/include" "$deps/pkgconfig"
for h in vulkan vk_video volk.h volk.c nlohmann; do
  [ -e "/usr/include/$h" ] || { echo "windows: /usr/include/$h is missing" >&2; exit 1; }
  ln -s "/usr/include/$h" "$deps/include/$h"
done
json_version=$(pkg-config --modversion nlohmann_json)
cat > "$deps/pkgconfig/nlohmann_json.pc" <<EOF
Name: nlohmann_json
Description: JSON for Modern C++ (headers only)
Version: $json_version
Cflags: -I$deps/include
EOF
# The compiler cache where there is one (meson uses none on its own for the
# compilers a cross file names).
ccache_binaries=
if command -v ccache >/dev/null; then
  ccache_binaries="[binaries]
c = ['ccache', 'x86_64-w64-mingw32-gcc-posix']
cpp = ['ccache', 'x86_64-w64-mingw32-g++-posix']
"
fi
cat > "$deps/paths.ini" <<EOF
$ccache_binaries
[properties]
pkg_config_libdir = ['$deps/pkgconfig']

[built-in options]
c_args = ['-I$deps/include']
cpp_args = ['-I$deps/include']
EOF

options=(-Dmodel_dir="$model_dir" -Dbuild.cpp_std=c++20 -Dlibav=disabled -Dvaapi=disabled -Dvulkan=enabled -Dtests=false)
if [ -f "$build_dir/build.ninja" ]; then
  meson configure "$build_dir" "${options[@]}" >/dev/null
else
  meson setup "$build_dir" --cross-file scripts/cross/x86_64-w64-mingw32.ini --cross-file "$deps/paths.ini" \
    "${options[@]}" >/dev/null
fi
nice ninja -C "$build_dir" -j"${JOBS:-2}" core/src/libvmaf-3.dll core/tools/vmaf.exe core/tools/vmaf_bench.exe \
  core/tools/vmaf_startup.exe
echo "windows: built $build_dir/core/src/libvmaf-3.dll (import library libvmaf.dll.a)," \
     "$build_dir/core/tools/vmaf.exe, $build_dir/core/tools/vmaf_bench.exe"

[ "$mode" = test ] || exit 0
exec bash scripts/windows_test.sh
