//===- onnx_fuzzer.cpp - libFuzzer target: ONNX protobuf -> bundle --------===//
//
// Imports the input bytes as an ONNX model (protobuf parse, opset,
// initializers, inputs, every node converter, the verifier), describes the
// imported graph for the bundle, and compiles it as fusecc does: fusion +
// tiling, GPU, and, for graphs of at most kCompileElements values in all,
// NVVM, PTX (when libdevice is installed) and the bundle writer.
//
// Normal outcomes: the importer rejects the model with a diagnostic, or a
// pass rejects the graph with one. Findings: a crash, a sanitizer report, a
// hang; the importer failing without a diagnostic; an imported graph that
// the bundle description rejects (the importer must only build graphs
// fusecc compiles or say why); the NVVM / PTX lowering or the bundle
// writer failing on GPU IR that fuse-convert-to-gpu produced.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "fusecc/Import/ONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;

namespace {
/// Graphs with more values than this (arguments, results and constants
/// together) stop at GPU IR: the NVVM and PTX stages take seconds on them.
constexpr int64_t kCompileElements = int64_t(1) << 16;

/// Stops the fuzzer on a finding.
[[noreturn]] void finding(const char *what) {
  std::fprintf(stderr, "onnx_fuzzer: %s\n", what);
  std::abort();
}

/// Values of the function types of `module`, saturated at 2^62.
int64_t valuesOf(ModuleOp module) {
  int64_t n = 0;
  auto add = [&](Type t) {
    auto ty = dyn_cast<RankedTensorType>(t);
    if (!ty || !ty.hasStaticShape())
      return;
    int64_t e = ty.getNumElements();
    n = (e < 0 || n > (int64_t(1) << 62) - e) ? int64_t(1) << 62 : n + e;
  };
  module.walk([&](func::FuncOp f) {
    for (Type t : f.getArgumentTypes())
      add(t);
    for (Type t : f.getResultTypes())
      add(t);
  });
  return n;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 256 * 1024)
    return -1; // not added to the corpus
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  fusecc::fuzz::FuzzContext fc;
  int errors = 0;
  // Counts errors (after FuzzContext's handler: this one runs first).
  ScopedDiagnosticHandler counter(&fc.ctx, [&](Diagnostic &d) {
    errors += d.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // on to the next handler (dropped or printed)
  });
  fusecc::onnx_import::ImportOptions options;
  options.funcName = "fuzz";
  // The last two bytes' low bits pick --weights=args and tf32.
  options.weightsAsArgs = size > 1 && (data[size - 1] & 1);
  OwningOpRef<ModuleOp> module =
      fusecc::onnx_import::importONNX(fc.ctx, bytes, "fuzz.onnx", options);
  if (!module) {
    if (errors == 0)
      finding("the importer rejected a model without a diagnostic");
    return 0;
  }
  FailureOr<llvm::StringMap<fusecc::GraphDescription>> graphs =
      fusecc::describeGraphs(*module);
  if (failed(graphs))
    finding("the bundle description rejected an imported graph");

  fusecc::PipelineOptions popts;
  popts.precision = (size > 2 && (data[size - 2] & 1))
                        ? fusecc::Precision::TF32
                        : fusecc::Precision::IEEE;
  if (!fusecc::fuzz::runStage(*module, [&](OpPassManager &pm) {
        fusecc::buildFusionPipeline(pm, popts);
      }))
    return 0;
  if (!fusecc::fuzz::runStage(*module, [&](OpPassManager &pm) {
        fusecc::buildGPUPipeline(pm, popts);
      }))
    return 0;
  if (valuesOf(*module) > kCompileElements)
    return 0;
  if (failed(
          fusecc::runLoweringPipeline(*module, "NVVM", [&](OpPassManager &pm) {
            fusecc::buildNVVMPipeline(pm, popts);
          })))
    finding("the NVVM pipeline failed on the GPU IR of an imported graph");
  std::string message;
  if (failed(fusecc::findLibdevice(popts, message)))
    return 0; // no CUDA toolkit: PTX needs libdevice
  if (failed(
          fusecc::runLoweringPipeline(*module, "PTX", [&](OpPassManager &pm) {
            fusecc::buildPTXPipeline(pm, popts);
          })))
    finding("the PTX pipeline failed on the GPU IR of an imported graph");
  std::string bundle;
  llvm::raw_string_ostream os(bundle);
  if (failed(fusecc::writeBundle(*module, *graphs, fusecc::toString(popts.chip),
                                 fusecc::toString(popts.precision), os)))
    finding("the bundle writer failed on an imported graph");
  return 0;
}
