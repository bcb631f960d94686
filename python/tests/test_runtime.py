# ===- python/tests/test_runtime.py - The ctypes layer, fake CUDA driver -=== #
#
# Loads bundles through libfusecc_runtime.so with the runtime's scripted
# fake driver (runtime/test/fake_cuda.c) in place of libcuda.so.1, calls
# entries on FakeTensor and reads back what the "driver" was asked to do.
# Needs the runtime built (build/runtime or build-rt: it needs cuda.h);
# skipped otherwise. A private copy of the runtime library is loaded so
# that its driver is the fake even if the real one is in use in this
# process.
#
# ===--------------------------------------------------------------------=== #

import ctypes
import os
import random
import re
import shutil
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import fusecc  # noqa: E402
from fusecc import bundle, runtime  # noqa: E402
import samples  # noqa: E402
from samples import FakeTensor  # noqa: E402


def built_libraries():
    """(runtime library, fake driver) or None when not built."""
    candidates = []
    env = os.environ.get("FUSECC_RUNTIME_LIBRARY")
    if env:
        candidates.append(env)
    candidates += [os.path.join(samples.REPO, d, runtime.LIBRARY_NAME)
                   for d in ("build/runtime", "build-rt")]
    for lib in candidates:
        fake = os.environ.get("FUSECC_FAKE_CUDA_LIBRARY") or os.path.join(
            os.path.dirname(lib), "libfusecc_fake_cuda.so")
        if os.path.exists(lib) and os.path.exists(fake):
            return lib, fake
    return None


LIBS = built_libraries()


@unittest.skipIf(LIBS is None, "the runtime and its fake CUDA driver are not "
                 "built (build/runtime or build-rt; they need cuda.h)")
class FakeDriverCase(unittest.TestCase):
    """A private runtime copy on the fake driver (no tests of its own)."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="fusecc-test-")
        cls.lib = os.path.join(cls.dir, runtime.LIBRARY_NAME)
        shutil.copyfile(LIBS[0], cls.lib)
        cls.saved = os.environ.get("FUSECC_CUDA_DRIVER_LIBRARY")
        os.environ["FUSECC_CUDA_DRIVER_LIBRARY"] = LIBS[1]
        # The direct launch path, step by step (LaunchGraphs tests graphs).
        cls.saved_graphs = os.environ.get("FUSECC_LAUNCH_GRAPHS")
        os.environ["FUSECC_LAUNCH_GRAPHS"] = "0"
        cls.fake = ctypes.CDLL(LIBS[1])
        cls.fake.fake_cuda_log.restype = ctypes.c_char_p
        cls.fake.fake_cuda_live_allocations.restype = ctypes.c_int
        cls.v2 = samples.write(cls.dir, "v2.fcb", samples.v2_fake_bundle())

    @classmethod
    def tearDownClass(cls):
        if cls.saved is None:
            os.environ.pop("FUSECC_CUDA_DRIVER_LIBRARY", None)
        else:
            os.environ["FUSECC_CUDA_DRIVER_LIBRARY"] = cls.saved
        if cls.saved_graphs is None:
            os.environ.pop("FUSECC_LAUNCH_GRAPHS", None)
        else:
            os.environ["FUSECC_LAUNCH_GRAPHS"] = cls.saved_graphs
        shutil.rmtree(cls.dir, ignore_errors=True)

    def setUp(self):
        self.reset()

    def reset(self, alloc=-1, launch=-1, free=-1):
        self.fake.fake_cuda_reset(alloc, launch, free)

    def log(self):
        return self.fake.fake_cuda_log().decode().splitlines()

    def load(self, path=None):
        return fusecc.load(path or self.v2, lib=self.lib, device=0)


@unittest.skipIf(LIBS is None, "the runtime and its fake CUDA driver are not "
                 "built (build/runtime or build-rt; they need cuda.h)")
class FakeDriver(FakeDriverCase):

    def test_launch_with_workspace(self):
        module = self.load()
        x, w, y = (FakeTensor((64, 1024)), FakeTensor((1024,)),
                   FakeTensor((64, 1024)))
        self.reset()
        self.assertIs(module.layer(x, w, out=y, stream=5), y)
        log = self.log()
        self.assertEqual(len(log), 4, log)
        alloc = re.fullmatch(r"alloc 4096 s5 -> (0x[0-9a-f]+)", log[0])
        self.assertIsNotNone(alloc, log)
        ws = alloc.group(1)
        self.assertEqual(log[1:], [
            "launch layer_relayout_p2 s5 %#x %s" % (w.data_ptr(), ws),
            "launch layer_main_p3 s5 %#x %s %#x" % (x.data_ptr(), ws,
                                                    y.data_ptr()),
            "free %s s5" % ws])
        self.assertEqual(self.fake.fake_cuda_live_allocations(), 0)
        module.close()

    def test_entries_by_name_attribute_and_iteration(self):
        with self.load() as module:
            self.assertEqual(module.entries, ["layer", "pair"])
            self.assertIs(module["pair"], module.pair)
            self.assertEqual([f.name for f in module], ["layer", "pair"])
            self.assertIn("layer", module)
            self.assertEqual(len(module), 2)
            with self.assertRaisesRegex(KeyError, "no entry 'nope' "
                                        r"\(entries: layer, pair\)"):
                module["nope"]
            with self.assertRaisesRegex(AttributeError, "entries: layer, pair"):
                module.nope
            with self.assertRaisesRegex(TypeError, "has 2 entries"):
                module(FakeTensor((16,)))
            x, a, b = FakeTensor((16,)), FakeTensor((16,)), FakeTensor((16,))
            self.reset()
            module.pair(x, out=(a, b), stream=3)
            self.assertEqual(self.log(), ["launch pair_k0_p3 s3 %#x %#x %#x"
                                          % (x.data_ptr(), a.data_ptr(),
                                             b.data_ptr())])

    def test_checks_run_before_the_runtime(self):
        with self.load() as module:
            self.reset()
            with self.assertRaisesRegex(fusecc.ArgumentError, "expected shape"):
                module.layer(FakeTensor((64, 1023)), FakeTensor((1024,)),
                             out=FakeTensor((64, 1024)), stream=1)
            self.assertEqual(self.log(), [])

    def test_driver_failure_is_a_fusecc_error(self):
        with self.load() as module:
            self.reset(launch=1)
            with self.assertRaises(fusecc.FuseccError) as caught:
                module.layer(FakeTensor((64, 1024)), FakeTensor((1024,)),
                             out=FakeTensor((64, 1024)), stream=2)
            self.assertEqual(caught.exception.code, "CUDA_ERROR")
            self.assertIn("fusecc_module_launch: CUDA_ERROR", str(
                caught.exception))
            self.assertIn("CUDA_ERROR_LAUNCH_FAILED", str(caught.exception))
            # The workspace is freed after the failed launch.
            self.assertEqual(self.fake.fake_cuda_live_allocations(), 0)

    def test_cached_call_launches_through_the_pointer_entry(self):
        """A call with a signature seen before skips the checks and goes
        through fusecc_module_launch_pointers (the manifest's sizes, the
        runtime's pointer checks); a pointer the runtime rejects is named
        by the checks, and nothing is launched."""
        with self.load() as module:
            f = module.layer
            f(FakeTensor((64, 1024)), FakeTensor((1024,)),
              out=FakeTensor((64, 1024)), stream=5)
            x, w, y = (FakeTensor((64, 1024)), FakeTensor((1024,)),
                       FakeTensor((64, 1024)))
            self.reset()
            with mock.patch.object(f, "prepare",
                                   side_effect=AssertionError("checked")), \
                    mock.patch.object(module, "launch_buffers",
                                      side_effect=AssertionError("buffers")):
                self.assertIs(f(x, w, out=y, stream=5), y)
            log = self.log()
            self.assertEqual(len(log), 4, log)
            self.assertEqual(log[2].split(" ")[3:], [
                "%#x" % x.data_ptr(), log[0].split(" ")[-1],
                "%#x" % y.data_ptr()])
            self.reset()
            base = FakeTensor((2, 64, 1024))
            with self.assertRaisesRegex(
                    fusecc.ArgumentError,
                    "input 0 'x': data pointer 0x[0-9a-f]+ is not 16-byte "
                    "aligned"):
                f(base.view_at(4, (64, 1024)), w, out=y, stream=5)
            with self.assertRaisesRegex(fusecc.ArgumentError,
                                        "output 'result' overlaps input 'x'"):
                f(x, w, out=x.view_at(256), stream=5)
            self.assertEqual(self.log(), [])
            # A closed module, on the cached path too.
            module.close()
            with self.assertRaisesRegex(fusecc.FuseccError,
                                        "module is closed"):
                f(x, w, out=y, stream=5)

    def test_closed_module(self):
        module = self.load()
        module.close()
        with self.assertRaisesRegex(fusecc.FuseccError, "module is closed"):
            module.pair(FakeTensor((16,)), out=(FakeTensor((16,)),
                                                FakeTensor((16,))), stream=0)

    def test_runtime_parse_error(self):
        path = samples.write(self.dir, "bad.fcb", b"fusecc-bundle 1\n")
        with self.assertRaises(fusecc.BundleError):
            self.load(path)  # fusecc.bundle reads the file first.

    def test_version_3(self):
        """Constants, zero steps and workspaces of every role, when the
        runtime reads format version 3 (skipped before it does)."""
        path = os.path.join(samples.DATA, "sample_v3.fcb")
        try:
            module = self.load(path)
        except fusecc.FuseccError as error:
            if "version 3" in str(error):
                self.skipTest("this runtime does not read format version 3 "
                              "yet: %s" % error)
            raise
        with module:
            self.assertEqual([c.name for c in module.constants],
                             ["decoder.0.weight", "decoder.0.bias",
                              "decoder.1.weight", "decoder.1.bias"])
            x, y = FakeTensor((1, 2, 3, 3)), FakeTensor((1, 3, 6, 6))
            self.reset()
            self.assertIs(module(x, out=y, stream=9), y)
            launches = [line.split(" ") for line in self.log()
                        if line.startswith("launch")]
            self.assertEqual([l[1] for l in launches],
                             ["decoder_k0_p5", "decoder_k1_p6"])
            self.assertEqual(launches[0][3], "%#x" % x.data_ptr())
            self.assertEqual(launches[1][8], "%#x" % y.data_ptr())
            self.assertEqual(launches[0][6], launches[1][3])  # w0
            self.assertEqual(self.fake.fake_cuda_live_allocations(), 0)


@unittest.skipIf(LIBS is None, "the runtime and its fake CUDA driver are not "
                 "built (build/runtime or build-rt; they need cuda.h)")
class LaunchGraphs(FakeDriverCase):
    """The runtime's CUDA-graph launch path through the package: a
    multi-step entry is built once per stream and replayed; the counters
    and the on/off switch reach Python."""

    def test_replay_and_stats(self):
        module = fusecc.load(self.v2, lib=self.lib, device=0,
                             launch_graphs=True)
        with module:
            x, w, y = (FakeTensor((64, 1024)), FakeTensor((1024,)),
                       FakeTensor((64, 1024)))
            self.reset()
            for _ in range(3):
                self.assertIs(module.layer(x, w, out=y, stream=5), y)
            replays = [line for line in self.log()
                       if line.startswith("graphlaunch")]
            self.assertEqual(len(replays), 3, self.log())
            self.assertFalse([line for line in self.log()
                              if line.startswith("launch ")])
            stats = module.launch_stats()
            self.assertEqual((stats["graph_builds"], stats["graph_calls"],
                              stats["direct_calls"], stats["live_graphs"]),
                             (1, 3, 0, 1))
            # New output memory re-points the graph.
            y2 = FakeTensor((64, 1024))
            module.layer(x, w, out=y2, stream=5)
            self.assertEqual(module.launch_stats()["graph_updates"], 1)
            # A one-launch entry is always direct; so is everything when
            # graphs are off.
            module.pair(FakeTensor((16,)), out=(FakeTensor((16,)),
                                                FakeTensor((16,))), stream=5)
            module.set_launch_graphs(False)
            self.reset()
            module.layer(x, w, out=y, stream=5)
            self.assertTrue(self.log()[0].startswith("alloc 4096 s5"))
            self.assertEqual(module.launch_stats()["direct_calls"], 2)


@unittest.skipIf(LIBS is None, "the runtime is not built (build/runtime or "
                 "build-rt; it needs cuda.h)")
class SameVerdicts(unittest.TestCase):
    """fusecc.bundle and the runtime's parser accept and reject the same
    bytes: seed bundles of every version with 1 to 3 bytes changed in the
    manifest, truncated, or with bytes appended (deterministic)."""

    def setUp(self):
        self.lib = ctypes.CDLL(LIBS[0])
        self.lib.fusecc_bundle_parse.restype = ctypes.c_void_p
        self.lib.fusecc_bundle_parse.argtypes = [
            ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]
        self.lib.fusecc_status_message.restype = ctypes.c_char_p
        self.lib.fusecc_status_message.argtypes = [ctypes.c_void_p]
        self.lib.fusecc_status_free.argtypes = [ctypes.c_void_p]
        self.lib.fusecc_bundle_release.argtypes = [ctypes.c_void_p]

    def runtime_verdict(self, blob):
        handle = ctypes.c_void_p()
        status = self.lib.fusecc_bundle_parse(blob, len(blob),
                                              ctypes.byref(handle))
        if status:
            message = self.lib.fusecc_status_message(status).decode()
            self.lib.fusecc_status_free(status)
            return message
        self.lib.fusecc_bundle_release(handle)
        return None

    @staticmethod
    def python_verdict(blob):
        try:
            bundle.parse(blob)
        except bundle.BundleError as error:
            return str(error)
        return None

    def test_mutations(self):
        seeds = [samples.v2_fake_bundle()] + [
            open(os.path.join(samples.RUNTIME_DATA, name), "rb").read()
            for name in ("sample.fcb", "sample_v2.fcb")]
        v3 = [samples.v3_bundle(), samples.v3_plain_bundle()]
        if self.runtime_verdict(v3[0]) is None:
            seeds += v3
        else:
            self.assertIn("version 3", self.runtime_verdict(v3[0]))
        rng = random.Random(7)
        plausible = b" \n0123456789-cwz%"
        checked = 0
        for seed in seeds:
            self.assertIsNone(self.runtime_verdict(seed))
            self.assertIsNone(self.python_verdict(seed))
            manifest = seed.index(b"\nptx ") + 12
            blobs = []
            for round in range(600):
                blob = bytearray(seed)
                for _ in range(1 + round % 3):
                    i = rng.randrange(manifest)
                    blob[i] = (plausible[rng.randrange(len(plausible))]
                               if rng.random() < 0.75 else rng.randrange(256))
                blobs.append(bytes(blob))
            step = max(1, len(seed) // 100)
            blobs += [seed[:cut] for cut in range(0, len(seed), step)]
            blobs += [seed + seed[cut:cut + 3]
                      for cut in range(0, len(seed), step)]
            for blob in blobs:
                runtime_says = self.runtime_verdict(blob)
                python_says = self.python_verdict(blob)
                if (runtime_says is None) != (python_says is None):
                    self.fail("runtime: %s; fusecc.bundle: %s; bytes: %r"
                              % (runtime_says, python_says, blob[:300]))
                checked += 1
        self.assertGreater(checked, 2000)


class Library(unittest.TestCase):

    def test_missing_explicit_library(self):
        with self.assertRaisesRegex(fusecc.RuntimeLibraryError,
                                    "'/nonexistent/lib.so' does not exist"):
            runtime.find_library("/nonexistent/lib.so")

    def test_missing_environment_library(self):
        saved = os.environ.get("FUSECC_RUNTIME_LIBRARY")
        os.environ["FUSECC_RUNTIME_LIBRARY"] = "/nonexistent/lib.so"
        try:
            with self.assertRaisesRegex(fusecc.RuntimeLibraryError,
                                        "FUSECC_RUNTIME_LIBRARY="):
                runtime.find_library()
        finally:
            if saved is None:
                del os.environ["FUSECC_RUNTIME_LIBRARY"]
            else:
                os.environ["FUSECC_RUNTIME_LIBRARY"] = saved

    def test_candidates_in_order(self):
        with mock.patch.dict(os.environ, {"FUSECC_RUNTIME_LIBRARY": "/x.so"}):
            candidates = runtime.library_candidates()
        package = os.path.dirname(os.path.abspath(fusecc.__file__))
        packaged = os.path.join(package, "lib", runtime.LIBRARY_NAME)
        self.assertEqual(runtime.PACKAGED_LIBRARY, packaged)
        self.assertEqual(candidates[:2], ["/x.so", packaged])
        self.assertEqual(candidates[-3:], [
            os.path.join(samples.REPO, d, runtime.LIBRARY_NAME)
            for d in ("build/runtime", "build-rt", "build")])

    def test_not_a_library(self):
        with tempfile.NamedTemporaryFile(suffix=".so") as f:
            f.write(b"not an ELF file")
            f.flush()
            with self.assertRaisesRegex(fusecc.RuntimeLibraryError,
                                        "cannot load fusecc runtime"):
                runtime.Runtime(f.name)


if __name__ == "__main__":
    unittest.main()
