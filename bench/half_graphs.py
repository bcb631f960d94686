#!/usr/bin/env python3
# ===- bench/half_graphs.py - f32 graphs stored in bf16 or f16 ----------=== #
#
# Usage: bench/half_graphs.py TYPE IN.mlir OUT.mlir   (TYPE: bf16 or f16)
#
# The one conversion of an f32 fuse graph into the same graph stored in a
# half type, what `model.to(torch.bfloat16)` / `model.half()` give a
# PyTorch user: every f32 tensor type (ranked and 0-d) becomes the half
# type, so inputs, weights, norm parameters and results are all half and
# the convolution's math follows the storage type. Used by
# bench/half_bundles.sh (the example bundles) and bench/tune.py (the
# tuning variants of half kernels), and by the tuning-file check
# (test/fusecc/Inputs/check_tuning.py).
#
# ===--------------------------------------------------------------------=== #
"""f32 fuse graphs stored in a half type (bf16 / f16)."""

import re
import sys

#: The half storage types, as fuse IR (and tuning-key math) spells them.
HALF_TYPES = ("bf16", "f16")

# Ranked tensors (`4x8xf32>`, also written `4x8x f32>`) and 0-d ones.
_F32_TENSOR = re.compile(r"x ?f32>|tensor<f32>")


def half_graph(text, dtype):
    """`text` (an f32 graph) with every f32 tensor type stored as `dtype`
    (one of HALF_TYPES)."""
    if dtype not in HALF_TYPES:
        raise ValueError("half_graph: type must be one of %s, got %r"
                         % (", ".join(HALF_TYPES), dtype))
    return _F32_TENSOR.sub(
        lambda m: m.group(0).replace("f32", dtype), text)


def write_half_graph(src, dst, dtype):
    """Writes the graph of file `src` stored as `dtype` to file `dst`."""
    with open(src) as f:
        text = f.read()
    with open(dst, "w") as f:
        f.write(half_graph(text, dtype))


def main(argv):
    if len(argv) != 4 or argv[1] not in HALF_TYPES:
        print("usage: half_graphs.py {%s} IN.mlir OUT.mlir"
              % ",".join(HALF_TYPES), file=sys.stderr)
        return 2
    write_half_graph(argv[2], argv[3], argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
