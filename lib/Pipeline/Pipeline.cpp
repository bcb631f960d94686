//===- Pipeline.cpp - the fusecc compilation pipeline ---------------------===//
//
// Registration and the pass pipelines from the fuse graph to PTX.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Pipeline/Pipeline.h"

#include "fusecc/Conversion/FuseToGPU/FuseToGPU.h"
#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"
#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;

void fusecc::registerAllDialectsAndTranslations(DialectRegistry &registry) {
  registry.insert<fuse::FuseDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

namespace {
/// The code generation options of the tools' command lines: the target,
/// the epilogue math and the tiling overrides (0: the cost model).
struct CodegenCLOptions {
  template <typename T>
  using Opt = llvm::cl::opt<T>;
  Opt<fusecc::Precision> precision{
      "precision", llvm::cl::desc("Convolution arithmetic"),
      llvm::cl::cat(fusecc::optionCategory()),
      llvm::cl::init(fusecc::Precision::IEEE), fusecc::optionValues<fusecc::Precision>()};
  Opt<fusecc::Chip> chip{
      "chip", llvm::cl::desc("Target GPU (wgmma needs sm_90a)"),
      llvm::cl::cat(fusecc::optionCategory()),
      llvm::cl::init(fusecc::Chip::SM90), fusecc::optionValues<fusecc::Chip>()};
  Opt<fusecc::Device> device{
      "device",
      llvm::cl::desc("GPU whose facts (SMs, shared memory, rates) size the "
                     "kernels"),
      llvm::cl::cat(fusecc::optionCategory()),
      llvm::cl::init(fusecc::Device::H200),
      fusecc::optionValues<fusecc::Device>()};
  Opt<std::string> tuningFile{
      "tuning",
      llvm::cl::desc("JSON file of measured tile choices (bench/tune.py); "
                     "kernels whose tuning key it lists use them. A "
                     "directory (tuning/): its file for --device, "
                     "<device>.json, if it has one"),
      llvm::cl::value_desc("file"), llvm::cl::cat(fusecc::optionCategory()),
      llvm::cl::init("")};
  Opt<fusecc::EpilogueMathMode> epilogueMath{
      "epilogue-math", llvm::cl::desc("Epilogue exp and reciprocal"),
      llvm::cl::cat(fusecc::optionCategory()),
      llvm::cl::init(fusecc::EpilogueMathMode::Auto),
      fusecc::optionValues<fusecc::EpilogueMathMode>()};
  Opt<int64_t> rows{"tile-rows",
                    llvm::cl::desc("Tensor-core rows per block: 1, 2, 4, 8 "
                                   "(8: wgmma only; default: cost model)"),
                    llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<int64_t> ciChunk{"tile-ci-chunk",
                       llvm::cl::desc("Tensor-core input channels per round, "
                                      "a multiple of 8 (default: cost model)"),
                       llvm::cl::cat(fusecc::optionCategory()),
                       llvm::cl::init(0)};
  Opt<int64_t> tileC{"tile-c",
                     llvm::cl::desc("Tensor-core output channels per block, "
                                    "a multiple of 16 (default: cost model)"),
                     llvm::cl::cat(fusecc::optionCategory()),
                     llvm::cl::init(0)};
  Opt<int64_t> warpsC{"tile-warps-c",
                      llvm::cl::desc("Tensor-core channel warps per block: "
                                     "1, 2, 4 (default: cost model)"),
                      llvm::cl::cat(fusecc::optionCategory()),
                      llvm::cl::init(0)};
  Opt<bool> registerSoftmax{
      "register-softmax",
      llvm::cl::desc("A channel softmax whose block holds all the channels "
                     "takes its statistics from the wgmma accumulators "
                     "(default: false; docs/perf.md 201)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(false)};
  Opt<bool> mergeH{"tile-merge-h",
                   llvm::cl::desc("Tensor-core rounds stage all valid H "
                                  "taps at once (default: no)"),
                   llvm::cl::cat(fusecc::optionCategory()),
                   llvm::cl::init(false)};
  Opt<int64_t> threads{"tile-threads",
                       llvm::cl::desc("FMA-path threads per block (default: "
                                      "128)"),
                       llvm::cl::cat(fusecc::optionCategory()),
                       llvm::cl::init(0)};
  Opt<fusecc::WgmmaChoice> wgmma{
      "tile-wgmma", llvm::cl::desc("tf32 convolutions on Hopper wgmma"),
      llvm::cl::cat(fusecc::optionCategory()),
      llvm::cl::init(fusecc::WgmmaChoice::Auto), fusecc::optionValues<fusecc::WgmmaChoice>()};
  Opt<fusecc::IeeeTensorCores> ieeeTensorCores{
      "ieee-tensor-cores",
      llvm::cl::desc("ieee convolutions on the tensor cores with split "
                     "operands (3xTF32, FP32-level accuracy)"),
      llvm::cl::cat(fusecc::optionCategory()),
      llvm::cl::init(fusecc::IeeeTensorCores::Auto),
      fusecc::optionValues<fusecc::IeeeTensorCores>()};
  Opt<int64_t> wgmmaSplit{
      "tile-wgmma-split",
      llvm::cl::desc("wgmma warpgroups per 64-channel group, each taking "
                     "rows / split rows (default: cost model)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<int64_t> phaseSplit{
      "tile-phase-split",
      llvm::cl::desc("wgmma warpgroups that share a block's W phases: 2 or 4 "
                     "where they fit, -1 never (default: cost model)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<int64_t> clusterK{
      "tile-cluster-k",
      llvm::cl::desc("wgmma blocks of a cluster that split one tile's "
                     "reduction: 2, 4 or 8 where they fit, -1 never "
                     "(default: cost model)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<int64_t> positionsM{
      "tile-positions-m",
      llvm::cl::desc("mma.sync tiles with output positions on the MMA's M "
                     "side, channels on N (layers of at most 16 channels per "
                     "group): 1 where they fit, -1 never (default: cost "
                     "model: narrow groups, long-row few-channel layers)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<int64_t> samples{
      "tile-samples",
      llvm::cl::desc("wgmma blocks of the whole H phases of this many "
                     "samples where they fit (with --tile-wgmma-split, "
                     "their rows split over warpgroups that share the "
                     "staged weights), -1 never (default: cost model: "
                     "short phases)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<int64_t> clusterC{
      "tile-cluster-c",
      llvm::cl::desc("Blocks per cluster sharing a channel softmax on wgmma: "
                     "1, 2, 4, 8 (default: cost model)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<fusecc::TileRules> rules{
      "tile-rules", llvm::cl::desc("Rules of the tile cost model (A/B timing)"),
      llvm::cl::cat(fusecc::optionCategory()),
      llvm::cl::init(fusecc::TileRules::Current),
      fusecc::optionValues<fusecc::TileRules>()};
  Opt<int64_t> warpSetLimit{
      "plan-warp-set-limit",
      llvm::cl::desc("Longest reduction set one warp normalises alone "
                     "(default 4096)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<int64_t> splitChunk{
      "plan-split-chunk",
      llvm::cl::desc("Elements per block of a reduction set split over "
                     "blocks (default 16384)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<int64_t> mergeRecords{
      "plan-merge-records",
      llvm::cl::desc("Records per set of epilogue statistics past which a "
                     "normalisation of several blocks per set merges them "
                     "once per set, and the fewest one block of that merge "
                     "takes (default 1024)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
  Opt<bool> epilogueStats{
      "plan-epilogue-stats",
      llvm::cl::desc("A normalisation or reduction over whole channel "
                     "groups of a convolution's result takes its partial "
                     "statistics from the convolution's epilogue (default "
                     "true)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(true)};
  Opt<bool> recomputeConv{
      "plan-recompute-conv",
      llvm::cl::desc("A softmax over a tf32 convolution's spatial dims "
                     "recomputes the convolution instead of storing its "
                     "result where that is cheaper (default true)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(true)};
  Opt<bool> reduceThroughConv{
      "plan-reduce-through-conv",
      llvm::cl::desc("A sum or mean over all spatial dims of a transposed "
                     "convolution (through affine elementwise ops) becomes "
                     "box sums of its input and a convolution of output "
                     "size 1 (default true)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(true)};
  Opt<bool> channelContraction{
      "plan-channel-contraction",
      llvm::cl::desc("A 1x1 convolution of few output channels is applied "
                     "in the epilogue of the convolution kernel that "
                     "produces its input, where its blocks hold all "
                     "channels (default true)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(true)};
  Opt<bool> halfIntermediates{
      "plan-half-intermediates",
      llvm::cl::desc("A convolution result that only convolutions read, as "
                     "their input on half tensor cores, is stored in that "
                     "half type (default true)"),
      llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(true)};
  Opt<fusecc::PrologueFusion> prologue{
      "plan-prologue",
      llvm::cl::desc("A convolution's prologue (elementwise and window ops "
                     "computing its input) folded into its input staging"),
      llvm::cl::cat(fusecc::optionCategory()),
      llvm::cl::init(fusecc::PrologueFusion::Auto),
      fusecc::optionValues<fusecc::PrologueFusion>()};
  Opt<int64_t> maxW{"tile-max-w",
                    llvm::cl::desc("Largest output row segment of a block "
                                   "(default: 128)"),
                    llvm::cl::cat(fusecc::optionCategory()), llvm::cl::init(0)};
};
llvm::ManagedStatic<CodegenCLOptions> codegenCLOptions;
} // namespace

void fusecc::registerCodegenCLOptions() { *codegenCLOptions; }

llvm::cl::OptionCategory &fusecc::optionCategory() {
  static llvm::cl::OptionCategory category("fusecc options");
  return category;
}

void fusecc::applyCodegenCLOptions(PipelineOptions &options) {
  if (!codegenCLOptions.isConstructed())
    return;
  const CodegenCLOptions &o = *codegenCLOptions;
  options.precision = o.precision;
  options.chip = o.chip;
  options.device = o.device;
  options.epilogueMath = o.epilogueMath;
  options.tuningFile = o.tuningFile;
  options.tileRows = o.rows;
  options.tileCiChunk = o.ciChunk;
  options.tileC = o.tileC;
  options.tileWarpsC = o.warpsC;
  options.tileMergeH = o.mergeH;
  options.registerSoftmax = o.registerSoftmax;
  options.tileThreads = o.threads;
  options.tileMaxW = o.maxW;
  options.tileWgmma = o.wgmma;
  options.ieeeTensorCores = o.ieeeTensorCores;
  options.tileWgmmaSplit = o.wgmmaSplit;
  options.tileClusterC = o.clusterC;
  options.tilePositionsM = o.positionsM;
  options.tileSamples = o.samples;
  options.tilePhaseSplit = o.phaseSplit;
  options.tileClusterK = o.clusterK;
  options.tileRules = o.rules;
  options.planWarpSetLimit = o.warpSetLimit;
  options.planSplitChunk = o.splitChunk;
  options.planMergeRecords = o.mergeRecords;
  options.planEpilogueStats = o.epilogueStats;
  options.planRecomputeConv = o.recomputeConv;
  options.planReduceThroughConv = o.reduceThroughConv;
  options.planPrologue = o.prologue;
  options.planChannelContraction = o.channelContraction;
  options.planHalfIntermediates = o.halfIntermediates;
}

LogicalResult fusecc::verifyCodegenOptions(const PipelineOptions &options,
                                           bool forTarget,
                                           std::string &message) {
  if (!TargetInfo::supports(options.device, options.chip)) {
    message = "--device=" + toString(options.device).str() +
              " does not run --chip=" + toString(options.chip).str() + " code";
    return failure();
  }
  if (forTarget && options.tileWgmma == WgmmaChoice::Always &&
      options.chip != Chip::SM90a) {
    message = "--tile-wgmma=always needs --chip=sm_90a (wgmma is an sm_90a "
              "instruction), got '" +
              toString(options.chip).str() + "'";
    return failure();
  }
  return success();
}

namespace {
/// Options of the registered `fusecc-pipeline` (graph -> gpu + launches),
/// typed with the tools' enums and value lists: a value outside a list is
/// a parse error naming the option.
struct FuseccPipelineOptions
    : public PassPipelineOptions<FuseccPipelineOptions> {
  Option<fusecc::Precision> precision{
      *this, "precision", llvm::cl::desc("Convolution arithmetic"),
      llvm::cl::init(fusecc::Precision::IEEE), fusecc::optionValues<fusecc::Precision>()};
  Option<fusecc::Chip> chip{
      *this, "chip", llvm::cl::desc("Target chip (wgmma needs sm_90a)"),
      llvm::cl::init(fusecc::Chip::SM90), fusecc::optionValues<fusecc::Chip>()};
  Option<fusecc::Device> device{
      *this, "device", llvm::cl::desc("GPU whose facts size the kernels"),
      llvm::cl::init(fusecc::Device::H200),
      fusecc::optionValues<fusecc::Device>()};
  Option<fusecc::EpilogueMathMode> epilogueMath{
      *this, "epilogue-math", llvm::cl::desc("Epilogue exp and reciprocal"),
      llvm::cl::init(fusecc::EpilogueMathMode::Auto),
      fusecc::optionValues<fusecc::EpilogueMathMode>()};
  Option<fusecc::WgmmaChoice> wgmma{
      *this, "tile-wgmma", llvm::cl::desc("tf32 convolutions on Hopper wgmma"),
      llvm::cl::init(fusecc::WgmmaChoice::Auto), fusecc::optionValues<fusecc::WgmmaChoice>()};
  Option<fusecc::IeeeTensorCores> ieeeTensorCores{
      *this, "ieee-tensor-cores",
      llvm::cl::desc("ieee convolutions on the tensor cores with split "
                     "operands"),
      llvm::cl::init(fusecc::IeeeTensorCores::Auto),
      fusecc::optionValues<fusecc::IeeeTensorCores>()};
  Option<fusecc::PrologueFusion> prologue{
      *this, "prologue",
      llvm::cl::desc("Fold a convolution's prologue into its input staging"),
      llvm::cl::init(fusecc::PrologueFusion::Auto),
      fusecc::optionValues<fusecc::PrologueFusion>()};
  Option<std::string> tuningFile{
      *this, "tuning-file",
      llvm::cl::desc("JSON file of measured tile choices, or a directory "
                     "of them per device (<device>.json)"),
      llvm::cl::init("")};
};
} // namespace

void fusecc::registerAllPasses() {
  mlir::registerAllPasses();
  fuse::registerFusePasses();
  registerFuseConversionPasses();
  // The whole graph-to-GPU pipeline by name (fusecc-opt
  // --fusecc-pipeline='precision=tf32 chip=sm_90a'); NVVM and PTX stay
  // with the fusecc driver (they need libdevice).
  static PassPipelineRegistration<FuseccPipelineOptions> pipeline(
      "fusecc-pipeline",
      "fuse graph -> kernels, tiles, plan -> gpu.func kernels + launches",
      [](OpPassManager &pm, const FuseccPipelineOptions &o) {
        PipelineOptions options;
        options.precision = o.precision;
        options.chip = o.chip;
        options.device = o.device;
        options.epilogueMath = o.epilogueMath;
        options.tileWgmma = o.wgmma;
        options.ieeeTensorCores = o.ieeeTensorCores;
        options.tuningFile = o.tuningFile;
        options.planPrologue = o.prologue;
        buildFusionPipeline(pm, options);
        buildGPUPipeline(pm, options);
      });
}

void fusecc::buildFusionPipeline(OpPassManager &pm,
                                 const PipelineOptions &options) {
  // The target first: every later pass sizes its choices by its facts.
  fuse::FuseAttachTargetOptions target;
  target.chip = options.chip;
  target.device = options.device;
  pm.addPass(fuse::createFuseAttachTarget(target));
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  // A bf16/f16 graph computes in f32 between its half-stored values
  // (inputs, weights, results, explicit casts): docs/design/types.md.
  fpm.addPass(fuse::createFuseWidenHalf());
  // Composite ops (batch_norm, instance_norm) become the ops
  // they are made of before anything plans kernels; the bundle's graph
  // lines, written before this pipeline, keep them.
  fpm.addPass(fuse::createFuseDecompose());
  // Reductions over non-adjacent dims (batch_norm's training statistics)
  // become chains over contiguous runs, which the plan's reduction layouts
  // and a convolution epilogue's statistics serve.
  fpm.addPass(fuse::createFuseSplitReductions());
  // A pooling of a pooling that is one sliding window pools once (so that
  // a convolution epilogue applies the whole chain).
  fpm.addPass(fuse::createFuseComposePools());
  // A sum or mean over a convolution's spatial dims needs no convolution:
  // box sums of its input and a convolution of output size 1.
  if (options.planReduceThroughConv)
    fpm.addPass(fuse::createFuseReduceThroughConv());
  // A softmax whose statistics and normalisation would store and reload a
  // convolution's result may recompute the convolution instead.
  if (options.planRecomputeConv && options.planEpilogueStats) {
    fuse::FuseRecomputeConvOptions recompute;
    recompute.precision = options.precision;
    fpm.addPass(fuse::createFuseRecomputeConv(recompute));
  }
  fuse::FuseFormKernelsOptions form;
  form.prologue = options.planPrologue;
  form.channelContraction = options.planChannelContraction;
  form.halfIntermediates = options.planHalfIntermediates;
  form.precision = options.precision;
  fpm.addPass(fuse::createFuseFormKernels(form));
  fuse::FuseTileKernelsOptions tile;
  tile.precision = options.precision;
  tile.rows = options.tileRows;
  tile.ciChunk = options.tileCiChunk;
  tile.tileC = options.tileC;
  tile.warpsC = options.tileWarpsC;
  tile.mergeHTaps = options.tileMergeH;
  tile.tuningFile = options.tuningFile;
  // --tile-wgmma=always forces wgmma wherever it fits; the sm_90a default
  // (fills-grid) keeps kernels whose grid is smaller than one wave on
  // mma.sync.
  tile.wgmma = wgmmaModeFor(options.tileWgmma, options.chip);
  tile.ieeeTensorCores = options.ieeeTensorCores;
  tile.wgmmaSplit = options.tileWgmmaSplit;
  tile.clusterC = options.tileClusterC;
  tile.positionsM = options.tilePositionsM;
  tile.samples = options.tileSamples;
  tile.phaseSplit = options.tilePhaseSplit;
  tile.clusterK = options.tileClusterK;
  tile.rules = options.tileRules;
  if (options.tileThreads)
    tile.threads = options.tileThreads;
  if (options.tileMaxW)
    tile.maxTileW = options.tileMaxW;
  fpm.addPass(fuse::createFuseTileKernels(tile));
  fuse::FusePlanKernelsOptions plan;
  if (options.planWarpSetLimit)
    plan.warpSetLimit = options.planWarpSetLimit;
  if (options.planSplitChunk)
    plan.splitChunk = options.planSplitChunk;
  if (options.planMergeRecords)
    plan.mergeRecords = options.planMergeRecords;
  plan.epilogueStats = options.planEpilogueStats;
  fpm.addPass(fuse::createFusePlanKernels(plan));
}

void fusecc::buildGPUPipeline(OpPassManager &pm,
                              const PipelineOptions &options) {
  FuseConvertToGPUOptions convert;
  convert.epilogueMath = options.epilogueMath;
  convert.registerSoftmax = options.registerSoftmax;
  pm.addPass(createFuseConvertToGPU(convert));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

std::string fusecc::PipelineOptions::defaultCudaPath() {
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(var); v && *v)
      return v;
  return "/usr/local/cuda";
}

FailureOr<std::string> fusecc::findLibdevice(const PipelineOptions &options,
                                             std::string &message) {
  llvm::SmallString<256> path(options.cudaPath);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  if (!llvm::sys::fs::exists(path)) {
    message = "libdevice not found at '" + path.str().str() +
              "' (needed for exp, erf, tanh, ...): install the CUDA toolkit "
              "or pass --cuda-path";
    return failure();
  }
  return path.str().str();
}

void fusecc::buildNVVMPipeline(OpPassManager &pm,
                               const PipelineOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = toString(options.chip).str();
  target.optLevel = options.optLevel;

  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
  gpm.addPass(createSCFToControlFlowPass());
  gpm.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  gpm.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // Dynamic shared memory as an extern array sized at launch (CUDA's
  // `extern __shared__`), not the one-byte variable NVPTX makes of an
  // internal zero-length global.
  gpm.addPass(createFuseExternDynamicSharedMemory());
  // Per-sample kernels of a dynamic batch: batched pointers advanced by
  // ctaid.z slices (nothing to do in a static module).
  gpm.addPass(createFuseBatchOffsets());
  // NVVM ops without an LLVM intrinsic (wgmma.mma_async) -> inline PTX.
  gpm.addPass(createConvertNVVMToLLVMPass());
  gpm.addPass(createCanonicalizerPass());
  gpm.addPass(createCSEPass());
  gpm.addPass(createReconcileUnrealizedCastsPass());
}

LogicalResult
fusecc::runLoweringPipeline(ModuleOp module, StringRef stage,
                            llvm::function_ref<void(OpPassManager &)> build) {
  MLIRContext *ctx = module.getContext();
  std::optional<Location> firstLoc;
  std::string firstMessage;
  LogicalResult result = success();
  {
    // Swallow the pipeline's own diagnostics (and their notes, which dump
    // IR); remember the first error.
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && !firstLoc) {
        firstLoc = diag.getLocation();
        firstMessage = diag.str();
      }
      return success();
    });
    PassManager pm(ctx);
    build(pm);
    result = pm.run(module);
  }
  if (succeeded(result))
    return success();
  emitError(firstLoc.value_or(module.getLoc()))
      << "internal error while lowering to " << stage << ": "
      << (firstMessage.empty() ? std::string("the pipeline failed")
                               : firstMessage)
      << " (the graph passed fusecc's checks; please report it)";
  return failure();
}

void fusecc::buildPTXPipeline(OpPassManager &pm,
                              const PipelineOptions &options) {
  GpuModuleToBinaryPassOptions bin;
  bin.toolkitPath = options.cudaPath;
  bin.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(bin));
}
