//===- SpatialVerify.h - Verifying per-spatial-dim attributes ---*- C++ -*-===//
//
// Part of fusecc. The checks that the convolution-like ops' verifiers
// (fuse.conv, fuse.conv_transpose, fuse.conv_transpose_tap_sums) share: the
// operand ranks and the stride, padding, dilation, kernel and size arrays.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_DIALECT_FUSE_IR_SPATIALVERIFY_H
#define FUSECC_LIB_DIALECT_FUSE_IR_SPATIALVERIFY_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace fusecc::fuse {

/// Checks that the attribute `name` of `op` holds one entry per spatial dim
/// (`spatialDims`), each at least `minValue`; a located error on `op` naming
/// the attribute and what was expected otherwise.
inline mlir::LogicalResult verifySpatialArray(mlir::Operation *op,
                                              llvm::StringRef name,
                                              llvm::ArrayRef<int64_t> values,
                                              int64_t spatialDims,
                                              int64_t minValue) {
  if (static_cast<int64_t>(values.size()) != spatialDims)
    return op->emitOpError()
           << "expected '" << name << "' to have " << spatialDims
           << " entries (one per spatial dim), got " << values.size();
  for (int64_t v : values)
    if (v < minValue)
      return op->emitOpError() << "expected every '" << name
                               << "' entry >= " << minValue << ", got " << v;
  return mlir::success();
}

/// Checks a convolution's ranks: an input of rank 3 to 5 ([N, C,
/// *spatial]), a weight (laid out as `weightLayout` says) and a result of
/// the same rank; a located error on `op` naming what was expected.
inline mlir::LogicalResult verifyConvRanks(mlir::Operation *op,
                                           mlir::ShapedType input,
                                           mlir::ShapedType weight,
                                           mlir::ShapedType result,
                                           llvm::StringRef weightLayout) {
  int64_t rank = input.getRank();
  if (rank < 3 || rank > 5)
    return op->emitOpError("expected input of rank 3, 4 or 5 ([N, Cin, "
                           "*spatial] with 1 to 3 spatial dims), got rank ")
           << rank;
  if (weight.getRank() != rank)
    return op->emitOpError("expected weight of rank ")
           << rank << " (" << weightLayout << "), got rank "
           << weight.getRank();
  if (result.getRank() != rank)
    return op->emitOpError("expected result of rank ")
           << rank << ", got rank " << result.getRank();
  return mlir::success();
}

} // namespace fusecc::fuse

#endif // FUSECC_LIB_DIALECT_FUSE_IR_SPATIALVERIFY_H
