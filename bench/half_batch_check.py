#!/usr/bin/env python3
# ===- bench/half_batch_check.py - fusecc.compile(half, max_batch=N) ---=== #
#
# fusecc.compile(model.to(dtype), x, max_batch=N) on models of
# examples/models/, checked at every batch 1..N against the module in
# float64 (the same half-rounded weights and inputs).
#
#   python3 bench/half_batch_check.py --compile DIR [--models a,b]
#                                     [--dtypes bf16,f16] [--max-batch N]
#       (no GPU needed; the compiler: FUSECC_BIN or build/bin/fusecc)
#       compiles DIR/<model>.<dtype>.fcb with fusecc.compile and keeps the
#       half module's weights next to it (DIR/<model>.<dtype>.pt), so a GPU
#       machine without the compiler checks the same module;
#   python3 bench/half_batch_check.py DIR [--out DIR]
#       (a CUDA GPU, the runtime library: FUSECC_RUNTIME_LIBRARY) loads each
#       bundle, calls it at every batch 1..N on fresh inputs and checks each
#       output as bench/models_check.py checks half models: rel-L2 within
#       the dtype's floor or 2x eager PyTorch's own error in that dtype, and
#       allclose(rtol=1e-2, atol=1e-2) to the float64 reference; batch N+1
#       must be refused. Writes half_batch_check.json to --out; exits 1 if
#       a check fails.
#
# ===--------------------------------------------------------------------=== #

import argparse
import copy
import glob
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(REPO, "python"),
                os.path.join(REPO, "examples", "models"),
                os.path.join(REPO, "bench")]

import torch  # noqa: E402

import fusecc  # noqa: E402
from accuracy import rel_l2  # noqa: E402
from models_check import (DTYPES, EAGER_FACTOR, HALF_ALLCLOSE,  # noqa: E402
                          load_models, randomize_statistics)

#: The default models: one input each, small weights (the .pt files travel).
MODELS = ("dcgan_generator", "residual_decoder", "vae_decoder")


def half_module(build, dtype):
    """The model as models_check.py builds it, converted to `dtype`."""
    gen = torch.Generator().manual_seed(1234)
    torch.manual_seed(0)
    module = build().eval()
    randomize_statistics(module, gen)
    return module.to(dtype)


def compile_all(directory, models, dtypes, max_batch):
    """Compiles every (model, dtype) into `directory`; returns failures."""
    os.makedirs(directory, exist_ok=True)
    found = load_models()
    failures = 0
    for name in models:
        build, shapes, _ = found[name]
        for dtype_name in dtypes:
            dtype = DTYPES[dtype_name][0]
            module = half_module(build, dtype)
            example = tuple(torch.randn((max_batch,) + s[1:]).to(dtype)
                            for s in shapes)
            stem = os.path.join(directory, "%s.%s" % (name, dtype_name))
            try:
                with torch.no_grad():
                    fusecc.compile(module, example, max_batch=max_batch,
                                   output=stem + ".fcb", lib="unused")
            except fusecc.RuntimeLibraryError:
                pass  # Compiled; only the load needs the runtime.
            except Exception as error:
                failures += 1
                print("%s %s: %s: %s" % (name, dtype_name,
                                         type(error).__name__, error))
                continue
            torch.save({"model": name, "dtype": dtype_name,
                        "max_batch": max_batch,
                        "state": module.state_dict()}, stem + ".pt")
            print("%s %s: compiled, batch 1..%d" % (name, dtype_name,
                                                    max_batch), flush=True)
    return failures


def check_batch(ref_module, module, entry, shapes, batch, dtype, floor,
                gen, device="cuda"):
    """One batch: the row of its check (`ref_module` the float64 twin of
    the half `module`, both on `device`)."""
    inputs = [torch.randn((batch,) + s[1:], generator=gen).to(dtype).to(
        device) for s in shapes]
    with torch.no_grad():
        ref = ref_module(*[x.double() for x in inputs])
        eager = module(*inputs)
        out = entry(*inputs)
    err, eager_err = rel_l2(out, ref), rel_l2(eager, ref)
    allowed = max(floor, EAGER_FACTOR * eager_err)
    close = bool(torch.allclose(out.double(), ref, rtol=HALF_ALLCLOSE,
                                atol=HALF_ALLCLOSE)) and out.dtype == dtype
    return {"batch": batch, "rel_l2": err, "eager_rel_l2": eager_err,
            "limit": allowed, "allclose": close,
            "pass": err <= allowed and close}


def check_all(directory):
    """Rows of every bundle of `directory` at each of its batches."""
    found = load_models()
    rows = []
    for path in sorted(glob.glob(os.path.join(directory, "*.fcb"))):
        saved = torch.load(path[:-4] + ".pt")
        build, shapes, _ = found[saved["model"]]
        dtype, floor = DTYPES[saved["dtype"]]
        module = build().eval().to(dtype)
        module.load_state_dict(saved["state"])
        ref_module = copy.deepcopy(module).double().cuda()
        module = module.cuda()
        loaded = fusecc.load(path)
        entry = next(iter(loaded))
        gen = torch.Generator().manual_seed(7)
        head = {"model": saved["model"], "dtype": saved["dtype"],
                "max_batch": entry.max_batch}
        for batch in range(1, entry.max_batch + 1):
            row = dict(head, **check_batch(ref_module, module, entry, shapes,
                                           batch, dtype, floor, gen))
            torch.cuda.synchronize()
            rows.append(row)
            print(json.dumps(row), flush=True)
        over = torch.randn((entry.max_batch + 1,) + shapes[0][1:],
                           device="cuda").to(dtype)
        try:
            entry(over, *[torch.randn((entry.max_batch + 1,) + s[1:],
                                      device="cuda").to(dtype)
                          for s in shapes[1:]])
            refused = None
        except Exception as error:
            refused = "%s: %s" % (type(error).__name__, str(error)[:200])
        rows.append(dict(head, batch=entry.max_batch + 1, refused=refused,
                         **{"pass": refused is not None}))
        print(json.dumps(rows[-1]), flush=True)
        loaded.close()
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("directory")
    p.add_argument("--compile", action="store_true",
                   help="compile the bundles into DIRECTORY (no GPU)")
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--dtypes", default="bf16,f16")
    p.add_argument("--max-batch", type=int, default=8)
    p.add_argument("--out", default=os.environ.get("OUT"))
    args = p.parse_args()
    if args.compile:
        return 1 if compile_all(args.directory, args.models.split(","),
                                args.dtypes.split(","), args.max_batch) else 0
    if not torch.cuda.is_available():
        print("half_batch_check.py: no CUDA GPU", file=sys.stderr)
        return 2
    rows = check_all(args.directory)
    failed = [r for r in rows if not r["pass"]]
    print("half_batch_check: %d checks, %d failed" % (len(rows), len(failed)))
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "half_batch_check.json"), "w") as f:
            json.dump({"device": torch.cuda.get_device_name(),
                       "torch": torch.__version__, "rows": rows}, f, indent=1)
    return 1 if failed or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
