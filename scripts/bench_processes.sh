#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Whether one context keeps the GPU busy: the same vmaf_bench run as 1 and as N
# processes started together. If N processes add up to more than one, the GPU
# was partly idle under one context. Each run's timed window (vmaf_bench's JSON
# timed_from/timed_to) is checked against the others': start-up takes seconds
# and varies between processes, so short runs can finish one after the other
# and look twice as fast together; the script says how much the windows overlap
# and fails when they overlap less than 90% of the longest.
#   scripts/bench_processes.sh [vmaf_bench options...]
#   PROCS="1 2 4" scripts/bench_processes.sh --mode vulkan-import --features aom_ctc --frames 3000
# Env: BUILD_DIR (default build), PROCS (process counts, default "1 2"). The
#      options default to --mode vulkan-import --frames 12000 (about 5 s at 1080p
#      on an H100); give enough frames for several seconds per run.
# Prints a markdown table; needs only bash, awk and the built vmaf_bench.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${BUILD_DIR:-build}/core/tools/vmaf_bench
procs=${PROCS:-1 2}
[ $# -gt 0 ] || set -- --mode vulkan-import --frames 12000
[ -x "$bench" ] || { echo "bench_processes.sh: $bench not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One JSON field of a vmaf_bench result (numbers only).
field() { grep -o "\"$2\": [-0-9.e]*" "$1" | head -n1 | awk '{print $2}'; }

echo "vmaf_bench $*"
echo
echo "| processes | fps each | total | x one | timed windows overlap |"
echo "|---:|---|---:|---:|---:|"
one=""
status=0
for n in $procs; do
    pids=()
    for i in $(seq "$n"); do
        "$bench" "$@" --json "$tmp/$n.$i.json" >"$tmp/$n.$i.log" 2>&1 &
        pids+=($!)
    done
    for i in $(seq "$n"); do
        if ! wait "${pids[$((i - 1))]}"; then
            echo "bench_processes.sh: process $i of $n failed:" >&2
            cat "$tmp/$n.$i.log" >&2
            exit 1
        fi
    done
    each="" total=0 from=0 to="" longest=0
    for i in $(seq "$n"); do
        j=$tmp/$n.$i.json
        fps=$(field "$j" fps) a=$(field "$j" timed_from) b=$(field "$j" timed_to)
        each+="${each:+, }$(printf '%.1f' "$fps")"
        total=$(awk -v t="$total" -v f="$fps" 'BEGIN { print t + f }')
        from=$(awk -v x="$from" -v a="$a" 'BEGIN { print (a > x ? a : x) }')
        to=$(awk -v x="$to" -v b="$b" 'BEGIN { print (x == "" || b < x ? b : x) }')
        longest=$(awk -v x="$longest" -v a="$a" -v b="$b" 'BEGIN { print (b - a > x ? b - a : x) }')
    done
    # The time all N timed windows share, as a share of the longest window.
    overlap=$(awk -v f="$from" -v t="$to" -v l="$longest" 'BEGIN { o = (t - f) / l; print (o < 0 ? 0 : o) }')
    [ -n "$one" ] || one=$total
    ratio=$(awk -v t="$total" -v o="$one" 'BEGIN { printf "%.2f", t / o }')
    printf '| %s | %s | %.1f | %s | %.0f%% |\n' "$n" "$each" "$total" "$ratio" \
        "$(awk -v o="$overlap" 'BEGIN { print 100 * o }')"
    if [ "$n" -gt 1 ] && awk -v o="$overlap" 'BEGIN { exit !(o < 0.9) }'; then
        echo "bench_processes.sh: the $n runs overlapped for less than 90% of their timed windows;" \
             "give more frames (--frames)" >&2
        status=1
    fi
done
exit $status
