//===- KernelAnalysis.h - shape facts of a fused kernel ---------*- C++ -*-===//
//
// What the tiling pass and the GPU lowering both need to know about a
// fuse.kernel: its convolution normalised to three spatial dims, the
// reductions of its epilogue, and the target it is compiled for.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_KERNELANALYSIS_H
#define FUSECC_DIALECT_FUSE_IR_KERNELANALYSIS_H

#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"
#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Target/GPU/TargetInfo.h"

#include <array>
#include <optional>

namespace fusecc::fuse {

/// Where the reduction set of a normalisation lies relative to a
/// convolution kernel's output tile.
enum class TileReduction {
  /// All channels of one position: a block (or cluster) holds all channels.
  Channels,
  /// A whole last-dim row: a block holds whole rows.
  LastDim,
  /// Anything else (group_norm, layer_norm over several dims, softmax over
  /// a spatial dim): the set spans blocks, so the op gets a kernel of its
  /// own whose statistics are planned as phases.
  SpansBlocks,
};
TileReduction tileReductionOf(NormalizationOpInterface op);

/// What a fuse.kernel computes, from its ops: a transposed convolution
/// (plus epilogue), a normalisation whose reduction sets span blocks (plus
/// elementwise ops after it), a set reduction over whole dims (sum, mean,
/// amax, amin, logsumexp, global pooling: its sets planned like a
/// normalisation's, one result per set), the per-tap box sums of a
/// transposed convolution's input in one pass per plane (`BoxSumsLayout`),
/// or elementwise and window ops evaluated per element.
enum class KernelKind {
  Convolution,
  Normalization,
  Reduction,
  BoxSums,
  Elementwise
};
KernelKind kernelKindOf(KernelOp kernel);

/// The op whose per-set statistics a normalisation or reduction kernel
/// computes, with what the planning of its sets needs to know.
struct StatsRoot {
  mlir::Operation *op = nullptr;
  /// The reduced dims, ascending and contiguous.
  llvm::SmallVector<int64_t> reducedDims;
  /// Groups of the channel dim (group_norm), else 1.
  int64_t channelGroups = 1;
  /// The statistics kept per set and merged from partials.
  StatsKind kind = StatsKind::Moments;
  /// MaxSumExp normalisations: the element's formula (softmax or
  /// log_softmax).
  SoftmaxForm form = SoftmaxForm::Exp;
  /// Not None: the kernel computes this statistic, one result per set.
  SetReduction reduction = SetReduction::None;
  /// Variance: subtracted from a set's size in the divisor.
  int64_t correction = 0;

  explicit operator bool() const { return op != nullptr; }
  bool reduces() const { return reduction != SetReduction::None; }
  /// Values per partial statistic (`statisticsPerSet`).
  int64_t numStatistics() const { return statisticsPerSet(kind); }
  /// The root of normalisation or reduction kernel `kernel` (its first op
  /// that is neither a constant nor a view of its input), or an empty root.
  static StatsRoot of(KernelOp kernel);
};

/// `v` with the view ops that produce it (WindowOpInterface::isView)
/// looked through: the value whose buffer holds `v`'s elements in order.
mlir::Value viewSource(mlir::Value v);
/// True if `op` is a view op (a reshape).
bool isViewOp(mlir::Operation *op);
/// True if every use of `v` is `user` or a view whose result only feeds
/// `user` (a kernel reads `v` for `user` alone).
bool onlyFeeds(mlir::Value v, mlir::Operation *user);

/// A transposed convolution with its spatial dims padded to three (leading
/// unit dims: size 1, kernel 1, stride 1, padding 0, dilation 1).
struct ConvGeometry {
  int64_t rank = 0; ///< Rank of the original tensors (3, 4 or 5).
  int64_t n = 0, cin = 0, cout = 0, groups = 1;
  std::array<int64_t, 3> in{}, out{}, k{}, stride{}, pad{}, dil{};
  bool hasBias = false;

  int64_t cinPerGroup() const { return cin / groups; }
  int64_t coutPerGroup() const { return cout / groups; }
  /// Multiply-adds the convolution really needs (valid taps only).
  int64_t validMacs() const;

  static ConvGeometry get(ConvTransposeOp conv);
};

/// A pooling op applied in a convolution kernel's epilogue (a
/// `WindowOpInterface` op with a sliding window on the epilogue's value):
/// each block holds whole pooling windows, so the pre-pool tensor never
/// reaches device memory. Its window, normalised to three spatial dims
/// like `ConvGeometry` (leading unit dims: kernel 1, stride 1).
struct PooledEpilogue {
  WindowOpInterface op;
  SlidingWindow window;
  std::array<int64_t, 3> k{}, s{}, dil{};
  /// The pooled result's spatial sizes.
  std::array<int64_t, 3> out{};
  /// Convolution positions along W that the pooled result reads:
  /// (out - 1) s + (k - 1) dil + 1 (a block holds all of them).
  int64_t neededW = 0;

  /// The pooling of `op` on a value of `convShape` (the result shape of a
  /// convolution of stride `convStrideH` along H, 1 without an H dim), or
  /// std::nullopt when it cannot be applied in an epilogue: not a sliding
  /// window over every spatial dim, padding, or windows wider than
  /// `kMaxPooledRowWidth` or taking more than `kMaxPooledPasses` passes.
  static std::optional<PooledEpilogue> get(WindowOpInterface op,
                                           llvm::ArrayRef<int64_t> convShape,
                                           int64_t convStrideH);
  /// How a block with `rows` rows of one H stride phase per main-loop pass
  /// covers its pooling windows: `pooledRows` pooled rows, whose convolution
  /// rows (a run of `(pooledRows - 1) s + (k - 1) dil + 1` from
  /// `first pooled row x s`) are `hGroups` groups of `rows x strideH`
  /// consecutive rows, each group one pass per H stride phase; every pooled
  /// depth tap takes its own passes. Pass p = (depth tap, group, phase),
  /// the phase fastest; `count` passes.
  struct Passes {
    int64_t pooledRows = 1, hGroups = 1, hPasses = 1, count = 1;
  };
  Passes passesFor(int64_t rows, int64_t strideH) const;
};
/// The widest row of convolution positions a pooled epilogue reads (one
/// tile holds it).
constexpr int64_t kMaxPooledRowWidth = 256;
/// The most main-loop passes of a pooled epilogue at one row per pass (a
/// composed window, kb2_78's 6 x 6 x 6 over a stride-2 convolution, takes
/// 36; each pass's walk reads only the window rows the pass computed).
constexpr int64_t kMaxPooledPasses = 64;

/// The attribute fuse-form-kernels sets on a convolution whose input a
/// prologue computes (a string: what it decided and why); `--emit=plan`
/// prints it.
constexpr llvm::StringLiteral kPrologueAttr = "fuse.prologue";

/// The cost rule of a prologue (fuse-form-kernels{prologue=auto}), in
/// element reads and writes per element of the prologue's result P. In a
/// kernel of its own the prologue reads `reads` input elements and writes
/// P once, and every convolution stages each element of P `stagings`
/// times (summed over the convolutions that read P); folded, every staged
/// element evaluates the chain, reading `reads` input elements.
struct PrologueCost {
  /// V: input elements the chain reads per element of P (a window's
  /// volume times its operand's reads; inputs broadcast to a larger shape,
  /// per-channel parameters, count none: they stay in the caches).
  int64_t reads = 1;
  /// S: stagings of each element of P, summed over its convolutions.
  int64_t stagings = 0;
  int64_t folded() const { return reads * stagings; }
  int64_t separate() const { return reads + 1 + stagings; }
  bool pays() const { return folded() <= separate(); }
};
/// V of the chain that computes `v` (ops in `chain`; anything else is an
/// input of the chain).
int64_t prologueReads(mlir::Value v,
                      const llvm::DenseSet<mlir::Operation *> &chain);
/// Estimated stagings of each input element by convolution `g` (the
/// tiling is chosen after kernel formation): one per output-channel tile
/// of 64 (`kPrologueTileC`), per depth tap and per height tap (every
/// output row of a stride phase stages the input row of each of its valid
/// taps; W taps share one staged row).
int64_t inputStagings(const ConvGeometry &g);
constexpr int64_t kPrologueTileC = 64;

/// True if `op` reduces a value of `convShape` over its channel dim alone
/// (a set reduction with reduced dims {1}): a convolution whose blocks hold
/// all channels applies it in its epilogue.
bool isChannelReduction(WindowOpInterface op,
                        llvm::ArrayRef<int64_t> convShape);

/// True if `conv` is a *channel contraction* of a value of `convShape`, a
/// convolution kernel's epilogue value: a convolution of kernel size 1
/// along every spatial dim, stride 1, no padding, one group, reading
/// `convShape` and writing the same positions, with at most
/// `maxContractionChannels(target)` output channels. Per position it is
/// `out[j] = bias[j] + sum_c in[c] W[j, c]`: a kernel whose blocks hold all
/// the channels of its convolution computes it in its epilogue, so the
/// contracted tensor never reaches device memory (a heatmap head's final
/// 1x1 conv). The one rule: fuse-form-kernels takes such a convolution
/// into the epilogue, and the kernel analysis accepts it there. The
/// contracted tensor has at most `kMaxContractionInputChannels` channels.
bool isChannelContraction(ConvTransposeOp conv,
                          llvm::ArrayRef<int64_t> convShape,
                          const TargetInfo &target);
/// The most channels a channel contraction reads (its producer's output
/// channels). The producer's blocks must then hold all of them: up to 128
/// (two 64-channel warpgroups) that is the tile the producer takes anyway;
/// wider, the tile grows to all channels at one row per block and fewer
/// blocks per SM. heatmap_head's 256-channel producer ran 117 us slower
/// that way, more than the 84 us kernel the contraction saved (H200,
/// docs/perf.md section 176).
constexpr int64_t kMaxContractionInputChannels = 128;
/// The most output channels of a channel contraction in an epilogue. The
/// contraction adds `2 C J` FP32 FMA flops per position on the CUDA cores
/// (after the main loop, which it does not overlap), and saves writing and
/// reading the `C`-channel f32 tensor, `8 C` bytes per position at the
/// device's copy rate. It joins where its flops take at most half the time
/// of the bytes it saves: `2 C J / F <= 4 C / BW`, i.e. `J <= 2 F / BW`
/// (H200: 2 x 51 TFLOP/s / 4.26 TB/s = 23; A100: 19).
int64_t maxContractionChannels(const TargetInfo &target);

/// What a fused kernel's epilogue requires of its tiling.
struct KernelAnalysis {
  ConvTransposeOp conv;
  ConvGeometry geom;
  /// The prologue: the elementwise and window ops before the convolution
  /// that compute its input from kernel inputs, in order (empty: the input
  /// is a kernel input). The staging evaluates it per input element.
  llvm::SmallVector<mlir::Operation *> prologue;
  bool hasPrologue() const { return !prologue.empty(); }
  /// True if the prologue holds elementwise ops only: rows that are
  /// multiples of 4 long keep the 16-byte staging (the chain's inputs of
  /// the convolution input's shape loaded as vectors, evaluated per lane);
  /// window ops (pools, views) stage element by element.
  bool prologueIsElementwise() const;
  /// Operand casts: `fuse.cast`s before the convolution that widen a bf16 /
  /// f16 kernel input to f32 and whose value the convolution reads directly
  /// as its input, weight or bias, or its prologue ops read (a half skip of
  /// a concatenation; fuse-form-kernels copies them in from
  /// fuse-widen-half's casts). Not part of the prologue: the kernel reads
  /// the half elements where it would read the f32 ones and widens them as
  /// it loads (docs/design/types.md).
  llvm::SmallVector<CastOp> operandCasts;
  /// Parameter ops: elementwise and view ops after the convolution that
  /// read kernel inputs, constants and each other only, never the
  /// convolution (an eval batch_norm's `rsqrt(running_var + eps) * weight`
  /// and the `[C] -> [C, 1, 1]` views of its vectors; fuse-form-kernels
  /// copies them in, `isParameterValue`). The epilogue evaluates them
  /// where it reads them, at the element's coordinates (per-channel values
  /// in registers), so they get no kernel and no buffer of their own.
  llvm::SmallVector<mlir::Operation *> params;
  bool isParam(mlir::Operation *op) const {
    return op && llvm::is_contained(params, op);
  }
  /// The kernel input that holds convolution operand `v` (its input,
  /// weight or bias): the half input an operand cast widens, else `v`.
  mlir::Value storedOperand(mlir::Value v) const;
  /// The kernel runs once per sample of a launch-time batch (`--max-batch`,
  /// set by fuse-tile-kernels): its blocks cannot span samples.
  bool perSampleLaunch = false;
  /// The epilogue needs all output channels of a position in one block.
  bool needsAllChannels = false;
  /// The epilogue needs a whole row of the last dim in one block.
  bool needsWholeRow = false;
  /// A pooling op applied in the epilogue (after the elementwise ops, before
  /// the others), if any: blocks then cover whole pooling windows.
  std::optional<PooledEpilogue> pool;
  /// A reduction over the channel dim (sum, mean, amax, amin, logsumexp
  /// over dim 1) applied in the epilogue, if any: the block holds all
  /// channels and builds one result per position from its tile.
  WindowOpInterface channelWindow;
  /// A channel contraction (`isChannelContraction`: a 1x1 convolution of
  /// few output channels) applied in the epilogue, if any: the block holds
  /// all channels and builds each position's output channels from its
  /// tile, then the elementwise ops after it.
  ConvTransposeOp contraction;
  /// The epilogue ends in a reduction or contraction over the channels,
  /// built per position from the tile (not a pooling).
  bool channelEpilogue() const { return channelWindow || contraction; }
  /// A block holds the whole row of convolution positions that its
  /// epilogue reads (a last-dim reduction or a pooled epilogue).
  bool wholeRow() const { return needsWholeRow || pool.has_value(); }
  /// Convolution positions along W that the epilogue reads.
  int64_t rowWidth() const { return pool ? pool->neededW : geom.out[2]; }
  /// Softmax and layer_norm ops, in order.
  llvm::SmallVector<mlir::Operation *> reductions;
  /// Shared-memory output tile of the convolution (always 0) and of each
  /// reduction. A reduction takes over the tile of a value nothing after it
  /// reads (its input is read and overwritten element by element by the
  /// same thread), so a conv -> softmax -> ... chain needs one tile.
  llvm::DenseMap<mlir::Operation *, int64_t> tileOf;
  int64_t numTiles = 1;
  /// The target the kernel is compiled for (`getTargetInfo(kernel)`): the
  /// chip facts its plans and tilings are sized by.
  TargetInfo target = TargetInfo::getDefault();

  /// Analyses `kernel`; emits a located diagnostic and fails when the kernel
  /// is not a convolution plus an epilogue that one block per tile can run.
  static llvm::FailureOr<KernelAnalysis> analyze(KernelOp kernel);

  /// The key under which measured tile choices of this kernel are recorded
  /// (`fuse-tile-kernels{tuning-file=...}`): the convolution's math (its
  /// `#fuse.conv_math` spelling), the whole convolution geometry and the
  /// kernel's op sequence, so that a choice applies only to the layer it was
  /// measured on. Without `storageCasts` the op sequence leaves out the
  /// kernel's `fuse.cast`s: the key of the same layer and epilogue on f32
  /// storage (a half graph's kernel's f32 twin).
  std::string tuningKey(KernelOp kernel, ConvMath math,
                        bool storageCasts = true) const;

private:
  void assignTiles();
};

/// The largest kernel size along any spatial dim: the generated kernels
/// unroll the W taps and select tap phases with unrolled code.
constexpr int64_t kMaxKernelSize = 1024;

} // namespace fusecc::fuse

#endif // FUSECC_DIALECT_FUSE_IR_KERNELANALYSIS_H
