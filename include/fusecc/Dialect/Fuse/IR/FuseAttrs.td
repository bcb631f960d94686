//===- FuseAttrs.td - fuse attributes ----------------------*- tablegen -*-===//
//
// Attributes of the fuse dialect: the per-kernel tiling configuration and
// the module's target.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_FUSEATTRS_TD
#define FUSECC_DIALECT_FUSE_IR_FUSEATTRS_TD

include "fusecc/Dialect/Fuse/IR/FuseDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// ConvMath: how a kernel's convolution multiplies
//===----------------------------------------------------------------------===//

def Fuse_ConvMath : I32EnumAttr<"ConvMath",
    "the arithmetic of a kernel's convolution", [
  I32EnumAttrCase<"IEEE", 0, "ieee">,
  I32EnumAttrCase<"TF32", 1, "tf32">,
  I32EnumAttrCase<"TF32x3", 2, "tf32x3">,
  I32EnumAttrCase<"BF16", 3, "bf16">,
  I32EnumAttrCase<"F16", 4, "f16">]> {
  let cppNamespace = "::fusecc::fuse";
  let genSpecializedAttr = 0;
}

def Fuse_ConvMathAttr : EnumAttr<Fuse_Dialect, Fuse_ConvMath, "conv_math"> {
  let summary = "The arithmetic of a convolution";
  let description = [{
    How a kernel's convolution multiplies: `ieee` (FP32 products, on the
    FMA units), `tf32` (tensor cores, operands rounded to TF32), `tf32x3`
    (an ieee convolution on the tensor cores: each f32 operand split into a
    TF32 high and low part, three MMAs per step, FP32-level accuracy),
    `bf16` / `f16` (tensor cores, operands rounded to bf16 / f16
    round-to-nearest-even, f32 accumulation). A `fuse.conv_transpose`
    carrying `fuse.precision = #fuse.conv_math<ieee>` is pinned to FP32 FMA
    whatever the pipeline's precision.

    Example: `#fuse.conv_math<tf32>`
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// KernelTypes: the element types of one kernel, decided once
//===----------------------------------------------------------------------===//

def Fuse_KernelTypesAttr : AttrDef<Fuse_Dialect, "KernelTypes"> {
  let mnemonic = "types";
  let summary = "The element types of a fused kernel";
  let description = [{
    Decided once per kernel by `fuse-tile-kernels` (`KernelTypesAttr::decide`,
    the one switch from the convolution's math and the graph's storage type
    to the rest) and read by every emitter:

    - `math`: the convolution's arithmetic (`#fuse.conv_math`);
    - `storage`: the element type of the kernel's tensors in memory (the
      graph's: the convolution input's element type);
    - `operand`: the type the convolution's operands are rounded to on their
      way into the multiplier: `tf32`, `bf16` or `f16` on the tensor cores
      (`tf32` for `tf32x3`, whose hi and lo parts are both TF32), `f32` on
      the FMA path (an FMA-path kernel multiplies in f32 whatever its math);
    - `accumulator`: the type of the convolution's sums (`f32`);
    - `statistics`: the type of normalisation and reduction statistics
      (always `f32`).

    Example: `#fuse.types<tf32, storage = f32, operand = tf32,
    accumulator = f32, statistics = f32>`
  }];
  let parameters = (ins EnumParameter<Fuse_ConvMath>:$math,
                        "::mlir::Type":$storage, "::mlir::Type":$operand,
                        "::mlir::Type":$accumulator,
                        "::mlir::Type":$statistics);
  let assemblyFormat = [{
    `<` $math `,` struct($storage, $operand, $accumulator, $statistics) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The element types of a kernel whose convolution computes with `math`
    /// on tensors stored as `storage`, on the tensor cores or not: the one
    /// place that maps a math mode to operand, accumulator and statistics
    /// types (model: Triton's getMmaOperandType).
    static KernelTypesAttr decide(::mlir::MLIRContext *ctx, ConvMath math,
                                  ::mlir::Type storage, bool tensorCores);
    /// The operand type of `math` on the tensor cores (`tensorCores`) or
    /// the FMA units.
    static ::mlir::Type operandTypeOf(::mlir::MLIRContext *ctx, ConvMath math,
                                      bool tensorCores);
    /// True if the tensor cores run with split TF32 operands (tf32x3).
    bool usesSplitTF32() const { return getMath() == ConvMath::TF32x3; }
    /// True if the operands are half-precision (bf16 or f16) MMA operands.
    bool usesHalfOperands() const {
      return ::llvm::isa<::mlir::BFloat16Type, ::mlir::Float16Type>(
          getOperand());
    }
    /// True if the operands are rounded below f32 (tf32, bf16, f16): the
    /// kernel's epilogue may approximate (`epilogue-math=auto`).
    bool roundsOperands() const {
      return getMath() == ConvMath::TF32 || getMath() == ConvMath::BF16 ||
             getMath() == ConvMath::F16;
    }
  }];
}

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
    time. `types` are the kernel's element types and its convolution's math
    (`#fuse.types`): `ieee` (FP32 FMA), `tf32` (tensor cores, operands
    rounded to TF32) or `tf32x3` (an ieee convolution on the tensor cores:
    each operand split into a TF32 high and low part, three MMAs per step,
    FP32-level accuracy; mma.sync kernels stage f32 and split fragments in
    registers, wgmma kernels stage both parts).

    With tensor cores (`mmaTilesC > 0`, tf32 or tf32x3) the block instead has
    `stride_w x mmaWarpsC x mmaWarpsW` warps: one W stride phase per warp
    row, each warp computing `mmaTilesC` 16-channel by `mmaTilesW`
    8-position `mma.sync` tiles of its phase; `threadsW`, `threadsC` and
    `chanPerThread` then describe only the epilogue's element loops.
    With `mmaPositionsM = 1` the roles are exchanged for layers of few
    output channels: each warp computes `mmaTilesW` tiles of 16 positions
    of its phase (the MMA's M) by `mmaTilesC` tiles of 8 channels (its N;
    `mmaWarpsC = 1`, `tileC <= 8 * mmaTilesC`): the input is the A operand,
    the weights (staged for `8 * mmaTilesC` channels, zero past the
    group's) the B operand, so a 3-channel layer fills 3 of 8 columns of
    the MMA instead of 3 of 16 rows, and a grouped layer of 1-8 channels
    per group runs on the tensor cores at all.
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
    (N = `wgmmaN` positions of one phase, `tileW = stride_w * wgmmaN`;
    `wgmmaGroups` counts the phase split's warpgroups too)
    with both operands read by the tensor cores from shared memory, staged
    two rounds deep.

    `clusterC > 1` (wgmma only) launches the blocks as thread block clusters
    of `clusterC` consecutive blocks that share everything but their
    channel tile: a channel softmax whose channels do not fit one block's
    accumulators (with enough rows to reuse the staged weights) is split
    over the cluster, each block reducing its own channels and combining
    the per-position statistics of the others through distributed shared
    memory.

    `samples > 0` (wgmma only) makes a block's `rows` all rows of one H
    stride phase of `samples` consecutive samples (`rows / samples` a
    sample, the output height a multiple of the H stride): row r is row
    r mod (rows / samples) of sample n0 + r / (rows / samples), so that
    layers whose phases are few rows short reuse each staged weight over
    several samples' positions. Such blocks stage one H tap per round, take
    their rows as one wgmma N, and the staged rows as close as their taps
    allow (`SharedMemoryPlan::inputSpan`); a last block past the batch
    leaves its missing samples' rows out. With a row split (`wgmmaGroups`
    = tileC / 64 x split) each warpgroup of a channel group takes rows /
    split consecutive rows as its N (e.g. one sample each), and all of them
    read the one staged weight slice: more positions per staged weight
    than one warpgroup's accumulators hold. 0: rows of one sample.

    `wgmmaPhaseSplit = S > 1` (wgmma only, one row per warpgroup, a W
    stride that S divides, every W phase with the same taps: kernel width
    a multiple of the W stride, W dilation 1) spreads the W phases over S
    warpgroups of the same channels and rows: warpgroup s holds phases s x
    stride_w / S .. (s + 1) x stride_w / S - 1 and issues only their taps,
    so that its accumulators allow an N of S times the positions (stride 8:
    4 warpgroups of 2 phases x 64 positions instead of 8 phases x 16; each
    staged weight operand then serves 64 positions, docs/perf.md 229).
    With `mmaPositionsM = 1` as well (layers of at most 64 channels,
    `tileC = 64`, `wgmmaN <= 64`, not tf32x3) the roles are exchanged as on
    mma.sync: the (up to 64) positions of each of a warpgroup's phases are
    the M of its wgmma and the layer's channels, rounded up to 8, its N, so
    a head of 17-32 channels fills M with positions instead of padding its
    channels to 64 rows (TilePhaseSplit.cpp, docs/perf.md 261).

    `clusterK = K > 1` (wgmma only; 2, 4 or 8) splits the reduction over a
    thread block cluster: the K consecutive blocks of a cluster compute the
    same output tile, block r taking main-loop rounds [r R / K, (r + 1) R /
    K) of the tile's R rounds (d tap, h tap, input-channel chunk: disjoint
    channel ranges and taps, each block staging only its rounds' weights).
    After their main loops the blocks meet at a cluster barrier, blocks 1 ..
    K - 1 store their f32 accumulator fragments into block 0's shared
    memory (distributed shared memory), and after a second barrier block 0
    adds them to its own in rank order (deterministic) and alone runs the
    epilogue. For layers whose grid underfills the GPU and whose reduction
    is long (a decoder's first layer: many input channels, few positions):
    K times the warps for the latency of the rounds (docs/perf.md 232:
    heatmap_head's 2048 -> 256 layer -6% in bf16 and -12% in tf32 at K =
    2, +22% at K = 4).
    Elementwise epilogues only (no statistics, pooling, channel epilogue,
    `clusterC` or tf32x3); the channel chunks a multiple of K.

    Example: `#fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16,
    chanPerThread = 4, ciChunk = 16, types = <ieee, storage = f32,
    operand = f32, accumulator = f32, statistics = f32>>`
  }];
  let parameters = (ins "int64_t":$tileW, "int64_t":$tileC,
                        "int64_t":$threadsW, "int64_t":$threadsC,
                        "int64_t":$chanPerThread, "int64_t":$ciChunk,
                        "KernelTypesAttr":$types,
                        DefaultValuedParameter<"int64_t", "0">:$mmaWarpsC,
                        DefaultValuedParameter<"int64_t", "0">:$mmaWarpsW,
                        DefaultValuedParameter<"int64_t", "0">:$mmaTilesC,
                        DefaultValuedParameter<"int64_t", "0">:$mmaTilesW,
                        DefaultValuedParameter<"int64_t", "1">:$rows,
                        DefaultValuedParameter<"int64_t", "0">:$mergeHTaps,
                        DefaultValuedParameter<"int64_t", "0">:$wgmmaN,
                        DefaultValuedParameter<"int64_t", "0">:$wgmmaGroups,
                        DefaultValuedParameter<"int64_t", "1">:$clusterC,
                        DefaultValuedParameter<"int64_t", "0">:$mmaPositionsM,
                        DefaultValuedParameter<"int64_t", "0">:$samples,
                        DefaultValuedParameter<"int64_t", "1">:$wgmmaPhaseSplit,
                        DefaultValuedParameter<"int64_t", "1">:$clusterK);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True if the convolution runs on tensor cores (mma.sync or wgmma TF32,
    /// or split-operand tf32x3).
    bool usesTensorCores() const { return getMmaTilesC() > 0 || usesWgmma(); }
    /// The convolution's arithmetic.
    ConvMath getMath() const { return getTypes().getMath(); }
    /// True if the tensor cores run with split operands: each split into
    /// TF32 hi + lo (mma.sync: in registers; wgmma: both parts staged),
    /// three MMAs per step.
    bool usesSplitTF32() const { return getTypes().usesSplitTF32(); }
    /// True if its mma.sync tiles put positions on the MMA's M side and
    /// channels on N (`mmaPositionsM`).
    bool positionsOnM() const { return getMmaPositionsM() != 0; }
    /// Channels whose weights the tensor-core main loop stages together:
    /// the N tiles' 8 channels each with positions on M, else the tile's.
    int64_t mmaStagedChannels() const {
      return positionsOnM() ? 8 * getMmaTilesC() : getTileC();
    }
    /// True if it runs on Hopper warpgroup MMA (wgmma.mma_async, sm_90a).
    bool usesWgmma() const { return getWgmmaN() > 0; }
    /// True if a block's rows are whole phases of several (or one) samples
    /// (`samples`).
    bool spansSamples() const { return getSamples() > 0; }
    /// Rows of one sample in a block: `rows / samples`, or `rows`.
    int64_t rowsPerSample() const {
      return spansSamples() ? getRows() / getSamples() : getRows();
    }
    /// Warpgroups that share the rows of one channel group.
    int64_t getWgmmaRowSplit() const {
      return usesWgmma() ? getWgmmaGroups() / (getTileC() / 64) /
                               getWgmmaPhaseSplit()
                         : 0;
    }
    /// True if its reduction is split over a cluster (`clusterK`).
    bool splitsReduction() const { return getClusterK() > 1; }
    /// Blocks of one cluster: `clusterC` channel tiles or `clusterK`
    /// reduction parts (never both).
    int64_t clusterBlocks() const { return getClusterC() * getClusterK(); }
    /// True if its W phases are spread over warpgroups (`wgmmaPhaseSplit`).
    bool splitsPhases() const { return getWgmmaPhaseSplit() > 1; }
  }];
}

/// A parameter of one of fusecc's option enums (fusecc/Support/Options.h),
/// printed and parsed with the option's spellings (`sm_90a`, `h200`).
class Fuse_OptionEnumParameter<string cppType, string desc>
    : AttrParameter<cppType, desc> {
  let parser = "::fusecc::fuse::parseOptionEnum<" # cppType # ">($_parser)";
  let printer = "$_printer << ::fusecc::toString($_self)";
}

def Fuse_TargetAttr : AttrDef<Fuse_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "The GPU a module's kernels are planned and generated for";
  let description = [{
    Attached to the module as `fuse.target` by `fuse-attach-target` (the
    pipeline's `--chip` and `--device`). `chip` is the PTX target: which
    instructions kernels may use (`sm_90a`: Hopper warpgroup MMA; `sm_90`
    and up: thread block clusters; `sm_80`: mma.sync and FMA only).
    `device` names the GPU whose facts size the kernels: SM count, shared
    memory per SM and per block, registers, threads, L2, memory bandwidth,
    the MMA shapes and peak rates per operand type. The facts live in one
    table (`fusecc::TargetInfo`, lib/Target/GPU/TargetInfo.cpp), read
    through `getInfo()` or `fuse::getTargetInfo(op)`; a module without the
    attribute is planned for the defaults (`sm_90` on an `h200`). The device
    must run the chip's code.

    Example: `module attributes {fuse.target = #fuse.target<chip = sm_90a,
    device = h200>} { ... }`
  }];
  let parameters = (ins Fuse_OptionEnumParameter<"::fusecc::Chip",
                            "PTX target">:$chip,
                        Fuse_OptionEnumParameter<"::fusecc::Device",
                            "the GPU whose facts size the kernels">:$device);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the module attribute that holds the target.
    static constexpr ::llvm::StringLiteral kAttrName = "fuse.target";
    /// The facts of this target.
    ::fusecc::TargetInfo getInfo() const {
      return ::fusecc::TargetInfo::get(getDevice(), getChip());
    }
  }];
}

#endif // FUSECC_DIALECT_FUSE_IR_FUSEATTRS_TD
