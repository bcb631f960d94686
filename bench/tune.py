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
#   precision, tuning key, knobs and config of each variant). The
#   precisions bf16 and f16 tune the graph stored in that type
#   (bench/half_graphs.py, as bench/half_bundles.sh makes it: its math
#   follows the storage) over the tensor-core knobs, under the key fusecc
#   looks such a kernel up by (its own entry wins over its tf32 twin's).
#   A graph is skipped where an entry under its --emit=tuning-keys key
#   would not apply (lookup_applies: a compiler that prints another key).
#   --quick --singles: the quick grid plus each knob it leaves out alone
#   (issue 37's held-out measurement, docs/perf.md 191), and positions on M
#   on or off (SINGLE_ONLY_GRIDS, docs/perf.md 192).
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
#   report (anywhere, after measure):
#     python3 bench/tune.py report out/tune OUT... [--manifest FILE]
#   the cost model's time over the best passing variant's for every graph
#   measured (the check pass of each measure output OUT), how many are
#   within --within (issue 37: 15%), and for each miss the #fuse.tile
#   fields the faster config changes.
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
sys.path.insert(0, os.path.join(REPO, "bench"))
from half_graphs import HALF_TYPES, write_half_graph  # noqa: E402

# Half kernels' tensor-core knobs: rows (8 leaves a half kernel on FMA),
# the tile length, input channels per round in the half MMA's K (16;
# tensorCoreMath's TF32 kernels take 8 at 0), the channel tile, merged H
# taps, wgmma or mma.sync, warpgroups per 64 channels, channel-softmax
# clusters.
HALF_GRID = [("--tile-rows", "rows", [0, 1, 2, 4]),
             ("--tile-max-w", "max_tile_w", [0, 80, 112]),
             ("--tile-ci-chunk", "ci_chunk", [0, 16, 32, 64]),
             ("--tile-c", "tile_c", [0, 32, 128]),
             ("--tile-merge-h", "merge_h", [0, 1]),
             ("--tile-wgmma", "wgmma", [-1, 0]),
             ("--tile-wgmma-split", "wgmma_split", [0, 1, 2]),
             ("--tile-cluster-c", "cluster_c", [0, 1])]
# --quick for half kernels: rows, channels per round (a half round
# stages half the bytes of a tf32 one: longer rounds than the twin's) and
# merged taps, about 12 distinct configs per example graph and type (with
# the tile length and the warpgroup split too, 30: more than one device
# call can screen, docs/perf.md 177).
HALF_QUICK_GRID = [("--tile-rows", "rows", [0, 1, 2, 4]),
                   ("--tile-ci-chunk", "ci_chunk", [0, 32, 64]),
                   ("--tile-merge-h", "merge_h", [0, 1])]
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
    "bf16": HALF_GRID,
    "f16": HALF_GRID,
}


# --quick: a smaller tf32 grid (rows, tile length, input channels per round,
# merged H taps; the chip's main loop) for layers already near their tuned
# time, to record an entry and the cost model's distance cheaply.
QUICK_GRIDS = {
    "tf32": [("--tile-rows", "rows", [0, 2, 4]),
             ("--tile-max-w", "max_tile_w", [0, 80]),
             ("--tile-ci-chunk", "ci_chunk", [0, 8, 16, 32]),
             ("--tile-merge-h", "merge_h", [0, 1])],
    # ieee kernels on sm_90a run on split-operand tensor cores (tf32x3):
    # the tensor-core knobs, as tf32.
    "ieee": [("--tile-rows", "rows", [0, 2, 4]),
             ("--tile-max-w", "max_tile_w", [0, 80]),
             ("--tile-ci-chunk", "ci_chunk", [0, 8, 16, 32]),
             ("--tile-merge-h", "merge_h", [0, 1])],
    "bf16": HALF_QUICK_GRID,
    "f16": HALF_QUICK_GRID,
}
PRECISIONS = list(GRIDS)


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
    # The tile length: the cost model's W search depends on the other
    # knobs, so a pinned entry caps it at the measured length.
    pin("max_tile_w", config_field(config, "tileW") or 0)
    # Positions on M (mmaPositionsM = 1): its tileC is all of a group's
    # channels, not a channel-tile knob (those are multiples of 16).
    if config_field(config, "mmaPositionsM"):
        pin("positions_m", 1)
    else:
        pin("tile_c", config_field(config, "tileC") or 0)
    pin("ci_chunk", config_field(config, "ciChunk") or 0)
    pin("merge_h", config_field(config, "mergeHTaps") or 0)
    # The main loop: wgmma (1) or mma.sync (-1, TUNING_VALUES).
    pin("wgmma", 1 if wgmma else -1)
    if wgmma:
        pin("wgmma_split", wgmma // (config_field(config, "tileC") // 64))
    pin("cluster_c", config_field(config, "clusterC") or 1)
    return pinned


def precision_flags(precision):
    """fusecc flags that select `precision` on its graph: none for a half
    type (the graph is stored in it, half_graphs.py, and its math follows
    the storage), else --precision."""
    return [] if precision in HALF_TYPES else ["--precision=" + precision]


def tuned_graph(graph, precision, out):
    """The graph file whose kernel `precision` tunes: `graph` itself, or,
    for a half type, `graph` stored in that type, written once to
    <out>/graphs/<name>.<precision>.mlir."""
    if precision not in HALF_TYPES:
        return graph
    name = os.path.splitext(os.path.basename(graph))[0]
    half = os.path.join(out, "graphs", "%s.%s.mlir" % (name, precision))
    os.makedirs(os.path.dirname(half), exist_ok=True)
    write_half_graph(graph, half, precision)
    return half


def grid_points(grid, chip):
    """Every point of `grid` as (fusecc flags, tuning-file knobs), in grid
    order (the first point of a config names its variant)."""
    points = []
    for values in itertools.product(*[v for _, _, v in grid]):
        flags = ["%s=%d" % (flag, v) for (flag, _, _), v in zip(grid, values)]
        knobs = {field: TUNING_VALUES.get(field, {}).get(v, v)
                 for (_, field, _), v in zip(grid, values)}
        points.append((flags + ["--chip=" + chip], knobs))
    return points


# --singles: values a knob takes alone besides its grid values (wgmma
# wherever a kernel fits, CLI 1: section 179's winner on half-wave grids,
# too costly in the full grid's product).
SINGLE_EXTRA_VALUES = {"wgmma": [1]}
# --singles: knobs tried only alone, never in a grid's product: mma.sync
# tiles with positions on M (1) or never (-1), for layers of at most 16
# channels a group (elsewhere the tiling does not fit and the point
# compiles to the cost model's config, which prepare drops as seen).
SINGLE_ONLY_GRIDS = {
    precision: [("--tile-positions-m", "positions_m", [0, 1, -1])]
    for precision in ("tf32", "bf16", "f16")}


def single_points(grid, chip, fields):
    """Every non-default value of each knob of `grid` whose field is not
    in `fields` (the product grid's), that knob alone with the others at
    the cost model's choice, as (fusecc flags, tuning-file knobs): with
    --singles, the knobs a --quick grid leaves out (the channel tile, the
    main loop, warpgroups, clusters) tried one at a time, at a few points
    per graph instead of the full grid's thousands."""
    points = []
    for flag, field, values in grid:
        if field in fields:
            continue
        for v in values[1:] + SINGLE_EXTRA_VALUES.get(field, []):
            knobs = {f: TUNING_VALUES.get(f, {}).get(vals[0], vals[0])
                     for _, f, vals in grid}
            knobs[field] = TUNING_VALUES.get(field, {}).get(v, v)
            points.append((["%s=%d" % (flag, v), "--chip=" + chip], knobs))
    return points


def is_mma(config):
    """Whether a #fuse.tile config runs on the tensor cores."""
    return "mmaWarpsC" in config or "wgmmaN" in config


def entry_knobs(knobs, config):
    """The tuning-file knobs recorded for a measured variant: its grid
    knobs, pinned (pin_knobs) where it runs on the tensor cores."""
    return pin_knobs(knobs, config) if is_mma(config) else dict(knobs)


def prepare_one(graph, precision, args, pool):
    """The variants of one (graph, precision): every grid point's config
    from `--emit=fused` (in parallel on `pool`), one bundle per distinct
    tensor-core config, the first grid point in grid order naming it (so
    the result does not depend on the order the calls finish in). Returns
    the candidates.json entry, or None."""
    name = os.path.splitext(os.path.basename(graph))[0]
    source = graph
    graph = tuned_graph(graph, precision, args.out)
    pflags = precision_flags(precision)
    keys = fusecc([graph, "--chip=" + args.chip, "--emit=tuning-keys"] +
                  pflags, args.fusecc).strip().splitlines()
    if len(keys) != 1:
        print("tune: %s has %d kernels; only single-kernel graphs are "
              "tuned, skipped" % (graph, len(keys)))
        return None
    key = keys[0].split("\t", 1)[1]
    folder = os.path.join(args.out, "%s.%s" % (name, precision))
    shutil.rmtree(folder, ignore_errors=True)  # No stale variants.
    os.makedirs(folder)
    grid = (QUICK_GRIDS if args.quick else GRIDS)[precision]
    points = grid_points(grid, args.chip)
    if args.singles:
        points += single_points(
            GRIDS[precision] + SINGLE_ONLY_GRIDS.get(precision, []),
            args.chip, {field for _, field, _ in grid})

    def config_of(flags):
        try:
            fused = fusecc([graph, "--emit=fused"] + pflags + flags,
                           args.fusecc)
        except subprocess.CalledProcessError:
            return None  # Knobs the tiling rejects for this graph.
        # One nesting level: the config's `types = <...>`.
        return re.search(r"#fuse\.tile<(?:[^<>]|<[^<>]*>)*>",
                         fused).group(0)

    configs = list(pool.map(lambda p: config_of(p[0]), points))
    seen, chosen, variants = set(), [], {}
    for (flags, knobs), config in zip(points, configs):
        if config is None:
            continue
        if (not is_mma(config) and precision != "ieee") or config in seen:
            continue  # FMA fallback of tf32, or a config already covered.
        seen.add(config)
        vname = variant_name(knobs)
        chosen.append((vname, flags))
        variants[vname] = dict(knobs, config=config)
    if "auto" not in variants:
        print("tune: %s (%s): the cost model's config is not a "
              "tensor-core config; skipped" % (graph, precision))
        return None
    if not lookup_applies(key, variants, folder, config_of, args.chip):
        print("tune: %s (%s): fusecc --tuning does not look its kernel up "
              "by the key --emit=tuning-keys prints (%s; an older "
              "compiler?): skipped" % (name, precision, key))
        return None
    list(pool.map(lambda v: fusecc(
        [graph, "-o", os.path.join(folder, "%s.%s.fcb" % (v[0], precision))]
        + pflags + v[1], args.fusecc), chosen))
    current = None
    if args.current:
        # What fusecc picks today with the shipped tuning file (its base's
        # entries, a half kernel's tf32 twin's, included): a variant of its
        # own when no grid point has its config, so a measured entry must
        # beat it.
        flags = args.current.split() + ["--chip=" + args.chip]
        config = config_of(flags)
        current = next((v for v, k in variants.items()
                        if k["config"] == config), None)
        if current is None and config is not None:
            fusecc([graph, "-o",
                    os.path.join(folder, "current.%s.fcb" % precision)] +
                   pflags + flags, args.fusecc)
            variants["current"] = {"config": config}
            current = "current"
    print("tune: %s (%s): %d variants" % (name, precision, len(variants)),
          flush=True)
    cand = {"graph": name, "precision": precision, "key": key,
            "chip": args.chip, "variants": variants, "current": current}
    if precision in HALF_TYPES:
        cand["storage"] = precision
        cand["source"] = source
    return cand


def lookup_applies(key, variants, folder, config_of, chip):
    """Whether fusecc applies an entry recorded under `key`: the first
    variant other than the cost model's, written as the entry of a tuning
    file (its knobs as `measure` records them), must not compile back to
    the cost model's config. True where there is no such variant."""
    other = next((v for v in variants if v != "auto"), None)
    if other is None:
        return True
    knobs = dict(variants[other])
    config = knobs.pop("config")
    path = os.path.join(folder, "lookup-check.json")
    with open(path, "w") as f:
        json.dump({"entries": [dict({"key": key},
                                    **entry_knobs(knobs, config))]}, f)
    compiled = config_of(["--tuning=" + path, "--chip=" + chip])
    os.remove(path)
    return compiled != variants["auto"]["config"]


def prepare(args):
    """Writes every graph's variants and candidates.json; `--jobs` fusecc
    processes at a time (the GPU machine has the cores: prepare can run
    there with the static compiler)."""
    import concurrent.futures
    os.makedirs(args.out, exist_ok=True)
    candidates = {}
    pairs = list(itertools.product(args.graphs, args.precisions))
    # Several graphs at a time (each waits on its few fusecc calls in
    # turn), their fusecc processes all on the one `pool`.
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool, \
            concurrent.futures.ThreadPoolExecutor(
                max(1, args.jobs // 4)) as graphs:
        for cand in graphs.map(
                lambda p: prepare_one(p[0], p[1], args, pool), pairs):
            if cand:
                candidates["%s.%s" % (cand["graph"], cand["precision"])] = \
                    cand
    with open(os.path.join(args.out, "candidates.json"), "w") as f:
        json.dump(candidates, f, indent=2)
    return 0


def tuning_entry(cand, best, times):
    """The tuning-file entry of candidate `cand` (a candidates.json value)
    whose variant `best` measured fastest (`times`: ms per variant name):
    its key, pinned knobs, graph (and "storage", the half type its graph
    was stored in: bench/half_graphs.py, for the tuning-file check), the
    config and both times. fusecc reads only the key and the knobs."""
    knobs = dict(cand["variants"][best])
    config = knobs.pop("config")
    entry = dict({"key": cand["key"]}, **entry_knobs(knobs, config),
                 graph=cand["graph"])
    if cand.get("storage"):
        entry["storage"] = cand["storage"]
    entry.update(config=config, ms=round(times[best], 4),
                 cost_model_ms=round(times["auto"], 4))
    return entry


def tuning_file(entries, candidates, device, margin, keep=None):
    """The tuning file of measured `entries` (tuning_entry) for the
    `candidates` measured (candidates.json's, less those --only left out)
    on `device`: with `keep` (a tuning file), that file's entries for
    kernels this run did not measure (other precisions, other graphs)
    carried over first, and its "base" (the file its kernels without an
    entry fall back to)."""
    kept, base = [], None
    if keep:
        tuned = {c["key"] for c in candidates.values()}
        with open(keep) as f:
            earlier = json.load(f)
        kept = [e for e in earlier["entries"] if e["key"] not in tuned]
        base = earlier.get("base")
    result = {
        "device": device,
        "chip": next(iter(candidates.values()), {}).get("chip", "sm_90"),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "margin": margin,
        "entries": kept + entries,
    }
    if base:
        result["base"] = base
    return result


def run_gpu_check(lib, folder, check_out, reps, flags):
    """Runs bench/gpu_check.py (no torch.compile baseline) on the bundles
    in `folder`, its output in `check_out`; returns its gpu_check.json."""
    subprocess.run([sys.executable, os.path.join(REPO, "bench",
                                                 "gpu_check.py"),
                    "--bundles", folder, "--lib", lib, "--no-compile",
                    "--reps", str(reps), "--out", check_out] + list(flags),
                   check=False, stdout=subprocess.DEVNULL)
    with open(os.path.join(check_out, "gpu_check.json")) as f:
        return json.load(f)


def measure(args):
    with open(os.path.join(args.folder, "candidates.json")) as f:
        candidates = json.load(f)
    out = args.out or os.environ.get("OUT") or args.folder
    os.makedirs(out, exist_ok=True)
    entries, lines, device = [], [], None

    def gpu_check(folder, check_out, *flags, reps=args.reps):
        return run_gpu_check(args.lib, folder, check_out, reps, flags)

    def write_results():
        """tuning.json and the table so far (rewritten after every graph, so
        a call that runs out of time keeps what it measured)."""
        result = tuning_file(entries, chosen, device, args.margin,
                             args.keep)
        with open(os.path.join(out, "tuning.json"), "w") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
        table = ("| graph | variants | cost model ms | today's choice ms | "
                 "best | best ms | gain |\n"
                 "|---|---|---|---|---|---|---|\n" + "\n".join(lines) + "\n")
        with open(os.path.join(out, "tune_table.md"), "w") as f:
            f.write(table)
        print(table)

    # Every graph's variants are measured in one gpu_check run (a run
    # costs seconds of start-up: PyTorch, the runtime), screened first if
    # asked: timed unchecked, then the cost model's and the `screen`
    # fastest of each graph checked and timed.
    chosen = {name: cand for name, cand in sorted(candidates.items())
              if not args.only or any(o in name for o in args.only)}

    def batch(folder, pick):
        """Copies the picked variants of every chosen graph into `folder`
        as <graph.precision>__<variant>.<precision>.fcb."""
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name, cand in chosen.items():
            suffix = ".%s.fcb" % cand["precision"]
            for vname in cand["variants"]:
                src = os.path.join(args.folder, name, vname + suffix)
                if pick(name, vname) and os.path.exists(src):
                    shutil.copy(src, os.path.join(
                        folder, "%s__%s%s" % (name, vname, suffix)))

    def rows_by_graph(report):
        found = {}
        for row in report["rows"]:
            name, _, rest = row["bundle"].partition("__")
            if name in chosen:
                suffix = ".%s.fcb" % chosen[name]["precision"]
                found.setdefault(name, []).append(
                    dict(row, variant=rest[:-len(suffix)]))
        return found

    screened = None
    if args.screen:
        folder = os.path.join(args.folder, "batch-screen")
        batch(folder, lambda name, vname: True)
        report = gpu_check(folder, os.path.join(out, "screen"), "--time-only",
                           "--warmup", "3", "--warm-s",
                           str(args.screen_warm_s), reps=args.screen_reps)
        screened = {}
        for name, rows in rows_by_graph(report).items():
            timed = sorted((row["fusecc_ms"], row["variant"])
                           for row in rows if row.get("fusecc_ms"))
            screened[name] = {v for _, v in timed[:args.screen]} | {
                "auto", chosen[name].get("current")}
    folder = os.path.join(args.folder, "batch-check")
    batch(folder, lambda name, vname: screened is None
          or vname in screened.get(name, ()))
    report = gpu_check(folder, os.path.join(out, "check"))
    device = report["environment"]["device"]
    checked = rows_by_graph(report)

    for name, cand in chosen.items():
        times = {}
        for row in checked.get(name, []):
            vname = row["variant"]
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
        # The choice to beat: today's (the shipped tuning file's, prepare
        # --current), else the cost model's.
        ref = cand.get("current") if cand.get("current") in times else "auto"
        gain = 1.0 - times[best] / times[ref]
        lines.append("| %s | %d | %.4f | %s %.4f | %s | %.4f | %.1f%% |"
                     % (name, len(cand["variants"]), times["auto"], ref,
                        times[ref], best, times[best], 100 * gain))
        if gain <= args.margin:
            # Nothing beats today's choice by the margin: record it as
            # measured (--record-all) if it is a grid point; "current"
            # alone (a base entry's config outside the grid) stays the
            # base's entry, except for a half kernel, where it is the tf32
            # twin's entry scaled: pinned as the half kernel's own, so that
            # retuning the twin does not move it.
            own = ref != "current" or (
                cand.get("storage") and
                is_mma(cand["variants"][ref]["config"]))
            best = ref if args.record_all and own else None
        if best is not None:
            entries.append(tuning_entry(cand, best, times))
        write_results()
    write_results()
    print("tune: %d entries written to %s" % (len(entries),
                                              os.path.join(out, "tuning.json")))
    return 0


def config_fields(config):
    """The `name = value` fields of a #fuse.tile config (its element types
    as one field)."""
    body = config[len("#fuse.tile<"):-1]
    types = re.search(r"types = <[^<>]*>", body)
    fields = dict(re.findall(r"(\w+) = (\w+)", re.sub(
        r"types = <[^<>]*>", "", body)))
    if types:
        fields["types"] = types.group(0)[len("types = "):]
    return fields


def config_change(auto, other):
    """The fields `other` (a #fuse.tile config) changes from `auto`, as
    "name a->b" (a field one of them lacks: "none")."""
    a, b = config_fields(auto), config_fields(other)
    return " ".join("%s %s->%s" % (k, a.get(k, "none"), b.get(k, "none"))
                    for k in sorted(set(a) | set(b), key=list(
                        {**a, **b}).index) if a.get(k) != b.get(k))


def report_rows(candidates, reports, within):
    """One row per candidate measured in `reports` (gpu_check reports of
    measure's check pass): its passing variants' times, the cost model's
    ("auto"), the fastest, their ratio and whether it is within
    `within`. Candidates whose cost-model variant did not pass are left
    out, as measure leaves them out."""
    times = {}
    for report in reports:
        for row in report["rows"]:
            name, _, rest = row["bundle"].partition("__")
            cand = candidates.get(name)
            if cand is None or row.get("status") != "PASS" or \
                    not row.get("fusecc_ms"):
                continue
            vname = rest[:-len(".%s.fcb" % cand["precision"])]
            if vname in cand["variants"]:
                times.setdefault(name, {})[vname] = row["fusecc_ms"]
    rows = []
    for name, t in sorted(times.items()):
        if "auto" not in t:
            continue
        best = min(t, key=t.get)
        ratio = t["auto"] / t[best]
        variants = candidates[name]["variants"]
        rows.append({"name": name, "graph": candidates[name]["graph"],
                     "auto_ms": t["auto"], "best": best,
                     "best_ms": t[best], "ratio": ratio,
                     "within": ratio <= 1.0 + within,
                     "checked": len(t), "variants": len(variants),
                     "change": config_change(variants["auto"]["config"],
                                             variants[best]["config"])})
    return rows


def report(args):
    with open(os.path.join(args.folder, "candidates.json")) as f:
        candidates = json.load(f)
    reports = []
    for out in args.outs:
        with open(os.path.join(out, "check", "gpu_check.json")) as f:
            reports.append(json.load(f))
    graphs = {}
    if args.manifest:
        with open(args.manifest) as f:
            graphs = {g["name"]: g for g in json.load(f)["graphs"]}
    rows = report_rows(candidates, reports, args.within)
    print("| graph | family | split | variants (checked) | cost model ms "
          "| best | best ms | ratio | what the best changes |\n"
          "|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        g = graphs.get(r["graph"], {})
        print("| %s | %s | %s | %d (%d) | %.4f | %s | %.4f | %s%.2f%s | %s |"
              % (r["graph"], g.get("family", ""), g.get("split", ""),
                 r["variants"], r["checked"], r["auto_ms"], r["best"],
                 r["best_ms"], "" if r["within"] else "**", r["ratio"],
                 "" if r["within"] else "**",
                 r["change"] if r["best"] != "auto" else ""))
    groups = [("all", rows)]
    for key in ("split", "family"):
        for value in sorted({graphs.get(r["graph"], {}).get(key)
                             for r in rows} - {None}):
            groups.append(("%s %s" % (key, value), [
                r for r in rows
                if graphs.get(r["graph"], {}).get(key) == value]))
    print()
    for label, group in groups:
        inside = sum(r["within"] for r in group)
        print("%s: %d of %d within %d%% (%.1f%%)" % (
            label, inside, len(group), round(100 * args.within),
            100.0 * inside / max(len(group), 1)))
    misses = sorted((r["ratio"] for r in rows if not r["within"]),
                    reverse=True)
    print("misses (cost model / best): %s" % ", ".join(
        "%.2f" % m for m in misses))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("graphs", nargs="+")
    p.add_argument("--precisions", nargs="+", default=["tf32", "ieee"],
                   choices=PRECISIONS,
                   help="tf32, ieee (the f32 graph), bf16, f16 (the graph "
                        "stored in that type, bench/half_graphs.py)")
    p.add_argument("--out", default=os.path.join(REPO, "out", "tune"))
    p.add_argument("--quick", action="store_true",
                   help="the smaller grid (QUICK_GRIDS)")
    p.add_argument("--singles", action="store_true",
                   help="also each knob of the full grid that the grid "
                        "(--quick's) leaves out, alone at each of its "
                        "values")
    p.add_argument("--chip", default="sm_90a",
                   help="target of the variants (sm_90a: wgmma and mma.sync "
                        "variants of tf32 kernels)")
    p.add_argument("--fusecc", default=os.path.join(REPO, "build", "bin",
                                                    "fusecc"))
    p.add_argument("--current", default="",
                   help="fusecc flags of today's choice (e.g. \"--device=h200 "
                   "--tuning=tuning\"): measured too, an entry must beat it")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="fusecc processes at a time")
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
    m.add_argument("--screen-warm-s", type=float, default=0.02,
                   help="seconds of warm-up calls per variant in the "
                        "screening pass (its variants run back to back: "
                        "the GPU does not idle as after a compile)")
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
    r = sub.add_parser("report")
    r.add_argument("folder", help="the prepared folder (candidates.json)")
    r.add_argument("outs", nargs="+",
                   help="measure outputs (their check/gpu_check.json)")
    r.add_argument("--manifest", default=None,
                   help="a bench/random_layers.py manifest.json: families "
                        "and splits")
    r.add_argument("--within", type=float, default=0.15,
                   help="the cost model's time may exceed the best by this "
                        "(issue 37: 0.15)")
    args = parser.parse_args()
    return {"prepare": prepare, "measure": measure,
            "report": report}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
