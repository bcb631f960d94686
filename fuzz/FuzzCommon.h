//===- FuzzCommon.h - shared set-up of the fusecc fuzz targets -*- C++ -*-===//
//
// A fresh MLIRContext per input (no state carried from one input to the
// next), single-threaded, diagnostics swallowed (a rejected input is the
// expected outcome, not a finding), and the compilation stages of fusecc
// from a parsed module to PTX.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_FUZZ_FUZZCOMMON_H
#define FUSECC_FUZZ_FUZZCOMMON_H

#include "fusecc/Pipeline/Pipeline.h"
#include "fusecc/Target/Bundle.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>

namespace fusecc::fuzz {

/// The registry of every dialect fusecc may meet (built once).
inline const mlir::DialectRegistry &registry() {
  static const mlir::DialectRegistry *r = [] {
    auto *reg = new mlir::DialectRegistry();
    fusecc::registerAllDialectsAndTranslations(*reg);
    fusecc::registerAllPasses();
    return reg;
  }();
  return *r;
}

/// A fresh single-threaded context whose diagnostics are dropped (set
/// FUSECC_FUZZ_VERBOSE=1 to print them).
struct FuzzContext {
  mlir::MLIRContext ctx;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> handler;
  FuzzContext() : ctx(registry(), mlir::MLIRContext::Threading::DISABLED) {
    ctx.printOpOnDiagnostic(false);
    if (!std::getenv("FUSECC_FUZZ_VERBOSE"))
      handler = std::make_unique<mlir::ScopedDiagnosticHandler>(
          &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  }
};

/// Runs one pipeline stage; false if it rejected the module.
inline bool runStage(mlir::ModuleOp module,
                     llvm::function_ref<void(mlir::OpPassManager &)> build) {
  mlir::PassManager pm(module.getContext());
  build(pm);
  return mlir::succeeded(pm.run(module));
}

} // namespace fusecc::fuzz

#endif // FUSECC_FUZZ_FUZZCOMMON_H
