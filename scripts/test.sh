#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Builds (via setup.sh) and runs the whole test suite: unit and golden-parity
# tests on the CPU and, through lavapipe with the Khronos validation layer, on
# Vulkan; CLI tests; Python package tests; the same again under AddressSanitizer
# and UndefinedBehaviorSanitizer; the threading tests under ThreadSanitizer; the
# libFuzzer targets (scripts/fuzz.sh: clang, VMAF_TEST_FUZZ_SECONDS (20) each, two
# at a time; longer runs: scripts/fuzz.sh 600); then the FFmpeg integration
# (scripts/ffmpeg/test.sh: FFmpeg with ffmpeg-patches/, built once into a cache,
# needs network the first time) and the vmaf tool's --hwdec vulkan built against
# it (scripts/ffmpeg/test_hwdec.sh). VMAF_TEST_FFMPEG=0 skips the FFmpeg part,
# VMAF_TEST_ASAN=0 the sanitizer pass, VMAF_TEST_TSAN=0 the ThreadSanitizer one,
# VMAF_TEST_FUZZ=0 the fuzzing.
#
# On 2 cores most of the time goes to compiling four builds (release, ASan, TSan,
# fuzzing) and to the tests, of which a Vulkan one (lavapipe and the validation
# layer) or a script's keeps about one core busy. So the other builds run in the
# background at the lowest priority and take the time the tests leave idle: the
# ASan/UBSan build beside the first pass, alone, so that it is done when that
# pass is; the TSan and fuzzing builds after it, beside the tests under ASan.
# Each stage still waits for its own build. The FFmpeg part runs beside the TSan
# tests (adr/0059, adr/0084).
set -euo pipefail
cd "$(dirname "$0")/.."

t0=$SECONDS
stages=()
stage_done() { stages+=("$(printf '%-28s %5d s' "$1" $((SECONDS - $2)))"); }
report_stages() {
  echo "test: time per stage"
  printf '  %s\n' "${stages[@]}"
  printf '  %-28s %5d s\n' total $((SECONDS - t0))
}
kill_tree() {  # PID: the process and everything it started
  local child
  for child in $(pgrep -P "$1" || true); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
at_exit() {
  local rc=$?
  report_stages
  # A stage that failed ends the run: the builds and the FFmpeg stage still
  # running in the background end with it.
  if [ "$rc" != 0 ]; then
    local job
    for job in $(jobs -p); do kill_tree "$job"; done
  fi
}
trap at_exit EXIT

s=$SECONDS
bash scripts/setup.sh
stage_done "release build" "$s"

asan_args="-Db_sanitize=address,undefined -Doptimization=1 -Ddebug=false -Dc_args=-g1 -Dcpp_args=-g1"
logs=$(mktemp -d "${TMPDIR:-/tmp}/vmaf-test-builds.XXXXXX")
declare -A builds=()
background_build() {  # NAME AFTER COMMAND...: run a build at the lowest priority, log
  # in $logs/NAME.log, once the build AFTER ('' for none) has ended, failed or not
  local name=$1 after=$2
  shift 2
  (
    if [ -n "$after" ]; then
      while [ ! -e "$logs/$after.done" ]; do sleep 5; done
    fi
    rc=0
    nice -n 19 "$@" || rc=$?
    touch "$logs/$name.done"
    exit $rc
  ) > "$logs/$name.log" 2>&1 &
  builds[$name]=$!
}
wait_build() {  # NAME: wait for its build; on failure print its log and stop
  local name=$1 s=$SECONDS
  if ! wait "${builds[$name]}"; then
    echo "test: the $name build failed:" >&2
    tail -50 "$logs/$name.log" >&2
    exit 1
  fi
  stage_done "waiting for the $name build" "$s"
}
after_asan=
if [ "${VMAF_TEST_ASAN:-1}" != 0 ]; then
  background_build asan '' env BUILD_DIR=build-asan MESON_ARGS="$asan_args" bash scripts/setup.sh
  after_asan=asan
fi
if [ "${VMAF_TEST_TSAN:-1}" != 0 ]; then
  background_build tsan "$after_asan" env TSAN_BUILD_ONLY=1 bash scripts/tsan.sh
fi
if [ "${VMAF_TEST_FUZZ:-1}" != 0 ]; then
  background_build fuzz "$after_asan" env FUZZ_BUILD_ONLY=1 bash scripts/fuzz.sh 1
fi
if [ "${VMAF_TEST_WINDOWS:-1}" != 0 ]; then
  background_build windows "$after_asan" bash -c "bash scripts/windows.sh && bash scripts/ffmpeg/build_windows.sh"
fi

s=$SECONDS
meson test -C "${BUILD_DIR:-build}" --print-errorlogs --num-processes 2
stage_done "tests" "$s"

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
  wait_build asan
  s=$SECONDS
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  VMAF_TEST_VULKAN_NO_VALIDATION=${VMAF_TEST_VULKAN_NO_VALIDATION:-1} \
    meson test -C build-asan --print-errorlogs --num-processes 2 --timeout-multiplier 2
  stage_done "tests under ASan/UBSan" "$s"
fi
# The FFmpeg integration (release build) runs in the background beside the TSan
# tests, which run one at a time, its output kept in $logs/ffmpeg.log and printed
# when it has ended, before the fuzzing, which takes both cores.
ffmpeg_job=
if [ "${VMAF_TEST_FFMPEG:-1}" != 0 ]; then
  (
    s=$SECONDS
    bash scripts/ffmpeg/test.sh
    printf '%-28s %5d s\n' "FFmpeg filters" $((SECONDS - s)) > "$logs/ffmpeg.stages"
    # The vmaf tool built against that FFmpeg's libraries, for --hwdec vulkan
    # (scripts/ffmpeg/test_hwdec.sh). VMAF_TEST_HWDEC=0 skips it.
    if [ "${VMAF_TEST_HWDEC:-1}" != 0 ]; then
      s=$SECONDS
      bash scripts/ffmpeg/test_hwdec.sh
      printf '%-28s %5d s\n' "vmaf tool on FFmpeg (--hwdec)" $((SECONDS - s)) >> "$logs/ffmpeg.stages"
    fi
  ) > "$logs/ffmpeg.log" 2>&1 &
  ffmpeg_job=$!
fi
# The threading tests under ThreadSanitizer (clang, build-tsan/). VMAF_TEST_TSAN=0
# skips them.
if [ "${VMAF_TEST_TSAN:-1}" != 0 ]; then
  wait_build tsan
  s=$SECONDS
  bash scripts/tsan.sh
  stage_done "tests under TSan" "$s"
fi
if [ -n "$ffmpeg_job" ]; then
  s=$SECONDS
  ffmpeg_rc=0
  wait "$ffmpeg_job" || ffmpeg_rc=$?
  cat "$logs/ffmpeg.log"
  if [ "$ffmpeg_rc" != 0 ]; then
    echo "test: the FFmpeg stage failed (its output above)" >&2
    exit 1
  fi
  while IFS= read -r line; do stages+=("$line"); done < "$logs/ffmpeg.stages"
  stage_done "waiting for FFmpeg after TSan" "$s"
fi
# Each fuzz target on its seed corpus; any finding fails. VMAF_TEST_FUZZ=0 skips them.
if [ "${VMAF_TEST_FUZZ:-1}" != 0 ]; then
  wait_build fuzz
  s=$SECONDS
  FUZZ_JOBS=2 bash scripts/fuzz.sh "${VMAF_TEST_FUZZ_SECONDS:-20}"
  stage_done "fuzzing" "$s"
fi
# --- Windows stage -----------------------------------------------------------
# The MinGW-w64 cross build (scripts/windows.sh, build-windows/, started above
# beside the other builds) and, under Wine, vmaf.exe on the golden pairs on the
# CPU and on Vulkan (Wine's Vulkan onto lavapipe, under Xvfb), then ffmpeg.exe
# with the series cross-built against libvmaf-3.dll (scripts/ffmpeg/build_windows.sh,
# cached by key like the Linux FFmpeg) and its libvmaf and libvmaf_vulkan
# filters (scripts/ffmpeg/test_windows.sh): every score identical to Linux
# (docs/windows.md). VMAF_TEST_WINDOWS=0 skips it.
if [ "${VMAF_TEST_WINDOWS:-1}" != 0 ]; then
  wait_build windows
  s=$SECONDS
  bash scripts/windows_test.sh
  BACKEND=vulkan FFMPEG=1 bash scripts/windows_test.sh
  stage_done "Windows under Wine" "$s"
fi
# --- end of the Windows stage ------------------------------------------------
