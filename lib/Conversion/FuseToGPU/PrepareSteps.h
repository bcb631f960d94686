//===- PrepareSteps.h - launches that depend on the weights only -*- C++
//-*-===//
//
// Used by fuse-convert-to-gpu: marks the host function's launches whose
// results depend on the weights alone (docs/bundle.md, "Prepare steps").
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_CONVERSION_FUSETOGPU_PREPARESTEPS_H
#define FUSECC_LIB_CONVERSION_FUSETOGPU_PREPARESTEPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"

namespace fusecc::detail {

/// Marks the prepare steps of `host` (`kPrepareAttr` on the launches, role
/// `prepared` on their workspaces): the largest set of launches, none per
/// sample, such that each reads only parameters (module constants, and the
/// first `numInputs` arguments that are not batched and either hold one of
/// `weights`, the host values convolutions take as weights, or have rank
/// at most 1: per-channel vectors and scalars, never a batch of
/// activations) and workspaces, each workspace it touches being written
/// by launches of the set alone and used by the others only after the last
/// of them. Their results then depend on the parameters alone, and they
/// may run first (in their order), once per parameter value.
mlir::LogicalResult
markPrepareSteps(mlir::func::FuncOp host, unsigned numInputs,
                 const llvm::DenseSet<mlir::Value> &weights);

} // namespace fusecc::detail

#endif // FUSECC_LIB_CONVERSION_FUSETOGPU_PREPARESTEPS_H
