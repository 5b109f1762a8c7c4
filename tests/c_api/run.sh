#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Installs the library into a scratch prefix and builds a C consumer against
# the installed headers through pkg-config alone, then runs it: linked with the
# shared library, and again with the static one (`pkg-config --static`). Also
# checks the API level (3.2.0 in pkg-config, the version macros and the library's
# file name; soname libvmaf.so.3) and that libvmaf.pc needs no other package's
# .pc file: with pkg-config limited to the scratch prefix (no libva.pc, as on a
# machine without libva's development files) --cflags and --libs still work.
#   run.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
want=3.2.0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "c_api: $*" >&2; exit 1; }
meson install -C "$build" --destdir "$tmp/root" --quiet --no-rebuild
pc=$(dirname "$(find "$tmp/root" -name libvmaf.pc | head -n1)")
# Only the scratch prefix: no system .pc file (libva.pc included) can be found.
export PKG_CONFIG_LIBDIR=$pc
unset PKG_CONFIG_PATH
prefix="$tmp/root$(pkg-config --variable=prefix libvmaf)"
pcq() { pkg-config --define-variable=prefix="$prefix" "$@" libvmaf; }

version=$(pcq --modversion)
[ "$version" = "$want" ] || fail "pkg-config --modversion libvmaf is $version, not $want"
[ -z "$(pcq --print-requires)$(pcq --print-requires-private)" ] || fail "libvmaf.pc requires other packages"
cflags=$(pcq --cflags) || fail "pkg-config --cflags libvmaf fails without other packages' .pc files"
libs=$(pcq --libs) || fail "pkg-config --libs libvmaf fails"
static_libs=$(pcq --libs --static) || fail "pkg-config --static --libs libvmaf fails"
libdir=$(pcq --variable=libdir)

[ -f "$libdir/libvmaf.so.$want" ] || fail "no $libdir/libvmaf.so.$want"
soname=$(readelf -d "$libdir/libvmaf.so.$want" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libvmaf.so.${want%%.*}" ] || fail "soname is $soname"

IFS=. read -r major minor patch <<< "$version"
defs="-DEXPECT_MAJOR=$major -DEXPECT_MINOR=$minor -DEXPECT_PATCH=$patch"

# Dynamic: the shared library.
cc -std=c11 -Wall -Werror $defs -o "$tmp/consumer" "$src/tests/c_api/psnr_consumer.c" $cflags $libs -lm
readelf -d "$tmp/consumer" | grep -q "NEEDED.*libvmaf.so.$major" || fail "the consumer does not load libvmaf.so.$major"
LD_LIBRARY_PATH=$libdir "$tmp/consumer"

# Static: the archive alone in the library directory, linked with what
# Libs.private names.
[ -f "$libdir/libvmaf.a" ] || fail "no $libdir/libvmaf.a"
mkdir "$tmp/static"
cp "$libdir/libvmaf.a" "$tmp/static/"
static_libs=${static_libs//-L$libdir/-L$tmp/static}
# An archive built with the sanitizers needs their runtimes in the program too
# (the shared library brings its own).
sanitize=
if nm "$tmp/static/libvmaf.a" 2>/dev/null | grep "__asan_report\|__ubsan_handle" >/dev/null; then
  sanitize="-fsanitize=address,undefined"
fi
cc -std=c11 -Wall -Werror $defs -o "$tmp/consumer_static" "$src/tests/c_api/psnr_consumer.c" $cflags \
  $static_libs -lm $sanitize
! readelf -d "$tmp/consumer_static" | grep -q "NEEDED.*libvmaf" || fail "the static consumer loads libvmaf"
"$tmp/consumer_static"
echo "c_api: pkg-config $version (no other package needed), soname $soname, dynamic and static consumers pass"
