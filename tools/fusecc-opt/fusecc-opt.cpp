//===- fusecc-opt.cpp - mlir-opt style driver for fusecc ------------------===//
//
// Runs fusecc's and upstream MLIR passes on .mlir files; used by the lit
// tests.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Pipeline/Pipeline.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  fusecc::registerAllDialectsAndTranslations(registry);
  fusecc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fusecc optimizer driver\n", registry));
}
