"""The optional Vulkan half of the bindings (libvmaf_vulkan.h).

Every symbol is probed: a CPU-only libvmaf simply reports no Vulkan support.
"""

from __future__ import annotations

from . import _lib

__all__ = ["VulkanUnavailable", "list_vulkan_devices", "vulkan_support", "attach"]


class VulkanUnavailable(RuntimeError):
    """The library has no Vulkan backend, or no usable Vulkan device exists."""


_REQUIRED = ("vmaf_vulkan_state_init", "vmaf_vulkan_import_state", "vmaf_vulkan_state_free")


def vulkan_support(lib=None) -> tuple:
    """(True, "") when the library exports the Vulkan API, else (False, why)."""
    lib = lib or _lib.load_library()
    absent = [n for n in _REQUIRED if not lib.has(n)]
    if absent:
        return False, f"{lib.path} was built without Vulkan (no {absent[0]})"
    return True, ""


def list_vulkan_devices() -> list:
    """Vulkan devices the library can use; [] when it has no Vulkan support."""
    ok, _ = vulkan_support()
    if not ok:
        return []
    raise NotImplementedError


def attach(lib, ctx_handle, device):
    ok, why = vulkan_support(lib)
    if not ok:
        raise VulkanUnavailable(why)
    raise NotImplementedError
