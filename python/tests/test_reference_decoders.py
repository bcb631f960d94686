# ===- python/tests/test_reference_decoders.py - conv, concat, upsample -=== #
#
# The decoder ops' graph lines (conv, conv_transpose forward_weight, concat,
# upsample) against the PyTorch functions they stand for (CPU, float64), and
# their parsing (pure Python).
#
# ===--------------------------------------------------------------------=== #

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import reference  # noqa: E402
from fusecc.reference import Graph, GraphError  # noqa: E402
from reference_support import (  # noqa: E402
    EvaluationCase, F, needs_torch, torch)


class DecoderParsing(unittest.TestCase):

    def test_params(self):
        g = Graph(["%3 = conv %0 %1 %2 stride=1,1 padding=1,0 "
                   "padding_end=1,2 dilation=1,1 groups=2",
                   "%4 = upsample %3 output_size=8,9 linear=1 "
                   "align_corners=0 scales=2,2.25",
                   "%5 = concat %4 %4 dim=1", "return %5"], 3)
        self.assertEqual(g.ops[0].params["groups"], 2)
        self.assertEqual(g.ops[1].params["scales"], [2.0, 2.25])
        self.assertEqual(list(g.ops[1].params["output_size"]), [8, 9])
        self.assertTrue(g.ops[1].params["linear"])
        self.assertEqual(g.ops[2].params["dim"], 1)
        self.assertEqual(len(g.conv_ops()), 1)
        self.assertEqual(sorted(g.roles()), [1, 2])

    def test_errors(self):
        with self.assertRaisesRegex(GraphError, "scales has 1 values"):
            Graph(["%1 = upsample %0 output_size=8,9 linear=0 "
                   "align_corners=0 scales=2", "return %1"], 1)
        with self.assertRaisesRegex(GraphError, "needs linear=0"):
            Graph(["%1 = upsample %0 output_size=8 align_corners=0",
                   "return %1"], 1)

    def test_in_table(self):
        for name in ("conv", "concat", "upsample"):
            self.assertIn(name, reference.OPS)


@needs_torch
class DecoderEvaluation(EvaluationCase):

    def close(self, out, expected):
        self.assertEqual(tuple(out.shape), tuple(expected.shape))
        self.assertTrue(torch.allclose(out, expected, rtol=1e-12,
                                       atol=1e-12))

    def test_conv(self):
        x = torch.randn(2, 4, 7, 6, dtype=torch.float64)
        w = torch.randn(6, 2, 3, 3, dtype=torch.float64)
        b = torch.randn(6, dtype=torch.float64)
        out = self.run_graph(["%3 = conv %0 %1 %2 stride=2,1 padding=1,1 "
                              "dilation=1,2 groups=2", "return %3"], x, w, b)
        self.close(out, F.conv2d(x, w, b, stride=(2, 1), padding=1,
                                 dilation=(1, 2), groups=2))
        out = self.run_graph(["%2 = conv %0 %1 stride=1,1 padding=0,1 "
                              "padding_end=1,2 dilation=1,1 groups=2",
                              "return %2"], x, w)
        self.close(out, F.conv2d(F.pad(x, (1, 2, 0, 1)), w, groups=2))

    def test_forward_weight(self):
        """conv_transpose forward_weight=1 with padding d (k - 1) - p is the
        stride-1 forward convolution with padding p."""
        x = torch.randn(2, 4, 7, 6, dtype=torch.float64)
        w = torch.randn(6, 2, 3, 3, dtype=torch.float64)
        out = self.run_graph(["%2 = conv_transpose %0 %1 stride=1,1 "
                              "padding=3,1 output_padding=0,0 dilation=2,1 "
                              "groups=2 forward_weight=1", "return %2"], x, w)
        self.close(out, F.conv2d(x, w, padding=(1, 1), dilation=(2, 1),
                                 groups=2))

    def test_concat(self):
        a = torch.randn(2, 3, 4, dtype=torch.float64)
        b = torch.randn(2, 5, 4, dtype=torch.float64)
        out = self.run_graph(["%2 = concat %0 %1 dim=1", "return %2"], a, b)
        self.assertTrue(torch.equal(out, torch.cat((a, b), 1)))

    def test_upsample(self):
        x = torch.randn(1, 2, 4, 5, dtype=torch.float64)
        out = self.run_graph(["%1 = upsample %0 output_size=8,10 linear=0 "
                              "align_corners=0 scales=2,2", "return %1"], x)
        self.assertTrue(torch.equal(out, F.interpolate(x, scale_factor=2)))
        out = self.run_graph(["%1 = upsample %0 output_size=7,3 linear=1 "
                              "align_corners=1", "return %1"], x)
        self.close(out, F.interpolate(x, size=(7, 3), mode="bilinear",
                                      align_corners=True))


if __name__ == "__main__":
    unittest.main()
