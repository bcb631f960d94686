# ===- python/tests/test_prepare.py - Prepare steps kept across calls ---=== #
#
# An entry's prepare steps (`prepare <P>`: the weight re-layouts,
# docs/bundle.md) through the package on the fake CUDA driver
# (runtime/test/fake_cuda.c): fusecc.load turns the runtime's reuse on, and
# each call checks the identity and _version of the inputs the prepare
# steps read with the last call's, so the re-layout runs at the first call
# and after a weight changes (a new tensor, or PyTorch's in-place writes:
# copy_, an optimizer step, load_state_dict; CPU tensors here, passed off as
# CUDA ones), and never in between. Objects without a version counter
# re-prepare at every call; reuse_prepared=False and
# FUSECC_REUSE_PREPARED=0 turn reuse off. frozen_weights=True prepares once
# and never checks the weights again, captures included, until
# Module.refresh(). Needs the runtime built; skipped otherwise
# (test_runtime.FakeDriverCase).
#
# ===--------------------------------------------------------------------=== #

import ctypes
import os
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import fusecc  # noqa: E402
from fusecc import bundle  # noqa: E402
import samples  # noqa: E402
from samples import FakeTensor, check_tensors_as_cuda  # noqa: E402
from test_runtime import LIBS, FakeDriverCase  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

#: `layer` of samples.V2_FAKE_MANIFEST with its weight re-layout as a
#: prepare step into a `prepared` workspace (what fusecc writes).
PREPARE_MANIFEST = """fusecc-bundle 3
chip sm_90a
precision tf32
entry layer args 3 workspaces 1 steps 2 prepare 1
arg 0 in x f32 2 64 1024
arg 1 in weight f32 1 1024
arg 2 out result f32 2 64 1024
workspace 0 f32 1024 prepared
launch layer_wpack_p2 grid 4 1 1 block 256 1 1 smem 0 params 2 1 w0
launch layer_main_p3 grid 256 1 1 block 256 1 1 smem 0 params 3 0 w0 2
graph %2 = const 2.0
graph %3 = mul %1 %2
graph %4 = add %0 %3
graph return %4
end
"""


class VersionedTensor(FakeTensor):
    """A FakeTensor with PyTorch's version counter (bumped by hand)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._version = 0


class Manifest(unittest.TestCase):
    """The pure-Python reader takes `prepare <P>` as the runtime does."""

    def test_prepared_args_and_rules(self):
        b = bundle.parse(samples.bundle_bytes(PREPARE_MANIFEST))
        entry = b.entries[0]
        self.assertEqual(entry.prepare_count, 1)
        self.assertEqual(entry.prepared_args, [1])
        self.assertEqual(entry.workspaces[0].role, "prepared")
        bad = {
            "steps 2 prepare 1": ("steps 2 prepare 3", "prepare step count"),
            "params 2 1 w0\n": ("params 2 2 w0\n", "prepare step 0 "
                                "parameter 0 must be an input"),
            "1024 prepared": ("1024 scratch", "prepare step 0 parameter 1"),
        }
        for old, (new, message) in bad.items():
            with self.subTest(new=new):
                text = PREPARE_MANIFEST.replace(old, new)
                with self.assertRaisesRegex(bundle.BundleError, message):
                    bundle.parse(samples.bundle_bytes(text))
        no_prepare = PREPARE_MANIFEST.replace(" prepare 1", "")
        with self.assertRaisesRegex(bundle.BundleError,
                                    "'prepared' workspace 0 is no parameter"):
            bundle.parse(samples.bundle_bytes(no_prepare))


@unittest.skipIf(LIBS is None, "the runtime and its fake CUDA driver are not "
                 "built (build/runtime or build-rt; they need cuda.h)")
class PrepareReuse(FakeDriverCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.path = samples.write(cls.dir, "prepare.fcb",
                                 samples.bundle_bytes(PREPARE_MANIFEST))

    def load(self, path=None, **kwargs):
        return fusecc.load(path or self.path, lib=self.lib, device=0,
                           launch_graphs=True, **kwargs)

    def packs(self):
        """The re-layout's runs since the last reset (its graph's
        replays)."""
        return [line for line in self.log()
                if line.startswith("  layer_wpack_p2")]

    def test_packed_once_per_weight_value(self):
        with self.load() as module:
            f = module.layer
            x, w, y = (VersionedTensor((64, 1024)), VersionedTensor((1024,)),
                       VersionedTensor((64, 1024)))
            self.reset()
            for _ in range(3):  # Checked path, then the cached one.
                self.assertIs(f(x, w, out=y, stream=5), y)
            self.assertEqual(self.packs(), [
                "  layer_wpack_p2 %#x 0x20000000" % w.data_ptr()])
            # New inputs and outputs: no re-layout.
            self.reset()
            f(VersionedTensor((64, 1024)), w, out=VersionedTensor((64, 1024)),
              stream=5)
            self.assertEqual(self.packs(), [])
            # The weight written in place: re-laid out once.
            w._version += 1
            self.reset()
            f(x, w, out=y, stream=5)
            f(x, w, out=y, stream=5)
            self.assertEqual(len(self.packs()), 1)
            # Another weight tensor: re-laid out from it.
            w2 = VersionedTensor((1024,))
            self.reset()
            f(x, w2, out=y, stream=5)
            self.assertEqual(self.packs(), [
                "  layer_wpack_p2 %#x 0x20000000" % w2.data_ptr()])
            # In the same graph launch as the rest of the entry.
            self.assertEqual(len([line for line in self.log()
                                  if line.startswith("graphlaunch")]), 1)
            # Writes behind the counter: the documented call.
            module.invalidate_prepared()
            self.reset()
            f(x, w2, out=y, stream=5)
            self.assertEqual(len(self.packs()), 1)
            stats = module.launch_stats()
            self.assertEqual((stats["prepare_runs"], stats["prepare_reuses"]),
                             (4, 4))

    def test_unversioned_objects_prepare_every_call(self):
        with self.load() as module:
            x, w, y = (FakeTensor((64, 1024)), FakeTensor((1024,)),
                       FakeTensor((64, 1024)))
            self.reset()
            for _ in range(3):
                module.layer(x, w, out=y, stream=5)
            self.assertEqual(len(self.packs()), 3)

    def test_reuse_off(self):
        x, w, y = (VersionedTensor((64, 1024)), VersionedTensor((1024,)),
                   VersionedTensor((64, 1024)))
        with self.load(reuse_prepared=False) as module:
            self.assertFalse(module.reuse_prepared)
            self.reset()
            for _ in range(3):
                module.layer(x, w, out=y, stream=5)
            self.assertEqual(len(self.packs()), 3)
        with mock.patch.dict(os.environ, {"FUSECC_REUSE_PREPARED": "0"}):
            module = self.load()
        with module:
            self.assertFalse(module.reuse_prepared)
            self.reset()
            module.layer(x, w, out=y, stream=5)
            module.layer(x, w, out=y, stream=5)
            self.assertEqual(len(self.packs()), 2)

    @unittest.skipIf(torch is None, "needs PyTorch")
    def test_pytorch_in_place_updates(self):
        """PyTorch's in-place writes of a parameter bump its version, so
        the next call re-lays it out: copy_, an optimizer step,
        load_state_dict (CPU tensors passed off as CUDA ones)."""
        patch = check_tensors_as_cuda()
        patch.start()
        self.addCleanup(patch.stop)
        layer = torch.nn.Linear(1024, 1, bias=False)
        # Shares the parameter's memory and version counter.
        w = layer.weight.detach().view(1024)
        x = torch.zeros(64, 1024)
        y = torch.empty(64, 1024)
        with self.load() as module:
            f = module.layer
            f(x, w, out=y, stream=5)
            calls = {
                "none": lambda: None,
                "copy_": lambda: self.copy_ones(layer.weight),
                "optimizer step": self.optimizer_step(layer),
                "load_state_dict": lambda: layer.load_state_dict(
                    {"weight": torch.full_like(layer.weight, 3.0)}),
            }
            for what, update in calls.items():
                with self.subTest(update=what):
                    update()
                    self.reset()
                    f(x, w, out=y, stream=5)
                    self.assertEqual(len(self.packs()),
                                     0 if what == "none" else 1)

    @staticmethod
    def copy_ones(parameter):
        with torch.no_grad():
            parameter.copy_(torch.ones_like(parameter))

    @staticmethod
    def optimizer_step(layer):
        opt = torch.optim.SGD(layer.parameters(), lr=0.1)

        def step():
            layer.weight.grad = torch.ones_like(layer.weight)
            opt.step()
        return step


@unittest.skipIf(LIBS is None, "the runtime and its fake CUDA driver are not "
                 "built (build/runtime or build-rt; they need cuda.h)")
class FrozenWeights(FakeDriverCase):
    """frozen_weights=True (fusecc_module_set_frozen_weights): prepared at
    the first call into the module's workspace (the fake's first cuMemAlloc,
    0x20000000, then the stream synchronized), never again until
    Module.refresh(): not after an in-place write (the caller's to
    announce), not in a capture (whose replays then skip the re-layout)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.path = samples.write(cls.dir, "frozen.fcb",
                                 samples.bundle_bytes(PREPARE_MANIFEST))
        cls.fake.fake_cuda_set_capturing.argtypes = [ctypes.c_void_p,
                                                     ctypes.c_int]

    def packs(self):
        return [line for line in self.log()
                if "layer_wpack_p2" in line and not line.startswith("node")]

    def test_prepared_once_on_every_path(self):
        x, w, y = (VersionedTensor((64, 1024)), VersionedTensor((1024,)),
                   VersionedTensor((64, 1024)))
        for graphs in (True, False):
            with self.subTest(launch_graphs=graphs), fusecc.load(
                    self.path, lib=self.lib, device=0, launch_graphs=graphs,
                    frozen_weights=True) as module:
                self.assertTrue(module.frozen_weights)
                f = module.layer
                self.reset()
                for _ in range(3):  # Checked path, then the cached one.
                    f(x, w, out=y, stream=5)
                self.assertEqual(self.packs(), [
                    "launch layer_wpack_p2 s5 %#x 0x20000000" % w.data_ptr()])
                self.assertIn("streamsync s5", self.log())
                # Written in place: frozen, so not seen (the promise).
                w._version += 1
                self.reset()
                f(x, w, out=y, stream=5)
                self.assertEqual(self.packs(), [])
                # A capture: the rest of the entry alone, on the frozen
                # workspace.
                self.fake.fake_cuda_set_capturing(5, 1)
                try:
                    self.reset()
                    f(x, w, out=y, stream=5)
                finally:
                    self.fake.fake_cuda_set_capturing(None, 0)
                self.assertEqual(self.packs(), [])
                self.assertTrue(any(
                    line.startswith("launch layer_main_p3 s5 %#x 0x20000000 "
                                    % x.data_ptr()) for line in self.log()))
                # The refresh: prepared again, once.
                module.refresh()
                self.reset()
                f(x, w, out=y, stream=5)
                f(x, w, out=y, stream=5)
                self.assertEqual(len(self.packs()), 1)
                stats = module.launch_stats()
                self.assertEqual(
                    (stats["frozen_prepare_runs"], stats["frozen_calls"],
                     stats["frozen_misses"], stats["prepare_runs"]),
                    (2, 7, 0, 0))

    def test_options_checked_and_off_by_default(self):
        with self.assertRaisesRegex(ValueError, "unknown option.*frozen_weight"
                                    ".*known: launch_graphs"):
            fusecc.load(self.path, lib=self.lib, device=0,
                        frozen_weight=True)
        with fusecc.load(self.path, lib=self.lib, device=0) as module:
            self.assertFalse(module.frozen_weights)
        # No prepare steps: nothing to freeze.
        plain = samples.write(self.dir, "plain.fcb",
                              samples.bundle_bytes(samples.V2_FAKE_MANIFEST))
        with fusecc.load(plain, lib=self.lib, device=0,
                         frozen_weights=True) as module:
            self.assertFalse(module.frozen_weights)


if __name__ == "__main__":
    unittest.main()
