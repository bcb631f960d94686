//===- DynamicBatch.cpp - graphs with a launch-time batch -----------------===//
//
// Specialises a graph written with a dynamic leading dim (`tensor<?x...>`)
// to its per-sample graph and checks that it is one: every op treats dim 0
// as independent samples, so the kernels of the per-sample graph, run once
// per sample, compute the graph at any batch (docs/design/plans.md,
// "Dynamic batch").
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"
#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSESPECIALIZEBATCH
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// A ranked tensor type with a dynamic dim 0.
bool dynamicBatch(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getRank() >= 1 && rt.isDynamicDim(0);
}

/// Whether `t` has a dynamic dim other than dim 0.
bool dynamicInner(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  if (!rt)
    return false;
  for (int64_t d = 1; d < rt.getRank(); ++d)
    if (rt.isDynamicDim(d))
      return true;
  return false;
}

/// `t` with dim 0 = `batch` where it is dynamic.
Type withBatch(Type t, int64_t batch) {
  if (!dynamicBatch(t))
    return t;
  auto rt = cast<RankedTensorType>(t);
  SmallVector<int64_t> shape(rt.getShape());
  shape[0] = batch;
  return RankedTensorType::get(shape, rt.getElementType(), rt.getEncoding());
}

/// Why `op`, which reads a batched value, does not compute each sample on
/// its own; empty where it does. `batched` holds the batched operands.
std::string mixesSamples(Operation *op, ArrayRef<bool> batched) {
  constexpr StringLiteral stats =
      ": batch statistics need every sample, which a dynamic-batch bundle "
      "does not have at compile time";
  if (auto dims = op->getAttrOfType<DenseI64ArrayAttr>("dims"))
    if (llvm::is_contained(dims.asArrayRef(), 0))
      return ("reduces over the batch dim (dim 0)" + stats).str();
  if (auto dim = op->getAttrOfType<IntegerAttr>("dim"); dim && dim.getInt() == 0)
    return isa<ConcatOp>(op)
               ? std::string("concatenates along the batch dim (dim 0)")
               : ("normalises over the batch dim (dim 0)" + stats).str();
  if (auto ln = dyn_cast<LayerNormOp>(op))
    if (static_cast<int64_t>(ln.getNormalizedRank()) ==
        cast<RankedTensorType>(ln.getInput().getType()).getRank())
      return ("normalises over every dim, the batch included" + stats).str();
  if (auto bn = dyn_cast<BatchNormOp>(op); bn && bn.getTraining())
    return ("is a training-mode batch_norm (statistics over dims 0, 2, ...)" +
            stats)
        .str();
  if (isa<ElementwiseOpInterface>(op)) {
    int64_t rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
    for (auto [i, v] : llvm::enumerate(op->getOperands()))
      if (batched[i] && cast<RankedTensorType>(v.getType()).getRank() != rank)
        return "broadcasts batched operand " + std::to_string(i) +
               " to a higher rank (its batch dim would not be dim 0)";
    return "";
  }
  if (isa<ConcatOp>(op)) {
    for (auto [i, b] : llvm::enumerate(batched))
      if (!b)
        return "concatenates operand " + std::to_string(i) +
               ", which has no batch dim, with batched operands";
    return "";
  }
  for (auto [i, b] : llvm::enumerate(batched))
    if (b && i > 0)
      return "has a batched operand " + std::to_string(i) +
             " (a weight or parameter); only its input may carry the batch";
  return "";
}

LogicalResult specializeFunction(func::FuncOp func, int64_t batch) {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("graph functions must have a single block");
  Block &body = func.getBody().front();
  MLIRContext *ctx = func.getContext();
  llvm::DenseSet<Value> batched;
  for (BlockArgument arg : body.getArguments()) {
    Type t = arg.getType();
    if (dynamicInner(t))
      return emitError(arg.getLoc())
             << "argument " << arg.getArgNumber() << " has type " << t
             << ": only the leading (batch) dim may be dynamic";
    if (!dynamicBatch(t))
      continue;
    batched.insert(arg);
    arg.setType(withBatch(t, batch));
    func.setArgAttr(arg.getArgNumber(), kBatchedAttr, UnitAttr::get(ctx));
  }
  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<Type> results;
      for (Value v : ret.getOperands())
        results.push_back(v.getType());
      func.setType(FunctionType::get(ctx, body.getArgumentTypes(), results));
      for (auto [i, v] : llvm::enumerate(ret.getOperands()))
        if (batched.contains(v))
          func.setResultAttr(i, kBatchedAttr, UnitAttr::get(ctx));
      continue;
    }
    if (op.getNumRegions())
      return op.emitOpError("regions are not supported in a graph with a "
                            "dynamic batch");
    SmallVector<bool> in;
    for (Value v : op.getOperands())
      in.push_back(batched.contains(v));
    bool anyIn = llvm::is_contained(in, true);
    for (OpResult r : op.getResults()) {
      Type t = r.getType();
      if (dynamicInner(t))
        return op.emitOpError("result ")
               << r.getResultNumber() << " has type " << t
               << ": only the leading (batch) dim may be dynamic";
      if (anyIn && !dynamicBatch(t))
        return op.emitOpError("mixes the batch into its other dims: result ")
               << r.getResultNumber() << " has type " << t
               << ", whose dim 0 is not the dynamic batch ('?') of its "
                  "operands";
      if (!anyIn && dynamicBatch(t))
        return op.emitOpError("result ")
               << r.getResultNumber() << " has a dynamic batch dim but no "
               << "operand has one";
    }
    if (!anyIn)
      continue;
    if (std::string why = mixesSamples(&op, in); !why.empty())
      return op.emitOpError(why) << "; not supported with a dynamic batch";
    for (OpResult r : op.getResults()) {
      r.setType(withBatch(r.getType(), batch));
      batched.insert(r);
    }
  }
  return success();
}

} // namespace

bool fuse::hasDynamicDims(ModuleOp module) {
  bool found = false;
  module.walk([&](func::FuncOp func) {
    for (Type t : func.getArgumentTypes())
      found |= dynamicBatch(t) || dynamicInner(t);
    for (Type t : func.getResultTypes())
      found |= dynamicBatch(t) || dynamicInner(t);
    func.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        found |= dynamicBatch(t) || dynamicInner(t);
    });
  });
  return found;
}

LogicalResult fuse::specializeBatch(ModuleOp module, int64_t batch) {
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && failed(specializeFunction(func, batch)))
      return failure();
  return success();
}

namespace {
struct FuseSpecializeBatch
    : fusecc::fuse::impl::FuseSpecializeBatchBase<FuseSpecializeBatch> {
  using FuseSpecializeBatchBase::FuseSpecializeBatchBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (batch < 1 || failed(specializeBatch(module, batch)))
      return signalPassFailure();
    if (maxBatch > 0)
      module->setAttr(kMaxBatchAttr,
                      IntegerAttr::get(IntegerType::get(module.getContext(), 64),
                                       maxBatch));
  }
};
} // namespace
