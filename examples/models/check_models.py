#!/usr/bin/env python3
# ===- examples/models/check_models.py - whole models on the GPU ----------=== #
#
# For each model of models.py with a bundle BUNDLE_DIR/<name>.<precision>.fcb
# (compiled here from the exported ONNX file): loads it with the fusecc
# Python package, runs it on PyTorch CUDA tensors, checks it against the
# PyTorch module in float64 and times fusecc, eager PyTorch and
# torch.compile of the whole module in the same run (CUDA events, median).
#
# Usage: check_models.py BUNDLE_DIR [--lib libfusecc_runtime.so] [--reps N]
#
# ===--------------------------------------------------------------------=== #

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "python"),
                os.path.join(HERE, "..", "..", "bench")]

import torch  # noqa: E402

import fusecc  # noqa: E402
import models  # noqa: E402
from timing import time_ms  # noqa: E402  (bench/timing.py)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bundles")
    p.add_argument("--lib", default=None)
    p.add_argument("--reps", type=int, default=20)
    args = p.parse_args()
    rows, ok = [], True
    for name in models.MODELS:
        for precision in ("ieee", "tf32"):
            path = os.path.join(args.bundles, "%s.%s.fcb" % (name, precision))
            if not os.path.exists(path):
                continue
            tf32 = precision == "tf32"
            torch.backends.cuda.matmul.allow_tf32 = tf32
            torch.backends.cudnn.allow_tf32 = tf32
            module = models.build(name).cuda()
            shape = models.MODELS[name][1]
            x = torch.randn(*shape, device="cuda")
            m = fusecc.load(path, lib=args.lib)
            y = m(x)
            torch.cuda.synchronize()
            ref = models.build(name).double().cuda()(x.double())
            err = ((y.double() - ref).norm() / ref.norm()).item()
            tol = 2e-3 if tf32 else 1e-5
            passed = err < tol and bool(torch.isfinite(y).all())
            ok &= passed
            with torch.no_grad():
                eager = time_ms(lambda _: module(x), 1, args.reps, 5)
                compiled = torch.compile(module)
                compiled(x)
                comp = time_ms(lambda _: compiled(x), 1, args.reps, 5)
            out = torch.empty_like(y)
            fus = time_ms(lambda _: m(x, out=out), 1, args.reps, 5)
            rows.append((name, precision, list(shape), err,
                         "PASS" if passed else "FAIL", fus, eager, comp))
            print(rows[-1], flush=True)
    print("| model | prec | input | rel-L2 vs float64 | check | fusecc ms | "
          "eager ms | compile ms | x eager | x compile |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %s | %.2e | %s | %.3f | %.3f | %.3f | %.2fx | "
              "%.2fx |" % (r[0], r[1], "x".join(map(str, r[2])), r[3], r[4],
                           r[5], r[6], r[7], r[6] / r[5], r[7] / r[5]))
    print("%s, torch %s, %s" % (torch.cuda.get_device_name(),
                                torch.__version__, "all passed" if ok else
                                "FAILURES"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
