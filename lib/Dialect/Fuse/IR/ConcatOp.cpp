//===- ConcatOp.cpp - concatenation as a window op ------------------------===//
//
// `fuse.concat` (torch.cat): its verifier (overflow-checked), the
// per-element read of the one input a coordinate falls in (a chain of
// `scf.if` on the coordinate along `dim`, so no input is read out of
// bounds), its double-precision reference and its bundle graph attributes.
//
//===----------------------------------------------------------------------===//

#include "WindowOpsCommon.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::fuse::window;

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("expected at least one input");
  auto outTy = getResult().getType();
  int64_t rank = outTy.getRank(), dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError("expected dim in [0, ") << rank << "), got " << dim;
  CheckedInt total(0);
  for (auto [i, v] : llvm::enumerate(getInputs())) {
    auto ty = cast<RankedTensorType>(v.getType());
    if (ty.getRank() != rank)
      return emitOpError("expected input #")
             << i << " of rank " << rank << " (the result's), got "
             << shapeStr(ty.getShape());
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim && ty.getDimSize(d) != outTy.getDimSize(d))
        return emitOpError("expected input #")
               << i << " to match the result in every dim but " << dim
               << ": got " << shapeStr(ty.getShape()) << " for result "
               << shapeStr(outTy.getShape());
    total = total + ty.getDimSize(dim);
  }
  std::optional<int64_t> sum = total.get();
  if (!sum || *sum != outTy.getDimSize(dim))
    return emitOpError("expected the result's dim ")
           << dim << " to be the inputs' sum, got " << outTy.getDimSize(dim);
  return success();
}

int64_t ConcatOp::getWindowVolume() { return 1; }

Value ConcatOp::buildAt(OpBuilder &, Location, ValueRange, OperandAt,
                        const WindowLanes *) {
  // Every per-element evaluation goes through buildAtOperands (a concat
  // reads several operands); no other caller takes a concat.
  llvm_unreachable("fuse.concat is built through buildAtOperands");
}

Value ConcatOp::buildAtOperands(
    OpBuilder &b, Location loc, ValueRange coords,
    function_ref<Value(OpBuilder &, Location, unsigned, ValueRange)> operandAt,
    const WindowLanes *) {
  Emit e{b, loc, elementTypeOf(getResult())};
  const int64_t dim = getDim();
  Type ft = getResult().getType().getElementType();
  // Input k covers [start_k, start_k + size_k) along dim.
  std::function<Value(unsigned, int64_t)> pick = [&](unsigned k,
                                                     int64_t start) -> Value {
    auto ty = cast<RankedTensorType>(getInputs()[k].getType());
    SmallVector<Value> at(coords.begin(), coords.end());
    at[dim] = e.subi(coords[dim], e.idx(start));
    if (k + 1 == getInputs().size())
      return operandAt(b, loc, k, at);
    int64_t end = start + ty.getDimSize(dim);
    auto branch = scf::IfOp::create(
        b, loc, TypeRange{ft},
        e.cmp(arith::CmpIPredicate::ult, coords[dim], e.idx(end)), true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      scf::YieldOp::create(b, loc, operandAt(b, loc, k, at));
      b.setInsertionPointToStart(&branch.getElseRegion().front());
      scf::YieldOp::create(b, loc, pick(k + 1, end));
    }
    return branch.getResult(0);
  };
  return pick(0, 0);
}

void ConcatOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                 MutableArrayRef<double> out) {
  ArrayRef<int64_t> shape = getResult().getType().getShape();
  const int64_t dim = getDim();
  // Row-major: the result is `outer` blocks, each the inputs' blocks of
  // size_k x inner elements in order.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t at = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (auto [k, v] : llvm::enumerate(getInputs())) {
      int64_t block =
          cast<RankedTensorType>(v.getType()).getDimSize(dim) * inner;
      for (int64_t i = 0; i < block; ++i)
        out[at++] = operands[k][o * block + i];
    }
}

std::string ConcatOp::getGraphAttributes() {
  return "dim=" + std::to_string(getDim());
}
