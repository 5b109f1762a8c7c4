#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# CI test of the FFmpeg integration: builds FFmpeg 9.0.2 with ffmpeg-patches/9.0/
# against the library in BUILD_DIR, then scores every golden pair three ways:
#   vulkan  the libvmaf_vulkan filter on Vulkan frames (format=...,hwupload)
#   cpu     FFmpeg's stock libvmaf filter, unchanged, on our library
#   cli     our vmaf tool
# One 8-bit and one 10-bit pair also go through libvmaf_vulkan as nv12 and p010.
# Each run's per-frame VMAF and features must agree with the others and with
# Netflix libvmaf's JSON (tests/data/NAME.libvmaf.json) within 1e-4, and the
# Khronos validation layer (with synchronization validation), on for every
# Vulkan run, must report nothing. ssimulacra2 and butteraugli on one pair, through
# both filters, must be libjxl's own tools' (tests/data/NAME.ssimulacra2.json,
# NAME.butteraugli.json) at the 6 decimals the JSON prints. xpsnr on made pairs
# beyond the golden set must be FFmpeg's own xpsnr filter's
# (scripts/ffmpeg/test_xpsnr.sh). Then the other
# base, FFmpeg 8.1.2: its series
# (ffmpeg-patches/8.1/) must apply and every C file it changes must compile
# (scripts/ffmpeg/build.sh --objects).
#
#   bash scripts/ffmpeg/test.sh            # library built in build/ (scripts/setup.sh)
#
# Env: BUILD_DIR (library build directory, default build), LIBVMAF_VK_PREFIX (use
# a library already installed there instead of installing BUILD_DIR),
# FFMPEG_VULKAN_DEVICE (FFmpeg's Vulkan device: index or name part, default 0),
# LIBVMAF_VK_FFMPEG_CACHE (see lib.sh), JOBS, TOLERANCE (default 1e-4),
# FFMPEG_TEST_TIMEOUT (seconds per run, default 300), KEEP_OUTPUT=1 (keep the
# logs and JSON after a pass too; a failure always keeps them), FFMPEG_VERSION
# (the base to test, default 9.0.2), FFMPEG_COMPILE_BASES (the bases only
# compiled, default 8.1.2; empty: none).
set -euo pipefail
export ffmpeg_script_name=ffmpeg-test
# shellcheck source=scripts/ffmpeg/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$ffmpeg_root"

build_dir=${BUILD_DIR:-build}
data=tests/data
tolerance=${TOLERANCE:-1e-4}
device=${FFMPEG_VULKAN_DEVICE:-0}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
t0=$(date +%s)

# Building FFmpeg needs a few tools scripts/setup.sh does not install.
missing=()
for p in make git xz-utils; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || die "missing Debian packages (run as root or install them): ${missing[*]}"
  say "installing ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    die "could not install ${missing[*]}"
fi

cli=$build_dir/core/tools/vmaf
[ -x "$cli" ] || die "$cli is not built (run scripts/setup.sh or scripts/test.sh first)"

# The library, installed into a prefix: FFmpeg builds against an installation,
# as a user's would. A DESTDIR install of BUILD_DIR into the cache, with its
# libvmaf.pc pointed at where it landed.
if [ -n "${LIBVMAF_VK_PREFIX:-}" ]; then
  prefix=$LIBVMAF_VK_PREFIX
else
  build_prefix=$("$python" -c '
import json, sys
opts = json.load(sys.stdin)
print(next(o["value"] for o in opts if o["name"] == "prefix"))' < <(meson introspect "$build_dir" --buildoptions)) ||
    die "cannot read the install prefix of $build_dir"
  stage=$ffmpeg_cache/libvmaf-install
  rm -rf "$stage"
  mkdir -p "$ffmpeg_cache"
  meson install -C "$build_dir" --no-rebuild --destdir "$stage" >"$ffmpeg_cache/libvmaf-install.log" 2>&1 ||
    die "meson install of $build_dir failed (see $ffmpeg_cache/libvmaf-install.log)"
  prefix=$stage$build_prefix
  pc=$(find "$prefix" -name libvmaf.pc | head -n 1)
  [ -n "$pc" ] || die "the installation of $build_dir has no libvmaf.pc"
  sed -i "s#^prefix=.*#prefix=$prefix#" "$pc"
fi

ffmpeg=$(bash scripts/ffmpeg/build.sh "$prefix")
t_build=$(date +%s)
filters=$("$ffmpeg" -hide_banner -filters 2>&1) || die "$ffmpeg does not run: $(head -n 3 <<<"$filters")"
for f in libvmaf libvmaf_vulkan; do
  grep -qw "$f" <<<"$filters" || die "$ffmpeg was built without the $f filter (see the build's messages above)"
done

out=$(mktemp -d "${TMPDIR:-/tmp}/ffmpeg-test.XXXXXX")
# Logs and JSON are removed after a pass and kept after a failure (or always,
# with KEEP_OUTPUT=1).
finish() {
  local rc=$?
  if [ "$rc" -eq 0 ] && [ -z "${KEEP_OUTPUT:-}" ]; then
    rm -rf "$out"
  else
    say "logs and scores kept in $out"
  fi
}
trap finish EXIT

# The validation layer, for every Vulkan instance (FFmpeg's, which the library
# shares), with synchronization validation: errors and warnings are logged to
# stdout and fail the test. Old loaders read VK_INSTANCE_LAYERS, newer ones
# VK_LOADER_LAYERS_ENABLE.
export VK_LOADER_LAYERS_ENABLE='*validation'
export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
cat >"$out/vk_layer_settings.txt" <<'EOF2'
khronos_validation.report_flags = error,warn
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
khronos_validation.log_filename = stdout
khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
EOF2
export VK_LAYER_SETTINGS_PATH=$out
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}

declare -A seen_alt=()

# Fails when the layer said anything of severity error or warning.
check_validation() {
  if grep -E -m 5 'Validation (Error|Warning)|VUID-' "$1"; then
    die "validation layer messages in the $2 run (full log: $1)"
  fi
}

common=(-hide_banner -nostdin -nostats -loglevel info)
run_limit=${FFMPEG_TEST_TIMEOUT:-300}

# Runs a command under a time limit, so that a hang fails and says so.
limited() {
  local rc=0
  timeout --kill-after=10 "$run_limit" "$@" || rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    say "timed out after $run_limit s: $*"
  fi
  return "$rc"
}

# One Vulkan run with the loader's layer log shows the layer really is there.
VK_LOADER_DEBUG=layer limited "$ffmpeg" -hide_banner -nostdin -init_hw_device "vulkan=vk:$device" \
  -f lavfi -i testsrc2=s=64x64:d=0.04 -vf format=yuv420p,hwupload -filter_hw_device vk -f null - >"$out/layer-check.log" 2>&1 || true
grep -q 'VK_LAYER_KHRONOS_validation' "$out/layer-check.log" ||
  die "the Khronos validation layer did not load (install vulkan-validationlayers); log: $out/layer-check.log"

# libvmaf_vulkan on one pair, uploaded as sw_format FMT; log as $out/$pair.TAG.*
run_vulkan() {
  local pair=$1 fmt=$2 tag=$3 ref=$data/${1}_ref.y4m dis=$data/${1}_dis.y4m
  limited "$ffmpeg" "${common[@]}" -init_hw_device "vulkan=vk:$device" -filter_hw_device vk -i "$dis" -i "$ref" \
    -lavfi "[0:v]format=$fmt,hwupload[dis];[1:v]format=$fmt,hwupload[ref];[dis][ref]libvmaf_vulkan=feature=name=psnr:log_fmt=json:log_path=$out/$pair.$tag.json" \
    -f null - >"$out/$pair.$tag.log" 2>&1 ||
    die "libvmaf_vulkan failed on $pair ($fmt): $(grep -m 4 -i -E 'error|fail' "$out/$pair.$tag.log" | tr '\n' ' ')"
  check_validation "$out/$pair.$tag.log" "libvmaf_vulkan $pair ($fmt)"
  grep -q '^\[.*libvmaf_vulkan.*\] VMAF score: ' "$out/$pair.$tag.log" ||
    die "libvmaf_vulkan printed no VMAF score for $pair ($fmt)"
}

n=0
failed=0
for golden in "$data"/*.libvmaf.json; do
  case $golden in *.libvmaf.*.json) continue ;; esac
  pair=$(basename "$golden" .libvmaf.json)
  ref=$data/${pair}_ref.y4m dis=$data/${pair}_dis.y4m
  fmt=$(y4m_format "$ref")

  run_vulkan "$pair" "$fmt" vulkan

  limited "$ffmpeg" "${common[@]}" -i "$dis" -i "$ref" \
    -lavfi "[0:v][1:v]libvmaf=feature=name=psnr:log_fmt=json:log_path=$out/$pair.cpu.json" \
    -f null - >"$out/$pair.cpu.log" 2>&1 ||
    die "the libvmaf filter failed on $pair: $(grep -m 3 -i -E 'error|fail' "$out/$pair.cpu.log" | tr '\n' ' ')"

  limited "$cli" -q -r "$ref" -d "$dis" --feature psnr --json -o "$out/$pair.cli.json" >"$out/$pair.cli.log" 2>&1 ||
    die "the vmaf tool failed on $pair: $(head -n 3 "$out/$pair.cli.log" | tr '\n' ' ')"

  runs=("vulkan=$out/$pair.vulkan.json" "cpu=$out/$pair.cpu.json" "cli=$out/$pair.cli.json")
  # The interleaved-chroma formats, converted losslessly from the pair's own.
  case $fmt in
    yuv420p) alt=nv12 ;;
    yuv420p10le) alt=p010le ;;
    *) alt= ;;
  esac
  if [ -n "$alt" ] && [ -z "${seen_alt[$alt]:-}" ]; then
    seen_alt[$alt]=1
    run_vulkan "$pair" "$alt" "$alt"
    runs+=("vulkan-$alt=$out/$pair.$alt.json")
  fi

  "$python" scripts/ffmpeg/compare.py --label "$pair" --golden "$golden" --tolerance "$tolerance" "${runs[@]}" ||
    failed=$((failed + 1))
  n=$((n + 1))
done
[ "$n" -gt 0 ] || die "no golden pairs in $data"

# PAIR through FFmpeg's stock libvmaf filter (the CPU) and through
# libvmaf_vulkan on the GPU with the filter options OPTS, writing
# $out/PAIR.TAG.{cpu,vulkan}.{json,log}: the Vulkan run must pass the validation
# layer and score every feature on the GPU (the library's log line says where
# each one ran; ssimulacra2 and butteraugli need shaderFloat64, which lavapipe
# has). WHAT says which run in the messages.
both_filters() {
  local pair=$1 opts=$3 what=$4 base="$out/$1.$2"
  limited "$ffmpeg" "${common[@]}" -i "$data/${pair}_dis.y4m" -i "$data/${pair}_ref.y4m" \
    -lavfi "[0:v][1:v]libvmaf=$opts:log_fmt=json:log_path=$base.cpu.json" \
    -f null - >"$base.cpu.log" 2>&1 ||
    die "the libvmaf filter failed $what: $(grep -m 3 -i -E 'error|fail' "$base.cpu.log" | tr '\n' ' ')"
  limited "$ffmpeg" "${common[@]}" -init_hw_device "vulkan=vk:$device" -filter_hw_device vk \
    -i "$data/${pair}_dis.y4m" -i "$data/${pair}_ref.y4m" \
    -lavfi "[0:v]format=yuv420p,hwupload[dis];[1:v]format=yuv420p,hwupload[ref];[dis][ref]libvmaf_vulkan=$opts:log_fmt=json:log_path=$base.vulkan.json" \
    -f null - >"$base.vulkan.log" 2>&1 ||
    die "libvmaf_vulkan failed $what: $(grep -m 4 -i -E 'error|fail' "$base.vulkan.log" | tr '\n' ' ')"
  check_validation "$base.vulkan.log" "libvmaf_vulkan $what"
  grep -q 'Vulkan: features on the GPU: .*; on the CPU: none' "$base.vulkan.log" ||
    die "libvmaf_vulkan ran features $what on the CPU: $(grep -m 1 'features on the GPU' "$base.vulkan.log")"
}

# The AOM CTC v7.0 set through the stock libvmaf filter (models and features
# spelled out as libvmaf's --aom_ctc v7.0 expands them), against the vmaf tool's
# --aom_ctc v7.0 and libvmaf's own output. ':' inside an option value is
# escaped once for the option parser and once for the filtergraph.
ctc_pair=coffee_320x240_crf28
ctc_models='version=vmaf_v0.6.1\\:name=vmaf|version=vmaf_v0.6.1neg\\:name=vmaf_neg'
ctc_features='name=psnr\\:reduced_hbd_peak=true\\:enable_apsnr=true\\:min_sse=0.5|name=ciede'
ctc_features+='|name=float_ssim\\:scale=1\\:enable_db=true\\:clip_db=true'
ctc_features+='|name=float_ms_ssim\\:enable_db=true\\:clip_db=true|name=psnr_hvs|name=cambi'
both_filters "$ctc_pair" aom_ctc "model=$ctc_models:feature=$ctc_features" "on the aom_ctc set"
limited "$cli" -q -r "$data/${ctc_pair}_ref.y4m" -d "$data/${ctc_pair}_dis.y4m" --aom_ctc v7.0 --json \
  -o "$out/$ctc_pair.aom_ctc.cli.json" >"$out/$ctc_pair.aom_ctc.cli.log" 2>&1 ||
  die "vmaf --aom_ctc v7.0 failed: $(head -n 3 "$out/$ctc_pair.aom_ctc.cli.log" | tr '\n' ' ')"
"$python" scripts/ffmpeg/compare.py --label "$ctc_pair aom_ctc v7.0" \
  --golden "$data/$ctc_pair.libvmaf.aom_ctc_v7.0.json" --tolerance "$tolerance" \
  "cpu=$out/$ctc_pair.aom_ctc.cpu.json" "cli=$out/$ctc_pair.aom_ctc.cli.json" \
  "vulkan=$out/$ctc_pair.aom_ctc.vulkan.json" ||
  failed=$((failed + 1))

# Features without a GPU twin through libvmaf_vulkan: they run on the CPU from
# host copies of the uploaded frames, in the same context; the scores must be
# the vmaf tool's on the same files.
mix_pair=coffee_320x240_crf28
mix_features='name=psnr|name=ciede|name=psnr_hvs|name=float_vif|name=float_motion'
limited "$ffmpeg" "${common[@]}" -init_hw_device "vulkan=vk:$device" -filter_hw_device vk \
  -i "$data/${mix_pair}_dis.y4m" -i "$data/${mix_pair}_ref.y4m" \
  -lavfi "[0:v]format=yuv420p,hwupload[dis];[1:v]format=yuv420p,hwupload[ref];[dis][ref]libvmaf_vulkan=feature=$mix_features:log_fmt=json:log_path=$out/$mix_pair.mix.vulkan.json" \
  -f null - >"$out/$mix_pair.mix.vulkan.log" 2>&1 ||
  die "libvmaf_vulkan with CPU-only features failed: $(grep -m 4 -i -E 'error|fail' "$out/$mix_pair.mix.vulkan.log" | tr '\n' ' ')"
check_validation "$out/$mix_pair.mix.vulkan.log" "libvmaf_vulkan with CPU-only features"
limited "$cli" -q -r "$data/${mix_pair}_ref.y4m" -d "$data/${mix_pair}_dis.y4m" --feature psnr --feature ciede \
  --feature psnr_hvs --feature float_vif --feature float_motion --json -o "$out/$mix_pair.mix.cli.json" \
  >"$out/$mix_pair.mix.cli.log" 2>&1 || die "the vmaf tool failed on the mixed feature set"
"$python" scripts/ffmpeg/compare.py --label "$mix_pair CPU-only features on libvmaf_vulkan" \
  --golden "$data/$mix_pair.libvmaf.more.json" --tolerance "$tolerance" \
  "vulkan=$out/$mix_pair.mix.vulkan.json" "cli=$out/$mix_pair.mix.cli.json" ||
  failed=$((failed + 1))

# libjxl's metrics, ssimulacra2 and butteraugli, through the stock libvmaf
# filter (CPU) and libvmaf_vulkan (their GPU twins), against libjxl's own tools
# (tests/data/NAME.ssimulacra2.json, NAME.butteraugli.json; made by
# scripts/truth/). One pair: the smallest 8-bit golden pair with both truth
# files whose pictures differ (chelsea_176x144_identical, as small, scores
# only 100 and 0), so that butteraugli on the CPU stays cheap (the two runs
# take a few seconds on 2 cores). The filters write libvmaf's JSON, 6
# decimals, so each value is compared at the precision printed (compare.py
# --printed: a printed value stands for anything within half a unit of its
# last decimal, 5e-7): ssimulacra2 within 1e-6 of libjxl's tool, the
# butteraugli distance and 3-norm equal to the tool's rounded to 6 decimals.
# The project's bounds (docs/features/) are tighter than that print: 1e-6 for
# ssimulacra2, the distance bit for bit, the 3-norm within 5e-7.
jxl_pair=astronaut_176x144_crf35
jxl_features='name=ssimulacra2|name=butteraugli'
both_filters "$jxl_pair" libjxl "feature=$jxl_features" "with ssimulacra2 and butteraugli"
"$python" scripts/ffmpeg/compare.py --label "$jxl_pair ssimulacra2 and butteraugli" \
  --golden "$data/$jxl_pair.ssimulacra2.json" --golden "$data/$jxl_pair.butteraugli.json" \
  --printed --tolerance "$tolerance" \
  --metric ssimulacra2=1e-6 --metric butteraugli=0 --metric butteraugli_3norm=0 \
  "cpu=$out/$jxl_pair.libjxl.cpu.json" "vulkan=$out/$jxl_pair.libjxl.vulkan.json" ||
  failed=$((failed + 1))

t_end=$(date +%s)
say "FFmpeg $ffmpeg_version: build $((t_build - t0)) s, $n pairs $((t_end - t_build)) s"
[ "$failed" -eq 0 ] || die "$failed comparison(s) failed (the lines with FAIL above say which runs, frame, metric and values)"
echo "ffmpeg $ffmpeg_version: $n pairs pass (libvmaf_vulkan, libvmaf filter and vmaf tool agree with libvmaf within $tolerance; both filters' ssimulacra2 and butteraugli with libjxl's tools)"

# xpsnr on pairs beyond the golden set, against FFmpeg's own xpsnr filter.
bash scripts/ffmpeg/test_xpsnr.sh "$ffmpeg" "$cli" "$out/xpsnr" ||
  die "the vmaf tool's xpsnr differs from FFmpeg's xpsnr filter (lines with FAIL above)"

# The stock libvmaf filter, unchanged, on the GPU through VMAF_BACKEND alone
# (docs/environment.md): scores identical to the CPU's, and no device is an error.
bash scripts/ffmpeg/test_env_backend.sh "$ffmpeg" ||
  die "the stock libvmaf filter with VMAF_BACKEND failed (messages above)"

# The other bases: the series applies and what it changes compiles.
for v in ${FFMPEG_COMPILE_BASES-8.1.2}; do
  [ "$v" != "$ffmpeg_version" ] || continue
  t=$(date +%s)
  FFMPEG_VERSION=$v bash scripts/ffmpeg/build.sh --objects "$prefix" >/dev/null ||
    die "the series for FFmpeg $v does not build (messages above)"
  echo "ffmpeg $v: the series applies and its C files compile ($(($(date +%s) - t)) s)"
done
