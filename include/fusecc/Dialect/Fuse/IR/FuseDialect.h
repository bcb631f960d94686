//===- FuseDialect.h - fuse dialect -----------------------------*- C++ -*-===//
//
// Declares the fuse dialect, its attributes and interfaces.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_FUSEDIALECT_H
#define FUSECC_DIALECT_FUSE_IR_FUSEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"

#include "fusecc/Dialect/Fuse/IR/FuseOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fusecc/Dialect/Fuse/IR/FuseAttrs.h.inc"

#endif // FUSECC_DIALECT_FUSE_IR_FUSEDIALECT_H
