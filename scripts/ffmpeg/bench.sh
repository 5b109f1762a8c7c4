#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Throughput of the FFmpeg integration on a GPU with Vulkan video decode: two
# H.264 streams decoded with -hwaccel vulkan (decoder-owned AVVkFrames), then
#   decode   nothing else (both streams to the null muxer)
#   pair     both streams paired frame by frame, as a two-input filter pairs them
#            (FFmpeg's framesync), by streamselect, which does nothing else: what
#            pairing alone costs against decode, the floor of any two-input filter
#   vulkan   libvmaf_vulkan on the decoded frames: vmaf_v0.6.1 + psnr, nothing downloaded
#   cpu      hwdownload, then FFmpeg's stock libvmaf filter (same model and feature,
#            n_threads = THREADS) on the CPU
#   decode-one   the distorted stream alone
#   vulkan-one   the distorted stream decoded once and split into both inputs of
#            libvmaf_vulkan: the filter's own cost with one decoder (x decode-one),
#            without the two decoders being made to keep pace with each other
# Prints a markdown table (frames, seconds, fps, fps relative to decode) and checks
# that the two scoring runs give the same pooled VMAF and PSNR-Y (within 1e-4).
#
#   scripts/ffmpeg/bench.sh FFMPEG DIST.mkv REF.mkv [LOOPS]
#
# LOOPS (default 0) replays both files that many extra times (-stream_loop), for
# long runs from short files. Env: VMAF_MODEL_DIR (where vmaf_v0.6.1.json is),
# THREADS (cpu run, default nproc), MODES (default "decode vulkan cpu"), RUNS (each
# mode's best of RUNS, default 1; each run's fps and their mean are listed too),
# OUT (keep logs and JSON in a new folder under it, one per invocation), VULKAN_DEVICE
# (FFmpeg's device, default 0), FILTER_OPTS (more libvmaf_vulkan options, e.g.
# frames_in_flight=3), DEC_THREADS (each decoder's -threads; default: FFmpeg's own,
# frame threads. Give 1 for an FFmpeg without the series' patch 0005, whose
# frame-threaded Vulkan decoding of H.264 can hang at an IDR frame: docs/ffmpeg.md),
# FEATURES (the features scored beside the model, comma-separated, default psnr;
# e.g. psnr,float_ssim,ssimulacra2,xpsnr for the one-pass set).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 FFMPEG DIST.mkv REF.mkv [LOOPS]" >&2; exit 2; }
ffmpeg=$1 dist=$2 ref=$3 loops=${4:-0}
threads=${THREADS:-$(nproc)}
modes=${MODES:-decode vulkan cpu}
runs=${RUNS:-1}
device=${VULKAN_DEVICE:-0}
features=${FEATURES:-psnr}
feature="feature=name=${features//,/|name=}"
for f in "$ffmpeg" "$dist" "$ref"; do [ -e "$f" ] || { echo "bench: no $f" >&2; exit 2; }; done
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  out=$(mktemp -d "$OUT/bench.XXXXXX")
  echo "bench: logs and JSON in $out" >&2
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

hw=(${DEC_THREADS:+-threads "$DEC_THREADS"} -hwaccel vulkan -hwaccel_device vk -hwaccel_output_format vulkan -stream_loop "$loops")
inputs=(-init_hw_device "vulkan=vk:$device" "${hw[@]}" -i "$dist" "${hw[@]}" -i "$ref")
one=(-init_hw_device "vulkan=vk:$device" "${hw[@]}" -i "$dist")

run_mode() {  # mode log -> ffmpeg's exit status
  local graph
  case $1 in
    decode) "$ffmpeg" -hide_banner -nostdin "${inputs[@]}" -map 0:v -map 1:v -f null - >"$2" 2>&1; return ;;
    decode-one) "$ffmpeg" -hide_banner -nostdin "${one[@]}" -map 0:v -f null - >"$2" 2>&1; return ;;
    vulkan-one)
      "$ffmpeg" -hide_banner -nostdin "${one[@]}" -lavfi \
        "[0:v]split[a][b];[a][b]libvmaf_vulkan=$feature${FILTER_OPTS:+:$FILTER_OPTS}" -f null - >"$2" 2>&1
      return ;;
    pair) graph="[0:v][1:v]streamselect=inputs=2:map=0" ;;
    vulkan) graph="[0:v][1:v]libvmaf_vulkan=$feature:log_fmt=json:log_path=$out/vulkan.json${FILTER_OPTS:+:$FILTER_OPTS}" ;;
    cpu) graph="[0:v]hwdownload,format=nv12,format=yuv420p[d];[1:v]hwdownload,format=nv12,format=yuv420p[r];[d][r]libvmaf=$feature:n_threads=$threads:log_fmt=json:log_path=$out/cpu.json" ;;
    *) echo "bench: unknown mode $1" >&2; return 2 ;;
  esac
  "$ffmpeg" -hide_banner -nostdin "${inputs[@]}" -lavfi "$graph" -f null - >"$2" 2>&1
}

# The last "frame=N" of ffmpeg's progress output: frames of the first output.
frames_of() { tr '\r' '\n' <"$1" | sed -n 's/^frame= *\([0-9]*\).*/\1/p' | tail -n 1; }

echo "| mode | frames | seconds | fps | x decode | runs: fps | mean fps | mean x decode |"
echo "|---|---:|---:|---:|---:|---|---:|---:|"
decode_fps='' decode_one_fps='' decode_mean='' decode_one_mean='' failed=0
for mode in $modes; do
  best='' list='' sum=0
  for ((r = 0; r < runs; r++)); do
    log=$out/$mode.$r.log
    t0=$(date +%s.%N)
    if ! run_mode "$mode" "$log"; then
      echo "bench: $mode failed; the end of its log:" >&2
      tail -n 15 "$log" >&2
      failed=1
      continue 2
    fi
    t1=$(date +%s.%N)
    if grep -q "Failed setup for format vulkan" "$log"; then
      echo "bench: $mode: the device cannot decode these streams with Vulkan video (FFmpeg fell back to the CPU)" >&2
      failed=1
      continue 2
    fi
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; n=$(frames_of "$log"); fi
    run_fps=$(awk -v n="$(frames_of "$log")" -v s="$s" 'BEGIN { printf "%.1f", n / s }')
    list+="$run_fps "
    sum=$(awk -v a="$sum" -v b="$run_fps" 'BEGIN { print a + b }')
  done
  fps=$(awk -v n="$n" -v s="$best" 'BEGIN { printf "%.1f", n / s }')
  mean=$(awk -v s="$sum" -v n="$runs" 'BEGIN { printf "%.1f", s / n }')
  [ "$mode" = decode ] && decode_fps=$fps decode_mean=$mean
  [ "$mode" = decode-one ] && decode_one_fps=$fps decode_one_mean=$mean
  base=$decode_fps base_mean=$decode_mean
  [ "${mode%-one}" != "$mode" ] && base=$decode_one_fps base_mean=$decode_one_mean
  rel=$( [ -n "$base" ] && awk -v a="$fps" -v b="$base" 'BEGIN { printf "%.2f", a / b }' || true)
  rel_mean=$( [ -n "$base_mean" ] && awk -v a="$mean" -v b="$base_mean" 'BEGIN { printf "%.2f", a / b }' || true)
  echo "| $mode | $n | $best | $fps | $rel | $list| $mean | $rel_mean |"
  case $mode in decode*) ;; *) grep -h "VMAF score" "$out/$mode.0.log" >&2 || true ;; esac
done

# Both scoring runs saw the same frames: their pooled scores must agree.
if [ -f "$out/vulkan.json" ] && [ -f "$out/cpu.json" ]; then
  python3 - "$out/vulkan.json" "$out/cpu.json" <<'PY' || failed=1
import json, sys
a, b = (json.load(open(p))["pooled_metrics"] for p in sys.argv[1:3])
bad = 0
for k in ("vmaf", "psnr_y"):
    d = abs(a[k]["mean"] - b[k]["mean"])
    print(f"bench: {k} mean: libvmaf_vulkan {a[k]['mean']:.6f}, libvmaf {b[k]['mean']:.6f}, |diff| {d:.2g}",
          file=sys.stderr)
    bad |= d > 1e-4
sys.exit(bad)
PY
fi
exit $failed
