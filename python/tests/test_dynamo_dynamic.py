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
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dynamo_support import (  # noqa: E402
    CHECK, CLI, F, needs_cli, needs_torch, nn, torch)

if torch is not None:
    from fusecc import bundle as bundle_format
    from fusecc import reference
    from fusecc.dynamo import driver as backend_layer
    from fusecc.dynamo.translate import (Unsupported, dynamic_batch,
                                         size_symbols, translate_graph)
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


class GuardedSymInt(SymInt):
    """A stand-in whose int() is dynamo's guard: it records the
    specialisation (or refuses it, as dynamo does for a dim the user
    marked dynamic)."""

    guarded = []

    def __init__(self, name, hint, refuse=False, symbols=None):
        super().__init__(name, hint)
        self.refuse = refuse
        # What the size is computed from (dynamo: its sympy expression's
        # free symbols).
        self.node.expr = type("Expr", (), {"free_symbols": frozenset(
            symbols or (name,))})()

    def __int__(self):
        if self.refuse:
            raise RuntimeError("Constraints violated (%s)" % self.name)
        GuardedSymInt.guarded.append(self.name)
        return self.node.hint


# Named as torch's class: the translation reads a SymInt by its text, never
# through int() (which guards).
GuardedSymInt.__name__ = "SymInt"


def all_symbolic_graph(module, x, same=(), refuse=False):
    """symbolic_trace + ShapeProp on `x`, then its sizes symbolic as
    torch.compile(..., dynamic=True) leaves them: the input's dim 0 the
    batch `s0`, its other dims a symbol each (`d<dim>_<size>`; dims in
    `same` share the batch's, as dynamo's duck sizing does for equal
    sizes); later values have the batch, channels from the weights (ints)
    and spatial sizes computed from the input's (`d<dim>_<size>` whose
    free symbol is the input's)."""
    gm = torch.fx.symbolic_trace(module)
    ShapeProp(gm).propagate(x)
    batch = GuardedSymInt("s0", x.shape[0])
    inputs = [batch] + [batch if i in same else GuardedSymInt(
        "d%d_%d" % (i, d), d, refuse) for i, d in enumerate(x.shape) if i]
    for node in gm.graph.nodes:
        tm = node.meta.get("tensor_meta")
        if tm is None or not hasattr(tm, "shape"):
            continue
        if node.op == "placeholder":
            shape = inputs
        else:
            shape = [batch, tm.shape[1]] + [
                GuardedSymInt("d%d_%d" % (i, d), d, refuse,
                              size_symbols(inputs[i]))
                for i, d in enumerate(tm.shape) if i > 1]
        node.meta["tensor_meta"] = tm._replace(shape=tuple(shape))
    return gm


class FakeEntry:
    """The entry of a loaded dynamic-batch bundle, computing with the
    module (the GPU is not needed): counts its launches."""

    max_batch = 64

    def __init__(self, module, batch_arg):
        self.module, self.batch_arg, self.calls = module, batch_arg, 0

    def cached_call(self, values):
        return None  # Never seen: the checked path.

    def __call__(self, *values):
        self.calls += 1
        return self.module(values[self.batch_arg])


class FakeModule:
    """What compile_graph keeps of fusecc.load's Module."""

    def __init__(self, path, entry):
        self.path, self.entry = path, entry

    def __iter__(self):
        return iter([self.entry])


@needs_torch
class Specialised(unittest.TestCase):
    """torch.compile(..., dynamic=True): every size symbolic; the batch
    stays dynamic, the others are taken at their hints and guarded."""


    def compile_one(self, gm, args, expected):
        """Compiles `gm` with the fake compiler (ieee, sm_90a) into one
        bundle whose entry returns `expected`; returns the backend's report
        and the fuse graph it translated."""
        with tempfile.TemporaryDirectory() as d:
            cli = FakeCompiler(d)
            with torch.no_grad(), mock.patch(
                    "fusecc.module.load",
                    side_effect=lambda path: FakeModule(
                        path, FakeEntry(lambda x: expected, 0))):
                backend_layer.compile_graph(gm, args, {
                    "cli": cli.path, "cache_dir": d, "chip": "sm_90a",
                    "precision": "ieee"})
            report = dict(backend_layer.last_report)
            self.assertEqual(len(report["compiled"]), 1, report)
            with open(report["compiled"][0][1]) as f:
                return report, f.read()
    def setUp(self):
        GuardedSymInt.guarded.clear()

    def test_translation_takes_the_hints(self):
        gm = all_symbolic_graph(decoder(), torch.randn(2, 8, 3, 3))
        sizes = []
        with dynamic_batch(specialise=sizes, protected={"s0"}):
            tr = translate_graph(gm)
        self.assertIn("%arg0: tensor<?x8x3x3xf32>", tr.text)
        self.assertIn("-> tensor<?x3x12x12xf32>", tr.text)
        self.assertTrue(tr.dynamic)
        self.assertEqual(tr.arg_shapes[0], (None, 8, 3, 3))
        names = {str(d) for d in sizes}
        self.assertIn("d1_8", names)
        self.assertIn("d2_3", names)
        self.assertNotIn("s0", names)
        self.assertEqual(GuardedSymInt.guarded, [])  # no guard yet

    def test_batch_symbol_elsewhere_is_not_specialised(self):
        # Duck sizing: channels equal to the batch share its symbol.
        gm = all_symbolic_graph(decoder(), torch.randn(8, 8, 3, 3),
                                same=(1,))
        with dynamic_batch(specialise=[], protected={"s0"}), \
                self.assertRaisesRegex(Unsupported, "in dim 1 holds s0, a "
                                       "batch's size or one marked dynamic"):
            translate_graph(gm)

    def compile(self, gm, m, x, d, **extra):
        """compile_graph of `gm` (a graph of `m`) with a fake compiler and
        fusecc.load giving FakeEntries: (gm, compiler, entries)."""
        cli = FakeCompiler(d)
        options = dict({"cli": cli.path, "cache_dir": d, "chip": "sm_90a",
                        "precision": "ieee"}, **extra)
        entries = []

        def load(path):  # (The input is the translation's argument 0.)
            entries.append(FakeEntry(m, 0))
            return FakeModule(path, entries[-1])
        with mock.patch("fusecc.module.load", side_effect=load), \
                torch.no_grad():
            if "inner" in options:  # Through the backend.
                backend_layer.backend(gm, [x], options=options)
                return gm, cli, entries
            out = backend_layer.compile_graph(gm, [x], options)
        return out, cli, entries

    def test_one_bundle_guarded_and_direct(self):
        m = decoder()
        x = torch.randn(2, 8, 3, 3)
        gm = all_symbolic_graph(m, x)
        with tempfile.TemporaryDirectory() as d:
            gm, cli, entries = self.compile(gm, m, x, d)
            report = dict(backend_layer.last_report)
            self.assertEqual(len(report["compiled"]), 1, report)
            self.assertIn("--max-batch=64", cli.calls()[0])
            with open(report["compiled"][0][1]) as f:
                self.assertIn("tensor<?x8x3x3xf32>", f.read())
        # The input's non-batch sizes were guarded, never the batch.
        self.assertIn("d1_8", GuardedSymInt.guarded)
        self.assertIn("d3_3", GuardedSymInt.guarded)
        self.assertIn("d3_12", GuardedSymInt.guarded)
        self.assertNotIn("s0", GuardedSymInt.guarded)
        self.assertIn(("d1_8", 8), report["specialised"]["fused_0"]
                      if "fused_0" in report["specialised"]
                      else next(iter(report["specialised"].values())))
        # Nothing left for PyTorch: the graph runs without the inner
        # backend.
        self.assertTrue(report["direct"])
        with torch.no_grad():
            for batch in (1, 5):
                xb = torch.randn(batch, 8, 3, 3)
                torch.testing.assert_close(gm(xb), m(xb))
            self.assertEqual(entries[0].calls, 2)
            # Sizes other than the hints (dynamo's guard recompiles before
            # such a call): the check runs the partition in PyTorch.
            wide = torch.randn(2, 8, 5, 5)
            backend_layer._warned.clear()
            with self.assertWarnsRegex(backend_layer.FuseccFallbackWarning,
                                       "at these shapes: argument 0 has "
                                       "shape \\[2, 8, 5, 5\\], the bundle "
                                       "was compiled for \\['B', 8, 3, 3\\]"):
                torch.testing.assert_close(gm(wide), m(wide))
            self.assertEqual(entries[0].calls, 2)

    def test_a_backend_asked_for_gets_the_graph(self):
        m = decoder()
        x = torch.randn(2, 8, 3, 3)
        seen = []

        def inner(gm, example_inputs):
            seen.append(gm)
            return gm.forward
        with tempfile.TemporaryDirectory() as d:
            _, _, entries = self.compile(all_symbolic_graph(m, x), m, x, d,
                                         inner=inner)
        self.assertEqual(len(seen), 1)
        self.assertFalse(backend_layer.last_report["direct"])
        with torch.no_grad():
            torch.testing.assert_close(seen[0](x), m(x))
        self.assertEqual(entries[0].calls, 1)

    def test_lifted_buffers_are_no_batch(self):
        # Dynamo's graphs of inlined modules take parameters and buffers as
        # inputs; under dynamic=True a buffer's length is symbolic too: it
        # is specialised, not made the batch.
        class Lifted(nn.Module):
            def forward(self, x, l_self_modules_0_parameters_weight_,
                        l_self_modules_1_buffers_running_mean_,
                        l_self_modules_1_buffers_running_var_):
                y = F.conv_transpose2d(x, l_self_modules_0_parameters_weight_,
                                       stride=2, padding=1)
                return F.relu(F.batch_norm(
                    y, l_self_modules_1_buffers_running_mean_,
                    l_self_modules_1_buffers_running_var_, None, None, False,
                    0.1, 1e-5))
        torch.manual_seed(0)
        args = [torch.randn(2, 8, 3, 3), torch.randn(8, 4, 4, 4),
                torch.randn(4), torch.rand(4) + 0.5]
        gm = torch.fx.symbolic_trace(Lifted())
        ShapeProp(gm).propagate(*args)
        batch, length = GuardedSymInt("s0", 2), GuardedSymInt("s5", 4)
        for node in gm.graph.nodes:
            tm = node.meta.get("tensor_meta")
            if tm is None or node.name.endswith("weight_"):
                continue
            shape = ((length,) if len(tm.shape) == 1 else
                     (batch,) + tuple(tm.shape[1:]))
            node.meta["tensor_meta"] = tm._replace(shape=shape)
        expected = Lifted()(*args)
        report, text = self.compile_one(gm, args, expected)
        self.assertIn("tensor<?x8x3x3xf32>", text)
        self.assertIn("tensor<4xf32>", text)
        self.assertNotIn("tensor<?xf32>", text)
        self.assertEqual(list(report["specialised"].values()),
                         [[("s5", 4)]])
        self.assertEqual(GuardedSymInt.guarded, ["s5"])
        self.assertTrue(report["direct"])

    def test_unspecialised_floats_are_specialised(self):
        # Under dynamic=True dynamo passes a module's float attributes (an
        # eps, a divisor) as 0-d tensors read by `.item()`: SymFloats the
        # ops take. They are taken at their hints and guarded.
        class Floats(nn.Module):
            def forward(self, x, w, mean, var, eps, divisor):
                y = F.conv_transpose2d(x, w, stride=2, padding=1)
                y = F.batch_norm(y, mean, var, None, None, False, 0.1,
                                 eps.item())
                return F.relu(y) / divisor.item()

        class SymFloat(GuardedSymInt):
            def __float__(self):
                GuardedSymInt.guarded.append(self.name)
                return float(self.node.hint)
        torch.manual_seed(0)
        args = [torch.randn(2, 8, 3, 3), torch.randn(8, 4, 4, 4),
                torch.randn(4), torch.rand(4) + 0.5, torch.tensor(1e-5),
                torch.tensor(2.0)]
        gm = torch.fx.symbolic_trace(Floats())
        ShapeProp(gm).propagate(*args)
        batch = GuardedSymInt("s0", 2)
        hints = {"item": ("zuf0", 1e-5), "item_1": ("zuf1", 2.0)}
        for node in gm.graph.nodes:
            if node.name in hints:
                node.meta["example_value"] = SymFloat(*hints[node.name])
                continue
            tm = node.meta.get("tensor_meta")
            if tm is not None and node.name == "x":
                node.meta["tensor_meta"] = tm._replace(
                    shape=(batch,) + tuple(tm.shape[1:]))
            elif tm is not None and len(tm.shape) == 4 and node.name != "w":
                node.meta["tensor_meta"] = tm._replace(
                    shape=(batch,) + tuple(tm.shape[1:]))
        expected = Floats()(*args)
        report, text = self.compile_one(gm, args, expected)
        self.assertIn("tensor<?x8x3x3xf32>", text)
        self.assertIn("1.0e-05", text)
        self.assertEqual(sorted(GuardedSymInt.guarded), ["zuf0", "zuf1"])
        self.assertIn(("zuf0", 1e-5), list(report["specialised"].values())[0])
        with torch.no_grad():
            torch.testing.assert_close(gm(*args), expected)
        # Without the custom op (PyTorch < 2.4) the launch module is called
        # with the partition's inputs, `.item()`s included; with it they
        # feed nothing and are dropped (test_dead_scalars_are_dropped).
        items = [n for n in gm.graph.nodes if n.target == "item"]
        self.assertEqual(len(items), 2)
        self.assertTrue(all(n.users for n in items))

    def test_dead_scalars_are_dropped(self):
        g = torch.fx.Graph()
        x = g.placeholder("x")
        item = g.call_method("item", (g.placeholder("eps"),))
        item.meta["example_value"] = type("SymFloat", (), {})()
        size = g.call_method("size", (x, 1))
        size.meta["example_value"] = 3  # a plain int: kept
        g.output(x)
        gm = torch.fx.GraphModule(nn.Module(), g)
        backend_layer._drop_dead_scalars(gm)
        self.assertEqual([n.target for n in gm.graph.nodes
                          if n.op == "call_method"], ["size"])

    def test_marked_dynamic_dim_stays_in_pytorch(self):
        m = decoder()
        x = torch.randn(2, 8, 3, 3)
        x._dynamo_dynamic_indices = {0, 2}
        gm = all_symbolic_graph(m, x)
        with tempfile.TemporaryDirectory() as d:
            gm, cli, _ = self.compile(gm, m, x, d)
        report = backend_layer.last_report
        self.assertEqual(report["compiled"], [])
        self.assertEqual(cli.calls(), [])
        self.assertTrue(any("holds d2_3" in r
                            for r in report["unsupported"].values()),
                        report["unsupported"])
        self.assertEqual(GuardedSymInt.guarded, [])
        with torch.no_grad():
            torch.testing.assert_close(gm(x), m(x))

    def test_refused_guard_leaves_the_partition_in_pytorch(self):
        m = decoder()
        x = torch.randn(2, 8, 3, 3)
        gm = all_symbolic_graph(m, x, refuse=True)
        backend_layer._warned.clear()
        with tempfile.TemporaryDirectory() as d, \
                self.assertWarnsRegex(backend_layer.FuseccFallbackWarning,
                                      "cannot be specialised: RuntimeError: "
                                      "Constraints violated"):
            gm, _, entries = self.compile(gm, m, x, d)
        self.assertEqual(backend_layer.last_report["compiled"], [])
        self.assertFalse(backend_layer.last_report["direct"])
        with torch.no_grad():
            torch.testing.assert_close(gm(x), m(x))
        self.assertEqual(entries[0].calls, 0)


if __name__ == "__main__":
    unittest.main()
