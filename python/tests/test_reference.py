# ===- python/tests/test_reference.py - fusecc.reference (graph lines) --=== #
#
# Parsing and validation of graph lines: the op table against docs/bundle.md,
# attributes converted at parse time, and every class of parse error. Pure
# Python, always runs. Evaluation (needs PyTorch) is tested by
# test_reference_eval.py and test_reference_pooling.py.
#
# ===--------------------------------------------------------------------=== #

import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import bundle, reference  # noqa: E402
from fusecc.reference import Graph, GraphError  # noqa: E402
import samples  # noqa: E402


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

if __name__ == "__main__":
    unittest.main()
