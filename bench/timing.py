# ===- bench/timing.py - CUDA-event timing shared by the GPU checks ------=== #
#
# One timing rule for bench/gpu_check.py, bench/models_check.py and the
# scripts built on them: warm up for at least `warmup` calls and at least
# MIN_WARM_S seconds of back-to-back calls (after a compile the GPU idles
# and its clocks drop; a few calls of a sub-millisecond model do not bring
# them back, and the first variant timed after a compile read up to 25%
# slow, perf.md section 176), then the median of `reps` calls, each timed
# from an idle stream with CUDA events.
#
# ===--------------------------------------------------------------------=== #
"""CUDA-event timing with a time-bounded warm-up; per-kernel profiles."""

import statistics
import time

#: Seconds of back-to-back calls before timing starts.
MIN_WARM_S = 0.2


def time_ms(run, sets, reps, warmup, min_warm_s=MIN_WARM_S):
    """Median milliseconds of run(i) over `reps` CUDA-event-timed calls,
    rotating i over range(sets), after at least `warmup` untimed calls
    and `min_warm_s` seconds of them (less than MIN_WARM_S only where the
    GPU is known busy before: bench/tune.py's screening runs its variants
    back to back, no compile in between)."""
    import torch
    start = time.perf_counter()
    i = 0
    while i < warmup or time.perf_counter() - start < min_warm_s:
        run(i % sets)
        i += 1
        if i % 8 == 0:  # Keep the queue short: time is host time.
            torch.cuda.synchronize()
    torch.cuda.synchronize()
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
