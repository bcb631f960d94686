//===- GPUPlan.h - GPU code generation plans of a kernel --------*- C++ -*-===//
//
// How a tiled convolution kernel is laid out on the GPU: its shared-memory
// plan (tiles, staging buffers, bank skews), its launch geometry and the
// re-layouts of its weights and input for wgmma. Computed once from the
// kernel's shape facts (`KernelAnalysis`) and tile config, and used both by
// the tiling cost model (fuse-tile-kernels: limits) and by the lowering
// (fuse-convert-to-gpu: code), so they cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_CODEGEN_GPUPLAN_H
#define FUSECC_CODEGEN_GPUPLAN_H

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"

#include <optional>

namespace fusecc::fuse {

/// The largest wgmma N whose accumulators (N / 2 registers per thread, all
/// live in one instruction) ptxas fits beside a round's staging under the
/// 128-register cap: m64n192k8 without spills at 8 input channels per
/// round, m64n200 spills, m64n216 fails to compile (C7602; CUDA 13.0,
/// kb1_57/kb1_65/kb1_71 with rows as one N, docs/perf.md 116).
constexpr int64_t kMaxRowsN = 192;

/// The longest W phase (wgmma N) of a W stride > 1 whose rows a TF32
/// warpgroup issues as one N (`SharedMemoryPlan::rowsN`): 4 rows of a
/// 16-position phase as one m64n88 instead of four m64n16, each of which
/// reads the whole 64-channel weight operand from shared memory for 16
/// positions. Phases of 16: all 8 graphs of the 157 that it changes faster
/// (rand37_39 0.306 -> 0.208 ms, unet_decoder's dynamo graph -7%, dec1 and
/// gen2 -2 to -8%, kb2_26 and decoder2d -3%); phases of 32 (m64n72 for two
/// rows of 32) were mixed: rand37_91 -20%, bn_train2d -12%, but kb2_38 +11%,
/// kb2_49 +9%, rand37_92 +2% (such rows lose the vector accumulator stores,
/// and pooled ones keep their pass tiles at fewer blocks per SM), so they
/// keep one N per row (H200, docs/perf.md 215).
constexpr int64_t kMaxStridedRowsPhaseN = 16;

/// The longest W phase of a W stride > 1 whose rows a half-operand (bf16,
/// f16) warpgroup issues as one N: heatmap_head's 256-channel k4 s2
/// deconvolutions in bf16, 4 rows of a 16-position phase as one m64n88
/// (86.5 -> 63.8 us; 96.9 -> 65.6 without merged h taps) and 2 rows of a
/// 24-position phase as one m64n56 (216.4 -> 167.0 us against 2 rows of
/// m64n24; 199.3 for 4 rows of them): each m64nNk16 of a row re-reads the
/// 2 KB weight operand, and the kernel ran at 94% of L1 / shared-memory
/// throughput with the tensor pipe 29% busy (H200, docs/perf.md 226).
constexpr int64_t kMaxStridedRowsPhaseNHalf = 24;

/// The longest rows as one N of a half-operand warpgroup at a W stride > 1,
/// times the stride: the accumulators of all W phases (stride x N / 2 a
/// thread) within the 128 that given rows may hold
/// (`kMaxWgmmaAccumulatorsForced`). Past `kMaxRowsN`'s bound only where the
/// cost model's own tiles never are (it skips half rows > 2 that are not
/// one N within `kMaxRowsN`): tuning entries and forced rows. heatmap_head's
/// bf16 k2 (256 channels, k4 s2, 24-position phases), 4 rows as one m64n120
/// instead of 2 as one m64n56: every staged weight feeds twice the
/// positions (docs/perf.md 280).
constexpr int64_t kMaxRowsNHalfStrided = 256;

/// Registers per thread that kernels budget for: ptxas is asked to keep
/// `residentThreadsPerSM` threads resident (`.minnctapersm` = that / threads
/// per block).
constexpr int64_t kResidentRegistersPerThread = 128;

/// Threads per SM that kernels ask ptxas to keep resident: the target's
/// registers per SM at `kResidentRegistersPerThread` each (512 on Hopper).
inline int64_t residentThreadsPerSM(const TargetInfo &target) {
  return target.registersPerSM() / kResidentRegistersPerThread;
}

/// Blocks with `bytes` of dynamic shared memory each that the target's SM
/// holds by shared memory alone (the driver reserves some per block).
inline int64_t blocksBySharedMemory(const TargetInfo &target, int64_t bytes) {
  return target.sharedBytesPerSM() /
         (bytes + target.reservedSharedBytesPerBlock());
}

/// Blocks of `threads` threads and `bytes` of dynamic shared memory that
/// share an SM of `target`: `residentThreadsPerSM` threads, fewer where
/// shared memory holds fewer blocks. A kernel asks ptxas for this many
/// (`.minnctapersm`): registers beyond 128 per thread cost no block that
/// shared memory would have let in, and spare the spills of large wgmma
/// accumulators.
int64_t residentBlocks(const TargetInfo &target, int64_t threads,
                       int64_t bytes);

/// Staged input columns of a row of a block of whole samples' phases
/// (`TileConfigAttr::samples`, one W tile): from the first column any
/// valid tap of position 0 reads to the last one of the row's last
/// position, rounded up to 8 (rows as one wgmma N: an 8-column group never
/// straddles two rows). Such rows are staged by columns (no 16-byte
/// vectors: the window need not start at a multiple of 4).
int64_t samplesInputSpan(const ConvGeometry &g);

/// Columns past a staged row that its wgmma N (at a tap's start column)
/// may read, at most, plus a 16-byte margin of zeros.
int64_t samplesOverread(const ConvGeometry &g);

/// Registers per thread, beside its accumulators (`rowsN` / 2), of a wgmma
/// block that stages all H taps of a round for its rows as one N. ptxas,
/// sm_90a, under the cap of three blocks (168): 124 registers at rowsN 120
/// (kb1_70), 147 and 152 at 168 (kb1_57, kb1_71); under four blocks' 128,
/// 12 to 100 bytes of spills from rowsN 152 up (kb1_61, kb1_71, kb2_61).
constexpr int64_t kMergedRowsNRegisters = 64;

/// Registers per thread of a tiled kernel as far as they bound its blocks
/// per SM: `kMergedRowsNRegisters` + rowsN / 2 for merged-tap rounds of
/// rows as one N, else 0 (the 128 of four 128-thread blocks suffice).
int64_t kernelRegisterEstimate(const KernelAnalysis &a, TileConfigAttr cfg);

/// The blocks of a tiled kernel that share an SM, as its `.minnctapersm`
/// asks ptxas for: `residentBlocks` of its threads and shared memory, and
/// no more than `kernelRegisterEstimate` registers per thread allow.
int64_t kernelResidentBlocks(const KernelAnalysis &a, TileConfigAttr cfg);

/// Shared memory per block that still lets two blocks share an SM of
/// `target`: half an SM less the driver's reserve, rounded down to 8 KiB
/// (112 KiB on Hopper, the threshold the cost model was measured with).
inline int64_t twoBlocksSharedBytes(const TargetInfo &target) {
  constexpr int64_t kGranule = 8 * 1024;
  return (target.sharedBytesPerSM() / 2 -
          target.reservedSharedBytesPerBlock()) /
         kGranule * kGranule;
}

/// Shared-memory layout of a tiled kernel, in f32 elements from the start of
/// the dynamic shared memory. One output tile for the convolution result and
/// one per reduction; staging buffers for an input chunk and a weight chunk;
/// two statistics arrays per reduction.
struct SharedMemoryPlan {
  int64_t tileStride = 0; ///< Row stride of an output tile (>= tileW).
  int64_t tileElems = 0;  ///< rows * tileC * tileStride.
  /// Extra offset of the lines of channels 4..7 (mod 8) of a wgmma kernel's
  /// tiles, chosen with `tileStride` so that the accumulator stores (8
  /// channels x 4 column pairs per warp store) hit distinct banks; 0
  /// elsewhere. The line of (row r, channel c) starts at (r tileC + c)
  /// tileStride + (c / 4 mod 2) tileSkew; tileW + tileSkew <= tileStride.
  int64_t tileSkew = 0;
  /// wgmma kernels at W stride sw <= 2 (not rows as one N, no reduction
  /// walking lines): each thread writes its accumulators to the tile as
  /// runs of `accumulatorRuns` = 2 sw consecutive positions (one 8- or
  /// 16-byte store), lines 8 sw (mod 32) words apart, which spreads a
  /// warp's runs over all 32 banks. 0 elsewhere (scalar stores).
  int64_t accumulatorRuns = 0;
  int64_t numTiles = 0;  ///< 1 + number of reductions.
  int64_t inputSpan = 0; ///< Input positions along W staged per chunk.
  /// Input rows are staged as 16-byte vectors from a window that starts at
  /// a multiple of 4 (the input's last dim is a multiple of 4).
  bool vectorInput = false;
  int64_t xsStride = 0;    ///< Stride between staged input channels.
  int64_t xsRowStride = 0; ///< Stride between the rows of one channel.
  /// Valid H taps staged per round (1, or all of a block's taps on the
  /// tensor-core path), the input rows that takes (`rows` + (hTapsPerRound
  /// - 1) x hInputStep) and the input-row step between consecutive taps.
  int64_t hTapsPerRound = 1, stagedRows = 0, hInputStep = 1;
  int64_t subBlock = 0;   ///< Channels whose weights are staged together.
  int64_t wsCiStride = 0; ///< Stride between staged weight input channels.
  /// wgmma layouts (K-major, no swizzle: 16-byte groups of 4 TF32 input
  /// channels, or of 8 half channels packed two per word). Input: per
  /// staged row, `wgmmaPlanes` planes `xsPlaneStride` apart (rows
  /// `xsRowStride` apart), column c of a plane at 4 c. Weights: per staged
  /// tap, `wgmmaPlanes` planes of `wsChannels` channels (channel co at
  /// 4 co), planes `wsPlaneStride` and taps `wsTapStride` apart.
  int64_t xsPlaneStride = 0, wsPlaneStride = 0, wsTapStride = 0;
  /// Output channels per weight plane (`wgmmaImageChannels`) and, after the
  /// last plane of each weight area, `wsPadElems` zeroed words at
  /// `wsPadOffset` from the area's start: a warpgroup's `m64` descriptor
  /// reads 64 rows, past `wsChannels` into the next plane or the pad.
  int64_t wsChannels = 0, wsPadOffset = 0, wsPadElems = 0;
  /// wgmma kernels with W stride 1, or short rows (`wgmmaN` 8) of a larger
  /// W stride, whose warpgroups own consecutive rows:
  /// the rows of a warpgroup as one `N` (`rowsN` = (rows - 1) x inputSpan +
  /// wgmmaN positions, row r's at r x inputSpan), one accumulator per W
  /// phase for all of them (blocks of samples with a row split: each
  /// warpgroup's rows / split consecutive rows, from its first row on). Staged
  /// input rows are then contiguous within a plane (planes hold all staged
  /// rows) and `inputSpan` is a multiple of 8. 0 elsewhere.
  int64_t rowsN = 0;
  /// Blocks of samples (`TileConfigAttr::samples`): zeroed columns after
  /// each plane's staged rows, which the last rows' positions past the row
  /// end read (`samplesOverread`). 0 elsewhere.
  int64_t xsPadCols = 0;
  /// Staging buffers: 2 with wgmma (round q + 1 is staged while the tensor
  /// cores read round q), else 1; buffer i starts at i x stageElems.
  int64_t numStages = 1;
  /// One staging buffer (`stageElems` long): an input chunk at `xsOffset`
  /// and a weight chunk at `wsOffset`.
  int64_t stageElems = 0;
  int64_t xsOffset = 0, wsOffset = 0, statsOffset = 0, statsLen = 0;
  /// Split-operand wgmma kernels (precision tf32x3) stage each operand
  /// twice, as its TF32 hi and lo parts (the tensor cores read both from
  /// shared memory): the lo input chunk at `xsLoOffset`, laid out as the
  /// one at `xsOffset`, and the lo weight chunk at `wsLoOffset`, as the one
  /// at `wsOffset`. 0 elsewhere.
  int64_t xsLoOffset = 0, wsLoOffset = 0;
  /// Statistics arrays per reduction, `statsLen` each: two (mean or max,
  /// then 1 / sum or 1 / std), or in a cluster of C blocks 2 C + 1: the
  /// partial max of each block, the partial sum of each block (every block
  /// stores its partials into every block's arrays) and this block's
  /// normalisation factor.
  int64_t statsArrays = 2;
  /// Offset of the output tiles: 0 when they alias the staging buffers (dead
  /// once the main loop ends), else after them.
  int64_t tilesOffset = 0;

  /// A pooled epilogue keeps either every pass's output tile (`poolSlots`
  /// = the passes, pass p's tile at tilesOffset + p x tileElems, after the
  /// staging buffers) where that still fits two blocks per SM, or one tile
  /// (aliasing the staging buffers) and accumulators of partial windows
  /// (`pooledRows x tileC x` pooled row at `poolOffset`, `poolElems`).
  int64_t poolSlots = 0, poolOffset = 0, poolElems = 0;

  int64_t totalElems = 0;
  int64_t bytes() const { return totalElems * 4; }

  static SharedMemoryPlan get(const KernelAnalysis &a, TileConfigAttr cfg);

  /// This plan with no output tile, pooled slots or statistics arrays: the
  /// staging buffers alone (and compute-sanitizer's wgmma operand span),
  /// for a kernel whose epilogue runs on the accumulators and stores from
  /// registers. The tiling's residency estimate (`kernelResidentBlocks`)
  /// keeps counting the tile: it bounds the registers ptxas may give the
  /// accumulators (docs/perf.md 199).
  SharedMemoryPlan withoutTiles(TileConfigAttr cfg) const;

  /// This plan with output tile 0 of 2-byte elements (a half result stored
  /// from the tile as it is: `chooseHalfTile`): the tile takes half the
  /// words, with the same line stride and skew in elements. Only for plans
  /// of one tile, no statistics arrays and no pooling.
  SharedMemoryPlan withHalfTile(TileConfigAttr cfg) const;
};

/// Launch geometry of a tiled kernel. Block ids enumerate (W tile, channel
/// tile, H block, depth, batch), the W tile fastest, or with clusters the
/// channel tile fastest: a cluster is `clusterC` consecutive blocks; with a
/// reduction split over clusters (`clusterK`) the cluster's rank is
/// fastest: the `clusterK` consecutive blocks of one tile.
/// With a pooled epilogue the blocks enumerate the pooled result instead:
/// H blocks of `pooled.pooledRows` pooled rows, one pooled depth each.
struct LaunchPlan {
  int64_t numWTiles = 0, numCTiles = 0, numHBlocks = 0, gridX = 0;
  int64_t threads = 0;
  /// The passes of a pooled epilogue (default: one pass).
  PooledEpilogue::Passes pooled;
  static LaunchPlan get(const KernelAnalysis &a, TileConfigAttr cfg);
};

/// Input channels per 16-byte row of a wgmma operand plane (one K-major
/// core-matrix row): 4 TF32 words, or 8 bf16 / f16 values packed two per
/// word (half operands, Relayout.cpp's `packHalfWord`).
int64_t wgmmaChannelsPerPlane(TileConfigAttr cfg);

/// 16-byte planes of a wgmma round's channel chunk: ciChunk /
/// `wgmmaChannelsPerPlane` (a half chunk takes half the planes, and half
/// the shared memory and re-laid-out bytes, of a TF32 one).
int64_t wgmmaPlanes(TileConfigAttr cfg);

/// Output channels of a wgmma kernel's weight planes: `tileC`, or all of
/// them rounded up to 8 where they are fewer (no padding channels staged).
int64_t wgmmaImageChannels(const ConvGeometry &g, TileConfigAttr cfg);

/// True for a wgmma kernel with positions on M (`mmaPositionsM` with a
/// phase split): each W phase's positions are the M of its warpgroup's
/// wgmma, the block's `wgmmaImageChannels` channels its N.
bool wgmmaPositionsOnM(TileConfigAttr cfg);

/// Lines of the output tile per row: the block's channels, `tileC`, or
/// with wgmma positions on M only its `wgmmaImageChannels` (the tile of a
/// 21-channel block: 24 lines, not 64).
int64_t tileLineChannels(const ConvGeometry &g, TileConfigAttr cfg);

/// Weights re-laid out once per call for a wgmma kernel: a small kernel
/// writes, for every (output channel tile, d tap, h tap, input channel
/// chunk), the exact shared-memory image a main-loop round stages (kw taps x
/// `wgmmaPlanes` planes x `wgmmaImageChannels` channels x 4 words: TF32-
/// rounded channels, or packed pairs of half channels; zeros past the
/// tensor), so the main kernel copies each round's weights
/// as contiguous 16-byte asynchronous copies.
/// Split-operand kernels (tf32x3) store two images per round, the TF32 hi
/// parts of the weights and then their lo parts.
struct WeightPackPlan {
  int64_t numCTiles = 0, kd = 0, kh = 0, numChunks = 0;
  int64_t imageChannels = 0; ///< `wgmmaImageChannels`.
  int64_t imageElems = 0; ///< One round image: kw x planes x 4 x channels.
  int64_t parts = 1;         ///< Images per round: 1, or 2 (hi, lo) split.
  int64_t totalElems = 0;
  /// The plan of a wgmma kernel; std::nullopt for the other paths.
  static std::optional<WeightPackPlan> get(const KernelAnalysis &a,
                                           TileConfigAttr cfg);
};

/// The input re-laid out once per call for a wgmma kernel:
/// [n][d][h][channel chunk][`wgmmaPlanes` groups][padL + W + padR columns]
/// [4 words: TF32-rounded channels or packed half pairs], zero outside the
/// input, so that a round's staged rows are contiguous 16-byte runs
/// (asynchronous copies, no transpose or rounding in the main kernel).
/// Rows that are multiples of 4 long: used where the extra pass is at most
/// 20% of the output's traffic (30% for half operands, and every 3-D half
/// kernel). Narrow / odd rows (W not a multiple of 4, otherwise staged
/// element by element): used where the main loop would stage at least the
/// pass's elements from a window at least a quarter in the input
/// (one-group kernels; `narrowRowsRelayoutPays`, GPUPlan.cpp).
/// Not used by split-operand (tf32x3) kernels, which split the input as
/// they stage it through registers, nor with a prologue.
struct InputPackPlan {
  int64_t numChunks = 0, groups = 0, padL = 0, width = 0;
  int64_t totalElems = 0;
  static std::optional<InputPackPlan> get(const KernelAnalysis &a,
                                          TileConfigAttr cfg);
};

} // namespace fusecc::fuse

#endif // FUSECC_CODEGEN_GPUPLAN_H
