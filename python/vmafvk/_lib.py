# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Loading libvmaf and declaring its C API for ctypes.

The library is opened lazily, on the first call that needs it, so that the
parts of the package that do not compute scores (the Y4M reader, the plot
tool) work on machines without it. Functions are bound one by one: a symbol
the library does not export (the model API of a partial build, the Vulkan API
of a CPU-only build) is simply absent, and ``Library.has`` says so.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import sys
import tempfile
import threading

__all__ = ["VmafError", "library", "load_library"]

# ---------------------------------------------------------------------------
# Errors


class VmafError(RuntimeError):
    """A libvmaf call failed.

    ``code`` is the (positive) errno value, ``errno_name`` its symbolic name
    ("EINVAL"), ``function`` the C function that failed and ``message`` what
    the library logged about it (may be empty).
    """

    def __init__(self, function: str, code: int, message: str = ""):
        self.function = function
        self.code = code
        self.errno_name = errno.errorcode.get(code, f"E{code}")
        self.message = message.strip()
        text = f"{function}: {self.errno_name} ({os.strerror(code)})"
        if self.message:
            text += f": {self.message}"
        super().__init__(text)


# ---------------------------------------------------------------------------
# C structures (layouts of core/include/libvmaf/*.h)

LOG_LEVELS = {"none": 0, "error": 1, "warning": 2, "info": 3, "debug": 4}

PIX_FMT_UNKNOWN, PIX_FMT_YUV420P, PIX_FMT_YUV422P, PIX_FMT_YUV444P, PIX_FMT_YUV400P = range(5)

OUTPUT_FORMATS = {"xml": 1, "json": 2, "csv": 3, "sub": 4}

POOL_METHODS = {"min": 1, "max": 2, "mean": 3, "harmonic_mean": 4}

MODEL_FLAG_DISABLE_CLIP = 1 << 0
MODEL_FLAG_ENABLE_TRANSFORM = 1 << 1
MODEL_FLAG_DISABLE_TRANSFORM = 1 << 2


class VmafConfiguration(ctypes.Structure):
    _fields_ = [
        ("log_level", ctypes.c_int),
        ("n_threads", ctypes.c_uint),
        ("n_subsample", ctypes.c_uint),
        ("cpumask", ctypes.c_uint64),
        ("gpumask", ctypes.c_uint64),
    ]


class VmafPicture(ctypes.Structure):
    _fields_ = [
        ("pix_fmt", ctypes.c_int),
        ("bpc", ctypes.c_uint),
        ("w", ctypes.c_uint * 3),
        ("h", ctypes.c_uint * 3),
        ("stride", ctypes.c_ssize_t * 3),
        ("data", ctypes.c_void_p * 3),
        ("ref", ctypes.c_void_p),
        ("priv", ctypes.c_void_p),
    ]


class _PicParams(ctypes.Structure):
    _fields_ = [("w", ctypes.c_uint), ("h", ctypes.c_uint), ("bpc", ctypes.c_uint),
                ("pix_fmt", ctypes.c_int)]


class VmafPictureConfiguration(ctypes.Structure):
    _fields_ = [("pic_params", _PicParams), ("pic_cnt", ctypes.c_uint)]


class VmafModelConfig(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("flags", ctypes.c_uint64)]


class _P95(ctypes.Structure):
    _fields_ = [("lo", ctypes.c_double), ("hi", ctypes.c_double)]


class _CI(ctypes.Structure):
    _fields_ = [("p95", _P95)]


class _Bootstrap(ctypes.Structure):
    _fields_ = [("bagging_score", ctypes.c_double), ("stddev", ctypes.c_double), ("ci", _CI)]


class VmafModelCollectionScore(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("bootstrap", _Bootstrap)]


_vp = ctypes.c_void_p
_pp = ctypes.POINTER(ctypes.c_void_p)
_int = ctypes.c_int
_uint = ctypes.c_uint
_str = ctypes.c_char_p
_dbl_p = ctypes.POINTER(ctypes.c_double)
_pic_p = ctypes.POINTER(VmafPicture)
_mcfg_p = ctypes.POINTER(VmafModelConfig)
_mcs_p = ctypes.POINTER(VmafModelCollectionScore)

# name: (restype, argtypes). Everything the bindings may call.
_PROTOTYPES = {
    "vmaf_version": (_str, []),
    "vmaf_init": (_int, [_pp, VmafConfiguration]),
    "vmaf_close": (_int, [_vp]),
    "vmaf_use_feature": (_int, [_vp, _str, _vp]),
    "vmaf_use_features_from_model": (_int, [_vp, _vp]),
    "vmaf_use_features_from_model_collection": (_int, [_vp, _vp]),
    "vmaf_import_feature_score": (_int, [_vp, _str, ctypes.c_double, _uint]),
    "vmaf_read_pictures": (_int, [_vp, _pic_p, _pic_p, _uint]),
    "vmaf_score_at_index": (_int, [_vp, _vp, _dbl_p, _uint]),
    "vmaf_score_at_index_model_collection": (_int, [_vp, _vp, _mcs_p, _uint]),
    "vmaf_feature_score_at_index": (_int, [_vp, _str, _dbl_p, _uint]),
    "vmaf_score_pooled": (_int, [_vp, _vp, _int, _dbl_p, _uint, _uint]),
    "vmaf_score_pooled_model_collection": (_int, [_vp, _vp, _int, _mcs_p, _uint, _uint]),
    "vmaf_feature_score_pooled": (_int, [_vp, _str, _int, _dbl_p, _uint, _uint]),
    "vmaf_write_output": (_int, [_vp, _str, _int]),
    "vmaf_picture_alloc": (_int, [_pic_p, _int, _uint, _uint, _uint]),
    "vmaf_preallocate_pictures": (_int, [_vp, VmafPictureConfiguration]),
    "vmaf_fetch_preallocated_picture": (_int, [_vp, _pic_p]),
    "vmaf_picture_unref": (_int, [_pic_p]),
    "vmaf_feature_dictionary_set": (_int, [_pp, _str, _str]),
    "vmaf_feature_dictionary_free": (_int, [_pp]),
    "vmaf_model_load": (_int, [_pp, _mcfg_p, _str]),
    "vmaf_model_load_from_path": (_int, [_pp, _mcfg_p, _str]),
    "vmaf_model_feature_overload": (_int, [_vp, _str, _vp]),
    "vmaf_model_destroy": (None, [_vp]),
    "vmaf_model_collection_load": (_int, [_pp, _pp, _mcfg_p, _str]),
    "vmaf_model_collection_load_from_path": (_int, [_pp, _pp, _mcfg_p, _str]),
    "vmaf_model_collection_destroy": (None, [_vp]),
}


# ---------------------------------------------------------------------------
# The library's messages
#
# libvmaf reports what went wrong only as a "libvmaf ERROR: ..." line on
# stderr next to the errno it returns. To put that line into the exception,
# calls run with file descriptor 2 pointed at a scratch file; what lands there
# becomes the message of a failure, and is passed on to the real stderr when
# the call succeeds (warnings must not vanish). VMAFVK_CAPTURE_STDERR=0 turns
# this off.


class _StderrCapture:
    def __init__(self):
        self._lock = threading.RLock()
        self._file = None
        self._enabled = os.environ.get("VMAFVK_CAPTURE_STDERR", "1") != "0"

    def run(self, fn, *args):
        """Call fn(*args); return (result, captured text)."""
        if not self._enabled:
            return fn(*args), ""
        with self._lock:
            try:
                if self._file is None:
                    self._file = tempfile.TemporaryFile()
                saved = os.dup(2)
            except OSError:
                return fn(*args), ""
            try:
                sys.stderr.flush()
            except (AttributeError, ValueError, OSError):
                pass
            os.dup2(self._file.fileno(), 2)
            try:
                result = fn(*args)
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            text = ""
            if os.fstat(self._file.fileno()).st_size:
                self._file.seek(0)
                text = self._file.read().decode("utf-8", "replace")
                self._file.seek(0)
                self._file.truncate()
            return result, text


class Library:
    """The opened libvmaf with its prototypes bound."""

    def __init__(self, path: str):
        self.path = path
        self.dll = ctypes.CDLL(path)
        self._capture = _StderrCapture()
        self.missing = []
        for name, (restype, argtypes) in _PROTOTYPES.items():
            fn = getattr(self.dll, name, None)
            if fn is None:
                self.missing.append(name)
                continue
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)

    def has(self, *names: str) -> bool:
        """True when the library exports every one of `names`."""
        return all(hasattr(self.dll, n) for n in names)

    def require(self, *names: str) -> None:
        absent = [n for n in names if not self.has(n)]
        if absent:
            raise VmafError(absent[0], errno.ENOSYS,
                            f"{self.path} does not export {', '.join(absent)}")

    def bind(self, name: str, restype, argtypes) -> None:
        """Bind one more function (the optional Vulkan API)."""
        fn = getattr(self.dll, name)
        fn.restype = restype
        fn.argtypes = argtypes
        setattr(self, name, fn)

    def call(self, name: str, *args) -> int:
        """Call `name`; raise VmafError with the library's message on a negative return."""
        self.require(name)
        rc, text = self._capture.run(getattr(self, name), *args)
        if rc is not None and rc < 0:
            raise VmafError(name, -rc, _strip_tags(text))
        if text:
            sys.stderr.write(text)
        return rc

    def version(self) -> str:
        return self.vmaf_version().decode()


def _strip_tags(text: str) -> str:
    lines = []
    for line in text.splitlines():
        line = line.strip()
        for tag in ("libvmaf ERROR: ", "libvmaf WARNING: ", "libvmaf INFO: ", "libvmaf DEBUG: "):
            if line.startswith(tag):
                line = line[len(tag):]
        if line:
            lines.append(line)
    return "; ".join(lines)


_library = None
_library_lock = threading.Lock()


# What a wheel built from a meson build directory carries (python/setup.py): the
# library and the vmaf tool. A package installed without them has no _bundled folder.
_BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bundled")
BUNDLED_LIBRARY = os.path.join(_BUNDLED, "libvmaf.so.3")
BUNDLED_TOOL = os.path.join(_BUNDLED, "vmaf")


def bundled_library() -> str | None:
    """The libvmaf.so.3 inside the package, or None."""
    return BUNDLED_LIBRARY if os.path.isfile(BUNDLED_LIBRARY) else None


def bundled_tool() -> str | None:
    """The vmaf tool inside the package, or None."""
    ok = os.path.isfile(BUNDLED_TOOL) and os.access(BUNDLED_TOOL, os.X_OK)
    return BUNDLED_TOOL if ok else None


def find_library_path() -> str | None:
    """$VMAFVK_LIBRARY, else the package's own library, else the system's."""
    path = os.environ.get("VMAFVK_LIBRARY")
    if path:
        return path
    return bundled_library() or ctypes.util.find_library("vmaf")




def load_library(path: str | None = None) -> Library:
    """Open libvmaf (once). `path` overrides find_library_path(): $VMAFVK_LIBRARY,
    the package's own library, the system search."""
    global _library
    with _library_lock:
        if path is not None:
            if _library is not None and _library.path != path:
                raise RuntimeError(f"libvmaf is already loaded from {_library.path}")
        if _library is None:
            found = path or find_library_path()
            if not found:
                raise OSError("libvmaf not found: set VMAFVK_LIBRARY to the path of libvmaf.so, "
                              "or install a vmafvk wheel that carries it (docs/python.md)")
            try:
                _library = Library(found)
            except OSError as e:
                raise OSError(f"cannot load libvmaf from {found}: {e}") from None
        return _library


def library() -> Library:
    return load_library()
