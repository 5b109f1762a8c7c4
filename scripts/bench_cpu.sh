#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# CPU throughput of the vmaf CLI on the 1080p benchmark pair, for each thread
# count given (default: 1 and 2).
#   scripts/bench_cpu.sh [THREADS...]                 vmaf_v0.6.1 + PSNR
#   scripts/bench_cpu.sh --features SET [THREADS...]  SET: vmaf (the above), aom_ctc
#                                                     (--aom_ctc v7.0), nflx_ctc
#                                                     (--nflx_ctc v1.0), aom_ctc=VERSION
#   scripts/bench_cpu.sh --per-feature [THREADS...]   each feature alone (no model),
#                                                     then --aom_ctc v7.0 as a whole
# Env: BUILD_DIR (default build), BENCH_DIR (default .bench), BENCH_W/BENCH_H/BENCH_FRAMES,
#      FEATURES (the --per-feature list; default every feature the library has).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
dir=${BENCH_DIR:-.bench}
W=${BENCH_W:-1920} H=${BENCH_H:-1080} N=${BENCH_FRAMES:-48}
per_feature=0 features=vmaf
if [ "${1:-}" = "--per-feature" ]; then per_feature=1; shift; fi
if [ "${1:-}" = "--features" ]; then features=${2:?--features needs a set}; shift 2; fi
# The set in the vmaf tool's options (as scripts/bench_gpu.sh's FEATURES).
case $features in
vmaf) set_args=(--feature psnr) ;;
aom_ctc) set_args=(--aom_ctc v7.0) ;;
nflx_ctc) set_args=(--nflx_ctc v1.0) ;;
aom_ctc=*|nflx_ctc=*) set_args=("--${features%%=*}" "${features#*=}") ;;
*) echo "bench_cpu: --features: vmaf, aom_ctc[=VERSION] or nflx_ctc[=VERSION], not '$features'" >&2; exit 2 ;;
esac
threads=("$@"); [ ${#threads[@]} -gt 0 ] || threads=(1 2)
vmaf=$build/core/tools/vmaf

ref=$dir/bench_${W}x${H}_ref.y4m dis=$dir/bench_${W}x${H}_dis.y4m
if [ ! -f "$ref" ] || [ ! -f "$dis" ]; then
  maker=../shared/bench/make_bench_clip.sh
  [ -f "$maker" ] || { echo "bench_cpu: no $ref and no $maker to make it" >&2; exit 1; }
  bash "$maker" "$dir" "$W" "$H" "$N" >/dev/null
fi

# One timed run: prints "seconds fps first-score".
timed() {
  local start end out score
  start=$(date +%s.%N)
  out=$("$vmaf" -q -r "$ref" -d "$dis" --json -o /dev/null "$@" 2>&1) ||
    { echo "bench_cpu: vmaf $* failed: $out" >&2; return 1; }
  end=$(date +%s.%N)
  score=$(printf '%s\n' "$out" | sed -n 's/.*VMAF score[^:]*: *\([0-9.]*\).*/\1/p' | head -n1)
  awk -v s="$start" -v e="$end" -v n="$N" -v v="${score:--}" \
    'BEGIN { d = e - s; printf "%10.3f %10.2f %12s\n", d, n / d, v }'
}

if [ "$per_feature" -eq 0 ]; then
  label="vmaf_v0.6.1 + psnr"
  [ "$features" = vmaf ] || label="${set_args[*]}"
  echo "$label, ${W}x${H}, $N frames, $(nproc) cores ($(uname -m))"
  printf '%-8s %10s %10s %12s\n' threads seconds fps vmaf
  for t in "${threads[@]}"; do
    printf '%-8s %s\n' "$t" "$(timed "${set_args[@]}" --threads "$t")"
  done
  exit 0
fi

# Every registered extractor, from the library's own error message listing them.
if [ -z "${FEATURES:-}" ]; then
  FEATURES=$({ "$vmaf" -q -r "$ref" -d "$dis" -n --feature no_such_feature 2>&1 || true; } |
    sed -n "s/.*(known: \(.*\)).*/\1/p" | tr -d ',')
fi
echo "each feature alone (-n --feature NAME), ${W}x${H}, $N frames, $(nproc) cores ($(uname -m))"
printf '%-16s %-8s %10s %10s %8s\n' feature threads seconds fps ms/frame
for f in $FEATURES; do
  for t in "${threads[@]}"; do
    read -r secs fps _ < <(timed -n --feature "$f" --threads "$t")
    awk -v f="$f" -v t="$t" -v s="$secs" -v r="$fps" -v n="$N" \
      'BEGIN { printf "%-16s %-8s %10.3f %10.2f %8.2f\n", f, t, s, r, 1000 * s / n }'
  done
done
for t in "${threads[@]}"; do
  read -r secs fps score < <(timed --aom_ctc v7.0 --threads "$t")
  awk -v t="$t" -v s="$secs" -v r="$fps" -v n="$N" \
    'BEGIN { printf "%-16s %-8s %10.3f %10.2f %8.2f\n", "aom_ctc v7.0", t, s, r, 1000 * s / n }'
done
