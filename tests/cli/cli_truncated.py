# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Compressed input cut short or damaged (FFmpeg input): an H.264 file with
B-frames cut at several points fails with exit status 2 naming the file, and
with --allow-truncated scores exactly the frames the whole file gives for the
same indices; a file cut before its first frame says it is truncated; inputs
at different frame rates are named; names with a colon are files, not FFmpeg
protocols. Skipped (exit 77) when the build has no FFmpeg input or there is no
ffmpeg program to make the files."""
import json
import os
import shutil
import subprocess
import sys

from clitest import check, expect_error, main

FRAMES = 30
RUN = ["--backend", "cpu", "-n", "--feature", "psnr"]


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def encode(path, rate=25, extra=()):
    """testsrc2 in H.264 with 3 B-frames between references, one slice thread
    (the same bytes every time), in Matroska."""
    ffmpeg("-f", "lavfi", "-i", f"testsrc2=size=160x120:rate={rate}", "-frames:v", str(FRAMES), *extra,
           "-c:v", "libx264", "-bf", "3", "-g", str(FRAMES), "-threads", "1", "-pix_fmt", "yuv420p", path)


def files(cli):
    ref, dis = cli.scratch("ref.mkv"), cli.scratch("dis.mkv")
    if not os.path.exists(dis):
        encode(ref)
        encode(dis, extra=["-vf", "noise=alls=20:allf=t", "-crf", "35"])
    return ref, dis


def frames(cli, *args, name):
    out = cli.scratch(name)
    r = cli.run(*args, *RUN, "--json", "-o", out, "-q")
    check(r.rc == 0, "expected success", r)
    with open(out) as f:
        return json.load(f)["frames"], r


def cut(cli, src, fraction, name):
    with open(src, "rb") as f:
        data = f.read()
    path = cli.scratch(name)
    with open(path, "wb") as f:
        f.write(data[: int(len(data) * fraction)])
    return path


def truncated_h264(cli):
    ref, dis = files(cli)
    whole, _ = frames(cli, "-r", ref, "-d", dis, name="whole.json")
    check(len(whole) == FRAMES, f"the whole file gave {len(whole)} frames")
    counts = set()
    for pct in (30, 40, 50, 70, 80, 90, 99):
        path = cut(cli, dis, pct / 100, f"cut{pct}.mkv")
        expect_error(cli.run("-r", ref, "-d", path, *RUN), 2, "truncated", path, "--allow-truncated")
        got, r = frames(cli, "-r", ref, "-d", path, "--allow-truncated", name=f"cut{pct}.json")
        check(0 < len(got) < FRAMES, f"{pct}%: {len(got)} frames scored", r)
        counts.add(len(got))
        for a, b in zip(got, whole):
            check(a["metrics"] == b["metrics"],
                  f"{pct}%: frame {a['frameNum']} scored {a['metrics']}, the whole file's is {b['metrics']}", r)
        check("truncated" in r.err and path in r.err and f"frames 0 to {len(got) - 1} were scored" in r.err,
              f"{pct}%: the warning must name the file and the frames scored", r)
    check(len(counts) > 3, f"the cuts should end at different frames: {sorted(counts)}")


def cut_before_first_frame(cli):
    ref, _ = files(cli)
    with open(ref, "rb") as f:
        data = f.read()
    cluster = data.index(bytes.fromhex("1f43b675"))  # Matroska's first Cluster element
    path = cli.scratch("headers_only.mkv")
    with open(path, "wb") as f:
        f.write(data[:cluster + 8])
    r = cli.run("-r", path, "-d", path, *RUN)
    expect_error(r, 2, path, "truncated")
    check("pixel format" not in r.err, "a file cut before its first frame is not a pixel format problem", r)


def frame_rates_named(cli):
    ref, _ = files(cli)
    fast = cli.scratch("fast.mkv")
    if not os.path.exists(fast):
        encode(fast, rate=50)
    _, r = frames(cli, "-r", ref, "-d", fast, name="rates.json")
    check(ref in r.err and fast in r.err and "25/1" in r.err and "50/1" in r.err,
          "inputs at 25 and 50 frames a second must be named", r)
    _, r = frames(cli, "-r", ref, "-d", ref, name="same_rate.json")
    check("frames a second" not in r.err, "no warning for the same rate", r)


def names_with_colons(cli):
    """x:y.mkv and file:z.mkv are files in the working folder."""
    ref, dis = files(cli)
    whole, _ = frames(cli, "-r", ref, "-d", dis, name="whole.json")
    for name in ("x:y.mkv", "file:z.mkv", "concat:a.mkv"):
        shutil.copy(dis, cli.scratch(name))
        out = cli.scratch(name + ".json")
        proc = subprocess.run([cli.exe, "-r", ref, "-d", name, *RUN, "--json", "-o", out, "-q"],
                              cwd=cli.tmp.name, capture_output=True, text=True, timeout=120)
        check(proc.returncode == 0, f"{name}: exit {proc.returncode}: {proc.stderr}")
        with open(out) as f:
            got = json.load(f)["frames"]
        check([x["metrics"] for x in got] == [x["metrics"] for x in whole], f"{name}: other scores")
    os.unlink(cli.scratch("x:y.mkv"))
    r = cli.run("-r", ref, "-d", "x:y.mkv", *RUN)
    expect_error(r, 2, "x:y.mkv")


if __name__ == "__main__":
    if os.environ.get("VMAF_HAVE_LIBAV") != "1" or not shutil.which("ffmpeg"):
        print("skipped: no FFmpeg input in this build, or no ffmpeg program")
        sys.exit(77)
    main([truncated_h264, cut_before_first_frame, frame_rates_named, names_with_colons], sys.argv)
