#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The FFmpeg patch series of one base, ffmpeg-patches/<major.minor>/ (see
# ffmpeg-patches/README.md); FFMPEG_VERSION picks it: 9.0.2 (default) or 8.1.2.
#
#   scripts/ffmpeg/series.sh check        # every patch applies, in order, with
#                                         # git apply --check on the pinned tree
#   scripts/ffmpeg/series.sh checkout DIR # DIR: a git clone of the pinned tree with
#                                         # the series applied as commits, to edit
#   scripts/ffmpeg/series.sh export DIR   # DIR's commits since the base tag become
#                                         # the base's *.patch and series.txt
#
# The pinned tree is the base's orig tarball from Debian's ffmpeg source package,
# fetched and hash-checked as scripts/ffmpeg/build.sh does (same cache).
set -euo pipefail
export ffmpeg_script_name=ffmpeg-series
# The series tools always work on the whole series.
unset LIBVMAF_VK_FFMPEG_SKIP
# shellcheck source=scripts/ffmpeg/lib.sh
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

base_tree() {
  local tarball
  tarball=$(ffmpeg_fetch_source)
  ffmpeg_base_tree "$tarball"
}

# series.txt names exactly the .patch files there are, and its base lines match
# the pin in lib.sh.
check_listing() {
  local listed present sha
  listed=$(ffmpeg_series_files | xargs -r -n1 basename | sort)
  present=$(cd "$ffmpeg_series_dir" && ls -1 -- *.patch 2>/dev/null | sort || true)
  [ "$listed" = "$present" ] ||
    die "series.txt and ${ffmpeg_series_dir#"$ffmpeg_root"/}/*.patch disagree: $(diff <(echo "$listed") <(echo "$present") | grep '^[<>]' | tr '\n' ' ')"
  sha=$(sed -n 's/^# base-sha256: *//p' "$ffmpeg_series_dir/series.txt")
  [ "$sha" = "$ffmpeg_orig_sha256" ] ||
    die "series.txt says base-sha256 '$sha', scripts/ffmpeg/lib.sh pins $ffmpeg_orig_sha256"
}

cmd_check() {
  check_listing
  ffmpeg_lock_cache
  local p n=0 out
  base=$(base_tree)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"; git -C "$base" worktree prune' EXIT
  # A throwaway work tree at the base: each patch is checked, then applied so the
  # next one is checked on top of it.
  git -C "$base" worktree prune
  git -C "$base" worktree add -q --detach "$tmp/tree" "$ffmpeg_base_tag" ||
    die "could not make a work tree of $base"
  while read -r p; do
    if ! out=$(git -C "$tmp/tree" apply --check "$p" 2>&1); then
      die "$(basename "$p") does not apply to FFmpeg $ffmpeg_version: $out"
    fi
    git -C "$tmp/tree" apply --index "$p"
    n=$((n + 1))
    echo "ok $(basename "$p")"
  done < <(ffmpeg_series_files)
  git -C "$base" worktree remove --force "$tmp/tree"
  echo "series: $n patches apply to $ffmpeg_orig (sha256 $ffmpeg_orig_sha256)"
}

cmd_checkout() {
  local dest=$1 base p
  [ ! -e "$dest" ] || die "$dest exists"
  ffmpeg_lock_cache
  base=$(base_tree)
  git clone -q "$base" "$dest"
  git -C "$dest" checkout -q -B libvmaf-vk "$ffmpeg_base_tag"
  # Commits made there are the project's, as the exported patches say.
  git -C "$dest" config user.name "libvmaf-vk developers"
  git -C "$dest" config user.email "libvmaf-vk@users.noreply.invalid"
  while read -r p; do
    git -C "$dest" "${ffmpeg_git_ident[@]}" am -q --committer-date-is-author-date "$p" ||
      die "$(basename "$p") does not apply to FFmpeg $ffmpeg_version"
  done < <(ffmpeg_series_files)
  say "$dest: $(git -C "$dest" rev-list --count "$ffmpeg_base_tag..HEAD") commits on $ffmpeg_base_tag; edit, commit, then: $0 export $dest"
}

cmd_export() {
  local tree=$1 header n
  git -C "$tree" rev-parse -q --verify "refs/tags/$ffmpeg_base_tag" >/dev/null ||
    die "$tree has no tag $ffmpeg_base_tag (make it with: $0 checkout DIR)"
  header=$(grep '^#' "$ffmpeg_series_dir/series.txt" 2>/dev/null || true)
  [ -n "$header" ] || die "series.txt has lost its header lines"
  rm -f "$ffmpeg_series_dir"/*.patch
  # Stable output: no commit ids, no "n/N" numbers, no version signature.
  git -C "$tree" format-patch -q --zero-commit --no-signature --no-numbered --no-cover-letter \
    -o "$ffmpeg_series_dir" "$ffmpeg_base_tag..HEAD"
  {
    echo "$header"
    (cd "$ffmpeg_series_dir" && ls -1 -- *.patch | sort)
  } >"$ffmpeg_series_dir/series.txt"
  n=$(ffmpeg_series_files | wc -l)
  say "exported $n patches to ${ffmpeg_series_dir#"$ffmpeg_root"/}/"
}

[ $# -ge 1 ] || usage
case $1 in
  check) [ $# -eq 1 ] || usage; cmd_check ;;
  checkout) [ $# -eq 2 ] || usage; cmd_checkout "$2" ;;
  export) [ $# -eq 2 ] || usage; cmd_export "$2" ;;
  *) usage ;;
esac
