# SPDX-License-Identifier: BSD-2-Clause-Patent
"""vmafvk: Python bindings of libvmaf-vk (libvmaf's C API, CPU and Vulkan backends).

    import vmafvk
    with vmafvk.Context(backend="auto") as ctx:
        ctx.use_model(version="vmaf_v0.6.1")
        ctx.use_feature("psnr")
        ctx.feed_y4m("ref.y4m", "dist.y4m")
        print(ctx.pooled("vmaf"), ctx.feature("psnr_y"))

The library is found through $VMAFVK_LIBRARY (a path to libvmaf.so), else the
system's library search (ctypes.util.find_library("vmaf")).
"""

from ._lib import VmafError, load_library
from .vulkan import VulkanDevice, list_vulkan_devices, vulkan_support

# The numpy-based parts load on first use, so that the tools that need no numpy
# (vmafvk.batch, device listing) run without it.
_LAZY = {"Context": "context", "Model": "context", "parse_model_spec": "context",
         "Y4MError": "y4m", "Y4MReader": "y4m", "read_y4m": "y4m"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__version__ = "0.2.0"

__all__ = [
    "Context",
    "Model",
    "VmafError",
    "VulkanDevice",
    "Y4MError",
    "Y4MReader",
    "library_version",
    "list_vulkan_devices",
    "load_library",
    "parse_model_spec",
    "read_y4m",
    "vulkan_support",
]


def library_version() -> str:
    """libvmaf's version string ("3.2.0-vk0.2.0")."""
    return load_library().version()
