# ===- python/tests/reference_support.py - Reference test helpers -------=== #
#
# PyTorch if installed (torch, F; None otherwise), the needs_torch skip, and
# EvaluationCase: the fixture and graph runner of the fusecc.reference
# evaluation tests (test_reference_eval.py, test_reference_pooling.py).
# Not a test module itself (its name does not start with `test`).
#
# ===--------------------------------------------------------------------=== #

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc.reference import Graph  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None
    F = None

needs_torch = unittest.skipIf(torch is None, "PyTorch is not installed: "
                              "graph evaluation needs it")


class EvaluationCase(unittest.TestCase):
    """Base of the evaluation test classes (CPU, float64); each subclass
    is decorated with @needs_torch. Defines no tests itself."""

    def setUp(self):
        """self.x: a random [2, 4, 3, 5] input; self.y: one in [0.5, 1.5)
        (positive, for log/sqrt/rsqrt/pow)."""
        torch.manual_seed(0)
        self.x = torch.randn(2, 4, 3, 5, dtype=torch.float64)
        self.y = torch.rand(2, 4, 3, 5, dtype=torch.float64) + 0.5

    def run_graph(self, lines, *inputs, constants=None):
        """Evaluates the graph `lines` on `inputs` (and `constants`)."""
        return Graph(lines, len(inputs), constants)(*inputs)
