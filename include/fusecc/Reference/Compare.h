//===- Compare.h - a kernel's output against the reference -----*- C++ -*-===//
//
// The one criterion `fusecc-check` and the graph fuzzer apply to a simulated
// kernel output (bench/gpu_check.py applies the same to the GPU's): every
// element written, non-finite exactly where the reference is, each finite
// element close, and a small relative L2 error. A reference with elements
// but none finite fails whatever the kernel wrote: NaN matches NaN, so it
// compares nothing (docs/design/checking.md, "Vacuous references";
// bench/accuracy.py's `ref_vacuous` on the GPU). tf32 kernels multiply
// TF32-rounded convolution operands: they are held to a strict limit against
// the reference on such operands, and against the exact reference to what
// that rounding alone costs the graph (a graph that amplifies it, such as a
// layer_norm of clamped values, is no more exact in PyTorch's tf32 mode).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_REFERENCE_COMPARE_H
#define FUSECC_REFERENCE_COMPARE_H

#include "fusecc/Reference/Reference.h"
#include "fusecc/Reference/Simulator.h"

#include <algorithm>

namespace fusecc::ref {

/// `x` (an f32 value) rounded to TF32 as `cvt.rna.tf32.f32` does: to
/// nearest, ties away from zero; non-finite values unchanged.
double roundToTF32(double x);

/// The element type a compared result is stored in.
enum class Storage { F32, BF16, F16 };

/// `x` rounded to nearest even as a store in `s` does (f16: +-inf from
/// 65520 up in magnitude; f32 and bf16 overflow only beyond f32's range).
double roundToStorage(double x, Storage s);

/// Unit roundoff of `s`: 2^-24 (f32), 2^-8 (bf16), 2^-11 (f16).
double unitRoundoff(Storage s);

/// `x` (an f32 value) rounded as `r` rounds a convolution operand: TF32
/// (`roundToTF32`), bf16 or f16 (to nearest even; f16 overflows to +-inf
/// from 65520 up), unchanged for Exact.
double roundConvOperand(double x, ConvOperands r);

/// Unit roundoff of operands rounded by `r`: 2^-11 (TF32, f16: 10 stored
/// significand bits), 2^-8 (bf16: 7), 0 (Exact).
double operandUnitRoundoff(ConvOperands r);

/// Tolerances of `compareOutput`.
struct CompareLimits {
  /// Relative L2 error against the exact reference: 2e-3 for tf32 and f16,
  /// 1.6e-2 for bf16, 1e-5 for ieee (`forConvOperands`).
  double relL2 = 1e-5;
  /// tf32: relative L2 error against the reference on TF32-rounded
  /// convolution operands (only FP32 accumulation and epilogue error are
  /// left; real kernels are at 1e-8 to 1e-6).
  double operandsRelL2 = 1e-4;
  /// tf32 kernels that fell back to FP32 arithmetic: relative L2 error
  /// against the exact reference (the ieee limit).
  double fp32RelL2 = 1e-5;
  /// tf32: a result may be this many times as far from the exact reference
  /// as the reference on TF32-rounded operands is, element by element and
  /// in relative L2, where that is more than the limits above allow.
  double roundingFactor = 2.0;
  /// Each element within `absTol + relTolElem * |reference|`, plus its
  /// entry of `elementSlack` where given (one per element: what the graph's
  /// own conditioning allows there).
  double absTol = 1e-2, relTolElem = 1e-2;
  const std::vector<double> *elementSlack = nullptr;
  /// The result's storage. A half result is rounded once at its store from
  /// f32 arithmetic on half-rounded inputs and weights (the reference's
  /// inputs are the same half values); its relative L2 limit is the half
  /// type's unit roundoff (rounding once gives about 0.3 of it; PyTorch
  /// eager, which rounds every op's result and runs the convolution in the
  /// half type, at least as much), and a finite reference whose rounding
  /// overflows f16 must be that infinity.
  Storage storage = Storage::F32;

  /// The limits of a kernel whose convolution operands are rounded as `r`:
  /// 1e-5 against the exact reference where they are not; else 2e-3 for
  /// TF32 (about 4 unit roundoffs), scaled by the operands' unit roundoff
  /// (f16 as TF32, bf16 8x: 1.6e-2). The strict limit against the
  /// reference on rounded operands (`operandsRelL2`) is the same for all:
  /// only f32 accumulation and epilogue error are left.
  static CompareLimits forConvOperands(ConvOperands r) {
    CompareLimits l;
    l.relL2 = r == ConvOperands::Exact
                  ? 1e-5
                  : 2e-3 * operandUnitRoundoff(r) /
                        operandUnitRoundoff(ConvOperands::TF32);
    return l;
  }
  static CompareLimits forPrecision(bool tf32) {
    return forConvOperands(tf32 ? ConvOperands::TF32 : ConvOperands::Exact);
  }

  /// Sets the result's storage and raises the limits to its rounding.
  void forStorage(Storage s) {
    storage = s;
    if (s != Storage::F32)
      widen(unitRoundoff(s));
  }

  /// Raises every relative-L2 limit to at least `limit` (a graph's own
  /// tolerance, or what its conditioning allows).
  void widen(double limit) {
    relL2 = std::max(relL2, limit);
    operandsRelL2 = std::max(operandsRelL2, limit);
    fp32RelL2 = std::max(fp32RelL2, limit);
  }
};

/// The outcome of `compareOutput`.
struct Comparison {
  double relL2 = 0, maxAbs = 0;
  int64_t nonFinite = 0, unwritten = 0, refNonFinite = 0, notClose = 0;
  int64_t firstBad = -1; ///< First element that failed, -1 if none.
  /// The reference has elements but no finite one (after a half result's
  /// storage rounding): nothing was compared, and the comparison fails.
  bool vacuous = false;
  /// The relative L2 limit applied (widened by the TF32 rounding).
  double relL2Limit = 0;
  /// tf32 only (-1 elsewhere): relative L2 error against the reference on
  /// TF32-rounded operands, and that reference's own distance from the exact
  /// one.
  double operandsRelL2 = -1, rounding = -1;
  bool pass = false;
};

/// Compares `out` with the exact reference `ref`. `tf32Ref`, for kernels
/// that round their convolution operands (tf32, bf16, f16), is the
/// reference on the rounded operands (`evaluate` with `convOperands`); null
/// for ieee. A kernel that
/// fell back to FP32 arithmetic (grouped convolutions off the tensor cores)
/// passes at `fp32RelL2` against `ref` instead of the operands limit. A
/// vacuous reference (`Comparison::vacuous`) fails.
Comparison compareOutput(const Tensor &ref, const Tensor *tf32Ref,
                         const sim::Buffer &out, const CompareLimits &limits);

} // namespace fusecc::ref

#endif // FUSECC_REFERENCE_COMPARE_H
