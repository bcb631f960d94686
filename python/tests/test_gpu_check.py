# ===- python/tests/test_gpu_check.py - bench/gpu_check.py without a GPU -=== #
#
# The parts of the GPU checker that need no GPU: it imports without
# PyTorch, reads bundles of every format version through the package, counts
# convolution FLOPs, formats its table, and refuses to run without CUDA.
#
# ===--------------------------------------------------------------------=== #

import argparse
import contextlib
import importlib.util
import io
import itertools
import os
import re
import struct
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import samples  # noqa: E402
from fusecc.inputs import RUNNING_VARIANCE_RANGE  # noqa: E402
from fusecc.reference import Graph  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "gpu_check", os.path.join(samples.REPO, "bench", "gpu_check.py"))
gpu_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gpu_check)

try:
    import torch
except ImportError:
    torch = None


def brute_force_flops(x_shape, w_shape, stride, padding, output_padding,
                      dilation):
    """2 * N * Cin * Cout/groups * (input position, tap) pairs inside the
    output, counted one pair at a time."""
    rank = len(x_shape) - 2
    out = [(x_shape[2 + d] - 1) * stride[d] - 2 * padding[d] +
           dilation[d] * (w_shape[2 + d] - 1) + output_padding[d] + 1
           for d in range(rank)]
    pairs = 0
    for position in itertools.product(*[range(n) for n in x_shape[2:]]):
        for tap in itertools.product(*[range(k) for k in w_shape[2:]]):
            if all(0 <= position[d] * stride[d] + tap[d] * dilation[d] -
                   padding[d] < out[d] for d in range(rank)):
                pairs += 1
    return 2 * x_shape[0] * x_shape[1] * w_shape[1] * pairs


class GpuCheck(unittest.TestCase):

    def test_bundles_of_every_version(self):
        for name, directory, version in (
                ("sample.fcb", samples.RUNTIME_DATA, 1),
                ("sample_v2.fcb", samples.RUNTIME_DATA, 2),
                ("sample_v3.fcb", samples.DATA, 3)):
            b = gpu_check.Bundle("unused.so", os.path.join(directory, name))
            self.assertEqual(b.parsed.version, version)
            for entry in b.entries:
                graph = b.graph(entry)
                self.assertEqual(len(graph.returns), len(entry.outputs))
                self.assertIn("->", gpu_check.shape_summary(entry))
        self.assertEqual(b.constant_bytes(b.entries[0]), 96 + 3 * 12)
        self.assertEqual(len(graph.constants or []), 4 if torch else 0)

    def test_shape_summary(self):
        b = gpu_check.Bundle("unused.so", os.path.join(samples.RUNTIME_DATA,
                                                        "sample.fcb"))
        self.assertEqual(gpu_check.shape_summary(b.entries[0]),
                         "64x1024 y 1024 -> 64x1024")

    def test_conv_flops(self):
        cases = [((2, 3, 4, 5), (3, 2, 3, 3), [2, 1], [1, 0], [1, 0], [1, 2]),
                 ((1, 2, 5), (2, 4, 4), [3], [2], [2], [1]),
                 ((1, 1, 2, 3, 2), (1, 2, 2, 3, 2), [2, 2, 1], [0, 1, 0],
                  [1, 0, 0], [1, 1, 2])]
        for x, w, stride, padding, output_padding, dilation in cases:
            rank = len(x) - 2
            line = ("%%2 = conv_transpose %%0 %%1 stride=%s padding=%s "
                    "output_padding=%s dilation=%s" % tuple(
                        ",".join(map(str, v)) for v in
                        (stride, padding, output_padding, dilation)))
            op = Graph([line, "return %2"], 2).ops[0]
            with self.subTest(rank=rank):
                self.assertEqual(gpu_check.conv_flops(op, x, w),
                                 brute_force_flops(x, w, stride, padding,
                                                   output_padding, dilation))

    def test_table(self):
        rows = [{"bundle": "a.fcb", "entry": "e", "precision": "tf32",
                 "shape": "1x2 -> 1x2", "rel_l2": 1.5e-4, "max_abs": 2e-3,
                 "allclose": True, "status": "PASS", "fusecc_ms": 0.125,
                 "eager_ms": 0.25, "speedup_eager": 2.0, "pct_floor": 50.0},
                {"bundle": "b.fcb", "status": "ERROR", "error": "x"}]
        text = gpu_check.format_table(rows, markdown=True).splitlines()
        self.assertEqual(len(text), 4)
        self.assertTrue(text[0].startswith("| bundle | prec | shape |"))
        self.assertIn("| a.fcb:e | tf32 | 1x2 -> 1x2 | 1.50e-04 | 2.00e-03 | "
                      "yes | PASS | 0.1250 | 0.2500 | - | 2.00x | - | - | - | "
                      "50% |", text[2])
        plain = gpu_check.format_table(rows, markdown=False).splitlines()
        self.assertEqual(len({len(line.rstrip()) for line in plain[:2]}), 1)

    @unittest.skipIf(torch is None, "PyTorch is not installed")
    def test_round_tf32(self):
        values = [1.0, 1.0 + 2 ** -11, 1.0 + 2 ** -10 + 2 ** -11, -3.3,
                  1e-40, 3.4e38, float("inf"), -0.0]

        def reference(v):  # cvt.rna.tf32.f32 on the bits.
            bits = struct.unpack("<I", struct.pack("<f", v))[0]
            if (bits >> 23) & 0xFF == 0xFF:
                return v
            bits = (bits + 0x1000) & ~0x1FFF & 0xFFFFFFFF
            return struct.unpack("<f", struct.pack("<I", bits))[0]
        out = gpu_check.round_tf32(torch.tensor(values)).tolist()
        self.assertEqual(out, [reference(v) for v in values])

    def test_refuses_to_run_without_cuda(self):
        err = io.StringIO()
        with mock.patch.object(sys, "argv", ["gpu_check.py", "--no-time"]), \
                contextlib.redirect_stderr(err):
            if torch is None:
                self.assertEqual(gpu_check.main(), 2)
                self.assertIn("PyTorch is not installed", err.getvalue())
            elif not torch.cuda.is_available():
                self.assertEqual(gpu_check.main(), 2)
                self.assertIn("no CUDA device", err.getvalue())
            else:
                self.skipTest("a CUDA device is visible")


def no_time_args():
    """The parsed command line that check_entry reads, for a check without
    timing. Every flag check_entry reads is set explicitly, in a Namespace
    rather than a Mock: a Mock answers any attribute with a truthy Mock,
    which once turned on `launch_only` (every row LAUNCHED, nothing
    checked); here a flag check_entry starts reading raises AttributeError
    until it is added."""
    return argparse.Namespace(no_time=True, launch_only=False,
                              time_only=False, no_compile=True, reps=50,
                              warmup=10)


def check_first_entry_on_cpu(bundle):
    """gpu_check.check_entry on `bundle`'s first entry on the CPU, with
    no_time_args() and the CUDA stream and synchronize patched out;
    returns its row."""
    stream = mock.Mock(cuda_stream=0)
    with mock.patch.object(torch.cuda, "current_stream",
                           return_value=stream), \
            mock.patch.object(torch.cuda, "synchronize"):
        return gpu_check.check_entry(bundle, bundle.entries[0],
                                     no_time_args(), torch.device("cpu"))


class StubModule:
    """Stands in for the loaded module: its entry "kernel" writes what
    `compute(inputs)` returns into the outputs."""

    def __init__(self, compute):
        self.compute = compute

    def __getitem__(self, name):
        def call(*inputs, out):
            out[0].copy_(self.compute(inputs))
            return out
        return call


@unittest.skipIf(torch is None, "PyTorch is not installed")
class CheckEntryOnCpu(unittest.TestCase):
    """check_entry on a v3 bundle (constants, group norm) on the CPU, with
    a stub in place of the kernels."""

    def run_check(self, compute):
        path = os.path.join(samples.DATA, "sample_v3.fcb")
        bundle = gpu_check.Bundle("unused.so", path)
        bundle.module = StubModule(compute)
        return check_first_entry_on_cpu(bundle), bundle

    def graph_on(self, bundle, rounded):
        graph = bundle.graph(bundle.entries[0])
        if rounded:
            graph = Graph(graph.lines, 1, [gpu_check.round_tf32(c) if k == 0
                                           else c for k, c in
                                           enumerate(graph.constants)])
        return graph.bind(torch.float64, "cpu")

    def test_exact_kernel_passes(self):
        holder = {}

        def exact(inputs):
            return holder["graph"](inputs[0].double()).float()
        bundle = gpu_check.Bundle("unused.so", os.path.join(samples.DATA,
                                                            "sample_v3.fcb"))
        holder["graph"] = self.graph_on(bundle, False)
        row, _ = self.run_check(exact)
        self.assertEqual(row["status"], "PASS", row)
        self.assertLess(row["rel_l2"], 1e-6)
        self.assertIn("rel_l2_tf32_operands", row)
        op = holder["graph"].conv_ops()[0]
        self.assertEqual(row["conv_gflop"] * 1e9, gpu_check.conv_flops(
            op, (1, 2, 3, 3), (2, 3, 2, 2)))

    def test_tf32_kernel_passes_against_rounded_operands(self):
        holder = {}

        def tf32(inputs):
            x = gpu_check.round_tf32(inputs[0]).double()
            return holder["graph"](x).float()
        bundle = gpu_check.Bundle("unused.so", os.path.join(samples.DATA,
                                                            "sample_v3.fcb"))
        holder["graph"] = self.graph_on(bundle, True)
        row, _ = self.run_check(tf32)
        self.assertEqual(row["status"], "PASS", row)
        self.assertLess(row["rel_l2_tf32_operands"], 1e-6)

    def test_wrong_kernel_fails(self):
        row, _ = self.run_check(lambda inputs: torch.zeros(1, 3, 6, 6))
        self.assertEqual(row["status"], "FAIL")
        self.assertAlmostEqual(row["rel_l2"], 1.0)

    def test_tf32_kernel_off_by_more_than_allclose_fails(self):
        # One element 0.05 past the TF32-operand result: allclose to
        # neither graph, whatever the rel-L2 over all elements.
        holder = {}

        def off(inputs):
            x = gpu_check.round_tf32(inputs[0]).double()
            y = holder["graph"](x).float()
            y.view(-1)[7] += 0.05 + 0.02 * y.view(-1)[7].abs()
            return y
        bundle = gpu_check.Bundle("unused.so", os.path.join(samples.DATA,
                                                            "sample_v3.fcb"))
        holder["graph"] = self.graph_on(bundle, True)
        row, _ = self.run_check(off)
        self.assertEqual(row["status"], "FAIL", row)
        self.assertFalse(row["allclose"])
        self.assertFalse(row["allclose_tf32_rounding"])


    def test_degenerate_reference_checked_on_wide_inputs(self):
        # A kernel right on KernelBench's inputs (x in [0, 1)) and wrong
        # wherever x < 0, which only the wide draw has: with the reference
        # called degenerate, the wide check fails the row.
        holder = {}

        def wrong_below_zero(inputs):
            x = inputs[0]
            y = holder["graph"](x.double()).float()
            return y if bool((x >= 0).all()) else torch.zeros_like(y)
        bundle = gpu_check.Bundle("unused.so", os.path.join(samples.DATA,
                                                            "sample_v3.fcb"))
        holder["graph"] = self.graph_on(bundle, False)
        with mock.patch.object(gpu_check, "mode_fraction", return_value=0.9):
            row, _ = self.run_check(wrong_below_zero)
        self.assertEqual(row["status"], "FAIL", row)
        self.assertEqual(row["failed_outputs"], ["result (wide inputs)"])
        self.assertEqual(row["draw"], "wide")
        self.assertFalse(row["wide"]["pass"])
        # Not degenerate: checked once, on KernelBench's inputs.
        with mock.patch.object(gpu_check, "mode_fraction", return_value=0.2):
            row, _ = self.run_check(wrong_below_zero)
        self.assertEqual(row["status"], "PASS", row)
        self.assertNotIn("wide", row)

    def test_exact_kernel_passes_both_draws(self):
        holder = {}
        bundle = gpu_check.Bundle("unused.so", os.path.join(samples.DATA,
                                                            "sample_v3.fcb"))
        holder["graph"] = self.graph_on(bundle, False)
        with mock.patch.object(gpu_check, "mode_fraction", return_value=0.9):
            row, _ = self.run_check(
                lambda inputs: holder["graph"](inputs[0].double()).float())
        self.assertEqual(row["status"], "PASS", row)
        self.assertTrue(row["wide"]["pass"])
        self.assertEqual(row["mode_fraction"], 0.9)


X_T, W_T = "tensor<2x8x5x5xbf16>", "tensor<8x16x3x3xbf16>"
Y_T = "tensor<2x16x11x11xbf16>"
HALF_GRAPH = "\n".join([
    "func.func @half(%%x: %s, %%w: %s) -> %s {" % (X_T, W_T, Y_T),
    "  %%c = fuse.conv_transpose %%x, %%w {stride = array<i64: 2, 2>, "
    "padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, "
    "dilation = array<i64: 1, 1>, groups = 1 : i64} : (%s, %s) -> %s"
    % (X_T, W_T, Y_T),
    "  %%r = fuse.relu %%c : %s" % Y_T,
    "  return %%r : %s" % Y_T,
    "}", ""])


@unittest.skipIf(torch is None, "PyTorch is not installed")
class HalfStoredRuleOnCpu(unittest.TestCase):
    """Issue 34's rule on a bundle stored in bf16 (compiled by the fusecc
    CLI when it is built): a result rounded once from the float64 graph
    passes, one a few half ulps further off than PyTorch's own bf16 run
    fails."""

    def setUp(self):
        from fusecc import compiler
        try:
            cli = compiler.find_cli()
        except compiler.CompileError:
            self.skipTest("the fusecc compiler is not built")
        self.tmp = tempfile.TemporaryDirectory()
        graph = os.path.join(self.tmp.name, "half.mlir")
        with open(graph, "w") as f:
            f.write(HALF_GRAPH)
        self.path = os.path.join(self.tmp.name, "half.fcb")
        subprocess.run([cli, graph, "--chip=sm_90a", "-o", self.path],
                       check=True)

    def tearDown(self):
        self.tmp.cleanup()

    PRECISION = "bf16"
    INPUT_SCALE = 1.0  # every input drawn times this

    def run_check(self, compute):
        bundle = gpu_check.Bundle("unused.so", self.path)
        self.assertEqual(bundle.precision, self.PRECISION)
        exact = bundle.graph(bundle.entries[0]).bind(torch.float64, "cpu")
        bundle.module = StubModule(
            lambda inputs: compute(exact(*[t.double() for t in inputs])))
        draw = gpu_check.make_inputs
        scale = self.INPUT_SCALE
        scaled = (lambda *a, **k: [t * scale for t in draw(*a, **k)])
        with mock.patch.object(gpu_check, "make_inputs", scaled):
            return check_first_entry_on_cpu(bundle)

    def test_rounded_once_passes(self):
        row = self.run_check(lambda ref: ref.to(torch.bfloat16))
        self.assertEqual(row["status"], "PASS", row)

    def test_off_by_a_few_ulps_fails(self):
        row = self.run_check(lambda ref: (ref * (1 + 2.0 ** -6)).to(
            torch.bfloat16))
        self.assertEqual(row["status"], "FAIL", row)


@unittest.skipIf(torch is None, "PyTorch is not installed")
class HalfSubnormalRuleOnCpu(HalfStoredRuleOnCpu):
    """An f16 result of subnormals (kb2_38 in f16, docs/perf.md 162):
    its own rounding (rel-L2 far above the fixed limits) bounds the error
    against the exact graph as well as against the rounded operands."""

    def setUp(self):
        global HALF_GRAPH
        saved = HALF_GRAPH
        HALF_GRAPH = saved.replace("xbf16>", "xf16>")
        try:
            super().setUp()
        finally:
            HALF_GRAPH = saved

    PRECISION = "fp16"
    INPUT_SCALE = 2.0 ** -8  # outputs of f16 subnormals: rounding ~1e-2

    def test_rounded_once_passes(self):
        row = self.run_check(lambda ref: ref.to(torch.float16))
        self.assertEqual(row["status"], "PASS", row)
        self.assertGreater(row["rel_l2"], 2 * gpu_check.REL_L2_LIMIT["tf32"])

    def test_off_by_a_few_ulps_fails(self):
        row = self.run_check(lambda ref: (ref * 1.5).to(torch.float16))
        self.assertEqual(row["status"], "FAIL", row)


@unittest.skipIf(torch is None, "PyTorch is not installed")
class ModeFraction(unittest.TestCase):
    """gpu_check.mode_fraction: the share of the most common finite value."""

    def test_fractions(self):
        t = torch.tensor([0.0, -0.0, 0.0, 1.0, float("nan"), 2.0],
                         dtype=torch.float64)
        self.assertAlmostEqual(gpu_check.mode_fraction(t), 3 / 5)
        self.assertEqual(gpu_check.mode_fraction(torch.zeros(7, 3)), 1.0)
        self.assertAlmostEqual(
            gpu_check.mode_fraction(torch.arange(8.0)), 0.0)
        self.assertEqual(gpu_check.mode_fraction(
            torch.tensor([float("inf"), float("nan")])), 0.0)
        self.assertEqual(gpu_check.mode_fraction(torch.tensor([5.0])), 0.0)

    def test_sample_of_large_tensors(self):
        t = torch.zeros(gpu_check.DEGENERATE_SAMPLE * 2, dtype=torch.float64)
        t[::4] = torch.arange(t.numel() // 4, dtype=torch.float64) + 1
        self.assertAlmostEqual(gpu_check.mode_fraction(t), 0.75, delta=0.01)


class Soundness(unittest.TestCase):
    """gpu_check.sound: allclose to the exact graph, or (tf32) with each
    element's tolerance widened by its operands' TF32 rounding."""

    def test_allclose_to_either_graph(self):
        base = {"nonfinite": 0, "rel_l2": 1e-4}
        self.assertTrue(gpu_check.sound(dict(base, allclose=True)))
        self.assertTrue(gpu_check.sound(
            dict(base, allclose=False, allclose_tf32_rounding=True)))
        self.assertFalse(gpu_check.sound(dict(base, allclose=False)))
        self.assertFalse(gpu_check.sound(
            dict(base, allclose=False, allclose_tf32_rounding=False)))
        self.assertFalse(gpu_check.sound(
            dict(base, allclose=True, nonfinite=1)))
        self.assertFalse(gpu_check.sound(
            dict(base, allclose=True, rel_l2=float("nan"))))

    @unittest.skipIf(torch is None, "PyTorch is not installed")
    def test_rounding_widens_each_element(self):
        exact = torch.tensor([1.0, 0.0, float("nan"), 2.0])
        rounded = torch.tensor([1.0, 0.05, float("nan"), 2.0])
        # Element 1 is 0.06 off: within 1e-2 + 2 x 0.05, not 1e-2 alone.
        out = torch.tensor([1.0, 0.06, float("nan"), 2.0])
        self.assertFalse(torch.allclose(out, exact, atol=1e-2, rtol=1e-2,
                                        equal_nan=True))
        self.assertTrue(gpu_check.allclose_with_rounding(out, exact, rounded))
        # 0.12 is past it; a NaN where the reference is finite never passes.
        self.assertFalse(gpu_check.allclose_with_rounding(
            torch.tensor([1.0, 0.12, float("nan"), 2.0]), exact, rounded))
        self.assertFalse(gpu_check.allclose_with_rounding(
            torch.tensor([1.0, 0.0, float("nan"), float("nan")]), exact,
            rounded))
        self.assertFalse(gpu_check.allclose_with_rounding(
            torch.tensor([1.0, 0.0, 0.0, 2.0]), exact, rounded))


MULTI_OUTPUT_MANIFEST = """fusecc-bundle 3
chip sm_90
precision ieee
entry bn args 6 workspaces 0 steps 1
arg 0 in x f32 3 3 4 5
arg 1 in running_mean f32 1 4
arg 2 in running_var f32 1 4
arg 3 out result0 f32 3 3 4 5
arg 4 out result1 f32 1 4
arg 5 out result2 f32 1 4
launch bn_k0 grid 1 1 1 block 32 1 1 smem 0 params 6 0 1 2 3 4 5
graph %3 %4 %5 = batch_norm %0 %1 %2 training=1 eps=1e-05 momentum=0.25
graph return %3 %4 %5
end
"""


class MultiStubModule:
    """The entry "kernel" writes each of `compute(inputs)`'s values into the
    output of the same index (None leaves that output as it was)."""

    def __init__(self, compute):
        self.compute = compute

    def __getitem__(self, name):
        def call(*inputs, out):
            for o, value in zip(out, self.compute(inputs)):
                if value is not None:
                    o.copy_(value)
            return out
        return call


@unittest.skipIf(torch is None, "PyTorch is not installed")
class CheckMultiOutputEntryOnCpu(unittest.TestCase):
    """check_entry on a three-output entry (batch_norm's output and updated
    running statistics): every output is poisoned and checked."""

    def run_check(self, compute):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bn.fcb")
            with open(path, "wb") as f:
                f.write(samples.bundle_bytes(MULTI_OUTPUT_MANIFEST))
            bundle = gpu_check.Bundle("unused.so", path)
        graph = bundle.graph(bundle.entries[0]).bind(torch.float64, "cpu")
        bundle.module = MultiStubModule(lambda inputs: compute(
            [v.float() for v in graph(*[t.double() for t in inputs])]))
        return check_first_entry_on_cpu(bundle)

    def test_every_output_checked(self):
        row = self.run_check(lambda values: values)
        self.assertEqual(row["status"], "PASS", row)
        self.assertEqual(row["outputs"], 3)
        self.assertNotIn("failed_outputs", row)

    def test_an_output_left_poisoned_fails(self):
        row = self.run_check(lambda values: values[:2] + [None])
        self.assertEqual(row["status"], "FAIL")
        self.assertEqual(row["failed_outputs"], ["result2"])

    def test_a_wrong_running_mean_fails(self):
        row = self.run_check(lambda values: [values[0], values[1] + 1,
                                             values[2]])
        self.assertEqual(row["failed_outputs"], ["result1"])


CONV_IEEE_MANIFEST = """fusecc-bundle 3
chip sm_90a
precision ieee
entry ct args 3 workspaces 0 steps 1
arg 0 in x f32 4 2 3 5 5
arg 1 in weight f32 4 3 4 3 3
arg 2 out result f32 4 2 4 11 11
launch ct_k0 grid 1 1 1 block 32 1 1 smem 0 params 3 0 1 2
graph %2 = conv_transpose %0 %1 stride=2,2 padding=0,0 output_padding=0,0 dilation=1,1 groups=1
graph return %2
end
"""


@unittest.skipIf(torch is None, "PyTorch is not installed")
class IeeeAllowanceOnCpu(unittest.TestCase):
    """The ieee criterion's conditioning allowance: over the fixed limit
    (here lowered below FP32 rounding), a result passes within
    IEEE_MODEL_FACTOR of PyTorch's own FP32 error on the same inputs, or
    of the split-operand graph's error while close to that graph."""

    def run_check(self, manifest, compute):
        """The stub returns compute(exact, fp32, split) for each output:
        the graph in float64, in float32 and with split-operand
        convolutions, on the check's inputs."""
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "b.fcb")
            with open(path, "wb") as f:
                f.write(samples.bundle_bytes(manifest))
            bundle = gpu_check.Bundle("unused.so", path)
        graph = bundle.graph(bundle.entries[0])
        exact = graph.bind(torch.float64, "cpu")
        fp32 = graph.bind(torch.float32, "cpu")

        def outputs(inputs):
            x = [t.double() for t in inputs]
            as_tuple = (lambda v: v if isinstance(v, tuple) else (v,))
            return zip(as_tuple(exact(*x)),
                       as_tuple(fp32(*[t.float() for t in inputs])),
                       as_tuple(exact.evaluate(
                           x, conv=gpu_check.split_operand_conv)))
        bundle.module = MultiStubModule(lambda inputs: [
            compute(e, f.double(), s) for e, f, s in outputs(inputs)])
        with mock.patch.dict(gpu_check.REL_L2_LIMIT, {"ieee": 1e-12}):
            return check_first_entry_on_cpu(bundle)

    def test_as_far_as_pytorch_passes(self):
        row = self.run_check(MULTI_OUTPUT_MANIFEST,
                             lambda e, f, s: e + 1.5 * (f - e))
        self.assertEqual(row["status"], "PASS", row)
        self.assertGreater(row["rel_l2"], 1e-12)
        self.assertGreater(row["rel_l2_eager_fp32"], 0.0)
        self.assertEqual(row["rel_l2_limit"], gpu_check.IEEE_MODEL_FACTOR *
                         row["rel_l2_eager_fp32"])

    def test_three_times_pytorch_fails(self):
        row = self.run_check(MULTI_OUTPUT_MANIFEST,
                             lambda e, f, s: e + 3.0 * (f - e))
        self.assertEqual(row["status"], "FAIL", row)

    def test_split_operand_result_passes(self):
        row = self.run_check(CONV_IEEE_MANIFEST, lambda e, f, s: s)
        self.assertEqual(row["status"], "PASS", row)
        self.assertGreater(row["rel_l2_split_operands"], 0.0)
        self.assertLess(row["rel_l2_to_split_model"], 1e-7)

    def test_three_times_the_split_error_fails(self):
        row = self.run_check(CONV_IEEE_MANIFEST,
                             lambda e, f, s: e + 3.0 * (s - e))
        self.assertEqual(row["status"], "FAIL", row)

    def allowance(self, out, model):
        """ieee_allowance on one output whose exact value is all ones,
        PyTorch's FP32 result 1 + 1e-9 and the split-operand model
        `model`; returns the result row."""
        ref = torch.ones(1000, dtype=torch.float64)
        out = torch.as_tensor(out, dtype=torch.float64).expand(1000)
        model = torch.as_tensor(model, dtype=torch.float64).expand(1000)
        with mock.patch.dict(gpu_check.REL_L2_LIMIT, {"ieee": 1e-12}):
            result = gpu_check.compare(out.clone(), ref, "ieee", "f32")
        reference = mock.Mock()
        reference.evaluate.return_value = model.clone()
        gpu_check.ieee_allowance([result], [out], [ref], reference,
                                 lambda *inputs: (ref + 1e-9).float(),
                                 [torch.ones(1)])
        return result

    def test_half_storage_rule(self):
        """Half results (docs/design/types.md): the rel-L2 limit is the
        type's unit roundoff, and an f16 result is inf exactly where the
        reference rounds to inf in f16."""
        ref = torch.linspace(-3.0, 3.0, 1000, dtype=torch.float64)
        for dtype, torch_dtype in (("bf16", torch.bfloat16),
                                   ("f16", torch.float16)):
            with self.subTest(dtype):
                rounded = ref.to(torch_dtype)
                result = gpu_check.compare(rounded, ref, "ieee", dtype)
                self.assertTrue(result["pass"], result)
                self.assertEqual(result["rel_l2_limit"],
                                 gpu_check.DTYPE_REL_L2_FLOOR[dtype])
                # Rounding twice as coarsely fails.
                coarse = (ref * 0.5).to(torch_dtype).double() * 2.0 + \
                    ref.abs() * 4.0 * result["rel_l2_limit"]
                self.assertFalse(gpu_check.compare(coarse, ref, "ieee",
                                                   dtype)["pass"])
        big = torch.tensor([1.0, 65519.0, 65520.0, -1e6], dtype=torch.float64)
        self.assertTrue(gpu_check.compare(big.to(torch.float16), big, "ieee",
                                          "f16")["pass"])
        finite = torch.tensor([1.0, 65504.0, 65504.0, -65504.0],
                              dtype=torch.float16)
        self.assertFalse(gpu_check.compare(finite, big, "ieee", "f16")["pass"])

    def test_split_path_alone(self):
        # PyTorch's error rounds away in f32 here (1 + 1e-9 == 1): only the
        # split-operand model can widen the limit.
        passing = self.allowance(1 + 3e-6, 1 + 2e-6)
        self.assertEqual(passing["rel_l2_eager_fp32"], 0.0)
        self.assertTrue(passing["pass"], passing)
        self.assertAlmostEqual(passing["rel_l2_limit"], 4e-6, delta=1e-9)
        # Within twice the model's error but 1.2e-5 away from the model.
        far = self.allowance(1 - 1.0e-5, 1 + 6e-6)
        self.assertAlmostEqual(far["rel_l2_to_split_model"], 1.6e-5,
                               delta=1e-8)
        self.assertFalse(far["pass"], far)
        # Close to the model but over twice its error.
        over = self.allowance(1 + 5e-6, 1 + 2e-6)
        self.assertFalse(over["pass"], over)

    def test_split_operand_conv_drops_lo_times_lo(self):
        x = torch.tensor([[[[1.0 + 2.0 ** -12]]]], dtype=torch.float64)
        w = torch.tensor([[[[1.0 + 2.0 ** -12]]]], dtype=torch.float64)
        out = gpu_check.split_operand_conv(
            lambda a: torch.nn.functional.conv_transpose2d(*a), [x, w])
        # hi = 1, lo = 2^-12 each: 1 + 2 * 2^-12, without 2^-24.
        self.assertEqual(out.item(), 1.0 + 2.0 ** -11)



@unittest.skipIf(torch is None, "PyTorch is not installed")
class VacuousReferenceOnCpu(unittest.TestCase):
    """A reference with no finite element compares NaN with NaN: the rule
    fails it, and the checker draws a batch_norm's running variance
    positive so that its graphs have a finite reference."""

    def test_all_nan_reference_fails(self):
        ref = torch.full((2, 3), float("nan"), dtype=torch.float64)
        result = gpu_check.compare(ref.float(), ref, "tf32", "f32")
        self.assertTrue(result["ref_vacuous"])
        self.assertEqual(result["rel_l2"], 0.0)
        self.assertFalse(result["pass"])

    def test_partly_finite_reference_still_checks(self):
        ref = torch.tensor([[1.0, float("nan")], [2.0, 3.0]],
                           dtype=torch.float64)
        result = gpu_check.compare(ref.float(), ref, "tf32", "f32")
        self.assertFalse(result["ref_vacuous"])
        self.assertTrue(result["pass"], result)
        empty = torch.zeros(0, 4, dtype=torch.float64)
        self.assertFalse(gpu_check.compare(empty.float(), empty, "tf32",
                                           "f32")["ref_vacuous"])

    def test_running_variance_drawn_positive(self):
        graph = Graph(["%5 = batch_norm %0 %1 %2 %3 %4",
                       "return %5"], 5)
        self.assertEqual(graph.variance_inputs(), {2})
        arg = argparse.Namespace
        entry = argparse.Namespace(inputs=[
            arg(name="x", dtype="f32", shape=(2, 64, 3, 3))] + [
            arg(name="p%d" % i, dtype="f32", shape=(64,))
            for i in range(1, 5)])
        torch.manual_seed(0)
        inputs = gpu_check.make_inputs(entry, graph, "cpu")
        self.assertGreaterEqual(inputs[2].min().item(), 0.5)
        self.assertLess(inputs[2].max().item(), 1.5)
        # The mean and affine parameters stay N(0, 1): some negative.
        self.assertLess(inputs[1].min().item(), 0.0)
        self.assertTrue(torch.isfinite(graph(*inputs)[0]).all())


class RunningVarianceRuleShared(unittest.TestCase):
    """fusecc-check (C++) and gpu_check.py draw a batch_norm's running
    variance from one range (docs/design/checking.md, "Vacuous
    references"): Inputs.h's constants equal RUNNING_VARIANCE_RANGE."""

    def test_cpp_and_python_ranges_agree(self):
        header = os.path.join(samples.REPO, "include", "fusecc", "Reference",
                              "Inputs.h")
        with open(header) as f:
            text = f.read()
        bounds = tuple(
            float(re.search(r"constexpr double %s = ([0-9.]+);" % name,
                            text).group(1))
            for name in ("kRunningVarianceMin", "kRunningVarianceMax"))
        self.assertEqual(bounds, RUNNING_VARIANCE_RANGE)


if __name__ == "__main__":
    unittest.main()
