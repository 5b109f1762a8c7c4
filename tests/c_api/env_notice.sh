#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# What the environment causes is said once per process whatever log level the
# caller sets (docs/environment.md): a client at log level NONE (GStreamer's
# vmaf element's default) calls vmaf_init three times under values that fail
# or are ignored, and stderr holds the line exactly once. Then aomenc's case:
# a garbage gpumask (0x20) under VMAF_BACKEND=vulkan scores on Vulkan, with the
# CPU's scores (ADR 0072).
#   env_notice.sh NOTICE_CLIENT SCORE_CLIENT DATA_DIR
set -euo pipefail
notice=$1 client=$2 data=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
export XDG_CACHE_HOME=$tmp/cache
unset VMAF_BACKEND VMAF_VULKAN_DEVICE VMAF_VULKAN_PIPELINE_CACHE

# once NAME WANT_RC TEXT [VAR=VALUE ...]: three vmaf_init calls at log level NONE;
# each returns WANT_RC and stderr has TEXT on exactly one line.
once() {
    local name=$1 want=$2 text=$3
    shift 3
    env "$@" "$notice" 3 >"$tmp/$name.out" 2>"$tmp/$name.err" || fail "$name: the client failed"
    local rcs
    rcs=$(sort -u "$tmp/$name.out")
    if [ "$want" = neg ]; then
        case $rcs in "vmaf_init: -"[0-9]*) want=${rcs#vmaf_init: } ;; esac
    fi
    [ "$rcs" = "vmaf_init: $want" ] || fail "$name: vmaf_init returned $(tr '\n' ' ' <"$tmp/$name.out"), expected $want"
    local n
    n=$(grep -cF -- "$text" "$tmp/$name.err" || true)
    [ "$n" = 1 ] || { fail "$name: '$text' on $n lines of stderr, expected 1"; sed 's/^/  /' "$tmp/$name.err" >&2; }
}

once invalid -22 "VMAF_BACKEND=gpu is not a backend; the values are cpu, vulkan and auto" VMAF_BACKEND=gpu
once no_driver neg "vmaf_init: VMAF_BACKEND=vulkan: no usable Vulkan device" VMAF_BACKEND=vulkan \
    VK_ICD_FILENAMES=/nonexistent/icd.json VK_DRIVER_FILES=/nonexistent/icd.json
once auto_no_driver 0 "VMAF_BACKEND=auto: no usable Vulkan device" VMAF_BACKEND=auto \
    VK_ICD_FILENAMES=/nonexistent/icd.json VK_DRIVER_FILES=/nonexistent/icd.json
once device_range -19 "Vulkan: device 4294967296 asked for (VMAF_VULKAN_DEVICE); there are" VMAF_BACKEND=vulkan \
    VMAF_VULKAN_DEVICE=4294967296
once cache_switch 0 "VMAF_VULKAN_PIPELINE_CACHE=garbage is not a switch" VMAF_BACKEND=vulkan \
    VMAF_VULKAN_PIPELINE_CACHE=garbage
# Unset or cpu: silence.
env "$notice" 3 >/dev/null 2>"$tmp/quiet.err"
[ ! -s "$tmp/quiet.err" ] || fail "unset VMAF_BACKEND at log level NONE printed: $(cat "$tmp/quiet.err")"

# aomenc --tune=vmaf: gpumask left uninitialised. The environment wins.
pair=astronaut_176x144_crf35
ref=$data/${pair}_ref.y4m dis=$data/${pair}_dis.y4m
VMAF_BACKEND=cpu "$client" "$ref" "$dis" 1 0 >"$tmp/cpu.out" 2>"$tmp/cpu.err" || fail "cpu run failed"
VMAF_BACKEND=vulkan "$client" "$ref" "$dis" 1 0x20 >"$tmp/mask.out" 2>"$tmp/mask.err" || fail "gpumask run failed"
grep -qF "VMAF_BACKEND=vulkan: this context scores on Vulkan" "$tmp/mask.err" || fail "gpumask 0x20: not on Vulkan"
grep -qF "VmafConfiguration.gpumask 0x20 is not honoured" "$tmp/mask.err" || fail "gpumask 0x20: no notice"
cmp -s "$tmp/cpu.out" "$tmp/mask.out" || fail "gpumask 0x20: scores differ from the CPU's"
[ -s "$tmp/cpu.out" ] || fail "no scores"
# At log level NONE the override is still said, once.
VMAF_BACKEND=vulkan "$client" "$ref" "$dis" 2 0x20 0 >"$tmp/mask0.out" 2>"$tmp/mask0.err" || fail "gpumask run at NONE failed"
[ "$(grep -cF "gpumask 0x20 is not honoured" "$tmp/mask0.err" || true)" = 1 ] || fail "gpumask at NONE: not said once"
cmp -s "$tmp/cpu.out" "$tmp/mask0.out" || fail "gpumask 0x20, two contexts: scores differ from the CPU's"

# VMAF_VULKAN_STATS=1 at log level NONE: one line per context when it closes,
# counting the frames it was given (the pair has 10); the same scores. A value
# that is not a switch is said once and taken as off.
frames=$(grep -c "^[0-9]* vmaf " "$tmp/cpu.out" || true)
VMAF_BACKEND=vulkan VMAF_VULKAN_STATS=1 "$client" "$ref" "$dis" 2 0 0 >"$tmp/stats.out" 2>"$tmp/stats.err" ||
    fail "stats run failed"
[ "$(grep -c "Vulkan stats: $frames frames in .* ms from call to call, .* in vmaf_read_pictures" "$tmp/stats.err" || true)" = 2 ] ||
    { fail "VMAF_VULKAN_STATS=1, two contexts of $frames frames: not one stats line each"; sed 's/^/  /' "$tmp/stats.err" >&2; }
cmp -s "$tmp/cpu.out" "$tmp/stats.out" || fail "VMAF_VULKAN_STATS=1: scores differ from the CPU's"
VMAF_BACKEND=vulkan "$client" "$ref" "$dis" 1 0 0 >/dev/null 2>"$tmp/nostats.err" || fail "run without stats failed"
! grep -q "Vulkan stats" "$tmp/nostats.err" || fail "stats printed without VMAF_VULKAN_STATS"
VMAF_BACKEND=vulkan VMAF_VULKAN_STATS=maybe "$client" "$ref" "$dis" 2 0 0 >/dev/null 2>"$tmp/badstats.err" ||
    fail "VMAF_VULKAN_STATS=maybe run failed"
[ "$(grep -c "VMAF_VULKAN_STATS=maybe" "$tmp/badstats.err" || true)" = 1 ] || fail "VMAF_VULKAN_STATS=maybe: not said once"
! grep -q "Vulkan stats:" "$tmp/badstats.err" || fail "VMAF_VULKAN_STATS=maybe: stats printed"

if [ "$fails" != 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "env_notice: all cases passed"
