# ===- bench/chips.py - Measured ceilings of the GPUs we benchmark on ----=== #
#
# One table for the bench scripts (gpu_check.py's floor column,
# random_layers.py's size bounds): dense tensor-core rates and device-memory
# bandwidth (a copy: read + write bytes per second). The compiler's own chip
# facts live in its target description; this is the Python side's one copy.
#
# ===--------------------------------------------------------------------=== #

#: name -> ceilings. "measured": how the figures were obtained.
CHIPS = {
    # Issue 37: measured on the H200 (TF32 and BF16 matmul rates, a copy's
    # bandwidth).
    "h200": {"tf32_flops": 405e12, "bf16_flops": 787e12,
             "bytes_per_s": 4.26e12, "memory_bytes": 141e9,
             "measured": "issue 37 (H200 matmul and copy)"},
    # Issue 3's H100 ceilings (datasheet dense TF32, HBM3 bandwidth).
    "h100": {"tf32_flops": 495e12, "bf16_flops": 989e12,
             "bytes_per_s": 3.0e12, "memory_bytes": 80e9,
             "measured": "issue 3 (H100 SXM datasheet)"},
}

DEFAULT_CHIP = "h200"


def floor_ms(flops, moved_bytes, chip=DEFAULT_CHIP):
    """The time floor: max(FLOPs / tensor-core rate, bytes / bandwidth), in
    milliseconds."""
    c = CHIPS[chip]
    return max(flops / c["tf32_flops"], moved_bytes / c["bytes_per_s"]) * 1e3
