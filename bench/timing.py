# ===- bench/timing.py - CUDA-event timing shared by the GPU checks ------=== #
#
# One timing rule for bench/gpu_check.py, bench/models_check.py and the
# scripts built on them: warm up for at least `warmup` calls and at least
# MIN_WARM_S seconds of back-to-back calls (after a compile the GPU idles
# and its clocks drop; a few calls of a sub-millisecond model do not bring
# them back, and the first variant timed after a compile read up to 25%
# slow, perf.md section 176), then the median of `reps` calls, each timed
# from an idle stream with CUDA events (time_ms: the host's enqueue of the
# call is in the figure, "host in the loop").
#
# The CUDA-graphs comparison (--graphs of both checkers; docs/perf.md,
# "Timing under CUDA graphs") adds two figures with the host out of the
# loop: stream_timing, the median per call of stretches of STREAM_CALLS
# back-to-back calls between two events (the host enqueues ahead of the
# GPU wherever its cost per call is below the GPU's; the host's own time
# per call is returned with it, so a host-bound figure shows), and
# capture_graphs, the whole call captured once per input set into a
# torch.cuda.CUDAGraph, whose replays are then timed the same way.
#
# ===--------------------------------------------------------------------=== #
"""CUDA-event timing with a time-bounded warm-up; per-kernel profiles."""

import statistics
import time

#: Seconds of back-to-back calls before timing starts.
MIN_WARM_S = 0.2
#: Calls per timed stretch of stream_timing (the first call's launch
#: latency is 1/STREAM_CALLS of the figure).
STREAM_CALLS = 20


def warm_up(run, sets, warmup, min_warm_s=MIN_WARM_S):
    """At least `warmup` calls of run(i % sets) and `min_warm_s` seconds of
    them, the queue kept short; returns after the GPU is idle."""
    import torch
    start = time.perf_counter()
    i = 0
    while i < warmup or time.perf_counter() - start < min_warm_s:
        run(i % sets)
        i += 1
        if i % 8 == 0:  # Keep the queue short: time is host time.
            torch.cuda.synchronize()
    torch.cuda.synchronize()


def time_ms(run, sets, reps, warmup, min_warm_s=MIN_WARM_S):
    """Median milliseconds of run(i) over `reps` CUDA-event-timed calls,
    rotating i over range(sets), after at least `warmup` untimed calls
    and `min_warm_s` seconds of them (less than MIN_WARM_S only where the
    GPU is known busy before: bench/tune.py's screening runs its variants
    back to back, no compile in between)."""
    import torch
    warm_up(run, sets, warmup, min_warm_s)
    times = []
    for i in range(reps):
        begin = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        begin.record()
        run(i % sets)
        end.record()
        end.synchronize()
        times.append(begin.elapsed_time(end))
    return statistics.median(times)


def stream_timing(run, sets, reps, warmup, calls=STREAM_CALLS,
                  min_warm_s=MIN_WARM_S):
    """{"ms": median milliseconds per call over `reps` stretches of `calls`
    back-to-back calls of run(i), i rotating over range(sets), each
    stretch between two CUDA events; "host_ms": the median host time per
    call of the same stretches (enqueue only, perf_counter)}. Where
    host_ms is below ms the host ran ahead of the GPU and "ms" is the GPU
    time of a call, the gaps between its kernels included; where it is
    not, "ms" is bound by the host."""
    import torch
    warm_up(run, sets, warmup, min_warm_s)
    gpu, host = [], []
    n = 0
    for _ in range(reps):
        begin = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        begin.record()
        t0 = time.perf_counter()
        for _ in range(calls):
            run(n % sets)
            n += 1
        t1 = time.perf_counter()
        end.record()
        end.synchronize()
        gpu.append(begin.elapsed_time(end) / calls)
        host.append((t1 - t0) * 1e3 / calls)
    return {"ms": statistics.median(gpu), "host_ms": statistics.median(host)}


def capture_graphs(run, sets):
    """run(i) for i in range(sets) captured into one torch.cuda.CUDAGraph
    each (one memory pool), after a call of each on a side stream
    (torch.cuda.graph's warm-up rule). Returns the graphs and the captured
    calls' results (kept: the replays write them)."""
    import torch
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for i in range(sets):
            run(i)
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graphs, results, pool = [], [], None
    for i in range(sets):
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, pool=pool):
            results.append(run(i))
        pool = graph.pool()
        graphs.append(graph)
    torch.cuda.synchronize()
    return graphs, results


def graph_figures(run, sets, reps, warmup, replay=True):
    """The --graphs figures of run(i) (i over range(sets)): {"stream_ms",
    "host_ms"} of stream_timing and, with `replay`, "replay_ms": the
    calls captured by capture_graphs, their replays timed back to back
    (GPU time only), or "replay_error" where the call cannot be
    captured."""
    timing = stream_timing(run, sets, reps, warmup)
    figures = {"stream_ms": timing["ms"], "host_ms": timing["host_ms"]}
    if replay:
        try:
            graphs, results = capture_graphs(run, sets)
            figures["replay_ms"] = stream_timing(
                lambda i: graphs[i].replay(), sets, reps, 2)["ms"]
            del graphs, results
        except Exception as error:  # A call that cannot be captured.
            figures["replay_error"] = "%s: %s" % (type(error).__name__,
                                                  str(error)[:300])
    return figures


def add_graph_figures(row, label, run, sets, reps, warmup, replay=True):
    """graph_figures of run(i) into `row` as <label>_<key>."""
    for key, value in graph_figures(run, sets, reps, warmup,
                                    replay).items():
        row[label + "_" + key] = value


def add_ratios(row, ratios):
    """For each (key, numerator, denominator) of `ratios` whose figures
    `row` has (nonzero), row[key] = row[numerator] / row[denominator]."""
    for key, theirs, ours in ratios:
        if row.get(theirs) and row.get(ours):
            row[key] = row[theirs] / row[ours]


def kernel_profile(fn, reps):
    """The GPU kernels of one call of `fn`: [name, launches per call, us
    per call], largest first, from torch.profiler over `reps` calls."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            fn()
        torch.cuda.synchronize()
    rows = []
    for event in prof.key_averages():
        # (device_time_total in PyTorch 2.4 on; cuda_time_total before)
        total = getattr(event, "device_time_total", None)
        if total is None:
            total = event.cuda_time_total
        if total > 0 and event.count >= reps:
            rows.append([event.key[:120], event.count / reps,
                         round(total / reps, 2)])
    return sorted(rows, key=lambda r: -r[2])[:24]
