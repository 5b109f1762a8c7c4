# SPDX-License-Identifier: BSD-2-Clause-Patent
"""python -m vmafvk.batch: every pair's scores are the vmaf tool's own, locally
(CPU workers, a lavapipe worker) and on a real Dask cluster that loses a worker
mid-run; resume, failures, --gpus selection, CSV naming."""

import csv
import glob
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import PAIRS, pair_paths
from vmafvk import batch

PYTHON = sys.executable
PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def cli():
    try:
        return batch.find_cli()
    except batch.BatchError as e:
        pytest.skip(f"no vmaf tool: {e}")


def tool_env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = PKG_DIR + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def run_batch(*args, env=None, timeout=300):
    return subprocess.run([PYTHON, "-m", "vmafvk.batch", *map(str, args)], env=env or tool_env(),
                          capture_output=True, text=True, timeout=timeout)


def cli_doc(cli, ref, dis, tmp_dir, *extra):
    """The tool run by hand on one pair (its default backend, the CPU)."""
    out = os.path.join(tmp_dir, "direct.json")
    r = subprocess.run([cli, "-r", ref, "-d", dis, *extra, "-q", "--json", "-o", out],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    with open(out) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def direct(cli, tmp_path_factory):
    """{golden pair: the tool's JSON document for it}."""
    d = tmp_path_factory.mktemp("direct")
    return {n: cli_doc(cli, *pair_paths(n), str(d)) for n in PAIRS}


def assert_same_scores(doc, want, what):
    # Everything but "fps" (the run's speed): version, every frame's every score,
    # pooled and aggregate metrics, exactly as the tool wrote them.
    for key in ("version", "frames", "pooled_metrics", "aggregate_metrics"):
        assert doc.get(key) == want.get(key), f"{what}: {key} differs from the tool's own run"
    assert len(doc["frames"]) > 0


def write_csv(path, rows, header=("reference", "distorted", "name")):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow(r)
    return path


def read_summary(out):
    with open(os.path.join(out, "summary.csv"), newline="") as f:
        return list(csv.DictReader(f))


def golden_rows(names=PAIRS, copies=1):
    rows = []
    for c in range(copies):
        for n in names:
            ref, dis = pair_paths(n)
            rows.append((ref, dis, n if copies == 1 else f"{n}_{c:02d}"))
    return rows


def load(out, name):
    with open(os.path.join(out, name + ".json")) as f:
        return json.load(f)


def final_line(stderr):
    return next(l for l in reversed(stderr.splitlines()) if " scored, " in l)


def check_results(out, rows, direct):
    """Every row scored exactly once, identical to the tool's own run; the summary agrees."""
    names = [r[2] for r in rows]
    files = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(out, "*.json")))
    assert files == sorted(names)
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]
    summary = read_summary(out)
    assert [s["name"] for s in summary] == names
    for row, s in zip(rows, summary):
        golden_name = next(n for n in PAIRS if row[2] == n or row[2].startswith(n + "_"))
        doc = load(out, row[2])
        assert_same_scores(doc, direct[golden_name], row[2])
        assert s["status"] == "ok" and s["error"] == ""
        assert int(s["frames"]) == len(doc["frames"])
        assert float(s["vmaf"]) == doc["pooled_metrics"]["vmaf"]["mean"]
        assert float(s["integer_vif_scale0"]) == doc["pooled_metrics"]["integer_vif_scale0"]["mean"]


# ----------------------------------------------------------------- local mode

def test_local_cpu_workers_match_the_tool(lib, direct, tmp_path):
    rows = golden_rows()
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "2")
    assert r.returncode == 0, r.stderr
    check_results(str(out), rows, direct)
    line = final_line(r.stderr)
    assert f"{len(rows)} scored, 0 failed, 0 already scored" in line
    assert "cpu0 " in line and "cpu1 " in line  # both workers took pairs


def lavapipe_index():
    from vmafvk import list_vulkan_devices, vulkan_support
    if not vulkan_support()[0]:
        return None
    return next((d["index"] for d in list_vulkan_devices() if d["usable"] and d["type"] == "cpu"), None)


def test_local_lavapipe_worker_matches_the_tool(lib, direct, tmp_path):
    index = lavapipe_index()
    if index is None:
        pytest.skip("no lavapipe (CPU Vulkan) device")
    rows = golden_rows()
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    # Only the Vulkan worker: every pair is scored with --backend vulkan.
    r = run_batch(pairs, "-o", out, "--gpus", str(index), "--cpu-workers", "0")
    assert r.returncode == 0, r.stderr
    check_results(str(out), rows, direct)
    assert f"(scored by gpu0 {len(rows)})" in final_line(r.stderr)
    # By default a CPU implementation gets no worker, and says so.
    r = run_batch(pairs, "-o", tmp_path / "auto", "--cpu-workers", "1")
    assert r.returncode == 0, r.stderr
    assert "a CPU implementation" in r.stderr and "CPU workers only" in r.stderr
    assert f"(scored by cpu0 {len(rows)})" in final_line(r.stderr)


def lavapipe_twice(tmp_path):
    icds = sorted(glob.glob("/usr/share/vulkan/icd.d/lvp_icd.*.json"))
    if not icds or lavapipe_index() is None:
        pytest.skip("no lavapipe ICD file")
    paths = []
    for i in range(2):
        p = tmp_path / f"lvp{i}.json"
        p.write_text(open(icds[0]).read())
        paths.append(str(p))
    listing = os.pathsep.join(paths)
    return tool_env(VK_DRIVER_FILES=listing, VK_ICD_FILENAMES=listing)


def test_a_device_listed_twice(lib, direct, tmp_path):
    env = lavapipe_twice(tmp_path)
    pairs = write_csv(tmp_path / "pairs.csv", golden_rows(PAIRS[:4]))
    r = run_batch(pairs, "-o", tmp_path / "x", "--list-devices", "--gpus", "all", env=env)
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stdout.splitlines() if l[:1].isdigit()]
    assert len(lines) == 2
    uuids = {l.split(" uuid ")[1].split()[0] for l in lines}
    assert len(uuids) == 1 and "-" not in uuids  # one physical device, listed twice
    assert lines[0].endswith("workers: 1") and lines[1].endswith("workers: 0")
    assert "listed again" in r.stdout
    # Named twice, it gets two workers, each its own process and Vulkan context.
    rows = golden_rows(PAIRS[:6])
    pairs = write_csv(tmp_path / "pairs6.csv", rows)
    out = tmp_path / "two"
    r = run_batch(pairs, "-o", out, "--gpus", "0,1", "--cpu-workers", "0", env=env)
    assert r.returncode == 0, r.stderr
    assert "two workers on one GPU" in r.stderr
    line = final_line(r.stderr)
    assert "gpu0 " in line and "gpu1 " in line, line
    check_results(str(out), rows, direct)


def test_resume_scores_nothing_twice(lib, direct, tmp_path):
    rows = golden_rows(PAIRS[:5])
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "2")
    assert r.returncode == 0, r.stderr
    before = {p: (os.stat(p).st_mtime_ns, open(p).read()) for p in glob.glob(str(out / "*.json"))}
    summary = (out / "summary.csv").read_text()

    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "2")
    assert r.returncode == 0, r.stderr
    assert "0 scored, 0 failed, 5 already scored" in final_line(r.stderr)
    after = {p: (os.stat(p).st_mtime_ns, open(p).read()) for p in glob.glob(str(out / "*.json"))}
    assert after == before
    assert (out / "summary.csv").read_text() == summary

    # A missing result and a truncated one (a run killed while writing) are scored again.
    os.unlink(out / f"{rows[1][2]}.json")
    text = (out / f"{rows[3][2]}.json").read_text()
    (out / f"{rows[3][2]}.json").write_text(text[: len(text) // 2])
    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "1")
    assert r.returncode == 0, r.stderr
    assert "2 scored, 0 failed, 3 already scored" in final_line(r.stderr)
    check_results(str(out), rows, direct)
    assert (out / "summary.csv").read_text() == summary


def test_failed_pairs_are_reported_and_the_rest_scored(lib, direct, tmp_path):
    good = golden_rows(PAIRS[:3])
    small_ref, _ = pair_paths("chelsea_176x144_identical")
    _, other_dis = pair_paths("coffee_320x240_crf28")
    rows = [good[0], (str(tmp_path / "absent.y4m"), good[0][1], "missing"), good[1],
            (small_ref, other_dis, "mismatched"), good[2]]
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "2")
    assert r.returncode == 1, r.stderr
    assert "3 scored, 2 failed" in final_line(r.stderr)
    summary = {s["name"]: s for s in read_summary(str(out))}
    assert list(summary) == [x[2] for x in rows]
    assert summary["missing"]["status"] == "failed"
    assert "exit status 2" in summary["missing"]["error"] and "absent.y4m" in summary["missing"]["error"]
    assert summary["mismatched"]["status"] == "failed"
    assert "exit status 2" in summary["mismatched"]["error"]
    assert summary["missing"]["vmaf"] == "" and summary["missing"]["frames"] == ""
    assert "missing (line 3) failed" in r.stderr and "mismatched (line 5) failed" in r.stderr
    assert not (out / "missing.json").exists() and not (out / "mismatched.json").exists()
    for row in good:
        assert summary[row[2]]["status"] == "ok"
        assert_same_scores(load(str(out), row[2]), direct[row[2]], row[2])


def test_timeout_fails_the_pair(lib, tmp_path):
    pairs = write_csv(tmp_path / "pairs.csv", golden_rows(PAIRS[:1]))
    r = run_batch(pairs, "-o", tmp_path / "out", "--gpus", "none", "--cpu-workers", "1",
                  "--timeout", "0.001")
    assert r.returncode == 1
    assert read_summary(str(tmp_path / "out"))[0]["error"] == "timed out after 0.001 s"


def test_csv_columns_model_features_args(lib, cli, tmp_path):
    ref, dis = pair_paths("coffee_320x240_crf28")
    # Relative paths are relative to the CSV's folder; model, features, args per row.
    os.symlink(os.path.dirname(ref), tmp_path / "data")
    rel_ref = os.path.join("data", os.path.basename(ref))
    rel_dis = os.path.join("data", os.path.basename(dis))
    rows = [(rel_ref, rel_dis, "neg", "version=vmaf_v0.6.1neg:name=vmaf_neg", "psnr", "--subsample 2"),
            (rel_ref, rel_dis, "feat", "none", "psnr;float_ssim", "")]
    pairs = write_csv(tmp_path / "pairs.csv", rows,
                      header=("reference", "distorted", "name", "model", "features", "args"))
    out = tmp_path / "out"
    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "2")
    assert r.returncode == 0, r.stderr
    want = cli_doc(cli, ref, dis, str(tmp_path), "-m", "version=vmaf_v0.6.1neg:name=vmaf_neg",
                   "--feature", "psnr", "--subsample", "2")
    assert_same_scores(load(str(out), "neg"), want, "neg")
    want = cli_doc(cli, ref, dis, str(tmp_path), "-n", "--feature", "psnr", "--feature", "float_ssim")
    assert_same_scores(load(str(out), "feat"), want, "feat")
    summary = {s["name"]: s for s in read_summary(str(out))}
    assert float(summary["neg"]["vmaf_neg"]) == load(str(out), "neg")["pooled_metrics"]["vmaf_neg"]["mean"]
    assert summary["feat"]["vmaf_neg"] == ""
    assert float(summary["feat"]["float_ssim"]) == load(str(out), "feat")["pooled_metrics"]["float_ssim"]["mean"]


# ----------------------------------------------------------------- long-lived workers

def worker_lines(stderr):
    """{slot: (pairs, in process, by the tool, processes, Vulkan devices created)} from the
    per-worker lines the batch prints at the end."""
    out = {}
    for m in re.finditer(r"batch: (\w+): (\d+) pairs \(([^)]*)\) in (\d+) process\(es\), "
                         r"(\d+) Vulkan device\(s\) created", stderr):
        via = dict((k, int(n)) for n, k in re.findall(r"(\d+) (in process|by the tool)", m.group(3)))
        out[m.group(1)] = (int(m.group(2)), via.get("in process", 0), via.get("by the tool", 0),
                           int(m.group(4)), int(m.group(5)))
    return out


def check_golden(out, rows):
    """Every per-frame score the batch wrote is Netflix libvmaf's (golden JSON, which has
    more digits than the 6 decimals the tool prints: they differ by the rounding only)."""
    from conftest import golden_path
    for row in rows:
        name = next(n for n in PAIRS if row[2] == n or row[2].startswith(n + "_"))
        with open(golden_path(name)) as f:
            want = json.load(f)["frames"]
        got = load(out, row[2])["frames"]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            shared = set(g["metrics"]) & set(w["metrics"])
            assert "vmaf" in shared and "integer_adm2" in shared and "integer_vif_scale0" in shared
            for k in shared:
                assert abs(g["metrics"][k] - w["metrics"][k]) <= 5e-7 + 1e-12, (row[2], k)


def test_gpu_worker_keeps_one_device(lib, direct, tmp_path):
    index = lavapipe_index()
    if index is None:
        pytest.skip("no lavapipe (CPU Vulkan) device")
    rows = golden_rows()
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    r = run_batch(pairs, "-o", out, "--gpus", str(index), "--cpu-workers", "0")
    assert r.returncode == 0, r.stderr
    # One process scored every pair in process, on the one device it created.
    assert worker_lines(r.stderr) == {"gpu0": (len(rows), len(rows), 0, 1, 1)}, r.stderr
    check_results(str(out), rows, direct)  # the CPU tool's own documents
    check_golden(str(out), rows)


def test_cpu_workers_in_process_and_by_the_tool(lib, direct, tmp_path):
    rows = golden_rows()
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    for scorer, via in (("bindings", (len(rows), 0)), ("tool", (0, len(rows)))):
        out = tmp_path / scorer
        r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "1", "--scorer", scorer)
        assert r.returncode == 0, r.stderr
        assert worker_lines(r.stderr) == {"cpu0": (len(rows), *via, 1, 0)}, r.stderr
        check_results(str(out), rows, direct)


def test_a_pair_that_kills_or_hangs_its_worker_costs_that_pair(lib, direct, tmp_path):
    rows = golden_rows()
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    crash, leave, hang = PAIRS[1], PAIRS[4], PAIRS[7]
    env = tool_env(VMAFVK_BATCH_FAULT=f"{crash}=crash,{leave}=exit,{hang}=hang")
    # One worker: every later pair proves that it was started again.
    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "1", "--timeout", "15", env=env)
    assert r.returncode == 1, r.stderr
    assert f"{len(rows) - 3} scored, 3 failed" in final_line(r.stderr)
    summary = {s["name"]: s for s in read_summary(str(out))}
    assert summary[crash]["status"] == "failed"
    assert summary[crash]["error"].startswith("the worker process died (killed by SIGABRT)")
    assert summary[leave]["error"].startswith("the worker process died (exit status 3)")
    assert summary[hang]["error"] == "timed out after 15 s"
    assert worker_lines(r.stderr)["cpu0"][3] == 4  # the first process and three new ones
    ok = [row for row in rows if row[2] not in (crash, leave, hang)]
    for row in ok:
        assert summary[row[2]]["status"] == "ok"
        assert_same_scores(load(str(out), row[2]), direct[row[2]], row[2])
    for name in (crash, leave, hang):
        assert not (out / f"{name}.json").exists()
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]


def test_a_pair_that_fails_in_process_goes_to_the_tool(lib, direct, tmp_path):
    index = lavapipe_index()
    if index is None:
        pytest.skip("no lavapipe (CPU Vulkan) device")
    rows = golden_rows(PAIRS[:3])
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    victim = rows[0][2]
    # One pair at a time, so that the pairs after the failure start after it.
    r = run_batch(pairs, "-o", out, "--gpus", str(index), "--cpu-workers", "0", "--gpu-pairs", "1",
                  env=tool_env(VMAFVK_BATCH_FAULT=f"{victim}=raise"))
    assert r.returncode == 0, r.stderr
    assert f"gpu0: {victim} went to the vmaf tool: failed in process: RuntimeError" in r.stderr
    # One process; the failure cost its device, so the next pairs had a second one.
    assert worker_lines(r.stderr) == {"gpu0": (3, 2, 1, 1, 2)}, r.stderr
    check_results(str(out), rows, direct)


def test_gpu_worker_crash_then_resume(lib, direct, tmp_path):
    index = lavapipe_index()
    if index is None:
        pytest.skip("no lavapipe (CPU Vulkan) device")
    rows = golden_rows(PAIRS[:4])
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    victim = rows[1][2]
    # One pair at a time (the pairs in flight with a crash: test_pairs_at_once_*).
    r = run_batch(pairs, "-o", out, "--gpus", str(index), "--cpu-workers", "0", "--gpu-pairs", "1",
                  env=tool_env(VMAFVK_BATCH_FAULT=f"{victim}=crash"))
    assert r.returncode == 1, r.stderr
    assert "3 scored, 1 failed" in final_line(r.stderr)
    # The crash cost a process and its device: two of each for four pairs.
    assert worker_lines(r.stderr) == {"gpu0": (4, 3, 0, 2, 2)}, r.stderr
    assert not (out / f"{victim}.json").exists()
    before = {p: (os.stat(p).st_ino, os.stat(p).st_mtime_ns, open(p).read())
              for p in glob.glob(str(out / "*.json"))}
    assert len(before) == 3

    # The same command without the fault scores only the failed pair.
    r = run_batch(pairs, "-o", out, "--gpus", str(index), "--cpu-workers", "0")
    assert r.returncode == 0, r.stderr
    assert "1 scored, 0 failed, 3 already scored" in final_line(r.stderr)
    assert worker_lines(r.stderr) == {"gpu0": (1, 1, 0, 1, 1)}, r.stderr
    after = {p: (os.stat(p).st_ino, os.stat(p).st_mtime_ns, open(p).read())
             for p in glob.glob(str(out / "*.json")) if p in before}
    assert after == before  # not rewritten
    check_results(str(out), rows, direct)


# ----------------------------------------------------------------- pairs at once (--gpu-pairs)

def lavapipe_or_skip():
    index = lavapipe_index()
    if index is None:
        pytest.skip("no lavapipe (CPU Vulkan) device")
    return index


def again_count(stderr):
    m = re.search(r"batch: gpu0: .*, (\d+) scored again alone", stderr)
    return int(m.group(1)) if m else 0


def test_pairs_at_once_score_as_one_at_a_time(lib, direct, tmp_path):
    index = lavapipe_or_skip()
    rows = golden_rows(PAIRS[:5])
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    docs = {}
    for n in (1, 3):
        out = tmp_path / f"p{n}"
        r = run_batch(pairs, "-o", out, "--gpus", str(index), "--cpu-workers", "0", "--gpu-pairs", n)
        assert r.returncode == 0, r.stderr
        # One process and one device for every pair either way, all in process.
        assert worker_lines(r.stderr) == {"gpu0": (5, 5, 0, 1, 1)}, r.stderr
        assert ("up to 3 pairs at once" in r.stderr) == (n == 3), r.stderr
        check_results(str(out), rows, direct)
        docs[n] = {row[2]: load(str(out), row[2]) for row in rows}
    for name, doc in docs[1].items():
        doc.pop("fps")
        docs[3][name].pop("fps")
        assert docs[3][name] == doc, name
    r = run_batch(pairs, "-o", tmp_path / "p0", "--gpu-pairs", "0")
    assert r.returncode == 2 and "--gpu-pairs must be 1 or more" in r.stderr
    r = run_batch(pairs, "-o", tmp_path / "p0", "--cpu-nice", "20")
    assert r.returncode == 2 and "--cpu-nice must be 0 to 19" in r.stderr


def test_pairs_at_once_a_crash_costs_that_pair(lib, direct, tmp_path):
    index = lavapipe_or_skip()
    rows = golden_rows(PAIRS[:5])
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    victim = rows[1][2]
    r = run_batch(pairs, "-o", out, "--gpus", str(index), "--cpu-workers", "0", "--gpu-pairs", "3",
                  env=tool_env(VMAFVK_BATCH_FAULT=f"{victim}=crash"))
    assert r.returncode == 1, r.stderr
    assert "4 scored, 1 failed" in final_line(r.stderr)
    summary = {s["name"]: s for s in read_summary(str(out))}
    # It crashed the process with the first pair (and the third) in flight: each was scored
    # again alone, the victim on a second process, which it crashed too, so it failed.
    assert summary[victim]["error"].startswith(
        "the worker process died (killed by SIGABRT) while scoring this pair"), summary[victim]
    assert "gpu0: the worker process died (killed by SIGABRT); scoring again, one at a time" in r.stderr
    for row in rows:
        if row[2] != victim:
            assert summary[row[2]]["status"] == "ok", summary[row[2]]
            assert_same_scores(load(str(out), row[2]), direct[row[2]], row[2])
    assert not (out / f"{victim}.json").exists()
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]
    # Three processes, each with its device: the first (lost), the one the victim crashed
    # alone, the one that scored the rest. The first pair and the victim, and the third
    # unless the crash came before it was sent, were scored again alone.
    assert worker_lines(r.stderr) == {"gpu0": (5, 4, 0, 3, 3)}, r.stderr
    assert again_count(r.stderr) in (2, 3), r.stderr


def test_pairs_at_once_a_hang_costs_that_pair(lib, direct, tmp_path):
    index = lavapipe_or_skip()
    rows = golden_rows(copies=2)[:14]
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    hang = rows[0][2]
    # Two at once: the hang holds one place until its timeout while the other pairs go
    # through the other; if one is in flight when the hang times out, it is scored again
    # alone on a new process, which scores the rest. The timeout leaves room for a slow
    # machine: a new process's start counts against its first pair's deadline, and under
    # ASan on two cores one start and pair together have taken over 3 s.
    r = run_batch(pairs, "-o", out, "--gpus", str(index), "--cpu-workers", "0", "--gpu-pairs", "2",
                  "--timeout", "15", env=tool_env(VMAFVK_BATCH_FAULT=f"{hang}=hang"))
    assert r.returncode == 1, r.stderr
    assert f"{len(rows) - 1} scored, 1 failed" in final_line(r.stderr)
    summary = {s["name"]: s for s in read_summary(str(out))}
    assert summary[hang]["error"] == "timed out after 15 s"
    for row in rows[1:]:
        assert summary[row[2]]["status"] == "ok", summary[row[2]]
        assert_same_scores(load(str(out), row[2]), direct[row[2][:-3]], row[2])
    assert not (out / f"{hang}.json").exists()
    # One pair scored again (none where the others were all done within 15 s): one more
    # process and device for it.
    again = again_count(r.stderr)
    assert again in (0, 1), r.stderr
    assert (f"gpu0: {hang} timed out (its process was killed); scoring again, one at a time"
            in r.stderr) == (again == 1), r.stderr
    assert worker_lines(r.stderr) == {"gpu0": (len(rows), len(rows) - 1, 0, 1 + again, 1 + again)}, \
        r.stderr


def test_worker_process_scores_pairs_at_once(lib, direct, tmp_path):
    """The worker itself: with --pairs 3 a pair that hangs does not hold the others up;
    replies are whole lines, matched by id, with the worker's counters."""
    import queue
    import threading
    index = lavapipe_or_skip()
    cli = batch.find_cli()
    cmd = [PYTHON, "-m", "vmafvk.batch_worker", "--kind", "gpu", "--device", str(index),
           "--pairs", "3", "--cli", cli]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=tool_env(VMAFVK_BATCH_FAULT="stuck=hang"),
                            text=True, start_new_session=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    try:
        ready = json.loads(lines.get(timeout=60))
        assert ready["ready"] and ready["via"] == "bindings" and ready["devices"] == 1, ready
        reqs = [(7, "stuck", PAIRS[0]), (8, PAIRS[1], PAIRS[1]), (9, PAIRS[2], PAIRS[2])]
        for rid, name, pair in reqs:
            ref, dis = pair_paths(pair)
            proc.stdin.write(json.dumps({"id": rid, "name": name, "args": ["-r", ref, "-d", dis],
                                         "out": str(tmp_path / f"{rid}.json")}) + "\n")
        proc.stdin.flush()
        replies = {}
        for _ in range(2):
            reply = json.loads(lines.get(timeout=120))
            replies[reply["id"]] = reply
        assert sorted(replies) == [8, 9]
        for rid, name, pair in reqs[1:]:
            reply = replies[rid]
            assert reply["ok"] and reply["via"] == "bindings", reply
            assert reply["pid"] == proc.pid and reply["devices"] == 1, reply
            assert set(reply["phases"]) == {"setup", "frames", "output"}, reply
            with open(tmp_path / f"{rid}.json") as f:
                assert_same_scores(json.load(f), direct[pair], name)
        # The hanging pair is not counted (it never started); the last reply counts both.
        assert sorted(r["pairs"] for r in replies.values())[-1] == 2
        assert lines.empty()
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_pairs_the_bindings_do_not_read_go_to_the_tool(lib, cli, tmp_path):
    ref, dis = pair_paths("coffee_320x240_crf28")
    # Raw .yuv input (not read in process) and a preset (not reproduced in process).
    yuv = {}
    for side, path in (("ref", ref), ("dis", dis)):
        from vmafvk import Y4MReader
        r = Y4MReader(path)
        with open(tmp_path / f"{side}.yuv", "wb") as f:
            for frame in r:
                for plane in frame:
                    f.write(plane.tobytes())
        yuv[side] = str(tmp_path / f"{side}.yuv")
    rows = [(yuv["ref"], yuv["dis"], "raw", "", "-w 320 -h 240 -p 420 -b 8"),
            (ref, dis, "ctc", "", "--aom_ctc v1.0"),
            (ref, dis, "plain", "psnr", "")]
    pairs = write_csv(tmp_path / "pairs.csv", rows,
                      header=("reference", "distorted", "name", "features", "args"))
    out = tmp_path / "out"
    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "1")
    assert r.returncode == 0, r.stderr
    assert worker_lines(r.stderr)["cpu0"][:3] == (3, 1, 2), r.stderr
    plain = cli_doc(cli, ref, dis, str(tmp_path), "--feature", "psnr")
    assert_same_scores(load(str(out), "plain"), plain, "plain")
    assert_same_scores(load(str(out), "raw"), cli_doc(cli, ref, dis, str(tmp_path)), "raw")
    want = cli_doc(cli, ref, dis, str(tmp_path), "--aom_ctc", "v1.0")
    assert_same_scores(load(str(out), "ctc"), want, "ctc")


def test_pair_arguments_read_in_process():
    from vmafvk.batch_worker import parse_pair_args
    job, why = parse_pair_args(["-r", "a.y4m", "-d", "b.y4m", "-m", "version=vmaf_v0.6.1neg:name=neg:disable_clip",
                                "--feature=psnr=enable_chroma=false:min_sse=0.5", "--subsample", "0x2",
                                "--frame_cnt=5", "--frame_skip_dist", "1",
                                "-m", "path=m.json:adm.adm_enhn_gain_limit=1.0"])
    assert why == ""
    assert (job.ref, job.dist, job.subsample, job.frame_cnt, job.skip_ref, job.skip_dist) == \
        ("a.y4m", "b.y4m", 2, 5, 0, 1)
    assert job.models[0] == {"version": "vmaf_v0.6.1neg", "name": "neg", "disable_clip": True,
                             "enable_transform": False, "overloads": {}}
    assert job.models[1]["path"] == "m.json" and job.models[1]["name"] == "vmaf"
    assert job.models[1]["overloads"] == {"adm": {"adm_enhn_gain_limit": "1.0"}}
    assert job.features == [("psnr", {"enable_chroma": "false", "min_sse": "0.5"})]
    job, _ = parse_pair_args(["-r", "a.y4m", "-d", "b.y4m"])
    assert [m["version"] for m in job.models] == ["vmaf_v0.6.1"]  # the tool's default
    job, _ = parse_pair_args(["-r", "a.y4m", "-d", "b.y4m", "-n", "--feature", "psnr"])
    assert job.models == [] and job.features == [("psnr", {})]
    for args, why in ((["-r", "a.yuv", "-d", "b.yuv", "-w", "8"], "option -w"),
                      (["-r", "a.mp4", "-d", "b.y4m"], "a.mp4 is not .y4m"),
                      (["-r", "a.y4m", "-d", "b.y4m", "--aom_ctc", "v7.0"], "option --aom_ctc"),
                      (["-r", "a.y4m", "-d", "b.y4m", "--ref", "x"], "option --ref"),  # getopt prefix
                      (["-r", "a.y4m", "-d", "b.y4m", "-m", "version=x:name=a", "-m", "version=y:name=a"],
                       "two models of one name"),
                      (["-r", "a.y4m", "-d", "b.y4m", "-m", "name=a"], "model name=a"),
                      (["-r", "a.y4m", "-d", "b.y4m", "-m", "version=x:adm.a=1:adm.b=2"], "model"),
                      (["-r", "a.y4m", "-d", "b.y4m", "--subsample", "-1"], "--subsample -1"),
                      (["-r", "a.y4m", "-d", "b.y4m", "-n"], "-n without a feature")):
        job, got = parse_pair_args(args)
        assert job is None and got.startswith(why), (args, got)


# ----------------------------------------------------------------- pure parts

DEVICES = [
    {"index": 0, "name": "GPU A", "type": "discrete_gpu", "usable": True, "uuid": "aa" * 16},
    {"index": 1, "name": "llvmpipe", "type": "cpu", "usable": True, "uuid": "6d657361" + "0" * 24},
    {"index": 2, "name": "GPU B", "type": "discrete_gpu", "usable": True, "uuid": "1234" + "b" * 28},
    {"index": 3, "name": "GPU A", "type": "discrete_gpu", "usable": True, "uuid": "aa" * 16},  # 0 again
    {"index": 4, "name": "old", "type": "integrated_gpu", "usable": False, "uuid": ""},
]


def indices(spec, devices=DEVICES):
    return [d["index"] for d in batch.select_gpus(devices, spec)[0]]


def test_gpus_selection():
    assert indices("auto") == [0, 2]          # no CPU implementation, device 0 once
    assert indices("all") == [0, 1, 2]        # lavapipe too, device 0 still once
    assert indices("none") == []
    assert indices("2,0") == [2, 0]
    assert indices("1") == [1]                # named: a CPU implementation is used
    assert indices("0,0") == [0, 0]           # named twice: two workers
    assert indices("0,3") == [0, 3]           # one GPU listed twice, both named
    assert indices("uuid:1234") == [2]
    assert indices("AAAA") == [0]             # a prefix of a device listed twice: once
    assert indices("6d65-7361") == [1]
    notices = batch.select_gpus(DEVICES, "auto")[1]
    assert any("CPU implementation" in n for n in notices)
    assert any("device 3 is device 0 listed again" in n for n in notices)
    assert any("two workers on one GPU" in n for n in batch.select_gpus(DEVICES, "0,3")[1])
    assert not batch.select_gpus(DEVICES, "0,2")[1]
    for bad, why in (("9", "no Vulkan device 9"), ("1234", "no Vulkan device 1234"),
                     ("4", "lacks what the kernels need"), ("ff", "no Vulkan device with UUID"),
                     ("xyz", "neither an index nor a UUID prefix"), ("0,,2", "empty item")):
        with pytest.raises(ValueError, match=why):
            batch.select_gpus(DEVICES, bad)
    two = [dict(DEVICES[0]), dict(DEVICES[2], uuid="aa" + "c" * 30)]
    with pytest.raises(ValueError, match="matches several devices"):
        batch.select_gpus(two, "aa")
    assert indices("auto", []) == [] and indices("all", []) == []


def test_worker_counts():
    assert batch.default_cpu_workers(0, 2) == 2
    assert batch.default_cpu_workers(1, 16) == 15
    assert batch.default_cpu_workers(1, 1) == 0
    assert batch.default_cpu_workers(0, 1) == 1
    # A GPU worker with pairs in flight keeps three cores busy.
    assert batch.default_cpu_workers(1, 16, gpu_pairs=4) == 13
    assert batch.default_cpu_workers(2, 16, gpu_pairs=4) == 10
    assert batch.default_cpu_workers(1, 16, gpu_pairs=1) == 15
    assert batch.default_cpu_workers(1, 2, gpu_pairs=4) == 0
    slots = batch.make_slots([DEVICES[0], DEVICES[0]], 2, None, 3)
    assert [s.label for s in slots] == ["gpu0", "gpu1", "cpu0", "cpu1"]
    assert [s.pairs for s in slots] == [1, 1, 1, 1]
    # Pairs at once are for GPU workers: a CPU worker scores one pair at a time.
    assert [s.pairs for s in batch.make_slots([DEVICES[0]], 2, gpu_pairs=4)] == [4, 1, 1]
    assert slots[1].cli_args() == ["--backend", "vulkan", "--vulkan_device", "0"]
    assert slots[2].cli_args() == ["--backend", "cpu", "--threads", "3"]
    # Lower priority for CPU workers only beside a GPU worker.
    assert [s.nice for s in batch.make_slots([DEVICES[0]], 2, cpu_nice=10)] == [0, 10, 10]
    assert [s.nice for s in batch.make_slots([], 2, cpu_nice=10)] == [0, 0]


def test_worker_runs_at_its_niceness():
    """--nice N: the worker process (and so the tool it may start) runs N lower."""
    import queue
    import threading
    base = os.getpriority(os.PRIO_PROCESS, 0)
    cmd = [PYTHON, "-m", "vmafvk.batch_worker", "--kind", "cpu", "--nice", "7", "--tool-only",
           "--cli", "/bin/false"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=tool_env(), text=True, start_new_session=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    try:
        assert json.loads(lines.get(timeout=60))["ready"]
        assert os.getpriority(os.PRIO_PROCESS, proc.pid) == min(base + 7, 19)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)


def test_csv_names(tmp_path):
    d = str(tmp_path)
    p = write_csv(tmp_path / "a.csv", [("r.y4m", "x/enc.y4m", ""), ("r.y4m", "y/enc.y4m", ""),
                                       ("r.y4m", "z/other.mkv", ""), ("r.y4m", "w/b c.y4m", "my/name")])
    pairs = batch.read_pairs(str(p))
    names = [x.name for x in pairs]
    assert names[2] == "other" and names[3] == "my_name"
    assert names[0].startswith("enc-") and names[1].startswith("enc-") and names[0] != names[1]
    assert names == [x.name for x in batch.read_pairs(str(p))]  # stable
    assert pairs[0].reference == os.path.join(d, "r.y4m") and pairs[0].distorted == os.path.join(d, "x/enc.y4m")
    assert pairs[0].cli_args() == ["-r", os.path.join(d, "r.y4m"), "-d", os.path.join(d, "x/enc.y4m")]

    p = write_csv(tmp_path / "b.csv", [("r.y4m", "d.y4m", "", "", "-w 8 -h 8 -p 420 -b 8")],
                  header=("reference", "distorted", "name", "model", "args"))
    pair = batch.read_pairs(str(p), models=["version=vmaf_4k_v0.6.1"], features=["psnr"],
                            extra_args=["--subsample", "2"])[0]
    assert pair.cli_args()[4:] == ["-m", "version=vmaf_4k_v0.6.1", "--feature", "psnr", "--subsample", "2",
                                   "-w", "8", "-h", "8", "-p", "420", "-b", "8"]

    for rows, header, why in (
            ([("r", "d", "n"), ("r", "e", "n")], None, "also the name of line 2"),
            ([("r", "d", ""), ("r", "d", "")], None, "the same pair as line 2"),
            ([("r", "d")], ("reference", "distorted", "modle"), "unknown column"),
            ([("r",)], ("reference",), "no 'distorted' column"),
            ([("r", "d", "--threads 4")], ("reference", "distorted", "args"), "--threads is set by"),
            ([("r", "d", "--output=x")], ("reference", "distorted", "args"), "--output is set by"),
            ([("r", "d", "none", "")], ("reference", "distorted", "model", "features"), "needs at least one"),
            ([("r", "", "")], None, "empty reference or distorted")):
        p = write_csv(tmp_path / "bad.csv", rows, header=header or ("reference", "distorted", "name"))
        with pytest.raises(batch.BatchError, match=why):
            batch.read_pairs(str(p))


def test_finding_the_tool(tmp_path, monkeypatch):
    fake = tmp_path / "build" / "core" / "tools" / "vmaf"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\necho 9.9.9\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    monkeypatch.delenv("VMAFVK_CLI", raising=False)
    monkeypatch.setenv("VMAFVK_LIBRARY", str(tmp_path / "build" / "core" / "src" / "libvmaf.so"))
    assert batch.find_cli() == str(fake)
    monkeypatch.setenv("VMAFVK_CLI", str(tmp_path / "absent"))
    with pytest.raises(batch.BatchError, match="VMAFVK_CLI .*not an executable"):
        batch.find_cli()
    assert batch.find_cli(str(fake)) == str(fake)  # --vmaf first
    monkeypatch.delenv("VMAFVK_CLI")
    monkeypatch.setenv("VMAFVK_LIBRARY", str(tmp_path / "elsewhere" / "libvmaf.so"))
    with pytest.raises(batch.BatchError, match="no vmaf tool found") as e:
        batch.find_cli()
    assert e.value.code == batch.EXIT_SETUP
    with pytest.raises(batch.BatchError, match="not libvmaf-vk's vmaf"):
        batch.cli_version(str(fake))  # another program named vmaf


# ----------------------------------------------------------------- Dask

class Processes:
    """Processes of a test, each in its own session, all killed at the end."""

    def __init__(self, log_dir):
        self.log_dir = log_dir
        self.procs = []

    def start(self, name, cmd, env):
        log = open(os.path.join(self.log_dir, name + ".log"), "w")
        p = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True)
        log.close()
        self.procs.append((name, p))
        return p

    def logs(self):
        text = ""
        for name, _ in self.procs:
            with open(os.path.join(self.log_dir, name + ".log"), errors="replace") as f:
                text += f"--- {name}\n" + f.read()[-3000:]
        return text

    def stop(self):
        for _, p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for _, p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


@pytest.fixture
def processes(tmp_path):
    procs = Processes(str(tmp_path))
    yield procs
    procs.stop()


def wait_for(what, predicate, timeout, procs):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}\n{procs.logs()}")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_dask_cluster_survives_a_killed_worker(lib, direct, tmp_path, processes):
    try:
        import distributed  # noqa: F401
    except ImportError as e:
        pytest.skip(f"distributed cannot be imported: {e}")
    for tool in ("/usr/bin/dask-scheduler", "/usr/bin/dask-worker"):
        if not os.access(tool, os.X_OK):
            pytest.skip(f"{tool} is not installed")
    t0 = time.monotonic()
    env = tool_env(DASK_DISTRIBUTED__WORKER__DAEMON="False")
    sched_file = str(tmp_path / "scheduler.json")
    processes.start("scheduler", ["/usr/bin/dask-scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", sched_file], env)
    wait_for("the scheduler file", lambda: os.path.exists(sched_file) and os.path.getsize(sched_file) > 0,
             30, processes)
    with open(sched_file) as f:
        address = json.load(f)["address"]
    workers = []
    for i in range(2):
        workers.append(processes.start(
            f"worker{i}", ["/usr/bin/dask-worker", "--scheduler-file", sched_file, "--host", "127.0.0.1",
                           "--nworkers", "1", "--nthreads", "1", "--no-nanny", "--no-dashboard",
                           "--local-directory", str(tmp_path / f"w{i}")], env))

    from distributed import Client
    with Client(address, timeout=30) as client:
        client.wait_for_workers(2, timeout=30)
        pids = client.run(os.getpid)  # {worker address: pid}
        assert sorted(pids.values()) == sorted(w.pid for w in workers)

        rows = golden_rows(copies=3)  # 30 pairs
        pairs = write_csv(tmp_path / "pairs.csv", rows)
        out = tmp_path / "results"
        run = processes.start("batch", [PYTHON, "-m", "vmafvk.batch", str(pairs), "-o", str(out),
                                        "--scheduler", address], env)
        done = lambda: len(glob.glob(str(out / "*.json")))  # noqa: E731
        busy = {}

        def some_results_and_a_busy_worker():
            if run.poll() is not None:
                return True
            busy.clear()
            busy.update({a: keys for a, keys in client.processing().items() if keys})
            return done() >= 3 and busy

        wait_for("the first results", some_results_and_a_busy_worker, 30, processes)
        assert run.poll() is None, "the batch ended before a worker could be killed\n" + processes.logs()
        victim = sorted(busy)[0]
        in_flight = [str(k) for k in busy[victim]]
        victim_proc = next(w for w in workers if w.pid == pids[victim])
        os.kill(victim_proc.pid, signal.SIGKILL)
        try:
            rc = run.wait(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError("the batch did not finish after a worker died\n" + processes.logs())
        survivor = next(w for w in workers if w is not victim_proc)
        assert victim_proc.poll() is not None and survivor.poll() is None
        assert len(client.scheduler_info()["workers"]) == 1
    logs = processes.logs()
    assert rc == 0, logs
    check_results(str(out), rows, direct)
    # The pairs the dead worker was scoring were scored elsewhere, once.
    names = [r[2] for r in rows]
    assert in_flight
    for key in in_flight:
        assert any(key.endswith("-" + n) for n in names), key
    batch_log = logs.split("--- batch\n")[1]
    line = final_line(batch_log)
    assert f"{len(rows)} scored, 0 failed, 0 already scored" in line
    survivor_address = next(a for a in pids if a != victim)
    assert f"{survivor_address} cpu0 " in line, line
    # The survivor's slot scored every pair of its share in process, in one worker process.
    assert re.search(rf"batch: {re.escape(survivor_address)} cpu0: \d+ pairs \(\d+ in process\) "
                     r"in 1 process\(es\), 0 Vulkan", batch_log), batch_log
    assert time.monotonic() - t0 < 120


# ----------------------------------------------------------------- results that cannot be written

def test_long_names_fail_alone(lib, direct, tmp_path):
    """A 245-character name is written (its temporary file's name is short); a name
    whose NAME.json passes 255 bytes fails alone with the reason; the others are written."""
    rows = golden_rows(PAIRS[:3])
    fits, too_long = "a" * 245, "b" * 252
    rows = [rows[0], (rows[1][0], rows[1][1], fits), (rows[2][0], rows[2][1], too_long)]
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "1")
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert "2 scored, 1 failed" in final_line(r.stderr)
    summary = {s["name"]: s for s in read_summary(str(out))}
    assert summary[fits]["status"] == "ok"
    assert_same_scores(load(str(out), fits), direct[PAIRS[1]], fits)
    assert summary[too_long]["status"] == "failed"
    assert "cannot be written" in summary[too_long]["error"] and "too long" in summary[too_long]["error"]
    assert_same_scores(load(str(out), rows[0][2]), direct[rows[0][2]], rows[0][2])
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]


def test_a_csv_that_is_not_utf8(tmp_path):
    ref, dis = pair_paths(PAIRS[0])
    p = tmp_path / "pairs.csv"
    p.write_bytes(f"reference,distorted,name\n{ref},{dis},ok\n{ref},{dis},caf\xe9\n".encode("latin-1"))
    r = run_batch(p, "-o", tmp_path / "out", "--gpus", "none", "--cpu-workers", "1")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert f"{p}:3: not UTF-8 text (a byte 0xe9)" in r.stderr


def test_a_full_output_folder(lib, direct, tmp_path, monkeypatch, capsys):
    """Every write fails as on a full disk: each pair fails alone with the reason,
    summary.csv cannot be written either, exit status 1 without a traceback; run
    again with room, the pairs are scored and the summary written."""
    import errno
    rows = golden_rows(PAIRS[:2])
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    real = batch.write_atomic

    def full(path, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)

    monkeypatch.setenv("PYTHONPATH", PKG_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setattr(batch.summary, "write_atomic", full)
    args = [str(pairs), "-o", str(out), "--gpus", "none", "--cpu-workers", "1"]
    assert batch.main(args) == 1
    err = capsys.readouterr().err
    for row in rows:
        assert f"{row[2]} (line" in err and "No space left on device" in err
    assert "summary.csv cannot be written: No space left on device" in err
    assert not (out / "summary.csv").exists() and not list(out.glob("*.json"))

    monkeypatch.setattr(batch.summary, "write_atomic", real)
    assert batch.main(args) == 0
    assert "2 scored, 0 failed, 0 already scored" in capsys.readouterr().err
    check_results(str(out), rows, direct)


# ----------------------------------------------------------------- the parent ends

def marked_processes(mark):
    """Pids of the processes whose environment holds `mark` (the batch, its
    workers and the tool processes they start)."""
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                if mark.encode() in f.read().split(b"\0"):
                    pids.append(int(d))
        except OSError:
            pass
    return pids


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the processes")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killing_the_batch_ends_its_workers(tmp_path, sig):
    """Two workers, each waiting on a tool process that hangs: after SIGTERM the
    batch ends them and exits; after SIGKILL they notice their parent is gone and
    end themselves and their tool processes, and remove their temporary folders."""
    tool = tmp_path / "vmaf"
    tool.write_text('#!/bin/sh\n[ "$1" = --version ] && { echo "vmaf 0.0.0-vk"; exit 0; }\nexec sleep 600\n')
    tool.chmod(0o755)
    ref, dis = pair_paths(PAIRS[0])
    pairs = write_csv(tmp_path / "pairs.csv", [(ref, dis, f"p{i}") for i in range(4)])
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    mark = f"VMAFVK_TEST_MARK={tmp_path}"
    env = tool_env(TMPDIR=str(tmp), VMAFVK_TEST_MARK=str(tmp_path))
    proc = subprocess.Popen([PYTHON, "-m", "vmafvk.batch", str(pairs), "-o", str(tmp_path / "out"), "--vmaf",
                             str(tool), "--scorer", "tool", "--gpus", "none", "--cpu-workers", "2", "-q"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        # The batch, two workers and their two hanging tool processes.
        deadline = time.monotonic() + 120
        while len(marked_processes(mark)) < 5:
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, f"started: {marked_processes(mark)}"
            time.sleep(0.2)
        assert len(glob.glob(str(tmp / "vmafvk-batch-cpu*"))) == 2
        proc.send_signal(sig)
        rc = proc.wait(timeout=60)
        assert rc == (143 if sig == signal.SIGTERM else -signal.SIGKILL)
        deadline = time.monotonic() + 60
        while marked_processes(mark) or glob.glob(str(tmp / "vmafvk-batch-*")):
            assert time.monotonic() < deadline, (f"left behind: processes {marked_processes(mark)}, "
                                                 f"folders {os.listdir(tmp)}")
            time.sleep(0.2)
        if sig == signal.SIGTERM:
            assert "terminated (SIGTERM)" in proc.stderr.read()
            assert [s["status"] for s in read_summary(str(tmp_path / "out"))] == ["not scored"] * 4
    finally:
        for pid in marked_processes(mark):
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_y4m_files_the_tool_refuses_are_not_scored(lib, tmp_path):
    """Headers the vmaf tool refuses (interlaced, C420p8, a tab) fail in the batch too,
    with the tool's exit status 2, instead of being scored in process."""
    ref, dis = pair_paths(PAIRS[0])
    with open(dis, "rb") as f:
        data = f.read()
    header, body = data.split(b"\n", 1)
    rows = []
    for name, new in (("interlaced", header + b" It"), ("p8", header.replace(b"C420jpeg", b"C420p8")
                                                        if b"C420jpeg" in header else header + b" C420p8"),
                      ("tab", header.replace(b" H", b"\tH", 1))):
        path = tmp_path / f"{name}.y4m"
        path.write_bytes(new + b"\n" + body)
        rows.append((ref, str(path), name))
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    r = run_batch(pairs, "-o", out, "--gpus", "none", "--cpu-workers", "1")
    assert r.returncode == 1, r.stderr
    assert "0 scored, 3 failed" in final_line(r.stderr)
    for s in read_summary(str(out)):
        assert s["status"] == "failed" and "exit status 2" in s["error"], s
    assert not list(out.glob("*.json"))


def test_numbers_on_the_command_line_are_digits(tmp_path):
    """Counts are ASCII digits: '³' (a digit to str.isdigit(), not to int()), a sign,
    a space are refused with exit status 2 and no traceback."""
    ref, dis = pair_paths(PAIRS[0])
    pairs = write_csv(tmp_path / "pairs.csv", [(ref, dis, "p")])
    for opt, value in (("--cpu-workers", "\u00b3"), ("--cpu-workers", "+1"), ("--cpu-threads", " 1"),
                       ("--gpu-pairs", "+2"), ("--cpu-nice", "\u00b3"), ("--gpu-threads", "1_0")):
        r = run_batch(pairs, "-o", tmp_path / "out", "--gpus", "none", opt, value, timeout=60)
        assert r.returncode == 2, (opt, value, r.stderr)
        assert "Traceback" not in r.stderr and opt in r.stderr, (opt, value, r.stderr)


# ----------------------------------------------------------------- mixed pools (ADR 0082)

def mixed_run(tmp_path, n_pairs, fault, gpu_pairs):
    """Golden pairs on the lavapipe worker and one CPU worker, made slow by
    VMAFVK_BATCH_FAULT `fault` ("@cpu=sleep:60": a CPU worker waits 60 s before
    each pair, far slower than the other): (result, wall seconds, rows, results
    folder)."""
    index = lavapipe_index()
    if index is None:
        pytest.skip("no lavapipe (CPU Vulkan) device")
    rows = golden_rows(PAIRS[:n_pairs])
    pairs = write_csv(tmp_path / "pairs.csv", rows)
    out = tmp_path / "results"
    env = tool_env(VMAFVK_BATCH_FAULT=fault, TMPDIR=str(tmp_path))
    t0 = time.monotonic()
    r = run_batch(pairs, "-o", out, "--gpus", str(index), "--gpu-pairs", str(gpu_pairs),
                  "--cpu-workers", "1", env=env, timeout=240)
    return r, time.monotonic() - t0, rows, str(out)


def test_mixed_pool_a_slow_cpu_worker_does_not_hold_the_last_pair(lib, direct, tmp_path):
    """The CPU worker takes a pair and would hold it 60 s; once the queue is empty
    the GPU worker scores it again, its result is written once, the CPU worker's
    process is killed: the run takes what the GPU worker alone takes (about 3
    lavapipe pairs here), not the slow worker's 60 s."""
    r, wall, rows, out = mixed_run(tmp_path, 3, "@cpu=sleep:60", 1)
    assert r.returncode == 0, r.stderr
    assert wall < 40, f"{wall:.1f} s: the slow worker held a pair\n{r.stderr}"
    check_results(out, rows, direct)
    assert f"(scored by gpu0 {len(rows)})" in final_line(r.stderr), r.stderr
    assert "1 pair(s) scored again beside a slower worker when the queue was empty; " \
           "1 written from the second copy" in r.stderr, r.stderr
    # Nothing left behind by the killed copy: no worker folder, no temporary result.
    assert not glob.glob(str(tmp_path / "vmafvk-batch-*")), os.listdir(tmp_path)


def test_mixed_pool_a_slow_gpu_worker_cancels_its_copies(lib, direct, tmp_path):
    """The GPU worker (2 pairs at once) would hold both its pairs 60 s; the CPU
    worker (4 s before each pair, so that the GPU worker has taken 2 when it
    starts) scores them again when the queue is empty, and the GPU worker's copies
    are cancelled, the first by a cancel request to its process (the other pair
    still in flight there), the last by killing the process."""
    r, wall, rows, out = mixed_run(tmp_path, 3, "@gpu=sleep:60,@cpu=sleep:4", 2)
    assert r.returncode == 0, r.stderr
    assert wall < 40, f"{wall:.1f} s: the slow worker held a pair\n{r.stderr}"
    check_results(out, rows, direct)
    assert f"(scored by cpu0 {len(rows)})" in final_line(r.stderr), r.stderr
    assert "2 pair(s) scored again beside a slower worker when the queue was empty; " \
           "2 written from the second copy" in r.stderr, r.stderr
    assert not glob.glob(str(tmp_path / "vmafvk-batch-*")), os.listdir(tmp_path)


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def fake_pool(n_pairs, n_cpu, adaptive, gpu_pairs=1):
    from vmafvk.batch.local import _Pool
    todo = [batch.Pair(i + 2, f"p{i}", "/r.y4m", "/d.y4m") for i in range(n_pairs)]
    slots = batch.make_slots([{"index": 0, "name": "gpu"}], n_cpu, gpu_pairs=gpu_pairs)
    said = []
    clock = FakeClock()
    pool = _Pool(todo, slots, adaptive, said.append, clock)
    return pool, clock, said


def test_auto_stops_cpu_workers_the_gpu_outpaces():
    """--cpu-workers auto: 4 CPU workers at 4 s a pair score 1 pair/s together; the
    GPU worker, a pair each 0.2 s (5 pairs/s), outpaces them: they take no new pair
    (a closed-form case of issue 51's catalog: 725 against 171 frame pairs/s)."""
    pool, clock, said = fake_pool(100, 4, adaptive=True)
    held = {f"cpu{i}": pool.take(f"cpu{i}")[0] for i in range(4)}
    for _ in range(3):  # the GPU worker's first pairs: 5 a second
        g = pool.take("gpu0")[0]
        clock.now += 0.2
        pool.finish("gpu0", g, {"ok": True, "seconds": 0.2})
    # Each CPU worker's first pair (its start), then warm ones, at 4 s a pair:
    # the second warm pair decides.
    clock.now += 4.0
    for label, name in held.items():
        assert pool.finish(label, name, {"ok": True, "seconds": 4.0}) is not None
        held[label] = pool.take(label)[0]
    assert not pool.retired
    clock.now += 4.0
    assert pool.finish("cpu0", held["cpu0"], {"ok": True, "seconds": 4.0}) is not None
    assert not pool.retired and pool.take("cpu0") is not None
    assert pool.finish("cpu1", held["cpu1"], {"ok": True, "seconds": 4.0}) is not None
    assert pool.retired == {"cpu0", "cpu1", "cpu2", "cpu3"}, said
    assert said and "5.00 pairs/s" in said[0] and "4 CPU workers together about 1.00" in said[0]
    assert pool.take("cpu0") is None  # the queue is not empty, but it is retired
    assert pool.take("gpu0") is not None


def test_auto_stops_unmeasured_cpu_workers_the_gpu_outpaces():
    """Issue 51 item 15's catalog as measured: 16 CPU workers at about 3.3 s a pair
    never finish one while the GPU worker, 4 pairs at once of 0.14 s, scores the
    catalog; before, they held their pairs and cores to the end (the GPU worker's
    pairs took 172 ms instead of 136). Once each CPU worker's unfinished pair has
    run longer than the GPU workers' rate allows (16 CPU workers below 28.6 pairs/s
    once their pairs have run 0.56 s), their pairs go back to the queue, their
    copies are stopped, and they take no new pair."""
    pool, clock, said = fake_pool(48, 16, adaptive=True, gpu_pairs=4)
    held = {f"cpu{i}": pool.take(f"cpu{i}")[0] for i in range(16)}
    stopped = []
    for w in [f"cpu{i}" for i in range(16)]:
        class W:
            def __init__(self, label):
                self.label = label

            def cancel(self, key):
                stopped.append((self.label, key))

            def wake(self):
                pass
        pool.workers[w] = W(w)
    gpu = [pool.take("gpu0")[0] for _ in range(4)]
    rounds = 0
    while not pool.retired:
        rounds += 1
        assert rounds < 10, said
        clock.now += 0.14
        for name in gpu:
            pool.finish("gpu0", name, {"ok": True, "seconds": 0.14})
        gpu = [pool.take("gpu0")[0] for _ in range(4)]
    assert pool.retired == set(held), said
    # 0.56 s: the first round after which 16 / elapsed < 4 / 0.14
    assert abs(clock.now - 0.56) < 1e-9, clock.now
    assert sorted(stopped) == sorted(held.items()), stopped
    assert said and "16 CPU workers together at most" in said[0], said
    assert all(pool.take(label) is None for label in held)
    # Every pair is scored, by the GPU worker, each once.
    seen = set()
    while gpu:
        for name in gpu:
            seen.add(name)
            pool.finish("gpu0", name, {"ok": True, "seconds": 0.14})
        gpu = [t[0] for t in (pool.take("gpu0") for _ in range(4)) if t not in (None, WAIT_SENTINEL())]
    assert len(pool.done) == 48, len(pool.done)


def WAIT_SENTINEL():
    from vmafvk.batch.protocol import WAIT
    return WAIT


def test_auto_keeps_cpu_workers_that_outpace_the_gpu():
    """The golden catalog's case: 4 CPU workers at 0.02 s a pair (200 pairs/s together)
    beside a GPU worker at 0.05 s a pair (20 pairs/s): they all go on."""
    pool, clock, said = fake_pool(100, 4, adaptive=True)
    for _ in range(4):
        for i in range(4):
            label = f"cpu{i}"
            name = pool.take(label)[0]
            clock.now += 0.005
            pool.finish(label, name, {"ok": True, "seconds": 0.02})
        g = pool.take("gpu0")[0]
        clock.now += 0.05
        pool.finish("gpu0", g, {"ok": True, "seconds": 0.05})
    assert not pool.retired and not said
    # Pairs at once finish in bursts: 4 at once of 1 s each are 4 pairs a second
    # (not 4 pairs in the milliseconds between their ends), below 4 CPU workers at
    # 0.5 s a pair (8 a second together).
    pool, clock, said = fake_pool(100, 4, adaptive=True, gpu_pairs=4)
    gpu = [pool.take("gpu0")[0] for _ in range(4)]
    for rnd in range(3):
        for i in range(4):
            name = pool.take(f"cpu{i}")[0]
            pool.finish(f"cpu{i}", name, {"ok": True, "seconds": 0.5})
        for name in gpu:
            clock.now += 0.001
            pool.finish("gpu0", name, {"ok": True, "seconds": 1.0})
        gpu = [pool.take("gpu0")[0] for _ in range(4)]
    assert not pool.retired and not said
    # An explicit --cpu-workers count is never changed.
    pool, clock, said = fake_pool(100, 4, adaptive=False)
    assert not pool.adaptive


def test_the_straggler_chosen_is_the_one_expected_to_finish_last():
    """An idle worker takes again the pair expected to end last, only where that is
    later than it would end there; the first success is the result, the other copy
    is told to stop, and a failure waits for the copy still running."""
    pool, clock, said = fake_pool(3, 2, adaptive=False)

    class W:
        def __init__(self):
            self.cancelled, self.woken = [], 0

        def cancel(self, key):
            self.cancelled.append(key)

        def wake(self):
            self.woken += 1

    pool.workers = {label: W() for label in ("gpu0", "cpu0", "cpu1")}
    a, b, c = pool.take("cpu0")[0], pool.take("cpu1")[0], pool.take("gpu0")[0]
    assert pool.take("gpu0") is batch.protocol.WAIT  # nothing measured: no copy yet
    clock.now = 1.0
    assert pool.finish("gpu0", c, {"ok": True, "seconds": 1.0})["ok"]
    # cpu0 started at 0, cpu1 too; nothing measured on the CPU: both unbounded.
    assert pool.take("gpu0")[0] == a
    clock.now = 1.5
    assert pool.finish("cpu1", b, {"ok": True, "seconds": 1.5})
    # cpu1 measured 1.5 s a pair: a (on cpu0 since 0) should end at 1.5, i.e. in 0 s,
    # sooner than gpu0's 1 s: nothing more to take again.
    assert pool.take("cpu1") is batch.protocol.WAIT
    # The CPU copy fails while the GPU copy runs: that waits.
    assert pool.finish("cpu0", a, {"ok": False, "error": "x"}) is None
    clock.now = 2.0
    r = pool.finish("gpu0", a, {"ok": True, "seconds": 1.0})
    assert r["ok"] and pool.again_won == 1
    assert pool.take("cpu1") is None and pool.take("gpu0") is None
    # A success with a copy still running cancels that copy.
    pool, clock, said = fake_pool(2, 1, adaptive=False)
    pool.workers = {label: W() for label in ("gpu0", "cpu0")}
    a, b = pool.take("cpu0")[0], pool.take("gpu0")[0]
    clock.now = 1.0
    pool.finish("gpu0", b, {"ok": True, "seconds": 1.0})
    assert pool.take("gpu0")[0] == a
    clock.now = 1.2
    assert pool.finish("cpu0", a, {"ok": True, "seconds": 1.2})["ok"]
    assert pool.workers["gpu0"].cancelled == [a]
    assert pool.finish("gpu0", a, {"ok": True, "seconds": 0.3}) is None  # written once
