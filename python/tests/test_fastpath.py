# ===- python/tests/test_fastpath.py - The cached call's closures -------=== #
#
# fusecc.fastpath.launcher: after a call passed the argument checks, the
# cached call of its signature is one closure (the record's words bound in
# its cells). Here: the record it packs, the stream it takes (PyTorch's
# current one for None, an int as is, anything else left to _fast_call),
# its allocation (_empty_strided_cuda on the module's device, else
# empty_like of the templates; a fresh tensor per call), the status it
# hands back; and, on the real runtime with the fake CUDA driver, that an
# entry's cached calls go through the closure, that a changed tensor still
# gets the first call's error naming the argument (guard or Python
# signature), that a rejected pointer is located, and that closing the
# module drops the closures. No GPU.
#
# ===--------------------------------------------------------------------=== #

import os
import re
import struct
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import fusecc  # noqa: E402
from fusecc import allocation, fastpath  # noqa: E402
from fusecc import callcache  # noqa: E402
from samples import FakeDevice, FakeTensor  # noqa: E402
from test_fast_call import FakeGuards  # noqa: E402
from test_runtime import FakeDriverCase  # noqa: E402

torch = allocation.torch


class Launch:
    """A stand-in for fusecc_module_launch_packed: records each record's
    words and returns `status`."""

    def __init__(self, count, status=None):
        self.count, self.status, self.records = count, status, []

    def __call__(self, record):
        self.records.append(struct.unpack(
            "@%dQ" % (fastpath.PACKED_POINTERS + self.count), record))
        return self.status


def build(count=3, status=None, templates=None, strided=None, failed=None):
    """A closure over a Launch of `count` pointers (module handle 77, entry
    2, batch 0, device 1, current stream 9)."""
    launch = Launch(count, status)
    fast = fastpath.launcher(
        (launch, 77), 2, 0, count, 1, lambda index: 9 if index == 1 else 0,
        None, templates, failed or (lambda *a: ("failed",) + a), strided)
    return fast, launch


class Closure(unittest.TestCase):

    def test_record_and_streams(self):
        fast, launch = build()
        values = (FakeTensor((4,)), FakeTensor((8,)), FakeTensor((4,)))
        out = values[2]
        pointers = tuple(v.data_ptr() for v in values)
        self.assertIs(fast(values, out, None, {}), out)
        self.assertEqual(launch.records[-1], (77, 2, 0, 9, 3) + pointers)
        self.assertIs(fast(values, out, 5, {}), out)
        self.assertEqual(launch.records[-1][3], 5)
        # Not its call: a stream object, a handle no u64 holds.
        self.assertIs(fast(values, out, object(), {}), fastpath.MISS)
        self.assertIs(fast(values, out, -1, {}), fastpath.MISS)
        self.assertEqual(len(launch.records), 2)

    def test_status_goes_to_failed(self):
        fast, launch = build(status=1234)
        values = (FakeTensor((4,)), FakeTensor((8,)), FakeTensor((4,)))
        self.assertEqual(fast(values, values[2], 3, {"k": 1}),
                         ("failed", 1234, values, values[2], 3, {"k": 1}))


@unittest.skipIf(torch is None, "needs PyTorch")
class Allocation(unittest.TestCase):

    def specs(self, count):
        cpu = torch.device("cpu")
        return [((2, 3), torch.float32, cpu), ((5,), torch.int32, cpu)][
            :count]

    def strided(self, specs):
        return tuple((shape, torch.empty(shape).stride(), dtype)
                     for shape, dtype, _ in specs)

    def fake_strided_cuda(self, made):
        def empty_strided(shape, strides, dtype):
            made.append((shape, strides, dtype))
            return torch.empty_strided(shape, strides, dtype=dtype)
        return empty_strided

    def test_strided_on_the_module_device_else_templates(self):
        for outputs in (1, 2):
            specs = self.specs(outputs)
            made, device = [], [1]
            patches = [
                mock.patch.object(allocation, "EMPTY_STRIDED_CUDA",
                                  self.fake_strided_cuda(made)),
                mock.patch.object(allocation, "CURRENT_DEVICE",
                                  lambda: device[0])]
            for patch in patches:
                patch.start()
                self.addCleanup(patch.stop)
            fast, launch = build(
                1 + outputs, templates=allocation.allocation_recipe(specs),
                strided=self.strided(specs))
            x = FakeTensor((4,))
            first = fast((x,), None, None, None)
            second = fast((x,), None, None, None)
            self.assertEqual(len(made), 2 * outputs)
            device[0] = 0  # Another device is current: empty_like.
            third = fast((x,), None, None, None)
            self.assertEqual(len(made), 2 * outputs)
            for results in (first, second, third):
                results = results if outputs > 1 else (results,)
                self.assertEqual(len(results), outputs)
                for got, (shape, dtype, _) in zip(results, specs):
                    self.assertEqual((tuple(got.shape), got.dtype),
                                     (shape, dtype))
                    self.assertTrue(got.is_contiguous())
            pointers = {t.data_ptr() for r in (first, second)
                        for t in (r if outputs > 1 else (r,))}
            self.assertEqual(len(pointers), 2 * outputs)  # All fresh.
            self.assertEqual(
                launch.records[0][5:], (x.data_ptr(),) + tuple(
                    t.data_ptr() for t in (first if outputs > 1
                                           else (first,))))

    def test_no_strided_recipe_without_a_cuda_device_or_the_call(self):
        specs = self.specs(1)
        self.assertIsNone(allocation.strided_recipe(specs))
        with mock.patch.object(allocation, "EMPTY_STRIDED_CUDA", None):
            cuda = [(s, d, torch.device("cuda", 0)) for s, d, _ in specs]
            self.assertIsNone(allocation.strided_recipe(cuda))


def layer_args():
    return (FakeTensor((64, 1024)), FakeTensor((1024,)),
            FakeTensor((64, 1024)))


class EntryClosures(FakeDriverCase):
    """An entry of a module on the real runtime (fake driver)."""

    def no_general_path(self, f):
        return mock.patch.object(f, "_fast_call",
                                 side_effect=AssertionError("_fast_call"))

    def test_cached_calls_go_through_the_closure(self):
        for guarded in (False, True):
            with self.subTest(guarded=guarded), self.load() as module, \
                    mock.patch.object(callcache, "TensorGuards",
                                      FakeGuards if guarded else None), \
                    mock.patch.object(callcache, "GUARDED_TYPES",
                                      (FakeTensor,)):
                f = module.layer
                x, w, y = layer_args()
                f(x, w, out=y, stream=5)
                closures = ([g[3] for g in f._guards] if guarded
                            else list(f._checked.values()))
                self.assertEqual(len(closures), 1)
                self.assertTrue(callable(closures[0]))
                x2, w2, y2 = layer_args()
                self.reset()
                with mock.patch.object(f, "prepare", side_effect=(
                        AssertionError("checked"))), \
                        self.no_general_path(f):
                    self.assertIs(f(x2, w2, out=y2, stream=5), y2)
                log = self.log()
                self.assertEqual(len(log), 4, log)
                self.assertEqual(log[2].split(" ")[3], "%#x" % x2.data_ptr())
                # A stream object: left to _fast_call.
                stream = mock.Mock(cuda_stream=6)
                with mock.patch.object(f, "_fast_call",
                                       wraps=f._fast_call) as general:
                    self.assertIs(f(x2, w2, out=y2, stream=stream), y2)
                    self.assertEqual(general.call_count, 1)

    def test_changed_tensor_after_caching_is_named(self):
        cases = [
            ((FakeTensor((64, 1023)),) + layer_args()[1:],
             "entry 'layer' input 0 'x': expected shape [64, 1024], got "
             "[64, 1023]"),
            (layer_args()[:1] + (FakeTensor((1024,), dtype="float16"),
                                 FakeTensor((64, 1024))),
             "entry 'layer' input 1 'weight': expected dtype float32 (f32), "
             "got float16"),
            ((FakeTensor((64, 1024), device=FakeDevice("cuda", 1)),)
             + layer_args()[1:], "input 0 'x': expected a CUDA tensor on "
             "cuda:0, got one on cuda:1"),
            ((FakeTensor((64, 1024), strides=(1, 64)),) + layer_args()[1:],
             "input 0 'x': expected a contiguous tensor"),
            (layer_args()[:2] + (FakeTensor((64, 1024), dtype="int32"),),
             "output 0 'result': expected dtype float32 (f32), got int32"),
        ]
        for guarded in (False, True):
            with self.load() as module, \
                    mock.patch.object(callcache, "TensorGuards",
                                      FakeGuards if guarded else None), \
                    mock.patch.object(callcache, "GUARDED_TYPES",
                                      (FakeTensor,)):
                f = module.layer
                x, w, y = layer_args()
                for _ in range(2):
                    f(x, w, out=y, stream=5)
                for (a, b, c), message in cases:
                    with self.subTest(guarded=guarded, message=message):
                        self.reset()
                        with self.assertRaisesRegex(fusecc.ArgumentError,
                                                    re.escape(message)):
                            f(a, b, out=c, stream=5)
                        self.assertEqual(self.log(), [])
                # Still cached, and still right, afterwards.
                self.reset()
                with self.no_general_path(f):
                    self.assertIs(f(x, w, out=y, stream=5), y)
                self.assertEqual(len(self.log()), 4)

    def test_rejected_pointer_is_located(self):
        with self.load() as module:
            f = module.layer
            x, w, y = layer_args()
            f(x, w, out=y, stream=5)
            base = FakeTensor((2, 64, 1024))
            self.reset()
            with self.assertRaisesRegex(fusecc.ArgumentError,
                                        "input 0 'x': data pointer .* is "
                                        "not 16-byte aligned"):
                f(base.view_at(4, (64, 1024)), w, out=y, stream=5)
            with self.assertRaisesRegex(fusecc.ArgumentError,
                                        "output 'result' overlaps input "
                                        "'x'"):
                f(x, w, out=x.view_at(256), stream=5)
            self.assertEqual(self.log(), [])

    def test_close_drops_the_closures(self):
        module = self.load()
        x, w, y = layer_args()
        module.layer(x, w, out=y, stream=5)
        module.close()
        f = module.layer
        self.assertEqual(list(f._checked.values()), [None])
        self.assertTrue(all(g[3] is None for g in f._guards))
        with self.assertRaisesRegex(fusecc.FuseccError, "module is closed"):
            f(x, w, out=y, stream=5)


if __name__ == "__main__":
    unittest.main()
