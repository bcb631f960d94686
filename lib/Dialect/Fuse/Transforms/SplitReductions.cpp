//===- SplitReductions.cpp - reductions over contiguous runs of dims ------===//
//
// Implements `fuse-split-reductions`: a set reduction over dims that are not
// one contiguous run becomes a chain of reductions over contiguous runs, the
// innermost run first, every link with keepdim. sum, amax, amin and
// logsumexp compose directly, mean as the mean of equal-sized subsets'
// means, var by the law of total variance about the combined mean:
//   var_c(x, D1 + D2) = n / (n - c) * mean(var_0(x, D2) + (m - M)^2, D1)
// with m = mean(x, D2) and M = mean(m, D1). A link that equals one built
// before is reused, so a mean and a var of one tensor share m and M.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OperationSupport.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSESPLITREDUCTIONS
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc::fuse;

namespace {

/// The dims and attributes of a reduction op the pass splits.
struct Reduction {
  Operation *op = nullptr;
  SmallVector<int64_t> dims; ///< Sorted.
  bool keepdim = false;
  int64_t correction = 0; ///< var only.
};

std::optional<Reduction> reductionOf(Operation *op) {
  Reduction r;
  r.op = op;
  auto fill = [&](auto red) {
    r.dims = llvm::to_vector(red.getDims());
    r.keepdim = red.getKeepdim();
  };
  if (auto o = dyn_cast<SumOp>(op))
    fill(o);
  else if (auto o = dyn_cast<MeanOp>(op))
    fill(o);
  else if (auto o = dyn_cast<AmaxOp>(op))
    fill(o);
  else if (auto o = dyn_cast<AminOp>(op))
    fill(o);
  else if (auto o = dyn_cast<LogSumExpOp>(op))
    fill(o);
  else if (auto o = dyn_cast<VarOp>(op)) {
    fill(o);
    r.correction = o.getCorrection();
  } else {
    return std::nullopt;
  }
  llvm::sort(r.dims);
  return r;
}

/// True if sorted `dims` are one run d, d + 1, ...
bool contiguous(ArrayRef<int64_t> dims) {
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return false;
  return true;
}

struct SplitReductionsPass
    : public fusecc::fuse::impl::FuseSplitReductionsBase<SplitReductionsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> work;
    getOperation().walk([&](Operation *op) {
      if (isa<func::FuncOp>(op->getParentOp()))
        if (std::optional<Reduction> r = reductionOf(op))
          if (!contiguous(r->dims))
            work.push_back(op);
    });
    // Block order: what an earlier split built stands before a later one,
    // so a later one can reuse it.
    for (size_t i = 0; i < work.size(); ++i)
      split(*reductionOf(work[i]), work);
  }

  /// `op`, or an equal op (same name, operands, attributes and result type)
  /// that stands before it in its block; `op` is erased then.
  static Value reuse(Operation *op) {
    for (Operation *user : op->getOperand(0).getUsers()) {
      if (user == op || user->getBlock() != op->getBlock() ||
          !user->isBeforeInBlock(op))
        continue;
      if (OperationEquivalence::isEquivalentTo(
              user, op, OperationEquivalence::exactValueMatch,
              /*markEquivalent=*/nullptr,
              OperationEquivalence::IgnoreLocations)) {
        op->erase();
        return user->getResult(0);
      }
    }
    return op->getResult(0);
  }

  /// A reduction `OpTy` of `v` over sorted `dims`, keepdim; queued on
  /// `work` when its dims are not contiguous.
  template <typename OpTy>
  static Value reduce(OpBuilder &b, Location loc, Value v,
                      ArrayRef<int64_t> dims,
                      SmallVectorImpl<Operation *> &work,
                      std::optional<int64_t> correction = std::nullopt) {
    auto ty = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(ty.getShape());
    for (int64_t d : dims)
      shape[d] = 1;
    auto resultTy = RankedTensorType::get(shape, ty.getElementType());
    Operation *op;
    if constexpr (std::is_same_v<OpTy, VarOp>)
      op = VarOp::create(b, loc, resultTy, v, b.getDenseI64ArrayAttr(dims),
                         b.getBoolAttr(true),
                         b.getI64IntegerAttr(correction.value_or(1)));
    else
      op = OpTy::create(b, loc, resultTy, v, b.getDenseI64ArrayAttr(dims),
                        b.getBoolAttr(true));
    Value r = reuse(op);
    if (r.getDefiningOp() == op && !contiguous(dims))
      work.push_back(op);
    return r;
  }

  /// An elementwise binary op of the broadcast shape of `l` and `r`.
  template <typename OpTy>
  static Value binary(OpBuilder &b, Location loc, Value l, Value r) {
    auto lt = cast<RankedTensorType>(l.getType());
    auto rt = cast<RankedTensorType>(r.getType());
    SmallVector<int64_t> shape = *broadcastShapes(lt.getShape(), rt.getShape());
    return OpTy::create(
        b, loc, RankedTensorType::get(shape, lt.getElementType()), l, r);
  }

  void split(const Reduction &r, SmallVectorImpl<Operation *> &work) {
    Operation *op = r.op;
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value x = op->getOperand(0);
    // The innermost run D2 first, then the rest D1 (maybe split again).
    size_t start = r.dims.size() - 1;
    while (start > 0 && r.dims[start - 1] + 1 == r.dims[start])
      --start;
    ArrayRef<int64_t> all = r.dims;
    ArrayRef<int64_t> inner = all.drop_front(start);
    ArrayRef<int64_t> outer = all.take_front(start);
    Value y;
    // sum, mean, amax, amin, logsumexp: the op over D2, then over D1.
    auto chain = [&](auto tag) {
      using OpTy = decltype(tag);
      Value partial = reduce<OpTy>(b, loc, x, inner, work);
      return reduce<OpTy>(b, loc, partial, outer, work);
    };
    if (isa<SumOp>(op)) {
      y = chain(SumOp());
    } else if (isa<MeanOp>(op)) {
      y = chain(MeanOp());
    } else if (isa<AmaxOp>(op)) {
      y = chain(AmaxOp());
    } else if (isa<AminOp>(op)) {
      y = chain(AminOp());
    } else if (isa<LogSumExpOp>(op)) {
      y = chain(LogSumExpOp());
    } else {
      // One op per statement: the order of the ops built must not depend
      // on the compiler's order of evaluating arguments.
      Value m = reduce<MeanOp>(b, loc, x, inner, work);
      Value v = reduce<VarOp>(b, loc, x, inner, work, 0);
      Value total = reduce<MeanOp>(b, loc, m, outer, work);
      Value d = binary<SubOp>(b, loc, m, total);
      Value d2 = binary<MulOp>(b, loc, d, d);
      Value t = binary<AddOp>(b, loc, v, d2);
      y = reduce<MeanOp>(b, loc, t, outer, work);
      if (r.correction != 0) {
        auto xt = cast<RankedTensorType>(x.getType());
        double n = 1.0;
        for (int64_t dim : r.dims)
          n *= static_cast<double>(xt.getDimSize(dim));
        // Verified: n > correction.
        auto sty = RankedTensorType::get({}, b.getF32Type());
        Value scale = arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(
                sty, APFloat(static_cast<float>(
                         n / (n - static_cast<double>(r.correction))))));
        y = binary<MulOp>(b, loc, y, scale);
      }
    }
    auto resultTy = cast<RankedTensorType>(op->getResult(0).getType());
    if (!r.keepdim)
      y = ReshapeOp::create(b, loc, resultTy, y);
    op->getResult(0).replaceAllUsesWith(y);
    op->erase();
  }
};

} // namespace
