//===- TileMergedTaps.cpp - merged H taps where they cost no blocks -------===//
//
// The cost model's choice of `TileConfigAttr::mergeHTaps` for wgmma blocks,
// and the resident warps per SM that it and the other tilings weigh: a
// round that stages all valid H taps of a block's rows at once stages
// rows + taps - 1 input rows instead of rows x taps and runs a tap's
// fraction of the rounds (barriers, pipeline waits), at the price of more
// shared memory a block. That price is paid only where it leaves fewer
// blocks on an SM; measured mixed as a knob for that reason (docs/perf.md
// 24, 186-189), it is measured here where it does not (253).
//
//===----------------------------------------------------------------------===//

#include "TileChoiceInternal.h"

#include "fusecc/Codegen/GPUPlan.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

bool fuse::fillsResidentThreads(const KernelAnalysis &a, TileConfigAttr cfg) {
  const int64_t threads = LaunchPlan::get(a, cfg).threads;
  return kernelResidentBlocks(a, cfg) >=
         std::max<int64_t>(1, residentThreadsPerSM(a.target) / threads);
}

TileConfigAttr fuse::withMergedTaps(KernelOp kernel, const KernelAnalysis &a,
                                    const TunedChoice &knobs,
                                    TileConfigAttr wg, TileRules rules) {
  // Unforced tf32 wgmma blocks of one cluster block, one W-phase group, no
  // samples and no split reduction (the other wgmma variants stage their
  // own way; half and split operands were not measured so).
  if (!rulesSince(rules, TileRules::Current) || !wg || !wg.usesWgmma() ||
      wg.getMergeHTaps() || wg.getSamples() || wg.getClusterC() != 1 ||
      wg.getWgmmaPhaseSplit() != 1 || wg.getClusterK() != 1 ||
      !isa<FloatTF32Type>(wg.getTypes().getOperand()) ||
      wg.usesSplitTF32() || knobs.rows || knobs.ciChunk || knobs.tileC ||
      knobs.wgmmaSplit || knobs.mergeH || knobs.clusterC || knobs.wgmma ||
      knobs.samples || knobs.phaseSplit || knobs.clusterK ||
      knobs.maxTileW != kDefaultMaxTileW)
    return wg;
  TileConfigFields f = TileConfigFields::of(wg);
  f.mergeHTaps = 1;
  TileConfigAttr merged = makeConfig(kernel, f);
  // Issue 37's held-out layers of seed 43 (H200, docs/perf.md 234, 253),
  // the 64-channel wgmma tiles whose merged taps keep the blocks per SM:
  // rand43_67 (256 -> 4 channels, 4 H taps a phase, 2 rows) 0.60 of the
  // unmerged time, rand43_97 (2 taps, 1 row) 0.90, rand43_95 (2 taps,
  // 1 row) 0.92, rand43_16 (7 taps) 1.00; where they cost blocks (two or
  // three blocks an SM instead of four), 0.96 to 1.35 (rand43_96, 83, 34,
  // 81, 11).
  if (!merged || failed(checkLimits(kernel, a, merged, /*report=*/false)) ||
      SharedMemoryPlan::get(a, merged).hTapsPerRound <= 1 ||
      kernelResidentBlocks(a, merged) < kernelResidentBlocks(a, wg))
    return wg;
  return merged;
}
