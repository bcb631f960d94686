# ===- python/tests/test_gpu.py - The package on a real GPU -------------=== #
#
# Runs runtime/test/data/sample_v2.fcb (real kernels: a weight re-layout into
# a workspace, then result = x + 2 * weight) through fusecc.load on PyTorch
# CUDA tensors: allocated and passed outputs, named inputs, another stream,
# CUDA-graph capture and replay, DLPack inputs. Skipped without PyTorch, a
# CUDA device or the runtime library (build it with
# `cmake -S runtime -B build-rt && cmake --build build-rt`).
#
# ===--------------------------------------------------------------------=== #

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import fusecc  # noqa: E402
from fusecc import reference  # noqa: E402
import samples  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


def why_skip():
    if torch is None:
        return "PyTorch is not installed"
    if not torch.cuda.is_available():
        return "no CUDA device visible to PyTorch"
    try:
        fusecc.find_library()
    except fusecc.RuntimeLibraryError as error:
        return str(error)
    return None


SKIP = why_skip()


class DLPackOnly:
    """Another framework's tensor: only the DLPack protocol."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, stream=None):
        return self.tensor.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()


@unittest.skipIf(SKIP is not None, SKIP or "")
class Gpu(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.module = fusecc.load(os.path.join(samples.RUNTIME_DATA,
                                              "sample_v2.fcb"))
        entry = cls.module.bundle.entries[0]
        cls.graph = reference.Graph(entry.graph, entry.input_count)

    @classmethod
    def tearDownClass(cls):
        cls.module.close()

    def inputs(self):
        return (torch.randn(64, 1024, device="cuda"),
                torch.randn(1024, device="cuda"))

    def expected(self, x, w):
        with torch.no_grad():
            return self.graph(x.double(), w.double()).float()

    def test_allocated_output(self):
        x, w = self.inputs()
        y = self.module.sample_ws(x, w)
        self.assertEqual((tuple(y.shape), y.dtype, y.device),
                         ((64, 1024), torch.float32, x.device))
        self.assertTrue(torch.equal(y, self.expected(x, w)))

    def test_out_and_named_inputs(self):
        x, w = self.inputs()
        out = torch.full((64, 1024), float("nan"), device="cuda")
        self.assertIs(self.module(weight=w, x=x, out=out), out)
        self.assertTrue(torch.equal(out, self.expected(x, w)))

    def test_side_stream(self):
        x, w = self.inputs()
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            y = self.module.sample_ws(x, w)
        stream.synchronize()
        self.assertTrue(torch.equal(y, self.expected(x, w)))

    def test_cuda_graph_capture(self):
        x, w = self.inputs()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # Warm-up outside the capture.
            self.module.sample_ws(x, w)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            y = self.module.sample_ws(x, w)
        for _ in range(2):
            x.copy_(torch.randn_like(x))
            w.copy_(torch.randn_like(w))
            graph.replay()
            torch.cuda.synchronize()
            self.assertTrue(torch.equal(y, self.expected(x, w)))

    def test_dlpack_inputs_and_output(self):
        x, w = self.inputs()
        out = torch.empty(64, 1024, device="cuda")
        wrapped = DLPackOnly(out)
        self.assertIs(self.module.sample_ws(DLPackOnly(x), DLPackOnly(w),
                                            out=wrapped), wrapped)
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(out, self.expected(x, w)))

    def test_cached_allocating_calls(self):
        # The cached path's closure: fresh outputs each call (by
        # _empty_strided_cuda where PyTorch has it), right values, the
        # layout of torch.empty; a changed input is still named.
        f = self.module.sample_ws
        x, w = self.inputs()
        results = [f(x, w) for _ in range(3)]
        if fusecc.allocation.EMPTY_STRIDED_CUDA is not None:
            self.assertTrue(any(g[3] is not None for g in f._guards))
        made = torch.empty(64, 1024, device="cuda")
        self.assertEqual(len({y.data_ptr() for y in results}), 3)
        for y in results:
            self.assertEqual((y.shape, y.dtype, y.device, y.stride()),
                             (made.shape, made.dtype, made.device,
                              made.stride()))
            self.assertFalse(y.requires_grad)
            self.assertTrue(torch.equal(y, self.expected(x, w)))
        with self.assertRaisesRegex(fusecc.ArgumentError, "input 1 "
                                    "'weight': expected shape"):
            f(x, w[:512])
        with self.assertRaisesRegex(fusecc.ArgumentError, "input 0 'x': "
                                    "expected dtype"):
            f(x.half(), w)

    def test_errors(self):
        x, w = self.inputs()
        with self.assertRaisesRegex(fusecc.ArgumentError, "input 0 'x': "
                                    "expected a CUDA tensor on cuda:0, got "
                                    "one on cpu"):
            self.module.sample_ws(x.cpu(), w)
        with self.assertRaisesRegex(fusecc.ArgumentError, "expected a "
                                    "contiguous tensor"):
            self.module.sample_ws(x.t().contiguous().t(), w)
        with self.assertRaisesRegex(fusecc.ArgumentError, "overlaps input "
                                    "'x'"):
            self.module.sample_ws(x, w, out=x)


if __name__ == "__main__":
    unittest.main()
