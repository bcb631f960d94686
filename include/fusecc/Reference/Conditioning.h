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
};

/// The conditioning of result `result` of `func` on `inputs`, whose
/// reference value is `ref`.
Conditioning measureConditioning(mlir::func::FuncOp func,
                                 const std::vector<Tensor> &inputs,
                                 const Tensor &ref, unsigned result);

/// `compareOutput` of `out` against `ref`, result `result` of `func` on
/// `inputs`. Where that fails with every element written and finite, the
/// graph's conditioning is measured into `cond`, `limits` widen by it
/// (`limits.elementSlack` then points into `cond`) and the output is
/// compared again: the criterion `fusecc-check` and the graph fuzzer share.
Comparison compareWithConditioning(mlir::func::FuncOp func,
                                   const std::vector<Tensor> &inputs,
                                   unsigned result, const Tensor &ref,
                                   const Tensor *tf32Ref,
                                   const sim::Buffer &out,
                                   CompareLimits &limits, Conditioning &cond);

} // namespace fusecc::ref

#endif // FUSECC_REFERENCE_CONDITIONING_H
