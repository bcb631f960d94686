//===- EmitContext.h - what the kernel emitters share -----------*- C++ -*-===//
//
// The device code of a fused kernel is written by one emitter per family,
// one file each, all working on one explicit `EmitContext`:
//
//   IndexMath.cpp        block decomposition, valid-tap ranges, rounds
//   Staging.cpp          inputs and weights into shared memory (registers,
//                        cp.async copies of the re-laid-out operands)
//   MainLoopFMA.cpp      the synchronous main loop (FMA and mma.sync) and
//                        its FMA accumulation
//   MainLoopMmaSync.cpp  mma.sync m16n8k8 warp coordinates, MMAs, stores
//   MainLoopWgmma.cpp    the wgmma main loop: descriptors, rounds, stores
//   Epilogue.cpp         the walk over the output tile, element values and
//                        the stores to global memory (or the runs of the
//                        wgmma accumulators, straight from registers)
//   BulkStore.cpp        the result evaluated on the wgmma accumulators,
//                        through the output tile by one bulk copy a line
//   LineReduction.cpp    softmax / layer_norm line statistics and the
//                        normalisation on load
//   EpilogueStatistics.cpp  partial statistics of a planned normalisation
//                        of the kernel's result (group_norm after a conv)
//   PooledEpilogue.cpp   window ops in the epilogue: pooling (main-loop
//                        passes over the windows' rows) and reductions
//                        over the channels
//   Prologue.cpp         the ops before the convolution, evaluated per
//                        staged input element
//   ClusterExchange.cpp  cluster barriers and distributed shared memory
//   Relayout.cpp         the weight / input re-layout kernels
//   FastMath.cpp         exp / reciprocal rewrites of the finished function
//   KernelBuilder.cpp    the driver (`buildKernelFunction`)
//
// The context holds what does not change while a kernel is emitted (the
// kernel, its analysis and tile config, the launch and shared-memory plans)
// and the values every family reads (thread id, the block's tile origin,
// the valid-tap ranges, warp coordinates), set once by the family that
// computes them. Emitters take the context and return values; the builder
// (`EmitBuilder`) carries the index arithmetic shorthands.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_CONVERSION_FUSETOGPU_EMITCONTEXT_H
#define FUSECC_LIB_CONVERSION_FUSETOGPU_EMITCONTEXT_H

#include "fusecc/Conversion/FuseToGPU/KernelBuilder.h"
#include "fusecc/Dialect/Fuse/Transforms/Plan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <numeric>
#include <optional>

namespace fusecc::emit {

using mlir::ArrayRef;
using mlir::SmallVector;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;

//===----------------------------------------------------------------------===//
// Builder
//===----------------------------------------------------------------------===//

/// The builder of the emitters: an `ImplicitLocOpBuilder` with shorthands
/// for the index arithmetic (unsigned division and remainder of
/// non-negative indices) and f32 constants. Static values are folded by
/// canonicalize later, so the shorthands never fold themselves, except that
/// adding 0 and multiplying or dividing by 1 return the operand.
class EmitBuilder : public mlir::ImplicitLocOpBuilder {
public:
  using ImplicitLocOpBuilder::ImplicitLocOpBuilder;

  /// An index constant.
  Value c(int64_t v) { return mlir::arith::ConstantIndexOp::create(*this, v); }
  /// An f32 constant.
  Value f(double v) {
    return mlir::arith::ConstantOp::create(*this, getF32FloatAttr(v));
  }
  Value add(Value x, Value y) {
    return mlir::arith::AddIOp::create(*this, x, y);
  }
  Value sub(Value x, Value y) {
    return mlir::arith::SubIOp::create(*this, x, y);
  }
  Value mul(Value x, Value y) {
    return mlir::arith::MulIOp::create(*this, x, y);
  }
  Value add(Value x, int64_t y) { return y ? add(x, c(y)) : x; }
  Value mul(Value x, int64_t y) { return y == 1 ? x : mul(x, c(y)); }
  Value divu(Value x, int64_t y) {
    return y == 1 ? x : mlir::arith::DivUIOp::create(*this, x, c(y));
  }
  Value remu(Value x, int64_t y) {
    return mlir::arith::RemUIOp::create(*this, x, c(y));
  }
  /// x / y for a signed x known to be a multiple of y.
  Value divExact(Value x, int64_t y) {
    return y == 1 ? x : mlir::arith::DivSIOp::create(*this, x, c(y));
  }
  Value floorDiv(Value x, int64_t y) {
    return y == 1 ? x : mlir::arith::FloorDivSIOp::create(*this, x, c(y));
  }
  Value cmp(mlir::arith::CmpIPredicate p, Value x, Value y) {
    return mlir::arith::CmpIOp::create(*this, p, x, y);
  }
  Value ult(Value x, int64_t y) {
    return cmp(mlir::arith::CmpIPredicate::ult, x, c(y));
  }
  Value andI(Value x, Value y) {
    return mlir::arith::AndIOp::create(*this, x, y);
  }
  /// 0 <= x < hi for a signed index, as one unsigned compare.
  Value inRange(Value x, int64_t hi) { return ult(x, hi); }
  /// Loads `mem[idx]` as f32: a bf16 / f16 element (half storage read
  /// directly, KernelAnalysis::operandCasts) widened exactly.
  Value loadF32(Value mem, ValueRange idx);
  /// Loads the 4 consecutive elements `mem[idx..]` (the last index a
  /// multiple of 4) as a vector<4xf32>: one 16-byte load of f32, one
  /// 8-byte load of half elements, each widened.
  Value loadF32x4(Value mem, ValueRange idx);
  /// Loads `mem[idx]` as f32 (`loadF32`) if `cond`, else yields 0.
  Value guardedLoad(Value cond, Value mem, ValueRange idx);
};

//===----------------------------------------------------------------------===//
// Shared records
//===----------------------------------------------------------------------===//

/// One element of a block's output tile: tile coordinates (row, channel,
/// position) and the output coordinates they stand for. The elements of a
/// pooled epilogue also name their depth (`od`; else the block's) and, with
/// kept pass tiles, the offset of their pass's tile (`tileOffset`).
struct Element {
  Value r, cl, wl, ch, oh, ow;
  Value od, tileOffset;
};

/// The valid taps of one dim for a block: the arithmetic progression of taps
/// of the block's stride phase, cut to those whose input row (any of `rows`
/// consecutive rows) lies inside the input. `count` may be zero.
struct TapRange {
  Value first;           ///< First valid tap.
  int64_t step = 1;      ///< Tap step.
  Value input;           ///< Input index of the first valid tap (row 0).
  int64_t inputStep = 1; ///< Input index decrement per tap step.
  Value count;           ///< Number of valid taps.
  int64_t maxCount = 1;  ///< Static bound of `count`: ceil(k / step).
};

/// The valid-tap rounds of the main loop: (d tap, h tap or all h taps,
/// input channel chunk) of round `q`, with the input rows they stage.
struct Round {
  Value ci0, id, ih, td, th, hValid;
};

//===----------------------------------------------------------------------===//
// The context
//===----------------------------------------------------------------------===//

/// Everything the emitters of one kernel share. Built by the driver; the
/// block decomposition, the main loops and the cluster exchange fill in the
/// values they compute before later families read them.
struct EmitContext {
  EmitContext(EmitBuilder &b, fuse::KernelOp kernel,
              const fuse::KernelAnalysis &a, mlir::gpu::GPUFuncOp func,
              EpilogueMath math);

  EmitBuilder &b;
  fuse::KernelOp kernel;
  /// A copy: the accessors of the op handles it holds are not const.
  fuse::KernelAnalysis a;
  const fuse::ConvGeometry &g;
  fuse::TileConfigAttr cfg;
  fuse::SharedMemoryPlan smemPlan;
  fuse::LaunchPlan launch;
  mlir::gpu::GPUFuncOp func;
  EpilogueMath math;
  /// The element type of the kernel's tensors and of its shared memory
  /// (f32; the emitters still spell f32 where they compute in it).
  Type elementType;

  /// wgmma: the re-laid-out weights (`WeightPackPlan`) and input
  /// (`InputPackPlan`), and the gpu.func arguments that hold them.
  std::optional<fuse::WeightPackPlan> pack;
  std::optional<fuse::InputPackPlan> ipack;
  Value packed, ipacked;
  /// Kernel body value -> gpu.func memref.
  llvm::DenseMap<Value, Value> memOf;

  /// The partial statistics this kernel's epilogue writes for the
  /// normalisation that reads its result (fuse-plan-kernels), and the
  /// gpu.func argument they go to.
  std::optional<fuse::EpilogueStatsLayout> stats;
  Value statsOut;
  /// The result is never stored: the epilogue leaves its values in tile 0
  /// for the statistics only (KernelPlan::statsOnly).
  bool statsOnly = false;
  /// The epilogue is evaluated on the wgmma accumulators in registers and
  /// stored from there: no output tile in shared memory
  /// (`canEvaluateFromRegisters`).
  bool registerEpilogue = false;
  /// With `registerEpilogue`: the channel softmax whose statistics the
  /// epilogue takes from the accumulators (`chooseRegisterSoftmax`), else
  /// null.
  mlir::Operation *registerSoftmax = nullptr;
  /// Whether `chooseRegisterSoftmax` may pick that path (the
  /// `register-softmax` option of fuse-convert-to-gpu).
  bool registerSoftmaxAllowed = false;
  /// The result, evaluated on the wgmma accumulators, goes to global memory
  /// through an output tile and bulk copies, one per line
  /// (`chooseBulkStore`): the tile's line stride, else 0.
  int64_t bulkStride = 0;

  /// Pooled epilogue (`a.pool`): the block's pooled depth and first pooled
  /// row, and with kept pass tiles the offset of the current pass's tile
  /// from tile 0 (set while its main loop is emitted, else null).
  Value pd, ph0, tileBase;

  Value smem;                ///< memref<total x f32, workgroup>
  /// Tile 0 in the result's half type (`chooseHalfTile`): its element
  /// (r, cl, wl) is element `tileAddr(0, r, cl, wl)` of `smemHalf`, a view
  /// of 2-byte elements over the same shared memory; null elsewhere.
  Type halfTileType;
  Value smemHalf;
  Value tid, tx, ty;         ///< Thread id, its W lane and channel lane.
  Value n, od, oh, ow0, co0; ///< The block's tile origin.
  /// The block's W tile, channel tile and H block (the block id's digits).
  Value wTile, cTile, hBlock;
  Value iwMin; ///< First staged input position along W.
  /// The block's valid d and h taps and the h part of the round count
  /// (`emitRoundCount`).
  TapRange dTaps, hTaps;
  Value hRounds;
  /// mma.sync warp coordinates (`emitMmaSyncWarpCoordinates`).
  Value mmaPhase, mmaWC, mmaWW, mmaGroup, mmaTig;
  /// wgmma: this warpgroup's channel group and row-split index (rows as one
  /// N over a row split, blocks of samples: its first row), and the
  /// shared-memory window address of `smem` >> 4 (descriptor encoding).
  Value wgChannelGroup, wgRowSplit, smemEnc;
  /// The first W phase of this thread's warpgroup where the block's phases
  /// are split over warpgroups (`wgmmaPhaseSplit`); null otherwise.
  Value wgPhase0;
  /// Clusters (`clusterC > 1`): this block's rank in its cluster (its
  /// channel tile), and whether the wait of the (relaxed) cluster barrier
  /// every block arrives at when it starts is still due: a block may
  /// access another's shared memory only once that one has started.
  Value clusterRank;
  bool clusterStartWaitDue = false;
  /// A reduction split over a cluster (`clusterK`): this block's first
  /// round of its tile's (`emitSplitRounds`); null otherwise.
  Value roundBase;

  /// A float constant of `elementType`.
  Value constant(double v) {
    return mlir::arith::ConstantOp::create(b, b.getFloatAttr(elementType, v));
  }
  /// f32 element `idx` of shared memory.
  Value sload(Value idx) { return mlir::memref::LoadOp::create(b, smem, idx); }
  void sstore(Value v, Value idx) {
    mlir::memref::StoreOp::create(b, v, smem, idx);
  }
  /// Element `idx` (`tileAddr(0, ...)`) of tile 0 as f32.
  Value tileLoad(Value idx) {
    if (!halfTileType)
      return sload(idx);
    Value h = mlir::memref::LoadOp::create(b, smemHalf, idx);
    return mlir::arith::ExtFOp::create(b, b.getF32Type(), h);
  }
  /// Writes f32 `v` to element `idx` of tile 0 (rounded once to the half
  /// type of a half tile, as the result's store would round it).
  void tileStore(Value v, Value idx) {
    if (!halfTileType) {
      sstore(v, idx);
      return;
    }
    Value h = mlir::arith::TruncFOp::create(b, halfTileType, v);
    mlir::memref::StoreOp::create(b, h, smemHalf, idx);
  }
  /// Indices of a full-rank tensor element from 3-D-normalised coordinates.
  SmallVector<Value> fullIndex(Value n, Value ch, Value d, Value h, Value w) {
    SmallVector<Value> idx{n, ch};
    if (g.rank == 5)
      idx.push_back(d);
    if (g.rank >= 4)
      idx.push_back(h);
    idx.push_back(w);
    return idx;
  }
  /// Lines of the output tile: rows x `tileLineChannels` (row-major).
  int64_t tileLines() const { return cfg.getRows() * tileLineChannels(g, cfg); }
  /// Positions of a tile line that can be inside the tensor: the whole row
  /// when one tile spans it, else the tile width.
  int64_t tileLineWidth() const {
    return launch.numWTiles == 1 ? std::min(cfg.getTileW(), g.out[2])
                                 : cfg.getTileW();
  }
  /// Output height of row `r` of the block.
  Value rowHeight(Value r) { return b.add(oh, b.mul(r, g.stride[1])); }
  /// The (row, channel) coordinates of tile line `line` (row-major over
  /// rows x `tileLineChannels`); positions are left unset.
  Element tileLine(Value line) {
    Element el;
    el.cl = b.remu(line, tileLineChannels(g, cfg));
    el.r = b.divu(line, tileLineChannels(g, cfg));
    el.ch = b.add(co0, el.cl);
    el.oh = rowHeight(el.r);
    return el;
  }
  /// True if the channel and the row of a tile line lie inside the tensor
  /// (blocks of samples: inside the batch; their rows' heights run on past
  /// the sample's, `outputIndex`).
  Value lineInside(const Element &line) {
    if (cfg.spansSamples())
      return b.andI(b.ult(line.ch, g.cout),
                    b.ult(b.add(n, b.divu(line.oh, g.out[1])), g.n));
    return b.andI(b.ult(line.ch, g.cout), b.ult(line.oh, g.out[1]));
  }
  /// Indices of the output-shaped element of the block's sample at
  /// (channel, depth, height, position). A block of samples numbers its
  /// rows' heights on through its samples (`rowHeight`: the output height
  /// is rowsPerSample x stride_h): height h is row h mod H of sample
  /// n + h / H.
  SmallVector<Value> outputIndex(Value ch, Value d, Value h, Value w) {
    if (!cfg.spansSamples())
      return fullIndex(n, ch, d, h, w);
    return fullIndex(b.add(n, b.divu(h, g.out[1])), ch, d, b.remu(h, g.out[1]),
                     w);
  }
  /// Staged row `rr` of a round whose rows start at input row `ih`: its
  /// sample, input row and whether that lies inside the input. Blocks of
  /// samples stage rowsPerSample rows of each sample in turn.
  struct StagedRow {
    Value n, ih, ok;
  };
  StagedRow stagedRow(Value ih, Value rr) {
    if (!cfg.spansSamples()) {
      Value ihr = b.add(ih, rr);
      return {n, ihr, b.inRange(ihr, g.in[1])};
    }
    const int64_t per = cfg.rowsPerSample();
    Value sample = b.add(n, b.divu(rr, per));
    Value ihr = b.add(ih, b.remu(rr, per));
    return {sample, ihr, b.andI(b.inRange(ihr, g.in[1]), b.ult(sample, g.n))};
  }
  /// Address of (row r, channel cl, position wl) of an output tile.
  Value tileAddr(int64_t tileIndex, Value r, Value cl, Value wl) {
    Value rowCh = b.add(b.mul(r, tileLineChannels(g, cfg)), cl);
    Value line = b.mul(rowCh, smemPlan.tileStride);
    if (smemPlan.tileSkew)
      line = b.add(line, b.mul(b.remu(b.divu(cl, 4), 2), smemPlan.tileSkew));
    // A half tile 0 counts 2-byte elements from the tiles' offset.
    const int64_t first =
        halfTileType && tileIndex == 0
            ? 2 * smemPlan.tilesOffset
            : smemPlan.tilesOffset + tileIndex * smemPlan.tileElems;
    Value addr = b.add(b.add(line, wl), first);
    return tileBase ? b.add(addr, tileBase) : addr;
  }
  /// Element offset of statistics array `k` of reduction `ordinal`.
  int64_t statsArray(int64_t ordinal, int64_t k) const {
    return smemPlan.statsOffset +
           (smemPlan.statsArrays * ordinal + k) * smemPlan.statsLen;
  }
  /// The wgmma N of W phase `p`: the phase's positions in a tile rounded up
  /// to 8, at most `wgmmaN` (phases of an odd-width row differ: kb2_91's 129
  /// positions are 65 + 64, N = 72 and 64).
  int64_t phaseN(int64_t p) const;
  /// The N of W phase `p`'s wgmma accumulators: `phaseN(p)`, or all of a
  /// warpgroup's rows where they are one N (`SharedMemoryPlan::rowsN`), or
  /// the block's channels with positions on M (`wgmmaPositionsOnM`).
  int64_t wgmmaAccN(int64_t p) const;
  /// Accumulators per W phase of a warpgroup: one per owned row, or one for
  /// all of them.
  int64_t wgmmaAccRows() const;
  /// The W phases whose accumulators a warpgroup holds: all (the stride),
  /// or stride / `wgmmaPhaseSplit` (phases wgPhase0, wgPhase0 + 1, ...).
  int64_t wgmmaOwnPhases() const;
};

//===----------------------------------------------------------------------===//
// IndexMath.cpp: block decomposition, valid taps, rounds
//===----------------------------------------------------------------------===//

/// The tap step of a dim: taps t and t + step hit the same stride phase.
inline int64_t tapStep(int64_t stride, int64_t dil) {
  return stride / std::gcd(stride, dil);
}
/// First valid tap (or `k` if none) for phase residue `r` of a dim: tap t
/// is valid iff (t * dil) mod stride == r.
Value emitFirstTap(EmitBuilder &b, Value r, int64_t k, int64_t stride,
                   int64_t dil);
/// (x + pad) mod s, floored, of `xPlusPad` = x + pad for an x >= 0 and a
/// padding of either sign: a negative one (output positions before the
/// scatter's first one) is lifted by the least multiple of s that makes the
/// unsigned remainder exact. A padding >= 0 emits the plain remainder.
Value emitPadPhase(EmitBuilder &b, Value xPlusPad, int64_t pad, int64_t s);
/// floor((x + pad) / s) of `xPlusPad` = x + pad as `emitPadPhase` takes it.
Value emitPadQuotient(EmitBuilder &b, Value xPlusPad, int64_t pad, int64_t s);
/// Sets `tid`, `tx`, `ty` and the block's tile origin (`n`, `od`, `oh`,
/// `ow0`, `co0`) from the block id; in a cluster also `clusterRank`, and
/// arrives at the cluster's start barrier (`emitClusterStartArrive`).
void emitBlockDecomposition(EmitContext &cx);
/// The valid taps of dim `dim` for output index + padding `outPlusPad`,
/// `rows` consecutive rows from it.
TapRange emitTapRange(EmitContext &cx, Value outPlusPad, int64_t dim,
                      int64_t rows);
/// Sets `iwMin`, `dTaps`, `hTaps` and `hRounds`; returns the number of
/// main-loop rounds (all main loops).
Value emitRoundCount(EmitContext &cx);
/// The taps, input rows and channel chunk of round `q`.
Round emitDecodeRound(EmitContext &cx, Value q);

//===----------------------------------------------------------------------===//
// Staging.cpp: operands into shared memory
//===----------------------------------------------------------------------===//

/// Rounds a conv operand to TF32 on the tf32 tensor-core path (FMA and
/// split-operand tf32x3 kernels stage it unchanged).
Value emitRoundOperand(EmitContext &cx, Value v);
/// `cvt.rna.tf32.f32 v` as an f32 (low 13 mantissa bits zero).
Value emitRoundTF32(EmitBuilder &b, Value v);
/// An f32 operand split for three TF32 MMAs (3xTF32): hi = rna_tf32(v),
/// lo = rna_tf32(v - hi); v = hi + lo within ~2^-22 |v| (finite v; an
/// infinite v gives a NaN lo).
struct SplitTF32 {
  Value hi, lo;
};
SplitTF32 emitSplitTF32(EmitBuilder &b, Value v);
/// Stages a chunk of input rows of one (td, th) tap pair in shared memory
/// (TF32-rounded on the tensor-core path); synchronous main loop.
void emitStageInputs(EmitContext &cx, Value input, Value ci0, Value ciBase,
                     Value id, Value ih);
/// Stages the weights of the round's d tap `td` and of the h taps th + a x
/// hStep for a < hValid (hTapsPerRound of them; invalid ones staged as
/// zero); synchronous main loop.
void emitStageWeights(EmitContext &cx, Value weight, Value ci0, Value ciBase,
                      Value coInGroup, Value td, Value th, Value hValid,
                      int64_t hStep);

/// wgmma register staging of the input rows (no re-laid-out input). A
/// thread's items of a round: item `it` is element tid + it x threads of
/// (staged row, column quad, channel group), the channel group fastest
/// (the 16-byte stores of a quarter warp then hit distinct banks).
struct InputItems {
  int64_t channels = 0, groups = 0, quads = 0, total = 0, perItem = 0;
};
InputItems inputItems(const EmitContext &cx);
/// Items whose staged values (16 registers each, 32 for half operands)
/// fit beside the wgmma accumulators at once.
int64_t inputBatch(const EmitContext &cx);
/// The raw 16-byte loads (or words) of some items of a round and whether
/// each lies inside the input, loaded ahead of their stores.
struct RawInputs {
  SmallVector<Value> values, valid;
};
/// The raw loads of all `iters` items of round `q` under `cond` (zeros
/// otherwise), as the results of an scf.if.
RawInputs emitLoadRoundInputsIf(EmitContext &cx, Value cond, Value q,
                                int64_t iters);
/// Rounds items [first, last) of `raw` to TF32 and stores them into the
/// staging buffer at element `buf`.
void emitStoreRoundInputs(EmitContext &cx, const RawInputs &raw, Value buf,
                          int64_t first, int64_t last);
/// Stages round `q`'s input rows into the buffer at element `buf` (K-major
/// groups of 4 input channels, TF32-rounded): asynchronous copies of the
/// re-laid-out input, else 16-byte loads and stores through registers. The
/// weights come by `emitCopyRoundWeights`; `emitCompleteStaging` waits and
/// fences.
void emitStageRoundWgmma(EmitContext &cx, Value q, Value buf);
/// Issues the 16-byte asynchronous copies of round `q`'s weight image(s)
/// (`pack`) into the buffer at `buf`, zero-filled where `live` is false or
/// past the round's valid h taps, and commits them; returns the token of
/// the last commit group.
Value emitCopyRoundWeights(EmitContext &cx, Value q, Value buf, Value live);
/// Waits for this thread's asynchronous copies and makes its staged stores
/// and copies visible to the tensor cores after the next barrier.
void emitCompleteStaging(EmitContext &cx, Value group);

//===----------------------------------------------------------------------===//
// Prologue.cpp: the prologue evaluated per staged input element
//===----------------------------------------------------------------------===//

/// The convolution input's element at (in-range) full-rank indices `idx`:
/// a load from `input`, or with a prologue (`a.prologue`) the prologue
/// chain evaluated there from the kernel's inputs (`input` unused).
Value emitInputElement(EmitContext &cx, Value input, ArrayRef<Value> idx);
/// The 4 consecutive input elements from (in-range) indices `idx` (the
/// last a multiple of 4, rows multiples of 4 long) as a vector<4xf32>: a
/// 16-byte load from `input`, or with an elementwise prologue its chain
/// evaluated per lane on 16-byte loads of its inputs.
Value emitInputVector(EmitContext &cx, Value input, ArrayRef<Value> idx);

//===----------------------------------------------------------------------===//
// MainLoopFMA.cpp: the synchronous main loop
//===----------------------------------------------------------------------===//

/// The convolution on the FMA units or with mma.sync: per sub-block of
/// channels, rounds of staging, a barrier and accumulation; then the
/// accumulators plus the conv bias go to output tile 0.
void emitSyncMainLoop(EmitContext &cx);

//===----------------------------------------------------------------------===//
// MainLoopMmaSync.cpp: mma.sync m16n8k8 (tf32)
//===----------------------------------------------------------------------===//

/// Sets the warp coordinates of the tensor-core path: warp = (phase *
/// warpsC + wc) * warpsW + ww; lane = 4 * group + threadInGroup.
void emitMmaSyncWarpCoordinates(EmitContext &cx);
/// Zero accumulators: one 2x2 fragment per (row, M tile, N tile).
SmallVector<Value> emitMmaSyncAccumulators(EmitContext &cx);
/// All valid W taps (and, with hTapsPerRound > 1, the first `hValid` h
/// taps) of a staged round on the tensor cores.
SmallVector<Value> emitMmaSyncRound(EmitContext &cx, ArrayRef<Value> acc,
                                    Value base, Value hValid);
/// Writes accumulators + conv bias to the convolution's output tile.
void emitMmaSyncStore(EmitContext &cx, Value subBase, ArrayRef<Value> acc);

//===----------------------------------------------------------------------===//
// MainLoopWgmma.cpp: Hopper warpgroup MMA
//===----------------------------------------------------------------------===//

/// The main loop with wgmma: round q + 1 is staged into the other buffer
/// while the tensor cores read round q from shared memory; then the
/// accumulators plus the conv bias go to output tile 0, or with
/// `registerEpilogue` through the epilogue straight to global memory
/// (`emitEpilogueRuns`).
void emitWgmmaMainLoop(EmitContext &cx);

//===----------------------------------------------------------------------===//
// Epilogue.cpp: the walk over the output tile
//===----------------------------------------------------------------------===//

/// The conv bias of tile channel `cl` (0 past the channels or without one).
Value emitConvBias(EmitContext &cx, Value cl);
/// Runs `body` for every valid element of the tile, distributed over the
/// block's threads in quads of 4 consecutive W positions of one line
/// (consecutive threads, consecutive quads): `body` gets a whole quad
/// (4 independent elements, which also gives the scheduler 4 independent
/// chains) or, at a line end that is not a multiple of 4, one element.
/// Rows that are not multiples of 4 long and at least 128 wide take a
/// lane-per-position mapping instead, with pairs of positions per lane
/// where rows are of even length and tile lines 8-byte aligned: `body`'s
/// flag then says that its elements are such pairs (consecutive
/// positions, the first even, in the tile and in the output).
void forEachTileElement(EmitContext &cx,
                        llvm::function_ref<void(ArrayRef<Element>, bool)> body);
/// Every line of the tile starts in global memory at a multiple of this
/// many elements (buffers are 16-byte aligned, runtime.h): 4, 2 or 1.
int64_t lineStartAlignment(const EmitContext &cx);
/// Element offset in global memory of position 0 of `line`'s tile line.
Value lineStart(EmitContext &cx, const Element &line);
/// Scalar value of graph value `v` at tile element `el`.
Value emitElementValue(EmitContext &cx, Value v, const Element &el,
                       llvm::DenseMap<Value, Value> &memo);
/// The reductions' statistics, then the kernel's result at every element
/// of the tile stored to global memory.
void emitEpilogue(EmitContext &cx);
/// True if the tile walk stores the kernel's half result in chunks of 4
/// positions aligned in global memory (`emitHalfChunks`: lines that do not
/// all start 4-element aligned, narrower than the lane walk's rows).
bool usesHalfChunkWalk(EmitContext &cx);
/// True if the kernel's result can be evaluated on the wgmma accumulators
/// in registers and stored from there: an elementwise function of the
/// convolution, constants and per-channel kernel inputs with cheap scalar
/// code (no reduction, pooling, statistics or cluster), and
/// each lane's run of positions one aligned 8- or 16-byte vector.
bool canEvaluateFromRegisters(EmitContext &cx);

/// Sets `halfTileType` (and shrinks `smemPlan`'s tile) where tile 0 may
/// hold the result's half type: the tile walk stores the convolution's
/// values themselves to a half result (no epilogue math, statistics,
/// reductions or pooling reads them in f32), lane by lane
/// (`forEachTileElementByLanes`).
void chooseHalfTile(EmitContext &cx);
/// True if the kernel's result is an elementwise function of the wgmma
/// convolution, constants and kernel inputs constant along W (no reduction,
/// pooling, statistics or cluster) with cheap scalar code.
bool resultIsElementwiseInRegisters(EmitContext &cx);
/// True if every kernel input or parameter value `op` reads is constant
/// along W (per channel or scalar): a register epilogue reads them once per
/// fragment instead of in its scattered position pattern.
bool readsOnlyValuesConstantAlongW(EmitContext &cx, mlir::Operation &op);
/// Convolution values one thread holds at consecutive positions `wl0`,
/// `wl0 + 1`, ... of one tile line (`line`: `r`, `cl`, `ch`, `oh` set),
/// conv bias added; null where the thread holds no value.
struct EpilogueRun {
  Element line;
  Value wl0;
  SmallVector<Value, 4> values;
};
/// The epilogue of a thread's runs: where `allInside` (every position of
/// every run inside the tensor and the tile) each run is evaluated and
/// stored as one vector, else position by position under a check.
void emitEpilogueRuns(EmitContext &cx, ArrayRef<EpilogueRun> runs,
                      Value allInside);
/// Element `k` of `run` (position `wl0 + k` of its line).
Element runElement(EmitContext &cx, const EpilogueRun &run, int64_t k);
/// The kernel's result at position `k` of `run` (element `el`).
Value emitRunValue(EmitContext &cx, const EpilogueRun &run, int64_t k,
                   const Element &el);

//===----------------------------------------------------------------------===//
// EmptyBlocks.cpp: blocks without a valid tap store constants
//===----------------------------------------------------------------------===//

/// True if the kernel's blocks that run no main-loop round (whose rows or
/// depth have no valid tap) store their result directly
/// (`emitEmptyBlockStores`): a half result that is an elementwise function
/// of the convolution and of values constant along W
/// (`resultIsElementwiseInRegisters`) and that the tile walk would store
/// in chunks (`usesHalfChunkWalk`), in a layer whose stride and dilation
/// leave some rows or depths without a valid tap.
bool storesEmptyBlocksDirectly(EmitContext &cx);
/// The result of a block whose accumulators are zero: each line's value
/// (the epilogue of the conv bias) stored as 16-byte vectors where aligned
/// in global memory, the other positions one by one.
void emitEmptyBlockStores(EmitContext &cx);

//===----------------------------------------------------------------------===//
// RegisterSoftmax.cpp: a channel softmax on the wgmma accumulators
//===----------------------------------------------------------------------===//

/// The kernel's channel softmax if its statistics can be taken from the
/// wgmma accumulators (`emitRegisterSoftmax`), else null: one channel tile
/// of all the convolution's channels, no cluster, rows not merged into N,
/// the softmax (exp form) of the convolution itself followed by
/// elementwise ops of it, constants and inputs constant along W, each
/// lane's run one aligned vector, the exchange within the staging buffers.
mlir::Operation *chooseRegisterSoftmax(EmitContext &cx);
/// Replaces the convolution values of `runs` (fragment half 0's runs, then
/// half 1's at the same positions) by the softmax of each position's
/// channels: warp shuffles and an exchange of per-warp partials in shared
/// memory (`channelWarp`: the warp's 16-channel group in the tile;
/// `laneGroup`: lane / 4).
void emitRegisterSoftmax(EmitContext &cx,
                         llvm::MutableArrayRef<EpilogueRun> runs,
                         Value channelWarp, Value laneGroup);

//===----------------------------------------------------------------------===//
// BulkStore.cpp: the result tile stored by bulk copies
//===----------------------------------------------------------------------===//

/// Sets `bulkStride` where the kernel's result is evaluated on the wgmma
/// accumulators and stored through the output tile by bulk copies
/// (`emitBulkStoreEpilogue`): a cheap elementwise function of the
/// convolution, in a kernel of W stride 1 or with split operands, whose
/// tile fits the kernel's shared memory.
void chooseBulkStore(EmitContext &cx);
/// Evaluates the kernel's result at the positions of the thread's `runs`,
/// stores it to the output tile, and copies each line of the tile to
/// global memory with one bulk copy (head and tail elements one by one).
void emitBulkStoreEpilogue(EmitContext &cx, ArrayRef<EpilogueRun> runs);

//===----------------------------------------------------------------------===//
// PooledEpilogue.cpp: pooling in the epilogue
//===----------------------------------------------------------------------===//

/// The kernel of a pooled epilogue (`a.pool`) after the block
/// decomposition: for each pass, the convolution rows of the pass by
/// `mainLoop` (into output tile 0), then every pooled element's partial
/// result over the window elements of the pass (the pooling op's `buildAt`,
/// the elementwise ops before it per element) combined into the block's
/// pooled accumulators; then the ops after the pool per pooled element and
/// the stores to global memory (none where `cx.statsOnly`), and with
/// `cx.stats` the partial statistics records of those final values.
void emitPooledKernel(EmitContext &cx, llvm::function_ref<void()> mainLoop);
/// The epilogue of a reduction over the channels (`a.channelWindow`), the
/// block holding all of them: per position of the tile, the reduction's
/// `buildAt` over the channels (through the elementwise ops before it), the
/// ops after it, and the store of the one result.
void emitChannelWindowEpilogue(EmitContext &cx);

//===----------------------------------------------------------------------===//
// ContractionEpilogue.cpp: a 1x1 convolution in the epilogue
//===----------------------------------------------------------------------===//

/// The epilogue of a channel contraction (`a.contraction`), the block
/// holding all channels: per position of the tile, each output channel's
/// sum over the tile's channels (through the elementwise ops before it)
/// times the weights, plus the bias, then the ops after it and the stores.
void emitChannelContractionEpilogue(EmitContext &cx);

//===----------------------------------------------------------------------===//
// LineReduction.cpp: softmax / log_softmax / layer_norm
//===----------------------------------------------------------------------===//

/// Materialises reduction `op`'s input in its tile and stores the
/// statistics of each line (`ordinal`: its index in `a.reductions`).
void emitLineReduction(EmitContext &cx, mlir::Operation *op, int64_t ordinal);
/// Value of reduction `op` at `el`: its tile entry normalised with the
/// line statistics.
Value emitNormalizedValue(EmitContext &cx, mlir::Operation *op,
                          const Element &el);
/// The shift of a line's exponentials: its max `m`, or 0 where `m` is
/// -inf (a line, or a cluster block's part of one, of -inf values only
/// then sums to 0 rather than NaN).
Value emitExpShift(EmitBuilder &b, Value m);

//===----------------------------------------------------------------------===//
// EpilogueStatistics.cpp: partial statistics of the kernel's result
//===----------------------------------------------------------------------===//

/// Writes the partial statistics records of every group the block's
/// channels meet (`EpilogueStatsLayout`) to `cx.statsOut`. With a null
/// `result`, from the kernel's final values in output tile 0 (after a
/// barrier); otherwise the pass is the epilogue walk itself: it evaluates
/// the kernel's `result` at each element from the tiles (as
/// `emitElementValue`), stores it to `out` (unless null: statistics only)
/// and folds it into the statistics, for the single-pass kinds (moments,
/// max, min).
void emitEpilogueStatistics(EmitContext &cx, Value result = Value(),
                            Value out = Value());

/// The block's spatial index in the statistics records: (depth x H blocks
/// + H block) x W tiles + W tile, `depth` the output (or pooled) depth.
Value emitStatsSpatialBlock(EmitContext &cx, Value depth);

/// Stores one partial statistics record (`EpilogueStatsLayout`): lane 0
/// (`lane`) of warp `part` of its team writes `fields` (the kind's
/// record: moments or an extreme) for group `grp` of spatial block
/// `spatial`, at record (((n G + g) S + s) T + ct - firstTile(g)) P + part
/// of `cx.statsOut`.
void emitStatsRecordStore(EmitContext &cx, Value grp, Value spatial,
                          Value part, Value lane, ArrayRef<Value> fields);

//===----------------------------------------------------------------------===//
// ClusterExchange.cpp: thread block clusters
//===----------------------------------------------------------------------===//

/// Arrives (relaxed) at the barrier that says this block has started.
void emitClusterStartArrive(EmitContext &cx);
/// Waits for every block of the cluster to have started, if not done yet.
void emitClusterStartWait(EmitContext &cx);
/// Stores `v` to f32 element `offset` of the shared memory of cluster
/// block `rank` (distributed shared memory).
void emitStoreClusterShared(EmitContext &cx, Value v, Value offset,
                            int64_t rank);
/// Combines the per-position softmax statistics that every block of the
/// cluster stored into this block's arrays 0 .. 2 clusterC - 1 of
/// reduction `ordinal` (`numLines` lines) into its normalisation factor
/// (array 2 clusterC).
void emitCombineClusterStatistics(EmitContext &cx, int64_t ordinal,
                                  int64_t numLines, int64_t lineWidth);

//===----------------------------------------------------------------------===//
// ClusterReduce.cpp: a tile's reduction split over a cluster (`clusterK`)
//===----------------------------------------------------------------------===//

/// f32 words of shared memory block 0 needs for the other blocks'
/// accumulator fragments (0 without `clusterK`).
int64_t clusterReduceWords(EmitContext &cx);
/// This block's part of the tile's `total` main-loop rounds: sets
/// `roundBase` to its first and returns its count.
Value emitSplitRounds(EmitContext &cx, Value total);
/// Adds the accumulator fragments `acc` of the cluster's blocks in block 0
/// (rank order) and returns the sums; leaves the insertion point in a
/// branch that block 0 alone takes (the epilogue follows there).
SmallVector<Value> emitClusterReduce(EmitContext &cx, ArrayRef<Value> acc);

//===----------------------------------------------------------------------===//
// FastMath.cpp: rewrites of the finished function
//===----------------------------------------------------------------------===//

/// `ex2.approx.ftz.f32 y`: 2^y, denormal results flushed to 0.
Value emitEx2ApproxFtz(mlir::ImplicitLocOpBuilder &b, Value y);
/// Rewrites `1 / (1 + exp(y))` (sigmoid, silu) into a branch-free
/// reciprocal (`rcp.approx.ftz` alone with `EpilogueMath::Fast`).
void rewriteSigmoidReciprocals(mlir::gpu::GPUFuncOp func, EpilogueMath math);
/// Rewrites every f32 `math.exp(x)` into `ex2.approx.ftz(x * log2(e))`, and
/// every f32 `math.tanh(x)` into `tanh.approx.f32`.
void approximateExponentials(mlir::gpu::GPUFuncOp func);

} // namespace fusecc::emit

#endif // FUSECC_LIB_CONVERSION_FUSETOGPU_EMITCONTEXT_H
