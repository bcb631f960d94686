# ===- fusecc/dynamo/__init__.py - torch.compile(backend="fusecc") ------=== #
#
#   model = torch.compile(model, backend="fusecc")          # registered name
#   model = torch.compile(model, backend=fusecc.dynamo.backend,
#                         options={"inner": "eager"})
#
# The supported subgraphs of each captured FX graph (a convolution,
# transposed or forward, and what fuses around it) run as fusecc bundles,
# compiled from FX directly and cached on disk; the rest goes to the inner
# backend (Inductor by default). Importing this module registers the
# backend with torch._dynamo where PyTorch has it; the
# `torch_dynamo_backends` entry point (python/pyproject.toml) lets
# torch.compile find it without the import.
#
# ===--------------------------------------------------------------------=== #

from .driver import (DEFAULT_OPTIONS, FuseccFallbackWarning, backend,
                      compile_graph, history, last_report, refresh)
from .cache import cache_dir, cache_key
from .partition import node_support, partition_graph
from .translate import Translation, Unsupported, translate_graph

__all__ = ["DEFAULT_OPTIONS", "FuseccFallbackWarning", "Translation",
           "Unsupported", "backend", "cache_dir", "cache_key",
           "compile_graph", "history", "last_report", "node_support",
           "partition_graph", "refresh", "register", "translate_graph"]


def register():
    """Registers `backend` as torch.compile's "fusecc" unless that name is
    known already (from the `torch_dynamo_backends` entry point, which
    torch.compile loads itself, or an earlier import). False where PyTorch
    has no dynamo."""
    try:
        import torch._dynamo as dynamo
    except ImportError:
        return False
    if "fusecc" not in dynamo.list_backends(exclude_tags=()):
        dynamo.register_backend(compiler_fn=backend, name="fusecc")
    return True


try:
    register()
except Exception as error:  # A PyTorch whose registry differs: say so.
    import warnings
    warnings.warn("fusecc.dynamo: could not register the \"fusecc\" "
                  "backend (%s: %s); pass backend=fusecc.dynamo.backend"
                  % (type(error).__name__, error))
