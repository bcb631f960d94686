# ===- python/tests/dynamo_support.py - Shared setup of the dynamo tests -=== #
#
# What test_dynamo*.py share: the package and this folder on sys.path,
# PyTorch with torch.fx when it is installed (Debian's python3-torch), the
# compiler and simulator they run (FUSECC_BIN, else build/bin/fusecc;
# fusecc-check next to it, else build/bin/fusecc-check) and the skip
# decorators for machines without them.
#
# ===--------------------------------------------------------------------=== #

import os
import sys
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
