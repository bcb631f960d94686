#!/usr/bin/env python3
"""Checks a shipped tuning file against the example graphs it was measured
on: every entry's key is still the tuning key fusecc computes for its graph,
and compiling that graph with the file reproduces the recorded config.

Usage: check_tuning.py FUSECC TUNING_JSON EXAMPLES_DIR
Prints one line per entry ("OK <graph> <config>") or exits 1 with the
mismatch. A file with a "base" is checked with the entries it takes from
its base chain (those of its own keys replaced by its own), compiled with
the file itself. An entry with a "storage" type (bf16 / f16: bench/tune.py's
half kernels) is checked on its graph stored in that type
(bench/half_graphs.py), whose math follows the storage."""

import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "bench"))
from half_graphs import write_half_graph  # noqa: E402


def effective_entries(path, depth=0):
    """The entries fusecc takes from the tuning file `path`: its base's
    (recursively) where it has none of the same key, then its own."""
    with open(path) as f:
        data = json.load(f)
    own = data["entries"]
    if "base" not in data or depth >= 8:
        return own
    keys = {e["key"] for e in own}
    base = os.path.join(os.path.dirname(path), data["base"])
    return [e for e in effective_entries(base, depth + 1)
            if e["key"] not in keys] + own


def main():
    fusecc, tuning, examples = sys.argv[1:4]
    with open(tuning) as f:
        data = json.load(f)
    entries = effective_entries(tuning)
    # The target the variants were compiled for (sm_90a: wgmma or mma.sync).
    chip = "--chip=" + data.get("chip", "sm_90")
    # The entries were measured on the graphs' convolutions; a sum or mean
    # over all of a convolution's positions (kb2_44) no longer runs one by
    # default (fuse-reduce-through-conv), and its entry applies with the
    # rewrite off.
    keep_convs = "--plan-reduce-through-conv=false"
    if not entries:
        print("check_tuning: no entries in %s" % tuning)
        return 1
    tmp = tempfile.TemporaryDirectory()
    for e in entries:
        graph = os.path.join(examples, e["graph"] + ".mlir")
        flags = ["--precision=" + e["key"].split()[0], chip, keep_convs]
        if e.get("storage"):
            # A model's graph is named by its path under examples/.
            half = os.path.join(tmp.name, "%s.%s.mlir" % (
                e["graph"].replace("/", "_"), e["storage"]))
            write_half_graph(graph, half, e["storage"])
            graph, flags = half, [chip, keep_convs]
        keys = subprocess.run([fusecc, graph, "--emit=tuning-keys"] + flags,
                              check=True, capture_output=True,
                              text=True).stdout
        kernel_keys = [k.split("\t", 1)[1] for k in keys.splitlines()]
        if e["key"] not in kernel_keys:
            print("check_tuning: %s: key %r is not one of\n%s"
                  % (e["graph"], e["key"], keys))
            return 1
        fused = subprocess.run([fusecc, graph, "--tuning=" + tuning,
                                "--emit=fused"] + flags,
                               check=True, capture_output=True,
                               text=True).stdout
        # The tiled kernels in order, as --emit=tuning-keys lists them (a
        # multi-kernel graph has an entry per kernel).
        configs = re.findall(r"#fuse\.tile<(?:[^<>]|<[^<>]*>)*>", fused)
        config = configs[kernel_keys.index(e["key"])]
        if config != e["config"]:
            print("check_tuning: %s: compiled to %s, recorded %s"
                  % (e["graph"], config, e["config"]))
            return 1
        print("OK %s%s %s" % (e["graph"], "." + e["storage"]
                              if e.get("storage") else "", config))
    print("reproduced %d of %d entries" % (len(entries), len(entries)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
