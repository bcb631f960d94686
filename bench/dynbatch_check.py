#!/usr/bin/env python3
# ===- bench/dynbatch_check.py - Dynamic-batch bundles on the GPU ---------=== #
#
# python3 bench/dynbatch_check.py DIR --lib build-rt/libfusecc_runtime.so
#
# For every DIR/<name>.dyn.fcb (a `fusecc --max-batch=N` bundle, format
# version 4) and each of its entries: runs the one bundle at batches 1, a
# middle one and N through fusecc.load (fresh random inputs as
# bench/gpu_check.py draws them, outputs poisoned with NaN) and checks each
# against the graph in float64 (the bundle's graph lines; gpu_check's
# accuracy criterion); then times it (CUDA events, median) at each batch
# beside eager PyTorch on the same graph in float32 (TF32 convolutions for
# a tf32 bundle), and at N beside DIR/<name>.static.fcb, the static bundle
# of the same graph at batch N, where there is one (checked too). A batch
# outside [1, N] must be refused by fusecc.load's entry. Prints one line
# per (bundle, batch) and writes every number to --out (JSON). Exit status
# 1 when a check fails.
#
# Issue 35 item 2's bars: at N within 5% of the static bundle
# (dyn_ms / static_ms <= 1.05); at batch 1 not slower than eager
# (dyn_ms <= eager_ms).
#
# ===--------------------------------------------------------------------=== #

import argparse
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The repository: this file's parent (bench/), or $FUSECC_REPO / the
# current directory for a copy run from elsewhere.
REPO = os.path.dirname(HERE)
for candidate in (os.environ.get("FUSECC_REPO"), os.getcwd()):
    if not os.path.exists(os.path.join(REPO, "bench", "gpu_check.py")) \
            and candidate:
        REPO = candidate
sys.path[:0] = [os.path.join(REPO, "python"), os.path.join(REPO, "bench")]

import torch  # noqa: E402

import fusecc  # noqa: E402
from fusecc.inputs import make_inputs  # noqa: E402
from gpu_check import compare, set_tf32, time_ms  # noqa: E402


def poisoned(entry, batch, device):
    return [torch.full(a.shape_at(batch), float("nan"),
                       dtype=fusecc.module.torch_dtype(a.dtype), device=device)
            for a in entry.outputs]


def check_entry(path, static_path, entry_name, lib, args, device):
    """The rows of one entry of the dynamic bundle at `path`."""
    dyn = fusecc.load(path, lib=lib, device=device.index)
    parsed = dyn.bundle
    entry = parsed.entry(entry_name)
    precision = parsed.precision
    n = entry.max_batch
    graph = fusecc.reference.entry_graph(parsed, entry)
    g64 = graph.bind(torch.float64, device)
    g32 = graph.bind(torch.float32, device)
    f = dyn[entry_name]
    batches = sorted({1, max(1, (n + 1) // 2), n} | set(args.batches or []))
    batches = [b for b in batches if 1 <= b <= n]
    rows = []
    for batch in batches:
        row = {"bundle": os.path.basename(path), "entry": entry_name,
               "precision": precision, "max_batch": n, "batch": batch}
        inputs = make_inputs(entry, graph, device, batch=batch)
        outputs = poisoned(entry, batch, device)
        f(*inputs, out=outputs)
        torch.cuda.synchronize()
        refs = g64(*[t.double() for t in inputs])
        refs = refs if isinstance(refs, tuple) else (refs,)
        row["checks"] = [compare(o, r, precision, a.dtype)
                         for o, r, a in zip(outputs, refs, entry.outputs)]
        row["pass"] = all(c["pass"] for c in row["checks"])
        row["dyn_ms"] = time_ms(lambda i: f(*inputs, out=outputs), 1,
                                args.reps, args.warmup)
        set_tf32(precision == "tf32")
        with torch.no_grad():
            row["eager_ms"] = time_ms(lambda i: g32(*inputs), 1, args.reps,
                                      args.warmup)
        set_tf32(False)
        if batch == n and static_path:
            static = fusecc.load(static_path, lib=lib, device=device.index)
            s_entry = static.bundle.entry(entry_name)
            s_out = [torch.full(a.shape, float("nan"),
                                dtype=fusecc.module.torch_dtype(a.dtype),
                                device=device) for a in s_entry.outputs]
            sf = static[entry_name]
            sf(*inputs, out=s_out)
            torch.cuda.synchronize()
            row["static_checks"] = [
                compare(o, r, precision, a.dtype)
                for o, r, a in zip(s_out, refs, s_entry.outputs)]
            row["static_max_diff"] = max(
                (o.double() - s.double()).abs().nan_to_num(0).max().item()
                for o, s in zip(outputs, s_out))
            row["static_ms"] = time_ms(lambda i: sf(*inputs, out=s_out), 1,
                                       args.reps, args.warmup)
            row["dyn_over_static"] = row["dyn_ms"] / row["static_ms"]
            static.close()
        if batch == 1:
            row["dyn_over_eager"] = row["dyn_ms"] / row["eager_ms"]
        rows.append(row)
        del inputs, outputs, refs
        torch.cuda.empty_cache()
    # Outside the bound: refused, nothing launched.
    try:
        f(*make_inputs(entry, graph, device, batch=n + 1))
        refused = False
    except fusecc.module.ArgumentError:
        refused = True
    rows[-1]["refuses_n_plus_1"] = refused
    rows[-1]["pass"] = rows[-1]["pass"] and refused
    dyn.close()
    return rows


def main():
    parser = argparse.ArgumentParser(
        description="Dynamic-batch bundles on the GPU: checks at batches 1, "
        "N/2 and N and times against eager PyTorch and the static bundle")
    parser.add_argument("dir")
    parser.add_argument("--lib", required=True,
                        help="libfusecc_runtime.so")
    parser.add_argument("--batches", type=int, nargs="*",
                        help="more batches to check (besides 1, N/2, N)")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--out", default="dynbatch_results.json")
    args = parser.parse_args()
    device = torch.device("cuda", torch.cuda.current_device())
    torch.manual_seed(0)
    rows, ok = [], True
    for path in sorted(glob.glob(os.path.join(args.dir, "*.dyn.fcb"))):
        static = path[:-len(".dyn.fcb")] + ".static.fcb"
        static = static if os.path.exists(static) else None
        for entry in fusecc.bundle.read(path).entries:
            try:
                entry_rows = check_entry(path, static, entry.name, args.lib,
                                         args, device)
            except Exception as error:  # Report and go on.
                entry_rows = [{"bundle": os.path.basename(path),
                               "entry": entry.name, "pass": False,
                               "error": "%s: %s" % (type(error).__name__,
                                                    error)}]
            for row in entry_rows:
                ok &= row["pass"]
                rows.append(row)
                if "error" in row:
                    print("%-28s %s FAIL %s" % (row["bundle"], row["entry"],
                                                row["error"]))
                    continue
                rel = max(c["rel_l2"] for c in row["checks"])
                line = ("%-28s %-12s %-4s batch %4d/%-4d %s rel-L2 %.2e "
                        "dyn %.4f ms eager %.4f ms" % (
                            row["bundle"], row["entry"], row["precision"],
                            row["batch"], row["max_batch"],
                            "PASS" if row["pass"] else "FAIL", rel,
                            row["dyn_ms"], row["eager_ms"]))
                if "static_ms" in row:
                    line += " static %.4f ms (dyn/static %.3f, max diff %.1e)" % (
                        row["static_ms"], row["dyn_over_static"],
                        row["static_max_diff"])
                if "dyn_over_eager" in row:
                    line += " dyn/eager %.3f" % row["dyn_over_eager"]
                print(line, flush=True)
    with open(args.out, "w") as out:
        json.dump(rows, out, indent=1)
    print("%d rows, %s; results in %s" % (len(rows),
                                         "all pass" if ok else "FAILURES",
                                         args.out))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
