# ===- python/tests/test_reference_eval.py - fusecc.reference evaluation -=== #
#
# Evaluation of graph lines against PyTorch (CPU, float64): elementwise ops,
# scalar constants, normalisations, conv_transpose, batch_norm with its
# running statistics, multiple returns, a version-3 bundle's constants, the
# conv operand hook, and runtime shape errors. Pools and reductions are in
# test_reference_pooling.py. Skipped without PyTorch.
#
# ===--------------------------------------------------------------------=== #

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import bundle, reference  # noqa: E402
from fusecc.reference import Graph, GraphError  # noqa: E402
from reference_support import (  # noqa: E402
    EvaluationCase, F, needs_torch, torch)
import samples  # noqa: E402


def new_mean_var_sum(x, rm, rv, m):
    """The updated running mean plus the updated running variance (eps and
    weights do not enter them)."""
    mean = x.mean(dim=(0, 2, 3))
    var = x.var(dim=(0, 2, 3), unbiased=True)
    return (1 - m) * rm + m * mean + (1 - m) * rv + m * var


@needs_torch
class Evaluation(EvaluationCase):
    """Each op against the PyTorch function it stands for (CPU, float64)."""

    def test_binary(self):
        x, y = self.x, self.y
        expected = {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y,
                    "maximum": torch.maximum(x, y),
                    "minimum": torch.minimum(x, y), "pow": y ** x}
        for name, value in expected.items():
            with self.subTest(name):
                a, b = ("%1", "%0") if name == "pow" else ("%0", "%1")
                out = self.run_graph(["%%2 = %s %s %s" % (name, a, b),
                                      "return %2"], x, y)
                self.assertTrue(torch.equal(out, value))

    def test_unary(self):
        x = self.x
        f32 = reference.f32
        expected = {
            "neg": -x, "abs": x.abs(), "exp": x.exp(), "log": self.y.log(),
            "sqrt": self.y.sqrt(), "rsqrt": self.y.rsqrt(), "erf": x.erf(),
            "tanh": x.tanh(), "sigmoid": x.sigmoid(), "relu": x.relu(),
            "silu": F.silu(x), "softplus": F.softplus(x), "mish": F.mish(x),
            "hardsigmoid": F.hardsigmoid(x), "hardswish": F.hardswish(x),
            "gelu": F.gelu(x),
            "gelu approximate=tanh": F.gelu(x, approximate="tanh"),
            "leaky_relu slope=0.2": F.leaky_relu(x, f32(0.2)),
            "leaky_relu": F.leaky_relu(x, f32(0.01)),
            "clamp min=-0.5 max=0.25": x.clamp(f32(-0.5), 0.25),
            "clamp min=0.1": x.clamp(min=f32(0.1)),
        }
        for form, value in expected.items():
            name, _, attrs = form.partition(" ")
            operand = "%1" if name in ("log", "sqrt", "rsqrt") else "%0"
            line = "%%2 = %s %s%s" % (name, operand,
                                      " " + attrs if attrs else "")
            with self.subTest(form):
                out = self.run_graph([line, "return %2"], x, self.y)
                self.assertTrue(torch.equal(out, value))

    def test_scalar_constants_take_the_input_dtype(self):
        for dtype in (torch.float64, torch.float32):
            x = self.x.to(dtype)
            out = self.run_graph(["%1 = const 0.1", "%2 = mul %0 %1",
                                  "%3 = const 2.0", "%4 = const 3.0",
                                  "%5 = maximum %3 %4", "%6 = add %2 %5",
                                  "return %6"], x)
            self.assertEqual(out.dtype, dtype)
            self.assertTrue(torch.equal(out, x * reference.f32(0.1) + 3.0))

    def test_constant_return_is_a_tensor(self):
        out = self.run_graph(["%1 = const 1.5", "return %1"], self.x)
        self.assertEqual((out.dtype, out.dim(), out.item()),
                         (torch.float64, 0, 1.5))

    def test_softmax_layer_norm_group_norm(self):
        x = self.x
        w = torch.randn(3, 5, dtype=torch.float64)
        b = torch.randn(3, 5, dtype=torch.float64)
        gw = torch.randn(4, dtype=torch.float64)
        gb = torch.randn(4, dtype=torch.float64)
        eps = reference.f32(1e-5)
        cases = [
            (["%1 = softmax %0 dim=1"], (x,), torch.softmax(x, 1)),
            (["%3 = layer_norm %0 %1 %2 normalized_rank=2 eps=1e-05"],
             (x, w, b), F.layer_norm(x, (3, 5), w, b, eps)),
            (["%1 = layer_norm %0 normalized_rank=1"], (x,),
             F.layer_norm(x, (5,), None, None, eps)),
            (["%3 = group_norm %0 %1 %2 groups=2 eps=1e-05"], (x, gw, gb),
             F.group_norm(x, 2, gw, gb, eps)),
            (["%1 = group_norm %0 groups=4 eps=0.001"], (x,),
             F.group_norm(x, 4, None, None, reference.f32(1e-3))),
        ]
        for lines, inputs, value in cases:
            with self.subTest(lines[0]):
                result = lines[0].split(" ")[0]
                out = self.run_graph(lines + ["return " + result], *inputs)
                self.assertTrue(torch.equal(out, value))

    def test_runtime_shape_errors(self):
        with self.assertRaisesRegex(GraphError, "normalized_rank=5 for a "
                                    "rank-4 input"):
            self.run_graph(["%1 = layer_norm %0 normalized_rank=5",
                            "return %1"], self.x)
        with self.assertRaisesRegex(GraphError, "groups=3 does not divide the "
                                    "4 channels"):
            self.run_graph(["%1 = group_norm %0 groups=3", "return %1"],
                           self.x)

    def test_conv_transpose(self):
        for rank in (1, 2, 3):
            x = torch.randn((2, 4) + (5,) * rank, dtype=torch.float64)
            w = torch.randn((4, 3) + (3,) * rank, dtype=torch.float64)
            b = torch.randn(6, dtype=torch.float64)
            ints = ",".join(["2"] * rank)
            ones = ",".join(["1"] * rank)
            line = ("%%3 = conv_transpose %%0 %%1 %%2 stride=%s padding=%s "
                    "output_padding=%s dilation=%s groups=2"
                    % (ints, ones, ones, ones))
            function = [F.conv_transpose1d, F.conv_transpose2d,
                        F.conv_transpose3d][rank - 1]
            expected = function(x, w, b, stride=2, padding=1,
                                output_padding=1, groups=2)
            with self.subTest(rank=rank):
                out = self.run_graph([line, "return %3"], x, w, b)
                self.assertTrue(torch.equal(out, expected))

    def test_batch_norm_instance_norm_log_softmax(self):
        x = self.x
        rm = torch.randn(4, dtype=torch.float64)
        rv = torch.rand(4, dtype=torch.float64) + 0.5
        w = torch.randn(4, dtype=torch.float64)
        b = torch.randn(4, dtype=torch.float64)
        eps, m = reference.f32(1e-3), reference.f32(0.3)
        rm0, rv0 = rm.clone(), rv.clone()
        cases = [
            (["%3 = batch_norm %0 %1 %2 training=0 eps=0.001 momentum=0.3"],
             (x, rm, rv), F.batch_norm(x, rm.clone(), rv.clone(), None, None,
                                       False, m, eps)),
            (["%5 = batch_norm %0 %1 %2 %3 %4 training=1 eps=0.001 "
              "momentum=0.3"], (x, rm, rv, w, b),
             F.batch_norm(x, rm.clone(), rv.clone(), w, b, True, m, eps)),
            (["%4 = batch_norm %0 %1 %2 %3 training=1"], (x, rm, rv, w),
             F.batch_norm(x, rm.clone(), rv.clone(), w, None, True,
                          reference.f32(0.1), reference.f32(1e-5))),
            (["%1 = instance_norm %0 eps=0.001"], (x,),
             F.instance_norm(x, eps=eps)),
            (["%3 = instance_norm %0 %1 %2"], (x, w, b),
             F.instance_norm(x, weight=w, bias=b, eps=reference.f32(1e-5))),
            (["%1 = log_softmax %0 dim=1"], (x,), F.log_softmax(x, dim=1)),
            (["%1 = log_softmax %0 dim=3"], (x,), F.log_softmax(x, dim=3)),
        ]
        for lines, inputs, value in cases:
            with self.subTest(lines[0]):
                result = lines[0].split(" ")[0]
                out = self.run_graph(lines + ["return " + result], *inputs)
                self.assertTrue(torch.equal(out, value))
        # Training mode leaves the caller's running statistics alone.
        self.assertTrue(torch.equal(rm, rm0) and torch.equal(rv, rv0))
        # Training normalises with the batch's statistics (biased variance).
        # (PyTorch 2.x's F.batch_norm requires a positive eps.)
        out = self.run_graph(["%3 = batch_norm %0 %1 %2 training=1 eps=0.001",
                              "return %3"], x, rm, rv)
        mean = x.mean(dim=(0, 2, 3), keepdim=True)
        var = x.var(dim=(0, 2, 3), keepdim=True, unbiased=False)
        eps = reference.f32(0.001)
        self.assertTrue(torch.allclose(out, (x - mean) / (var + eps).sqrt()))

    def test_batch_norm_running_statistics(self):
        x = self.x
        rm = torch.randn(4, dtype=torch.float64)
        rv = torch.rand(4, dtype=torch.float64) + 0.5
        w = torch.randn(4, dtype=torch.float64)
        rm0, rv0 = rm.clone(), rv.clone()
        m, eps = reference.f32(0.25), reference.f32(1e-3)
        y, new_mean, new_var = self.run_graph(
            ["%4 %5 %6 = batch_norm %0 %1 %2 %3 training=1 eps=0.001 "
             "momentum=0.25", "return %4 %5 %6"], x, rm, rv, w)
        # The caller's tensors stay as they are.
        self.assertTrue(torch.equal(rm, rm0) and torch.equal(rv, rv0))
        # PyTorch's in-place update, on copies.
        em, ev = rm.clone(), rv.clone()
        self.assertTrue(torch.equal(
            y, F.batch_norm(x, em, ev, w, None, True, m, eps)))
        self.assertTrue(torch.equal(new_mean, em))
        self.assertTrue(torch.equal(new_var, ev))
        # ... which is (1 - m) * running + m * batch, the variance unbiased.
        mean = x.mean(dim=(0, 2, 3))
        var = x.var(dim=(0, 2, 3), unbiased=True)
        self.assertTrue(torch.allclose(new_mean, (1 - m) * rm + m * mean))
        self.assertTrue(torch.allclose(new_var, (1 - m) * rv + m * var))
        # The statistics feed later lines and may be returned in any order.
        a, b = self.run_graph(
            ["%3 %4 %5 = batch_norm %0 %1 %2 training=1 momentum=0.25",
             "%6 = add %4 %5", "return %6 %3"], x, rm, rv)
        self.assertTrue(torch.allclose(a, new_mean_var_sum(x, rm, rv, m)))
        self.assertEqual(tuple(b.shape), tuple(x.shape))

    def test_composite_shape_errors(self):
        with self.assertRaisesRegex(GraphError, "batch_norm of a rank-2 "
                                    "input"):
            v = torch.zeros(4, dtype=torch.float64)
            self.run_graph(["%3 = batch_norm %0 %1 %2", "return %3"],
                           torch.zeros(2, 4, dtype=torch.float64), v, v)
        with self.assertRaisesRegex(GraphError, "instance_norm of a rank-6 "
                                    "input"):
            self.run_graph(["%1 = instance_norm %0", "return %1"],
                           torch.zeros(1, 2, 2, 2, 2, 2, dtype=torch.float64))

    def test_two_returns(self):
        a, b = self.run_graph(["%1 = relu %0", "%2 = neg %0", "return %1 %2"],
                              self.x)
        self.assertTrue(torch.equal(a, self.x.relu()))
        self.assertTrue(torch.equal(b, -self.x))

    def test_v3_bundle_with_constants(self):
        b = bundle.read(os.path.join(samples.DATA, "sample_v3.fcb"))
        entry = b.entries[0]
        constants = reference.constant_tensors(b)
        self.assertEqual([tuple(c.shape) for c in constants],
                         [(2, 3, 2, 2), (3,), (3,), (3,)])
        self.assertEqual(constants[1].tolist(), samples.V3_BIAS)
        weight = torch.tensor(samples.V3_WEIGHT).reshape(2, 3, 2, 2)
        self.assertTrue(torch.equal(constants[0], weight))
        x = torch.randn(1, 2, 3, 3, dtype=torch.float64)
        graph = reference.entry_graph(b, entry, "cpu", torch.float64)
        self.assertEqual(graph.constants[0].dtype, torch.float64)
        shapes = {}
        out = graph.evaluate([x], shapes)
        conv = F.conv_transpose2d(x, weight.double(),
                                  torch.tensor(samples.V3_BIAS).double(),
                                  stride=2)
        expected = F.silu(F.group_norm(
            conv, 1, torch.tensor(samples.V3_GAMMA).double(),
            torch.tensor(samples.V3_BETA).double(), reference.f32(1e-5)))
        self.assertTrue(torch.equal(out, expected))
        self.assertEqual(tuple(out.shape), entry.outputs[0].shape)
        self.assertEqual(shapes[3], (1, 3, 6, 6))
        self.assertEqual(shapes[1], (2, 3, 2, 2))
        # Unbound: constants converted to the input's dtype on the fly.
        unbound = Graph(entry.graph, 1, constants)
        self.assertTrue(torch.equal(unbound(x), expected))
        # Float32 evaluation (eager baselines) stays float32.
        self.assertEqual(unbound(x.float()).dtype, torch.float32)

    def test_conv_operand_hook_sees_computed_operands_only(self):
        x = torch.randn(1, 2, 3, 3, dtype=torch.float64)
        w0 = torch.randn(2, 2, 2, 2, dtype=torch.float64)
        w1 = torch.randn(2, 1, 2, 2, dtype=torch.float64)
        lines = ["%1 = const_tensor c0", "%2 = conv_transpose %0 %1 stride=2,2",
                 "%3 = relu %2", "%4 = const_tensor c1",
                 "%5 = conv_transpose %3 %4 stride=2,2", "return %5"]
        seen = []

        def hook(value):
            seen.append(tuple(value.shape))
            return value * 2
        out = Graph(lines, 1, [w0, w1]).evaluate([x], conv_operand=hook)
        self.assertEqual(seen, [(1, 2, 6, 6)])
        h = F.conv_transpose2d(x, w0, stride=2).relu()
        self.assertTrue(torch.equal(
            out, F.conv_transpose2d(h * 2, w1, stride=2)))

    def test_conv_operand_hook_sees_forward_convolutions(self):
        # A forward conv reading a conv_transpose's result (heatmap_head's
        # final 1x1 Conv2d): its operand is a convolution operand too, which
        # a tf32 kernel rounds (docs/perf.md 217: without it the
        # TF32-rounded-operand reference missed that rounding).
        x = torch.randn(1, 2, 3, 3, dtype=torch.float64)
        w0 = torch.randn(2, 2, 2, 2, dtype=torch.float64)
        w1 = torch.randn(3, 2, 1, 1, dtype=torch.float64)
        lines = ["%1 = const_tensor c0",
                 "%2 = conv_transpose %0 %1 stride=2,2", "%3 = relu %2",
                 "%4 = const_tensor c1",
                 "%5 = conv %3 %4 stride=1,1 padding=0,0", "return %5"]
        seen = []

        def hook(value):
            seen.append(tuple(value.shape))
            return value * 2
        out = Graph(lines, 1, [w0, w1]).evaluate([x], conv_operand=hook)
        self.assertEqual(seen, [(1, 2, 6, 6)])
        h = F.conv_transpose2d(x, w0, stride=2).relu()
        self.assertTrue(torch.allclose(out, F.conv2d(h * 2, w1)))
        calls = []

        def conv(evaluate, operands):
            calls.append(len(operands))
            return evaluate(operands)
        Graph(lines, 1, [w0, w1]).evaluate([x], conv=conv)
        self.assertEqual(calls, [2, 2])

    def test_conv_hook_replaces_every_convolution(self):
        x = torch.randn(1, 2, 3, 3, dtype=torch.float64)
        w = torch.randn(2, 2, 2, 2, dtype=torch.float64)
        b = torch.randn(2, dtype=torch.float64)
        lines = ["%1 = const_tensor c0", "%2 = const_tensor c1",
                 "%3 = conv_transpose %0 %1 %2 stride=2,2", "%4 = relu %3",
                 "return %4"]
        calls = []

        def conv(evaluate, operands):
            calls.append(len(operands))
            return evaluate([operands[0] * 3] + operands[1:])
        out = Graph(lines, 1, [w, b]).evaluate([x], conv=conv)
        self.assertEqual(calls, [3])
        self.assertTrue(torch.equal(
            out, F.conv_transpose2d(x * 3, w, b, stride=2).relu()))

    def test_missing_constants_at_call(self):
        with self.assertRaisesRegex(GraphError, "needs constant c0, but no "
                                    "constants were given"):
            self.run_graph(["%1 = const_tensor c0", "%2 = add %0 %1",
                            "return %2"], self.x)

    def test_integer_constants_keep_their_dtype(self):
        c = torch.arange(5, dtype=torch.int64)
        out = self.run_graph(["%1 = const_tensor c0", "return %1"], self.x,
                             constants=[c])
        self.assertEqual(out.dtype, torch.int64)

if __name__ == "__main__":
    unittest.main()
