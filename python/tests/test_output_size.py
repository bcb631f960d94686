# ===- python/tests/test_output_size.py - ConvTranspose output_size= ----=== #
#
# A user-style decoder whose transposed convolutions are called with
# `output_size=` (a list, a tuple, a torch.Size) on odd sizes,
# through both front ends: the FX backend (symbolic_trace and make_fx
# graphs: the output_padding it derives, one partition, the bundle's graph
# in float64 against the module, the kernels on fusecc-check's simulator)
# and torch.onnx.export + the fusecc CLI (what fusecc.compile runs before it
# loads the bundle). F.conv_transpose2d with every legal output_padding.
#
# ===--------------------------------------------------------------------=== #

import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dynamo_support import (CHECK, CLI, REPO, F, arg_values,  # noqa: E402
                            compiled_graph, needs_cli, needs_torch, nn,
                            prepare, torch)

if torch is not None:
    from fusecc.dynamo.partition import partition_graph
    from fusecc.dynamo.translate import tensor_meta, translate_graph
    from torch.fx.passes.shape_prop import ShapeProp

    def _odd_decoder_class():
        """examples/models/odd_decoder.py's OddDecoder (a decoder written as
        users write one: output_size= as a list, a torch.Size and a tuple,
        odd spatial sizes, a skip add, BN, a kernel-3 stride-3 layer and an
        output_padding at the stride's limit through the functional form)."""
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "example_odd_decoder",
            os.path.join(REPO, "examples", "models", "odd_decoder.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.OddDecoder

    OddDecoder = _odd_decoder_class()

    def decoder_inputs():
        torch.manual_seed(3)
        return torch.randn(2, 8, 5, 7), torch.randn(2, 4, 21, 29)

    def decoder():
        torch.manual_seed(4)
        # 5x7 -> 10x14 -> the skip's 21x29 -> 62x86 -> 184x170.
        m = OddDecoder((8, 6, 4, 3, 2), ((10, 14), (21, 29), (62, 86)),
                       scale=0.3)
        m.bn1.running_mean.uniform_(-0.5, 0.5)
        m.bn1.running_var.uniform_(0.5, 1.5)
        return m.eval()


@needs_torch
class OutputSizeTranslation(unittest.TestCase):
    """The output_padding the FX front end derives from output_size=."""

    def test_symbolic_trace(self):
        x, skip = decoder_inputs()
        tr = translate_graph(prepare(decoder(), x, skip))
        for attrs in ("padding = array<i64: 1, 1>, output_padding = "
                      "array<i64: 1, 1>",
                      "stride = array<i64: 3, 3>, padding = array<i64: 1, "
                      "1>, output_padding = array<i64: 1, 1>",
                      "stride = array<i64: 3, 2>, padding = array<i64: 2, "
                      "2>, output_padding = array<i64: 2, 1>"):
            self.assertIn(attrs, tr.text)
        self.assertIn("-> tensor<2x2x184x170xf32>", tr.text)

    def test_aten_graph_is_one_partition(self):
        # make_fx (what AOT autograd hands the backend) computes the
        # output_padding itself: aten.convolution with it as a constant.
        from torch.fx.experimental.proxy_tensor import make_fx
        x, skip = decoder_inputs()
        from fusecc.dynamo import driver as backend_layer
        with torch.no_grad():
            gm = make_fx(decoder())(x, skip)
        ShapeProp(gm).propagate(x, skip)
        backend_layer._drop_unused_getitems(gm)
        gm, names = partition_graph(gm, False)
        self.assertEqual(len(names), 1)
        call = next(n for n in gm.graph.nodes if n.target == names[0])
        text = translate_graph(getattr(gm, names[0]),
                               [tensor_meta(a) for a in call.args]).text
        self.assertEqual(text.count("fuse.conv_transpose"), 4)
        self.assertIn("output_padding = array<i64: 2, 1>", text)

    def test_positional_and_computed_output_size(self):
        from fusecc.dynamo.translate import Unsupported

        class Extra(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = nn.ConvTranspose2d(2, 2, 3, 2)

            def forward(self, x):
                return self.up(x, [7, 7])
        # A positional output_size is the same as the keyword.
        tr = translate_graph(prepare(Extra(), torch.randn(1, 2, 3, 3)))
        self.assertIn("output_padding = array<i64: 0, 0>", tr.text)

        class FromTensor(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = nn.ConvTranspose2d(2, 2, 3, 2)

            def forward(self, x, skip):
                return self.up(x, output_size=skip.shape[2:])
        # symbolic_trace records a size read off a tensor as nodes (dynamo
        # and make_fx pass the number): refused with the node named.
        gm = prepare(FromTensor(), torch.randn(1, 2, 3, 3),
                     torch.randn(1, 2, 8, 8))
        with self.assertRaisesRegex(Unsupported, "getattr"):
            translate_graph(gm)


@needs_torch
@needs_cli
class OutputSizeNumerics(unittest.TestCase):
    """The compiled bundle's graph in float64 against the module, and the
    kernels on the simulator (compiled_graph runs fusecc-check)."""

    def test_fx_decoder(self):
        x, skip = decoder_inputs()
        m = decoder()
        tr = translate_graph(prepare(m, x, skip))
        graph = compiled_graph(self, tr.text)
        got = graph(*[v.detach().double()
                      for v in arg_values(tr, [x, skip])])
        expected = m.double()(x.double(), skip.double())
        self.assertEqual(tuple(got.shape), (2, 2, 184, 170))
        torch.testing.assert_close(got, expected.detach(), rtol=1e-6,
                                   atol=1e-6)

    def test_functional_output_padding_every_legal_value(self):
        # 1-D, stride 3, dilation 2: output_padding 0 .. max(s, d) - 1.
        for op in range(3):
            w = torch.randn(3, 2, 4)

            class Fn(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.w = nn.Parameter(w)

                def forward(self, x):
                    return F.conv_transpose1d(x, self.w, stride=3, padding=1,
                                              output_padding=op, dilation=2)
            with self.subTest(output_padding=op):
                x = torch.randn(2, 3, 6)
                tr = translate_graph(prepare(Fn().eval(), x))
                graph = compiled_graph(self, tr.text)
                got = graph(*[v.detach().double()
                              for v in arg_values(tr, [x])])
                expected = F.conv_transpose1d(
                    x.double(), w.double(), stride=3, padding=1,
                    output_padding=op, dilation=2)
                torch.testing.assert_close(got, expected, rtol=1e-9,
                                           atol=1e-9)

    def test_onnx_export_of_the_decoder(self):
        # What fusecc.compile does before it loads the bundle: the export
        # (output_size= becomes ConvTranspose's output_padding) and the CLI.
        from fusecc import bundle as bundle_format
        from fusecc import compiler, reference
        x, skip = decoder_inputs()
        m = decoder()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "dec.onnx")
            compiler.export_onnx(m, (x, skip), path)
            out = compiler.compile_onnx(path, os.path.join(d, "dec.fcb"),
                                        "ieee", cli=CLI)
            parsed = bundle_format.read(out)
            graph = reference.entry_graph(parsed, parsed.entries[0])
            got = graph(x.double(), skip.double())
            expected = m.double()(x.double(), skip.double())
            torch.testing.assert_close(got, expected.detach(), rtol=1e-6,
                                       atol=1e-6)
            mlir = os.path.join(d, "dec.mlir")
            run = subprocess.run([CLI, path, "--emit=fuse", "--weights=args",
                                  "-o", mlir], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            sim = subprocess.run([CHECK, mlir], capture_output=True,
                                 text=True)
            self.assertEqual(sim.returncode, 0, sim.stdout + sim.stderr)


if __name__ == "__main__":
    unittest.main()
