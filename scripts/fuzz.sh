#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Builds the libFuzzer targets (tests/fuzz, into build-fuzz/ with clang,
# -Dfuzzing=true, CPU only) and runs each for SECONDS on a scratch copy of its
# seed corpus (tests/fuzz/corpus/<target>/ is never modified). Fails on any
# finding: a crash, a sanitizer report (AddressSanitizer, LeakSanitizer,
# UndefinedBehaviorSanitizer, which aborts on the first report), an input that
# runs longer than FUZZ_TIMEOUT (30) seconds or needs more than FUZZ_RSS_MB (2048) MiB.
# Prints per target: executions, executions per second, coverage (libFuzzer's
# cov:) and the new units found.
#   bash scripts/fuzz.sh 60                  # every target for 60 s, one at a time
#   FUZZ_TARGETS="model api" bash scripts/fuzz.sh 300
#   FUZZ_JOBS=2 bash scripts/fuzz.sh 60      # two targets at a time
#   FUZZ_BUILD_ONLY=1 bash scripts/fuzz.sh 1 # build the targets, run nothing
# A finding leaves its input in build-fuzz/artifacts/; replay it with
#   build-fuzz/tests/fuzz/fuzz_<target> build-fuzz/artifacts/<file>
# New corpus units stay in the scratch directory (printed); they are not
# added to the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: $0 SECONDS" >&2
  exit 2
fi
all_targets=(video_reader model feature_options cli_options output api)
read -r -a targets <<< "${FUZZ_TARGETS:-${all_targets[*]}}"
jobs=${FUZZ_JOBS:-1}
build_dir=build-fuzz

# clang with libFuzzer and the sanitizer runtimes, and the library's build
# dependencies (Debian packages).
packages=(clang meson ninja-build pkg-config nlohmann-json3-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "fuzz: missing Debian packages (run as root or install them): ${missing[*]}" >&2
    exit 1
  fi
  echo "fuzz: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -d "$build_dir" ]; then
  CC=clang CXX=clang++ meson setup "$build_dir" -Dfuzzing=true -Dvulkan=disabled -Dvaapi=disabled \
    -Dtests=false -Dbuildtype=debugoptimized -Db_ndebug=false >/dev/null
fi
# Only the fuzz targets and what they link.
ninja -C "$build_dir" "${targets[@]/#/tests/fuzz/fuzz_}"
[ "${FUZZ_BUILD_ONLY:-0}" = 0 ] || exit 0

scratch=$(mktemp -d "${TMPDIR:-/tmp}/vmaf-fuzz.XXXXXX")
artifacts=$build_dir/artifacts
mkdir -p "$artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

run_target() {
  local t=$1 dir=$scratch/$1
  mkdir -p "$dir/corpus"
  cp tests/fuzz/corpus/"$t"/* "$dir/corpus/"
  local seeds
  seeds=$(find "$dir/corpus" -type f | wc -l)
  set +e
  "$build_dir/tests/fuzz/fuzz_$t" "$dir/corpus" \
    -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -max_len="${FUZZ_MAX_LEN:-4096}" -print_final_stats=1 -artifact_prefix="$artifacts/$t-" \
    > "$dir/log" 2>&1
  echo $? > "$dir/rc"
  set -e
  echo "$seeds" > "$dir/seeds"
}

report() {
  local t=$1 dir=$scratch/$1 rc execs rate cov units
  rc=$(cat "$dir/rc")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
  units=$(sed -n 's/^stat::new_units_added: *//p' "$dir/log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -1 | cut -d' ' -f2)
  printf '%-16s %8s %12s %8s %8s %10s  %s\n' "$t" "${seconds}s" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
    "${units:-?}" "$([ "$rc" = 0 ] && echo ok || echo "FINDING (exit $rc)")"
}

pids=()
for t in "${targets[@]}"; do
  if [ ! -d "tests/fuzz/corpus/$t" ]; then
    echo "fuzz: no target $t (targets: ${all_targets[*]})" >&2
    exit 2
  fi
  echo "fuzz: $t for ${seconds}s"
  run_target "$t" &
  pids+=($!)
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
done
wait

failed=()
printf '\n%-16s %8s %12s %8s %8s %10s  %s\n' target time executions exec/s cov new_units result
for t in "${targets[@]}"; do
  report "$t"
  [ "$(cat "$scratch/$t/rc")" = 0 ] || failed+=("$t")
done
for t in "${failed[@]}"; do
  echo
  echo "==== fuzz_$t: finding (log $scratch/$t/log)"
  grep -E 'ERROR|SUMMARY|runtime error|vmaf fuzz:|Test unit written|^    #[0-9]' "$scratch/$t/log" | head -30
done
echo
echo "fuzz: corpora and logs in $scratch"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in: ${failed[*]} (inputs in $artifacts/)" >&2
  exit 1
fi
