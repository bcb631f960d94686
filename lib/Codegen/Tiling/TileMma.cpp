//===- TileMma.cpp - The mma.sync tiling of the tile cost model -----------===//
//
// The cost model's mma.sync tiling (channels on M): channel and position
// warps, tiles per warp, rows per block and input channels per round.
// Positions on M are in TilePositionsM.cpp.
//
//===----------------------------------------------------------------------===//

#include "TileChoiceInternal.h"

#include "fusecc/Codegen/GPUPlan.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// Taps per phase up to which mma.sync rounds take 32 input channels where
/// that costs no shared memory (chooseMMAConfigWithWarps).
constexpr int64_t kWideChunkMaxTapsPerPhase = 2;

/// `chooseMMAConfig` for a given number of channel warps.
TileConfigAttr chooseMMAConfigWithWarps(
    KernelOp kernel, const KernelAnalysis &a, KernelTypesAttr types,
    int64_t maxTileW, int64_t forcedRows, int64_t forcedCiChunk, int64_t mTiles,
    int64_t warpsC, int64_t mergeH, TileRules rules) {
  const ConvGeometry &g = a.geom;
  int64_t sw = g.stride[2];
  int64_t tilesC = llvm::divideCeil(mTiles, warpsC);
  // A grouped block's channels are exactly one group's sub-block: rounded
  // up to whole warps they would reach into the next group's channels,
  // which read this group's inputs.
  if (tilesC > 4 || (g.groups > 1 && tilesC * warpsC != mTiles))
    return {};
  // Positions per phase: the whole row if a reduction needs it, else the
  // multiple of 8 that wastes least (plus a small per-tile overhead).
  int64_t positions = positionsPerPhase(
      a, sw, std::max<int64_t>(8, maxTileW / sw), /*tileOverhead=*/8);
  int64_t nTiles = positions / 8;
  int64_t warpsW = nTiles % 2 == 0 ? 2 : 1;
  int64_t tilesW = nTiles / warpsW;
  while (sw * warpsC * warpsW > 16 && warpsW > 1)
    warpsW /= 2, tilesW *= 2;
  if (sw * warpsC * warpsW * a.target.warpSize() >
          a.target.maxThreadsPerBlock() ||
      tilesC * tilesW > 16)
    return {};
  int64_t tileW = sw * positions;
  // Rows of one H phase per block: each staged weight chunk then feeds
  // `rows` times the multiply-adds. Take the most rows that fit the
  // accumulator budget and keep two blocks per SM in shared memory.
  int64_t rowsNeeded = llvm::divideCeil(g.out[1], g.stride[1]);
  for (int64_t rows : {4, 2, 1}) {
    if (forcedRows && rows != forcedRows)
      continue;
    // Input channels per round: 16, or all of them (<= 32) at once when a
    // block has 4 rows, which halves the rounds and barriers (measured on
    // the H100: kb2_20 0.95 -> 0.78 ms, kb2_49 1.19 -> 1.02; with 2 rows
    // and 128 channels the larger staging was slower, see docs/perf.md).
    // Half operands (m16n8k16: the target's mma.sync K for the operand
    // type) take channels 16 at a time (a forced chunk of 8 is rounded
    // up), one k16 step per round: with 32 channels and 4 rows of 2 x 2
    // tiles the two k16 steps' fragments outgrow 128 registers (kb2_49
    // bf16 spilled 96 bytes; 16 channels: 127 registers, no spill;
    // test/fusecc/ptxas-half-mma.test).
    const bool half = types.usesHalfOperands();
    const int64_t kStep = a.target.mmaShape(types.getOperand())->k;
    int64_t cin8 = llvm::alignTo(g.cinPerGroup(), kStep);
    int64_t ciChunk = forcedCiChunk ? llvm::alignTo(forcedCiChunk, kStep)
                      : cin8 <= kStep || half ? kStep
                      : rows == 4 && cin8 <= 32 ? cin8
                                                : 16;
    if (rows > 1 && (rows * tilesC * tilesW > 16 || rows > rowsNeeded ||
                     (!forcedRows && rulesSince(rules, TileRules::Session42) &&
                      rowsShareNoTaps(g))))
      continue;
    // A round that holds every input channel and still fills few of its
    // k-steps (kb2_50: 3 channels in a chunk of 8) costs a barrier and a
    // staging per H tap for little work: stage a phase's H taps together.
    // Unforced, the cost model's tiling of kb2_50 went from 1.15x to 1.03x
    // its tuned time (docs/perf.md 102).
    const bool sparseRounds = g.cinPerGroup() < ciChunk && g.k[1] > g.stride[1];
    TileConfigFields f = mmaSyncFields(types, sw, tileW, 16 * warpsC * tilesC,
                                       warpsC, warpsW, tilesC, tilesW, ciChunk);
    f.rows = rows;
    f.mergeHTaps = mergeH ? mergeH : int64_t{sparseRounds};
    TileConfigAttr cfg = makeConfig(kernel, f);
    if (!cfg)
      return {};
    // Rounds of 32 channels where the block holds one 16-channel tile (a
    // layer of at most 16 output channels) and a phase has at most
    // kWideChunkMaxTapsPerPhase taps (a round of 16 channels then gives
    // each warp at most 2 k-steps x 2 taps of MMAs between two barriers),
    // the staging of 32 fits in the shared memory the block has anyway (it
    // aliases the output tile) and pads no more channels than 16: half the
    // rounds and barriers at no cost in blocks per SM. Issue 37's rand37_36
    // (96 -> 3, 7 x 2 taps at stride 4 x 4: 2 x 1 taps a phase, 33 KB
    // either way) 1.61 -> 1.38 ms; with 48 or 64 channels per block the
    // rounds carry 3-4x the MMAs and 32 channels were slower (rand37_60,
    // 3 channel warps, 3.50 -> 3.88 ms; residual_decoder's 2 x 2 stride-2
    // layers, 0.121 -> 0.132 ms for the graph; H200, docs/perf.md 185).
    if (rules != TileRules::Session35 && !forcedCiChunk && !half &&
        !types.usesSplitTF32() && ciChunk == 16 && !mergeH && !sparseRounds &&
        warpsC * tilesC == 1 && tapsPerPhase(g) <= kWideChunkMaxTapsPerPhase &&
        llvm::alignTo(g.cinPerGroup(), 32) ==
            llvm::alignTo(g.cinPerGroup(), 16)) {
      // `cfg` with rounds of 32 channels (its other fields as they are:
      // one channel a thread, no merged H taps).
      f.ciChunk = 32;
      if (TileConfigAttr wider = makeConfig(kernel, f);
          wider && SharedMemoryPlan::get(a, wider).bytes() <=
                       SharedMemoryPlan::get(a, cfg).bytes())
        cfg = wider;
    }
    if (rows == 1 || forcedRows ||
        SharedMemoryPlan::get(a, cfg).bytes() <= twoBlocksSharedBytes(a.target))
      return cfg;
  }
  return {};
}

} // namespace

TileConfigFields fuse::mmaSyncFields(KernelTypesAttr types, int64_t sw,
                                     int64_t tileW, int64_t tileC,
                                     int64_t warpsC, int64_t warpsW,
                                     int64_t tilesC, int64_t tilesW,
                                     int64_t ciChunk) {
  TileConfigFields f;
  f.tileW = tileW;
  f.tileC = tileC;
  f.threadsW = sw * 8;
  f.threadsC = warpsC * warpsW * 4;
  f.chanPerThread = 1;
  f.ciChunk = ciChunk;
  f.types = types;
  f.mmaWarpsC = warpsC;
  f.mmaWarpsW = warpsW;
  f.mmaTilesC = tilesC;
  f.mmaTilesW = tilesW;
  return f;
}

TileConfigAttr fuse::chooseMMAConfig(KernelOp kernel, const KernelAnalysis &a,
                                     KernelTypesAttr types, int64_t maxTileW,
                                     int64_t forcedRows, int64_t forcedCiChunk,
                                     int64_t forcedTileC, int64_t forcedWarpsC,
                                     int64_t mergeH, TileRules rules) {
  const ConvGeometry &g = a.geom;
  // A block's channels must lie in one group, in whole 16-channel tiles.
  int64_t channels =
      a.needsAllChannels ? g.cout : std::min<int64_t>(g.coutPerGroup(), 64);
  if (g.groups > 1) {
    if (a.needsAllChannels || g.coutPerGroup() % 16 != 0)
      return {};
    channels = 16 * largestDivisorAtMost(g.coutPerGroup() / 16, 4);
  } else if (forcedTileC && !a.needsAllChannels) {
    channels = std::min(forcedTileC, g.cout);
  }
  int64_t mTiles = llvm::divideCeil(channels, 16);
  if (forcedWarpsC)
    return chooseMMAConfigWithWarps(
        kernel, a, types, maxTileW, forcedRows, forcedCiChunk, mTiles,
        std::min(forcedWarpsC, mTiles), mergeH, rules);
  // At most two 16-channel tiles per warp, so that rows fit in registers;
  // if that leaves a block one row only (many positions per warp), more
  // channel warps of one tile each, so that rows can share the weights.
  // Grouped: channel warps that divide the tiles (the next divisor up, and
  // the largest up to 4).
  int64_t warpsC = std::clamp<int64_t>(llvm::divideCeil(mTiles, 2), 1, 4);
  int64_t moreWarpsC = std::min<int64_t>(mTiles, 4);
  if (g.groups > 1) {
    while (mTiles % warpsC != 0)
      ++warpsC;
    moreWarpsC = largestDivisorAtMost(mTiles, 4);
  }
  TileConfigAttr cfg =
      chooseMMAConfigWithWarps(kernel, a, types, maxTileW, forcedRows,
                               forcedCiChunk, mTiles, warpsC, mergeH, rules);
  bool tryMore = !cfg || (cfg.getRows() == 1 && !forcedRows);
  if (tryMore && moreWarpsC > warpsC)
    if (TileConfigAttr alt = chooseMMAConfigWithWarps(
            kernel, a, types, maxTileW, forcedRows, forcedCiChunk, mTiles,
            moreWarpsC, mergeH, rules))
      if (!cfg || alt.getRows() > 1)
        return alt;
  return cfg;
}
