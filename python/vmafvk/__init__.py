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
from .context import Context, Model, parse_model_spec
from .vulkan import list_vulkan_devices, vulkan_support
from .y4m import Y4MError, Y4MReader, read_y4m

__version__ = "0.1.0"

__all__ = [
    "Context",
    "Model",
    "VmafError",
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
    """libvmaf's version string ("3.0.0-vk0.1.0")."""
    return load_library().version()
