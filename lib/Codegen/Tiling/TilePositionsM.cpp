//===- TilePositionsM.cpp - mma.sync tiles with positions on M ------------===//
//
// The cost model's mma.sync tiling of layers of few output channels per
// group: the MMA's M side (16 rows) takes output positions of one W stride
// phase, its N side (8 columns) the channels, K the input channels of each
// valid tap (`TileConfigAttr::positionsOnM`), and the rule that picks it.
//
//===----------------------------------------------------------------------===//

#include "TileChoiceInternal.h"

#include "fusecc/Codegen/GPUPlan.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// 8-channel N tiles a block holds at most: 16 channels per group.
constexpr int64_t kMaxChannelTiles = 2;

/// Accumulator tiles (4 registers each) one warp holds at most per row, and
/// over all of its rows: 64 accumulator registers, as on mma.sync's
/// channels-on-M tiling.
constexpr int64_t kMaxTiles = 16;

/// Input channels per group from which a grouped layer of few output
/// channels per group takes positions on M by default: each k-step is then
/// at least half real channels. Depthwise and other narrow groups (a k-step
/// of 8 holding 1-4 real channels, an N of 8 holding 1-2) keep FP32 FMA.
constexpr int64_t kMinInputChannels = 16;
} // namespace

TileConfigAttr fuse::choosePositionsOnMConfig(KernelOp kernel,
                                              const KernelAnalysis &a,
                                              KernelTypesAttr types,
                                              int64_t maxTileW,
                                              int64_t forcedRows,
                                              int64_t forcedCiChunk,
                                              int64_t mergeH) {
  const ConvGeometry &g = a.geom;
  // A block's channels are all of its group's (its inputs are that
  // group's), or all of a one-group layer's; a channel reduction needs all
  // of the layer's in one block.
  const int64_t channels = g.groups > 1 ? g.coutPerGroup() : g.cout;
  if (channels > 8 * kMaxChannelTiles || (a.needsAllChannels && g.groups > 1))
    return {};
  const int64_t tilesC = llvm::divideCeil(channels, 8);
  const int64_t sw = g.stride[2];
  // Positions per phase in 16-position M tiles: the whole row if a
  // reduction needs it, else the multiple of 16 that wastes least.
  const int64_t positions = positionsPerPhase(
      a, sw, std::max<int64_t>(16, maxTileW / sw), /*tileOverhead=*/8,
      /*quantum=*/16);
  const int64_t mTiles = positions / 16;
  int64_t warpsW = mTiles % 2 == 0 ? 2 : 1;
  int64_t tilesW = mTiles / warpsW;
  while (sw * warpsW > 16 && warpsW > 1)
    warpsW /= 2, tilesW *= 2;
  if (sw * warpsW * a.target.warpSize() > a.target.maxThreadsPerBlock() ||
      tilesC * tilesW > kMaxTiles)
    return {};
  const int64_t rowsNeeded = llvm::divideCeil(g.out[1], g.stride[1]);
  const bool half = types.usesHalfOperands();
  const int64_t kStep = a.target.mmaShape(types.getOperand())->k;
  const int64_t cinK = llvm::alignTo(g.cinPerGroup(), kStep);
  for (int64_t rows : {4, 2, 1}) {
    if (forcedRows && rows != forcedRows)
      continue;
    if (rows > 1 && (rows * tilesC * tilesW > kMaxTiles || rows > rowsNeeded))
      continue;
    // Input channels per round: one k-step where the group has no more, 16
    // otherwise (half operands: one k16 step), as on channels-on-M tiles.
    const int64_t ciChunk = forcedCiChunk ? llvm::alignTo(forcedCiChunk, kStep)
                            : cinK <= kStep || half ? kStep
                                                    : 16;
    TileConfigAttr cfg = TileConfigAttr::getChecked(
        [&] { return kernel.emitOpError(); }, kernel.getContext(),
        sw * positions, channels, /*threadsW=*/sw * 8,
        /*threadsC=*/warpsW * 4, /*chanPerThread=*/int64_t{1}, ciChunk, types,
        /*mmaWarpsC=*/int64_t{1}, warpsW, tilesC, tilesW, rows, mergeH,
        /*wgmmaN=*/int64_t{0}, /*wgmmaGroups=*/int64_t{0},
        /*clusterC=*/int64_t{1}, /*mmaPositionsM=*/int64_t{1});
    if (!cfg)
      return {};
    if (rows == 1 || forcedRows ||
        SharedMemoryPlan::get(a, cfg).bytes() <= twoBlocksSharedBytes(a.target))
      return cfg;
  }
  return {};
}

bool fuse::prefersPositionsOnM(const KernelAnalysis &a) {
  const ConvGeometry &g = a.geom;
  // Grouped layers whose groups' channels are not whole 16-channel tiles
  // have no channels-on-M tiling (a block would reach into the next
  // group's channels) and ran on FP32 FMA: issue 37's rand37_43 (256 -> 2
  // channels per group, 2 groups) at 0.40x torch.compile (docs/perf.md
  // 163, 176).
  return g.groups > 1 && g.coutPerGroup() % 16 != 0 &&
         g.coutPerGroup() <= 8 * kMaxChannelTiles &&
         g.cinPerGroup() >= kMinInputChannels && !a.needsAllChannels;
}
