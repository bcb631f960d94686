//===- FuseAttrs.td - fuse attributes ----------------------*- tablegen -*-===//
//
// Attributes of the fuse dialect: the per-kernel tiling configuration.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_FUSEATTRS_TD
#define FUSECC_DIALECT_FUSE_IR_FUSEATTRS_TD

include "fusecc/Dialect/Fuse/IR/FuseDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Fuse_TileConfigAttr : AttrDef<Fuse_Dialect, "TileConfig"> {
  let mnemonic = "tile";
  let summary = "How a fused kernel maps its output onto blocks and threads";
  let description = [{
    Chosen by `fuse-tile-kernels`, consumed by `fuse-convert-to-gpu`.

    A block computes one output row segment: a fixed batch index and output
    depth/height position, `tileW` consecutive positions along the last
    spatial dim, and `tileC` output channels (all channels when a channel
    reduction is fused). Its `threadsW x threadsC` threads each own
    `tileW / threadsW` positions (strided by `threadsW`, a multiple of the
    stride so that a thread's positions share one stride phase) and
    `chanPerThread` channels of each `threadsC * chanPerThread`-channel
    sub-block. Input channels are staged through shared memory `ciChunk` at a
    time. `precision` is `ieee` (FP32 FMA), `tf32` (tensor cores, operands
    rounded to TF32) or `tf32x3` (an ieee convolution on the tensor cores:
    each operand split into a TF32 high and low part, three MMAs per step,
    FP32-level accuracy; mma.sync kernels stage f32 and split fragments in
    registers, wgmma kernels stage both parts).

    With tensor cores (`mmaTilesC > 0`, tf32 or tf32x3) the block instead has
    `stride_w x mmaWarpsC x mmaWarpsW` warps: one W stride phase per warp
    row, each warp computing `mmaTilesC` 16-channel by `mmaTilesW`
    8-position `mma.sync` tiles of its phase; `threadsW`, `threadsC` and
    `chanPerThread` then describe only the epilogue's element loops.
    `rows` output rows along H of one stride phase (oh, oh + stride_h, ...)
    share a block: they use the same taps, so each staged weight chunk
    serves `rows` times more multiply-adds (tensor-core path only).
    `mergeHTaps = 1` stages all valid H taps of a round at once (their input
    rows overlap; half the rounds for 2 taps) where two blocks still fit an
    SM (tensor-core path only; a measured choice, see bench/tune.py).

    With Hopper warpgroup MMA (`wgmmaN > 0`, tf32 or tf32x3 on sm_90a) the
    block has `wgmmaGroups` warpgroups of 128 threads instead of mma.sync
    warps: the block's `tileC / 64` channel groups times a split of its
    `rows` (`wgmmaGroups / (tileC / 64)` warpgroups share the rows, each taking
    every split-th row and all W stride phases, so that its taps are known
    at compile time), each warpgroup issuing `wgmma.mma_async m64nNk8`
    (N = `wgmmaN` positions of one phase, `tileW = stride_w * wgmmaN`)
    with both operands read by the tensor cores from shared memory, staged
    two rounds deep.

    `clusterC > 1` (wgmma only) launches the blocks as thread block clusters
    of `clusterC` consecutive blocks that share everything but their
    channel tile: a channel softmax whose channels do not fit one block's
    accumulators (with enough rows to reuse the staged weights) is split
    over the cluster, each block reducing its own channels and combining
    the per-position statistics of the others through distributed shared
    memory.

    Example: `#fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16,
    chanPerThread = 4, ciChunk = 16, precision = "ieee">`
  }];
  let parameters = (ins "int64_t":$tileW, "int64_t":$tileC,
                        "int64_t":$threadsW, "int64_t":$threadsC,
                        "int64_t":$chanPerThread, "int64_t":$ciChunk,
                        StringRefParameter<"precision mode">:$precision,
                        DefaultValuedParameter<"int64_t", "0">:$mmaWarpsC,
                        DefaultValuedParameter<"int64_t", "0">:$mmaWarpsW,
                        DefaultValuedParameter<"int64_t", "0">:$mmaTilesC,
                        DefaultValuedParameter<"int64_t", "0">:$mmaTilesW,
                        DefaultValuedParameter<"int64_t", "1">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$mergeHTaps,
                        DefaultValuedParameter<"int64_t", "0">:$wgmmaN,
                        DefaultValuedParameter<"int64_t", "0">:$wgmmaGroups,
                        DefaultValuedParameter<"int64_t", "1">:$clusterC);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True if the convolution runs on tensor cores (mma.sync or wgmma TF32,
    /// or split-operand tf32x3).
    bool usesTensorCores() const { return getMmaTilesC() > 0 || usesWgmma(); }
    /// The precision of an ieee convolution on the tensor cores with split
    /// operands (3xTF32).
    static constexpr ::llvm::StringLiteral kSplitTF32 = "tf32x3";
    /// True if the tensor cores run with split operands: each split into
    /// TF32 hi + lo (mma.sync: in registers; wgmma: both parts staged),
    /// three MMAs per step.
    bool usesSplitTF32() const { return getPrecision() == kSplitTF32; }
    /// True if it runs on Hopper warpgroup MMA (wgmma.mma_async, sm_90a).
    bool usesWgmma() const { return getWgmmaN() > 0; }
    /// Warpgroups that share the rows of one channel group.
    int64_t getWgmmaRowSplit() const {
      return usesWgmma() ? getWgmmaGroups() / (getTileC() / 64) : 0;
    }
  }];
}

#endif // FUSECC_DIALECT_FUSE_IR_FUSEATTRS_TD
