//===- BatchLaunches.h - per-sample launches of a dynamic batch -*- C++ -*-===//
//
// Used by fuse-convert-to-gpu on modules compiled for a launch-time batch.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_CONVERSION_FUSETOGPU_BATCHLAUNCHES_H
#define FUSECC_LIB_CONVERSION_FUSETOGPU_BATCHLAUNCHES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace fusecc::detail {

/// Marks the launches of `host` that run once per sample (`fuse.per_sample`,
/// grid z = the batch) and the workspaces with one slice per sample, and
/// records on each per-sample kernel the byte stride of its batched
/// parameters (`fuse.batch_strides`). The host's batched arguments carry
/// `fuse.batched`. Fails where a per-sample kernel may write a buffer
/// without a batch dim (a graph output that does not depend on the batch).
mlir::LogicalResult assignBatchedLaunches(mlir::func::FuncOp host);

} // namespace fusecc::detail

#endif // FUSECC_LIB_CONVERSION_FUSETOGPU_BATCHLAUNCHES_H
