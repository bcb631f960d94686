#!/usr/bin/env python3
# ===- bench/workload_graphs.py - fuse graphs of workloads.json layers ---=== #
#
# Writes one fuse-dialect graph per workload of ../shared/workloads/
# workloads.json whose op chain the dialect can express today, so that the
# non-seed layers can be compiled, checked and timed like the examples
# (docs/perf.md sections 19 and 22 used it). Workloads with a prologue, or
# an epilogue this script does not translate (pooling, group/batch norm,
# spatial reductions, ...), are listed as skipped with the reason.
#
# Usage: workload_graphs.py OUT_DIR [--workloads FILE] [--names a,b,...]
#
# ===--------------------------------------------------------------------=== #

import argparse
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tensor(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def arr(v):
    return "array<i64: %s>" % ", ".join(str(x) for x in v)


def graph(w):
    """The graph of workload `w`, or (None, reason)."""
    if w["prologue"]:
        return None, "ops before the convolution"
    if w["epilogue"]:
        return None, "epilogue not translated: " + "; ".join(w["epilogue"])
    c = w["conv"]
    x, wt, y = tensor(c["input"]), tensor(c["weight"]), tensor(c["output"])
    args = ['%%x: %s {fuse.name = "x"}' % x,
            '%%w: %s {fuse.name = "weight"}' % wt]
    operands, types = "%x, %w", [x, wt]
    if c["bias"]:
        b = tensor([c["output"][1]])
        args.append('%%b: %s {fuse.name = "bias"}' % b)
        operands += ", %b"
        types.append(b)
    lines = [
        "// %s: %s" % (w["name"], w["origin"]),
        "func.func @%s(%s) -> %s {" % (w["name"], ", ".join(args), y),
        "  %%0 = fuse.conv_transpose %s {stride = %s, padding = %s, "
        "output_padding = %s, dilation = %s, groups = %d : i64} : (%s) -> %s"
        % (operands, arr(c["stride"]), arr(c["padding"]),
           arr(c["output_padding"]), arr(c["dilation"]), c["groups"],
           ", ".join(types), y),
        "  return %%0 : %s" % y,
        "}",
    ]
    return "\n".join(lines) + "\n", None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    parser.add_argument("--workloads", default=os.path.join(
        REPO, "..", "shared", "workloads", "workloads.json"))
    parser.add_argument("--names", default="",
                        help="comma-separated workload names (default all)")
    args = parser.parse_args()
    with open(args.workloads) as f:
        workloads = json.load(f)["workloads"]
    names = set(filter(None, args.names.split(",")))
    os.makedirs(args.out, exist_ok=True)
    for w in workloads:
        if names and w["name"] not in names:
            continue
        text, reason = graph(w)
        if text is None:
            print("skipped %s: %s" % (w["name"], reason))
            continue
        path = os.path.join(args.out, w["name"] + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
