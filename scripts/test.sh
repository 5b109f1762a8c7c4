#!/usr/bin/env bash
# Builds (via setup.sh) and runs the whole test suite: unit and golden-parity
# tests on the CPU and, through lavapipe with the Khronos validation layer, on
# Vulkan; CLI tests; Python package tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
meson test -C "${BUILD_DIR:-build}" --print-errorlogs --num-processes 2
