# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The optional Vulkan half of the bindings (libvmaf_vulkan.h).

Every entry point is probed: a library without them, or one built without
Vulkan (whose entry points return -ENOSYS), reports no Vulkan support, and
the rest of the package works on the CPU.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys

from . import _lib
from ._lib import VmafError

__all__ = ["VulkanDevice", "VulkanUnavailable", "list_vulkan_devices", "vulkan_support", "attach"]

DEVICE_AUTO = -1
_DEVICE_TYPES = {0: "other", 1: "integrated_gpu", 2: "discrete_gpu", 3: "virtual_gpu", 4: "cpu"}
# The library's automatic choice: discrete, then integrated, virtual, CPU.
_TYPE_PREFERENCE = {"discrete_gpu": 0, "integrated_gpu": 1, "virtual_gpu": 2, "cpu": 3, "other": 4}


class VulkanUnavailable(VmafError):
    """The library has no Vulkan backend (ENOSYS)."""

    def __init__(self, why: str):
        super().__init__("vmaf_vulkan_available", errno.ENOSYS, why)


class VmafVulkanConfiguration(ctypes.Structure):
    _fields_ = [
        ("device_index", ctypes.c_int),
        ("device_name", ctypes.c_char_p),
        ("enable_validation", ctypes.c_int),
        ("frames_in_flight", ctypes.c_uint),
        ("reserved", ctypes.c_uint64 * 8),
    ]


class VmafVulkanDeviceInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 256),
        ("vendor_id", ctypes.c_uint32),
        ("device_id", ctypes.c_uint32),
        ("type", ctypes.c_int),
        ("api_version", ctypes.c_uint32),
        ("usable", ctypes.c_int),
        ("uuid", ctypes.c_uint8 * 16),
        ("reserved", ctypes.c_uint32 * 4),
    ]


_PROTOTYPES = {
    "vmaf_vulkan_available": (ctypes.c_int, []),
    "vmaf_vulkan_state_init": (ctypes.c_int, [ctypes.POINTER(ctypes.c_void_p), VmafVulkanConfiguration]),
    "vmaf_vulkan_import_state": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    "vmaf_vulkan_state_free": (ctypes.c_int, [ctypes.POINTER(ctypes.c_void_p)]),
    "vmaf_vulkan_list_devices": (ctypes.c_int, [ctypes.POINTER(VmafVulkanDeviceInfo), ctypes.c_uint,
                                                ctypes.POINTER(ctypes.c_uint)]),
}


def _bound(lib) -> bool:
    """Bind the Vulkan API once; False when the library lacks any of it."""
    if getattr(lib, "_vulkan_bound", None) is None:
        ok = lib.has(*_PROTOTYPES)
        if ok:
            for name, (restype, argtypes) in _PROTOTYPES.items():
                lib.bind(name, restype, argtypes)
        lib._vulkan_bound = ok
    return lib._vulkan_bound


def vulkan_support(lib=None) -> tuple:
    """(True, "") when the library has a Vulkan backend, else (False, why).
    Support does not mean that a device exists: see list_vulkan_devices()."""
    lib = lib or _lib.load_library()
    if not _bound(lib):
        absent = next(n for n in _PROTOTYPES if not lib.has(n))
        return False, f"{lib.path} has no Vulkan API (it does not export {absent})"
    if getattr(lib, "_vulkan_built", None) is None:
        # Built without Vulkan is a property of the file: ask once, and keep the
        # library's log line about it out of the way (the reason is returned).
        rc, text = lib._capture.run(lib.vmaf_vulkan_available)
        lib._vulkan_built = rc != -errno.ENOSYS
        if lib._vulkan_built and text:
            sys.stderr.write(text)
    if not lib._vulkan_built:
        return False, f"{lib.path} was built without Vulkan"
    return True, ""


def _version(packed: int) -> str:
    return f"{(packed >> 22) & 0x7F}.{(packed >> 12) & 0x3FF}.{packed & 0xFFF}"


def list_vulkan_devices(lib=None) -> list:
    """The Vulkan devices the library sees, in the order device indices refer
    to: dicts with index, name, type, vendor_id, device_id, api_version,
    usable (has what the kernels need) and uuid (the device UUID as 32 hex
    digits, "" when the device reports none). [] without Vulkan support, loader or
    driver."""
    lib = lib or _lib.load_library()
    if not vulkan_support(lib)[0]:
        return []
    count = ctypes.c_uint()
    try:
        lib.call("vmaf_vulkan_list_devices", None, 0, ctypes.byref(count))
        infos = (VmafVulkanDeviceInfo * max(count.value, 1))()
        lib.call("vmaf_vulkan_list_devices", infos, count.value, ctypes.byref(count))
    except VmafError as e:
        if e.code == errno.ENODEV:
            return []
        raise
    return [{
        "index": i,
        "name": d.name.decode("utf-8", "replace"),
        "type": _DEVICE_TYPES.get(d.type, "other"),
        "vendor_id": d.vendor_id,
        "device_id": d.device_id,
        "api_version": _version(d.api_version),
        "usable": bool(d.usable),
        "uuid": bytes(d.uuid).hex() if any(d.uuid) else "",
    } for i, d in enumerate(infos[:min(count.value, len(infos))])]


def _expected_device(devices: list, device) -> str | None:
    """Name of the device the library's documented choice rule picks (for display)."""
    if isinstance(device, str):
        hits = [d for d in devices if device.lower() in d["name"].lower()]
        return hits[0]["name"] if hits else None
    if device is None:
        env = os.environ.get("VMAF_VULKAN_DEVICE", "")
        if env:
            return _expected_device(devices, int(env) if env.isdigit() else env)
        usable = [d for d in devices if d["usable"]]
        if not usable:
            return None
        return min(usable, key=lambda d: (_TYPE_PREFERENCE[d["type"]], d["index"]))["name"]
    return devices[device]["name"] if 0 <= device < len(devices) else None


class VulkanState:
    """A VmafVulkanState owned by one Context; freed after that context closes."""

    def __init__(self, lib, handle: ctypes.c_void_p, device_name: str | None):
        self._lib = lib
        self._handle = handle
        self.device_name = device_name

    def release(self) -> None:
        if self._handle:
            self._lib.call("vmaf_vulkan_state_free", ctypes.byref(self._handle))
            self._handle = None


def _create_state(lib, device=None, validation: bool = False) -> VulkanState:
    """A new VmafVulkanState (an instance and a device) for `device`: None for
    the library's choice, an index, or a name substring."""
    ok, why = vulkan_support(lib)
    if not ok:
        raise VulkanUnavailable(why)
    cfg = VmafVulkanConfiguration()
    cfg.device_index = DEVICE_AUTO
    if isinstance(device, str):
        if not device:
            raise ValueError("device name must not be empty")
        name = device.encode()
        cfg.device_name = name
    elif device is not None:
        if isinstance(device, bool) or not isinstance(device, int) or device < 0:
            raise ValueError(f"device must be None, an index >= 0 or a name, got {device!r}")
        cfg.device_index = device
    cfg.enable_validation = 1 if validation else 0
    handle = ctypes.c_void_p()
    lib.call("vmaf_vulkan_state_init", ctypes.byref(handle), cfg)
    state = VulkanState(lib, handle, None)
    try:
        state.device_name = _expected_device(list_vulkan_devices(lib), device)
    except BaseException:
        state.release()
        raise
    return state


def attach(lib, ctx_handle, device=None, validation: bool = False) -> VulkanState:
    """Create a device state (device: None for the library's choice, an index,
    or a name substring) and import it into the context; the caller frees it
    after the context."""
    state = _create_state(lib, device, validation)
    try:
        lib.call("vmaf_vulkan_import_state", ctx_handle, state._handle)
    except BaseException:
        state.release()
        raise
    return state


class VulkanDevice:
    """A Vulkan device (a VmafVulkanState: instance, device, queues) that
    several contexts use, one after the other or at once:

        with vmafvk.VulkanDevice(0) as dev:
            for ref, dis in pairs:
                with vmafvk.Context(backend="vulkan", device=dev) as ctx: ...

    Creating a device costs far more than a context (tenths of a second);
    a program scoring many short pairs keeps one. `device`: None for the
    library's choice ($VMAF_VULKAN_DEVICE, else the best usable device), an
    index in list_vulkan_devices() order, or a name substring. Close it after
    every context that uses it (closing earlier raises VmafError EBUSY).
    VulkanUnavailable (a VmafError) when the library has no Vulkan; VmafError
    when the device cannot be created."""

    def __init__(self, device=None, library: str | None = None, validation: bool = False):
        self._lib = _lib.load_library(library)
        self._state = _create_state(self._lib, device, validation)
        self.device = device
        self.device_name = self._state.device_name

    @property
    def closed(self) -> bool:
        return self._state is None or not self._state._handle

    def _import_into(self, ctx_handle) -> None:
        if self.closed:
            raise ValueError("the Vulkan device is closed")
        self._lib.call("vmaf_vulkan_import_state", ctx_handle, self._state._handle)

    def close(self) -> None:
        """Free the device. Idempotent."""
        if self._state is not None:
            self._state.release()
            self._state = None

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
        return f"<vmafvk.VulkanDevice {self.device_name!r}{' closed' if self.closed else ''}>"
