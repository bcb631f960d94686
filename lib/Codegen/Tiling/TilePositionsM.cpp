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
#include "fusecc/Support/CheckedArithmetic.h"

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
/// channels per group takes positions on M by default: one full TF32
/// k-step. Measured on the H200 against main's FP32 FMA tiles (docs/perf.md
/// 192): rand37_76 (8 -> 12 channels a group) 0.544 -> 0.282 ms, rand37_23
/// (1 -> 12) 0.111 -> 0.121. Depthwise and other narrow groups keep FMA.
constexpr int64_t kMinInputChannels = 8;
/// Positions of a W phase from which a one-group layer takes positions on
/// M by default (prefersPositionsOnM): generators' RGB layers, 16-32, lost
/// 1-21%; at 64 rand37_40 and 38 won (0.86, 0.74) but the RGB layers of
/// dcgan_generator and residual_decoder (64, k4 s2 like the generators'),
/// not measured, would change too.
constexpr int64_t kMinPhasePositions = 128;
/// Positions of a W phase from which a one-group TF32 layer takes
/// positions on M where its grid is at least `kShortPhaseMinWaves` waves
/// (current rules): the generators' 64 -> 3 RGB layers at batch 128 (k4
/// s2 to 64 x 64, 32 positions a phase, 2048 blocks): rand37_gen2_b128's
/// 65.5 -> 54.8 us, held out rand41_gen1_b128 37.4 -> 29.1, rand45_gen2_b128
/// 65.6 -> 55.3 (H200, docs/perf.md 317; under CUDA graphs 318: gen2_b128
/// 359.7 -> 350.0 us, 1.35x torch.compile). Not at 16 positions (gen0 /
/// gen3_b128, 32 x 32: 1.03 / 1.12 of main's graph time in 192) nor at
/// batch 16 (gen1_b16 / gen2_b16, two waves: 1.17 / 1.21 in 192).
constexpr int64_t kMinShortPhasePositions = 32;
/// Waves of blocks (of the positions-on-M grid) that such a layer needs.
constexpr int64_t kShortPhaseMinWaves = 8;
/// Output channels of such a layer at most (RGB / RGBA heads).
constexpr int64_t kShortPhaseMaxChannels = 4;
/// Input channels a one-group layer needed for positions on M by default
/// before session 42; `--tile-rules=session37` (the rules before session
/// 38, the first with positions on M) keeps this bound.
constexpr int64_t kMinOneGroupInputChannelsSession37 = 16;
/// True if `a` is a 2-D one-group layer of at most kShortPhaseMaxChannels
/// output channels at W stride 2, the measured domain of
/// kMinShortPhasePositions (3-D layers and the decoders' 8-channel layers
/// at 32-127 positions a phase are not measured so).
bool shortPhaseRGB(const KernelAnalysis &a) {
  const ConvGeometry &g = a.geom;
  return g.groups == 1 && g.k[0] == 1 && g.out[0] == 1 &&
         g.cout <= kShortPhaseMaxChannels && g.stride[2] == 2;
}
} // namespace

TileConfigAttr fuse::choosePositionsOnMConfig(KernelOp kernel,
                                              const KernelAnalysis &a,
                                              KernelTypesAttr types,
                                              int64_t maxTileW,
                                              int64_t forcedRows,
                                              int64_t forcedCiChunk,
                                              int64_t mergeH,
                                              TileRules rules) {
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
    // otherwise (half operands: one k16 step), as on channels-on-M tiles;
    // 32 for a one-group layer of at most 2 taps a phase whose channels
    // fill 32 as well as 16, as there (a round then carries twice the
    // MMAs between two barriers): rand37_36 (96 -> 3, 2 x 1 taps a phase)
    // 1.412 -> 1.183 ms; grouped rand37_43 (2 taps a phase) 3.625 -> 3.695
    // keeps 16 (H200, docs/perf.md 192).
    const bool wide = rulesSince(rules, TileRules::Session37) &&
                      g.groups == 1 && !half && !types.usesSplitTF32() &&
                      !mergeH && tapsPerPhase(g) <= 2 && cinK > 16 &&
                      llvm::alignTo(cinK, 32) == llvm::alignTo(cinK, 16);
    const int64_t ciChunk = forcedCiChunk ? llvm::alignTo(forcedCiChunk, kStep)
                            : cinK <= kStep || half ? kStep
                            : wide                  ? 32
                                                    : 16;
    TileConfigFields f =
        mmaSyncFields(types, sw, sw * positions, channels, /*warpsC=*/1, warpsW,
                      tilesC, tilesW, ciChunk);
    f.rows = rows;
    f.mergeHTaps = mergeH;
    f.mmaPositionsM = 1;
    TileConfigAttr cfg = makeConfig(kernel, f);
    if (!cfg)
      return {};
    // Four rows only where their blocks are as many as the register
    // budget allows (`fillsResidentThreads`): issue 37's held-out
    // rand43_48 (48 -> 3 channels, 2-warp blocks of 40 KB at 4 rows, five
    // an SM of eight) 0.47 of its time at 2 rows (H200, docs/perf.md 234,
    // 253).
    if (rows == 1 || forcedRows ||
        (SharedMemoryPlan::get(a, cfg).bytes() <=
             twoBlocksSharedBytes(a.target) &&
         (rows < 4 || !rulesSince(rules, TileRules::Current) ||
          fillsResidentThreads(a, cfg))))
      return cfg;
  }
  return {};
}

bool fuse::prefersPositionsOnM(const KernelAnalysis &a, TileRules rules,
                               const TunedChoice &knobs) {
  const ConvGeometry &g = a.geom;
  // One-group layers of at most 8 output channels (the channels-on-M
  // tiles fill at most half of mma.sync's M of 16, an eighth of wgmma's 64):
  // half the MMAs for the same shared-memory loads. Forced on 9 such
  // layers of the seed-37 set (H200, docs/perf.md 192), against main's
  // tiles: rand37_40 13.74 -> 11.87 ms, rand37_5 0.441 -> 0.370, rand37_25
  // 0.402 -> 0.359, rand37_78 0.701 -> 0.607, rand37_44 1.543 -> 1.491,
  // rand37_63 (wgmma on main) 2.00 -> 1.72, rand37_36 1.387 -> 1.183 with
  // 32-channel rounds; slower: rand37_3 (1-D, stride 1, 10 taps) 2.01 ->
  // 2.14. Then on the 15 other seed-37 graphs such a rule changed
  // (request 3): rand37_37 / 38 / 87 / 88 0.65-0.76, decoders' 8-channel
  // layers 0.81-0.94, but the RGB layers of generators (rows of 16-32
  // positions a phase) 1.01-1.21 and rand37_46 (a 1x1 kernel: one tap a
  // phase) 1.56. Hence only phases of at least kMinPhasePositions positions
  // and 2 taps: of the 24 measured layers that keeps 9 at 0.65-0.89 and
  // rand37_3 (+7%). Not with a prologue: vae_decoder's RGB layer (upsample
  // folded) took 397 us against 151 on wgmma, whose main loop stages a
  // round ahead while this one waits on the prologue's staging. Not
  // measured, so left as they were: pooled epilogues, channel reductions,
  // tuning entries for the channels-on-M tiles, the older rule set.
  // Whatever the input channels (current rules): the channels-on-M tile
  // wastes the same share of its M (16 rows for <= 8 channels) at any
  // reduction depth, and both tilings pad the input channels to whole
  // k-steps alike. Until session 42 the rule asked for at least 16 input
  // channels (a bound of the plan, never measured; `--tile-rules=session37`
  // keeps it); issue 37's held-out layers of seed 43 with 3 input channels
  // (RGB-input upscoring heads and 1-D / 2-D layers, 3 or 4 output
  // channels) ran on positions on M at 0.44-0.77 of the channels-on-M
  // tile's time: fitted on rand43_63, 21, 37, 64, 19, held out rand43_55
  // (0.65; bench/data/costmodel-seed43-tf32.json, H200, docs/perf.md 234).
  if (g.groups == 1)
    return rulesSince(rules, TileRules::Session37) && g.cout <= 8 &&
           (rulesSince(rules, TileRules::Session42) ||
            g.cinPerGroup() >= kMinOneGroupInputChannelsSession37) &&
           !a.hasPrologue() && !a.pool && !a.needsAllChannels &&
           tapsPerPhase(g) >= 2 &&
           llvm::divideCeil(a.rowWidth(), g.stride[2]) >=
               (rulesSince(rules, TileRules::Current) && shortPhaseRGB(a)
                    ? kMinShortPhasePositions
                    : kMinPhasePositions) &&
           !knobs.tileC && !knobs.warpsC && !knobs.wgmma && !knobs.wgmmaSplit &&
           !knobs.clusterC;
  // Grouped layers whose groups' channels are not whole 16-channel tiles
  // have no channels-on-M tiling (a block would reach into the next
  // group's channels) and ran on FP32 FMA: issue 37's rand37_43 (256 -> 2
  // channels per group, 2 groups) 5.97 -> 3.59 ms, rand37_18 (32 -> 12, 8
  // groups) 2.82 -> 1.93 (H200, docs/perf.md 192).
  return g.groups > 1 && g.coutPerGroup() % 16 != 0 &&
         g.coutPerGroup() <= 8 * kMaxChannelTiles &&
         g.cinPerGroup() >= kMinInputChannels && !a.needsAllChannels;
}

int64_t fuse::positionsOnMMinBlocks(const KernelAnalysis &a) {
  const ConvGeometry &g = a.geom;
  if (g.groups == 1 && shortPhaseRGB(a) &&
      llvm::divideCeil(a.rowWidth(), g.stride[2]) < kMinPhasePositions)
    return saturatingMul(kShortPhaseMinWaves, a.target.numSMs());
  return a.target.numSMs();
}
