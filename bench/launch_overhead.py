#!/usr/bin/env python3
# ===- bench/launch_overhead.py - Host cost of launching fusecc entries --=== #
#
# Measures what launching a (multi-kernel) fusecc entry costs the host and
# the GPU, with the runtime's CUDA-graph launch path on and off:
#   - host us per Python entry call f(*inputs, out=outputs) after its first
#     call (argument checks cached), the same with outputs allocated
#     (f(*inputs), whose result is dropped at once), and per raw runtime call
#     (Module.launch_raw: fusecc_module_launch alone), each also divided by
#     the entry's kernel launches (host us per kernel launch);
#   - GPU us per call in steady state (CUDA events around many calls) and
#     per call when each is synchronized (launch latency included);
#   - correctness under capture: the entry called inside torch.cuda.graph
#     (the runtime sees a capturing stream and launches its steps into the
#     caller's graph) and replayed gives the outputs of a plain call; and,
#     for one-output entries, inside torch.compile(mode="reduce-overhead")
#     through a torch.library custom op (not with --skip-compile); and the
#     allocating call's outputs equal those of a call with outputs given.
# Host times are medians over rounds of --calls calls each (timed with
# perf_counter, no synchronization inside a round, so the GPU queue never
# fills for small entries).
#
# Usage (GPU): launch_overhead.py BUNDLE.fcb... [--lib PATH] [--rounds N]
#                                 [--calls N] [--json FILE] [--steps]
#                                 [--host-only] [--skip-compile]
# Usage (CPU, no GPU): launch_overhead.py --fake [BUNDLE.fcb...] [--lib PATH]
#   runs the Python and runtime paths against the runtime's fake CUDA driver
#   (runtime/test/fake_cuda.c, libfusecc_fake_cuda.so next to the runtime)
#   on FakeTensors (default: a two-kernel sample bundle): the host cost of
#   fusecc's own code only (the fake's calls cost a log line each). With
#   --torch, on PyTorch CPU tensors instead (their device passed off as
#   cuda:0 to the first call's checks only; outputs allocated on the CPU
#   for the allocating form f(*inputs)): what reading PyTorch's tensor
#   metadata costs the cached path. --stub-guard (with --torch) puts a
#   tensor guard that always holds in place of PyTorch's TensorGuards (for
#   a PyTorch older than 2.0, which lacks it): the rest of the cached path.
# --steps (both): each step of the cached call timed alone (step_costs).
#
# ===--------------------------------------------------------------------=== #

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python"))
import fusecc  # noqa: E402


def host_us(call, rounds, calls, sync=None):
    """Median host microseconds per call of `call` over `rounds` rounds of
    `calls` calls (`sync` between rounds, untimed)."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        times.append((time.perf_counter() - start) / calls * 1e6)
        if sync:
            sync()
    return statistics.median(times)


def cached_by(f):
    """What the entry's cached call path compares arguments with:
    PyTorch's TensorGuards (C++), Python signatures, or nothing yet."""
    return ("TensorGuards" if f._guards else
            "Python signature" if f._checked else "none")


def launches_per_call(entry):
    return max(1, len(entry.launches))


def step_costs(f, inputs, outputs, stream, args, sync=None,
               allocates=False):
    """Host us of each step of the entry's cached call f(*inputs,
    out=outputs, stream=stream) (--steps), each timed alone in a loop of
    its own (a lambda's call, ~0.03-0.05 us, included in each): the whole
    call with outputs given and allocated, the tensor guard, the current
    stream's lookup (stream None), the data pointers, their packing, the
    runtime call through Module.launch_pointers, the packed record and the
    bare foreign call the cached path makes with it, the whole calls again
    through Module.launch_pointers and once more packed, and the outputs'
    allocation (_allocate, and each PyTorch call that could make the first
    output: allocation_steps)."""
    module, index = f.module, f.entry.index
    values = tuple(inputs) + tuple(outputs)
    count = len(values)
    kind = type(outputs)
    steps = {}

    def timed(name, fn):
        fn()
        steps[name] = host_us(fn, args.rounds, args.calls, sync)
    timed("call_out", lambda: f(*inputs, out=outputs, stream=stream))
    if allocates:
        timed("call_alloc", lambda: f(*inputs, stream=stream))
    guard = next((g[1] for g in f._guards if g[0] is kind), None)
    if guard is not None:
        timed("guard", lambda: guard(*values))
    getter = fusecc.callcache._STREAM_GETTER
    handle = stream
    if stream is None:
        device_index = module.device_index
        timed("stream", lambda: getter(device_index))
        handle = getter(device_index)
    data_ptr = type(values[0]).data_ptr
    timed("data_ptrs", lambda: list(map(data_ptr, values)))
    pack = f._pack
    timed("data_ptrs_and_pack", lambda: pack(*map(data_ptr, values)))
    packed = pack(*map(data_ptr, values))
    timed("runtime_call", lambda: module.launch_pointers(index, packed, count,
                                                         handle))
    launch = getattr(f, "_launch", None)  # Bound by newer packages only.
    if launch is not None:
        # The packed record of fusecc_module_launch_packed and the bare
        # foreign call the cached path makes with it.
        function, module_handle = launch
        pack_record = f._pack_record
        timed("data_ptrs_and_record", lambda: pack_record(
            module_handle, index, 0, handle, count, *map(data_ptr, values)))
        record = pack_record(module_handle, index, 0, handle, count,
                             *map(data_ptr, values))
        timed("foreign_call", lambda: function(record))
        # The same calls through Module.launch_pointers (the path without
        # the packed record), in the same process: the record's own effect
        # (older packages only: fusecc.fastpath's closures hold their own).
        if not hasattr(fusecc, "fastpath"):
            f._launch = None
            try:
                timed("call_out_unpacked",
                      lambda: f(*inputs, out=outputs, stream=stream))
                if allocates:
                    timed("call_alloc_unpacked",
                          lambda: f(*inputs, stream=stream))
            finally:
                f._launch = launch
        timed("call_out_again", lambda: f(*inputs, out=outputs, stream=stream))
        if allocates:
            timed("call_alloc_again", lambda: f(*inputs, stream=stream))
    if allocates:
        timed("allocate", lambda: f._allocate(stream))
        allocation_steps(f, inputs, timed)
        if hasattr(f, "_recipes") and not hasattr(fusecc, "fastpath"):
            # The cached call with outputs by torch.empty (_allocate), in
            # the same process: the templates' own effect.
            recipes, f._recipes = f._recipes, _NoRecipes()
            try:
                timed("call_alloc_torch_empty",
                      lambda: f(*inputs, stream=stream))
            finally:
                f._recipes = recipes
            timed("call_alloc_again2", lambda: f(*inputs, stream=stream))
    if hasattr(fusecc, "fastpath"):
        closure_steps(f, inputs, outputs, stream, timed, allocates)
    return steps


def closure_steps(f, inputs, outputs, stream, timed, allocates):
    """Newer packages (fusecc.fastpath): the same cached calls in the same
    process without the signatures' closures (EntryFunction._fast_call,
    the path before them), and allocating ones with the closure's
    empty_like templates instead of _empty_strided_cuda; then each again
    with the closures; and an allocating call whose previous result is
    still held (y = f(x) in a loop: the caching allocator alternates two
    blocks, so the runtime re-points the graph on every call)."""
    saved = list(f._guards)

    def swap(guards):
        f._guards = guards
    try:
        swap([g[:3] + (None,) for g in saved])
        timed("call_out_general", lambda: f(*inputs, out=outputs,
                                            stream=stream))
        if allocates:
            timed("call_alloc_general", lambda: f(*inputs, stream=stream))
            templates_only = []
            templates = f._recipes.get(0)
            for kind, check, data_ptr, fast in saved:
                if fast is not None and kind is type(None) and templates:
                    fast = fusecc.fastpath.launcher(
                        f._launch, f._index, 0, f._arg_count,
                        f._device_index, fusecc.callcache._STREAM_GETTER,
                        data_ptr, templates, f._failed, None)
                templates_only.append((kind, check, data_ptr, fast))
            swap(templates_only)
            timed("call_alloc_templates",
                  lambda: f(*inputs, stream=stream))
    finally:
        swap(saved)
    timed("call_out_closure", lambda: f(*inputs, out=outputs, stream=stream))
    if allocates:
        timed("call_alloc_closure", lambda: f(*inputs, stream=stream))
        held = [None]

        def call_held():
            held[0] = f(*inputs, stream=stream)
        timed("call_alloc_held", call_held)
        allocation = fusecc.allocation
        specs = f._output_specs.get(0)
        if allocation.EMPTY_STRIDED_CUDA is not None and specs:
            shape, dtype, device = specs[0]
            if getattr(device, "type", None) == "cuda":
                strides = allocation.EMPTY_LIKE(
                    f._recipes[0][0]).stride()
                empty_strided = allocation.EMPTY_STRIDED_CUDA
                timed("alloc_empty_strided_cuda", lambda: empty_strided(
                    tuple(shape), strides, dtype))
                current = allocation.CURRENT_DEVICE
                timed("current_device", current)


class _NoRecipes(dict):
    """EntryFunction._recipes that holds no allocation templates and
    builds none: every allocating call through _allocate."""

    def __contains__(self, batch):
        return True

    def get(self, batch, default=None):
        return default


def allocation_steps(f, inputs, timed):
    """The first output's allocation alone, by each PyTorch call that could
    make it (same shape, dtype and device): torch.empty with the cached
    dtype and device objects (what _allocate calls), Tensor.new_empty on
    the first input (the cached path's recipe, where the output's dtype is
    the input's), torch.empty_strided, torch.empty_like of a template."""
    specs = f._output_specs.get(0)
    if not specs or not inputs:
        return
    import torch
    shape, dtype, device = specs[0]
    template, strides = inputs[0], torch.empty(0).new_empty(shape).stride()
    like = torch.empty(shape, dtype=dtype, device=device)
    empty, new_empty = torch.empty, torch.Tensor.new_empty
    timed("alloc_torch_empty", lambda: empty(shape, dtype=dtype,
                                             device=device))
    timed("alloc_new_empty_dtype",
          lambda: new_empty(template, shape, dtype=dtype))
    if template.dtype == dtype:
        timed("alloc_new_empty", lambda: new_empty(template, shape))
    timed("alloc_empty_strided", lambda: torch.empty_strided(
        shape, strides, dtype=dtype, device=device))
    timed("alloc_empty_like", lambda: torch.empty_like(like))


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------

def make_tensor(torch, arg, device):
    dtype = fusecc.module.torch_dtype(arg.dtype)
    if dtype.is_floating_point:
        return torch.randn(arg.shape, device=device).to(dtype)
    return torch.zeros(arg.shape, dtype=dtype, device=device)


def gpu_us(torch, call, calls, synchronize_each):
    """GPU microseconds per call: events around `calls` calls (steady
    state) or, with `synchronize_each`, host wall time per synchronized
    call (launch latency included)."""
    if synchronize_each:
        torch.cuda.synchronize()
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            call()
            torch.cuda.synchronize()
            times.append((time.perf_counter() - start) * 1e6)
        return statistics.median(times)
    start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    start.record()
    for _ in range(calls):
        call()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / calls


def capture_check(torch, f, inputs, outputs):
    """The entry captured in a torch.cuda.graph and replayed equals a plain
    call; returns the largest absolute difference over the outputs."""
    expected = [torch.empty_like(o) for o in outputs]
    f(*inputs, out=expected)
    captured = [torch.empty_like(o) for o in outputs]
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):  # warm-up off the default stream
        f(*inputs, out=captured)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    for o in captured:
        o.fill_(float("nan") if o.dtype.is_floating_point else 0)
    with torch.cuda.graph(graph):
        f(*inputs, out=captured)
    graph.replay()
    torch.cuda.synchronize()
    return max((a.double() - b.double()).abs().max().item()
               for a, b in zip(captured, expected))


def compile_check(torch, f, entry, inputs):
    """A one-output entry as a torch.library custom op inside
    torch.compile(mode="reduce-overhead") (CUDA graph trees capture around
    the runtime's launch): largest absolute difference against a plain
    call over three calls, or a string saying why it was skipped."""
    if len(entry.outputs) != 1 or not hasattr(torch.library, "custom_op"):
        return "skipped (needs one output and torch.library.custom_op)"
    out_arg = entry.outputs[0]
    name = "fusecc_bench::%s_%d" % (entry.name, id(f))

    @torch.library.custom_op(name, mutates_args=())
    def op(xs: list[torch.Tensor]) -> torch.Tensor:
        return f(*xs)

    @op.register_fake
    def _(xs):
        return xs[0].new_empty(out_arg.shape,
                               dtype=fusecc.module.torch_dtype(out_arg.dtype))

    compiled = torch.compile(lambda xs: op(xs) * 1.0, mode="reduce-overhead")
    expected = f(*inputs)
    worst = 0.0
    for _ in range(3):
        got = compiled(list(inputs))
        torch.cuda.synchronize()
        worst = max(worst, (got.double() - expected.double()).abs().max()
                    .item())
    return worst


def measure_gpu(args):
    import torch
    device = torch.device("cuda", 0)
    torch.cuda.set_device(device)
    torch.empty(1, device=device)
    rows = []
    for path in args.bundles:
        module = fusecc.load(path, lib=args.lib, device=0)
        for f in module:
            entry = f.entry
            inputs = [make_tensor(torch, a, device) for a in entry.inputs]
            outputs = [make_tensor(torch, a, device) for a in entry.outputs]
            buffers = fusecc.runtime.buffers(
                [(t.data_ptr(), a.byte_size)
                 for t, a in zip(inputs + outputs, entry.args)])
            stream = torch.cuda.current_stream().cuda_stream
            row = {"bundle": os.path.basename(path), "entry": entry.name,
                   "kernels": len(entry.launches),
                   "steps": len(getattr(entry, "steps", entry.launches)),
                   "workspaces": len(getattr(entry, "workspaces", []))}
            for graphs in (True,) if args.host_only else (False, True):
                module.set_launch_graphs(graphs)
                key = "graph" if graphs else "direct"

                def call():
                    f(*inputs, out=outputs)

                def alloc():
                    f(*inputs)

                def raw():
                    module.launch_raw(entry.index, buffers, stream)
                for run in (call, raw, alloc, call):  # warm up (graphs)
                    run()
                torch.cuda.synchronize()
                sync = torch.cuda.synchronize
                row[key + "_call_us"] = host_us(call, args.rounds,
                                                args.calls, sync)
                row[key + "_alloc_us"] = host_us(alloc, args.rounds,
                                                 args.calls, sync)
                row[key + "_raw_us"] = host_us(raw, args.rounds, args.calls,
                                               sync)
                row[key + "_us_per_kernel"] = \
                    row[key + "_raw_us"] / launches_per_call(entry)
                if args.host_only:
                    # GPU us per call of the raw launch (is the host ahead
                    # of the GPU, with a queue to fill?).
                    row[key + "_gpu_us"] = gpu_us(torch, raw, args.calls,
                                                  False)
                    continue
                row[key + "_gpu_us"] = gpu_us(torch, raw, args.calls * 4,
                                              False)
                row[key + "_sync_us"] = gpu_us(torch, call, args.calls, True)
            module.set_launch_graphs(True)
            if args.steps:
                row["steps_us"] = step_costs(f, inputs, outputs, None, args,
                                             torch.cuda.synchronize, True)
            row["stats"] = module.launch_stats()
            row["cached_by"] = cached_by(f)
            if args.host_only:
                rows.append(row)
                print_row(row)
                continue
            row["capture_max_abs_diff"] = capture_check(torch, f, inputs,
                                                        outputs)
            # The allocating call (the cached path's own allocation)
            # against outputs given, and its outputs' layout.
            f(*inputs, out=outputs)
            got = f(*inputs)
            got = got if isinstance(got, tuple) else (got,)
            torch.cuda.synchronize()
            row["alloc_max_abs_diff"] = max(
                (a.double() - b.double()).abs().max().item()
                for a, b in zip(got, outputs))
            row["alloc_layout_ok"] = all(
                a.shape == b.shape and a.dtype == b.dtype and
                a.device == b.device and a.stride() == b.stride()
                for a, b in zip(got, outputs))
            if args.skip_compile:
                rows.append(row)
                print_row(row)
                continue
            try:
                row["compile_max_abs_diff"] = compile_check(torch, f, entry,
                                                            inputs)
            except Exception as error:  # Inductor/Dynamo issues: report.
                row["compile_max_abs_diff"] = "error: %s: %s" % (
                    type(error).__name__, str(error).splitlines()[0]
                    if str(error) else "")
            rows.append(row)
            print_row(row)
        module.close()
    return rows


# ---------------------------------------------------------------------------
# CPU, fake driver
# ---------------------------------------------------------------------------

def measure_fake(args):
    """Host cost of the Python entry call and the runtime call on the fake
    driver (runtime/test/fake_cuda.c), FakeTensors, no GPU."""
    import shutil
    import tempfile
    sys.path.insert(0, os.path.join(REPO, "python", "tests"))
    import samples
    from samples import FakeTensor
    lib = fusecc.runtime.find_library(args.lib)
    fake = os.path.join(os.path.dirname(lib), "libfusecc_fake_cuda.so")
    if not os.path.exists(fake):
        sys.exit("launch_overhead: --fake needs %s (build the runtime's "
                 "tests)" % fake)
    os.environ["FUSECC_CUDA_DRIVER_LIBRARY"] = fake
    directory = tempfile.mkdtemp(prefix="fusecc-launch-")
    rows = []
    try:
        paths = args.bundles or [samples.write(directory, "fake.fcb",
                                               samples.v2_fake_bundle())]
        for path in paths:
            rows += measure_fake_bundle(args, lib, path, FakeTensor)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return rows


class _OnCuda:
    """A CPU tensor whose device reads as cuda:0 (--fake --torch)."""

    class device:
        type, index = "cuda", 0

    def __init__(self, tensor):
        self._tensor = tensor

    def __getattr__(self, name):
        return getattr(self._tensor, name)


def torch_tensor_factory(args):
    """PyTorch CPU tensors for --fake --torch: the checks of the first
    (uncached) call see them on cuda:0."""
    import torch
    check_tensor = fusecc.entry.check_tensor

    def check_on_cuda(tensor, arg, what, device_index, batch=0):
        return check_tensor(_OnCuda(tensor), arg, what, device_index, batch)
    fusecc.entry.check_tensor = check_on_cuda

    if args.stub_guard:
        class AlwaysHolds:
            def __init__(self, *tensors, **kwargs):
                pass

            def check(self, *tensors):
                return True
        fusecc.callcache.TensorGuards = AlwaysHolds

    def make(shape, dtype="float32"):
        return torch.empty(shape, dtype=getattr(torch, dtype))
    return make


def measure_fake_bundle(args, lib, path, FakeTensor):
    """The rows of one bundle on the fake driver."""
    rows = []
    module = fusecc.load(path, lib=lib, device=0)
    if args.torch:
        FakeTensor = torch_tensor_factory(args)
    for f in module:
        entry = f.entry
        tensors = [FakeTensor(a.shape,
                              fusecc.module.TORCH_DTYPE_NAMES[a.dtype])
                   for a in entry.args]
        inputs, outputs = (tensors[:len(entry.inputs)],
                           tensors[len(entry.inputs):])
        buffers = fusecc.runtime.buffers(
            [(t.data_ptr(), a.byte_size)
             for t, a in zip(tensors, entry.args)])
        row = {"bundle": os.path.basename(path), "entry": entry.name,
               "kernels": len(entry.launches), "tensors": len(tensors),
               "tensor_type": type(tensors[0]).__name__}

        def checked():
            # The full checks every time (what the first call costs).
            buffer_array, _, handle, _ = f.prepare(*inputs, out=outputs,
                                                   stream=1)
            module.launch_buffers(entry.index, buffer_array, handle)
        for graphs in (False, True):
            module.set_launch_graphs(graphs)
            key = "graph" if graphs else "direct"

            def call():
                f(*inputs, out=outputs, stream=1)

            def raw():
                module.launch_raw(entry.index, buffers, 1)
            call()
            row[key + "_call_us"] = host_us(call, args.rounds, args.calls)
            row[key + "_raw_us"] = host_us(raw, args.rounds, args.calls)
            row[key + "_us_per_kernel"] = \
                row[key + "_raw_us"] / launches_per_call(entry)
        if args.torch:
            # The allocating form f(*inputs), outputs on the CPU (the
            # output specs _allocate keeps, with the CPU as their device).
            import torch
            cpu = torch.device("cpu")
            f._output_specs[0] = [
                (a.shape, fusecc.module.torch_dtype(a.dtype), cpu)
                for a in entry.outputs]

            def alloc_call():
                f(*inputs, stream=1)
            alloc_call()
            row["graph_alloc_call_us"] = host_us(alloc_call, args.rounds,
                                                 args.calls)
        if args.steps:
            row["steps_us"] = step_costs(f, inputs, outputs, 1, args,
                                         allocates=args.torch)
        row["full_checks_call_us"] = host_us(checked, args.rounds,
                                           args.calls)
        row["stats"] = module.launch_stats()
        row["cached_by"] = cached_by(f)
        rows.append(row)
        print_row(row)
    module.close()
    return rows


def print_row(row):
    print("%s:%s (%d kernels%s)" % (
        row["bundle"], row["entry"], row["kernels"],
        ", %d %ss" % (row["tensors"], row["tensor_type"])
        if "tensors" in row else ""))
    for key in ("direct", "graph"):
        parts = ["%s %.2f" % (label, row[key + suffix])
                 for suffix, label in (
                     ("_call_us", "host us/call"),
                     ("_alloc_us", "allocating"), ("_raw_us", "runtime us"),
                     ("_us_per_kernel", "us/kernel"), ("_gpu_us", "GPU us"),
                     ("_sync_us", "synced us"))
                 if key + suffix in row]
        print("  %-6s %s" % (key, ", ".join(parts)))
    if "graph_alloc_call_us" in row:
        print("  graph  outputs allocated: %.2f host us/call"
              % row["graph_alloc_call_us"])
    if "steps_us" in row:
        print("  steps (host us): %s" % ", ".join(
            "%s %.2f" % item for item in row["steps_us"].items()))
    if "full_checks_call_us" in row:
        print("  full argument checks every call: %.2f host us/call"
              % row["full_checks_call_us"])
    for key in ("cached_by", "capture_max_abs_diff", "alloc_max_abs_diff",
                "alloc_layout_ok", "compile_max_abs_diff"):
        if key in row:
            print("  %s: %s" % (key, row[key]))
    print("  stats: %s" % row["stats"])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bundles", nargs="*")
    parser.add_argument("--lib", default=None,
                        help="libfusecc_runtime.so (default: "
                             "fusecc.runtime.find_library())")
    parser.add_argument("--fake", action="store_true",
                        help="CPU only: the runtime's fake CUDA driver")
    parser.add_argument("--torch", action="store_true",
                        help="with --fake: PyTorch CPU tensors instead of "
                             "FakeTensors")
    parser.add_argument("--stub-guard", action="store_true",
                        help="with --fake --torch: a tensor guard that "
                             "always holds in place of PyTorch's")
    parser.add_argument("--host-only", action="store_true",
                        help="GPU: host us with graphs on only, the raw "
                             "launch's GPU us (no synced times, no capture "
                             "or torch.compile checks)")
    parser.add_argument("--skip-compile", action="store_true",
                        help="GPU: no torch.compile check")
    parser.add_argument("--steps", action="store_true",
                        help="also time each step of the cached call alone")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args()
    if not args.fake and not args.bundles:
        parser.error("give bundles, or --fake")
    rows = measure_fake(args) if args.fake else measure_gpu(args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
