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
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpImplementation.h"

#include "fusecc/Support/Options.h"
#include "fusecc/Target/GPU/TargetInfo.h"

#include "fusecc/Dialect/Fuse/IR/FuseOpsDialect.h.inc"

namespace fusecc::fuse {
/// Parses a parameter of option enum `E` from one of its spellings (a
/// keyword or a string); emits the spellings it takes otherwise.
template <typename E>
mlir::FailureOr<E> parseOptionEnum(mlir::AsmParser &parser) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (failed(parser.parseKeywordOrString(&name)))
    return mlir::failure();
  if (std::optional<E> value = parseOption<E>(name))
    return *value;
  mlir::InFlightDiagnostic diag = parser.emitError(loc, "expected one of ");
  bool first = true;
  for (const auto &spelling : OptionSpellings<E>::table) {
    diag << (first ? "'" : ", '") << spelling.name << "'";
    first = false;
  }
  diag << ", got '" << name << "'";
  return mlir::failure();
}
} // namespace fusecc::fuse

#include "fusecc/Dialect/Fuse/IR/FuseEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fusecc/Dialect/Fuse/IR/FuseAttrs.h.inc"

namespace fusecc::fuse {
/// The target `op` is compiled for: the `#fuse.target` of the closest
/// enclosing op (normally the module) that carries one, else the defaults
/// (`TargetInfo::getDefault`).
TargetInfo getTargetInfo(mlir::Operation *op);
} // namespace fusecc::fuse

#endif // FUSECC_DIALECT_FUSE_IR_FUSEDIALECT_H
