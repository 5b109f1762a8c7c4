#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Score parity on every golden pair, as a CI system would check it: the CPU and
# Vulkan backends and Netflix libvmaf's JSON must agree to 4 decimal places on
# every feature and on VMAF (python -m vmafvk.parity). Exits nonzero on the
# first pair that fails.
#   scripts/parity_golden.sh [LIBRARY] [DATA_DIR]
# Env: VMAF_MODEL_DIR (models), PARITY_ARGS (extra parity options, e.g.
# --allow-missing-vulkan on machines without Vulkan).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$root/build/core/src/libvmaf.so}
data=${2:-$root/tests/data}
export VMAFVK_LIBRARY=$lib
export PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH}
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3

n=0
for json in "$data"/*.libvmaf.json; do
  pair=$(basename "$json" .libvmaf.json)
  echo "== $pair"
  # shellcheck disable=SC2086
  "$python" -m vmafvk.parity "$data/${pair}_ref.y4m" "$data/${pair}_dis.y4m" \
    --reference-json "$json" --feature psnr --model version=vmaf_v0.6.1 ${PARITY_ARGS:-} 2>&1 |
    sed -n '/^vulkan:/p;/^PASS/p;/^FAIL/p;/fail$/p'
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "parity failed on $pair" >&2; exit 1; }
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no golden pairs in $data" >&2; exit 1; }
echo "parity: $n pairs pass"
