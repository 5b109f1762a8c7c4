#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Pairs per second of `python -m vmafvk.batch` on a catalog made of the golden pairs
# (tests/data) replicated to about 200 pairs (vmaf_v0.6.1, 10 frames each, 176x144
# to 322x186), beside the vmaf tool run one pair at a time in a shell loop:
#   cli-gpu-loop     vmaf --backend vulkan --vulkan_device N, one pair after the other
#   cli-cpu-loop     vmaf --backend cpu, one pair after the other
#   batch-1gpu       batch, one GPU worker (one process, one Vulkan device), no CPU worker
#   batch-1gpu+cpu   batch, one GPU worker and CPU_WORKERS CPU workers (default: the
#                    batch's --cpu-workers auto)
#   batch-cpu        batch, no GPU worker, nproc CPU workers
#   batch-1gpu-tool  batch-1gpu with --scorer tool (a vmaf process and device per pair)
#   batch-cpu-tool   batch-cpu with --scorer tool (a vmaf process per pair)
# The GPU batch modes (batch-1gpu*) run once for each value of GPU_PAIRS (the GPU
# worker's --gpu-pairs: pairs it scores at once). Every run's results are checked
# against the first run's JSON for the same pair (same scores, "fps" aside). Prints
# a markdown table (with the CPU seconds the mode took, user and system, all its
# processes together), then each batch's per-worker line (pairs in process, processes,
# Vulkan devices created, pairs at once, ms a pair by phase).
#   scripts/bench_batch.sh
#   GPU_PAIRS="1 4 8" MODES="batch-cpu batch-1gpu batch-1gpu+cpu" scripts/bench_batch.sh
# Env: BUILD_DIR (default build), REPLICAS (copies of each golden pair, default 20),
#      GPUS (the --gpus of the GPU modes: default auto, i.e. the first GPU that is not
#      a CPU implementation; a lavapipe machine needs GPUS=0), CPU_WORKERS, CPU_NICE
#      (--cpu-nice of batch-1gpu+cpu; default: the batch's),
#      MODES (default: cli-cpu-loop batch-1gpu batch-1gpu+cpu batch-cpu batch-cpu-tool),
#      GPU_PAIRS (--gpu-pairs of the GPU batch modes: one value, or several separated by
#      spaces; default: the batch's default),
#      OUT (keep the catalog and results there), VMAF_MODEL_DIR (models, if the
#      build's model_dir is not where they are), PYTHON (default /usr/bin/python3).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-build}
cli=$root/$build/core/tools/vmaf
lib=$root/$build/core/src/libvmaf.so
replicas=${REPLICAS:-20}
gpus=${GPUS:-auto}
cores=$(nproc)
cpu_workers=${CPU_WORKERS:-auto}
cpu_nice=${CPU_NICE:-}
modes=${MODES:-cli-cpu-loop batch-1gpu batch-1gpu+cpu batch-cpu batch-cpu-tool}
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
export PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH}
gpu_pairs=${GPU_PAIRS:-$("$python" -c 'from vmafvk import batch; print(batch.DEFAULT_GPU_PAIRS)')}
for p in $gpu_pairs; do
  case $p in
    '' | *[!0-9]* | 0) echo "bench_batch: GPU_PAIRS: $p is not a number of pairs (1 or more)" >&2; exit 1 ;;
  esac
done

[ -x "$cli" ] || { echo "bench_batch: no $cli (build first, or set BUILD_DIR)" >&2; exit 1; }
# Without numpy the workers would hand every pair to the tool: not what is measured.
"$python" -c 'import numpy' 2> /dev/null ||
  { echo "bench_batch: $python has no numpy (python3-numpy): the batch would not score in process" >&2; exit 1; }
export VMAFVK_LIBRARY=$lib VMAFVK_CLI=$cli
if [ -n "${OUT:-}" ]; then
  out=$OUT
  rm -rf "$out"
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

# The GPU worker the batch would pick: its index, for the shell loop's --vulkan_device.
device=$("$python" -c '
import sys
from vmafvk import batch
devices, why = batch.list_devices(sys.argv[1])
chosen, _ = batch.select_gpus(devices, sys.argv[2])
print(chosen[0]["index"] if chosen else "")' "$cli" "${gpus%%,*}")
if [ -z "$device" ]; then
  echo "bench_batch: --gpus ${gpus%%,*} selects no Vulkan device; GPU modes are skipped" >&2
  modes=$(echo "$modes" | tr ' ' '\n' | grep -v gpu | tr '\n' ' ')
else
  gpus=$device
  echo "bench_batch: GPU = Vulkan device $device" >&2
fi

# The catalog: name,reference,distorted, REPLICAS copies of every golden pair.
csv=$out/pairs.csv
echo "name,reference,distorted" > "$csv"
n=0
for r in $(seq -w 1 "$replicas"); do
  for ref in "$root"/tests/data/*_ref.y4m; do
    base=$(basename "$ref" _ref.y4m)
    echo "${base}_r$r,$ref,${ref%_ref.y4m}_dis.y4m" >> "$csv"
    n=$((n + 1))
  done
done
echo "bench_batch: $n pairs, $cores cores, CPU workers beside the GPU one: $cpu_workers" >&2

now() { date +%s.%N; }
rows=()
workers=()
add_row() {  # mode, pairs at once, pairs, seconds, CPU seconds
  rows+=("| $1 | $2 | $3 | $4 | $(awk -v n="$3" -v s="$4" 'BEGIN { printf "%.2f", n / s }') | $5 | $(awk -v n="$3" -v c="$5" 'BEGIN { printf "%.1f", c * 1000 / n }') |")
}
# Sets cpu_now: the CPU seconds (user + system) of this shell's finished children
# so far, the tool processes of a loop, the batch with its workers (each waited
# for by its parent). `times` runs in this shell: a command substitution's
# subshell has no children of its own.
child_cpu() {
  times > "$out/.times"
  cpu_now=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } printf "%.3f", s }' "$out/.times")
}

loop() {  # the vmaf tool on each pair in turn, into $out/$1/NAME.json
  local dir=$out/$1; shift
  mkdir -p "$dir"
  tail -n +2 "$csv" | while IFS=, read -r name ref dis; do
    "$cli" -r "$ref" -d "$dis" "$@" -q --json -o "$dir/$name.json" > /dev/null
  done
}

reference=''
runs=()  # MODE:GPU_PAIRS, "-" for a mode without a GPU worker
for mode in $modes; do
  case $mode in
    batch-1gpu*) for p in $gpu_pairs; do runs+=("$mode:$p"); done ;;
    *) runs+=("$mode:-") ;;
  esac
done
for run in "${runs[@]}"; do
  mode=${run%:*} p=${run##*:}
  case $mode in
    cli-gpu-loop) args=(--backend vulkan --vulkan_device "$device") ;;
    cli-cpu-loop) args=(--backend cpu) ;;
    batch-1gpu) args=(--gpus "$gpus" --cpu-workers 0) ;;
    batch-1gpu+cpu) args=(--gpus "$gpus" --cpu-workers "$cpu_workers" ${cpu_nice:+--cpu-nice "$cpu_nice"}) ;;
    batch-cpu) args=(--gpus none --cpu-workers "$cores") ;;
    batch-1gpu-tool) args=(--gpus "$gpus" --cpu-workers 0 --scorer tool) ;;
    batch-cpu-tool) args=(--gpus none --cpu-workers "$cores" --scorer tool) ;;
    *) echo "bench_batch: unknown mode $mode" >&2; exit 1 ;;
  esac
  dir=$mode label=$mode
  if [ "$p" != - ]; then
    args+=(--gpu-pairs "$p")
    dir=$mode-p$p label="$mode --gpu-pairs $p"
  fi
  child_cpu; c0=$cpu_now t0=$(now)
  case $mode in
    cli-*) loop "$dir" "${args[@]}" ;;
    *) "$python" -m vmafvk.batch "$csv" -o "$out/$dir" "${args[@]}" 2> "$out/$dir.log" ||
         { cat "$out/$dir.log" >&2; exit 1; } ;;
  esac
  t1=$(now); child_cpu; c1=$cpu_now
  add_row "$mode" "$p" "$n" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" \
    "$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", b - a }')"
  case $mode in
    batch-*) workers+=("$label: $(grep -E '^batch: gpu0:' "$out/$dir.log" || true)")
             workers+=("$label: $(grep -E '^batch: cpu0:' "$out/$dir.log" || true)") ;;
  esac
  if [ -z "$reference" ]; then
    reference=$out/$dir
  else
    "$python" - "$reference" "$out/$dir" "$csv" <<'EOF'
import csv, json, os, sys
a, b, catalog = sys.argv[1:]
names = [r["name"] for r in csv.DictReader(open(catalog))]
for name in names:
    x, y = (json.load(open(os.path.join(d, name + ".json"))) for d in (a, b))
    x.pop("fps", None), y.pop("fps", None)
    if x != y:
        sys.exit(f"bench_batch: {name}: {b} differs from {a}")
EOF
  fi
done

echo "| mode | --gpu-pairs | pairs | seconds | pairs/s | CPU seconds | CPU ms a pair |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
printf '%s\n' "${workers[@]}" | grep -v ': $' || true
echo "bench_batch: every mode's scores are identical to $(basename "$reference")'s" >&2
