//===- Conditioning.h - what a graph's own f32 rounding allows -*- C++ -*-===//
//
// A graph can be ill-conditioned in f32 itself: a layer_norm over the
// near-equal outputs of a softmax of a softmax divides by a tiny spread, a
// sum over a layer_norm's normalised dim cancels to zero. Every f32
// evaluation, PyTorch's included, is then off by far more than the fixed
// limits of Compare.h. `measureConditioning` measures how far: the graph's
// reference again with every op's result moved by one f32 ulp. The graph
// fuzzer and `fusecc-check` widen a failed comparison's limits by a small
// multiple of that and compare again.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_REFERENCE_CONDITIONING_H
#define FUSECC_REFERENCE_CONDITIONING_H

#include "fusecc/Reference/Compare.h"
#include "fusecc/Reference/Reference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace fusecc::ref {

/// How far past the reference's sensitivity to one-ulp changes of every
/// op's result a kernel result may be.
constexpr double kConditioningFactor = 4.0;

/// What the graph's conditioning allows one of its results.
struct Conditioning {
  /// kConditioningFactor times the reference's relative-L2 change.
  double relL2 = 0.0;
  /// Per element: kConditioningFactor times its own change (for
  /// `CompareLimits::elementSlack`).
  std::vector<double> slack;
  /// tf32 / half kernels: kConditioningFactor times the relative-L2 change
  /// of the reference on rounded convolution operands (-1: not measured).
  /// Where a convolution reads an earlier one's result, a one-ulp move of
  /// that result flips the operand's rounding wherever it lies near a
  /// rounding boundary, by one TF32 (or half) unit; so FP32 arithmetic
  /// alone moves this reference far more than the exact one
  /// (docs/design/checking.md, "Chained convolutions").
  double operandsRelL2 = -1.0;
};

/// The conditioning of result `result` of `func` on `inputs`, whose
/// reference value is `ref`. With `rounding`, the graph is evaluated on
/// convolution operands rounded as `rounding` says (`ref` is then the
/// reference on those operands).
Conditioning measureConditioning(mlir::func::FuncOp func,
                                 const std::vector<Tensor> &inputs,
                                 const Tensor &ref, unsigned result,
                                 const ConvOperandsFn *rounding = nullptr);

/// `compareOutput` of `out` against `ref`, result `result` of `func` on
/// `inputs`. Where that fails with every element written and finite, the
/// graph's conditioning is measured into `cond`, `limits` widen by it
/// (`limits.elementSlack` then points into `cond`) and the output is
/// compared again: the criterion `fusecc-check` and the graph fuzzer share.
/// With `tf32Ref` and the `rounding` it was evaluated with, the limit
/// against it (`operandsRelL2`) also widens to the conditioning of the
/// graph on those rounded operands (`Conditioning::operandsRelL2`; on the
/// GPU, bench/accuracy.py's TF32_F32_MODEL_FACTOR times the graph's error
/// in FP32 on those operands).
Comparison compareWithConditioning(mlir::func::FuncOp func,
                                   const std::vector<Tensor> &inputs,
                                   unsigned result, const Tensor &ref,
                                   const Tensor *tf32Ref,
                                   const sim::Buffer &out,
                                   CompareLimits &limits, Conditioning &cond,
                                   const ConvOperandsFn *rounding = nullptr);

} // namespace fusecc::ref

#endif // FUSECC_REFERENCE_CONDITIONING_H
