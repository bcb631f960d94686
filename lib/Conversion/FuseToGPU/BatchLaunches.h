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

/// Whether the kernel may write through `v` (a memref argument of a
/// gpu.func, or a view of one). Conservative: an op without declared
/// effects on it, or one that takes its address
/// (`extract_aligned_pointer_as_index`: bulk copies store through it),
/// counts as a write.
bool mayWrite(mlir::Value v);

/// The buffer a host value views: a host argument, a memref.alloc or a
/// memref.get_global (through memref.reinterpret_cast).
mlir::Value rootOf(mlir::Value v);

} // namespace fusecc::detail

#endif // FUSECC_LIB_CONVERSION_FUSETOGPU_BATCHLAUNCHES_H
