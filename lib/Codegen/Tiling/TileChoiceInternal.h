//===- TileChoiceInternal.h - Tile choices shared in Tiling -----*- C++ -*-===//
//
// The pieces of the tile cost model shared by its files: the FMA
// (TileFma.cpp), mma.sync (TileMma.cpp, TilePositionsM.cpp) and wgmma
// (TileWgmma.cpp) tilings, which TileChoice.cpp chooses between, and what
// they share (the limits every config must meet, positions per phase).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_CODEGEN_TILING_TILECHOICEINTERNAL_H
#define FUSECC_LIB_CODEGEN_TILING_TILECHOICEINTERNAL_H

#include "fusecc/Codegen/Tiling/TileChoice.h"
#include "fusecc/Dialect/Fuse/IR/TileConfigFields.h"

namespace fusecc::fuse {

/// Accumulators one thread may hold before registers spill.
constexpr int64_t kMaxAccumulators = 64;

/// True if rule set `rules` has the rules that came with `set`: `set`
/// itself or a newer one (TileRules lists the newest first).
inline bool rulesSince(TileRules rules, TileRules set) {
  return static_cast<int>(rules) <= static_cast<int>(set);
}

/// True if `cfg`'s blocks are as many on an SM as the register budget of
/// every kernel allows (`residentThreadsPerSM`: 512 threads on Hopper, 4
/// warps for each of its 4 schedulers), not fewer for their shared memory:
/// fewer leave the registers idle and fewer warps to hide a round's
/// staging. A tile whose blocks are not gives way to one whose blocks are
/// where the cost model has such a choice (fewer rows of positions on M, a
/// smaller wgmma chunk; issue 37's held-out layers, docs/perf.md 253;
/// TileResidentBlocks.cpp).
bool fillsResidentThreads(const KernelAnalysis &a, TileConfigAttr cfg);

/// The largest divisor of `n` that is at most `limit`.
int64_t largestDivisorAtMost(int64_t n, int64_t limit);

/// The config of fields `f`; null, with the verifier's reason on `kernel`,
/// where they are not a valid config.
TileConfigAttr makeConfig(KernelOp kernel, const TileConfigFields &f);

/// The fields of a wgmma block (TileWgmma.cpp, TileSamples.cpp,
/// TilePhaseSplit.cpp): `groups` warpgroups computing `tileC` channels by
/// `n` positions of each of `sw` W phases (`tileW = sw * n`, `wgmmaN = n`),
/// input channels staged `ciChunk` at a time, and the epilogue's element
/// loops over `8 x threads / 8` threads, one channel each. The others keep
/// their defaults (one row of one sample, no cluster or phase split).
TileConfigFields wgmmaFields(KernelTypesAttr types, int64_t sw, int64_t n,
                             int64_t tileC, int64_t groups, int64_t ciChunk);

/// The fields of an mma.sync block (TileMma.cpp, TilePositionsM.cpp): `sw`
/// W phases x `warpsC` x `warpsW` warps, each computing `tilesC` x `tilesW`
/// MMA tiles, for `tileC` channels by `tileW` positions, input channels
/// staged `ciChunk` at a time, and the epilogue's element loops over the
/// warps' `sw * 8 x warpsC * warpsW * 4` threads, one channel each. The
/// others keep their defaults (one row, channels on the MMA's M).
TileConfigFields mmaSyncFields(KernelTypesAttr types, int64_t sw, int64_t tileW,
                               int64_t tileC, int64_t warpsC, int64_t warpsW,
                               int64_t tilesC, int64_t tilesW, int64_t ciChunk);

/// Checks the limits every config must meet: shared memory and grid size.
/// Emits the reason only if `report` (candidates that may fall back stay
/// silent).
llvm::LogicalResult checkLimits(KernelOp kernel, const KernelAnalysis &a,
                                TileConfigAttr cfg, bool report = true);

/// The FMA-path config: blocks of `threads` threads (the measured best
/// size, docs/perf.md) or, where the W stride, the accumulators of a
/// whole-row reduction or the shared memory need it, the smallest larger
/// power-of-two multiple up to the target's threads per block (fewer
/// channels and positions per thread). Where none fits with input-channel
/// chunks of 16, the same with smaller chunks (8, 4, 2, 1): the staged
/// weights of a chunk are chunk x taps x channels, which a long kernel
/// (64 W taps of 64 channels at stride 32, issue 37's rand37_61) takes
/// past the shared memory at 16. The reason is reported for the largest
/// block tried with chunks of 16.
llvm::FailureOr<TileConfigAttr>
chooseFMAPathConfig(KernelOp kernel, const KernelAnalysis &a,
                    KernelTypesAttr types, int64_t maxTileW, int64_t threads);

/// Tensor-core (mma.sync m16n8k8 TF32) config: warps = W phases x channel
/// warps x position warps; each warp computes mmaTilesC x mmaTilesW tiles of
/// 16 channels x 8 positions of one phase. `types` have tf32 math, tf32x3
/// for an ieee kernel with split operands (the same tiling), or bf16 / f16
/// (m16n8k16: channels staged 16 at a time).
/// Returns a null attribute when the kernel does not fit this scheme (then
/// the FMA path is used).
TileConfigAttr chooseMMAConfig(KernelOp kernel, const KernelAnalysis &a,
                               KernelTypesAttr types, int64_t maxTileW,
                               int64_t forcedRows, int64_t forcedCiChunk,
                               int64_t forcedTileC, int64_t forcedWarpsC,
                               int64_t mergeH, TileRules rules);

/// Positions of one W stride phase per block on the tensor-core paths: the
/// whole row (in multiples of `quantum`) if a reduction or a pooled
/// epilogue needs it, else the multiple of `quantum` up to `maxPositions`
/// that covers the phase with the least waste plus `tileOverhead`
/// positions' worth of cost per tile (a larger overhead prefers longer
/// tiles); of equal costs the shortest, or the longest if `preferLonger`.
int64_t positionsPerPhase(const KernelAnalysis &a, int64_t sw,
                          int64_t maxPositions, int64_t tileOverhead,
                          int64_t quantum = 8, bool preferLonger = false);

/// Accumulators per thread a wgmma block of `threads` threads may hold:
/// the default budget, the larger one of a single-warpgroup block, or the
/// largest where its rows were forced (at 128 threads even 255 registers
/// leave two blocks per SM). Split operands (tf32x3) keep each round's
/// sums in a second set of accumulators: half the budget each.
int64_t wgmmaAccumulatorBudget(KernelTypesAttr types, int64_t threads,
                               bool forcedRows);

/// The wgmma config `wg` or, where the cost model prefers it or `knobs`
/// ask for it, blocks of the whole H phases of several samples
/// (`TileConfigAttr::samples`, TileSamples.cpp); `wg` itself where they do
/// not fit or are not valid for the kernel's epilogue.
TileConfigAttr withSamples(KernelOp kernel, const KernelAnalysis &a,
                           const TunedChoice &knobs, TileConfigAttr wg,
                           TileRules rules);

/// The wgmma config `wg` or, where the cost model prefers it or `knobs`
/// ask for it (`phaseSplit`), blocks whose W phases are spread over 2 or 4
/// warpgroups (`TileConfigAttr::wgmmaPhaseSplit`, TilePhaseSplit.cpp): 64
/// channels, one row, N = 64 positions a phase at W stride 8; `wg` itself
/// where they do not fit or the kernel's taps or epilogue do not allow
/// them.
TileConfigAttr withPhaseSplit(KernelOp kernel, const KernelAnalysis &a,
                              const TunedChoice &knobs, TileConfigAttr wg,
                              TileRules rules);

/// wgmma blocks with positions on M (`mmaPositionsM` on a phase split,
/// TilePhaseSplit.cpp) of tensor-core types `types`: where asked for
/// (`positionsM` = 1 with `phaseSplit`), or by the cost model for an
/// unforced one-group layer at a W stride of 8 or more with few output
/// channels (a 64-channel M at most half used) and W phases of at least 64
/// positions whose grid fills the chip; null elsewhere or where none fits.
TileConfigAttr positionsOnMPhases(KernelOp kernel, const KernelAnalysis &a,
                                  const TunedChoice &knobs,
                                  KernelTypesAttr types, TileRules rules);

/// True if wgmma config `wg` of kernel `a` may split its reduction over a
/// cluster of `k` blocks (`TileConfigAttr::clusterK`): an elementwise
/// epilogue (no reduction, statistics, pooling or channel epilogue), no
/// channel cluster or split operands, a static batch, channel chunks a
/// multiple of `k`.
bool clusterKValid(KernelOp kernel, const KernelAnalysis &a, TileConfigAttr wg,
                   int64_t k);

/// `wg` with its reduction split over a cluster (`clusterK`, TileClusterK.cpp)
/// where forced (`knobs.clusterK` > 1) and valid, or where the cost model
/// takes it: a grid under two blocks an SM and at least 1024 input channels
/// a group. Otherwise `wg`.
TileConfigAttr withClusterK(KernelOp kernel, const KernelAnalysis &a,
                            const TunedChoice &knobs, TileConfigAttr wg,
                            TileRules rules);

/// For a TF32 layer whose wgmma config `wg` has a grid under half a wave
/// (TileSmallGrid.cpp): the unforced wgmma config of 64-channel blocks with
/// rounds of 32 input channels where it has more blocks than `wg`; null
/// elsewhere (the caller takes it where its grid suffices for wgmma).
TileConfigAttr smallGridWgmma(KernelOp kernel, const KernelAnalysis &a,
                              KernelTypesAttr types, const TunedChoice &knobs,
                              TileConfigAttr wg, TileRules rules);

/// `mma`, an unforced mma.sync config (channels on M) of a TF32 layer, or
/// where its grid is at most a quarter wave, the first of fewer rows, then
/// fewer channels (halved down to one row of 16), with rounds of 32 input
/// channels, whose grid reaches half a wave (TileSmallGrid.cpp), else the
/// smallest.
TileConfigAttr withSmallGridRows(KernelOp kernel, const KernelAnalysis &a,
                                 KernelTypesAttr types,
                                 const TunedChoice &knobs, TileConfigAttr mma,
                                 TileRules rules);

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

/// mma.sync config with positions on the MMA's M side
/// (`TileConfigAttr::positionsOnM`): `sw x warpsW` warps, each computing
/// `tilesW` 16-position tiles of its W phase by the block's channels in
/// 8-channel N tiles, for `rows` rows. The block's channels are one
/// group's (at most 16), or all of a one-group layer's. Returns a null
/// attribute where the kernel does not fit (more channels per group, a
/// grouped channel reduction, too many accumulators). `types` as for
/// mma.sync (tf32, tf32x3, bf16, f16).
TileConfigAttr choosePositionsOnMConfig(KernelOp kernel,
                                        const KernelAnalysis &a,
                                        KernelTypesAttr types, int64_t maxTileW,
                                        int64_t forcedRows,
                                        int64_t forcedCiChunk, int64_t mergeH,
                                        TileRules rules);

/// True if the cost model gives kernel `a` positions on M before the other
/// tensor-core tilings under `rules` and tuned `knobs` (the rule and its
/// evidence in TilePositionsM.cpp).
bool prefersPositionsOnM(const KernelAnalysis &a, TileRules rules,
                         const TunedChoice &knobs);

/// Blocks a one-group layer's positions-on-M grid needs for the cost model
/// to take it (`prefersPositionsOnM`): a wave, or `kShortPhaseMinWaves`
/// waves for W phases of fewer than 128 positions (TilePositionsM.cpp).
int64_t positionsOnMMinBlocks(const KernelAnalysis &a);

/// Valid taps of one stride phase, at most, over all dims of `g`: a phase
/// of stride s and dilation d takes every (s / gcd(s, d))-th tap.
int64_t tapsPerPhase(const ConvGeometry &g);

/// Stride phases of dim `dim` of `g` that have a valid tap: tap t serves
/// residue (t x dilation) mod stride, so min(k, stride / gcd(stride,
/// dilation)) of the stride's phases (kb1_81, k3 s5 d2: 3 of 5). The wgmma
/// main loop issues nothing into the accumulators of the other W phases,
/// which stay the constant zero and take no registers.
int64_t phasesWithTaps(const ConvGeometry &g, int64_t dim);

/// True if the rows of one H stride phase of `g` never share a weight tap:
/// an input one row high (a generator's 1x1 latent) gives output row oh
/// the single tap kh = (oh + pad) / dil, a different one for every row. A
/// block of several such rows runs one round per row's tap (or, with
/// merged H taps, multiplies every tap with every row's positions), each
/// for one row's products: the unforced tilings take one row per block.
/// Issue 37's generators' first layers (H200, docs/perf.md 200): 53 -> 6-12
/// us at batch 1 and 16 (mma.sync 4 rows -> wgmma or mma.sync 1 row),
/// 27 -> 4-6 at 64 input channels, 82 -> 60 at batch 128 (512 channels),
/// +3% at 128 channels.
bool rowsShareNoTaps(const ConvGeometry &g);

} // namespace fusecc::fuse

#endif // FUSECC_LIB_CODEGEN_TILING_TILECHOICEINTERNAL_H
