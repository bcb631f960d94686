#!/usr/bin/env python3
# ===- bench/costmodel_data.py - Recorded variant timings, re-scored -----=== #
#
# Issue 37 item 1 asks for the cost model's choice within 15% of the best
# measured variant on >= 90% of held-out shapes. Measuring that costs
# device time (bench/tune.py prepare + measure, docs/perf.md 191 and 234);
# this script keeps what one such measurement found, so that a later rule
# change is scored on the CPU against it, before any device call:
#
#   record (after tune.py measure, anywhere):
#     costmodel_data.py record PREPARED MEASURE_OUT... --manifest M.json \
#         --graphs DIR --seed 43 --count 100 --models 0 --device "NVIDIA H200" \
#         --date 2026-11-30 --commit 1421cc7 --out bench/data/X.json
#   writes one compact JSON file: per layer (candidates.json's, keyed by
#   graph name) its family, split and floor, and every variant's #fuse.tile
#   config with its screening time (every variant, unchecked, same
#   conditions), its check-pass time and status (the cost model's and the
#   fastest few, checked against float64), and which variant the measured
#   compiler chose ("auto"), and the layer's graph (its .mlir text, from
#   --graphs: the folder random_layers.py wrote).
#
#   rescore (here, with any compiler):
#     costmodel_data.py rescore bench/data/X.json [--fusecc build/bin/fusecc]
#         [-- EXTRA_FUSECC_FLAGS...]
#   writes the recorded layers' graphs (kept in the record, so that a later
#   change of the generator does not change them), asks the compiler for each layer's tile config
#   (--emit=fused), looks the config up among the recorded variants and
#   prints, per layer, the choice's time over the best variant's, the count
#   within --within (per split and family), and every layer whose choice
#   differs from the recorded compiler's. A config that was never measured
#   is reported as such ("unmeasured"), never guessed.
#
# Times: the score uses screening times (`tune.py measure --screen`: every
# variant timed back to back under the same conditions), so that any
# variant can be the choice; variants whose check FAILed are never the
# best. The check-pass figure (tune.py report's, the number perf.md quotes)
# is printed too, for the recorded compiler's choice.
#
# ===--------------------------------------------------------------------=== #

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "bench"))
from half_graphs import HALF_TYPES, write_half_graph  # noqa: E402
from tune import precision_flags  # noqa: E402

CONFIG_RE = re.compile(r"#fuse\.tile<(?:[^<>]|<[^<>]*>)*>")


def load_rows(path):
    """The rows of one gpu_check.json, by bundle name ({} if absent)."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {row["bundle"]: row for row in json.load(f)["rows"]}


def record(args):
    """Writes the compact record of a measured tune.py folder."""
    with open(os.path.join(args.prepared, "candidates.json")) as f:
        candidates = json.load(f)
    with open(args.manifest) as f:
        manifest = {g["name"]: g for g in json.load(f)["graphs"]}
    screen, check = {}, {}
    for out in args.outs:
        screen.update(load_rows(os.path.join(out, "screen",
                                             "gpu_check.json")))
        check.update(load_rows(os.path.join(out, "check", "gpu_check.json")))
    layers = {}
    for name, cand in sorted(candidates.items()):
        suffix = ".%s.fcb" % cand["precision"]
        variants, measured = [], False
        for vname, knobs in cand["variants"].items():
            bundle = "%s__%s%s" % (name, vname, suffix)
            s, c = screen.get(bundle, {}), check.get(bundle, {})
            v = {"name": vname, "config": knobs["config"]}
            if s.get("fusecc_ms"):
                v["screen_ms"] = round(s["fusecc_ms"], 5)
            if c:
                v["status"] = c.get("status")
                if c.get("fusecc_ms"):
                    v["check_ms"] = round(c["fusecc_ms"], 5)
            measured |= "screen_ms" in v or "check_ms" in v
            variants.append(v)
        if not measured:
            continue
        g = manifest.get(cand["graph"], {})
        with open(os.path.join(args.graphs, cand["graph"] + ".mlir")) as f:
            text = f.read()
        layers[cand["graph"]] = {
            "family": g.get("family"), "split": g.get("split"),
            "floor_ms": round(g["floor_ms"], 5) if "floor_ms" in g else None,
            "precision": cand["precision"], "key": cand["key"],
            "current": cand.get("current"), "variants": variants,
            "graph": text}
    data = {
        "what": "tile variants of bench/random_layers.py layers timed on "
                "the device by tune.py measure (bench/costmodel_data.py)",
        "device": args.device, "date": args.date, "commit": args.commit,
        "chip": args.chip,
        "generator": {"seed": args.seed, "count": args.count,
                      "models": args.models},
        "measure": args.measure, "layers": layers}
    with open(args.out, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print("costmodel_data: %d layers, %d variants written to %s" % (
        len(layers), sum(len(l["variants"]) for l in layers.values()),
        args.out))
    return 0


def best_variant(variants, key):
    """The fastest variant by `key` ("screen_ms" or "check_ms") among those
    that did not fail their check, or None."""
    timed = [v for v in variants
             if v.get(key) and v.get("status", "PASS") == "PASS"]
    return min(timed, key=lambda v: v[key]) if timed else None


def choice_config(fusecc, graph, precision, chip, extra):
    """The compiler's #fuse.tile config for a single-kernel graph."""
    fused = subprocess.run([fusecc, graph, "--emit=fused", "--chip=" + chip]
                           + precision_flags(precision) + extra, check=True, capture_output=True,
                           text=True).stdout
    configs = CONFIG_RE.findall(fused)
    return configs[0] if len(configs) == 1 else None


def score(data, choices, within):
    """Per-layer rows: the chosen variant (by config; None if never
    measured), its screening time over the best's, and whether that is
    within `within`."""
    rows = []
    for name, layer in sorted(data["layers"].items()):
        variants = layer["variants"]
        by_config = {v["config"]: v for v in variants}
        best = best_variant(variants, "screen_ms")
        recorded = next(v for v in variants if v["name"] == "auto")
        chosen = by_config.get(choices.get(name))
        row = {"name": name, "family": layer["family"],
               "split": layer["split"], "best": best and best["name"],
               "recorded": recorded["name"],
               "chosen": chosen["name"] if chosen else None,
               "changed": choices.get(name) != recorded["config"]}
        if best and chosen and chosen.get("screen_ms"):
            row["ratio"] = chosen["screen_ms"] / best["screen_ms"]
            row["within"] = row["ratio"] <= 1.0 + within
        if best and recorded.get("screen_ms"):
            row["recorded_ratio"] = recorded["screen_ms"] / best["screen_ms"]
        cbest = best_variant(variants, "check_ms")
        if cbest and recorded.get("check_ms") and \
                recorded.get("status") == "PASS":
            row["recorded_check_ratio"] = recorded["check_ms"] / \
                cbest["check_ms"]
        rows.append(row)
    return rows


def summary(rows, key, within, label):
    """"label: n of m within" lines for all rows and per split / family,
    over rows that have `key`."""
    lines = []
    groups = [("all", rows)]
    for field in ("split", "family"):
        for value in sorted({r[field] for r in rows if r[field]}):
            groups.append(("%s %s" % (field, value),
                           [r for r in rows if r[field] == value]))
    for name, group in groups:
        timed = [r for r in group if key in r]
        inside = sum(r[key] <= 1.0 + within for r in timed)
        lines.append("%s, %s: %d of %d within %d%% (%.1f%%)%s" % (
            label, name, inside, len(timed), round(100 * within),
            100.0 * inside / max(len(timed), 1),
            "" if len(timed) == len(group) else
            "; %d unmeasured" % (len(group) - len(timed))))
    return lines


def rescore(args):
    """Scores a compiler's choices against a record (see the banner)."""
    with open(args.data) as f:
        data = json.load(f)
    with tempfile.TemporaryDirectory(prefix="costmodel-") as tmp:
        choices = {}
        for name, layer in sorted(data["layers"].items()):
            graph = os.path.join(tmp, name + ".mlir")
            with open(graph, "w") as f:
                f.write(layer["graph"])
            if layer["precision"] in HALF_TYPES:
                half = os.path.join(tmp, "%s.%s.mlir" % (
                    name, layer["precision"]))
                write_half_graph(graph, half, layer["precision"])
                graph = half
            choices[name] = choice_config(args.fusecc, graph,
                                          layer["precision"], data["chip"],
                                          args.extra)
    rows = score(data, choices, args.within)
    print("| layer | family | split | recorded | chosen | best | ratio |\n"
          "|---|---|---|---|---|---|---|")
    for r in rows:
        ratio = "%.2f" % r["ratio"] if "ratio" in r else "unmeasured"
        mark = "**" if r.get("within") is False else ""
        print("| %s | %s | %s | %s | %s%s | %s | %s%s%s |" % (
            r["name"], r["family"], r["split"], r["recorded"],
            r["chosen"] or "?", " (changed)" if r["changed"] else "",
            r["best"], mark, ratio, mark))
    print()
    for line in summary(rows, "ratio", args.within, "this compiler"):
        print(line)
    for line in summary(rows, "recorded_ratio", args.within,
                        "recorded compiler (screen)"):
        print(line)
    for line in summary(rows[:], "recorded_check_ratio", args.within,
                        "recorded compiler (check pass)")[:1]:
        print(line)
    changed = [r for r in rows if r["changed"]]
    print("changed choices: %d%s" % (len(changed), "".join(
        "\n  %s: %s -> %s (%s -> %s)" % (
            r["name"], r["recorded"], r["chosen"] or "unmeasured config",
            "%.2f" % r["recorded_ratio"] if "recorded_ratio" in r else "?",
            "%.2f" % r["ratio"] if "ratio" in r else "?")
        for r in changed)))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("prepared", help="tune.py prepare's folder")
    r.add_argument("outs", nargs="+", help="tune.py measure outputs")
    r.add_argument("--manifest", required=True)
    r.add_argument("--graphs", required=True,
                   help="the folder of the layers' .mlir files")
    r.add_argument("--seed", type=int, required=True)
    r.add_argument("--count", type=int, default=100)
    r.add_argument("--models", type=int, default=0)
    r.add_argument("--chip", default="sm_90a")
    r.add_argument("--device", required=True)
    r.add_argument("--date", required=True)
    r.add_argument("--commit", required=True,
                   help="the commit whose compiler made the variants")
    r.add_argument("--measure", default="tune.py measure --screen 3 "
                   "--screen-reps 6 --reps 15 --record-all")
    r.add_argument("--out", required=True)
    s = sub.add_parser("rescore")
    s.add_argument("data")
    s.add_argument("--fusecc", default=os.path.join(REPO, "build", "bin",
                                                    "fusecc"))
    s.add_argument("--within", type=float, default=0.15)
    s.add_argument("extra", nargs="*",
                   help="more fusecc flags (after --), e.g. "
                        "--tile-rules=session41")
    args = parser.parse_args()
    return {"record": record, "rescore": rescore}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
