#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# xpsnr beyond the golden pairs: FFmpeg's own xpsnr filter (built in by
# scripts/ffmpeg/build.sh) is the truth for pairs this script makes with
# FFmpeg's testsrc2, the distorted picture scaled down and up again: sizes,
# bit depths, chroma layouts and frame rates the golden set lacks (4:2:2 and
# 4:4:4 at 10 bits, an odd size, 50 fps, a picture above 2048x1152). The vmaf
# tool scores each pair with --feature xpsnr on the CPU and on Vulkan; every
# frame's three values and the clip's averages must be the filter's at the 4
# decimals it prints (docs/features/xpsnr.md).
#
#   bash scripts/ffmpeg/test_xpsnr.sh FFMPEG VMAF OUT
#
# The tool writes 6 decimals: a value whose 5th and 6th are "50" may round to
# either neighbour at 4, and either is taken (said per case).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 FFMPEG VMAF OUT" >&2; exit 2; }
ffmpeg=$1 vmaf=$2 out=$3
python=/usr/bin/python3
[ -x "$python" ] || python=python3
mkdir -p "$out"
failed=0

# case NAME SIZE PIX_FMT RATE FRAMES
check() {
  local name=$1 size=$2 fmt=$3 rate=$4 frames=$5
  local w=${size%x*} h=${size#*x} ref=$out/xpsnr_$name.ref.y4m dis=$out/xpsnr_$name.dis.y4m
  local src="testsrc2=size=$size:rate=$rate"
  "$ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "$src,format=$fmt" -frames:v "$frames" \
    -f yuv4mpegpipe -strict -1 -y "$ref"
  "$ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi \
    -i "$src,scale=$((w / 2 / 2 * 2)):$((h / 2 / 2 * 2)),scale=$w:$h,format=$fmt" -frames:v "$frames" \
    -f yuv4mpegpipe -strict -1 -y "$dis"
  "$ffmpeg" -hide_banner -nostdin -loglevel error -i "$dis" -i "$ref" \
    -lavfi "[0:v][1:v]xpsnr=stats_file=$out/xpsnr_$name.ffmpeg.txt" -f null - ||
    { echo "FAIL: xpsnr $name: FFmpeg's xpsnr filter failed"; failed=$((failed + 1)); return; }
  local opt=xpsnr
  [ "$rate" -lt 32 ] || opt=xpsnr=fps=$rate
  for backend in cpu vulkan; do
    "$vmaf" -q -r "$ref" -d "$dis" --backend "$backend" --no_prediction --feature "$opt" --json -o "$out/xpsnr_$name.$backend.json" \
      >"$out/xpsnr_$name.$backend.log" 2>&1 ||
      { echo "FAIL: xpsnr $name: vmaf --backend $backend failed: $(head -n 3 "$out/xpsnr_$name.$backend.log")"
        failed=$((failed + 1)); continue; }
    if grep -E -m 5 'Validation (Error|Warning)|VUID-' "$out/xpsnr_$name.$backend.log"; then
      echo "FAIL: xpsnr $name: validation layer messages (log: $out/xpsnr_$name.$backend.log)"
      failed=$((failed + 1))
    fi
    "$python" - "$out/xpsnr_$name.ffmpeg.txt" "$out/xpsnr_$name.$backend.json" "xpsnr $name ($fmt, $rate fps) $backend" <<'PY' ||
import json, re, sys
truth_path, ours_path, label = sys.argv[1:4]
frames, average = [], None
for line in open(truth_path):
    m = re.match(r"n:\s*(\d+)\s+XPSNR y:\s*(\S+)\s+XPSNR u:\s*(\S+)\s+XPSNR v:\s*(\S+)", line)
    if m:
        frames.append(m.group(2, 3, 4))
    m = re.match(r"XPSNR average, (\d+) frames\s+y:\s*(\S+)\s+u:\s*(\S+)\s+v:\s*(\S+)", line)
    if m:
        average = m.group(2, 3, 4)
ours = json.load(open(ours_path))
names = ("xpsnr_y", "xpsnr_cb", "xpsnr_cr")
ties = 0

def same(truth, value):
    global ties
    six = "%.6f" % value
    if six.endswith("50"):  # exactly between two 4-decimal values at 6 decimals
        ties += 1
        step = 1e-4
        return any("%.4f" % (value + d) == truth for d in (-step / 2, step / 2))
    return "%.4f" % value == truth

bad = 0
if len(ours["frames"]) != len(frames) or not frames or average is None:
    print(f"FAIL: {label}: {len(ours['frames'])} frames scored, the filter printed {len(frames)}"
          f"{'' if average else ' and no average'}")
    sys.exit(1)
# With options the per-frame names carry them (xpsnr_y_fps_50).
keys = [next((k for k in ours["frames"][0]["metrics"] if k == n or k.startswith(n + "_")), n) for n in names]
for i, (f, want) in enumerate(zip(ours["frames"], frames)):
    for name, t in zip(keys, want):
        if name not in f["metrics"] or not same(t, f["metrics"][name]):
            bad += 1
            print(f"FAIL: {label}: frame {i} {name} {f['metrics'].get(name)!r}, the filter printed {t}")
# The clip's scores carry the same suffix (axpsnr_y_fps_50).
for name, t in zip(keys, average):
    if not same(t, ours["aggregate_metrics"].get("a" + name, float("nan"))):
        bad += 1
        print(f"FAIL: {label}: average {name} {ours['aggregate_metrics'].get('a' + name)!r}, the filter printed {t}")
print(f"{label}: {len(frames)} frames, {'same as' if not bad else 'NOT the same as'} FFmpeg's xpsnr filter"
      f"{f' ({ties} values at a tie of the 6 printed decimals)' if ties else ''}")
sys.exit(1 if bad else 0)
PY
      failed=$((failed + 1))
  done
}

check 420_8bit 320x240 yuv420p 25 6
check 422_10bit 320x240 yuv422p10le 25 6
check 444_10bit 256x144 yuv444p10le 25 6
check 444_8bit_odd 250x142 yuv444p 25 6
check 420_50fps 320x240 yuv420p 50 6
check 420_above_2048x1152 2304x1296 yuv420p 25 3
[ "$failed" -eq 0 ] || { echo "xpsnr: $failed check(s) failed" >&2; exit 1; }
echo "xpsnr: every pair the same as FFmpeg's xpsnr filter, on the CPU and on Vulkan"
