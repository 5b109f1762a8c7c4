# SPDX-License-Identifier: BSD-2-Clause-Patent
"""vmaf_bench --features and --profile (Python 3 standard library only).

Run as: python3 bench_features.py VMAF_BENCH VMAF_TOOL VULKAN(0|1)

On a 4-frame synthetic pair that vmaf_bench writes itself:
- `--features aom_ctc` computes what `vmaf --aom_ctc v7.0` computes: the same
  score names (model scores included) and the same means, in the cpu mode and in
  the Vulkan modes (vulkan-host, vulkan-import), whose GPU and CPU feature lists
  together are the cpu mode's;
- `--profile` reports upload, every GPU feature and readback, none negative,
  summing to no more than the frame's GPU time; without timestamps (or in the
  cpu mode) it reports none;
- `--feature` beside `--features` adds to the set, alone it means no model;
- an unknown set is a usage error;
- the timed window's system-clock times span the timed run.
Exit 77 (skipped) for the Vulkan part where no Vulkan device can be used.
"""
import json
import re
import os
import subprocess
import sys
import tempfile

W, H, FRAMES = 256, 176, 4
TOL = 1e-6


def run(args, env=None, ok=True):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(args, capture_output=True, text=True, timeout=300, env=e)
    if ok and p.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(args)}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


def check(cond, what):
    if not cond:
        raise SystemExit(f"FAIL: {what}")
    print(f"ok: {what}")


def main():
    bench, tool, vulkan = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    tmp = tempfile.TemporaryDirectory(prefix="vmaf-bench-test-")
    ref, dist = os.path.join(tmp.name, "r.y4m"), os.path.join(tmp.name, "d.y4m")
    run([bench, "--write-y4m", ref, dist, "--width", str(W), "--height", str(H), "--frames", str(FRAMES)])

    # The oracle: the vmaf tool's own --aom_ctc v7.0 on the same frames.
    out = os.path.join(tmp.name, "cli.json")
    run([tool, "-r", ref, "-d", dist, "--aom_ctc", "v7.0", "-q", "--json", "-o", out])
    with open(out) as f:
        cli = json.load(f)
    names = set()
    for frame in cli["frames"]:
        names |= set(frame["metrics"])
    means = {n: cli["pooled_metrics"][n]["mean"] for n in names}
    check({"vmaf", "vmaf_neg", "psnr_y", "ciede2000", "float_ssim", "float_ms_ssim", "psnr_hvs", "cambi"} <= names,
          f"the vmaf tool's --aom_ctc v7.0 gives the preset's scores ({len(names)} names)")

    def bench_run(mode, *extra, env=None):
        j = os.path.join(tmp.name, f"{mode}.json")
        args = [bench, "--mode", mode, "--ref", ref, "--dist", dist, "--ring", str(FRAMES), "--warmup", "1",
                "--frames", str(FRAMES - 1), "--json", j, *extra]
        if mode != "cpu" and os.environ.get("VMAF_TEST_VULKAN_NO_VALIDATION") != "1":
            args.append("--validation")
        p = run(args, env=env, ok=False)
        if p.returncode != 0:
            return p, None
        with open(j) as f:
            return p, json.load(f)

    def check_set(mode, p, res):
        check(res["features"] == "aom_ctc v7.0", f"{mode}: the output names the set ({res['features']})")
        check("features: aom_ctc v7.0" in p.stdout, f"{mode}: the text output names the set")
        got = res["score_means"]
        check(set(got) == names, f"{mode}: the same score names as the vmaf tool "
              f"(missing {sorted(names - set(got))}, extra {sorted(set(got) - names)})")
        worst = max(abs(got[n] - means[n]) for n in names)
        check(worst <= TOL, f"{mode}: every mean within {TOL} of the vmaf tool's (worst {worst:.2e})")
        check(abs(res["model_means"]["vmaf"] - means["vmaf"]) <= TOL and
              abs(res["model_means"]["vmaf_neg"] - means["vmaf_neg"]) <= TOL, f"{mode}: both models' means")

    p, cpu = bench_run("cpu", "--features", "aom_ctc", "--profile")
    if cpu is None:
        raise SystemExit(f"FAIL: cpu mode:\n{p.stdout}\n{p.stderr}")
    check_set("cpu", p, cpu)
    check(cpu["gpu_features"] == [] and {"psnr", "ciede", "float_ssim", "float_ms_ssim", "psnr_hvs", "cambi", "vif",
                                         "adm", "motion"} == set(cpu["cpu_features"]),
          f"cpu: every extractor on the CPU ({', '.join(cpu['cpu_features'])})")
    check(cpu["profile"] is None and "GPU profile: none" in p.stdout, "cpu: --profile reports no GPU profile")
    # The timed window on the system clock (scripts/bench_processes.sh checks
    # that runs of several processes overlap with it): as long as the timed run.
    window = cpu["timed_to"] - cpu["timed_from"]
    check(cpu["timed_from"] > 1.6e9 and abs(window - cpu["wall_s"]) <= 0.01 + 0.01 * cpu["wall_s"],
          f"cpu: the timed window ({window:.4f} s) on the system clock is the timed run ({cpu['wall_s']:.4f} s)")

    # --feature beside an explicit --features adds to the set (one pass); alone
    # it means those features and no model.
    p, both = bench_run("cpu", "--features", "vmaf", "--feature", "float_psnr")
    check(both is not None and both["features"] == "vmaf + float_psnr" and "vmaf" in both["model_means"] and
          {"adm", "vif", "motion", "psnr", "float_psnr"} == set(both["cpu_features"]),
          f"cpu: --features vmaf --feature float_psnr scores the set and the feature ({both and both['features']})")
    p, alone = bench_run("cpu", "--feature", "float_psnr")
    check(alone is not None and alone["features"] == "feature float_psnr" and not alone["model_means"] and
          alone["cpu_features"] == ["float_psnr"], "cpu: --feature alone scores that feature and no model")

    bad = run([bench, "--mode", "cpu", "--features", "no_such_set", "--frames", "1"], ok=False)
    check(bad.returncode == 2 and "--features" in bad.stderr, "an unknown set is a usage error")

    if not vulkan:
        print("built without Vulkan: the cpu mode only")
        return 0
    for mode in ("vulkan-host", "vulkan-import"):
        p, res = bench_run(mode, "--features", "aom_ctc", "--profile")
        if res is None:
            if "no usable Vulkan device" in p.stderr or "no Vulkan device" in p.stderr:
                print(f"skip: {p.stderr.strip()}")
                return 77
            raise SystemExit(f"FAIL: {mode}:\n{p.stdout}\n{p.stderr}")
        check_set(mode, p, res)
        gpu, cpu_side = res["gpu_features"], res["cpu_features"]
        check(sorted(gpu + cpu_side) == sorted(cpu["cpu_features"]) and not set(gpu) & set(cpu_side),
              f"{mode}: GPU ({', '.join(gpu)}) and CPU ({', '.join(cpu_side)}) split the set")
        check(f"on the GPU: {', '.join(gpu) if gpu else 'none'}" in p.stdout, f"{mode}: the text says what ran where")
        # Every feature of the set has a GPU twin: no CPU feature, no host copies.
        check(not cpu_side and not res["cpu_from_gpu_copies"], f"{mode}: every feature of the set on the GPU")
        prof = res["profile"]
        if prof is None:
            check("no timestamps" in p.stdout, f"{mode}: no profile, and the output says the queue has no timestamps")
            continue
        parts = prof["parts"]
        check(parts[0]["part"] == "upload" and parts[-1]["part"] == "readback",
              f"{mode}: the profile starts with the upload and ends with the readback")
        check(not any(q["part"] == "host copy" for q in parts), f"{mode}: no host copy part")
        # An instance serving several features is one part named after each ('+').
        profiled = {f for q in parts if q["stage"] is not None for f in q["part"].split("+")}
        check(profiled == set(gpu), f"{mode}: a profile part for every GPU feature ({', '.join(sorted(profiled))})")
        for q in parts:
            if q["stage"] is not None and q["stage"] > 0:
                check(any(r["part"] == q["part"] and r["stage"] == q["stage"] - 1 for r in parts),
                      f"{mode}: {q['part']} stage {q['stage']} follows its stage {q['stage'] - 1}")
        check(all(q["ms"] >= 0 for q in parts), f"{mode}: no part takes negative time")
        total = sum(q["ms"] for q in parts)
        check(prof["frames"] == FRAMES - 1 and total <= prof["total_ms"] * (1 + 1e-5) + 1e-5,
              f"{mode}: the parts ({total:.4f} ms) sum to no more than the frame ({prof['total_ms']:.4f} ms)")
        check(abs(prof["total_ms"] - res["gpu_ms_per_frame"]) <= 1e-5,
              f"{mode}: the profile's frame time is the GPU ms/frame")

    # The queue family the program shares with the library in vulkan-import:
    # named in the output; a graphics one on request (a renderer's).
    bad = run([bench, "--mode", "vulkan-import", "--import-queue", "video", "--frames", "1"], ok=False)
    check(bad.returncode == 2 and "--import-queue" in bad.stderr, "an unknown --import-queue is a usage error")
    for queue, want in (("graphics", "(graphics and compute)"), ("compute", "(")):
        p, res = bench_run("vulkan-import", "--import-queue", queue)
        check(res is not None and re.search(r", queue family \d+ \(", res["device"]) and want in res["device"],
              f"vulkan-import --import-queue {queue}: the device names the queue family ({res and res['device']})")

    # A feature without a GPU twin beside the set: with imports it reads host
    # copies the GPU makes, and the profile has a part for them.
    for mode in ("vulkan-host", "vulkan-import"):
        p, res = bench_run(mode, "--features", "vmaf", "--feature", "float_psnr", "--profile")
        check(res is not None and res["cpu_features"] == ["float_psnr"], f"{mode} + float_psnr: float_psnr on the CPU")
        check(res["cpu_from_gpu_copies"] == (mode == "vulkan-import"),
              f"{mode} + float_psnr: it reads {'GPU-made host copies' if mode == 'vulkan-import' else 'host pictures'}")
        if res["profile"] is not None:
            check((mode == "vulkan-import") == any(q["part"] == "host copy" for q in res["profile"]["parts"]),
                  f"{mode} + float_psnr: a host copy part exactly where it reads GPU-made copies")

    # A queue without timestamps: the profile is none, said so; the scores stand.
    p, res = bench_run("vulkan-host", "--features", "aom_ctc", "--profile", env={"VMAF_VULKAN_TIMESTAMPS": "0"})
    check(res is not None and res["profile"] is None and "no timestamps" in p.stdout,
          "vulkan-host without timestamps: no profile, and the output says why")
    check_set("vulkan-host without timestamps", p, res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
