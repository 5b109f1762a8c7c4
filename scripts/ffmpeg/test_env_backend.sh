#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# FFmpeg's stock libvmaf filter, unchanged, put on the GPU by VMAF_BACKEND alone
# (docs/environment.md). For an 8-bit and a 10-bit golden pair:
#   cpu      VMAF_BACKEND=cpu: the filter's scores, which must agree with Netflix
#            libvmaf's JSON (tests/data/NAME.libvmaf.json) within TOLERANCE;
#   vulkan   VMAF_BACKEND=vulkan with the validation layer on: every per-frame
#            metric identical to the cpu run's, the log saying the context scored
#            on Vulkan, and no validation message;
#   nodevice VMAF_BACKEND=vulkan with no Vulkan driver: ffmpeg must fail, and the
#            log must say why (a missing GPU is never a silent CPU run);
#   auto     VMAF_BACKEND=auto with no Vulkan driver: the cpu run's scores, with
#            one notice.
#
#   bash scripts/ffmpeg/test_env_backend.sh FFMPEG [LIBDIR]
#
# FFMPEG is an ffmpeg whose libvmaf filter loads this library (for example the
# binary scripts/ffmpeg/build.sh prints); LIBDIR, when given, is put first on
# LD_LIBRARY_PATH (the directory of the libvmaf.so.3 it should load).
# Env: VMAF_MODEL_DIR (where vmaf_v0.6.1.json is; the filter's default model),
# TOLERANCE (default 1e-4, as scripts/ffmpeg/test.sh), OUT (keep the logs and
# JSON there), FFMPEG_TEST_TIMEOUT (seconds per run, default 300).
set -euo pipefail
export ffmpeg_script_name=ffmpeg-env-backend
# shellcheck source=scripts/ffmpeg/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$ffmpeg_root"
# The library turns the validation layer on itself (VMAF_VULKAN_VALIDATION); the
# loader's own switches, which scripts/ffmpeg/test.sh sets for FFmpeg's device,
# would add the loader's notices about them to what the vulkan run must not print.
unset VK_LOADER_LAYERS_ENABLE VK_INSTANCE_LAYERS

[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '15,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
ffmpeg=$1
if [ $# -eq 2 ]; then
  export LD_LIBRARY_PATH=$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
data=tests/data
tolerance=${TOLERANCE:-1e-4}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
run_limit=${FFMPEG_TEST_TIMEOUT:-300}

filters=$("$ffmpeg" -hide_banner -filters 2>&1) || die "$ffmpeg does not run: $(head -n 3 <<<"$filters")"
grep -qw libvmaf <<<"$filters" || die "$ffmpeg has no libvmaf filter"

if [ -n "${OUT:-}" ]; then
  out=$OUT
  mkdir -p "$out"
else
  out=$(mktemp -d "${TMPDIR:-/tmp}/ffmpeg-env-backend.XXXXXX")
  trap 'rc=$?; if [ $rc -eq 0 ]; then rm -rf "$out"; else say "logs and scores kept in $out"; fi' EXIT
fi
# The pipeline cache of these runs stays with them.
export XDG_CACHE_HOME=$out/cache
unset VMAF_BACKEND VMAF_VULKAN_DEVICE

# run TAG PAIR [VAR=VALUE...]: the stock filter on PAIR; $out/PAIR.TAG.{json,log}, status in $rc.
run() {
  local tag=$1 pair=$2
  shift 2
  rc=0
  env "$@" timeout --kill-after=10 "$run_limit" "$ffmpeg" -hide_banner -nostdin -nostats -loglevel info \
    -i "$data/${pair}_dis.y4m" -i "$data/${pair}_ref.y4m" \
    -lavfi "[0:v][1:v]libvmaf=feature=name=psnr:n_threads=2:log_fmt=json:log_path=$out/$pair.$tag.json" \
    -f null - >"$out/$pair.$tag.log" 2>&1 || rc=$?
}

failed=0
# identical CPU.json OTHER.json LABEL: every per-frame metric and pooled score the same.
identical() {
  "$python" - "$@" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
fa, fb = a["frames"], b["frames"]
assert len(fa) == len(fb) == 10, (len(fa), len(fb))
bad = [(x["frameNum"], k) for x, y in zip(fa, fb) for k in x["metrics"] if x["metrics"][k] != y["metrics"].get(k)]
bad += [k for k in a.get("pooled_metrics", {}) if a["pooled_metrics"][k] != b.get("pooled_metrics", {}).get(k)]
if bad:
    sys.exit(f"{sys.argv[3]}: differs from VMAF_BACKEND=cpu: {bad[:5]}")
print(f"{sys.argv[3]}: identical to VMAF_BACKEND=cpu ({len(fa)} frames, {len(fa[0]['metrics'])} metrics)")
EOF
}
check() { if ! "$@"; then failed=$((failed + 1)); fi; }
problem() { say "$*"; return 1; }

for pair in astronaut_176x144_crf35 rocket_320x240_10bit_crf30; do
  run cpu "$pair" VMAF_BACKEND=cpu
  [ "$rc" -eq 0 ] || die "the libvmaf filter failed on $pair (VMAF_BACKEND=cpu): $(tail -n 3 "$out/$pair.cpu.log")"
  check "$python" scripts/ffmpeg/compare.py --label "$pair VMAF_BACKEND=cpu" --golden "$data/$pair.libvmaf.json" \
    --tolerance "$tolerance" "cpu=$out/$pair.cpu.json"
  ! grep -q "this context scores on Vulkan" "$out/$pair.cpu.log" || check problem "$pair: cpu run used Vulkan"

  run vulkan "$pair" VMAF_BACKEND=vulkan VMAF_VULKAN_VALIDATION=1
  if [ "$rc" -ne 0 ]; then
    check problem "$pair: VMAF_BACKEND=vulkan failed: $(grep -m 3 -i -E 'error|fail' "$out/$pair.vulkan.log" | tr '\n' ' ')"
    continue
  fi
  grep -q "libvmaf INFO: VMAF_BACKEND=vulkan: this context scores on Vulkan" "$out/$pair.vulkan.log" ||
    check problem "$pair: the vulkan run's log does not say it scored on Vulkan"
  grep -q "libvmaf INFO: Vulkan: features on the GPU: .*vif" "$out/$pair.vulkan.log" ||
    check problem "$pair: the vulkan run's log does not list the features on the GPU"
  if grep -E -m 3 'Vulkan validation|Validation (Error|Warning)|VUID-' "$out/$pair.vulkan.log"; then
    check problem "$pair: validation layer messages in the vulkan run"
  fi
  # Identical, metric by metric, frame by frame, pooled scores too.
  check identical "$out/$pair.cpu.json" "$out/$pair.vulkan.json" "$pair VMAF_BACKEND=vulkan"

  nodriver=(VK_ICD_FILENAMES=/nonexistent/icd.json VK_DRIVER_FILES=/nonexistent/icd.json)
  run nodevice "$pair" VMAF_BACKEND=vulkan "${nodriver[@]}"
  [ "$rc" -ne 0 ] || check problem "$pair: VMAF_BACKEND=vulkan without a device did not fail"
  grep -q "VMAF_BACKEND=vulkan: no usable Vulkan device" "$out/$pair.nodevice.log" ||
    check problem "$pair: the run without a device does not say why it failed"

  run auto "$pair" VMAF_BACKEND=auto "${nodriver[@]}"
  [ "$rc" -eq 0 ] || check problem "$pair: VMAF_BACKEND=auto without a device failed"
  [ "$(grep -c "WARNING: VMAF_BACKEND=auto: no usable Vulkan device" "$out/$pair.auto.log")" = 1 ] ||
    check problem "$pair: VMAF_BACKEND=auto without a device: not one notice"
  check identical "$out/$pair.cpu.json" "$out/$pair.auto.json" "$pair VMAF_BACKEND=auto, no device"
done

[ "$failed" -eq 0 ] || die "$failed check(s) failed"
say "the stock libvmaf filter with VMAF_BACKEND: every check passed"
