//===- HalfIntermediates.cpp - half operands of convolution kernels -------===//
//
// The half operands a convolution kernel of fuse-form-kernels reads itself
// (docs/design/types.md): the widening casts of stored half values (graph
// inputs and tensor constants in bf16 / f16) that it copies in as operand
// casts, and half intermediates, a group's one f32 value that only
// convolutions read as their input on tensor cores of one half type,
// stored in that type (FormKernelsInternal.h).
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
         llvm::all_of(c->getUses(), [](OpOperand &use) {
           return isa<ConvTransposeOp>(use.getOwner()) &&
                  use.getOperandNumber() == 0;
         });
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
    auto conv = dyn_cast<ConvTransposeOp>(use.getOwner());
    if (!conv || use.getOperandNumber() != 0)
      return {};
    Type h = halfOperandType(conv, precision);
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
