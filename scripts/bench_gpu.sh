#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Throughput of a feature set (default vmaf_v0.6.1 + PSNR) per backend and picture
# path (vmaf_bench), at 1080p and 2160p 8-bit 4:2:0: the CPU on every core, then
# the Vulkan paths (host pictures, a device picture pool, frames imported from
# VkImages). Prints a markdown table; needs only bash, awk and the built vmaf_bench.
#   scripts/bench_gpu.sh
#   FEATURES=aom_ctc PROFILE=1 scripts/bench_gpu.sh
# Env: BUILD_DIR (default build), SIZES (default "1920x1080 3840x2160"),
#      FRAMES (timed frames of the Vulkan modes, default 300), CPU_FRAMES (of the
#      cpu mode, default 100), WARMUP (default 10), THREADS (frame threads: the cpu mode's,
#      and the Vulkan modes' for the features without a GPU twin; default nproc),
#      MODES (default "cpu vulkan-host vulkan-device-pool vulkan-import"),
#      FEATURES (what is computed, every mode alike: vmaf = vmaf_v0.6.1 + psnr, the
#      default; aom_ctc = the vmaf tool's --aom_ctc v7.0 models and features;
#      nflx_ctc = --nflx_ctc v1.0; aom_ctc=VERSION / nflx_ctc=VERSION for another;
#      v1 = the VMAF v1 model vmaf_v1.0.16_3d0h, v1=VARIANT vmaf_v1.0.16_VARIANT),
#      PROFILE=1 (the Vulkan modes also time each feature and stage on the GPU,
#      running a stage's features one after another; tables after the main one),
#      VMAF_MODEL_DIR (where the models are), OUT (keep the JSON results there),
#      IN_FLIGHT (frames queued on the GPU; default the library's), IMPORT_LAYOUT
#      (vulkan-import images: auto, 3plane or r8),
#      VALIDATION=1 (validation layer on, any message fails; VMAF_TEST_VULKAN_NO_VALIDATION=1
#      turns it off again, as for the tests, where the layer is not installed),
#      CHECK=1 (every mode runs FRAMES frames and each mean VMAF and PSNR-Y must
#      equal the cpu mode's within 1e-4: the backends are bit-identical).
# CLI modes (in MODES, e.g. MODES="cli-vulkan cli-cpu"): the vmaf tool end to end
# from a .y4m pair of the synthetic frames that vmaf_bench --write-y4m writes at
# bench time (page-cached), best of REPEAT runs (default 3) of
#   vmaf -r REF -d DIST --backend vulkan|cpu --threads T -q SET
# where SET is FEATURES in the tool's words (-m version=vmaf_v0.6.1 --feature psnr,
# --aom_ctc v7.0, --nflx_ctc v1.0, -m version=vmaf_v1.0.16_3d0h).
# beside the rate at which `cat` reads both files (the most reading can give).
# Env: CLI_FRAMES (frames of each clip; default 480 up to 1920x1080, else 120),
#      VMAF (the vmaf tool; default BUILD_DIR's), CLIP_DIR (where the clips go;
#      default a temporary folder; clips already there of the right size are reused).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
bench=$build/core/tools/vmaf_bench
sizes=${SIZES:-1920x1080 3840x2160}
frames=${FRAMES:-300}
check=${CHECK:-0}
cpu_frames=${CPU_FRAMES:-100}
[ "$check" = 1 ] && cpu_frames=$frames
warmup=${WARMUP:-10}
threads=${THREADS:-$(nproc)}
modes=${MODES:-cpu vulkan-host vulkan-device-pool vulkan-import}
features=${FEATURES:-vmaf}
profile=${PROFILE:-0}
# The set in the vmaf tool's options.
case $features in
vmaf) set_args=(-m version=vmaf_v0.6.1 --feature psnr) ;;
aom_ctc) set_args=(--aom_ctc v7.0) ;;
nflx_ctc) set_args=(--nflx_ctc v1.0) ;;
aom_ctc=*|nflx_ctc=*) set_args=("--${features%%=*}" "${features#*=}") ;;
v1) set_args=(-m version=vmaf_v1.0.16_3d0h) ;;
v1=*) set_args=(-m "version=vmaf_v1.0.16_${features#v1=}") ;;
*) echo "bench_gpu: FEATURES: vmaf, v1[=VARIANT], aom_ctc[=VERSION] or nflx_ctc[=VERSION], not '$features'" >&2; exit 2 ;;
esac
extra=(--features "$features")
[ "$profile" = 1 ] && extra+=(--profile)
[ -n "${VMAF_MODEL_DIR:-}" ] && extra+=(--model-dir "$VMAF_MODEL_DIR")
[ -n "${IN_FLIGHT:-}" ] && extra+=(--in-flight "$IN_FLIGHT")
[ -n "${IMPORT_LAYOUT:-}" ] && extra+=(--import-layout "$IMPORT_LAYOUT")
[ "${VALIDATION:-0}" = 1 ] && [ "${VMAF_TEST_VULKAN_NO_VALIDATION:-0}" != 1 ] && extra+=(--validation)

[ -x "$bench" ] || { echo "bench_gpu: no $bench (build first, or set BUILD_DIR)" >&2; exit 1; }
vmaf=${VMAF:-$build/core/tools/vmaf}
repeat=${REPEAT:-3}
if [ -n "${OUT:-}" ]; then
  out=$OUT
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

# One field of a result file (one JSON object on one line per file; the fields
# read here are top-level names that appear once).
field() { sed -n -e "s/.*\"$1\": \"\([^\"]*\)\".*/\1/p" -e t -e "s/.*\"$1\": \([^,}]*\).*/\1/p" "$2"; }
# A list of strings, comma-separated: "adm, vif".
list_field() { sed -n "s/.*\"$1\": \[\([^]]*\)\].*/\1/p" "$2" | tr -d '"'; }

now() { date +%s.%N; }

# The clip pair of a size, made once: "REF DIST FRAMES".
clips() {
  local w=$1 h=$2 n=${CLI_FRAMES:-}
  [ -z "$n" ] && { if [ $((w * h)) -le $((1920 * 1080)) ]; then n=480; else n=120; fi; }
  local dir=${CLIP_DIR:-$out} ref dist
  ref=$dir/bench_${w}x${h}_${n}_ref.y4m dist=$dir/bench_${w}x${h}_${n}_dist.y4m
  local bytes=$(( (w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2) + 6) * n ))
  if [ "$(stat -c %s "$ref" 2>/dev/null || echo 0)" -lt "$bytes" ] ||
     [ "$(stat -c %s "$dist" 2>/dev/null || echo 0)" -lt "$bytes" ]; then
    mkdir -p "$dir"
    "$bench" --write-y4m "$ref" "$dist" --width "$w" --height "$h" --frames "$n" >&2 || return 1
  fi
  echo "$ref $dist $n"
}

# Best of `repeat` runs of a command: the shortest wall time in seconds.
best_time() {
  local best='' t0 t1 i
  for ((i = 0; i < repeat; i++)); do
    t0=$(now)
    "$@" >/dev/null || return 1
    t1=$(now)
    best=$(awk -v a="$t0" -v b="$t1" -v c="$best" 'BEGIN { d = b - a; print (c == "" || d < c) ? d : c }')
  done
  echo "$best"
}

cli_rows=()
# One CLI mode at one size: the tool's rate and cat's.
cli_mode() {
  local size=$1 mode=$2 w=${1%x*} h=${1#*x} ref dist n backend=${2#cli-} t cat_t json
  read -r ref dist n < <(clips "$w" "$h") || return 1
  [ -x "$vmaf" ] || { echo "bench_gpu: no $vmaf (build the vmaf tool, or set VMAF)" >&2; return 1; }
  cat "$ref" "$dist" >/dev/null  # into the page cache
  cat_t=$(best_time cat "$ref" "$dist") || return 1
  json=$out/${size}_${mode}.json
  t=$(best_time "$vmaf" -r "$ref" -d "$dist" --backend "$backend" --threads "$threads" -q "${set_args[@]}") || return 1
  "$vmaf" -r "$ref" -d "$dist" --backend "$backend" --threads "$threads" -q "${set_args[@]}" --json -o "$json" \
    >/dev/null || return 1
  local score
  score=$(sed -n '/"pooled_metrics"/,$ { /"vmaf"/,/}/ s/.*"mean": \([-0-9.e+]*\).*/\1/p }' "$json" | head -n 1)
  cli_rows+=("$(awk -v s="$size" -v m="$mode" -v n="$n" -v t="$t" -v c="$cat_t" -v v="$score" \
    'BEGIN { printf "| %s | %s | %d | %.1f | %.1f | %.2f | %.4f |", s, m, n, n / t, n / c, c / t, v }')")
}

rows=() failed=0 placement=() profiles=()
read -r first_size _ <<<"$sizes"
for size in $sizes; do
  w=${size%x*} h=${size#*x}
  cpu_fps='' cpu_vmaf='' cpu_psnr=''
  for mode in $modes; do
    case $mode in
    cli-vulkan|cli-cpu)
      cli_mode "$size" "$mode" || { cli_rows+=("| $size | $mode | failed | | | | |"); failed=1; }
      continue ;;
    esac
    json=$out/${size}_${mode}.json
    # Frame threads in every mode: the Vulkan modes' CPU features (a set's
    # features without a GPU twin) run on them; with none, they stay idle.
    n=$frames args=(--threads "$threads")
    if [ "$mode" = cpu ]; then n=$cpu_frames; fi
    if ! "$bench" --mode "$mode" --width "$w" --height "$h" --frames "$n" --warmup "$warmup" \
        "${args[@]}" "${extra[@]}" --json "$json" >"$out/${size}_${mode}.txt"; then
      cat "$out/${size}_${mode}.txt" >&2
      rows+=("| $size | $mode | failed | | | | |")
      failed=1
      continue
    fi
    cat "$out/${size}_${mode}.txt" >&2
    label=$(field features "$json")
    if [ "$size" = "$first_size" ]; then  # where the features ran, once per mode
      gpu_list=$(list_field gpu_features "$json") where=''
      [ -n "$gpu_list" ] && where="on the GPU: $gpu_list; "
      where+="on the CPU: $(list_field cpu_features "$json")"
      [ "$(field cpu_from_gpu_copies "$json")" = true ] && where+=" (from host copies the GPU made)"
      placement+=("- $mode: $where")
    fi
    if [ "$profile" = 1 ] && [ "$mode" != cpu ]; then
      table=$(sed -n '/^| part /,/^| total /p' "$out/${size}_${mode}.txt")
      profiles+=("$size $mode:" "" "${table:-no profile (no timestamps on this queue)}" "")
    fi
    fps=$(field fps "$json") score=$(field vmaf_mean "$json") psnr=$(field psnr_y_mean "$json")
    gpu=$(field gpu_ms_per_frame "$json") host=$(field host_cpu_ms_per_frame "$json")
    [ "$mode" = cpu ] && { cpu_fps=$fps cpu_vmaf=$score cpu_psnr=$psnr; }
    [ -z "${device:-}" ] && [ "$mode" != cpu ] && device=$(field device "$json")
    rows+=("$(awk -v s="$size" -v m="$mode" -v f="$fps" -v c="$cpu_fps" -v g="$gpu" -v hc="$host" -v v="$score" \
      'BEGIN { r = c != "" ? sprintf("%.2f", f / c) : "";
               gm = g != "null" ? sprintf("%.3f", g) : "";
               printf "| %s | %s | %.1f | %s | %s | %.3f | %.4f |", s, m, f, r, gm, hc, v }')")
    if [ "$check" = 1 ] && [ "$mode" != cpu ]; then
      if [ -z "$cpu_vmaf" ]; then
        echo "bench_gpu: CHECK=1 needs the cpu mode first in MODES" >&2
        failed=1
      elif ! awk -v a="$score" -v b="$cpu_vmaf" -v p="$psnr" -v q="$cpu_psnr" \
          'BEGIN { d = a - b; e = p - q; exit !(d < 1e-4 && d > -1e-4 && e < 1e-4 && e > -1e-4) }'; then
        echo "bench_gpu: $size $mode: VMAF $score, PSNR-Y $psnr; the cpu mode gave $cpu_vmaf, $cpu_psnr" >&2
        failed=1
      else
        echo "bench_gpu: $size $mode: VMAF $score, PSNR-Y $psnr: equal to the cpu mode's" >&2
      fi
    fi
  done
done

if [ ${#rows[@]} -gt 0 ]; then
  echo
  echo "features: ${label:-$features} (vmaf_bench --features $features), 8-bit 4:2:0; Vulkan: ${device:-none};" \
       "CPU: $(nproc) cores ($(uname -m)), $threads threads"
  echo "timed frames: $frames (Vulkan modes), $cpu_frames (cpu), after $warmup warm-up frames"
  [ ${#placement[@]} -gt 0 ] && printf '%s\n' "${placement[@]}"
  [ "$profile" = 1 ] && echo "PROFILE=1: the Vulkan modes ran a stage's features one after another (fps and GPU ms are those of profile mode)"
  echo
  echo "| resolution | mode | fps | x cpu | GPU ms/frame | host CPU ms/frame | mean VMAF |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
fi
if [ ${#cli_rows[@]} -gt 0 ]; then
  echo
  echo "vmaf tool end to end (${set_args[*]}), page-cached .y4m pairs, best of $repeat runs; $threads threads;" \
       "$(nproc) cores ($(uname -m)); $vmaf"
  echo
  echo "| resolution | mode | frames | fps | cat fps | x cat | mean VMAF |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  printf '%s\n' "${cli_rows[@]}"
fi
if [ ${#profiles[@]} -gt 0 ]; then
  echo
  echo "GPU time per part of a frame (vmaf_bench --profile: mean ms per timed frame; a stage's features run one"
  echo "after another, each alone, so the total exceeds the GPU ms/frame above without PROFILE=1)"
  echo
  printf '%s\n' "${profiles[@]}"
fi
exit $failed
