#!/usr/bin/env python3
# ===- bench/source_summary.py - Where a kernel's warp samples fall -----=== #
#
# Usage: source_summary.py SOURCE.csv
#   SOURCE.csv: `ncu -i REPORT --page source --csv --print-source sass` of a
#   report with the SourceCounters section (bench/profile.sh --source).
#
# Splits the kernel's SASS, in address order, into segments that end at
# each barrier (BAR.SYNC): the phases of a fused kernel (staging rounds,
# statistics passes, final pass) are separated by barriers. Prints, per
# segment, its share of the warp-state samples and of the executed
# instructions, and its most frequent opcodes (HGMMA, MUFU, LDS, STG, ...),
# then the 15 instructions with the most samples.
#
# ===--------------------------------------------------------------------=== #

import collections
import csv
import sys


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def column(header, *needles):
    for i, name in enumerate(header):
        if all(n.lower() in name.lower() for n in needles):
            return i
    return None


def main():
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.reader(f))
    start = next(i for i, r in enumerate(rows) if any("Source" == c for c in r))
    header, body = rows[start], rows[start + 1:]
    src = header.index("Source")
    samples = column(header, "Warp Stall Sampling (All")
    executed = column(header, "Instructions Executed")
    if samples is None or executed is None:
        sys.exit("source_summary: no sampling / executed columns in %s" %
                 ", ".join(header))
    total_s = sum(number(r[samples]) for r in body if len(r) > samples) or 1
    total_e = sum(number(r[executed]) for r in body if len(r) > executed) or 1
    segments, current = [], []
    for r in body:
        if len(r) <= max(src, samples, executed):
            continue
        current.append(r)
        if r[src].strip().startswith("BAR.SYNC") or \
                r[src].strip().startswith("BAR.SYNC.DEFER"):
            segments.append(current)
            current = []
    if current:
        segments.append(current)
    print("segment | SASS lines | samples % | executed % | top opcodes")
    for i, seg in enumerate(segments):
        s = sum(number(r[samples]) for r in seg)
        e = sum(number(r[executed]) for r in seg)
        ops = collections.Counter()
        for r in seg:
            op = r[src].strip().split()
            if op:
                name = op[0] if not op[0].startswith("@") else op[1]
                ops[name.split(".")[0]] += number(r[executed])
        top = ", ".join("%s %.0f%%" % (k, 100 * v / (e or 1))
                        for k, v in ops.most_common(6))
        print("%3d | %5d | %5.1f | %5.1f | %s" %
              (i, len(seg), 100 * s / total_s, 100 * e / total_e, top))
    print("\ntop instructions by samples:")
    ranked = sorted(body, key=lambda r: -number(r[samples])
                    if len(r) > samples else 0)
    for r in ranked[:15]:
        print("%5.1f%%  %s" % (100 * number(r[samples]) / total_s,
                               r[src].strip()[:90]))


if __name__ == "__main__":
    main()
