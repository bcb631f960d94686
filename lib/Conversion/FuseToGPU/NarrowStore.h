//===- NarrowStore.h - a value rounded to its output's element type -*- C++
//-*-===//
//
// Half stores (docs/design/types.md): a convolution or normalisation
// kernel whose last op is a cast to bf16/f16 writes the half type itself.
// Its values are f32 throughout; at the store each is rounded to the
// output memref's element type, to nearest even, which is exact after the
// cast's own rounding (CastOp::buildScalar). Half wgmma operands are
// stored the same way, two channels to a word (`packHalfWord`: the
// re-layout kernels' images and the input a wgmma kernel stages itself).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_CONVERSION_FUSETOGPU_NARROWSTORE_H
#define FUSECC_LIB_CONVERSION_FUSETOGPU_NARROWSTORE_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace fusecc::emit {

/// `v` (f32, a scalar or a vector) as the element type of the output
/// memref `out`: unchanged for an f32 output, else rounded to nearest even
/// element by element (what the simulator models; the backend packs pairs
/// into cvt.rn.bf16x2 / cvt.rn.f16x2).
inline mlir::Value narrowForStore(mlir::ImplicitLocOpBuilder &b,
                                  mlir::Value out, mlir::Value v) {
  mlir::Type elem =
      mlir::cast<mlir::MemRefType>(out.getType()).getElementType();
  if (elem.isF32())
    return v;
  auto vec = mlir::dyn_cast<mlir::VectorType>(v.getType());
  if (!vec)
    return mlir::arith::TruncFOp::create(b, elem, v);
  llvm::SmallVector<mlir::Value, 4> halves;
  for (int64_t k = 0; k < vec.getNumElements(); ++k)
    halves.push_back(mlir::arith::TruncFOp::create(
        b, elem, mlir::vector::ExtractOp::create(b, v, k)));
  return mlir::vector::FromElementsOp::create(
      b, mlir::VectorType::get(vec.getShape(), elem), halves);
}

/// Two f32 values rounded to nearest even to `half` (bf16 or f16; values
/// of that type already are taken as they are) and packed into one 32-bit
/// word, `lo` in the low half, as the f32 of the same bits: a word of a
/// half-operand wgmma operand. Plane `kg` of a half
/// operand (`wgmmaPlanes`: ciChunk / 8 of them) holds channels 8 kg + j
/// (low) and 8 kg + 4 + j (high) in word j: the hardware reads
/// them as k = 8 kg + 2 j and 8 kg + 2 j + 1, a bijection of the channels
/// that both operands share, so the products are the same.
inline mlir::Value packHalfWord(mlir::ImplicitLocOpBuilder &b,
                                mlir::Type half, mlir::Value lo,
                                mlir::Value hi) {
  auto narrow = [&](mlir::Value v) -> mlir::Value {
    if (v.getType() == half)
      return v;
    return mlir::arith::TruncFOp::create(b, half, v);
  };
  mlir::Value l = narrow(lo);
  mlir::Value h = narrow(hi);
  mlir::Value pair = mlir::vector::FromElementsOp::create(
      b, mlir::VectorType::get({2}, half), mlir::ValueRange{l, h});
  mlir::Value bits =
      mlir::LLVM::BitcastOp::create(b, b.getI32Type(), pair);
  return mlir::arith::BitcastOp::create(b, b.getF32Type(), bits);
}

/// Bytes of one element of the output memref `out`.
inline int64_t outElementBytes(mlir::Value out) {
  return mlir::cast<mlir::MemRefType>(out.getType()).getElementTypeBitWidth() /
         8;
}

} // namespace fusecc::emit

#endif // FUSECC_LIB_CONVERSION_FUSETOGPU_NARROWSTORE_H
