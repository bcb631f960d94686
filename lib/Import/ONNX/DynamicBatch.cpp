//===- DynamicBatch.cpp - ONNX models with a symbolic batch ---------------===//
//
// `fusecc model.onnx --max-batch=N`: a model whose inputs declare a dynamic
// dim 0 is imported twice, at batch 1 and 2, and the values whose dim 0
// follows the batch get a dynamic leading dim (docs/design/plans.md,
// "Dynamic batch"). Importing twice lets every shape computation the
// importer folds (Shape, Gather, Concat feeding a Reshape: an exporter's
// `x.view(x.size(0), -1)`) follow the batch without a symbolic shape
// algebra in the importer.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Import/ONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

namespace {

/// The graph function of an imported module.
func::FuncOp graphOf(ModuleOp m) {
  for (auto f : m.getOps<func::FuncOp>())
    return f;
  return nullptr;
}

/// Whether `one` (at batch 1) and `two` (at batch 2) are the same value with
/// the batch in dim 0; sets `batched`. Fails where they differ otherwise.
LogicalResult compareTypes(Type one, Type two, bool &batched) {
  batched = false;
  if (one == two)
    return success();
  auto a = dyn_cast<RankedTensorType>(one);
  auto b = dyn_cast<RankedTensorType>(two);
  if (!a || !b || a.getRank() != b.getRank() || a.getRank() == 0 ||
      a.getElementType() != b.getElementType() || a.getDimSize(0) != 1 ||
      b.getDimSize(0) != 2 || a.getShape().drop_front() != b.getShape().drop_front())
    return failure();
  batched = true;
  return success();
}

/// "node 'name' (fuse.op)": the ONNX node an op was imported from, where
/// its location names one.
std::string nodeOf(Operation *op) {
  std::string node = "'" + op->getName().getStringRef().str() + "'";
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    return "node '" + name.getName().str() + "' (" + node + ")";
  return node;
}

Type withDynamicBatch(Type t) {
  auto rt = cast<RankedTensorType>(t);
  SmallVector<int64_t> shape(rt.getShape());
  shape[0] = ShapedType::kDynamic;
  return RankedTensorType::get(shape, rt.getElementType());
}

} // namespace

OwningOpRef<ModuleOp> fusecc::onnx_import::importONNXDynamicBatch(
    MLIRContext &ctx, StringRef bytes, StringRef fileName,
    const ImportOptions &options) {
  ImportOptions at1 = options, at2 = options;
  at1.dynamicBatch = 1;
  at2.dynamicBatch = 2;
  OwningOpRef<ModuleOp> one = importONNX(ctx, bytes, fileName, at1);
  if (!one)
    return nullptr;
  OwningOpRef<ModuleOp> two = importONNX(ctx, bytes, fileName, at2);
  if (!two)
    return nullptr;
  func::FuncOp f1 = graphOf(*one), f2 = graphOf(*two);
  Block &b1 = f1.getBody().front(), &b2 = f2.getBody().front();
  if (b1.getNumArguments() != b2.getNumArguments() ||
      b1.getOperations().size() != b2.getOperations().size()) {
    emitError(f1.getLoc()) << "the model imports to different graphs at "
                              "batch 1 and 2; its graph depends on the "
                              "batch size, which --max-batch does not support";
    return nullptr;
  }
  for (auto [a1, a2] : llvm::zip(b1.getArguments(), b2.getArguments())) {
    bool batched;
    if (failed(compareTypes(a1.getType(), a2.getType(), batched))) {
      emitError(a1.getLoc()) << "input " << a1.getArgNumber() << " is "
                             << a1.getType() << " at batch 1 and "
                             << a2.getType() << " at batch 2";
      return nullptr;
    }
    if (batched)
      a1.setType(withDynamicBatch(a1.getType()));
  }
  for (auto [op1, op2] : llvm::zip(b1, b2)) {
    if (op1.getName() != op2.getName() ||
        op1.getNumResults() != op2.getNumResults()) {
      emitError(op1.getLoc())
          << nodeOf(&op1) << " has no counterpart in the model imported at "
          << "batch 2 (" << op2.getName()
          << "): the graph depends on the batch size, which --max-batch does "
             "not support";
      return nullptr;
    }
    for (auto [r1, r2] : llvm::zip(op1.getResults(), op2.getResults())) {
      bool batched;
      if (failed(compareTypes(r1.getType(), r2.getType(), batched))) {
        emitError(op1.getLoc())
            << nodeOf(&op1) << " result " << r1.getResultNumber() << " is "
            << r1.getType()
            << " at batch 1 and " << r2.getType()
            << " at batch 2: its shape depends on the batch beyond dim 0 "
               "(the batch folded into other dims), which --max-batch does "
               "not support";
        return nullptr;
      }
      if (batched)
        r1.setType(withDynamicBatch(r1.getType()));
    }
  }
  auto ret = cast<func::ReturnOp>(b1.getTerminator());
  f1.setType(FunctionType::get(&ctx, b1.getArgumentTypes(),
                               ret.getOperandTypes()));
  return one;
}
