# SPDX-License-Identifier: BSD-2-Clause-Patent
"""--hwdec vulkan. In a build with GPU decoding (FFmpeg 6.1 or later, e.g. the
8.1 of scripts/ffmpeg/build.sh --libs): H.264 and HEVC encodes made here score
exactly as decoding them on the CPU does, and an input the GPU cannot decode
(a .y4m, a codec without a Vulkan hwaccel, a device without a video decode
queue such as lavapipe) falls back to CPU decoding with one notice line on
standard error. In a build without it, the option is refused and says it needs
FFmpeg 6.1. VMAF_HAVE_HWDEC=1 (or 0) asserts which build this is. Skipped (exit
77) without FFmpeg input, an ffmpeg program with libx264, or a Vulkan device."""
import json
import os
import shutil
import subprocess
import sys

from clitest import Failure, check, expect_error, main

PAIR = "coffee_320x240_crf28"
DEEP = "rocket_320x240_10bit_crf30"
NOTICE = "vmaf: notice: --hwdec vulkan: "


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def has_encoder(name):
    out = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True, text=True).stdout
    return any(line.split()[1:2] == [name] for line in out.splitlines() if line.strip())


def built_with_hwdec(cli):
    """The option's answer on two .y4m files: refused (exit 1) without it."""
    r = cli.run(*cli.pair(PAIR), "--hwdec", "vulkan", "--frame_cnt", "1", "-q")
    return not (r.rc == 1 and "not available in this build" in r.err)


def encode(cli, name, src, codec, *opts):
    out = cli.scratch(name)
    if not os.path.exists(out):
        ffmpeg("-i", cli.path(src), "-c:v", codec, *opts, out)
    return out


def h264_pair(cli):
    return (encode(cli, "ref.h264.mkv", PAIR + "_ref.y4m", "libx264", "-qp", "12"),
            encode(cli, "dis.h264.mkv", PAIR + "_dis.y4m", "libx264", "-qp", "32"))


def scores(cli, name, *args):
    """Per-frame metrics of a quiet JSON run, and its standard error lines."""
    out = cli.scratch(name)
    r = cli.run(*args, "--json", "-o", out, "-q")
    check(r.rc == 0, "expected success", r)
    with open(out) as f:
        doc = json.load(f)
    return [fr["metrics"] for fr in doc["frames"]], [l for l in r.err.splitlines() if l.strip()], r


def one_notice_or_none(lines, r):
    """Quiet runs print nothing but at most the one fallback notice."""
    check(len(lines) <= 1, "expected at most one line on standard error", r)
    if lines:
        check(lines[0].startswith(NOTICE) and lines[0].endswith("; decoding on the CPU"),
              "expected the fallback notice", r)
    return lines[0] if lines else None


def same_as_cpu_decoding(cli):
    """H.264 (8-bit) and, with libx265, HEVC (8 and 10-bit): the scores of --hwdec
    vulkan equal those of CPU decoding on the Vulkan backend, frame for frame."""
    pairs = [("h264",) + h264_pair(cli)]
    if has_encoder("libx265"):
        x265 = ["-x265-params", "log-level=error"]
        pairs.append(("hevc", encode(cli, "ref.hevc.mkv", PAIR + "_ref.y4m", "libx265", *x265, "-crf", "10"),
                      encode(cli, "dis.hevc.mkv", PAIR + "_dis.y4m", "libx265", *x265, "-crf", "32")))
        pairs.append(("hevc10", encode(cli, "ref10.hevc.mkv", DEEP + "_ref.y4m", "libx265", *x265, "-crf", "10",
                                       "-pix_fmt", "yuv420p10le"),
                      encode(cli, "dis10.hevc.mkv", DEEP + "_dis.y4m", "libx265", *x265, "-crf", "32",
                             "-pix_fmt", "yuv420p10le")))
    for label, ref, dis in pairs:
        sw, sw_err, r = scores(cli, label + "_sw.json", "-r", ref, "-d", dis, "--feature", "psnr",
                               "--backend", "vulkan")
        check(not sw_err, "the CPU-decoding run printed something", r)
        hw, hw_err, r = scores(cli, label + "_hw.json", "-r", ref, "-d", dis, "--feature", "psnr",
                               "--hwdec", "vulkan")
        notice = one_notice_or_none(hw_err, r)
        print(f"      {label}: {len(hw)} frames, " + (notice or "decoded on the GPU"))
        check(len(hw) == len(sw) == 10, f"{label}: {len(hw)} and {len(sw)} frames, expected 10", r)
        for i, (a, b) in enumerate(zip(hw, sw)):
            check(a == b, f"{label}: frame {i} differs: {a} vs {b}", r)
        # Frame selection reads the same frames either way.
        sel = ["--frame_cnt", "4", "--frame_skip_ref", "3", "--frame_skip_dist", "3"]
        a, _, r = scores(cli, label + "_hw_sel.json", "-r", ref, "-d", dis, *sel, "--hwdec", "vulkan",
                         "--backend", "auto")
        b, _, _ = scores(cli, label + "_sw_sel.json", "-r", ref, "-d", dis, *sel, "--backend", "vulkan")
        check(len(a) == 4 and a == b, f"{label}: frame selection differs", r)


def fallbacks(cli):
    """Inputs the GPU never decodes: one notice naming the input and why."""
    y4m = cli.pair(PAIR)
    _, lines, r = scores(cli, "y4m.json", *y4m, "--hwdec", "vulkan")
    check(one_notice_or_none(lines, r) is not None, "a .y4m input must give the notice", r)
    check("reference: " in lines[0] and ".y4m" in lines[0], "the notice names the reference and why", r)
    # A codec this FFmpeg decodes on the CPU only; the other input is H.264.
    raw = cli.scratch("raw.mkv")
    ffmpeg("-i", cli.path(PAIR + "_dis.y4m"), "-c:v", "rawvideo", raw)
    ref, _ = h264_pair(cli)
    hw, lines, r = scores(cli, "raw_hw.json", "-r", ref, "-d", raw, "--hwdec", "vulkan")
    check(one_notice_or_none(lines, r) is not None, "a rawvideo input must give the notice", r)
    check("distorted: " in lines[0] and "rawvideo" in lines[0] and "hwaccel" in lines[0],
          "the notice names the distorted input's decoder", r)
    sw, _, _ = scores(cli, "raw_sw.json", "-r", ref, "-d", raw, "--backend", "vulkan")
    check(hw == sw, "the fallback scores differ from CPU decoding", r)


def backend_rules(cli):
    ref, dis = h264_pair(cli)
    expect_error(cli.run("-r", ref, "-d", dis, "--hwdec", "vulkan", "--backend", "cpu"), 1,
                 "--hwdec vulkan", "--backend cpu")
    expect_error(cli.run("-r", ref, "-d", dis, "--hwdec", "vulk"), 1, "--hwdec", "vulkan or none")


def not_available(cli):
    ref, dis = h264_pair(cli)
    expect_error(cli.run("-r", ref, "-d", dis, "--hwdec", "vulkan"), 1, "--hwdec vulkan", "not available", "6.1")


if __name__ == "__main__":
    if os.environ.get("VMAF_HAVE_LIBAV") != "1" or not shutil.which("ffmpeg") or not has_encoder("libx264"):
        print("skipped: no FFmpeg input in this build, or no ffmpeg program with libx264")
        sys.exit(77)
    from clitest import Cli
    probe = Cli(sys.argv)
    hwdec = built_with_hwdec(probe)
    want = os.environ.get("VMAF_HAVE_HWDEC")
    if want is not None and want != ("1" if hwdec else "0"):
        print(f"FAIL  the tool was built {'with' if hwdec else 'without'} --hwdec vulkan; "
              f"VMAF_HAVE_HWDEC={want}")
        sys.exit(1)
    if hwdec:
        r = probe.run(*probe.pair(PAIR), "--backend", "vulkan", "--frame_cnt", "1", "-q")
        if r.rc == 3:
            print("skipped: no usable Vulkan device")
            sys.exit(77)
    probe.tmp.cleanup()
    main([same_as_cpu_decoding, fallbacks, backend_rules] if hwdec else [not_available], sys.argv)
