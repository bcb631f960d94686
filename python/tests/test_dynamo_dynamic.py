# ===- python/tests/test_dynamo_dynamic.py - Dynamic batch in the backend -=== #
#
# torch.compile(..., dynamic=True) or torch._dynamo.mark_dynamic(x, 0) give
# graphs whose dim 0 is a SymInt: fusecc.dynamo translates it as a dynamic
# batch (`tensor<?x...>`) and compiles one bundle with --max-batch (the
# bound in the cache key) instead of one per batch. Debian's PyTorch 1.13
# has torch.fx but no dynamo with dynamic shapes, so the graphs here are
# symbolic_trace graphs whose shape metadata carries a stand-in SymInt in
# dim 0: the translation, the compiled bundle (format 4) checked at several
# batches by fusecc-check and against the module in float64 through the
# bundle's graph lines, the backend's bound and cache key, and the
# fallback to PyTorch for a batch past the bound.
#
# ===--------------------------------------------------------------------=== #

import copy
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dynamo_support import CHECK, CLI, needs_cli, needs_torch, nn, torch  # noqa: E402,E501

if torch is not None:
    from fusecc import bundle as bundle_format
    from fusecc import reference
    from fusecc.dynamo import driver as backend_layer
    from fusecc.dynamo.translate import (Unsupported, dynamic_batch,
                                         translate_graph)
    from torch.fx.passes.shape_prop import ShapeProp


class SymInt:
    """A stand-in for torch.SymInt: no int() value, a name, a size hint."""

    def __init__(self, name, hint):
        self.name = name
        self.node = type("Node", (), {"hint": hint})()

    def __int__(self):
        raise TypeError("symbolic size %s" % self.name)

    __index__ = __int__

    def __str__(self):
        return self.name


def symbolic_graph(module, x, dim=0):
    """symbolic_trace + ShapeProp on `x`, then dim `dim` of every tensor
    value's shape (all of them follow x here) made a SymInt."""
    gm = torch.fx.symbolic_trace(module)
    ShapeProp(gm).propagate(x)
    sym = SymInt("s0", x.shape[dim])
    for node in gm.graph.nodes:
        tm = node.meta.get("tensor_meta")
        if tm is not None and hasattr(tm, "shape"):
            shape = list(tm.shape)
            shape[dim] = sym
            node.meta["tensor_meta"] = tm._replace(shape=tuple(shape))
    return gm


def decoder():
    torch.manual_seed(3)
    m = nn.Sequential(nn.ConvTranspose2d(8, 4, 4, 2, 1, bias=False),
                      nn.BatchNorm2d(4), nn.ReLU(),
                      nn.ConvTranspose2d(4, 3, 4, 2, 1), nn.Tanh())
    m[1].running_mean.uniform_(-0.5, 0.5)
    m[1].running_var.uniform_(0.5, 1.5)
    return m.eval()


@needs_torch
class Translation(unittest.TestCase):

    def test_symbolic_dim0_is_the_batch(self):
        gm = symbolic_graph(decoder(), torch.randn(2, 8, 3, 3))
        with dynamic_batch():
            tr = translate_graph(gm)
        self.assertIn("%arg0: tensor<?x8x3x3xf32>", tr.text)
        self.assertIn("-> tensor<?x3x12x12xf32>", tr.text)
        self.assertIn("%arg1: tensor<8x4x4x4xf32>", tr.text)  # weights static
        self.assertTrue(tr.dynamic)
        self.assertEqual(tr.batch_arg, 0)
        self.assertEqual(tr.outputs, [((None, 3, 12, 12), "float32")])

    def test_static_outside_the_context(self):
        gm = symbolic_graph(decoder(), torch.randn(2, 8, 3, 3))
        with self.assertRaisesRegex(Unsupported, "a dynamic size \\(s0\\): "
                                    "fusecc bundles have static shapes"):
            translate_graph(gm)

    def test_other_dims_stay_unsupported(self):
        gm = symbolic_graph(decoder(), torch.randn(2, 8, 3, 3), dim=2)
        with dynamic_batch(), self.assertRaisesRegex(
                Unsupported, "a dynamic size \\(s0\\) in dim 2: only dim 0, "
                "the batch, may be dynamic"):
            translate_graph(gm)


@needs_torch
@needs_cli
class Compiled(unittest.TestCase):
    """The `?` text compiles with --max-batch into a version-4 bundle that
    the simulator checks at several batches and whose graph is the module
    at any batch."""

    def test_one_bundle_every_batch(self):
        m = decoder()
        gm = symbolic_graph(m, torch.randn(2, 8, 3, 3))
        with dynamic_batch():
            tr = translate_graph(gm)
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "g.mlir")
            with open(src, "w") as f:
                f.write(tr.text)
            out = os.path.join(d, "g.fcb")
            run = subprocess.run([CLI, src, "--max-batch=8", "-o", out],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr + tr.text)
            sim = subprocess.run([CHECK, src, "--max-batch=8",
                                  "--batch=1,3"], capture_output=True,
                                 text=True)
            self.assertEqual(sim.returncode, 0, sim.stdout + sim.stderr)
            self.assertIn("[batch=3]: PASS", sim.stdout)
            parsed = bundle_format.read(out)
        entry = parsed.entries[0]
        self.assertEqual(parsed.version, 4)
        self.assertEqual(entry.max_batch, 8)
        graph = reference.entry_graph(parsed, entry)
        values = [None if key[0] == "input" else
                  getattr(key[1], key[2]).detach().double()
                  for key in tr.arg_keys]
        m64 = copy.deepcopy(m).double()
        for batch in (1, 5, 8):
            x = torch.randn(batch, 8, 3, 3, dtype=torch.float64)
            got = graph(*[x if v is None else v for v in values])
            with torch.no_grad():
                expected = m64(x)
            torch.testing.assert_close(got, expected, rtol=1e-6, atol=1e-6)


class FakeCompiler:
    """A `fusecc` stand-in that records its arguments and writes a bundle
    file (a copy of its input: the cache only needs a file)."""

    def __init__(self, directory):
        self.path = os.path.join(directory, "fake-fusecc")
        self.log = os.path.join(directory, "calls.log")
        with open(self.path, "w") as f:
            f.write("#!/bin/sh\necho \"$@\" >> %s\n"
                    "while [ $# -gt 0 ]; do case $1 in -o) cp \"$src\" $2; "
                    "shift;; -*) ;; *) src=$1;; esac; shift; done\n"
                    % self.log)
        os.chmod(self.path, 0o755)

    def calls(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return f.read().splitlines()


@needs_torch
class Backend(unittest.TestCase):

    def compile(self, options, x):
        gm = symbolic_graph(decoder(), x)
        with torch.no_grad():
            return backend_layer.compile_graph(gm, [x], options)

    def test_bound_in_the_command_and_the_key(self):
        x = torch.randn(2, 8, 3, 3)
        with tempfile.TemporaryDirectory() as d:
            cli = FakeCompiler(d)
            options = {"cli": cli.path, "cache_dir": d, "chip": "sm_90a",
                       "precision": "ieee", "load": False}
            self.compile(options, x)
            first = dict(backend_layer.last_report)
            self.assertEqual(len(first["compiled"]), 1, first)
            # Default bound: DEFAULT_MAX_BATCH (the hint, 2, is below it).
            self.assertIn("--max-batch=%d" % backend_layer.DEFAULT_MAX_BATCH,
                          cli.calls()[0])
            with open(first["compiled"][0][1]) as f:
                self.assertIn("tensor<?x8x3x3xf32>", f.read())
            # Compiled once: the same graph and bound come from the cache.
            self.compile(options, x)
            self.assertEqual(len(cli.calls()), 1)
            # Another bound is another bundle.
            self.compile(dict(options, max_batch=16), x)
            self.assertEqual(len(cli.calls()), 2)
            self.assertIn("--max-batch=16", cli.calls()[1])
            self.assertNotEqual(backend_layer.last_report["compiled"][0][1],
                                first["compiled"][0][1])
            # A batch dynamo saw above the default raises the bound.
            big = torch.randn(100, 8, 3, 3)
            self.compile(options, big)
            self.assertIn("--max-batch=200", cli.calls()[-1])

    def test_batch_past_the_bound_runs_in_pytorch(self):
        m = decoder()
        x = torch.randn(2, 8, 3, 3)
        gm = symbolic_graph(m, x)
        with dynamic_batch():
            tr = translate_graph(gm)

        class Entry:
            max_batch = 4

            def __call__(self, *args):
                raise AssertionError("launched past the bound")

        compiled = backend_layer.CompiledSubgraph(tr, [Entry()], gm, "p0")
        wide = torch.randn(6, 8, 3, 3)
        values = [wide if key[0] == "input" else getattr(key[1], key[2])
                  for key in tr.arg_keys]
        backend_layer._warned.clear()
        with self.assertWarnsRegex(backend_layer.FuseccFallbackWarning,
                                   "batch 6 is outside the 1..4"):
            with torch.no_grad():
                out = compiled.launch(values)
        with torch.no_grad():
            torch.testing.assert_close(out[0], m(wide))
        self.assertEqual(compiled.output_shapes(values), [(6, 3, 12, 12)])


if __name__ == "__main__":
    unittest.main()
