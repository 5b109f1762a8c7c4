# SPDX-License-Identifier: BSD-2-Clause-Patent
# shellcheck shell=bash
# Shared by scripts/ffmpeg/*.sh (sourced, not run): the pinned FFmpeg sources, the
# cache layout, the private apt configuration and the patched source tree.
#
# FFMPEG_VERSION picks the base: 9.0.2 (the default) or 8.1.2. Each base has its
# own series, ffmpeg-patches/<major.minor>/ (series.txt names the patches).
#
# The cache lives outside the repository:
#   ${LIBVMAF_VK_FFMPEG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libvmaf-vk/ffmpeg}
#     apt/        private apt state (lists for sid, downloaded archives)
#     dl/         the orig tarballs and the libvulkan-dev package
#     vulkan-headers/<version>/usr   Vulkan headers extracted from that package
#     <ffmpeg version>/
#       base/     the tarball as a git repository (one commit, tagged)
#       src/      a clone of base/ with the series applied: what is built
#       build/    out-of-tree build; build/ffmpeg is the program
#       install/  libraries and headers (build.sh --libs)
#     lock        serialises runs that share the cache

# The functions below run in command substitutions: let set -e reach into them.
shopt -s inherit_errexit

ffmpeg_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ffmpeg_cache=${LIBVMAF_VK_FFMPEG_CACHE:-${XDG_CACHE_HOME:-${HOME:?set HOME or LIBVMAF_VK_FFMPEG_CACHE}/.cache}/libvmaf-vk/ffmpeg}

say() { echo "${ffmpeg_script_name:-ffmpeg}: $*" >&2; }
die() { say "error: $*"; exit 1; }

# The y4m header's colour space tag (file $1) as FFmpeg's pixel format name, for
# the filters' tests (test.sh, test_windows.sh).
y4m_format() {
  local c
  c=$(head -c 200 "$1" | head -n 1 | tr ' ' '\n' | sed -n 's/^C//p')
  case $c in
    420jpeg|420paldv|420mpeg2|420|'') echo yuv420p ;;
    420p10) echo yuv420p10le ;;
    422) echo yuv422p ;;
    422p10) echo yuv422p10le ;;
    444) echo yuv444p ;;
    444p10) echo yuv444p10le ;;
    *) die "$1: y4m colour space C$c is not one the Vulkan filter takes" ;;
  esac
}

# The bases: FFmpeg's release tarball as Debian's ffmpeg source package (suite
# sid) carries it, as its orig tarball. Each series.txt records the same tarball
# name and hash; series.sh check checks that they agree.
ffmpeg_version=${FFMPEG_VERSION:-9.0.2}
case $ffmpeg_version in
  9.0.2)
    ffmpeg_deb_version=7:9.0.2-4
    ffmpeg_orig_sha256=8c3850283eb25fa026482078a04051e0be17347b09ef81a0849bec15a96e002e ;;
  8.1.2)
    ffmpeg_deb_version=7:8.1.2-2
    ffmpeg_orig_sha256=464beb5e7bf0c311e68b45ae2f04e9cc2af88851abb4082231742a74d97b524c ;;
  *) die "FFMPEG_VERSION=$ffmpeg_version: the series has bases 9.0.2 and 8.1.2" ;;
esac
ffmpeg_orig=ffmpeg_${ffmpeg_version}.orig.tar.xz
ffmpeg_series_dir=$ffmpeg_root/ffmpeg-patches/${ffmpeg_version%.*}
# A build without some patches (LIBVMAF_VK_FFMPEG_SKIP, below) has trees of its
# own, so that it leaves the whole series' build alone.
skip_tag=${LIBVMAF_VK_FFMPEG_SKIP:+-without-$(echo "$LIBVMAF_VK_FFMPEG_SKIP" | tr -s ' ' '-')}
ffmpeg_vcache=$ffmpeg_cache/$ffmpeg_version${skip_tag}
unset skip_tag

# FFmpeg 8.1 and 9.0 need Vulkan headers >= 1.3.277; bookworm has 1.3.239. sid's headers
# are unpacked into the cache (never installed); the loader stays the system's.
# When sid no longer has this version, its current one is taken (with a warning).
vulkan_headers_version=${LIBVMAF_VK_VULKAN_HEADERS_VERSION:-1.4.363.0-1}

# Patches are committed as the project, with a fixed date, so that the series
# regenerates byte for byte from the same tree.
ffmpeg_git_ident=(-c user.name="libvmaf-vk developers" -c user.email="libvmaf-vk@users.noreply.invalid")
ffmpeg_base_tag=debian-orig-$ffmpeg_version
# No background "git gc --auto" in the cache's repositories: it would outlive the
# script and hold the cache lock.
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=gc.auto GIT_CONFIG_VALUE_0=0 \
  GIT_CONFIG_KEY_1=maintenance.auto GIT_CONFIG_VALUE_1=false

# Holds an exclusive lock on the cache for the rest of the calling script.
ffmpeg_lock_cache() {
  mkdir -p "$ffmpeg_cache" || die "cannot create the cache directory $ffmpeg_cache"
  exec 9>"$ffmpeg_cache/lock"
  if ! flock -n 9; then
    say "waiting for another run that uses $ffmpeg_cache"
    flock 9
  fi
}

# The Debian mirrors this machine's apt is configured with (deb822 .sources and
# one-line .list files), one per line: http(s)/file URIs of enabled sources that
# are not the security archive. No host is named here: whatever the system uses
# is what these scripts use.
ffmpeg_apt_mirrors() {
  local files=()
  shopt -s nullglob
  files=(/etc/apt/sources.list.d/*.sources)
  local lists=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list)
  shopt -u nullglob
  {
    if [ ${#files[@]} -gt 0 ]; then
      awk '
        function flush() {
          if (uris != "" && suites !~ /-security/ && enabled != "no") print uris
          uris = ""; suites = ""; enabled = ""
        }
        FNR == 1 { flush() }
        /^[[:space:]]*$/ { flush(); next }
        /^URIs:/ { sub(/^URIs:[[:space:]]*/, ""); uris = $0 }
        /^Suites:/ { suites = $0 }
        /^Enabled:/ { enabled = tolower($2) }
        END { flush() }' "${files[@]}"
    fi
    local f
    for f in "${lists[@]}"; do
      [ -r "$f" ] || continue
      awk '$1 == "deb" || $1 == "deb-src" {
        i = 2
        if ($i ~ /^\[/) { while (i < NF && $i !~ /\]$/) i++; i++ }
        if ($(i + 1) !~ /-security/) print $i
      }' "$f"
    done
  } | tr ' ' '\n' | grep -E '^(https?|file):' | sed 's#/*$##' | awk '!seen[$0]++'
}

# Runs apt-get/apt-cache against sid's sources only, with state kept in the cache:
# the system's sources and package lists are not read or changed. sid is taken
# from the same mirrors as the system's own sources.
ffmpeg_apt() {
  local tool=$1; shift
  local dir=$ffmpeg_cache/apt
  if [ ! -s "$dir/sid.sources" ]; then
    local uris
    uris=$(ffmpeg_apt_mirrors | tr '\n' ' ')
    [ -n "${uris// /}" ] ||
      die "no Debian mirror found in the apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d/); add one, or set LIBVMAF_VK_FFMPEG_TARBALL to a local $ffmpeg_orig (sha256 $ffmpeg_orig_sha256)"
    mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
    printf 'Types: deb deb-src\nURIs: %s\nSuites: sid\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "${uris% }" >"$dir/sid.sources"
  fi
  local opts=(
    -o "Dir::Etc::SourceList=$dir/sid.sources" -o Dir::Etc::SourceParts=/nonexistent
    -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
    -o Debug::NoLocking=1 -o APT::Get::List-Cleanup=0
  )
  # apt drops to the _apt user for downloads, which cannot write to a private
  # directory under root's home.
  [ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
  "$tool" "${opts[@]}" "$@"
}

# Package lists younger than an hour are reused (the callers run in subshells,
# so a file, not a variable, remembers the update).
ffmpeg_apt_update_once() {
  local stamp=$ffmpeg_cache/apt/updated
  if [ -n "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
    return 0
  fi
  say "reading sid's package lists (private apt configuration)"
  mkdir -p "$ffmpeg_cache/apt"
  ffmpeg_apt apt-get -qq update >/dev/null 2>"$ffmpeg_cache/apt/update.log" ||
    die "apt-get update for sid failed (network? see $ffmpeg_cache/apt/update.log)"
  touch "$stamp"
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# Downloads FILE of the Debian source package PKG from the pool of each mirror
# of the system's apt sources (ffmpeg_apt_mirrors), one after another until
# one serves it, to OUT (through OUT.part); what each attempt says is appended
# to LOG. For files sid no longer lists but the pool still holds (another
# suite has them). Returns 1 unless OUT is there and not empty. The callers
# (ffmpeg_fetch_source, scripts/truth/libjxl.sh) check the hash.
ffmpeg_fetch_from_pool() {
  local pkg=$1 file=$2 out=$3 log=$4 mirror dir
  # The pool's folder: lib* packages by their first four letters, others by one.
  case $pkg in
    lib?*) dir=${pkg:0:4}/$pkg ;;
    *) dir=${pkg:0:1}/$pkg ;;
  esac
  while read -r mirror; do
    if python3 - "$mirror/pool/main/$dir/$file" "$out.part" >>"$log" 2>&1 <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=120) as r, open(sys.argv[2], "wb") as f:
    while chunk := r.read(1 << 20):
        f.write(chunk)
PY
    then mv "$out.part" "$out"; break; fi
  done < <(ffmpeg_apt_mirrors)
  rm -f "$out.part"
  [ -s "$out" ]
}

# What to do when no apt source serves the pinned tarball any more.
ffmpeg_supply_hint() {
  echo "Debian's archive no longer serves $ffmpeg_orig (ffmpeg $ffmpeg_deb_version)." \
    "Supply a copy: LIBVMAF_VK_FFMPEG_TARBALL=/path/to/$ffmpeg_orig (FFmpeg's own ffmpeg-$ffmpeg_version.tar.xz" \
    "release tarball is the same file), or copy it to $ffmpeg_cache/dl/$ffmpeg_orig; its sha256 must be" \
    "$ffmpeg_orig_sha256. Or pick the other base with FFMPEG_VERSION."
}

# Puts the pinned orig tarball in dl/ and checks its hash. LIBVMAF_VK_FFMPEG_TARBALL
# may name a local copy (for machines without network, or once the archive has
# dropped the version); it is hash-checked too.
ffmpeg_fetch_source() {
  local dl=$ffmpeg_cache/dl tarball=$ffmpeg_cache/dl/$ffmpeg_orig
  mkdir -p "$dl"
  if [ ! -s "$tarball" ] && [ -n "${LIBVMAF_VK_FFMPEG_TARBALL:-}" ]; then
    [ -f "$LIBVMAF_VK_FFMPEG_TARBALL" ] || die "LIBVMAF_VK_FFMPEG_TARBALL=$LIBVMAF_VK_FFMPEG_TARBALL: no such file"
    cp "$LIBVMAF_VK_FFMPEG_TARBALL" "$tarball.part" && mv "$tarball.part" "$tarball"
  fi
  if [ ! -s "$tarball" ]; then
    ffmpeg_apt_update_once
    say "apt-get source --download-only ffmpeg=$ffmpeg_deb_version"
    # Only the orig tarball is used: the download counts as done when it has
    # arrived, even if the package's own files (.dsc, .debian.tar.xz) have not.
    (cd "$dl" && ffmpeg_apt apt-get -qq source --download-only "ffmpeg=$ffmpeg_deb_version" \
      >"$dl/source.log" 2>&1) || true
    if [ ! -s "$tarball" ]; then
      # sid has moved on: the same tarball from the pool of each configured
      # mirror, while any suite there still has it.
      say "sid no longer offers ffmpeg $ffmpeg_deb_version; trying the pool of each apt mirror"
      ffmpeg_fetch_from_pool ffmpeg "$ffmpeg_orig" "$tarball" "$dl/source.log" ||
        die "$(ffmpeg_supply_hint) (What was tried: $dl/source.log.)"
    fi
  fi
  local got
  got=$(sha256_of "$tarball")
  if [ "$got" != "$ffmpeg_orig_sha256" ]; then
    mv "$tarball" "$tarball.bad"
    die "$ffmpeg_orig has sha256 $got, expected $ffmpeg_orig_sha256 (moved aside to $tarball.bad)"
  fi
  echo "$tarball"
}

# Unpacks sid's libvulkan-dev into the cache and prints the directory holding its
# vulkan.pc (relocated to the unpacked headers, libdir left at the system's).
ffmpeg_fetch_vulkan_headers() {
  local dl=$ffmpeg_cache/dl version=$vulkan_headers_version deb
  deb=$(ls "$dl"/libvulkan-dev_"${version#*:}"_*.deb 2>/dev/null | head -n 1 || true)
  if [ -z "$deb" ]; then
    ffmpeg_apt_update_once
    mkdir -p "$dl"
    if ! (cd "$dl" && ffmpeg_apt apt-get -qq download "libvulkan-dev=$version" >"$dl/vulkan.log" 2>&1); then
      version=$(ffmpeg_apt apt-cache policy libvulkan-dev 2>/dev/null | awk '/Candidate:/ {print $2}' || true)
      [ -n "$version" ] && [ "$version" != "(none)" ] ||
        die "sid has no libvulkan-dev (see $dl/vulkan.log)"
      say "warning: libvulkan-dev $vulkan_headers_version is gone from sid; using $version"
      (cd "$dl" && ffmpeg_apt apt-get -qq download "libvulkan-dev=$version" >"$dl/vulkan.log" 2>&1) ||
        die "could not download libvulkan-dev $version from sid (see $dl/vulkan.log)"
    fi
    deb=$(ls "$dl"/libvulkan-dev_"${version#*:}"_*.deb | head -n 1)
  fi
  version=$(dpkg-deb -f "$deb" Version)
  local dest=$ffmpeg_cache/vulkan-headers/$version
  if [ ! -f "$dest/.done" ]; then
    rm -rf "$dest" && mkdir -p "$dest"
    dpkg-deb -x "$deb" "$dest" || die "could not unpack $deb"
    local pc
    pc=$(find "$dest/usr/lib" -name vulkan.pc | head -n 1)
    [ -n "$pc" ] || die "$deb has no vulkan.pc"
    local libdir
    libdir=$(pkg-config --variable=libdir vulkan 2>/dev/null || echo "/usr/lib/$(gcc -print-multiarch)")
    sed -i -e "s#^prefix=.*#prefix=$dest/usr#" -e "s#^libdir=.*#libdir=$libdir#" "$pc"
    touch "$dest/.done"
  fi
  dirname "$(find "$dest/usr/lib" -name vulkan.pc | head -n 1)"
}

# Patch files named by series.txt, in order, as absolute paths.
# LIBVMAF_VK_FFMPEG_SKIP (numbers, e.g. "0004 0005") leaves patches out, for
# builds that measure what a patch does; build.sh says so, and the build key
# (made from these files) differs from the whole series'.
ffmpeg_series_files() {
  local f n
  [ -f "$ffmpeg_series_dir/series.txt" ] || die "missing $ffmpeg_series_dir/series.txt"
  grep -v -e '^#' -e '^[[:space:]]*$' "$ffmpeg_series_dir/series.txt" | while read -r f; do
    for n in ${LIBVMAF_VK_FFMPEG_SKIP:-}; do
      [ "${f%%-*}" != "$n" ] || continue 2
    done
    echo "$ffmpeg_series_dir/$f"
  done
}

# One hash over series.txt and every patch it names.
ffmpeg_series_hash() {
  { cat "$ffmpeg_series_dir/series.txt"; ffmpeg_series_files | xargs -r cat; } | sha256sum | cut -d' ' -f1
}

# Makes DIR a git repository whose first commit (tagged $ffmpeg_base_tag) is the
# tarball exactly as released.
ffmpeg_make_base_tree() {
  local tarball=$1 dir=$2
  rm -rf "$dir" "$dir.tmp"
  mkdir -p "$dir.tmp"
  tar -xf "$tarball" -C "$dir.tmp" --strip-components=1 || die "could not unpack $tarball"
  (
    cd "$dir.tmp"
    git init -q -b main
    # -f: the tarball holds files FFmpeg's own .gitignore lists; keep them all.
    git add -A -f
    GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
      git "${ffmpeg_git_ident[@]}" commit -q --no-verify -m "FFmpeg $ffmpeg_version ($ffmpeg_orig, sha256 $ffmpeg_orig_sha256)"
    git tag "$ffmpeg_base_tag"
  ) || die "could not make a git tree of $tarball"
  mv "$dir.tmp" "$dir"
}

# The pristine tree (base/, the tarball as one tagged commit), made once.
ffmpeg_base_tree() {
  local tarball=$1 dir=$ffmpeg_vcache/base
  if ! git -C "$dir" rev-parse -q --verify "refs/tags/$ffmpeg_base_tag" >/dev/null 2>&1; then
    say "unpacking $ffmpeg_orig into a git tree"
    ffmpeg_make_base_tree "$tarball" "$dir"
  fi
  echo "$dir"
}

# Brings the build's source tree (src/, a clone of base/ sharing its objects) to
# base + series (git am), touching only the files that differ, so that an
# unchanged tree keeps its timestamps and make rebuilds little. Prints its path.
ffmpeg_prepare_tree() {
  local tarball=$1 dir=$ffmpeg_vcache/src base want have
  base=$(ffmpeg_base_tree "$tarball")
  want=$(ffmpeg_series_hash)
  if ! git -C "$dir" rev-parse -q --verify "refs/tags/$ffmpeg_base_tag" >/dev/null 2>&1; then
    rm -rf "$dir"
    git clone -q --shared "$base" "$dir" || die "could not clone $base"
  fi
  have=$(cat "$dir/.git/libvmaf-vk-series" 2>/dev/null || true)
  if [ "$have" = "$want" ] && git -C "$dir" diff --quiet HEAD; then
    echo "$dir"
    return
  fi
  say "applying the series ($(ffmpeg_series_files | wc -l) patches)"
  git -C "$dir" am --abort >/dev/null 2>&1 || true
  git -C "$dir" checkout -q -f -B libvmaf-vk "$ffmpeg_base_tag" || die "could not reset $dir"
  git -C "$dir" clean -q -f -d
  local p
  while read -r p; do
    [ -f "$p" ] || die "series.txt names $(basename "$p"), which is not in ffmpeg-patches/"
    git -C "$dir" "${ffmpeg_git_ident[@]}" am -q --committer-date-is-author-date "$p" >/dev/null 2>&1 ||
      { git -C "$dir" am --abort >/dev/null 2>&1; die "$(basename "$p") does not apply to FFmpeg $ffmpeg_version"; }
  done < <(ffmpeg_series_files)
  echo "$want" >"$dir/.git/libvmaf-vk-series"
  echo "$dir"
}
