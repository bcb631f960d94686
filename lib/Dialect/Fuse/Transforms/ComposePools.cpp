//===- ComposePools.cpp - a pooling of a pooling as one pooling -----------===//
//
// Implements `fuse-compose-pools`: a pooling whose operand is a pooling of
// the same kind, used by it alone, becomes one pooling of the inner one's
// operand when the two are exactly one sliding window
// (`WindowOpInterface::getSlidingWindow`), per pooled dim:
//  - max of max: the inner windows are contiguous (dilation 1) and those
//    an outer window takes leave no gap (outer dilation x inner stride <=
//    inner kernel; overlaps do not matter, max being idempotent): kernel
//    (k2 - 1) d2 s1 + k1, stride s1 s2, dilation 1;
//  - average of averages: the inner windows tile the dims (kernel ==
//    stride) and neither divisor is overridden, so every outer window
//    averages k1 x k2 elements with equal weights: kernel k1 k2, stride
//    s1 s2.
// Neither may pad or use ceil_mode (all windows whole), and the composed
// result must have the outer one's shape. A convolution epilogue then pools
// once over the composed window: the first pooling's result never reaches
// device memory.
//
// A global reduction of a pooling likewise becomes one reduction of the
// pooling's operand, where exact: a sum or mean over all spatial dims of an
// average pooling whose windows tile them (kernel == stride, no padding,
// the dims multiples of the kernel) is the sum over the operand divided by
// the window volume, or the operand's mean; an amax over all spatial dims
// of a max pooling whose windows leave no element out (contiguous, no gap
// between them, the last one ending at the dim's end) is the operand's
// amax (a NaN wins in both). Convolution, pooling and reduction then take
// the plans of a global reduction of a convolution: epilogue statistics
// (amax) or box sums through the convolution (sum, mean), and the pooled
// tensor is never computed (issue 37's pool_reduce family).
//
// First of all, a max_pool or avg_pool whose every window is one element
// (kernel 1, stride 1, no padding, no divisor override: its result has its
// operand's type) of a value computed for it alone is that value, and goes
// (rand37_59: an avg_pool of kernel 1 after a convolution, whose kernel
// then has an elementwise epilogue).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/Transforms/Passes.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSECOMPOSEPOOLS
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// True if `op` pools with ceil_mode or a divisor override (windows that
/// are not all whole and equal).
bool hasUnevenWindows(Operation *op) {
  if (auto c = op->getAttrOfType<BoolAttr>("ceil_mode"); c && c.getValue())
    return true;
  return op->hasAttr("divisor_override");
}

/// The sliding window of `outer` over `inner`'s operand, if `outer` of
/// `inner` is exactly that one pooling.
std::optional<SlidingWindow> compose(const SlidingWindow &inner,
                                     const SlidingWindow &outer) {
  if (inner.combine != outer.combine || inner.spatial() != outer.spatial())
    return std::nullopt;
  SlidingWindow w = inner;
  for (int64_t i = 0; i < inner.spatial(); ++i) {
    int64_t k1 = inner.kernel[i], s1 = inner.stride[i], d1 = inner.dilation[i];
    int64_t k2 = outer.kernel[i], s2 = outer.stride[i], d2 = outer.dilation[i];
    if (inner.padding[i] != 0 || outer.padding[i] != 0 || d1 != 1)
      return std::nullopt;
    std::optional<int64_t> kernel, stride = (CheckedInt(s1) * s2).get();
    if (inner.combine == SlidingWindow::Combine::Max) {
      if (d2 * s1 > k1)
        return std::nullopt; // Gaps between the inner windows.
      kernel = ((CheckedInt(k2) - 1) * d2 * s1 + k1).get();
    } else {
      if (k1 != s1 || d2 != 1)
        return std::nullopt; // Unequal weights.
      kernel = (CheckedInt(k1) * k2).get();
    }
    if (!kernel || !stride)
      return std::nullopt;
    w.kernel[i] = *kernel;
    w.stride[i] = *stride;
    w.dilation[i] = 1;
  }
  return w;
}

/// True if `reduction`, a set reduction, reduces exactly the spatial dims
/// (2 .. rank - 1) of its operand.
bool reducesAllSpatialDims(WindowOpInterface reduction) {
  auto ty = cast<RankedTensorType>(reduction->getOperand(0).getType());
  return ty.getRank() >= 3 &&
         reduction.getReducedDims() ==
             llvm::to_vector(llvm::seq<int64_t>(2, ty.getRank()));
}

/// The factor by which `reduction` of the pooling `poolOp` equals the same
/// reduction of the pooling's operand times that factor, if one exists:
/// 1 for a mean of tiling averages and an amax of covering maxima, 1 /
/// window volume for a sum of tiling averages.
std::optional<double> reductionOfPoolFactor(WindowOpInterface reduction,
                                            Operation *poolOp) {
  auto pool = dyn_cast_or_null<WindowOpInterface>(poolOp);
  if (!pool || !pool.getSlidingWindow() || hasUnevenWindows(poolOp) ||
      !poolOp->getResult(0).hasOneUse() || !reducesAllSpatialDims(reduction))
    return std::nullopt;
  SlidingWindow w = *pool.getSlidingWindow();
  SetReduction kind = reduction.getSetReduction();
  const bool average = w.combine == SlidingWindow::Combine::Add;
  if (average ? kind != SetReduction::Sum && kind != SetReduction::Mean
              : kind != SetReduction::Max)
    return std::nullopt;
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(poolOp->getOperand(0).getType()).getShape();
  const int64_t lead = static_cast<int64_t>(in.size()) - w.spatial();
  if (lead != 2)
    return std::nullopt;
  double volume = 1.0;
  for (int64_t i = 0; i < w.spatial(); ++i) {
    const int64_t k = w.kernel[i], s = w.stride[i], n = in[lead + i];
    if (w.padding[i] != 0 || w.dilation[i] != 1 || n < k)
      return std::nullopt;
    const int64_t windows = (n - k) / s + 1;
    if (average ? k != s || windows * k != n // Equal weights, all of n.
                : s > k || (windows - 1) * s + k != n) // No gap, all of n.
      return std::nullopt;
    volume *= static_cast<double>(k);
  }
  return average && kind == SetReduction::Sum ? 1.0 / volume : 1.0;
}

/// Rewrites every global reduction of a pooling that is exactly a
/// reduction of the pooling's operand (file comment).
void reduceThroughPools(func::FuncOp func) {
  SmallVector<std::pair<Operation *, double>> todo;
  func.walk([&](WindowOpInterface op) {
    if (op.getSetReduction() == SetReduction::None)
      return;
    if (std::optional<double> factor = reductionOfPoolFactor(
            op, op->getOperand(0).getDefiningOp()))
      todo.push_back({op, *factor});
  });
  for (auto [reduction, factor] : todo) {
    Operation *poolOp = reduction->getOperand(0).getDefiningOp();
    reduction->setOperand(0, poolOp->getOperand(0));
    poolOp->erase();
    if (factor == 1.0)
      continue;
    OpBuilder b(reduction->getContext());
    b.setInsertionPointAfter(reduction);
    Location loc = reduction->getLoc();
    Value r = reduction->getResult(0);
    auto ty = cast<RankedTensorType>(r.getType());
    // (FloatAttr rounds the factor to the element type's own semantics: a
    // bf16 or f16 graph run through this pass before fuse-widen-half.)
    Value scale = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            RankedTensorType::get({}, ty.getElementType()),
            b.getFloatAttr(ty.getElementType(), factor).getValue()));
    auto scaled = MulOp::create(b, loc, ty, r, scale);
    r.replaceAllUsesExcept(scaled.getResult(), scaled);
  }
}

/// True if `op` is a max or average pooling whose every window is one
/// element of its operand at the same position (the identity), of a value
/// an op computes for it alone (which then takes its uses: no graph input
/// or value becomes a result twice).
bool isIdentityPool(Operation *op) {
  auto pool = dyn_cast<WindowOpInterface>(op);
  Value x = isa<MaxPoolOp, AvgPoolOp>(op) ? op->getOperand(0) : Value();
  if (!x || !x.getDefiningOp() || !x.hasOneUse() ||
      op->hasAttr("divisor_override") ||
      x.getType() != op->getResult(0).getType())
    return false;
  // getSlidingWindow returns by value: keep the window, not a reference
  // into a temporary (ASan's stack-use-after-scope in session 40's CI).
  std::optional<SlidingWindow> window = pool.getSlidingWindow();
  if (!window)
    return false;
  const SlidingWindow &w = *window;
  auto ones = [](ArrayRef<int64_t> v, int64_t x) {
    return llvm::all_of(v, [&](int64_t e) { return e == x; });
  };
  return ones(w.kernel, 1) && ones(w.stride, 1) && ones(w.padding, 0);
}

struct FuseComposePools
    : fusecc::fuse::impl::FuseComposePoolsBase<FuseComposePools> {
  void runOnOperation() override {
    SmallVector<Operation *> identities;
    getOperation().walk([&](Operation *op) {
      if (isIdentityPool(op))
        identities.push_back(op);
    });
    for (Operation *op : identities) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
    }
    SmallVector<Operation *> pools;
    getOperation().walk([&](WindowOpInterface op) {
      if (op.getSlidingWindow())
        pools.push_back(op);
    });
    for (Operation *outerOp : pools) {
      auto outer = cast<WindowOpInterface>(outerOp);
      Operation *innerOp = outerOp->getOperand(0).getDefiningOp();
      auto inner = dyn_cast_or_null<WindowOpInterface>(innerOp);
      if (!inner || innerOp->getName() != outerOp->getName() ||
          !innerOp->getResult(0).hasOneUse() || hasUnevenWindows(innerOp) ||
          hasUnevenWindows(outerOp))
        continue;
      std::optional<SlidingWindow> w =
          compose(*inner.getSlidingWindow(), *outer.getSlidingWindow());
      if (!w)
        continue;
      // The composed windows give the outer result's shape.
      Value x = innerOp->getOperand(0);
      ArrayRef<int64_t> in = cast<RankedTensorType>(x.getType()).getShape();
      ArrayRef<int64_t> out =
          cast<RankedTensorType>(outerOp->getResult(0).getType()).getShape();
      const int64_t lead = static_cast<int64_t>(in.size()) - w->spatial();
      bool sameShape = true;
      for (int64_t i = 0; i < w->spatial(); ++i)
        sameShape &= in[lead + i] >= w->kernel[i] &&
                     (in[lead + i] - w->kernel[i]) / w->stride[i] + 1 ==
                         out[lead + i];
      if (!sameShape)
        continue;
      OpBuilder b(outerOp);
      outerOp->setOperand(0, x);
      outerOp->setAttr("kernel_size", b.getDenseI64ArrayAttr(w->kernel));
      outerOp->setAttr("stride", b.getDenseI64ArrayAttr(w->stride));
      if (outerOp->hasAttr("dilation") ||
          llvm::any_of(inner.getSlidingWindow()->dilation,
                       [](int64_t d) { return d != 1; }))
        outerOp->setAttr("dilation", b.getDenseI64ArrayAttr(w->dilation));
      innerOp->erase();
    }
    reduceThroughPools(getOperation());
  }
};

} // namespace
