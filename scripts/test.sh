#!/usr/bin/env bash
# Builds (via setup.sh) and runs the whole test suite: unit and golden-parity
# tests on the CPU and, through lavapipe with the Khronos validation layer, on
# Vulkan; CLI tests; Python package tests; the libFuzzer targets (scripts/fuzz.sh:
# clang, 60 s each, two at a time); then the FFmpeg integration
# (scripts/ffmpeg/test.sh: FFmpeg 8.1.2 with ffmpeg-patches/, built once into a
# cache, needs network the first time) and the vmaf tool's --hwdec vulkan built
# against it (scripts/ffmpeg/test_hwdec.sh). VMAF_TEST_FFMPEG=0 skips the FFmpeg part,
# VMAF_TEST_ASAN=0 the sanitizer pass, VMAF_TEST_TSAN=0 the ThreadSanitizer one,
# VMAF_TEST_FUZZ=0 the fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
meson test -C "${BUILD_DIR:-build}" --print-errorlogs --num-processes 2

# The same tests once more under AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), where any report fails the test. VMAF_TEST_ASAN=0 skips them.
# This pass looks for our memory and undefined-behaviour errors, so it runs the
# same code paths with less repetition: the Vulkan tests on one golden pair of
# each format and depth (tests/meson.build) and without the validation layer
# (the first pass ran them on every pair under it; the layer is not our code, and
# under ASan it doubles their time). It is built at -O1 with line tables only
# (-g1), which keeps reports' file:line and builds in under half the time of
# -O2 -g (adr/0043).
if [ "${VMAF_TEST_ASAN:-1}" != 0 ]; then
  BUILD_DIR=build-asan MESON_ARGS="-Db_sanitize=address,undefined -Doptimization=1 -Ddebug=false -Dc_args=-g1 -Dcpp_args=-g1" \
    bash scripts/setup.sh
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  VMAF_TEST_VULKAN_NO_VALIDATION=${VMAF_TEST_VULKAN_NO_VALIDATION:-1} \
    meson test -C build-asan --print-errorlogs --num-processes 2 --timeout-multiplier 2
fi
# The threading tests under ThreadSanitizer (clang, build-tsan/). VMAF_TEST_TSAN=0
# skips them.
if [ "${VMAF_TEST_TSAN:-1}" != 0 ]; then
  bash scripts/tsan.sh
fi
# Each fuzz target for 60 s on its seed corpus; any finding fails.
# VMAF_TEST_FUZZ=0 skips them.
if [ "${VMAF_TEST_FUZZ:-1}" != 0 ]; then
  FUZZ_JOBS=2 bash scripts/fuzz.sh 60
fi
if [ "${VMAF_TEST_FFMPEG:-1}" != 0 ]; then
  bash scripts/ffmpeg/test.sh
  # The vmaf tool built against that FFmpeg's libraries, for --hwdec vulkan
  # (scripts/ffmpeg/test_hwdec.sh). VMAF_TEST_HWDEC=0 skips it.
  if [ "${VMAF_TEST_HWDEC:-1}" != 0 ]; then
    bash scripts/ffmpeg/test_hwdec.sh
  fi
fi
