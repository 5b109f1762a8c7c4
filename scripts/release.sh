#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The release artefacts, into dist/ (docs/release.md):
#   libvmaf-vk-VERSION.tar.xz                 the source (meson dist, from the committed tree)
#   libvmaf-vk-VERSION-linux-x86_64.tar.xz    a release build installed (lib, headers, .pc, vmaf)
#   libvmaf-vk-VERSION-windows-x86_64.zip     the same from build-windows/ (scripts/windows.sh),
#                                             with ffmpeg.exe (scripts/ffmpeg/build_windows.sh)
#   vmafvk-VERSION-py3-none-linux_x86_64.whl  the Python package carrying the Linux build
#   SHA256SUMS                                over all of them
# VERSION is vmafvk_version in meson.build; the script stops, saying why, unless
# CHANGELOG.md has a section for it and the built library's vmaf_version(), the
# .pc files and the wheel agree with it.
#   bash scripts/release.sh               # no Windows zip unless build-windows/ exists
#   bash scripts/release.sh --windows     # the Windows zip too (build-windows/ must exist)
#   bash scripts/release.sh --dist-tests  # also builds the source tarball and runs its tests
# Environment: BUILD_DIR (default build-release), MODEL_DIR (the models built into the
# library and its fallback folder; default: what scripts/get-models.sh provides),
# JOBS (compile jobs, default 2), PYTHON (the one with setuptools and wheel that
# builds the wheel; default /usr/bin/python3, the system's), LIBAV=enabled (the vmaf
# tool reads FFmpeg's formats, and then needs the build machine's FFmpeg libraries;
# default disabled).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

windows=auto
dist_tests=0
for arg in "$@"; do
  case "$arg" in
    --windows) windows=yes ;;
    --dist-tests) dist_tests=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "release: unknown argument '$arg' (allowed: --windows, --dist-tests)" >&2; exit 2 ;;
  esac
done

fail() { echo "release: $*" >&2; exit 1; }

build_dir=${BUILD_DIR:-build-release}
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
jobs=${JOBS:-2}
out=$root/dist

# The one version: the project's own, as vmaf_version() appends it to the API level.
version=$(sed -n "s/^vmafvk_version = '\([^']*\)'.*/\1/p" meson.build)
api_version=$(sed -n "s/^  version : '\([^']*\)',/\1/p" meson.build | head -n 1)
[ -n "$version" ] || fail "meson.build: no vmafvk_version = '...' line"
[ -n "$api_version" ] || fail "meson.build: no project version"
grep -q "^## \[$version\]" CHANGELOG.md ||
  fail "CHANGELOG.md has no section '## [$version]' for vmafvk_version $version of meson.build"
wheel_version=$(sed -n 's/^version = "\([^"]*\)"/\1/p' python/pyproject.toml)
[ "$wheel_version" = "$version" ] ||
  fail "python/pyproject.toml: version \"$wheel_version\", but meson.build's vmafvk_version is $version"
py_version=$(sed -n 's/^__version__ = "\([^"]*\)"/\1/p' python/vmafvk/__init__.py)
[ "$py_version" = "$version" ] ||
  fail "python/vmafvk/__init__.py: __version__ \"$py_version\", but meson.build's vmafvk_version is $version"
git diff --quiet HEAD -- || fail "the work tree has uncommitted changes: meson dist packs the last commit only"
echo "release: libvmaf-vk $version (libvmaf API $api_version, vmaf_version() $api_version-vk$version)"

build_windows=0
if [ "$windows" = yes ]; then
  [ -f build-windows/build.ninja ] || fail "--windows: no build-windows/ (bash scripts/windows.sh makes it)"
  build_windows=1
elif [ -f build-windows/build.ninja ]; then
  build_windows=1
fi

rm -rf "$out"
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The Linux build: release, Vulkan (the loader is opened at run time), the models built
# in, a relocatable .pc (prefix relative to its own folder), lib/ rather than the
# multiarch folder.
model_dir=${MODEL_DIR:-$(bash scripts/get-models.sh)}
options=(-Dbuildtype=release -Dtests=false -Dvulkan=enabled -Dbuilt_in_models=true
         -Dlibav="${LIBAV:-disabled}" -Dmodel_dir="$model_dir" -Dpkgconfig.relocatable=true)
if [ -f "$build_dir/build.ninja" ]; then
  meson configure "$build_dir" "${options[@]}" >/dev/null
else
  meson setup "$build_dir" --prefix=/usr/local --libdir=lib "${options[@]}" >/dev/null
fi
nice ninja -C "$build_dir" -j"$jobs"
models=$(meson introspect "$build_dir" --buildoptions |
  python3 -c 'import json,sys; print(json.dumps(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "built_in_models")))')
[ "$models" = true ] || fail "$build_dir: built_in_models is off"

# 1. The source tarball.
nice meson dist -C "$build_dir" --formats xztar --no-tests
meson_tarball=$build_dir/meson-dist/libvmaf-vk-$api_version.tar.xz
[ -f "$meson_tarball" ] || fail "meson dist made no $meson_tarball"
# Its folder carries the project (API) version; the release is named by vmafvk_version.
mkdir "$stage/src"
tar -C "$stage/src" -xf "$meson_tarball"
mv "$stage/src/libvmaf-vk-$api_version" "$stage/src/libvmaf-vk-$version"
mtime=$(git log -1 --format=%ct HEAD)
tar -C "$stage/src" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" \
  -cJf "$out/libvmaf-vk-$version.tar.xz" "libvmaf-vk-$version"
# --dist-tests: the tarball, unpacked, configured as a packager would (the models named
# by -Dmodel_dir, the test suite on), built and tested.
if [ "$dist_tests" = 1 ]; then
  mkdir "$stage/dist-check"
  tar -C "$stage/dist-check" -xf "$out/libvmaf-vk-$version.tar.xz"
  meson setup "$stage/dist-check/build" "$stage/dist-check/libvmaf-vk-$version" -Dmodel_dir="$model_dir" >/dev/null
  nice ninja -C "$stage/dist-check/build" -j"$jobs"
  nice meson test -C "$stage/dist-check/build" --num-processes "$jobs" --print-errorlogs ||
    fail "the source tarball's tests fail (log: $stage/dist-check/build/meson-logs/testlog.txt, removed on exit)"
fi

# 2. The Linux binary tarball: meson install into a folder, packed from the prefix.
linux_name=libvmaf-vk-$version-linux-x86_64
meson install -C "$build_dir" --no-rebuild --destdir "$stage/linux" >/dev/null
mv "$stage/linux/usr/local" "$stage/$linux_name"
tool=$stage/$linux_name/bin/vmaf
[ -x "$tool" ] || fail "the install has no bin/vmaf"
tool_version=$(LD_LIBRARY_PATH="$stage/$linux_name/lib" "$tool" --version)
[ "$tool_version" = "$api_version-vk$version" ] ||
  fail "the installed vmaf --version (vmaf_version()) says '$tool_version', expected '$api_version-vk$version'"
pc_version=$(PKG_CONFIG_PATH="$stage/$linux_name/lib/pkgconfig" PKG_CONFIG_LIBDIR="$stage/$linux_name/lib/pkgconfig" pkg-config --modversion libvmaf)
[ "$pc_version" = "$api_version" ] ||
  fail "the installed libvmaf.pc says Version: $pc_version, expected the API level $api_version"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" \
  -cJf "$out/$linux_name.tar.xz" "$linux_name"

# 3. The Windows zip, from scripts/windows.sh's build.
if [ "$build_windows" = 1 ]; then
  win_name=libvmaf-vk-$version-windows-x86_64
  meson configure build-windows -Dpkgconfig.relocatable=true >/dev/null
  nice ninja -C build-windows -j"$jobs"
  meson install -C build-windows --no-rebuild --destdir "$stage/windows" >/dev/null
  win_prefix=$(meson introspect build-windows --buildoptions |
    python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
  mv "$stage/windows$win_prefix" "$stage/$win_name"
  # ffmpeg.exe with the series, static FFmpeg on this DLL (adr/0083; cached by key),
  # beside the DLL; FFmpeg's licence (LGPL 2.1 or later: no GPL or nonfree part) and
  # the series that changes its source go with it.
  ffmpeg_exe=$(JOBS=$jobs bash scripts/ffmpeg/build_windows.sh build-windows)
  cp "$ffmpeg_exe" "$stage/$win_name/bin/ffmpeg.exe"
  ffmpeg_doc=$stage/$win_name/share/doc/ffmpeg
  mkdir -p "$ffmpeg_doc/patches"
  cp "$(dirname "$ffmpeg_exe")/../src/LICENSE.md" "$(dirname "$ffmpeg_exe")/../src/COPYING.LGPLv2.1" "$ffmpeg_doc/"
  cp ffmpeg-patches/9.0/series.txt ffmpeg-patches/9.0/*.patch "$ffmpeg_doc/patches/"
  for f in bin/libvmaf-3.dll bin/vmaf.exe bin/ffmpeg.exe lib/libvmaf.dll.a lib/pkgconfig/libvmaf.pc include/libvmaf/libvmaf.h; do
    [ -f "$stage/$win_name/$f" ] || fail "the Windows install has no $f"
  done
  win_pc=$(sed -n 's/^Version: //p' "$stage/$win_name/lib/pkgconfig/libvmaf.pc")
  [ "$win_pc" = "$api_version" ] || fail "the Windows libvmaf.pc says Version: $win_pc, expected $api_version"
  grep -qaF "$api_version-vk$version" "$stage/$win_name/bin/libvmaf-3.dll" ||
    fail "libvmaf-3.dll does not carry the version string $api_version-vk$version: build-windows/ is out of date"
  (cd "$stage" && find "$win_name" -exec touch -d "@$mtime" {} + &&
    find "$win_name" -type f | LC_ALL=C sort | zip -q -X "$out/$win_name.zip" -@)
fi

# 4. The wheel, carrying this build's library and tool.
VMAFVK_BUILD_DIR=$root/$build_dir "$python" -m pip wheel --no-deps --no-build-isolation --no-index -w "$out" ./python
wheel=$out/vmafvk-$version-py3-none-linux_x86_64.whl
[ -f "$wheel" ] || fail "pip made no $wheel (python/pyproject.toml's version?)"

# A last check on what is packed: the binary tarball's tool, unpacked, scores a golden
# pair as libvmaf does with the built-in model alone: $VMAF_MODEL_DIR, an empty folder,
# replaces the build's model folder (which exists on this machine).
mkdir "$stage/check" "$stage/no-models"
tar -C "$stage/check" -xf "$out/$linux_name.tar.xz"
expected=$(python3 -c 'import json,sys; print("%.6f" % json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"])' \
  tests/data/coffee_320x240_crf28.libvmaf.json)
got=$(VMAF_MODEL_DIR="$stage/no-models" LD_LIBRARY_PATH="$stage/check/$linux_name/lib" "$stage/check/$linux_name/bin/vmaf" \
  -r tests/data/coffee_320x240_crf28_ref.y4m -d tests/data/coffee_320x240_crf28_dis.y4m --quiet |
  sed -n 's/^VMAF score: //p')
[ "$got" = "$expected" ] || fail "the packed vmaf scores the coffee pair '$got', libvmaf $expected"

(cd "$out" && files=(*.tar.xz *.whl) && { [ "$build_windows" = 0 ] || files+=(*.zip); } &&
  sha256sum -- "${files[@]}" > SHA256SUMS)
echo "release: $out"
(cd "$out" && ls -l && sha256sum -c SHA256SUMS)
