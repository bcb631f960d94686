//===- HalfIntermediates.cpp - half operands of convolution kernels -------===//
//
// The half operands a convolution kernel of fuse-form-kernels reads itself
// (docs/design/types.md): the widening casts of stored half values (graph
// inputs and tensor constants in bf16 / f16) that it copies in as operand
// casts, and half intermediates, a group's one f32 value that only
// convolutions read as their input on tensor cores of one half type
// (directly, or through a concatenation in their prologue), stored in that
// type (FormKernelsInternal.h).
//
//===----------------------------------------------------------------------===//

#include "FormKernelsInternal.h"

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::fuse::formkernels;

namespace {

/// The half type the convolution `conv` (not yet in a kernel) rounds its
/// input to under `precision`, or null: a half graph's convolution
/// (`convStorageType`: stored half weights, an input computed in f32) runs
/// on tensor cores of its storage type (`convMathFor`), except with at
/// most a TF32 k-step of input channels per group (`tensorCoreMath`:
/// TF32), pinned to FP32 or where `precision` asks for the other half
/// type; on an FMA tiling it multiplies the same half values as its
/// tensor cores would.
Type halfOperandType(ConvTransposeOp conv, Precision precision) {
  if (conv->getParentOfType<KernelOp>() ||
      conv->hasAttr(kConvPrecisionAttrName))
    return {};
  Type storage = convStorageType(conv);
  const ConvMath math = convMathFor(precision, storage, /*pinnedIeee=*/false);
  const bool sameHalf = (storage.isBF16() && math == ConvMath::BF16) ||
                        (storage.isF16() && math == ConvMath::F16);
  if (!sameHalf || ConvGeometry::get(conv).cinPerGroup() <= 8)
    return {};
  return storage;
}

/// The half type every reader of `use` rounds the value to as its input
/// on tensor cores (`halfOperandType`), or null: a convolution's input, or
/// an operand of a concatenation (along any dim) whose every reader is such
/// a convolution input, of one half type. A concatenation moves elements
/// unchanged, so the convolution reads each element of the value rounded
/// to that type as it would read the value itself (a U-Net's skip concat
/// in the next layer's prologue).
Type halfReaderType(OpOperand &use, Precision precision) {
  Operation *user = use.getOwner();
  if (auto conv = dyn_cast<ConvTransposeOp>(user))
    return use.getOperandNumber() == 0 ? halfOperandType(conv, precision)
                                       : Type();
  if (!isa<ConcatOp>(user) || user->getParentOfType<KernelOp>() ||
      user->getResult(0).use_empty())
    return {};
  Type half;
  for (OpOperand &next : user->getResult(0).getUses()) {
    auto conv = dyn_cast<ConvTransposeOp>(next.getOwner());
    Type h = conv && next.getOperandNumber() == 0
                 ? halfOperandType(conv, precision)
                 : Type();
    if (!h || (half && h != half))
      return {};
    half = h;
  }
  return half;
}

/// True if `u` reads a half intermediate's widening as its input: a
/// convolution's input, or a concatenation that only convolutions read as
/// their input (`halfReaderType`).
bool readsAsConvInput(OpOperand &use) {
  Operation *u = use.getOwner();
  if (isa<ConvTransposeOp>(u))
    return use.getOperandNumber() == 0;
  return isa<ConcatOp>(u) &&
         llvm::all_of(u->getResult(0).getUses(), [](OpOperand &next) {
           return isa<ConvTransposeOp>(next.getOwner()) &&
                  next.getOperandNumber() == 0;
         });
}

} // namespace

bool formkernels::isStoredHalfWidening(CastOp c) {
  Value in = c.getInput();
  Operation *def = in.getDefiningOp();
  return (!def || isa<arith::ConstantOp>(def)) &&
         isHalfType(cast<RankedTensorType>(in.getType()).getElementType()) &&
         cast<RankedTensorType>(c.getResult().getType())
             .getElementType()
             .isF32();
}

bool formkernels::isHalfIntermediateWidening(CastOp c) {
  return c.getInput().getDefiningOp<KernelOp>() &&
         isHalfType(
             cast<RankedTensorType>(c.getInput().getType()).getElementType()) &&
         cast<RankedTensorType>(c.getResult().getType())
             .getElementType()
             .isF32() &&
         llvm::all_of(c->getUses(), readsAsConvInput);
}

bool formkernels::isHalfWideningForPrologue(CastOp c) {
  if (isStoredHalfWidening(c))
    return true;
  Value in = c.getInput();
  return in.getDefiningOp<KernelOp>() &&
         isHalfType(cast<RankedTensorType>(in.getType()).getElementType()) &&
         cast<RankedTensorType>(c.getResult().getType())
             .getElementType()
             .isF32();
}

CastOp formkernels::storeHalfIntermediate(const OpGroup &group,
                                          Precision precision) {
  SmallVector<Value> escaping = escapingValues(group);
  if (escaping.size() != 1)
    return {};
  Value v = escaping.front();
  auto ty = dyn_cast<RankedTensorType>(v.getType());
  if (!ty || !ty.getElementType().isF32() || v.use_empty())
    return {};
  Type half;
  for (OpOperand &use : v.getUses()) {
    Type h = halfReaderType(use, precision);
    if (!h || (half && h != half))
      return {};
    half = h;
  }
  OpBuilder b(v.getContext());
  b.setInsertionPointAfterValue(v);
  auto store = CastOp::create(b, v.getLoc(),
                              RankedTensorType::get(ty.getShape(), half), v);
  auto widen = CastOp::create(b, v.getLoc(), ty, store.getResult());
  v.replaceUsesWithIf(widen.getResult(),
                      [&](OpOperand &u) { return u.getOwner() != store; });
  OpGroup with = group;
  with.insert(store);
  if (isHalfStoreCast(store, with))
    return store;
  widen.getResult().replaceAllUsesWith(v);
  widen.erase();
  store.erase();
  return {};
}
