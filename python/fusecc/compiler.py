# ===- fusecc/compiler.py - PyTorch module -> ONNX -> fusecc bundle -----=== #
#
# fusecc.compile(module, example_inputs): exports the module with
# torch.onnx.export (opset 17) into a temporary directory, runs the `fusecc`
# command-line compiler on the .onnx file and loads the bundle it writes.
#
# ===--------------------------------------------------------------------=== #

import os
import shutil
import subprocess
import tempfile

from . import module as module_layer

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_REPO_DIR = os.path.dirname(os.path.dirname(_PACKAGE_DIR))
PRECISIONS = ("ieee", "tf32")


class CompileError(RuntimeError):
    """The export or the fusecc compiler failed (with its output)."""


# Where an installed package (python/setup.py) holds the compiler.
PACKAGED_CLI = os.path.join(_PACKAGE_DIR, "bin", "fusecc")


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
               "--precision=" + precision, "--chip=" + chip] + list(extra_args)
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
                output_names=None, dynamo=False):
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
    try:
        with torch.no_grad():
            torch.onnx.export(model, example_inputs, os.fspath(path),
                              opset_version=opset, do_constant_folding=True,
                              **kwargs)
    except Exception as error:
        raise CompileError("torch.onnx.export failed: %s: %s"
                           % (type(error).__name__, error)) from error
    return path


def compile(model, example_inputs, precision="tf32", chip="sm_90a",
            output=None, opset=17, input_names=None, output_names=None,
            extra_args=(), lib=None, device=None, keep_dir=False,
            dynamo=False):
    """Compiles a PyTorch module for its example inputs' shapes and loads it.

    Exports `model` with torch.onnx.export (opset `opset`), runs the fusecc
    CLI (find_cli()) on the .onnx file with --precision and --chip (plus
    `extra_args`), and returns fusecc.load() of the bundle (its entry, one
    for the model, takes the model's inputs in order; the weights are
    constants of the bundle). `output` keeps a
    copy of the bundle at that path; `keep_dir` keeps the temporary
    directory (its path is the returned module's `build_dir`)."""
    cli = find_cli()  # Fail before exporting when there is no compiler.
    if precision not in PRECISIONS:
        raise ValueError("precision must be one of %s, got %r"
                         % (", ".join(PRECISIONS), precision))
    directory = tempfile.mkdtemp(prefix="fusecc-")
    try:
        onnx_path = os.path.join(directory, "model.onnx")
        bundle_path = os.path.join(directory, "model.fcb")
        export_onnx(model, example_inputs, onnx_path, opset, input_names,
                    output_names, dynamo)
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
