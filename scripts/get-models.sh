#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Provides Netflix's published VMAF models (libvmaf JSON) in one directory and
# prints that directory on stdout; what it did goes to stderr.
#
#   bash scripts/get-models.sh DEST   # copy or download the models into DEST
#   bash scripts/get-models.sh        # ../shared/models beside the checkout when it
#                                     # has them all, else download into models/
#
# Models come from ../shared/models (relative to the repository root) when present,
# otherwise from Netflix's vmaf repository on GitHub (folder model/, at the commit the
# test data were made with; VMAF_MODELS_REF selects another). The layout is upstream's:
# most models at the top, each v1 family in its folder (vmaf_v1.0.16/, vmaf_v1.0.16_hfr/). Files already in DEST
# are kept, so running it again does nothing. The models are not part of this
# repository: the default download directory ignores itself in git.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared="$root/../shared/models"
[ -d "$shared" ] && shared=$(cd "$shared" && pwd)
ref=${VMAF_MODELS_REF:-f85a853692a8c730d0270cd733c8bb30b5b93b7c}
base_url="https://raw.githubusercontent.com/Netflix/vmaf/$ref/model"
models=(
  vmaf_v0.6.1.json
  vmaf_v0.6.1neg.json
  vmaf_4k_v0.6.1.json
  vmaf_4k_v0.6.1neg.json
  vmaf_b_v0.6.3.json
  vmaf_float_v0.6.1.json
  vmaf_float_v0.6.1neg.json
  vmaf_float_4k_v0.6.1.json
  vmaf_float_b_v0.6.3.json
  # VMAF v1 (2026), in upstream's folder; vmaf_model_load finds them by name there.
  vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json
  vmaf_v1.0.16/vmaf_v1.0.16_5d0h.json
  vmaf_v1.0.16/vmaf_v1.0.16_3d0h_2160.json
  vmaf_v1.0.16/vmaf_v1.0.16_1d5h_2160.json
  # Their high-frame-rate variants (motion3 over a five-frame window, moving average).
  vmaf_v1.0.16_hfr/vmaf_v1.0.16_hfr_3d0h.json
  vmaf_v1.0.16_hfr/vmaf_v1.0.16_hfr_5d0h.json
  vmaf_v1.0.16_hfr/vmaf_v1.0.16_hfr_3d0h_2160.json
  vmaf_v1.0.16_hfr/vmaf_v1.0.16_hfr_1d5h_2160.json
)

say() { echo "get-models: $*" >&2; }

have_all() {
  local m
  for m in "${models[@]}"; do [ -s "$1/$m" ] || return 1; done
}

if [ $# -gt 1 ]; then
  echo "usage: $0 [DEST]" >&2
  exit 2
fi

if [ $# -eq 1 ]; then
  dest=$1
elif [ -d "$shared" ] && have_all "$shared"; then
  say "using the models in $shared"
  echo "$shared"
  exit 0
else
  dest="$root/models"
fi

mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
if [ "$dest" = "$root/models" ] && [ ! -e "$dest/.gitignore" ]; then
  echo '*' > "$dest/.gitignore"
fi

kept=0 copied=0 downloaded=0
for m in "${models[@]}"; do
  mkdir -p "$(dirname "$dest/$m")"
  if [ -s "$dest/$m" ]; then
    kept=$((kept + 1))
  elif [ -s "$shared/$m" ]; then
    cp "$shared/$m" "$dest/$m.part"
    mv "$dest/$m.part" "$dest/$m"
    say "copied $m from $shared"
    copied=$((copied + 1))
  else
    if ! command -v curl > /dev/null; then
      say "curl is needed to download $m"
      exit 1
    fi
    if ! curl -fsSL --retry 3 -o "$dest/$m.part" "$base_url/$m"; then
      rm -f "$dest/$m.part"
      say "could not download $base_url/$m"
      exit 1
    fi
    # A JSON model starts with an object; anything else is an error page.
    if [ "$(head -c 1 "$dest/$m.part")" != "{" ]; then
      rm -f "$dest/$m.part"
      say "$base_url/$m is not a JSON model"
      exit 1
    fi
    mv "$dest/$m.part" "$dest/$m"
    say "downloaded $m"
    downloaded=$((downloaded + 1))
  fi
done
say "$dest: $copied copied, $downloaded downloaded, $kept already there"
echo "$dest"
