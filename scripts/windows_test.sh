#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The Windows build (scripts/windows.sh) under Wine against the native build:
# every golden pair of tests/data scored by build-windows/core/tools/vmaf.exe
# and by build/core/tools/vmaf with the same options must give the same JSON,
# byte for byte but for "fps", the run's speed (should they differ, the
# differing numbers are named). Then one pair again through paths
# with spaces and non-ASCII characters (inputs, output, model directory; for
# the Vulkan backend also the pipeline cache under %LOCALAPPDATA%).
#   bash scripts/windows_test.sh              # the CPU backend
#   BACKEND=vulkan bash scripts/windows_test.sh   # --backend vulkan through Wine's Vulkan
#   FFMPEG=1 bash scripts/windows_test.sh     # ... then ffmpeg.exe too (below)
# With FFMPEG=1, FFmpeg 9.0.2 with ffmpeg-patches/9.0/ is cross-built against
# the DLL (scripts/ffmpeg/build_windows.sh, cached by key) and its libvmaf and
# libvmaf_vulkan filters are run under Wine on the golden pairs
# (scripts/ffmpeg/test_windows.sh), whatever BACKEND says.
# Wine's Vulkan (winevulkan onto the machine's driver, lavapipe where there is
# no GPU) comes through its X11 driver: without a display the test runs under
# Xvfb (Debian's xvfb, installed when missing).
# NATIVE_BUILD_DIR (default build) and BUILD_DIR (default build-windows) pick
# the builds; the native one is built (target vmaf) when it is configured.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

native_dir=${NATIVE_BUILD_DIR:-build}
win_dir=${BUILD_DIR:-build-windows}
backend=${BACKEND:-cpu}
exe="$root/$win_dir/core/tools/vmaf.exe"
native="$root/$native_dir/core/tools/vmaf"

wine=$(command -v wine64 || command -v wine || true)
[ -z "$wine" ] && [ -x /usr/lib/wine/wine64 ] && wine=/usr/lib/wine/wine64
if [ -z "$wine" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "windows_test: Wine is missing (run as root or install Debian's wine64)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine64 >/dev/null
  wine=/usr/lib/wine/wine64
fi
if [ "$backend" = vulkan ] && [ -z "${DISPLAY:-}" ]; then
  if ! command -v xvfb-run >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "windows_test: xvfb-run is missing (run as root or install Debian's xvfb and xauth)" >&2
      exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends xvfb xauth >/dev/null
  fi
  exec xvfb-run -a bash "$0" "$@"
fi
[ -f "$exe" ] || { echo "windows_test: $exe is missing: run bash scripts/windows.sh" >&2; exit 1; }
if [ -f "$native_dir/build.ninja" ]; then
  nice ninja -C "$native_dir" -j"${JOBS:-2}" core/tools/vmaf core/tools/vmaf_startup >/dev/null
fi
[ -x "$native" ] || { echo "windows_test: $native is missing: run bash scripts/setup.sh" >&2; exit 1; }

# A Wine prefix of the build's own, made once; no Wine messages but errors.
export WINEPREFIX="$root/$win_dir/wine"
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
# A Wine server started without a display (an earlier CPU run) has no Vulkan:
# this prefix's is ended first, so that this run's programs start their own.
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
"$wineserver" -k 2>/dev/null || true
model_dir=$(bash scripts/get-models.sh 2>/dev/null)
export VMAF_MODEL_DIR="$model_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# `same A B LABEL`: the two JSON files are the same but for "fps" (the run's
# speed, not a score): byte for byte, or else the differing numbers are named.
same() {
  python3 - "$1" "$2" "$3" <<'EOF'
import json, re, sys
a, b, label = sys.argv[1:4]
def text(p):
    with open(p, "rb") as f:
        return re.sub(rb'\n  "fps": [^\n]*\n', b"\n", f.read())
if text(a) == text(b):
    sys.exit(0)
def load(p):
    with open(p, encoding="utf-8") as f:
        doc = json.load(f, parse_float=str, parse_int=str)
    doc.pop("fps", None)
    return doc
def walk(x, y, where, out):
    if type(x) != type(y):
        out.append(f"{where}: {x!r} vs {y!r}")
    elif isinstance(x, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                out.append(f"{where}/{k}: only in one")
            else:
                walk(x[k], y[k], f"{where}/{k}", out)
    elif isinstance(x, list):
        if len(x) != len(y):
            out.append(f"{where}: {len(x)} vs {len(y)} entries")
        for i, (p, q) in enumerate(zip(x, y)):
            walk(p, q, f"{where}[{i}]", out)
    elif x != y:
        out.append(f"{where}: {x} (Linux) vs {y} (Windows)")
out = []
walk(load(a), load(b), "", out)
if out:
    print(f"windows_test: {label}: {len(out)} differences, first: " + "; ".join(out[:5]), file=sys.stderr)
else:
    print(f"windows_test: {label}: the same numbers, but the files differ in layout", file=sys.stderr)
sys.exit(1)
EOF
}

# Windows paths of files here (Wine maps the root directory to drive Z:).
winpath() { printf 'Z:%s' "$(printf '%s' "$1" | tr / '\\')"; }
# vmaf.exe and vmaf_startup.exe load libvmaf-3.dll, which the build leaves in
# core/src (installed, it stands beside them in bin/).
export WINEPATH
WINEPATH=$(winpath "$root/$win_dir/core/src")

options=(--backend "$backend")
[ "$backend" = cpu ] && options=()
pairs=0 failed=0
for ref in tests/data/*_ref.y4m; do
  name=$(basename "$ref" _ref.y4m)
  dis=tests/data/${name}_dis.y4m
  [ -f "$dis" ] || continue
  pairs=$((pairs + 1))
  "$native" -r "$ref" -d "$dis" "${options[@]}" --json -o "$tmp/$name.linux.json" >/dev/null 2>"$tmp/$name.linux.err" || {
    echo "windows_test: $name: the native build failed: $(tail -1 "$tmp/$name.linux.err")" >&2
    failed=$((failed + 1)); continue; }
  if ! "$wine" "$exe" -r "$(winpath "$root/$ref")" -d "$(winpath "$root/$dis")" "${options[@]}" \
       --json -o "$(winpath "$tmp/$name.windows.json")" >/dev/null 2>"$tmp/$name.windows.err"; then
    echo "windows_test: $name: vmaf.exe failed: $(tail -3 "$tmp/$name.windows.err")" >&2
    failed=$((failed + 1)); continue
  fi
  if same "$tmp/$name.linux.json" "$tmp/$name.windows.json" "$name"; then
    vmaf=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"])' \
           "$tmp/$name.windows.json")
    echo "windows_test: $name: identical ($backend), VMAF mean $vmaf"
  else
    failed=$((failed + 1))
  fi
done

# Paths with spaces and characters outside ASCII (and outside any one ANSI
# code page): inputs, the output and the model directory; and the cache.
odd="$tmp/dir with spaces ünïcødé 日本"
mkdir -p "$odd/models ø"
cp tests/data/coffee_320x240_crf28_ref.y4m "$odd/réf 参照.y4m"
cp tests/data/coffee_320x240_crf28_dis.y4m "$odd/dïs 歪み.y4m"
cp "$model_dir/vmaf_v0.6.1.json" "$odd/models ø/"
# The cache: Wine sets %LOCALAPPDATA% from its prefix's profile for a program
# started from here, whatever the environment or the registry's shell folders
# say (docs/windows.md), so it is looked for there, emptied first.
cache_glob="$WINEPREFIX/drive_c/users/*/AppData/Local/libvmaf-vk"
extra=0
rm -rf $cache_glob
if VMAF_MODEL_DIR="$(winpath "$odd/models ø")" \
     "$wine" "$exe" -r "$(winpath "$odd/réf 参照.y4m")" -d "$(winpath "$odd/dïs 歪み.y4m")" "${options[@]}" \
     --json -o "$(winpath "$odd/sortie é 出力.json")" >/dev/null 2>"$tmp/odd.err" \
   && same "$tmp/coffee_320x240_crf28.linux.json" "$odd/sortie é 出力.json" "non-ASCII paths"; then
  echo "windows_test: paths with spaces and non-ASCII characters: identical ($backend)"
  if [ "$backend" = vulkan ]; then
    if ls $cache_glob/pipelines-*.bin >/dev/null 2>&1; then
      echo "windows_test: pipeline cache written to %LOCALAPPDATA%\\libvmaf-vk: $(basename $cache_glob/pipelines-*.bin)"
    else
      echo "windows_test: no pipeline cache under %LOCALAPPDATA%\\libvmaf-vk" >&2
      failed=$((failed + 1))
    fi
    # A cache directory others may write into (Wine shows the mode's world
    # write bit as an entry of its ACL for Everyone) is refused with a warning
    # naming who may write, and nothing is written into it; the score stands.
    extra=$((extra + 1))
    cache_dir=$(ls -d $cache_glob)
    rm -f "$cache_dir"/*
    chmod 0777 "$cache_dir"
    if "$wine" "$exe" -r "$(winpath "$odd/réf 参照.y4m")" -d "$(winpath "$odd/dïs 歪み.y4m")" "${options[@]}" \
         --json -o "$(winpath "$odd/open.json")" >/dev/null 2>"$tmp/open.err" \
       && same "$tmp/coffee_320x240_crf28.linux.json" "$odd/open.json" "world-writable cache" \
       && grep -q "may be written by S-1-1-0" "$tmp/open.err" && ! ls "$cache_dir"/pipelines-* >/dev/null 2>&1; then
      echo "windows_test: a cache directory Everyone may write into: refused ($(grep -m1 -o 'may be written by [^ ]*' "$tmp/open.err")), score identical"
    else
      echo "windows_test: a world-writable cache directory was not refused: $(tail -3 "$tmp/open.err")" >&2
      failed=$((failed + 1))
    fi
    chmod 0700 "$cache_dir"
  fi
else
  echo "windows_test: paths with spaces and non-ASCII characters failed: $(tail -3 "$tmp/odd.err")" >&2
  failed=$((failed + 1))
fi

# A client of the DLL through its import library (vmaf_startup, libvmaf.h
# only; synthetic frames): the same mean VMAF as the native one.
checks=$((pairs + 1 + extra))
startup="$root/$win_dir/core/tools/vmaf_startup.exe"
if [ "$backend" = cpu ] && [ -f "$startup" ] && [ -x "$root/$native_dir/core/tools/vmaf_startup" ]; then
  checks=$((checks + 1))
  score() { grep -o '"vmaf": [0-9.]*' | cut -d' ' -f2; }
  a=$("$root/$native_dir/core/tools/vmaf_startup" --width 320 --height 240 --frames 3 2>/dev/null | score || true)
  b=$("$wine" "$startup" --width 320 --height 240 --frames 3 \
      2>/dev/null | score || true)
  if [ -n "$a" ] && [ "$a" = "$b" ]; then
    echo "windows_test: vmaf_startup.exe on libvmaf-3.dll: VMAF $b, as native"
  else
    echo "windows_test: vmaf_startup.exe on libvmaf-3.dll: VMAF '$b', native '$a'" >&2
    failed=$((failed + 1))
  fi
fi

echo "$((checks - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]

if [ "${FFMPEG:-0}" = 1 ]; then
  ffmpeg_exe=$(bash scripts/ffmpeg/build_windows.sh "$win_dir")
  NATIVE_BUILD_DIR=$native_dir BUILD_DIR=$win_dir bash scripts/ffmpeg/test_windows.sh "$ffmpeg_exe"
fi
