# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Bad input and bad command lines: each must end with a clear message and a
nonzero exit status (docs/cli.md), never a crash or a hang."""
import json
import sys

from clitest import check, expect_error, main

SMALL = "astronaut_176x144_crf35"        # 176x144 4:2:0 8-bit
OTHER_SIZE = "coffee_320x240_crf28"      # 320x240 4:2:0 8-bit
OTHER_CHROMA = "coffee_320x240_444_crf30"  # 320x240 4:4:4 8-bit
OTHER_DEPTH = "rocket_320x240_10bit_crf30"  # 320x240 4:2:0 10-bit

FRAME_BYTES_176x144_420 = 176 * 144 * 3 // 2
# Feature-only runs do not need a model.
FEATURES_ONLY = ["-n", "--feature", "psnr"]


def read(cli, name):
    with open(cli.path(name), "rb") as f:
        return f.read()


def write(cli, name, data):
    path = cli.scratch(name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def y4m_header_len(data):
    return data.index(b"\n") + 1


def size_mismatch(cli):
    ref, dis = cli.path(SMALL + "_ref.y4m"), cli.path(OTHER_SIZE + "_dis.y4m")
    r = cli.run("-r", ref, "-d", dis, *FEATURES_ONLY)
    expect_error(r, 2, "differ", ref, "176x144", dis, "320x240")


def chroma_mismatch(cli):
    ref, dis = cli.path(OTHER_SIZE + "_ref.y4m"), cli.path(OTHER_CHROMA + "_dis.y4m")
    r = cli.run("-r", ref, "-d", dis, *FEATURES_ONLY)
    expect_error(r, 2, "differ", ref, "420", dis, "444")


def depth_mismatch(cli):
    ref, dis = cli.path(OTHER_SIZE + "_ref.y4m"), cli.path(OTHER_DEPTH + "_dis.y4m")
    r = cli.run("-r", ref, "-d", dis, *FEATURES_ONLY)
    expect_error(r, 2, "differ", "8-bit", "10-bit")


def truncated_y4m(cli):
    data = read(cli, SMALL + "_ref.y4m")
    cut = y4m_header_len(data) + (6 + FRAME_BYTES_176x144_420) + 6 + FRAME_BYTES_176x144_420 // 2
    ref = write(cli, "truncated.y4m", data[:cut])
    r = cli.run("-r", ref, "-d", cli.path(SMALL + "_dis.y4m"), *FEATURES_ONLY)
    expect_error(r, 2, "truncated", "truncated.y4m")


def truncated_late(cli):
    """A frame cut short far past the first: the frames before it are read ahead
    and scored, then the error ends the run; --frame_cnt stopping before it never
    reads it."""
    frame = 6 + FRAME_BYTES_176x144_420
    clips = []
    for side in ("ref", "dis"):
        data = read(cli, f"{SMALL}_{side}.y4m")
        head = y4m_header_len(data)
        clips.append(data[:head] + 2 * data[head:head + 10 * frame])
    ref = write(cli, "long_ref.y4m", clips[0])
    dis = write(cli, "truncated_late.y4m", clips[1][:len(clips[1]) - 3 * frame + 100])
    for threads, readers in (("0", "1"), ("0", None), ("4", "6")):
        env = {"VMAF_CLI_READ_THREADS": readers} if readers else None
        r = cli.run("-r", ref, "-d", dis, *FEATURES_ONLY, "--threads", threads, env=env)
        expect_error(r, 2, "truncated frame 17", "truncated_late.y4m")
        r = cli.run("-r", ref, "-d", dis, *FEATURES_ONLY, "--threads", threads, "--frame_cnt", "17", env=env)
        check(r.rc == 0, "--frame_cnt 17 stops before the truncated frame", r)


def corrupt_frame_marker(cli):
    data = bytearray(read(cli, SMALL + "_ref.y4m"))
    second = y4m_header_len(data) + 6 + FRAME_BYTES_176x144_420
    check(data[second:second + 5] == b"FRAME", "test data layout changed")
    data[second:second + 5] = b"FRAXE"
    ref = write(cli, "bad_marker.y4m", bytes(data))
    r = cli.run("-r", ref, "-d", cli.path(SMALL + "_dis.y4m"), *FEATURES_ONLY)
    expect_error(r, 2, "corrupt", "frame 1")


def corrupt_headers(cli):
    body = read(cli, SMALL + "_ref.y4m")
    body = body[y4m_header_len(body):]
    cases = [
        (b"GARBAGE W176 H144\n", "not a YUV4MPEG2"),
        (b"YUV4MPEG2 Wabc H144 C420jpeg\n", "W/H"),
        (b"YUV4MPEG2 W176 H144 C411\n", "colour space"),
        (b"YUV4MPEG2 W176 H144 Ib C420jpeg\n", "interlaced"),
        (b"YUV4MPEG2 W176 H144 C420jpeg", "header"),  # no end of line at all
    ]
    for i, (header, phrase) in enumerate(cases):
        ref = write(cli, f"bad_header{i}.y4m", header + (body if header.endswith(b"\n") else b""))
        r = cli.run("-r", ref, "-d", cli.path(SMALL + "_dis.y4m"), *FEATURES_ONLY)
        expect_error(r, 2, phrase, f"bad_header{i}.y4m")


def missing_file(cli):
    missing = cli.scratch("does_not_exist.y4m")
    r = cli.run("-r", missing, "-d", cli.path(SMALL + "_dis.y4m"), *FEATURES_ONLY)
    expect_error(r, 2, missing, "no such file")
    r = cli.run("-r", cli.path(SMALL + "_ref.y4m"), "-d", missing, *FEATURES_ONLY)
    expect_error(r, 2, missing, "no such file")


def zero_frames(cli):
    data = read(cli, SMALL + "_ref.y4m")
    empty = write(cli, "empty.y4m", data[:y4m_header_len(data)])
    r = cli.run("-r", empty, "-d", empty, *FEATURES_ONLY)
    expect_error(r, 2, "no frames")
    # Skipping past the end leaves nothing to score either.
    r = cli.run(*cli.pair(SMALL), *FEATURES_ONLY, "--frame_skip_ref", "50")
    expect_error(r, 2, "no frames")


def raw_bad_geometry(cli):
    raw = write(cli, "odd.yuv", b"\0" * (FRAME_BYTES_176x144_420 + 7))
    r = cli.run("-r", raw, "-d", raw, "-w", "176", "-h", "144", "-p", "420", "-b", "8",
                *FEATURES_ONLY)
    expect_error(r, 2, "whole number", "odd.yuv")
    # Raw input without its geometry: the .y4m reader refuses it with a hint.
    r = cli.run("-r", raw, "-d", raw, *FEATURES_ONLY)
    expect_error(r, 2, "odd.yuv", "-w")


def unsupported_bit_depth(cli):
    raw = write(cli, "nine.yuv", b"\0" * (2 * FRAME_BYTES_176x144_420))
    r = cli.run("-r", raw, "-d", raw, "-w", "176", "-h", "144", "-p", "420", "-b", "9",
                *FEATURES_ONLY)
    expect_error(r, 1, "bit depth", "-b/--bitdepth", "9")


def unknown_model_version(cli):
    r = cli.run(*cli.pair(SMALL), "-m", "version=no_such_model_v9")
    expect_error(r, 3, "could not load model", "no_such_model_v9")


def corrupt_model_json(cli):
    cases = {
        "truncated.json": b'{"model_dict": {"model_type": "LIBSVMNUSVR", "feature_names": [',
        "not_json.json": b"this is not a model\n",
        "wrong_shape.json": b'{"model_dict": 42}\n',
    }
    for name, text in cases.items():
        model = write(cli, name, text)
        r = cli.run(*cli.pair(SMALL), "-m", "path=" + model)
        expect_error(r, 3, "could not load model", name)


def unknown_feature(cli):
    r = cli.run(*cli.pair(SMALL), "-n", "--feature", "no_such_feature")
    expect_error(r, 3, "no_such_feature")
    # A known feature with an option it does not have.
    r = cli.run(*cli.pair(SMALL), "-n", "--feature", "psnr=no_such_option=1")
    expect_error(r, 3, "psnr")


def too_small_for_speed(cli):
    # speed_chroma needs chroma planes of at least 80x80; 176x144 4:2:0 has 88x72
    # (libvmaf's tool crashes here). speed_temporal works on luma: it runs.
    r = cli.run(*cli.pair(SMALL), "-n", "--feature", "speed_chroma")
    expect_error(r, 4, "speed_chroma", "176x144", "88x72", "80x80")
    r = cli.run(*cli.pair(SMALL), "-n", "--feature", "speed_temporal")
    check(r.rc == 0, "speed_temporal runs on 176x144", r)
    # The v1 phone model prescales the chroma planes by 0.6: 160x120 become 96x72
    # (libvmaf crashes there too).
    r = cli.run(*cli.pair(OTHER_SIZE), "-m", "version=vmaf_v1.0.16_5d0h")
    expect_error(r, 4, "speed_chroma", "160x120", "96x72 after speed_prescale 0.6", "80x80")


def bad_option_values(cli):
    pair = cli.pair(SMALL)
    cases = [
        (["--threads", "abc"], "--threads"),
        (["--threads", "-1"], "--threads"),
        (["--threads", "99999"], "--threads"),
        (["--threads", "+5"], "--threads"),
        (["--threads", " 5"], "--threads"),
        (["--threads", "0x10"], "--threads"),
        (["--frame_cnt", "4294967297"], "--frame_cnt"),
        (["--vulkan_device", "4294967296"], "--vulkan_device"),
        (["--cpumask", "0x"], "--cpumask"),
        (["--subsample", "2x"], "--subsample"),
        (["--frame_cnt", ""], "--frame_cnt"),
        (["-p", "411", "-w", "176", "-h", "144", "-b", "8"], "-p/--pixel_format"),
        (["-w", "0x"], "-w/--width"),
        (["--backend", "gpu"], "--backend"),
        (["-m", "version=vmaf_v0.6.1:bogus"], "bogus"),
        (["-m", "name=x"], "path= or version="),
        (["-m", "version=vmaf_v0.6.1:disable_clip=maybe"], "disable_clip"),
        (["--feature", "psnr=enable_chroma"], "enable_chroma"),
        (["--feature", "=x=1"], "feature name"),
        (["-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg"], "name="),
        (["-w", "176"], "-b/--bitdepth"),
        (["-n"], "nothing to compute"),
        (["--vulkan_device", "0"], "--backend"),
    ]
    for extra, phrase in cases:
        expect_error(cli.run(*pair, *extra), 1, phrase)


def bad_flags(cli):
    pair = cli.pair(SMALL)
    expect_error(cli.run(*pair, "--no-such-flag"), 1, "unknown option", "--no-such-flag")
    expect_error(cli.run(*pair, "-Z"), 1, "unknown option", "-Z")
    expect_error(cli.run(*pair, "--threads"), 1, "--threads", "needs a value")
    expect_error(cli.run(*pair, "stray.y4m"), 1, "unexpected argument", "stray.y4m")
    expect_error(cli.run("-d", cli.path(SMALL + "_dis.y4m")), 1, "-r/--reference")
    expect_error(cli.run("-r", cli.path(SMALL + "_ref.y4m")), 1, "-d/--distorted")
    expect_error(cli.run(), 1, "--help")


def unwritable_output(cli):
    out = cli.scratch("no_such_dir/out.json")
    r = cli.run(*cli.pair(SMALL), *FEATURES_ONLY, "--json", "-o", out)
    expect_error(r, 4, out)


def vulkan_backend(cli):
    # Until a Vulkan device drives the tool, asking for one is a set-up error that
    # says why; auto falls back to the CPU.
    r = cli.run(*cli.pair(SMALL), *FEATURES_ONLY, "--backend", "vulkan")
    if r.rc != 0:
        expect_error(r, 3, "vulkan")
    r = cli.run(*cli.pair(SMALL), *FEATURES_ONLY, "--backend", "auto")
    check(r.rc == 0, "--backend auto must fall back to the CPU", r)


def backend_option_over_environment(cli):
    # --backend is the tool's choice (vmaf_init_backend): VMAF_BACKEND is not
    # read then, so a value vmaf_init refuses changes nothing; without the
    # option the library reads it, as for any client (docs/environment.md).
    plain = cli.run(*cli.pair(SMALL), *FEATURES_ONLY, "--backend", "cpu", "--json", "-o", "-")
    check(plain.rc == 0, "--backend cpu", plain)
    r = cli.run(*cli.pair(SMALL), *FEATURES_ONLY, "--backend", "cpu", "--json", "-o", "-",
                env={"VMAF_BACKEND": "gpu"})
    check(r.rc == 0, "VMAF_BACKEND=gpu must not matter with --backend cpu", r)
    scores = [{k: v for k, v in json.loads(x.out).items() if k != "fps"} for x in (plain, r)]
    check(scores[0] == scores[1], "VMAF_BACKEND=gpu changed the scores of --backend cpu", r)
    check("VMAF_BACKEND" not in r.err, "VMAF_BACKEND=gpu was read with --backend cpu", r)
    r = cli.run(*cli.pair(SMALL), *FEATURES_ONLY, env={"VMAF_BACKEND": "gpu"})
    expect_error(r, 3, "VMAF_BACKEND=gpu is not a backend")


def help_and_version(cli):
    r = cli.run("--help")
    check(r.rc == 0 and "--reference" in r.out and "Exit status" in r.out, "--help", r)
    r = cli.run("--version")
    check(r.rc == 0 and r.out.strip() != "", "--version prints the version", r)
    check(cli.run("-v").out == r.out, "-v is --version")


if __name__ == "__main__":
    main([size_mismatch, chroma_mismatch, depth_mismatch, truncated_y4m, truncated_late, corrupt_frame_marker,
          corrupt_headers, missing_file, zero_frames, raw_bad_geometry, unsupported_bit_depth,
          unknown_model_version, corrupt_model_json, unknown_feature, too_small_for_speed, bad_option_values,
          bad_flags, unwritable_output, vulkan_backend, backend_option_over_environment,
          help_and_version], sys.argv)
