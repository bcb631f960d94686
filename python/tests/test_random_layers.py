# ===- python/tests/test_random_layers.py - The random-shape benchmark ---=== #
#
# bench/random_layers.py (issue 37's random-shape set) and
# bench/random_summary.py without a GPU: the set is deterministic per seed,
# has at least COUNT single layers of every family plus generators and
# decoders at batch 1, 16 and 128, sizes single layers into the floor range
# within the byte cap, counts FLOPs like gpu_check.conv_flops, splits
# fit/held-out per family (a model's batches together), and the summary
# counts speedups and floors per family and split.
#
# ===--------------------------------------------------------------------=== #

import collections
import importlib.util
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import samples  # noqa: E402

BENCH = os.path.join(samples.REPO, "bench")
sys.path.insert(0, BENCH)
import chips  # noqa: E402
import random_layers  # noqa: E402
import random_summary  # noqa: E402


class RandomLayers(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.graphs = random_layers.generate(37, 100, False)
        cls.records = [r for _, _, r in cls.graphs]

    def test_deterministic(self):
        again = random_layers.generate(37, 100, False)
        self.assertEqual([t for _, t, _ in again],
                         [t for _, t, _ in self.graphs])
        other = random_layers.generate(38, 100, False)
        self.assertNotEqual([t for _, t, _ in other][:5],
                            [t for _, t, _ in self.graphs][:5])

    def test_families_and_counts(self):
        families = collections.Counter(r["family"] for r in self.records)
        models = ("generator", "decoder2d", "decoder3d")
        self.assertEqual(sum(n for f, n in families.items()
                             if f not in models), 100)
        for family, _ in random_layers.LAYER_FAMILIES:
            self.assertGreater(families[family], 5, family)
        self.assertEqual(families["generator"], 12)
        self.assertEqual(families["decoder2d"] + families["decoder3d"], 12)
        batches = collections.Counter(r["batch"] for r in self.records
                                      if r["family"] in models)
        self.assertEqual(set(batches), {1, 16, 128})

    def test_layers_sized_into_the_floor_range(self):
        low, high = random_layers.FLOOR_RANGE_MS
        layers = [r for r in self.records if r["family"].startswith(
            ("layer", "upscore", "pool_reduce"))]
        for r in layers:
            self.assertLessEqual(r["bytes"], random_layers.MAX_BYTES, r)
            self.assertEqual(r["floor_ms"],
                             chips.floor_ms(r["flops"], r["bytes"]))
        # Growth stops at the extent and byte caps, so a few stay below.
        within = [r for r in layers if r["floor_ms"] >= low * 0.99]
        self.assertGreater(len(within), 0.8 * len(layers))
        # Doubling overshoots the target by at most about 2x (4x where a
        # larger weight tensor dominates).
        self.assertTrue(all(r["floor_ms"] < 4 * high for r in layers))

    def test_shapes_users_have(self):
        text = "\n".join(t for _, t, _ in self.graphs)
        for needle in ("stride = array<i64: 32, 32>", "stride = array<i64: 4",
                       "fuse.batch_norm", "fuse.tanh", "groups = 2 : i64",
                       "x64x64xf32>"):
            self.assertIn(needle, text)
        self.assertTrue(any("layer3d" in n for n, _, _ in self.graphs))
        # Depthwise: groups equal to the channel count.
        self.assertTrue(any(
            "groups = %d : i64" % c in t and "x%dx" % c in t
            for _, t, _ in self.graphs for c in (64, 128, 256)))

    def test_split_per_family_models_together(self):
        by_family = collections.defaultdict(list)
        for r in self.records:
            by_family[r["family"]].append(r["split"])
        for family, splits in by_family.items():
            self.assertLessEqual(abs(splits.count("fit") -
                                     splits.count("held-out")), 3, family)
        models = collections.defaultdict(set)
        for r in self.records:
            if "_gen" in r["name"] or "_dec" in r["name"]:
                models[r["name"].rsplit("_b", 1)[0]].add(r["split"])
        self.assertTrue(all(len(s) == 1 for s in models.values()))

    def test_flops_match_gpu_check(self):
        spec = importlib.util.spec_from_file_location(
            "gpu_check", os.path.join(BENCH, "gpu_check.py"))
        gpu_check = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(gpu_check)
        from fusecc.reference import Graph
        x, w = [2, 6, 5, 7], [6, 4, 16, 3]
        s, p, op, d = [8, 2], [4, 1], [0, 1], [1, 2]
        line = ("%%2 = conv_transpose %%0 %%1 stride=%s padding=%s "
                "output_padding=%s dilation=%s groups=1" % tuple(
                    ",".join(map(str, v)) for v in (s, p, op, d)))
        op_ = Graph([line, "return %2"], 2).ops[0]
        self.assertEqual(gpu_check.conv_flops(op_, x, w),
                         2 * random_layers.transposed_conv_macs(
                             x, w, s, p, op, d))

    def test_small_and_files(self):
        small = random_layers.generate(37, 10, True)
        self.assertEqual(len(small), 10 + 24)
        for name, text, record in small:
            self.assertIn("@%s(" % name, text)
            self.assertLess(record["bytes"], 64 << 20, name)
        with tempfile.TemporaryDirectory() as out:
            sys_argv = sys.argv
            sys.argv = ["random_layers.py", "--count", "3", "--out", out]
            try:
                random_layers.main()
            finally:
                sys.argv = sys_argv
            with open(os.path.join(out, "manifest.json")) as f:
                manifest = json.load(f)
            names = [r["name"] for r in manifest["graphs"]]
            self.assertEqual(len(names), 3 + 24)
            for n in names:
                self.assertTrue(os.path.exists(os.path.join(out,
                                                            n + ".mlir")))


class Summary(unittest.TestCase):

    def test_per_family_and_split(self):
        manifest = {
            "a": {"family": "layer2d", "split": "fit", "floor_ms": 1.0},
            "b": {"family": "layer2d", "split": "held-out", "floor_ms": 1.0},
            "c": {"family": "upscore", "split": "fit", "floor_ms": 1.0},
        }
        rows = [
            {"bundle": "a.tf32.fcb", "precision": "tf32", "status": "PASS",
             "speedup_compile": 2.0, "pct_floor": 50.0},
            {"bundle": "b.tf32.fcb", "precision": "tf32", "status": "PASS",
             "speedup_compile": 0.5, "pct_floor": 10.0},
            {"bundle": "c.tf32.fcb", "precision": "tf32", "status": "FAIL",
             "speedup_compile": 8.0, "pct_floor": 90.0},
            {"bundle": "c.ieee.fcb", "precision": "ieee", "status": "PASS"},
            {"bundle": "other.tf32.fcb", "precision": "tf32"},
        ]
        summary = random_summary.summarize(rows, manifest)
        tf32 = summary["tf32"]["all"]
        self.assertEqual((tf32["graphs"], tf32["passed"], tf32["timed"],
                          tf32["at_least_1x"]), (3, 2, 3, 2))
        self.assertAlmostEqual(tf32["geomean_speedup_compile"], 2.0)
        self.assertEqual(tf32["min_speedup_compile"], 0.5)
        self.assertEqual(tf32["median_pct_floor"], 50.0)
        self.assertEqual(summary["tf32"]["family"]["layer2d"]["graphs"], 2)
        self.assertEqual(summary["tf32"]["split"]["fit"]["at_least_1x"], 2)
        self.assertIsNone(summary["ieee"]["all"]["geomean_speedup_compile"])
        text = random_summary.format_summary(summary)
        self.assertIn("| all | 3 | 2 | 2/3 | 67% | 2.00x | 0.50x | 50% |",
                      text)
        self.assertIn("| all | 1 | 1 | 0/0 | - | - | - | - |", text)
        self.assertIn("| split held-out | 1 | 1 | 0/1 | 0% | 0.50x", text)
        self.assertEqual(rows[0]["family"], "layer2d")

    def test_graph_name(self):
        self.assertEqual(random_summary.graph_name("x/rand1_2_up.tf32.fcb"),
                         "rand1_2_up")
        self.assertEqual(random_summary.graph_name("kb2_5.fcb"), "kb2_5")


if __name__ == "__main__":
    unittest.main()
