#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# What the series' patches 0004 (the scheduler feeds every input a pairing
# filter waits on) and 0005 (a Vulkan video session's decodes in submission
# order) still do on an FFmpeg base, and whether libvmaf_vulkan keeps pace with
# Vulkan decoding there, in one run on a GPU machine with Vulkan video decode.
# Three builds of the same base are compared: the whole series, the series
# without 0004 (what the scheduler patch still does), and the series without
# 0004 and 0005 (does frame-threaded decoding still hang?).
#
#   scripts/ffmpeg/bench_90.sh --prepare CARRY   # here: the builds, libvmaf,
#                                                # the models and the clips into CARRY
#   scripts/ffmpeg/bench_90.sh CARRY OUT         # on the GPU machine
#
# CARRY holds series/, without-0004/ and without-0004-0005/ (each an ffmpeg),
# lib/ (libvmaf.so.3 and libva), models/ and clips/ (test_gpu_decode.sh's k40
# clips; bench_1920x1080 and bench_3840x2160 dis/ref pairs, x264 CRF 30 against
# CRF 14, 96 and 24 frames, make_bench_clip.sh's picture): about 34 MiB. Clips missing from CARRY are made
# on the spot when that machine's ffmpeg has libx264 and libx265.
#
# The run, each step's ffmpeg killed after a time limit (a hang is a result):
#   hang   test_gpu_decode.sh on the whole series and without 0004 and 0005:
#          frame-threaded Vulkan decoding of the keyframe-every-40 clips into
#          libvmaf_vulkan and streamselect
#   speed  the whole series, 1080p and 2160p, REPS (5) repetitions of: both
#          streams decoded to null, then into libvmaf_vulkan (LOOPS, 20, more
#          replays); fps, means and mean ratio
#   pair   the whole series and without 0004 (PAIR_BUILDS), 1080p and 2160p,
#          PAIR_REPS (3) repetitions of: decode to null, into streamselect
#          (pairing alone), into libvmaf_vulkan; after a hang, that build's later
#          runs of that mode and size are skipped
#   scores the whole series: libvmaf_vulkan on Vulkan-decoded frames against the
#          stock libvmaf filter on the same files decoded on the CPU, per frame,
#          difference 0
# OUT gets summary.md (what to read, written as the run goes) and logs.tar.xz
# (every log and JSON). Env: PARTS (default "hang speed pair scores"), REPS,
# PAIR_REPS, PAIR_BUILDS, LOOPS, TIMEOUT (seconds per decoding run, default 45; the longest
# normal run is about 10 s), VULKAN_DEVICE (default 0), THREADS (libvmaf's CPU
# threads, default nproc). The GPU machine needs a Vulkan loader: source one
# first (e.g. . .device/vk-env.sh).
set -euo pipefail
export ffmpeg_script_name=bench-90
here=$(cd "$(dirname "$0")" && pwd)

usage() { sed -n '9,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
say() { echo "bench-90: $*" >&2; }
die() { say "error: $*"; exit 1; }

builds=(series without-0004 without-0004-0005)
sizes=(1920x1080 3840x2160)

# make_bench_clip.sh's recipe (a zoom over a photograph) with 96 frames at 1080p
# and 24 at 2160p, as docs/performance-log.md's earlier figures used, but a CRF 14
# reference instead of their QP 10 one (a twelfth of the size, so that the clips
# travel with the builds).
make_bench_clips() {
  local dir=$1 img=$2 s h n
  for s in "${sizes[@]}"; do
    h=${s#*x}
    [ "$h" = 1080 ] && n=96 || n=24
    [ -f "$dir/bench_${s}_dis.mkv" ] && [ -f "$dir/bench_${s}_ref.mkv" ] && continue
    [ -f "$img" ] || die "the bench clips need make_bench_clip.sh's picture, $img (python3-skimage; or set BENCH_PICTURE)"
    ffmpeg -hide_banner -v error -y -loop 1 -i "$img" \
      -vf "scale=-2:$((h * 2)),zoompan=z='1.1+0.004*on':x='iw/2-(iw/zoom/2)+on*4':y='ih/2-(ih/zoom/2)+on*2':d=1:s=${s}:fps=25,format=yuv420p" \
      -frames:v "$n" -f yuv4mpegpipe "$dir/src.y4m" || die "could not make the $s source"
    ffmpeg -hide_banner -v error -y -i "$dir/src.y4m" -c:v libx264 -preset veryfast -crf 30 "$dir/bench_${s}_dis.mkv" &&
      ffmpeg -hide_banner -v error -y -i "$dir/src.y4m" -c:v libx264 -preset veryfast -crf 14 "$dir/bench_${s}_ref.mkv" ||
      die "could not encode the $s clips (does this ffmpeg have libx264?)"
    rm -f "$dir/src.y4m"
  done
}

make_clips() {
  local dir=$1 img
  mkdir -p "$dir"
  command -v ffmpeg >/dev/null || die "no clips in $dir and no ffmpeg program to make them with"
  [ -f "$dir/k40_h264_dis.mkv" ] || bash "$here/test_gpu_decode.sh" --clips "$dir"
  img=${BENCH_PICTURE:-/usr/lib/python3/dist-packages/skimage/data/hubble_deep_field.jpg}
  make_bench_clips "$dir" "$img"
}

# Builds both FFmpegs (build.sh, FFMPEG_VERSION's base) against the library in
# BUILD_DIR (installed as scripts/ffmpeg/test.sh installs it), and copies what
# the GPU machine needs into CARRY: the programs stripped, libvmaf, the models.
prepare() {
  local carry=$1 root prefix pc ff b skip model_dir
  root=$(cd "$here/../.." && pwd)
  # shellcheck source=scripts/ffmpeg/lib.sh
  . "$here/lib.sh"
  # The library scripts/ffmpeg/test.sh installed into the cache, which the CI
  # build of the whole series is keyed on.
  prefix=$ffmpeg_cache/libvmaf-install$(meson introspect "$root/${BUILD_DIR:-build}" --buildoptions |
    python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
  pc=$(find "$prefix" -name libvmaf.pc 2>/dev/null | head -n 1)
  [ -n "$pc" ] || die "no installed library in $prefix: run scripts/ffmpeg/test.sh first"
  mkdir -p "$carry/lib" "$carry/models"
  for b in "${builds[@]}"; do
    skip=
    [ "$b" = series ] || skip=$(echo "${b#without-}" | tr '-' ' ')
    ff=$(LIBVMAF_VK_FFMPEG_SKIP=$skip bash "$here/build.sh" "$prefix")
    mkdir -p "$carry/$b"
    strip -o "$carry/$b/ffmpeg" "$ff"
  done
  cp -L "$(dirname "$(dirname "$pc")")/libvmaf.so.3" "$carry/lib/"
  strip "$carry/lib/libvmaf.so.3"
  # libvmaf's own needs that a bare GPU machine may lack (libva: VA-API import).
  local dep
  for dep in $(ldd "$carry/lib/libvmaf.so.3" | awk '/libva/ { print $3 }'); do
    cp -L "$dep" "$carry/lib/"
  done
  model_dir=$(meson introspect "$root/${BUILD_DIR:-build}" --buildoptions |
    python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "model_dir"))')
  install -m 644 "$model_dir"/vmaf_v0.6.1.json "$carry/models/"
  make_clips "$carry/clips"
  du -sh "$carry" >&2
}

[ $# -eq 2 ] || usage
if [ "$1" = --prepare ]; then
  prepare "$2"
  exit 0
fi
carry=$(cd "$1" && pwd) dest=$2
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
# Logs gather in a work folder; OUT gets the summary and one archive of them.
out=$(mktemp -d "${TMPDIR:-/tmp}/bench-90.XXXXXX")
trap 'tar -C "$out" -cJf "$dest/logs.tar.xz" . 2>/dev/null; rm -rf "$out"' EXIT
parts=${PARTS:-hang speed pair scores}
reps=${REPS:-5}
pair_reps=${PAIR_REPS:-3}
loops=${LOOPS:-20}
limit=${TIMEOUT:-45}
device=${VULKAN_DEVICE:-0}
threads=${THREADS:-$(nproc)}
export LD_LIBRARY_PATH=$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VMAF_MODEL_DIR=$carry/models
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
# test_gpu_decode.sh sources lib.sh, whose cache path needs a HOME.
export HOME=${HOME:-/tmp}
clips=$carry/clips
[ -f "$clips/k40_h264_dis.mkv" ] && [ -f "$clips/bench_3840x2160_ref.mkv" ] || make_clips "$clips"
# The summary is written as the run goes, so a run cut short still tells what it saw.
exec 3>"$dest/summary.md"
note() { echo "$*" >&3; echo "$*"; }

for b in "${builds[@]}"; do
  [ -x "$carry/$b/ffmpeg" ] || die "no $carry/$b/ffmpeg (make CARRY with --prepare)"
done
ff_series=$carry/series/ffmpeg
"$ff_series" -hide_banner -v verbose -init_hw_device "vulkan=vk:$device" -f lavfi -i testsrc2=s=64x64:d=0.04 \
  -f null - >"$out/device.log" 2>&1 || die "the Vulkan device does not open (log: $out/device.log)"
note "# FFmpeg $("$ff_series" -version | head -n 1 | cut -d' ' -f3): the whole series against the series without 0004, and without 0004 and 0005"
note ""
note "Device: $(grep -m 1 -o 'Device [0-9]* selected: .*' "$out/device.log" || echo '?'); $(date -u +%Y-%m-%dT%H:%MZ)"

frames_of() { tr '\r' '\n' <"$1" | sed -n 's/^frame= *\([0-9]*\).*/\1/p' | tail -n 1; }

# One timed run: build size mode rep -> prints fps (or "hung"/"failed") and
# keeps the log as OUT/runs/build.size.mode.rep.log
hw=(-hwaccel vulkan -hwaccel_device vk -hwaccel_output_format vulkan)
timed() {
  local b=$1 s=$2 mode=$3 r=$4 log t0 t1 rc=0 n dis ref
  dis=$clips/bench_${s}_dis.mkv ref=$clips/bench_${s}_ref.mkv
  log=$out/runs/$b.$s.$mode.$r.log
  mkdir -p "$out/runs"
  local args=(-hide_banner -nostdin -init_hw_device "vulkan=vk:$device"
    "${hw[@]}" -stream_loop "$loops" -i "$dis" "${hw[@]}" -stream_loop "$loops" -i "$ref")
  case $mode in
    decode) args+=(-map 0:v -map 1:v) ;;
    pair) args+=(-lavfi "[0:v][1:v]streamselect=inputs=2:map=0") ;;
    vulkan) args+=(-lavfi "[0:v][1:v]libvmaf_vulkan=feature=name=psnr") ;;
  esac
  t0=$(date +%s.%N)
  timeout -s KILL "$limit" "$carry/$b/ffmpeg" "${args[@]}" -f null - >"$log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  n=$(frames_of "$log")
  if [ "$rc" -eq 137 ]; then echo "hung@${n:-0}"; return; fi
  if [ "$rc" -ne 0 ]; then echo "failed($rc)"; return; fi
  if grep -q "Failed setup for format vulkan" "$log"; then echo "cpu-fallback"; return; fi
  awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", n / (b - a) }'
}

# EARLIER... -- ARGS: timed ARGS, or "skipped" when one of the earlier results hung.
once() {
  local hung=0
  while [ "$1" != -- ]; do case $1 in hung*) hung=1 ;; esac; shift; done
  shift
  if [ "$hung" = 1 ]; then echo skipped; else timed "$@"; fi
}

# mean of the numbers among the arguments ("-" when none)
mean() { printf '%s\n' "$@" | awk '/^[0-9.]+$/ { s += $1; n++ } END { if (n) printf "%.1f", s / n; else printf "-" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'; }

for part in $parts; do
  case $part in
  hang)
    note ""
    note "## Frame-threaded Vulkan decoding of the keyframe-every-40 clips (test_gpu_decode.sh, RUNS=3, TIMEOUT=20)"
    note ""
    for b in series without-0004-0005; do
      rc=0
      OUT=$out/hang-$b RUNS=3 TIMEOUT=20 bash "$here/test_gpu_decode.sh" "$carry/$b/ffmpeg" "$clips" \
        >"$out/hang-$b.log" 2>&1 || rc=$?
      note "- $b: $([ "$rc" -eq 0 ] && echo pass || echo "FAIL (status $rc)")"
      grep -E 'FAIL|pass:|frames in|VMAF|compare' "$out/hang-$b.log" | sed 's/^/    /' >&3 || true
      grep -h -o 'Decoding in submission order.*' "$out/hang-$b"/*-queue.log 2>/dev/null | head -n 1 | sed 's/^/    /' >&3 || true
    done
    ;;
  speed)
    note ""
    note "## libvmaf_vulkan against decoding alone, whole series ($reps repetitions, frame threads, $loops more loops)"
    note ""
    note "| size | decode, fps | libvmaf_vulkan, fps (x decode of the same repetition) | mean ratio (mean vulkan / mean decode) |"
    note "|---|---|---|---|"
    for s in "${sizes[@]}"; do
      dec=() vk=() cells=()
      for ((r = 1; r <= reps; r++)); do
        d=$(timed series "$s" decode "$r"); v=$(timed series "$s" vulkan "$r")
        dec+=("$d") vk+=("$v") cells+=("$v ($(ratio "$v" "$d"))")
      done
      md=$(mean "${dec[@]}") mv=$(mean "${vk[@]}")
      note "| $s | ${dec[*]} (mean $md) | $(IFS=,; echo "${cells[*]}") (mean $mv) | $(ratio "$mv" "$md") |"
      grep -h 'VMAF score' "$out"/runs/series."$s".vulkan.*.log 2>/dev/null | sort | uniq -c | sed 's/^/    /' >&3 || true
    done
    ;;
  pair)
    note ""
    note "## Pairing two Vulkan-decoded inputs, with and without 0004 ($pair_reps repetitions, frame threads, $loops more loops)"
    note ""
    note "| build | size | decode, fps | streamselect, fps | libvmaf_vulkan, fps | means: streamselect, libvmaf_vulkan x decode |"
    note "|---|---|---|---|---|---|"
    for s in "${sizes[@]}"; do
      for b in ${PAIR_BUILDS:-series without-0004}; do
        dec=() pr=() vk=()
        for ((r = 1; r <= pair_reps; r++)); do
          dec+=("$(once "${dec[@]}" -- "$b" "$s" decode "p$r")")
          pr+=("$(once "${pr[@]}" -- "$b" "$s" pair "p$r")")
          vk+=("$(once "${vk[@]}" -- "$b" "$s" vulkan "p$r")")
        done
        md=$(mean "${dec[@]}") mp=$(mean "${pr[@]}") mv=$(mean "${vk[@]}")
        note "| $b | $s | ${dec[*]} | ${pr[*]} | ${vk[*]} | $(ratio "$mp" "$md"), $(ratio "$mv" "$md") |"
      done
    done
    ;;
  scores)
    note ""
    note "## Scores: libvmaf_vulkan on Vulkan-decoded frames against libvmaf on CPU-decoded frames (whole series, no loops)"
    note ""
    for s in "${sizes[@]}"; do
      dis=$clips/bench_${s}_dis.mkv ref=$clips/bench_${s}_ref.mkv
      rc=0
      timeout -s KILL "$limit" "$ff_series" -hide_banner -nostdin -i "$dis" -i "$ref" \
        -lavfi "[0:v][1:v]libvmaf=feature=name=psnr:n_threads=$threads:log_fmt=json:log_path=$out/scores.$s.cpu.json" \
        -f null - >"$out/scores.$s.cpu.log" 2>&1 || rc=$?
      timeout -s KILL "$limit" "$ff_series" -hide_banner -nostdin -init_hw_device "vulkan=vk:$device" \
        "${hw[@]}" -i "$dis" "${hw[@]}" -i "$ref" \
        -lavfi "[0:v][1:v]libvmaf_vulkan=feature=name=psnr:log_fmt=json:log_path=$out/scores.$s.vulkan.json" \
        -f null - >"$out/scores.$s.vulkan.log" 2>&1 || rc=$?
      if [ "$rc" -ne 0 ]; then
        note "- $s: a run failed (status $rc; logs scores.$s.*.log)"
        continue
      fi
      res=$(python3 "$here/compare.py" --label "$s" --golden "$out/scores.$s.cpu.json" --tolerance 0 \
        "vulkan=$out/scores.$s.vulkan.json" 2>&1) && verdict=identical || verdict=DIFFERENT
      note "- $s: $verdict; $(grep -h 'VMAF score' "$out/scores.$s.vulkan.log" | head -n 1 | sed 's/^\[[^]]*\] //') (libvmaf_vulkan), $(grep -h 'VMAF score' "$out/scores.$s.cpu.log" | head -n 1 | sed 's/^\[[^]]*\] //') (libvmaf)"
      echo "$res" | sed 's/^/    /' >&3
    done
    ;;
  *) die "unknown part $part (PARTS: hang speed pair scores)" ;;
  esac
done
say "summary: $dest/summary.md, logs: $dest/logs.tar.xz"
