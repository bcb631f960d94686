//===- TilePhaseSplit.cpp - wgmma blocks whose warpgroups split W phases --===//
//
// The cost model's choice of wgmma blocks whose W stride phases are spread
// over warpgroups (`TileConfigAttr::wgmmaPhaseSplit`): at W strides of 8 or
// more a warpgroup that holds every phase's accumulators has an N of 8-16
// positions, and each m64nNk8 then reads its 2 KB weight operand from
// shared memory for that few positions (shared memory, not the tensor
// cores, bounds such kernels: docs/perf.md 196). Warpgroups of a few phases
// each take N = 32-128 with the same accumulators per thread.
// With positions on M (`mmaPositionsM`) a phase's 64 positions are the M
// of its wgmma and the block's few channels (rounded up to 8) its N: a
// 21-channel layer then fills 21 of 24 N columns instead of 21 of 64 M
// rows, and its output tile holds 24 lines instead of 64.
//
//===----------------------------------------------------------------------===//

#include "TileChoiceInternal.h"

#include "fusecc/Codegen/GPUPlan.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// Accumulators per thread of a phase-split block (its phases x N / 2):
/// 512-thread blocks keep 128 registers a thread, one block per SM.
constexpr int64_t kPhaseSplitAccumulators = 64;

/// Positions a phase with positions on M: the M of one wgmma.
constexpr int64_t kPositionsMPerPhase = 64;

/// W phases a warpgroup holds where the cost model takes positions on M:
/// a split of stride / 4 warpgroups (stride 8: 2 warpgroups of 256
/// threads, 48-64 accumulators, two blocks per SM; stride 16: 4 of 512).
/// Measured against 2 phases a warpgroup (docs/perf.md 261): rand43_10
/// 0.313 against 0.473 ms, rand37_70 0.329 / 0.474, rand37_21 1.50 / 1.88
/// at stride 8; at stride 16 the 4 phases of a split of 4 against 8 of a
/// split of 2: rand37_65 0.391 / 0.955 (255 registers, spills), rand37_90
/// 1.78 / 1.65.
constexpr int64_t kPositionsMPhases = 4;

/// Output channels (rounded up to 8) for which the cost model takes
/// positions on M: a 64-channel M at most half used (at most 32), and more
/// than 16 (mma.sync kept rand37_26's 3 channels faster: 1.19 against
/// 1.47 ms; 9-16 channels were not measured).
constexpr int64_t kMinPositionsMChannels = 24, kMaxPositionsMChannels = 32;

/// Warpgroups that split the phases where the cost model chooses them.
constexpr int64_t kDefaultPhaseSplit = 4;

/// Smallest W stride at which the cost model splits phases (a warpgroup of
/// all phases has N <= 16 there).
constexpr int64_t kMinPhaseSplitStride = 8;

/// Fewest positions a phase (the split config's N) for which the cost model
/// splits phases: at N = 32 (rows of 32 input positions) a round stages as
/// many weight bytes per output as before, and the one 512-thread block per
/// SM lost to two smaller ones (rand37_57 1.14 -> 1.46 ms, rand37_14 0.19
/// -> 0.23); at 64 it won (rand37_85 2.76 -> 2.13, fcn_up8 0.65 -> 0.58;
/// docs/perf.md 229).
constexpr int64_t kMinPhaseSplitN = 64;

/// True if kernel `a` can spread its W phases over `split` warpgroups:
/// every phase has the same W taps (kernel width a multiple of the stride,
/// no W dilation), so that a warpgroup's phases are a runtime value with
/// compile-time tap counts; one group; an epilogue stored through the
/// block's output tile (no pooling, reduction or channel epilogue).
bool phaseSplitValid(const KernelAnalysis &a, KernelTypesAttr types,
                     int64_t split) {
  const ConvGeometry &g = a.geom;
  const int64_t sw = g.stride[2];
  return split > 1 && sw % split == 0 && g.k[2] % sw == 0 && g.dil[2] == 1 &&
         g.groups == 1 && !a.needsAllChannels && !a.wholeRow() && !a.pool &&
         !a.channelEpilogue() && !types.usesSplitTF32();
}

/// The phase-split config of `split` warpgroups, 64 channels and one row,
/// N = the positions a phase's accumulators allow (at most the phase's),
/// the larger input-channel chunk that fits; null where none fits. With
/// `positionsM`, each phase's positions are its wgmma's M (at most 64) and
/// the block's channels its N (`mmaPositionsM`).
TileConfigAttr phaseSplitConfig(KernelOp kernel, const KernelAnalysis &a,
                                KernelTypesAttr types, int64_t split,
                                bool positionsM) {
  const ConvGeometry &g = a.geom;
  const int64_t sw = g.stride[2], phases = sw / split;
  const int64_t phaseWidth = llvm::divideCeil(g.out[2], sw);
  const int64_t n = std::clamp<int64_t>(
      std::min<int64_t>(positionsM ? kPositionsMPerPhase
                                   : 2 * kPhaseSplitAccumulators / phases,
                        llvm::alignTo(phaseWidth, 8)) /
          8 * 8,
      8, 256);
  // Positions on M read 64 staged columns a phase: rows of at least 64
  // positions a phase, whose staged span covers them.
  if (positionsM && n != kPositionsMPerPhase)
    return {};
  std::optional<MmaShape> shape = a.target.mmaShape(types.getOperand());
  if (!shape)
    return {};
  const int64_t kStep = shape->k;
  const int64_t cinK =
      std::max<int64_t>(kStep, llvm::alignTo(g.cinPerGroup(), kStep));
  const int64_t threads = 128 * split;
  if (threads > a.target.maxThreadsPerBlock())
    return {};
  for (int64_t tf32Chunk : {16, 8}) {
    const int64_t ciChunk = std::min(kStep / 8 * tf32Chunk, cinK);
    TileConfigFields f =
        wgmmaFields(types, sw, n, /*tileC=*/64, /*groups=*/split,
                    llvm::alignTo(ciChunk, kStep));
    f.wgmmaPhaseSplit = split;
    f.mmaPositionsM = positionsM ? 1 : 0;
    TileConfigAttr cfg = makeConfig(kernel, f);
    if (cfg && succeeded(checkLimits(kernel, a, cfg, /*report=*/false)))
      return cfg;
  }
  return {};
}

} // namespace

TileConfigAttr fuse::withPhaseSplit(KernelOp kernel, const KernelAnalysis &a,
                                    const TunedChoice &knobs, TileConfigAttr wg,
                                    TileRules rules) {
  if (!wg || knobs.phaseSplit < 0 || wg.spansSamples())
    return wg;
  if (knobs.phaseSplit > 0) {
    if (!phaseSplitValid(a, wg.getTypes(), knobs.phaseSplit))
      return wg;
    // Positions on M where they fit (phases of 64 positions), else the
    // plain split.
    TileConfigAttr cfg;
    if (knobs.positionsM == 1)
      cfg = phaseSplitConfig(kernel, a, wg.getTypes(), knobs.phaseSplit,
                             /*positionsM=*/true);
    if (!cfg)
      cfg = phaseSplitConfig(kernel, a, wg.getTypes(), knobs.phaseSplit,
                             /*positionsM=*/false);
    return cfg ? cfg : wg;
  }
  // The cost model: unforced, where a warpgroup of every phase holds at
  // most 16 positions of each, the split holds at least kMinPhaseSplitN,
  // and the grid still fills the chip.
  if (!rulesSince(rules, TileRules::Session42) || knobs.rows || knobs.tileC ||
      knobs.ciChunk || knobs.mergeH || knobs.wgmmaSplit || knobs.wgmma ||
      knobs.clusterC || a.geom.stride[2] < kMinPhaseSplitStride ||
      wg.getWgmmaN() > 16 ||
      !phaseSplitValid(a, wg.getTypes(), kDefaultPhaseSplit))
    return wg;
  TileConfigAttr cfg =
      phaseSplitConfig(kernel, a, wg.getTypes(), kDefaultPhaseSplit,
                       /*positionsM=*/false);
  if (!cfg || cfg.getWgmmaN() < kMinPhaseSplitN ||
      LaunchPlan::get(a, cfg).gridX < a.target.numSMs())
    return wg;
  return cfg;
}

TileConfigAttr fuse::positionsOnMPhases(KernelOp kernel,
                                        const KernelAnalysis &a,
                                        const TunedChoice &knobs,
                                        KernelTypesAttr types,
                                        TileRules rules) {
  const ConvGeometry &g = a.geom;
  // Asked for: `positions-m=1` with `phase-split=S`.
  if (knobs.positionsM == 1 && knobs.phaseSplit > 0)
    return phaseSplitValid(a, types, knobs.phaseSplit)
               ? phaseSplitConfig(kernel, a, types, knobs.phaseSplit,
                                  /*positionsM=*/true)
               : TileConfigAttr();
  if (rules != TileRules::Current || knobs.phaseSplit || knobs.positionsM ||
      knobs.rows || knobs.tileC || knobs.ciChunk || knobs.mergeH ||
      knobs.wgmmaSplit || knobs.wgmma || knobs.clusterC ||
      knobs.maxTileW != kDefaultMaxTileW || g.stride[2] < kMinPhaseSplitStride)
    return {};
  const int64_t split = g.stride[2] / kPositionsMPhases;
  const int64_t channels = llvm::alignTo(g.coutPerGroup(), 8);
  if (g.stride[2] % kPositionsMPhases != 0 || (split != 2 && split != 4) ||
      channels < kMinPositionsMChannels || channels > kMaxPositionsMChannels ||
      !phaseSplitValid(a, types, split))
    return {};
  TileConfigAttr cfg =
      phaseSplitConfig(kernel, a, types, split, /*positionsM=*/true);
  if (!cfg || LaunchPlan::get(a, cfg).gridX < a.target.numSMs())
    return {};
  return cfg;
}
