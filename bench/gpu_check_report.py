# ===- bench/gpu_check_report.py - gpu_check.py's table and floor -------=== #
#
# The report of bench/gpu_check.py: its columns (and the --graphs ones,
# shown when a row has them), each cell's format, the table as text or
# markdown, and the floor's ceilings (the H200's measured rates,
# bench/chips.py) that check_entry's % of floor uses.
#
# ===--------------------------------------------------------------------=== #
"""gpu_check.py's report: columns, cells and the table."""

from chips import CHIPS, DEFAULT_CHIP

COLUMNS = [
    ("bundle", "bundle"), ("precision", "prec"), ("shape", "shape"),
    ("rel_l2", "rel-L2"), ("max_abs", "max-abs"), ("allclose", "allclose"),
    ("status", "check"), ("fusecc_ms", "fusecc ms"), ("eager_ms", "eager ms"),
    ("compile_ms", "compile ms"), ("speedup_eager", "x eager"),
    ("speedup_compile", "x compile"), ("conv_tflops", "conv TFLOP/s"),
    ("gbps", "GB/s"), ("pct_floor", "% of floor"), ("floor_ms", "floor ms"),
]
#: The --graphs columns, after COLUMNS in a table with such rows.
GRAPH_COLUMNS = [
    ("fusecc_stream_ms", "fusecc stream ms"),
    ("fusecc_replay_ms", "fusecc replay ms"),
    ("compile_cg_ms", "compile r-o ms"),
    ("compile_cg_stream_ms", "compile r-o stream ms"),
    ("compile_replay_ms", "compile replay ms"),
    ("speedup_compile_graphs", "x compile (graphs)"),
    ("speedup_compile_replay", "x compile (replay)"),
]

# The floor's ceilings: the H200's measured dense TF32 tensor-core rate and
# device-memory bandwidth (read + write), from bench/chips.py.
PEAK_TF32_FLOPS = CHIPS[DEFAULT_CHIP]["tf32_flops"]
PEAK_BF16_FLOPS = CHIPS[DEFAULT_CHIP]["bf16_flops"]
PEAK_BYTES = CHIPS[DEFAULT_CHIP]["bytes_per_s"]


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
    columns = COLUMNS + (GRAPH_COLUMNS if any("fusecc_stream_ms" in r
                                              for r in rows) else [])
    header = [title for _, title in columns]
    body = [[cell(r, key) for key, _ in columns] for r in rows]
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
