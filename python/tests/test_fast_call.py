# ===- python/tests/test_fast_call.py - Cached argument checks ----------=== #
#
# EntryFunction's fast path: after a call passed prepare()'s checks, a call
# with the same argument signature (type, shape, strides, dtype, device per
# tensor) skips them, reading only data pointers, which the runtime checks
# for alignment and overlap (the stub module here). Any change of
# signature, a misaligned or overlapping pointer goes back through
# prepare() and its error messages. The signature is a Python tuple, or a
# tensor guard (PyTorch's TensorGuards; FakeGuards here, with its rules:
# same type, dtype, device, sizes, strides, no tensor twice). FakeTensor
# and a stub module: no GPU, no runtime library, no PyTorch.
#
# ===--------------------------------------------------------------------=== #

import os
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import bundle, callcache, module  # noqa: E402
import samples  # noqa: E402
from samples import FakeDevice, FakeTensor  # noqa: E402
# The stub module, the "layer" entry on it and its arguments, as
# test_module's calls use them.
from test_module import StubModule, entry_function, layer_args  # noqa: E402


class FastPath(unittest.TestCase):

    def test_second_call_skips_prepare(self):
        f, stub = entry_function()
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
        f, stub = entry_function()
        x, w, y = layer_args()
        f(x, w, out=y, stream=0)
        out = (FakeTensor((64, 1024)),)
        self.assertIs(f(x, w, out=out, stream=0), out)
        self.assertEqual(stub.launches[-1][1][2][0], out[0].data_ptr())

    def test_changed_signature_is_checked_again(self):
        f, stub = entry_function()
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
        f, stub = entry_function()
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
        f, stub = entry_function()
        x, w, y = layer_args()
        f(x, w, out=y, stream=0)
        with mock.patch.object(f, "prepare",
                               wraps=f.prepare) as prepare:
            f(x=x, weight=w, out=y, stream=0)
            self.assertEqual(prepare.call_count, 1)
        self.assertEqual(len(stub.launches), 2)

    def test_unhashable_metadata_is_never_cached(self):
        f, stub = entry_function()

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


class FakeGuards:
    """TensorGuards' contract on FakeTensors: check() holds for tensors of
    the same type, dtype, device, sizes and strides, none passed twice;
    TypeError for a wrong count."""

    built = 0

    def __init__(self, *tensors, dynamic_dims_sizes, dynamic_dims_strides):
        assert dynamic_dims_sizes is None and dynamic_dims_strides is None
        self.expected = [self.key(t) for t in tensors]
        FakeGuards.built += 1

    @staticmethod
    def key(t):
        return (type(t), t.dtype, t.device, tuple(t.shape), t.stride())

    def check(self, *tensors):
        if len(tensors) != len(self.expected):
            raise TypeError("wrong length")
        if len(set(map(id, tensors))) != len(tensors):
            return False
        return [self.key(t) for t in tensors] == self.expected


class Guards(unittest.TestCase):
    """The fast path with a tensor guard (PyTorch >= 2.0)."""

    def setUp(self):
        patches = [mock.patch.object(callcache, "TensorGuards", FakeGuards),
                   mock.patch.object(callcache, "GUARDED_TYPES", (FakeTensor,))]
        for patch in patches:
            patch.start()
            self.addCleanup(patch.stop)

    def test_second_call_checks_the_guard_only(self):
        f, stub = entry_function()
        x, w, y = layer_args()
        f(x, w, out=y, stream=3)
        self.assertEqual(len(f._guards), 1)
        self.assertEqual(f._checked, {})
        x2, w2, y2 = layer_args()
        with mock.patch.object(f, "prepare",
                               side_effect=AssertionError("slow path")), \
                mock.patch.object(module.EntryFunction, "_signature",
                                  side_effect=AssertionError("signature")):
            self.assertIs(f(x2, w2, out=y2, stream=4), y2)
        self.assertEqual(stub.launches[-1], (0, [
            (x2.data_ptr(), 64 * 1024 * 4), (w2.data_ptr(), 4096),
            (y2.data_ptr(), 64 * 1024 * 4)], 4))

    def test_changed_tensor_fails_the_guard_and_is_named(self):
        f, stub = entry_function()
        x, w, y = layer_args()
        f(x, w, out=y, stream=0)
        cases = [
            ((x, FakeTensor((1023,)), y), "input 1 'weight': expected shape"),
            ((x, w, FakeTensor((64, 1024), dtype="float16")),
             "output 0 'result': expected dtype"),
            ((FakeTensor((64, 1024), device=FakeDevice("cuda", 1)), w, y),
             "input 0 'x': expected a CUDA tensor on cuda:0"),
            ((FakeTensor((64, 1024), strides=(1, 64)), w, y),
             "input 0 'x': expected a contiguous tensor"),
        ]
        for (a, b, c), message in cases:
            with self.assertRaisesRegex(module.ArgumentError, message):
                f(a, b, out=c, stream=0)
        self.assertEqual(len(stub.launches), 1)

    def test_pointer_errors_come_from_the_checks(self):
        f, stub = entry_function()
        x, w, y = layer_args()
        f(x, w, out=y, stream=0)
        base = FakeTensor((2, 64, 1024))
        with self.assertRaisesRegex(module.ArgumentError,
                                    "input 0 'x': data pointer .* is not "
                                    "16-byte aligned"):
            f(base.view_at(4, (64, 1024)), w, out=y, stream=0)
        with self.assertRaisesRegex(module.ArgumentError,
                                    "output 'result' overlaps input 'x'"):
            f(x, w, out=x.view_at(256), stream=0)
        self.assertEqual(len(stub.launches), 1)

    def test_tensor_passed_twice_falls_back_to_the_signature(self):
        parsed = bundle.parse(samples.bundle_bytes(
            samples.V2_FAKE_MANIFEST.replace("arg 1 in weight f32 1 1024",
                                             "arg 1 in weight f32 2 64 1024")))
        stub = StubModule(parsed=parsed)
        f = module.EntryFunction(stub, parsed.entry("layer"))
        x = FakeTensor((64, 1024))
        f(x, x, out=FakeTensor((64, 1024)), stream=0)
        self.assertEqual(f._guards, [])
        self.assertEqual(len(f._checked), 1)
        with mock.patch.object(f, "prepare",
                               side_effect=AssertionError("slow path")):
            f(x, x, out=FakeTensor((64, 1024)), stream=0)
        self.assertEqual(len(stub.launches), 2)

    def test_guard_that_cannot_be_built_falls_back(self):
        f, stub = entry_function()
        with mock.patch.object(callcache, "TensorGuards",
                               side_effect=TypeError("missing ...")):
            f(*layer_args()[:2], out=layer_args()[2], stream=0)
        self.assertEqual(f._guards, [])
        self.assertEqual(len(f._checked), 1)

    def test_out_kinds_and_allocation_have_guards_of_their_own(self):
        parsed = bundle.parse(samples.v2_fake_bundle())
        f = module.EntryFunction(StubModule(), parsed.entry("pair"))
        x = FakeTensor((16,))
        f(x, out=(FakeTensor((16,)), FakeTensor((16,))), stream=0)
        f(x, out=[FakeTensor((16,)), FakeTensor((16,))], stream=0)
        self.assertEqual([g[0] for g in f._guards], [list, tuple])
        out = (FakeTensor((16,)), FakeTensor((16,)))
        with mock.patch.object(f, "prepare",
                               side_effect=AssertionError("slow path")):
            self.assertIs(f(x, out=out, stream=0), out)
        # A wrong out= count misses every guard: prepare() reports it.
        with self.assertRaisesRegex(module.ArgumentError,
                                    "out= has 1 tensors"):
            f(x, out=(FakeTensor((16,)),), stream=0)

    def test_guards_are_bounded(self):
        f, stub = entry_function()
        for i in range(module.GUARD_CACHE_SIZE + 3):
            kind = type("Tensor%d" % i, (FakeTensor,), {})
            f(kind((64, 1024)), FakeTensor((1024,)),
              out=FakeTensor((64, 1024)), stream=0)
        self.assertEqual(len(f._guards), module.GUARD_CACHE_SIZE)


class CachedCall(unittest.TestCase):
    """cached_call: the dynamo backend's launch (outputs allocated) when
    the signature is known; None, launching nothing, otherwise."""

    def setUp(self):
        self.f, self.stub = entry_function()
        allocated = []

        def allocate(stream, batch=0):
            allocated.append(FakeTensor((64, 1024)))
            return [allocated[-1]]
        patches = [mock.patch.object(self.f, "_allocate", allocate),
                   mock.patch.object(callcache, "_STREAM_GETTER", lambda i: 9)]
        for patch in patches:
            patch.start()
            self.addCleanup(patch.stop)
        self.allocated = allocated

    def test_unknown_signature_launches_nothing(self):
        x, w, _ = layer_args()
        self.assertIsNone(self.f.cached_call([x, w]))
        self.assertIsNone(self.f.cached_call([x]))  # wrong count
        self.assertEqual(self.stub.launches, [])

    def test_known_signature_skips_the_checks(self):
        x, w, _ = layer_args()
        self.f(x, w)
        x2, w2, _ = layer_args()
        with mock.patch.object(self.f, "prepare",
                               side_effect=AssertionError("slow path")):
            out = self.f.cached_call([x2, w2])
        self.assertEqual(out, [self.allocated[-1]])
        self.assertEqual(self.stub.launches[-1], (0, [
            (x2.data_ptr(), 64 * 1024 * 4), (w2.data_ptr(), 4096),
            (out[0].data_ptr(), 64 * 1024 * 4)], 9))

    def test_rejected_pointer_is_none_not_an_error(self):
        x, w, _ = layer_args()
        self.f(x, w)
        base = FakeTensor((2, 64, 1024))
        # Same signature, misaligned: the runtime (stub) rejects it, the
        # caller gets None and takes the checked path for the error.
        with mock.patch.object(self.f, "prepare",
                               side_effect=AssertionError("slow path")):
            self.assertIsNone(self.f.cached_call(
                [base.view_at(4, (64, 1024)), w]))
        self.assertEqual(len(self.stub.launches), 1)
        with self.assertRaisesRegex(module.ArgumentError,
                                    "not 16-byte aligned"):
            self.f(base.view_at(4, (64, 1024)), w)


@unittest.skipIf(module.torch is None, "needs PyTorch")
class TorchGuards(unittest.TestCase):
    """PyTorch CPU tensors (the device check passed off as cuda:0) through
    PyTorch's TensorGuards where it has one (>= 2.0), else FakeGuards."""

    def setUp(self):
        patches = [samples.check_tensors_as_cuda()]
        if callcache.TensorGuards is None:
            patches.append(mock.patch.object(callcache, "TensorGuards",
                                             FakeGuards))
        for patch in patches:
            patch.start()
            self.addCleanup(patch.stop)

    def test_cached_call_reads_pointers_with_the_tensor_method(self):
        torch = module.torch
        f, stub = entry_function()
        x, w, y = (torch.empty(64, 1024), torch.empty(1024),
                   torch.empty(64, 1024))
        f(x, w, out=y, stream=0)
        self.assertEqual(len(f._guards), 1)
        self.assertIs(f._guards[0][2], torch.Tensor.data_ptr)
        x2 = torch.empty(64, 1024)
        with mock.patch.object(f, "prepare",
                               side_effect=AssertionError("slow path")):
            self.assertIs(f(x2, w, out=y, stream=2), y)
        self.assertEqual(stub.launches[-1], (0, [
            (x2.data_ptr(), 64 * 1024 * 4), (w.data_ptr(), 4096),
            (y.data_ptr(), 64 * 1024 * 4)], 2))
        # A transposed (non-contiguous) input fails the guard and is named.
        with self.assertRaisesRegex(module.ArgumentError,
                                    "input 0 'x': expected a contiguous"):
            f(torch.empty(1024, 64).t(), w, out=y, stream=0)
        with self.assertRaisesRegex(module.ArgumentError,
                                    "input 1 'weight': expected dtype"):
            f(x, torch.empty(1024, dtype=torch.float16), out=y, stream=0)
        self.assertEqual(len(stub.launches), 2)


if __name__ == "__main__":
    unittest.main()
