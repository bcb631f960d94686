//===- Pipeline.h - the fusecc compilation pipeline -------------*- C++ -*-===//
//
// Registration of everything fusecc's tools use, and the pass pipelines
// from the fuse graph to PTX.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_PIPELINE_PIPELINE_H
#define FUSECC_PIPELINE_PIPELINE_H

#include "fusecc/Support/Options.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"

#include "llvm/Support/LogicalResult.h"

#include <string>

namespace fusecc {

/// Registers the fuse dialect, the upstream dialects, interfaces and LLVM IR
/// translations the pipeline needs (including the NVVM target).
void registerAllDialectsAndTranslations(mlir::DialectRegistry &registry);

/// Registers fusecc's passes and the upstream ones, for fusecc-opt.
void registerAllPasses();

/// Options of the whole pipeline.
struct PipelineOptions {
  Chip chip = Chip::SM90;
  /// The GPU whose facts (TargetInfo) size the kernels.
  Device device = Device::H200;
  Precision precision = Precision::IEEE;
  /// `fuse-convert-to-gpu{epilogue-math=...}`.
  EpilogueMathMode epilogueMath = EpilogueMathMode::Auto;
  /// `fuse-convert-to-gpu{register-softmax=...}`.
  bool registerSoftmax = false;
  int optLevel = 3;
  /// Tiling overrides for tuning (0: the cost model decides).
  int64_t tileRows = 0, tileCiChunk = 0, tileC = 0, tileWarpsC = 0;
  /// Tensor-core rounds stage all valid H taps at once.
  bool tileMergeH = false;
  /// Hopper warpgroup MMA on the tf32 path: auto where the chip has it
  /// (sm_90a, `wgmmaModeFor`), never, or always wherever a kernel fits
  /// (needs sm_90a).
  WgmmaChoice tileWgmma = WgmmaChoice::Auto;
  /// ieee convolutions on mma.sync with split operands (3xTF32):
  /// `fuse-tile-kernels{ieee-tensor-cores=...}`.
  IeeeTensorCores ieeeTensorCores = IeeeTensorCores::Auto;
  /// wgmma warpgroups per channel group (0: cost model).
  int64_t tileWgmmaSplit = 0;
  /// Blocks per cluster sharing a channel softmax (0: cost model).
  int64_t tileClusterC = 0;
  /// wgmma warpgroups sharing a block's W phases: 2 or 4, -1 never (0:
  /// cost model).
  int64_t tilePhaseSplit = 0;
  /// wgmma blocks of a cluster splitting one tile's reduction: 2, 4 or 8,
  /// -1 never (0: cost model).
  int64_t tileClusterK = 0;
  /// mma.sync tiles with positions on M: 1 where they fit, -1 never (0:
  /// cost model).
  int64_t tilePositionsM = 0;
  /// wgmma blocks of whole H phases of this many samples where they fit,
  /// -1 never (0: cost model).
  int64_t tileSamples = 0;
  /// Rules of the tile cost model: `fuse-tile-kernels{rules=...}`.
  TileRules tileRules = TileRules::Current;
  /// FMA-path threads per block and largest row segment (0: pass default).
  int64_t tileThreads = 0, tileMaxW = 0;
  /// fuse-plan-kernels: the longest reduction set a warp normalises alone
  /// and the chunk of a set split over blocks (0: the pass defaults).
  int64_t planWarpSetLimit = 0, planSplitChunk = 0;
  /// fuse-plan-kernels: the records per set of epilogue statistics past
  /// which a normalisation merges them once per set (0: the pass default).
  int64_t planMergeRecords = 0;
  /// fuse-plan-kernels: statistics of whole channel groups (group_norm,
  /// softmax, logsumexp, amax, ...) from the producing convolution's
  /// epilogue.
  bool planEpilogueStats = true;
  /// fuse-recompute-conv: a softmax over a tf32 convolution's spatial dims
  /// recomputes the convolution instead of storing its result, where the
  /// cost rule says so.
  bool planRecomputeConv = true;
  /// fuse-reduce-through-conv: a sum or mean over all spatial dims of a
  /// transposed convolution (through affine elementwise ops) becomes box
  /// sums of its input and a convolution of output size 1.
  bool planReduceThroughConv = true;
  /// fuse-form-kernels: a convolution's prologue (the elementwise and
  /// window ops computing its input) folded into its input staging: where
  /// the cost rule says so, always, or never.
  PrologueFusion planPrologue = PrologueFusion::Auto;
  /// fuse-form-kernels: a 1x1 convolution of few output channels applied
  /// in the epilogue of the convolution kernel producing its input.
  bool planChannelContraction = true;
  /// Convolution results that only half tensor-core convolutions read as
  /// their input are stored in that half type (fuse-form-kernels).
  bool planHalfIntermediates = true;
  /// Measured tile choices (`fuse-tile-kernels{tuning-file=...}`).
  std::string tuningFile;
  /// CUDA toolkit root: libdevice (for exp, erf, ...) is linked from
  /// `<cudaPath>/nvvm/libdevice/libdevice.10.bc`.
  std::string cudaPath = defaultCudaPath();

  /// $CUDA_HOME, else $CUDA_PATH, else /usr/local/cuda.
  static std::string defaultCudaPath();
};

/// Registers the code generation options shared by the tools: the target
/// (--precision, --chip, --device), the epilogue math (--epilogue-math) and the
/// tiling overrides (--tuning, --tile-rows, --tile-ci-chunk, --tile-c,
/// --tile-warps-c, --tile-merge-h, --tile-threads, --tile-max-w,
/// --tile-wgmma, --tile-wgmma-split, --tile-cluster-c, --ieee-tensor-cores);
/// call before parsing the command line.
void registerCodegenCLOptions();

/// The category of fusecc's own command-line options: the tools hide every
/// other (LLVM/MLIR) option with it.
llvm::cl::OptionCategory &optionCategory();
/// Copies the parsed code generation options into `options`.
void applyCodegenCLOptions(PipelineOptions &options);
/// Checks the tool-level options that their parsers cannot (the passes
/// check their own knobs): `--tile-wgmma=always` needs an sm_90a chip when
/// the tool emits code for `options.chip` (`forTarget`). Fails with
/// `message`.
llvm::LogicalResult verifyCodegenOptions(const PipelineOptions &options,
                                         bool forTarget, std::string &message);

/// Path of libdevice under `options.cudaPath`, or failure with a message.
llvm::FailureOr<std::string> findLibdevice(const PipelineOptions &options,
                                           std::string &message);

/// fuse graph -> tiled fuse.kernel ops.
void buildFusionPipeline(mlir::OpPassManager &pm,
                         const PipelineOptions &options);
/// tiled kernels -> gpu.func kernels + gpu.launch_func host functions.
void buildGPUPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);
/// gpu.func kernels -> LLVM dialect (NVVM) inside the gpu.module.
void buildNVVMPipeline(mlir::OpPassManager &pm,
                       const PipelineOptions &options);
/// gpu.module (NVVM) -> gpu.binary holding PTX.
void buildPTXPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Runs a lowering pipeline that should never fail on a graph the verifiers
/// and `fuse-tile-kernels` accepted (`stage` names it: "NVVM", "PTX").
/// Errors it raises (an internal failure, e.g. a pattern that does not
/// apply) are not passed on with their IR dumps: one located error
/// "internal error while lowering to <stage>: <first message>" is emitted
/// instead.
llvm::LogicalResult
runLoweringPipeline(mlir::ModuleOp module, llvm::StringRef stage,
                    llvm::function_ref<void(mlir::OpPassManager &)> build);

} // namespace fusecc

#endif // FUSECC_PIPELINE_PIPELINE_H
