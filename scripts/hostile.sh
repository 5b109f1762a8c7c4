#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The hostile-input set of issue 51 on its own: what a careless or malicious
# caller, environment or file does (FIFOs and /dev/zero as cache or model files,
# a forked child, overflowing variables, a silent caller at log level NONE,
# partly filled pictures, truncated and damaged streams, .y4m headers the tool
# refuses, batch results that cannot be written, a batch killed by a signal).
# The meson suite 'hostile' (C and C++ tests and CLI scripts) and the batch's
# hostile cases in python/tests. scripts/test.sh runs all of them inside its
# full pass; this runs only them, against an existing build.
#   bash scripts/hostile.sh            # build/ (BUILD_DIR=... for another)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
[ -d "$build_dir" ] || { echo "hostile: no build in $build_dir (run scripts/setup.sh)" >&2; exit 1; }
meson test -C "$build_dir" --suite hostile --print-errorlogs --num-processes 2
VMAFVK_LIBRARY=$PWD/$build_dir/core/src/libvmaf.so VMAFVK_CLI=$PWD/$build_dir/core/tools/vmaf \
  python3 -m pytest -q python/tests/test_y4m.py python/tests/test_batch.py \
    -k 'hostile or long_names or not_utf8 or full_output or killing or refuses or digits'
