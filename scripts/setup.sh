#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# One-step set-up on a fresh Debian bookworm machine: installs the build
# dependencies (as root, through apt), finds or fetches the VMAF models, then
# configures and builds into build/.
#   bash scripts/setup.sh            # release build in build/
#   BUILD_DIR=build-asan MESON_ARGS="-Db_sanitize=address,undefined" bash scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${BUILD_DIR:-build}
packages=(
  meson ninja-build pkg-config g++ python3
  nlohmann-json3-dev catch2
  libvulkan-dev libvulkan-volk-dev glslc spirv-tools mesa-vulkan-drivers vulkan-validationlayers libva-dev
  python3-numpy python3-cffi python3-matplotlib python3-pytest python3-setuptools python3-pip python3-wheel
  python3-tqdm python3-distributed
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev ffmpeg clang
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages (run as root or install them): ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

model_dir=$(bash scripts/get-models.sh)
echo "setup: models from $model_dir"

if [ -d "$build_dir" ]; then
  meson configure "$build_dir" -Dmodel_dir="$model_dir" ${MESON_ARGS:-} >/dev/null
else
  meson setup "$build_dir" -Dmodel_dir="$model_dir" ${MESON_ARGS:-} >/dev/null
fi
ninja -C "$build_dir"
