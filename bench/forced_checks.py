#!/usr/bin/env python3
# ===- bench/forced_checks.py - fusecc-check over forced tile options ----=== #
#
# The session 42 hunt's campaign (docs/reliability.md "Session 42"): runs
# build/bin/fusecc-check on graph files (bench/tc_graphs.py,
# bench/vocab_graphs.py + bench/half_graphs.py) with each forced tile
# option alone and in the pairs that compose, on sm_90a. An f32 file
# (its name contains "f32") runs in tf32 (and, for `--ieee`, in ieee with
# split operands too); a file whose name contains "dyn" (tc_graphs.py
# --dynamic-batch) runs with --max-batch=3 --batch=1,3. Prints one line
# per job and a summary: PASS / FAIL result lines and jobs that exited
# non-zero. Jobs run in a shuffled order (seeded), so a time-bounded run
# covers every option set; -j runs that many at once (nice 6).
#
# Usage: forced_checks.py --out DIR [--sets a,b,...] [-j 2] [--ieee]
#                         [--timeout S] [--check BIN] GRAPH.mlir...
#   (--list prints the option sets)
#
# ===--------------------------------------------------------------------=== #

import argparse
import os
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

W, N = "--tile-wgmma=always", "--tile-wgmma=never"

#: name -> options (on top of --chip=sm_90a). Singles, then pairs.
SETS = {
    "ps2": W + " --tile-phase-split=2",
    "ps4": W + " --tile-phase-split=4",
    "smp1": W + " --tile-samples=1",
    "smp2": W + " --tile-samples=2",
    "rsm": W + " --register-softmax",
    "mh": W + " --tile-merge-h",
    "r8": W + " --tile-rows=8",
    "r2": W + " --tile-rows=2",
    "r1n": N + " --tile-rows=1",
    "r4n": N + " --tile-rows=4",
    "pm": N + " --tile-positions-m=1",
    "ck2": W + " --tile-cluster-k=2",
    "ck4": W + " --tile-cluster-k=4",
    "c16": W + " --tile-c=16",
    "c32n": N + " --tile-c=32",
    "mhn": N + " --tile-merge-h",
    "ps2r8": W + " --tile-phase-split=2 --tile-rows=8",
    "ps2smp2": W + " --tile-phase-split=2 --tile-samples=2",
    "mhr8": W + " --tile-merge-h --tile-rows=8",
    "ck2ps2": W + " --tile-cluster-k=2 --tile-phase-split=2",
    "ck2mh": W + " --tile-cluster-k=2 --tile-merge-h",
    "ck2rsm": W + " --tile-cluster-k=2 --register-softmax",
    "rsmps2": W + " --register-softmax --tile-phase-split=2",
    "smp1mh": W + " --tile-samples=1 --tile-merge-h",
    "pmmh": N + " --tile-positions-m=1 --tile-merge-h",
    "ck2r8": W + " --tile-cluster-k=2 --tile-rows=8",
    "c32ps2": W + " --tile-c=32 --tile-phase-split=2",
    "cc2rsm": W + " --tile-cluster-c=2 --register-softmax",
}

RESULT = re.compile(r"^@[^:]+: (PASS|FAIL)")


def jobs(files, sets, ieee):
    """(name, file, options) of every job."""
    out = []
    for s in sets:
        for f in files:
            base = os.path.splitext(os.path.basename(f))[0]
            opts = SETS[s]
            if "dyn" in base:
                opts = "--max-batch=3 --batch=1,3 " + opts
            if "f32" in base:
                out.append(("%s_tf32_%s" % (s, base), f,
                            "--precision=tf32 " + opts))
                if ieee:
                    out.append(("%s_ieee_%s" % (s, base), f,
                                "--precision=ieee --ieee-tensor-cores=always "
                                + opts))
            else:
                out.append(("%s_%s" % (s, base), f, opts))
    return out


def run(job, check, outdir, timeout):
    """Runs one job (kept when its output exists); returns its lines."""
    name, f, opts = job
    path = os.path.join(outdir, name + ".out")
    if not os.path.exists(path):
        cmd = ["nice", "-n", "6", check, "--chip=sm_90a"] + opts.split() + [f]
        try:
            r = subprocess.run(cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               timeout=timeout)
            text, rc = r.stdout, r.returncode
        except subprocess.TimeoutExpired:
            text, rc = "", 124
        with open(path + ".tmp", "w") as o:
            o.write(text + "#rc=%d opts=%s\n" % (rc, opts))
        os.replace(path + ".tmp", path)
    with open(path) as o:
        return name, o.read().splitlines()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("graphs", nargs="*")
    ap.add_argument("--out", required="--list" not in sys.argv)
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--ieee", action="store_true")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin",
        "fusecc-check"))
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        for k, v in SETS.items():
            print("%-8s %s" % (k, v))
        return 0
    sets = args.sets.split(",")
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        ap.error("unknown option sets: " + ", ".join(unknown))
    todo = jobs(args.graphs, sets, args.ieee)
    random.Random(args.seed).shuffle(todo)
    os.makedirs(args.out, exist_ok=True)
    counts = {"PASS": 0, "FAIL": 0}
    failed_jobs = []
    with ThreadPoolExecutor(max_workers=args.j) as pool:
        for name, lines in pool.map(
                lambda j: run(j, args.check, args.out, args.timeout), todo):
            res = [RESULT.match(l).group(1) for l in lines if RESULT.match(l)]
            for r in res:
                counts[r] += 1
            rc = lines[-1].split()[0] if lines else "#rc=?"
            bad = [l for l in lines if RESULT.match(l) and "FAIL" in l]
            print("%s: %d PASS, %d FAIL, %s" % (name, res.count("PASS"),
                                               res.count("FAIL"), rc[1:]))
            for l in bad:
                print("  " + l)
            if rc != "#rc=0":
                failed_jobs.append(name)
    print("total: %d jobs, %d PASS, %d FAIL results; non-zero exits: %s"
          % (len(todo), counts["PASS"], counts["FAIL"],
             ", ".join(failed_jobs) or "none"))
    return 1 if counts["FAIL"] or failed_jobs else 0


if __name__ == "__main__":
    sys.exit(main())
