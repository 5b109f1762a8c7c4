# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Successful runs: output formats and destinations, thread-count independence,
frame selection, raw input, 4:2:2 input."""
import csv
import io
import json
import re
import sys
import xml.etree.ElementTree as ET

from clitest import Failure, check, main

PAIR = "coffee_320x240_crf28"
SMALL = "astronaut_176x144_crf35"


def frames_of(doc):
    return [f["frameNum"] for f in doc["frames"]]


def without_fps(doc):
    doc = dict(doc)
    doc.pop("fps")
    return doc


def default_model_and_psnr(cli):
    doc = cli.run_json(*cli.pair(SMALL), "--feature", "psnr")
    check(frames_of(doc) == list(range(10)), f"frames {frames_of(doc)}")
    for f in doc["frames"]:
        for name in ("vmaf", "psnr_y", "integer_vif_scale0", "integer_adm2", "integer_motion2"):
            check(name in f["metrics"], f"frame {f['frameNum']} has no {name}")
    pooled = doc["pooled_metrics"]["vmaf"]
    check(set(pooled) == {"min", "max", "mean", "harmonic_mean"}, f"pooled vmaf: {pooled}")
    mean = sum(f["metrics"]["vmaf"] for f in doc["frames"]) / 10
    check(abs(pooled["mean"] - mean) < 1e-5, f"pooled mean {pooled['mean']} vs {mean}")


def score_line(cli):
    """'VMAF score: X' on stdout, equal to the pooled mean of the output file."""
    doc = cli.run_json(*cli.pair(SMALL))
    r = cli.run(*cli.pair(SMALL), "-q")
    m = re.search(r"^VMAF score: ([0-9.]+)$", r.out, re.M)
    check(r.rc == 0 and m is not None, "expected a 'VMAF score: X' line", r)
    check(abs(float(m.group(1)) - doc["pooled_metrics"]["vmaf"]["mean"]) < 1e-6,
          "printed score differs from the pooled mean", r)
    # A second, named model gets its own line.
    r = cli.run(*cli.pair(SMALL), "-q", "-m", "version=vmaf_v0.6.1",
                "-m", "version=vmaf_v0.6.1neg:name=vmaf_neg")
    check(r.rc == 0 and re.search(r"^VMAF score \(vmaf_neg\): [0-9.]+$", r.out, re.M),
          "expected a line for the second model", r)


def threads_match(cli):
    args = [*cli.pair(PAIR), "--feature", "psnr"]
    one = cli.run_json(*args, "--threads", "1", name="t1.json")
    for n in ("0", "2", "3"):
        other = cli.run_json(*args, "--threads", n, name=f"t{n}.json")
        check(without_fps(other) == without_fps(one), f"--threads {n} differs from --threads 1")


def four_two_two(cli):
    doc = cli.run_json(*cli.pair("astronaut_320x240_422_crf33"))
    check(len(doc["frames"]) == 10 and all("vmaf" in f["metrics"] for f in doc["frames"]),
          "a 4:2:2 .y4m pair must score every frame")


def stdout_output(cli):
    r = cli.run(*cli.pair(SMALL), "--json", "-o", "-")
    check(r.rc == 0, "-o - must succeed", r)
    try:
        doc = json.loads(r.out)
    except json.JSONDecodeError as e:
        raise Failure(f"stdout is not JSON: {e}\n{r.describe()}")
    check(len(doc["frames"]) == 10, "stdout document has every frame", r)
    check("VMAF score:" in r.err and "VMAF score" not in r.out,
          "with -o -, scores are printed on stderr", r)


def output_formats(cli):
    base = [*cli.pair(SMALL), "-q", "--feature", "psnr"]
    xml_path, csv_path, sub_path = (cli.scratch(n) for n in ("o.xml", "o.csv", "o.sub"))
    check(cli.run(*base, "-o", xml_path).rc == 0, "XML is the default format")
    root = ET.parse(xml_path).getroot()
    check(root.tag == "VMAF" and root.get("version"), "XML root")
    check(root.find("params").get("qualityWidth") is not None, "XML params")
    frames = root.find("frames").findall("frame")
    check(len(frames) == 10 and frames[3].get("frameNum") == "3" and frames[3].get("vmaf"),
          "XML frames")
    metrics = {m.get("name"): m for m in root.find("pooled_metrics").findall("metric")}
    check("vmaf" in metrics and metrics["vmaf"].get("harmonic_mean"), "XML pooled metrics")

    check(cli.run(*base, "--csv", "-o", csv_path).rc == 0, "CSV")
    with open(csv_path) as f:
        rows = list(csv.reader(f))
    check(rows[0][0] == "Frame" and "vmaf" in rows[0] and "psnr_y" in rows[0], f"CSV header {rows[0]}")
    check(len(rows) == 11 and all(len(r) == len(rows[0]) for r in rows), "CSV rows")
    col = rows[0].index("vmaf")
    xml_vmaf = [float(f.get("vmaf")) for f in frames]
    check([float(r[col]) for r in rows[1:]] == xml_vmaf, "CSV and XML agree")

    check(cli.run(*base, "--sub", "-o", sub_path).rc == 0, "SUB")
    with open(sub_path) as f:
        lines = f.read().splitlines()
    check(len(lines) == 10 and lines[2].startswith("{2}{3}frame: 2|") and "|vmaf: " in lines[2],
          f"SUB lines {lines[:2]}")


def frame_selection(cli):
    base = [*cli.pair(SMALL), "-n", "--feature", "psnr"]
    full = cli.run_json(*base, name="full.json")
    doc = cli.run_json(*base, "--frame_cnt", "3", name="cnt.json")
    check(frames_of(doc) == [0, 1, 2], f"--frame_cnt 3 gave {frames_of(doc)}")
    doc = cli.run_json(*base, "--frame_skip_ref", "2", "--frame_skip_dist", "2", name="skip.json")
    check(frames_of(doc) == list(range(8)), f"skipping 2 gave {frames_of(doc)}")
    check(doc["frames"][0]["metrics"] == full["frames"][2]["metrics"],
          "frame 0 after skipping 2 is frame 2")
    doc = cli.run_json(*base, "--subsample", "3", name="sub.json")
    check(frames_of(doc) == [0, 3, 6, 9], f"--subsample 3 gave {frames_of(doc)}")
    check(doc["frames"][1]["metrics"]["psnr_y"] == full["frames"][3]["metrics"]["psnr_y"],
          "subsampled frames keep their scores")
    # A shorter distorted video: the common frames are scored, with a warning.
    r = cli.run("-r", cli.path(SMALL + "_ref.y4m"), "-d", cli.path(SMALL + "_dis.y4m"),
                "--frame_skip_dist", "4", "-n", "--feature", "psnr", "-q")
    check(r.rc == 0 and "ended after 6 frames" in r.err, "shorter input", r)


def y4m_frames(path):
    """Header fields and the raw frame payloads of a .y4m file."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"\n")
    header = dict((t[:1], t[1:]) for t in data[:end].decode().split()[1:])
    frames, pos = [], end + 1
    w, h = int(header["W"]), int(header["H"])
    c = header.get("C", "420")
    bps = 2 if c.endswith(("p10", "p12", "p16")) else 1
    chroma = {"420": (w + 1) // 2 * ((h + 1) // 2), "422": (w + 1) // 2 * h, "444": w * h}[c[:3]]
    size = (w * h + 2 * chroma) * bps
    while pos < len(data):
        pos = data.index(b"\n", pos) + 1
        frames.append(data[pos:pos + size])
        pos += size
    return header, frames


def raw_input(cli):
    """The same pixels as raw .yuv give exactly the scores of the .y4m."""
    for pair, fmt, depth in (("rocket_320x240_10bit_crf30", "420", "10"),
                             ("astronaut_320x240_422_crf33", "422", "8")):
        paths = []
        for side in ("ref", "dis"):
            header, frames = y4m_frames(cli.path(f"{pair}_{side}.y4m"))
            paths.append(cli.scratch(f"{pair}_{side}.yuv"))
            with open(paths[-1], "wb") as f:
                f.write(b"".join(frames))
        feats = ["--feature", "psnr"]
        y4m = cli.run_json(*cli.pair(pair), *feats, name="y4m.json")
        raw = cli.run_json("-r", paths[0], "-d", paths[1], "-w", header["W"], "-h", header["H"],
                           "-p", fmt, "-b", depth, *feats, name="raw.json")
        check(without_fps(raw)["frames"] == without_fps(y4m)["frames"], f"{pair}: raw != y4m")


def long_clip(cli, name, order):
    """A .y4m pair of the SMALL pair's frames in the given order (0..9 each)."""
    paths = []
    for side in ("ref", "dis"):
        with open(cli.path(f"{SMALL}_{side}.y4m"), "rb") as f:
            header = f.read().split(b"\n", 1)[0]
        _, frames = y4m_frames(cli.path(f"{SMALL}_{side}.y4m"))
        paths.append(cli.scratch(f"{name}_{side}.y4m"))
        with open(paths[-1], "wb") as f:
            f.write(header + b"\n" + b"".join(b"FRAME\n" + frames[k] for k in order))
    return paths


def read_ahead_order(cli):
    """Frames are read ahead of the scoring on threads, several in flight: a clip
    longer than that, of a length no multiple of it, keeps every frame paired
    with its own and in order, for any thread count and frame selection."""
    order = [(7 * k + k // 10) % 10 for k in range(37)]
    ref, dis = long_clip(cli, "long", order)
    single = cli.run_json(*cli.pair(SMALL), "-n", "--feature", "psnr", name="single.json")
    psnr = [f["metrics"]["psnr_y"] for f in single["frames"]]
    base = ["-r", ref, "-d", dis, "--feature", "psnr"]
    t0 = cli.run_json(*base, "--threads", "0", name="long_t0.json")
    check(frames_of(t0) == list(range(37)), f"37 frames gave {frames_of(t0)}")
    got = [f["metrics"]["psnr_y"] for f in t0["frames"]]
    check(got == [psnr[k] for k in order], f"frames out of order or mispaired: psnr_y {got}")
    for n in ("1", "4"):
        doc = cli.run_json(*base, "--threads", n, name=f"long_t{n}.json")
        check(without_fps(doc) == without_fps(t0), f"--threads {n} differs from --threads 0")
    # One reader thread per input, and more than there are frames ahead of the scoring
    # at the default depth (ADR 0045).
    for n in ("1", "7"):
        doc = cli.run_json(*base, "--threads", "2", name=f"long_r{n}.json",
                           env={"VMAF_CLI_READ_THREADS": n})
        check(without_fps(doc) == without_fps(t0), f"VMAF_CLI_READ_THREADS={n} differs from the default")
    # With a Vulkan device, frames are read into its device pictures: the same scores.
    if cli.run(*cli.pair(SMALL), "-n", "--feature", "psnr", "--backend", "vulkan").rc == 0:
        for n in ("0", "1", "4"):
            doc = cli.run_json(*base, "--backend", "vulkan", "--threads", n, name=f"long_vk{n}.json")
            check(without_fps(doc) == without_fps(t0), f"--backend vulkan --threads {n} differs from the CPU")
        # A feature without a GPU twin reads the device pictures on the CPU.
        cpu = cli.run_json(*base, "--feature", "float_psnr", "--threads", "0", name="long_fpsnr_cpu.json")
        doc = cli.run_json(*base, "--feature", "float_psnr", "--backend", "vulkan", "--threads", "4",
                           name="long_fpsnr_vk.json")
        check(without_fps(doc) == without_fps(cpu), "--backend vulkan with float_psnr differs from the CPU")
    for n, cnt in (("0", "1"), ("4", "5"), ("1", "23")):
        doc = cli.run_json(*base, "--threads", n, "--frame_cnt", cnt, name=f"long_c{cnt}.json")
        check(frames_of(doc) == list(range(int(cnt))), f"--frame_cnt {cnt} gave {frames_of(doc)}")
        # The last frame's motion2 looks at the next frame, which is not read.
        last = int(cnt) - 1
        check(doc["frames"][:last] == t0["frames"][:last] and
              doc["frames"][last]["metrics"]["psnr_y"] == t0["frames"][last]["metrics"]["psnr_y"],
              f"--frame_cnt {cnt}: frames differ from the full run")
    # Skipping moves the pairing: reference frame k + 3 against distorted frame k + 1.
    doc = cli.run_json(*base, "-n", "--threads", "4", "--frame_skip_ref", "3", "--frame_skip_dist", "1",
                       name="long_skip.json")
    check(frames_of(doc) == list(range(34)), f"skipping gave {frames_of(doc)}")
    # A shorter distorted clip: warned about, the common frames scored.
    _, short_dis = long_clip(cli, "short", order[:29])
    for n in ("0", "4"):
        r = cli.run("-r", ref, "-d", short_dis, "--feature", "psnr", "--threads", n, "-q", "--json",
                    "-o", cli.scratch("short.json"))
        check(r.rc == 0 and "ended after 29 frames" in r.err, "shorter distorted clip", r)
        with open(cli.scratch("short.json")) as f:
            doc = json.load(f)
        check(frames_of(doc) == list(range(29)), f"shorter clip gave {frames_of(doc)}")


def presets_on_gpu(cli):
    """--aom_ctc v7.0 and --nflx_ctc v1.0 with --backend vulkan: every feature of
    the set runs on the GPU (the library's log line says so), and every score
    equals the CPU backend's."""
    if cli.run(*cli.pair(SMALL), "-n", "--feature", "psnr", "--backend", "vulkan").rc != 0:
        return  # no Vulkan device
    for preset in (["--aom_ctc", "v7.0"], ["--nflx_ctc", "v1.0"]):
        out = cli.scratch("preset_vk.json")
        r = cli.run(*cli.pair(PAIR), *preset, "--backend", "vulkan", "--json", "-o", out)
        check(r.rc == 0, f"{' '.join(preset)} on Vulkan", r)
        placement = re.search(r"Vulkan: features on the GPU: (.*); on the CPU: (.*)", r.err)
        check(placement and placement.group(2).strip() == "none",
              f"{' '.join(preset)}: not every feature ran on the GPU", r)
        with open(out) as f:
            gpu = json.load(f)
        cpu = cli.run_json(*cli.pair(PAIR), *preset, "--backend", "cpu", name="preset_cpu.json")
        check(without_fps(gpu) == without_fps(cpu), f"{' '.join(preset)}: Vulkan scores differ from the CPU's")


if __name__ == "__main__":
    main([default_model_and_psnr, score_line, threads_match, four_two_two, stdout_output,
          output_formats, frame_selection, raw_input, read_ahead_order, presets_on_gpu], sys.argv)
