# ===- python/tests/test_dynamo_half.py - Half models through dynamo ----=== #
#
# fusecc.dynamo on bf16/f16 models, no GPU (Debian's PyTorch 1.13 has no
# half kernels on the CPU: shapes and dtypes come from ShapeProp on meta
# tensors): the translation's types (half arguments and results, f32
# normalisation parameters, explicit casts and PyTorch's implicit ones as
# fuse.cast, scalars without a half value computed in f32), the partition
# decisions (what stays in PyTorch, with its reason), the precision and
# cache key per dtype, and the emitted graphs through the real compiler
# (build/bin/fusecc, fusecc-check's simulator, fusecc.reference in float64).
#
# ===--------------------------------------------------------------------=== #

import copy
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dynamo_support import (CLI, F, arg_values,  # noqa: E402
                            compiled_graph, needs_cli, needs_torch, nn,
                            torch)

if torch is not None:
    from fusecc.dynamo import cache, driver
    from fusecc.dynamo.partition import partition_graph
    from fusecc.dynamo.translate import Unsupported, translate_graph
    from torch.fx.passes.shape_prop import ShapeProp

    class Decoder(nn.Module):
        """ConvTranspose2d + BatchNorm2d + scalars + GELU + Conv... the
        usual half decoder block."""

        def __init__(self):
            super().__init__()
            self.up = nn.ConvTranspose2d(4, 8, 4, 2, 1)
            self.bn = nn.BatchNorm2d(8)
            self.up2 = nn.ConvTranspose2d(8, 3, 3, 1, 1)
            with torch.no_grad():
                self.bn.running_mean.uniform_(-0.5, 0.5)
                self.bn.running_var.uniform_(0.5, 1.5)

        def forward(self, x):
            y = F.silu(self.bn(self.up(x)))
            y = self.up2(y * 0.5 + 1.0)
            return torch.tanh(y * 0.1)

    class Casts(nn.Module):
        """A mixed-precision block: f32 in, the decoder in bf16, a
        norm computed in f32, the result back in bf16."""

        def __init__(self):
            super().__init__()
            self.up = nn.ConvTranspose2d(4, 8, 2, 2).bfloat16()

        def forward(self, x):
            y = self.up(x.to(torch.bfloat16))
            y = F.instance_norm(y.float())
            return F.relu(y).bfloat16()


def _prepare(module, *inputs):
    """symbolic_trace of `module` with ShapeProp metadata from meta
    tensors (the CPU has no half convolution in PyTorch 1.13)."""
    gm = torch.fx.symbolic_trace(module)
    shadow = torch.fx.symbolic_trace(copy.deepcopy(module)).to("meta")
    ShapeProp(shadow).propagate(*[x.to("meta") for x in inputs])
    for node, meta in zip(gm.graph.nodes, shadow.graph.nodes):
        node.meta.update(meta.meta)
    return gm


def _x(dtype, *shape):
    torch.manual_seed(1)
    return torch.randn(*shape).to(dtype)


@needs_torch
class HalfTranslation(unittest.TestCase):
    def test_bf16_model(self):
        m = Decoder().eval().to(torch.bfloat16)
        tr = translate_graph(_prepare(m, _x(torch.bfloat16, 2, 4, 3, 3)))
        self.assertIn("%arg0: tensor<2x4x3x3xbf16>", tr.text)
        self.assertIn("-> tensor<2x3x6x6xbf16> {", tr.text)
        self.assertNotIn("xf32>", tr.text.split("%v")[0])  # no f32 argument
        # 0.5 and 1.0 are bf16 values; 0.1 is not: that product is
        # computed in f32 (PyTorch's opmath) and rounded, as PyTorch does.
        self.assertIn("dense<0.5> : tensor<bf16>", tr.text)
        self.assertIn("dense<1.0> : tensor<bf16>", tr.text)
        self.assertIn("dense<0.1> : tensor<f32>", tr.text)
        self.assertIn("fuse.mul %v", tr.text)
        self.assertEqual(tr.text.count("fuse.cast"), 2)
        self.assertEqual(tr.outputs, [((2, 3, 6, 6), "bfloat16")])
        self.assertEqual(tr.conv_dtypes, {"bfloat16"})

    def test_f16_model(self):
        m = Decoder().eval().half()
        tr = translate_graph(_prepare(m, _x(torch.float16, 1, 4, 3, 3)))
        self.assertIn("%arg0: tensor<1x4x3x3xf16>", tr.text)
        self.assertIn("tensor<4x8x4x4xf16>", tr.text)
        self.assertIn("dense<0.1> : tensor<f32>", tr.text)
        self.assertEqual(tr.outputs[0][1], "float16")

    def test_f32_norm_parameters_on_half_data(self):
        # BatchNorm kept in f32 (what mixed-precision recipes do): its
        # parameters stay f32 operands of the half batch_norm.
        m = Decoder().eval().to(torch.bfloat16)
        m.bn.float()
        tr = translate_graph(_prepare(m, _x(torch.bfloat16, 1, 4, 3, 3)))
        line = next(ln for ln in tr.text.splitlines()
                    if "fuse.batch_norm" in ln)
        self.assertIn("tensor<8xf32>", line)
        self.assertIn("-> tensor<1x8x6x6xbf16>", line)
        self.assertNotIn("fuse.cast %v0", tr.text)

    def test_explicit_casts(self):
        m = Casts().eval()
        tr = translate_graph(_prepare(m, _x(torch.float32, 1, 4, 3, 3)))
        casts = [ln for ln in tr.text.splitlines() if "fuse.cast" in ln]
        self.assertEqual(len(casts), 3, tr.text)
        self.assertIn("tensor<1x4x3x3xf32> -> tensor<1x4x3x3xbf16>",
                      casts[0])
        self.assertIn("xbf16> -> tensor<1x8x6x6xf32>", casts[1])
        self.assertIn("xf32> -> tensor<1x8x6x6xbf16>", casts[2])
        self.assertIn("fuse.instance_norm %v2", tr.text)

    def test_implicit_casts_follow_the_metadata(self):
        # Under torch.autocast a graph shows no casts: the convolution of
        # f32 tensors has a bf16 result. The operands are read through
        # casts to bf16 (autocast's rounding), the f32 norm after it
        # through a cast back.
        m = nn.Sequential(nn.ConvTranspose2d(4, 8, 2, 2),
                          nn.LayerNorm(6)).eval()
        gm = _prepare(m, _x(torch.float32, 1, 4, 3, 3))
        conv = next(n for n in gm.graph.nodes if n.op == "call_module")
        tm = conv.meta["tensor_meta"]
        conv.meta["tensor_meta"] = tm._replace(dtype=torch.bfloat16)
        tr = translate_graph(gm)
        casts = [ln for ln in tr.text.splitlines() if "fuse.cast" in ln]
        self.assertEqual(len(casts), 4, tr.text)  # x, w, b, result
        self.assertIn("fuse.conv_transpose", tr.text)
        self.assertIn("(tensor<1x4x3x3xbf16>, tensor<4x8x2x2xbf16>, "
                      "tensor<8xbf16>) -> tensor<1x8x6x6xbf16>", tr.text)
        self.assertIn("-> tensor<1x8x6x6xf32> {", tr.text)
        self.assertRegex(tr.text, r"fuse.layer_norm %v4 weight\(%arg3 : "
                         r"tensor<6xf32>\)")

    def test_casts_that_stay_in_pytorch(self):
        class M(nn.Module):
            def forward(self, x):
                return x.to(memory_format=torch.channels_last) + 1.0

        with self.assertRaisesRegex(Unsupported, "a cast to .*channels_last"):
            translate_graph(_prepare(M(), _x(torch.bfloat16, 1, 2, 3, 3)))

        class D(nn.Module):
            def forward(self, x):
                return x.double() * 2.0

        with self.assertRaisesRegex(Unsupported, "dtype float64"):
            translate_graph(_prepare(D(), _x(torch.bfloat16, 2, 3)))


@needs_torch
class HalfPartitioning(unittest.TestCase):
    def test_float64_tail_stays_in_pytorch(self):
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = nn.ConvTranspose2d(4, 4, 2, 2)

            def forward(self, x):
                y = torch.relu(self.up(x))
                return y.double().sigmoid()

        m = M().eval().to(torch.bfloat16)
        gm = _prepare(m, _x(torch.bfloat16, 1, 4, 3, 3))
        reasons = {}
        gm, names = partition_graph(gm, False, reasons)
        self.assertEqual(len(names), 1)
        sub = getattr(gm, names[0])
        self.assertEqual(len([n for n in sub.graph.nodes
                              if n.op.startswith("call")]), 2)
        self.assertIn("double", reasons)
        self.assertIn("dtype float64", reasons["double"])

    def test_casts_join_the_partition(self):
        gm = _prepare(Casts().eval(), _x(torch.float32, 1, 4, 3, 3))
        reasons = {}
        gm, names = partition_graph(gm, False, reasons)
        self.assertEqual(len(names), 1, reasons)
        parent = [n for n in gm.graph.nodes if n.op.startswith("call")]
        self.assertEqual(len(parent), 1)  # only the fused call


@needs_torch
class HalfPrecisionAndKey(unittest.TestCase):
    def test_half_convolutions_use_tf32(self):
        old = torch.backends.cudnn.allow_tf32
        try:
            torch.backends.cudnn.allow_tf32 = False
            self.assertEqual(driver.precision_for({"bfloat16"}), "tf32")
            self.assertEqual(driver.precision_for({"float16"}), "tf32")
            self.assertEqual(driver.precision_for({"float32"}), "ieee")
            self.assertEqual(driver.precision_for(
                {"float32", "bfloat16"}), "ieee")
            self.assertEqual(driver.precision_for({"bfloat16"}, "ieee"),
                             "ieee")
        finally:
            torch.backends.cudnn.allow_tf32 = old

    def test_cache_key_differs_by_dtype(self):
        texts = {}
        for dtype in (torch.float32, torch.bfloat16, torch.float16):
            m = Decoder().eval().to(dtype)
            texts[dtype] = translate_graph(_prepare(
                m, _x(dtype, 1, 4, 3, 3))).text
        keys = {cache.cache_key(t, "tf32", "sm_90a", (), "c")
                for t in texts.values()}
        self.assertEqual(len(keys), 3)


@needs_torch
@needs_cli
class HalfCompiled(unittest.TestCase):
    """The emitted half graphs compile, fusecc-check's simulator passes
    them, and the bundle's graph in float64 matches the module in float64
    on the same half values within the half accuracy rule."""

    def check(self, module, x, expected=None):
        tr = translate_graph(_prepare(module, x))
        graph = compiled_graph(self, tr.text, "--precision=tf32",
                               "--chip=sm_90a")
        got = graph(*[v.detach().double() for v in arg_values(tr, [x])])
        if expected is None:
            expected = copy.deepcopy(module).double()(x.double())
        self.assertEqual(tuple(got.shape), tuple(expected.shape))
        err = ((got.double() - expected).norm() / expected.norm()).item()
        self.assertLess(err, 2.0 ** -8)
        torch.testing.assert_close(got.double(), expected.detach(),
                                   rtol=1e-2, atol=1e-2)
        return tr

    def test_bf16_decoder(self):
        self.check(Decoder().eval().to(torch.bfloat16),
                   _x(torch.bfloat16, 2, 4, 3, 3))

    def test_f16_decoder(self):
        self.check(Decoder().eval().half(), _x(torch.float16, 2, 4, 3, 3))

    def test_f32_batch_norm_in_bf16(self):
        m = Decoder().eval().to(torch.bfloat16)
        m.bn.float()
        self.check(m, _x(torch.bfloat16, 1, 4, 3, 3))

    def test_mixed_casts(self):
        m = Casts().eval()
        x = _x(torch.float32, 1, 4, 3, 3)
        # In float64, rounding where the module stores bf16.
        y = F.conv_transpose2d(x.bfloat16().double(), m.up.weight.double(),
                               m.up.bias.double(), stride=2)
        y = F.relu(F.instance_norm(y.bfloat16().double()))
        self.check(m, x, y.detach().bfloat16().double())

    def test_compile_graph_caches_a_half_bundle(self):
        with tempfile.TemporaryDirectory() as d:
            for dtype in (torch.bfloat16, torch.float16):
                m = Decoder().eval().to(dtype)
                x = _x(dtype, 1, 4, 3, 3)
                with torch.no_grad():
                    driver.compile_graph(_prepare(m, x), [x], {
                        "load": False, "chip": "sm_90a", "cache_dir": d,
                        "cli": CLI})
                report = driver.last_report
                self.assertEqual(report["fallbacks"], [])
                self.assertEqual(len(report["compiled"]), 1)
            bundles = [f for f in os.listdir(d) if f.endswith(".fcb")]
            self.assertEqual(len(bundles), 2)


if __name__ == "__main__":
    unittest.main()
