# SPDX-License-Identifier: BSD-2-Clause-Patent
"""vmafvk.Context: one scoring session over a sequence of frame pairs."""

from __future__ import annotations

import ctypes
import errno
import functools
import json
import math
import os
import tempfile

import numpy as np

from . import _lib
from ._lib import VmafError
from .y4m import Y4MReader

__all__ = ["Context", "Model", "parse_model_spec"]

_PIX_FMT_CODES = {
    "420": _lib.PIX_FMT_YUV420P,
    "422": _lib.PIX_FMT_YUV422P,
    "444": _lib.PIX_FMT_YUV444P,
    "400": _lib.PIX_FMT_YUV400P,
}
_BACKENDS = ("cpu", "vulkan", "auto")
_MAX_DIM = 1 << 16


class Model:
    """A model loaded into a Context (see Context.use_model).

    ``name`` is the name its scores carry ("vmaf" unless set); ``bootstrap``
    tells whether it is a model collection (vmaf_b_v0.6.3 and friends).
    """

    def __init__(self, name: str, source: str, handle, collection):
        self.name = name
        self.source = source
        self._handle = handle
        self._collection = collection

    @property
    def bootstrap(self) -> bool:
        return bool(self._collection)

    def __repr__(self) -> str:
        kind = "bootstrap model" if self.bootstrap else "model"
        return f"<vmafvk {kind} {self.name!r} from {self.source}>"


def parse_model_spec(spec: str) -> dict:
    """libvmaf's --model syntax, "version=vmaf_v0.6.1:name=foo:disable_clip",
    as keyword arguments of Context.use_model."""
    kwargs = {}
    flags = {"disable_clip", "enable_transform"}
    for part in filter(None, spec.split(":")):
        key, sep, value = part.partition("=")
        if key in flags and (not sep or value.lower() in ("true", "1")):
            kwargs[key] = True
        elif key in flags and value.lower() in ("false", "0"):
            kwargs[key] = False
        elif key in ("version", "path", "name") and sep and value:
            kwargs[key] = value
        else:
            raise ValueError(f"bad model option {part!r} in {spec!r} "
                             "(expected version=, path=, name=, disable_clip, enable_transform)")
    if ("version" in kwargs) == ("path" in kwargs):
        raise ValueError(f"model {spec!r}: give exactly one of version= and path=")
    return kwargs


def _feature_dictionary(lib, opts: dict):
    """A VmafFeatureDictionary with `opts` (None when empty). Values are written
    the way libvmaf parses them: bools as true/false, numbers with repr."""
    handle = ctypes.c_void_p()
    try:
        for key, value in opts.items():
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, (int, float, np.integer, np.floating)):
                text = repr(value.item() if hasattr(value, "item") else value)
            elif isinstance(value, str):
                text = value
            else:
                raise TypeError(f"option {key}: expected a bool, number or string, "
                                f"got {type(value).__name__}")
            lib.call("vmaf_feature_dictionary_set", ctypes.byref(handle),
                     str(key).encode(), text.encode())
    except BaseException:
        if handle:
            lib.vmaf_feature_dictionary_free(ctypes.byref(handle))
        raise
    return handle


def _as_planes(frame, what: str) -> tuple:
    if isinstance(frame, np.ndarray):
        planes = (frame,)
    elif isinstance(frame, (tuple, list)):
        planes = tuple(frame)
        if len(planes) not in (1, 3):
            raise ValueError(f"{what}: expected a 2-D luma array or a tuple of 3 planes "
                             f"(Y, U, V), got a sequence of {len(planes)}")
    else:
        raise ValueError(f"{what}: expected a numpy array or a tuple of 3 numpy arrays, "
                         f"got {type(frame).__name__}")
    for i, p in enumerate(planes):
        if not isinstance(p, np.ndarray):
            raise ValueError(f"{what}: plane {i} is a {type(p).__name__}, not a numpy array")
        if p.ndim != 2:
            raise ValueError(f"{what}: plane {i} has shape {p.shape}; planes are 2-D "
                             "(height, width)")
        if p.shape[0] == 0 or p.shape[1] == 0:
            raise ValueError(f"{what}: plane {i} is empty {p.shape}")
    return planes


def _pix_fmt_of(planes, what: str) -> str:
    if len(planes) == 1:
        return "400"
    h, w = planes[0].shape
    if planes[1].shape != planes[2].shape:
        raise ValueError(f"{what}: U is {planes[1].shape} but V is {planes[2].shape}")
    for name, (sx, sy) in (("444", (0, 0)), ("422", (1, 0)), ("420", (1, 1))):
        if planes[1].shape == ((h + sy) >> sy, (w + sx) >> sx):
            return name
    raise ValueError(f"{what}: chroma planes {planes[1].shape} fit no 4:2:0, 4:2:2 or 4:4:4 "
                     f"layout of a {h}x{w} luma plane (shapes are (height, width))")


def _bpc_of(planes, bpc, what: str) -> int:
    dtypes = {p.dtype for p in planes}
    if len(dtypes) != 1:
        raise ValueError(f"{what}: planes have different dtypes {sorted(map(str, dtypes))}")
    dtype = planes[0].dtype
    if dtype == np.uint8:
        if bpc not in (None, 8):
            raise ValueError(f"{what}: uint8 samples are 8-bit, but bpc={bpc}")
        return 8
    if dtype == np.uint16:
        if bpc is None:
            raise ValueError(f"{what}: uint16 samples need bpc= (10, 12 or 16)")
        if not isinstance(bpc, (int, np.integer)) or not 9 <= bpc <= 16:
            raise ValueError(f"{what}: bpc must be between 9 and 16 for uint16 samples, got {bpc!r}")
        if bpc < 16:
            top = max(int(p.max()) for p in planes)
            if top >> bpc:
                raise ValueError(f"{what}: sample value {top} does not fit in {bpc} bits")
        return int(bpc)
    raise ValueError(f"{what}: dtype {dtype} is not supported (uint8, or uint16 with bpc=)")


class _PlaneView:
    """A writable numpy view of a plane of library memory (without making a
    ctypes array type per plane, which costs more than copying a small plane)."""

    __slots__ = ("__array_interface__",)

    def __init__(self, address: int, shape, strides, typestr: str):
        self.__array_interface__ = {"data": (address, False), "shape": shape,
                                    "strides": strides, "typestr": typestr, "version": 3}


def _copy_into(pic: _lib.VmafPicture, planes) -> None:
    for i, src in enumerate(planes):
        itemsize = src.dtype.itemsize
        dst = np.asarray(_PlaneView(pic.data[i], src.shape, (pic.stride[i], itemsize),
                                    src.dtype.newbyteorder("=").str))
        dst[...] = src


# enum VmafBackend (libvmaf_vulkan.h).
_CHOOSER_BACKENDS = {"cpu": 0, "vulkan": 1, "auto": 2}


@functools.cache
def _backend_choice_type(vulkan):
    """struct VmafBackendChoice (libvmaf_vulkan.h)."""
    class VmafBackendChoice(ctypes.Structure):
        _fields_ = [("backend", ctypes.c_int), ("device", vulkan.VmafVulkanDeviceInfo),
                    ("reason", ctypes.c_char * 256)]
    return VmafBackendChoice


def _bind_chooser(lib, vulkan) -> bool:
    """Bind vmaf_init_backend once; False when the library lacks it."""
    if getattr(lib, "_chooser_bound", None) is None:
        lib._chooser_bound = lib.has("vmaf_init_backend")
        if lib._chooser_bound:
            lib.bind("vmaf_init_backend", ctypes.c_int,
                     [ctypes.POINTER(ctypes.c_void_p), _lib.VmafConfiguration, ctypes.c_int,
                      vulkan.VmafVulkanConfiguration, ctypes.POINTER(_backend_choice_type(vulkan))])
    return lib._chooser_bound


def _device_configuration(vulkan, device):
    """The VmafVulkanConfiguration of `device`: None for the library's choice
    ($VMAF_VULKAN_DEVICE, else the best usable device), an index, or a name
    substring."""
    cfg = vulkan.VmafVulkanConfiguration()
    cfg.device_index = vulkan.DEVICE_AUTO
    if isinstance(device, str):
        if not device:
            raise ValueError("device name must not be empty")
        cfg.device_name = device.encode()
    elif device is not None:
        if isinstance(device, bool) or not isinstance(device, (int, np.integer)) or device < 0:
            raise ValueError(f"device must be None, an index >= 0 or a name, got {device!r}")
        cfg.device_index = int(device)
    return cfg


class Context:
    """A libvmaf context.

    backend: "cpu", "vulkan" (fail unless a Vulkan device is usable) or "auto"
    (Vulkan when usable, otherwise the CPU). ``ctx.backend`` tells which one
    was chosen. threads: frame threads (0 runs on the caller's thread).
    subsample: score every n-th frame. device: Vulkan device index, a
    case-insensitive device name substring, or None for the library's choice
    ($VMAF_VULKAN_DEVICE, else the best usable device), see
    vmafvk.list_vulkan_devices(); or a vmafvk.VulkanDevice to share (not owned). log_level: "none", "error", "warning", "info",
    "debug". library: path of libvmaf.so (overrides $VMAFVK_LIBRARY).
    """

    def __init__(self, backend: str = "cpu", threads: int = 0, subsample: int = 1,
                 device=None, log_level: str = "error", library: str | None = None,
                 picture_pool: bool = True):
        self._handle = None
        self._vulkan = None
        self._models = []
        if backend not in _BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(_BACKENDS)}, got {backend!r}")
        for name, value, low in (("threads", threads, 0), ("subsample", subsample, 0)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
        if log_level not in _lib.LOG_LEVELS:
            raise ValueError(f"log_level must be one of {', '.join(_lib.LOG_LEVELS)}")
        if device is not None and backend == "cpu":
            raise ValueError("device= needs backend='vulkan' or backend='auto'")
        self._lib = _lib.load_library(library)
        self.threads = int(threads)
        self.subsample = max(int(subsample), 1)
        cfg = _lib.VmafConfiguration(_lib.LOG_LEVELS[log_level], self.threads, self.subsample, 0, 0)
        self._frames = 0
        self._pool = bool(picture_pool)
        self._pool_ready = False
        self._format = None        # (pix_fmt, bpc, shapes) of the first frame
        self._flushed = False
        self._scored = False
        self._names = None
        self.backend = "cpu"
        self.device_name = None
        self.vulkan_unavailable_reason = None
        try:
            self._attach_vulkan(backend, device, cfg)
        except BaseException:
            self.close()
            raise

    # -- set-up -------------------------------------------------------------

    def _attach_vulkan(self, backend: str, device, cfg) -> None:
        """Create the context on `backend`. The CPU: vmaf_init(), which leaves
        the choice to VMAF_BACKEND as for any client that makes none. A shared
        VulkanDevice: vmaf_init() and the device imported. Otherwise the
        library's one backend chooser, vmaf_init_backend(): its rule (auto
        falls back to the CPU, vulkan fails with the reason) and its messages."""
        from . import vulkan
        lib = self._lib
        handle = ctypes.c_void_p()
        if backend == "cpu" or isinstance(device, vulkan.VulkanDevice):
            lib.call("vmaf_init", ctypes.byref(handle), cfg)
            self._handle = handle
            if backend != "cpu":
                # A device the caller keeps: imported, not owned (close() leaves it).
                if device._lib is not lib:
                    raise ValueError("the VulkanDevice belongs to another library")
                device._import_into(handle)
                self.backend = "vulkan"
                self.device_name = device.device_name
            return
        dev = _device_configuration(vulkan, device)
        if not _bind_chooser(lib, vulkan):
            if backend == "vulkan":
                lib.require("vmaf_init_backend")
            self.vulkan_unavailable_reason = f"{lib.path} does not export vmaf_init_backend"
            lib.call("vmaf_init", ctypes.byref(handle), cfg)
            self._handle = handle
            return
        chosen = _backend_choice_type(vulkan)()
        lib.call("vmaf_init_backend", ctypes.byref(handle), cfg, _CHOOSER_BACKENDS[backend], dev,
                 ctypes.byref(chosen))
        self._handle = handle
        if chosen.backend == _CHOOSER_BACKENDS["vulkan"]:
            self.backend = "vulkan"
            self.device_name = chosen.device.name.decode("utf-8", "replace")
        else:
            self.vulkan_unavailable_reason = chosen.reason.decode("utf-8", "replace")

    def _check_open(self) -> None:
        if self._handle is None:
            raise ValueError("the context is closed")

    def _check_not_started(self, what: str) -> None:
        self._check_open()
        if self._frames:
            raise ValueError(f"{what} must come before the first frame")

    def use_feature(self, name: str, **opts) -> None:
        """Compute feature extractor `name` ("psnr", "motion", "vif", "adm", or a
        provided name such as "integer_adm2") with options `opts`."""
        self._check_not_started("use_feature")
        if not isinstance(name, str) or not name:
            raise ValueError("feature name must be a non-empty string")
        d = _feature_dictionary(self._lib, opts)
        # vmaf_use_feature takes the dictionary whatever it returns.
        self._lib.call("vmaf_use_feature", self._handle, name.encode(), d)

    def use_model(self, version: str | None = None, path: str | None = None,
                  name: str | None = None, disable_clip: bool = False,
                  enable_transform: bool = False, feature_options: dict | None = None) -> Model:
        """Load a model by version ("vmaf_v0.6.1", from $VMAF_MODEL_DIR or the
        library's model directory) or from a JSON file, and register the
        features it needs. Bootstrap collections (vmaf_b_v0.6.3) are
        recognised the way libvmaf's tool does: when loading as a single model
        fails. feature_options: {"adm": {"adm_enhn_gain_limit": 1.0}, ...}
        overrides the options of the model's features."""
        self._check_not_started("use_model")
        if (version is None) == (path is None):
            raise ValueError("use_model needs exactly one of version= and path=")
        if path is not None and not os.path.isfile(path):
            raise FileNotFoundError(errno.ENOENT, "model file not found", str(path))
        lib = self._lib
        name = name or "vmaf"
        if any(m.name == name for m in self._models):
            raise ValueError(f"a model named {name!r} is already in use; pass name=")
        flags = ((_lib.MODEL_FLAG_DISABLE_CLIP if disable_clip else 0) |
                 (_lib.MODEL_FLAG_ENABLE_TRANSFORM if enable_transform else 0))
        name_bytes = name.encode()
        cfg = _lib.VmafModelConfig(name_bytes, flags)
        arg = (version if version is not None else os.fspath(path)).encode()
        single, multi = (("vmaf_model_load", "vmaf_model_collection_load") if version is not None
                         else ("vmaf_model_load_from_path", "vmaf_model_collection_load_from_path"))
        handle, collection = ctypes.c_void_p(), ctypes.c_void_p()
        try:
            lib.call(single, ctypes.byref(handle), ctypes.byref(cfg), arg)
        except VmafError as first:
            if not lib.has(multi) or first.code == errno.ENOSYS:
                raise
            try:
                lib.call(multi, ctypes.byref(handle), ctypes.byref(collection),
                         ctypes.byref(cfg), arg)
            except VmafError:
                raise first from None
        model = Model(name, version or os.fspath(path), handle, collection)
        model._name_bytes = name_bytes
        self._models.append(model)
        for feature, opts in (feature_options or {}).items():
            d = _feature_dictionary(lib, opts)
            if collection:
                lib.call("vmaf_model_collection_feature_overload", handle,
                         ctypes.byref(collection), feature.encode(), d)
            else:
                lib.call("vmaf_model_feature_overload", handle, feature.encode(), d)
        if collection:
            lib.call("vmaf_use_features_from_model_collection", self._handle, collection)
        else:
            lib.call("vmaf_use_features_from_model", self._handle, handle)
        return model

    # -- frames -------------------------------------------------------------

    def feed(self, ref, dist, bpc: int | None = None) -> int:
        """Score one frame pair. Each frame is a 2-D luma array or a tuple of
        3 planes (Y, U, V) whose shapes give the chroma layout; dtype uint8
        (8-bit) or uint16 with bpc=. Returns the frame's index."""
        self._check_open()
        if self._flushed:
            raise ValueError("the context was flushed; no more frames can be fed")
        ref_planes = _as_planes(ref, "ref")
        dist_planes = _as_planes(dist, "dist")
        if len(ref_planes) != len(dist_planes):
            raise ValueError(f"ref has {len(ref_planes)} planes, dist has {len(dist_planes)}")
        for i, (r, d) in enumerate(zip(ref_planes, dist_planes)):
            if r.shape != d.shape:
                raise ValueError(f"plane {i}: ref is {r.shape}, dist is {d.shape}")
        pix_fmt = _pix_fmt_of(ref_planes, "ref")
        ref_bpc = _bpc_of(ref_planes, bpc, "ref")
        if _bpc_of(dist_planes, bpc, "dist") != ref_bpc or ref_planes[0].dtype != dist_planes[0].dtype:
            raise ValueError(f"ref is {ref_planes[0].dtype}, dist is {dist_planes[0].dtype}")
        h, w = ref_planes[0].shape
        if h > _MAX_DIM or w > _MAX_DIM:
            raise ValueError(f"{w}x{h} is larger than {_MAX_DIM}x{_MAX_DIM}")
        fmt = (pix_fmt, ref_bpc, tuple(p.shape for p in ref_planes))
        if self._format is not None and fmt != self._format:
            raise ValueError(f"frame {self._frames} is {w}x{h} {pix_fmt} {ref_bpc}-bit; earlier "
                             f"frames were {self._format[2][0][1]}x{self._format[2][0][0]} "
                             f"{self._format[0]} {self._format[1]}-bit")
        self._submit(ref_planes, dist_planes, pix_fmt, ref_bpc)
        self._format = fmt
        return self._frames - 1

    def _pool_size(self) -> int:
        # The pool must cover the two pictures in our hands plus the two
        # previous references the library keeps for motion: those come back
        # only when later frames arrive, so fewer would block forever. Pictures
        # held by queued frames come back on their own; two per frame thread
        # let the queue fill.
        return 6 + 2 * self.threads

    def _new_picture(self, pic, pix_fmt: str, bpc: int, w: int, h: int) -> None:
        if self._pool and not self._pool_ready:
            cfg = _lib.VmafPictureConfiguration()
            cfg.pic_params.w, cfg.pic_params.h = w, h
            cfg.pic_params.bpc = bpc
            cfg.pic_params.pix_fmt = _PIX_FMT_CODES[pix_fmt]
            cfg.pic_cnt = self._pool_size()
            self._lib.call("vmaf_preallocate_pictures", self._handle, cfg)
            self._pool_ready = True
        if self._pool:
            self._lib.call("vmaf_fetch_preallocated_picture", self._handle, ctypes.byref(pic))
        else:
            self._lib.call("vmaf_picture_alloc", ctypes.byref(pic), _PIX_FMT_CODES[pix_fmt],
                           bpc, w, h)

    def _submit(self, ref_planes, dist_planes, pix_fmt: str, bpc: int) -> None:
        lib = self._lib
        h, w = ref_planes[0].shape
        pics = [_lib.VmafPicture(), _lib.VmafPicture()]
        allocated = []
        try:
            for pic, planes in zip(pics, (ref_planes, dist_planes)):
                self._new_picture(pic, pix_fmt, bpc, w, h)
                allocated.append(pic)
                _copy_into(pic, planes)
            # On success the context owns both pictures; on failure they are still ours.
            lib.call("vmaf_read_pictures", self._handle, ctypes.byref(pics[0]),
                     ctypes.byref(pics[1]), self._frames)
        except BaseException:
            for pic in allocated:
                lib.vmaf_picture_unref(ctypes.byref(pic))
            raise
        self._frames += 1

    def feed_y4m(self, ref_path, dist_path, max_frames: int | None = None) -> int:
        """Score every frame pair of two .y4m files (which must agree in size,
        format and frame count). Returns the number of frames fed."""
        for p in (ref_path, dist_path):
            if not os.path.isfile(p):
                raise FileNotFoundError(errno.ENOENT, "no such file", os.fspath(p))
        ref = Y4MReader(ref_path)
        dist = Y4MReader(dist_path)
        for attr in ("width", "height", "layout", "bpc"):
            if getattr(ref, attr) != getattr(dist, attr):
                raise ValueError(f"{ref_path} and {dist_path} differ in {attr}: "
                                 f"{getattr(ref, attr)} vs {getattr(dist, attr)}")
        if len(ref) != len(dist):
            raise ValueError(f"{ref_path} has {len(ref)} frames, {dist_path} has {len(dist)}")
        n = len(ref) if max_frames is None else min(len(ref), max_frames)
        bpc = ref.bpc if ref.bpc > 8 else None
        for i in range(n):
            self.feed(ref[i], dist[i], bpc=bpc)
        return n

    def flush(self) -> None:
        """Finish: wait for frames in flight, complete temporal features and
        compute the per-frame scores of every model. Idempotent."""
        self._check_open()
        if self._flushed:
            return
        self._lib.call("vmaf_read_pictures", self._handle, None, None, 0)
        self._flushed = True
        if self._frames:
            for m in self._models:
                self._pool_model(m, "mean")

    # -- scores -------------------------------------------------------------

    @property
    def library_version(self) -> str:
        return self._lib.version()

    @property
    def frame_count(self) -> int:
        return self._frames

    def _ready(self) -> None:
        self._check_open()
        if not self._flushed:
            self.flush()
        if not self._frames:
            raise ValueError("no frames were fed")

    def _model(self, model) -> Model:
        if isinstance(model, Model):
            if model not in self._models:
                raise ValueError(f"{model!r} belongs to another context")
            return model
        if model is None:
            if not self._models:
                raise ValueError("no model is in use (call use_model first)")
            return self._models[0]
        for m in self._models:
            if m.name == model:
                return m
        raise ValueError(f"no model named {model!r} in use "
                         f"(models: {', '.join(m.name for m in self._models) or 'none'})")

    def _pool_model(self, m: Model, method: str) -> float:
        score = ctypes.c_double()
        self._lib.call("vmaf_score_pooled", self._handle, m._handle, _lib.POOL_METHODS[method],
                       ctypes.byref(score), 0, self._frames - 1)
        return score.value

    def _scored_frames(self):
        return [i for i in range(self._frames) if i % self.subsample == 0]

    def feature_names(self) -> list:
        """Names of every per-frame score, as libvmaf writes them (features and models)."""
        self._ready()
        if self._names is None:
            fd, tmp = tempfile.mkstemp(suffix=".json", prefix="vmafvk-")
            os.close(fd)
            try:
                self._lib.call("vmaf_write_output", self._handle, tmp.encode(),
                               _lib.OUTPUT_FORMATS["json"])
                with open(tmp) as f:
                    doc = json.load(f)
            finally:
                os.unlink(tmp)
            names = []
            for frame in doc.get("frames", []):
                for key in frame.get("metrics", {}):
                    if key not in names:
                        names.append(key)
            self._names = names
        return list(self._names)

    def _score(self, name: bytes, index: int) -> float:
        value = ctypes.c_double()
        rc = self._lib.vmaf_feature_score_at_index(self._handle, name, ctypes.byref(value), index)
        return value.value if rc == 0 else math.nan

    def frame_scores(self) -> list:
        """One dict per frame fed: {score name: value}. Frames skipped by
        subsample= have empty dicts."""
        names = [(n, n.encode()) for n in self.feature_names()]
        out = []
        for i in range(self._frames):
            row = {}
            for n, nb in names:
                v = self._score(nb, i)
                if not math.isnan(v):
                    row[n] = v
            out.append(row)
        return out

    def feature(self, name: str) -> np.ndarray:
        """Per-frame values of one score (a feature or model name) as a float64
        array over the frames fed; NaN where a frame has no value."""
        self._ready()
        nb = name.encode()
        values = np.array([self._score(nb, i) for i in range(self._frames)])
        if np.isnan(values).all():
            raise KeyError(f"no score named {name!r} (scores: {', '.join(self.feature_names())})")
        return values

    def pooled(self, name_or_model=None, method: str = "mean") -> float:
        """Pool a feature's or model's per-frame scores over every frame:
        method "mean", "min", "max" or "harmonic_mean"."""
        if method not in _lib.POOL_METHODS:
            raise ValueError(f"method must be one of {', '.join(_lib.POOL_METHODS)}")
        self._ready()
        is_model = isinstance(name_or_model, Model) or name_or_model is None or \
            any(m.name == name_or_model for m in self._models)
        if is_model:
            return self._pool_model(self._model(name_or_model), method)
        score = ctypes.c_double()
        self._lib.call("vmaf_feature_score_pooled", self._handle, str(name_or_model).encode(),
                       _lib.POOL_METHODS[method], ctypes.byref(score), 0, self._frames - 1)
        return score.value

    def vmaf_scores(self, model=None) -> np.ndarray:
        """Per-frame scores of a model (a Model, its name, or None for the first one)."""
        self._ready()
        m = self._model(model)
        out = np.full(self._frames, math.nan)
        score = ctypes.c_double()
        for i in self._scored_frames():
            self._lib.call("vmaf_score_at_index", self._handle, m._handle, ctypes.byref(score), i)
            out[i] = score.value
        return out

    def bootstrap_scores(self, model=None) -> dict:
        """Per-frame bootstrap statistics of a model collection: arrays under
        "bagging", "stddev", "ci_p95_lo", "ci_p95_hi"."""
        self._ready()
        m = self._model(model)
        if not m.bootstrap:
            raise ValueError(f"{m!r} is not a bootstrap model collection")
        keys = ("bagging", "stddev", "ci_p95_lo", "ci_p95_hi")
        out = {k: np.full(self._frames, math.nan) for k in keys}
        s = _lib.VmafModelCollectionScore()
        for i in self._scored_frames():
            self._lib.call("vmaf_score_at_index_model_collection", self._handle, m._collection,
                           ctypes.byref(s), i)
            b = s.bootstrap
            for k, v in zip(keys, (b.bagging_score, b.stddev, b.ci.p95.lo, b.ci.p95.hi)):
                out[k][i] = v
        return out

    def write(self, path, fmt: str = "json") -> None:
        """Write libvmaf's output document: fmt "json", "xml", "csv" or "sub"."""
        if fmt not in _lib.OUTPUT_FORMATS:
            raise ValueError(f"fmt must be one of {', '.join(_lib.OUTPUT_FORMATS)}")
        self._ready()
        self._lib.call("vmaf_write_output", self._handle, os.fspath(path).encode(),
                       _lib.OUTPUT_FORMATS[fmt])

    # -- lifetime -----------------------------------------------------------

    def close(self) -> None:
        """Free the context, its models and its Vulkan device state. Idempotent."""
        lib = getattr(self, "_lib", None)
        if self._handle is not None:
            handle, self._handle = self._handle, None
            lib.call("vmaf_close", handle)
        # A collection's main model is a separate object: both are destroyed.
        for m in self._models:
            if m._collection:
                lib.vmaf_model_collection_destroy(m._collection)
            if m._handle:
                lib.vmaf_model_destroy(m._handle)
            m._handle = m._collection = None
        self._models = []
        if self._vulkan is not None:
            vk, self._vulkan = self._vulkan, None
            vk.release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        state = "closed" if self._handle is None else f"{self._frames} frames"
        return f"<vmafvk.Context backend={self.backend} {state}>"
