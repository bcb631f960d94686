//===- SpatialVerify.h - Verifying per-spatial-dim attributes ---*- C++ -*-===//
//
// Part of fusecc. The check that the convolution-like ops' verifiers
// (fuse.conv, fuse.conv_transpose, fuse.conv_transpose_tap_sums) share for
// their stride, padding, dilation, kernel and size arrays.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_DIALECT_FUSE_IR_SPATIALVERIFY_H
#define FUSECC_LIB_DIALECT_FUSE_IR_SPATIALVERIFY_H

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

} // namespace fusecc::fuse

#endif // FUSECC_LIB_DIALECT_FUSE_IR_SPATIALVERIFY_H
