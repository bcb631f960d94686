//===- TileSamples.cpp - wgmma blocks of several samples ------------------===//
//
// The cost model's choice of wgmma blocks whose rows are the whole H stride
// phases of one or more samples (`TileConfigAttr::samples`): for layers
// whose phases are a few short rows and whose reduction is long, a block of
// one sample's rows re-stages its channels' weights for few positions
// (heatmap_head's 2048 -> 256 layer on 8 x 6 inputs: 2 MB of weights a
// block for 48 positions; the generators' 512 -> 256 layer on 4 x 4
// inputs, docs/perf.md 200 and 204). Rows as one wgmma N at the span their
// taps read (`samplesInputSpan`) fit more rows in the accumulators.
// Forced with a row split (`--tile-wgmma-split`, tuning key "wgmma_split"),
// the rows go to several warpgroups of each channel group, consecutive
// rows each, all reading the one staged weight slice: more samples a block
// than one warpgroup's accumulators hold. Measured on heatmap_head's k0
// (docs/perf.md 240): 2 or 4 samples in 2 or 4 warpgroups halve or quarter
// its weight reads from L2 but leave its time as it was (134-149 against
// 141 us in bf16): the cost model does not take it.
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

/// Products per output (input channels x valid taps of a phase) from
/// which the cost model considers blocks of samples: below it a block's
/// weights are few bytes beside its outputs.
constexpr int64_t kMinSamplesReduction = 1024;

/// Positions of a W phase up to which blocks of samples are considered
/// (one wgmma N of at most this many positions a row).
constexpr int64_t kMaxSamplesPhasePositions = 16;

/// Most samples a block spans.
constexpr int64_t kMaxSamples = 16;

/// True if kernel `a`'s epilogue and geometry allow blocks of samples: an
/// elementwise epilogue (per-position values; no reduction, statistics,
/// pooling or channel epilogue, whose sets are one sample's), no prologue,
/// one group, every H phase the same rows (the rows' heights run on
/// through the samples), rows that share their taps (not an input one row
/// high: each row's own tap, `rowsShareNoTaps`), one W tile, a static
/// batch.
bool samplesValid(KernelOp kernel, const KernelAnalysis &a, TileConfigAttr wg) {
  const ConvGeometry &g = a.geom;
  return wg && wg.usesWgmma() && !wg.usesSplitTF32() && wg.getClusterC() == 1 &&
         !wg.splitsPhases() && !a.perSampleLaunch && g.groups == 1 && !a.pool &&
         a.reductions.empty() && !a.needsAllChannels && !a.needsWholeRow &&
         !a.channelEpilogue() && !StatsRoot::of(kernel) && !a.hasPrologue() &&
         g.out[1] % g.stride[1] == 0 && !rowsShareNoTaps(g) &&
         llvm::divideCeil(g.out[2], g.stride[2]) <= kMaxSamplesPhasePositions;
}

/// The config of `samples` samples a block and `tileC` channels with the
/// chunk and types of `wg`, the rows split over `split` warpgroups of each
/// channel group (consecutive rows each, sharing the staged weights); null
/// where it does not fit the accumulators (rows as one N), the threads or
/// shared memory.
TileConfigAttr samplesConfig(KernelOp kernel, const KernelAnalysis &a,
                             TileConfigAttr wg, int64_t samples, int64_t tileC,
                             int64_t split, bool forced) {
  const ConvGeometry &g = a.geom;
  const int64_t sw = g.stride[2];
  const int64_t n = llvm::alignTo(llvm::divideCeil(g.out[2], sw), 8);
  const int64_t rows = samples * (g.out[1] / g.stride[1]);
  const int64_t groups = tileC / 64 * split, threads = 128 * groups;
  if (split < 1 || rows % split != 0 || threads > a.target.maxThreadsPerBlock())
    return {};
  // Input channels per round: two k-steps (16 TF32, 32 half channels),
  // as unmerged wgmma rounds of up to 256 threads take (TileWgmma.cpp),
  // where `wg`'s chunk was chosen for merged H taps; at most the input's.
  std::optional<MmaShape> shape = a.target.mmaShape(wg.getTypes().getOperand());
  if (!shape)
    return {};
  const int64_t kStep = shape->k;
  const int64_t ciChunk =
      wg.getMergeHTaps()
          ? std::min<int64_t>(2 * kStep, llvm::alignTo(g.cinPerGroup(), kStep))
          : wg.getCiChunk();
  TileConfigFields f =
      wgmmaFields(wg.getTypes(), sw, n, tileC, groups, ciChunk);
  f.rows = rows;
  f.samples = samples;
  TileConfigAttr cfg = makeConfig(kernel, f);
  if (!cfg)
    return {};
  const SharedMemoryPlan plan = SharedMemoryPlan::get(a, cfg);
  const int64_t budget =
      wgmmaAccumulatorBudget(wg.getTypes(), threads, /*forcedRows=*/forced);
  if (plan.rowsN == 0 || sw * plan.rowsN / 2 > budget ||
      plan.bytes() > a.target.sharedBytesPerBlock())
    return {};
  return cfg;
}

/// Weight elements (per input channel and tap) a config's blocks stage in
/// all: one `tileC` slice per block.
int64_t stagedWeights(const KernelAnalysis &a, TileConfigAttr cfg) {
  return LaunchPlan::get(a, cfg).gridX * cfg.getTileC();
}

} // namespace

TileConfigAttr fuse::withSamples(KernelOp kernel, const KernelAnalysis &a,
                                 const TunedChoice &knobs, TileConfigAttr wg,
                                 TileRules rules) {
  if (knobs.samples < 0 || !samplesValid(kernel, a, wg))
    return wg;
  const ConvGeometry &g = a.geom;
  const int64_t cout64 = llvm::alignTo(g.cout, 64);
  if (knobs.samples > 0) {
    const int64_t tileC =
        knobs.tileC ? llvm::alignTo(knobs.tileC, 64) : wg.getTileC();
    TileConfigAttr cfg =
        samplesConfig(kernel, a, wg, knobs.samples, std::min(tileC, cout64),
                      std::max<int64_t>(1, knobs.wgmmaSplit), true);
    return cfg ? cfg : wg;
  }
  // The cost model: not under the older rules, tuned knobs or short
  // reductions.
  // Only at W strides of 2 or more: the measured layers' (a forced
  // W-stride-1 bf16 kernel of test/Reference/samples.mlir spills).
  if (!rulesSince(rules, TileRules::Session42) || knobs.rows || knobs.tileC ||
      g.stride[2] < 2 || wg.getWgmmaRowSplit() != 1 || knobs.ciChunk ||
      knobs.mergeH || knobs.wgmmaSplit || knobs.wgmma ||
      saturatingMul(g.cinPerGroup(), tapsPerPhase(g)) < kMinSamplesReduction)
    return wg;
  // Of the configs of 64 or 128 channels and 1 to kMaxSamples samples that
  // keep a wave of blocks (or the grid of `wg` where that has less), the
  // one that stages the fewest weights, fewer rows as one N (wasted
  // products) on a tie; taken where it stages at most 3/4 of `wg`'s.
  const int64_t wave = a.target.numSMs();
  const int64_t minGrid = std::min<int64_t>(wave, LaunchPlan::get(a, wg).gridX);
  TileConfigAttr best;
  int64_t bestWeights = 0, bestN = 0;
  for (int64_t tileC : {64, 128}) {
    if (tileC > cout64)
      continue;
    for (int64_t s = 1; s <= std::min<int64_t>(kMaxSamples, g.n); ++s) {
      TileConfigAttr cfg = samplesConfig(kernel, a, wg, s, tileC, 1, false);
      if (!cfg)
        break;
      if (LaunchPlan::get(a, cfg).gridX < minGrid ||
          kernelResidentBlocks(a, cfg) < 2)
        continue;
      const int64_t weights = stagedWeights(a, cfg);
      const int64_t n = SharedMemoryPlan::get(a, cfg).rowsN;
      if (!best || weights < bestWeights ||
          (weights == bestWeights && n < bestN))
        best = cfg, bestWeights = weights, bestN = n;
    }
  }
  if (best && 4 * bestWeights <= 3 * stagedWeights(a, wg))
    return best;
  return wg;
}
