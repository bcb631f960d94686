//===- TileWgmma.cpp - The wgmma tiling of the tile cost model ------------===//
//
// The cost model's choice of a Hopper wgmma tiling: warpgroups per block,
// rows and positions (the wgmma N), rows as one N, input channels per
// round and merged H taps, and a channel softmax's cluster.
//
//===----------------------------------------------------------------------===//

#include "TileChoiceInternal.h"

#include "fusecc/Codegen/GPUPlan.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

/// Accumulators per thread of a wgmma config: at 80 registers of
/// accumulators a 256-thread block still fits two per SM (128 registers).
/// This bounds the positions of one row (the wgmma N) for every block.
static constexpr int64_t kMaxWgmmaAccumulators = 80;

/// Accumulators per thread of a one-warpgroup (128-thread) block: ptxas
/// keeps 96 in 128 registers without spilling (four blocks per SM where
/// shared memory admits them). Two rows of 48-position phases at W stride
/// 2 or of 32 at stride 3, where 80 allowed one: kb2_100 -10% (tf32) and
/// -15% (ieee), four held-out layers -27% to +1.5% (docs/perf.md 130).
static constexpr int64_t kMaxWgmmaAccumulatorsOneGroup = 96;

/// Accumulators per thread of a one-warpgroup block whose rows were forced
/// (tuning variants; ptxas keeps 128 accumulators in about 180 registers).
static constexpr int64_t kMaxWgmmaAccumulatorsForced = 128;

/// Output channels of the two-warpgroup tiles that the cost model takes at
/// 128 or more output channels (two 64-channel warpgroups sharing each
/// staged input row); only layers whose channels fill them take them.
static constexpr int64_t kWideTileChannels = 128;

TileConfigFields fuse::wgmmaFields(KernelTypesAttr types, int64_t sw, int64_t n,
                                   int64_t tileC, int64_t groups,
                                   int64_t ciChunk) {
  TileConfigFields f;
  f.tileW = sw * n;
  f.tileC = tileC;
  f.threadsW = 8;
  f.threadsC = 128 * groups / 8;
  f.chanPerThread = 1;
  f.ciChunk = ciChunk;
  f.types = types;
  f.wgmmaN = n;
  f.wgmmaGroups = groups;
  return f;
}

int64_t fuse::wgmmaAccumulatorBudget(KernelTypesAttr types, int64_t threads,
                                     bool forcedRows) {
  const int64_t budget = threads != 128 ? kMaxWgmmaAccumulators
                         : forcedRows   ? kMaxWgmmaAccumulatorsForced
                                        : kMaxWgmmaAccumulatorsOneGroup;
  return types.usesSplitTF32() ? budget / 2 : budget;
}

/// The longest wgmma N whose merged-tap rounds take two k-steps.
static constexpr int64_t kMaxTwoStepMergedN = 32;

TileConfigAttr fuse::chooseWgmmaConfig(KernelOp kernel, const KernelAnalysis &a,
                                       KernelTypesAttr types, int64_t maxTileW,
                                       int64_t forcedRows,
                                       int64_t forcedCiChunk,
                                       int64_t forcedTileC, int64_t forcedSplit,
                                       int64_t mergeH, int64_t forcedCluster,
                                       TileRules rules) {
  const ConvGeometry &g = a.geom;
  if (g.groups != 1)
    return {};
  const int64_t sw = g.stride[2];
  const int64_t cout64 = llvm::alignTo(g.cout, 64);
  // Rows as one N and at least 128 output channels: two warpgroups of 64
  // channels share each staged input row (staged once for 128 channels),
  // with the rows, chunk and merged taps of the 64-channel choice, where
  // that keeps two blocks per SM. kb1_69 -11%, three layers made for this
  // -8 to -21%; the one with a single block per SM 5% slower (docs/perf.md
  // 131). Not for split operands (unmeasured). Only where the 128-channel
  // tiles are full (`kWideTileChannels`): at 192 channels the last block's
  // second warpgroup has no channel and its staged inputs serve 64
  // (rand37_28 bf16 0.395 ms against 0.317 for 64-channel tiles; held out,
  // the 11 kernels of 192 channels this changes in seeds 41 and 43, tf32
  // and bf16: geomean -5%, 7 faster by 3-33%, 4 slower by 2-15%;
  // docs/perf.md 246-247).
  if (!forcedTileC && !forcedRows && !forcedCiChunk && !forcedSplit &&
      !a.needsAllChannels && cout64 >= kWideTileChannels &&
      cout64 % kWideTileChannels == 0 && !types.usesSplitTF32()) {
    TileConfigAttr narrow =
        chooseWgmmaConfig(kernel, a, types, maxTileW, 0, 0,
                          /*forcedTileC=*/64, 0, mergeH, forcedCluster, rules);
    if (!narrow)
      return narrow;
    const int64_t wave = a.target.numSMs();
    if (SharedMemoryPlan::get(a, narrow).rowsN == 0) {
      // Rows as separate N: at unit stride (one W phase, so the 128
      // channels' accumulators leave room for rows) two warpgroups still
      // share each staged input, with their own rows and chunk, where that
      // keeps two blocks per SM and a wave: rand37_1 (48 -> 512, 7x7)
      // 1.094 -> 0.789 ms, rand37_64 (192 -> 128, 3x3) 2.48 -> 1.94 ms; at
      // strides >= 2 the measured wide tiles were 8-74% slower (rand37_2,
      // 7, 28, 92; H200, docs/perf.md 179).
      if (llvm::any_of(g.stride, [](int64_t s) { return s != 1; }))
        return narrow;
      TileConfigAttr wide = chooseWgmmaConfig(kernel, a, types, maxTileW, 0, 0,
                                              /*forcedTileC=*/128, 0, mergeH,
                                              forcedCluster, rules);
      if (wide && wide.getTileC() == 128 && kernelResidentBlocks(a, wide) >= 2 &&
          LaunchPlan::get(a, wide).gridX >= wave)
        return wide;
      return narrow;
    }
    TileConfigAttr wide = chooseWgmmaConfig(
        kernel, a, types, maxTileW, 0, narrow.getCiChunk(),
        /*forcedTileC=*/128, 0, narrow.getMergeHTaps(), forcedCluster, rules);
    // Not where the wider blocks would leave the grid short of a wave that
    // the 64-channel one fills (the default wgmma mode then takes
    // mma.sync): unet_decoder's 512 -> 512 4x4 -> 8x8 layer at batch 16,
    // 256 blocks of 64 channels, 128 of 128.
    if (wide && wide.getTileC() == 128 &&
        SharedMemoryPlan::get(a, wide).rowsN > 0 &&
        kernelResidentBlocks(a, wide) >= 2 &&
        (LaunchPlan::get(a, wide).gridX >= wave ||
         LaunchPlan::get(a, narrow).gridX < wave))
      return wide;
    return narrow;
  }
  // Clusters split a channel softmax; other kernels' channel tiles are
  // independent blocks anyway.
  // A channel reduction's or contraction's results are built in one block.
  if (!a.needsAllChannels || a.channelEpilogue())
    forcedCluster = 1;
  if (forcedCluster == 0) {
    // A block of all 128 channels holds one row (its accumulators allow no
    // more), so every staged weight serves one row. Two blocks of 64
    // channels and two rows each, all H taps per round, in a cluster that
    // combines their statistics, stage half the weight bytes per output and
    // half the rounds: kb2_91 -3 to -5% (docs/perf.md section 76).
    TileConfigAttr one =
        chooseWgmmaConfig(kernel, a, types, maxTileW, forcedRows, forcedCiChunk,
                          forcedTileC, forcedSplit, mergeH, 1, rules);
    if (one && one.getRows() == 1 && one.getTileC() == 128 && !forcedRows &&
        !forcedSplit)
      if (TileConfigAttr two = chooseWgmmaConfig(
              kernel, a, types, maxTileW, /*forcedRows=*/2, forcedCiChunk,
              forcedTileC, /*forcedSplit=*/2, /*mergeH=*/1, 2, rules))
        return two;
    return one;
  }
  const int64_t clusterC = forcedCluster;
  if (a.needsAllChannels && cout64 % (64 * clusterC) != 0)
    return {};
  int64_t tileC =
      a.needsAllChannels
          ? cout64 / clusterC
          : std::min<int64_t>(
                cout64, forcedTileC ? llvm::alignTo(forcedTileC, 64) : 64);
  const int64_t channelGroups = tileC / 64;
  if (channelGroups > 8)
    return {};
  // Positions per phase (the wgmma N): the whole row if a reduction needs
  // it, else the multiple of 8 that wastes least, larger tiles preferred
  // (fewer, longer tensor-core instructions per staged operand).
  // One row's accumulators (W phases x N / 2 per thread) must fit the
  // budget, or no row count fits: at stride 2 the default 128 positions
  // would need 128 and wgmma was never chosen for wide rows. Split
  // operands (tf32x3) have half the budget. The default budget (of any
  // block size) bounds N, so that N does not depend on the rows.
  // Only the W phases with a valid tap hold accumulator registers
  // (`phasesWithTaps`: kb1_81, k3 s5 d2, 3 of 5; the main loop issues
  // nothing into the others, which stay the constant zero). The unforced
  // choice of tf32 and half operands still counts every phase, which
  // bounds the output tile (all phases' positions): the longer tiles and
  // more rows that counting the phases with taps gives them were 3-92%
  // slower on 11 of 18 tf32 / half kernels, mostly at half the blocks per
  // SM (seed-37 layers, kb1_77, kb1_81; docs/perf.md 220). Split operands,
  // whose budget is half, and tiles whose rows or length are given (tuning
  // entries, --tile-rows, --tile-max-w) count the phases with taps: ieee
  // 10-41% faster on 6 of 7 seed-37 layers (one 12% slower); kb1_81 bf16
  // on one row of N 48 6% faster than N 32 (220).
  const bool tapPhasesOnly =
      types.usesSplitTF32() || forcedRows || maxTileW != kDefaultMaxTileW;
  const int64_t accPhases = tapPhasesOnly ? phasesWithTaps(g, 2) : sw;
  const int64_t accumulatorN = std::max<int64_t>(
      8, 2 * wgmmaAccumulatorBudget(types, /*threads=*/0, false) / accPhases /
             8 * 8);
  const int64_t maxN = std::min<int64_t>(
      {256, accumulatorN,
       maxTileW == kDefaultMaxTileW ? 128
                                    : std::max<int64_t>(8, maxTileW / sw)});
  // A given tile length takes the longest N of the least cost: kb1_81's
  // 240 N 48, where 32 covers its 128 positions a phase at equal cost.
  int64_t N = positionsPerPhase(a, sw, maxN, /*tileOverhead=*/16,
                                /*quantum=*/8,
                                /*preferLonger=*/maxTileW != kDefaultMaxTileW);
  if (N > 256)
    return {};
  const int64_t rowsNeeded = llvm::divideCeil(g.out[1], g.stride[1]);
  const int64_t cin8 = llvm::alignTo(g.cinPerGroup(), 8);
  // Channel chunks are chosen in TF32 terms and scaled by the operand
  // type's wgmma K (8 for tf32, 16 for bf16 / f16): a half chunk of 2 c
  // channels takes the 16-byte planes (`wgmmaPlanes`), shared memory,
  // copies and wgmma instructions of a TF32 chunk of c, and half its
  // rounds and barriers per input channel. Never more than the input's
  // channels rounded up to one k-step.
  // (wgmma's K per operand type is mma.sync's, 32 bytes of operand; asked
  // of mmaShape, which a module without wgmma's chip answers too, as
  // `--tile-wgmma=always` tests on the default target.)
  std::optional<MmaShape> shape = a.target.mmaShape(types.getOperand());
  if (!shape)
    return {};
  const int64_t kStep = shape->k, chunkScale = kStep / 8;
  const int64_t cinK =
      std::max<int64_t>(kStep, llvm::alignTo(g.cinPerGroup(), kStep));
  auto scaledChunk = [&](int64_t tf32Chunk) {
    return std::min(chunkScale * tf32Chunk, cinK);
  };
  for (int64_t rows : {8, 4, 2, 1}) {
    if (forcedRows && rows != forcedRows)
      continue;
    if (rows > 1 && !forcedRows &&
        (rows > rowsNeeded ||
         (rulesSince(rules, TileRules::Session42) && rowsShareNoTaps(g))))
      continue;
    // One warpgroup per channel group (the rows split over several only
    // when forced): with the weights copied asynchronously, several small
    // blocks per SM, whose epilogues and staging overlap, beat one large
    // block sharing its weights over more rows (8 rows in four warpgroups
    // won while weights were staged through registers, docs/perf.md section
    // 28; one warpgroup per channel group with the most rows that fit won
    // on kb2_20, kb2_49 and kb2_91 since, section 40). The accumulators
    // (W phases with a tap x own rows x N / 2) bound the rows.
    for (int64_t split = 1; split <= rows; split *= 2) {
      // Unforced, two warpgroups share one channel group's rows only as the
      // merged-tap candidate below: four rows of a W-stride > 1 kernel
      // (whose rows cannot share one N) that one warpgroup's accumulators
      // do not hold.
      const bool splitCandidate = !forcedSplit && !forcedRows && !mergeH &&
                                  split == 2 && rows == 4 &&
                                  channelGroups == 1 && sw > 1 &&
                                  !types.usesSplitTF32();
      if (forcedSplit ? split != forcedSplit : split != 1 && !splitCandidate)
        continue;
      const int64_t groups = channelGroups * split, threads = 128 * groups;
      if (threads > 512 && !forcedSplit)
        continue;
      if (threads > a.target.maxThreadsPerBlock())
        continue;
      // One-warpgroup blocks hold more accumulators, rows given explicitly
      // (a tuning variant) more still.
      const int64_t budget =
          wgmmaAccumulatorBudget(types, threads, forcedRows);
      auto make = [&](int64_t n, int64_t ciChunk, int64_t merge) {
        // Whole k-steps (half operands: 16 channels, one k16 step).
        TileConfigFields f = wgmmaFields(types, sw, n, tileC, groups,
                                         llvm::alignTo(ciChunk, kStep));
        f.rows = rows;
        f.mergeHTaps = merge;
        f.clusterC = clusterC;
        return makeConfig(kernel, f);
      };
      // A warpgroup's rows as one N (W stride 1, `SharedMemoryPlan::rowsN`)
      // hold N / 2 accumulators per thread however many rows they are: the
      // rows fit where that N does. Unforced, two rows take the longest
      // tile whose rows fit one N where the default tile's do not: two rows
      // of 88 positions beat one of 104-128 (kb1_65 1.44 -> 1.29 ms, kb1_69
      // 2.41 -> 1.94, kb1_78 1.43 -> 1.23; kb1_70, 2 x 56 positions for
      // rows of 98 with merged H taps, 6.15 -> 5.21 against one row of 104;
      // docs/perf.md 116-117).
      // Short rows of a W stride > 1 (N = 8) are rows as one N too where
      // the accumulators of all W phases with a tap (x N / 2) fit the
      // budget; their
      // blocks take the most rows that do (a row each issued an m64n8,
      // which reads the whole weight operand for 8 positions: 4 rows of
      // 8 positions at span 16 issue one m64n56 instead of four m64n8,
      // from the same shared-memory reads of the weights).
      auto rowsAsOneN = [&](int64_t n) {
        TileConfigAttr probe = make(n, 8, mergeH);
        if (!probe)
          return false;
        const int64_t rowsN = SharedMemoryPlan::get(a, probe).rowsN;
        return rowsN > 0 && (sw == 1 || accPhases * rowsN / 2 <= budget);
      };
      int64_t n = N;
      bool oneN = rows > 1 && rowsAsOneN(N);
      if (sw > 1 && N == 8 && rows > 1 && !oneN && !forcedRows &&
          !forcedSplit && !a.wholeRow() && clusterC == 1 &&
          !types.usesSplitTF32())
        continue;
      // Half operands' phases of up to `kMaxStridedRowsPhaseNHalf` likewise
      // take fewer rows as one N over more rows that are not (two rows
      // always fit: heatmap_head's bf16 256-channel k4 s2 layer at 64 x 48,
      // 2 rows of 24 positions as one m64n56 167 us against 199 for 4 rows
      // of m64n24, docs/perf.md 226).
      if (sw > 1 && N > 8 && N <= kMaxStridedRowsPhaseNHalf && rows > 2 &&
          !oneN && types.usesHalfOperands() && !forcedRows && !forcedSplit &&
          clusterC == 1)
        continue;
      // Not for split operands, whose N <= 96 leaves tiles of 40 (kb1_57
      // and kb2_19 ieee 11-13% slower, docs/perf.md 117).
      if (rows == 2 && !oneN && !forcedRows && sw == 1 && !a.wholeRow() &&
          !types.usesSplitTF32()) {
        for (int64_t m = N - 8; m >= 8; m -= 8) {
          if (!rowsAsOneN(m))
            continue;
          int64_t shorter = positionsPerPhase(a, sw, m, /*tileOverhead=*/16);
          if (rowsAsOneN(shorter))
            n = shorter, oneN = true;
          break;
        }
      }
      if (!oneN && accPhases * (rows / split) * n / 2 > budget)
        continue;
      // Rows split over two warpgroups, all valid H taps of a round staged
      // at once, where that halves the staged input rows, two blocks still
      // share an SM and the output channels fill at least 3/4 of the
      // 64-channel tiles (the wgmma M): kb1_77 (stride and dilation 2:
      // every odd row takes all three taps), 4 rows in two warpgroups
      // staging 6 input rows for 12 row-taps, 0.54 ms against 0.62 for one
      // warpgroup of 2 rows; 9 of 11 such layers of 64, 96 or 128 channels
      // 2-18% faster (one equal, one 5% slower), all 3 of 32 channels 0-12%
      // slower: there the staged rows carry half the MMA work
      // (docs/perf.md 124-126). Layers whose taps merge into more than
      // half the rows (stride 2 without dilation: 5 for 8) keep one
      // warpgroup, which won on kb2_20 and kb2_49 (section 40).
      if (splitCandidate) {
        if (oneN)
          continue;
        TileConfigAttr merged =
            make(n, scaledChunk(16), 1);
        if (!merged)
          continue;
        SharedMemoryPlan plan = SharedMemoryPlan::get(a, merged);
        if (plan.bytes() <= a.target.sharedBytesPerBlock() &&
            plan.hTapsPerRound > 1 &&
            2 * plan.stagedRows <= rows * plan.hTapsPerRound &&
            kernelResidentBlocks(a, merged) >= 2 &&
            4 * g.coutPerGroup() >= 3 * llvm::alignTo(g.coutPerGroup(), 64))
          return merged;
        continue;
      }
      // Input channels per round: 16 for blocks of up to 256 threads (the
      // smaller double buffer lets two blocks share an SM; measured faster
      // than 32 on kb1_77, kb2_20, kb2_34, kb2_49), 32 for larger blocks,
      // which run one per SM anyway (half the rounds: kb2_91 2.45 vs
      // 2.56 ms), docs/perf.md section 27. Rows as one N, whose rounds
      // issue twice the work per barrier, take the chunk that lets the most
      // blocks share an SM (kb1_65 and kb1_69 at 8: 1.58 -> 1.29 and 2.24
      // -> 1.94 ms; kb1_61 and kb1_70, no more blocks at 8, stay at 16).
      SmallVector<int64_t, 3> chunks = threads <= 256
                                           ? SmallVector<int64_t, 3>{16, 32, 8}
                                           : SmallVector<int64_t, 3>{32, 16, 8};
      // Rows as one N stage all H taps of a round at once (rows + taps - 1
      // input rows instead of rows per tap) at 8 channels where that still
      // lets 3 blocks share an SM: kb1_57 4.08 -> 3.25 ms, kb2_19 5.33 ->
      // 4.75; at 2 blocks it lost (kb1_65, kb1_69; docs/perf.md 117).
      // Where its registers (`kernelRegisterEstimate`) keep out a block that
      // its shared memory admits, only if it halves the staged input rows:
      // 2 rows (4 staged for 3 taps instead of 6) lost, kb1_61 2.30 against
      // 1.90 ms for 16 channels per tap, kb1_71 1.20 against 1.08; 4 rows
      // (6 for 12) won, kb2_61 1.41 against 1.80 (docs/perf.md 120).
      if (oneN && !mergeH && !forcedCiChunk && cin8 >= 8 && g.k[1] > 1) {
        TileConfigAttr merged = make(n, scaledChunk(8), 1);
        // TF32 tiles of short W phases (wgmma N <= 32) take two k-steps a
        // round where that keeps the blocks an SM: a round of one k-step
        // issues four short MMAs a row per barrier and wait; two halve the
        // rounds for the same staged bytes per MMA (267's proposal from
        // unet_decoder's bf16 entries). Held out on the H200 (docs/perf.md
        // 296): the 7 tf32 graphs it changes 0.82-0.99 of their time; in
        // half 0.97-1.08 (rand37_16 +8%), so half operands keep one step.
        if (merged && n <= kMaxTwoStepMergedN &&
            rulesSince(rules, TileRules::Current) &&
            !types.usesHalfOperands() && !types.usesSplitTF32())
          if (TileConfigAttr two = make(n, scaledChunk(16), 1);
              two && two.getCiChunk() > merged.getCiChunk() &&
              SharedMemoryPlan::get(a, two).bytes() <=
                  a.target.sharedBytesPerBlock() &&
              kernelResidentBlocks(a, two) == kernelResidentBlocks(a, merged))
            merged = two;
        if (merged) {
          SharedMemoryPlan plan = SharedMemoryPlan::get(a, merged);
          const int64_t resident = kernelResidentBlocks(a, merged);
          const bool halvesRows =
              2 * plan.stagedRows <= rows * plan.hTapsPerRound;
          if (plan.hTapsPerRound > 1 && plan.rowsN > 0 && resident >= 3 &&
              (halvesRows ||
               resident == residentBlocks(a.target, threads, plan.bytes())))
            return merged;
        }
      }
      TileConfigAttr best;
      int64_t bestResident = 0;
      for (int64_t tf32Chunk : chunks) {
        const int64_t ciChunk = chunkScale * tf32Chunk;
        if (forcedCiChunk && ciChunk != llvm::alignTo(forcedCiChunk, kStep))
          continue;
        if (!forcedCiChunk && ciChunk > cinK)
          continue;
        TileConfigAttr cfg = make(n, ciChunk, mergeH);
        if (!cfg)
          return {};
        const int64_t bytes = SharedMemoryPlan::get(a, cfg).bytes();
        if (bytes > a.target.sharedBytesPerBlock())
          continue;
        if (!oneN) {
          // Split operands stage both parts of each operand: where 16
          // channels leave at most two blocks per SM, 8 that admit more are
          // faster (kb1_65, kb1_74, kb2_5, kb2_93: -5 to -10%; kb1_69,
          // kb1_78, kb2_78: +2 to +5%) and halve the products the tensor
          // cores sum, truncating, before each IEEE add (kb2_93 rel-L2
          // 6.2e-6 -> 2.1e-6, PyTorch's FP32 2.1e-6; docs/perf.md 127).
          if (types.usesSplitTF32() && !forcedCiChunk &&
              ciChunk > 8) {
            const int64_t resident = kernelResidentBlocks(a, cfg);
            TileConfigAttr eight = make(n, 8, mergeH);
            if (eight && resident <= 2 &&
                kernelResidentBlocks(a, eight) > resident)
              return eight;
          }
          // Unforced tf32 blocks whose 16 channels leave fewer blocks on an
          // SM than the register budget allows (`fillsResidentThreads`: a
          // one-warpgroup block at two of four), as split operands above:
          // 8 where that admits more blocks. Issue 37's held-out rand43_66
          // (1-D, 96 -> 96, 8 taps at stride 2, 77 KB at 16) 0.92 of its time
          // at 16, four blocks per SM instead of two; rand43_5, whose 8
          // channels still leave two, keeps 16 (H200, docs/perf.md 234, 253).
          if (rulesSince(rules, TileRules::Current) && !forcedCiChunk &&
              !types.usesSplitTF32() && !types.usesHalfOperands() &&
              ciChunk > 8) {
            const int64_t resident = kernelResidentBlocks(a, cfg);
            if (resident >= 2 && !fillsResidentThreads(a, cfg))
              if (TileConfigAttr eight = make(n, 8, mergeH);
                  eight && kernelResidentBlocks(a, eight) > resident)
                return eight;
          }
          // Blocks of up to 256 threads take 16 channels so that two
          // blocks share an SM; where a round's weights (chunk x every tap
          // of the block's W phases x 64 channels, double-buffered) keep
          // even 16 channels to one block per SM, the smaller chunk that
          // admits two: issue 37's rand37_52 (1-D, 24 -> 96 channels, 14
          // taps at stride 3: 123 KB at 16) 3.15 -> 1.79 ms at 8; the
          // 16 x 16 stride-8 and 32 x 32 stride-16 upscore layers
          // (rand37_7, 14, 57, 85, 90: 135-137 KB at 16) 12-28% faster
          // (H200, docs/perf.md 185).
          if (rules != TileRules::Session35 && !forcedCiChunk &&
              !types.usesSplitTF32() && threads <= 256 &&
              kernelResidentBlocks(a, cfg) < 2)
            for (int64_t smaller = tf32Chunk / 2; smaller >= 8; smaller /= 2)
              if (TileConfigAttr less = make(n, chunkScale * smaller, mergeH);
                  less && kernelResidentBlocks(a, less) >= 2)
                return less;
          return cfg;
        }
        const int64_t resident = kernelResidentBlocks(a, cfg);
        if (resident > bestResident)
          best = cfg, bestResident = resident;
      }
      if (best)
        return best;
    }
  }
  return {};
}
