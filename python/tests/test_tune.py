# ===- python/tests/test_tune.py - bench/tune.py without a GPU ----------=== #
#
# The parts of the tuner that need no GPU: the half graphs it tunes
# (bench/half_graphs.py, shared with half_bundles.sh), the knob grids, the
# fusecc flags of each precision, the check that fusecc looks an entry up by
# the printed key, and `measure` writing tuning.json from a fake gpu_check
# report (the earlier file's entries carried over). With a built compiler
# (build/bin/fusecc) also the tuning keys of half kernels.
#
# ===--------------------------------------------------------------------=== #

import argparse
import glob
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import samples  # noqa: E402

BENCH = os.path.join(samples.REPO, "bench")
spec = importlib.util.spec_from_file_location(
    "tune", os.path.join(BENCH, "tune.py"))
tune = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tune)
import half_graphs  # noqa: E402  (on sys.path through tune.py)

FUSECC = os.path.join(samples.REPO, "build", "bin", "fusecc")

WGMMA_CONFIG = ("#fuse.tile<tileW = 80, tileC = 64, threadsW = 8, threadsC "
                "= 16, chanPerThread = 1, ciChunk = 32, types = <bf16, "
                "storage = bf16, operand = bf16, accumulator = f32, "
                "statistics = f32>, rows = 2, mergeHTaps = 1, wgmmaN = 80, "
                "wgmmaGroups = 1>")
AUTO_CONFIG = WGMMA_CONFIG.replace("ciChunk = 32", "ciChunk = 16")
MMA_CONFIG = ("#fuse.tile<tileW = 64, tileC = 16, threadsW = 16, threadsC "
              "= 8, chanPerThread = 1, ciChunk = 8, types = <tf32, storage "
              "= bf16, operand = tf32, accumulator = f32, statistics = "
              "f32>, mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 1, "
              "mmaTilesW = 2, rows = 4>")


class HalfGraphTest(unittest.TestCase):
    def test_every_f32_tensor_type_becomes_the_half_type(self):
        text = ("func.func @g(%x: tensor<2x3xf32>, %s: tensor<f32>) -> "
                "tensor<2x 3x f32> {\n  %c = arith.constant 1.0 : f32\n"
                "  %d = arith.constant dense<2.0> : tensor<f32>\n}")
        half = half_graphs.half_graph(text, "bf16")
        self.assertEqual(
            half, "func.func @g(%x: tensor<2x3xbf16>, %s: tensor<bf16>) -> "
                  "tensor<2x 3x bf16> {\n  %c = arith.constant 1.0 : f32\n"
                  "  %d = arith.constant dense<2.0> : tensor<bf16>\n}")
        self.assertNotIn("f32>", half_graphs.half_graph(text, "f16"))
        with self.assertRaisesRegex(ValueError, "one of bf16, f16, got 'f8'"):
            half_graphs.half_graph(text, "f8")

    @unittest.skipUnless(shutil.which("sed"), "no sed")
    def test_same_graphs_as_the_former_sed(self):
        # half_bundles.sh converted with this sed before the helper; every
        # example graph converts to the same text.
        examples = sorted(glob.glob(os.path.join(samples.REPO, "examples",
                                                 "*.mlir")))
        self.assertGreater(len(examples), 30)
        for path in examples:
            for dtype in half_graphs.HALF_TYPES:
                sed = subprocess.run(
                    ["sed", "-E", "s/x f32>/x %s>/g; s/xf32>/x%s>/g; "
                     "s/tensor<f32>/tensor<%s>/g" % (dtype, dtype, dtype),
                     path], check=True, capture_output=True,
                    text=True).stdout
                with open(path) as f:
                    self.assertEqual(half_graphs.half_graph(f.read(), dtype),
                                     sed, "%s %s" % (path, dtype))

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = os.path.join(tmp, "a.mlir"), os.path.join(tmp, "b.mlir")
            with open(src, "w") as f:
                f.write("%x: tensor<4xf32>")
            self.assertEqual(half_graphs.main(["h", "f16", src, dst]), 0)
            with open(dst) as f:
                self.assertEqual(f.read(), "%x: tensor<4xf16>")
            with mock.patch("sys.stderr"):
                self.assertEqual(half_graphs.main(["h", "f32", src, dst]), 2)


class GridTest(unittest.TestCase):
    def test_half_precisions_are_tuned(self):
        self.assertEqual(tune.PRECISIONS, ["tf32", "ieee", "bf16", "f16"])
        for grids in (tune.GRIDS, tune.QUICK_GRIDS):
            self.assertIs(grids["bf16"], grids["f16"])

    def test_half_grids_hold_valid_tensor_core_knobs(self):
        for grid in (tune.HALF_GRID, tune.HALF_QUICK_GRID):
            fields = {field: values for _, field, values in grid}
            # No 8 rows (FMA for half kernels); channels per round in the
            # half MMA's K (16), within the tuning file's 8..64.
            self.assertEqual(fields["rows"][0], 0)
            self.assertNotIn(8, fields["rows"])
            self.assertTrue(all(v % 16 == 0 and v <= 64
                                for v in fields["ci_chunk"]))
            self.assertTrue(all(v[0] in (0, -1) for v in fields.values()))
        self.assertEqual(len(tune.grid_points(tune.HALF_QUICK_GRID,
                                              "sm_90a")), 4 * 3 * 2)

    def test_grid_points_in_grid_order(self):
        points = tune.grid_points(tune.HALF_GRID, "sm_90a")
        flags, knobs = points[0]
        # The first point is the cost model's (all knobs at their default).
        self.assertEqual(tune.variant_name(knobs), "auto")
        self.assertIn("--tile-wgmma=-1", flags)
        self.assertEqual(flags[-1], "--chip=sm_90a")
        self.assertEqual(knobs["wgmma"], 0)  # TUNING_VALUES: chip default
        never = next(k for f, k in points if "--tile-wgmma=0" in f)
        self.assertEqual(never["wgmma"], -1)  # mma.sync in the file
        self.assertEqual(len(points), 4 * 3 * 4 * 3 * 2 * 2 * 3 * 2)

    def test_single_points_add_the_knobs_the_quick_grid_leaves_out(self):
        quick = {field for _, field, _ in tune.QUICK_GRIDS["tf32"]}
        points = tune.single_points(tune.GRIDS["tf32"], "sm_90a", quick)
        flags = [f for f, _ in points]
        # Each point sets one knob outside the quick grid, at a value
        # other than the cost model's; wgmma also at "always" (CLI 1).
        self.assertEqual([f[0] for f in flags], [
            "--tile-c=32", "--tile-c=128", "--tile-wgmma=0",
            "--tile-wgmma=1", "--tile-wgmma-split=1", "--tile-wgmma-split=2",
            "--tile-cluster-c=1"])
        self.assertTrue(all(f[-1] == "--chip=sm_90a" for f in flags))
        knobs = dict((f[0], k) for f, k in points)
        self.assertEqual(knobs["--tile-wgmma=0"]["wgmma"], -1)  # mma.sync
        self.assertEqual(knobs["--tile-wgmma=1"]["wgmma"], 1)
        self.assertEqual(knobs["--tile-c=128"],
                         dict(rows=0, max_tile_w=0, ci_chunk=0, tile_c=128,
                              merge_h=0, wgmma=0, wgmma_split=0,
                              cluster_c=0))
        # Distinct names: no single point is named "auto".
        names = {tune.variant_name(k) for _, k in points}
        self.assertEqual(len(names), len(points))
        self.assertNotIn("auto", names)
        # Positions on M is tried alone only (not in the grids' product).
        only = tune.SINGLE_ONLY_GRIDS["tf32"]
        self.assertNotIn("positions_m",
                         {field for _, field, _ in tune.GRIDS["tf32"]})
        extra = tune.single_points(tune.GRIDS["tf32"] + only, "sm_90a",
                                   quick)
        self.assertEqual([f[0] for f, _ in extra[len(points):]],
                         ["--tile-positions-m=1", "--tile-positions-m=-1"])
        self.assertEqual(extra[len(points)][1]["positions_m"], 1)
        self.assertEqual(extra[len(points)][1]["tile_c"], 0)
        # With the full grid nothing is left out.
        self.assertEqual(tune.single_points(
            tune.GRIDS["tf32"], "sm_90a",
            {field for _, field, _ in tune.GRIDS["tf32"]}), [])

    def test_precision_flags_and_graph(self):
        self.assertEqual(tune.precision_flags("tf32"), ["--precision=tf32"])
        self.assertEqual(tune.precision_flags("bf16"), [])
        self.assertEqual(tune.precision_flags("f16"), [])
        graph = os.path.join(samples.REPO, "examples", "kb1_57.mlir")
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(tune.tuned_graph(graph, "ieee", tmp), graph)
            half = tune.tuned_graph(graph, "f16", tmp)
            self.assertEqual(half, os.path.join(tmp, "graphs",
                                                "kb1_57.f16.mlir"))
            with open(half) as f:
                text = f.read()
            self.assertIn("tensor<8x64x1024x1024xf16>", text)
            self.assertNotIn("f32>", text)


class PinTest(unittest.TestCase):
    """pin_knobs: a recorded entry selects the measured config."""

    def test_positions_on_m_pins_the_tiling_not_the_channels(self):
        config = MMA_CONFIG.replace("tileC = 16", "tileC = 3").replace(
            "rows = 4>", "rows = 4, mmaPositionsM = 1>")
        pinned = tune.pin_knobs({"rows": 0, "ci_chunk": 0}, config)
        self.assertEqual(pinned["positions_m"], 1)
        # tile-c must be a multiple of 16 (checkTunedChoice): not pinned.
        self.assertNotIn("tile_c", pinned)
        self.assertEqual((pinned["rows"], pinned["ci_chunk"],
                          pinned["wgmma"]), (4, 8, -1))

    def test_channels_on_m_pins_the_channel_tile(self):
        pinned = tune.pin_knobs({"rows": 0}, MMA_CONFIG)
        self.assertEqual(pinned["tile_c"], 16)
        self.assertNotIn("positions_m", pinned)


class LookupTest(unittest.TestCase):
    """lookup_applies: an entry under the printed key must change the
    config (else the compiler does not look the kernel up by that key)."""

    def run_check(self, compiled):
        variants = {"auto": {"rows": 0, "ci_chunk": 0, "config": AUTO_CONFIG},
                    "rows0-ci_chunk32": {"rows": 0, "ci_chunk": 32,
                                         "config": WGMMA_CONFIG}}
        seen = []

        def config_of(flags):
            path = flags[0].split("=", 1)[1]
            with open(path) as f:
                seen.append(json.load(f))
            return compiled
        with tempfile.TemporaryDirectory() as tmp:
            ok = tune.lookup_applies("bf16 r4 | cast conv_transpose",
                                     variants, tmp, config_of, "sm_90a")
            self.assertEqual(os.listdir(tmp), [])
        entry = seen[0]["entries"][0]
        self.assertEqual(entry["key"], "bf16 r4 | cast conv_transpose")
        self.assertEqual((entry["ci_chunk"], entry["rows"], entry["wgmma"]),
                         (32, 2, 1))
        return ok

    def test_entry_applied(self):
        self.assertTrue(self.run_check(WGMMA_CONFIG))

    def test_entry_ignored(self):
        self.assertFalse(self.run_check(AUTO_CONFIG))

    def test_single_variant(self):
        self.assertTrue(tune.lookup_applies(
            "k", {"auto": {"config": AUTO_CONFIG}}, "/nonexistent",
            None, "sm_90a"))


class MeasureTest(unittest.TestCase):
    """measure on a fake candidates folder and fake gpu_check reports."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fusecc-tune-")
        self.addCleanup(shutil.rmtree, self.dir)
        self.folder = os.path.join(self.dir, "tune")
        cands = {
            "kb1_57.bf16": {
                "graph": "kb1_57", "precision": "bf16", "storage": "bf16",
                "key": "bf16 r4 n8 | cast cast conv_transpose cast",
                "chip": "sm_90a", "current": "current",
                "variants": {
                    "auto": {"rows": 0, "ci_chunk": 0, "merge_h": 0,
                             "config": AUTO_CONFIG},
                    "rows0-ci_chunk32-merge_h0": {
                        "rows": 0, "ci_chunk": 32, "merge_h": 0,
                        "config": WGMMA_CONFIG},
                    "rows1-ci_chunk0-merge_h0": {
                        "rows": 1, "ci_chunk": 0, "merge_h": 0,
                        "config": WGMMA_CONFIG.replace("rows = 2, ", "")},
                    "current": {"config": AUTO_CONFIG.replace(
                        "tileW = 80", "tileW = 72")}}},
            "kb2_50.f16": {
                "graph": "kb2_50", "precision": "f16", "storage": "f16",
                "key": "tf32 r5 n128 c3x16 | cast conv_transpose cast",
                "chip": "sm_90a", "current": "auto",
                "variants": {
                    "auto": {"rows": 0, "config": MMA_CONFIG},
                    "rows1": {"rows": 1, "config": MMA_CONFIG.replace(
                        ", rows = 4", "")}}},
        }
        for name, cand in cands.items():
            os.makedirs(os.path.join(self.folder, name))
            for vname in cand["variants"]:
                open(os.path.join(self.folder, name, "%s.%s.fcb"
                                  % (vname, cand["precision"])), "w").close()
        with open(os.path.join(self.folder, "candidates.json"), "w") as f:
            json.dump(cands, f)
        # The shipped file: a tf32 entry (kept), a stale bf16 entry of the
        # kernel tuned here (replaced), its base.
        self.keep = os.path.join(self.dir, "h200.json")
        with open(self.keep, "w") as f:
            json.dump({"base": "h100.json", "entries": [
                {"key": "tf32 r4 n8 | conv_transpose", "rows": 2},
                {"key": "bf16 r4 n8 | cast cast conv_transpose cast",
                 "rows": 4}]}, f)
        # Fake times (ms) per bundle, as gpu_check's rows.
        self.times = {
            "kb1_57.bf16__auto": ("PASS", 2.0),
            "kb1_57.bf16__rows0-ci_chunk32-merge_h0": ("PASS", 1.5),
            "kb1_57.bf16__rows1-ci_chunk0-merge_h0": ("FAIL", 1.0),
            "kb1_57.bf16__current": ("PASS", 1.9),
            "kb2_50.f16__auto": ("PASS", 0.40),
            "kb2_50.f16__rows1": ("PASS", 0.395),
        }
        self.calls = []

    def fake_gpu_check(self, lib, folder, check_out, reps, flags):
        self.calls.append((sorted(os.listdir(folder)), list(flags)))
        rows = []
        for name in sorted(os.listdir(folder)):
            status, ms = self.times[name.rsplit(".", 2)[0]]
            if "--time-only" in flags:
                status = "TIMED"
            rows.append({"bundle": name, "status": status, "fusecc_ms": ms})
        return {"environment": {"device": "NVIDIA H200"}, "rows": rows}

    def measure(self, *extra):
        out = os.path.join(self.dir, "out")
        argv = ["measure", self.folder, "--lib", "lib.so", "--out", out,
                "--keep", self.keep] + list(extra)
        with mock.patch.object(sys, "argv", ["tune.py"] + argv), \
                mock.patch.object(tune, "run_gpu_check",
                                  self.fake_gpu_check), \
                mock.patch("sys.stdout"):
            self.assertEqual(tune.main(), 0)
        with open(os.path.join(out, "tuning.json")) as f:
            return json.load(f)

    def test_entries_written_and_kept(self):
        result = self.measure("--record-all")
        self.assertEqual(result["device"], "NVIDIA H200")
        self.assertEqual(result["base"], "h100.json")
        self.assertEqual(result["chip"], "sm_90a")
        entries = result["entries"]
        # The tf32 entry carried over first; the stale bf16 one replaced.
        self.assertEqual(entries[0], {"key": "tf32 r4 n8 | conv_transpose",
                                      "rows": 2})
        self.assertEqual(len(entries), 3)
        kb1, kb2 = entries[1], entries[2]
        # kb1_57: the failing variant never chosen; 1.5 ms beats today's
        # choice (1.9) by more than the margin: recorded, knobs pinned.
        self.assertEqual(kb1["key"],
                         "bf16 r4 n8 | cast cast conv_transpose cast")
        self.assertEqual(kb1["storage"], "bf16")
        self.assertEqual(kb1["graph"], "kb1_57")
        self.assertEqual(kb1["config"], WGMMA_CONFIG)
        self.assertEqual((kb1["ms"], kb1["cost_model_ms"]), (1.5, 2.0))
        self.assertEqual({k: kb1[k] for k in ("rows", "ci_chunk", "merge_h",
                                              "wgmma", "max_tile_w",
                                              "tile_c", "wgmma_split")},
                         {"rows": 2, "ci_chunk": 32, "merge_h": 1, "wgmma": 1,
                          "max_tile_w": 80, "tile_c": 64, "wgmma_split": 1})
        # kb2_50 (tf32 math on f16 storage): rows1 is within the margin of
        # the cost model's (today's choice): --record-all pins the cost
        # model's config, on mma.sync.
        self.assertEqual(kb2["key"],
                         "tf32 r5 n128 c3x16 | cast conv_transpose cast")
        self.assertEqual(kb2["storage"], "f16")
        self.assertEqual(kb2["config"], MMA_CONFIG)
        self.assertEqual((kb2["rows"], kb2["wgmma"]), (4, -1))

    def test_half_twin_choice_recorded_as_its_own(self):
        # Today's choice of kb1_57 bf16 (its tf32 twin's entry, a config
        # outside the grid) within the margin of the fastest: --record-all
        # pins it as the half kernel's own entry.
        self.times["kb1_57.bf16__current"] = ("PASS", 1.49)
        kb1 = self.measure("--record-all")["entries"][1]
        self.assertEqual(kb1["config"], AUTO_CONFIG.replace("tileW = 80",
                                                            "tileW = 72"))
        self.assertEqual((kb1["rows"], kb1["ci_chunk"], kb1["max_tile_w"],
                          kb1["wgmma"], kb1["storage"]),
                         (2, 16, 72, 1, "bf16"))
        self.assertEqual(kb1["ms"], 1.49)

    def test_without_record_all_only_winners(self):
        entries = self.measure()["entries"]
        self.assertEqual([e["key"].split()[0] for e in entries],
                         ["tf32", "bf16"])

    def test_screening(self):
        self.measure("--screen", "1", "--screen-warm-s", "0.05")
        (screened, flags), (checked, _) = self.calls
        self.assertEqual(len(screened), 6)
        self.assertIn("--time-only", flags)
        self.assertEqual(flags[flags.index("--warm-s") + 1], "0.05")
        # Checked: the cost model's, today's and the fastest screened of
        # each graph (kb1_57's fastest is the failing rows1).
        self.assertEqual(checked, [
            "kb1_57.bf16__auto.bf16.fcb", "kb1_57.bf16__current.bf16.fcb",
            "kb1_57.bf16__rows1-ci_chunk0-merge_h0.bf16.fcb",
            "kb2_50.f16__auto.f16.fcb", "kb2_50.f16__rows1.f16.fcb"])

    def test_only_keeps_the_other_precisions_entries(self):
        entries = self.measure("--only", ".f16", "--record-all")["entries"]
        # kb1_57's bf16 kernel was not measured: its earlier entry stays.
        self.assertEqual([(e["key"].split()[0], e.get("rows"))
                          for e in entries],
                         [("tf32", 2), ("bf16", 4), ("tf32", 4)])


@unittest.skipUnless(os.access(FUSECC, os.X_OK), "no build/bin/fusecc")
class ReportTest(unittest.TestCase):
    """report: the cost model's time over the best passing variant's."""

    def test_config_change(self):
        self.assertEqual(tune.config_change(AUTO_CONFIG, AUTO_CONFIG), "")
        self.assertEqual(tune.config_change(AUTO_CONFIG, WGMMA_CONFIG),
                         "ciChunk 16->32")
        self.assertEqual(
            tune.config_change(WGMMA_CONFIG,
                               WGMMA_CONFIG.replace("mergeHTaps = 1, ", "")),
            "mergeHTaps 1->none")
        self.assertEqual(tune.config_fields(MMA_CONFIG)["types"],
                         "<tf32, storage = bf16, operand = tf32, accumulator"
                         " = f32, statistics = f32>")

    def test_rows_within_and_misses(self):
        cands = {
            "g1.tf32": {"graph": "g1", "precision": "tf32", "variants": {
                "auto": {"config": AUTO_CONFIG},
                "c32": {"config": WGMMA_CONFIG}}},
            "g2.tf32": {"graph": "g2", "precision": "tf32", "variants": {
                "auto": {"config": AUTO_CONFIG},
                "c32": {"config": WGMMA_CONFIG}}},
            "g3.tf32": {"graph": "g3", "precision": "tf32", "variants": {
                "auto": {"config": AUTO_CONFIG}}}}

        def row(name, ms, status="PASS"):
            return {"bundle": name + ".tf32.fcb", "status": status,
                    "fusecc_ms": ms}
        report = {"rows": [
            row("g1.tf32__auto", 1.10), row("g1.tf32__c32", 1.0),
            row("g2.tf32__auto", 1.20), row("g2.tf32__c32", 1.0),
            # A faster variant that failed its check is never the best.
            row("g3.tf32__auto", 1.0), row("g3.tf32__c32", 0.5, "FAIL"),
            row("other.tf32__auto", 1.0)]}
        rows = tune.report_rows(cands, [report], 0.15)
        self.assertEqual([r["name"] for r in rows],
                         ["g1.tf32", "g2.tf32", "g3.tf32"])
        self.assertEqual([r["within"] for r in rows], [True, False, True])
        self.assertAlmostEqual(rows[1]["ratio"], 1.2)
        self.assertEqual(rows[1]["change"], "ciChunk 16->32")
        self.assertEqual((rows[2]["best"], rows[2]["checked"]), ("auto", 1))


class HalfKeyTest(unittest.TestCase):
    """prepare_one on half graphs with the built compiler (a two-point grid):
    the key fusecc looks each kernel up by."""

    def prepare(self, graph, precision):
        args = argparse.Namespace(out=self.out, quick=True, chip="sm_90a",
                                  fusecc=FUSECC, current="", singles=False)
        grid = [("--tile-rows", "rows", [0, 1])]
        import concurrent.futures
        with mock.patch.dict(tune.QUICK_GRIDS, {precision: grid}), \
                mock.patch("sys.stdout"), \
                concurrent.futures.ThreadPoolExecutor(2) as pool:
            return tune.prepare_one(
                os.path.join(samples.REPO, "examples", graph + ".mlir"),
                precision, args, pool)

    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="fusecc-tune-")
        self.addCleanup(shutil.rmtree, self.out)

    def test_half_math_key(self):
        cand = self.prepare("kb1_57", "bf16")
        self.assertTrue(cand["key"].startswith("bf16 r4 n8 c64x64 "))
        self.assertTrue(cand["key"].endswith(
            "| cast cast conv_transpose cast"))
        self.assertEqual(cand["storage"], "bf16")
        self.assertIn("rows1", cand["variants"])
        self.assertTrue(os.path.exists(os.path.join(
            self.out, "kb1_57.bf16", "rows1.bf16.fcb")))

    def test_few_channels_tf32_key(self):
        # kb2_50 (3 input channels) stored in f16 computes in TF32
        # (tensorCoreMath), and is looked up under that math.
        cand = self.prepare("kb2_50", "f16")
        self.assertIsNotNone(cand)
        self.assertTrue(cand["key"].startswith("tf32 r5 n128 c3x16 "))
        self.assertIn("cast", cand["key"])
        self.assertIn("storage = f16", cand["variants"]["auto"]["config"])


if __name__ == "__main__":
    unittest.main()
