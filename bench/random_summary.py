# ===- bench/random_summary.py - Issue 37's summary of a random set ------=== #
#
# Given gpu_check.py's result rows and the manifest bench/random_layers.py
# wrote next to the graphs (name, family, FLOPs, bytes, floor, split), per
# precision: how many graphs ran at >= 1.0x torch.compile, the geomean and
# minimum speedup over torch.compile, the median fraction of the floor
# (H200: bench/chips.py), per family and per split ("fit" / "held-out").
# gpu_check.py prints it when the bundle directory has a manifest.json (or
# --manifest names one).
#
# ===--------------------------------------------------------------------=== #

import json
import math
import os
import statistics


def load_manifest(path):
    """name -> record of a random_layers.py manifest.json."""
    with open(path) as f:
        return {r["name"]: r for r in json.load(f)["graphs"]}


def graph_name(bundle):
    """rand37_4_upscore.tf32.fcb -> rand37_4_upscore."""
    base = os.path.basename(bundle)
    for suffix in (".fcb",):
        if base.endswith(suffix):
            base = base[:-len(suffix)]
    stem, dot, precision = base.rpartition(".")
    return stem if dot and precision in ("ieee", "tf32", "bf16", "fp16") \
        else base


def group_stats(rows):
    """Counts, fraction >= 1.0x, geomean and minimum speedup over
    torch.compile, median % of floor, for rows of one group."""
    speedups = [r["speedup_compile"] for r in rows
                if r.get("speedup_compile")]
    floors = [r["pct_floor"] for r in rows if r.get("pct_floor")]
    return {
        "graphs": len(rows),
        "passed": sum(1 for r in rows if r.get("status") == "PASS"),
        "timed": len(speedups),
        "at_least_1x": sum(1 for s in speedups if s >= 1.0),
        "fraction_at_least_1x": (sum(1 for s in speedups if s >= 1.0) /
                                 len(speedups)) if speedups else None,
        "geomean_speedup_compile": math.exp(statistics.fmean(
            math.log(s) for s in speedups)) if speedups else None,
        "min_speedup_compile": min(speedups) if speedups else None,
        "median_pct_floor": statistics.median(floors) if floors else None,
    }


def summarize(rows, manifest):
    """{precision: {"all": stats, "family": {f: stats}, "split": {s:
    stats}}} over the rows whose bundle is in `manifest`; the rows get the
    manifest's family, split and floor."""
    out = {}
    for row in rows:
        record = manifest.get(graph_name(row.get("bundle", "")))
        if record is None:
            continue
        row["family"], row["split"] = record["family"], record["split"]
        row["manifest_floor_ms"] = record["floor_ms"]
        out.setdefault(row.get("precision", "?"), []).append(row)
    summary = {}
    for precision, group in sorted(out.items()):
        families = sorted({r["family"] for r in group})
        splits = sorted({r["split"] for r in group})
        summary[precision] = {
            "all": group_stats(group),
            "family": {f: group_stats([r for r in group if r["family"] == f])
                       for f in families},
            "split": {s: group_stats([r for r in group if r["split"] == s])
                      for s in splits},
        }
    return summary


def _cells(stats):
    def num(value, text):
        return "-" if value is None else text % value
    return [str(stats["graphs"]), str(stats["passed"]),
            "%d/%d" % (stats["at_least_1x"], stats["timed"]),
            num(None if stats["fraction_at_least_1x"] is None else
                100 * stats["fraction_at_least_1x"], "%.0f%%"),
            num(stats["geomean_speedup_compile"], "%.2fx"),
            num(stats["min_speedup_compile"], "%.2fx"),
            num(stats["median_pct_floor"], "%.0f%%")]


HEADER = ["group", "graphs", "pass", ">= 1.0x compile", "fraction",
          "geomean x compile", "min x compile", "median % of floor"]


def format_summary(summary):
    """Markdown tables, one per precision."""
    lines = []
    for precision, parts in summary.items():
        lines += ["", "Random-shape set, %s (issue 37: >= 95%% of graphs at "
                  ">= 1.0x torch.compile, geomean >= 2x)" % precision, "",
                  "| " + " | ".join(HEADER) + " |",
                  "|" + "|".join("---" for _ in HEADER) + "|"]
        rows = [("all", parts["all"])]
        rows += [("family " + f, s) for f, s in parts["family"].items()]
        rows += [("split " + s, v) for s, v in parts["split"].items()]
        for label, stats in rows:
            lines.append("| " + " | ".join([label] + _cells(stats)) + " |")
    return "\n".join(lines)
