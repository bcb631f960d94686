# ===- python/tests/test_dynamo.py - The torch.compile backend, no GPU ---=== #
#
# fusecc.dynamo on torch.fx.symbolic_trace graphs (Debian's python3-torch
# has torch.fx but no dynamo): the FX -> fuse translation (the emitted
# MLIR compiled by build/bin/fusecc, the bundle's graph evaluated in
# float64 by fusecc.reference against the PyTorch module, the kernels
# simulated by fusecc-check), the partitioner (unsupported nodes stay in
# PyTorch), the cache key and directory, the fallback warning, training
# mode and torch.compile itself where PyTorch has dynamo and a GPU.
#
# ===--------------------------------------------------------------------=== #

import os
import subprocess
import sys
import tempfile
import shutil
import unittest
import warnings
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dynamo_support import (  # noqa: E402
    CLI, F, REPO, arg_values, compiled_graph, needs_cli, needs_torch,
    nn, prepare, torch)

if torch is not None:
    import fusecc
    from fusecc import bundle as bundle_format
    from fusecc.dynamo import driver as backend_layer
    from fusecc.dynamo import cache
    from fusecc.dynamo.partition import partition_graph
    from fusecc.dynamo.translate import (Unsupported, tensor_meta,
                                         translate_graph)
    from torch.fx.passes.shape_prop import ShapeProp

    class FunctionalHead(nn.Module):
        """F.* calls, a get_attr weight, scalars, a method, a view."""

        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(6, 5, 3, 3) * 0.2)
            self.g = nn.Parameter(torch.rand(5) + 0.5)
            self.b = nn.Parameter(torch.randn(5))

        def forward(self, x):
            y = F.conv_transpose2d(x, self.w, stride=2, padding=1,
                                   output_padding=1)
            y = F.group_norm(y, 5, self.g, self.b, eps=1e-5)
            y = F.leaky_relu(y * 2.0 + 0.5, 0.2)
            y = F.max_pool2d(y, 2)
            return torch.log_softmax(y.flatten(2), dim=-1)

    class Volume(nn.Module):
        """3-D: ConvTranspose3d + InstanceNorm3d + GELU (tanh) + clamp +
        a mean over the spatial dims."""

        def __init__(self):
            super().__init__()
            self.up = nn.ConvTranspose3d(4, 3, 2, 2)
            self.norm = nn.InstanceNorm3d(3, affine=True)

        def forward(self, x):
            y = F.gelu(self.norm(self.up(x)), approximate="tanh")
            return torch.clamp(y, -0.5, 1.0).mean(dim=(2, 3, 4),
                                                  keepdim=True)

    class TorchLevel(nn.Module):
        """The functions dynamo records for F.* calls (torch.batch_norm,
        torch.group_norm, torch._C._nn.*) and an in-place activation."""

        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(3, 4, 2, 2) * 0.3)
            self.register_buffer("rm", torch.rand(4) - 0.5)
            self.register_buffer("rv", torch.rand(4) + 0.5)
            self.g = nn.Parameter(torch.rand(4) + 0.5)

        def forward(self, x):
            y = torch.conv_transpose2d(x, self.w, None, 2)
            y = torch.batch_norm(y, self.g, None, self.rm, self.rv, False,
                                 0.1, 1e-3, True)
            y = F.relu(y, inplace=True)
            y = torch.group_norm(y, 2, self.g, None, 1e-5, True)
            return torch._C._nn.gelu(y)

    class Cropped(nn.Module):
        """Slices of transposed convolutions: an end crop (SAME_UPPER's
        pads at stride 1 with an even kernel), crops at both ends, and
        one through an Ellipsis."""

        def __init__(self):
            super().__init__()
            self.a = nn.ConvTranspose2d(3, 4, 4, 1)
            self.b = nn.ConvTranspose2d(4, 2, 3, 2, 1, 1)

        def forward(self, x):
            y = torch.relu(self.a(x)[:, :, 1:-2, 1:-2])
            return self.b(y)[..., 2:, :-3]

    class Split(nn.Module):
        """Two fusecc partitions around an op fusecc lacks (torch.floor),
        and an elementwise tail without a convolution."""

        def __init__(self):
            super().__init__()
            self.a = nn.Sequential(nn.ConvTranspose2d(4, 4, 4, 2, 1),
                                   nn.BatchNorm2d(4), nn.ReLU())
            self.b = nn.ConvTranspose2d(4, 2, 3, 1, 1)

        def forward(self, x):
            y = torch.floor(self.a(x) * 4.0)
            y = torch.sigmoid(self.b(y))
            return torch.cumsum(y, 1).relu()




@needs_torch
class Translation(unittest.TestCase):
    """FX graphs of small modules to fuse MLIR text."""

    def setUp(self):
        torch.manual_seed(0)

    def whole(self, module, *inputs):
        gm = prepare(module, *inputs)
        return translate_graph(gm)

    def test_sequential_layers(self):
        m = nn.Sequential(nn.ConvTranspose2d(8, 4, 4, 2, 1, bias=False),
                          nn.BatchNorm2d(4), nn.ReLU(),
                          nn.ConvTranspose2d(4, 3, 3, 1, 1), nn.Tanh()).eval()
        tr = self.whole(m, torch.randn(2, 8, 5, 5))
        text = tr.text
        self.assertIn("-> tensor<2x3x10x10xf32>", text)
        for op in ("fuse.conv_transpose", "fuse.batch_norm", "fuse.relu",
                   "fuse.tanh"):
            self.assertIn(op, text)
        self.assertIn("stride = array<i64: 2, 2>, padding = array<i64: 1, 1>",
                      text)
        # Arguments in first-use order: x, weight, BN's four, then conv 2.
        self.assertEqual(tr.arg_keys[0], ("input", 0))
        self.assertEqual([k[2] for k in tr.arg_keys[1:]],
                         ["weight", "running_mean", "running_var", "weight",
                          "bias", "weight", "bias"])
        self.assertTrue(tr.single_output)

    def test_text_independent_of_node_names(self):
        def build():
            torch.manual_seed(1)
            return nn.Sequential(nn.ConvTranspose2d(3, 2, 2, 2),
                                 nn.SiLU()).eval()
        x = torch.randn(1, 3, 4, 4)
        a = self.whole(build(), x).text
        gm = prepare(build(), x)
        for node in gm.graph.nodes:
            node.name = "renamed_" + node.name
        self.assertEqual(a, translate_graph(gm).text)

    def test_text_independent_of_branch_order(self):
        # Two independent branches (main path and shortcut): any
        # topological order of the node list gives the same text.
        class Residual(nn.Module):
            def __init__(self):
                super().__init__()
                self.main = nn.Sequential(nn.ConvTranspose2d(3, 2, 2, 2),
                                          nn.ReLU())
                self.shortcut = nn.ConvTranspose2d(3, 2, 2, 2)

            def forward(self, x):
                return self.main(x) + self.shortcut(x)
        m = Residual().eval()
        x = torch.randn(1, 3, 2, 2)
        a = self.whole(m, x).text
        gm = torch.fx.symbolic_trace(m)
        nodes = list(gm.graph.nodes)
        shortcut = next(n for n in nodes if n.target == "shortcut")
        nodes[0].append(shortcut)  # now right after the placeholder
        gm.recompile()
        self.assertNotEqual([n.name for n in gm.graph.nodes],
                            [n.name for n in nodes])
        ShapeProp(gm).propagate(x)
        self.assertEqual(a, translate_graph(gm).text)

    def test_functional_and_methods(self):
        tr = self.whole(FunctionalHead(), torch.randn(2, 6, 4, 4))
        text = tr.text
        for piece in ("output_padding = array<i64: 1, 1>",
                      "fuse.group_norm", "num_groups = 5 : i64",
                      "arith.constant dense<2.0> : tensor<f32>",
                      "fuse.leaky_relu", "slope = 0.2 : f64",
                      "fuse.max_pool", "kernel_size = array<i64: 2, 2>",
                      "fuse.reshape", "fuse.log_softmax", "dim = 2 : i64"):
            self.assertIn(piece, text)
        self.assertEqual(tr.arg_keys[0], ("input", 0))
        self.assertEqual(tr.arg_keys[1][0], "attr")

    def test_unsupported_names_the_node(self):
        m = nn.Sequential(nn.ConvTranspose2d(2, 2, 2, 2), nn.ELU())
        with self.assertRaisesRegex(Unsupported, "ELU is not supported"):
            self.whole(m, torch.randn(1, 2, 3, 3))

    def test_training_batch_norm_is_unsupported(self):
        m = nn.Sequential(nn.ConvTranspose2d(2, 2, 2, 2),
                          nn.BatchNorm2d(2)).train()
        with self.assertRaisesRegex(Unsupported, "training mode.*eval"):
            self.whole(m, torch.randn(2, 2, 3, 3))

    def test_integer_dtype_is_unsupported(self):
        class M(nn.Module):
            def forward(self, x):
                return torch.relu(x)
        with self.assertRaisesRegex(Unsupported, "dtype int64"):
            self.whole(M(), torch.ones(2, 3, dtype=torch.int64))

    def test_inplace_activation(self):
        # On a tensor only the activation reads: the same as out of place.
        m = nn.Sequential(nn.ConvTranspose2d(2, 2, 2, 2), nn.ReLU(True))
        self.assertIn("fuse.relu", self.whole(m, torch.randn(1, 2, 2, 2)).text)

        class OnInput(nn.Module):
            def forward(self, x):
                return F.relu(x, inplace=True)
        with self.assertRaisesRegex(Unsupported, "inplace=True on a tensor"):
            self.whole(OnInput(), torch.randn(2, 3))

        class Methods(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = nn.ConvTranspose2d(2, 2, 2, 2)

            def forward(self, x):
                y = torch.relu_(self.up(x))
                y += 1.0
                return y.sigmoid_()
        text = self.whole(Methods(), torch.randn(1, 2, 2, 2)).text
        for op in ("fuse.relu", "fuse.add", "fuse.sigmoid"):
            self.assertIn(op, text)

    def test_slices_of_conv_transpose(self):
        # The crop goes into the op: padding (begin) and a signed
        # output_padding (end); no slice is left to compute.
        text = self.whole(Cropped(), torch.randn(1, 3, 5, 5)).text
        self.assertIn("padding = array<i64: 1, 1>, output_padding = "
                      "array<i64: -1, -1>", text)
        self.assertIn("padding = array<i64: 3, 1>, output_padding = "
                      "array<i64: 3, -2>", text)

        class Shared(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = nn.ConvTranspose2d(2, 2, 2, 2)

            def forward(self, x):
                y = self.up(x)
                return y[:, :, 1:] + y[:, :, :-1]
        with self.assertRaisesRegex(Unsupported, "nothing else reads"):
            self.whole(Shared(), torch.randn(1, 2, 3, 3))

        class Channels(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = nn.ConvTranspose2d(2, 4, 2, 2)

            def forward(self, x):
                return self.up(x)[:, 1:]
        with self.assertRaisesRegex(Unsupported, "batch or channel"):
            self.whole(Channels(), torch.randn(1, 2, 3, 3))

    def test_aten_graph(self):
        from torch.fx.experimental.proxy_tensor import make_fx
        m = nn.Sequential(nn.ConvTranspose2d(4, 2, 4, 2, 1),
                          nn.BatchNorm2d(2), nn.ReLU(), nn.Softmax(1)).eval()
        x = torch.randn(1, 4, 3, 3)
        with torch.no_grad():
            gm = make_fx(m)(x)
        ShapeProp(gm).propagate(x)
        backend_layer._drop_unused_getitems(gm)
        gm, names = partition_graph(gm, False)
        self.assertEqual(len(names), 1)
        call = next(n for n in gm.graph.nodes if n.target == names[0])
        text = translate_graph(getattr(gm, names[0]),
                               [tensor_meta(a) for a in call.args]).text
        for op in ("fuse.conv_transpose", "fuse.batch_norm", "fuse.relu",
                   "fuse.softmax"):
            self.assertIn(op, text)

    def test_aten_slices_of_conv_transpose(self):
        # make_fx records the slices as aten.slice chains (full slices of
        # the batch and channel dims first): one partition, the crops in
        # the convolutions.
        from torch.fx.experimental.proxy_tensor import make_fx
        x = torch.randn(1, 3, 5, 5)
        with torch.no_grad():
            gm = make_fx(Cropped().eval())(x)
        ShapeProp(gm).propagate(x)
        reasons = {}
        gm, names = partition_graph(gm, False, reasons)
        self.assertEqual((len(names), reasons), (1, {}))
        call = next(n for n in gm.graph.nodes if n.target == names[0])
        text = translate_graph(getattr(gm, names[0]),
                               [tensor_meta(a) for a in call.args]).text
        self.assertIn("padding = array<i64: 3, 1>, output_padding = "
                      "array<i64: 3, -2>", text)
        self.assertEqual(text.count("fuse."), 3)

    def test_float_literals_parse_back(self):
        from fusecc.dynamo.translate import format_float
        self.assertEqual(format_float(1e-05), "1.0e-05")
        self.assertEqual(format_float(2), "2.0")
        self.assertEqual(float(format_float(0.1)), 0.1)
        with self.assertRaises(Unsupported):
            format_float(float("inf"))


@needs_torch
@needs_cli
class CompiledTranslation(unittest.TestCase):
    """The emitted MLIR compiles, the bundle's graph (fusecc.reference,
    float64) matches the PyTorch module, and fusecc-check's simulator
    matches the reference."""

    def check(self, module, *inputs):
        torch.manual_seed(2)
        module = module.eval()
        tr = translate_graph(prepare(module, *inputs))
        graph = compiled_graph(self, tr.text)
        got = graph(*[v.detach().double()
                      for v in arg_values(tr, list(inputs))])
        expected = module.double()(*[x.double() for x in inputs])
        self.assertEqual(tuple(got.shape), tuple(expected.shape))
        # The reference rounds scalar attributes (slopes, eps) to float32,
        # as the kernels see them: 1e-6, not float64's rounding.
        torch.testing.assert_close(got, expected.detach(), rtol=1e-6,
                                   atol=1e-6)

    def test_dcgan_block(self):
        m = nn.Sequential(nn.ConvTranspose2d(8, 4, 4, 2, 1, bias=False),
                          nn.BatchNorm2d(4), nn.ReLU(),
                          nn.ConvTranspose2d(4, 3, 4, 2, 1), nn.Tanh())
        bn = m[1]
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 1.5)
        self.check(m, torch.randn(2, 8, 3, 3))

    def test_functional_head(self):
        self.check(FunctionalHead(), torch.randn(2, 6, 4, 4))

    def test_volume(self):
        self.check(Volume(), torch.randn(2, 4, 2, 3, 2))

    def test_torch_level_functions(self):
        self.check(TorchLevel(), torch.randn(2, 3, 3, 3))

    def test_cropped_conv_transpose(self):
        self.check(Cropped(), torch.randn(2, 3, 5, 5))

    def test_vae_block(self):
        m = nn.Sequential(nn.ConvTranspose2d(4, 8, 4, 2, 1),
                          nn.GroupNorm(4, 8), nn.SiLU(),
                          nn.ConvTranspose2d(8, 3, 3, 1, 1), nn.Sigmoid())
        self.check(m, torch.randn(1, 4, 3, 3))


@needs_torch
class Partitioning(unittest.TestCase):
    """Supported stretches with a transposed convolution become fusecc
    submodules; everything else stays in the parent graph."""

    def test_unsupported_nodes_stay(self):
        m = Split().eval()
        x = torch.randn(1, 4, 3, 3)
        gm = prepare(m, x)
        reasons = {}
        gm, names = partition_graph(gm, False, reasons)
        self.assertEqual(len(names), 2)
        parent = [n.target for n in gm.graph.nodes if n.op.startswith("call")]
        self.assertIn(torch.floor, parent)
        self.assertIn(torch.cumsum, parent)
        # The relu after cumsum has no convolution: left to PyTorch.
        self.assertIn("relu", parent)
        self.assertIn("floor", reasons)
        self.assertIn("torch.floor is not supported", reasons["floor"])
        for name in names:
            sub = getattr(gm, name)
            kinds = [n for n in sub.graph.nodes if n.op.startswith("call")]
            self.assertTrue(kinds)
        torch.testing.assert_close(gm(x), m(x))

    def test_grad_mode_leaves_trainable_layers(self):
        m = nn.Sequential(nn.ConvTranspose2d(2, 2, 2, 2), nn.ReLU())
        gm = prepare(m, torch.randn(1, 2, 3, 3))
        reasons = {}
        _, names = partition_graph(gm, True, reasons)
        self.assertEqual(names, [])
        self.assertIn("torch.no_grad", " ".join(reasons.values()))

    def test_no_convolution_no_partition(self):
        m = nn.Sequential(nn.ReLU(), nn.Tanh())
        gm = prepare(m, torch.randn(2, 3))
        _, names = partition_graph(gm, False)
        self.assertEqual(names, [])


@needs_torch
class ExampleModels(unittest.TestCase):
    """examples/models/: what the backend gives fusecc and what it leaves
    to PyTorch (on symbolic_trace graphs; bench/models_check.py runs them
    through torch.compile on the GPU machine)."""

    EXPECTED = {  # model -> (partitions, ops left in PyTorch)
        "dcgan_generator": (1, set()),
        "heatmap_head": (1, set()),
        "odd_decoder": (1, set()),
        "residual_decoder": (1, set()),
        "unet_decoder": (1, set()),
        "vae_decoder": (1, set()),
    }
    DECODER_OPS = {  # issue 36's ops each model holds
        "heatmap_head": ("fuse.conv ",),
        "unet_decoder": ("fuse.concat",),
        "vae_decoder": ("fuse.conv ", "fuse.upsample"),
    }

    def test_partitions(self):
        import importlib.util
        from fusecc.dynamo.ops import describe
        directory = os.path.join(REPO, "examples", "models")
        for name, (count, left) in self.EXPECTED.items():
            with self.subTest(name):
                spec = importlib.util.spec_from_file_location(
                    "example_" + name, os.path.join(directory, name + ".py"))
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                torch.manual_seed(0)
                m = module.build().eval()
                # Batch 1: the partitions do not depend on it.
                inputs = [torch.randn((1,) + tuple(s[1:]))
                          for s in module.INPUTS]
                with torch.no_grad():
                    gm, names = partition_graph(prepare(m, *inputs))
                self.assertEqual(len(names), count)
                outside = {describe(gm, n) for n in gm.graph.nodes
                           if n.op.startswith("call") and n.target not in
                           names and n.op != "get_attr"}
                self.assertEqual(outside, left)
                for part in names:
                    call = next(n for n in gm.graph.nodes
                                if n.target == part)
                    tr = translate_graph(getattr(gm, part),
                                         [tensor_meta(a) for a in call.args])
                    self.assertIn("fuse.conv_transpose", tr.text)
                    for op in self.DECODER_OPS.get(name, ()):
                        self.assertIn(op, tr.text)
                    self.plans(tr.text)

    def plans(self, text):
        """Where the compiler is built: the whole subgraph is planned."""
        if not os.access(CLI, os.X_OK):
            return
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "g.mlir")
            with open(src, "w") as f:
                f.write(text)
            run = subprocess.run([CLI, src, "--emit=plan", "--chip=sm_90a",
                                  "--precision=tf32"], capture_output=True,
                                 text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("plan @graph:", run.stdout)


class FakeCompiler:
    """A `fusecc` stand-in script: fails with a message, or writes a
    non-empty file; counts its calls in a file."""

    def __init__(self, directory, fail=None):
        self.path = os.path.join(directory, "fusecc")
        self.count_file = os.path.join(directory, "calls")
        body = ["#!%s" % sys.executable, "import sys",
                "open(%r, 'a').write('x')" % self.count_file]
        if fail:
            body += ["sys.stderr.write(%r)" % fail, "sys.exit(1)"]
        else:
            body += ["out = sys.argv[sys.argv.index('-o') + 1]",
                     "open(out, 'w').write('bundle')"]
        with open(self.path, "w") as f:
            f.write("\n".join(body) + "\n")
        os.chmod(self.path, 0o755)

    @property
    def calls(self):
        if not os.path.exists(self.count_file):
            return 0
        with open(self.count_file) as f:
            return len(f.read())


@needs_torch
class Cache(unittest.TestCase):
    def test_key_covers_every_input(self):
        base = cache.cache_key("g", "tf32", "sm_90a", (), "c1")
        self.assertEqual(base,
                         cache.cache_key("g", "tf32", "sm_90a", (), "c1"))
        for other in (cache.cache_key("h", "tf32", "sm_90a", (), "c1"),
                      cache.cache_key("g", "ieee", "sm_90a", (), "c1"),
                      cache.cache_key("g", "tf32", "sm_90", (), "c1"),
                      cache.cache_key("g", "tf32", "sm_90a", ("-x",), "c1"),
                      cache.cache_key("g", "tf32", "sm_90a", (), "c2")):
            self.assertNotEqual(base, other)

    def test_directory_from_environment(self):
        old = os.environ.get("FUSECC_CACHE_DIR")
        try:
            os.environ["FUSECC_CACHE_DIR"] = "/tmp/somewhere"
            self.assertEqual(cache.cache_dir(), "/tmp/somewhere")
            del os.environ["FUSECC_CACHE_DIR"]
            self.assertTrue(cache.cache_dir().endswith("fusecc"))
        finally:
            if old is not None:
                os.environ["FUSECC_CACHE_DIR"] = old

    def test_compiled_once_then_cached(self):
        with tempfile.TemporaryDirectory() as d:
            cli = FakeCompiler(d)
            a = cache.compiled_bundle("g1", "tf32", "sm_90a", cli=cli.path,
                                      directory=d)
            b = cache.compiled_bundle("g1", "tf32", "sm_90a", cli=cli.path,
                                      directory=d)
            self.assertEqual(a, b)
            self.assertEqual(cli.calls, 1)
            cache.compiled_bundle("g1", "ieee", "sm_90a", cli=cli.path,
                                  directory=d)
            self.assertEqual(cli.calls, 2)
            self.assertTrue(os.path.exists(a[:-4] + ".mlir"))

    def test_key_holds_the_tuning_files_not_their_path(self):
        # The same tuning files in two places (two checkouts), in any
        # spelling of --tuning: one bundle; other contents: another.
        with tempfile.TemporaryDirectory() as d:
            cli = FakeCompiler(d)
            first, second = os.path.join(d, "t1"), os.path.join(d, "t2")
            os.mkdir(first)
            with open(os.path.join(first, "h200.json"), "w") as f:
                f.write('{"entries": []}')
            shutil.copytree(first, second)
            a = cache.compiled_bundle("g", "tf32", "sm_90a",
                                      ("--tuning=" + first,), cli.path, d)
            b = cache.compiled_bundle("g", "tf32", "sm_90a",
                                      ("--tuning", second), cli.path, d)
            self.assertEqual(a, b)
            self.assertEqual(cli.calls, 1)
            with open(os.path.join(second, "h200.json"), "w") as f:
                f.write('{"entries": [{"key": "k"}]}')
            c = cache.compiled_bundle("g", "tf32", "sm_90a",
                                      ("--tuning", second), cli.path, d)
            self.assertNotEqual(a, c)
            self.assertEqual(cli.calls, 2)

    def test_cache_filled_elsewhere(self):
        # A machine without the compiler finds the bundles another one
        # compiled: by its compiler's id and its tuning's digest, whatever
        # tuning files this machine has.
        from fusecc import compiler as compiler_layer
        with tempfile.TemporaryDirectory() as d:
            cli = FakeCompiler(d)
            there, here = os.path.join(d, "there"), os.path.join(d, "here")
            for path, text in ((there, "[]"), (here, "[1]")):
                os.mkdir(path)
                with open(os.path.join(path, "h200.json"), "w") as f:
                    f.write('{"entries": %s}' % text)
            with mock.patch.dict(os.environ, {"FUSECC_TUNING": there}):
                filled = cache.compiled_bundle("g", "tf32", "sm_90a",
                                               cli=cli.path, directory=d)
            digest = compiler_layer.tuning_digest(["--tuning=" + there])
            missing = compiler_layer.CompileError("no compiler")
            env = {"FUSECC_TUNING": here,
                   "FUSECC_COMPILER_ID": cache.compiler_id(cli.path)}
            with mock.patch.object(compiler_layer, "find_cli",
                                   side_effect=missing):
                with mock.patch.dict(os.environ, env):
                    os.environ.pop("FUSECC_TUNING_DIGEST", None)
                    # This machine's tuning differs: a miss that says why.
                    with self.assertRaisesRegex(
                            compiler_layer.CompileError,
                            "tuning [0-9a-f]{12}.*FUSECC_TUNING_DIGEST"):
                        cache.compiled_bundle("g", "tf32", "sm_90a",
                                              directory=d)
                    os.environ["FUSECC_TUNING_DIGEST"] = digest
                    self.assertEqual(
                        cache.compiled_bundle("g", "tf32", "sm_90a",
                                              directory=d), filled)
            self.assertEqual(cli.calls, 1)

    def test_rejection_cached_with_its_message(self):
        with tempfile.TemporaryDirectory() as d:
            cli = FakeCompiler(d, fail="g.mlir:3: error: nope\n")
            for _ in range(2):
                with self.assertRaisesRegex(cache.CompileFailed, "nope"):
                    cache.compiled_bundle("g", "tf32", "sm_90a",
                                          cli=cli.path, directory=d)
            self.assertEqual(cli.calls, 1)


@needs_torch
class Fallback(unittest.TestCase):
    """compile_graph: a subgraph the compiler rejects runs in PyTorch with
    one warning naming the reason."""

    def test_one_warning_and_correct_results(self):
        m = Split().eval()
        x = torch.randn(1, 4, 3, 3)
        expected = m(x)
        with tempfile.TemporaryDirectory() as d:
            cli = FakeCompiler(d, fail="error: something unsupported\n")
            options = {"cli": cli.path, "cache_dir": d, "chip": "sm_90a",
                       "precision": "ieee"}
            backend_layer._warned.clear()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                for _ in range(2):
                    with torch.no_grad():
                        gm = backend_layer.compile_graph(prepare(m, x), [x],
                                                         options)
                        torch.testing.assert_close(gm(x), expected)
            mine = [w for w in caught
                    if issubclass(w.category,
                                  backend_layer.FuseccFallbackWarning)]
            # Two partitions, one message each, not repeated on the second
            # compilation.
            self.assertEqual(len(mine), 2)
            for w in mine:
                self.assertIn("something unsupported", str(w.message))
                self.assertIn("runs in PyTorch", str(w.message))
            self.assertEqual(len(backend_layer.last_report["fallbacks"]), 2)

    def test_training_warns_once(self):
        m = nn.Sequential(nn.ConvTranspose2d(2, 2, 2, 2), nn.BatchNorm2d(2),
                          nn.ReLU()).train()
        x = torch.randn(2, 2, 3, 3)
        backend_layer._warned.clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            gm = backend_layer.compile_graph(prepare(m, x), [x],
                                             {"chip": "sm_90a"})
        texts = [str(w.message) for w in caught]
        self.assertTrue(any("torch.no_grad()" in t for t in texts), texts)
        self.assertEqual(backend_layer.last_report["compiled"], [])
        self.assertEqual(backend_layer.last_report["left_in_pytorch"], 3)
        # PyTorch still runs it, training included.
        torch.testing.assert_close(gm(x), m(x))

    def test_dynamo_placeholder_attributes_survive(self):
        # AOT autograd asserts that every placeholder of a dynamo graph has
        # `_dynamo_source`; the partitioner copies nodes without it.
        m = Split().eval()
        x = torch.randn(1, 4, 3, 3)
        gm = prepare(m, x)
        for node in gm.graph.nodes:
            if node.op == "placeholder":
                node._dynamo_source = "source of " + node.name
        with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cli = FakeCompiler(d, fail="error: no\n")
            with torch.no_grad():
                gm = backend_layer.compile_graph(
                    gm, [x], {"cli": cli.path, "cache_dir": d,
                              "chip": "sm_90a", "precision": "ieee"})
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        self.assertTrue(placeholders)
        for node in placeholders:
            self.assertEqual(node._dynamo_source, "source of " + node.name)

    def test_unknown_option(self):
        m = nn.Sequential(nn.ConvTranspose2d(2, 2, 2, 2))
        x = torch.randn(1, 2, 2, 2)
        with self.assertRaisesRegex(ValueError, "unknown option"):
            backend_layer.compile_graph(prepare(m, x), [x], {"speed": 1})

    def test_load_options_reach_every_load(self):
        """fusecc.load's options (fusecc/options.py) are the backend's,
        declared once: frozen_weights reaches the load of each subgraph."""
        from fusecc import module as module_layer
        from fusecc.options import DEFAULTS
        for name, default in DEFAULTS.items():
            self.assertIn(name, backend_layer.DEFAULT_OPTIONS)
            self.assertEqual(backend_layer.DEFAULT_OPTIONS[name], default)
        m = nn.Sequential(nn.ConvTranspose2d(2, 2, 2, 2)).eval()
        x = torch.randn(1, 2, 2, 2)
        seen = []

        def load(path, **options):
            seen.append(options)
            raise fusecc.FuseccError("not loaded here")
        with tempfile.TemporaryDirectory() as d, warnings.catch_warnings(), \
                mock.patch.object(module_layer, "load", load):
            warnings.simplefilter("ignore")
            cli = FakeCompiler(d)
            with torch.no_grad():
                backend_layer.compile_graph(prepare(m, x), [x], {
                    "cli": cli.path, "cache_dir": d, "chip": "sm_90a",
                    "precision": "ieee", "frozen_weights": True})
        self.assertEqual(seen, [{"frozen_weights": True}])

    @needs_cli
    def test_compile_only_fills_the_cache(self):
        m = nn.Sequential(nn.ConvTranspose2d(4, 2, 4, 2, 1),
                          nn.ReLU()).eval()
        x = torch.randn(1, 4, 3, 3)
        with tempfile.TemporaryDirectory() as d:
            options = {"cache_dir": d, "chip": "sm_90a", "precision": "tf32",
                       "load": False, "cli": CLI}
            with torch.no_grad():
                backend_layer.compile_graph(prepare(m, x), [x], options)
            report = backend_layer.last_report
            self.assertEqual(len(report["compiled"]), 1)
            path = report["compiled"][0][1]
            entry = bundle_format.read(path).entries[0]
            self.assertEqual([a.shape for a in entry.inputs],
                             [(1, 4, 3, 3), (4, 2, 4, 4), (2,)])
            stamp = os.stat(path).st_mtime_ns
            with torch.no_grad():
                backend_layer.compile_graph(prepare(m, x), [x], options)
            self.assertEqual(os.stat(path).st_mtime_ns, stamp)


@needs_torch
class Direct(unittest.TestCase):
    """A graph that is all fusecc's calls run_direct in place of the
    custom op and skips the inner backend (docs/perf.md 170)."""

    @staticmethod
    def graph(op, extra=False):
        import operator
        g = torch.fx.Graph()
        x = g.placeholder("x")
        y = g.call_function(operator.getitem,
                            (g.call_function(op, ("k_direct", [x])), 0))
        if extra:  # PyTorch's work left: the inner backend compiles it.
            y = g.call_function(torch.relu, (y,))
        g.output(y)
        return torch.fx.GraphModule(torch.nn.Module(), g)

    @staticmethod
    def op(key, args):
        raise AssertionError("the custom op was called")

    def test_all_fusecc_graph_calls_run_direct(self):
        class Compiled:
            def launch(self, values):
                return [values[0] * 2]
        backend_layer._REGISTRY["k_direct"] = Compiled()
        self.addCleanup(backend_layer._REGISTRY.pop, "k_direct")
        gm = self.graph(self.op)
        self.assertTrue(backend_layer._all_fusecc(gm, self.op))
        backend_layer._call_directly(gm, self.op)
        self.assertIn(backend_layer.run_direct,
                      [n.target for n in gm.graph.nodes])
        x = torch.randn(3)
        torch.testing.assert_close(gm(x), x * 2)

    def test_other_calls_keep_the_inner_backend(self):
        self.assertFalse(backend_layer._all_fusecc(
            self.graph(self.op, extra=True), self.op))


def _has_dynamo_and_gpu():
    return (torch is not None and hasattr(torch, "compile") and
            torch.cuda.is_available())


@unittest.skipIf(not _has_dynamo_and_gpu(),
                 "torch.compile (PyTorch 2) and a CUDA GPU are needed")
@needs_cli
class TorchCompile(unittest.TestCase):
    """torch.compile(backend="fusecc") end to end (the GPU machine)."""

    def test_decoder(self):
        import fusecc.dynamo  # noqa: F401  (registers "fusecc")
        m = nn.Sequential(nn.ConvTranspose2d(16, 8, 4, 2, 1),
                          nn.BatchNorm2d(8), nn.ReLU(),
                          nn.ConvTranspose2d(8, 3, 4, 2, 1),
                          nn.Tanh()).cuda().eval()
        x = torch.randn(4, 16, 8, 8, device="cuda")
        torch.backends.cudnn.allow_tf32 = False
        with torch.no_grad():
            expected = m.double()(x.double()).float()
            m.float()
            compiled = torch.compile(m, backend="fusecc")
            got = compiled(x)
            torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)
            # load_state_dict is seen by the next call (weights are
            # arguments).
            state = {k: v * 0.5 if k.endswith("weight") else v
                     for k, v in m.state_dict().items()}
            m.load_state_dict(state)
            torch.testing.assert_close(compiled(x), m(x), rtol=1e-4,
                                       atol=1e-4)


if __name__ == "__main__":
    unittest.main()
