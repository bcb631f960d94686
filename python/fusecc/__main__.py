# ===- fusecc/__main__.py - python3 -m fusecc BUNDLE... ------------------=== #
#
# Prints what a bundle holds (entries, arguments, workspaces, steps,
# constants) from its manifest: no GPU, runtime library or PyTorch needed.
# Exits 1 if a bundle cannot be read.
#
# ===--------------------------------------------------------------------=== #

import sys

from . import bundle as bundle_format


def describe(b):
    """The text `python3 -m fusecc` prints for a parsed bundle."""
    lines = ["%s: format %d, %s, %s, PTX %d bytes, %d constants (%d data "
             "bytes)" % (b.path, b.version, b.chip, b.precision, b.ptx_size,
                         len(b.constants), len(b.data))]
    for c in b.constants:
        lines.append("  const c%d %s %s%s" % (c.index, c.name, c.dtype,
                                              list(c.shape)))
    for e in b.entries:
        lines.append("  entry %s" % e.name)
        for a in e.args:
            lines.append("    %-3s %s %s%s" % ("out" if a.is_output else "in",
                                               a.name, a.dtype, list(a.shape)))
        for w in e.workspaces:
            lines.append("    workspace w%d %s x %d%s" % (
                w.index, w.dtype, w.element_count,
                " (%s)" % w.role if w.role else ""))
        for s in e.steps:
            if s.kind == "zero":
                lines.append("    zero w%d" % s.workspace)
            else:
                lines.append("    launch %s grid %s block %s smem %d (%s)" % (
                    s.kernel, "x".join(map(str, s.grid)),
                    "x".join(map(str, s.block)), s.smem,
                    " ".join(p.token() for p in s.params)))
    return "\n".join(lines)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python3 -m fusecc BUNDLE.fcb...  (describe bundles)")
        return 0 if argv else 2
    status = 0
    for path in argv:
        try:
            print(describe(bundle_format.read(path)))
        except (OSError, bundle_format.BundleError) as error:
            print("fusecc: %s" % error, file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
