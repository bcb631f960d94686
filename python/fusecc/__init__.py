# ===- fusecc/__init__.py - Python package of the fusecc compiler -------=== #
#
# fusecc.load("model.fcb")            a Module whose entries are callables on
#                                     PyTorch CUDA tensors (fusecc.module)
# fusecc.compile(module, inputs)      torch.onnx.export + the fusecc CLI +
#                                     load (fusecc.compiler)
# fusecc.bundle.read("model.fcb")     the manifest, no GPU needed
# fusecc.reference.Graph(...)         an entry's graph lines as a PyTorch
#                                     function (float64 references)
#
# Pure Python over libfusecc_runtime.so (ctypes); PyTorch is optional at
# import time.
#
# ===--------------------------------------------------------------------=== #

from . import bundle
from . import reference
from . import runtime
from .bundle import BundleError
from .compiler import CompileError, compile, find_cli
from .module import ArgumentError, EntryFunction, Module, load
from .reference import GraphError
from .runtime import FuseccError, RuntimeLibraryError, find_library

__all__ = ["ArgumentError", "BundleError", "CompileError", "EntryFunction",
           "FuseccError", "GraphError", "Module", "RuntimeLibraryError",
           "bundle", "compile", "find_cli", "find_library", "load",
           "reference", "runtime"]
__version__ = "0.1.0"
