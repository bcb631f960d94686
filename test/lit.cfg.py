# -*- Python -*-
# lit configuration for the fusecc regression tests.

import os
import shutil

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FUSECC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fusecc_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%fusecc_src_root", config.fusecc_src_root))
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# `not` at the start of a RUN line is found on PATH (lit only substitutes "| not").
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.fusecc_tools_dir, config.llvm_tools_dir]
tools = ["fusecc", "fusecc-opt", "fusecc-check", ToolSubst("fusecc-run", unresolved="ignore")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# fusecc linked statically (FUSECC_STATIC_COMPILER): fusecc/static-link.test.
if lit.util.pythonize_bool(config.fusecc_static_compiler):
    config.available_features.add("static-compiler")

# ptxas from the CUDA toolkit: PTX acceptance tests need it.
ptxas = shutil.which("ptxas", path="/usr/local/cuda/bin:" + os.environ.get("PATH", ""))
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas not found: PTX acceptance tests are skipped")

# Tests that run kernels need a GPU and the runtime; CI has neither.
if os.environ.get("FUSECC_GPU_TESTS") == "1":
    config.available_features.add("gpu")
if shutil.which("python3"):
    config.available_features.add("python3")

# ONNX import (fusecc built with libonnx-dev): models are generated at test
# time with python3-onnx; the node tests come from libonnx-testdata.
if os.path.exists(os.path.join(config.fusecc_tools_dir, "fusecc-onnx-test")):
    config.available_features.add("onnx")
    llvm_config.add_tool_substitutions(["fusecc-onnx-test"], tool_dirs)
import subprocess
for py in ["/usr/bin/python3", shutil.which("python3")]:
    if py and subprocess.call([py, "-c", "import onnx, numpy"],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) == 0:
        config.available_features.add("python3-onnx")
        config.substitutions.append(("%onnx_python", py))
        break
onnx_node_tests = "/usr/share/libonnx-testdata/data/node"
if os.path.isdir(onnx_node_tests):
    config.available_features.add("onnx-testdata")
    config.substitutions.append(("%onnx_node_tests", onnx_node_tests))
