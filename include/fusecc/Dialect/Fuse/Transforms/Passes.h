//===- Passes.h - fuse dialect passes ---------------------------*- C++ -*-===//
//
// Declares the graph-level passes of the fuse dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_TRANSFORMS_PASSES_H
#define FUSECC_DIALECT_FUSE_TRANSFORMS_PASSES_H

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Support/Options.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace fusecc::fuse {

#define GEN_PASS_DECL
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"

} // namespace fusecc::fuse

#endif // FUSECC_DIALECT_FUSE_TRANSFORMS_PASSES_H
