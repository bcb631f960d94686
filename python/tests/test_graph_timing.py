# ===- python/tests/test_graph_timing.py - The --graphs timing, no GPU ---=== #
#
# The CUDA-graphs comparison of bench/gpu_check.py and bench/models_check.py
# (--graphs; docs/perf.md, "Timing under CUDA graphs") on the CPU: the
# back-to-back timing's arithmetic and rotation (bench/timing.py, with
# CUDA events faked), a capture that fails recorded rather than raised,
# which variants each checker times and captures, the ratios and the
# tables' columns; bench/half_batch_check.py's compile step and one batch's
# check.
#
# ===--------------------------------------------------------------------=== #

import argparse
import contextlib
import copy
import importlib.util
import io
import os
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(REPO, "bench"), os.path.join(REPO, "python")]

try:
    import torch
    import torch.fx  # noqa: F401
except ImportError:
    torch = None

needs_torch = unittest.skipIf(torch is None, "PyTorch is not installed")


def load(name):
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(REPO, "bench", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeEvent:
    """A CUDA event whose elapsed time is the fake clock's advance between
    two records (milliseconds)."""
    clock = [0.0]

    def __init__(self, enable_timing=False):
        self.at = None

    def record(self):
        self.at = FakeEvent.clock[0]

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return end.at - self.at


def fake_cuda():
    """Patches torch.cuda's events and synchronize (the CPU build has the
    names, not a device)."""
    return [mock.patch.object(torch.cuda, "Event", FakeEvent),
            mock.patch.object(torch.cuda, "synchronize")]


@needs_torch
class StreamTiming(unittest.TestCase):

    def setUp(self):
        self.timing = load("timing")
        FakeEvent.clock[0] = 0.0
        for patch in fake_cuda():
            patch.start()
            self.addCleanup(patch.stop)

    def test_per_call_figure_of_back_to_back_stretches(self):
        seen = []

        def run(i):  # Each call takes 0.5 ms of GPU time on the fake clock.
            seen.append(i)
            FakeEvent.clock[0] += 0.5
        result = self.timing.stream_timing(run, 3, reps=4, warmup=2,
                                           calls=5, min_warm_s=0)
        self.assertAlmostEqual(result["ms"], 0.5)
        self.assertGreaterEqual(result["host_ms"], 0.0)
        timed = seen[-20:]  # 4 stretches of 5 calls
        self.assertEqual(timed, [n % 3 for n in range(20)])

    def test_graph_figures_replay_the_captured_calls(self):
        replays = []

        class Graph:
            def __init__(self, i):
                self.i = i

            def replay(self):
                replays.append(self.i)
                FakeEvent.clock[0] += 0.25

        def run(i):
            FakeEvent.clock[0] += 1.0
        with mock.patch.object(self.timing, "capture_graphs",
                               return_value=([Graph(0), Graph(1)], [])):
            figures = self.timing.graph_figures(run, 2, reps=3, warmup=1)
        self.assertAlmostEqual(figures["stream_ms"], 1.0)
        self.assertAlmostEqual(figures["replay_ms"], 0.25)
        self.assertEqual(set(replays), {0, 1})
        self.assertNotIn("replay_error", figures)

    def test_a_call_that_cannot_be_captured_is_recorded(self):
        def run(i):
            FakeEvent.clock[0] += 1.0
        with mock.patch.object(self.timing, "capture_graphs",
                               side_effect=RuntimeError("not capturable")):
            figures = self.timing.graph_figures(run, 1, reps=2, warmup=1)
        self.assertEqual(figures["replay_error"],
                         "RuntimeError: not capturable")
        self.assertNotIn("replay_ms", figures)
        self.assertIn("stream_ms", figures)

    def test_no_capture_without_replay(self):
        with mock.patch.object(self.timing, "capture_graphs") as capture:
            figures = self.timing.graph_figures(lambda i: None, 1, reps=2,
                                                warmup=1, replay=False)
        capture.assert_not_called()
        self.assertEqual(set(figures), {"stream_ms", "host_ms"})


def models_args(graphs, sets=3, frozen=False):
    return argparse.Namespace(graphs=graphs, sets=sets, reps=5, warmup=1,
                              alt_arg=[], frozen=frozen)


@needs_torch
class ModelsCheckGraphs(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.mc = load("models_check")

    def test_filter_parts(self):
        self.assertTrue(self.mc.selected("", "unet_decoder"))
        self.assertTrue(self.mc.selected("heatmap,unet", "unet_decoder"))
        self.assertFalse(self.mc.selected("heatmap,dcgan", "unet_decoder"))

    def test_graphs_adds_inductor_reduce_overhead(self):
        labels = [label for label, _ in self.mc.variants_for(
            None, models_args(True))]
        self.assertEqual(labels, ["eager", "inductor", "inductor_cg",
                                  "fusecc", "fusecc_cg"])
        labels = [label for label, _ in self.mc.variants_for(
            None, models_args(False))]
        self.assertNotIn("inductor_cg", labels)

    def test_frozen_variant_replayed_and_compared(self):
        labels = [label for label, _ in self.mc.variants_for(
            None, models_args(True, frozen=True))]
        self.assertEqual(labels[-1], "fusecc_frozen")
        self.assertIn("fusecc_frozen", self.mc.REPLAYED)
        row = {"inductor_replay_ms": 0.31, "fusecc_frozen_replay_ms": 0.31,
               "fusecc_frozen_ms": 0.4, "model": "m", "precision": "tf32",
               "pass": True, "fusecc_frozen_stats": {
                   "frozen_prepare_runs": 2, "frozen_calls": 9,
                   "frozen_misses": 0}}
        self.mc.add_ratios(row, self.mc.SPEEDUPS)
        self.assertAlmostEqual(row["speedup_frozen_replay"], 1.0)
        text = self.mc.frozen_table([row])
        self.assertIn("| - / 1.00x | - | 2 / 9 / 0 |", text)
        self.assertIsNone(self.mc.frozen_table([{"model": "m"}]))

    def test_time_variant_figures(self):
        calls = []

        def figures(run, sets, reps, warmup, replay=True):
            calls.append((sets, replay))
            out = {"stream_ms": 0.2, "host_ms": 0.01}
            if replay:
                out["replay_ms"] = 0.18
            return out
        fn = mock.Mock()
        sets = [[1], [2], [3]]
        timing = sys.modules["timing"]  # models_check's add_graph_figures'
        with mock.patch.object(self.mc, "time_ms", return_value=0.3), \
                mock.patch.object(timing, "graph_figures", figures):
            row = {}
            self.mc.time_variant(row, "fusecc", fn, sets, models_args(True))
            self.mc.time_variant(row, "inductor_cg", fn, sets,
                                 models_args(True))
            plain = {}
            self.mc.time_variant(plain, "fusecc", fn, sets,
                                 models_args(False))
        self.assertEqual(calls, [(3, True), (3, False)])
        self.assertEqual(row["fusecc_replay_ms"], 0.18)
        self.assertEqual(row["inductor_cg_stream_ms"], 0.2)
        self.assertNotIn("inductor_cg_replay_ms", row)
        self.assertEqual(plain, {"fusecc_ms": 0.3})

    def test_speedups_and_table(self):
        row = {"model": "m", "precision": "tf32", "dtype": "bf16",
               "pass": True, "inputs": ["1x2"],
               "fusecc_ms": 0.5, "inductor_ms": 0.4,
               "fusecc_stream_ms": 0.4, "inductor_cg_stream_ms": 0.6,
               "fusecc_host_ms": 0.012, "inductor_cg_host_ms": 0.02,
               "fusecc_replay_ms": 0.38}
        sys.modules["timing"].add_ratios(row, self.mc.SPEEDUPS)
        self.assertAlmostEqual(row["speedup_host"], 0.8)
        self.assertAlmostEqual(row["speedup_graphs"], 1.5)
        self.assertNotIn("speedup_replay", row)  # no Inductor replay
        text = self.mc.graphs_table([row])
        self.assertIn("| m | bf16 | tf32 | PASS | 0.500 / 0.400 / 0.380 | 12 "
                      "| 0.400 / 0.600 / - | 20 | 0.80x / 1.50x / - |", text)
        self.assertIsNone(self.mc.graphs_table([{"model": "m"}]))


@needs_torch
class GpuCheckGraphs(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.gc = load("gpu_check")

    def test_reduce_overhead_figures(self):
        compile_calls = []

        def fake_compile(fn, mode=None):
            compile_calls.append(mode)
            return fn
        graph = mock.Mock(return_value=None)
        figures = mock.Mock(return_value={"stream_ms": 0.1, "host_ms": 0.02})
        dynamo = mock.Mock()
        with mock.patch.object(torch, "compile", fake_compile, create=True), \
                mock.patch.object(torch, "_dynamo", dynamo, create=True), \
                mock.patch.object(self.gc, "time_ms", return_value=0.15), \
                mock.patch.object(sys.modules["timing"], "graph_figures",
                                  figures):
            row = {}
            self.gc.time_reduce_overhead(row, graph, [[1], [2]], 2,
                                         argparse.Namespace(reps=5, warmup=1))
        self.assertEqual(compile_calls, ["reduce-overhead"])
        dynamo.reset.assert_called_once()
        self.assertEqual(row, {"compile_cg_ms": 0.15,
                               "compile_cg_stream_ms": 0.1,
                               "compile_cg_host_ms": 0.02})
        self.assertEqual(figures.call_args.args[4], False)  # replay

    def test_reduce_overhead_failure_is_recorded(self):
        def broken(fn, mode=None):
            raise RuntimeError("no inductor\nmore")
        with mock.patch.object(torch, "compile", broken, create=True), \
                mock.patch.object(torch, "_dynamo", mock.Mock(), create=True):
            row = {}
            self.gc.time_reduce_overhead(row, mock.Mock(), [[1]], 1,
                                         argparse.Namespace(reps=5, warmup=1))
        self.assertEqual(row,
                         {"compile_cg_error": "RuntimeError: no inductor"})

    def test_graph_columns_only_with_graph_rows(self):
        plain = {"bundle": "b", "status": "PASS", "fusecc_ms": 0.1}
        self.assertNotIn("x compile (graphs)",
                         self.gc.format_table([plain], markdown=True))
        graphs = dict(plain, fusecc_stream_ms=0.09, compile_cg_stream_ms=0.18,
                      speedup_compile_graphs=2.0)
        text = self.gc.format_table([graphs], markdown=True)
        self.assertIn("x compile (graphs)", text)
        self.assertIn("2.00x", text)


@needs_torch
class HalfBatchCheck(unittest.TestCase):
    """bench/half_batch_check.py's compile step (fusecc.compile stubbed)
    and one batch's check on the CPU in float32 (the CPU lacks half
    convolutions in PyTorch 1.13)."""

    @classmethod
    def setUpClass(cls):
        cls.hb = load("half_batch_check")

    def test_compile_keeps_the_module_beside_the_bundle(self):
        import shutil
        import tempfile
        seen = []

        def fake_compile(module, example, max_batch=None, output=None,
                         lib=None):
            seen.append((example[0].shape[0], example[0].dtype, max_batch))
            if "residual" in output:
                raise self.hb.fusecc.CompileError("refused")
            open(output, "w").close()
        d = tempfile.mkdtemp(prefix="fusecc-hb-")
        self.addCleanup(shutil.rmtree, d, True)
        with mock.patch.object(self.hb.fusecc, "compile", fake_compile), \
                contextlib.redirect_stdout(io.StringIO()):
            failures = self.hb.compile_all(
                d, ["dcgan_generator", "residual_decoder"], ["bf16"], 4)
        self.assertEqual(failures, 1)
        self.assertEqual(seen, [(4, torch.bfloat16, 4)] * 2)
        saved = torch.load(os.path.join(d, "dcgan_generator.bf16.pt"))
        self.assertEqual((saved["model"], saved["dtype"], saved["max_batch"]),
                         ("dcgan_generator", "bf16", 4))
        self.assertFalse(os.path.exists(os.path.join(
            d, "residual_decoder.bf16.pt")))

    def check(self, scale):
        """One batch checked with the module itself, times `scale`, as the
        entry under test."""
        torch.manual_seed(0)
        module = torch.nn.Sequential(torch.nn.ConvTranspose2d(3, 2, 2, 2))
        ref = copy.deepcopy(module).double()
        return self.hb.check_batch(
            ref, module, lambda x: module(x) * scale, [(8, 3, 4, 4)], 3,
            torch.float32, 1e-6, torch.Generator().manual_seed(1),
            device="cpu")

    def test_a_batch_passes_and_fails_on_its_result(self):
        good = self.check(1.0)
        self.assertTrue(good["pass"], good)
        self.assertEqual(good["batch"], 3)
        self.assertLess(good["rel_l2"], 1e-6)
        bad = self.check(1.1)
        self.assertFalse(bad["pass"])
        self.assertGreater(bad["rel_l2"], bad["limit"])


if __name__ == "__main__":
    unittest.main()
