# ===- python/tests/test_reference.py - fusecc.reference (graph lines) -=== #
#
# Parsing and validation are pure Python and always run. Evaluation needs
# PyTorch (CPU is enough): those tests skip when it is not installed.
#
# ===--------------------------------------------------------------------=== #

import itertools
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import bundle, reference  # noqa: E402
from fusecc.reference import Graph, GraphError  # noqa: E402
import samples  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None

needs_torch = unittest.skipIf(torch is None, "PyTorch is not installed: "
                              "graph evaluation needs it")


class Parsing(unittest.TestCase):

    def test_every_documented_form_is_in_the_table(self):
        with open(os.path.join(samples.REPO, "docs", "bundle.md")) as f:
            text = f.read()
        binary = re.search(r"with binary in ([a-z ]+)\n", text).group(1)
        unary = re.search(r"with unary in ([a-z_ ]+?)\s*\n\s*([a-z_ ]+?)"
                          r"\s+gelu", text)
        names = binary.split() + unary.group(1).split() + \
            unary.group(2).split() + ["gelu", "leaky_relu", "clamp",
                                      "conv_transpose", "const", "softmax",
                                      "layer_norm"]
        self.assertGreater(len(names), 25)
        for name in names:
            self.assertIn(name, reference.OPS)
        for name in ("const_tensor", "group_norm"):
            self.assertIn(name, reference.OPS)

    POOL_AND_REDUCTION_OPS = ("max_pool", "avg_pool", "adaptive_avg_pool",
                              "adaptive_max_pool", "sum", "mean", "amax",
                              "amin", "logsumexp", "var", "reshape",
                              "conv_transpose_tap_sums")

    def test_documented_pool_reduction_reshape_attributes(self):
        """The documented forms of the window ops name exactly the
        attributes their rows accept."""
        with open(os.path.join(samples.REPO, "docs", "bundle.md")) as f:
            text = f.read()
        forms = {}
        for names, attrs in re.findall(r"`%k = ([a-z_|]+) %x ([^`]*)`", text):
            keys = set(re.findall(r"([a-z_]+)=", attrs))
            for name in names.split("|"):
                forms[name] = keys
        for name in self.POOL_AND_REDUCTION_OPS:
            with self.subTest(name):
                self.assertIn(name, forms)
                self.assertEqual(forms[name], reference.OPS[name].attrs)

    def test_pool_reduction_reshape_params(self):
        g = Graph(["%1 = max_pool %0 kernel_size=3,2,3 stride=2,1,2 "
                   "padding=1,0,1 dilation=1,1,2 ceil_mode=1",
                   "%2 = avg_pool %0 kernel_size=3,2 stride=2,2 padding=1,1 "
                   "ceil_mode=0 count_include_pad=1",
                   "%3 = avg_pool %0 kernel_size=4 stride=3 padding=2 "
                   "ceil_mode=1 count_include_pad=0 divisor_override=5",
                   "%4 = adaptive_avg_pool %0 output_size=3,4",
                   "%5 = adaptive_max_pool %0 output_size=7",
                   "%6 = sum %0 dims=3,1 keepdim=1",
                   "%7 = logsumexp %0 dims=0 keepdim=0",
                   "%8 = reshape %0 shape=2,0,15", "%9 = reshape %0 shape=",
                   "return %1"], 1)
        params = [op.params for op in g.ops]
        self.assertEqual(params[0], {
            "rank": 3, "kernel_size": (3, 2, 3), "stride": (2, 1, 2),
            "padding": (1, 0, 1), "dilation": (1, 1, 2), "ceil_mode": True})
        self.assertEqual(params[1], {
            "rank": 2, "kernel_size": (3, 2), "stride": (2, 2),
            "padding": (1, 1), "ceil_mode": False, "count_include_pad": True,
            "divisor_override": None})
        self.assertEqual(params[2], {
            "rank": 1, "kernel_size": (4,), "stride": (3,), "padding": (2,),
            "ceil_mode": True, "count_include_pad": False,
            "divisor_override": 5})
        self.assertEqual(params[3], {"rank": 2, "output_size": (3, 4)})
        self.assertEqual(params[4], {"rank": 1, "output_size": (7,)})
        self.assertEqual(params[5], {"dims": (3, 1), "keepdim": True})
        self.assertEqual(params[6], {"dims": (0,), "keepdim": False})
        self.assertEqual(params[7], {"shape": (2, 0, 15), "elements": 0})
        self.assertEqual(params[8], {"shape": (), "elements": 1})
        # max_pool's padding limit is half the kernel size, dilation aside,
        # as in PyTorch: kernel 2 with dilation 3 takes padding 1.
        op = Graph(["%1 = max_pool %0 kernel_size=2,3 stride=1,1 padding=1,1 "
                    "dilation=3,2 ceil_mode=0", "return %1"], 1).ops[0]
        self.assertEqual((op.params["padding"], op.params["dilation"]),
                         ((1, 1), (3, 2)))
        with self.assertRaisesRegex(GraphError, "more than half"):
            Graph(["%1 = max_pool %0 kernel_size=2,3 stride=1,1 padding=2,1 "
                   "dilation=3,2 ceil_mode=0", "return %1"], 1)
        for name in ("sum", "mean", "amax", "amin", "logsumexp"):
            op = Graph(["%%1 = %s %%0 dims=2,0,1 keepdim=0" % name,
                        "return %1"], 1).ops[0]
            self.assertEqual(op.params["dims"], (2, 0, 1))
        op = Graph(["%1 = var %0 dims=2,0 keepdim=1 correction=0",
                    "return %1"], 1).ops[0]
        self.assertEqual(op.params, {"dims": (2, 0), "keepdim": True,
                                     "correction": 0})
        op = Graph(["%1 = var %0 dims=1 keepdim=0", "return %1"], 1).ops[0]
        self.assertEqual(op.params["correction"], 1)
        with self.assertRaisesRegex(GraphError, "below the minimum 0"):
            Graph(["%1 = var %0 dims=1 keepdim=0 correction=-1",
                   "return %1"], 1)

    def test_params_are_converted_at_parse_time(self):
        g = Graph(["%1 = leaky_relu %0 slope=0.1", "%2 = clamp %1 max=0.3",
                   "%3 = gelu %2 approximate=tanh", "%4 = softmax %3 dim=1",
                   "%5 = layer_norm %4 normalized_rank=2 eps=1e-06",
                   "%6 = group_norm %5 groups=4", "%7 = const_tensor c12",
                   "%8 = const 0.1", "return %6"], 1)
        params = [op.params for op in g.ops]
        self.assertEqual(params[0]["slope"], reference.f32(0.1))
        self.assertNotEqual(reference.f32(0.1), 0.1)
        self.assertEqual((params[1]["min"], params[1]["max"]),
                         (None, reference.f32(0.3)))
        self.assertEqual(params[2]["approximate"], "tanh")
        self.assertEqual(params[3]["dim"], 1)
        self.assertEqual((params[4]["rank"], params[4]["eps"]),
                         (2, reference.f32(1e-6)))
        self.assertEqual((params[5]["groups"], params[5]["eps"]),
                         (4, reference.f32(1e-5)))
        self.assertEqual(params[6]["index"], 12)
        self.assertEqual(params[7]["value"], reference.f32(0.1))

    def test_roles_and_conv_ops(self):
        g = Graph(["%3 = conv_transpose %0 %1 %2 stride=2 groups=1",
                   "%4 = relu %3", "return %4"], 3)
        self.assertEqual(len(g.conv_ops()), 1)
        self.assertEqual(sorted(g.roles()), [1, 2])

    def test_bundle_graphs_parse(self):
        for path in (os.path.join(samples.RUNTIME_DATA, "sample.fcb"),
                     os.path.join(samples.RUNTIME_DATA, "sample_v2.fcb"),
                     os.path.join(samples.DATA, "sample_v3.fcb")):
            b = bundle.read(path)
            for entry in b.entries:
                g = Graph(entry.graph, entry.input_count)
                self.assertEqual(len(g.returns), len(entry.outputs))
        entry = bundle.read(os.path.join(samples.DATA,
                                         "sample_v3.fcb")).entries[0]
        self.assertEqual(Graph(entry.graph, 1).const_sources(),
                         {1: 0, 2: 1, 4: 2, 5: 3})

    ERRORS = [
        (["%1 = frobnicate %0", "return %1"], "unknown op 'frobnicate' in "
         "'%1 = frobnicate %0' (known: "),
        (["%1 = add %0", "return %1"], "'add' takes 2 to 2 operands"),
        (["%1 = relu %0 slope=2", "return %1"], "unknown attribute(s) slope"),
        (["%1 = gelu %0 approximate=erf", "return %1"], "gelu approximate=erf"),
        (["%1 = softmax %0", "return %1"], "bad or missing attribute ('dim')"),
        (["%1 = softmax %0 dim=x", "return %1"], "bad or missing attribute"),
        (["%1 = const", "return %1"], "'const' without a value"),
        (["%1 = relu %0 5", "return %1"], "unexpected token '5'"),
        (["%1 = const_tensor 3", "return %1"], "expected a constant like 'c0', "
         "got '3'"),
        (["%1 = const_tensor c01", "return %1"], "got 'c01'"),
        (["%1 = group_norm %0 %0 groups=2", "return %1"],
         "group_norm takes a weight and a bias or neither"),
        (["%1 = group_norm %0 groups=0", "return %1"], "groups=0"),
        (["%1 = group_norm %0 eps=1", "return %1"], "bad or missing attribute"),
        (["%1 = relu %2", "return %1"], "use of undefined %2"),
        (["%0 = relu %0", "return %0"], "%0 defined twice"),
        (["%1 = relu %0"], "graph has no 'return' line"),
        (["return %3"], "return of undefined %3"),
        (["return"], "'return' without values"),
        (["%1 relu %0", "return %1"], "cannot parse graph line"),
        (["%1 = add %0 eps=1 %0", "return %1"], "operand after attributes"),
        (["%1 = clamp %0 min=1 min=2", "return %1"], "attribute 'min' given "
         "twice"),
        (["%x = relu %0", "return %x"], "bad value name '%x'"),
    ]

    MP = "%1 = max_pool %0 "
    AP = "%1 = avg_pool %0 "
    POOL_ERRORS = [
        (MP + "stride=1 padding=0 dilation=1 ceil_mode=0",
         "'max_pool' needs kernel_size= in '%1 = max_pool"),
        (MP + "kernel_size=2,2,2,2 stride=1,1,1,1 padding=0,0,0,0 "
         "dilation=1,1,1,1 ceil_mode=0",
         "kernel_size has 4 values, expected 1 or 2 or 3"),
        (MP + "kernel_size= stride= padding= dilation= ceil_mode=0",
         "kernel_size= is not a list of integers"),
        (MP + "kernel_size=2,x stride=1,1 padding=0,0 dilation=1,1 "
         "ceil_mode=0", "kernel_size=2,x is not a list of integers"),
        (MP + "kernel_size=2,0 stride=1,1 padding=0,0 dilation=1,1 "
         "ceil_mode=0", "kernel_size=2,0 has 0, below the minimum 1"),
        (MP + "kernel_size=2,2 stride=1 padding=0,0 dilation=1,1 ceil_mode=0",
         "stride has 1 values, expected 2 in"),
        (MP + "kernel_size=2,2 stride=1,0 padding=0,0 dilation=1,1 "
         "ceil_mode=0", "stride=1,0 has 0, below the minimum 1"),
        (MP + "kernel_size=2,2 padding=0,0 dilation=1,1 ceil_mode=0",
         "'max_pool' needs stride="),
        (MP + "kernel_size=2,2 stride=1,1 padding=0,0,0 dilation=1,1 "
         "ceil_mode=0", "padding has 3 values, expected 2"),
        (MP + "kernel_size=2,2 stride=1,1 padding=-1,0 dilation=1,1 "
         "ceil_mode=0", "padding=-1,0 has -1, below the minimum 0"),
        (MP + "kernel_size=3,4 stride=1,1 padding=1,3 dilation=1,1 "
         "ceil_mode=0", "padding=1,3 is more than half of kernel_size=3,4"),
        (MP + "kernel_size=2,2 stride=1,1 padding=0,3 dilation=1,3 "
         "ceil_mode=0", "padding=0,3 is more than half of kernel_size=2,2"),
        (MP + "kernel_size=3 stride=1 padding=3 dilation=2 ceil_mode=0",
         "padding=3 is more than half of kernel_size=3"),
        (MP + "kernel_size=2,2 stride=1,1 padding=0,0 ceil_mode=0",
         "'max_pool' needs dilation="),
        (MP + "kernel_size=2,2 stride=1,1 padding=0,0 dilation=1,1,1 "
         "ceil_mode=0", "dilation has 3 values, expected 2"),
        (MP + "kernel_size=2,2 stride=1,1 padding=0,0 dilation=0,1 "
         "ceil_mode=0", "dilation=0,1 has 0, below the minimum 1"),
        (MP + "kernel_size=2,2 stride=1,1 padding=0,0 dilation=1,1",
         "'max_pool' needs ceil_mode=0|1"),
        (MP + "kernel_size=2,2 stride=1,1 padding=0,0 dilation=1,1 "
         "ceil_mode=true", "ceil_mode=true is not 0 or 1"),
        (MP + "kernel_size=2,2 stride=1,1 padding=0,0 dilation=1,1 "
         "ceil_mode=0 count_include_pad=1",
         "unknown attribute(s) count_include_pad"),
        ("%1 = max_pool %0 %0 kernel_size=2 stride=1 padding=0 dilation=1 "
         "ceil_mode=0", "'max_pool' takes 1 to 1 operands"),
        (AP + "kernel_size=2 stride=1 padding=0 ceil_mode=0",
         "'avg_pool' needs count_include_pad=0|1"),
        (AP + "kernel_size=2 stride=1 padding=0 ceil_mode=0 "
         "count_include_pad=2", "count_include_pad=2 is not 0 or 1"),
        (AP + "kernel_size=2 stride=1 padding=0 ceil_mode=0 "
         "count_include_pad=1 dilation=1", "unknown attribute(s) dilation"),
        (AP + "kernel_size=2 stride=1 padding=0 ceil_mode=0 "
         "count_include_pad=1 divisor_override=0",
         "divisor_override=0 has 0, below the minimum 1"),
        (AP + "kernel_size=2 stride=1 padding=0 ceil_mode=0 "
         "count_include_pad=1 divisor_override=2,2",
         "divisor_override has 2 values, expected 1"),
        (AP + "kernel_size=2,2 stride=1,1 padding=2,0 ceil_mode=0 "
         "count_include_pad=1", "padding=2,0 is more than half"),
        ("%1 = adaptive_avg_pool %0", "'adaptive_avg_pool' needs "
         "output_size="),
        ("%1 = adaptive_max_pool %0 output_size=3,0",
         "output_size=3,0 has 0, below the minimum 1"),
        ("%1 = adaptive_max_pool %0 output_size=1,1,1,1",
         "output_size has 4 values, expected 1 or 2 or 3"),
        ("%1 = adaptive_avg_pool %0 output_size=2 kernel_size=2",
         "unknown attribute(s) kernel_size"),
        ("%1 = sum %0 keepdim=0", "'sum' needs dims= in"),
        ("%1 = mean %0 dims=1", "'mean' needs keepdim=0|1"),
        ("%1 = amax %0 dims=1 keepdim=yes", "keepdim=yes is not 0 or 1"),
        ("%1 = amin %0 dims=2,1,2 keepdim=0", "dims=2,1,2 names a dim twice"),
        ("%1 = logsumexp %0 dims=-1 keepdim=1",
         "dims=-1 has -1, below the minimum 0"),
        ("%1 = sum %0 dims= keepdim=1", "dims= is not a list of integers"),
        ("%1 = sum %0 dim=1 keepdim=1", "unknown attribute(s) dim"),
        ("%1 = reshape %0", "'reshape' needs shape= in"),
        ("%1 = reshape %0 shape=4,-1", "shape=4,-1 has -1, below the "
         "minimum 0"),
        ("%1 = reshape %0 shape=4,,5", "shape=4,,5 is not a list of "
         "integers"),
        ("%1 = reshape %0 %0 shape=4", "'reshape' takes 1 to 1 operands"),
    ]

    def test_pool_reduction_reshape_errors(self):
        for line, fragment in self.POOL_ERRORS:
            with self.subTest(line):
                with self.assertRaises(GraphError) as caught:
                    Graph([line, "return %1"], 1)
                self.assertIn(fragment, str(caught.exception))

    def test_errors(self):
        for lines, fragment in self.ERRORS + self.MULTI_RESULT_ERRORS:
            with self.subTest(lines[0]):
                with self.assertRaises(GraphError) as caught:
                    Graph(lines, 1)
                self.assertIn(fragment, str(caught.exception))

    def test_composite_params_are_converted_at_parse_time(self):
        g = Graph(["%3 = batch_norm %0 %1 %2 training=1 eps=0.001 "
                   "momentum=0.3",
                   "%4 = batch_norm %3 %1 %2",
                   "%5 = instance_norm %4 eps=1e-06",
                   "%6 = log_softmax %5 dim=2", "return %6"], 3)
        params = [op.params for op in g.ops]
        self.assertEqual(params[0], {"training": True,
                                     "eps": reference.f32(1e-3),
                                     "momentum": reference.f32(0.3)})
        self.assertNotEqual(reference.f32(0.3), 0.3)
        self.assertEqual(params[1], {"training": False,
                                     "eps": reference.f32(1e-5),
                                     "momentum": reference.f32(0.1)})
        self.assertEqual(params[2], {"eps": reference.f32(1e-6)})
        self.assertEqual(params[3], {"dim": 2})

    COMPOSITE_ERRORS = [
        ("%1 = batch_norm %0 %0", "'batch_norm' takes 3 to 5 operands"),
        ("%1 = batch_norm %0 %0 %0 training=2", "training=2 is not 0 or 1"),
        ("%1 = batch_norm %0 %0 %0 momentum=1.5", "momentum=1.5 is not in "
         "[0, 1]"),
        ("%1 = batch_norm %0 %0 %0 groups=2", "unknown attribute(s) groups"),
        ("%1 = instance_norm %0 %0 %0 %0", "'instance_norm' takes 1 to 3 "
         "operands"),
        ("%1 = instance_norm %0 momentum=0.1", "unknown attribute(s) "
         "momentum"),
        ("%1 = log_softmax %0", "bad or missing attribute"),
    ]

    def test_composite_errors(self):
        for line, fragment in self.COMPOSITE_ERRORS:
            with self.subTest(line):
                with self.assertRaises(GraphError) as caught:
                    Graph([line, "return %1"], 1)
                self.assertIn(fragment, str(caught.exception))

    def test_multi_result_line(self):
        g = Graph(["%3 %4 %5 = batch_norm %0 %1 %2 training=1 momentum=0.25",
                   "%6 = relu %3", "return %6 %4 %5 %4"], 3)
        self.assertEqual(g.ops[0].results, [3, 4, 5])
        self.assertEqual(g.ops[0].result, 3)
        self.assertEqual(g.ops[0].operands, [0, 1, 2])
        self.assertEqual(g.ops[1].results, [6])
        self.assertEqual(g.returns, [6, 4, 5, 4])

    MULTI_RESULT_ERRORS = [
        (["%1 %2 = relu %0", "return %1"], "'relu' defines 1 value in"),
        (["%1 %2 = batch_norm %0 %0 %0 training=1", "return %1"],
         "'batch_norm' defines 1 value or 3 values in"),
        (["%1 %2 %3 = batch_norm %0 %0 %0 training=0", "return %1"],
         "the updated running statistics (three results) need training=1"),
        (["%1 %2 %3 = batch_norm %0 %0 %0", "return %1"],
         "need training=1"),
        (["%1 %2 %1 = batch_norm %0 %0 %0 training=1", "return %1"],
         "a value defined twice in"),
        (["%1 %0 %2 = batch_norm %0 %0 %0 training=1", "return %1"],
         "%0 defined twice"),
        (["%1 %2 %3 = batch_norm %0 %0 %0 training=1", "return %1 %4"],
         "return of undefined %4"),
        (["%1 %2 %3 =", "return %1"], "cannot parse graph line"),
        (["= relu %0", "return %0"], "cannot parse graph line"),
        (["%1 x = relu %0", "return %1"], "bad value name 'x'"),
    ]

    def test_constant_index_checked_when_constants_given(self):
        with self.assertRaisesRegex(GraphError, "'%1 = const_tensor c2' names "
                                    "constant c2 but there are 2 constants"):
            Graph(["%1 = const_tensor c2", "return %1"], 1, [None, None])


def new_mean_var_sum(x, rm, rv, m):
    """The updated running mean plus the updated running variance (eps and
    weights do not enter them)."""
    mean = x.mean(dim=(0, 2, 3))
    var = x.var(dim=(0, 2, 3), unbiased=True)
    return (1 - m) * rm + m * mean + (1 - m) * rv + m * var


@needs_torch
class Evaluation(unittest.TestCase):
    """Each op against the PyTorch function it stands for (CPU, float64)."""

    def setUp(self):
        torch.manual_seed(0)
        self.x = torch.randn(2, 4, 3, 5, dtype=torch.float64)
        self.y = torch.rand(2, 4, 3, 5, dtype=torch.float64) + 0.5

    def run_graph(self, lines, *inputs, constants=None):
        return Graph(lines, len(inputs), constants)(*inputs)

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
