//===- KernelBuilder.cpp - build the gpu.func of a fused kernel -----------===//
//
// Device code of a fused transposed convolution + epilogue.
//
// A block owns `rows` output rows of one H stride phase (batch n, depth od,
// heights oh, oh + s_h, ...), a segment of `tileW` positions along W and
// `tileC` channels. The convolution is computed per stride phase: the
// block's od and H phase fix its valid depth/height taps (`tapRange`, closed
// form), and the main loop runs over flattened rounds (valid d tap, valid h
// tap, chunk of input channels; with `mergeHTaps` one round takes all valid
// h taps, whose overlapping input rows are staged once). Along W, every warp
// (tensor cores) or thread (FMA) owns positions of one W phase, so its valid
// W taps are one arithmetic progression too. Only valid taps are visited: no
// multiply by a structural zero.
//
// Each round stages its input rows (16-byte vectors when the rows are
// multiples of 4 long) and weights in shared memory (rounded to TF32 on the
// tensor-core path), then the tensor cores (`mma.sync m16n8k8`, weight
// fragments shared by the block's rows) or the FMA units accumulate into
// registers: unrolled values carried through scf.for iter_args.
//
// The accumulators (plus the conv bias) are written to an output tile in
// shared memory, which aliases the (now dead) staging buffer. The epilogue
// runs on that tile: elementwise ops are evaluated per element straight from
// the tile; each softmax / layer_norm materialises its input in a tile (the
// conv tile itself when nothing reads the conv afterwards), reduces its lines
// with warp shuffles into per-line statistics, and its readers normalise on
// load. The final value of every element is stored to global memory with
// consecutive threads on consecutive W positions (coalesced).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Conversion/FuseToGPU/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <functional>
#include <numeric>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// Registers a wgmma thread may spend on accumulators plus staged values in
/// flight (the rest of its 128 go to addresses and the epilogue).
constexpr int64_t kStagingRegisterBudget = 104;

/// One element of a block's output tile: tile coordinates (row, channel,
/// position) and the output coordinates they stand for.
struct Element {
  Value r, cl, wl, ch, oh, ow;
};

/// The valid taps of one dim for a block: the arithmetic progression of taps
/// of the block's stride phase, cut to those whose input row (any of `rows`
/// consecutive rows) lies inside the input. `count` may be zero.
struct TapRange {
  Value first;      ///< First valid tap.
  int64_t step = 1; ///< Tap step.
  Value input;      ///< Input index of the first valid tap (row 0).
  int64_t inputStep = 1; ///< Input index decrement per tap step.
  Value count;      ///< Number of valid taps.
};

/// Rows at least this many positions wide whose length is not a multiple
/// of 4 take the lane-per-position epilogue mapping (4 whole groups of 32
/// positions per line: 4 independent chains per thread). Measured on the
/// H100 (docs/perf.md section 52): 11% faster for 129-wide rows, 7% slower
/// for 65-wide ones (two groups), where the quad mapping stays.
constexpr int64_t kLaneEpilogueWidth = 128;
/// Lines a warp of the lane walk takes per iteration: kb2_91 tf32 with 1,
/// 2, 4, 8 and 16 lines 1.450, 1.383, 1.33, 1.38, 1.40 ms (docs/perf.md
/// section 61): each line's chains are latency-bound, more lines overlap
/// them until the iteration's code and registers outgrow the gain.
constexpr int64_t kLaneLinesPerIteration = 4;

/// `ex2.approx.ftz.f32 y`: 2^y, denormal results flushed to 0.
Value ex2ApproxFtz(ImplicitLocOpBuilder &b, Value y) {
  return LLVM::CallIntrinsicOp::create(
             b, b.getF32Type(), b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"),
             ValueRange{y})
      .getResult(0);
}

/// Emits the device code of one kernel. Index arithmetic helpers keep the
/// generator readable; everything static is folded by the builder's users
/// (canonicalize) later.
class KernelEmitter {
public:
  KernelEmitter(ImplicitLocOpBuilder &b, KernelOp kernel,
                const KernelAnalysis &a, gpu::GPUFuncOp func, EpilogueMath math)
      : b(b), kernel(kernel), a(a), g(a.geom), cfg(*kernel.getConfig()),
        math(math), smemPlan(SharedMemoryPlan::get(a, cfg)),
        launch(LaunchPlan::get(a, cfg)), func(func),
        pack(WeightPackPlan::get(a, cfg)), ipack(InputPackPlan::get(a, cfg)) {}

  void emit();

private:
  // Index and float helpers.
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value f(double v) { return arith::ConstantOp::create(b, b.getF32FloatAttr(v)); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, c(y)) : x; }
  Value mul(Value x, int64_t y) { return y == 1 ? x : mul(x, c(y)); }
  Value divu(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, x, c(y));
  }
  Value remu(Value x, int64_t y) { return arith::RemUIOp::create(b, x, c(y)); }
  Value divExact(Value x, int64_t y) {
    return y == 1 ? x : arith::DivSIOp::create(b, x, c(y));
  }
  Value floorDiv(Value x, int64_t y) {
    return y == 1 ? x : arith::FloorDivSIOp::create(b, x, c(y));
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, p, x, y);
  }
  Value ult(Value x, int64_t y) { return cmp(arith::CmpIPredicate::ult, x, c(y)); }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, x, y); }
  Value inRange(Value x, int64_t hi) {
    // 0 <= x < hi for a signed index, as one unsigned compare.
    return ult(x, hi);
  }
  Value sload(Value idx) { return memref::LoadOp::create(b, smem, idx); }
  void sstore(Value v, Value idx) { memref::StoreOp::create(b, v, smem, idx); }

  /// Loads `mem[idx]` if `cond`, else yields 0.
  Value guardedLoad(Value cond, Value mem, ValueRange idx) {
    auto ifOp = scf::IfOp::create(b, TypeRange{b.getF32Type()}, cond,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      scf::YieldOp::create(b, ValueRange{memref::LoadOp::create(b, mem, idx)});
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, ValueRange{f(0.0)});
    }
    return ifOp.getResult(0);
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

  /// First valid tap (or `k` if none) for phase residue `r` of a dim, and
  /// the tap step: tap t is valid iff (t * dil) mod stride == r.
  Value firstTap(Value r, int64_t k, int64_t stride, int64_t dil) {
    int64_t step = stride / std::gcd(stride, dil);
    Value t0 = c(k);
    for (int64_t t = std::min(step, k) - 1; t >= 0; --t) {
      Value hit = cmp(arith::CmpIPredicate::eq, r, c((t * dil) % stride));
      t0 = arith::SelectOp::create(b, hit, c(t), t0);
    }
    return t0;
  }
  int64_t tapStep(int64_t stride, int64_t dil) {
    return stride / std::gcd(stride, dil);
  }

  void emitConvolution();
  /// Stage a chunk of input rows / weights of one (td, th) tap pair in
  /// shared memory (TF32-rounded on the tensor-core path).
  void stageInputs(Value input, Value ci0, Value ciBase, Value id, Value ih);
  /// Weights of the round's d tap `td` and of the h taps th + a x hStep
  /// for a < hValid (hTapsPerRound of them; invalid ones staged as zero).
  void stageWeights(Value weight, Value ci0, Value ciBase, Value coInGroup,
                    Value td, Value th, Value hValid, int64_t hStep);
  TapRange tapRange(Value outPlusPad, int64_t dim, int64_t rows);
  /// The kw W taps of the weight row at `widx` (all indices but the last):
  /// 16-byte vector loads when kw % 4 == 0, else one load per tap.
  SmallVector<Value> loadWeightRow(Value weight, ArrayRef<Value> widx) {
    const int64_t kw = g.k[2];
    SmallVector<Value> taps;
    auto withTap = [&](int64_t t) {
      SmallVector<Value> idx(widx);
      idx.push_back(c(t));
      return idx;
    };
    if (kw % 4 != 0) {
      for (int64_t t = 0; t < kw; ++t)
        taps.push_back(memref::LoadOp::create(b, weight, withTap(t)));
      return taps;
    }
    auto v4Ty = VectorType::get({4}, b.getF32Type());
    for (int64_t t = 0; t < kw; t += 4) {
      Value v4 =
          vector::LoadOp::create(b, v4Ty, weight, withTap(t),
                                 /*nontemporal=*/false, llvm::MaybeAlign(16));
      for (int64_t i = 0; i < 4; ++i)
        taps.push_back(vector::ExtractOp::create(b, v4, i));
    }
    return taps;
  }
  /// Rounds a conv operand to TF32 on the tensor-core path.
  Value roundOperand(Value v);
  SmallVector<Value> initialAccumulators();
  /// Accumulates one staged chunk of input channels (all valid W taps).
  SmallVector<Value> accumulateChunkFMA(ArrayRef<Value> acc, Value base);
  /// All valid W taps (and, with hTapsPerRound > 1, the first `hValid` h
  /// taps) of a staged round on the tensor cores.
  SmallVector<Value> accumulateChunkMMA(ArrayRef<Value> acc, Value base,
                                        Value hValid);
  /// Writes accumulators + conv bias to the convolution's output tile.
  void storeAccumulatorsFMA(Value subBase, ArrayRef<Value> acc);
  void storeAccumulatorsMMA(Value subBase, ArrayRef<Value> acc);

  // Hopper warpgroup MMA (wgmma) path.
  /// The main loop with wgmma: round q + 1 is staged into the other buffer
  /// while the tensor cores read round q from shared memory.
  void emitConvolutionWgmma();
  /// Stages round `q`'s input rows into the buffer at element `buf`
  /// (K-major groups of 4 input channels, TF32-rounded): asynchronous copies
  /// of the re-laid-out input, else 16-byte loads and stores through
  /// registers. The weights come by `copyRoundWeights`; `completeStaging`
  /// waits and fences.
  void stageRoundWgmma(Value q, Value buf);
  /// Register staging of the input rows (no re-laid-out input). A
  /// thread's items of a round: item `it` is element tid + it x threads of
  /// (staged row, column quad, channel group), the channel group fastest
  /// (the 16-byte stores of a quarter warp then hit distinct banks).
  struct InputItems {
    int64_t groups = 0, quads = 0, total = 0, perItem = 0;
  };
  InputItems inputItems() const;
  /// Item `it`'s thread element and, where some threads have no such item,
  /// whether this one has (null otherwise).
  std::pair<Value, Value> itemElement(const InputItems &items, int64_t it);
  /// The channel group, column quad and staged row of thread element `e`.
  struct ItemCoords {
    Value kg, xq, rr;
  };
  ItemCoords itemCoords(const InputItems &items, Value e);
  /// Items whose staged values (16 registers each) fit beside the
  /// accumulators at once.
  int64_t inputBatch() const;
  /// The raw 16-byte loads (or words) of items [first, last) of round `q`
  /// and whether each lies inside the input; `storeRoundInputs` rounds them
  /// to TF32 and stores them into the buffer at `buf`. Split so that the
  /// loads of a round can be issued a round ahead of their stores.
  struct RawInputs {
    SmallVector<Value> values, valid;
  };
  RawInputs loadRoundInputs(Value q, int64_t first, int64_t last);
  /// loadRoundInputs of all `iters` items of round `q` under `cond`
  /// (zeros otherwise), as the results of an scf.if.
  RawInputs loadRoundInputsIf(Value cond, Value q, int64_t iters);
  void storeRoundInputs(const RawInputs &raw, Value buf, int64_t first,
                        int64_t last);
  /// Issues the 16-byte asynchronous copies of round `q`'s weight image(s)
  /// (`pack`) into the buffer at `buf`, zero-filled where `live` is false
  /// or past the round's valid h taps, and commits them; returns the token
  /// of the last commit group.
  Value copyRoundWeights(Value q, Value buf, Value live);
  /// The token of `copy()`: issued directly when `inside` is null, else
  /// under `inside` with its own commit group (an empty one where `inside`
  /// is false), so that every thread commits the same number of groups.
  Value guardedCopy(Value inside, function_ref<Value()> copy);
  /// Waits for this thread's asynchronous copies and makes its staged
  /// stores and copies visible to the tensor cores after the next barrier.
  void completeStaging(Value group);
  /// Issues the wgmma.mma_async of one staged round for this warpgroup.
  SmallVector<Value> issueRoundWgmma(ArrayRef<Value> acc, Value buf,
                                     Value hValid);
  void storeAccumulatorsWgmma(ArrayRef<Value> acc);
  /// Matrix descriptor of an operand at element `wordOffset` of shared
  /// memory (a multiple of 4): no swizzle, K-direction core matrices
  /// `lboBytes` apart, 8-row groups `sboBytes` apart.
  Value wgmmaDescriptor(Value wordOffset, int64_t lboBytes, int64_t sboBytes);
  /// The wgmma N of W phase `p`: the phase's positions in a tile rounded up
  /// to 8, at most `wgmmaN` (phases of an odd-width row differ: kb2_91's 129
  /// positions are 65 + 64, N = 72 and 64).
  int64_t phaseN(int64_t p) const {
    const int64_t sw = g.stride[2], width = tileLineWidth();
    int64_t positions = width > p ? llvm::divideCeil(width - p, sw) : 0;
    return std::clamp<int64_t>(llvm::alignTo(positions, 8), 8,
                               cfg.getWgmmaN());
  }
  Type wgmmaAccType(int64_t p) {
    return LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(phaseN(p) / 2, b.getF32Type()));
  }
  /// Sets `iwMin` and the block's valid d / h taps; returns the number of
  /// main-loop rounds (both tensor-core and FMA paths).
  Value setUpRounds();
  /// The valid-tap rounds of the main loop: (d tap, h tap or all h taps,
  /// input channel chunk) of round `q`.
  struct Round {
    Value ci0, id, ih, td, th, hValid;
  };
  Round decodeRound(Value q);
  TapRange dTaps, hTaps;
  Value hRounds;
  Value convBias(Value cl);
  void computeWarpCoordinates();
  void emitEpilogue();
  /// Runs `body` for every valid element of the tile, distributed over the
  /// block's threads in quads of 4 consecutive W positions of one line
  /// (consecutive threads, consecutive quads): `body` gets a whole quad
  /// (4 independent elements, which also gives the scheduler 4 independent
  /// chains) or, at a line end that is not a multiple of 4, one element.
  void forEachTileElement(function_ref<void(ArrayRef<Element>)> body);
  /// forEachTileElement for rows that are not multiples of 4 long (no
  /// 16-byte stores) and at least kLaneEpilogueWidth wide: lanes on
  /// consecutive positions of a line.
  void forEachTileElementByLanes(function_ref<void(ArrayRef<Element>)> body);
  /// Positions of a tile line that can be inside the tensor: the whole row
  /// when one tile spans it, else the tile width.
  int64_t tileLineWidth() const {
    return launch.numWTiles == 1 ? std::min(cfg.getTileW(), g.out[2])
                                 : cfg.getTileW();
  }
  /// The (row, channel) coordinates of tile line `line` (row-major over
  /// rows x tileC); positions are left unset.
  Element tileLine(Value line) {
    Element el;
    el.cl = remu(line, cfg.getTileC());
    el.r = divu(line, cfg.getTileC());
    el.ch = add(co0, el.cl);
    el.oh = rowHeight(el.r);
    return el;
  }
  /// True if the channel and the row of a tile line lie inside the tensor.
  Value lineInside(const Element &line) {
    return andI(ult(line.ch, g.cout), ult(line.oh, g.out[1]));
  }
  /// Scalar value of graph value `v` at tile element `e`.
  Value elementValue(Value v, const Element &e, DenseMap<Value, Value> &memo);
  void emitReduction(Operation *op, int64_t ordinal);
  /// Value of reduction `op` at `el`: its tile entry normalised with the
  /// line statistics.
  Value normalizedValue(Operation *op, const Element &el);
  /// Address of (row r, channel cl, position wl) of an output tile.
  Value tileAddr(int64_t tileIndex, Value r, Value cl, Value wl) {
    Value rowCh = add(mul(r, cfg.getTileC()), cl);
    Value line = mul(rowCh, smemPlan.tileStride);
    if (smemPlan.tileSkew)
      line = add(line, mul(remu(divu(cl, 4), 2), smemPlan.tileSkew));
    return add(add(line, wl),
               smemPlan.tilesOffset + tileIndex * smemPlan.tileElems);
  }
  /// Output height of row `r` of the block.
  Value rowHeight(Value r) { return add(oh, mul(r, g.stride[1])); }

  ImplicitLocOpBuilder &b;
  KernelOp kernel;
  KernelAnalysis a;
  const ConvGeometry &g;
  TileConfigAttr cfg;
  SharedMemoryPlan smemPlan;
  LaunchPlan launch;
  gpu::GPUFuncOp func;

  EpilogueMath math;
  Value smem;                 ///< memref<total x f32, workgroup>
  Value tid, tx, ty;          ///< Thread id, its W lane and channel lane.
  Value n, od, oh, ow0, co0;  ///< The block's tile origin.
  Value iwMin;                ///< First staged input position along W.
  Value mmaPhase, mmaWC, mmaWW, mmaGroup, mmaTig; ///< Tensor-core warp coords.
  /// wgmma: this warpgroup's channel group and row-split index, and the
  /// shared-memory window address of `smem` >> 4 (descriptor encoding).
  Value wgChannelGroup, wgRowSplit, smemEnc;
  DenseMap<Value, Value> memOf; ///< Kernel body value -> gpu.func memref.
  /// wgmma: the re-laid-out weights (`WeightPackPlan`), a gpu.func argument.
  std::optional<WeightPackPlan> pack;
  Value packed;
  /// wgmma: the re-laid-out input (`InputPackPlan`), a gpu.func argument.
  std::optional<InputPackPlan> ipack;
  Value ipacked;
  /// Issues round `q`'s input rows from `ipacked` (16-byte copies, zero
  /// fill outside the input) into the buffer at `buf` and commits them.
  void copyRoundPackedInputs(Value q, Value buf);

  /// Clusters (`clusterC > 1`): this block's rank in its cluster (its
  /// channel tile), and whether the wait of the (relaxed) cluster barrier
  /// every block arrives at when it starts is still due: a block may
  /// access another's shared memory only once that one has started.
  Value clusterRank;
  bool clusterStartWaitDue = false;
  /// Element offset of statistics array `k` of reduction `ordinal`.
  int64_t statsArray(int64_t ordinal, int64_t k) const {
    return smemPlan.statsOffset +
           (smemPlan.statsArrays * ordinal + k) * smemPlan.statsLen;
  }
  /// Combines the per-position softmax statistics that every block of the
  /// cluster stored into this block's arrays 0 .. 2 clusterC - 1 of
  /// reduction `ordinal` (`numLines` lines) into its normalisation factor
  /// (array 2 clusterC).
  void combineClusterStatistics(int64_t ordinal, int64_t numLines,
                                int64_t lineWidth);
  /// Stores `v` to f32 element `offset` of the shared memory of cluster
  /// block `rank` (distributed shared memory).
  void storeClusterShared(Value v, Value offset, int64_t rank);
};

void KernelEmitter::emit() {
  // Map kernel inputs to function arguments.
  Block &body = kernel.getBody().front();
  for (auto [arg, fArg] : llvm::zip(body.getArguments(), func.getArguments()))
    memOf[arg] = fArg;
  // Before the output: the re-laid-out weights, then the input.
  if (ipack)
    ipacked = func.getArgument(func.getNumArguments() - 2);
  if (pack)
    packed = func.getArgument(func.getNumArguments() - 2 - (ipack ? 1 : 0));

  auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                       gpu::AddressSpace::Workgroup);
  auto bytesTy = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface{}, wg);
  Value raw = gpu::DynamicSharedMemoryOp::create(b, bytesTy);
  auto f32Ty = MemRefType::get({smemPlan.totalElems}, b.getF32Type(),
                               MemRefLayoutAttrInterface{}, wg);
  smem = memref::ViewOp::create(b, f32Ty, raw, c(0), ValueRange{});

  tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  tx = remu(tid, cfg.getThreadsW());
  ty = divu(tid, cfg.getThreadsW());
  Value bid = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  Value wt, ct, r;
  if (cfg.getClusterC() > 1) {
    // A cluster is clusterC consecutive blocks: the channel tiles of one
    // (W tile, rows) tile.
    ct = remu(bid, launch.numCTiles);
    r = divu(bid, launch.numCTiles);
    wt = remu(r, launch.numWTiles);
    r = divu(r, launch.numWTiles);
    clusterRank = ct;
    NVVM::ClusterArriveRelaxedOp::create(b, b.getUnitAttr());
    clusterStartWaitDue = true;
  } else {
    wt = remu(bid, launch.numWTiles);
    r = divu(bid, launch.numWTiles);
    ct = remu(r, launch.numCTiles);
    r = divu(r, launch.numCTiles);
  }
  Value hb = remu(r, launch.numHBlocks);
  r = divu(r, launch.numHBlocks);
  if (cfg.getRows() == 1) {
    oh = hb; // First (and only) row of the block.
  } else {
    int64_t sh = g.stride[1];
    oh = add(mul(divu(hb, sh), sh * cfg.getRows()), remu(hb, sh));
  }
  od = remu(r, g.out[0]);
  n = divu(r, g.out[0]);
  ow0 = mul(wt, cfg.getTileW());
  co0 = mul(ct, cfg.getTileC());

  if (cfg.usesWgmma()) {
    Value wg = divu(tid, 128);
    int64_t channelGroups = cfg.getTileC() / 64;
    wgChannelGroup = remu(wg, channelGroups);
    wgRowSplit = divu(wg, channelGroups);
    emitConvolutionWgmma();
  } else {
    if (cfg.usesTensorCores())
      computeWarpCoordinates();
    emitConvolution();
  }
  gpu::BarrierOp::create(b);
  emitEpilogue();
  if (clusterStartWaitDue)
    NVVM::ClusterWaitOp::create(b, b.getUnitAttr());
  gpu::ReturnOp::create(b);
}

TapRange KernelEmitter::tapRange(Value outPlusPad, int64_t dim, int64_t rows) {
  const int64_t k = g.k[dim], s = g.stride[dim], d = g.dil[dim];
  const int64_t in = g.in[dim];
  TapRange r;
  r.step = tapStep(s, d);
  r.inputStep = r.step * d / s; // >= 1
  Value t0 = firstTap(remu(outPlusPad, s), k, s, d);
  // Taps t0, t0 + step, ... < k; input index i0 - a * inputStep.
  Value numTaps = arith::SelectOp::create(
      b, ult(t0, k), divu(add(sub(c(k), t0), r.step - 1), r.step), c(0));
  Value i0 = divExact(sub(outPlusPad, mul(t0, d)), s);
  auto sge = [&](Value x, int64_t y) {
    return cmp(arith::CmpIPredicate::sge, x, c(y));
  };
  // Valid a: i0 - a * inputStep <= in - 1 and i0 - a * inputStep + rows - 1
  // >= 0 (some row inside).
  Value lo = arith::SelectOp::create(
      b, sge(i0, in), add(divu(sub(i0, c(in)), r.inputStep), 1), c(0));
  Value top = add(i0, rows - 1);
  Value hiPlus1 = arith::SelectOp::create(
      b, sge(top, 0), add(divu(top, r.inputStep), 1), c(0));
  hiPlus1 = arith::MinSIOp::create(b, hiPlus1, numTaps);
  r.count = arith::MaxSIOp::create(b, sub(hiPlus1, lo), c(0));
  r.first = add(t0, mul(lo, r.step));
  r.input = sub(i0, mul(lo, r.inputStep));
  return r;
}

void KernelEmitter::emitConvolution() {
  const int64_t sb = smemPlan.subBlock;
  Value input = memOf[a.conv.getInput()], weight = memOf[a.conv.getWeight()];
  Value rounds = setUpRounds();
  auto subLoop = scf::ForOp::create(b, c(0), c(cfg.getTileC()), c(sb));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(subLoop.getBody());
  Value subBase = subLoop.getInductionVar();
  Value cs = add(co0, subBase);
  Value grp = divu(cs, g.coutPerGroup());
  Value ciBase = mul(grp, g.cinPerGroup());
  Value coInGroup = sub(cs, mul(grp, g.coutPerGroup()));

  auto loop =
      scf::ForOp::create(b, c(0), rounds, c(1), initialAccumulators());
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(loop.getBody());
    Round r = decodeRound(loop.getInductionVar());
    // Everyone is done with the previous round's operands.
    gpu::BarrierOp::create(b);
    stageInputs(input, r.ci0, ciBase, r.id, r.ih);
    stageWeights(weight, r.ci0, ciBase, coInGroup, r.td, r.th, r.hValid,
                 hTaps.step);
    gpu::BarrierOp::create(b);
    SmallVector<Value> acc(loop.getRegionIterArgs());
    acc = cfg.usesTensorCores() ? accumulateChunkMMA(acc, c(0), r.hValid)
                                : accumulateChunkFMA(acc, c(0));
    scf::YieldOp::create(b, acc);
  }
  // The staging buffer may alias the output tile.
  gpu::BarrierOp::create(b);
  SmallVector<Value> results(loop.getResults());
  if (cfg.usesTensorCores())
    storeAccumulatorsMMA(subBase, results);
  else
    storeAccumulatorsFMA(subBase, results);
}

/// Staging loops distribute `total` slots over the block with a static trip
/// count; out-of-range slots load from a clamped in-bounds address and are
/// replaced by zero (no branches). A slot is one element, or a 16-byte
/// vector of 4 consecutive columns when the plan says `vectorInput` (the
/// window then starts at a multiple of 4 and rows are multiples of 4 long,
/// so a vector lies wholly inside or wholly outside its row).
void KernelEmitter::stageInputs(Value input, Value ci0, Value ciBase, Value id,
                                Value ih) {
  const int64_t width = smemPlan.vectorInput ? 4 : 1;
  const int64_t kc = cfg.getCiChunk(), rows = smemPlan.stagedRows;
  const int64_t slots = smemPlan.inputSpan / width, nthreads = launch.threads;
  const int64_t total = kc * rows * slots;
  auto loop = scf::ForOp::create(b, c(0), c(llvm::divideCeil(total, nthreads)),
                                 c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = add(tid, mul(loop.getInductionVar(), nthreads));
  Value xs = remu(e, slots), rest = divu(e, slots);
  Value rr = remu(rest, rows), kci = divu(rest, rows);
  Value ci = add(ci0, kci);
  Value col = mul(xs, width);
  Value iw = add(iwMin, col), ihr = add(ih, rr);
  Value ok = andI(andI(ult(e, total), ult(ci, g.cinPerGroup())),
                  andI(inRange(iw, g.in[2]), inRange(ihr, g.in[1])));
  auto clamp = [&](Value v) {
    return arith::SelectOp::create(b, ok, v, c(0)).getResult();
  };
  SmallVector<Value> idx =
      fullIndex(n, clamp(add(ciBase, ci)), clamp(id), clamp(ihr), clamp(iw));
  SmallVector<Value, 4> values;
  if (width == 1) {
    values.push_back(memref::LoadOp::create(b, input, idx));
  } else {
    Value v = vector::LoadOp::create(
        b, VectorType::get({width}, b.getF32Type()), input, idx,
        /*nontemporal=*/false, llvm::MaybeAlign(16));
    for (int64_t i = 0; i < width; ++i)
      values.push_back(vector::ExtractOp::create(b, v, i));
  }
  Value addr = add(
      add(add(mul(kci, smemPlan.xsStride), mul(rr, smemPlan.xsRowStride)), col),
      smemPlan.xsOffset);
  // Slots past `total` write nothing.
  auto inside = scf::IfOp::create(b, TypeRange{}, ult(e, total), false);
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  for (auto [i, v] : llvm::enumerate(values))
    sstore(roundOperand(arith::SelectOp::create(b, ok, v, f(0.0))),
           add(addr, static_cast<int64_t>(i)));
}

void KernelEmitter::stageWeights(Value weight, Value ci0, Value ciBase,
                                 Value coInGroup, Value td, Value th,
                                 Value hValid, int64_t hStep) {
  const int64_t kc = cfg.getCiChunk(), sb = smemPlan.subBlock;
  const int64_t hTaps = smemPlan.hTapsPerRound;
  const int64_t kw = g.k[2], nthreads = launch.threads;
  const int64_t total = kc * sb * hTaps;
  // One (input channel, h tap, output channel) triple per thread and
  // iteration; its kw taps are contiguous in memory: 16-byte vector loads
  // when kw % 4 == 0.
  auto loop = scf::ForOp::create(b, c(0), c(llvm::divideCeil(total, nthreads)),
                                 c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = add(tid, mul(loop.getInductionVar(), nthreads));
  Value cl = remu(e, sb), rest = divu(e, sb);
  Value ha = hTaps > 1 ? remu(rest, hTaps) : c(0);
  Value kci = hTaps > 1 ? divu(rest, hTaps) : rest;
  Value ci = add(ci0, kci), co = add(coInGroup, cl);
  Value ok =
      andI(andI(ult(e, total), cmp(arith::CmpIPredicate::ult, ha, hValid)),
           andI(ult(ci, g.cinPerGroup()), ult(co, g.coutPerGroup())));
  auto clamp = [&](Value v) {
    return arith::SelectOp::create(b, ok, v, c(0)).getResult();
  };
  SmallVector<Value> widx{clamp(add(ciBase, ci)), clamp(co)};
  if (g.rank == 5)
    widx.push_back(clamp(td));
  if (g.rank >= 4)
    widx.push_back(clamp(add(th, mul(ha, hStep))));
  SmallVector<Value> taps = loadWeightRow(weight, widx);
  auto inside = scf::IfOp::create(b, TypeRange{}, ult(e, total), false);
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  for (int64_t t = 0; t < kw; ++t) {
    Value v = arith::SelectOp::create(b, ok, taps[t], f(0.0));
    sstore(roundOperand(v), add(add(add(mul(kci, smemPlan.wsCiStride),
                                        add(mul(ha, kw * sb), t * sb)),
                                    cl),
                                smemPlan.wsOffset));
  }
}

Value KernelEmitter::roundOperand(Value v) {
  if (!cfg.usesTensorCores())
    return v;
  // Round to TF32 to nearest, ties away (cvt.rna.tf32.f32), as the tensor
  // cores would otherwise truncate the mantissa.
  Value tf32 = NVVM::ConvertFloatToTF32Op::create(
      b, b.getI32Type(), v,
      NVVM::FPRoundingModeAttr::get(b.getContext(),
                                    NVVM::FPRoundingMode::RNA));
  return arith::BitcastOp::create(b, b.getF32Type(), tf32);
}

SmallVector<Value> KernelEmitter::initialAccumulators() {
  if (!cfg.usesTensorCores()) {
    int64_t ppt = cfg.getTileW() / cfg.getThreadsW();
    return SmallVector<Value>(cfg.getChanPerThread() * ppt, f(0.0));
  }
  auto accTy = VectorType::get({2, 2}, b.getF32Type());
  Value zero = arith::ConstantOp::create(
      b, DenseElementsAttr::get(accTy, b.getF32FloatAttr(0.0)));
  return SmallVector<Value>(
      cfg.getRows() * cfg.getMmaTilesC() * cfg.getMmaTilesW(), zero);
}

SmallVector<Value>
KernelEmitter::accumulateChunkFMA(ArrayRef<Value> accIn, Value base) {
  const int64_t tw = cfg.getThreadsW(), tc = cfg.getThreadsC();
  const int64_t cpt = cfg.getChanPerThread(), ppt = cfg.getTileW() / tw;
  const int64_t sb = smemPlan.subBlock;
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  // W phase of this thread (shared by all of its positions).
  Value owt = add(add(ow0, tx), pw);
  Value tw0 = firstTap(remu(owt, sw), kw, sw, dw);
  auto kLoop =
      scf::ForOp::create(b, c(0), c(cfg.getCiChunk()), c(1), accIn);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  Value k = kLoop.getInductionVar();
  auto wLoop = scf::ForOp::create(b, tw0, c(kw), c(tapStep(sw, dw)),
                                  kLoop.getRegionIterArgs());
  b.setInsertionPointToStart(wLoop.getBody());
  Value t = wLoop.getInductionVar();
  Value xBase = add(sub(divExact(sub(owt, mul(t, dw)), sw), iwMin),
                    add(mul(k, smemPlan.xsStride), add(base, smemPlan.xsOffset)));
  Value wBase = add(add(add(mul(k, smemPlan.wsCiStride), mul(t, sb)), ty),
                    add(base, smemPlan.wsOffset));
  SmallVector<Value> xv, wv;
  for (int64_t i = 0; i < ppt; ++i)
    xv.push_back(sload(add(xBase, i * (tw / sw))));
  for (int64_t j = 0; j < cpt; ++j)
    wv.push_back(sload(add(wBase, j * tc)));
  SmallVector<Value> acc(wLoop.getRegionIterArgs());
  for (int64_t j = 0; j < cpt; ++j)
    for (int64_t i = 0; i < ppt; ++i)
      acc[j * ppt + i] =
          math::FmaOp::create(b, xv[i], wv[j], acc[j * ppt + i]);
  scf::YieldOp::create(b, acc);
  b.setInsertionPointAfter(wLoop);
  scf::YieldOp::create(b, wLoop.getResults());
  b.setInsertionPointAfter(kLoop);
  return SmallVector<Value>(kLoop.getResults());
}

void KernelEmitter::storeAccumulatorsFMA(Value subBase, ArrayRef<Value> acc) {
  const int64_t tw = cfg.getThreadsW(), tc = cfg.getThreadsC();
  const int64_t cpt = cfg.getChanPerThread(), ppt = cfg.getTileW() / tw;
  for (int64_t j = 0; j < cpt; ++j) {
    Value cl = add(add(subBase, ty), j * tc);
    Value bias = convBias(cl);
    for (int64_t i = 0; i < ppt; ++i) {
      Value v = arith::AddFOp::create(b, acc[j * ppt + i], bias);
      sstore(v, tileAddr(0, c(0), cl, add(tx, i * tw)));
    }
  }
}

Value KernelEmitter::convBias(Value cl) {
  if (!a.conv.getBias())
    return f(0.0);
  Value ch = add(co0, cl);
  return guardedLoad(ult(ch, g.cout), memOf[a.conv.getBias()], ValueRange{ch});
}

/// Warp coordinates of the tensor-core path: warp = (phase * warpsC + wc) *
/// warpsW + ww; lane = 4 * group + threadInGroup (the mma.sync layout).
void KernelEmitter::computeWarpCoordinates() {
  Value warp = divu(tid, 32), lane = remu(tid, 32);
  int64_t warpsC = cfg.getMmaWarpsC(), warpsW = cfg.getMmaWarpsW();
  mmaWW = remu(warp, warpsW);
  Value r = divu(warp, warpsW);
  mmaWC = remu(r, warpsC);
  mmaPhase = divu(r, warpsC);
  mmaGroup = divu(lane, 4);
  mmaTig = remu(lane, 4);
}

SmallVector<Value> KernelEmitter::accumulateChunkMMA(ArrayRef<Value> accIn,
                                                     Value base, Value hValid) {
  const int64_t mt = cfg.getMmaTilesC(), nt = cfg.getMmaTilesW();
  const int64_t sb = smemPlan.subBlock;
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  const int64_t hTaps = smemPlan.hTapsPerRound;
  // Output positions of this warp: ow = ow0 + phase + sw * j, so its W
  // residue, and with it the valid tap set, is uniform over the warp.
  Value owp = add(add(ow0, mmaPhase), pw);
  Value tw0 = firstTap(remu(owp, sw), kw, sw, dw);
  // The round's valid h taps: tap a reads staged rows from (hTaps - 1 - a)
  // x hInputStep on, and its own weight plane.
  auto hLoop = scf::ForOp::create(b, c(0), hValid, c(1), accIn);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(hLoop.getBody());
  Value ha = hLoop.getInductionVar();
  Value hRow = mul(sub(c(hTaps - 1), ha), smemPlan.hInputStep);
  auto wLoop = scf::ForOp::create(b, tw0, c(kw), c(tapStep(sw, dw)),
                                  hLoop.getRegionIterArgs());
  b.setInsertionPointAfter(wLoop);
  scf::YieldOp::create(b, wLoop.getResults());
  b.setInsertionPointToStart(wLoop.getBody());
  Value t = wLoop.getInductionVar();
  // Staged input column of position j = 0 of this warp's phase at tap t.
  Value xCol = add(sub(divExact(sub(owp, mul(t, dw)), sw), iwMin),
                   mul(hRow, smemPlan.xsRowStride));
  Value nBase = add(mul(mmaWW, nt * 8), mmaGroup);
  Value mBase = add(mul(mmaWC, mt * 16), mmaGroup);
  Value wTap =
      add(add(mul(t, sb), mul(ha, kw * sb)), add(base, smemPlan.wsOffset));
  Value xBase = add(base, smemPlan.xsOffset);
  // Operands were rounded to TF32 when staged.
  auto frag = [&](Value addr) { return sload(addr); };
  auto aTy = VectorType::get({4, 1}, b.getF32Type());
  auto bTy = VectorType::get({2, 1}, b.getF32Type());
  const int64_t rows = cfg.getRows();
  SmallVector<Value> acc(wLoop.getRegionIterArgs());
  for (int64_t ks = 0; ks < cfg.getCiChunk() / 8; ++ks) {
    Value k0 = add(mmaTig, ks * 8), k1 = add(mmaTig, ks * 8 + 4);
    Value xRow0 = add(mul(k0, smemPlan.xsStride), xBase);
    Value xRow1 = add(mul(k1, smemPlan.xsStride), xBase);
    Value wRow0 = add(mul(k0, smemPlan.wsCiStride), wTap);
    Value wRow1 = add(mul(k1, smemPlan.wsCiStride), wTap);
    // Weight fragments are shared by all rows of the block.
    SmallVector<Value> aFrag;
    for (int64_t mi = 0; mi < mt; ++mi) {
      Value m = add(mBase, mi * 16);
      aFrag.push_back(vector::FromElementsOp::create(
          b, aTy,
          ValueRange{frag(add(wRow0, m)), frag(add(wRow0, add(m, 8))),
                     frag(add(wRow1, m)), frag(add(wRow1, add(m, 8)))}));
    }
    for (int64_t rr = 0; rr < rows; ++rr)
      for (int64_t ni = 0; ni < nt; ++ni) {
        Value col = add(add(xCol, add(nBase, ni * 8)),
                        rr * smemPlan.xsRowStride);
        Value bFrag = vector::FromElementsOp::create(
            b, bTy,
            ValueRange{frag(add(xRow0, col)), frag(add(xRow1, col))});
        for (int64_t mi = 0; mi < mt; ++mi) {
          Value &accum = acc[(rr * mt + mi) * nt + ni];
          accum = nvgpu::MmaSyncOp::create(b, aFrag[mi], bFrag, accum,
                                           ArrayRef<int64_t>{16, 8, 8},
                                           /*tf32Enabled=*/true);
        }
      }
  }
  scf::YieldOp::create(b, acc);
  b.setInsertionPointAfter(hLoop);
  return SmallVector<Value>(hLoop.getResults());
}

void KernelEmitter::storeAccumulatorsMMA(Value subBase, ArrayRef<Value> acc) {
  const int64_t mt = cfg.getMmaTilesC(), nt = cfg.getMmaTilesW();
  const int64_t sw = g.stride[2];
  for (int64_t mi = 0; mi < mt; ++mi)
    for (int64_t half = 0; half < 2; ++half) {
      // Rows group and group + 8 of the 16-channel tile.
      Value cl = add(add(subBase, mul(mmaWC, mt * 16)),
                     add(mmaGroup, mi * 16 + half * 8));
      Value bias = convBias(cl);
      for (int64_t rr = 0; rr < cfg.getRows(); ++rr)
        for (int64_t ni = 0; ni < nt; ++ni)
          for (int64_t col = 0; col < 2; ++col) {
            // Column 2 * threadInGroup + col of the 8-position tile.
            Value j =
                add(add(mul(mmaWW, nt * 8), mul(mmaTig, 2)), ni * 8 + col);
            Value wl = add(mmaPhase, mul(j, sw));
            Value v = vector::ExtractOp::create(
                b, acc[(rr * mt + mi) * nt + ni],
                ArrayRef<int64_t>{half, col});
            sstore(arith::AddFOp::create(b, v, bias),
                   tileAddr(0, c(rr), cl, wl));
          }
    }
}

Value KernelEmitter::setUpRounds() {
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  iwMin = floorDiv(add(ow0, pw - (kw - 1) * dw), sw);
  if (smemPlan.vectorInput)
    iwMin = mul(floorDiv(iwMin, 4), 4);
  dTaps = tapRange(add(od, g.pad[0]), 0, 1);
  hTaps = tapRange(add(oh, g.pad[1]), 1, cfg.getRows());
  // Rounds of the main loop: (valid d tap, valid h tap, channel chunk), or
  // (valid d tap, channel chunk) with all valid h taps staged at once.
  hRounds = smemPlan.hTapsPerRound > 1
                ? arith::MinSIOp::create(b, hTaps.count, c(1)).getResult()
                : hTaps.count;
  const int64_t numChunks = llvm::divideCeil(g.cinPerGroup(), cfg.getCiChunk());
  return mul(mul(dTaps.count, hRounds), numChunks);
}

KernelEmitter::Round KernelEmitter::decodeRound(Value q) {
  const int64_t numChunks = llvm::divideCeil(g.cinPerGroup(), cfg.getCiChunk());
  const int64_t hPerRound = smemPlan.hTapsPerRound;
  Round r;
  Value chunk = remu(q, numChunks);
  Value rest = divu(q, numChunks);
  Value ah = hPerRound > 1 ? c(0) : arith::RemUIOp::create(b, rest, hRounds);
  Value ad = hPerRound > 1 ? rest : arith::DivUIOp::create(b, rest, hRounds);
  r.td = add(dTaps.first, mul(ad, dTaps.step));
  r.id = sub(dTaps.input, mul(ad, dTaps.inputStep));
  r.th = add(hTaps.first, mul(ah, hTaps.step));
  // Staged input rows start at the row of the last tap that may be staged
  // (tap a of block row r reads staged row (hPerRound - 1 - a) x inputStep
  // + r).
  r.ih = sub(hTaps.input, mul(add(ah, hPerRound - 1), hTaps.inputStep));
  r.hValid = hPerRound > 1 ? hTaps.count : c(1);
  r.ci0 = mul(chunk, cfg.getCiChunk());
  return r;
}

Value KernelEmitter::wgmmaDescriptor(Value wordOffset, int64_t lboBytes,
                                     int64_t sboBytes) {
  // Bits 0-13: start address >> 4; 16-29: LBO >> 4; 32-45: SBO >> 4; base
  // offset and swizzle mode (no swizzle) zero. Addresses stay below 2^18.
  Value enc = add(smemEnc, divu(wordOffset, 4));
  Value enc64 = arith::IndexCastUIOp::create(b, b.getI64Type(), enc);
  uint64_t bits = (static_cast<uint64_t>(lboBytes >> 4) << 16) |
                  (static_cast<uint64_t>(sboBytes >> 4) << 32);
  return arith::OrIOp::create(
      b, enc64,
      arith::ConstantOp::create(
          b, b.getI64IntegerAttr(static_cast<int64_t>(bits))));
}

void KernelEmitter::emitConvolutionWgmma() {
  const int64_t sw = g.stride[2];
  Value rounds = setUpRounds();
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, smem);
  smemEnc = divu(arith::AndIOp::create(b, ptr, c(0x3FFFF)), 16);

  // Prologue: stage round 0 into buffer 0.
  {
    Value any = cmp(arith::CmpIPredicate::sgt, rounds, c(0));
    auto ifAny = scf::IfOp::create(b, TypeRange{}, any, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifAny.getThenRegion().front());
    Value group = copyRoundWeights(c(0), c(0), any);
    stageRoundWgmma(c(0), c(0));
    completeStaging(group);
  }
  // Accumulators: one struct per (W phase, owned row), zero.
  const int64_t phases = sw, ownRows = cfg.getRows() / cfg.getWgmmaRowSplit();
  SmallVector<Value> init;
  for (int64_t p = 0; p < phases; ++p) {
    Value zero = LLVM::UndefOp::create(b, wgmmaAccType(p));
    for (int64_t e = 0; e < phaseN(p) / 2; ++e)
      zero = LLVM::InsertValueOp::create(b, zero, f(0.0), e);
    init.append(ownRows, zero);
  }
  const int64_t numAcc = init.size();
  // Register-staged inputs whose items fit one batch are loaded a round
  // ahead of their stores: round q + 2's loads are issued in round q and
  // carried around the loop, so that their latency spans the barrier and
  // the next round's wgmma issue (docs/perf.md section 85).
  const int64_t inputIters =
      llvm::divideCeil(inputItems().total, launch.threads);
  const bool pipelined = !ipack && inputIters <= inputBatch();
  if (pipelined) {
    RawInputs first = loadRoundInputsIf(
        cmp(arith::CmpIPredicate::sgt, rounds, c(1)), c(1), inputIters);
    llvm::append_range(init, first.values);
    llvm::append_range(init, first.valid);
  }
  auto loop = scf::ForOp::create(b, c(0), rounds, c(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value q = loop.getInductionVar();
    Value buf = mul(remu(q, 2), smemPlan.stageElems);
    // Round q is staged and fenced by every thread; every warpgroup has
    // retired its wgmma of round q - 1 (which read the other buffer).
    gpu::BarrierOp::create(b);
    NVVM::WgmmaFenceAlignedOp::create(b);
    auto iterArgs = loop.getRegionIterArgs();
    SmallVector<Value> acc =
        issueRoundWgmma(SmallVector<Value>(iterArgs.take_front(numAcc)), buf,
                        decodeRound(q).hValid);
    RawInputs carried;
    if (pipelined) {
      const size_t n = (iterArgs.size() - numAcc) / 2;
      carried.values.assign(iterArgs.begin() + numAcc,
                            iterArgs.begin() + numAcc + n);
      carried.valid.assign(iterArgs.begin() + numAcc + n, iterArgs.end());
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b);
    // Stage round q + 1 while the tensor cores work on round q (the weight
    // copies are issued first and run while the inputs are staged).
    Value next = add(q, 1);
    Value nextBuf = mul(remu(next, 2), smemPlan.stageElems);
    Value hasNext = cmp(arith::CmpIPredicate::slt, next, rounds);
    Value group;
    if (ipack) {
      // Past the last round the weight copies only zero-fill the idle
      // buffer: kept branch-free where the input comes by copies too
      // (kb1_77 tf32 3.7% slower with the branch, docs/perf.md section 84).
      group = copyRoundWeights(next, nextBuf, hasNext);
      auto more = scf::IfOp::create(b, TypeRange{}, hasNext, false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(&more.getThenRegion().front());
      stageRoundWgmma(next, nextBuf);
    } else {
      // The inputs are staged under a branch anyway; the weights join them,
      // so that nothing is copied past the last round (an empty copy group
      // keeps every thread's group count equal).
      auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
      auto more = scf::IfOp::create(b, TypeRange{tokTy}, hasNext, true);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(&more.getThenRegion().front());
      Value staged = copyRoundWeights(
          next, nextBuf, arith::ConstantIntOp::create(b, 1, 1).getResult());
      if (pipelined)
        storeRoundInputs(carried, nextBuf, 0, inputIters);
      else
        stageRoundWgmma(next, nextBuf);
      scf::YieldOp::create(b, staged);
      b.setInsertionPointToStart(&more.getElseRegion().front());
      scf::YieldOp::create(
          b, ValueRange{nvgpu::DeviceAsyncCreateGroupOp::create(b, tokTy,
                                                                ValueRange{})});
      group = more.getResult(0);
    }
    if (pipelined) {
      RawInputs ahead =
          loadRoundInputsIf(cmp(arith::CmpIPredicate::slt, add(q, 2), rounds),
                            add(q, 2), inputIters);
      llvm::append_range(acc, ahead.values);
      llvm::append_range(acc, ahead.valid);
    }
    NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
    completeStaging(group);
    scf::YieldOp::create(b, acc);
  }
  // The staging buffers alias the output tile.
  gpu::BarrierOp::create(b);
  storeAccumulatorsWgmma(
      SmallVector<Value>(loop.getResults().take_front(numAcc)));
}

KernelEmitter::InputItems KernelEmitter::inputItems() const {
  InputItems items;
  items.groups = cfg.getCiChunk() / 4;
  items.quads = smemPlan.inputSpan / 4;
  items.total = items.groups * items.quads * smemPlan.stagedRows;
  // Raw values per item: 4 16-byte vectors (one per channel), or 16 words.
  items.perItem = smemPlan.vectorInput ? 4 : 16;
  return items;
}

std::pair<Value, Value> KernelEmitter::itemElement(const InputItems &items,
                                                   int64_t it) {
  Value e = add(tid, it * launch.threads);
  const bool all = (it + 1) * launch.threads <= items.total;
  return {e, all ? Value() : ult(e, items.total)};
}

KernelEmitter::ItemCoords KernelEmitter::itemCoords(const InputItems &items,
                                                    Value e) {
  ItemCoords at;
  at.kg = remu(e, items.groups);
  Value rest = divu(e, items.groups);
  at.xq = remu(rest, items.quads);
  at.rr = divu(rest, items.quads);
  return at;
}

int64_t KernelEmitter::inputBatch() const {
  // The staged values of an item take 16 registers beside the accumulators.
  int64_t accRegs = 0;
  for (int64_t p = 0; p < g.stride[2]; ++p)
    accRegs += (cfg.getRows() / cfg.getWgmmaRowSplit()) * phaseN(p) / 2;
  return std::max<int64_t>(1, (kStagingRegisterBudget - accRegs) / 16);
}

KernelEmitter::RawInputs KernelEmitter::loadRoundInputs(Value q, int64_t first,
                                                        int64_t last) {
  Round r = decodeRound(q);
  const InputItems items = inputItems();
  Value input = memOf[a.conv.getInput()];
  auto v4Ty = VectorType::get({4}, b.getF32Type());
  // Bounds that hold for every round need no test.
  const bool ciAlwaysIn = g.cinPerGroup() % cfg.getCiChunk() == 0;
  RawInputs raw;
  for (int64_t it = first; it < last; ++it) {
    auto [e, inside] = itemElement(items, it);
    auto [kg, xq, rr] = itemCoords(items, e);
    Value iw = add(iwMin, mul(xq, 4)), ihr = add(r.ih, rr);
    Value rowOk = inRange(ihr, g.in[1]);
    if (inside)
      rowOk = andI(rowOk, inside);
    // Clamped, branch-free loads: an element outside the input reads
    // element 0 and is replaced by 0 when stored.
    auto clamp = [&](Value cond, Value v) {
      return arith::SelectOp::create(b, cond, v, c(0)).getResult();
    };
    for (int64_t ci = 0; ci < 4; ++ci) {
      Value chan = add(add(r.ci0, mul(kg, 4)), ci);
      Value ok = ciAlwaysIn ? rowOk : andI(rowOk, ult(chan, g.cinPerGroup()));
      if (smemPlan.vectorInput) {
        Value okv = andI(ok, inRange(iw, g.in[2]));
        SmallVector<Value> idx =
            fullIndex(n, clamp(okv, chan), clamp(okv, r.id), clamp(okv, ihr),
                      clamp(okv, iw));
        raw.values.push_back(vector::LoadOp::create(
            b, v4Ty, input, idx, /*nontemporal=*/false, llvm::MaybeAlign(16)));
        raw.valid.push_back(okv);
        continue;
      }
      for (int64_t j = 0; j < 4; ++j) {
        Value iwj = add(iw, j);
        Value okj = andI(ok, inRange(iwj, g.in[2]));
        SmallVector<Value> idx =
            fullIndex(n, clamp(okj, chan), clamp(okj, r.id), clamp(okj, ihr),
                      clamp(okj, iwj));
        raw.values.push_back(memref::LoadOp::create(b, input, idx));
        raw.valid.push_back(okj);
      }
    }
  }
  return raw;
}

KernelEmitter::RawInputs KernelEmitter::loadRoundInputsIf(Value cond, Value q,
                                                          int64_t iters) {
  const int64_t n = iters * inputItems().perItem;
  Type valueTy = smemPlan.vectorInput
                     ? Type(VectorType::get({4}, b.getF32Type()))
                     : Type(b.getF32Type());
  SmallVector<Type> types(n, valueTy);
  types.append(n, b.getI1Type());
  auto ifOp = scf::IfOp::create(b, types, cond, true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    RawInputs raw = loadRoundInputs(q, 0, iters);
    SmallVector<Value> all(raw.values);
    llvm::append_range(all, raw.valid);
    scf::YieldOp::create(b, all);
    // Past the last round: zeros (never stored).
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    SmallVector<Value> zeros;
    for (Type t : types)
      zeros.push_back(arith::ConstantOp::create(b, b.getZeroAttr(t)));
    scf::YieldOp::create(b, zeros);
  }
  RawInputs raw;
  for (int64_t i = 0; i < 2 * n; ++i)
    (i < n ? raw.values : raw.valid).push_back(ifOp.getResult(i));
  return raw;
}

void KernelEmitter::storeRoundInputs(const RawInputs &raw, Value buf,
                                     int64_t first, int64_t last) {
  const InputItems items = inputItems();
  auto v4Ty = VectorType::get({4}, b.getF32Type());
  for (int64_t it = first; it < last; ++it) {
    OpBuilder::InsertionGuard guard(b);
    auto [e, inside] = itemElement(items, it);
    if (inside) {
      auto ifInside = scf::IfOp::create(b, TypeRange{}, inside, false);
      b.setInsertionPointToStart(&ifInside.getThenRegion().front());
    }
    auto [kg, xq, rr] = itemCoords(items, e);
    Value base = add(
        add(add(mul(rr, smemPlan.xsRowStride), mul(kg, smemPlan.xsPlaneStride)),
            mul(xq, 16)),
        add(buf, smemPlan.xsOffset));
    const int64_t at = (it - first) * items.perItem;
    // Column j of the item: its 4 channels, TF32-rounded, one 16-byte store.
    for (int64_t j = 0; j < 4; ++j) {
      SmallVector<Value, 4> rounded;
      for (int64_t ci = 0; ci < 4; ++ci) {
        Value v, ok;
        if (smemPlan.vectorInput) {
          v = vector::ExtractOp::create(b, raw.values[at + ci], j);
          ok = raw.valid[at + ci];
        } else {
          v = raw.values[at + 4 * ci + j];
          ok = raw.valid[at + 4 * ci + j];
        }
        rounded.push_back(
            roundOperand(arith::SelectOp::create(b, ok, v, f(0.0))));
      }
      Value v = vector::FromElementsOp::create(b, v4Ty, rounded);
      vector::StoreOp::create(b, v, smem, ValueRange{add(base, 4 * j)},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
    }
  }
}

void KernelEmitter::stageRoundWgmma(Value q, Value buf) {
  // The weights arrive by copyRoundWeights; a re-laid-out input by
  // asynchronous copies too.
  if (ipack) {
    copyRoundPackedInputs(q, buf);
    return;
  }
  // The thread's items are issued in batches, all loads of a batch before
  // its stores, so that one memory latency covers the batch; the batch size
  // keeps the staged values beside the accumulators within the register
  // budget.
  const int64_t iters = llvm::divideCeil(inputItems().total, launch.threads);
  const int64_t batch = inputBatch();
  for (int64_t first = 0; first < iters; first += batch) {
    const int64_t last = std::min(iters, first + batch);
    storeRoundInputs(loadRoundInputs(q, first, last), buf, first, last);
  }
}

Value KernelEmitter::copyRoundWeights(Value q, Value buf, Value live) {
  Round r = decodeRound(q);
  const int64_t hT = smemPlan.hTapsPerRound, nthreads = launch.threads;
  const int64_t perImage = pack->imageElems / 4; // 16-byte copies
  const int64_t total = hT * perImage;
  Value ct = divu(co0, cfg.getTileC());
  Value chunk = divu(r.ci0, cfg.getCiChunk());
  auto v4 = b.getIndexAttr(4);
  SmallVector<Value> tokens;
  for (int64_t it = 0; it * nthreads < total; ++it) {
    Value e = add(tid, it * nthreads);
    Value ha = hT > 1 ? divu(e, perImage) : c(0);
    Value within = hT > 1 ? remu(e, perImage) : e;
    // Taps past the round's valid ones (merged h taps) are zero-filled.
    Value ok = hT > 1 ? andI(live, cmp(arith::CmpIPredicate::ult, ha, r.hValid))
                      : live;
    Value th =
        arith::SelectOp::create(b, ok, add(r.th, mul(ha, hTaps.step)), c(0));
    Value td = arith::SelectOp::create(b, ok, r.td, c(0));
    Value image = add(mul(add(mul(add(mul(ct, pack->kd), td), pack->kh), th),
                          pack->numChunks),
                      arith::SelectOp::create(b, ok, chunk, c(0)));
    Value src = add(mul(image, pack->imageElems), mul(within, 4));
    // The smem image of tap `ha` starts ha x kw x wsTapStride = ha x
    // imageElems into the weight area.
    Value dst = add(add(buf, smemPlan.wsOffset), mul(e, 4));
    Value srcElems = arith::SelectOp::create(b, ok, c(4), c(0));
    auto copy = [&] {
      return nvgpu::DeviceAsyncCopyOp::create(b, smem, ValueRange{dst}, packed,
                                              ValueRange{src}, v4, srcElems,
                                              b.getUnitAttr())
          .getResult();
    };
    tokens.push_back(guardedCopy((it + 1) * nthreads <= total
                                     ? Value()
                                     : ult(e, total),
                                 copy));
  }
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, tokTy, tokens);
}

void KernelEmitter::copyRoundPackedInputs(Value q, Value buf) {
  Round r = decodeRound(q);
  const int64_t span = smemPlan.inputSpan, rows = smemPlan.stagedRows;
  const int64_t groups = ipack->groups, nthreads = launch.threads;
  const int64_t total = rows * groups * span;
  Value chunk = divu(r.ci0, cfg.getCiChunk());
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> tokens;
  // Consecutive threads take consecutive columns (16 bytes each, contiguous
  // in the packed input and in shared memory).
  for (int64_t it = 0; it * nthreads < total; ++it) {
    Value e = add(tid, it * nthreads);
    Value col = remu(e, span), rest = divu(e, span);
    Value kg = remu(rest, groups), rr = divu(rest, groups);
    Value ihr = add(r.ih, rr);
    Value ok = inRange(ihr, g.in[1]);
    Value row = arith::SelectOp::create(b, ok, ihr, c(0));
    Value plane =
        add(mul(add(mul(add(mul(add(mul(n, g.in[0]), r.id), g.in[1]), row),
                        ipack->numChunks),
                    chunk),
                groups),
            kg);
    Value src = mul(
        add(mul(plane, ipack->width), add(add(iwMin, col), ipack->padL)), 4);
    src = arith::SelectOp::create(b, ok, src, c(0));
    Value dst = add(add(add(mul(rr, smemPlan.xsRowStride),
                            mul(kg, smemPlan.xsPlaneStride)),
                        mul(col, 4)),
                    add(buf, smemPlan.xsOffset));
    Value srcElems = arith::SelectOp::create(b, ok, c(4), c(0));
    auto copy = [&] {
      return nvgpu::DeviceAsyncCopyOp::create(
                 b, smem, ValueRange{dst}, ipacked, ValueRange{src},
                 b.getIndexAttr(4), srcElems, b.getUnitAttr())
          .getResult();
    };
    tokens.push_back(guardedCopy((it + 1) * nthreads <= total
                                     ? Value()
                                     : ult(e, total),
                                 copy));
  }
  nvgpu::DeviceAsyncCreateGroupOp::create(b, tokTy, tokens);
}

Value KernelEmitter::guardedCopy(Value inside, function_ref<Value()> copy) {
  if (!inside)
    return copy();
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  auto ifOp = scf::IfOp::create(b, TypeRange{tokTy}, inside, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value t = copy();
  scf::YieldOp::create(
      b, ValueRange{nvgpu::DeviceAsyncCreateGroupOp::create(b, tokTy, t)});
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, ValueRange{nvgpu::DeviceAsyncCreateGroupOp::create(
                              b, tokTy, ValueRange{})});
  return ifOp.getResult(0);
}

void KernelEmitter::completeStaging(Value group) {
  nvgpu::DeviceAsyncWaitOp::create(b, group, b.getI32IntegerAttr(0));
  // This thread's generic-proxy stores and completed copies become visible
  // to the tensor cores (async proxy) after the next barrier.
  NVVM::FenceProxyOp::create(
      b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

SmallVector<Value> KernelEmitter::issueRoundWgmma(ArrayRef<Value> accIn,
                                                  Value buf, Value hValid) {
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  const int64_t split = cfg.getWgmmaRowSplit();
  const int64_t ownRows = cfg.getRows() / split, hT = smemPlan.hTapsPerRound;

  // Byte strides: K-direction core matrices are whole planes apart, 8-row
  // groups 8 x 16 bytes apart (rows of 16 bytes: 4 channels of one column or
  // one output channel).
  const int64_t aLbo = 4 * smemPlan.wsPlaneStride;
  const int64_t bLbo = 4 * smemPlan.xsPlaneStride, sbo = 128;
  Value aChan = add(add(buf, smemPlan.wsOffset), mul(wgChannelGroup, 64 * 4));
  Value bBase = add(buf, smemPlan.xsOffset);
  SmallVector<Value> acc(accIn);
  // Straight-line code: the W phase of every accumulator and with it its
  // valid W taps are compile-time constants (tiles start at a multiple of
  // the W stride), the h taps of a merged round are all issued (taps past
  // `hValid` have zero weights), and only descriptors depend on the
  // warpgroup. No branch or loop around a wgmma, so ptxas keeps them
  // asynchronous. Consecutive instructions go to different accumulators.
  (void)hValid;
  for (int64_t ks = 0; ks < cfg.getCiChunk() / 8; ++ks)
    for (int64_t ha = 0; ha < hT; ++ha) {
      // Tap `ha` reads staged rows from (hT - 1 - ha) x hInputStep on.
      const int64_t hRow = (hT - 1 - ha) * smemPlan.hInputStep;
      for (int64_t t = 0; t < kw; ++t) {
        Value descA =
            wgmmaDescriptor(add(aChan, (ha * kw + t) * smemPlan.wsTapStride +
                                           2 * ks * smemPlan.wsPlaneStride),
                            aLbo, sbo);
        for (int64_t p = 0; p < sw; ++p) {
          // Positions ow0 + p + sw * j: tap t is valid iff t * dw = p + pw
          // (mod sw); position 0 then reads staged column
          // (ow0 + p + pw - t * dw) / sw - iwMin.
          if (((p + pw - t * dw) % sw + sw) % sw != 0)
            continue;
          Value col0 = sub(add(divu(ow0, sw), (p + pw - t * dw) / sw), iwMin);
          for (int64_t i = 0; i < ownRows; ++i) {
            Value row = add(wgRowSplit, i * split);
            Value descB = wgmmaDescriptor(
                add(add(bBase, add(mul(add(row, hRow), smemPlan.xsRowStride),
                                   mul(col0, 4))),
                    2 * ks * smemPlan.xsPlaneStride),
                bLbo, sbo);
            Value &accum = acc[p * ownRows + i];
            accum = NVVM::WgmmaMmaAsyncOp::create(
                b, wgmmaAccType(p), accum, descA, descB,
                NVVM::MMAShapeAttr::get(b.getContext(), 64, phaseN(p), 8),
                NVVM::WGMMATypes::tf32,
                NVVM::WGMMATypes::tf32, NVVM::WGMMATypes::f32,
                NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
                NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
                NVVM::MMALayout::col, NVVM::MMAIntOverflowAttr());
          }
        }
      }
    }
  return acc;
}

void KernelEmitter::storeAccumulatorsWgmma(ArrayRef<Value> acc) {
  const int64_t sw = g.stride[2], split = cfg.getWgmmaRowSplit();
  const int64_t ownRows = cfg.getRows() / split;
  // Fragment of m64nNk8: warp w of the warpgroup holds rows 16 w + lane / 4
  // (+ 8), element 4 j + q of column 8 j + 2 (lane % 4) + q % 2.
  Value warp = remu(divu(tid, 32), 4), lane = remu(tid, 32);
  Value grp = divu(lane, 4), tig = remu(lane, 4);
  for (int64_t half = 0; half < 2; ++half) {
    Value cl =
        add(add(mul(wgChannelGroup, 64), mul(warp, 16)), add(grp, half * 8));
    Value bias = convBias(cl);
    for (int64_t p = 0; p < sw; ++p)
      for (int64_t i = 0; i < ownRows; ++i) {
        Value row = add(wgRowSplit, i * split);
        for (int64_t j = 0; j < phaseN(p) / 8; ++j)
          for (int64_t col = 0; col < 2; ++col) {
            Value v = LLVM::ExtractValueOp::create(b, acc[p * ownRows + i],
                                                   4 * j + 2 * half + col);
            Value pos = add(mul(tig, 2), 8 * j + col);
            Value wl = add(mul(pos, sw), p);
            sstore(arith::AddFOp::create(b, v, bias), tileAddr(0, row, cl, wl));
          }
      }
  }
}

void KernelEmitter::forEachTileElement(
    function_ref<void(ArrayRef<Element>)> body) {
  if (g.out[2] % 4 != 0 && tileLineWidth() >= kLaneEpilogueWidth &&
      launch.threads % 32 == 0) {
    forEachTileElementByLanes(body);
    return;
  }
  const int64_t tileW = cfg.getTileW(), tileC = cfg.getTileC();
  const int64_t quads = llvm::divideCeil(tileW, 4);
  auto loop = scf::ForOp::create(b, tid, c(cfg.getRows() * tileC * quads),
                                 c(launch.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value wl0 = mul(remu(e, quads), 4);
  Element first = tileLine(divu(e, quads));
  Value lineValid = lineInside(first);
  SmallVector<Element, 4> quad(4, first);
  for (int64_t i = 0; i < 4; ++i) {
    quad[i].wl = add(wl0, i);
    quad[i].ow = add(ow0, quad[i].wl);
  }
  // A quad lies wholly inside or wholly outside the tile and the tensor
  // when both widths are multiples of 4; otherwise the last quad of a line
  // may be partial and its elements are guarded one by one.
  bool aligned = tileW % 4 == 0 && g.out[2] % 4 == 0;
  Value full = andI(lineValid, ult(quad[3].ow, g.out[2]));
  if (tileW % 4 != 0)
    full = andI(full, ult(quad[3].wl, tileW));
  auto ifFull = scf::IfOp::create(b, TypeRange{}, full,
                                  /*withElseRegion=*/!aligned);
  b.setInsertionPointToStart(&ifFull.getThenRegion().front());
  body(quad);
  if (aligned)
    return;
  b.setInsertionPointToStart(&ifFull.getElseRegion().front());
  for (const Element &el : quad) {
    Value valid =
        andI(andI(lineValid, ult(el.ow, g.out[2])), ult(el.wl, tileW));
    auto ifOne = scf::IfOp::create(b, TypeRange{}, valid, false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifOne.getThenRegion().front());
    body(ArrayRef<Element>(el));
  }
}

void KernelEmitter::forEachTileElementByLanes(
    function_ref<void(ArrayRef<Element>)> body) {
  const int64_t lines = cfg.getRows() * cfg.getTileC();
  const int64_t warps = launch.threads / 32, width = tileLineWidth();
  assert(width >= kLaneEpilogueWidth && "needs 4 groups of 32 positions");
  const int64_t groups = width / 32, rest = width - 32 * groups;
  Value lane = remu(tid, 32), warp = divu(tid, 32);
  auto at = [&](Element el, Value wl) {
    el.wl = wl;
    el.ow = add(ow0, wl);
    return el;
  };
  auto guarded = [&](Value valid, const Element &el) {
    auto ifOne = scf::IfOp::create(b, TypeRange{}, valid, false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifOne.getThenRegion().front());
    body(ArrayRef<Element>(el));
  };
  // Whole groups of 32 positions: a warp takes a (row, channel) line, its
  // lanes consecutive positions (conflict-free tile reads, 128 contiguous
  // bytes per store), each thread one position per group (>= 4 independent
  // chains). kLaneLinesPerIteration lines per iteration where the lines
  // group up, so that their tile reads and parameter loads (a per-channel
  // bias) overlap; the remaining lines one per iteration.
  auto emitLines = [&](ArrayRef<Value> lineIds) {
    SmallVector<Element> els;
    Value full;
    SmallVector<Value> valid;
    for (Value id : lineIds) {
      Element line = tileLine(id);
      Value lineValid = lineInside(line);
      for (int64_t j = 0; j < groups; ++j) {
        els.push_back(at(line, add(lane, 32 * j)));
        valid.push_back(andI(lineValid, ult(els.back().ow, g.out[2])));
      }
      full = full ? andI(full, valid.back()) : valid.back();
    }
    auto ifFull = scf::IfOp::create(b, TypeRange{}, full, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifFull.getThenRegion().front());
    body(els);
    b.setInsertionPointToStart(&ifFull.getElseRegion().front());
    for (auto [el, ok] : llvm::zip(els, valid))
      guarded(ok, el);
  };
  const int64_t per = kLaneLinesPerIteration;
  const int64_t grouped = lines / (per * warps) * (per * warps);
  if (grouped > 0) {
    OpBuilder::InsertionGuard guard(b);
    auto loop = scf::ForOp::create(b, c(0), c(grouped), c(per * warps));
    b.setInsertionPointToStart(loop.getBody());
    Value first = add(loop.getInductionVar(), warp);
    SmallVector<Value> ids;
    for (int64_t k = 0; k < per; ++k)
      ids.push_back(add(first, k * warps));
    emitLines(ids);
  }
  if (grouped < lines) {
    OpBuilder::InsertionGuard guard(b);
    auto loop = scf::ForOp::create(b, add(warp, grouped), c(lines), c(warps));
    b.setInsertionPointToStart(loop.getBody());
    emitLines({loop.getInductionVar()});
  }
  // The rest of each line, element by element over all threads.
  if (rest > 0) {
    OpBuilder::InsertionGuard guard(b);
    auto loop = scf::ForOp::create(b, tid, c(lines * rest), c(launch.threads));
    b.setInsertionPointToStart(loop.getBody());
    Value e = loop.getInductionVar();
    Element el = at(tileLine(divu(e, rest)), add(remu(e, rest), 32 * groups));
    guarded(andI(lineInside(el), ult(el.ow, g.out[2])), el);
  }
}

Value KernelEmitter::elementValue(Value v, const Element &el,
                                  DenseMap<Value, Value> &memo) {
  if (Value known = memo.lookup(v))
    return known;
  Value result;
  Operation *def = v.getDefiningOp();
  if (def == a.conv.getOperation()) {
    result = sload(tileAddr(0, el.r, el.cl, el.wl));
  } else if (def && a.tileOf.count(def)) {
    result = normalizedValue(def, el);
  } else if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def)) {
    auto dense = cast<DenseElementsAttr>(cst.getValue());
    result = f(dense.getSplatValue<APFloat>().convertToDouble());
  } else if (auto ew = dyn_cast_or_null<ElementwiseOpInterface>(def)) {
    SmallVector<Value> operands;
    for (Value o : def->getOperands())
      operands.push_back(elementValue(o, el, memo));
    result = ew.buildScalar(b, b.getLoc(), operands);
  } else {
    // A kernel input read with broadcasting: dims are aligned at the right,
    // size-1 dims read index 0.
    auto ty = cast<RankedTensorType>(v.getType());
    SmallVector<Value> full = fullIndex(n, el.ch, od, el.oh, el.ow);
    SmallVector<Value> idx;
    int64_t lead = g.rank - ty.getRank();
    for (int64_t d = 0; d < ty.getRank(); ++d)
      idx.push_back(ty.getDimSize(d) == 1 ? c(0) : full[lead + d]);
    result = memref::LoadOp::create(b, memOf.lookup(v), idx);
  }
  memo[v] = result;
  return result;
}

void KernelEmitter::emitReduction(Operation *op, int64_t ordinal) {
  Value input = op->getOperand(0);
  const int64_t tile = a.tileOf.lookup(op);
  const int64_t tileW = cfg.getTileW(), tileC = cfg.getTileC();
  // 1. Materialise the input in this reduction's tile. Each element is read
  // and written by one thread, so the tile may be the input's own.
  // (Nothing to do when the input is the convolution and this reduction
  // took over its tile: the tile already holds the input. A reduction's tile
  // holds unnormalised values, so its readers always go through here.)
  if (input.getDefiningOp() != a.conv.getOperation() || tile != 0) {
    forEachTileElement([&](ArrayRef<Element> els) {
      for (const Element &el : els) {
        DenseMap<Value, Value> memo;
        Value v = elementValue(input, el, memo);
        sstore(v, tileAddr(tile, el.r, el.cl, el.wl));
      }
    });
    gpu::BarrierOp::create(b);
  }

  // 2. Statistics of each line: a column (channel softmax) or a row, per
  // block row.
  auto softmax = dyn_cast<SoftmaxOp>(op);
  bool alongChannels = softmax && softmax.getDim() == 1;
  int64_t lineWidth = alongChannels ? tileW : tileC;
  int64_t numLines = cfg.getRows() * lineWidth;
  const bool clustered = alongChannels && cfg.getClusterC() > 1;
  // In a cluster a block reduces its own channels (the last block's may be
  // fewer than tileC).
  Value lineLen =
      clustered
          ? Value(arith::MinSIOp::create(b, sub(c(g.cout), co0), c(tileC)))
          : c(alongChannels ? g.cout : g.out[2]);
  int64_t statsA = statsArray(ordinal, 0), statsB = statsArray(ordinal, 1);
  // Every block of the cluster has started (arrived) before this block
  // stores into their shared memory.
  if (clustered && clusterStartWaitDue) {
    NVVM::ClusterWaitOp::create(b, b.getUnitAttr());
    clusterStartWaitDue = false;
  }
  // Lines [lo, hi) with `perLine` threads per line (a power of two <= 32):
  // as many threads per line as leave every thread a line, so that a
  // remainder of lines (kb2_91: 258 lines, 256 threads) is shared out
  // rather than walked by 2 threads while the others wait.
  auto threadsPerLine = [&](int64_t lines) {
    int64_t per = 1;
    while (per * 2 <= 32 && per * 2 * lines <= launch.threads)
      per *= 2;
    return per;
  };
  auto statsPass = [&](int64_t lo, int64_t hi, int64_t perLine) {
    const int64_t linesPerPass = launch.threads / perLine;
    auto loop = scf::ForOp::create(b, c(lo), c(hi), c(linesPerPass));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value line = add(loop.getInductionVar(), divu(tid, perLine));
    Value part = remu(tid, perLine);
    Value rr = divu(line, lineWidth), pos = remu(line, lineWidth);
    // Lines are valid if inside the tensor (and the block's line range).
    Value inside = alongChannels ? ult(add(ow0, pos), g.out[2])
                                 : ult(add(co0, pos), g.cout);
    Value lineValid =
        andI(andI(ult(tid, linesPerPass * perLine), ult(line, hi)),
             andI(inside, ult(rowHeight(rr), g.out[1])));
    Value len = arith::SelectOp::create(b, lineValid, lineLen, c(0));
    auto addrOf = [&](Value idx) {
      return alongChannels ? tileAddr(tile, rr, idx, pos)
                           : tileAddr(tile, rr, pos, idx);
    };
    // Reduces `init` over the line's elements with `elem`, then across the
    // `perLine` threads of the line with warp shuffles.
    auto reduceLine = [&](Value init,
                          function_ref<Value(Value, Value, Value)> elem,
                          function_ref<Value(Value, Value)> combine) {
      auto l = scf::ForOp::create(b, part, len, c(perLine), ValueRange{init});
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(l.getBody());
        Value addr = addrOf(l.getInductionVar());
        Value x = sload(addr);
        scf::YieldOp::create(
            b, ValueRange{elem(l.getRegionIterArgs()[0], x, addr)});
      }
      Value acc = l.getResult(0);
      for (int64_t off = perLine / 2; off >= 1; off /= 2) {
        auto shfl =
            gpu::ShuffleOp::create(b, acc, off, 32, gpu::ShuffleMode::XOR);
        acc = combine(acc, shfl.getShuffleResult());
      }
      return acc;
    };
    auto addF = [&](Value x, Value y) -> Value {
      return arith::AddFOp::create(b, x, y);
    };
    Value statA, statB;
    if (softmax) {
      auto maxF = [&](Value x, Value y) -> Value {
        return arith::MaximumFOp::create(b, x, y);
      };
      statA = reduceLine(
          f(-INFINITY),
          [&](Value acc, Value x, Value) { return maxF(acc, x); }, maxF);
      // exp(x - max) is kept in the tile; the apply step only scales it.
      // Fast math: 2^(x log2(e) - max log2(e)), one FMA; the rounding of
      // max log2(e) scales the whole line alike and cancels in the
      // normalisation (Triton's and FlashAttention's form).
      Value negMaxLog2e =
          math == EpilogueMath::Fast
              ? arith::MulFOp::create(b, statA, f(-llvm::numbers::log2e))
                    .getResult()
              : Value();
      statB = reduceLine(
          f(0.0),
          [&](Value acc, Value x, Value addr) -> Value {
            Value ex =
                negMaxLog2e
                    ? ex2ApproxFtz(
                          b, math::FmaOp::create(b, x, f(llvm::numbers::log2e),
                                                 negMaxLog2e))
                    : math::ExpOp::create(b, arith::SubFOp::create(b, x, statA))
                          .getResult();
            sstore(ex, addr);
            return addF(acc, ex);
          },
          addF);
      // In a cluster the partial sum is kept: the blocks combine theirs
      // below.
      if (!clustered)
        statB = arith::DivFOp::create(b, f(1.0), statB);
    } else {
      auto ln = cast<LayerNormOp>(op);
      Value invLen = f(1.0 / static_cast<double>(g.out[2]));
      Value sum = reduceLine(
          f(0.0), [&](Value acc, Value x, Value) { return addF(acc, x); },
          addF);
      statA = arith::MulFOp::create(b, sum, invLen);
      Value sq = reduceLine(
          f(0.0),
          [&](Value acc, Value x, Value) -> Value {
            Value d = arith::SubFOp::create(b, x, statA);
            return math::FmaOp::create(b, d, d, acc);
          },
          addF);
      Value var = arith::MulFOp::create(b, sq, invLen);
      statB = math::RsqrtOp::create(
          b, arith::AddFOp::create(b, var,
                                   f(ln.getEpsilon().convertToDouble())));
    }
    Value writer = andI(lineValid, cmp(arith::CmpIPredicate::eq, part, c(0)));
    auto ifOp = scf::IfOp::create(b, TypeRange{}, writer, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    if (clustered) {
      // Pushed to every block of the cluster (this one included): slot
      // `rank` of their max and sum arrays. Remote stores need no reply, and
      // after the cluster barrier every block reads only its own memory.
      const int64_t blocks = cfg.getClusterC();
      Value slot = mul(clusterRank, smemPlan.statsLen);
      for (int64_t j = 0; j < blocks; ++j) {
        storeClusterShared(statA, add(add(line, slot), statsArray(ordinal, 0)),
                           j);
        storeClusterShared(
            statB, add(add(line, slot), statsArray(ordinal, blocks)), j);
      }
    } else {
      sstore(statA, add(line, statsA));
      sstore(statB, add(line, statsB));
    }
  };
  const int64_t perLine = threadsPerLine(numLines);
  const int64_t linesPerPass = launch.threads / perLine;
  const int64_t whole = numLines / linesPerPass * linesPerPass;
  const int64_t tailPerLine = threadsPerLine(numLines - whole);
  if (whole > 0 && whole < numLines && tailPerLine > perLine) {
    statsPass(0, whole, perLine);
    statsPass(whole, numLines, tailPerLine);
  } else {
    statsPass(0, numLines, perLine);
  }
  if (clustered)
    combineClusterStatistics(ordinal, numLines, lineWidth);
  gpu::BarrierOp::create(b);

  // 3. Nothing more here: readers normalise on load (`normalizedValue`),
  // which saves a pass over the tile and a barrier.
}

void KernelEmitter::storeClusterShared(Value v, Value offset, int64_t rank) {
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto ptr7 = LLVM::LLVMPointerType::get(b.getContext(), 7);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, smem);
  Value addr =
      arith::IndexCastOp::create(b, b.getI64Type(), add(base, mul(offset, 4)));
  Value local = LLVM::IntToPtrOp::create(b, ptr3, addr);
  Value remote = NVVM::MapaOp::create(
      b, ptr7, local,
      arith::ConstantOp::create(b, b.getI32IntegerAttr(rank)).getResult());
  LLVM::StoreOp::create(b, v, remote);
}

void KernelEmitter::combineClusterStatistics(int64_t ordinal, int64_t numLines,
                                             int64_t lineWidth) {
  // Every block's statistics stores (release) have landed (acquire) once
  // all blocks arrived.
  NVVM::ClusterArriveOp::create(b, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, b.getUnitAttr());
  const int64_t blocks = cfg.getClusterC();
  auto loop = scf::ForOp::create(b, c(0), c(numLines), c(launch.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value line = add(loop.getInductionVar(), tid);
  Value rr = divu(line, lineWidth), pos = remu(line, lineWidth);
  Value valid = andI(ult(line, numLines), andI(ult(add(ow0, pos), g.out[2]),
                                               ult(rowHeight(rr), g.out[1])));
  auto ifValid = scf::IfOp::create(b, TypeRange{}, valid, false);
  b.setInsertionPointToStart(&ifValid.getThenRegion().front());
  // max over the cluster, then sum_j s_j exp(m_j - max); this block's
  // factor is exp(m_own - max) / sum. (A block has at least one channel:
  // clusterC is the number of channel tiles.)
  SmallVector<Value, 8> m, s;
  for (int64_t j = 0; j < blocks; ++j) {
    m.push_back(sload(add(line, statsArray(ordinal, j))));
    s.push_back(sload(add(line, statsArray(ordinal, blocks + j))));
  }
  Value mx = m[0];
  for (int64_t j = 1; j < blocks; ++j)
    mx = arith::MaximumFOp::create(b, mx, m[j]);
  auto expOf = [&](Value x) -> Value {
    return math::ExpOp::create(b, arith::SubFOp::create(b, x, mx));
  };
  Value sum = f(0.0);
  for (int64_t j = 0; j < blocks; ++j)
    sum = math::FmaOp::create(b, s[j], expOf(m[j]), sum);
  Value own = m[0];
  for (int64_t j = 1; j < blocks; ++j)
    own = arith::SelectOp::create(
        b, cmp(arith::CmpIPredicate::eq, clusterRank, c(j)), m[j], own);
  sstore(arith::DivFOp::create(b, expOf(own), sum),
         add(line, statsArray(ordinal, 2 * blocks)));
}

Value KernelEmitter::normalizedValue(Operation *op, const Element &el) {
  int64_t ordinal = llvm::find(a.reductions, op) - a.reductions.begin();
  auto softmax = dyn_cast<SoftmaxOp>(op);
  bool alongChannels = softmax && softmax.getDim() == 1;
  int64_t lineWidth = alongChannels ? cfg.getTileW() : cfg.getTileC();
  int64_t statsA = statsArray(ordinal, 0), statsB = statsArray(ordinal, 1);
  Value x = sload(tileAddr(a.tileOf.lookup(op), el.r, el.cl, el.wl));
  Value line = add(mul(el.r, lineWidth), alongChannels ? el.wl : el.cl);
  // The tile holds exp(x - max); the factor is 1 / sum, or in a cluster
  // exp(max - cluster max) / cluster sum.
  if (softmax)
    return arith::MulFOp::create(
        b, x,
        sload(add(line, alongChannels && cfg.getClusterC() > 1
                            ? statsArray(ordinal, 2 * cfg.getClusterC())
                            : statsB)));
  Value sB = sload(add(line, statsB));
  auto ln = cast<LayerNormOp>(op);
  Value y = arith::MulFOp::create(
      b, arith::SubFOp::create(b, x, sload(add(line, statsA))), sB);
  if (Value w = ln.getWeight())
    y = arith::MulFOp::create(
        b, y, memref::LoadOp::create(b, memOf.lookup(w), ValueRange{el.ow}));
  if (Value bias = ln.getBias())
    y = arith::AddFOp::create(
        b, y, memref::LoadOp::create(b, memOf.lookup(bias), ValueRange{el.ow}));
  return y;
}

void KernelEmitter::emitEpilogue() {
  for (auto [ordinal, op] : llvm::enumerate(a.reductions))
    emitReduction(op, ordinal);
  Value result =
      cast<YieldOp>(kernel.getBody().front().getTerminator()).getValue();
  Value out = func.getArguments().back();
  forEachTileElement([&](ArrayRef<Element> els) {
    SmallVector<Value, 4> values;
    for (const Element &el : els) {
      DenseMap<Value, Value> memo;
      values.push_back(elementValue(result, el, memo));
    }
    // Whole quads of rows whose length is a multiple of 4 start 16-byte
    // aligned: one vector store.
    if (els.size() == 4 && g.out[2] % 4 == 0) {
      auto v4Ty = VectorType::get({4}, b.getF32Type());
      Value v4 = vector::FromElementsOp::create(b, v4Ty, values);
      vector::StoreOp::create(b, v4, out,
                              fullIndex(n, els[0].ch, od, els[0].oh, els[0].ow),
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
      return;
    }
    for (auto [el, v] : llvm::zip(els, values))
      memref::StoreOp::create(b, v, out, fullIndex(n, el.ch, od, el.oh, el.ow));
  });
}

/// Rewrites `1 / (1 + exp(y))` (sigmoid, silu) into a branch-free
/// reciprocal. The divisor d is >= 1 or NaN, where the IEEE reciprocal
/// (`rcp.rn.f32`) is exactly its fast path, rcp.approx r0 refined once:
/// r = r0 + r0 (1 - d r0) -- the same FMAs, bit for bit -- except for
/// d >= 2^126, whose result (<= 2^-126, a denormal) is flushed to 0 here.
/// Without the slow-path branch of `rcp.rn`, ptxas interleaves the
/// epilogue's elements (docs/perf.md section 42). With `EpilogueMath::Fast`
/// the reciprocal is `rcp.approx.ftz` alone (within 1 ulp; d >= 2^126 gives
/// 0 as well).
void rewriteSigmoidReciprocals(gpu::GPUFuncOp func, EpilogueMath math) {
  auto isOne = [](Value v) {
    APFloat one(1.0f);
    FloatAttr attr;
    return matchPattern(v, m_Constant(&attr)) &&
           attr.getValue().bitwiseIsEqual(one);
  };
  SmallVector<arith::DivFOp> candidates;
  func.walk([&](arith::DivFOp div) {
    auto sum = div.getRhs().getDefiningOp<arith::AddFOp>();
    if (!isOne(div.getLhs()) || !sum || !div.getType().isF32())
      return;
    Value other = isOne(sum.getLhs())   ? sum.getRhs()
                  : isOne(sum.getRhs()) ? sum.getLhs()
                                        : Value();
    if (other && other.getDefiningOp<math::ExpOp>())
      candidates.push_back(div);
  });
  for (arith::DivFOp div : candidates) {
    ImplicitLocOpBuilder b(div.getLoc(), div);
    Value d = div.getRhs();
    auto f32 = [&](float v) {
      return arith::ConstantOp::create(b, b.getF32FloatAttr(v)).getResult();
    };
    Value r0 = NVVM::RcpApproxFtzF32Op::create(b, b.getF32Type(), d);
    if (math == EpilogueMath::Fast) {
      div.replaceAllUsesWith(r0);
      div.erase();
      continue;
    }
    Value e =
        math::FmaOp::create(b, arith::NegFOp::create(b, d), r0, f32(1.0f));
    Value r = math::FmaOp::create(b, r0, e, r0);
    Value huge =
        arith::CmpFOp::create(b, arith::CmpFPredicate::OGE, d, f32(0x1p126f));
    div.replaceAllUsesWith(
        arith::SelectOp::create(b, huge, f32(0.0f), r).getResult());
    div.erase();
  }
}

/// Returns the power-of-two value of constant `v` (a splat or scalar f32),
/// or 0 if it is not one.
float powerOfTwoConstant(Value v) {
  FloatAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.getType().isF32())
    return 0.0f;
  float c = attr.getValue().convertToFloat();
  int exp;
  float m = std::frexp(c, &exp);
  return std::isfinite(c) && std::fabs(m) == 0.5f && std::abs(exp) < 64 ? c
                                                                        : 0.0f;
}

/// Rewrites every `math.exp(x)` of `func` into Triton's two instructions,
/// `ex2.approx.ftz(x * log2(e))` (libdevice's `__expf` with flushed
/// denormals: the non-ftz `ex2.approx` takes three more instructions to
/// scale denormal results, which differ from 0 by less than 2^-126). The
/// product absorbs negations and power-of-two factors of x (sigmoid's
/// `exp(-y)`, a `* 2` before it): both are exact, so the one rounded
/// product x * (+-2^k log2(e)) equals the unfused (+-2^k x) * log2(e).
/// (The softmax statistics build their exp in this form directly, as
/// fma(x, log2(e), -max log2(e)): see emitReduction.)
void approximateExponentials(gpu::GPUFuncOp func) {
  SmallVector<math::ExpOp> exps;
  func.walk([&](math::ExpOp exp) {
    if (exp.getType().isF32())
      exps.push_back(exp);
  });
  for (math::ExpOp exp : exps) {
    ImplicitLocOpBuilder b(exp.getLoc(), exp);
    Value x = exp.getOperand();
    float scale = llvm::numbers::log2ef;
    SmallVector<Operation *> peeled;
    while (Operation *def = x.getDefiningOp()) {
      if (auto neg = dyn_cast<arith::NegFOp>(def)) {
        x = neg.getOperand();
        scale = -scale;
      } else if (auto mul = dyn_cast<arith::MulFOp>(def)) {
        Value other = mul.getLhs();
        float c = powerOfTwoConstant(mul.getRhs());
        if (!c) {
          other = mul.getRhs();
          c = powerOfTwoConstant(mul.getLhs());
        }
        if (!c)
          break;
        x = other;
        scale *= c;
      } else {
        break;
      }
      peeled.push_back(def);
    }
    Value y = arith::MulFOp::create(
        b, x, arith::ConstantOp::create(b, b.getF32FloatAttr(scale)));
    exp.replaceAllUsesWith(ex2ApproxFtz(b, y));
    exp.erase();
    // The peeled negations and products, unless something else reads them.
    for (Operation *op : peeled)
      if (op->use_empty())
        op->erase();
  }
}

} // namespace

FailureOr<gpu::GPUFuncOp>
fusecc::buildKernelFunction(gpu::GPUModuleOp gpuModule, KernelOp kernel,
                            const KernelAnalysis &analysis, EpilogueMath math) {
  if (!kernel.getConfig())
    return kernel.emitOpError("has no tile config; run fuse-tile-kernels "
                              "before fuse-convert-to-gpu");
  for (Operation *op : analysis.reductions)
    if (auto ln = dyn_cast<LayerNormOp>(op))
      for (Value v : {ln.getWeight(), ln.getBias()})
        if (v && !isa<BlockArgument>(v))
          return ln.emitOpError("weight and bias must be kernel inputs");
  TileConfigAttr cfg = *kernel.getConfig();
  LaunchPlan launch = LaunchPlan::get(analysis, cfg);
  const ConvGeometry &g = analysis.geom;
  if (analysis.needsAllChannels && cfg.getTileC() * cfg.getClusterC() < g.cout)
    return kernel.emitOpError("tile config holds ")
           << cfg.getTileC() << " x " << cfg.getClusterC()
           << " channels (tileC x clusterC); its channel softmax needs all "
           << g.cout << " in one block or cluster";
  if (cfg.getClusterC() > 1 && launch.numCTiles != cfg.getClusterC())
    return kernel.emitOpError("tile config has clusterC = ")
           << cfg.getClusterC() << " but " << launch.numCTiles
           << " channel tiles; a cluster must hold exactly the channel tiles "
              "of a channel softmax";
  MLIRContext *ctx = kernel.getContext();
  SmallVector<Type> argTypes;
  auto toMemRef = [](Type t) {
    auto tt = cast<RankedTensorType>(t);
    return MemRefType::get(tt.getShape(), tt.getElementType());
  };
  for (Value in : kernel.getInputs())
    argTypes.push_back(toMemRef(in.getType()));
  if (auto pack = WeightPackPlan::get(analysis, *kernel.getConfig()))
    argTypes.push_back(
        MemRefType::get({pack->totalElems}, Float32Type::get(ctx)));
  if (auto ipack = InputPackPlan::get(analysis, *kernel.getConfig()))
    argTypes.push_back(
        MemRefType::get({ipack->totalElems}, Float32Type::get(ctx)));
  argTypes.push_back(toMemRef(kernel.getResult().getType()));

  ImplicitLocOpBuilder b(kernel.getLoc(), ctx);
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, kernel.getKernelName(),
                                     FunctionType::get(ctx, argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // Kernel buffers never overlap (the runtime rejects overlapping argument
  // buffers): loads of epilogue parameters may then be hoisted past the
  // output stores.
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    b.getUnitAttr());
  // Ask ptxas for at most 128 registers per thread (two 256-thread blocks,
  // or four 128-thread blocks, per SM): the staging address arithmetic is
  // otherwise hoisted into registers generously.
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(std::max<int64_t>(
                    1, std::min<int64_t>(8, 512 / launch.threads))));
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(launch.threads), 1, 1}));
  // Clusters are compiled in (`.reqnctapercluster`), so a plain
  // cuLaunchKernel launches them.
  if (cfg.getClusterC() > 1)
    func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                  b.getDenseI32ArrayAttr(
                      {static_cast<int32_t>(cfg.getClusterC()), 1, 1}));
  b.setInsertionPointToStart(&func.getBody().front());
  KernelEmitter(b, kernel, analysis, func, math).emit();
  rewriteSigmoidReciprocals(func, math);
  if (math == EpilogueMath::Fast)
    approximateExponentials(func);
  return func;
}

/// The next digit (`rest` mod `size`) of a mixed-radix index; `rest`
/// keeps the quotient.
static Value takeDigit(ImplicitLocOpBuilder &b, Value &rest, int64_t size) {
  Value radix = arith::ConstantIndexOp::create(b, size);
  Value digit = arith::RemUIOp::create(b, rest, radix);
  rest = arith::DivUIOp::create(b, rest, radix);
  return digit;
}

/// A re-layout kernel `<kernel><suffix>(source, packed)`: 256-thread
/// blocks, one work item per thread; returns the function and leaves `b`
/// inside `if (item < items)` with `item` the thread's global index.
static gpu::GPUFuncOp createRelayoutFunction(ImplicitLocOpBuilder &b,
                                             gpu::GPUModuleOp gpuModule,
                                             KernelOp kernel, StringRef suffix,
                                             Value source, int64_t packedElems,
                                             int64_t items, Value &item) {
  MLIRContext *ctx = kernel.getContext();
  auto sourceTy = cast<RankedTensorType>(source.getType());
  SmallVector<Type> argTypes{
      MemRefType::get(sourceTy.getShape(), sourceTy.getElementType()),
      MemRefType::get({packedElems}, Float32Type::get(ctx))};
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, (kernel.getKernelName() + suffix).str(),
                                     FunctionType::get(ctx, argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(kWeightPackThreads), 1, 1}));
  b.setInsertionPointToStart(&func.getBody().front());
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  item = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, gpu::BlockIdOp::create(b, gpu::Dimension::x),
                            c(kWeightPackThreads)),
      gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  auto inside = scf::IfOp::create(
      b, TypeRange{},
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, item, c(items)),
      false);
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b);
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  return func;
}

FailureOr<gpu::GPUFuncOp>
fusecc::buildWeightPackFunction(gpu::GPUModuleOp gpuModule, KernelOp kernel,
                                const KernelAnalysis &analysis) {
  TileConfigAttr cfg = *kernel.getConfig();
  std::optional<WeightPackPlan> pack = WeightPackPlan::get(analysis, cfg);
  if (!pack)
    return kernel.emitOpError("has no weight re-layout (not a wgmma kernel)");
  const ConvGeometry &g = analysis.geom;
  MLIRContext *ctx = kernel.getContext();
  KernelAnalysis a = analysis;
  auto f32 = Float32Type::get(ctx);
  ImplicitLocOpBuilder b(kernel.getLoc(), ctx);
  Value idx;
  gpu::GPUFuncOp func =
      createRelayoutFunction(b, gpuModule, kernel, "_wpack", a.conv.getWeight(),
                             pack->totalElems, pack->totalElems, idx);
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  auto split = [&](Value &rest, int64_t size) { return takeDigit(b, rest, size); };
  // Image element (t, kg, cl, j) of (ct, td, th, chunk): input channel
  // chunk x ciChunk + 4 kg + j, output channel ct x tileC + cl, tap t.
  Value rest = idx;
  Value j = split(rest, 4), cl = split(rest, cfg.getTileC());
  Value kg = split(rest, cfg.getCiChunk() / 4), t = split(rest, g.k[2]);
  Value chunk = split(rest, pack->numChunks), th = split(rest, pack->kh);
  Value td = split(rest, pack->kd), ct = rest;
  auto addI = [&](Value x, Value y) { return arith::AddIOp::create(b, x, y); };
  auto mulI = [&](Value x, int64_t y) {
    return arith::MulIOp::create(b, x, c(y));
  };
  Value ci = addI(addI(mulI(chunk, cfg.getCiChunk()), mulI(kg, 4)), j);
  Value co = addI(mulI(ct, cfg.getTileC()), cl);
  Value ok = arith::AndIOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, ci, c(g.cin)),
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, co, c(g.cout)));
  auto clamp = [&](Value v) {
    return arith::SelectOp::create(b, ok, v, c(0)).getResult();
  };
  SmallVector<Value> widx{clamp(ci), clamp(co)};
  if (g.rank == 5)
    widx.push_back(td);
  if (g.rank >= 4)
    widx.push_back(th);
  widx.push_back(t);
  Value v = memref::LoadOp::create(b, func.getArgument(0), widx);
  v = arith::SelectOp::create(
      b, ok, v, arith::ConstantOp::create(b, b.getF32FloatAttr(0.0)));
  // TF32, rounded to nearest (ties away) once here instead of per block.
  Value tf32 = NVVM::ConvertFloatToTF32Op::create(
      b, b.getI32Type(), v,
      NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RNA));
  memref::StoreOp::create(b, arith::BitcastOp::create(b, f32, tf32),
                          func.getArgument(1), ValueRange{idx});
  return func;
}

FailureOr<gpu::GPUFuncOp>
fusecc::buildInputPackFunction(gpu::GPUModuleOp gpuModule, KernelOp kernel,
                               const KernelAnalysis &analysis) {
  TileConfigAttr cfg = *kernel.getConfig();
  std::optional<InputPackPlan> ipack = InputPackPlan::get(analysis, cfg);
  if (!ipack)
    return kernel.emitOpError("has no input re-layout");
  KernelAnalysis a = analysis;
  const ConvGeometry &g = a.geom;
  MLIRContext *ctx = kernel.getContext();
  auto f32 = Float32Type::get(ctx);
  ImplicitLocOpBuilder b(kernel.getLoc(), ctx);
  // One thread per 16-byte unit (4 channels of one column).
  Value idx;
  gpu::GPUFuncOp func = createRelayoutFunction(
      b, gpuModule, kernel, "_ipack", a.conv.getInput(), ipack->totalElems,
      ipack->totalElems / 4, idx);
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  auto split = [&](Value &rest, int64_t size) { return takeDigit(b, rest, size); };
  Value rest = idx;
  Value wcol = split(rest, ipack->width), kg = split(rest, ipack->groups);
  Value chunk = split(rest, ipack->numChunks), h = split(rest, g.in[1]);
  Value d = split(rest, g.in[0]), n = rest;
  Value w = arith::SubIOp::create(b, wcol, c(ipack->padL));
  Value wOk =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, w, c(g.in[2]));
  SmallVector<Value> vals;
  for (int64_t j = 0; j < 4; ++j) {
    Value ch = arith::AddIOp::create(
        b,
        arith::AddIOp::create(
            b, arith::MulIOp::create(b, chunk, c(cfg.getCiChunk())),
            arith::MulIOp::create(b, kg, c(4))),
        c(j));
    Value ok = arith::AndIOp::create(
        b, wOk,
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, ch, c(g.cin)));
    auto clamp = [&](Value v) {
      return arith::SelectOp::create(b, ok, v, c(0)).getResult();
    };
    SmallVector<Value> iidx{n, clamp(ch)};
    if (g.rank == 5)
      iidx.push_back(d);
    if (g.rank >= 4)
      iidx.push_back(h);
    iidx.push_back(clamp(w));
    Value v = memref::LoadOp::create(b, func.getArgument(0), iidx);
    v = arith::SelectOp::create(
        b, ok, v, arith::ConstantOp::create(b, b.getF32FloatAttr(0.0)));
    Value tf32 = NVVM::ConvertFloatToTF32Op::create(
        b, b.getI32Type(), v,
        NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RNA));
    vals.push_back(arith::BitcastOp::create(b, f32, tf32));
  }
  auto v4Ty = VectorType::get({4}, f32);
  vector::StoreOp::create(b, vector::FromElementsOp::create(b, v4Ty, vals),
                          func.getArgument(1),
                          ValueRange{arith::MulIOp::create(b, idx, c(4))},
                          /*nontemporal=*/false, llvm::MaybeAlign(16));
  return func;
}
