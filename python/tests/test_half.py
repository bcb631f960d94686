# ===- python/tests/test_half.py - bf16/f16 bundles, calls and casts ----=== #
#
# Half precision in the Python package (docs/design/types.md): a bundle
# whose arguments and constants are bf16/f16 (2-byte constants in the data
# section), entry calls that take float16/bfloat16 tensors and name the
# argument of a wrong dtype, and the reference's `cast` line, which rounds
# to the target dtype inside a float64 evaluation (f16 overflow to inf).
#
# ===--------------------------------------------------------------------=== #

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import bundle, compiler, module, reference  # noqa: E402
from fusecc.reference import Graph, GraphError  # noqa: E402
import samples  # noqa: E402
from samples import FakeTensor  # noqa: E402
from test_module import StubModule  # noqa: E402

try:
    import torch
except ImportError:
    torch = None
try:
    import onnx
    from onnx import numpy_helper
except ImportError:
    onnx = None

# bf16 bits of 1.0, -2.0, 0.5 and f16 bits of 0.25, 3.0 (little-endian).
BF16_WEIGHT = struct.pack("<3H", 0x3F80, 0xC000, 0x3F00)
F16_BIAS = struct.pack("<2H", 0x3400, 0x4200)

HALF_MANIFEST = """fusecc-bundle 3
chip sm_90a
precision tf32
const 0 w bf16 1 3 offset 0
const 1 b f16 1 2 offset 16
entry layer args 3 workspaces 1 steps 2
arg 0 in x bf16 2 2 3
arg 1 in y f16 1 2
arg 2 out result f16 2 2 3
workspace 0 f32 6 intermediate
launch layer_k0_p3 grid 1 1 1 block 32 1 1 smem 0 params 3 0 c0 w0
launch layer_k1_p4 grid 1 1 1 block 32 1 1 smem 0 params 4 w0 1 c1 2
graph %3 = const_tensor c0
graph %4 = mul %0 %3
graph %5 = cast %4 to=f16
graph return %5
end
"""


def half_bundle():
    data = BF16_WEIGHT + b"\0" * (16 - len(BF16_WEIGHT)) + F16_BIAS
    return samples.bundle_bytes(HALF_MANIFEST, data=data)


class HalfBundle(unittest.TestCase):

    def test_manifest_dtypes_and_two_byte_constants(self):
        parsed = bundle.parse(half_bundle())
        self.assertEqual([c.dtype for c in parsed.constants], ["bf16", "f16"])
        self.assertEqual(parsed.constant_bytes(0), BF16_WEIGHT)
        self.assertEqual(parsed.constant_bytes(1), F16_BIAS)
        entry = parsed.entry("layer")
        self.assertEqual([a.dtype for a in entry.args], ["bf16", "f16", "f16"])

    def test_half_constant_past_the_data_section_is_rejected(self):
        data = BF16_WEIGHT + b"\0" * (16 - len(BF16_WEIGHT)) + F16_BIAS[:2]
        with self.assertRaises(bundle.BundleError) as cm:
            bundle.parse(samples.bundle_bytes(HALF_MANIFEST, data=data))
        self.assertIn("const 1", str(cm.exception))

    @unittest.skipIf(torch is None, "needs PyTorch")
    def test_constant_tensors_in_their_dtype(self):
        consts = reference.constant_tensors(bundle.parse(half_bundle()))
        self.assertEqual(consts[0].dtype, torch.bfloat16)
        self.assertEqual(consts[0].tolist(), [1.0, -2.0, 0.5])
        self.assertEqual(consts[1].dtype, torch.float16)
        self.assertEqual(consts[1].tolist(), [0.25, 3.0])


class HalfCalls(unittest.TestCase):

    def entry(self):
        parsed = bundle.parse(half_bundle())
        stub = StubModule(parsed=parsed)
        return module.EntryFunction(stub, parsed.entry("layer")), stub

    def test_half_tensors_are_passed_with_their_byte_sizes(self):
        f, stub = self.entry()
        x = FakeTensor((2, 3), "bfloat16")
        y = FakeTensor((2,), "float16")
        out = FakeTensor((2, 3), "float16")
        self.assertIs(f(x, y, out=out, stream=0), out)
        self.assertEqual(stub.launches[0][1], [
            (x.data_ptr(), 12), (y.data_ptr(), 4), (out.data_ptr(), 12)])

    def test_wrong_dtype_names_the_argument(self):
        f, _ = self.entry()
        cases = [
            ((FakeTensor((2, 3), "float32"), FakeTensor((2,), "float16")),
             FakeTensor((2, 3), "float16"), "x", "bfloat16 (bf16)", "float32"),
            ((FakeTensor((2, 3), "bfloat16"), FakeTensor((2,), "bfloat16")),
             FakeTensor((2, 3), "float16"), "y", "float16 (f16)", "bfloat16"),
            ((FakeTensor((2, 3), "bfloat16"), FakeTensor((2,), "float16")),
             FakeTensor((2, 3), "float32"), "result", "float16 (f16)",
             "float32"),
        ]
        for inputs, out, name, expected, got in cases:
            with self.subTest(name):
                with self.assertRaises(module.ArgumentError) as cm:
                    f(*inputs, out=out, stream=0)
                text = str(cm.exception)
                self.assertIn(name, text)
                self.assertIn("expected dtype " + expected, text)
                self.assertIn("got " + got, text)


class CastLines(unittest.TestCase):

    def test_cast_needs_a_known_dtype(self):
        Graph(["%1 = cast %0 to=bf16", "return %1"], 1)
        for bad in ("to=f64", ""):
            with self.subTest(bad):
                with self.assertRaises(GraphError):
                    Graph([("%1 = cast %0 " + bad).strip(), "return %1"], 1)

    @unittest.skipIf(torch is None, "needs PyTorch")
    def test_cast_rounds_inside_a_float64_evaluation(self):
        x = torch.tensor([1.0 + 2.0 ** -10, 3.14159265, 65519.0, 65520.0,
                          -1e6, 1e-9], dtype=torch.float64)
        for dtype, name in ((torch.bfloat16, "bf16"), (torch.float16, "f16")):
            with self.subTest(name):
                g = Graph(["%1 = cast %0 to=" + name, "return %1"], 1)
                y = g(x)
                self.assertEqual(y.dtype, torch.float64)
                self.assertTrue(torch.equal(y, x.to(dtype).to(torch.float64)))
        y = Graph(["%1 = cast %0 to=f16", "return %1"], 1)(x)
        # f16: 65519 rounds to 65504, 65520 and beyond overflow to inf.
        self.assertEqual(y[2].item(), 65504.0)
        self.assertEqual(y[3].item(), float("inf"))
        self.assertEqual(y[4].item(), float("-inf"))


@unittest.skipIf(torch is None or onnx is None, "needs PyTorch and onnx")
class HalfCompile(unittest.TestCase):
    """fusecc.compile(model.half(), ...): the half module is exported as its
    float32 copy and retyped; the CLI then sees a FLOAT16/BFLOAT16 model."""

    def model(self):
        torch.manual_seed(0)
        return torch.nn.Sequential(torch.nn.ConvTranspose2d(3, 4, 3, 2),
                                   torch.nn.GELU())

    def test_half_dtype_of(self):
        m, x = self.model(), torch.zeros(1, 3, 4, 4)
        self.assertIsNone(compiler.half_dtype_of(m, (x,)))
        self.assertEqual(compiler.half_dtype_of(m.half(), (x.half(),)),
                         torch.float16)
        self.assertEqual(compiler.half_dtype_of(
            self.model().to(torch.bfloat16), x.to(torch.bfloat16)),
            torch.bfloat16)
        with self.assertRaisesRegex(ValueError, "mix dtypes"):
            compiler.half_dtype_of(self.model().half(), (x,))

    def export(self, dtype):
        m = self.model().to(dtype)
        x = torch.zeros(1, 3, 4, 4, dtype=dtype)
        d = tempfile.mkdtemp(prefix="fusecc-half-")
        self.addCleanup(shutil.rmtree, d, ignore_errors=True)
        path = os.path.join(d, "model.onnx")
        compiler.export_half_onnx(m, (x,), path, dtype)
        return m, onnx.load(path), path

    def test_export_retypes_boundary_and_weights(self):
        for dtype, elem in ((torch.float16, onnx.TensorProto.FLOAT16),
                            (torch.bfloat16, onnx.TensorProto.BFLOAT16)):
            with self.subTest(str(dtype)):
                m, proto, _ = self.export(dtype)
                g = proto.graph
                self.assertEqual([v.type.tensor_type.elem_type
                                  for v in g.input], [elem])
                self.assertEqual([v.type.tensor_type.elem_type
                                  for v in g.output], [elem])
                inits = {t.name: t for t in g.initializer}
                self.assertEqual({t.data_type for t in inits.values()},
                                 {elem})
                weight = m[0].weight.detach()
                stored = [t for t in inits.values()
                          if list(t.dims) == list(weight.shape)]
                self.assertEqual(len(stored), 1)
                # The stored bits are the module's own half weights.
                bits = torch.frombuffer(bytearray(stored[0].raw_data),
                                        dtype=torch.int16)
                self.assertTrue(torch.equal(
                    bits, weight.contiguous().view(torch.int16).flatten()))

    def test_cli_imports_the_half_model(self):
        try:
            cli = compiler.find_cli()
        except compiler.CompileError:
            self.skipTest("the fusecc compiler is not built")
        _, _, path = self.export(torch.bfloat16)
        result = subprocess.run([cli, path, "--emit=fuse"],
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("tensor<1x3x4x4xbf16>", result.stdout)
        self.assertIn("-> tensor<1x4x9x9xbf16>", result.stdout)

    def test_max_batch_exports_a_dynamic_batch(self):
        # fusecc.compile(model.half(), x, max_batch=N) used to export the
        # half module with a static batch, so the CLI refused --max-batch
        # ("needs a graph whose batched tensors have a dynamic leading
        # dim"); the half export now takes the symbolic batch too.
        try:
            cli = compiler.find_cli()
        except compiler.CompileError:
            self.skipTest("the fusecc compiler is not built")
        d = tempfile.mkdtemp(prefix="fusecc-half-")
        self.addCleanup(shutil.rmtree, d, ignore_errors=True)
        out = os.path.join(d, "model.fcb")
        for dtype, name in ((torch.bfloat16, "bf16"), (torch.float16, "f16")):
            with self.subTest(name):
                m = self.model().to(dtype).eval()
                x = torch.zeros(2, 3, 4, 4, dtype=dtype)
                with mock.patch.dict(os.environ, {"FUSECC_BIN": cli}), \
                        mock.patch.object(compiler.module_layer, "load",
                                          lambda *a, **k: mock.Mock()):
                    compiler.compile(m, (x,), max_batch=4, output=out)
                parsed = bundle.read(out)
                entry = parsed.entries[0]
                self.assertEqual(entry.max_batch, 4)
                self.assertTrue(all(a.batched for a in entry.args))
                self.assertEqual({a.dtype for a in entry.args}, {name})
                graph = reference.entry_graph(parsed, entry)
                m64 = m.double()
                for batch in (1, 3, 4):
                    xb = torch.randn(batch, 3, 4, 4).to(dtype).double()
                    with torch.no_grad():
                        torch.testing.assert_close(graph(xb), m64(xb),
                                                   rtol=2e-2, atol=2e-2)


if __name__ == "__main__":
    unittest.main()
