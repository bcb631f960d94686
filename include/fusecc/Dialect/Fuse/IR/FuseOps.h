//===- FuseOps.h - fuse dialect ops -----------------------------*- C++ -*-===//
//
// Declares the ops of the fuse dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_FUSEOPS_H
#define FUSECC_DIALECT_FUSE_IR_FUSEOPS_H

#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "fusecc/Dialect/Fuse/IR/FuseInterfaces.h.inc"

#define GET_OP_CLASSES
#include "fusecc/Dialect/Fuse/IR/FuseOps.h.inc"

namespace fusecc::fuse {

/// Computes the NumPy broadcast of two shapes; returns failure if they do not
/// broadcast.
llvm::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// The output size of a transposed convolution along one spatial dim.
inline int64_t convTransposeOutputSize(int64_t in, int64_t k, int64_t stride,
                                       int64_t pad, int64_t outPad,
                                       int64_t dilation) {
  return (in - 1) * stride - 2 * pad + dilation * (k - 1) + outPad + 1;
}

} // namespace fusecc::fuse

#endif // FUSECC_DIALECT_FUSE_IR_FUSEOPS_H
