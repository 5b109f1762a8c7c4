#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The Windows ffmpeg.exe (scripts/ffmpeg/build_windows.sh) under Wine, on every
# golden pair of tests/data, three ways:
#   cpu      FFmpeg's stock libvmaf filter, unchanged, on libvmaf-3.dll
#   env      the same filter with VMAF_BACKEND=vulkan (Wine's Vulkan), on an
#            8-bit and a 10-bit pair (as scripts/ffmpeg/test_env_backend.sh)
#   vulkan   the series' libvmaf_vulkan filter on hwupload'ed frames
# Every per-frame metric and pooled score must be identical to the Linux vmaf
# tool's (build/) on the same pair: cpu against --backend cpu, env and vulkan
# against --backend vulkan; and all of them must agree with Netflix libvmaf's
# JSON (tests/data/NAME.libvmaf.json) within 1e-4, as scripts/ffmpeg/test.sh
# asks of the Linux FFmpeg. Then one pair again through paths with spaces and
# non-ASCII characters (inputs, the filter's log_path, the model directory).
#   bash scripts/ffmpeg/test_windows.sh FFMPEG_EXE
# Wine's Vulkan goes through its X11 driver: without a display the test runs
# under Xvfb. Env: NATIVE_BUILD_DIR (default build), BUILD_DIR (the Windows
# build whose Wine prefix is used, default build-windows), ENV_PAIRS (the pairs
# of the env runs; all: every one), TOLERANCE (1e-4),
# FFMPEG_TEST_TIMEOUT (seconds per run, default 300), KEEP_OUTPUT=1.
set -euo pipefail
export ffmpeg_script_name=ffmpeg-test-windows
# shellcheck source=scripts/ffmpeg/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$ffmpeg_root"
root=$ffmpeg_root

[ $# -eq 1 ] || { sed -n '15,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
exe=$1
case $exe in /*) ;; *) exe=$root/$exe ;; esac
[ -f "$exe" ] || die "$exe is missing (bash scripts/ffmpeg/build_windows.sh makes it)"
native_dir=${NATIVE_BUILD_DIR:-build}
win_dir=${BUILD_DIR:-build-windows}
case $native_dir in /*) ;; *) native_dir=$root/$native_dir ;; esac
case $win_dir in /*) ;; *) win_dir=$root/$win_dir ;; esac
cli=$native_dir/core/tools/vmaf
[ -x "$cli" ] || die "$cli is missing (bash scripts/setup.sh)"
data=tests/data
tolerance=${TOLERANCE:-1e-4}
run_limit=${FFMPEG_TEST_TIMEOUT:-300}
python=/usr/bin/python3
[ -x "$python" ] || python=python3

wine=$(command -v wine64 || command -v wine || true)
[ -z "$wine" ] && [ -x /usr/lib/wine/wine64 ] && wine=/usr/lib/wine/wine64
[ -n "$wine" ] || die "Wine is missing (Debian's wine64; scripts/windows_test.sh installs it)"
if [ -z "${DISPLAY:-}" ]; then
  command -v xvfb-run >/dev/null || die "xvfb-run is missing (Debian's xvfb and xauth)"
  exec xvfb-run -a bash "$root/scripts/ffmpeg/test_windows.sh" "$exe"
fi
export WINEPREFIX=$win_dir/wine
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
# A Wine server started without a display has no Vulkan: this prefix's is ended
# first (as scripts/windows_test.sh does).
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
"$wineserver" -k 2>/dev/null || true
model_dir=$(bash scripts/get-models.sh 2>/dev/null)
unset VMAF_BACKEND VMAF_VULKAN_DEVICE VK_LOADER_LAYERS_ENABLE VK_INSTANCE_LAYERS

out=$(mktemp -d "${TMPDIR:-/tmp}/ffmpeg-test-windows.XXXXXX")
finish() {
  local rc=$?
  if [ "$rc" -eq 0 ] && [ -z "${KEEP_OUTPUT:-}" ]; then rm -rf "$out"; else say "logs and scores kept in $out"; fi
}
trap finish EXIT

# Windows paths of files here (Wine maps the root directory to drive Z:).
winpath() { printf 'Z:%s' "$(printf '%s' "$1" | tr / '\\')"; }
# The same as a filter option value inside -lavfi: forward slashes, and the
# drive's ':' escaped for the option parser and again for the filtergraph.
filterpath() { printf 'Z\\\\:%s' "$1"; }

filters=$(timeout 120 "$wine" "$exe" -hide_banner -filters 2>&1) || die "ffmpeg.exe does not run under Wine: $(head -n 3 <<<"$filters")"
for f in libvmaf libvmaf_vulkan hwupload; do
  grep -qw "$f" <<<"$filters" || die "ffmpeg.exe has no $f filter"
done

common=(-hide_banner -nostdin -nostats -loglevel info)
# ffmpeg_win TAG PAIR REF DIS GRAPH [VAR=VALUE...]: ffmpeg.exe under Wine, log in $out/PAIR.TAG.log.
ffmpeg_win() {
  local tag=$1 pair=$2 ref=$3 dis=$4 graph=$5 rc=0
  shift 5
  local hw=()
  [ "$tag" != vulkan ] || hw=(-init_hw_device vulkan=vk:0 -filter_hw_device vk)
  env VMAF_MODEL_DIR="$(winpath "$model_dir")" "$@" timeout --kill-after=10 "$run_limit" \
    "$wine" "$exe" "${common[@]}" "${hw[@]}" -i "$(winpath "$dis")" -i "$(winpath "$ref")" \
    -lavfi "$graph" -f null - >"$out/$pair.$tag.log" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || say "$pair: ffmpeg.exe ($tag) failed (exit $rc): $(grep -m 3 -i -E 'error|fail|invalid' "$out/$pair.$tag.log" | tr '\n' ' ')"
  return "$rc"
}
# graph_cpu JSON [MODEL_OPTION], graph_vulkan JSON FORMAT [MODEL_OPTION]
graph_cpu() { echo "[0:v][1:v]libvmaf=${2:+$2:}feature=name=psnr:log_fmt=json:log_path=$(filterpath "$1")"; }
graph_vulkan() {
  echo "[0:v]format=$2,hwupload[dis];[1:v]format=$2,hwupload[ref];[dis][ref]libvmaf_vulkan=${3:+$3:}feature=name=psnr:log_fmt=json:log_path=$(filterpath "$1")"
}

# identical LINUX.json WINDOWS.json LABEL: every per-frame metric and pooled score the same.
identical() {
  "$python" - "$@" <<'EOF'
import json, sys
a, b = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
fa, fb = a["frames"], b["frames"]
bad = [] if len(fa) == len(fb) else [f"{len(fa)} vs {len(fb)} frames"]
bad += [f"frame {x['frameNum']} {k}: {x['metrics'][k]} (Linux) vs {y['metrics'].get(k)} (Windows)"
        for x, y in zip(fa, fb) for k in x["metrics"] if x["metrics"][k] != y["metrics"].get(k)]
bad += [f"frame {y['frameNum']} {k}: only on Windows" for x, y in zip(fa, fb) for k in y["metrics"] if k not in x["metrics"]]
pa, pb = a.get("pooled_metrics", {}), b.get("pooled_metrics", {})
bad += [f"pooled {k}" for k in set(pa) | set(pb) if pa.get(k) != pb.get(k)]
if bad:
    sys.exit(f"ffmpeg-test-windows: {sys.argv[3]}: {len(bad)} differences from Linux, first: " + "; ".join(bad[:3]))
print(f"ffmpeg-test-windows: {sys.argv[3]}: identical to Linux ({len(fa)} frames, {len(fa[0]['metrics'])} metrics,"
      f" VMAF {pb['vmaf']['mean']:.6f})")
EOF
}

# The pairs the stock filter also runs with VMAF_BACKEND=vulkan (ENV_PAIRS=all: every one).
env_pairs=${ENV_PAIRS:-astronaut_176x144_crf35 rocket_320x240_10bit_crf30}
n=0 failed=0
fail() { failed=$((failed + 1)); }
for golden in "$data"/*.libvmaf.json; do
  case $golden in *.libvmaf.*.json) continue ;; esac
  pair=$(basename "$golden" .libvmaf.json)
  ref=$root/$data/${pair}_ref.y4m dis=$root/$data/${pair}_dis.y4m
  fmt=$(y4m_format "$ref")
  n=$((n + 1))
  for b in cpu vulkan; do
    timeout --kill-after=10 "$run_limit" "$cli" -q -r "$ref" -d "$dis" --backend "$b" --feature psnr --json \
      -o "$out/$pair.linux-$b.json" >"$out/$pair.linux-$b.log" 2>&1 ||
      die "the Linux vmaf tool failed on $pair (--backend $b): $(tail -n 2 "$out/$pair.linux-$b.log" | tr '\n' ' ')"
  done
  ok=1
  ffmpeg_win cpu "$pair" "$ref" "$dis" "$(graph_cpu "$out/$pair.cpu.json")" VMAF_BACKEND=cpu || ok=0
  runs=("cpu=$out/$pair.cpu.json")
  if [ "$env_pairs" = all ] || [[ " $env_pairs " == *" $pair "* ]]; then
    ffmpeg_win env "$pair" "$ref" "$dis" "$(graph_cpu "$out/$pair.env.json")" VMAF_BACKEND=vulkan || ok=0
    runs+=("env=$out/$pair.env.json")
  fi
  ffmpeg_win vulkan "$pair" "$ref" "$dis" "$(graph_vulkan "$out/$pair.vulkan.json" "$fmt")" || ok=0
  runs+=("vulkan=$out/$pair.vulkan.json")
  if [ "$ok" = 0 ]; then fail; continue; fi
  identical "$out/$pair.linux-cpu.json" "$out/$pair.cpu.json" "$pair libvmaf (CPU)" || fail
  if [ -f "$out/$pair.env.json" ]; then
    grep -q 'VMAF_BACKEND=vulkan: this context scores on Vulkan' "$out/$pair.env.log" ||
      { say "$pair: the VMAF_BACKEND=vulkan run's log does not say it scored on Vulkan"; fail; }
    identical "$out/$pair.linux-vulkan.json" "$out/$pair.env.json" "$pair libvmaf VMAF_BACKEND=vulkan" || fail
  fi
  identical "$out/$pair.linux-vulkan.json" "$out/$pair.vulkan.json" "$pair libvmaf_vulkan ($fmt, hwupload)" || fail
  "$python" scripts/ffmpeg/compare.py --label "$pair (Windows)" --golden "$golden" --tolerance "$tolerance" \
    "${runs[@]}" || fail
done
[ "$n" -gt 0 ] || die "no golden pairs in $data"

# Paths with spaces and characters outside ASCII (and outside any one ANSI code
# page): the inputs, the filter's log_path, and the model directory
# (VMAF_MODEL_DIR) with vmaf_v0.6.1 under a name that is not built in, so that
# the run fails unless the library found it there.
pair=coffee_320x240_crf28
odd="$out/dir with spaces ünïcødé 日本"
mkdir -p "$odd/models ø"
cp "$data/${pair}_ref.y4m" "$odd/réf 参照.y4m"
cp "$data/${pair}_dis.y4m" "$odd/dïs 歪み.y4m"
cp "$model_dir/vmaf_v0.6.1.json" "$odd/models ø/vmaf_copie_ø.json"
model='model=version=vmaf_copie_ø\\:name=vmaf'
for tag in cpu vulkan; do
  if [ "$tag" = cpu ]; then graph=$(graph_cpu "$odd/sortie é 出力.$tag.json" "$model"); linux=cpu
  else graph=$(graph_vulkan "$odd/sortie é 出力.$tag.json" yuv420p "$model"); linux=vulkan; fi
  if model_dir="$odd/models ø" ffmpeg_win "$tag" odd "$odd/réf 参照.y4m" "$odd/dïs 歪み.y4m" "$graph"; then
    identical "$out/$pair.linux-$linux.json" "$odd/sortie é 出力.$tag.json" \
      "paths with spaces and non-ASCII characters ($tag)" || fail
  else
    fail
  fi
done

say "$n pairs and the non-ASCII paths, $failed failed"
[ "$failed" -eq 0 ] || die "$failed checks failed (messages above)"
echo "ffmpeg.exe under Wine: $n pairs identical to Linux on the CPU, with VMAF_BACKEND=vulkan and through libvmaf_vulkan"
