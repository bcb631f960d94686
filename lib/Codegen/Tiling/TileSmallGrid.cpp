//===- TileSmallGrid.cpp - Tensor-core tiles of grids under half a wave ---===//
//
// The cost model's tiles for layers whose default tensor-core grid leaves
// most of the chip idle: a small generator at batch 1 or 16 (a 512 -> 256
// layer from 4 x 4 to 8 x 8 has 64 output positions a sample). Each block
// of such a grid runs the whole reduction (512 input channels x 4 taps) in
// rounds it cannot overlap with other blocks', so the layer's time is the
// rounds of one block, whatever its size. Two rules (docs/perf.md 285):
//
// - where the wgmma tiling's grid is under half a wave and mma.sync would
//   take the layer, wgmma blocks of 64 channels with rounds of 32 input
//   channels, where their grid suffices (`smallGridWgmma`): at batch 16
//   rand37_gen2's 512 -> 256 layer 128 blocks instead of 64 (128 channels
//   or two samples a block), 70.5 -> 26.4 us (+4.5 us weight re-layout)
//   against mma.sync's 128 blocks of 4 rows x 64 channels;
// - where the mma.sync grid is at most a quarter wave (the measured
//   generators' 2 to 32 blocks; decoder2d's 64-block first layer keeps its
//   tile, unmeasured), blocks of fewer rows, then fewer channels, until the
//   grid reaches half a wave (or one row of 16 channels), with rounds of 32
//   input channels (`withSmallGridRows`): at batch 1
//   gen2's 512 -> 256 layer 8 -> 128 blocks, 71.4 -> 26.5 us; the whole
//   generator's kernels 150.6 -> 61.9 us.
//
//===----------------------------------------------------------------------===//

#include "TileChoiceInternal.h"

#include "fusecc/Codegen/GPUPlan.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// Input channels per round of the small-grid tiles: a round of 16 leaves
/// a block's staging latency-bound (gen2_b1's 512 -> 256 layer at one row
/// of 16 channels: 35.2 us at 16, 26.5 at 32, 29.8 at 64; docs/perf.md
/// 285).
constexpr int64_t kSmallGridCiChunk = 32;

/// The input channels per round of the small-grid tiles of kernel `a` of
/// `types`: half operands take twice kSmallGridCiChunk, the bytes of TF32's
/// round (gen2_b16's 512 -> 256 / 256 -> 128 layers 17.9 / 11.5 us at 32
/// half channels, 15.0 / 9.5 at 64; gen2_b1 equal; docs/perf.md 315), but
/// no more than the input's channels in whole k16 steps.
int64_t smallGridCiChunk(const KernelAnalysis &a, KernelTypesAttr types) {
  if (!types.usesHalfOperands())
    return kSmallGridCiChunk;
  return std::min<int64_t>(2 * kSmallGridCiChunk,
                           llvm::alignTo(a.geom.cinPerGroup(), 16));
}

/// True if `knobs` leave every tensor-core choice to the cost model.
bool untuned(const TunedChoice &knobs) {
  return !knobs.rows && !knobs.ciChunk && !knobs.tileC && !knobs.warpsC &&
         !knobs.mergeH && !knobs.wgmma && !knobs.wgmmaSplit &&
         !knobs.clusterC && !knobs.positionsM && !knobs.samples &&
         !knobs.phaseSplit && !knobs.clusterK &&
         knobs.maxTileW == kDefaultMaxTileW;
}

/// True if kernel `a` of tensor-core types `types` may take the small-grid
/// rules: TF32 or half operands (docs/perf.md 285, 315), one group, an
/// elementwise epilogue through the output tile (no pooling, reduction,
/// whole rows or channel epilogue), a static batch, at least one round of
/// `kSmallGridCiChunk` input channels, and the current rules (the older
/// sets, `--tile-rules=session42` and before, leave them out).
bool smallGridLayer(const KernelAnalysis &a, KernelTypesAttr types,
                    const TunedChoice &knobs, TileRules rules) {
  return rulesSince(rules, TileRules::Current) && untuned(knobs) &&
         (isa<FloatTF32Type>(types.getOperand()) || types.usesHalfOperands()) &&
         !types.usesSplitTF32() && a.geom.groups == 1 && !a.wholeRow() &&
         !a.needsAllChannels && !a.channelEpilogue() && a.reductions.empty() &&
         !a.perSampleLaunch && a.geom.cinPerGroup() >= kSmallGridCiChunk;
}

/// Half the target's SMs: the grid below which the rules apply.
int64_t halfWave(const KernelAnalysis &a) { return a.target.numSMs() / 2; }

} // namespace

TileConfigAttr fuse::smallGridWgmma(KernelOp kernel, const KernelAnalysis &a,
                                    KernelTypesAttr types,
                                    const TunedChoice &knobs, TileConfigAttr wg,
                                    TileRules rules) {
  if (!wg || !smallGridLayer(a, types, knobs, rules) ||
      LaunchPlan::get(a, wg).gridX >= halfWave(a) || a.geom.cout < 64)
    return {};
  TileConfigAttr cfg =
      chooseWgmmaConfig(kernel, a, types, knobs.maxTileW, /*forcedRows=*/0,
                        smallGridCiChunk(a, types),
                        /*forcedTileC=*/64, /*forcedSplit=*/0, /*mergeH=*/0,
                        /*forcedCluster=*/0, rules);
  if (!cfg || cfg.getTileC() != 64 ||
      failed(checkLimits(kernel, a, cfg, /*report=*/false)) ||
      LaunchPlan::get(a, cfg).gridX <= LaunchPlan::get(a, wg).gridX)
    return {};
  return cfg;
}

TileConfigAttr fuse::withSmallGridRows(KernelOp kernel, const KernelAnalysis &a,
                                       KernelTypesAttr types,
                                       const TunedChoice &knobs,
                                       TileConfigAttr mma, TileRules rules) {
  // Not the long phases of large W strides (a tile longer than the
  // default, chosen for its positions a phase; test/Reference/
  // long-kernel-staging.mlir): their rounds stage every phase's weights.
  if (!mma || mma.usesWgmma() || mma.positionsOnM() ||
      mma.getTileW() > knobs.maxTileW ||
      !smallGridLayer(a, types, knobs, rules) ||
      4 * LaunchPlan::get(a, mma).gridX > a.target.numSMs())
    return mma;
  // Rows first (each staged weight then serves fewer positions, but no
  // input is staged twice), then channels, halving each: the first config
  // whose grid reaches half a wave, else the smallest.
  TileConfigAttr best = mma;
  for (int64_t tileC = mma.getTileC(); tileC >= 16; tileC /= 2) {
    for (int64_t rows = tileC == mma.getTileC() ? mma.getRows() : 1; rows >= 1;
         rows /= 2) {
      TileConfigAttr cfg =
          chooseMMAConfig(kernel, a, types, knobs.maxTileW, rows,
                          smallGridCiChunk(a, types), tileC,
                          /*forcedWarpsC=*/0, /*mergeH=*/0, rules);
      if (!cfg || cfg.getRows() != rows ||
          failed(checkLimits(kernel, a, cfg, /*report=*/false)))
        continue;
      best = cfg;
      if (LaunchPlan::get(a, cfg).gridX >= halfWave(a))
        return best;
    }
    if (tileC % 32 != 0)
      break;
  }
  return best;
}
