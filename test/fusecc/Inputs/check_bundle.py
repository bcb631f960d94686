"""Checks the layout of a fusecc bundle against docs/bundle.md.

Usage: check_bundle.py BUNDLE [PTX]. Prints one line per check for FileCheck
and exits non-zero on the first violation.
"""
import sys


def fail(msg):
    sys.exit("bundle: " + msg)


data = open(sys.argv[1], "rb").read()
pos = 0


def next_line():
    global pos
    end = data.find(b"\n", pos)
    if end < 0:
        fail("unterminated manifest")
    line = data[pos:end].decode("ascii")
    pos = end + 1
    if line != line.strip() or "  " in line:
        fail("tokens not separated by single spaces: %r" % line)
    return line.split(" ")


records = 1
# Version 2, or 3 where a weight re-layout is a prepare step (`prepare <P>`,
# a `prepared` workspace).
header = next_line()
if header not in (["fusecc-bundle", "2"], ["fusecc-bundle", "3"]):
    fail("first line is not 'fusecc-bundle 2' or 'fusecc-bundle 3'")
v3 = header[1] == "3"
chip = next_line()
prec = next_line()
records += 2
if chip[0] != "chip" or not chip[1].startswith("sm_"):
    fail("bad chip record %r" % chip)
if prec[0] != "precision" or prec[1] not in ("ieee", "tf32", "bf16", "fp16"):
    fail("bad precision record %r" % prec)
entries = 0
while True:
    rec = next_line()
    records += 1
    if rec[0] == "ptx":
        count = int(rec[1])
        break
    if (rec[0] != "entry" or rec[2] != "args" or rec[4] != "workspaces"
            or rec[6] != ("steps" if v3 else "launches")):
        fail("expected an entry record, got %r" % rec)
    entries += 1
    nargs, nworkspaces, nlaunches = int(rec[3]), int(rec[5]), int(rec[7])
    if len(rec) != 8 and not (v3 and len(rec) == 10 and rec[8] == "prepare"
                              and 1 <= int(rec[9]) <= nlaunches):
        fail("unexpected %r after the step count" % rec[8:])
    seen_out = False
    for i in range(nargs):
        arg = next_line()
        records += 1
        if arg[0] != "arg" or int(arg[1]) != i or arg[2] not in ("in", "out"):
            fail("bad arg record %r" % arg)
        if arg[2] == "in" and seen_out:
            fail("input after an output: %r" % arg)
        seen_out |= arg[2] == "out"
        rank = int(arg[5])
        if arg[4] != "f32" or len(arg) != 6 + rank:
            fail("bad dtype or dims in %r" % arg)
    if not seen_out:
        fail("entry %s has no output" % rec[1])
    for k in range(nworkspaces):
        ws = next_line()
        records += 1
        if (len(ws) != 4 + v3 or ws[0] != "workspace" or int(ws[1]) != k
                or ws[2] != "f32" or int(ws[3]) <= 0
                or (v3 and ws[4] not in ("scratch", "prepared"))):
            fail("bad workspace record %r" % ws)
    for _ in range(nlaunches):
        l = next_line()
        records += 1
        if (l[0] != "launch" or l[2] != "grid" or l[6] != "block"
                or l[10] != "smem" or l[12] != "params"):
            fail("bad launch record %r" % l)
        nparams = int(l[13])
        if len(l) != 14 + nparams:
            fail("param count mismatch in %r" % l)
        for a in l[14:]:
            if a.startswith("w"):
                if not 0 <= int(a[1:]) < nworkspaces:
                    fail("param names no workspace in %r" % l)
            elif not 0 <= int(a) < nargs:
                fail("param names no entry argument in %r" % l)
    while True:
        g = next_line()
        records += 1
        if g == ["end"]:
            break
        if g[0] != "graph":
            fail("expected a graph record or end, got %r" % g)

print("records %d entries %d" % (records, entries))
ptx = data[pos:]
if len(ptx) != count:
    fail("ptx record announces %d bytes, %d follow" % (count, len(ptx)))
print("ptx bytes match the count")
if len(sys.argv) > 2:
    if open(sys.argv[2], "rb").read() != ptx:
        fail("embedded PTX differs from --emit=ptx")
    print("ptx equals --emit=ptx")
