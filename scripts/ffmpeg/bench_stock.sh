#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# FFmpeg's stock libvmaf filter, unchanged, on software-decoded input: what every
# libvmaf client that does not choose a backend gets (ab-av1, Av1an, GStreamer's
# element work the same way), on the CPU and on the GPU through VMAF_BACKEND
# alone (docs/environment.md). Modes, each both streams decoded on the CPU:
#   decode   nothing else (both streams to the null muxer)
#   hstack   FFmpeg's hstack filter on the pair: what any two-input filter that
#            copies both frames pays (the filter graph, frame sync, one copy of
#            each frame on the filter's thread), as the libvmaf filter copies
#            them into its pictures; a ceiling for the scoring modes
#   cpu      the libvmaf filter, VMAF_BACKEND=cpu, n_threads=THREADS
#   vulkan   the libvmaf filter, VMAF_BACKEND=vulkan, n_threads=THREADS
# Prints fps per run, the means and each mode's mean against decode's, and checks
# that the two scoring modes give the same pooled VMAF (to the printed digits).
#
#   scripts/ffmpeg/bench_stock.sh FFMPEG DIST REF [LOOPS]
#
# LOOPS (default 0) replays both files that many extra times. Env: RUNS (default 3),
# THREADS (default nproc), MODES (default "decode cpu vulkan"), VMAF_MODEL_DIR.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '12,12p' "$0" | sed 's/^# //' >&2; exit 2; }
ffmpeg=$1 dist=$2 ref=$3 loops=${4:-0}
runs=${RUNS:-3}
threads=${THREADS:-$(nproc)}
modes=${MODES:-decode cpu vulkan}
for f in "$ffmpeg" "$dist" "$ref"; do [ -e "$f" ] || { echo "bench_stock: no $f" >&2; exit 2; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
inputs=(-stream_loop "$loops" -i "$dist" -stream_loop "$loops" -i "$ref")

# frames and seconds of one run; the log in $tmp/log
run() {
  local mode=$1 t0 t1
  local cmd=("$ffmpeg" -hide_banner -nostdin -nostats -loglevel info -progress "$tmp/progress" "${inputs[@]}")
  case $mode in
    decode) cmd+=(-map 0:v -map 1:v -f null -) ;;
    hstack) cmd+=(-lavfi "[0:v][1:v]hstack" -f null -) ;;
    cpu | vulkan) cmd+=(-lavfi "[0:v][1:v]libvmaf=n_threads=$threads" -f null -) ;;
  esac
  t0=$(date +%s.%N)
  VMAF_BACKEND=$([ "$mode" = vulkan ] && echo vulkan || echo cpu) "${cmd[@]}" > "$tmp/log" 2>&1 ||
    { echo "bench_stock: $mode failed:" >&2; tail -20 "$tmp/log" >&2; exit 1; }
  t1=$(date +%s.%N)
  local frames
  # the frames of the first output stream: pairs, or the distorted stream's frames
  frames=$(sed -n 's/^frame=//p' "$tmp/progress" | tail -1)
  awk -v a="$t0" -v b="$t1" -v f="${frames:-0}" 'BEGIN { printf "%d %.3f", f, b - a }'
}

echo "| mode | runs: fps | mean fps | x decode |"
echo "|---|---|---|---|"
declare -A mean
for m in $modes; do
  list="" sum=0
  for _ in $(seq "$runs"); do
    read -r frames secs <<< "$(run "$m")"
    fps=$(awk -v f="$frames" -v s="$secs" 'BEGIN { printf "%.1f", f / s }')
    list+="$fps "
    sum=$(awk -v a="$sum" -v b="$fps" 'BEGIN { print a + b }')
    [ "$m" = cpu ] || [ "$m" = vulkan ] || continue
    grep -o 'VMAF score: [0-9.]*' "$tmp/log" | tail -1 > "$tmp/$m.score"
  done
  mean[$m]=$(awk -v s="$sum" -v n="$runs" 'BEGIN { printf "%.1f", s / n }')
  ratio=-
  [ -n "${mean[decode]:-}" ] && ratio=$(awk -v a="${mean[$m]}" -v b="${mean[decode]}" 'BEGIN { printf "%.2f", a / b }')
  echo "| $m | $list| ${mean[$m]} | $ratio |"
done
if [ -e "$tmp/cpu.score" ] && [ -e "$tmp/vulkan.score" ]; then
  echo "cpu: $(cat "$tmp/cpu.score"); vulkan: $(cat "$tmp/vulkan.score")"
  cmp -s "$tmp/cpu.score" "$tmp/vulkan.score" || { echo "bench_stock: the scores differ" >&2; exit 1; }
fi
