# ===- python/tests/test_bundle.py - fusecc.bundle, the manifest reader -=== #

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from fusecc import bundle  # noqa: E402
import samples  # noqa: E402


class RuntimeSamples(unittest.TestCase):
    """The runtime's own fixtures (runtime/test/data)."""

    def test_v1(self):
        b = bundle.read(os.path.join(samples.RUNTIME_DATA, "sample.fcb"))
        self.assertEqual((b.version, b.chip, b.precision), (1, "sm_90", "ieee"))
        self.assertEqual([e.name for e in b.entries],
                         ["sample_add", "sample_relu_scale"])
        add = b.entries[0]
        self.assertEqual([(a.name, a.is_output, a.dtype, a.shape)
                          for a in add.args],
                         [("x", False, "f32", (64, 1024)),
                          ("y", False, "f32", (1024,)),
                          ("result", True, "f32", (64, 1024))])
        self.assertEqual(add.input_count, 2)
        self.assertEqual(add.args[2].byte_size, 64 * 1024 * 4)
        self.assertEqual(add.workspaces, [])
        launch = add.steps[0]
        self.assertEqual((launch.kind, launch.kernel, launch.grid, launch.block,
                          launch.smem), ("launch", "sample_add_k0",
                                         (256, 1, 1), (256, 1, 1), 0))
        self.assertEqual([p.token() for p in launch.params], ["0", "1", "2"])
        self.assertEqual(add.graph, ["%2 = add %0 %1", "return %2"])
        relu = b.entry("sample_relu_scale")
        self.assertEqual(len(relu.launches), 2)
        self.assertEqual(relu.steps[0].smem, 65536)
        self.assertTrue(b.ptx.startswith(b".version 8.0"))
        self.assertEqual(b.ptx_size, len(b.ptx))
        self.assertEqual(b.data, b"")

    def test_v2_workspaces(self):
        b = bundle.read(os.path.join(samples.RUNTIME_DATA, "sample_v2.fcb"))
        self.assertEqual(b.version, 2)
        entry = b.entries[0]
        self.assertEqual(len(entry.workspaces), 1)
        ws = entry.workspaces[0]
        self.assertEqual((ws.dtype, ws.element_count, ws.byte_size, ws.role),
                         ("f32", 1024, 4096, None))
        self.assertEqual([p.token() for p in entry.steps[0].params],
                         ["1", "w0"])
        self.assertEqual(entry.steps[1].params[1],
                         bundle.Param("workspace", 0))

    def test_missing_entry_names_the_others(self):
        b = bundle.read(os.path.join(samples.RUNTIME_DATA, "sample.fcb"))
        with self.assertRaisesRegex(KeyError, "sample_add, sample_relu_scale"):
            b.entry("nope")


class Version3(unittest.TestCase):

    def test_constants_and_data_section(self):
        b = bundle.read(os.path.join(samples.DATA, "sample_v3.fcb"))
        self.assertEqual((b.version, b.chip, b.precision), (3, "sm_90a",
                                                            "tf32"))
        self.assertEqual([(c.index, c.name, c.dtype, c.shape, c.offset)
                          for c in b.constants],
                         [(0, "decoder.0.weight", "f32", (2, 3, 2, 2), 0),
                          (1, "decoder.0.bias", "f32", (3,), 96),
                          (2, "decoder.1.weight", "f32", (3,), 112),
                          (3, "decoder.1.bias", "f32", (3,), 128)])
        self.assertEqual(len(b.data), len(samples.V3_DATA))
        self.assertEqual(b.constant_bytes(0), samples.floats(samples.V3_WEIGHT))
        self.assertEqual(b.constant_bytes(3), samples.floats(samples.V3_BETA))

    def test_workspace_roles_and_steps(self):
        entry = bundle.parse(samples.v3_bundle()).entries[0]
        self.assertEqual([(w.dtype, w.element_count, w.role)
                          for w in entry.workspaces],
                         [("f32", 108, "intermediate"), ("f32", 2, "partials"),
                          ("f32", 24, "scratch")])
        self.assertEqual([s.kind for s in entry.steps],
                         ["zero", "launch", "launch"])
        self.assertEqual(entry.steps[0].workspace, 1)
        self.assertEqual([p.token() for p in entry.steps[1].params],
                         ["0", "c0", "c1", "w0", "w1"])
        self.assertEqual(entry.steps[2].params[2], bundle.Param("const", 2))
        self.assertEqual(len(entry.launches), 2)
        self.assertEqual(entry.graph[0], "%1 = const_tensor c0")

    def test_new_dtypes_zero_only_entry_no_data(self):
        b = bundle.read(os.path.join(samples.DATA, "sample_v3_plain.fcb"))
        self.assertEqual(b.constants, [])
        self.assertEqual(b.data, b"")
        scale, clear = b.entries
        self.assertEqual(scale.args[1].dtype, "i64")
        self.assertEqual(scale.args[1].byte_size, 32)
        self.assertEqual(scale.workspaces[0].byte_size, 16)
        self.assertEqual([s.kind for s in clear.steps], ["zero"])
        self.assertEqual(clear.args[0].byte_size, 16)
        self.assertEqual(clear.graph, [])
        self.assertEqual(clear.inputs, [])

    def test_empty_data_section_without_constants(self):
        blob = samples.bundle_bytes(samples.V3_PLAIN_MANIFEST, data=b"")
        self.assertEqual(bundle.parse(blob).data, b"")


def v3(replace=None, insert=None, data=samples.V3_DATA, ptx=samples.PTX,
       manifest=samples.V3_MANIFEST):
    """The v3 sample with one line replaced (old -> new) or inserted."""
    text = manifest
    if replace:
        old, new = replace
        assert old in text, old
        text = text.replace(old, new, 1)
    if insert:
        before, line = insert
        assert before in text, before
        text = text.replace(before, line + "\n" + before, 1)
    return samples.bundle_bytes(text, ptx=ptx, data=data)


V1 = open(os.path.join(samples.RUNTIME_DATA, "sample.fcb"), "rb").read()
V2 = open(os.path.join(samples.RUNTIME_DATA, "sample_v2.fcb"), "rb").read()

# (what, bundle bytes, expected message fragment)
ERRORS = [
    ("empty", b"", "line 1: empty input"),
    ("not a bundle", b"hello\n", "not a fusecc bundle"),
    ("version 5", V1.replace(b"fusecc-bundle 1", b"fusecc-bundle 5", 1),
     "unsupported bundle format version 5 (this reader reads versions "
     "1, 2, 3, 4)"),
    ("version 0", V1.replace(b"fusecc-bundle 1", b"fusecc-bundle 0", 1),
     "unsupported bundle format version 0"),
    ("leading zero", V1.replace(b"fusecc-bundle 1", b"fusecc-bundle 01", 1),
     "expected format version (a non-negative decimal integer), got '01'"),
    ("stray space", V1.replace(b"chip sm_90", b"chip  sm_90", 1),
     "line 2: stray space at column 5"),
    ("tab", V1.replace(b"chip sm_90", b"chip\tsm_90", 1),
     "line 2: invalid byte 0x09 at column 5"),
    ("empty line", V1.replace(b"chip sm_90\n", b"chip sm_90\n\n", 1),
     "line 3: empty line"),
    ("bad chip", V1.replace(b"chip sm_90", b"chip sm90", 1),
     "expected a chip like 'sm_90' or 'sm_90a', got 'sm90'"),
    ("bad precision", V1.replace(b"precision ieee", b"precision fp8", 1),
     "expected precision 'ieee', 'tf32', 'bf16' or 'fp16', got 'fp8'"),
    ("duplicate chip", V1.replace(b"precision ieee", b"chip sm_80", 1),
     "line 3: duplicate 'chip' record (first on line 2)"),
    ("no precision", V1.replace(b"precision ieee\n", b"", 1),
     "missing 'precision' record before the first entry"),
    ("v1 workspaces", V1.replace(b"args 3 launches 1",
                                 b"args 3 workspaces 0 launches 1", 1),
     "'workspaces' in an entry header needs bundle format version 2"),
    ("v1 w param", V1.replace(b"params 3 0 1 2", b"params 3 0 w0 2", 1),
     "workspace param 'w0' is not supported by bundle format version 1"),
    ("v2 without workspaces", V2.replace(b"workspaces 1 ", b"", 1),
     "expected 'workspaces' after the arg count, got 'launches'"),
    ("v2 role", V2.replace(b"workspace 0 f32 1024",
                           b"workspace 0 f32 1024 scratch", 1),
     "unexpected 'scratch' after the workspace element count"),
    ("v2 steps", V2.replace(b"launches 2", b"steps 2", 1),
     "expected 'launches' after the workspace count, got 'steps'"),
    ("v2 i64 arg", V2.replace(b"arg 1 in weight f32", b"arg 1 in weight i64",
                              1),
     "expected dtype 'f32', 'f16' or 'bf16', got 'i64'"),
    ("v2 f16 workspace", V2.replace(b"workspace 0 f32", b"workspace 0 f16", 1),
     "expected workspace dtype 'f32', got 'f16'"),
    ("arg index", V1.replace(b"arg 1 in y", b"arg 2 in y", 1),
     "line 6: expected arg index 1, got 2"),
    ("in after out", V1.replace(b"arg 1 in y f32 1 1024\narg 2 out",
                                b"arg 1 out y f32 1 1024\narg 2 in", 1),
     "input arg 2 follows an output arg"),
    ("rank 9", V1.replace(b"arg 1 in y f32 1 1024",
                          b"arg 1 in y f32 9 1 1 1 1 1 1 1 1 1024", 1),
     "rank 9 is out of range (expected 0 to 8)"),
    ("zero dim", V1.replace(b"arg 1 in y f32 1 1024", b"arg 1 in y f32 1 0",
                            1),
     "dimension 0 is out of range"),
    ("dims missing", V1.replace(b"arg 1 in y f32 1 1024", b"arg 1 in y f32 2 "
                                b"1024", 1),
     "expected dimension (a non-negative decimal integer), got end of line"),
    ("too many args", V1.replace(b"args 3 launches 1", b"args 2 launches 1",
                                 1),
     "entry 'sample_add' declares 2 args, found another 'arg'"),
    ("param past args", V1.replace(b"params 3 0 1 2", b"params 3 0 1 3", 1),
     "param 2 names arg 3 but entry 'sample_add' has 3 args"),
    ("param count", V1.replace(b"params 3 0 1 2", b"params 2 0 1 2", 1),
     "unexpected '2' after the params"),
    ("block too big", V1.replace(b"block 256 1 1 smem 0 params 3",
                                 b"block 256 4 2 smem 0 params 3", 1),
     "block of 2048 threads exceeds 1024"),
    ("grid zero", V1.replace(b"grid 256 1 1 block 256 1 1 smem 0 params 3",
                             b"grid 0 1 1 block 256 1 1 smem 0 params 3", 1),
     "grid size 0 is out of range"),
    ("missing launch", V1.replace(b"args 3 launches 1", b"args 3 launches 2",
                                  1),
     "'graph' line in entry 'sample_add' before its 3 args, 0 workspaces and "
     "2 launches (found 3, 0 and 1)"),
    ("missing end", V1.replace(b"graph return %2\nend\n",
                               b"graph return %2\n", 1),
     "missing 'end' for entry 'sample_add' (started on line 4) before "
     "'entry'"),
    ("duplicate entry", V1.replace(b"entry sample_relu_scale",
                                   b"entry sample_add", 1),
     "duplicate entry name 'sample_add'"),
    ("unknown record", V1.replace(b"graph return %2", b"grahp return %2", 1),
     "unknown record 'grahp' in entry 'sample_add'"),
    ("arg outside entry", V1.replace(b"precision ieee",
                                     b"precision ieee\narg 0 in x f32 0", 1),
     "'arg' record outside an entry"),
    ("empty graph", V1.replace(b"graph return %2", b"graph", 1),
     "expected graph text after 'graph'"),
    ("ptx short", V1.replace(b"ptx 185", b"ptx 186", 1),
     "'ptx' declares 186 bytes but only 185 remain"),
    ("ptx trailing", V1 + b"x", "1 bytes of trailing data after the 185-byte "
     "PTX"),
    ("ptx nul", V1[:-1] + b"\0", "PTX contains a NUL byte at offset 184"),
    ("no ptx", V1[:V1.index(b"ptx 185")],
     "unexpected end of data: expected another 'entry' or 'ptx <bytes>'"),
    ("unterminated", V1[:V1.index(b"ptx 185") + 3],
     "line is not terminated by '\\n'"),
    ("v2 const", V2.replace(b"precision ieee", b"precision ieee\nconst 0 w f32 "
                            b"1 4 offset 0", 1),
     "'const' record needs bundle format version 3"),
    ("v2 zero", V2.replace(b"launch sample_ws_relayout", b"zero w0\nlaunch "
                           b"sample_ws_relayout", 1),
     "'zero' step needs bundle format version 3"),
    # Version 3.
    ("v3 launches", v3(("steps 3", "launches 3")),
     "expected 'steps' after the workspace count, got 'launches'"),
    ("v3 no role", v3(("workspace 1 f32 2 partials", "workspace 1 f32 2")),
     "expected workspace role 'scratch', 'intermediate', 'partials' or "
     "'prepared', got end of line"),
    ("v3 bad role", v3(("workspace 1 f32 2 partials",
                        "workspace 1 f32 2 temp")),
     "got 'temp'"),
    ("v3 bad dtype", v3(("arg 0 in x f32", "arg 0 in x f64")),
     "expected dtype 'f32', 'f16', 'bf16', 'i32', 'i64' or 'u8', got 'f64'"),
    ("const index", v3(("const 1 decoder.0.bias", "const 2 decoder.0.bias")),
     "line 5: expected const index 1, got 2"),
    ("const misaligned", v3(("f32 1 3 offset 96", "f32 1 3 offset 100")),
     "const 1 'decoder.0.bias' offset 100 is not a multiple of 16"),
    ("const outside data", v3(data=samples.V3_DATA[:-4]),
     "line 7: const 3 'decoder.1.bias' (12 bytes at offset 128) lies outside "
     "the 136-byte data section"),
    ("const no offset", v3(("f32 1 3 offset 96", "f32 1 3 96")),
     "expected 'offset' after the const dimensions, got '96'"),
    ("const after entry", v3(insert=("end\n", "end\nconst 4 late f32 1 1 "
                                     "offset 0"), data=samples.V3_DATA),
     "line 26: 'const' must come before the first entry"),
    ("const before precision", v3(("precision tf32\nconst 0", "const 0")),
     "missing 'precision' record before the first 'const'"),
    ("const without data", v3(data=None),
     "4 constants but no 'data' section after the PTX"),
    ("const param past", v3(("params 5 0 c0 c1", "params 5 0 c0 c4")),
     "param 2 names const 4 but the bundle has 4 constants"),
    ("const param leading zero", v3(("params 5 0 c0 c1", "params 5 0 c0 c01")),
     "expected const param index (a non-negative decimal integer), got "
     "'c01'"),
    ("workspace param past", v3(("c1 w0 w1", "c1 w0 w3")),
     "param 4 names workspace 3 but entry 'decoder' has 3 workspaces"),
    ("zero past", v3(("zero w1", "zero w3")),
     "'zero' names workspace 3 but entry 'decoder' has 3 workspaces"),
    ("zero arg", v3(("zero w1", "zero 1")),
     "expected a workspace like 'w0' after 'zero', got '1'"),
    ("zero extra", v3(("zero w1", "zero w1 w2")),
     "unexpected 'w2' after the workspace"),
    ("zero before workspaces", v3(("workspace 2 f32 24 scratch\nzero w1",
                                   "zero w1\nworkspace 2 f32 24 scratch")),
     "entry 'decoder' declares 3 workspaces but only 2 'workspace' records "
     "precede this 'zero'"),
    ("too many steps", v3(("steps 3", "steps 2")),
     "entry 'decoder' declares 2 steps, found another 'launch'"),
    ("data size", v3(data=samples.V3_DATA).replace(b"data 140", b"data 150"),
     "'data' declares 150 bytes but 140 remain"),
    ("data keyword", v3(data=samples.V3_DATA).replace(b"data 140",
                                                       b"blob 140"),
     "expected 'data' after the PTX, got 'blob'"),
]


class Errors(unittest.TestCase):
    """Every deviation is a BundleError naming the line and the expectation."""

    def test_errors(self):
        for what, blob, fragment in ERRORS:
            with self.subTest(what):
                with self.assertRaises(bundle.BundleError) as caught:
                    bundle.parse(blob)
                self.assertIn(fragment, str(caught.exception))
                self.assertRegex(str(caught.exception), r"^line \d+: ")

    def test_path_prefix(self):
        with self.assertRaisesRegex(bundle.BundleError,
                                    r"^model\.fcb: line 1: empty input"):
            bundle.parse(b"", "model.fcb")

    def test_constant_count_limit(self):
        consts = "".join("const %d c%d u8 0 offset 0\n" % (k, k)
                         for k in range(bundle.MAX_CONSTANTS + 1))
        text = samples.V3_PLAIN_MANIFEST.replace(
            "precision ieee\n", "precision ieee\n" + consts, 1)
        with self.assertRaisesRegex(bundle.BundleError,
                                    "more than 65536 constants"):
            bundle.parse(samples.bundle_bytes(text, data=b"\0"))


class Main(unittest.TestCase):
    """python3 -m fusecc BUNDLE: a description from the manifest."""

    def run_main(self, *paths):
        import contextlib
        import io
        from fusecc import __main__ as main
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main.main(list(paths))
        return status, out.getvalue(), err.getvalue()

    def test_describes_constants_workspaces_and_steps(self):
        status, out, _ = self.run_main(os.path.join(samples.DATA,
                                                    "sample_v3.fcb"))
        self.assertEqual(status, 0)
        lines = out.splitlines()
        self.assertIn("format 3, sm_90a, tf32", lines[0])
        self.assertIn("4 constants (140 data bytes)", lines[0])
        self.assertIn("  const c0 decoder.0.weight f32[2, 3, 2, 2]", lines)
        self.assertIn("    workspace w1 f32 x 2 (partials)", lines)
        self.assertIn("    zero w1", lines)
        self.assertIn("    launch decoder_k0_p5 grid 1x1x1 block 64x1x1 smem 0 "
                      "(0 c0 c1 w0 w1)", lines)

    def test_unreadable_bundle(self):
        status, out, err = self.run_main(
            os.path.join(samples.RUNTIME_DATA, "sample.fcb"), "/nonexistent")
        self.assertEqual(status, 1)
        self.assertIn("entry sample_add", out)
        self.assertIn("fusecc: [Errno 2] No such file or directory: "
                      "'/nonexistent'", err)


if __name__ == "__main__":
    unittest.main()
