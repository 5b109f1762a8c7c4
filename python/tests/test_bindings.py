# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The bindings against Netflix libvmaf's own output for the golden pairs."""

import json

import numpy as np
import pytest

import vmafvk
from conftest import PAIRS, golden, golden_path, pair_paths

TOL = 1e-4


def scores_y4m(name, *, features=(), model=None, **ctx_args):
    ref, dist = pair_paths(name)
    with vmafvk.Context(**ctx_args) as ctx:
        if model:
            ctx.use_model(version=model)
        for f in features:
            ctx.use_feature(f)
        ctx.feed_y4m(ref, dist)
        return {n: ctx.feature(n) for n in ctx.feature_names()}


def assert_close(got, expected, name):
    assert got.shape == expected.shape, name
    diff = np.abs(got - expected)
    assert np.nanmax(diff) <= TOL, f"{name}: max |diff| {np.nanmax(diff):.3g} at frame {int(np.nanargmax(diff))}"


@pytest.mark.parametrize("name", PAIRS)
def test_psnr_matches_libvmaf(lib, name):
    got = scores_y4m(name, features=["psnr"])
    exp, _ = golden(name)
    for key in ("psnr_y", "psnr_cb", "psnr_cr"):
        assert_close(got[key], exp[key], f"{name} {key}")


@pytest.mark.parametrize("name", PAIRS)
def test_motion_matches_libvmaf(lib, name):
    got = scores_y4m(name, features=["motion"])
    exp, _ = golden(name)
    for key in ("integer_motion2", "integer_motion3"):
        assert_close(got[key], exp[key], f"{name} {key}")


@pytest.mark.parametrize("name", PAIRS)
def test_vmaf_v061_matches_libvmaf(lib, name):
    got = scores_y4m(name, model="vmaf_v0.6.1")
    exp, _ = golden(name)
    assert_close(got["vmaf"], exp["vmaf"], f"{name} vmaf")


@pytest.mark.parametrize("model", ["vmaf_v0.6.1neg", "vmaf_4k_v0.6.1"])
@pytest.mark.parametrize("name", ["coffee_320x240_crf28", "rocket_320x240_10bit_crf30"])
def test_other_models_match_libvmaf(lib, name, model):
    got = scores_y4m(name, model=model)
    exp, _ = golden(name, model)
    assert_close(got["vmaf"], exp["vmaf"], f"{name} {model}")


def test_bootstrap_model_matches_libvmaf(lib):
    name, model = "coffee_320x240_crf28", "vmaf_b_v0.6.3"
    ref, dist = pair_paths(name)
    exp, _ = golden(name, model)
    with vmafvk.Context() as ctx:
        m = ctx.use_model(version=model)
        assert m.bootstrap
        ctx.feed_y4m(ref, dist)
        assert_close(ctx.vmaf_scores(m), exp["vmaf"], "vmaf")
        b = ctx.bootstrap_scores(m)
        for key in ("bagging", "stddev", "ci_p95_lo", "ci_p95_hi"):
            assert_close(b[key], exp[f"vmaf_{key}"], key)


def test_pooled_matches_libvmaf(lib):
    name = "mandel_176x144_noise"
    ref, dist = pair_paths(name)
    _, doc = golden(name)
    with vmafvk.Context() as ctx:
        ctx.use_feature("psnr")
        ctx.feed_y4m(ref, dist)
        for method in ("mean", "min", "max", "harmonic_mean"):
            assert abs(ctx.pooled("psnr_y", method) - doc["pooled_metrics"]["psnr_y"][method]) <= TOL


def test_pooled_model_score(lib):
    name = "coffee_320x240_crf28"
    ref, dist = pair_paths(name)
    _, doc = golden(name)
    with vmafvk.Context() as ctx:
        ctx.use_model(version="vmaf_v0.6.1")
        ctx.feed_y4m(ref, dist)
        assert abs(ctx.pooled("vmaf") - doc["pooled_metrics"]["vmaf"]["mean"]) <= TOL
        scores = ctx.vmaf_scores("vmaf")
        assert abs(ctx.pooled() - scores.mean()) <= 1e-9


@pytest.mark.parametrize("name", ["coffee_320x240_crf28", "astronaut_320x240_422_crf33",
                                  "coffee_320x240_444_crf30", "rocket_320x240_10bit_crf30",
                                  "chelsea_322x186_rescale"])
def test_numpy_feeding_equals_y4m_feeding(lib, name):
    ref_path, dist_path = pair_paths(name)
    from_file = scores_y4m(name, features=["psnr", "motion"])
    ref, dist = vmafvk.Y4MReader(ref_path), vmafvk.Y4MReader(dist_path)
    bpc = ref.bpc if ref.bpc > 8 else None
    with vmafvk.Context() as ctx:
        ctx.use_feature("psnr")
        ctx.use_feature("motion")
        for r, d in zip(ref, dist):
            # Copies in fresh, non-contiguous and contiguous layouts.
            ctx.feed(tuple(np.array(p) for p in r), [np.asfortranarray(p) for p in d], bpc=bpc)
        assert ctx.frame_count == len(ref)
        from_numpy = {n: ctx.feature(n) for n in ctx.feature_names()}
    assert from_numpy.keys() == from_file.keys()
    for key in from_file:
        np.testing.assert_array_equal(from_numpy[key], from_file[key], err_msg=key)


def test_luma_only_frames(lib):
    name = "coffee_320x240_crf28"
    exp, _ = golden(name)
    ref, dist = (vmafvk.Y4MReader(p) for p in pair_paths(name))
    with vmafvk.Context() as ctx:
        ctx.use_feature("psnr")
        for r, d in zip(ref, dist):
            ctx.feed(r[0], d[0])
        names = ctx.feature_names()
        assert "psnr_cb" not in names
        assert_close(ctx.feature("psnr_y"), exp["psnr_y"], "psnr_y")


def test_frame_scores_and_write(lib, tmp_path):
    name = "astronaut_176x144_crf35"
    ref, dist = pair_paths(name)
    exp, _ = golden(name)
    out = tmp_path / "out.json"
    with vmafvk.Context() as ctx:
        ctx.use_feature("psnr")
        ctx.feed_y4m(ref, dist)
        frames = ctx.frame_scores()
        ctx.write(out, "json")
        ctx.write(tmp_path / "out.xml", "xml")
    assert len(frames) == 10
    assert set(frames[3]) == {"psnr_y", "psnr_cb", "psnr_cr"}
    assert abs(frames[3]["psnr_cb"] - exp["psnr_cb"][3]) <= TOL
    doc = json.loads(out.read_text())
    assert [fr["frameNum"] for fr in doc["frames"]] == list(range(10))
    for i, fr in enumerate(doc["frames"]):
        assert abs(fr["metrics"]["psnr_y"] - frames[i]["psnr_y"]) <= 1e-6
    assert "<VMAF version=" in (tmp_path / "out.xml").read_text()


@pytest.mark.parametrize("ctx_args", [{"threads": 2}, {"threads": 3, "picture_pool": False},
                                      {"picture_pool": False}])
def test_threads_and_allocation_give_the_same_scores(lib, ctx_args):
    name = "motorcycle_320x240_blur"
    one = scores_y4m(name, features=["psnr", "motion"])
    other = scores_y4m(name, features=["psnr", "motion"], **ctx_args)
    for key in one:
        np.testing.assert_array_equal(one[key], other[key], err_msg=key)


@pytest.mark.parametrize("threads", [0, 1, 4])
def test_long_runs_recycle_pool_pictures(lib, threads):
    # Many more frames than pooled pictures, with motion holding references.
    rng = np.random.default_rng(threads)
    frames = [rng.integers(0, 256, (36, 44), dtype=np.uint8) for _ in range(4)]
    with vmafvk.Context(threads=threads) as ctx:
        ctx.use_feature("motion")
        ctx.use_feature("psnr")
        for i in range(60):
            ctx.feed(frames[i % 4], frames[(i + 1) % 4])
        psnr = ctx.feature("psnr_y")
    assert psnr.shape == (60,) and not np.isnan(psnr).any()
    np.testing.assert_array_equal(psnr[:4], psnr[4:8])


def test_subsample_scores_every_nth_frame(lib):
    name = "testsrc2_320x240_crf45"
    exp, _ = golden(name)
    got = scores_y4m(name, features=["psnr"], subsample=3)
    psnr = got["psnr_y"]
    assert np.isnan(psnr[[1, 2, 4, 5, 7, 8]]).all()
    assert_close(psnr[[0, 3, 6, 9]], exp["psnr_y"][[0, 3, 6, 9]], "psnr_y")


def test_feature_options_reach_the_library(lib):
    # min_sse caps PSNR of identical frames; chelsea's pair is identical.
    name = "chelsea_176x144_identical"
    ref, dist = pair_paths(name)
    with vmafvk.Context() as ctx:
        ctx.use_feature("psnr", enable_chroma=False)
        ctx.feed_y4m(ref, dist)
        names = ctx.feature_names()
    assert names == ["psnr_y"]


def test_library_version(lib):
    assert vmafvk.library_version() == lib.version()
    assert lib.version()


# -- bad input --------------------------------------------------------------

def _ctx():
    ctx = vmafvk.Context()
    ctx.use_feature("psnr")
    return ctx


def test_rejects_wrong_shapes(lib):
    y = np.zeros((16, 16), np.uint8)
    c = np.zeros((8, 8), np.uint8)
    with _ctx() as ctx:
        with pytest.raises(ValueError, match="2-D"):
            ctx.feed(np.zeros((16, 16, 3), np.uint8), np.zeros((16, 16, 3), np.uint8))
        with pytest.raises(ValueError, match="3 planes"):
            ctx.feed((y, c), (y, c))
        with pytest.raises(ValueError, match="fit no"):
            ctx.feed((y, np.zeros((5, 5), np.uint8), np.zeros((5, 5), np.uint8)),
                     (y, np.zeros((5, 5), np.uint8), np.zeros((5, 5), np.uint8)))
        with pytest.raises(ValueError, match="U is"):
            ctx.feed((y, c, np.zeros((8, 16), np.uint8)), (y, c, np.zeros((8, 16), np.uint8)))
        with pytest.raises(ValueError, match="empty"):
            ctx.feed(np.zeros((0, 16), np.uint8), np.zeros((0, 16), np.uint8))
        with pytest.raises(ValueError):
            ctx.feed([[1, 2], [3, 4]], [[1, 2], [3, 4]])
        assert ctx.frame_count == 0


def test_rejects_mismatched_sizes(lib):
    with _ctx() as ctx:
        with pytest.raises(ValueError, match="plane 0"):
            ctx.feed(np.zeros((16, 16), np.uint8), np.zeros((16, 18), np.uint8))
        with pytest.raises(ValueError, match="planes"):
            ctx.feed(np.zeros((16, 16), np.uint8),
                     (np.zeros((16, 16), np.uint8),) + (np.zeros((8, 8), np.uint8),) * 2)
        ctx.feed(np.zeros((16, 16), np.uint8), np.ones((16, 16), np.uint8))
        with pytest.raises(ValueError, match="earlier frames"):
            ctx.feed(np.zeros((32, 16), np.uint8), np.zeros((32, 16), np.uint8))
        assert ctx.frame_count == 1


def test_rejects_bad_dtypes_and_depths(lib):
    with _ctx() as ctx:
        f = np.zeros((16, 16), np.float32)
        with pytest.raises(ValueError, match="dtype"):
            ctx.feed(f, f)
        w = np.zeros((16, 16), np.uint16)
        with pytest.raises(ValueError, match="bpc"):
            ctx.feed(w, w)
        with pytest.raises(ValueError, match="bpc"):
            ctx.feed(np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint8), bpc=10)
        with pytest.raises(ValueError, match="1024 does not fit in 10 bits"):
            ctx.feed(w, w + 1024, bpc=10)
        with pytest.raises(ValueError):
            ctx.feed(np.zeros((16, 16), np.uint8), w, bpc=10)
        with pytest.raises(ValueError, match="between 9 and 16"):
            ctx.feed(w, w, bpc=20)
        assert ctx.frame_count == 0


def test_library_rejections_carry_errno(lib):
    # bpc=11 passes the Python checks, but is not a depth the library accepts:
    # the error comes from C, with its errno and message.
    w = np.zeros((16, 16), np.uint16)
    for pool in (True, False):
        with vmafvk.Context(picture_pool=pool) as ctx:
            ctx.use_feature("psnr")
            with pytest.raises(vmafvk.VmafError) as e:
                ctx.feed(w, w, bpc=11)
            assert e.value.errno_name == "EINVAL"
            assert e.value.function in ("vmaf_picture_alloc", "vmaf_preallocate_pictures")
            assert ctx.frame_count == 0


def test_rejected_frames_release_their_pictures(lib):
    # A context without features rejects every frame in vmaf_read_pictures. Were the
    # pictures not given back, the pool (6 pictures) would run dry and block.
    import threading
    outcome = []

    def feed_many():
        with vmafvk.Context() as ctx:
            y = np.zeros((16, 16), np.uint8)
            for _ in range(20):
                try:
                    ctx.feed(y, y)
                except vmafvk.VmafError as e:
                    outcome.append(e)
    t = threading.Thread(target=feed_many, daemon=True)
    t.start()
    t.join(timeout=60)
    assert not t.is_alive(), "feeding blocked: rejected pictures were not released"
    assert len(outcome) == 20
    assert outcome[0].function == "vmaf_read_pictures"
    assert "no feature or model" in outcome[0].message


def test_missing_files(lib, tmp_path):
    ref, dist = pair_paths("coffee_320x240_crf28")
    with _ctx() as ctx:
        with pytest.raises(FileNotFoundError):
            ctx.feed_y4m(ref, tmp_path / "absent.y4m")
        with pytest.raises(FileNotFoundError):
            ctx.use_model(path=tmp_path / "absent.json")


def test_mismatched_y4m_pairs(lib, tmp_path):
    ref, dist = pair_paths("coffee_320x240_crf28")
    other, _ = pair_paths("astronaut_176x144_crf35")
    with _ctx() as ctx:
        with pytest.raises(ValueError, match="differ in width"):
            ctx.feed_y4m(ref, other)
    short = tmp_path / "short.y4m"
    data = open(dist, "rb").read()
    frame = 320 * 240 * 3 // 2 + len(b"FRAME\n")
    short.write_bytes(data[:len(data) - frame])
    with _ctx() as ctx:
        with pytest.raises(ValueError, match="10 frames.*9"):
            ctx.feed_y4m(ref, short)
        assert ctx.frame_count == 0


def test_library_errors_carry_errno_and_message(lib):
    with vmafvk.Context() as ctx:
        with pytest.raises(vmafvk.VmafError) as e:
            ctx.use_feature("no_such_feature")
        assert e.value.errno_name == "EINVAL"
        assert e.value.function == "vmaf_use_feature"
        assert "no_such_feature" in e.value.message
        assert "EINVAL" in str(e.value)
        with pytest.raises(vmafvk.VmafError) as e:
            ctx.use_feature("psnr", no_such_option=1)
        assert e.value.errno_name == "EINVAL"
        assert "no_such_option" in e.value.message
        with pytest.raises(vmafvk.VmafError) as e:
            ctx.use_model(version="no_such_model_v0")
        assert e.value.code > 0


def test_context_misuse(lib):
    with pytest.raises(ValueError):
        vmafvk.Context(backend="gpu")
    with pytest.raises(ValueError):
        vmafvk.Context(threads=-1)
    with pytest.raises(ValueError):
        vmafvk.Context(device=0)
    with pytest.raises(ValueError):
        vmafvk.Context(log_level="loud")
    ctx = _ctx()
    with pytest.raises(ValueError, match="no frames"):
        ctx.feature("psnr_y")
    ctx.close()
    ctx.close()
    with pytest.raises(ValueError, match="closed"):
        ctx.use_feature("psnr")
    with _ctx() as ctx:
        ctx.feed(np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint8))
        with pytest.raises(ValueError, match="before the first frame"):
            ctx.use_feature("motion")
        with pytest.raises(KeyError):
            ctx.feature("nope")
        with pytest.raises(ValueError):
            ctx.pooled("psnr_y", method="median")
        with pytest.raises(ValueError):
            ctx.write("/dev/null", fmt="yaml")
        ctx.flush()
        with pytest.raises(ValueError, match="flushed"):
            ctx.feed(np.zeros((16, 16), np.uint8), np.zeros((16, 16), np.uint8))
        with pytest.raises(ValueError, match="no model"):
            ctx.vmaf_scores()


def test_parse_model_spec():
    assert vmafvk.parse_model_spec("version=vmaf_v0.6.1") == {"version": "vmaf_v0.6.1"}
    assert vmafvk.parse_model_spec("path=m.json:name=x:disable_clip") == \
        {"path": "m.json", "name": "x", "disable_clip": True}
    for bad in ("", "name=x", "version=a:path=b", "colour=red", "version="):
        with pytest.raises(ValueError):
            vmafvk.parse_model_spec(bad)
