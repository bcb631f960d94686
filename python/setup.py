# ===- setup.py - the fusecc wheel: package, compiler and runtime -------=== #
#
# The metadata is in pyproject.toml; this file only adds the build step
# that puts the native parts into the package, the way Triton's setup.py
# does (but from a CMake build instead of building it itself):
#
#   fusecc/bin/fusecc                  the compiler (linked statically with
#                                      LLVM/MLIR and libstdc++: it runs on
#                                      machines without LLVM)
#   fusecc/lib/libfusecc_runtime.so    the runtime (needs libcuda.so.1 only,
#                                      loaded at run time)
#   fusecc/tuning/<device>.json        the measured tile choices (tuning/),
#                                      passed to the compiler by default
#
# They come from the CMake build directory $FUSECC_BUILD_DIR (default: the
# repository's build/). If that directory has been configured, the step
# first runs `cmake --build <dir> --target fusecc-python-natives` (so what
# is staged is current); FUSECC_BUILD_CMAKE=0 skips that and stages what
# the directory holds. With no configured build directory it configures one
# with the defaults of .ci/build.sh. The runtime alone is enough (a
# directory from `cmake -S runtime -B build-rt`); a directory with neither
# part is an error. The copies are stripped (`strip --strip-all`, where it
# exists). The wheel is tagged py3-none-<platform>: native code, but no
# Python extension module (the runtime is loaded with ctypes).
#
# ===--------------------------------------------------------------------=== #

import os
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# (where in the package, candidates in the CMake build directory).
NATIVES = [
    (("bin", "fusecc"), [("bin", "fusecc")]),
    (("lib", "libfusecc_runtime.so"),
     [("runtime", "libfusecc_runtime.so"), ("libfusecc_runtime.so",)]),
]


def cmake_build_dir():
    return os.path.abspath(os.environ.get("FUSECC_BUILD_DIR")
                           or os.path.join(REPO, "build"))


def run(command):
    print("fusecc setup.py: " + " ".join(command), flush=True)
    subprocess.run(command, check=True)


def build_natives(build_dir):
    """Brings the CMake build directory up to date (or configures one)."""
    if os.environ.get("FUSECC_BUILD_CMAKE", "1") == "0":
        return
    if shutil.which("cmake") is None:
        sys.exit("fusecc setup.py: cmake not found; build fusecc first or set "
                 "FUSECC_BUILD_CMAKE=0 to stage what %s holds" % build_dir)
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        run(["cmake", "-S", REPO, "-B", build_dir, "-G", "Ninja",
             "-DCMAKE_BUILD_TYPE=Release", "-DFUSECC_BUILD_COMPILER=ON",
             "-DFUSECC_BUILD_RUNTIME=ON"])
    with open(os.path.join(build_dir, "CMakeCache.txt")) as cache:
        project = [line for line in cache
                   if line.startswith("CMAKE_PROJECT_NAME:")]
    # A runtime-only directory (cmake -S runtime) has no such target.
    target = ("fusecc-python-natives"
              if project and project[0].strip().endswith("=fusecc")
              else "fusecc_runtime_shared")
    run(["cmake", "--build", build_dir, "--target", target])


def strip(path):
    """Drops the symbol table (a third of the compiler's size) where
    `strip` exists; the copy works either way."""
    if shutil.which("strip"):
        subprocess.run(["strip", "--strip-all", path], check=True)


def tuning_source(build_dir):
    """The repository's tuning/: next to python/, or (pip may build from a
    copy of python/) in the source tree the CMake build was configured
    from. None where neither has one."""
    candidates = [os.path.join(REPO, "tuning")]
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as cache:
            for line in cache:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    source = line.split("=", 1)[1].strip()
                    # A runtime-only build (cmake -S runtime) names runtime/.
                    candidates += [os.path.join(source, "tuning"),
                                   os.path.join(source, "..", "tuning")]
    except OSError:
        pass
    for path in candidates:
        if os.path.isdir(path):
            return os.path.normpath(path)
    return None


class BuildPyWithNatives(build_py):
    """build_py, then the compiler and runtime library into the package."""

    def run(self):
        super().run()
        build_dir = cmake_build_dir()
        build_natives(build_dir)
        staged = []
        for dest, sources in NATIVES:
            for source in sources:
                path = os.path.join(build_dir, *source)
                if os.path.isfile(path):
                    target = os.path.join(self.build_lib, "fusecc", *dest)
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    shutil.copy2(path, target)
                    strip(target)
                    staged.append("%s (from %s)" % ("/".join(dest), path))
                    break
        if not staged:
            sys.exit("fusecc setup.py: %s holds neither bin/fusecc nor "
                     "libfusecc_runtime.so: build fusecc first (bash "
                     ".ci/build.sh) or set FUSECC_BUILD_DIR" % build_dir)
        # The measured tile choices (tuning/<device>.json), which
        # fusecc.compiler.with_tuning passes to the compiler.
        tuning = tuning_source(build_dir)
        if tuning:
            target = os.path.join(self.build_lib, "fusecc", "tuning")
            os.makedirs(target, exist_ok=True)
            for name in sorted(os.listdir(tuning)):
                if name.endswith(".json"):
                    shutil.copy2(os.path.join(tuning, name), target)
            staged.append("tuning/*.json (from %s)" % tuning)
        print("fusecc setup.py: packaged " + ", ".join(staged), flush=True)


cmdclass = {"build_py": BuildPyWithNatives}
try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # setuptools >= 70.1 has its own
    try:
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:
        bdist_wheel = None
if bdist_wheel is not None:
    class BdistWheelNative(bdist_wheel):
        """A platform wheel (native files) for any Python 3."""

        def get_tag(self):
            return ("py3", "none") + tuple(super().get_tag()[2:])

    cmdclass["bdist_wheel"] = BdistWheelNative


class NativeDistribution(Distribution):
    """Native files inside: a platform (platlib) package."""

    def has_ext_modules(self):
        return True


setup(cmdclass=cmdclass, distclass=NativeDistribution)
