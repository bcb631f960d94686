//===- Prologue.cpp - a prologue evaluated in the input staging -----------===//
//
// A convolution kernel with a prologue (`KernelAnalysis::prologue`: the
// elementwise and window ops that compute the convolution's input from
// kernel inputs) has no input buffer: every staged input element is the
// prologue chain evaluated at that element's coordinates, with the same
// per-element evaluation as the elementwise kernels
// (`StandaloneContext::evaluate`: elementwise ops in registers, a window op
// looping over its window through its `buildAt`). The staging loops keep
// their clamped, branch-free form: an element outside the input is
// evaluated at clamped coordinates and replaced by 0 when stored, so the
// convolution's zero padding stays 0 (not the prologue of 0). An
// elementwise prologue keeps the 16-byte staging: its inputs of the
// convolution input's shape are loaded as vectors of 4 columns, the
// broadcast ones (parameters) per column, and the chain is evaluated per
// lane.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "StandaloneKernels.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

Value emit::emitInputElement(EmitContext &cx, Value input,
                             ArrayRef<Value> idx) {
  EmitBuilder &b = cx.b;
  if (!cx.a.hasPrologue())
    return b.loadF32(input, idx);
  detail::StandaloneContext sc{b, cx.kernel, cx.func, cx.memOf, cx.elementType};
  DenseMap<Value, Value> memo;
  return sc.evaluate(cx.a.conv.getInput(), idx, nullptr, memo);
}

Value emit::emitInputVector(EmitContext &cx, Value input, ArrayRef<Value> idx) {
  EmitBuilder &b = cx.b;
  auto v4Ty = VectorType::get({4}, b.getF32Type());
  auto load = [&](Value mem) -> Value { return b.loadF32x4(mem, idx); };
  if (!cx.a.hasPrologue())
    return load(input);
  Value p = cx.a.conv.getInput();
  ArrayRef<int64_t> shape = cast<RankedTensorType>(p.getType()).getShape();
  // The chain's inputs of P's shape: one 16-byte load each (rows of P are
  // multiples of 4 long and the window starts at a multiple of 4), or one
  // 8-byte load of 4 halves for a half input read through its operand cast
  // (widened as loaded).
  llvm::MapVector<Value, Value> vectors;
  for (Operation *op : cx.a.prologue)
    for (Value o : op->getOperands())
      if ((isa<BlockArgument>(o) || cx.a.storedOperand(o) != o) &&
          !vectors.count(o) &&
          cast<RankedTensorType>(o.getType()).getShape() == shape)
        vectors[o] = load(cx.memOf.lookup(o));
  detail::StandaloneContext sc{b, cx.kernel, cx.func, cx.memOf, cx.elementType};
  SmallVector<Value> lanes;
  for (int64_t i = 0; i < 4; ++i) {
    SmallVector<Value> at(idx.begin(), idx.end());
    at.back() = b.add(at.back(), i);
    DenseMap<Value, Value> memo;
    for (auto &[arg, v] : vectors)
      memo[arg] = vector::ExtractOp::create(b, v, i);
    lanes.push_back(sc.evaluate(p, at, nullptr, memo));
  }
  return vector::FromElementsOp::create(b, v4Ty, lanes);
}
