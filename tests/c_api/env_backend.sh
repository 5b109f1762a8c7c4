#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# VMAF_BACKEND for a client that never chooses a backend (env_backend_client.c,
# public libvmaf.h only), with the validation layer on for the Vulkan runs:
#   env_backend.sh CLIENT DATA_DIR
# - cpu: the golden libvmaf scores, to the bit; vulkan: the same scores, and the
#   log says the contexts scored on Vulkan; with no Vulkan driver, vulkan fails
#   vmaf_init and auto scores on the CPU after exactly one notice;
# - unknown values, a device index out of range: vmaf_init fails naming them;
# - VMAF_BACKEND=vulkan wins over a nonzero gpumask (ADR 0072);
# - two contexts at once: one device made, both on it;
# - the pipeline cache: written by a cold run, loaded by a warm one; corrupt,
#   unwritable or turned off, it is ignored (one notice) and scores are unchanged.
set -euo pipefail
client=$1 data=$2
pair=astronaut_176x144_crf35
ref=$data/${pair}_ref.y4m dis=$data/${pair}_dis.y4m golden=$data/$pair.libvmaf.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

validation=1
[ "${VMAF_TEST_VULKAN_NO_VALIDATION:-}" = 1 ] && validation=0
export XDG_CACHE_HOME=$tmp/cache
unset VMAF_BACKEND VMAF_VULKAN_DEVICE VMAF_VULKAN_PIPELINE_CACHE

# run NAME [VAR=VALUE ...] -- [client args...]: stdout to $tmp/NAME.out, stderr
# to $tmp/NAME.err, exit status to $tmp/NAME.rc.
run() {
    local name=$1
    shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    set +e
    env VMAF_VULKAN_VALIDATION=$validation "${envs[@]}" "$client" "$ref" "$dis" "$@" \
        >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
    set -e
}
rc() { cat "$tmp/$1.rc"; }
has() { grep -qF -- "$2" "$tmp/$1.err"; }
count() { grep -cF -- "$2" "$tmp/$1.err" || true; }
same() { cmp -s "$tmp/$1.out" "$tmp/$2.out"; }
expect_rc() { [ "$(rc "$1")" = "$2" ] || { fail "$1: exit status $(rc "$1"), expected $2"; sed 's/^/  /' "$tmp/$1.err" >&2; }; }
clean_validation() { ! has "$1" "Vulkan validation" || fail "$1: validation messages"; }
on_vulkan() {
    [ "$(count "$1" "this context scores on Vulkan")" = "${2:-1}" ] || fail "$1: not scored on Vulkan"
    has "$1" "Vulkan: features on the GPU: adm, motion, vif, psnr" || fail "$1: features not on the GPU"
}
on_cpu() { ! has "$1" "Vulkan: features on the GPU" || fail "$1: the context used Vulkan"; }

# The CPU: the golden scores of Netflix's libvmaf, to the bit.
run cpu VMAF_BACKEND=cpu --
expect_rc cpu 0
on_cpu cpu
python3 - "$tmp/cpu.out" "$golden" <<'EOF' || fail "cpu: scores differ from the golden libvmaf output"
import json, sys
golden = json.load(open(sys.argv[2]))["frames"]
rows = [l.split() for l in open(sys.argv[1])]
assert len(rows) == len(golden) == 10, (len(rows), len(golden))
for row, g in zip(rows, golden):
    got = dict(zip(row[1::2], map(float, row[2::2])))
    for name in ("vmaf", "psnr_y", "integer_vif_scale0", "integer_adm2", "integer_motion2"):
        assert got[name] == g["metrics"][name], (row[0], name, got[name], g["metrics"][name])
EOF
run unset --
expect_rc unset 0
on_cpu unset
same unset cpu || fail "unset: scores differ from cpu"

# Vulkan: the same scores, on the GPU.
run vulkan VMAF_BACKEND=vulkan --
expect_rc vulkan 0
on_vulkan vulkan
clean_validation vulkan
same vulkan cpu || fail "vulkan: scores differ from the CPU's"
run auto VMAF_BACKEND=auto --
expect_rc auto 0
on_vulkan auto
same auto cpu || fail "auto: scores differ from the CPU's"

# No driver: vulkan is an error, never a CPU run; auto takes the CPU with one notice.
nodriver=(VK_ICD_FILENAMES=/nonexistent/icd.json VK_DRIVER_FILES=/nonexistent/icd.json)
run nodrv_vulkan VMAF_BACKEND=vulkan "${nodriver[@]}" --
expect_rc nodrv_vulkan 10
has nodrv_vulkan "vmaf_init: VMAF_BACKEND=vulkan: no usable Vulkan device" || fail "nodrv_vulkan: no reason given"
run nodrv_auto VMAF_BACKEND=auto "${nodriver[@]}" --
expect_rc nodrv_auto 0
on_cpu nodrv_auto
same nodrv_auto cpu || fail "nodrv_auto: scores differ from the CPU's"
[ "$(count nodrv_auto "VMAF_BACKEND=auto: no usable Vulkan device")" = 1 ] || fail "nodrv_auto: not one notice"
[ "$(count nodrv_auto "libvmaf ERROR")" = 0 ] || fail "nodrv_auto: error lines beside the notice"

# Bad input.
run bogus VMAF_BACKEND=gpu --
expect_rc bogus 10
has bogus "VMAF_BACKEND=gpu is not a backend; the values are cpu, vulkan and auto" || fail "bogus: message"
run bad_index VMAF_BACKEND=vulkan VMAF_VULKAN_DEVICE=97 --
expect_rc bad_index 10
has bad_index "device 97 asked for (VMAF_VULKAN_DEVICE); there are " || fail "bad_index: message"

# VMAF_BACKEND=vulkan wins over a nonzero gpumask (ADR 0072: aomenc passes garbage).
run gpumask VMAF_BACKEND=vulkan -- 1 1
expect_rc gpumask 0
on_vulkan gpumask
clean_validation gpumask
same gpumask cpu || fail "gpumask: scores differ from the CPU's"

# Two contexts at once share one device.
run two VMAF_BACKEND=vulkan -- 2
expect_rc two 0
on_vulkan two 2
[ "$(count two "Vulkan: using ")" = 1 ] || fail "two: not exactly one device made"
same two cpu || fail "two: scores differ from the CPU's"

# The pipeline cache (log level 4: debug lines say what was loaded and saved).
rm -rf "$XDG_CACHE_HOME"
run cold VMAF_BACKEND=vulkan -- 1 0 4
expect_rc cold 0
has cold "pipeline cache: saved " || fail "cold: the cache was not saved"
files=("$XDG_CACHE_HOME"/libvmaf-vk/pipelines-*.bin)
[ -f "${files[0]}" ] || fail "cold: no cache file"
run warm VMAF_BACKEND=vulkan -- 1 0 4
expect_rc warm 0
has warm "pipeline cache: loaded " || fail "warm: the cache was not loaded"
same warm cpu || fail "warm: scores differ from the CPU's"

head -c 100 /dev/urandom >"${files[0]}"
run corrupt VMAF_BACKEND=vulkan --
expect_rc corrupt 0
[ "$(count corrupt "Vulkan: pipeline cache ")" = 1 ] && has corrupt "ignored" || fail "corrupt: not one notice"
same corrupt cpu || fail "corrupt: scores differ from the CPU's"
# ... replaced by a good one: a valid header with a bad checksum is ignored too.
run rewarm VMAF_BACKEND=vulkan -- 1 0 4
has rewarm "pipeline cache: loaded " || fail "rewarm: the rewritten cache was not loaded"
size=$(stat -c %s "${files[0]}")
# (dd without the sanitizer runtimes the test may preload: not our program)
printf '\xff' | env -u LD_PRELOAD dd of="${files[0]}" bs=1 seek=$((size - 1)) conv=notrunc status=none
run checksum VMAF_BACKEND=vulkan --
expect_rc checksum 0
has checksum "checksum mismatch" || fail "checksum: a damaged cache was not noticed"

: >"$tmp/not-a-dir"
run unwritable VMAF_BACKEND=vulkan XDG_CACHE_HOME="$tmp/not-a-dir/cache" --
expect_rc unwritable 0
[ "$(count unwritable "Vulkan: pipeline cache ")" = 1 ] && has unwritable "not saved" || fail "unwritable: not one notice"
same unwritable cpu || fail "unwritable: scores differ from the CPU's"

rm -rf "$XDG_CACHE_HOME"
run off VMAF_BACKEND=vulkan VMAF_VULKAN_PIPELINE_CACHE=0 -- 1 0 4
expect_rc off 0
[ ! -e "$XDG_CACHE_HOME/libvmaf-vk" ] || fail "off: a cache file was written"
same off cpu || fail "off: scores differ from the CPU's"

if [ "$fails" -gt 0 ]; then
    echo "$fails check(s) failed" >&2
    exit 1
fi
echo "env_backend: every check passed"
