#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# vmaf_vaapi_probe's answers where they are known in advance: a render node that
# does not exist, and a machine without any (CI). On a machine with render nodes
# the probe's own end-to-end check (identical surfaces must score the PSNR cap)
# decides, and a node that cannot import makes it exit 1, which fails here.
#   vaapi_probe.sh PATH_TO_vmaf_vaapi_probe
set -u
probe=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$probe" --device /nonexistent/renderD999 2>&1); rc=$?
[ "$rc" = 2 ] || fail "a missing node: exit $rc, want 2 ($out)"
grep -q "no such render node" <<<"$out" || fail "a missing node: no clear message ($out)"

out=$("$probe" --bogus 2>&1); rc=$?
[ "$rc" = 2 ] || fail "an unknown option: exit $rc, want 2"
grep -q "usage:" <<<"$out" || fail "an unknown option: no usage line"

if compgen -G '/dev/dri/renderD*' >/dev/null; then
  out=$(timeout 60 "$probe" 2>&1); rc=$?
  echo "$out"
  [ "$rc" = 0 ] || fail "this machine has render nodes but none imports end to end (exit $rc)"
else
  out=$("$probe" 2>&1); rc=$?
  [ "$rc" = 2 ] || fail "no render node: exit $rc, want 2"
  grep -q "no DRM render node" <<<"$out" || fail "no render node: no clear message ($out)"
  echo "no render node here: the clean error was checked"
fi
echo "vaapi_probe: ok"
