//===- TileKernels.cpp - fuse-tile-kernels --------------------------------===//
//
// Implements `fuse-tile-kernels`: attaches the tile config that the cost
// model (fusecc/Codegen/Tiling/TileChoice.h) chooses to every convolution
// kernel, with the pass options and the kernel's tuning-file entry as its
// knobs.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Codegen/Tiling/TileChoice.h"
#include "fusecc/Codegen/Tiling/TuningFile.h"
#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"
#include "fusecc/Dialect/Fuse/Transforms/Passes.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/IR/TypeUtilities.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSETILEKERNELS
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// True if `conv` is pinned to FP32 FMA (kConvPrecisionAttrName =
/// #fuse.conv_math<ieee>); emits an error and fails for any other value.
FailureOr<bool> isPinnedToIeee(ConvTransposeOp conv) {
  Attribute pin = conv->getAttr(kConvPrecisionAttrName);
  if (!pin)
    return false;
  auto math = dyn_cast<ConvMathAttr>(pin);
  if (!math || math.getValue() != ConvMath::IEEE) {
    conv.emitOpError("expected '")
        << kConvPrecisionAttrName
        << "' to be #fuse.conv_math<ieee> (the convolution pinned to FP32 "
           "FMA), got "
        << pin;
    return failure();
  }
  return true;
}

struct TileKernelsPass
    : public fusecc::fuse::impl::FuseTileKernelsBase<TileKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(checkTunedChoice(getOperation(),
                                {rows, ciChunk, tileC, 0, 0, warpsC, mergeHTaps,
                                 0, wgmmaSplit, clusterC, positionsM, samples,
                                 phaseSplit, clusterK})))
      return signalPassFailure();
    const TargetInfo target = getTargetInfo(getOperation());
    if (maxTileW < 8 || threads < target.warpSize() ||
        threads > target.maxThreadsPerBlock()) {
      getOperation().emitError("fuse-tile-kernels: max-tile-w must be >= 8 "
                               "and threads in [")
          << target.warpSize() << ", " << target.maxThreadsPerBlock()
          << "], got max-tile-w=" << static_cast<int64_t>(maxTileW)
          << " threads=" << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    if (maxTileW > kMaxMaxTileW) {
      getOperation().emitError("fuse-tile-kernels: max-tile-w must be at most ")
          << kMaxMaxTileW << ", got " << static_cast<int64_t>(maxTileW);
      return signalPassFailure();
    }
    llvm::StringMap<TunedChoice> tuned;
    // A tuning directory gives the file of the target's device.
    const std::string tuningPath = resolveTuningFile(tuningFile, target);
    if (!tuningPath.empty()) {
      FailureOr<llvm::StringMap<TunedChoice>> read =
          readTuningFile(getOperation().getLoc(), tuningPath);
      if (failed(read))
        return signalPassFailure();
      tuned = std::move(*read);
    }
    WalkResult r = getOperation().walk([&](KernelOp kernel) {
      // Kernels without a convolution are laid out by fuse-plan-kernels.
      if (kernelKindOf(kernel) != KernelKind::Convolution)
        return WalkResult::advance();
      FailureOr<KernelAnalysis> a = KernelAnalysis::analyze(kernel);
      if (failed(a))
        return WalkResult::interrupt();
      // A dynamic batch (`fuse.max_batch`): the per-sample kernel runs for
      // every sample (grid z), so its tiles are chosen for the bound, as
      // the static kernel of that batch's (the same grid thresholds and
      // tuning key); blocks enumerate the batch outermost, so the tiles
      // serve one sample as they serve N (docs/design/plans.md).
      // Its blocks never span samples (`TileConfigAttr::samples`): the
      // kernel sees one.
      if (auto bound = getOperation()
                           ->getParentOfType<ModuleOp>()
                           ->getAttrOfType<IntegerAttr>(kMaxBatchAttr)) {
        a->geom.n = saturatingMul(a->geom.n, std::max<int64_t>(
                                                 1, bound.getInt()));
        a->perSampleLaunch = true;
      }
      // A convolution pinned to FP32 (kConvPrecisionAttrName: the small
      // convolution of fuse-reduce-through-conv) takes the FMA path in
      // every mode.
      FailureOr<bool> pinnedIeee = isPinnedToIeee(a->conv);
      if (failed(pinnedIeee))
        return WalkResult::interrupt();
      // The kernel's math, from the requested precision and the graph's
      // storage type (convStorageType: bf16/f16 where the graph stores the
      // convolution's operands so; convMathFor); its element types follow
      // from the path the tiling takes (KernelTypesAttr::decide).
      const Type storage = convStorageType(a->conv);
      // Half math with few input channels runs in TF32 (tensorCoreMath).
      const ConvMath math = tensorCoreMath(
          *a,
          convMathFor(static_cast<Precision>(precision), storage, *pinnedIeee),
          storage);
      // Options set on the command line win over measured choices.
      TunedChoice knobs{rows,       ciChunk,  tileC,      threads,
                        maxTileW,   warpsC,   mergeHTaps, 0,
                        wgmmaSplit, clusterC, positionsM, samples,
                        phaseSplit, clusterK};
      std::string which;
      if (std::optional<TunedChoice> entry =
              lookupTunedChoice(tuned, kernel, *a, math, which)) {
        knobs = mergeTunedChoice(knobs, *entry);
        std::string source = "tuning file '" + tuningPath + "' " + which;
        if (failed(checkTunedChoice(kernel, knobs, source)))
          return WalkResult::interrupt();
      }
      FailureOr<TileConfigAttr> cfg =
          chooseTileConfig(kernel, *a, math, storage, *pinnedIeee, wgmma,
                           ieeeTensorCores, rules, knobs);
      if (failed(cfg))
        return WalkResult::interrupt();
      kernel.setConfigAttr(*cfg);
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
