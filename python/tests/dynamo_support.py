# ===- python/tests/dynamo_support.py - Shared setup of the dynamo tests -=== #
#
# What test_dynamo*.py share: the package and this folder on sys.path,
# PyTorch with torch.fx when it is installed (Debian's python3-torch), the
# compiler and simulator they run (FUSECC_BIN, else build/bin/fusecc;
# fusecc-check next to it, else build/bin/fusecc-check), the skip
# decorators for machines without them, and helpers: an fx graph with
# ShapeProp metadata, a translation's argument values, and a translated
# graph compiled and simulated.
#
# ===--------------------------------------------------------------------=== #

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
for path in (HERE, os.path.dirname(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)

try:
    import torch
    import torch.fx  # noqa: F401
    from torch import nn
    import torch.nn.functional as F
except ImportError:
    torch = nn = F = None

BIN = os.path.join(REPO, "build", "bin")
CLI = os.environ.get("FUSECC_BIN") or os.path.join(BIN, "fusecc")
CHECK = os.path.join(os.path.dirname(CLI), "fusecc-check")
if not os.access(CHECK, os.X_OK):
    CHECK = os.path.join(BIN, "fusecc-check")
needs_torch = unittest.skipIf(torch is None, "PyTorch (torch.fx) is not "
                              "installed: apt-get install python3-torch")
needs_cli = unittest.skipIf(not (os.access(CLI, os.X_OK) and
                                 os.access(CHECK, os.X_OK)),
                            "build/bin/fusecc and fusecc-check are not built")


def prepare(module, *inputs):
    """symbolic_trace of `module` with ShapeProp metadata from `inputs`."""
    from torch.fx.passes.shape_prop import ShapeProp
    gm = torch.fx.symbolic_trace(module)
    ShapeProp(gm).propagate(*inputs)
    return gm


def arg_values(translation, inputs):
    """The values of a translation's graph arguments: `inputs` by index and
    the modules' parameters and buffers."""
    return [inputs[key[1]] if key[0] == "input" else getattr(key[1], key[2])
            for key in translation.arg_keys]


def compiled_graph(test, text, *cli_args):
    """Compiles the MLIR `text` with fusecc (plus `cli_args`) and simulates
    it with fusecc-check, failing `test` with their output where either
    fails; returns the bundle's first entry as a fusecc.reference Graph."""
    from fusecc import bundle as bundle_format
    from fusecc import reference
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "g.mlir")
        with open(src, "w") as f:
            f.write(text)
        out = os.path.join(d, "g.fcb")
        run = subprocess.run([CLI, src, "-o", out] + list(cli_args),
                             capture_output=True, text=True)
        test.assertEqual(run.returncode, 0, run.stderr + text)
        sim = subprocess.run([CHECK, src], capture_output=True, text=True)
        test.assertEqual(sim.returncode, 0, sim.stdout + sim.stderr)
        parsed = bundle_format.read(out)
        return reference.entry_graph(parsed, parsed.entries[0])
