# ===- test_package.py - the fusecc wheel, built and installed offline --=== #
#
# Builds the wheel from python/ (pyproject.toml + setup.py) with the
# compiler and runtime of the CMake build ($FUSECC_BUILD_DIR, default
# build/), without network access (`pip wheel --no-build-isolation
# --no-index`), installs it with `pip install --no-index --no-deps --target`
# into a temporary directory, and from a directory outside the repository,
# with no FUSECC_* environment variable and only that directory on the
# Python path, checks that `import fusecc` finds the packaged compiler and
# runtime library, compiles a graph with the one and reads the bundle with
# the other. Skips (saying why) where the compiler is not built, where no
# Python has pip + setuptools + wheel (Debian: python3-pip), and, for the
# runtime, where the build has none (no cuda.h when CMake configured it).
#
# ===--------------------------------------------------------------------=== #

import glob
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import samples  # noqa: E402

BUILD = os.path.abspath(os.environ.get("FUSECC_BUILD_DIR")
                        or os.path.join(samples.REPO, "build"))
BUILT_CLI = os.path.join(BUILD, "bin", "fusecc")
BUILT_LIBRARY = os.path.join(BUILD, "runtime", "libfusecc_runtime.so")
EXAMPLE = os.path.join(samples.REPO, "examples", "kb2_49.mlir")


def packaging_python():
    """This Python if it has pip, setuptools and wheel, else Debian's."""
    for python in (sys.executable, "/usr/bin/python3"):
        if python and os.path.exists(python) and subprocess.call(
                [python, "-c", "import setuptools, wheel, pip"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
            return python
    return None


def run(command, **kwargs):
    """subprocess.run that fails the test with the command's output."""
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kwargs)
    if result.returncode != 0:
        raise AssertionError("%s failed (exit %d):\n%s" % (
            " ".join(command), result.returncode, result.stdout[-4000:]))
    return result.stdout


class InstalledWheel(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        if not os.path.isfile(BUILT_CLI):
            raise unittest.SkipTest("the compiler is not built (no %s)"
                                    % BUILT_CLI)
        cls.python = packaging_python()
        if cls.python is None:
            raise unittest.SkipTest("no Python with pip, setuptools and "
                                    "wheel to build the wheel (Debian: "
                                    "python3-pip)")
        cls.dir = tempfile.mkdtemp(prefix="fusecc-wheel-")
        try:
            cls.build_and_install()
        except BaseException:
            shutil.rmtree(cls.dir, ignore_errors=True)
            raise

    @classmethod
    def build_and_install(cls):
        # A copy of python/, so the build writes nothing into the checkout.
        source = os.path.join(cls.dir, "src")
        shutil.copytree(os.path.join(samples.REPO, "python"), source,
                        ignore=shutil.ignore_patterns(
                            "tests", "build", "dist", "*.egg-info",
                            "__pycache__"))
        env = dict(os.environ, FUSECC_BUILD_DIR=BUILD, FUSECC_BUILD_CMAKE="0",
                   PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
        dist = os.path.join(cls.dir, "dist")
        cls.build_log = run([cls.python, "-m", "pip", "wheel",
                             "--no-build-isolation", "--no-deps", "--no-index",
                             "-w", dist, source], env=env, cwd=cls.dir)
        wheels = glob.glob(os.path.join(dist, "fusecc-*.whl"))
        if len(wheels) != 1:
            raise AssertionError("expected one wheel in %s, found %s:\n%s"
                                 % (dist, wheels, cls.build_log))
        cls.wheel = wheels[0]
        cls.site = os.path.join(cls.dir, "site")
        run([cls.python, "-m", "pip", "install", "--no-index", "--no-deps",
             "--target", cls.site, cls.wheel], env=env, cwd=cls.dir)
        cls.outside = os.path.join(cls.dir, "elsewhere")
        os.mkdir(cls.outside)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def probe(self, code, *args):
        """Runs `code` in the packaging Python, from outside the repository,
        with no FUSECC_* variable and only the install on its path; the
        JSON value it prints."""
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("FUSECC_")}
        env["PYTHONPATH"] = self.site
        out = run([self.python, "-c",
                   "import json, sys\n" + code] + list(args),
                  env=env, cwd=self.outside)
        return json.loads(out.splitlines()[-1])

    def test_wheel_contents(self):
        name = os.path.basename(self.wheel)
        self.assertRegex(name, r"^fusecc-[0-9.]+-py3-none-linux_\w+\.whl$")
        with zipfile.ZipFile(self.wheel) as wheel:
            names = set(wheel.namelist())
            mode = wheel.getinfo("fusecc/bin/fusecc").external_attr >> 16
        for module in ("__init__", "bundle", "compiler", "module",
                       "reference", "runtime"):
            self.assertIn("fusecc/%s.py" % module, names)
        self.assertIn("fusecc/bin/fusecc", names)
        self.assertTrue(mode & stat.S_IXUSR, "fusecc/bin/fusecc not "
                        "executable in the wheel (mode %o)" % mode)
        self.assertFalse([n for n in names if "tests/" in n], names)

    def test_packaged_tuning(self):
        # The shipped tile choices travel with the package, and compilations
        # from Python find that copy before the repository's.
        with zipfile.ZipFile(self.wheel) as wheel:
            names = set(wheel.namelist())
        shipped = sorted(n for n in os.listdir(os.path.join(samples.REPO,
                                                             "tuning"))
                         if n.endswith(".json"))
        self.assertTrue(shipped)
        for name in shipped:
            self.assertIn("fusecc/tuning/" + name, names)
        found = self.probe(
            "import fusecc.compiler as c\n"
            "print(json.dumps([c.tuning_dir(), c.with_tuning(['-x'])]))")
        package = os.path.join(self.site, "fusecc", "tuning")
        self.assertEqual(found, [package, ["-x", "--tuning=" + package]])

    def test_dynamo_backend_entry_point(self):
        with zipfile.ZipFile(self.wheel) as wheel:
            names = set(wheel.namelist())
        for module in ("__init__", "cache", "driver", "ops", "ops_decoders",
                       "partition", "translate"):
            self.assertIn("fusecc/dynamo/%s.py" % module, names)
        found = self.probe(
            "from importlib.metadata import entry_points\n"
            "eps = [e for e in entry_points(group='torch_dynamo_backends')\n"
            "       if e.name == 'fusecc']\n"
            "print(json.dumps([e.value for e in eps]))")
        self.assertEqual(found, ["fusecc.dynamo:backend"])

    def test_import_finds_packaged_compiler(self):
        found = self.probe(
            "import fusecc\n"
            "print(json.dumps([fusecc.__file__, fusecc.find_cli()]))")
        package = os.path.join(self.site, "fusecc")
        self.assertEqual(found[0], os.path.join(package, "__init__.py"))
        self.assertEqual(found[1], os.path.join(package, "bin", "fusecc"))
        # The packaged compiler compiles; the package reads its bundle.
        bundle = os.path.join(self.dir, "kb2_49.fcb")
        run([found[1], EXAMPLE, "-o", bundle], cwd=self.outside)
        described = self.probe(
            "import fusecc\n"
            "b = fusecc.bundle.read(sys.argv[1])\n"
            "print(json.dumps([e.name for e in b.entries]))", bundle)
        self.assertTrue(described, "no entries in %s" % bundle)

    def test_import_finds_packaged_runtime(self):
        if not os.path.isfile(BUILT_LIBRARY):
            self.skipTest("the runtime is not built (no %s: CMake found no "
                          "cuda.h)" % BUILT_LIBRARY)
        bundle = os.path.join(samples.RUNTIME_DATA, "sample_v2.fcb")
        found = self.probe(
            "import fusecc\n"
            "from fusecc import runtime\n"
            "lib = fusecc.find_library()\n"
            "rt = runtime.Runtime.get()\n"
            "handle = rt.load_bundle(sys.argv[1])\n"
            "count = rt.lib.fusecc_bundle_entry_count(handle)\n"
            "rt.lib.fusecc_bundle_release(handle)\n"
            "print(json.dumps([lib, rt.path, count]))", bundle)
        packaged = os.path.join(self.site, "fusecc", "lib",
                                "libfusecc_runtime.so")
        self.assertEqual(found[:2], [packaged, packaged])
        self.assertEqual(found[2], 1)


if __name__ == "__main__":
    unittest.main()
