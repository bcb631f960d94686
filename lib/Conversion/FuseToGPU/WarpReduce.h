//===- WarpReduce.h - butterfly reductions over a warp's lanes --*- C++ -*-===//
//
// The one warp-shuffle reduction every emitter uses: conv epilogues (line
// statistics, epilogue statistics) and the standalone normalisation kernels.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_CONVERSION_FUSETOGPU_WARPREDUCE_H
#define FUSECC_LIB_CONVERSION_FUSETOGPU_WARPREDUCE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace fusecc {

/// Combines `v` over each aligned group of `lanes` lanes (a power of two
/// <= 32) with XOR shuffles; every lane of a group gets the result.
inline mlir::Value
emitWarpAllReduce(mlir::ImplicitLocOpBuilder &b, mlir::Value v, int64_t lanes,
                  llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)>
                      combine) {
  for (int64_t off = lanes / 2; off >= 1; off /= 2) {
    auto shfl = mlir::gpu::ShuffleOp::create(b, v, off, 32,
                                             mlir::gpu::ShuffleMode::XOR);
    v = combine(v, shfl.getShuffleResult());
  }
  return v;
}

} // namespace fusecc

#endif // FUSECC_LIB_CONVERSION_FUSETOGPU_WARPREDUCE_H
