#!/usr/bin/env python3
# ===- bench/gpu_check.py - Check and time fusecc bundles on a GPU -------=== #
#
# For every *.fcb bundle in a directory: reads its manifest through the fusecc
# runtime (libfusecc_runtime.so via ctypes), rebuilds each entry's op graph as
# a PyTorch function from the `graph` lines (docs/bundle.md), launches the
# fusecc kernels with fusecc_module_launch on PyTorch's current stream, and
# compares against the graph evaluated in float64 on the GPU. Then times the
# fusecc launch against eager PyTorch float32 and torch.compile of the same
# graph function, and prints one table (also $OUT/perf_table.md and
# $OUT/gpu_check.json). Exits 1 if any check fails.
#
# Usage: python3 bench/gpu_check.py [--bundles DIR] [--lib PATH] [--filter S]
#                                   [--reps N] [--warmup N] [--no-time]
#                                   [--no-compile] [--seed N] [--out DIR]
#
# ===--------------------------------------------------------------------=== #

import argparse
import ctypes
import datetime
import glob
import json
import math
import os
import platform
import secrets
import statistics
import struct
import sys
import traceback

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # Checked in main(); the module stays importable.
    torch = None
    F = None

# ---------------------------------------------------------------------------
# The fusecc runtime through ctypes (mirrors runtime/include/fusecc/runtime.h)
# ---------------------------------------------------------------------------

MAX_RANK = 8
DTYPE_NAMES = {0: "f32", 1: "f16", 2: "bf16"}
PRECISION_NAMES = {0: "ieee", 1: "tf32"}


class Buffer(ctypes.Structure):
    """fusecc_buffer_t."""

    _fields_ = [("ptr", ctypes.c_uint64), ("size_bytes", ctypes.c_size_t)]


class EntryInfo(ctypes.Structure):
    """fusecc_entry_info_t (the C function writes every field: this mirror
    must match the header exactly, or it writes past the ctypes buffer)."""

    _fields_ = [
        ("name", ctypes.c_char_p),
        ("arg_count", ctypes.c_size_t),
        ("input_count", ctypes.c_size_t),
        ("launch_count", ctypes.c_size_t),
        ("graph_line_count", ctypes.c_size_t),
        # Bundle format version 2: runtime-allocated scratch buffers.
        ("workspace_count", ctypes.c_size_t),
    ]


class ArgInfo(ctypes.Structure):
    """fusecc_arg_info_t."""

    _fields_ = [
        ("index", ctypes.c_size_t),
        ("name", ctypes.c_char_p),
        ("is_output", ctypes.c_int),
        ("dtype", ctypes.c_int),
        ("dtype_name", ctypes.c_char_p),
        ("rank", ctypes.c_size_t),
        ("dims", ctypes.c_int64 * MAX_RANK),
        ("element_count", ctypes.c_size_t),
        ("byte_size", ctypes.c_size_t),
    ]


class LaunchInfo(ctypes.Structure):
    """fusecc_launch_info_t."""

    _fields_ = [
        ("kernel_name", ctypes.c_char_p),
        ("grid", ctypes.c_uint32 * 3),
        ("block", ctypes.c_uint32 * 3),
        ("smem_bytes", ctypes.c_uint32),
        ("param_count", ctypes.c_size_t),
        # Values >= the entry's arg_count name workspace (value - arg_count).
        ("param_args", ctypes.POINTER(ctypes.c_size_t)),
    ]


class FuseccError(RuntimeError):
    """A non-OK fusecc_status_t, with its code name and message."""


class Runtime:
    """The subset of the fusecc C API this checker uses."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        lib = self.lib
        status = ctypes.c_void_p
        size = ctypes.c_size_t
        handle = ctypes.c_void_p
        signatures = {
            "fusecc_status_code": (ctypes.c_int, [status]),
            "fusecc_status_message": (ctypes.c_char_p, [status]),
            "fusecc_status_free": (None, [status]),
            "fusecc_status_code_name": (ctypes.c_char_p, [ctypes.c_int]),
            "fusecc_bundle_load_file": (
                status, [ctypes.c_char_p, ctypes.POINTER(handle)]),
            "fusecc_bundle_release": (None, [handle]),
            "fusecc_bundle_chip": (ctypes.c_char_p, [handle]),
            "fusecc_bundle_precision": (ctypes.c_int, [handle]),
            "fusecc_bundle_ptx": (ctypes.c_char_p,
                                  [handle, ctypes.POINTER(size)]),
            "fusecc_bundle_entry_count": (size, [handle]),
            "fusecc_bundle_entry_info": (
                status, [handle, size, ctypes.POINTER(EntryInfo)]),
            "fusecc_bundle_arg_info": (
                status, [handle, size, size, ctypes.POINTER(ArgInfo)]),
            "fusecc_bundle_launch_info": (
                status, [handle, size, size, ctypes.POINTER(LaunchInfo)]),
            "fusecc_bundle_graph_line": (
                status, [handle, size, size, ctypes.POINTER(ctypes.c_char_p)]),
            "fusecc_module_load": (status, [handle, ctypes.POINTER(handle)]),
            "fusecc_module_release": (None, [handle]),
            "fusecc_module_launch": (
                status, [handle, size, ctypes.POINTER(Buffer), size,
                         ctypes.c_void_p]),
        }
        for name, (restype, argtypes) in signatures.items():
            function = getattr(lib, name)
            function.restype = restype
            function.argtypes = argtypes

    def check(self, status, what):
        """Raises FuseccError for a non-NULL status (and frees it)."""
        if not status:
            return
        lib = self.lib
        code = lib.fusecc_status_code_name(lib.fusecc_status_code(status))
        message = lib.fusecc_status_message(status)
        lib.fusecc_status_free(status)
        raise FuseccError("%s: %s: %s" % (what, code.decode(),
                                          message.decode(errors="replace")))


class Arg:
    """One entry argument as the manifest declares it."""

    def __init__(self, info):
        self.index = info.index
        self.name = info.name.decode()
        self.is_output = bool(info.is_output)
        self.dtype = info.dtype_name.decode()
        self.shape = tuple(info.dims[d] for d in range(info.rank))
        self.byte_size = info.byte_size


class Entry:
    """One entry: args, launches and graph lines."""

    def __init__(self, index, name, args, launches, graph, input_count,
                 workspace_count=0):
        self.index = index
        self.name = name
        self.args = args
        self.launches = launches
        self.graph = graph
        self.input_count = input_count
        self.workspace_count = workspace_count

    @property
    def inputs(self):
        return [a for a in self.args if not a.is_output]

    @property
    def outputs(self):
        return [a for a in self.args if a.is_output]


class Bundle:
    """A parsed bundle file and (once loaded) its CUDA module."""

    def __init__(self, runtime, path):
        self.runtime = runtime
        self.path = path
        self.handle = ctypes.c_void_p()
        self.module = ctypes.c_void_p()
        lib = runtime.lib
        runtime.check(lib.fusecc_bundle_load_file(path.encode(),
                                                  ctypes.byref(self.handle)),
                      "fusecc_bundle_load_file")
        self.chip = lib.fusecc_bundle_chip(self.handle).decode()
        self.precision = PRECISION_NAMES.get(
            lib.fusecc_bundle_precision(self.handle), "unknown")
        ptx_size = ctypes.c_size_t()
        lib.fusecc_bundle_ptx(self.handle, ctypes.byref(ptx_size))
        self.ptx_size = ptx_size.value
        self.entries = [self._read_entry(e) for e in
                        range(lib.fusecc_bundle_entry_count(self.handle))]

    def _read_entry(self, e):
        lib, check = self.runtime.lib, self.runtime.check
        info = EntryInfo()
        check(lib.fusecc_bundle_entry_info(self.handle, e, ctypes.byref(info)),
              "fusecc_bundle_entry_info")
        args = []
        for a in range(info.arg_count):
            arg = ArgInfo()
            check(lib.fusecc_bundle_arg_info(self.handle, e, a,
                                             ctypes.byref(arg)),
                  "fusecc_bundle_arg_info")
            args.append(Arg(arg))
        launches = []
        for i in range(info.launch_count):
            launch = LaunchInfo()
            check(lib.fusecc_bundle_launch_info(self.handle, e, i,
                                                ctypes.byref(launch)),
                  "fusecc_bundle_launch_info")
            # Params: an int is an entry arg index, "w<k>" workspace k (the
            # runtime allocates workspaces itself; callers never pass them).
            params = []
            for p in range(launch.param_count):
                index = launch.param_args[p]
                params.append(index if index < info.arg_count
                              else "w%d" % (index - info.arg_count))
            launches.append({
                "kernel": launch.kernel_name.decode(),
                "grid": list(launch.grid),
                "block": list(launch.block),
                "smem": launch.smem_bytes,
                "params": params,
            })
        graph = []
        for g in range(info.graph_line_count):
            text = ctypes.c_char_p()
            check(lib.fusecc_bundle_graph_line(self.handle, e, g,
                                               ctypes.byref(text)),
                  "fusecc_bundle_graph_line")
            graph.append(text.value.decode())
        return Entry(e, info.name.decode(), args, launches, graph,
                     info.input_count, info.workspace_count)

    def load_module(self):
        """Loads the PTX into the current CUDA context (PyTorch's)."""
        self.runtime.check(
            self.runtime.lib.fusecc_module_load(self.handle,
                                                ctypes.byref(self.module)),
            "fusecc_module_load")

    def launch(self, entry_index, buffers, stream):
        """Enqueues an entry on `stream` (a cudaStream_t as an int)."""
        self.runtime.check(
            self.runtime.lib.fusecc_module_launch(
                self.module, entry_index, buffers, len(buffers),
                ctypes.c_void_p(stream)),
            "fusecc_module_launch")

    def close(self):
        lib = self.runtime.lib
        if self.module:
            lib.fusecc_module_release(self.module)
            self.module = ctypes.c_void_p()
        if self.handle:
            lib.fusecc_bundle_release(self.handle)
            self.handle = ctypes.c_void_p()


# ---------------------------------------------------------------------------
# Graph lines -> PyTorch function
# ---------------------------------------------------------------------------

BINARY_OPS = ("add", "sub", "mul", "div", "maximum", "minimum", "pow")
UNARY_OPS = ("neg", "abs", "exp", "log", "sqrt", "rsqrt", "erf", "tanh",
             "sigmoid", "relu", "silu", "softplus", "mish", "hardsigmoid",
             "hardswish", "gelu", "leaky_relu", "clamp")
UNARY_ATTRS = {"gelu": {"approximate"}, "leaky_relu": {"slope"},
               "clamp": {"min", "max"}}


def f32(value):
    """Rounds a Python float to the nearest float32, as the kernels see it."""
    return struct.unpack("f", struct.pack("f", float(value)))[0]


class GraphError(ValueError):
    """A graph line this checker cannot rebuild."""


class Op:
    """One parsed graph line `%k = <op> <operands> <key=value...>`."""

    def __init__(self, line):
        tokens = line.split(" ")
        if len(tokens) < 3 or tokens[1] != "=" or not tokens[0].startswith("%"):
            raise GraphError("cannot parse graph line '%s'" % line)
        self.line = line
        self.result = value_id(tokens[0], line)
        self.kind = tokens[2]
        self.operands = []
        self.attrs = {}
        self.params = {}
        for token in tokens[3:]:
            if token.startswith("%"):
                if self.attrs:
                    raise GraphError("operand after attributes in '%s'" % line)
                self.operands.append(value_id(token, line))
            elif "=" in token:
                key, _, value = token.partition("=")
                self.attrs[key] = value
            elif self.kind == "const" and not self.operands:
                self.attrs["value"] = token
            else:
                raise GraphError("unexpected token '%s' in '%s'" % (token, line))

    def int_list(self, key, rank, default):
        """The comma-separated integers of attribute `key`, `rank` of them."""
        text = self.attrs.get(key)
        if text is None:
            return [default] * rank
        try:
            values = [int(v) for v in text.split(",")]
        except ValueError:
            raise GraphError("%s=%s is not a list of integers in '%s'"
                             % (key, text, self.line))
        if len(values) != rank:
            raise GraphError("%s has %d values, expected %d in '%s'"
                             % (key, len(values), rank, self.line))
        return values

    def check_arity(self, low, high, allowed_attrs):
        if not low <= len(self.operands) <= high:
            raise GraphError("'%s' takes %d to %d operands in '%s'"
                             % (self.kind, low, high, self.line))
        unknown = set(self.attrs) - set(allowed_attrs)
        if unknown:
            raise GraphError("unknown attribute(s) %s in '%s'"
                             % (", ".join(sorted(unknown)), self.line))


def value_id(token, line):
    try:
        return int(token[1:])
    except ValueError:
        raise GraphError("bad value name '%s' in '%s'" % (token, line))


class Graph:
    """An entry's graph lines as a callable: graph(*inputs) -> outputs.

    Works in whatever dtype the inputs have (float64 for the reference,
    float32 for the eager and torch.compile baselines). Constants are Python
    floats rounded to float32, so they take the inputs' dtype.
    """

    def __init__(self, lines, input_count):
        self.input_count = input_count
        self.ops = []
        self.returns = None
        defined = set(range(input_count))
        for line in lines:
            if line.startswith("return"):
                tokens = line.split(" ")[1:]
                if not tokens:
                    raise GraphError("'return' without values")
                self.returns = [value_id(t, line) for t in tokens]
                for v in self.returns:
                    if v not in defined:
                        raise GraphError("return of undefined %%%d" % v)
                continue
            op = Op(line)
            self.validate(op)
            for v in op.operands:
                if v not in defined:
                    raise GraphError("use of undefined %%%d in '%s'" % (v, line))
            if op.result in defined:
                raise GraphError("%%%d defined twice" % op.result)
            defined.add(op.result)
            self.ops.append(op)
        if self.returns is None:
            raise GraphError("graph has no 'return' line")

    @staticmethod
    def validate(op):
        """Checks operands and attributes and converts the attributes into
        Python values in op.params, so that calls do no parsing (and
        torch.compile traces nothing but tensor code)."""
        kind = op.kind
        params = op.params
        try:
            if kind == "conv_transpose":
                op.check_arity(2, 3, {"stride", "padding", "output_padding",
                                      "dilation", "groups"})
                params["groups"] = int(op.attrs.get("groups", "1"))
            elif kind in BINARY_OPS:
                op.check_arity(2, 2, ())
            elif kind in UNARY_OPS:
                op.check_arity(1, 1, UNARY_ATTRS.get(kind, ()))
                if kind == "gelu":
                    params["approximate"] = op.attrs.get("approximate", "none")
                    if params["approximate"] not in ("none", "tanh"):
                        raise GraphError("gelu approximate=%s in '%s'"
                                         % (params["approximate"], op.line))
                elif kind == "leaky_relu":
                    params["slope"] = f32(op.attrs.get("slope", "0.01"))
                elif kind == "clamp":
                    for key in ("min", "max"):
                        params[key] = (f32(op.attrs[key]) if key in op.attrs
                                       else None)
            elif kind == "const":
                op.check_arity(0, 0, {"value"})
                if "value" not in op.attrs:
                    raise GraphError("const without a value in '%s'" % op.line)
                params["value"] = f32(op.attrs["value"])
            elif kind == "softmax":
                op.check_arity(1, 1, {"dim"})
                params["dim"] = int(op.attrs["dim"])
            elif kind == "layer_norm":
                op.check_arity(1, 3, {"normalized_rank", "eps"})
                params["rank"] = int(op.attrs["normalized_rank"])
                params["eps"] = f32(op.attrs.get("eps", "1e-5"))
            else:
                raise GraphError("unknown op '%s' in '%s'" % (kind, op.line))
        except (KeyError, ValueError) as error:
            if isinstance(error, GraphError):
                raise
            raise GraphError("bad or missing attribute (%s) in '%s'"
                             % (error, op.line))

    def roles(self):
        """Maps input value ids that feed a conv_transpose as weight or bias
        to that op (both are initialised from the weight's fan)."""
        roles = {}
        for op in self.ops:
            if op.kind == "conv_transpose":
                for operand in op.operands[1:]:
                    roles.setdefault(operand, op)
        return roles

    def conv_ops(self):
        return [op for op in self.ops if op.kind == "conv_transpose"]

    def __call__(self, *inputs):
        values = dict(enumerate(inputs))
        like = inputs[0] if inputs else None

        def tensor(v):
            if isinstance(v, float):
                return torch.tensor(v, dtype=like.dtype, device=like.device)
            return v

        for op in self.ops:
            a = [values[i] for i in op.operands]
            k = op.kind
            if k == "conv_transpose":
                x, w = a[0], a[1]
                b = a[2] if len(a) == 3 else None
                rank = x.dim() - 2
                fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d,
                      3: F.conv_transpose3d}.get(rank)
                if fn is None:
                    raise GraphError("conv_transpose of rank-%d input" % x.dim())
                r = fn(x, w, b,
                       stride=op.int_list("stride", rank, 1),
                       padding=op.int_list("padding", rank, 0),
                       output_padding=op.int_list("output_padding", rank, 0),
                       groups=op.params["groups"],
                       dilation=op.int_list("dilation", rank, 1))
            elif k == "const":
                r = op.params["value"]
            elif k in BINARY_OPS:
                p, q = a
                if k == "add":
                    r = p + q
                elif k == "sub":
                    r = p - q
                elif k == "mul":
                    r = p * q
                elif k == "div":
                    r = p / q
                elif k == "pow":
                    r = p ** q
                elif isinstance(p, float) and isinstance(q, float):
                    r = max(p, q) if k == "maximum" else min(p, q)
                else:
                    r = (torch.maximum if k == "maximum" else torch.minimum)(
                        tensor(p), tensor(q))
            elif k in UNARY_OPS:
                x = tensor(a[0])
                if k == "neg":
                    r = -x
                elif k == "abs":
                    r = torch.abs(x)
                elif k == "exp":
                    r = torch.exp(x)
                elif k == "log":
                    r = torch.log(x)
                elif k == "sqrt":
                    r = torch.sqrt(x)
                elif k == "rsqrt":
                    r = torch.rsqrt(x)
                elif k == "erf":
                    r = torch.erf(x)
                elif k == "tanh":
                    r = torch.tanh(x)
                elif k == "sigmoid":
                    r = torch.sigmoid(x)
                elif k == "relu":
                    r = torch.relu(x)
                elif k == "silu":
                    r = F.silu(x)
                elif k == "softplus":
                    r = F.softplus(x)
                elif k == "mish":
                    r = F.mish(x)
                elif k == "hardsigmoid":
                    r = F.hardsigmoid(x)
                elif k == "hardswish":
                    r = F.hardswish(x)
                elif k == "gelu":
                    r = F.gelu(x, approximate=op.params["approximate"])
                elif k == "leaky_relu":
                    r = F.leaky_relu(x, op.params["slope"])
                else:  # clamp
                    r = torch.clamp(x, op.params["min"], op.params["max"])
            elif k == "softmax":
                r = torch.softmax(tensor(a[0]), dim=op.params["dim"])
            else:  # layer_norm
                x = tensor(a[0])
                rank = op.params["rank"]
                if not 1 <= rank <= x.dim():
                    raise GraphError("normalized_rank=%d for a rank-%d input"
                                     % (rank, x.dim()))
                weight = a[1] if len(a) > 1 else None
                bias = a[2] if len(a) > 2 else None
                r = F.layer_norm(x, tuple(x.shape[x.dim() - rank:]), weight,
                                 bias, op.params["eps"])
            values[op.result] = r
        outputs = tuple(tensor(values[v]) for v in self.returns)
        return outputs[0] if len(outputs) == 1 else outputs


def conv_flops(op, x_shape, w_shape):
    """Exact FLOPs of one transposed conv: 2 * N * Cin * Cout/groups times,
    per spatial dim, the number of (input position, tap) pairs that land
    inside the output."""
    rank = len(x_shape) - 2
    stride = op.int_list("stride", rank, 1)
    padding = op.int_list("padding", rank, 0)
    output_padding = op.int_list("output_padding", rank, 0)
    dilation = op.int_list("dilation", rank, 1)
    n, cin = x_shape[0], x_shape[1]
    # Each input channel feeds the w_shape[1] = Cout/groups outputs of its
    # group.
    macs = n * cin * w_shape[1]
    for d in range(rank):
        size_in, taps = x_shape[2 + d], w_shape[2 + d]
        size_out = ((size_in - 1) * stride[d] - 2 * padding[d]
                    + dilation[d] * (taps - 1) + output_padding[d] + 1)
        pairs = 0
        for t in range(taps):
            offset = t * dilation[d] - padding[d]
            # Inputs i in [0, size_in) with 0 <= i*stride + offset < size_out.
            low = max(0, -(offset // stride[d]))
            high = min(size_in - 1, (size_out - 1 - offset) // stride[d])
            pairs += max(0, high - low + 1)
        macs *= pairs
    return 2 * macs


# ---------------------------------------------------------------------------
# Checking and timing
# ---------------------------------------------------------------------------

REL_L2_LIMIT = {"ieee": 1e-5, "tf32": 2e-3}
# tf32 bundles are also compared with the graph in float64 on TF32-rounded
# convolution operands (what the tensor cores multiply): that removes the
# rounding the tf32 limit above allows for, so only FP32 accumulation and
# epilogue error remain. It catches errors the tf32 limit hides where the
# output barely depends on the convolution (kb2_91: sigmoid(softmax + bias)
# with the convolution dropped stays within 2e-3 of the graph: 5.2e-4;
# the real kernels are at 4e-8 to 2e-6 against TF32-rounded operands).
TF32_OPERANDS_REL_L2_LIMIT = 1e-4
# Extra tolerance when arguments are stored in a 16-bit type.
DTYPE_REL_L2_FLOOR = {"f32": 0.0, "f16": 2e-3, "bf16": 1.6e-2}
L2_ROTATION_BYTES = 60 << 20
MAX_ROTATION_SETS = 64
ROTATION_MEMORY_BUDGET = 16 << 30


def torch_dtype(name):
    return {"f32": torch.float32, "f16": torch.float16,
            "bf16": torch.bfloat16}[name]


def set_tf32(enabled):
    """Sets TF32 for cuDNN convolutions and matmuls (new API when present)."""
    mode = "tf32" if enabled else "ieee"
    try:
        torch.backends.cudnn.conv.fp32_precision = mode
        torch.backends.cuda.matmul.fp32_precision = mode
        return
    except (AttributeError, RuntimeError, TypeError, ValueError):
        pass
    torch.backends.cudnn.allow_tf32 = enabled
    torch.backends.cuda.matmul.allow_tf32 = enabled


def make_inputs(entry, graph, device):
    """Fresh random inputs: x (input 0) ~ U[0,1) like KernelBench, conv
    weights and biases ~ U(-1/sqrt(fan), 1/sqrt(fan)) like nn.ConvTranspose
    (fan = weight.shape[1] * prod(kernel)), everything else ~ N(0, 1)."""
    roles = graph.roles()
    tensors = []
    for i, arg in enumerate(entry.inputs):
        dtype = torch_dtype(arg.dtype)
        conv = roles.get(i)
        weight = conv.operands[1] if conv else None
        if weight is not None and weight < len(entry.inputs):
            w_shape = entry.inputs[weight].shape
            fan = w_shape[1] * math.prod(w_shape[2:])
            bound = 1.0 / math.sqrt(fan)
            t = torch.empty(arg.shape, dtype=dtype, device=device)
            t.uniform_(-bound, bound)
        elif i == 0 or arg.name in ("x", "input"):
            t = torch.rand(arg.shape, dtype=dtype, device=device)
        else:
            t = torch.randn(arg.shape, dtype=dtype, device=device)
        tensors.append(t)
    return tensors


def buffers_for(tensors):
    array = (Buffer * len(tensors))()
    for i, t in enumerate(tensors):
        array[i].ptr = t.data_ptr()
        array[i].size_bytes = t.numel() * t.element_size()
    return array


def round_tf32(t):
    """`t` (f32) rounded to TF32 as cvt.rna.tf32.f32 does: to nearest, ties
    away from zero, on the magnitude (10 mantissa bits kept)."""
    bits = t.float().contiguous().view(torch.int32)
    finite = torch.isfinite(t.float())
    rounded = ((bits + 0x1000) & ~0x1FFF).view(torch.float32)
    return torch.where(finite, rounded, t.float())


def rel_l2(out, ref):
    """Relative L2 error of `out` against the float64 `ref` (finite
    reference elements only)."""
    finite = torch.isfinite(ref)
    diff = torch.where(finite, out.double() - ref, torch.zeros_like(ref))
    norm = torch.linalg.vector_norm(
        torch.where(finite, ref, torch.zeros_like(ref))).item()
    d = torch.linalg.vector_norm(diff).item()
    return d / norm if norm > 0 else d


def compare(out, ref, precision, dtype):
    """Accuracy numbers of `out` against the float64 `ref`."""
    out64 = out.double()
    finite_ref = torch.isfinite(ref)
    bad = int((~torch.isfinite(out64) & finite_ref).sum().item())
    diff = torch.where(finite_ref, out64 - ref, torch.zeros_like(ref))
    rel = rel_l2(out, ref)
    max_abs = diff.abs().max().item() if diff.numel() else 0.0
    allclose = bool(torch.allclose(out.float(), ref.float(), atol=1e-2,
                                   rtol=1e-2, equal_nan=True))
    limit = max(REL_L2_LIMIT.get(precision, 1e-5),
                DTYPE_REL_L2_FLOOR.get(dtype, 0.0))
    passed = (bad == 0 and allclose and math.isfinite(rel) and rel < limit)
    return {"rel_l2": rel, "max_abs": max_abs, "allclose": allclose,
            "nonfinite": bad, "ref_nonfinite": int((~finite_ref).sum().item()),
            "rel_l2_limit": limit, "pass": passed}


def time_ms(run, sets, reps, warmup):
    """Median milliseconds of run(i) over `reps` CUDA-event-timed calls,
    rotating over `sets` input sets, after `warmup` untimed calls."""
    for i in range(warmup):
        run(i % sets)
    torch.cuda.synchronize()
    times = []
    for i in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        run(i % sets)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def shape_summary(entry):
    def dims(shape):
        return "x".join(str(d) for d in shape) or "scalar"
    ins = entry.inputs
    parts = [dims(ins[0].shape)] if ins else []
    if len(ins) > 1:
        parts.append("%s %s" % (ins[1].name, dims(ins[1].shape)))
    outs = " ".join(dims(a.shape) for a in entry.outputs)
    return " ".join(parts) + " -> " + outs


def check_entry(bundle, entry, args, device):
    """Checks (and times) one entry; returns its result row."""
    row = {"bundle": os.path.basename(bundle.path), "entry": entry.name,
           "precision": bundle.precision, "chip": bundle.chip,
           "shape": shape_summary(entry), "status": "ERROR"}
    graph = Graph(entry.graph, entry.input_count)
    if len(graph.returns) != len(entry.outputs):
        raise GraphError("graph returns %d values for %d out args"
                         % (len(graph.returns), len(entry.outputs)))
    tf32 = bundle.precision == "tf32"
    set_tf32(tf32)
    stream = torch.cuda.current_stream().cuda_stream

    # Correctness on fresh inputs, outputs poisoned with NaN.
    inputs = make_inputs(entry, graph, device)
    outputs = [torch.full(a.shape, float("nan"), dtype=torch_dtype(a.dtype),
                          device=device) for a in entry.outputs]
    buffers = buffers_for(inputs + outputs)
    bundle.launch(entry.index, buffers, stream)
    torch.cuda.synchronize()
    with torch.no_grad():
        refs = graph(*[t.double() for t in inputs])
    refs = refs if isinstance(refs, tuple) else (refs,)
    results = []
    for arg, out, ref in zip(entry.outputs, outputs, refs):
        if tuple(ref.shape) != arg.shape:
            raise GraphError("graph result shape %s != out arg '%s' shape %s"
                             % (tuple(ref.shape), arg.name, arg.shape))
        results.append(compare(out, ref, bundle.precision, arg.dtype))
    del refs
    if tf32:
        # Against TF32-rounded convolution operands (inputs of the graph).
        operands = {o for op in graph.conv_ops() for o in op.operands[:2]}
        rounded = [round_tf32(t) if i in operands and t.is_floating_point()
                   else t for i, t in enumerate(inputs)]
        with torch.no_grad():
            refs = graph(*[t.double() for t in rounded])
        refs = refs if isinstance(refs, tuple) else (refs,)
        for result, out, ref in zip(results, outputs, refs):
            err = rel_l2(out, ref)
            result["rel_l2_tf32_operands"] = err
            result["rel_l2_tf32_operands_limit"] = TF32_OPERANDS_REL_L2_LIMIT
            # A tf32 kernel that fell back to FP32 FMA (grouped convolutions
            # whose channel groups do not fit the tensor-core tiles)
            # matches the exact graph at ieee accuracy instead.
            tf32_ok = math.isfinite(err) and err < TF32_OPERANDS_REL_L2_LIMIT
            fp32_ok = result["rel_l2"] < REL_L2_LIMIT["ieee"]
            if not (tf32_ok or fp32_ok):
                result["pass"] = False
        del refs, rounded
    worst = max(results, key=lambda r: (not r["pass"], r["rel_l2"]))
    row.update(worst)
    row["status"] = "PASS" if all(r["pass"] for r in results) else "FAIL"

    flops = 0
    for op in graph.conv_ops():
        if op.operands[0] < entry.input_count and \
                op.operands[1] < entry.input_count:
            flops += conv_flops(op, entry.inputs[op.operands[0]].shape,
                                entry.inputs[op.operands[1]].shape)
    row["conv_gflop"] = flops / 1e9 if flops else None

    if args.no_time:
        return row

    # Rotating input sets for timing (set 0 is the one just checked).
    set_bytes = sum(a.byte_size for a in entry.args)
    sets = max(3, min(MAX_ROTATION_SETS,
                      math.ceil(L2_ROTATION_BYTES / max(set_bytes, 1))))
    sets = max(3, min(sets, ROTATION_MEMORY_BUDGET // max(set_bytes, 1)))
    input_sets = [inputs] + [make_inputs(entry, graph, device)
                             for _ in range(sets - 1)]
    output_sets = [outputs] + [[torch.empty_like(o) for o in outputs]
                               for _ in range(sets - 1)]
    buffer_sets = [buffers_for(i + o) for i, o in zip(input_sets, output_sets)]
    row["rotation_sets"] = sets

    def run_fusecc(i):
        bundle.launch(entry.index, buffer_sets[i], stream)

    row["fusecc_ms"] = time_ms(run_fusecc, sets, args.reps, args.warmup)

    eager_sets = [[t.float() for t in s] for s in input_sets] \
        if any(a.dtype != "f32" for a in entry.inputs) else input_sets
    with torch.no_grad():
        row["eager_ms"] = time_ms(lambda i: graph(*eager_sets[i]), sets,
                                  args.reps, args.warmup)
        if not args.no_compile:
            try:
                # Every graph shares GraphFn.__call__'s code object: start
                # from a clean Dynamo cache, or later graphs hit the
                # recompile limit and silently run eagerly.
                torch._dynamo.reset()
                compiled = torch.compile(graph.__call__)
                row["compile_ms"] = time_ms(lambda i: compiled(*eager_sets[i]),
                                            sets, args.reps,
                                            max(args.warmup, 3))
            except Exception as error:  # Inductor failures are not ours.
                row["compile_error"] = "%s: %s" % (type(error).__name__,
                                                   str(error).splitlines()[0]
                                                   if str(error) else "")
    fusecc_ms = row["fusecc_ms"]
    if row.get("eager_ms"):
        row["speedup_eager"] = row["eager_ms"] / fusecc_ms
    if row.get("compile_ms"):
        row["speedup_compile"] = row["compile_ms"] / fusecc_ms
    if flops:
        row["conv_tflops"] = flops / (fusecc_ms * 1e-3) / 1e12
    # Every argument byte moved once (graph inputs, weights, the output).
    row["gbps"] = set_bytes / (fusecc_ms * 1e-3) / 1e9
    # Issue 3's floor: max(conv FLOPs / 495 TFLOP/s, bytes / 3.0 TB/s).
    floor_ms = max((flops or 0) / PEAK_TF32_FLOPS, set_bytes / PEAK_BYTES) * 1e3
    row["floor_ms"] = floor_ms
    row["pct_floor"] = 100.0 * floor_ms / fusecc_ms
    return row


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

COLUMNS = [
    ("bundle", "bundle"), ("precision", "prec"), ("shape", "shape"),
    ("rel_l2", "rel-L2"), ("max_abs", "max-abs"), ("allclose", "allclose"),
    ("status", "check"), ("fusecc_ms", "fusecc ms"), ("eager_ms", "eager ms"),
    ("compile_ms", "compile ms"), ("speedup_eager", "x eager"),
    ("speedup_compile", "x compile"), ("conv_tflops", "conv TFLOP/s"),
    ("gbps", "GB/s"), ("pct_floor", "% of floor"),
]

# The H100 ceilings of issue 3's floor: dense TF32 tensor-core rate and
# device-memory bandwidth (read + write).
PEAK_TF32_FLOPS = 495e12
PEAK_BYTES = 3.0e12


def cell(row, key):
    value = row.get(key)
    if key == "bundle":
        return "%s:%s" % (row["bundle"], row["entry"]) if row.get("entry") \
            else row["bundle"]
    if value is None:
        return "-"
    if key in ("rel_l2", "max_abs"):
        return "%.2e" % value
    if key == "allclose":
        return "yes" if value else "no"
    if key.endswith("_ms"):
        return "%.4f" % value
    if key.startswith("speedup"):
        return "%.2fx" % value
    if key in ("conv_tflops", "gbps"):
        return "%.1f" % value if key == "conv_tflops" else "%.0f" % value
    if key == "pct_floor":
        return "%.0f%%" % value
    return str(value)


def format_table(rows, markdown):
    header = [title for _, title in COLUMNS]
    body = [[cell(r, key) for key, _ in COLUMNS] for r in rows]
    if markdown:
        lines = ["| " + " | ".join(header) + " |",
                 "|" + "|".join("---" for _ in header) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in body]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h)
              for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in body]
    return "\n".join(lines)


def environment(seed):
    props = torch.cuda.get_device_properties(0)
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "host": platform.node(),
        "device": torch.cuda.get_device_name(0),
        "capability": "sm_%d%d" % (props.major, props.minor),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "python": platform.python_version(),
        "seed": seed,
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bundles", default=os.path.join(repo, "out",
                                                          "bundles"),
                        help="directory of *.fcb files (default out/bundles)")
    parser.add_argument("--lib", default=os.environ.get(
        "FUSECC_RUNTIME_LIB",
        os.path.join(repo, "build-rt", "libfusecc_runtime.so")),
        help="libfusecc_runtime.so (default $FUSECC_RUNTIME_LIB or "
             "build-rt/libfusecc_runtime.so)")
    parser.add_argument("--filter", default="",
                        help="only bundles/entries whose 'file:entry' "
                             "contains this substring")
    parser.add_argument("--reps", type=int, default=50,
                        help="timed runs per variant (median; at least 20)")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--no-time", action="store_true",
                        help="check correctness only")
    parser.add_argument("--no-compile", action="store_true",
                        help="skip the torch.compile baseline")
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed (default: a new one each run)")
    parser.add_argument("--out", default=os.environ.get("OUT"),
                        help="write perf_table.md and gpu_check.json here "
                             "(default $OUT)")
    args = parser.parse_args()
    args.reps = max(args.reps, 20)

    if torch is None:
        print("gpu_check: PyTorch is not installed", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("gpu_check: no CUDA device visible to PyTorch", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    torch.manual_seed(seed)
    env = environment(seed)
    for key, value in env.items():
        print("%-10s %s" % (key + ":", value))
    device = torch.device("cuda", 0)
    torch.cuda.set_device(device)
    # Make PyTorch's (primary) context current before the runtime looks.
    torch.empty(1, device=device)
    torch.cuda.synchronize()

    runtime = Runtime(args.lib)
    paths = sorted(glob.glob(os.path.join(args.bundles, "*.fcb")))
    if not paths:
        print("gpu_check: no *.fcb in %s" % args.bundles, file=sys.stderr)
        return 1
    rows = []
    for path in paths:
        name = os.path.basename(path)
        bundle = None
        try:
            bundle = Bundle(runtime, path)
            entries = [e for e in bundle.entries
                       if args.filter in "%s:%s" % (name, e.name)]
            if not entries:
                continue
            print("\n== %s (%s, %s, %d entries, PTX %d bytes)"
                  % (name, bundle.chip, bundle.precision,
                     len(bundle.entries), bundle.ptx_size))
            bundle.load_module()
            for entry in entries:
                try:
                    row = check_entry(bundle, entry, args, device)
                except Exception as error:
                    row = {"bundle": name, "entry": entry.name,
                           "precision": bundle.precision,
                           "shape": shape_summary(entry), "status": "ERROR",
                           "error": "%s: %s" % (type(error).__name__, error)}
                    if not isinstance(error, (FuseccError, GraphError)):
                        traceback.print_exc()
                    if "CUDA" in str(error) and not isinstance(
                            error, (FuseccError, GraphError)):
                        # A faulting kernel poisons the context: stop.
                        rows.append(row)
                        raise
                rows.append(row)
                detail = ("  " + row["error"] if "error" in row
                          else "  rel-L2 %.2e" % row["rel_l2"])
                if "rel_l2_tf32_operands" in row:
                    detail += ", %.2e against TF32-rounded operands" % \
                        row["rel_l2_tf32_operands"]
                print("  %s: %s%s" % (entry.name, row["status"], detail))
                torch.cuda.empty_cache()
        except FuseccError as error:
            if args.filter in name:
                rows.append({"bundle": name, "status": "ERROR",
                             "error": str(error)})
                print("\n== %s\n  ERROR %s" % (name, error))
        except Exception as error:  # A CUDA fault poisons the context: stop.
            if not rows or rows[-1].get("bundle") != name:
                rows.append({"bundle": name, "status": "ERROR",
                             "error": "%s: %s" % (type(error).__name__,
                                                  error)})
            print("gpu_check: stopping after a CUDA error: %s" % error,
                  file=sys.stderr)
            break
        finally:
            if bundle is not None:
                bundle.close()

    print()
    print(format_table(rows, markdown=False))
    errors = [r for r in rows if "error" in r]
    for r in errors:
        print("%s: %s" % (cell(r, "bundle"), r["error"]))
    failed = [r for r in rows if r["status"] != "PASS"]
    print("\n%d checked, %d passed, %d failed (seed %d)"
          % (len(rows), len(rows) - len(failed), len(failed), seed))

    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "perf_table.md"), "w") as f:
            f.write("# fusecc GPU check\n\n")
            f.write("%s, torch %s, cuDNN %s, %s, seed %d\n\n"
                    % (env["device"], env["torch"], env["cudnn"], env["date"],
                       seed))
            f.write(format_table(rows, markdown=True) + "\n\n")
            f.write("rel-L2 and max-abs against the graph in float64 on the "
                    "GPU; times are medians of %d CUDA-event-timed runs "
                    "rotating over input sets; conv TFLOP/s counts exactly "
                    "the valid taps of every conv_transpose at the fusecc "
                    "time; GB/s counts every argument byte once; %% of floor "
                    "is max(FLOPs / 495 TFLOP/s, bytes / 3.0 TB/s) over the "
                    "fusecc time.\n" % args.reps)
        with open(os.path.join(args.out, "gpu_check.json"), "w") as f:
            json.dump({"environment": env, "reps": args.reps, "rows": rows},
                      f, indent=2)
    return 1 if failed or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
