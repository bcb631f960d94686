# ===- python/tests/test_compile.py - fusecc.compile and the CLI lookup -=== #
#
# The fusecc CLI is replaced by a script that records its arguments and
# writes a fixed bundle, so these tests check the package's side (finding
# the CLI, its command line, error reporting, export, loading) and not the
# ONNX importer. The export test needs PyTorch; the load after it also needs
# the runtime and its fake driver (test_runtime.py).
#
# ===--------------------------------------------------------------------=== #

import json
import os
import shutil
import stat
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import fusecc  # noqa: E402
from fusecc import compiler  # noqa: E402
import samples  # noqa: E402
import test_runtime  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

FAKE_CLI = """#!%s
import json, shutil, sys
args = sys.argv[1:]
with open(%r, "w") as f:
    json.dump({"args": args, "onnx_bytes": len(open(args[0], "rb").read())},
              f)
if "--fail" in args:
    sys.stderr.write("model.onnx: error: node 'Conv_3' (Conv): not supported\\n")
    sys.exit(1)
if "--no-output" not in args:
    shutil.copyfile(%r, args[args.index("-o") + 1])
"""


class Cli(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fusecc-test-")
        self.record = os.path.join(self.dir, "record.json")
        self.bundle = samples.write(self.dir, "fixed.fcb",
                                    samples.v2_fake_bundle())
        self.cli = os.path.join(self.dir, "fusecc")
        with open(self.cli, "w") as f:
            f.write(FAKE_CLI % (sys.executable, self.record, self.bundle))
        os.chmod(self.cli, os.stat(self.cli).st_mode | stat.S_IXUSR)
        self.onnx = samples.write(self.dir, "model.onnx", b"onnx bytes")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def recorded(self):
        with open(self.record) as f:
            return json.load(f)

    def test_environment_variable_first(self):
        with mock.patch.dict(os.environ, {"FUSECC_BIN": self.cli}):
            self.assertEqual(compiler.find_cli(), self.cli)

    def test_bad_environment_variable(self):
        with mock.patch.dict(os.environ, {"FUSECC_BIN": "/nonexistent/fusecc"}):
            with self.assertRaisesRegex(fusecc.CompileError,
                                        "FUSECC_BIN='/nonexistent/fusecc' is "
                                        "not an executable file"):
                compiler.find_cli()

    def test_path_then_build_dir(self):
        env = {"PATH": self.dir}
        with mock.patch.dict(os.environ, env), \
                mock.patch.dict(os.environ, {}, clear=False):
            os.environ.pop("FUSECC_BIN", None)
            self.assertEqual(compiler.find_cli(), self.cli)
            candidates = compiler.cli_candidates()
            self.assertEqual(candidates[-1], os.path.join(
                samples.REPO, "build", "bin", "fusecc"))

    def test_packaged_cli_after_environment_variable(self):
        package = os.path.dirname(os.path.abspath(fusecc.__file__))
        packaged = os.path.join(package, "bin", "fusecc")
        self.assertEqual(compiler.PACKAGED_CLI, packaged)
        with mock.patch.dict(os.environ, {"FUSECC_BIN": self.cli}):
            self.assertEqual(compiler.cli_candidates()[:2],
                             [self.cli, packaged])
        with mock.patch.dict(os.environ, {"PATH": self.dir}):
            os.environ.pop("FUSECC_BIN", None)
            self.assertEqual(compiler.cli_candidates()[:2],
                             [packaged, self.cli])

    def test_missing_cli(self):
        empty = os.path.join(self.dir, "empty")
        os.mkdir(empty)
        with mock.patch.dict(os.environ, {"PATH": empty}), \
                mock.patch.object(compiler, "_REPO_DIR", empty):
            os.environ.pop("FUSECC_BIN", None)
            with self.assertRaisesRegex(fusecc.CompileError,
                                        "the fusecc compiler is not installed:"
                                        " install the package"):
                compiler.find_cli()
            if torch is not None:  # compile() fails before exporting.
                with self.assertRaisesRegex(fusecc.CompileError,
                                            "not installed"):
                    fusecc.compile(torch.nn.ReLU(), torch.zeros(1))

    def test_command_line(self):
        out = os.path.join(self.dir, "out.fcb")
        with mock.patch.dict(os.environ, {"FUSECC_TUNING": "none"}):
            compiler.compile_onnx(self.onnx, out, "ieee", "sm_90", ["--x=1"],
                                  cli=self.cli)
        self.assertEqual(self.recorded()["args"], [
            self.onnx, "-o", out, "--precision=ieee", "--chip=sm_90", "--x=1"])
        self.assertTrue(os.path.exists(out))

    def test_command_line_takes_the_shipped_tuning(self):
        # Without FUSECC_TUNING and outside an installed package: the
        # repository's tuning/ (the measured tile choices, <device>.json).
        out = os.path.join(self.dir, "out.fcb")
        shipped = os.path.join(samples.REPO, "tuning")
        with mock.patch.dict(os.environ, {}):
            os.environ.pop("FUSECC_TUNING", None)
            self.assertEqual(compiler.tuning_dir(), shipped)
            compiler.compile_onnx(self.onnx, out, cli=self.cli)
            self.assertEqual(self.recorded()["args"][-1],
                             "--tuning=" + shipped)
            # A --tuning of the caller's is kept, and no second one added.
            compiler.compile_onnx(self.onnx, out, extra_args=["--tuning=t.json"],
                                  cli=self.cli)
            self.assertEqual([a for a in self.recorded()["args"]
                              if a.startswith("--tuning")], ["--tuning=t.json"])
        mine = os.path.join(self.dir, "mine")
        os.mkdir(mine)
        with mock.patch.dict(os.environ, {"FUSECC_TUNING": mine}):
            self.assertEqual(compiler.with_tuning(["-a"]),
                             ["-a", "--tuning=" + mine])
        for off in ("", "none"):
            with mock.patch.dict(os.environ, {"FUSECC_TUNING": off}):
                self.assertIsNone(compiler.tuning_dir())
                self.assertEqual(compiler.with_tuning(("-a",)), ["-a"])

    def test_tuning_digest_follows_the_files(self):
        tuning = os.path.join(self.dir, "tuning")
        os.mkdir(tuning)
        path = os.path.join(tuning, "h200.json")
        with open(path, "w") as f:
            f.write('{"entries": []}')
        args = ["--tuning=" + tuning]
        first = compiler.tuning_digest(args)
        self.assertRegex(first, "^[0-9a-f]{64}$")
        self.assertEqual(compiler.tuning_digest(["--tuning=" + path]),
                         compiler.tuning_digest(["--tuning=" + path]))
        with open(path, "w") as f:
            f.write('{"entries": [{"key": "k"}]}')
        self.assertNotEqual(compiler.tuning_digest(args), first)
        self.assertEqual(compiler.tuning_digest(["--x"]), "")

    def test_tuning_option_spellings(self):
        # The compiler takes --tuning=P, -tuning=P and --tuning / -tuning P:
        # each names the same files (their digest, not a path, in the key),
        # and each is the caller's, so no shipped directory is added.
        tuning = os.path.join(self.dir, "tuning")
        os.mkdir(tuning)
        with open(os.path.join(tuning, "h200.json"), "w") as f:
            f.write('{"entries": []}')
        digest = compiler.tuning_digest(["--tuning=" + tuning])
        for args in (["-a", "--tuning", tuning, "-b"],
                     ["-a", "-tuning=" + tuning, "-b"],
                     ["-a", "-tuning", tuning, "-b"]):
            self.assertEqual(compiler.split_tuning(args),
                             ([tuning], ["-a", "-b"]))
            self.assertEqual(compiler.tuning_digest(args), digest)
            self.assertEqual(compiler.with_tuning(args), args)
        self.assertEqual(compiler.split_tuning(["-a", "--tuning"]),
                         ([], ["-a", "--tuning"]))

    def test_compiler_error_carries_its_messages(self):
        with self.assertRaises(fusecc.CompileError) as caught:
            compiler.compile_onnx(self.onnx, os.path.join(self.dir, "o.fcb"),
                                  extra_args=["--fail"], cli=self.cli)
        self.assertIn("failed (exit 1)", str(caught.exception))
        self.assertIn("node 'Conv_3' (Conv): not supported",
                      str(caught.exception))

    def test_no_bundle_written(self):
        with self.assertRaisesRegex(fusecc.CompileError, "wrote no bundle"):
            compiler.compile_onnx(self.onnx, os.path.join(self.dir, "o.fcb"),
                                  extra_args=["--no-output"], cli=self.cli)

    def test_bad_precision(self):
        with self.assertRaisesRegex(ValueError, "precision must be one of "
                                    "ieee, tf32, bf16, fp16, got 'fp8'"):
            compiler.compile_onnx(self.onnx, "o.fcb", "fp8", cli=self.cli)

    @unittest.skipIf(torch is None, "PyTorch is not installed: "
                     "torch.onnx.export needs it")
    @unittest.skipIf(test_runtime.LIBS is None, "the runtime and its fake "
                     "CUDA driver are not built")
    def test_compile_exports_runs_the_cli_and_loads(self):
        case = test_runtime.FakeDriver
        case.setUpClass()
        try:
            model = torch.nn.Sequential(torch.nn.ConvTranspose2d(4, 2, 2, 2),
                                        torch.nn.ReLU())
            kept = os.path.join(self.dir, "kept.fcb")
            with mock.patch.dict(os.environ, {"FUSECC_BIN": self.cli}):
                module = fusecc.compile(model, (torch.zeros(1, 4, 3, 3),),
                                        precision="tf32", output=kept,
                                        lib=case.lib, device=0,
                                        extra_args=["--emit=bundle"])
            record = self.recorded()
            self.assertGreater(record["onnx_bytes"], 0)
            self.assertEqual(record["args"][0].rsplit("/", 1)[-1],
                             "model.onnx")
            self.assertEqual(record["args"][3:], [
                "--precision=tf32", "--chip=sm_90a", "--emit=bundle",
                "--tuning=" + compiler.tuning_dir()])
            self.assertEqual(module.entries, ["layer", "pair"])
            self.assertEqual(module.path, kept)
            # The temporary directory is gone.
            self.assertFalse(os.path.exists(os.path.dirname(
                record["args"][0])))
            module.close()
        finally:
            case.tearDownClass()


REAL_CLI = os.path.join(samples.REPO, "build", "bin", "fusecc")


@unittest.skipIf(torch is None, "PyTorch is not installed: "
                 "torch.onnx.export needs it")
class DynamicBatchExport(unittest.TestCase):
    """max_batch: the export gives dim 0 of every input and output the
    symbolic "batch" and the compiler gets --max-batch (docs/design/
    plans.md, "Dynamic batch")."""

    class Model(torch.nn.Module if torch else object):
        """A view through x.size(0), as exporters write it from Shape."""

        def __init__(self):
            super().__init__()
            self.up = torch.nn.ConvTranspose2d(4, 6, 3, 2, 1, 1)
            self.gn = torch.nn.GroupNorm(2, 6)

        def forward(self, x):
            y = self.gn(self.up(x))
            z = torch.softmax(y.view(y.size(0), 6, -1), dim=2)
            return z.view_as(y) * 2.0

    def test_command_line_has_the_bound(self):
        cli = Cli()  # Its fake CLI, which records the command line.
        cli.setUp()
        try:
            with mock.patch.dict(os.environ, {"FUSECC_BIN": cli.cli}), \
                    mock.patch.object(compiler.module_layer, "load",
                                      lambda *a, **k: mock.Mock()):
                fusecc.compile(self.Model().eval(),
                               (torch.zeros(2, 4, 5, 5),), max_batch=8)
            self.assertIn("--max-batch=8", cli.recorded()["args"])
        finally:
            cli.tearDown()

    @unittest.skipIf(not os.access(REAL_CLI, os.X_OK),
                     "build/bin/fusecc is not built")
    def test_exported_view_serves_every_batch(self):
        from fusecc import bundle, reference
        import subprocess
        model = self.Model().eval()
        with tempfile.TemporaryDirectory() as d:
            onnx_path = os.path.join(d, "m.onnx")
            compiler.export_onnx(model, (torch.zeros(3, 4, 5, 5),), onnx_path,
                                 dynamic_batch=True)
            out = os.path.join(d, "m.fcb")
            run = subprocess.run([REAL_CLI, onnx_path, "--max-batch=8", "-o",
                                  out], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            parsed = bundle.read(out)
        entry = parsed.entries[0]
        self.assertEqual((parsed.version, entry.max_batch), (4, 8))
        self.assertTrue(all(a.batched for a in entry.args))
        graph = reference.entry_graph(parsed, entry)
        m64 = __import__("copy").deepcopy(model).double()
        for batch in (1, 5, 8):
            x = torch.randn(batch, 4, 5, 5, dtype=torch.float64)
            with torch.no_grad():
                torch.testing.assert_close(graph(x), m64(x), rtol=1e-9,
                                           atol=1e-9)


if __name__ == "__main__":
    unittest.main()
