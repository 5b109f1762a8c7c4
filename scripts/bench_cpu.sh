#!/usr/bin/env bash
# CPU throughput of the vmaf CLI on the 1080p benchmark pair: vmaf_v0.6.1 + PSNR,
# for each thread count given (default: 1 and 2).
#   scripts/bench_cpu.sh [THREADS...]
# Env: BUILD_DIR (default build), BENCH_DIR (default .bench), BENCH_W/BENCH_H/BENCH_FRAMES.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
dir=${BENCH_DIR:-.bench}
W=${BENCH_W:-1920} H=${BENCH_H:-1080} N=${BENCH_FRAMES:-48}
threads=("$@"); [ ${#threads[@]} -gt 0 ] || threads=(1 2)

ref=$dir/bench_${W}x${H}_ref.y4m dis=$dir/bench_${W}x${H}_dis.y4m
if [ ! -f "$ref" ] || [ ! -f "$dis" ]; then
  maker=../shared/bench/make_bench_clip.sh
  [ -f "$maker" ] || { echo "bench_cpu: no $ref and no $maker to make it" >&2; exit 1; }
  bash "$maker" "$dir" "$W" "$H" "$N" >/dev/null
fi

echo "vmaf_v0.6.1 + psnr, ${W}x${H}, $N frames, $(nproc) cores ($(uname -m))"
printf '%-8s %10s %10s %12s\n' threads seconds fps vmaf
for t in "${threads[@]}"; do
  start=$(date +%s.%N)
  out=$("$build/core/tools/vmaf" -q -r "$ref" -d "$dis" --feature psnr --threads "$t" --json -o /dev/null 2>&1)
  end=$(date +%s.%N)
  score=$(printf '%s\n' "$out" | sed -n 's/.*VMAF score: *\([0-9.]*\).*/\1/p' | head -n1)
  awk -v t="$t" -v s="$start" -v e="$end" -v n="$N" -v v="$score" \
    'BEGIN { d = e - s; printf "%-8s %10.3f %10.2f %12s\n", t, d, n / d, v }'
done
