# ===- python/tests/test_dynamic_batch.py - Launch-time batch entries ---=== #
#
# Bundle format version 4 (a dynamic batch, `fusecc --max-batch=N`): the
# reader's per-sample records, entry calls at any batch in [1, N] with a
# clear error outside it (on a stub module: no GPU, no runtime library),
# and through libfusecc_runtime.so on its fake CUDA driver the sizes and
# grids the runtime derives from the batch.
#
# ===--------------------------------------------------------------------=== #

import os
import struct
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import bundle, module  # noqa: E402
import samples  # noqa: E402
from samples import FakeTensor  # noqa: E402
from test_runtime import LIBS, FakeDriverCase  # noqa: E402

MANIFEST = """fusecc-bundle 4
chip sm_90
precision ieee
entry dec args 3 workspaces 2 steps 3 max_batch 8
arg 0 in x f32 3 b 4 8
arg 1 in w f32 1 8
arg 2 out y f32 3 b 4 8
workspace 0 f32 16 scratch
workspace 1 f32 64*b intermediate
launch pack_p2 grid 2 1 1 block 64 1 1 smem 0 params 2 1 w0
launch main_p3 grid 4 1 b block 32 1 1 smem 0 params 3 0 w0 w1
launch tail_p2 grid 4 2 b block 32 1 1 smem 0 params 2 w1 2
graph %3 = relu %0
graph return %3
end
"""


def dynamic_bundle():
    return samples.bundle_bytes(MANIFEST)


class Reader(unittest.TestCase):

    def test_per_sample_records(self):
        entry = bundle.parse(dynamic_bundle()).entry("dec")
        self.assertEqual(entry.max_batch, 8)
        x, w, y = entry.args
        self.assertTrue(x.batched and y.batched and not w.batched)
        self.assertEqual(x.shape, (1, 4, 8))
        self.assertEqual(x.shape_at(5), (5, 4, 8))
        self.assertEqual(x.bytes_at(5), 5 * 32 * 4)
        self.assertEqual(w.shape_at(5), (8,))
        ws0, ws1 = entry.workspaces
        self.assertFalse(ws0.per_sample)
        self.assertTrue(ws1.per_sample)
        self.assertEqual(ws1.bytes_at(3), 3 * 64 * 4)
        pack, main, tail = entry.launches
        self.assertFalse(pack.per_sample)
        self.assertTrue(main.per_sample and tail.per_sample)
        self.assertEqual(tail.grid, (4, 2, 1))

    def test_errors(self):
        cases = [
            ("entry dec args 3 workspaces 2 steps 3 max_batch 8",
             "entry dec args 3 workspaces 2 steps 3 max_batch 0",
             r"max_batch 0 is out of range \(expected 1 to 65535\)"),
            ("entry dec args 3 workspaces 2 steps 3 max_batch 8",
             "entry dec args 3 workspaces 2 steps 3",
             "arg 0 'x' has a batch dim 'b' but entry 'dec' has no "
             "'max_batch'"),
        ]
        for old, new, message in cases:
            with self.assertRaisesRegex(bundle.BundleError, message):
                bundle.parse(samples.bundle_bytes(MANIFEST.replace(old, new)))
        v3 = MANIFEST.replace("fusecc-bundle 4", "fusecc-bundle 3")
        with self.assertRaisesRegex(bundle.BundleError,
                                    "unexpected 'max_batch'|after the step"):
            bundle.parse(samples.bundle_bytes(v3))


class StubModule:
    """EntryFunction's module: records each launch with its batch."""

    def __init__(self):
        self.device_index = 0
        self.bundle = bundle.parse(dynamic_bundle())
        self.launches = []

    def launch_buffers(self, entry_index, buffer_array, stream, batch=0):
        self.launches.append(([(b.ptr, b.size_bytes) for b in buffer_array],
                              batch))

    def launch_pointers(self, entry_index, pointers, count, stream, batch=0):
        self.launches.append((list(struct.unpack("@%dQ" % count, pointers)),
                              batch))


def entry_function():
    stub = StubModule()
    return module.EntryFunction(stub, stub.bundle.entry("dec")), stub


class Calls(unittest.TestCase):

    def test_any_batch_in_range(self):
        f, stub = entry_function()
        w = FakeTensor((8,))
        for batch in (1, 3, 8):
            x, y = FakeTensor((batch, 4, 8)), FakeTensor((batch, 4, 8))
            self.assertIs(f(x, w, out=y, stream=0), y)
            self.assertEqual(stub.launches[-1], ([
                (x.data_ptr(), batch * 128), (w.data_ptr(), 32),
                (y.data_ptr(), batch * 128)], batch))

    def test_allocated_outputs_take_the_batch(self):
        f, stub = entry_function()
        f._allocate = lambda stream, batch=0: [
            FakeTensor(a.shape_at(batch)) for a in f.outputs]
        y = f(FakeTensor((6, 4, 8)), FakeTensor((8,)), stream=0)
        self.assertEqual(y.shape, (6, 4, 8))
        self.assertEqual(stub.launches[-1][1], 6)

    def test_repeated_signature_keeps_its_batch(self):
        # The fast path (a signature seen before) launches with the batch
        # of the tensors it was given; a new batch is checked again.
        f, stub = entry_function()
        w = FakeTensor((8,))
        f(FakeTensor((2, 4, 8)), w, out=FakeTensor((2, 4, 8)), stream=0)
        x, y = FakeTensor((2, 4, 8)), FakeTensor((2, 4, 8))
        f(x, w, out=y, stream=0)
        self.assertEqual(stub.launches[-1],
                         ([x.data_ptr(), w.data_ptr(), y.data_ptr()], 2))
        f(FakeTensor((5, 4, 8)), w, out=FakeTensor((5, 4, 8)), stream=0)
        self.assertEqual(stub.launches[-1][1], 5)

    def test_batch_outside_the_bound(self):
        f, stub = entry_function()
        for batch in (9, 0):
            with self.assertRaisesRegex(
                    module.ArgumentError,
                    "entry 'dec' input 0 'x': batch %d is outside the batches "
                    r"this bundle serves \(1 to 8, compiled with "
                    "--max-batch=8" % batch):
                f(FakeTensor((batch, 4, 8)), FakeTensor((8,)),
                  out=FakeTensor((batch, 4, 8)), stream=0)
        self.assertEqual(stub.launches, [])

    def test_other_dims_and_outputs_must_match(self):
        f, stub = entry_function()
        with self.assertRaisesRegex(module.ArgumentError,
                                    r"input 0 'x': expected shape \[3, 4, "
                                    r"8\], got \[3, 5, 8\]"):
            f(FakeTensor((3, 5, 8)), FakeTensor((8,)),
              out=FakeTensor((3, 4, 8)), stream=0)
        with self.assertRaisesRegex(module.ArgumentError,
                                    r"output 0 'y': expected shape \[3, 4, "
                                    r"8\], got \[4, 4, 8\]"):
            f(FakeTensor((3, 4, 8)), FakeTensor((8,)),
              out=FakeTensor((4, 4, 8)), stream=0)
        self.assertEqual(stub.launches, [])

    def test_doc_names_the_batch(self):
        f, _ = entry_function()
        self.assertEqual(f.__doc__, "fusecc entry 'dec': (x: f32[B, 4, 8], "
                         "w: f32[8]) -> (y: f32[B, 4, 8]) for B in 1..8")


@unittest.skipIf(LIBS is None, "the runtime and its fake CUDA driver are not "
                 "built (build/runtime or build-rt; they need cuda.h)")
class FakeDriver(FakeDriverCase):

    def test_sizes_and_grids_follow_the_batch(self):
        path = samples.write(self.dir, "dyn.fcb", dynamic_bundle())
        self.fake.fake_cuda_log_grids(1)
        try:
            with self.load(path) as m:
                w = FakeTensor((8,))
                for batch in (1, 7):
                    x, y = FakeTensor((batch, 4, 8)), FakeTensor((batch, 4, 8))
                    self.reset()
                    m.dec(x, w, out=y, stream=5)
                    log = self.log()
                    self.assertRegex(log[1], r"alloc %d s5" % (batch * 256))
                    self.assertIn("launch pack_p2 s5 grid 2 1 1", log[2])
                    self.assertIn("launch main_p3 s5 grid 4 1 %d" % batch,
                                  log[3])
                    self.assertIn("launch tail_p2 s5 grid 4 2 %d" % batch,
                                  log[4])
                    # Again: the fast path, same sizes.
                    self.reset()
                    m.dec(x, w, out=y, stream=5)
                    self.assertIn("grid 4 2 %d" % batch, self.log()[4])
        finally:
            self.fake.fake_cuda_log_grids(0)


if __name__ == "__main__":
    unittest.main()
