//===- TileChoiceInternal.h - Tile choices shared in Tiling -----*- C++ -*-===//
//
// The pieces of the tile cost model shared by TileChoice.cpp and
// TileWgmma.cpp: the wgmma tiling and what it shares with the other
// tensor-core tilings.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_CODEGEN_TILING_TILECHOICEINTERNAL_H
#define FUSECC_LIB_CODEGEN_TILING_TILECHOICEINTERNAL_H

#include "fusecc/Codegen/Tiling/TileChoice.h"

namespace fusecc::fuse {

/// Positions of one W stride phase per block on the tensor-core paths: the
/// whole row (in multiples of 8) if a reduction or a pooled epilogue needs
/// it, else the multiple of 8 up to `maxPositions` that covers the phase
/// with the least waste plus `tileOverhead` positions' worth of cost per
/// tile (a larger overhead prefers longer tiles).
int64_t positionsPerPhase(const KernelAnalysis &a, int64_t sw,
                          int64_t maxPositions, int64_t tileOverhead);

/// Hopper wgmma config: `tileC / 64` channel groups x `split` row groups
/// warpgroups of 128 threads, each computing 64 channels x N positions of
/// every W phase for `rows / split` rows (`m64nNk8`, operands in shared
/// memory). A channel softmax's channels are split over a cluster of
/// `clusterC` blocks (`forcedCluster`; 0: the cost model's choice). Returns
/// a null attribute when the kernel does not fit (grouped convolutions,
/// rows longer than 256 positions per phase). `types` have tf32 math, or
/// tf32x3 for split operands (the same search, with half the
/// accumulators per thread: a round's sums are kept apart; the hi and lo
/// parts of both operands double the staging buffers).
TileConfigAttr chooseWgmmaConfig(KernelOp kernel, const KernelAnalysis &a,
                                 KernelTypesAttr types, int64_t maxTileW,
                                 int64_t forcedRows, int64_t forcedCiChunk,
                                 int64_t forcedTileC, int64_t forcedSplit,
                                 int64_t mergeH, int64_t forcedCluster,
                                 TileRules rules);

} // namespace fusecc::fuse

#endif // FUSECC_LIB_CODEGEN_TILING_TILECHOICEINTERNAL_H
