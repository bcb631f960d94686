# ===- python/tests/test_reference_pooling.py - Window and reduction ops -=== #
#
# Evaluation of fusecc.reference's pools (max, avg, adaptive), tap sums,
# reductions, var and reshape against PyTorch (CPU, float64), and their
# shape errors. Skipped without PyTorch.
#
# ===--------------------------------------------------------------------=== #

import itertools
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc.reference import GraphError  # noqa: E402
from reference_support import (  # noqa: E402
    EvaluationCase, F, needs_torch, torch)


@needs_torch
class PoolingEvaluation(EvaluationCase):
    """Each pool, reduction and reshape op against the PyTorch function it
    stands for (CPU, float64)."""

    def check(self, line, inputs, expected, exact=True):
        """Runs `line` (defining %1 from %0, or %k from the inputs) and
        compares with `expected`: same shape and dtype, equal values (or
        close, for an independently computed reference)."""
        result = line.split(" ")[0]
        out = self.run_graph([line, "return " + result], *inputs)
        self.assertEqual(out.dtype, expected.dtype)
        self.assertEqual(tuple(out.shape), tuple(expected.shape))
        if exact:
            self.assertTrue(torch.equal(out, expected))
        else:
            self.assertTrue(torch.allclose(out, expected, rtol=1e-12,
                                           atol=1e-12))
        return out

    def test_max_pool(self):
        x3 = torch.randn(2, 3, 6, 7, 8, dtype=torch.float64)
        x2 = torch.randn(2, 3, 7, 8, dtype=torch.float64)
        x1 = torch.randn(2, 3, 9, dtype=torch.float64)
        line = ("%1 = max_pool %0 kernel_size=3,2,3 stride=2,2,2 "
                "padding=1,1,1 dilation=1,1,2 ceil_mode=")
        for ceil in (0, 1):
            with self.subTest(rank=3, ceil_mode=ceil):
                expected = F.max_pool3d(x3, (3, 2, 3), (2, 2, 2), (1, 1, 1),
                                        (1, 1, 2), ceil_mode=bool(ceil))
                self.check(line + str(ceil), (x3,), expected)
        # ceil_mode matters for these sizes.
        self.assertNotEqual(
            F.max_pool3d(x3, (3, 2, 3), 2, 1, (1, 1, 2), ceil_mode=True).shape,
            F.max_pool3d(x3, (3, 2, 3), 2, 1, (1, 1, 2)).shape)
        with self.subTest(rank=2):
            self.check("%1 = max_pool %0 kernel_size=3,2 stride=2,3 "
                       "padding=1,0 dilation=2,1 ceil_mode=1", (x2,),
                       F.max_pool2d(x2, (3, 2), (2, 3), (1, 0), (2, 1),
                                    ceil_mode=True))
        with self.subTest(rank=1):
            self.check("%1 = max_pool %0 kernel_size=4 stride=3 padding=2 "
                       "dilation=1 ceil_mode=1", (x1,),
                       F.max_pool1d(x1, 4, 3, 2, 1, ceil_mode=True))
        with self.subTest("dilated, largest padding"):
            self.check("%1 = max_pool %0 kernel_size=2,3 stride=1,2 "
                       "padding=1,1 dilation=3,2 ceil_mode=1", (x2,),
                       F.max_pool2d(x2, (2, 3), (1, 2), (1, 1), (3, 2),
                                    ceil_mode=True))
        # Padding never wins: an all-negative input.
        neg = -x2.abs() - 1
        out = self.check("%1 = max_pool %0 kernel_size=2,2 stride=2,2 "
                         "padding=1,1 dilation=1,1 ceil_mode=0", (neg,),
                         F.max_pool2d(neg, 2, 2, 1))
        self.assertTrue(bool((out < 0).all()))

    def test_avg_pool(self):
        x3 = torch.randn(2, 3, 5, 6, 7, dtype=torch.float64)
        x2 = torch.randn(2, 3, 6, 8, dtype=torch.float64)
        base = "%1 = avg_pool %0 kernel_size=3,2 stride=2,2 padding=1,1 "
        for ceil in (0, 1):
            for include in (0, 1):
                with self.subTest(rank=2, ceil_mode=ceil, include=include):
                    self.check(base + "ceil_mode=%d count_include_pad=%d"
                               % (ceil, include), (x2,),
                               F.avg_pool2d(x2, (3, 2), (2, 2), (1, 1),
                                            bool(ceil), bool(include)))
        # count_include_pad=0 and ceil_mode=1 both change the result here.
        self.assertNotEqual(F.avg_pool2d(x2, (3, 2), 2, 1, True).shape,
                            F.avg_pool2d(x2, (3, 2), 2, 1, False).shape)
        self.assertFalse(torch.equal(
            F.avg_pool2d(x2, (3, 2), 2, 1, True, False),
            F.avg_pool2d(x2, (3, 2), 2, 1, True, True)))
        with self.subTest("divisor_override 2d"):
            self.check(base + "ceil_mode=1 count_include_pad=0 "
                       "divisor_override=5", (x2,),
                       F.avg_pool2d(x2, (3, 2), 2, 1, True, False, 5))
        with self.subTest("3d"):
            self.check("%1 = avg_pool %0 kernel_size=2,3,3 stride=1,2,3 "
                       "padding=1,1,0 ceil_mode=1 count_include_pad=0",
                       (x3,), F.avg_pool3d(x3, (2, 3, 3), (1, 2, 3),
                                           (1, 1, 0), True, False))
            self.check("%1 = avg_pool %0 kernel_size=2,3,3 stride=1,2,3 "
                       "padding=1,1,0 ceil_mode=0 count_include_pad=1 "
                       "divisor_override=7", (x3,),
                       F.avg_pool3d(x3, (2, 3, 3), (1, 2, 3), (1, 1, 0),
                                    False, True, 7))

    @staticmethod
    def window_sums_1d(x, kernel, stride, padding, ceil_mode):
        """Sum of each avg_pool1d window (padding adds nothing), computed
        element by element, with PyTorch's output length."""
        length = x.shape[-1]
        span = length + 2 * padding - kernel
        count = (-(-span // stride) if ceil_mode else span // stride) + 1
        if ceil_mode and (count - 1) * stride >= length + padding:
            count -= 1
        out = torch.zeros(x.shape[:-1] + (count,), dtype=x.dtype)
        for i in range(count):
            start = i * stride - padding
            for j in range(max(start, 0), min(start + kernel, length)):
                out[..., i] += x[..., j]
        return out

    def test_avg_pool_1d(self):
        x = torch.randn(2, 3, 11, dtype=torch.float64)
        # ceil_mode adds a window that runs past the padded end here.
        self.assertEqual((F.avg_pool1d(x, 4, 3, 2).shape[-1],
                          F.avg_pool1d(x, 4, 3, 2, True).shape[-1]), (4, 5))
        for ceil in (0, 1):
            for include in (0, 1):
                with self.subTest(ceil_mode=ceil, include=include):
                    self.check("%%1 = avg_pool %%0 kernel_size=4 stride=3 "
                               "padding=2 ceil_mode=%d count_include_pad=%d"
                               % (ceil, include), (x,),
                               F.avg_pool1d(x, 4, 3, 2, bool(ceil),
                                            bool(include)))
                with self.subTest(ceil_mode=ceil, include=include,
                                  divisor_override=3):
                    # The divisor replaces the count, whatever
                    # count_include_pad says: sum / 3.
                    sums = self.window_sums_1d(x, 4, 3, 2, bool(ceil))
                    self.check("%%1 = avg_pool %%0 kernel_size=4 stride=3 "
                               "padding=2 ceil_mode=%d count_include_pad=%d "
                               "divisor_override=3" % (ceil, include), (x,),
                               sums / 3, exact=False)
        # Without padding nor ceil_mode every window counts `kernel`, so
        # the override is avg * kernel / divisor.
        self.check("%1 = avg_pool %0 kernel_size=3 stride=2 padding=0 "
                   "ceil_mode=0 count_include_pad=1 divisor_override=2", (x,),
                   F.avg_pool1d(x, 3, 2) * 3 / 2, exact=False)

    def test_adaptive_pools(self):
        x1 = torch.randn(2, 3, 7, dtype=torch.float64)
        x2 = torch.randn(2, 3, 5, 7, dtype=torch.float64)
        x3 = torch.randn(2, 3, 5, 6, 7, dtype=torch.float64)
        cases = [(x1, (3,)), (x2, (3, 4)), (x3, (2, 4, 3)), (x2, (1, 1)),
                 (x1, (10,))]
        for x, size in cases:
            rank = len(size)
            text = ",".join(map(str, size))
            avg = (F.adaptive_avg_pool1d, F.adaptive_avg_pool2d,
                   F.adaptive_avg_pool3d)[rank - 1]
            top = (F.adaptive_max_pool1d, F.adaptive_max_pool2d,
                   F.adaptive_max_pool3d)[rank - 1]
            with self.subTest(size=size):
                self.check("%1 = adaptive_avg_pool %0 output_size=" + text,
                           (x,), avg(x, size))
                self.check("%1 = adaptive_max_pool %0 output_size=" + text,
                           (x,), top(x, size))

    def test_tap_sums(self):
        """Tap j's box sum equals the sum over the output of a depthwise
        conv_transpose whose only non-zero weight is tap K - 1 - j."""
        cases = [((2, 3, 7), (3,), (2,), (1,), (1,), (1,)),
                 ((1, 2, 5, 6), (3, 2), (2, 3), (1, 0), (1, 2), (1, 2)),
                 ((3, 2, 4, 3, 5), (2, 3, 2), (1, 2, 3), (0, 1, 1), (1, 1, 2),
                  (0, 1, 2))]
        for shape, k, s, p, d, op in cases:
            x = torch.randn(*shape, dtype=torch.float64)
            rank = len(k)
            conv = (F.conv_transpose1d, F.conv_transpose2d,
                    F.conv_transpose3d)[rank - 1]
            c = shape[1]
            out = None
            expected = torch.zeros(shape[:2] + k, dtype=torch.float64)
            for taps in itertools.product(*(range(n) for n in k)):
                w = torch.zeros((c, 1) + k, dtype=torch.float64)
                tap = tuple(n - 1 - j for n, j in zip(k, taps))
                w[(slice(None), 0) + tap] = 1.0
                y = conv(x, w, stride=s, padding=p, output_padding=op,
                         dilation=d, groups=c)
                out = y.shape[2:]
                expected[(slice(None), slice(None)) + taps] = \
                    y.sum(dim=tuple(range(2, 2 + rank))) * 0.25
            join = lambda v: ",".join(map(str, v))
            line = ("%%1 = conv_transpose_tap_sums %%0 kernel_size=%s "
                    "stride=%s padding=%s dilation=%s output_size=%s "
                    "scale=0.25" % (join(k), join(s), join(p), join(d),
                                    join(out)))
            with self.subTest(shape=shape):
                self.check(line, (x,), expected, exact=False)

    def test_reductions(self):
        x = self.x
        functions = {"sum": torch.sum, "mean": torch.mean, "amax": torch.amax,
                     "amin": torch.amin, "logsumexp": torch.logsumexp}
        for name, function in functions.items():
            for dims in ((1,), (3,), (3, 1), (2, 0, 3), (0, 1, 2, 3)):
                for keepdim in (0, 1):
                    line = "%%1 = %s %%0 dims=%s keepdim=%d" % (
                        name, ",".join(map(str, dims)), keepdim)
                    with self.subTest(line):
                        out = self.check(line, (x,), function(
                            x, dim=dims, keepdim=bool(keepdim)))
                        self.assertEqual(out.dim(),
                                         4 if keepdim else 4 - len(dims))

    def test_var(self):
        x = self.x
        for dims in ((1,), (3, 1), (0, 2, 3)):
            for keepdim in (0, 1):
                for correction in (0, 1, 2):
                    line = "%%1 = var %%0 dims=%s keepdim=%d correction=%d" % (
                        ",".join(map(str, dims)), keepdim, correction)
                    with self.subTest(line):
                        self.check(line, (x,), torch.var(
                            x, dim=dims, correction=correction,
                            keepdim=bool(keepdim)))

    def test_reshape(self):
        x = self.x
        for shape in ((8, 15), (120,), (2, 4, 15), (1, 2, 1, 60, 1)):
            with self.subTest(shape=shape):
                text = ",".join(map(str, shape))
                self.check("%1 = reshape %0 shape=" + text, (x,),
                           x.reshape(shape))
        one = torch.tensor([[2.5]], dtype=torch.float64)
        self.check("%1 = reshape %0 shape=", (one,), one.reshape(()))
        # Through a non-contiguous value: same row-major order as PyTorch.
        out = self.run_graph(["%1 = amax %0 dims=2 keepdim=1",
                              "%2 = reshape %1 shape=2,20", "return %2"], x)
        self.assertTrue(torch.equal(out, x.amax(2, keepdim=True).reshape(2,
                                                                         20)))

    def test_pool_reduction_reshape_shape_errors(self):
        with self.assertRaisesRegex(GraphError, "needs a rank-5 input "
                                    r"\[N, C, 3 spatial\], got rank 4"):
            self.run_graph(["%1 = max_pool %0 kernel_size=2,2,2 stride=1,1,1 "
                            "padding=0,0,0 dilation=1,1,1 ceil_mode=0",
                            "return %1"], self.x)
        with self.assertRaisesRegex(GraphError, "needs a rank-3 input"):
            self.run_graph(["%1 = adaptive_avg_pool %0 output_size=2",
                            "return %1"], self.x)
        with self.assertRaisesRegex(GraphError, "dims=1,4 for a rank-4 "
                                    "input"):
            self.run_graph(["%1 = sum %0 dims=1,4 keepdim=0", "return %1"],
                           self.x)
        with self.assertRaisesRegex(GraphError, "reshapes 120 elements to "
                                    "121"):
            self.run_graph(["%1 = reshape %0 shape=11,11", "return %1"],
                           self.x)

if __name__ == "__main__":
    unittest.main()
