#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Long runs: FRAMES frame pairs (default 100000) through one context per mode,
# with resident and device memory and open files sampled along the way
# (vmaf_bench --soak). Fails when open files differ before and after, device
# memory grows, or resident memory grows by more than LIMIT bytes per frame
# (default 1024: libvmaf keeps every frame's scores, a few hundred bytes).
#   scripts/soak.sh [FRAMES]
# Env: BUILD_DIR (default build), MODES (default "cpu vulkan-host vulkan-import";
#      Vulkan modes are left out without a device), SIZE (default 64x48),
#      LIMIT, VALIDATION=1 (Khronos layer on, any message fails).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
frames=${1:-100000}
size=${SIZE:-64x48}
limit=${LIMIT:-1024}
bench=$build/core/tools/vmaf_bench
[ -x "$bench" ] || { echo "soak: no $bench (build first)" >&2; exit 1; }
modes=${MODES:-cpu vulkan-host vulkan-import}
model_dir=${VMAF_MODEL_DIR:-$(bash scripts/get-models.sh)}
extra=()
[ "${VALIDATION:-0}" = 1 ] && extra+=(--validation)
failed=0
for mode in $modes; do
  out=$("$bench" --mode "$mode" --width "${size%x*}" --height "${size#*x}" --frames "$frames" --warmup 10 \
    --soak 10 --model-dir "$model_dir" "${extra[@]}" 2>&1) || {
    if [ "$mode" != cpu ] && grep -q -i "vulkan\|device" <<<"$out" && ! grep -q "soak:" <<<"$out"; then
      echo "soak: $mode not run: $(tail -n 1 <<<"$out")"
      continue
    fi
    echo "$out"; echo "soak: $mode FAILED"; failed=1; continue
  }
  summary=$(grep '^soak: rss' <<<"$out")
  echo "soak: $mode $size $frames frames: $(grep '^vmaf_bench:' <<<"$out" | sed 's/^vmaf_bench: //')"
  echo "  $summary"
  read -r rss gpu before after < <(sed -E 's/.*rss ([-+0-9.]+) bytes\/frame, gpu ([-+0-9.]+) bytes\/frame.* ([0-9-]+) before, ([0-9-]+) after/\1 \2 \3 \4/' <<<"$summary")
  if [ "$before" != "$after" ]; then echo "soak: $mode: open files $before before, $after after"; failed=1; fi
  if awk -v g="$gpu" 'BEGIN { exit !(g > 0) }'; then echo "soak: $mode: device memory grew"; failed=1; fi
  if awk -v r="$rss" -v l="$limit" 'BEGIN { exit !(r > l) }'; then
    echo "soak: $mode: resident memory grew $rss bytes/frame (limit $limit)"; failed=1
  fi
done
[ "$failed" -eq 0 ] || exit 1
echo "soak: memory flat and no open file left behind"
