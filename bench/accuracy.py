# ===- bench/accuracy.py - The accuracy rule of every GPU check ----------=== #
#
# What "correct" means for a fusecc result on the GPU, written once: the
# relative-L2 limits per precision and storage type, the comparisons against
# the graph in float64 on exact and on rounded convolution operands, the
# allowances (PyTorch's own error in the same dtype, the float64 result's own
# half rounding, the split-operand model of an ieee convolution) and the
# operand roundings (tf32, bf16, fp16) they are computed with. Used by
# bench/gpu_check.py (bundles) and bench/models_check.py (models through
# torch.compile); lib/Reference/Compare.cpp is the simulator's side of the
# same rule (CompareLimits). docs/design/checking.md explains the rule.
#
# ===--------------------------------------------------------------------=== #

import contextlib
import math

try:
    import torch
except ImportError:  # The limits stay importable without PyTorch.
    torch = None


# bf16 / fp16 bundles (--precision=bf16|fp16 on f32 graphs, autocast's
# convolution): the tf32 rule scaled by the operands' unit roundoff (f16 has
# TF32's 10 significand bits, bf16 7: 8x), as lib/Reference/Compare.h's
# CompareLimits::forConvOperands.
REL_L2_LIMIT = {"ieee": 1e-5, "tf32": 2e-3, "fp16": 2e-3, "bf16": 1.6e-2}
# tf32 bundles are also compared with the graph in float64 on TF32-rounded
# convolution operands (what the tensor cores multiply): that removes the
# rounding the tf32 limit above allows for, so only FP32 accumulation and
# epilogue error remain. It catches errors the tf32 limit hides where the
# output barely depends on the convolution (kb2_91: sigmoid(softmax + bias)
# with the convolution dropped stays within 2e-3 of the graph: 5.2e-4;
# the real kernels are at 4e-8 to 2e-6 against TF32-rounded operands).
TF32_OPERANDS_REL_L2_LIMIT = 1e-4
# ... or within this factor of what FP32 arithmetic alone costs the graph on
# those operands: the same graph, the same TF32 roundings of its operands,
# evaluated in float32 (cuDNN without TF32). Where a convolution reads an
# earlier convolution's result, that result differs from the float64 one by
# FP32 accumulation error, and wherever the two straddle a TF32 rounding
# boundary the next operand rounds one TF32 unit apart; those flips pass
# through the later layers (vae_decoder's graph: the model 2.2e-4 from the
# rounded-operand graph, ours 2.5e-4, PyTorch's TF32 run 6.6e-4; docs/perf.md
# 217-218). The model makes the same flips a kernel makes, so the limit
# scales with the graph, not with a count of layers; a graph without
# chained convolutions keeps the fixed limit (its model is at FP32 error).
# The C++ checkers use the same factor (lib/Reference/Conditioning.cpp).
TF32_F32_MODEL_FACTOR = 4.0
# A tf32 result may be this many times as far from the exact graph as the
# exact graph on TF32-rounded operands is (used when over REL_L2_LIMIT).
TF32_ROUNDING_FACTOR = 2.0
# An ieee result over REL_L2_LIMIT may be this many times as far from the
# exact graph as PyTorch's own FP32 result on the same inputs, or as the
# graph with split-operand convolutions (see ieee_allowance).
IEEE_MODEL_FACTOR = 2.0
# ... the latter only within this rel-L2 of that split-operand graph.
SPLIT_MODEL_REL_L2_LIMIT = 1e-5
# A result stored in a 16-bit type: its relative L2 limit is at least the
# type's unit roundoff (2^-11 for f16, 2^-8 for bf16), and a finite
# reference that overflows f16 when rounded (from 65520 up) must be that
# infinity -- the half storage rule of lib/Reference/Compare.cpp
# (CompareLimits::forStorage, unitRoundoff, roundToStorage).
DTYPE_REL_L2_FLOOR = {"f32": 0.0, "f16": 2.0 ** -11, "bf16": 2.0 ** -8}
# A half-stored result against the graph on its rounded operands: within
# this factor of the float64 result's own rounding to the half type.
HALF_STORE_FACTOR = 1.25


def tf32_operands_limit(model_err):
    """The rel-L2 limit of an f32 tf32 result against the graph on
    TF32-rounded operands, where the same graph in FP32 on those operands
    is `model_err` from it: TF32_OPERANDS_REL_L2_LIMIT, or
    TF32_F32_MODEL_FACTOR times `model_err` where that is more (chained
    convolutions; a non-finite `model_err` widens nothing)."""
    if not math.isfinite(model_err):
        return TF32_OPERANDS_REL_L2_LIMIT
    return max(TF32_OPERANDS_REL_L2_LIMIT, TF32_F32_MODEL_FACTOR * model_err)


def round_bf16(t):
    """`t` (f32) rounded to bf16 to nearest even (cvt.rn.bf16.f32), as f32."""
    return t.float().to(torch.bfloat16).float()


def round_fp16(t):
    """`t` (f32) rounded to f16 to nearest even (cvt.rn.f16.f32; +-inf
    from 65520 up), as f32."""
    return t.float().to(torch.float16).float()


def round_operand(precision):
    """How a bundle of `precision` rounds its convolution operands (None:
    not at all)."""
    return {"tf32": round_tf32, "bf16": round_bf16,
            "fp16": round_fp16}.get(precision)


# PyTorch's own run of a bf16 / fp16 bundle's graph: eager (and
# torch.compile) under torch.autocast in that dtype, the convolution's
# operands rounded as the bundle's are.
AUTOCAST_DTYPE = {"bf16": "bfloat16", "fp16": "float16"}


def autocast(precision):
    """The autocast context of `precision` (a no-op for ieee and tf32)."""
    name = AUTOCAST_DTYPE.get(precision)
    if name is None:
        return contextlib.nullcontext()
    return torch.autocast("cuda", dtype=getattr(torch, name))


def round_tf32(t):
    """`t` (f32) rounded to TF32 as cvt.rna.tf32.f32 does: to nearest, ties
    away from zero, on the magnitude (10 mantissa bits kept)."""
    bits = t.float().contiguous().view(torch.int32)
    finite = torch.isfinite(t.float())
    rounded = ((bits + 0x1000) & ~0x1FFF).view(torch.float32)
    return torch.where(finite, rounded, t.float())


# A reference output that holds one value in more than this fraction of its
# finite elements is degenerate on its inputs (kb2_93's gelu(min(conv + 0.5,
# 0)) is zero wherever conv > -0.5, everywhere at small channel counts): the
# entry is checked again on wide inputs, as fusecc-check does.
DEGENERATE_FRACTION = 0.5
DEGENERATE_SAMPLE = 1 << 22


def mode_fraction(ref):
    """The fraction of the finite elements of `ref` equal to its most common
    value (estimated on a random sample of large tensors; 0 where no finite
    value occurs twice, as in a one-element output)."""
    values = ref.flatten()
    values = values[torch.isfinite(values)]
    if values.numel() == 0:
        return 0.0
    if values.numel() > DEGENERATE_SAMPLE:
        values = values[torch.randint(0, values.numel(), (DEGENERATE_SAMPLE,),
                                      device=values.device)]
    _, counts = torch.unique(values + 0.0, return_counts=True)  # -0 as +0
    most = counts.max().item()
    # A value that occurs once is no degeneracy (a one-element output).
    return most / values.numel() if most > 1 else 0.0


def rel_l2(out, ref):
    """Relative L2 error of `out` against the float64 `ref` (finite
    reference elements only)."""
    finite = torch.isfinite(ref)
    diff = torch.where(finite, out.double() - ref, torch.zeros_like(ref))
    norm = torch.linalg.vector_norm(
        torch.where(finite, ref, torch.zeros_like(ref))).item()
    d = torch.linalg.vector_norm(diff).item()
    return d / norm if norm > 0 else d


def compare(out, ref, precision, dtype):
    """Accuracy numbers of `out` against the float64 `ref`."""
    if dtype == "f16":
        # Where the reference rounds to inf in f16, so must the result.
        rounded = ref.to(torch.float16).double()
        ref = torch.where(torch.isfinite(ref) & ~torch.isfinite(rounded),
                          rounded, ref)
    out64 = out.double()
    finite_ref = torch.isfinite(ref)
    bad = int((~torch.isfinite(out64) & finite_ref).sum().item())
    diff = torch.where(finite_ref, out64 - ref, torch.zeros_like(ref))
    rel = rel_l2(out, ref)
    max_abs = diff.abs().max().item() if diff.numel() else 0.0
    allclose = bool(torch.allclose(out.float(), ref.float(), atol=1e-2,
                                   rtol=1e-2, equal_nan=True))
    limit = max(REL_L2_LIMIT.get(precision, 1e-5),
                DTYPE_REL_L2_FLOOR.get(dtype, 0.0))
    result = {"rel_l2": rel, "max_abs": max_abs, "allclose": allclose,
              "nonfinite": bad,
              "ref_nonfinite": int((~finite_ref).sum().item()),
              # Elements there are, none finite: nothing is compared.
              "ref_vacuous": bool(ref.numel() and not finite_ref.any()),
              "rel_l2_limit": limit}
    result["pass"] = sound(result) and rel < limit
    return result


def allclose_with_rounding(out, exact, rounded):
    """allclose(1e-2, 1e-2) of `out` against `exact`, each finite element's
    tolerance widened by TF32_ROUNDING_FACTOR times |rounded - exact| (the
    graph on TF32-rounded operands); non-finite elements must match."""
    out, exact, rounded = out.double(), exact.double(), rounded.double()
    finite = torch.isfinite(exact)
    tol = (1e-2 + 1e-2 * exact.abs() +
           TF32_ROUNDING_FACTOR * torch.where(
               torch.isfinite(rounded), (rounded - exact).abs(),
               torch.zeros_like(exact)))
    close = torch.where(finite, (out - exact).abs() <= tol,
                        (out == exact) | (out.isnan() & exact.isnan()))
    return bool(close.all().item())


def sound(result):
    """What every passing output needs besides its rel-L2 limit: finite
    wherever the reference is, allclose, a finite rel-L2. A tf32 output
    may instead be allclose with each element's tolerance widened by what
    TF32 rounding of the convolution operands alone moves it
    (`allclose_tf32_rounding`), which PyTorch's own TF32 convolution
    makes too. A reference with no finite element checks nothing (NaN
    against NaN is equal): it fails, so that a bad input draw shows."""
    close = result["allclose"] or result.get("allclose_tf32_rounding", False)
    return (result["nonfinite"] == 0 and close and
            math.isfinite(result["rel_l2"]) and
            not result.get("ref_vacuous", False))


def split_operand_conv(evaluate, operands):
    """A convolution as the ieee tensor-core kernels compute it (tf32x3,
    docs/design.md): each f32 operand split into hi = TF32(a) and lo =
    TF32(a - hi), the three products a_hi b_hi + a_hi b_lo + a_lo b_hi
    summed exactly (float64); a_lo b_lo is dropped."""
    def parts(t):
        f = t.float()
        hi = round_tf32(f)
        return hi.double(), round_tf32(f - hi).double()
    (hx, lx), (hw, lw) = parts(operands[0]), parts(operands[1])
    rest = list(operands[2:])
    full = evaluate([hx + lx, hw + lw] + rest)
    return full - evaluate([lx, lw] + [torch.zeros_like(r) for r in rest])


def ieee_allowance(results, outputs, refs, reference, baseline, inputs):
    """The ieee criterion's allowance for conditioning. Two models of what
    FP32 arithmetic alone costs this graph on these inputs, each against
    the float64 `refs`: PyTorch's own FP32 result (`baseline`, the graph
    bound in float32) and the graph in float64 with every convolution on
    split operands (`split_operand_conv`, what the tensor-core ieee kernels
    multiply). An output over the fixed limit passes within
    IEEE_MODEL_FACTOR times PyTorch's error, or within that factor of the
    split-operand model's error while within the fixed limit of that
    model (so only FP32 accumulation and epilogue error remain).

    A graph that cancels after the convolution (kb2_93: gelu(min(conv +
    0.5, 0)) keeps only convolution values near -0.5) turns the rounding
    no FP32 kernel avoids into a relative error past the fixed limit on
    some input draws. Every ieee row reports both models' errors."""
    with torch.no_grad():
        eager = baseline(*[t.float() if t.is_floating_point() else t
                           for t in inputs])
        split = reference.evaluate([t.double() for t in inputs],
                                   conv=split_operand_conv)
    eager = eager if isinstance(eager, tuple) else (eager,)
    split = split if isinstance(split, tuple) else (split,)
    for result, out, ref, value, model in zip(results, outputs, refs, eager,
                                              split):
        eager_err = rel_l2(value, ref)
        split_err = rel_l2(model, ref)
        to_split = rel_l2(out, model)
        result["rel_l2_eager_fp32"] = eager_err
        result["rel_l2_split_operands"] = split_err
        result["rel_l2_to_split_model"] = to_split
        if result["pass"]:
            continue
        near_eager = result["rel_l2"] < IEEE_MODEL_FACTOR * eager_err
        near_split = (result["rel_l2"] < IEEE_MODEL_FACTOR * split_err and
                      to_split < SPLIT_MODEL_REL_L2_LIMIT)
        limits = [IEEE_MODEL_FACTOR * e for e in (eager_err, split_err)
                  if math.isfinite(e)]
        result["rel_l2_limit"] = max([result["rel_l2_limit"]] + limits)
        result["pass"] = sound(result) and (near_eager or near_split)
    del eager, split
