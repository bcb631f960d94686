#!/usr/bin/env python3
# ===- bench/gpu_check.py - Check and time fusecc bundles on a GPU -------=== #
#
# For every *.fcb bundle in a directory: reads its manifest with the fusecc
# Python package (python/fusecc: fusecc.bundle, formats 1 to 3), rebuilds
# each entry's op graph as a PyTorch function from the `graph` lines
# (fusecc.reference; docs/bundle.md), with the bundle's constants from its
# data section, launches the fusecc kernels through the package
# (libfusecc_runtime.so) on PyTorch's current stream, and compares against
# the graph evaluated in float64 on the GPU. Then times the fusecc launch
# against eager PyTorch and torch.compile of the same graph function (in the
# bundle's storage dtype: f32, or bf16/f16 for half graphs), and prints one
# table (also $OUT/perf_table.md and $OUT/gpu_check.json; each row also
# as it is done, $OUT/gpu_check.jsonl).
# Exits 1 if any check fails. With --graphs both sides are also timed under
# CUDA graphs (docs/perf.md, "Timing under CUDA graphs"): torch.compile
# with mode="reduce-overhead" (compile_cg_ms), back-to-back calls of
# fusecc, torch.compile and its reduce-overhead twin (<label>_stream_ms,
# the host out of the loop; <label>_host_ms the host's time per call), and
# fusecc's and torch.compile's whole call captured into a
# torch.cuda.CUDAGraph per input set, replays back to back
# (<label>_replay_ms, GPU time only); speedup_compile_graphs and
# speedup_compile_replay are the ratios.
#
# Usage: python3 bench/gpu_check.py [--bundles DIR] [--lib PATH] [--filter S]
#                                   [--reps N] [--warmup N] [--no-time]
#                                   [--no-compile] [--profile CALLS]
#                                   [--seed N] [--out DIR] [--graphs]
#
# ===--------------------------------------------------------------------=== #

import argparse
import contextlib
import datetime
import glob
import json
import math
import os
import platform
import secrets
import sys
import traceback

try:
    import torch
except ImportError:  # Checked in main(); the module stays importable.
    torch = None

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chips import DEFAULT_CHIP  # noqa: E402
import random_summary  # noqa: E402
from timing import (MIN_WARM_S, add_graph_figures, add_ratios,  # noqa: E402
                    kernel_profile, time_ms)
from gpu_check_report import (COLUMNS, GRAPH_COLUMNS,  # noqa: E402,F401
                              PEAK_BF16_FLOPS, PEAK_BYTES, PEAK_TF32_FLOPS,
                              cell, format_table)
import fusecc  # noqa: E402
from fusecc.bundle import BundleError  # noqa: E402
from fusecc.module import ArgumentError  # noqa: E402
# The entry's exact convolution FLOPs and the checkers' input draw
# (python/fusecc), gpu_check's names too (python/tests/test_gpu_check.py).
from fusecc.flops import conv_flops  # noqa: E402
from fusecc.inputs import make_inputs  # noqa: E402
from fusecc.reference import Graph, GraphError  # noqa: E402,F401
from fusecc.runtime import FuseccError  # noqa: E402

# ---------------------------------------------------------------------------
# Bundles through the fusecc package (python/fusecc)
# ---------------------------------------------------------------------------


class Bundle:
    """A bundle's manifest (fusecc.bundle) and, once loaded, its module
    (fusecc.load: libfusecc_runtime.so in PyTorch's context)."""

    def __init__(self, lib, path):
        self.lib = lib
        self.path = path
        self.parsed = fusecc.bundle.read(path)
        self.chip = self.parsed.chip
        self.precision = self.parsed.precision
        self.ptx_size = self.parsed.ptx_size
        self.entries = self.parsed.entries
        self.module = None

    def load_module(self):
        """Loads the PTX (and constants) into PyTorch's current context."""
        self.module = fusecc.load(self.path, lib=self.lib,
                                  device=torch.cuda.current_device())

    def launch(self, entry_index, buffers, stream):
        """Enqueues an entry on `stream` (a cudaStream_t as an int): the
        runtime call alone, for timing loops."""
        self.module.launch_raw(entry_index, buffers, stream)

    def graph(self, entry):
        """The entry's graph lines as a fusecc.reference.Graph, with the
        bundle's constants (CPU tensors) when it has any."""
        return fusecc.reference.entry_graph(self.parsed, entry)

    def constant_bytes(self, entry):
        """Bytes of the constants the entry's kernels read."""
        used = {p.index for step in entry.launches for p in step.params
                if p.kind == "const"}
        return sum(self.parsed.constants[k].byte_size for k in used)

    def close(self):
        if self.module is not None:
            self.module.close()
            self.module = None


# ---------------------------------------------------------------------------
# Checking and timing
# ---------------------------------------------------------------------------

# The rule's names are this module's too (python/tests/test_gpu_check.py).
from accuracy import (  # noqa: E402,F401 (the rule: bench/accuracy.py)
    AUTOCAST_DTYPE, DEGENERATE_FRACTION, DEGENERATE_SAMPLE,
    DTYPE_REL_L2_FLOOR, HALF_STORE_FACTOR, IEEE_MODEL_FACTOR, REL_L2_LIMIT,
    SPLIT_MODEL_REL_L2_LIMIT, TF32_F32_MODEL_FACTOR,
    TF32_OPERANDS_REL_L2_LIMIT, TF32_ROUNDING_FACTOR, allclose_with_rounding,
    autocast, compare, ieee_allowance, mode_fraction, rel_l2, round_bf16,
    round_fp16, round_operand, round_tf32, sound, split_operand_conv,
    tf32_operands_limit)

L2_ROTATION_BYTES = 60 << 20
MAX_ROTATION_SETS = 64
ROTATION_MEMORY_BUDGET = 16 << 30


def torch_dtype(name):
    return fusecc.module.torch_dtype(name)


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


def buffers_for(tensors):
    return fusecc.runtime.buffers((t.data_ptr(), t.numel() * t.element_size())
                                  for t in tensors)


def shape_summary(entry):
    def dims(shape):
        return "x".join(str(d) for d in shape) or "scalar"
    ins = entry.inputs
    parts = [dims(ins[0].shape)] if ins else []
    if len(ins) > 1:
        parts.append("%s %s" % (ins[1].name, dims(ins[1].shape)))
    outs = " ".join(dims(a.shape) for a in entry.outputs)
    return " ".join(parts) + " -> " + outs


def launch_poisoned(bundle, entry, inputs, device):
    """The entry launched through the package's checked call (fusecc.Module
    entry) on outputs poisoned with NaN; returns the outputs."""
    outputs = [torch.full(a.shape, float("nan"), dtype=torch_dtype(a.dtype),
                          device=device) for a in entry.outputs]
    bundle.module[entry.name](*inputs, out=outputs)
    torch.cuda.synchronize()
    return outputs


def f32_operands_model(rounded_graph, rounded, round_op, device):
    """The graph on TF32-rounded operands (`rounded_graph` with its rounded
    constants, the rounded inputs `rounded`, every computed convolution
    operand rounded by `round_op`) evaluated in float32 with TF32 off: the
    FP32 model of a tf32 kernel (bench/accuracy.py,
    TF32_F32_MODEL_FACTOR). Returns a tuple of outputs; TF32 is on again
    after it (tf32 bundles only)."""
    graph = rounded_graph.bind(torch.float32, device)
    set_tf32(False)
    try:
        with torch.no_grad():
            outs = graph.evaluate(
                [t.float() if t.is_floating_point() else t for t in rounded],
                conv_operand=lambda v: round_op(v).to(v.dtype))
    finally:
        set_tf32(True)
    return outs if isinstance(outs, tuple) else (outs,)


def check_outputs(bundle, entry, graph, reference, baseline, inputs, outputs,
                  shapes, device, draw):
    """Every output of one launch on `inputs` (drawn as `draw` says) against
    the graph in float64 (`shapes` receives the values' shapes); returns one
    result per output."""
    # tf32, bf16, fp16: the convolution's operands are rounded (the checks
    # below were written for tf32 and apply to all three; their result keys
    # keep the tf32 names).
    round_op = round_operand(bundle.precision)
    tf32 = round_op is not None
    with torch.no_grad():
        refs = reference.evaluate([t.double() for t in inputs], shapes)
    refs = refs if isinstance(refs, tuple) else (refs,)
    results = []
    for arg, out, ref in zip(entry.outputs, outputs, refs):
        if tuple(ref.shape) != arg.shape:
            raise GraphError("graph result shape %s != out arg '%s' shape %s"
                             % (tuple(ref.shape), arg.name, arg.shape))
        results.append(compare(out, ref, bundle.precision, arg.dtype))
        results[-1]["mode_fraction"] = mode_fraction(ref)
        results[-1]["draw"] = draw
    if not tf32:
        ieee_allowance(results, outputs, refs, reference, baseline, inputs)
    # A tf32 result over the fixed limit keeps its exact reference: the limit
    # then widens to what TF32 rounding of the convolution operands alone
    # costs this graph in exact arithmetic (below).
    exact = refs if tf32 and not all(r["pass"] for r in results) else None
    del refs
    if tf32:
        # Against TF32-rounded convolution operands: inputs of the graph,
        # constants (version 3 weights) and results of earlier ops.
        operands = {o for op in graph.conv_ops() for o in op.operands[:2]}
        rounded = [round_op(t) if i in operands and t.is_floating_point()
                   else t for i, t in enumerate(inputs)]
        sources = graph.const_sources()
        rounded_consts = {sources[o] for o in operands if o in sources}
        rounded_graph = reference
        if rounded_consts:
            rounded_graph = Graph(graph.lines, graph.input_count, [
                round_op(c) if k in rounded_consts and c.is_floating_point()
                else c for k, c in enumerate(graph.constants)]).bind(
                    torch.float64, device)
        with torch.no_grad():
            refs = rounded_graph.evaluate(
                [t.double() for t in rounded],
                conv_operand=lambda v: round_op(v).to(v.dtype))
        refs = refs if isinstance(refs, tuple) else (refs,)
        models = None
        if bundle.precision == "tf32":
            models = f32_operands_model(rounded_graph, rounded, round_op,
                                        device)
        torch_outs = None
        storage = sorted({a.dtype for a in entry.inputs if a.dtype != "f32"})
        if bundle.precision in AUTOCAST_DTYPE:
            # Issue 34's rule: at least as accurate as PyTorch eager in that
            # dtype, both against the graph on the same rounded operands:
            # a graph stored in a half type run by PyTorch in that type
            # (model.to(dtype)), an f32 graph under autocast.
            with torch.no_grad():
                if storage:
                    try:
                        torch_outs = graph.bind(torch_dtype(storage[0]),
                                                device)(*inputs)
                    except RuntimeError as error:
                        # PyTorch without that half kernel here (1.13's CPU
                        # bf16 conv_transpose): the rounding limit alone.
                        for result in results:
                            result["torch_half_error"] = str(error)[:200]
                else:
                    with autocast(bundle.precision):
                        torch_outs = baseline(*[t.float() for t in inputs])
        elif bundle.precision == "tf32":
            # PyTorch's own TF32 run (check_entry set TF32 on): reported
            # next to ours, not a limit (cuDNN need not round its operands
            # as cvt.rna does, docs/perf.md 217).
            with torch.no_grad():
                tf32_outs = baseline(*[t.float() for t in inputs])
            tf32_outs = (tf32_outs if isinstance(tf32_outs, tuple)
                         else (tf32_outs,))
            for result, value, ref in zip(results, tf32_outs, refs):
                result["rel_l2_torch_operands"] = rel_l2(value.float(), ref)
            del tf32_outs
        if torch_outs is not None:
            torch_outs = (torch_outs if isinstance(torch_outs, tuple)
                          else (torch_outs,))
        for i, (result, out, ref) in enumerate(zip(results, outputs, refs)):
            err = rel_l2(out, ref)
            limit = TF32_OPERANDS_REL_L2_LIMIT
            dtype = entry.outputs[i].dtype
            if dtype in ("bf16", "f16"):
                # A result stored in a half type carries at least its own
                # rounding: the float64 result rounded once to that type
                # (the best any kernel can store), with 25% to spare.
                rounding = rel_l2(ref.to(torch_dtype(dtype)), ref)
                result["rel_l2_storage_rounding"] = rounding
                limit = max(limit, HALF_STORE_FACTOR * rounding)
            if models is not None and dtype == "f32":
                # Chained convolutions: what FP32 arithmetic on the same
                # rounded operands moves the graph (TF32_F32_MODEL_FACTOR).
                model_err = rel_l2(models[i], ref)
                result["rel_l2_f32_model"] = model_err
                limit = max(limit, tf32_operands_limit(model_err))
            if torch_outs is not None:
                torch_err = rel_l2(torch_outs[i].float(), ref)
                result["rel_l2_torch_operands"] = torch_err
                result["allclose_torch"] = bool(torch.allclose(
                    torch_outs[i].float(), ref.float(), atol=1e-2,
                    rtol=1e-2, equal_nan=True))
                limit = max(limit, torch_err)
                if not err <= limit:
                    result["pass"] = False
                if dtype in ("bf16", "f16") and not result["allclose"] and \
                        not result["allclose_torch"]:
                    # KernelBench's allclose on a half-stored output that
                    # PyTorch's own run in that dtype misses too (values
                    # whose half rounding alone exceeds it): held to
                    # PyTorch's max-abs instead.
                    torch_max = (torch_outs[i].double() - ref).abs().max()
                    result["allclose"] = bool(
                        (out.double() - ref).abs().max() <= torch_max)
                    result["pass"] = sound(result) and \
                        result["rel_l2"] < result["rel_l2_limit"]
            result["rel_l2_tf32_operands"] = err
            result["rel_l2_tf32_operands_limit"] = limit
            if dtype in ("bf16", "f16"):
                # The half store's rounding (or PyTorch's own half error)
                # bounds the error against the exact graph too: an output
                # of f16 subnormals (kb2_38: max 3e-8) carries a rounding
                # of 2.6e-3 that no kernel can avoid (docs/perf.md 162).
                result["rel_l2_limit"] = max(result["rel_l2_limit"], limit)
            if exact is not None:
                # A graph that cancels after the convolution (kb2_93:
                # gelu(min(conv + 0.5, 0)) near conv = -0.5) amplifies the
                # operands' TF32 rounding past the fixed limit. Allow twice
                # what that rounding alone gives in float64; the check
                # against TF32-rounded operands below stays strict.
                rounding = rel_l2(ref, exact[i])
                result["rel_l2_tf32_rounding"] = rounding
                result["rel_l2_limit"] = max(result["rel_l2_limit"],
                                             TF32_ROUNDING_FACTOR * rounding)
                if not result["allclose"]:
                    # KernelBench's allclose misses now and then where the
                    # operands' rounding alone moves a normalised output
                    # past it (kb2_61's cost-model bundle, max-abs 1.4e-2
                    # at one seed, docs/perf.md 142): each element may also
                    # be off by that factor times what the rounding moves
                    # it, as in lib/Reference/Compare.cpp.
                    result["allclose_tf32_rounding"] = allclose_with_rounding(
                        out, exact[i], ref)
                result["pass"] = (sound(result) and result["rel_l2"] <
                                  result["rel_l2_limit"])
            # A tf32 kernel that fell back to FP32 FMA (grouped convolutions
            # whose channel groups do not fit the tensor-core tiles)
            # matches the exact graph at ieee accuracy instead.
            tf32_ok = math.isfinite(err) and err <= limit
            fp32_ok = result["rel_l2"] < REL_L2_LIMIT["ieee"]
            if not (tf32_ok or fp32_ok):
                result["pass"] = False
        del refs, rounded, rounded_graph, exact, models
    return results


#: --graphs: (row key, torch.compile's figure, fusecc's figure).
GRAPH_SPEEDUPS = (
    ("speedup_compile_graphs", "compile_cg_stream_ms", "fusecc_stream_ms"),
    ("speedup_compile_replay", "compile_replay_ms", "fusecc_replay_ms"))


def error_text(error):
    """An exception as one line: its type and first line."""
    return "%s: %s" % (type(error).__name__,
                       str(error).splitlines()[0] if str(error) else "")


def time_reduce_overhead(row, timed, eager_sets, sets, args):
    """--graphs: torch.compile(mode="reduce-overhead") of the graph
    function (CUDA graph trees) into `row`: compile_cg_ms (each call from
    an idle stream) and compile_cg_stream_ms / compile_cg_host_ms (back to
    back). Every argument, weights included, is an input of the function,
    so its trees copy them into their static buffers on each call (the
    replay figures have no such copies)."""
    try:
        torch._dynamo.reset()
        compiled = torch.compile(timed.__call__, mode="reduce-overhead")
        run = lambda i: compiled(*eager_sets[i])  # noqa: E731
        row["compile_cg_ms"] = time_ms(run, sets, args.reps,
                                       max(args.warmup, 3))
        add_graph_figures(row, "compile_cg", run, sets, args.reps,
                          max(args.warmup, 3), replay=False)
    except Exception as error:  # Inductor failures are not ours.
        row["compile_cg_error"] = error_text(error)


def check_entry(bundle, entry, args, device):
    """Checks (and times) one entry; returns its result row."""
    row = {"bundle": os.path.basename(bundle.path), "entry": entry.name,
           "precision": bundle.precision, "chip": bundle.chip,
           "shape": shape_summary(entry), "status": "ERROR"}
    graph = bundle.graph(entry)
    if len(graph.returns) != len(entry.outputs):
        raise GraphError("graph returns %d values for %d out args"
                         % (len(graph.returns), len(entry.outputs)))
    tf32 = bundle.precision == "tf32"
    set_tf32(tf32)
    amp = lambda: autocast(bundle.precision)  # noqa: E731
    stream = torch.cuda.current_stream().cuda_stream
    # Constants (format version 3) on the GPU once, in each dtype used.
    reference = graph.bind(torch.float64, device)
    baseline = graph.bind(torch.float32, device)

    # Correctness on fresh inputs, outputs poisoned with NaN.
    inputs = make_inputs(entry, graph, device)
    outputs = launch_poisoned(bundle, entry, inputs, device)
    if args.launch_only:
        # Sanitizer runs under FUSECC_SANITIZE_BLOCK_LIMIT (bench/sanitize.sh):
        # the launch above ran part of each grid, so there is nothing to
        # check; the tool's own report is the result.
        row["status"] = "LAUNCHED"
        return row
    if args.time_only:
        # Screening (bench/tune.py --screen): time the kernels only; a
        # variant is chosen only after a full check of its own.
        row["status"] = "TIMED"
        buffers = buffers_for(inputs + outputs)
        row["fusecc_ms"] = time_ms(
            lambda i: bundle.launch(entry.index, buffers, stream), 1,
            args.reps, args.warmup, args.warm_s)
        return row
    shapes = {}
    results = check_outputs(bundle, entry, graph, reference, baseline, inputs,
                            outputs, shapes, device, "default")
    names = [arg.name for arg in entry.outputs]
    # A degenerate reference (mostly one value) checks little: the entry is
    # checked again on wide inputs, each result kept (docs/perf.md 150).
    degenerate = max(r["mode_fraction"] for r in results)
    if degenerate > DEGENERATE_FRACTION:
        wide_inputs = make_inputs(entry, graph, device, wide=True)
        wide = check_outputs(
            bundle, entry, graph, reference, baseline, wide_inputs,
            launch_poisoned(bundle, entry, wide_inputs, device), {}, device,
            "wide")
        row["wide"] = max(wide, key=lambda r: (not r["pass"], r["rel_l2"]))
        results += wide
        names += [name + " (wide inputs)" for name in names]
        del wide_inputs
    # Every output is checked (each was poisoned above); the row shows the
    # worst and names the outputs that failed.
    worst = max(results, key=lambda r: (not r["pass"], r["rel_l2"]))
    row.update(worst)
    row["mode_fraction"] = degenerate
    row["outputs"] = len(entry.outputs)
    failed = [name for name, r in zip(names, results) if not r["pass"]]
    if failed:
        row["failed_outputs"] = failed
    row["status"] = "FAIL" if failed else "PASS"

    flops = 0
    for op in graph.conv_ops():
        flops += conv_flops(op, shapes[op.operands[0]], shapes[op.operands[1]])
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
    if getattr(args, "graphs", False):
        # On the current stream at each call: a capture runs on its own.
        add_graph_figures(
            row, "fusecc",
            lambda i: bundle.launch(entry.index, buffer_sets[i],
                                    torch.cuda.current_stream().cuda_stream),
            sets, args.reps, args.warmup)
    if args.profile:
        row["fusecc_kernels"] = kernel_profile(lambda: run_fusecc(0),
                                               args.profile)

    # Eager and torch.compile run what a PyTorch user of this bundle runs:
    # a graph stored in a half type in that type (model.to(dtype): the same
    # half inputs, weights and parameters, PyTorch's own half kernels); an
    # f32 graph in f32, under autocast for --precision=bf16/fp16.
    storage = sorted({a.dtype for a in entry.inputs if a.dtype != "f32"})
    timed, timing_ctx, eager_sets = baseline, amp, input_sets
    if storage:
        timed = graph.bind(torch_dtype(storage[0]), device)
        timing_ctx = contextlib.nullcontext
    row["baseline_dtype"] = storage[0] if storage else "f32"
    with torch.no_grad(), timing_ctx():
        row["eager_ms"] = time_ms(lambda i: timed(*eager_sets[i]), sets,
                                  args.reps, args.warmup)
        if args.profile:
            row["eager_kernels"] = kernel_profile(
                lambda: timed(*eager_sets[0]), args.profile)
        if not args.no_compile:
            try:
                # Every graph shares Graph.__call__'s code object: start
                # from a clean Dynamo cache, or later graphs hit the
                # recompile limit and silently run eagerly.
                torch._dynamo.reset()
                compiled = torch.compile(timed.__call__)
                row["compile_ms"] = time_ms(lambda i: compiled(*eager_sets[i]),
                                            sets, args.reps,
                                            max(args.warmup, 3))
                if args.profile:
                    row["compile_kernels"] = kernel_profile(
                        lambda: compiled(*eager_sets[0]), args.profile)
                if getattr(args, "graphs", False):
                    add_graph_figures(row, "compile",
                                      lambda i: compiled(*eager_sets[i]),
                                      sets, args.reps, args.warmup)
            except Exception as error:  # Inductor failures are not ours.
                row["compile_error"] = error_text(error)
            if getattr(args, "graphs", False):
                time_reduce_overhead(row, timed, eager_sets, sets, args)
    fusecc_ms = row["fusecc_ms"]
    if row.get("eager_ms"):
        row["speedup_eager"] = row["eager_ms"] / fusecc_ms
    if row.get("compile_ms"):
        row["speedup_compile"] = row["compile_ms"] / fusecc_ms
    add_ratios(row, GRAPH_SPEEDUPS)
    if flops:
        row["conv_tflops"] = flops / (fusecc_ms * 1e-3) / 1e12
    # Every argument byte moved once (graph inputs, weights, the output),
    # and every byte of the constants (version 3 weights) the kernels read.
    moved_bytes = set_bytes + bundle.constant_bytes(entry)
    row["gbps"] = moved_bytes / (fusecc_ms * 1e-3) / 1e9
    # The floor: max(conv FLOPs / TF32 rate, bytes / bandwidth) with the
    # H200's measured ceilings (bench/chips.py).
    # Half operands: the BF16 rate (bench/chips.py).
    peak_flops = (PEAK_BF16_FLOPS if bundle.precision in AUTOCAST_DTYPE
                  else PEAK_TF32_FLOPS)
    floor_ms = max((flops or 0) / peak_flops,
                   moved_bytes / PEAK_BYTES) * 1e3
    row["floor_ms"] = floor_ms
    row["pct_floor"] = 100.0 * floor_ms / fusecc_ms
    return row


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


# Errors that report a bad bundle or a failed call, not a crash of this
# script or a poisoned CUDA context.
OUR_ERRORS = (FuseccError, GraphError, BundleError, ArgumentError)


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
    parser.add_argument("--launch-only", action="store_true",
                        help="launch each entry once, no check, no timing "
                             "(sanitizer runs with a block limit)")
    parser.add_argument("--time-only", action="store_true",
                        help="screening: time fusecc only, no check and no "
                             "baselines (rows say TIMED, never PASS)")
    parser.add_argument("--warm-s", type=float, default=MIN_WARM_S,
                        help="with --time-only: seconds of warm-up calls "
                             "per variant (default %s, timing.py; "
                             "bench/tune.py screens with less)" % MIN_WARM_S)
    parser.add_argument("--profile", type=int, default=0, metavar="CALLS",
                        help="also record the GPU kernels of fusecc, eager and "
                        "torch.compile over CALLS calls (torch.profiler): "
                        "fusecc_kernels / eager_kernels / compile_kernels "
                        "in gpu_check.json")
    parser.add_argument("--graphs", action="store_true",
                        help="also time under CUDA graphs: torch.compile "
                        "mode=\"reduce-overhead\" (compile_cg_*), back-to-"
                        "back calls (*_stream_ms) and captured whole calls "
                        "(*_replay_ms) of fusecc and torch.compile")
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed (default: a new one each run)")
    parser.add_argument("--manifest", default=None,
                        help="a bench/random_layers.py manifest.json: print "
                             "issue 37's summary (default: manifest.json in "
                             "the bundle directory, when there is one)")
    parser.add_argument("--out", default=os.environ.get("OUT"),
                        help="write perf_table.md and gpu_check.json here "
                             "(default $OUT)")
    args = parser.parse_args()
    if not (args.time_only or args.launch_only):
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

    try:
        fusecc.runtime.Runtime.get(args.lib)
    except FuseccError as error:
        print("gpu_check: %s" % error, file=sys.stderr)
        return 2
    paths = sorted(glob.glob(os.path.join(args.bundles, "*.fcb")))
    if not paths:
        print("gpu_check: no *.fcb in %s" % args.bundles, file=sys.stderr)
        return 1
    rows = []
    for path in paths:
        name = os.path.basename(path)
        bundle = None
        try:
            bundle = Bundle(args.lib, path)
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
                    if not isinstance(error, OUR_ERRORS):
                        traceback.print_exc()
                    oom = getattr(torch.cuda, "OutOfMemoryError", ())
                    if isinstance(error, oom):
                        # PyTorch's float64 reference or eager run does
                        # not fit (intermediates fusecc keeps on chip):
                        # the context is sound, go on.
                        row["status"] = "SKIP"
                        torch.cuda.empty_cache()
                    elif "CUDA" in str(error) and not isinstance(
                            error, OUR_ERRORS):
                        # A faulting kernel poisons the context: stop.
                        rows.append(row)
                        raise
                rows.append(row)
                detail = ("  " + row["error"] if "error" in row
                          else "  rel-L2 %.2e" % row["rel_l2"]
                          if "rel_l2" in row else
                          "  %.4f ms" % row["fusecc_ms"]
                          if "fusecc_ms" in row else "")
                if "rel_l2_tf32_operands" in row:
                    detail += ", %.2e against %s-rounded operands" % (
                        row["rel_l2_tf32_operands"],
                        str(row.get("precision", "tf32")).upper())
                if "rel_l2_f32_model" in row:
                    detail += (" (limit %.2e; FP32 on them %.2e, PyTorch "
                               "TF32 %.2e)" % (
                                   row["rel_l2_tf32_operands_limit"],
                                   row["rel_l2_f32_model"],
                                   row.get("rel_l2_torch_operands", math.nan)))
                if "rel_l2_tf32_rounding" in row:
                    detail += (", limit %.2e (TF32 rounding alone: %.2e)"
                               % (row["rel_l2_limit"],
                                  row["rel_l2_tf32_rounding"]))
                if "rel_l2_eager_fp32" in row:
                    detail += (", PyTorch FP32 %.2e, split operands %.2e"
                               % (row["rel_l2_eager_fp32"],
                                  row["rel_l2_split_operands"]))
                if "wide" in row:
                    detail += ("; %.1f%% of an output one value: wide inputs "
                               "%s, rel-L2 %.2e"
                               % (100 * row["mode_fraction"],
                                  "pass" if row["wide"]["pass"] else "FAIL",
                                  row["wide"]["rel_l2"]))
                if row.get("ref_vacuous"):
                    detail += ("; the float64 reference has no finite "
                               "element: nothing was compared")
                if "fusecc_ms" in row:
                    detail += "; fusecc %.4f ms" % row["fusecc_ms"]
                print("  %s: %s%s" % (entry.name, row["status"], detail),
                      flush=True)
                if args.out:  # Rows so far survive a time limit.
                    os.makedirs(args.out, exist_ok=True)
                    with open(os.path.join(args.out, "gpu_check.jsonl"),
                              "a") as f:
                        f.write(json.dumps(row, default=str) + "\n")
                torch.cuda.empty_cache()
        except (FuseccError, BundleError) as error:
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
    unchecked = [r for r in rows if r["status"] in ("TIMED", "LAUNCHED")]
    skipped = [r for r in rows if r["status"] == "SKIP"]
    failed = [r for r in rows if r["status"] != "PASS" and
              r not in unchecked and r not in skipped]
    if unchecked:
        print("\n%d launched unchecked (%s)"
              % (len(unchecked), "--time-only" if args.time_only
                 else "--launch-only"))
    if skipped:
        print("\n%d not checked: PyTorch's run or reference did not fit in "
              "GPU memory" % len(skipped))
    print("\n%d checked, %d passed, %d failed (seed %d)"
          % (len(rows) - len(unchecked) - len(skipped),
             len(rows) - len(unchecked) - len(skipped) - len(failed),
             len(failed), seed))
    manifest_path = args.manifest or os.path.join(args.bundles,
                                                  "manifest.json")
    summary = None
    if os.path.exists(manifest_path):
        summary = random_summary.summarize(
            rows, random_summary.load_manifest(manifest_path))
        print(random_summary.format_summary(summary))

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
                    "is max(FLOPs / %.0f TFLOP/s, bytes / %.2f TB/s) (%s, "
                    "bench/chips.py) over the fusecc time.\n"
                    % (args.reps, PEAK_TF32_FLOPS / 1e12, PEAK_BYTES / 1e12,
                       DEFAULT_CHIP.upper()))
            if summary:
                f.write(random_summary.format_summary(summary) + "\n")
        with open(os.path.join(args.out, "gpu_check.json"), "w") as f:
            json.dump({"environment": env, "reps": args.reps, "rows": rows,
                       "random_summary": summary}, f, indent=2)
    return 1 if failed or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
