# ===- python/tests/test_fast_call.py - Cached argument checks ----------=== #
#
# EntryFunction's fast path: after a call passed prepare()'s checks, a call
# with the same argument signature (type, shape, strides, dtype, device per
# tensor) skips them, reading only data pointers, checking their alignment
# and overlap. Any change of signature, a misaligned or overlapping pointer
# goes back through prepare() and its error messages. FakeTensor and a
# stub module: no GPU, no runtime library, no PyTorch.
#
# ===--------------------------------------------------------------------=== #

import os
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import bundle, module  # noqa: E402
import samples  # noqa: E402
from samples import FakeDevice, FakeTensor  # noqa: E402
from test_module import StubModule  # noqa: E402


def layer():
    parsed = bundle.parse(samples.v2_fake_bundle())
    stub = StubModule()
    return module.EntryFunction(stub, parsed.entry("layer")), stub


def layer_args():
    return (FakeTensor((64, 1024)), FakeTensor((1024,)),
            FakeTensor((64, 1024)))


class FastPath(unittest.TestCase):

    def test_second_call_skips_prepare(self):
        f, stub = layer()
        x, w, y = layer_args()
        f(x, w, out=y, stream=3)
        # Fresh tensors of the same signature: prepare() is not called,
        # the launch gets the new pointers and the manifest's sizes.
        x2, w2, y2 = layer_args()
        with mock.patch.object(f, "prepare",
                               side_effect=AssertionError("slow path")):
            self.assertIs(f(x2, w2, out=y2, stream=4), y2)
        self.assertEqual(stub.launches[-1], (0, [
            (x2.data_ptr(), 64 * 1024 * 4), (w2.data_ptr(), 4096),
            (y2.data_ptr(), 64 * 1024 * 4)], 4))
        self.assertEqual(len(stub.launches), 2)

    def test_out_tuple_and_list_are_separate_signatures(self):
        f, stub = layer()
        x, w, y = layer_args()
        f(x, w, out=y, stream=0)
        out = (FakeTensor((64, 1024)),)
        self.assertIs(f(x, w, out=out, stream=0), out)
        self.assertEqual(stub.launches[-1][1][2][0], out[0].data_ptr())

    def test_changed_signature_is_checked_again(self):
        f, stub = layer()
        x, w, y = layer_args()
        f(x, w, out=y, stream=0)
        cases = [
            ((FakeTensor((64, 1023)), w, y), "expected shape"),
            ((FakeTensor((64, 1024), dtype="float16"), w, y),
             "expected dtype"),
            ((FakeTensor((64, 1024), device=FakeDevice("cpu")), w, y),
             "expected a CUDA tensor"),
            ((FakeTensor((64, 1024), device=FakeDevice("cuda", 1)), w, y),
             "on cuda:1"),
            ((FakeTensor((64, 1024), strides=(1, 64)), w, y),
             "expected a contiguous tensor"),
        ]
        for (a, b, c), message in cases:
            with self.assertRaisesRegex(module.ArgumentError, message):
                f(a, b, out=c, stream=0)
        self.assertEqual(len(stub.launches), 1)

    def test_misaligned_or_overlapping_pointers_still_fail(self):
        f, stub = layer()
        x, w, y = layer_args()
        f(x, w, out=y, stream=0)
        base = FakeTensor((2, 64, 1024))
        with self.assertRaisesRegex(module.ArgumentError,
                                    "not 16-byte aligned"):
            f(base.view_at(4, (64, 1024)), w, out=y, stream=0)
        # The output shares the input's memory.
        with self.assertRaisesRegex(module.ArgumentError,
                                    "output 'result' overlaps input 'x'"):
            f(x, w, out=x.view_at(256), stream=0)
        self.assertEqual(len(stub.launches), 1)

    def test_named_inputs_take_the_checked_path(self):
        f, stub = layer()
        x, w, y = layer_args()
        f(x, w, out=y, stream=0)
        with mock.patch.object(f, "prepare",
                               wraps=f.prepare) as prepare:
            f(x=x, weight=w, out=y, stream=0)
            self.assertEqual(prepare.call_count, 1)
        self.assertEqual(len(stub.launches), 2)

    def test_unhashable_metadata_is_never_cached(self):
        f, stub = layer()

        class Device:  # Equal by identity only, and unhashable.
            type, index = "cuda", 0
            __hash__ = None
        x, w, y = layer_args()
        x.device = Device()
        for _ in range(2):
            f(x, w, out=y, stream=0)
        self.assertEqual(f._checked, {})
        self.assertEqual(len(stub.launches), 2)

    def test_signature_cache_is_bounded(self):
        parsed = bundle.parse(samples.v2_fake_bundle())
        f = module.EntryFunction(StubModule(), parsed.entry("pair"))
        for i in range(module.SIGNATURE_CACHE_SIZE + 5):
            # A tensor type of its own each time: a new signature.
            kind = type("Tensor%d" % i, (FakeTensor,), {})
            f(kind((16,)), out=(FakeTensor((16,)), FakeTensor((16,))),
              stream=0)
        self.assertEqual(len(f._checked), module.SIGNATURE_CACHE_SIZE)
        # The oldest went first: the newest is still there.
        self.assertIn("Tensor%d" % (module.SIGNATURE_CACHE_SIZE + 4),
                      [s[0][0][0].__name__ for s in f._checked])


if __name__ == "__main__":
    unittest.main()
