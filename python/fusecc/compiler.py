# ===- fusecc/compiler.py - PyTorch module -> ONNX -> fusecc bundle -----=== #
#
# fusecc.compile(module, example_inputs): exports the module with
# torch.onnx.export (opset 17) into a temporary directory, runs the `fusecc`
# command-line compiler on the .onnx file and loads the bundle it writes.
# A float16 or bfloat16 module (model.half(), model.to(torch.bfloat16)) is
# exported as its exact float32 copy, then its inputs, outputs and float
# initializers are retyped to the half type (export_half_onnx): PyTorch's
# CPU kernels cannot run every half op the export traces, and fusecc
# computes a half graph in f32 between its half-stored values anyway
# (docs/design/types.md).
#
# ===--------------------------------------------------------------------=== #

import copy
import hashlib
import os
import shutil
import subprocess
import tempfile

from . import module as module_layer

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_REPO_DIR = os.path.dirname(os.path.dirname(_PACKAGE_DIR))
PRECISIONS = ("ieee", "tf32", "bf16", "fp16")


class CompileError(RuntimeError):
    """The export or the fusecc compiler failed (with its output)."""


# Where an installed package (python/setup.py) holds the compiler.
PACKAGED_CLI = os.path.join(_PACKAGE_DIR, "bin", "fusecc")
# And its copy of the repository's tuning/ (the measured tile choices,
# <device>.json each, bench/tune.py).
PACKAGED_TUNING = os.path.join(_PACKAGE_DIR, "tuning")


def tuning_dir():
    """The directory of measured tile choices that compilations from Python
    (fusecc.compile, the dynamo backend) pass as `--tuning=` unless their
    arguments name one: $FUSECC_TUNING (empty or "none": no tuning file),
    the installed package's copy, then the repository's tuning/; None where
    none exists. The compiler picks <device>.json from it (--device, the
    H200 by default) and the cost model for kernels it has no entry for."""
    env = os.environ.get("FUSECC_TUNING")
    if env is not None:
        return None if env in ("", "none") else env
    for path in (PACKAGED_TUNING, os.path.join(_REPO_DIR, "tuning")):
        if os.path.isdir(path):
            return path
    return None


#: The spellings of the compiler's --tuning option (LLVM's command line
#: takes one dash or two, the path after `=` or as the next argument).
_TUNING_FLAGS = ("--tuning", "-tuning")


def split_tuning(args):
    """(the tuning paths `args` name, the other arguments): --tuning=PATH,
    -tuning=PATH, or --tuning / -tuning with PATH as the next argument, as
    the compiler reads them. A flag without a path stays with the others."""
    args = list(args)
    paths, rest = [], []
    i = 0
    while i < len(args):
        flag, eq, value = args[i].partition("=")
        if flag in _TUNING_FLAGS and eq:
            paths.append(value)
        elif flag in _TUNING_FLAGS and i + 1 < len(args):
            paths.append(args[i + 1])
            i += 1
        else:
            rest.append(args[i])
        i += 1
    return paths, rest


def with_tuning(extra_args):
    """`extra_args` plus `--tuning=<tuning_dir()>` where they name no
    --tuning and a tuning directory exists."""
    args = list(extra_args)
    if any(a.partition("=")[0] in _TUNING_FLAGS for a in args):
        return args
    path = tuning_dir()
    return args + ["--tuning=" + path] if path else args


def tuning_digest(args):
    """A hex SHA-256 over the tuning files `args` name (--tuning=FILE or
    DIR: its *.json; any spelling of split_tuning), for cache keys: a bundle
    compiled with other tile choices is another bundle, the same files in
    another place the same. Empty where `args` name none."""
    paths = split_tuning(args)[0]
    if not paths:
        return ""
    digest = hashlib.sha256()
    for path in paths:
        files = ([os.path.join(path, n) for n in sorted(os.listdir(path))
                  if n.endswith(".json")] if os.path.isdir(path) else [path])
        for name in files:
            digest.update(os.path.basename(name).encode() + b"\0")
            try:
                with open(name, "rb") as f:
                    digest.update(f.read())
            except OSError:
                digest.update(b"(unreadable)")
    return digest.hexdigest()


def cli_candidates():
    """Where find_cli looks, in order."""
    candidates = []
    env = os.environ.get("FUSECC_BIN")
    if env:
        candidates.append(env)
    candidates.append(PACKAGED_CLI)
    on_path = shutil.which("fusecc")
    if on_path:
        candidates.append(on_path)
    candidates.append(os.path.join(_REPO_DIR, "build", "bin", "fusecc"))
    return candidates


def find_cli():
    """The fusecc compiler: $FUSECC_BIN, the one the installed package
    holds (fusecc/bin/fusecc), `fusecc` on PATH, then the repository's
    build/bin/fusecc. CompileError naming them otherwise."""
    env = os.environ.get("FUSECC_BIN")
    if env and not os.access(env, os.X_OK):
        raise CompileError("FUSECC_BIN='%s' is not an executable file" % env)
    for path in cli_candidates():
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise CompileError(
        "the fusecc compiler is not installed: install the package with its "
        "compiler (README.md, Installing), set FUSECC_BIN, put `fusecc` on "
        "PATH, or build it (`bash test/run.sh` builds build/bin/fusecc); "
        "tried %s" % ", ".join(cli_candidates()))


def compile_onnx(onnx_path, output, precision="tf32", chip="sm_90a",
                 extra_args=(), cli=None):
    """Runs `fusecc <onnx_path> -o <output> --precision=.. --chip=..`;
    returns `output`. CompileError with the compiler's messages if it fails."""
    if precision not in PRECISIONS:
        raise ValueError("precision must be one of %s, got %r"
                         % (", ".join(PRECISIONS), precision))
    cli = cli or find_cli()
    command = [cli, os.fspath(onnx_path), "-o", os.fspath(output),
               "--precision=" + precision, "--chip=" + chip] + with_tuning(
                   extra_args)
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise CompileError("%s failed (exit %d):\n%s%s"
                           % (" ".join(command), result.returncode,
                              result.stderr, result.stdout))
    if not os.path.exists(output):
        raise CompileError("%s wrote no bundle" % " ".join(command))
    return output


def export_onnx(model, example_inputs, path, opset=17, input_names=None,
                output_names=None, dynamo=False, dynamic_batch=False):
    """torch.onnx.export of `model` on `example_inputs` (a tensor or a
    tuple of them) to `path`, initializers kept as graph constants. The
    TorchScript exporter unless `dynamo` (where torch.onnx.export has the
    choice: PyTorch 2.5+ defaults to the dynamo exporter, which needs
    onnxscript)."""
    import inspect
    import torch
    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    kwargs = {}
    if input_names is not None:
        kwargs["input_names"] = list(input_names)
    if output_names is not None:
        kwargs["output_names"] = list(output_names)
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        kwargs["dynamo"] = dynamo
    if dynamic_batch:
        # Dim 0 of every input and output is a symbolic "batch" (fusecc
        # --max-batch compiles it for any batch up to its bound).
        inputs = list(input_names or ["input%d" % i
                                      for i in range(len(example_inputs))])
        with torch.no_grad():
            outs = model(*example_inputs)
        count = len(outs) if isinstance(outs, (tuple, list)) else 1
        outputs = list(output_names or ["output%d" % i for i in range(count)])
        kwargs["input_names"], kwargs["output_names"] = inputs, outputs
        kwargs["dynamic_axes"] = {name: {0: "batch"}
                                  for name in inputs + outputs}
    try:
        with torch.no_grad():
            torch.onnx.export(model, example_inputs, os.fspath(path),
                              opset_version=opset, do_constant_folding=True,
                              **kwargs)
    except Exception as error:
        raise CompileError("torch.onnx.export failed: %s: %s"
                           % (type(error).__name__, error)) from error
    return path


_HALF_ONNX_TYPES = {"float16": "FLOAT16", "bfloat16": "BFLOAT16"}


def half_dtype_of(model, example_inputs):
    """torch.float16 or torch.bfloat16 when the module's floating
    parameters and buffers and its floating example inputs all have that
    dtype; None when they are all float32. ValueError for other mixes."""
    import torch
    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    tensors = list(model.parameters()) + list(model.buffers()) + [
        t for t in example_inputs if isinstance(t, torch.Tensor)]
    dtypes = {t.dtype for t in tensors if t.is_floating_point()}
    if not dtypes or dtypes == {torch.float32}:
        return None
    if len(dtypes) == 1 and dtypes <= {torch.float16, torch.bfloat16}:
        return dtypes.pop()
    raise ValueError("the module's parameters, buffers and example inputs "
                     "mix dtypes %s; fusecc.compile takes all float32, all "
                     "float16 or all bfloat16"
                     % ", ".join(sorted(str(d) for d in dtypes)))


def retype_onnx_half(path, dtype):
    """Rewrites the ONNX model at `path` (exported in float32) for the half
    `dtype`: FLOAT graph inputs, outputs and initializers become FLOAT16 or
    BFLOAT16 (values rounded to nearest even; exact for the float32 copy of
    a half module's weights); intermediate value types are dropped."""
    import numpy as np
    import onnx
    from onnx import numpy_helper
    name = str(dtype).rsplit(".", 1)[-1]
    elem = getattr(onnx.TensorProto, _HALF_ONNX_TYPES[name])
    model = onnx.load(os.fspath(path))
    graph = model.graph
    for value in list(graph.input) + list(graph.output):
        tensor_type = value.type.tensor_type
        if tensor_type.elem_type == onnx.TensorProto.FLOAT:
            tensor_type.elem_type = elem
    del graph.value_info[:]
    for k, init in enumerate(graph.initializer):
        if init.data_type != onnx.TensorProto.FLOAT:
            continue
        array = numpy_helper.to_array(init).astype(np.float32)
        if elem == onnx.TensorProto.FLOAT16:
            new = numpy_helper.from_array(array.astype(np.float16), init.name)
        else:
            bits = np.ascontiguousarray(array).view(np.uint32)
            rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
            nan = np.isnan(array)
            rounded = np.where(nan, (bits >> 16) | 0x40, rounded)
            new = onnx.helper.make_tensor(
                init.name, elem, array.shape,
                rounded.astype("<u2").tobytes(), raw=True)
        graph.initializer[k].CopyFrom(new)
    onnx.save(model, os.fspath(path))
    return path


def export_half_onnx(model, example_inputs, path, dtype, opset=17,
                     input_names=None, output_names=None, dynamo=False,
                     dynamic_batch=False):
    """Exports the half module `model` (dtype torch.float16/bfloat16) as
    its float32 copy on float32 inputs, then retypes the model's boundary
    and weights to `dtype` (retype_onnx_half). `dynamic_batch` as in
    export_onnx (dim 0 of every input and output is the symbolic batch)."""
    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    wide = copy.deepcopy(model).float()
    inputs = tuple(t.float() if t.is_floating_point() else t
                   for t in example_inputs)
    export_onnx(wide, inputs, path, opset, input_names, output_names, dynamo,
                dynamic_batch)
    try:
        return retype_onnx_half(path, dtype)
    except ImportError as error:
        raise CompileError("compiling a %s module needs the onnx Python "
                           "package (%s)" % (dtype, error)) from error


def compile(model, example_inputs, precision="tf32", chip="sm_90a",
            output=None, opset=17, input_names=None, output_names=None,
            extra_args=(), lib=None, device=None, keep_dir=False,
            dynamo=False, max_batch=None):
    """Compiles a PyTorch module for its example inputs' shapes and loads it.

    Exports `model` with torch.onnx.export (opset `opset`), runs the fusecc
    CLI (find_cli()) on the .onnx file with --precision and --chip (plus
    `extra_args`), and returns fusecc.load() of the bundle (its entry, one
    for the model, takes the model's inputs in order; the weights are
    constants of the bundle). A float16/bfloat16 module (all its floating
    parameters, buffers and example inputs in that dtype) compiles to a
    bundle that takes and returns tensors of that dtype
    (export_half_onnx). `output` keeps a
    copy of the bundle at that path; `keep_dir` keeps the temporary
    directory (its path is the returned module's `build_dir`).
    `max_batch=N`: dim 0 of every input and output is exported as a
    symbolic batch and compiled with --max-batch=N: the entry takes any
    batch from 1 to N (docs/design/plans.md, "Dynamic batch")."""
    cli = find_cli()  # Fail before exporting when there is no compiler.
    if precision not in PRECISIONS:
        raise ValueError("precision must be one of %s, got %r"
                         % (", ".join(PRECISIONS), precision))
    directory = tempfile.mkdtemp(prefix="fusecc-")
    try:
        onnx_path = os.path.join(directory, "model.onnx")
        bundle_path = os.path.join(directory, "model.fcb")
        half = half_dtype_of(model, example_inputs)
        if half is not None:
            export_half_onnx(model, example_inputs, onnx_path, half, opset,
                             input_names, output_names, dynamo,
                             dynamic_batch=bool(max_batch))
        elif max_batch:
            export_onnx(model, example_inputs, onnx_path, opset, input_names,
                        output_names, dynamo, dynamic_batch=True)
        else:
            export_onnx(model, example_inputs, onnx_path, opset, input_names,
                        output_names, dynamo)
        if max_batch:
            extra_args = list(extra_args) + ["--max-batch=%d" % max_batch]
        compile_onnx(onnx_path, bundle_path, precision, chip, extra_args, cli)
        if output is not None:
            shutil.copyfile(bundle_path, os.fspath(output))
        loaded = module_layer.load(output if output is not None
                                   else bundle_path, lib=lib, device=device)
        loaded.build_dir = directory if keep_dir else None
        return loaded
    finally:
        if not keep_dir:
            shutil.rmtree(directory, ignore_errors=True)
