#!/usr/bin/env python3
# ===- bench/dynamo_overhead.py - Host cost of a torch.compile'd call ----=== #
#
# python3 bench/dynamo_overhead.py [--models a,b] [--calls 1000] [--out DIR]
#
# On a GPU machine with PyTorch 2.x: where the host time of one call of a
# model compiled with torch.compile(backend="fusecc") goes (issue 37 item
# 3). Per model and variant (eager, Inductor, the fusecc backend with its
# inner backend or without one, with mode="reduce-overhead"):
#   - host us per call: --calls calls timed with perf_counter_ns and no
#     synchronization inside (the median of 5 rounds), and the wall time of
#     one call from an idle GPU (CUDA events around it, as models_check.py
#     times: host enqueue plus the GPU's tail), median of 200;
#   - the GPU kernel sum per call (torch.profiler, 5 calls);
#   - for the fusecc variants, the same host timing of each layer under the
#     call: the callable the backend returned (dynamo's guards and frame
#     excluded), the installed FX graph's forward, the custom op
#     torch.ops.fusecc.run, CompiledSubgraph.launch, the entry's cached call
#     with allocated and with given outputs, output allocation alone, the
#     entry's tensor guard alone and the runtime call alone
#     (fusecc_module_launch_pointers); the runtime's launch counters over
#     the timed calls (graph_updates: re-pointed graphs);
#   - a cProfile of 300 calls and torch.profiler's CPU table (top entries)
#     per variant, written to DIR.
# Prints one line per measurement; writes DIR/overhead.json.
#
# ===--------------------------------------------------------------------=== #

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
import warnings

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(REPO, "python"), os.path.join(REPO, "bench")]

import torch  # noqa: E402

import fusecc.dynamo  # noqa: E402  (registers backend="fusecc")
from fusecc.dynamo import driver  # noqa: E402
from models_check import load_models, randomize_statistics  # noqa: E402


def host_us(fn, calls, rounds=5):
    """Median over rounds of the host time per call (no sync inside)."""
    fn()
    torch.cuda.synchronize()
    per = []
    for _ in range(rounds):
        n = max(1, calls // rounds)
        t0 = time.perf_counter_ns()
        for _ in range(n):
            fn()
        t1 = time.perf_counter_ns()
        torch.cuda.synchronize()
        per.append((t1 - t0) / n / 1e3)
    return statistics.median(per)


def idle_wall_us(fn, reps=200):
    """Median wall time of one call from an idle GPU (event to event)."""
    times = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1e3)
    return statistics.median(times)


def gpu_sum_us(fn, calls=5):
    """The device-side kernel time per call (torch.profiler), and the top
    CPU entries by self time."""
    from torch.profiler import ProfilerActivity, profile
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU,
                             ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    total = 0.0
    for e in prof.events():
        if str(getattr(e, "device_type", "")).endswith("CUDA"):
            total += getattr(e, "device_time", None) or \
                getattr(e, "cuda_time", 0.0)
    try:
        table = prof.key_averages().table(sort_by="self_cpu_time_total",
                                          row_limit=30)
    except Exception as error:
        table = "no table: %s" % error
    return total / calls, table


def cprofile_text(fn, calls=300):
    fn()
    torch.cuda.synchronize()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        fn()
    prof.disable()
    torch.cuda.synchronize()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(30)
    return text.getvalue()


class Recorder:
    """A backend wrapping fusecc's: keeps the installed graph module, the
    callable returned to dynamo and the arguments of one call."""

    def __init__(self, mode, options):
        self.mode, self.options = mode, options
        self.gm = self.compiled = self.args = None

    def __call__(self, gm, example_inputs):
        compiled = driver.backend(gm, example_inputs, mode=self.mode,
                                  options=dict(self.options))
        self.gm = gm  # compile_graph installs the subgraphs in place
        recorder = self

        def shim(*args):  # (dynamo calls a backend's callable unboxed)
            if recorder.args is None:
                recorder.args = list(args)
            return compiled(*args)
        self.compiled = compiled
        return shim


def capture_launch():
    """Patches CompiledSubgraph.launch to record (subgraph, values) of the
    next calls; returns (records, undo)."""
    records = []
    original = driver.CompiledSubgraph.launch

    def launch(self, values):
        records.append((self, list(values)))
        return original(self, values)
    driver.CompiledSubgraph.launch = launch

    def undo():
        driver.CompiledSubgraph.launch = original
    return records, undo


def stages(rec, full, calls):
    """Host us of each layer under a fusecc call."""
    out = {}
    args = rec.args
    out["backend_callable"] = host_us(lambda: rec.compiled(*args), calls)
    try:
        out["fx_forward"] = host_us(lambda: rec.gm(*args), calls)
    except Exception as error:  # The inner backend may own the graph.
        out["fx_forward"] = "n/a: %s" % error
    records, undo = capture_launch()
    try:
        full()
        torch.cuda.synchronize()
    finally:
        undo()
    if not records:
        out["note"] = "no CompiledSubgraph.launch call seen (captured?)"
        return out
    compiled, values = records[0]
    key = next(k for k, v in driver._REGISTRY.items() if v is compiled)
    op = driver._custom_op()
    if op is not None:
        out["custom_op"] = host_us(lambda: op(key, values), calls)
    out["launch"] = host_us(lambda: compiled.launch(values), calls)
    entry = compiled.entry
    out["entry_alloc"] = host_us(lambda: entry(*values), calls)
    outs = entry(*values)
    outs = list(outs) if isinstance(outs, tuple) else [outs]
    out["entry_out"] = host_us(lambda: entry(*values, out=outs), calls)
    shapes = [(tuple(o.shape), o.dtype) for o in outs]
    out["alloc_only"] = host_us(lambda: [torch.empty(s, dtype=d,
                                                     device="cuda")
                                         for s, d in shapes], calls)
    # The guard of calls that allocate their outputs (kind NoneType).
    check = next((c for kind, c, _ in entry._guards if kind is type(None)),
                 None)
    if check is not None:
        out["guard_only"] = host_us(lambda: check(*values), calls)
    out["tensors"] = len(values) + len(outs)
    module = entry.module
    every = list(values) + outs
    packed = entry._pack(*[t.data_ptr() for t in every])
    stream = torch.cuda.current_stream().cuda_stream
    batch = values[compiled.translation.batch_arg].shape[0] \
        if entry.max_batch else 0
    out["runtime_only"] = host_us(
        lambda: module.launch_pointers(entry.entry.index, packed,
                                       entry._arg_count, stream, batch=batch),
        calls)
    before = module.launch_stats()
    for _ in range(100):
        full()
    torch.cuda.synchronize()
    after = module.launch_stats()
    out["launch_stats_per_100_calls"] = {k: after[k] - before.get(k, 0)
                                         for k in after
                                         if isinstance(after[k], int)}
    return out


def variants(module):
    v = [("eager", None, lambda: module),
         ("inductor", None, lambda: torch.compile(module)),
         ("inductor_cg", None, lambda: torch.compile(
             module, mode="reduce-overhead"))]
    direct = "direct" in driver.DEFAULT_OPTIONS
    ours = [("fusecc", None, {}), ("fusecc_cg", "reduce-overhead", {}),
            ("fusecc_inner_eager", None, {"inner": "eager"})]
    if direct:  # The inner backend even for a whole-fusecc graph: before.
        ours += [("fusecc_inner_always", None, {"direct": False}),
                   ("fusecc_cg_inner_always", "reduce-overhead",
                    {"direct": False})]
    for label, mode, options in ours:
        rec = Recorder(mode, options)
        v.append((label, rec, (lambda r: lambda: torch.compile(
            module, backend=r))(rec)))
    return v


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="onnx_dcgan,residual_decoder,"
                        "onnx_seg2d")
    parser.add_argument("--variants", default="",
                        help="comma list (default: all)")
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--precision", default="tf32")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    out_dir = args.out
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    torch.backends.cudnn.allow_tf32 = args.precision == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = args.precision == "tf32"
    try:
        torch._logging.set_logs(perf_hints=True)  # cudagraph skip reasons
    except Exception:
        pass
    models = load_models()
    wanted = [m for m in args.models.split(",") if m]
    only = {v for v in args.variants.split(",") if v}
    results = []
    print("torch %s, %s" % (torch.__version__,
                            torch.cuda.get_device_name()), flush=True)
    for name in wanted:
        build, shapes, _ = models[name]
        gen = torch.Generator().manual_seed(1234)
        torch.manual_seed(0)
        module = build().eval()
        randomize_statistics(module, gen)
        module = module.cuda()
        inputs = [torch.randn(s, generator=gen).cuda() for s in shapes]
        with torch.no_grad():
            ref = module(*inputs)
        for label, rec, make in variants(module):
            if only and label not in only:
                continue
            torch._dynamo.reset()
            driver.history.clear()
            row = {"model": name, "variant": label}
            try:
                with torch.no_grad(), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    t0 = time.time()
                    fn = make()
                    full = (lambda f: lambda: f(*inputs))(fn)
                    y = full()
                    torch.cuda.synchronize()
                    row["compile_s"] = round(time.time() - t0, 1)
                    y = y[0] if isinstance(y, (tuple, list)) else y
                    row["max_abs_diff_vs_eager"] = \
                        (y - ref).abs().max().item()
                    for _ in range(20):
                        full()
                    row["host_us"] = host_us(full, args.calls)
                    row["idle_wall_us"] = idle_wall_us(full)
                    row["gpu_sum_us"], table = gpu_sum_us(full)
                    if rec is not None:
                        row["stages_us"] = stages(rec, full, args.calls)
                        row["report"] = {k: driver.history[0].get(k) for k
                                         in ("compiled", "left_in_pytorch")} \
                            if driver.history else None
                        row["direct"] = getattr(rec.compiled, "__name__",
                                                type(rec.compiled).__name__)
                    try:
                        counters = torch._dynamo.utils.counters
                        row["cudagraph_skips"] = dict(
                            counters["inductor"].get("cudagraph_skips", {})
                            if isinstance(counters["inductor"]
                                          .get("cudagraph_skips"), dict)
                            else {"count": counters["inductor"]
                                  ["cudagraph_skips"]})
                    except Exception:
                        pass
                    if out_dir:
                        base = os.path.join(out_dir, "%s.%s" % (name, label))
                        with open(base + ".profiler.txt", "w") as f:
                            f.write(table)
                        with open(base + ".cprofile.txt", "w") as f:
                            f.write(cprofile_text(full))
            except Exception as error:
                row["error"] = "%s: %s" % (type(error).__name__,
                                           str(error)[:600])
            print(json.dumps(row, default=str), flush=True)
            results.append(row)
    if out_dir:
        with open(os.path.join(out_dir, "overhead.json"), "w") as f:
            json.dump(results, f, indent=1, default=str)


if __name__ == "__main__":
    main()
