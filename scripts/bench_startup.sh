#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Start-up figures (issue 40, docs/performance.md), side by side in one run:
#   - a 2-frame clip end to end with the vmaf tool: --backend vulkan with a cold
#     pipeline cache, with a warm one, with the file turned off, and on the CPU;
#   - as a libvmaf.h client with VMAF_BACKEND=vulkan (vmaf_startup): the time to
#     the first score, and for a second context in the same process to be ready.
# Best of RUNS (default 3) wall-clock runs each; the cold run is one by nature
# (the cache directory is emptied before it).
#
#   bash scripts/bench_startup.sh            # library and tools built in build/
#
# Env: BUILD_DIR (default build), WIDTH, HEIGHT (default 1920x1080), FRAMES
# (default 2), RUNS (default 3), THREADS (the CPU run's --threads, default: the
# cores), VMAF_MODEL_DIR (where vmaf_v0.6.1.json is, if not built in).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
w=${WIDTH:-1920} h=${HEIGHT:-1080} frames=${FRAMES:-2} runs=${RUNS:-3}
threads=${THREADS:-$(nproc)}
for t in vmaf vmaf_bench vmaf_startup; do
  [ -x "$build/core/tools/$t" ] || { echo "bench_startup: $build/core/tools/$t is not built" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
unset VMAF_BACKEND VMAF_VULKAN_PIPELINE_CACHE

"$build/core/tools/vmaf_bench" --write-y4m "$tmp/r.y4m" "$tmp/d.y4m" --width "$w" --height "$h" --frames "$frames" >/dev/null

# seconds of one run of "$@" (it must succeed)
wall() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$tmp/out" 2>"$tmp/err" || { echo "bench_startup: failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }'
}
best() {  # best of $runs runs of "$@"
  local b="" s
  for _ in $(seq "$runs"); do
    s=$(wall "$@")
    if [ -z "$b" ] || awk -v s="$s" -v b="$b" 'BEGIN { exit !(s < b) }'; then b=$s; fi
  done
  printf '%.3f' "$b"
}
cli=("$build/core/tools/vmaf" -q -r "$tmp/r.y4m" -d "$tmp/d.y4m")

rm -rf "$XDG_CACHE_HOME"
cold=$(printf '%.3f' "$(wall "${cli[@]}" --backend vulkan)")
size=$(stat -c %s "$XDG_CACHE_HOME"/libvmaf-vk/pipelines-*.bin 2>/dev/null || echo 0)
warm=$(best "${cli[@]}" --backend vulkan)
off=$(VMAF_VULKAN_PIPELINE_CACHE=0 best "${cli[@]}" --backend vulkan)
cpu=$(best "${cli[@]}" --backend cpu --threads "$threads")

echo "clip: ${w}x${h}, $frames frames; best of $runs; pipeline cache file $size bytes"
echo "vmaf --backend vulkan, cold cache:   $cold s"
echo "vmaf --backend vulkan, warm cache:   $warm s"
echo "vmaf --backend vulkan, cache off:    $off s"
echo "vmaf --backend cpu --threads $threads:  $cpu s"
echo "VMAF_CLI_TIMING=1, warm cache:"
VMAF_CLI_TIMING=1 "${cli[@]}" --backend vulkan 2>&1 >/dev/null | sed 's/^/  /'
echo "vmaf_startup (VMAF_BACKEND=vulkan, warm cache), $runs runs:"
for _ in $(seq "$runs"); do
  VMAF_BACKEND=vulkan "$build/core/tools/vmaf_startup" --width "$w" --height "$h" --frames "$frames" | sed 's/^/  /'
done
