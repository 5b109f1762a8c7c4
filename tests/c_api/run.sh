#!/usr/bin/env bash
# Installs the library into a scratch prefix and builds a C consumer against
# the installed headers through pkg-config alone, then runs it.
#   run.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/root" --quiet --no-rebuild
pc=$(dirname "$(find "$tmp/root" -name libvmaf.pc | head -n1)")
export PKG_CONFIG_PATH=$pc
prefix="$tmp/root$(pkg-config --variable=prefix libvmaf)"
flags=$(pkg-config --define-variable=prefix="$prefix" --cflags --libs libvmaf)
libdir=$(pkg-config --define-variable=prefix="$prefix" --variable=libdir libvmaf)
cc -std=c11 -Wall -Werror -o "$tmp/consumer" "$src/tests/c_api/psnr_consumer.c" $flags -lm
LD_LIBRARY_PATH=$libdir "$tmp/consumer"
