#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# ThreadSanitizer: builds the library and tests with clang and -fsanitize=thread
# into build-tsan/ and runs the tests that use threads: frame threads of one
# context, several contexts on several threads (CPU), and several contexts
# sharing one adopted Vulkan device through the caller's queue lock, and host
# pictures freed while their imports are in use (lavapipe, validation layer on),
# frames read on several threads (the readers, and the vmaf tool's read-ahead on
# good and truncated files). Any report fails the run.
#   scripts/tsan.sh            # BUILD_DIR=build-tsan
#   TSAN_BUILD_ONLY=1 scripts/tsan.sh   # build, run nothing
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-tsan}
command -v clang++ >/dev/null || { echo "tsan: clang++ is needed (apt-get install clang)" >&2; exit 1; }
model_dir=$(bash scripts/get-models.sh)
if [ ! -d "$build" ]; then
  CC=clang CXX=clang++ meson setup "$build" -Db_sanitize=thread -Db_lundef=false -Dbuildtype=debugoptimized \
    -Dmodel_dir="$model_dir" -Dlibav=disabled >/dev/null
fi
tests=(concurrency api psnr motion vif adm video_reader)
if grep -q "vulkan_concurrency" "$build/meson-info/intro-tests.json" 2>/dev/null; then
  tests+=(vulkan_concurrency vulkan_faults vulkan_host_import vulkan_env_backend)
fi
ninja -C "$build" $(printf 'tests/test_%s ' "${tests[@]}") core/tools/vmaf
[ "${TSAN_BUILD_ONLY:-0}" = 0 ] || exit 0
tests+=(cli_errors)
# The Vulkan driver (lavapipe) and loader are not instrumented: their own
# threads are not ours to judge (tests/tsan.supp). halt_on_error: any report fails.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp ${TSAN_OPTIONS:-}"
export VMAF_MODEL_DIR=$model_dir
meson test -C "$build" --no-rebuild --print-errorlogs --num-processes 1 --timeout-multiplier 4 "${tests[@]}"
echo "tsan: ${#tests[@]} test programs, no ThreadSanitizer report"
