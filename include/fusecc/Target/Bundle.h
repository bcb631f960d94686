//===- Bundle.h - write fusecc bundles --------------------------*- C++ -*-===//
//
// The bundle is the compiler's output: a manifest of entry points, arguments
// and launches, plus the PTX (see docs/bundle.md).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_TARGET_BUNDLE_H
#define FUSECC_TARGET_BUNDLE_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace fusecc {

/// The unit attribute on a host function's `gpu.launch_func` that is a
/// prepare step (set by fuse-convert-to-gpu on weight re-layouts): it reads
/// only entry inputs and module constants (weights) and writes only its
/// workspace, whose role is `prepared`, so its result holds for every call
/// with the same weights. writeBundle lists these launches first and counts
/// them (`prepare <P>` on the entry line, docs/bundle.md); the runtime may
/// skip them while the weights are unchanged.
constexpr llvm::StringLiteral kPrepareAttr = "fuse.prepare";

/// A tensor constant that graph lines name (`const_tensor c<id>`).
struct GraphConstant {
  int64_t id = 0;
  std::string name; ///< Its `fuse.name`, or empty.
  mlir::DenseElementsAttr value;
};

/// A graph function as the user wrote it, recorded before fusion.
struct GraphDescription {
  unsigned numInputs = 0;
  std::vector<std::string> argNames;   ///< Inputs then outputs.
  std::vector<std::string> graphLines; ///< `graph` records, without prefix.
  /// The constants the graph lines name. The bundle holds each of them
  /// whether or not a kernel still reads it after fusion.
  std::vector<GraphConstant> constants;
};

/// Describes every graph function of `module` (fuse dialect, before any
/// pass). Emits a located error for ops the description cannot express.
mlir::FailureOr<llvm::StringMap<GraphDescription>>
describeGraphs(mlir::ModuleOp module);

/// Writes the bundle of `module` after the whole pipeline: host functions of
/// gpu.launch_func ops and one gpu.binary holding PTX.
mlir::LogicalResult writeBundle(mlir::ModuleOp module,
                                const llvm::StringMap<GraphDescription> &graphs,
                                llvm::StringRef chip, llvm::StringRef precision,
                                llvm::raw_ostream &os);

/// The PTX text held by the gpu.binary of `module`.
mlir::FailureOr<std::string> extractPTX(mlir::ModuleOp module);

} // namespace fusecc

#endif // FUSECC_TARGET_BUNDLE_H
