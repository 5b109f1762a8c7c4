#!/usr/bin/env bash
# Builds (via setup.sh) and runs the whole test suite: unit and golden-parity
# tests on the CPU and, through lavapipe with the Khronos validation layer, on
# Vulkan; CLI tests; Python package tests; then the FFmpeg integration
# (scripts/ffmpeg/test.sh: FFmpeg 8.1.2 with ffmpeg-patches/, built once into a
# cache, needs network the first time). VMAF_TEST_FFMPEG=0 skips the FFmpeg part.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
meson test -C "${BUILD_DIR:-build}" --print-errorlogs --num-processes 2
if [ "${VMAF_TEST_FFMPEG:-1}" != 0 ]; then
  bash scripts/ffmpeg/test.sh
fi
