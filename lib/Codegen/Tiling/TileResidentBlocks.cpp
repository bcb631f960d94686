//===- TileResidentBlocks.cpp - whether a tile's blocks fill an SM --------===//
//
// The resident blocks that the cost model weighs against a tile's reuse:
// every kernel asks ptxas for the register budget's threads per SM
// (`residentThreadsPerSM`: 512 on Hopper, 4 warps for each of its 4
// schedulers). A tile whose shared memory leaves fewer blocks than that
// leaves registers idle and fewer warps to hide a round's staging; where
// the cost model has a choice (a smaller wgmma chunk, fewer rows of
// positions on M) it takes the tile whose blocks fill that count
// (docs/perf.md 253).
//
//===----------------------------------------------------------------------===//

#include "TileChoiceInternal.h"

#include "fusecc/Codegen/GPUPlan.h"

#include <algorithm>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

bool fuse::fillsResidentThreads(const KernelAnalysis &a, TileConfigAttr cfg) {
  const int64_t threads = LaunchPlan::get(a, cfg).threads;
  return kernelResidentBlocks(a, cfg) >=
         std::max<int64_t>(1, residentThreadsPerSM(a.target) / threads);
}
