//===- TileClusterK.cpp - wgmma tiles whose reduction spans a cluster -----===//
//
// The cost model's choice of `TileConfigAttr::clusterK`: the K blocks of a
// thread block cluster compute one output tile over disjoint ranges of its
// main-loop rounds and add their accumulators through distributed shared
// memory (ClusterReduce.cpp). For layers whose grid leaves the SMs short of
// warps and whose reduction per block is long, a decoder's first layer
// (heatmap_head's 2048 -> 256 at 8 x 6: 256 blocks of one warpgroup, under
// two an SM; docs/perf.md 226-227, 232): K times the blocks, each with
// 1 / K of the rounds. Measured there (232): K = 2 took k0 149.8 -> 140.2
// us in bf16 (-6%) and 228.9 -> 200.9 in tf32 (-12%); K = 4 was slower
// (183.4 us, +22%: the same weight bytes from L2 over more blocks, and
// more to add through distributed shared memory). The kernel re-reads its
// weights from L2 more than it waits on latency, so the split helps little
// (and halving those reads with blocks of samples in several warpgroups,
// TileSamples.cpp, did not make it faster either: docs/perf.md 240). Block
// 0 holds the other blocks' accumulator fragments: K is taken only where
// they fit its shared memory.
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

/// Blocks a cluster takes where the cost model splits the reduction: 2
/// (measured faster than 1 on heatmap_head's k0; 4 slower, docs/perf.md
/// 232).
constexpr int64_t kDefaultClusterK = 2;

/// Fewest input channels a group for which the cost model splits the
/// reduction: each block's part stays long (>= 512 channels x its taps).
constexpr int64_t kMinClusterKChannels = 1024;

/// Fewest main-loop channel chunks each block of the cluster keeps (the
/// two-deep staging pipeline needs a few rounds to run).
constexpr int64_t kMinClusterKChunks = 8;

/// Channel chunks of a round of `cfg` (the rounds' fastest index).
int64_t channelChunks(const KernelAnalysis &a, TileConfigAttr cfg) {
  return llvm::divideCeil(a.geom.cinPerGroup(), cfg.getCiChunk());
}

/// Bytes of block 0's shared memory that the other `k - 1` blocks'
/// accumulator fragments take at `wg` (ClusterReduce.cpp's
/// `clusterReduceWords`, at most: each W phase's accumulators counted at
/// the full `wgmmaN`).
int64_t clusterReduceBytes(const KernelAnalysis &a, TileConfigAttr wg,
                           int64_t k) {
  const SharedMemoryPlan plan = SharedMemoryPlan::get(a, wg);
  const int64_t phases = a.geom.stride[2] / wg.getWgmmaPhaseSplit();
  const int64_t perPhase =
      plan.rowsN ? plan.rowsN / 2
                 : wg.getRows() / wg.getWgmmaRowSplit() * wg.getWgmmaN() / 2;
  return saturatingMul(
      saturatingMul(saturatingMul(k - 1, phases), perPhase),
      saturatingMul(LaunchPlan::get(a, wg).threads, int64_t{4}));
}

/// `c` with `clusterK = k`.
TileConfigAttr withClusterKValue(KernelOp kernel, TileConfigAttr c, int64_t k) {
  TileConfigFields f = TileConfigFields::of(c);
  f.clusterK = k;
  return makeConfig(kernel, f);
}

} // namespace

bool fuse::clusterKValid(KernelOp kernel, const KernelAnalysis &a,
                         TileConfigAttr wg, int64_t k) {
  return wg && wg.usesWgmma() && !wg.usesSplitTF32() && wg.getClusterC() == 1 &&
         !a.perSampleLaunch && !a.pool && a.reductions.empty() &&
         !a.needsAllChannels && !a.needsWholeRow && !a.channelEpilogue() &&
         !StatsRoot::of(kernel) && channelChunks(a, wg) % k == 0 &&
         clusterReduceBytes(a, wg, k) <= a.target.sharedBytesPerBlock();
}

TileConfigAttr fuse::withClusterK(KernelOp kernel, const KernelAnalysis &a,
                                  const TunedChoice &knobs, TileConfigAttr wg,
                                  TileRules rules) {
  if (!wg || knobs.clusterK < 0)
    return wg;
  if (knobs.clusterK > 1)
    return clusterKValid(kernel, a, wg, knobs.clusterK)
               ? withClusterKValue(kernel, wg, knobs.clusterK)
               : wg;
  // The cost model: unforced, a grid under two blocks an SM, a long
  // reduction that each block's part keeps long.
  const int64_t k = kDefaultClusterK;
  if (!rulesSince(rules, TileRules::Session42) || knobs.rows || knobs.tileC ||
      knobs.ciChunk || knobs.mergeH || knobs.wgmmaSplit || knobs.clusterC ||
      knobs.phaseSplit > 0 || !clusterKValid(kernel, a, wg, k) ||
      a.geom.cinPerGroup() < kMinClusterKChannels ||
      channelChunks(a, wg) / k < kMinClusterKChunks ||
      LaunchPlan::get(a, wg).gridX >= 2 * a.target.numSMs())
    return wg;
  TileConfigAttr cfg = withClusterKValue(kernel, wg, k);
  return cfg ? cfg : wg;
}
