# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Input through FFmpeg's libraries: encodes made here with the ffmpeg program
(FFV1, lossless, and H.264) score exactly as the same frames as .y4m; frame
selection works on them; mismatched and unsupported inputs and --hwdec get
clear errors. Skipped (exit 77) when the build has no FFmpeg input or there is
no ffmpeg program to make the files."""
import json
import os
import shutil
import subprocess
import sys

from clitest import check, expect_error, main

PAIR = "coffee_320x240_crf28"
DEEP = "rocket_320x240_10bit_crf30"
SMALL = "astronaut_176x144_crf35"


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def same_scores(a, b, label):
    check(len(a["frames"]) == len(b["frames"]),
          f"{label}: {len(a['frames'])} frames vs {len(b['frames'])}")
    for x, y in zip(a["frames"], b["frames"]):
        check(x["metrics"] == y["metrics"],
              f"{label}: frame {x['frameNum']} differs: {x['metrics']} vs {y['metrics']}")


def ffv1_pairs(cli):
    """Lossless FFV1 in Matroska, 8 and 10 bit, scores exactly as the .y4m pair."""
    for pair in (PAIR, DEEP):
        ref, dis = cli.pair(pair)[1], cli.pair(pair)[3]
        mref, mdis = cli.scratch(pair + "_ref.mkv"), cli.scratch(pair + "_dis.mkv")
        ffmpeg("-i", ref, "-c:v", "ffv1", mref)
        ffmpeg("-i", dis, "-c:v", "ffv1", mdis)
        a = cli.run_json("-r", mref, "-d", mdis, "--feature", "psnr", name=pair + ".mkv.json")
        b = cli.run_json(*cli.pair(pair), "--feature", "psnr", name=pair + ".y4m.json")
        same_scores(a, b, pair + " (FFV1)")


def h264_against_its_decode(cli):
    """An H.264 encode scores as its own frames decoded to .y4m; frame selection too."""
    ref, dis = cli.pair(PAIR)[1], cli.pair(PAIR)[3]
    mp4, dec = cli.scratch("dis.mp4"), cli.scratch("dis_dec.y4m")
    ffmpeg("-i", dis, "-c:v", "libx264", "-crf", "35", "-pix_fmt", "yuv420p", mp4)
    ffmpeg("-i", mp4, "-f", "yuv4mpegpipe", "-pix_fmt", "yuv420p", dec)
    a = cli.run_json("-r", ref, "-d", mp4, name="h264.json")
    b = cli.run_json("-r", ref, "-d", dec, name="h264_dec.json")
    same_scores(a, b, "H.264")
    sel = ["--frame_cnt", "4", "--frame_skip_dist", "2", "--frame_skip_ref", "2"]
    a = cli.run_json("-r", ref, "-d", mp4, *sel, name="h264_sel.json")
    b = cli.run_json("-r", ref, "-d", dec, *sel, name="h264_dec_sel.json")
    check(len(a["frames"]) == 4, f"--frame_cnt 4 gave {len(a['frames'])} frames")
    same_scores(a, b, "H.264 with frame selection")


def clear_errors(cli):
    ref = cli.pair(PAIR)[1]
    small = cli.scratch("small.mkv")
    ffmpeg("-i", cli.pair(SMALL)[3], "-c:v", "ffv1", small)
    expect_error(cli.run("-r", ref, "-d", small), 2, "differ", "176x144", "scale=320:240")
    nv12 = cli.scratch("nv12.nut")
    ffmpeg("-i", ref, "-pix_fmt", "nv12", "-c:v", "rawvideo", nv12)
    expect_error(cli.run("-r", nv12, "-d", nv12), 2, "nv12", "cannot be scored", "-pix_fmt yuv420p")
    junk = cli.scratch("junk.mp4")
    with open(junk, "wb") as f:
        f.write(b"\0" * 4096)
    expect_error(cli.run("-r", junk, "-d", junk), 2, "junk.mp4", "cannot open")
    # A stream cut in the middle of a frame is an error, not a concealed picture.
    h264 = cli.scratch("cut.h264")
    ffmpeg("-i", cli.pair(PAIR)[3], "-c:v", "libx264", "-crf", "20", "-f", "h264", h264)
    with open(h264, "rb") as f:
        data = f.read()
    with open(h264, "wb") as f:
        f.write(data[: len(data) // 3])
    r = cli.run("-r", ref, "-d", h264)
    check(r.rc == 2 or "ended after" in r.err, "a cut stream must fail or end early, never score 10 frames", r)
    if os.environ.get("VMAF_HAVE_HWDEC") != "1":  # cli_hwdec.py tests the build that has it
        expect_error(cli.run("-r", ref, "-d", ref, "--hwdec", "vulkan"), 1, "--hwdec vulkan", "6.1")
    expect_error(cli.run("-r", ref, "-d", ref, "--hwdec", "cuda"), 1, "--hwdec", "vulkan or none")


if __name__ == "__main__":
    if os.environ.get("VMAF_HAVE_LIBAV") != "1" or not shutil.which("ffmpeg"):
        print("skipped: no FFmpeg input in this build, or no ffmpeg program")
        sys.exit(77)
    main([ffv1_pairs, h264_against_its_decode, clear_errors], sys.argv)
