# ===- python/tests/test_dynamo_decoders.py - Decoder ops in the backend -=== #
#
# fusecc.dynamo's forward convolutions (nn.Conv*d, F.conv*d, aten), torch.cat
# and F.interpolate / nn.Upsample (nearest, (bi/tri)linear) on
# torch.fx.symbolic_trace and make_fx graphs: the emitted fuse ops and
# attributes, what is left to PyTorch with its reason, and, where
# build/bin/fusecc is built, the compiled bundle's graph in float64
# (fusecc.reference) against the PyTorch module and the kernels on
# fusecc-check's simulator.
#
# ===--------------------------------------------------------------------=== #

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dynamo_support import (arg_values, compiled_graph,  # noqa: E402
                            F, needs_cli, needs_torch, nn, prepare, torch)

if torch is not None:
    from fusecc.dynamo.partition import partition_graph
    from fusecc.dynamo.translate import Unsupported, translate_graph
    from torch.fx.passes.shape_prop import ShapeProp

    class UNetBlock(nn.Module):
        """ConvT up, cat with the skip, 3x3 conv, nearest x2 upsample,
        1x1 conv: every decoder op in one graph."""

        def __init__(self):
            super().__init__()
            self.up = nn.ConvTranspose2d(4, 3, 4, 2, 1)
            self.conv = nn.Conv2d(5, 4, 3, padding=1)
            self.head = nn.Conv2d(4, 2, 1)

        def forward(self, x, skip):
            y = torch.cat([F.relu(self.up(x)), skip], dim=1)
            y = F.silu(self.conv(y))
            y = F.interpolate(y, scale_factor=2, mode="nearest")
            return self.head(y)

    class Functional(nn.Module):
        """F.conv1d with 'same' padding (an even kernel: more at the end),
        a strided dilated conv, bilinear to a size with align_corners,
        cat along the last dim."""

        def __init__(self):
            super().__init__()
            self.w1 = nn.Parameter(torch.randn(4, 3, 4) * 0.3)
            self.w2 = nn.Parameter(torch.randn(4, 2, 3) * 0.3)
            self.b2 = nn.Parameter(torch.randn(4))

        def forward(self, x):
            y = F.conv1d(x, self.w1, padding="same")
            z = torch.conv1d(y, self.w2, self.b2, 2, 2, 2, 2)
            z = F.interpolate(z.unsqueeze(2), size=(1, 7), mode="bilinear",
                              align_corners=True).squeeze(2)
            return torch.cat((y, z), -1)

    class Volume(nn.Module):
        """Depthwise Conv3d, nn.Upsample trilinear, Conv3d 1x1."""

        def __init__(self):
            super().__init__()
            self.dw = nn.Conv3d(4, 4, 3, padding=1, groups=4)
            self.up = nn.Upsample(scale_factor=(1, 2, 2), mode="trilinear")
            self.pw = nn.Conv3d(4, 2, 1)

        def forward(self, x):
            return self.pw(self.up(torch.tanh(self.dw(x))))




@needs_torch
class DecoderTranslation(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)

    def text(self, module, *inputs):
        return translate_graph(prepare(module.eval(), *inputs)).text

    def test_unet_block(self):
        text = self.text(UNetBlock(), torch.randn(1, 4, 3, 3),
                         torch.randn(1, 2, 6, 6))
        for piece in (
                "fuse.concat %v1, %arg3 {dim = 1 : i64} : (tensor<1x3x6x6xf32>"
                ", tensor<1x2x6x6xf32>) -> tensor<1x5x6x6xf32>",
                "fuse.conv %v2, %arg4, %arg5 {stride = array<i64: 1, 1>, "
                "padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, "
                "groups = 1 : i64}",
                "fuse.upsample %v4 {scales = array<f64: 2.0, 2.0>} : "
                "tensor<1x4x6x6xf32> -> tensor<1x4x12x12xf32>",
                "padding = array<i64: 0, 0>"):
            self.assertIn(piece, text)

    def test_functional(self):
        text = self.text(Functional(), torch.randn(2, 3, 9))
        for piece in ("padding = array<i64: 1>, padding_end = array<i64: 2>",
                      "stride = array<i64: 2>, padding = array<i64: 2>, "
                      "dilation = array<i64: 2>, groups = 2 : i64",
                      "fuse.upsample %v2 {linear, align_corners} : "
                      "tensor<2x4x1x5xf32> -> tensor<2x4x1x7xf32>",
                      "{dim = 2 : i64} : (tensor<2x4x9xf32>, "
                      "tensor<2x4x7xf32>) -> tensor<2x4x16xf32>"):
            self.assertIn(piece, text)

    def test_volume(self):
        text = self.text(Volume(), torch.randn(1, 4, 2, 3, 3))
        self.assertIn("groups = 4 : i64", text)
        self.assertIn("{linear, scales = array<f64: 1.0, 2.0, 2.0>}", text)

    def test_upsample_forms(self):
        class Forms(nn.Module):
            def __init__(self):
                super().__init__()
                self.bilinear = nn.UpsamplingBilinear2d(scale_factor=2)
                self.nearest = nn.UpsamplingNearest2d(size=(4, 8))

            def forward(self, x):
                a = F.interpolate(x, scale_factor=1.5, mode="bilinear",
                                  recompute_scale_factor=True)
                b = F.interpolate(x, size=6)
                return a, b, self.bilinear(x), self.nearest(x)
        text = self.text(Forms(), torch.randn(1, 2, 4, 4))
        # Recomputed scale factors and sizes: the coordinates from sizes.
        self.assertIn("fuse.upsample %arg0 {linear} : tensor<1x2x4x4xf32> "
                      "-> tensor<1x2x6x6xf32>", text)
        self.assertIn("fuse.upsample %arg0 : tensor<1x2x4x4xf32> -> "
                      "tensor<1x2x6x6xf32>", text)
        self.assertIn("{linear, align_corners} : tensor<1x2x4x4xf32> -> "
                      "tensor<1x2x8x8xf32>", text)
        self.assertIn("fuse.upsample %arg0 : tensor<1x2x4x4xf32> -> "
                      "tensor<1x2x4x8xf32>", text)

    def test_c_nn_upsample(self):
        # The torch._C._nn functions F.interpolate calls (a graph that
        # traced into it records them).
        class Direct(nn.Module):
            def forward(self, x):
                a = torch._C._nn.upsample_nearest2d(x, None, [2.0, 3.0])
                b = torch._C._nn.upsample_bilinear2d(x, [5, 7], True, None)
                return a, b
        text = self.text(Direct(), torch.randn(1, 2, 4, 4))
        self.assertIn("fuse.upsample %arg0 {scales = array<f64: 2.0, 3.0>}"
                      " : tensor<1x2x4x4xf32> -> tensor<1x2x8x12xf32>", text)
        self.assertIn("fuse.upsample %arg0 {linear, align_corners} : "
                      "tensor<1x2x4x4xf32> -> tensor<1x2x5x7xf32>", text)

    def test_aten_graph(self):
        from torch.fx.experimental.proxy_tensor import make_fx
        m = UNetBlock().eval()
        x, skip = torch.randn(1, 4, 3, 3), torch.randn(1, 2, 6, 6)
        with torch.no_grad():
            gm = make_fx(m)(x, skip)
        ShapeProp(gm).propagate(x, skip)
        reasons = {}
        gm, names = partition_graph(gm, False, reasons)
        self.assertEqual(len(names), 1, reasons)
        outside = [n for n in gm.graph.nodes if n.op == "call_function"]
        self.assertEqual(outside, [])
        sub = getattr(gm, names[0])
        ops = [n.target for n in sub.graph.nodes if n.op == "call_function"]
        self.assertTrue(any("upsample_nearest2d" in str(t) for t in ops), ops)
        self.assertTrue(any("cat" in str(t) for t in ops), ops)

    def test_unsupported_with_reasons(self):
        cases = [
            (nn.Conv2d(2, 2, 1, padding=1), "exceeds dilation"),
            (nn.Conv2d(2, 2, 3, padding=1, padding_mode="reflect"),
             "padding_mode='reflect'"),
            (nn.Upsample(scale_factor=2, mode="bicubic"), "mode='bicubic'"),
        ]
        for module, reason in cases:
            with self.subTest(reason):
                with self.assertRaisesRegex(Unsupported, reason):
                    # In a Sequential: a root module's forward is traced.
                    self.text(nn.Sequential(module), torch.randn(1, 2, 4, 4))

        class Antialias(nn.Module):
            def forward(self, x):
                return F.interpolate(x, size=(2, 2), mode="bilinear",
                                     antialias=True)
        with self.assertRaisesRegex(Unsupported, "antialias"):
            self.text(Antialias(), torch.randn(1, 2, 4, 4))

    def test_unsupported_stays_in_pytorch(self):
        class Mixed(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = nn.ConvTranspose2d(2, 2, 2, 2)
                self.conv = nn.Conv2d(2, 2, 3, padding=1)

            def forward(self, x):
                y = F.interpolate(self.up(x), scale_factor=2, mode="bicubic")
                return self.conv(y)
        m = Mixed().eval()
        x = torch.randn(1, 2, 3, 3)
        reasons = {}
        gm, names = partition_graph(prepare(m, x), False, reasons)
        # The bicubic resize splits the graph; both sides hold a
        # convolution (the forward one counts as one).
        self.assertEqual(len(names), 2)
        self.assertIn("mode='bicubic'", " ".join(reasons.values()))
        with torch.no_grad():
            torch.testing.assert_close(gm(x), m(x))


@needs_torch
@needs_cli
class CompiledDecoders(unittest.TestCase):
    """The emitted MLIR compiles, its bundle graph (float64) matches the
    PyTorch module, and the simulated kernels match the reference."""

    def check(self, module, *inputs):
        torch.manual_seed(3)
        module = module.eval()
        tr = translate_graph(prepare(module, *inputs))
        graph = compiled_graph(self, tr.text)
        got = graph(*[v.detach().double()
                      for v in arg_values(tr, list(inputs))])
        with torch.no_grad():
            expected = module.double()(*[x.double() for x in inputs])
        got = got if isinstance(got, (tuple, list)) else (got,)
        expected = (expected if isinstance(expected, (tuple, list))
                    else (expected,))
        for g, e in zip(got, expected):
            torch.testing.assert_close(g, e, rtol=1e-6, atol=1e-6)

    def test_unet_block(self):
        self.check(UNetBlock(), torch.randn(2, 4, 3, 3),
                   torch.randn(2, 2, 6, 6))

    def test_functional(self):
        self.check(Functional(), torch.randn(2, 3, 9))

    def test_volume(self):
        self.check(Volume(), torch.randn(1, 4, 2, 3, 3))

    def test_strided_conv(self):
        m = nn.Sequential(nn.ConvTranspose2d(3, 4, 2, 2),
                          nn.Conv2d(4, 2, 3, stride=2, padding=1),
                          nn.ReLU())
        self.check(m, torch.randn(1, 3, 4, 4))


if __name__ == "__main__":
    unittest.main()
