#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# CI test of the vmaf tool's --hwdec vulkan: builds only the tool against the
# FFmpeg 9.0.2 libraries of the cache (FFMPEG_VERSION picks another base;
# scripts/ffmpeg/build.sh --libs; after
# scripts/ffmpeg/test.sh, which built them, this reuses its build) in
# build-hwdec/, then runs tests/cli/cli_hwdec.py with it: H.264 and HEVC encodes
# made with the system's ffmpeg score exactly as CPU decoding scores them, and
# on a device without video decoding (lavapipe) each run falls back with one
# notice line.
#
#   bash scripts/ffmpeg/test_hwdec.sh
#
# Env: BUILD_DIR (the library build scripts/ffmpeg/test.sh installed, default
# build), LIBVMAF_VK_PREFIX (as in scripts/ffmpeg/test.sh), HWDEC_BUILD_DIR
# (default build-hwdec), LIBVMAF_VK_FFMPEG_CACHE (see lib.sh).
set -euo pipefail
export ffmpeg_script_name=ffmpeg-hwdec
# shellcheck source=scripts/ffmpeg/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$ffmpeg_root"

build_dir=${BUILD_DIR:-build}
hw_build=${HWDEC_BUILD_DIR:-build-hwdec}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
t0=$(date +%s)

# The libvmaf installation FFmpeg's build was keyed on: the same as test.sh's.
if [ -n "${LIBVMAF_VK_PREFIX:-}" ]; then
  prefix=$LIBVMAF_VK_PREFIX
else
  build_prefix=$(meson introspect "$build_dir" --buildoptions |
    "$python" -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))') ||
    die "cannot read the install prefix of $build_dir"
  prefix=$ffmpeg_cache/libvmaf-install$build_prefix
  [ -d "$prefix" ] || die "$prefix does not exist: run scripts/ffmpeg/test.sh first"
fi
model_dir=$(meson introspect "$build_dir" --buildoptions |
  "$python" -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "model_dir"))')

pcdir=$(bash scripts/ffmpeg/build.sh --libs "$prefix")
export PKG_CONFIG_PATH=$pcdir
# Only the tool: no tests, no VA-API; ccache makes the library's objects cheap.
# A build dir made against another FFmpeg (base or cache) starts again: meson
# keeps the libraries it found.
if [ -f "$hw_build/build.ninja" ] && [ "$(cat "$hw_build/.libav-pcdir" 2>/dev/null)" != "$pcdir" ]; then
  say "$hw_build was configured against other FFmpeg libraries; configuring it afresh"
  meson setup --wipe "$hw_build" -Dlibav=enabled -Dtests=false -Dvaapi=disabled -Dmodel_dir="$model_dir" >/dev/null
elif [ -f "$hw_build/build.ninja" ]; then
  meson configure "$hw_build" -Dlibav=enabled -Dtests=false -Dvaapi=disabled -Dmodel_dir="$model_dir" >/dev/null
else
  meson setup "$hw_build" -Dlibav=enabled -Dtests=false -Dvaapi=disabled -Dmodel_dir="$model_dir" >/dev/null
fi
echo "$pcdir" >"$hw_build/.libav-pcdir"
grep -q "VMAF_CLI_HAVE_HWDEC=1" "$hw_build/build.ninja" ||
  die "$hw_build was configured without --hwdec vulkan (meson's check 'FFmpeg 6.1 or later with Vulkan decoding' failed; see $hw_build/meson-logs/meson-log.txt)"
ninja -C "$hw_build" core/tools/vmaf >"$hw_build/ninja.log" 2>&1 ||
  die "building the vmaf tool failed: $(grep -m 3 -E 'error' "$hw_build/ninja.log" | tr '\n' ' ')"
t_build=$(date +%s)

rc=0
VMAF_HAVE_LIBAV=1 VMAF_HAVE_HWDEC=1 VMAF_MODEL_DIR=$model_dir PYTHONDONTWRITEBYTECODE=1 \
  "$python" tests/cli/cli_hwdec.py "$hw_build/core/tools/vmaf" tests/data || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || die "tests/cli/cli_hwdec.py failed"
say "FFmpeg $ffmpeg_version: build $((t_build - t0)) s, test $(($(date +%s) - t_build)) s"
