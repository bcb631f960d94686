//===- compile_fuzzer.cpp - libFuzzer target: text -> PTX bundle ----------===//
//
// Parses the input as MLIR (the parser verifies it), describes its graphs
// for the bundle, then runs fusecc's whole pipeline: fusion + tiling, GPU,
// NVVM, PTX (when libdevice is installed) and the bundle writer. Rejecting
// an input with a diagnostic is fine; a crash, a sanitizer report, a hang
// or the NVVM / PTX lowering or the bundle writer failing on GPU IR that
// fuse-convert-to-gpu produced (an internal error) is a finding. The precision
// and chip come from the text: "tf32" anywhere selects --precision=tf32,
// "sm_90a" the Hopper target.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/xxhash.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;

namespace {
/// Stops the fuzzer on an internal error (a finding).
[[noreturn]] void internalError(const char *stage) {
  std::fprintf(stderr,
               "compile_fuzzer: %s failed on the GPU IR of an "
               "accepted graph\n",
               stage);
  std::abort();
}

/// FUSECC_FUZZ_PTX_EVERY (at least 1; read once).
uint64_t ptxEvery() {
  static const uint64_t every = [] {
    const char *value = std::getenv("FUSECC_FUZZ_PTX_EVERY");
    long long n = value ? std::atoll(value) : 1;
    return static_cast<uint64_t>(n > 1 ? n : 1);
  }();
  return every;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024)
    return -1; // not added to the corpus
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  fusecc::fuzz::FuzzContext fc;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &fc.ctx);
  if (!module)
    return 0;
  FailureOr<llvm::StringMap<fusecc::GraphDescription>> graphs =
      fusecc::describeGraphs(*module);
  if (failed(graphs))
    return 0;

  fusecc::PipelineOptions options;
  options.precision =
      text.contains("tf32") ? fusecc::Precision::TF32 : fusecc::Precision::IEEE;
  options.chip =
      text.contains("sm_90a") ? fusecc::Chip::SM90a : fusecc::Chip::SM90;
  if (!fusecc::fuzz::runStage(*module, [&](OpPassManager &pm) {
        fusecc::buildFusionPipeline(pm, options);
      }))
    return 0;
  // fuse-convert-to-gpu still rejects some graphs with a diagnostic (e.g.
  // a result no kernel computes).
  if (!fusecc::fuzz::runStage(*module, [&](OpPassManager &pm) {
        fusecc::buildGPUPipeline(pm, options);
      }))
    return 0;
  if (failed(
          fusecc::runLoweringPipeline(*module, "NVVM", [&](OpPassManager &pm) {
            fusecc::buildNVVMPipeline(pm, options);
          })))
    internalError("the NVVM pipeline");
  if (ptxEvery() > 1 && llvm::xxh3_64bits(text) % ptxEvery() != 0)
    return 0;
  std::string message;
  if (failed(fusecc::findLibdevice(options, message)))
    return 0; // no CUDA toolkit: PTX needs libdevice
  if (failed(
          fusecc::runLoweringPipeline(*module, "PTX", [&](OpPassManager &pm) {
            fusecc::buildPTXPipeline(pm, options);
          })))
    internalError("the PTX pipeline");
  std::string bundle;
  llvm::raw_string_ostream os(bundle);
  if (failed(fusecc::writeBundle(*module, *graphs,
                                 fusecc::toString(options.chip),
                                 fusecc::toString(options.precision), os)))
    internalError("the bundle writer");
  return 0;
}
