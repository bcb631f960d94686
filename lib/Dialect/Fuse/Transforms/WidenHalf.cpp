//===- WidenHalf.cpp - f32 arithmetic between half storage ----------------===//
//
// Implements `fuse-widen-half`: a graph on bf16/f16 tensors computes in f32
// between its half-stored values (docs/design/types.md). Every op on half
// tensors is retyped to f32; the half values that are stored -- graph
// inputs, tensor constants and the results of `fuse.cast` to a half type --
// are read through a `fuse.cast` to f32, and a half graph result is the
// `fuse.cast` of its f32 value. Splat constants are widened in place
// (exactly). The casts root elementwise kernels of their own
// (fuse-form-kernels), so every other kernel reads and writes f32, except
// that a convolution reads its half operands and may store its half result
// itself (operand casts and half stores, docs/design/types.md).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSEWIDENHALF
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// `t` with element type f32 if it is a half tensor type, else null.
RankedTensorType widenedType(Type t) {
  auto ty = dyn_cast<RankedTensorType>(t);
  if (!ty || !isHalfType(ty.getElementType()))
    return {};
  return RankedTensorType::get(ty.getShape(),
                               Float32Type::get(ty.getContext()));
}

/// True if `op` has a half tensor operand or result.
bool touchesHalf(Operation *op) {
  auto half = [](Value v) { return static_cast<bool>(widenedType(v.getType())); };
  return llvm::any_of(op->getOperands(), half) ||
         llvm::any_of(op->getResults(), half);
}

struct FuseWidenHalfPass
    : public fusecc::fuse::impl::FuseWidenHalfBase<FuseWidenHalfPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    Block &body = func.getBody().front();
    // The f32 value of each stored half value, built once.
    DenseMap<Value, Value> wide;
    auto widen = [&](Value v) -> Value {
      if (Value w = wide.lookup(v))
        return w;
      RankedTensorType ty = widenedType(v.getType());
      OpBuilder b(&getContext());
      Value w;
      auto cst = v.getDefiningOp<arith::ConstantOp>();
      auto dense =
          cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : DenseElementsAttr();
      if (dense && dense.isSplat()) {
        b.setInsertionPointAfter(cst);
        double x = dense.getSplatValue<APFloat>().convertToDouble();
        w = arith::ConstantOp::create(
            b, cst.getLoc(),
            DenseElementsAttr::get(ty, b.getFloatAttr(ty.getElementType(), x)));
      } else {
        if (Operation *def = v.getDefiningOp())
          b.setInsertionPointAfter(def);
        else
          b.setInsertionPointToStart(&body);
        w = CastOp::create(b, v.getLoc(), ty, v);
      }
      wide[v] = w;
      return w;
    };
    // Stored half values: read through a widening cast.
    auto isStored = [&](Value v) {
      Operation *def = v.getDefiningOp();
      return !def || isa<arith::ConstantOp>(def) || isa<CastOp>(def);
    };
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
      if (auto cast = dyn_cast<CastOp>(op)) {
        // A cast to f32 of a value now computed in f32 is the identity.
        Value in = cast.getInput();
        if (cast.getType() == in.getType()) {
          cast.getResult().replaceAllUsesWith(in);
          cast.erase();
        }
        continue;
      }
      if (isa<arith::ConstantOp>(op) || !touchesHalf(&op))
        continue;
      if (op.getDialect() != getContext().getLoadedDialect<FuseDialect>() ||
          op.getNumRegions() != 0) {
        op.emitOpError("reads or writes half tensors; fuse-widen-half "
                       "handles fuse graph ops only");
        return signalPassFailure();
      }
      for (OpOperand &use : op.getOpOperands())
        if (widenedType(use.get().getType()) && isStored(use.get()))
          use.set(widen(use.get()));
      for (OpResult r : op.getResults())
        if (RankedTensorType ty = widenedType(r.getType()))
          r.setType(ty);
    }
    // Half results: the f32 value, rounded once by a cast at its store.
    Operation *ret = body.getTerminator();
    OpBuilder b(ret);
    for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
      Value v = ret->getOperand(i);
      if (v.getType() != t)
        ret->setOperand(i, CastOp::create(b, ret->getLoc(), t, v));
    }
  }
};

} // namespace
