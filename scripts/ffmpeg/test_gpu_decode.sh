#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Test of FFmpeg's Vulkan video decoding feeding libvmaf_vulkan, for a machine
# whose GPU decodes H.264 and HEVC through Vulkan (lavapipe does not, so CI
# cannot run it). Clips with a keyframe every 40 frames, decoded with
# -hwaccel vulkan on FFmpeg's default frame threads, are what hung FFmpeg 8.1.2
# before patch 0005 of the series (ADR 0056). For each codec:
#   - both streams decoded on the CPU and uploaded (hwupload) into
#     libvmaf_vulkan: the expected scores;
#   - RUNS times (default 4) each: both streams decoded on the GPU into
#     libvmaf_vulkan, and into streamselect; then once with -threads 1.
# Every run must end within TIMEOUT seconds (default 60) with every frame, and
# every libvmaf_vulkan run's per-frame metrics must equal the expected ones
# exactly: Vulkan decoding is bit-exact, and so is the filter.
#
#   scripts/ffmpeg/test_gpu_decode.sh --clips DIR     # make the clips (needs an
#                                                     # ffmpeg with libx264 and libx265)
#   scripts/ffmpeg/test_gpu_decode.sh FFMPEG DIR      # run the test with them
#
# Env: VMAF_MODEL_DIR (where vmaf_v0.6.1.json is), VULKAN_DEVICE (default 0),
# RUNS, TIMEOUT, OUT (keep the logs and JSON there), DEC_THREADS (-threads of the
# GPU-decoded runs; default: FFmpeg's own).
set -euo pipefail
export ffmpeg_script_name=ffmpeg-gpu-decode
# shellcheck source=scripts/ffmpeg/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$ffmpeg_root"

usage() { sed -n '15,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
codecs=(h264 hevc)
frames=96

# 1080p, 96 frames of a slow zoom, a keyframe (IDR) every 40 frames; the
# distorted stream at CRF 32, the reference at CRF 20.
make_clips() {
  local dir=$1 c enc
  command -v ffmpeg >/dev/null || die "making clips needs the ffmpeg program"
  mkdir -p "$dir"
  local src=$dir/source.y4m
  ffmpeg -hide_banner -v error -y -f lavfi -i "testsrc2=s=1920x1080:r=25" \
    -vf "zoompan=z='1.05+0.003*on':x='iw/2-(iw/zoom/2)+on*3':y='ih/2-(ih/zoom/2)+on*2':d=1:s=1920x1080:fps=25,format=yuv420p" \
    -frames:v "$frames" -f yuv4mpegpipe "$src" || die "could not make the source"
  for c in "${codecs[@]}"; do
    case $c in
      h264) enc=(-c:v libx264 -preset veryfast -g 40 -keyint_min 40 -sc_threshold 0) ;;
      hevc) enc=(-c:v libx265 -preset veryfast -x265-params "keyint=40:min-keyint=40:scenecut=0:log-level=error") ;;
    esac
    if ! ffmpeg -hide_banner -v error -y -i "$src" "${enc[@]}" -crf 32 "$dir/k40_${c}_dis.mkv" ||
       ! ffmpeg -hide_banner -v error -y -i "$src" "${enc[@]}" -crf 20 "$dir/k40_${c}_ref.mkv"; then
      die "could not encode the $c clips (does this ffmpeg have ${enc[1]}?)"
    fi
  done
  rm -f "$src"
  say "clips in $dir: $(cd "$dir" && echo k40_*.mkv)"
}

[ $# -ge 1 ] || usage
if [ "$1" = --clips ]; then
  [ $# -eq 2 ] || usage
  make_clips "$2"
  exit 0
fi
[ $# -eq 2 ] || usage
ffmpeg=$1 dir=$2
runs=${RUNS:-4}
limit=${TIMEOUT:-60}
device=${VULKAN_DEVICE:-0}
python=$(command -v python3) || die "needs python3"
[ -x "$ffmpeg" ] || die "no ffmpeg program at $ffmpeg"
for c in "${codecs[@]}"; do
  for s in dis ref; do [ -f "$dir/k40_${c}_$s.mkv" ] || die "no $dir/k40_${c}_$s.mkv (make the clips with --clips)"; done
done
if [ -n "${OUT:-}" ]; then out=$OUT; mkdir -p "$out"; else out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; fi

hw=(${DEC_THREADS:+-threads "$DEC_THREADS"} -hwaccel vulkan -hwaccel_device vk -hwaccel_output_format vulkan)
frames_of() { tr '\r' '\n' <"$1" | sed -n 's/^frame= *\([0-9]*\).*/\1/p' | tail -n 1; }

failed=0
run() {  # name [input options] -- graph: one ffmpeg run on both clips, checked
  local name=$1 opts=() graph rc n
  shift
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  graph=$2
  timeout -s KILL "$limit" "$ffmpeg" -hide_banner -nostdin -init_hw_device "vulkan=vk:$device" \
    -filter_hw_device vk "${opts[@]}" -i "$dis" "${opts[@]}" -i "$ref" -lavfi "$graph" \
    -f null - >"$out/$name.log" 2>&1 && rc=0 || rc=$?
  n=$(frames_of "$out/$name.log")
  if [ "$rc" -ne 0 ]; then
    say "FAIL $name: ffmpeg ended with status $rc after ${n:-0} of $frames frames$([ "$rc" -eq 137 ] && echo " (killed after ${limit} s)")"
    failed=1
    return 1
  elif [ "${n:-0}" -ne "$frames" ]; then
    say "FAIL $name: $n of $frames frames"
    failed=1
    return 1
  fi
}
vmaf() { echo "[0:v][1:v]libvmaf_vulkan=feature=name=psnr:log_fmt=json:log_path=$out/$1.json"; }
pair="[0:v][1:v]streamselect=inputs=2:map=0"

for c in "${codecs[@]}"; do
  dis=$dir/k40_${c}_dis.mkv ref=$dir/k40_${c}_ref.mkv
  run "$c-cpu" -threads 1 -- "[0:v]format=yuv420p,hwupload[d];[1:v]format=yuv420p,hwupload[r];[d][r]libvmaf_vulkan=feature=name=psnr:log_fmt=json:log_path=$out/$c-cpu.json" ||
    continue
  compared=()
  for i in $(seq 1 "$runs"); do
    run "$c-vulkan-$i" "${hw[@]}" -- "$(vmaf "$c-vulkan-$i")" && compared+=("vulkan-$i=$out/$c-vulkan-$i.json")
    run "$c-pair-$i" "${hw[@]}" -- "$pair" || true
  done
  run "$c-vulkan-t1" "${hw[@]}" -threads 1 -- "$(vmaf "$c-vulkan-t1")" && compared+=("threads1=$out/$c-vulkan-t1.json")
  "$ffmpeg" -hide_banner -nostdin -v verbose -init_hw_device "vulkan=vk:$device" "${hw[@]}" -i "$dis" \
    -frames:v 1 -f null - >"$out/$c-queue.log" 2>&1 || true
  grep -q "Decoding in submission order" "$out/$c-queue.log" ||
    { say "FAIL $c: the decoder did not say it orders its submissions (is patch 0005 in $ffmpeg?)"; failed=1; }
  [ ${#compared[@]} -gt 0 ] &&
    "$python" scripts/ffmpeg/compare.py --label "$c, keyframe every 40" --golden "$out/$c-cpu.json" \
      --tolerance 0 "${compared[@]}" || failed=1
done
[ "$failed" -eq 0 ] || die "failed$([ -n "${OUT:-}" ] && echo " (logs in $out)" || echo " (set OUT to keep the logs)")"
say "pass: ${codecs[*]}, $runs frame-threaded runs into libvmaf_vulkan and into streamselect each, plus -threads 1, scores equal to CPU decoding"
