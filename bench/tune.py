#!/usr/bin/env python3
# ===- bench/tune.py - Measure tile variants and record the best ---------=== #
#
# Tuning happens in two places, because MLIR (fusecc) and the GPU are on
# different machines:
#
#   prepare (build machine):
#     python3 bench/tune.py prepare examples/*.mlir --out out/tune
#   compiles, for every graph and precision, the cost model's bundle and a
#   grid of variants (tf32: --tile-rows, --tile-ci-chunk, --tile-c,
#   --tile-merge-h, --tile-wgmma, --tile-wgmma-split, --tile-cluster-c;
#   ieee:
#   --tile-threads, --tile-max-w), keeping one bundle per distinct
#   #fuse.tile config, and writes out/tune/candidates.json (graph,
#   precision, tuning key, knobs and config of each variant).
#
#   measure (GPU machine, PyTorch + CUDA, after building the runtime):
#     python3 bench/tune.py measure out/tune --lib build-rt/libfusecc_runtime.so
#   runs bench/gpu_check.py on every variant (correctness check + median
#   time), and writes tuning.json ($OUT or --out): for every graph whose
#   fastest passing variant beats the cost model's by more than --margin,
#   one entry {key, <knobs>} with both times. Copy it to
#   tuning/<device>.json (--keep tuning/<device>.json carries over that
#   file's other entries and its "base"); `fusecc --tuning=FILE`, or
#   `--tuning=tuning --device=<device>` (examples/run.sh, for the h200),
#   then reproduces the choice without a GPU.
#
# ===--------------------------------------------------------------------=== #

import argparse
import datetime
import itertools
import json
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Knob grids per precision: (fusecc flag, tuning-file field, values); 0 is
# the cost model's choice.
GRIDS = {
    "tf32": [("--tile-rows", "rows", [0, 1, 2, 4, 8]),
             # Shorter tiles (wgmma N, mma.sync positions), which let more
             # rows share a block's staged weights.
             ("--tile-max-w", "max_tile_w", [0, 80, 112]),
             ("--tile-ci-chunk", "ci_chunk", [0, 8, 16, 32]),
             # 128: two warpgroups sharing one block's staged inputs (never
             # in the grid before perf.md 138).
             ("--tile-c", "tile_c", [0, 32, 128]),
             ("--tile-merge-h", "merge_h", [0, 1]),
             # wgmma (sm_90a) or mma.sync: CLI -1 is the chip's default,
             # 0 mma.sync (recorded as "wgmma": -1, see TUNING_VALUES).
             ("--tile-wgmma", "wgmma", [-1, 0]),
             ("--tile-wgmma-split", "wgmma_split", [0, 1, 2]),
             # Channel softmaxes split over a 2-block cluster (0: the cost
             # model's choice, 1: never).
             ("--tile-cluster-c", "cluster_c", [0, 1])],
    # (--tile-warps-c was in the grid once and never won: perf.md 22.)
    "ieee": [("--tile-threads", "threads", [0, 64, 256, 512]),
             ("--tile-max-w", "max_tile_w", [0, 32, 64])],
}


# --quick: a smaller tf32 grid (rows, tile length, input channels per round,
# merged H taps; the chip's main loop) for layers already near their tuned
# time, to record an entry and the cost model's distance cheaply.
QUICK_GRIDS = {
    "tf32": [("--tile-rows", "rows", [0, 2, 4]),
             ("--tile-max-w", "max_tile_w", [0, 80]),
             ("--tile-ci-chunk", "ci_chunk", [0, 8, 16, 32]),
             ("--tile-merge-h", "merge_h", [0, 1])],
    "ieee": GRIDS["ieee"],
}


# Command-line values whose tuning-file value differs (the file's 0 always
# means "the default").
TUNING_VALUES = {"wgmma": {-1: 0, 0: -1}}


def fusecc(args, fusecc_bin):
    return subprocess.run([fusecc_bin] + args, check=True,
                          capture_output=True, text=True).stdout


def variant_name(knobs):
    if not any(knobs.values()):
        return "auto"
    return "-".join("%s%d" % (field, value) for field, value in knobs.items())


def config_field(config, name):
    m = re.search(r"\b%s = (\d+)" % name, config)
    return int(m.group(1)) if m else None


def pin_knobs(knobs, config):
    """The knobs with every tensor-core knob left to the cost model (0, or
    absent from a --quick grid) replaced by the value the measured config
    has, so that a recorded entry keeps selecting that config when the cost
    model changes later (fusecc verifies nothing else: tuning-shipped.test
    compares the configs)."""
    pinned = dict(knobs)
    wgmma = config_field(config, "wgmmaGroups")

    def pin(field, value):
        if not pinned.get(field):
            pinned[field] = value

    pin("rows", config_field(config, "rows") or 1)
    pin("ci_chunk", config_field(config, "ciChunk") or 0)
    pin("merge_h", config_field(config, "mergeHTaps") or 0)
    # The main loop: wgmma (1) or mma.sync (-1, TUNING_VALUES).
    pin("wgmma", 1 if wgmma else -1)
    if wgmma:
        pin("wgmma_split", wgmma // (config_field(config, "tileC") // 64))
    pin("cluster_c", config_field(config, "clusterC") or 1)
    return pinned


def prepare(args):
    os.makedirs(args.out, exist_ok=True)
    candidates = {}
    for graph, precision in itertools.product(args.graphs, args.precisions):
        name = os.path.splitext(os.path.basename(graph))[0]
        keys = fusecc([graph, "--precision=" + precision, "--chip=" + args.chip,
                       "--emit=tuning-keys"], args.fusecc).strip().splitlines()
        if len(keys) != 1:
            print("tune: %s has %d kernels; only single-kernel graphs are "
                  "tuned, skipped" % (graph, len(keys)))
            continue
        key = keys[0].split("\t", 1)[1]
        folder = os.path.join(args.out, "%s.%s" % (name, precision))
        shutil.rmtree(folder, ignore_errors=True)  # No stale variants.
        os.makedirs(folder)
        grid = (QUICK_GRIDS if args.quick else GRIDS)[precision]
        seen, variants = set(), {}
        for values in itertools.product(*[v for _, _, v in grid]):
            flags = ["%s=%d" % (flag, v) for (flag, _, _), v in zip(grid, values)]
            knobs = {field: TUNING_VALUES.get(field, {}).get(v, v)
                     for (_, field, _), v in zip(grid, values)}
            flags.append("--chip=" + args.chip)
            try:
                fused = fusecc([graph, "--precision=" + precision,
                                "--emit=fused"] + flags, args.fusecc)
            except subprocess.CalledProcessError:
                continue  # Knobs the tiling rejects for this graph.
            # One nesting level: the config's `types = <...>`.
            config = re.search(r"#fuse\.tile<(?:[^<>]|<[^<>]*>)*>",
                               fused).group(0)
            mma = "mmaWarpsC" in config or "wgmmaN" in config
            if mma != (precision in ("tf32", "bf16", "fp16")) or \
                    config in seen:
                continue  # FMA fallback of tf32, or a config already covered.
            vname = variant_name(knobs)
            seen.add(config)
            fusecc([graph, "--precision=" + precision, "-o",
                    os.path.join(folder, "%s.%s.fcb" % (vname, precision))] +
                   flags, args.fusecc)
            variants[vname] = dict(knobs, config=config)
        if "auto" not in variants:
            print("tune: %s (%s): the cost model's config is not a %s "
                  "config; skipped" % (graph, precision, precision))
            continue
        candidates["%s.%s" % (name, precision)] = {
            "graph": name, "precision": precision, "key": key,
            "chip": args.chip,
            "variants": variants}
        print("tune: %s (%s): %d variants" % (name, precision, len(variants)))
    with open(os.path.join(args.out, "candidates.json"), "w") as f:
        json.dump(candidates, f, indent=2)
    return 0


def measure(args):
    with open(os.path.join(args.folder, "candidates.json")) as f:
        candidates = json.load(f)
    out = args.out or os.environ.get("OUT") or args.folder
    os.makedirs(out, exist_ok=True)
    entries, lines, device = [], [], None
    def gpu_check(folder, check_out, *flags, reps=args.reps):
        subprocess.run([sys.executable, os.path.join(REPO, "bench",
                                                     "gpu_check.py"),
                        "--bundles", folder, "--lib", args.lib,
                        "--no-compile", "--reps", str(reps), "--out",
                        check_out] + list(flags), check=False,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(check_out, "gpu_check.json")) as f:
            return json.load(f)

    def write_results():
        """tuning.json and the table so far (rewritten after every graph, so
        a call that runs out of time keeps what it measured)."""
        kept, base = [], None
        if args.keep:
            # Entries of an earlier file for kernels this run did not tune,
            # and the file its kernels without an entry fall back to.
            tuned = {c["key"] for c in candidates.values()}
            with open(args.keep) as f:
                earlier = json.load(f)
            kept = [e for e in earlier["entries"] if e["key"] not in tuned]
            base = earlier.get("base")
        result = {
            "device": device,
            "chip": next(iter(candidates.values()), {}).get("chip", "sm_90"),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
                timespec="seconds"),
            "margin": args.margin,
            "entries": kept + entries,
        }
        if base:
            result["base"] = base
        with open(os.path.join(out, "tuning.json"), "w") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
        table = ("| graph | variants | cost model ms | best | best ms | gain |\n"
                 "|---|---|---|---|---|---|\n" + "\n".join(lines) + "\n")
        with open(os.path.join(out, "tune_table.md"), "w") as f:
            f.write(table)
        print(table)

    for name, cand in sorted(candidates.items()):
        if args.only and not any(o in name for o in args.only):
            continue
        check_out = os.path.join(out, "check-" + name)
        folder = os.path.join(args.folder, name)
        suffix = ".%s.fcb" % cand["precision"]
        screened = None
        if args.screen:
            # Time every variant without its check, then check and time
            # the cost model's and the `screen` fastest: only those can be
            # chosen.
            report = gpu_check(folder, check_out + "-screen", "--time-only",
                               "--warmup", "3", reps=args.screen_reps)
            timed = sorted((row["fusecc_ms"], row["bundle"][:-len(suffix)])
                           for row in report["rows"]
                           if row.get("fusecc_ms"))
            screened = {v for _, v in timed[:args.screen]} | {"auto"}
            folder = os.path.join(args.folder, "screened-" + name)
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            for v in screened:
                src = os.path.join(args.folder, name, v + suffix)
                if os.path.exists(src):
                    shutil.copy(src, folder)
        report = gpu_check(folder, check_out)
        device = report["environment"]["device"]
        times = {}
        for row in report["rows"]:
            vname = row["bundle"][:-len(suffix)]
            if vname not in cand["variants"]:
                print("tune: %s/%s is not a prepared variant: ignored"
                      % (name, vname))
                continue
            if row["status"] == "PASS" and row.get("fusecc_ms"):
                times[vname] = row["fusecc_ms"]
            else:
                print("tune: %s/%s did not pass its check (%s): never "
                      "chosen" % (name, vname, row["status"]))
        if "auto" not in times:
            print("tune: %s: the cost model's variant failed; nothing "
                  "recorded" % name)
            continue
        best = min(times, key=times.get)
        gain = 1.0 - times[best] / times["auto"]
        lines.append("| %s | %d | %.4f | %s | %.4f | %.1f%% |"
                     % (name, len(cand["variants"]), times["auto"], best,
                        times[best], 100 * gain))
        if args.record_all and gain <= args.margin:
            best = "auto"  # Recorded as measured: the cost model's config.
        if (best != "auto" and gain > args.margin) or args.record_all:
            v = dict(cand["variants"][best])
            config = v.pop("config")
            if cand["precision"] == "tf32":
                v = pin_knobs(v, config)
            entries.append(dict({"key": cand["key"]}, **v,
                                graph=cand["graph"], config=config,
                                ms=round(times[best], 4),
                                cost_model_ms=round(times["auto"], 4)))
        write_results()
    write_results()
    print("tune: %d entries written to %s" % (len(entries),
                                              os.path.join(out, "tuning.json")))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("graphs", nargs="+")
    p.add_argument("--precisions", nargs="+", default=["tf32", "ieee"],
                   choices=["tf32", "ieee"])
    p.add_argument("--out", default=os.path.join(REPO, "out", "tune"))
    p.add_argument("--quick", action="store_true",
                   help="the smaller grid (QUICK_GRIDS)")
    p.add_argument("--chip", default="sm_90a",
                   help="target of the variants (sm_90a: wgmma and mma.sync "
                        "variants of tf32 kernels)")
    p.add_argument("--fusecc", default=os.path.join(REPO, "build", "bin",
                                                    "fusecc"))
    m = sub.add_parser("measure")
    m.add_argument("folder")
    m.add_argument("--lib", required=True)
    m.add_argument("--reps", type=int, default=30)
    m.add_argument("--screen", type=int, default=0,
                   help="time every variant unchecked first, then check "
                        "and time only the cost model's and this many "
                        "fastest (0: check every variant)")
    m.add_argument("--screen-reps", type=int, default=8,
                   help="timed runs per variant in the screening pass")
    m.add_argument("--margin", type=float, default=0.03,
                   help="record a variant only if it is this much faster")
    m.add_argument("--out", default=None)
    m.add_argument("--only", nargs="+", default=None,
                   help="measure only graphs whose name contains one of "
                        "these")
    m.add_argument("--record-all", action="store_true",
                   help="an entry for every graph: the winner if it beats "
                        "the cost model by the margin, else the cost "
                        "model's config pinned (its measured time kept)")
    m.add_argument("--keep", default=None,
                   help="tuning file whose entries for kernels not tuned "
                        "in this run are carried over")
    args = parser.parse_args()
    return prepare(args) if args.command == "prepare" else measure(args)


if __name__ == "__main__":
    sys.exit(main())
