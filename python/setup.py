# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Build hooks of the vmafvk package: the wheel carries the library and the tool.

The metadata is in pyproject.toml; this file only adds what setuptools cannot
declare there. Building the package (`pip wheel ./python`, `pip install ./python`)
copies from a meson build directory

    BUILD/core/src/libvmaf.so.3  ->  vmafvk/_bundled/libvmaf.so.3
    BUILD/core/tools/vmaf        ->  vmafvk/_bundled/vmaf

(the tool loads the libvmaf.so.3 beside it: its RUNPATH has $ORIGIN) and tags
the wheel for this platform.
BUILD is $VMAFVK_BUILD_DIR (absolute, or relative to the repository root), else
the repository's build/ (scripts/setup.sh's).
VMAFVK_BUILD_DIR=none builds the package without them: it then uses the
library and tool it finds on the system, as vmafvk/_lib.py describes.
See docs/python.md and adr/0071.
"""

import os
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel, get_platform
except ImportError:  # no wheel package: a plain install still works
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# (path in the build directory, path in the package); vmafvk/_lib.py looks there.
BUNDLE = [
    (os.path.join("core", "src", "libvmaf.so.3"), os.path.join("_bundled", "libvmaf.so.3")),
    (os.path.join("core", "tools", "vmaf"), os.path.join("_bundled", "vmaf")),
]


class BundleError(RuntimeError):
    pass


def build_dir():
    """The meson build directory to take the binaries from, or None (none wanted)."""
    given = os.environ.get("VMAFVK_BUILD_DIR")
    if given is not None and given.strip().lower() == "none":
        return None
    # Relative to the repository root (pip runs this file from python/).
    where = os.path.join(REPO, given or "build")
    what = "$VMAFVK_BUILD_DIR" if given else "the default build directory"
    missing = [rel for rel, _ in BUNDLE if not os.path.isfile(os.path.join(where, rel))]
    if missing:
        raise BundleError(
            f"vmafvk: {what} {where} has no {', '.join(missing)}: build the library first "
            "(bash scripts/setup.sh), set VMAFVK_BUILD_DIR to a meson build directory, or "
            "VMAFVK_BUILD_DIR=none for a package without the library")
    return os.path.abspath(where)


def needed(path):
    """The NEEDED entries of an ELF file (readelf -d), or None without readelf."""
    readelf = shutil.which("readelf")
    if not readelf:
        return None
    out = subprocess.run([readelf, "-d", "-W", path], capture_output=True, text=True, check=True).stdout
    return [line.split("[", 1)[1].rsplit("]", 1)[0] for line in out.splitlines() if "(NEEDED)" in line]


def check_bundle(build):
    """Refuse binaries of a sanitizer build: they load only with its runtimes preloaded."""
    for rel, _ in BUNDLE:
        path = os.path.join(build, rel)
        sanitizers = [n for n in needed(path) or [] if n.startswith(("libasan", "libubsan", "libtsan"))]
        if sanitizers:
            raise BundleError(f"vmafvk: {path} needs {', '.join(sanitizers)} (a sanitizer build): "
                              "set VMAFVK_BUILD_DIR to a release build directory")


class BuildPyBundled(build_py):
    """build_py, then the library and the tool copied into the built package."""

    def run(self):
        super().run()
        build = build_dir()
        # Not what an earlier build copied: this one's binaries or none.
        shutil.rmtree(os.path.join(self.build_lib, "vmafvk", "_bundled"), ignore_errors=True)
        if build is None:
            return
        check_bundle(build)
        for rel, dest in BUNDLE:
            target = os.path.join(self.build_lib, "vmafvk", dest)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.realpath(os.path.join(build, rel)), target)
            os.chmod(target, 0o755)


class BundledDistribution(Distribution):
    """Binaries make the package platform-specific: its wheel installs into platlib."""

    def has_ext_modules(self):
        return build_dir() is not None


cmdclass = {"build_py": BuildPyBundled}

if bdist_wheel is not None:
    class BdistWheelBundled(bdist_wheel):
        """Tagged py3-none-<platform> when it carries the binaries: any Python 3 can
        load them through ctypes, but only on this platform."""

        def get_tag(self):
            if self.root_is_pure:
                return super().get_tag()
            return "py3", "none", get_platform(self.bdist_dir).replace("-", "_").replace(".", "_")

    cmdclass["bdist_wheel"] = BdistWheelBundled

setup(cmdclass=cmdclass, distclass=BundledDistribution)
