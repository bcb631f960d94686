//===- fusecc.cpp - the fusecc compiler driver ----------------------------===//
//
// fusecc graph.mlir -o graph.fcb: compiles the fuse graphs of a file to a
// bundle (manifest + PTX). --emit stops after a stage and prints its IR.
// An ONNX model (.onnx, or a file starting like a ModelProto) is imported
// into a fuse graph first.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Codegen/Tiling/TileChoice.h"
#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"
#include "fusecc/Dialect/Fuse/Transforms/Plan.h"
#ifdef FUSECC_HAVE_ONNX
#include "fusecc/Import/ONNX.h"
#endif
#include "fusecc/Pipeline/Pipeline.h"
#include "fusecc/Target/Bundle.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace llvm;

namespace {
enum class Emit { Fuse, TuningKeys, Plan, Fused, GPU, NVVM, LLVM, PTX, Bundle };

cl::opt<std::string> inputFile(cl::Positional,
                               cl::cat(fusecc::optionCategory()),
                               cl::desc("<graph.mlir | model.onnx>"),
                               cl::Required);
cl::opt<std::string> outputFile("o", cl::cat(fusecc::optionCategory()),
                                cl::desc("Output file ('-' for stdout)"),
                                cl::value_desc("file"));
cl::opt<Emit> emit(
    "emit", cl::cat(fusecc::optionCategory()),
    cl::desc("Stop after a stage and print its output"), cl::init(Emit::Bundle),
    cl::values(clEnumValN(Emit::Fuse, "fuse",
                          "the input graph (after ONNX import); large "
                          "constants elided"),
               clEnumValN(Emit::TuningKeys, "tuning-keys",
                          "one line per kernel: its name and tuning key"),
               clEnumValN(Emit::Plan, "plan",
                          "the kernel plan: kernels in order, buffers, "
                          "workspaces"),
               clEnumValN(Emit::Fused, "fused", "fused + tiled fuse IR"),
               clEnumValN(Emit::GPU, "gpu", "gpu dialect kernels + launches"),
               clEnumValN(Emit::NVVM, "nvvm", "LLVM/NVVM dialect kernels"),
               clEnumValN(Emit::LLVM, "llvm", "LLVM IR of the kernels"),
               clEnumValN(Emit::PTX, "ptx", "PTX of the kernels"),
               clEnumValN(Emit::Bundle, "bundle", "bundle (default)")));
cl::list<std::string> inputShapes(
    "input-shape", cl::cat(fusecc::optionCategory()),
    cl::desc("ONNX: fix an input's shape, e.g. x=1x100x1x1 (repeatable)"),
    cl::value_desc("name=d0xd1x..."));
cl::opt<std::string>
    weights("weights", cl::cat(fusecc::optionCategory()),
            cl::desc("ONNX initializers: 'constants' (default, stored in the "
                     "bundle) or 'args' (function arguments)"),
            cl::init("constants"));
cl::opt<int64_t> maxBatch(
    "max-batch", cl::cat(fusecc::optionCategory()),
    cl::desc("Compile for a launch-time batch in [1, N]: the graph's batched "
             "tensors have a dynamic leading dim (tensor<?x...>; an ONNX "
             "input's symbolic batch dim); one bundle serves every batch up "
             "to N"),
    cl::value_desc("N"), cl::init(0));
cl::opt<int> optLevel("opt-level", cl::cat(fusecc::optionCategory()),
                      cl::desc("LLVM optimisation level"), cl::init(3));
cl::opt<std::string>
    cudaPath("cuda-path", cl::cat(fusecc::optionCategory()),
             cl::desc("CUDA toolkit root, for libdevice (default: "
                      "$CUDA_HOME, $CUDA_PATH or /usr/local/cuda)"),
             cl::init(""));

std::string defaultOutput() {
  if (emit != Emit::Bundle)
    return "-";
  SmallString<128> path(inputFile == "-" ? "graph" : inputFile.getValue());
  sys::path::replace_extension(path, "fcb");
  return std::string(sys::path::filename(path));
}

LogicalResult runPipeline(ModuleOp module,
                          llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  build(pm);
  return pm.run(module);
}

/// Parses the input: fuse MLIR, or an ONNX model imported to fuse.
OwningOpRef<ModuleOp> loadInput(MLIRContext &ctx, SourceMgr &sourceMgr) {
  StringRef contents =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
#ifdef FUSECC_HAVE_ONNX
  namespace oi = fusecc::onnx_import;
  if (oi::looksLikeONNX(inputFile, contents)) {
    oi::ImportOptions options;
    SmallString<64> stem(sys::path::stem(inputFile));
    for (char &c : stem)
      if (!isAlnum(c) && c != '_')
        c = '_';
    if (stem.empty() || isDigit(stem[0]))
      stem.insert(stem.begin(), 'm');
    options.funcName = std::string(stem);
    if (weights != "constants" && weights != "args") {
      errs() << "fusecc: error: --weights must be 'constants' or 'args', got '"
             << weights << "'\n";
      return nullptr;
    }
    options.weightsAsArgs = weights == "args";
    for (const std::string &spec : inputShapes)
      if (std::string msg = oi::parseInputShape(spec, options); !msg.empty()) {
        errs() << "fusecc: error: " << msg << "\n";
        return nullptr;
      }
    // A symbolic batch (--max-batch): imported at two batches, the values
    // that follow it given a dynamic dim 0 (prepareBatch specialises them).
    if (maxBatch.getNumOccurrences())
      return oi::importONNXDynamicBatch(ctx, contents, inputFile, options);
    return oi::importONNX(ctx, contents, inputFile, options);
  }
#else
  if (StringRef(inputFile).ends_with(".onnx")) {
    errs() << "fusecc: error: this fusecc was built without ONNX import "
              "(install libonnx-dev and libprotobuf-dev)\n";
    return nullptr;
  }
#endif
  if (!inputShapes.empty() || weights != "constants") {
    errs() << "fusecc: error: --input-shape and --weights apply to ONNX "
              "models only\n";
    return nullptr;
  }
  // Unverified: the fuse ops want static shapes, which a dynamic batch
  // (`?`) gets from specializeBatch before the verifier runs.
  return parseSourceFile<ModuleOp>(sourceMgr,
                                   ParserConfig(&ctx, /*verifyAfterParse=*/false));
}

/// A dynamic batch (`--max-batch`): the per-sample graph, its batched
/// arguments and results marked, the bound on the module. Then verifies.
LogicalResult prepareBatch(ModuleOp module) {
  namespace fuse = fusecc::fuse;
  bool dynamic = fuse::hasDynamicDims(module);
  if (maxBatch.getNumOccurrences()) {
    if (maxBatch < 1 || maxBatch > fuse::kMaxBatchBound) {
      errs() << "fusecc: error: --max-batch must be 1.." << fuse::kMaxBatchBound
             << ", got " << maxBatch << "\n";
      return failure();
    }
    if (!dynamic) {
      errs() << "fusecc: error: --max-batch needs a graph whose batched "
                "tensors have a dynamic leading dim (tensor<?x...>); this "
                "one has only static shapes\n";
      return failure();
    }
    if (failed(fuse::specializeBatch(module, 1)))
      return failure();
    module->setAttr(fuse::kMaxBatchAttr,
                    IntegerAttr::get(mlir::IntegerType::get(module.getContext(), 64),
                                     maxBatch));
  } else if (dynamic) {
    module.emitError("the graph has dynamic dims ('?'); compile it with "
                     "--max-batch=N for a bundle serving batches 1..N");
    return failure();
  }
  return verify(module);
}

/// The precision a bundle records: the arithmetic that fuse-tile-kernels
/// chose for the convolution kernels (their #fuse.types math) when any of
/// them multiplies bf16 or f16 operands (a graph stored in a half type), as
/// "bf16" / "fp16", or computes in TF32 on half storage (tensorCoreMath:
/// few input channels, the half values exact), as its storage type;
/// otherwise the requested --precision.
std::string bundlePrecisionOf(ModuleOp module,
                              const fusecc::PipelineOptions &options) {
  std::optional<fusecc::fuse::ConvMath> half;
  module.walk([&](fusecc::fuse::KernelOp kernel) {
    fusecc::fuse::TileConfigAttr cfg = kernel.getConfigAttr();
    if (!cfg || !cfg.getTypes())
      return;
    fusecc::fuse::ConvMath math = cfg.getTypes().getMath();
    mlir::Type storage = cfg.getTypes().getStorage();
    if (math == fusecc::fuse::ConvMath::BF16 ||
        math == fusecc::fuse::ConvMath::F16)
      half = math;
    else if (math == fusecc::fuse::ConvMath::TF32 && !half &&
             (storage.isBF16() || storage.isF16()))
      half = storage.isBF16() ? fusecc::fuse::ConvMath::BF16
                              : fusecc::fuse::ConvMath::F16;
  });
  if (!half)
    return fusecc::toString(options.precision).str();
  return fusecc::toString(*half == fusecc::fuse::ConvMath::BF16
                              ? fusecc::Precision::BF16
                              : fusecc::Precision::FP16)
      .str();
}

LogicalResult compile(MLIRContext &ctx, SourceMgr &sourceMgr) {
  OwningOpRef<ModuleOp> module = loadInput(ctx, sourceMgr);
  if (!module)
    return failure();
  // --emit=fuse of a dynamic batch prints the graph with its `?` dims
  // (after the checks of its specialisation).
  OwningOpRef<ModuleOp> asWritten;
  if (emit == Emit::Fuse && maxBatch.getNumOccurrences())
    asWritten = module->clone();
  if (failed(prepareBatch(*module)))
    return failure();
  if (optLevel < 0 || optLevel > 3) {
    errs() << "fusecc: error: --opt-level must be 0..3, got " << optLevel
           << "\n";
    return failure();
  }
  // The graph as written, for the bundle (checked before any pass runs).
  FailureOr<StringMap<fusecc::GraphDescription>> graphs;
  if (emit == Emit::Bundle) {
    graphs = fusecc::describeGraphs(*module);
    if (failed(graphs))
      return failure();
  }

  fusecc::PipelineOptions options;
  options.optLevel = optLevel;
  fusecc::applyCodegenCLOptions(options);
  if (std::string message; failed(
          fusecc::verifyCodegenOptions(options, /*forTarget=*/true, message))) {
    errs() << "fusecc: error: " << message << "\n";
    return failure();
  }
  if (!cudaPath.empty())
    options.cudaPath = cudaPath;
  if (emit >= Emit::NVVM) {
    std::string message;
    if (failed(fusecc::findLibdevice(options, message))) {
      errs() << "fusecc: error: " << message << "\n";
      return failure();
    }
  }

  std::string errorMessage;
  auto output = openOutputFile(outputFile.empty() ? defaultOutput()
                                                  : outputFile.getValue(),
                               &errorMessage);
  if (!output) {
    errs() << "fusecc: error: " << errorMessage << "\n";
    return failure();
  }
  auto done = [&]() {
    output->keep();
    return success();
  };

  if (emit == Emit::Fuse) {
    // A dynamic graph does not verify before specialisation: print it in
    // its custom form all the same.
    OpPrintingFlags flags = OpPrintingFlags().elideLargeElementsAttrs(16);
    if (asWritten)
      flags.assumeVerified();
    (asWritten ? *asWritten : *module)->print(output->os(), flags);
    return done();
  }
  if (failed(runPipeline(*module, [&](OpPassManager &pm) {
        fusecc::buildFusionPipeline(pm, options);
      })))
    return failure();
  if (emit == Emit::Fused) {
    module->print(output->os());
    return done();
  }
  if (emit == Emit::Plan) {
    for (auto func : module->getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      FailureOr<fusecc::fuse::KernelPlan> plan =
          fusecc::fuse::KernelPlan::read(func);
      if (failed(plan))
        return failure();
      plan->print(func, output->os());
    }
    return done();
  }
  if (emit == Emit::TuningKeys) {
    WalkResult r = module->walk([&](fusecc::fuse::KernelOp kernel) {
      // Only convolution kernels have tiles to tune.
      if (fusecc::fuse::kernelKindOf(kernel) !=
          fusecc::fuse::KernelKind::Convolution)
        return WalkResult::advance();
      FailureOr<fusecc::fuse::KernelAnalysis> a =
          fusecc::fuse::KernelAnalysis::analyze(kernel);
      if (failed(a))
        return WalkResult::interrupt();
      // The kernel's math as fuse-tile-kernels decides it (a convolution
      // pinned to FP32 FMA is tuned as an ieee kernel; half math with few
      // input channels as a tf32 one, tensorCoreMath), so that the key is
      // the one its tuning-file lookup uses.
      const mlir::Type storage = fusecc::fuse::convStorageType(a->conv);
      fusecc::fuse::ConvMath math = fusecc::fuse::tensorCoreMath(
          *a,
          fusecc::fuse::convMathFor(
              options.precision, storage,
              a->conv->hasAttr(fusecc::fuse::kConvPrecisionAttrName)),
          storage);
      output->os() << kernel.getKernelName() << "\t"
                   << a->tuningKey(kernel, math) << "\n";
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return failure();
    return done();
  }
  // The bundle's precision record names the convolutions' arithmetic as
  // fuse-tile-kernels decided it (#fuse.types): a graph stored in bf16/f16
  // multiplies in that type whatever --precision says, and says so.
  const std::string bundlePrecision = bundlePrecisionOf(*module, options);
  if (failed(runPipeline(*module, [&](OpPassManager &pm) {
        fusecc::buildGPUPipeline(pm, options);
      })))
    return failure();
  if (emit == Emit::GPU) {
    module->print(output->os());
    return done();
  }
  if (failed(
          fusecc::runLoweringPipeline(*module, "NVVM", [&](OpPassManager &pm) {
            fusecc::buildNVVMPipeline(pm, options);
          })))
    return failure();
  if (emit == Emit::NVVM) {
    module->print(output->os());
    return done();
  }
  if (emit == Emit::LLVM) {
    llvm::LLVMContext llvmCtx;
    for (auto gpuModule : module->getOps<gpu::GPUModuleOp>()) {
      std::unique_ptr<llvm::Module> llvmModule =
          translateModuleToLLVMIR(gpuModule, llvmCtx, gpuModule.getName());
      if (!llvmModule)
        return gpuModule.emitError("translation to LLVM IR failed");
      llvmModule->print(output->os(), nullptr);
    }
    return done();
  }
  if (failed(
          fusecc::runLoweringPipeline(*module, "PTX", [&](OpPassManager &pm) {
            fusecc::buildPTXPipeline(pm, options);
          })))
    return failure();
  if (emit == Emit::PTX) {
    FailureOr<std::string> ptx = fusecc::extractPTX(*module);
    if (failed(ptx))
      return failure();
    output->os() << *ptx;
    return done();
  }
  if (failed(fusecc::writeBundle(*module, *graphs,
                                 fusecc::toString(options.chip),
                                 bundlePrecision, output->os())))
    return failure();
  return done();
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  fusecc::registerCodegenCLOptions();
  cl::HideUnrelatedOptions(fusecc::optionCategory());
  cl::ParseCommandLineOptions(argc, argv,
                              "fusecc: fused transposed-convolution kernels\n");
  DialectRegistry registry;
  fusecc::registerAllDialectsAndTranslations(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // Diagnostics name the location and the reason; never dump IR with them.
  ctx.printOpOnDiagnostic(false);

  std::string errorMessage;
  auto file = openInputFile(inputFile, &errorMessage);
  if (!file) {
    errs() << "fusecc: error: " << errorMessage << "\n";
    return 1;
  }
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  return failed(compile(ctx, sourceMgr)) ? 1 : 0;
}
