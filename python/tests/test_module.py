# ===- python/tests/test_module.py - Argument checks of entry calls -----=== #
#
# EntryFunction's checks on FakeTensor (tests/samples.py), with a stub in
# place of the loaded module: no GPU, no runtime library, no PyTorch.
#
# ===--------------------------------------------------------------------=== #

import os
import struct
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import (arguments, bundle, callcache, entry, module,  # noqa: E402
                    runtime)
import samples  # noqa: E402
from samples import FakeDevice, FakeTensor  # noqa: E402


class StubModule:
    """What EntryFunction needs of a Module: a device and the two launches
    (of buffers, and of pointers with the runtime's checks). `parsed`: the
    bundle whose entries are called (default: samples.v2_fake_bundle())."""

    def __init__(self, device_index=0, parsed=None):
        self.device_index = device_index
        self.bundle = parsed or bundle.parse(samples.v2_fake_bundle())
        self.launches = []

    def launch_buffers(self, entry_index, buffer_array, stream):
        self.launches.append((entry_index, [(b.ptr, b.size_bytes)
                                            for b in buffer_array], stream))

    def launch_pointers(self, entry_index, pointers, count, stream):
        entry = self.bundle.entries[entry_index]
        ranges = [(p, a.byte_size) for p, a in zip(
            struct.unpack("@%dQ" % count, pointers), entry.args)]
        # What fusecc_module_launch_pointers checks, as INVALID_ARGUMENT.
        try:
            for ptr, _ in ranges:
                if ptr % module.ALIGNMENT:
                    raise module.ArgumentError("misaligned")
            module.check_aliasing(ranges, entry)
        except module.ArgumentError as error:
            raise runtime.FuseccError("stub runtime: %s" % error,
                                      "INVALID_ARGUMENT") from None
        self.launches.append((entry_index, ranges, stream))


def entry_function(name="layer", blob=None):
    parsed = bundle.parse(blob or samples.v2_fake_bundle())
    stub = StubModule()
    return module.EntryFunction(stub, parsed.entry(name)), stub


def layer_args():
    return (FakeTensor((64, 1024)), FakeTensor((1024,)),
            FakeTensor((64, 1024)))


class Calls(unittest.TestCase):

    def test_launch_gets_pointers_sizes_and_stream(self):
        f, stub = entry_function()
        x, w, y = layer_args()
        result = f(x, w, out=y, stream=7)
        self.assertIs(result, y)
        self.assertEqual(stub.launches, [(0, [
            (x.data_ptr(), 64 * 1024 * 4), (w.data_ptr(), 4096),
            (y.data_ptr(), 64 * 1024 * 4)], 7)])

    def test_named_inputs_and_out_tuple(self):
        f, stub = entry_function()
        x, w, y = layer_args()
        out = (y,)
        self.assertIs(f(weight=w, x=x, out=out, stream=1), out)
        self.assertEqual(stub.launches[0][1][1][0], w.data_ptr())

    def test_stream_object(self):
        f, stub = entry_function()

        class Stream:
            cuda_stream = 1234
        f(*layer_args()[:2], out=layer_args()[2], stream=Stream())
        self.assertEqual(stub.launches[0][2], 1234)

    def test_two_outputs(self):
        f, stub = entry_function("pair")
        x, a, b = FakeTensor((16,)), FakeTensor((16,)), FakeTensor((16,))
        self.assertEqual(f(x, out=[a, b], stream=0), [a, b])
        self.assertEqual([p for p, _ in stub.launches[0][1]],
                         [x.data_ptr(), a.data_ptr(), b.data_ptr()])

    def test_allocated_outputs_come_back_as_a_tuple(self):
        # Without out=, every output is allocated (PyTorch's job on a GPU
        # machine; FakeTensors here) and a multi-output entry returns them
        # all, in order, as a tuple; a one-output entry returns the tensor.
        f, stub = entry_function("pair")
        f._allocate = lambda stream: [FakeTensor(a.shape)
                                      for a in f.outputs]
        x = FakeTensor((16,))
        result = f(x, stream=0)
        self.assertIsInstance(result, tuple)
        self.assertEqual(len(result), 2)
        self.assertEqual([p for p, _ in stub.launches[0][1]],
                         [x.data_ptr()] + [t.data_ptr() for t in result])
        g, _ = entry_function()
        g._allocate = lambda stream: [FakeTensor(a.shape)
                                      for a in g.outputs]
        single = g(*layer_args()[:2], stream=0)
        self.assertEqual(single.shape, (64, 1024))

    def test_inputs_may_alias_each_other(self):
        parsed = bundle.parse(samples.bundle_bytes(
            samples.V2_FAKE_MANIFEST.replace("arg 1 in weight f32 1 1024",
                                             "arg 1 in weight f32 2 64 1024")))
        stub = StubModule(parsed=parsed)
        f = module.EntryFunction(stub, parsed.entry("layer"))
        x = FakeTensor((64, 1024))
        f(x, x, out=FakeTensor((64, 1024)), stream=0)
        self.assertEqual(len(stub.launches), 1)

    def test_size_one_dims_ignore_strides(self):
        self.assertTrue(module.is_contiguous((2, 1, 3), (3, 99, 1)))
        self.assertFalse(module.is_contiguous((2, 3), (1, 2)))
        self.assertTrue(module.is_contiguous((), ()))

    def test_dtype_names(self):
        self.assertEqual(module.dtype_name("torch.bfloat16"), "bf16")
        self.assertEqual(module.dtype_name("float32"), "f32")
        self.assertEqual(module.dtype_name("torch.complex64"),
                         "torch.complex64")

    def test_doc_names_the_signature(self):
        f, _ = entry_function()
        self.assertEqual(f.__doc__, "fusecc entry 'layer': (x: f32[64, "
                         "1024], weight: f32[1024]) -> (result: f32[64, "
                         "1024])")


class Errors(unittest.TestCase):
    """Each error names the entry, the argument and what was expected, and
    nothing is launched."""

    def check(self, fragment, call, error=module.ArgumentError):
        f, stub = entry_function()
        with self.assertRaises(error) as caught:
            call(f)
        self.assertIn(fragment, str(caught.exception))
        self.assertEqual(stub.launches, [])

    def test_too_many_inputs(self):
        x, w, y = layer_args()
        self.check("entry 'layer' takes 2 inputs (x, weight), got 3",
                   lambda f: f(x, w, y, out=y, stream=0), TypeError)

    def test_missing_input(self):
        x, w, y = layer_args()
        self.check("entry 'layer' is missing input(s) 'weight'",
                   lambda f: f(x, out=y, stream=0), TypeError)

    def test_unknown_keyword(self):
        x, w, y = layer_args()
        self.check("unexpected keyword argument 'bias' (inputs: x, weight)",
                   lambda f: f(x, w, bias=w, out=y, stream=0), TypeError)

    def test_input_twice(self):
        x, w, y = layer_args()
        self.check("entry 'layer' got input 'x' twice",
                   lambda f: f(x, w, x=x, out=y, stream=0), TypeError)

    def test_not_a_tensor(self):
        _, w, y = layer_args()
        self.check("entry 'layer' input 0 'x': expected a torch.Tensor or a "
                   "tensor with __dlpack__",
                   lambda f: f([1.0], w, out=y, stream=0), TypeError)
        with mock.patch.object(arguments, "torch", None):
            self.check("with __dlpack__ (DLPack needs PyTorch, which is not "
                       "installed), got list",
                       lambda f: f([1.0], w, out=y, stream=0), TypeError)

    def test_cpu_tensor(self):
        _, w, y = layer_args()
        x = FakeTensor((64, 1024), device=FakeDevice("cpu", None))
        self.check("entry 'layer' input 0 'x': expected a CUDA tensor on "
                   "cuda:0, got one on cpu",
                   lambda f: f(x, w, out=y, stream=0))

    def test_other_gpu(self):
        x, _, y = layer_args()
        w = FakeTensor((1024,), device=FakeDevice("cuda", 1))
        self.check("entry 'layer' input 1 'weight': expected a CUDA tensor on "
                   "cuda:0, got one on cuda:1",
                   lambda f: f(x, w, out=y, stream=0))

    def test_dtype(self):
        x, _, y = layer_args()
        w = FakeTensor((1024,), "float16")
        self.check("entry 'layer' input 1 'weight': expected dtype float32 "
                   "(f32), got float16", lambda f: f(x, w, out=y, stream=0))

    def test_shape(self):
        _, w, y = layer_args()
        x = FakeTensor((64, 1023))
        self.check("entry 'layer' input 0 'x': expected shape [64, 1024], "
                   "got [64, 1023]", lambda f: f(x, w, out=y, stream=0))

    def test_not_contiguous(self):
        _, w, y = layer_args()
        x = FakeTensor((64, 1024), strides=(1, 64))
        self.check("entry 'layer' input 0 'x': expected a contiguous tensor, "
                   "got strides [1, 64] (call .contiguous())",
                   lambda f: f(x, w, out=y, stream=0))

    def test_misaligned(self):
        x, _, y = layer_args()
        w = FakeTensor((1025,)).view_at(4, (1024,))
        self.check("entry 'layer' input 1 'weight': data pointer 0x%x is not "
                   "16-byte aligned" % w.data_ptr(),
                   lambda f: f(x, w, out=y, stream=0))

    def test_output_shape(self):
        x, w, _ = layer_args()
        y = FakeTensor((64, 1024, 1))
        self.check("entry 'layer' output 0 'result': expected shape "
                   "[64, 1024], got [64, 1024, 1]",
                   lambda f: f(x, w, out=y, stream=0))

    def test_output_count(self):
        x, w, y = layer_args()
        self.check("entry 'layer': out= has 2 tensors, the entry has 1 outputs "
                   "(result)", lambda f: f(x, w, out=(y, y), stream=0))

    def test_output_is_input(self):
        x, w, _ = layer_args()
        self.check("entry 'layer': output 'result' overlaps input 'x' (outputs "
                   "must not share memory with other arguments)",
                   lambda f: f(x, w, out=x, stream=0))

    def test_output_overlaps_input(self):
        x, w, _ = layer_args()
        y = x.view_at(4096)
        self.check("output 'result' overlaps input 'x'",
                   lambda f: f(x, w, out=y, stream=0))

    def test_outputs_overlap(self):
        f, stub = entry_function("pair")
        x, a = FakeTensor((16,)), FakeTensor((16,))
        b = a.view_at(32)
        with self.assertRaisesRegex(module.ArgumentError,
                                    "entry 'pair': output 'a' overlaps output "
                                    "'b'"):
            f(x, out=(a, b), stream=0)
        self.assertEqual(stub.launches, [])

    def test_adjacent_buffers_do_not_overlap(self):
        f, stub = entry_function("pair")
        x, a = FakeTensor((16,)), FakeTensor((32,))
        f(x, out=(a.view_at(0, (16,)), a.view_at(64, (16,))), stream=0)
        self.assertEqual(len(stub.launches), 1)

    def test_bad_stream(self):
        x, w, y = layer_args()
        self.check("stream must be a torch.cuda.Stream or a CUstream handle "
                   "(int), got str",
                   lambda f: f(x, w, out=y, stream="s"), TypeError)

    def test_without_torch(self):
        x, w, y = layer_args()
        # Without PyTorch the entries have neither torch nor a stream getter.
        with mock.patch.object(entry, "torch", None), \
                mock.patch.object(entry, "_STREAM_GETTER", None), \
                mock.patch.object(callcache, "_STREAM_GETTER", None):
            self.check("allocating outputs needs PyTorch; pass out=",
                       lambda f: f(x, w, stream=0))
            self.check("pass stream= (a CUstream handle) when PyTorch is not "
                       "installed", lambda f: f(x, w, out=y))


try:
    import torch
except ImportError:
    torch = None


@unittest.skipIf(torch is None, "PyTorch is not installed")
class TorchTensors(unittest.TestCase):
    """Real (CPU) PyTorch tensors and DLPack reach the same checks."""

    def test_cpu_tensor_is_rejected_with_torch_names(self):
        f, stub = entry_function()
        x = torch.zeros(64, 1024, dtype=torch.float16)
        with self.assertRaisesRegex(module.ArgumentError,
                                    "input 0 'x': expected a CUDA tensor on "
                                    "cuda:0, got one on cpu"):
            f(x, torch.zeros(1024), out=torch.zeros(64, 1024), stream=0)
        self.assertEqual(module.dtype_name(x.dtype), "f16")
        self.assertEqual(module.torch_dtype("i64"), torch.int64)
        self.assertEqual(stub.launches, [])

    def test_dlpack_objects_are_converted(self):
        class Foreign:
            def __init__(self, tensor):
                self.tensor = tensor

            def __dlpack__(self, stream=None):
                return self.tensor.__dlpack__()

            def __dlpack_device__(self):
                return self.tensor.__dlpack_device__()
        converted = module.as_tensor(Foreign(torch.arange(4.0)), "x")
        self.assertIsInstance(converted, torch.Tensor)
        self.assertEqual(converted.tolist(), [0.0, 1.0, 2.0, 3.0])
        f, _ = entry_function()
        with self.assertRaisesRegex(module.ArgumentError, "got one on cpu"):
            f(Foreign(torch.zeros(64, 1024)), torch.zeros(1024),
              out=torch.zeros(64, 1024), stream=0)

    def test_strided_torch_views(self):
        base = torch.zeros(1024, 64).t()
        self.assertFalse(module.is_contiguous(tuple(base.shape),
                                              base.stride()))
        self.assertTrue(module.is_contiguous((1, 4), torch.zeros(4, 1).t()
                                             .stride()))


if __name__ == "__main__":
    unittest.main()
