#!/usr/bin/env python3
# ===- bench/models_check.py - torch.compile(backend="fusecc") on models -=== #
#
# For every model of examples/models/ (the per-model files, each defining
# build() and INPUTS, and models.py's MODELS): runs it through
# torch.compile(backend="fusecc") (the rest of the graph in Inductor), the
# same with mode="reduce-overhead" (CUDA graphs), torch.compile() (Inductor)
# and eager PyTorch, in ieee (TF32 off) and tf32 (cudnn.allow_tf32 on),
# checks each against the module in float64 (relative L2 error, the limits
# of bench/accuracy.py: 1e-5 ieee, 2e-3 tf32, or within 2x of eager
# PyTorch's own error where that is larger, as with layers left to PyTorch)
# and times them in the same run (CUDA events, median). With --dtype bf16
# or f16 the models and inputs are converted (model.to(dtype)), eager and
# Inductor run in that dtype too, the float64 reference is computed from
# the same half-rounded inputs and weights, and fusecc passes when its
# rel-L2 is within 2x of eager's own in that dtype or below the dtype's
# limit of bench/accuracy.py (2^-8 bf16, 2^-11 f16), and every element
# is allclose(rtol=1e-2, atol=1e-2) to the reference. Prints a table (also
# $OUT/models_check.md and $OUT/models_check.json). Exits 1 if a check
# fails.
#
# With --graphs both sides are also timed under CUDA graphs (docs/perf.md,
# "Timing under CUDA graphs"): Inductor with mode="reduce-overhead"
# (variant inductor_cg, its CUDA graph trees) next to fusecc (whose bundles
# replay as one CUDA graph per entry and stream already), over --sets
# rotating input sets; every variant gets <label>_stream_ms (back-to-back
# calls, the host out of the loop where it keeps ahead; <label>_host_ms
# its host time per call), and inductor / fusecc / eager get
# <label>_replay_ms (the whole call captured into a torch.cuda.CUDAGraph
# per input set by this script, replays back to back: GPU time only).
# speedup_host / speedup_graphs / speedup_replay are Inductor's figure
# over fusecc's for each rule (Inductor's reduce-overhead for graphs).
#
# With --frozen a variant fusecc_frozen (options={"frozen_weights": True}:
# the prepare steps run once, not in a captured call either) is checked,
# timed like fusecc (replayed under --graphs), its refresh checked
# (weights halved in place + fusecc.dynamo.refresh(), against eager) and
# its modules' frozen counters recorded; a second table compares its
# stream and replay figures with fusecc's and Inductor's.
#
# Usage: python3 bench/models_check.py [--filter S] [--reps N] [--warmup N]
#                                      [--precision ieee|tf32] [--out DIR]
#                                      [--dtype f32|bf16|f16]
#                                      [--graphs] [--sets N] [--frozen]
#        python3 bench/models_check.py --precompile CACHE_DIR [--chip C]
# The second form (no GPU; PyTorch 1.13's torch.fx is enough) compiles the
# fusecc subgraphs of every model, found as the backend finds them on
# torch.fx.symbolic_trace graphs, into a bundle cache: a GPU machine without
# the compiler runs from it (FUSECC_CACHE_DIR, and FUSECC_COMPILER_ID = the
# compiler's SHA-256 and FUSECC_TUNING_DIGEST = its tuning files' digest,
# both of which this prints: the keys hold them).
# Needs PyTorch 2 with a CUDA GPU, the fusecc runtime library
# (FUSECC_RUNTIME_LIBRARY or build-rt/) and the compiler (FUSECC_BIN) or a
# bundle cache filled for these graphs (FUSECC_CACHE_DIR).
#
# ===--------------------------------------------------------------------=== #

import argparse
import copy
import datetime
import glob
import importlib.util
import json
import os
import platform
import sys
import traceback
import warnings

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS_DIR = os.path.join(REPO, "examples", "models")
sys.path[:0] = [os.path.join(REPO, "python"), MODELS_DIR,
                os.path.join(REPO, "bench")]

import torch  # noqa: E402

import fusecc.dynamo  # noqa: E402  (registers backend="fusecc")
from fusecc.dynamo import cache, driver  # noqa: E402
from accuracy import DTYPE_REL_L2_FLOOR, REL_L2_LIMIT, rel_l2  # noqa: E402
from timing import (add_graph_figures, add_ratios,  # noqa: E402
                    kernel_profile, time_ms)

#: --dtype -> (torch dtype, rel-L2 floor: the type's unit roundoff, the
#: accuracy rule's DTYPE_REL_L2_FLOOR).
DTYPES = {name: (getattr(torch, full), DTYPE_REL_L2_FLOOR[name])
          for name, full in (("f32", "float32"), ("bf16", "bfloat16"),
                             ("f16", "float16"))}
#: KernelBench's allclose, required of half results.
HALF_ALLCLOSE = 1e-2
EAGER_FACTOR = 2.0
#: --graphs: the variants whose whole call this script captures into a
#: torch.cuda.CUDAGraph (<label>_replay_ms; inductor_cg and fusecc_cg are
#: captured by their own CUDA graphs already).
REPLAYED = ("eager", "inductor", "fusecc", "fusecc_frozen")
#: --graphs: (row key, Inductor's figure, fusecc's figure) of the ratios.
SPEEDUPS = (("speedup_host", "inductor_ms", "fusecc_ms"),
            ("speedup_graphs", "inductor_cg_stream_ms", "fusecc_stream_ms"),
            ("speedup_replay", "inductor_replay_ms", "fusecc_replay_ms"),
            ("speedup_frozen_host", "inductor_ms", "fusecc_frozen_ms"),
            ("speedup_frozen_graphs", "inductor_cg_stream_ms",
             "fusecc_frozen_stream_ms"),
            ("speedup_frozen_replay", "inductor_replay_ms",
             "fusecc_frozen_replay_ms"))
#: --frozen: the frozen counters of fusecc_launch_stats_t summed over the
#: variant's modules.
FROZEN_STATS = ("frozen_prepare_runs", "frozen_calls", "frozen_misses",
                "prepare_runs")


def selected(filter_text, name):
    """Whether --filter selects model `name`: a substring of it, or of
    one of the comma-separated parts ("heatmap,dcgan")."""
    return any(part in name for part in filter_text.split(","))


def load_models():
    """name -> (build, input shapes, description)."""
    found = {}
    for path in sorted(glob.glob(os.path.join(MODELS_DIR, "*.py"))):
        name = os.path.basename(path)[:-3]
        if name in ("models", "check_models"):
            continue
        spec = importlib.util.spec_from_file_location("model_" + name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dynamo imports the classes' module
        spec.loader.exec_module(module)
        found[name] = (module.build, [tuple(s) for s in module.INPUTS],
                       module.DESCRIPTION)
    import models
    for name, (build, shape) in models.MODELS.items():
        found["onnx_" + name] = (build, [tuple(shape)],
                                 "examples/models/models.py: " + name)
    return found


def randomize_statistics(module, generator):
    """Running statistics away from (0, 1), so batch_norm is checked."""
    for m in module.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
            m.running_mean.copy_(torch.rand(m.running_mean.shape,
                                            generator=generator) - 0.5)
            m.running_var.copy_(torch.rand(m.running_var.shape,
                                           generator=generator) + 0.5)


def set_tf32(enabled):
    torch.backends.cudnn.allow_tf32 = enabled
    torch.backends.cuda.matmul.allow_tf32 = enabled


def fusecc_summary(history):
    """Compiled subgraphs, fallbacks and nodes left in PyTorch over the
    backend calls of one torch.compile."""
    compiled = sum(len(r["compiled"]) for r in history)
    fallbacks = [reason for r in history for _, reason in r["fallbacks"]]
    left = sum(r.get("left_in_pytorch", 0) for r in history)
    left_ops = sorted({op for r in history for op in r.get("left_ops", ())})
    return {"subgraphs": compiled, "fallbacks": fallbacks,
            "left_in_pytorch": left, "left_ops": left_ops,
            "whole": compiled > 0 and left == 0 and not fallbacks}


def variants_for(module, args):
    """(label, maker) of the variants run_model checks and times."""
    variants = [("eager", lambda: module),
                ("inductor", lambda: torch.compile(module))]
    if args.graphs:
        variants.append(("inductor_cg", lambda: torch.compile(
            module, mode="reduce-overhead")))
    variants += [("fusecc", lambda: torch.compile(module, backend="fusecc")),
                 ("fusecc_cg", lambda: torch.compile(
                     module, backend="fusecc", mode="reduce-overhead"))]
    if args.frozen:
        variants.append(("fusecc_frozen", lambda: torch.compile(
            module, backend="fusecc", options={"frozen_weights": True})))
    if args.alt_arg:  # An A/B variant: the same backend, more CLI flags.
        variants.append(("fusecc_alt", lambda: torch.compile(
            module, backend="fusecc",
            options={"extra_args": tuple(args.alt_arg)})))
    return variants


def time_variant(row, label, fn, input_sets, args):
    """The timings of one variant into `row`: <label>_ms (each call from an
    idle stream, the host in the loop), and with --graphs <label>_stream_ms
    and <label>_host_ms (back-to-back calls) and, for REPLAYED labels,
    <label>_replay_ms (the call captured per input set, replays back to
    back). A capture that fails leaves <label>_replay_error."""
    sets = len(input_sets)
    run = lambda i: fn(*input_sets[i])  # noqa: E731
    row[label + "_ms"] = time_ms(run, sets, args.reps, args.warmup)
    if not args.graphs:
        return
    add_graph_figures(row, label, run, sets, args.reps, args.warmup,
                      label in REPLAYED)


def run_model(name, build, shapes, precision, args):
    gen = torch.Generator().manual_seed(1234)
    torch.manual_seed(0)
    module = build().eval()
    randomize_statistics(module, gen)
    inputs = [torch.randn(s, generator=gen) for s in shapes]
    # Input sets 1.. rotate with set 0 (the checked one) in the timings.
    more = [[torch.randn(s, generator=gen) for s in shapes]
            for _ in range(max(args.sets, 1) - 1)]
    dtype, floor = DTYPES[args.dtype]
    if dtype is not torch.float32:
        # The reference sees the half-rounded weights and inputs.
        module = module.to(dtype)
        inputs = [x.to(dtype) for x in inputs]
        more = [[x.to(dtype) for x in xs] for xs in more]
    with torch.no_grad():
        ref = copy.deepcopy(module).double()(*[x.double() for x in inputs])
    module = module.cuda()
    inputs = [x.cuda() for x in inputs]
    input_sets = [inputs] + [[x.cuda() for x in xs] for xs in more]
    ref = ref.cuda()
    set_tf32(precision == "tf32")
    row = {"model": name, "precision": precision, "dtype": args.dtype,
           "inputs": ["x".join(map(str, s)) for s in shapes]}
    with torch.no_grad():
        for label, make in variants_for(module, args):
            torch._dynamo.reset()
            driver.history.clear()
            known = set(driver._REGISTRY)
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    fn = make()
                    out = fn(*inputs)
                    torch.cuda.synchronize()
                row[label + "_rel_l2"] = rel_l2(out, ref)
                if dtype is not torch.float32:
                    row[label + "_allclose"] = bool(torch.allclose(
                        out.double(), ref, rtol=HALF_ALLCLOSE,
                        atol=HALF_ALLCLOSE)) and out.dtype == dtype
                time_variant(row, label, fn, input_sets, args)
                if args.profile:
                    row[label + "_kernels"] = kernel_profile(
                        lambda: fn(*inputs), args.profile)
                if label == "fusecc":
                    # Weights are bundle arguments: an in-place update (as
                    # load_state_dict or an optimizer step makes) is seen.
                    weight = next(p for p in module.parameters()
                                  if p.dim() > 1)
                    weight.mul_(0.5)
                    # (Against eager in the same dtype: both round.)
                    row["updated_weights_rel_l2"] = rel_l2(fn(*inputs),
                                                           module(*inputs))
                    weight.mul_(2.0)
                if label == "fusecc_frozen":
                    # Frozen: an in-place update is seen after the refresh.
                    weight = next(p for p in module.parameters()
                                  if p.dim() > 1)
                    weight.mul_(0.5)
                    fusecc.dynamo.refresh()
                    row["frozen_refreshed_rel_l2"] = rel_l2(fn(*inputs),
                                                            module(*inputs))
                    weight.mul_(2.0)
                    fusecc.dynamo.refresh()
                    stats = [driver._REGISTRY[k].module.launch_stats()
                             for k in set(driver._REGISTRY) - known]
                    row["fusecc_frozen_stats"] = {
                        name: sum(s.get(name, 0) for s in stats)
                        for name in FROZEN_STATS}
                if label.startswith("fusecc"):
                    row[label + "_report"] = fusecc_summary(driver.history)
                    row[label + "_warnings"] = sorted({
                        str(w.message)[:300] for w in caught
                        if issubclass(w.category,
                                      fusecc.dynamo.FuseccFallbackWarning)})
            except Exception as error:
                row[label + "_error"] = "%s: %s" % (type(error).__name__,
                                                    str(error)[:800])
                traceback.print_exc()
    add_ratios(row, SPEEDUPS)
    limit = max(REL_L2_LIMIT[precision], floor)
    eager_err = row.get("eager_rel_l2", 0.0)
    allowed = max(limit, EAGER_FACTOR * eager_err)
    row["limit"] = allowed
    row["pass"] = all(
        (label + "_error") not in row and row[label + "_rel_l2"] <= allowed
        and row.get(label + "_allclose", True)
        for label in ("fusecc", "fusecc_cg") + (
            ("fusecc_frozen",) if args.frozen else ())) and all(
        row.get(key, 1.0) <= (max(limit, 1e-4) if dtype is torch.float32
                              else 2 * allowed)  # half: two roundings apart
        for key in ("updated_weights_rel_l2",) + (
            ("frozen_refreshed_rel_l2",) if args.frozen else ()))
    return row


def fmt(v, spec):
    return spec % v if isinstance(v, (int, float)) else "-"


def table(rows):
    lines = ["| model | dtype | prec | input | fusecc subgraphs / ops left in "
             "PyTorch | rel-L2 fusecc | rel-L2 eager | check | fusecc ms | "
             "fusecc+CUDA graphs ms | Inductor ms | eager ms | x Inductor |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        rep = r.get("fusecc_report", {})
        left = ("whole" if rep.get("whole") else "%s / %s%s" % (
            rep.get("subgraphs", "-"), rep.get("left_in_pytorch", "-"),
            " (%s)" % ", ".join(rep.get("left_ops", [])[:6])
            if rep.get("left_ops") else ""))
        if rep.get("fallbacks"):
            left += ", %d fallback(s)" % len(rep["fallbacks"])
        speed = (r["inductor_ms"] / r["fusecc_ms"]
                 if "inductor_ms" in r and "fusecc_ms" in r else None)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                     "| %s | %s |" % (
                         r["model"], r.get("dtype", "f32"), r["precision"],
                         ", ".join(r["inputs"]),
                         left, fmt(r.get("fusecc_rel_l2"), "%.1e"),
                         fmt(r.get("eager_rel_l2"), "%.1e"),
                         "PASS" if r["pass"] else "FAIL",
                         fmt(r.get("fusecc_ms"), "%.3f"),
                         fmt(r.get("fusecc_cg_ms"), "%.3f"),
                         fmt(r.get("inductor_ms"), "%.3f"),
                         fmt(r.get("eager_ms"), "%.3f"),
                         fmt(speed, "%.2fx")))
    return "\n".join(lines)


def graphs_table(rows):
    """--graphs: each side's three figures (ms: host in the loop / back to
    back / captured replay; Inductor's graphs figure is reduce-overhead's
    back to back) and the three ratios; None without --graphs rows."""
    rows = [r for r in rows if "fusecc_stream_ms" in r]
    if not rows:
        return None
    lines = ["| model | dtype | prec | check | fusecc ms: host / stream / "
             "replay | fusecc host us per call | Inductor ms: host / "
             "reduce-overhead stream / replay | reduce-overhead host us per "
             "call | x Inductor: host / graphs / replay |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s / %s / %s | %s | %s / %s / %s "
                     "| %s | %s / %s / %s |" % (
                         r["model"], r.get("dtype", "f32"), r["precision"],
                         "PASS" if r["pass"] else "FAIL",
                         fmt(r.get("fusecc_ms"), "%.3f"),
                         fmt(r.get("fusecc_stream_ms"), "%.3f"),
                         fmt(r.get("fusecc_replay_ms"), "%.3f"),
                         fmt(1e3 * r["fusecc_host_ms"]
                             if "fusecc_host_ms" in r else None, "%.0f"),
                         fmt(r.get("inductor_ms"), "%.3f"),
                         fmt(r.get("inductor_cg_stream_ms"), "%.3f"),
                         fmt(r.get("inductor_replay_ms"), "%.3f"),
                         fmt(1e3 * r["inductor_cg_host_ms"]
                             if "inductor_cg_host_ms" in r else None, "%.0f"),
                         fmt(r.get("speedup_host"), "%.2fx"),
                         fmt(r.get("speedup_graphs"), "%.2fx"),
                         fmt(r.get("speedup_replay"), "%.2fx")))
    return "\n".join(lines)


def frozen_table(rows):
    """--frozen: fusecc and fusecc_frozen side by side (ms: host / back
    to back / captured replay), Inductor's reduce-overhead stream and
    replay, the ratios and the frozen counters; None without such rows."""
    rows = [r for r in rows if "fusecc_frozen_ms" in r]
    if not rows:
        return None
    lines = ["| model | dtype | prec | check | rel-L2 frozen / refreshed | "
             "fusecc ms: host / stream / replay | frozen ms: host / stream / "
             "replay | Inductor ms: reduce-overhead stream / replay | x "
             "Inductor replay: fusecc / frozen | x Inductor graphs: frozen | "
             "frozen prepare runs / calls / misses |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        stats = r.get("fusecc_frozen_stats", {})
        lines.append("| %s | %s | %s | %s | %s / %s | %s / %s / %s | %s / %s "
                     "/ %s | %s / %s | %s / %s | %s | %s / %s / %s |" % (
                         r["model"], r.get("dtype", "f32"), r["precision"],
                         "PASS" if r["pass"] else "FAIL",
                         fmt(r.get("fusecc_frozen_rel_l2"), "%.1e"),
                         fmt(r.get("frozen_refreshed_rel_l2"), "%.1e"),
                         fmt(r.get("fusecc_ms"), "%.3f"),
                         fmt(r.get("fusecc_stream_ms"), "%.3f"),
                         fmt(r.get("fusecc_replay_ms"), "%.3f"),
                         fmt(r.get("fusecc_frozen_ms"), "%.3f"),
                         fmt(r.get("fusecc_frozen_stream_ms"), "%.3f"),
                         fmt(r.get("fusecc_frozen_replay_ms"), "%.3f"),
                         fmt(r.get("inductor_cg_stream_ms"), "%.3f"),
                         fmt(r.get("inductor_replay_ms"), "%.3f"),
                         fmt(r.get("speedup_replay"), "%.2fx"),
                         fmt(r.get("speedup_frozen_replay"), "%.2fx"),
                         fmt(r.get("speedup_frozen_graphs"), "%.2fx"),
                         stats.get("frozen_prepare_runs", "-"),
                         stats.get("frozen_calls", "-"),
                         stats.get("frozen_misses", "-")))
    return "\n".join(lines)


def half_shape_prop(gm, module, inputs, dtype):
    """ShapeProp metadata for `gm`, a graph of `module` converted to the
    half `dtype` wholesale: the CPU lacks half kernels, so from meta
    tensors, or (an op without a meta kernel in PyTorch 1.13) from float32
    with every float32 result retyped."""
    from torch.fx.passes.shape_prop import ShapeProp
    import contextlib
    import io
    try:
        shadow = torch.fx.symbolic_trace(copy.deepcopy(module)).to("meta")
        with contextlib.redirect_stderr(io.StringIO()):  # ShapeProp's trace
            ShapeProp(shadow).propagate(*[x.to("meta") for x in inputs])
    except Exception:
        shadow = torch.fx.symbolic_trace(copy.deepcopy(module).float())
        ShapeProp(shadow).propagate(*[x.float() for x in inputs])
        for node in shadow.graph.nodes:
            tm = node.meta.get("tensor_meta")
            if hasattr(tm, "dtype") and tm.dtype == torch.float32:
                node.meta["tensor_meta"] = tm._replace(dtype=dtype)
    for node, meta in zip(gm.graph.nodes, shadow.graph.nodes):
        node.meta.update(meta.meta)


def precompile(models, directory, chip, filter_text, dtype_name="f32"):
    """Fills `directory` with the bundles of every model's subgraphs (both
    precisions, in `dtype_name`); returns the number of failures. Half
    models take their shapes and dtypes from ShapeProp on meta tensors
    (the CPU lacks half kernels)."""
    from torch.fx.passes.shape_prop import ShapeProp
    failures = 0
    for name, (build, shapes, _) in models.items():
        if not selected(filter_text, name):
            continue
        dtype = DTYPES[dtype_name][0]
        module = build().eval().to(dtype)
        inputs = [torch.randn(s).to(dtype) for s in shapes]
        for precision in ("ieee", "tf32"):
            with torch.no_grad():
                gm = torch.fx.symbolic_trace(module)
                if dtype is torch.float32:
                    ShapeProp(gm).propagate(*inputs)
                else:
                    half_shape_prop(gm, module, inputs, dtype)
                # The precision the backend picks under PyTorch's flag
                # (half convolutions: tf32 either way).
                torch.backends.cudnn.allow_tf32 = precision == "tf32"
                driver.compile_graph(gm, inputs, {
                    "load": False, "chip": chip, "cache_dir": directory})
            report = driver.last_report
            failures += len(report["fallbacks"])
            print("%s %s: %d bundle(s), %d fallback(s), PyTorch runs %s"
                  % (name, precision, len(report["compiled"]),
                     len(report["fallbacks"]),
                     ", ".join(report["left_ops"]) or "nothing"), flush=True)
            for _, reason in report["fallbacks"]:
                print("  fallback: " + reason[:300])
    print("FUSECC_COMPILER_ID=%s"
          % cache.compiler_id(fusecc.compiler.find_cli()))
    # The tuning the bundles were compiled with (the keys hold its digest):
    # a GPU machine's own tuning/ may differ (another checkout).
    print("FUSECC_TUNING_DIGEST=%s" % (fusecc.compiler.tuning_digest(
        fusecc.compiler.with_tuning([])) or "none"))
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--filter", default="",
                   help="models whose name holds this text, or one of its "
                   "comma-separated parts")
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--precision", choices=("ieee", "tf32"), action="append")
    p.add_argument("--out", default=os.environ.get("OUT"))
    p.add_argument("--precompile", metavar="CACHE_DIR")
    p.add_argument("--chip", default="sm_90a")
    p.add_argument("--profile", type=int, default=0, metavar="CALLS",
                   help="also record each variant's GPU kernels over CALLS "
                   "calls (torch.profiler): <label>_kernels in the rows")
    p.add_argument("--dtype", choices=sorted(DTYPES), default="f32",
                   help="the models' and inputs' dtype (eager and Inductor "
                   "run in it too)")
    p.add_argument("--graphs", action="store_true",
                   help="also time both sides under CUDA graphs: Inductor "
                   "with mode=\"reduce-overhead\" (inductor_cg), back-to-"
                   "back calls (<label>_stream_ms) and whole calls captured "
                   "and replayed (<label>_replay_ms)")
    p.add_argument("--sets", type=int, default=None, metavar="N",
                   help="rotating input sets in the timings (default 3 "
                   "with --graphs, else 1)")
    p.add_argument("--alt-arg", action="append", default=[], metavar="ARG",
                   help="also time a 'fusecc_alt' variant compiled with "
                   "this extra fusecc argument (repeatable; A/B timing)")
    p.add_argument("--frozen", action="store_true",
                   help="also check and time fusecc_frozen: "
                   "options={\"frozen_weights\": True} (prepared once, "
                   "captured calls without the prepare steps), its refresh "
                   "after an in-place weight update, and its counters")
    args = p.parse_args()
    if args.sets is None:
        args.sets = 3 if args.graphs else 1
    if args.precompile:
        return 1 if precompile(load_models(), args.precompile, args.chip,
                               args.filter, args.dtype) else 0
    if not torch.cuda.is_available():
        print("models_check.py: no CUDA GPU", file=sys.stderr)
        return 2
    rows = []
    for name, (build, shapes, _) in load_models().items():
        if not selected(args.filter, name):
            continue
        for precision in args.precision or ("ieee", "tf32"):
            row = run_model(name, build, shapes, precision, args)
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.out:  # Partial results survive a time limit.
                os.makedirs(args.out, exist_ok=True)
                with open(os.path.join(args.out, "models_check.jsonl"),
                          "a") as f:
                    f.write(json.dumps(row) + "\n")
    text = table(rows)
    for more in (graphs_table(rows), frozen_table(rows)):
        if more:
            text += "\n\n" + more
    env = "%s, torch %s, CUDA %s, %s, %s" % (
        torch.cuda.get_device_name(), torch.__version__, torch.version.cuda,
        platform.python_version(),
        datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC"))
    print(text)
    print(env)
    ok = all(r["pass"] for r in rows)
    print("models_check: %d passed, %d failed"
          % (sum(r["pass"] for r in rows), sum(not r["pass"] for r in rows)))
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "models_check.md"), "w") as f:
            f.write(text + "\n\n" + env + "\n")
        with open(os.path.join(args.out, "models_check.json"), "w") as f:
            json.dump({"environment": env, "rows": rows}, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
