# ===- python/tests/test_allocation.py - Outputs of the cached call -----=== #
#
# An entry called without out= gets fresh outputs on every call. The cached
# call allocates them with torch.empty_like of per-batch templates
# (fusecc.allocation.allocation_recipe) instead of torch.empty: the same
# shape, dtype, device and strides, a new tensor each call that aliases
# nothing (no other output, no earlier result, not the template), the
# batch's shape for a dynamic-batch entry, torch.empty where no template
# serves. PyTorch CPU tensors (their device passed off as cuda:0 to the
# checks, the outputs' device set to the CPU) and stub modules: no GPU, no
# runtime library.
#
# ===--------------------------------------------------------------------=== #

import os
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import allocation, bundle, callcache, module  # noqa: E402
from fusecc import entry as entry_lib  # noqa: E402
import samples  # noqa: E402
from test_dynamic_batch import StubModule as BatchStubModule  # noqa: E402
from test_module import StubModule  # noqa: E402

torch = allocation.torch

#: (shape, dtype name) of outputs the templates must reproduce.
OUTPUTS = [((1, 3, 32, 32), "float32"), ((2, 8, 4, 6, 5), "float32"),
           ((16,), "float16"), ((), "float32"), ((1, 1), "bfloat16"),
           ((2, 1, 3), "int64"), ((7, 1), "int32"), ((3, 5), "uint8")]


def cpu_specs(shapes_and_dtypes):
    cpu = torch.device("cpu")
    return [(shape, getattr(torch, dtype), cpu)
            for shape, dtype in shapes_and_dtypes]


def storage_bytes(tensor):
    """The bytes of the storage behind `tensor` (PyTorch 2.x's untyped
    storage; 1.x's typed one)."""
    if hasattr(tensor, "untyped_storage"):
        return tensor.untyped_storage().nbytes()
    return tensor.storage().nbytes()


def no_torch_empty():
    """A patch under which torch.empty fails the test (the cached call
    must allocate without it)."""
    return mock.patch.object(torch, "empty",
                             side_effect=AssertionError("torch.empty"))


@unittest.skipIf(torch is None, "needs PyTorch")
class Recipe(unittest.TestCase):

    def test_empty_like_of_a_template_is_torch_empty(self):
        recipe = allocation.allocation_recipe(cpu_specs(OUTPUTS))
        self.assertIsNotNone(recipe)
        self.assertEqual(len(recipe), len(OUTPUTS))
        for template, (shape, dtype) in zip(recipe, OUTPUTS):
            with self.subTest(shape=shape, dtype=dtype):
                # A few bytes behind the template, whatever the shape.
                made = torch.empty(shape, dtype=getattr(torch, dtype))
                self.assertEqual(storage_bytes(template), made.element_size())
                first = allocation.EMPTY_LIKE(template)
                second = allocation.EMPTY_LIKE(template)
                for got in (first, second):
                    self.assertEqual(got.shape, made.shape)
                    self.assertEqual(got.dtype, made.dtype)
                    self.assertEqual(got.device, made.device)
                    self.assertEqual(got.stride(), made.stride())
                    self.assertTrue(got.is_contiguous())
                    self.assertFalse(got.requires_grad)
                    self.assertEqual(storage_bytes(got), storage_bytes(made))
                pointers = {template.data_ptr(), first.data_ptr(),
                            second.data_ptr()}
                self.assertEqual(len(pointers), 3)

    def test_no_template_for_empty_outputs(self):
        self.assertIsNone(allocation.allocation_recipe(
            cpu_specs([((4, 4), "float32"), ((0, 3), "float32")])))

    def test_template_across_inference_mode(self):
        specs = cpu_specs([((2, 3), "float32")])
        with torch.inference_mode():
            inside = allocation.allocation_recipe(specs)[0]
        outside = allocation.allocation_recipe(specs)[0]
        made = allocation.EMPTY_LIKE(inside)
        self.assertFalse(made.is_inference())
        made.add_(1)  # An ordinary tensor outside inference mode.
        with torch.inference_mode():
            self.assertTrue(allocation.EMPTY_LIKE(outside).is_inference())


@unittest.skipIf(torch is None, "needs PyTorch")
class CachedCall(unittest.TestCase):
    """EntryFunction's allocating call on stub modules: the first call
    through _allocate (torch.empty), the cached ones by the templates."""

    def setUp(self):
        patch = samples.check_tensors_as_cuda()
        patch.start()
        self.addCleanup(patch.stop)

    def entry(self, name):
        parsed = bundle.parse(samples.v2_fake_bundle())
        stub = StubModule(parsed=parsed)
        f = module.EntryFunction(stub, parsed.entry(name))
        f._output_specs[0] = cpu_specs(
            [(a.shape, "float32") for a in f.outputs])
        return f, stub

    def test_cached_call_allocates_fresh_outputs(self):
        f, stub = self.entry("layer")
        x, w = torch.empty(64, 1024), torch.empty(1024)
        first = f(x, w, stream=5)
        self.assertEqual(len(f._recipes[0]), 1)
        results = [first]
        with no_torch_empty(), mock.patch.object(
                f, "prepare", side_effect=AssertionError("checked")):
            for _ in range(3):
                results.append(f(x, w, stream=5))
        for y in results:
            self.assertEqual(tuple(y.shape), (64, 1024))
            self.assertEqual(y.dtype, torch.float32)
            self.assertEqual(y.stride(), (1024, 1))
        # Each result is its own memory, launched with its own pointer.
        pointers = [y.data_ptr() for y in results]
        self.assertEqual(len(set(pointers)), len(results))
        self.assertNotIn(f._recipes[0][0].data_ptr(), pointers)
        self.assertEqual([ranges[2][0] for _, ranges, _ in stub.launches],
                         pointers)
        self.assertEqual(len(stub.launches), 4)
        results[1].fill_(1)
        results[2].fill_(2)
        self.assertEqual(results[1].sum().item(), 64 * 1024)

    def test_outputs_of_one_call_are_separate(self):
        f, stub = self.entry("pair")
        x = torch.empty(16)
        f(x, stream=0)
        with no_torch_empty():
            a, b = f(x, stream=0)
        self.assertEqual((tuple(a.shape), tuple(b.shape)), ((16,), (16,)))
        self.assertNotEqual(a.data_ptr(), b.data_ptr())
        self.assertEqual([p for p, _ in stub.launches[-1][1]],
                         [x.data_ptr(), a.data_ptr(), b.data_ptr()])
        # The dynamo backend's call (PyTorch's current stream) takes the
        # same path.
        with no_torch_empty(), mock.patch.object(callcache, "_STREAM_GETTER",
                                                 lambda index: 9):
            got = f.cached_call([x])
        self.assertEqual(len(got), 2)
        self.assertNotEqual(got[0].data_ptr(), got[1].data_ptr())

    def test_without_a_recipe_the_cached_call_takes_torch_empty(self):
        f, stub = self.entry("layer")
        x, w = torch.empty(64, 1024), torch.empty(1024)
        with mock.patch.object(entry_lib, "allocation_recipe",
                               return_value=None):
            f(x, w, stream=5)
        self.assertIsNone(f._recipes[0])
        with mock.patch.object(torch, "empty", wraps=torch.empty) as empty:
            y = f(x, w, stream=5)
        self.assertEqual(empty.call_count, 1)
        self.assertEqual(tuple(y.shape), (64, 1024))

    def test_dynamic_batch_outputs_take_the_batch(self):
        stub = BatchStubModule()
        f = module.EntryFunction(stub, stub.bundle.entry("dec"))
        for batch in (2, 5):
            f._output_specs[batch] = cpu_specs(
                [(a.shape_at(batch), "float32") for a in f.outputs])
        w = torch.empty(8)
        for batch in (2, 5, 2, 5):
            x = torch.empty(batch, 4, 8)
            first = f(x, w, stream=0)
            with no_torch_empty():
                y = f(x, w, stream=0)
            for got in (first, y):
                self.assertEqual(tuple(got.shape), (batch, 4, 8))
            self.assertNotEqual(first.data_ptr(), y.data_ptr())
            self.assertEqual(stub.launches[-1],
                             ([x.data_ptr(), w.data_ptr(), y.data_ptr()],
                              batch))
        self.assertEqual(sorted(f._recipes), [2, 5])


if __name__ == "__main__":
    unittest.main()
