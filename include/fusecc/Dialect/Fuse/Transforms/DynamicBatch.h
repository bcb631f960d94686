//===- DynamicBatch.h - graphs with a launch-time batch ---------*- C++ -*-===//
//
// A graph whose batched values have a dynamic leading dim (`tensor<?x...>`)
// compiles to one bundle serving every batch in [1, max_batch]
// (docs/design/plans.md, "Dynamic batch"). The graph is specialised to a
// per-sample graph (batch 1) before the pipeline; every kernel that touches
// a batched buffer runs once per sample as grid z, its batched pointers
// offset by the sample's slice, so no kernel depends on the batch.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_TRANSFORMS_DYNAMICBATCH_H
#define FUSECC_DIALECT_FUSE_TRANSFORMS_DYNAMICBATCH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace fusecc::fuse {

/// Unit attribute of a graph argument or result (and, after
/// fuse-convert-to-gpu, of a host-function argument) whose dim 0 is the
/// batch.
constexpr llvm::StringLiteral kBatchedAttr = "fuse.batched";
/// i64 attribute of a module compiled for a launch-time batch: its bound.
constexpr llvm::StringLiteral kMaxBatchAttr = "fuse.max_batch";
/// Unit attribute of a host function's gpu.launch_func that runs once per
/// sample (grid z = the batch) and of a memref.alloc workspace holding one
/// slice per sample.
constexpr llvm::StringLiteral kPerSampleAttr = "fuse.per_sample";
/// Attribute of a per-sample gpu.func (DenseI64ArrayAttr): per parameter,
/// the bytes between two samples' slices, 0 for a parameter every sample
/// shares (weights, constants, workspaces written once per call).
constexpr llvm::StringLiteral kBatchStridesAttr = "fuse.batch_strides";
/// Largest batch bound: the batch is a launch's grid z (at most 65535).
constexpr int64_t kMaxBatchBound = 65535;

/// Whether a function of `module` has a tensor with a dynamic dim.
bool hasDynamicDims(mlir::ModuleOp module);

/// Replaces the dynamic leading dim of every tensor of every function with
/// `batch`, marks the batched arguments and results (`kBatchedAttr`) and
/// checks that every op treats the batch as independent samples. Fails with
/// a located error naming the op that mixes samples (a reduction, softmax
/// or layer_norm over dim 0, training batch_norm, a concat along dim 0, a
/// reshape that folds the batch into other dims, a batched weight) or a
/// dynamic dim other than dim 0. The module need not have been verified
/// (the fuse ops want static shapes); verify it afterwards.
mlir::LogicalResult specializeBatch(mlir::ModuleOp module, int64_t batch);

} // namespace fusecc::fuse

#endif // FUSECC_DIALECT_FUSE_TRANSFORMS_DYNAMICBATCH_H
