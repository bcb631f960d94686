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
// convolution's zero padding stays 0 (not the prologue of 0).
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "StandaloneKernels.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

Value emit::emitInputElement(EmitContext &cx, Value input,
                             ArrayRef<Value> idx) {
  EmitBuilder &b = cx.b;
  if (!cx.a.hasPrologue())
    return memref::LoadOp::create(b, input, idx);
  detail::StandaloneContext sc{b, cx.kernel, cx.func, cx.memOf, cx.elementType};
  DenseMap<Value, Value> memo;
  return sc.evaluate(cx.a.conv.getInput(), idx, nullptr, memo);
}
