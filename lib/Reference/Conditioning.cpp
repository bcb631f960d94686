//===- Conditioning.cpp - what a graph's own f32 rounding allows ----------===//
//
// See Conditioning.h.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Reference/Conditioning.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/IR/Diagnostics.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace fusecc::ref {

Conditioning measureConditioning(func::FuncOp f,
                                 const std::vector<Tensor> &inputs,
                                 const Tensor &ref, unsigned result,
                                 const ConvOperandsFn *rounding) {
  // The reference again, every op's result moved by one ulp of f32 (the
  // error of one rounded f32 op: exp, a division); the kernel may be off by
  // a small multiple of that. Two patterns of signs: alternating, and
  // pseudo-random (a reduction over a set whose exact sum cancels, such as
  // the sum of a layer_norm's rows, sees alternating errors cancel too, but
  // not random ones). The tf32 limits against TF32-rounded operands widen
  // the same way (the same graph on those operands is as ill-conditioned).
  Conditioning c;
  c.slack.assign(ref.size(), 0.0);
  double den = 0;
  for (double x : ref.data)
    if (std::isfinite(x))
      den += x * x;
  // An op that accumulates (a convolution, a sum, a pooling window, a
  // normalisation's statistics) rounds at the magnitude of its terms, not
  // of its result: where they cancel (a sum over 1408 convolution outputs)
  // one ulp of the result understates it. Its ulp is then taken of the op
  // evaluated on the absolute values of its operands. And such an op's
  // internal differences (a normalisation's x - mean) lose the bits of
  // its operands' magnitude: it is also evaluated on operands moved by one
  // ulp each (a layer_norm over 2 near-equal values moves by hundreds of
  // ulps), and that change added to each element with a sign of its own.
  // Per element, the same factor times its own change (a layer_norm of a
  // row the convolution left constant divides rounding noise by
  // sqrt(eps): the rows after it are noise in any f32 evaluation).
  auto sensitivityOf = [&](function_ref<double(int64_t)> sign) {
    int64_t k = 0;
    // On rounded operands the hook sees each convolution's rounded input
    // and weight; its moved result is rounded again where the next
    // convolution reads it.
    const ConvOperandsFn exact = [](Operation &) {
      return ConvOperands::Exact;
    };
    FailureOr<std::vector<Tensor>> ref2 = evaluate(
        f, inputs,
        [&](Operation &op, ArrayRef<const Tensor *> operands, Tensor &t) {
          FailureOr<Tensor> scale = failure(), moved = failure();
          if (!isa<fusecc::fuse::ElementwiseOpInterface>(op) &&
              op.getNumResults() == 1) {
            std::vector<Tensor> abs, nudged;
            for (const Tensor *o : operands) {
              abs.push_back(*o);
              nudged.push_back(*o);
              for (double &x : abs.back().data)
                x = std::fabs(x);
              // By an ulp of the operand's typical magnitude (its rms),
              // not only of each element: a mean rounded to f32 moves
              // every x - mean of its set by an ulp of the mean.
              double sq = 0;
              int64_t n = 0;
              for (double x : o->data)
                if (std::isfinite(x))
                  sq += x * x, ++n;
              const double rms = n ? std::sqrt(sq / n) : 0.0;
              for (double &x : nudged.back().data)
                x += sign(k++) * 0x1.0p-23 * std::max(std::fabs(x), rms);
            }
            SmallVector<const Tensor *> absPtrs, nudgedPtrs;
            for (auto [a, n] : llvm::zip(abs, nudged)) {
              absPtrs.push_back(&a);
              nudgedPtrs.push_back(&n);
            }
            ScopedDiagnosticHandler quiet(
                op.getContext(), [](Diagnostic &) { return success(); });
            scale = evaluateOp(op, absPtrs);
            moved = evaluateOp(op, nudgedPtrs);
          }
          for (int64_t i = 0; i < t.size(); ++i) {
            double m = std::fabs(t.data[i]);
            if (succeeded(scale) && std::isfinite(scale->data[i]))
              m = std::max(m, std::fabs(scale->data[i]));
            double shift = sign(k++) * 0x1.0p-23 * m;
            // With a sign of its own per element: an exact op maps any
            // nudged set symmetrically (a layer_norm of 2 values gives
            // -y, y), the rounded mean of an f32 one does not.
            if (succeeded(moved) && std::isfinite(moved->data[i]) &&
                std::isfinite(t.data[i]))
              shift += sign(k++) * std::fabs(moved->data[i] - t.data[i]);
            t.data[i] += shift;
          }
        },
        rounding ? *rounding : exact);
    double num2 = 0;
    if (succeeded(ref2))
      for (int64_t i = 0; i < ref.size(); ++i) {
        if (!std::isfinite(ref.data[i]))
          continue;
        const double d = (*ref2)[result].data[i] - ref.data[i];
        num2 += d * d;
        if (std::isfinite(d))
          c.slack[i] = std::max(c.slack[i], kConditioningFactor * std::fabs(d));
      }
    return den > 0 ? std::sqrt(num2 / den) : std::sqrt(num2);
  };
  const double sensitivity =
      std::max(sensitivityOf([](int64_t k) { return k % 2 ? 1.0 : -1.0; }),
               sensitivityOf([](int64_t k) {
                 uint64_t z = static_cast<uint64_t>(k) * 0x9E3779B97F4A7C15ull;
                 return (z >> 63) ? 1.0 : -1.0;
               }));
  c.relL2 = kConditioningFactor * sensitivity;
  return c;
}

Comparison compareWithConditioning(
    func::FuncOp func, const std::vector<Tensor> &inputs, unsigned result,
    const Tensor &ref, const Tensor *tf32Ref, const sim::Buffer &out,
    CompareLimits &limits, Conditioning &cond, const ConvOperandsFn *rounding) {
  Comparison cmp = compareOutput(ref, tf32Ref, out, limits);
  if (cmp.pass || cmp.unwritten != 0 || cmp.nonFinite != 0 || cmp.vacuous)
    return cmp;
  cond = measureConditioning(func, inputs, ref, result);
  limits.widen(cond.relL2);
  limits.elementSlack = &cond.slack;
  if (tf32Ref && rounding) {
    // Chained convolutions: the rounded-operand reference moves with every
    // flip of a later operand's rounding that FP32 error causes.
    cond.operandsRelL2 =
        measureConditioning(func, inputs, *tf32Ref, result, rounding).relL2;
    limits.operandsRelL2 = std::max(limits.operandsRelL2, cond.operandsRelL2);
  }
  return compareOutput(ref, tf32Ref, out, limits);
}

} // namespace fusecc::ref
