//===- MainLoopWgmma.cpp - the Hopper warpgroup MMA main loop -------------===//
//
// A warpgroup (128 threads) owns 64 channels and some of the block's rows;
// per round it issues `wgmma.mma_async m64nNk8` (tf32, both operands in
// shared memory through matrix descriptors, K-major without swizzle) for
// every valid (W tap, W phase, row), straight-line. Round q + 1 is staged
// into the other of two buffers while the tensor cores read round q.
// With `wgmmaPhaseSplit` the W phases are spread over warpgroups: each
// issues only its phases' taps (a runtime first phase), N = more positions.
// Half-operand kernels (bf16, f16: both operands re-laid out as packed
// half words) issue `m64nNk16` per pair of planes.
// Split-operand kernels (precision tf32x3) stage the TF32 hi and lo parts
// of both operands and issue three wgmma per step (3xTF32) into fresh
// accumulators per round, which are added to the running sums in f32.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// The accumulator struct of W phase `p`: wgmmaAccN(p) / 2 f32 per thread.
static Type wgmmaAccType(EmitContext &cx, int64_t p) {
  return LLVM::LLVMStructType::getLiteral(
      cx.b.getContext(),
      SmallVector<Type>(cx.wgmmaAccN(p) / 2, cx.b.getF32Type()));
}

/// Matrix descriptor of an operand at element `wordOffset` of shared
/// memory (a multiple of 4): no swizzle, K-direction core matrices
/// `lboBytes` apart, 8-row groups `sboBytes` apart.
static Value wgmmaDescriptor(EmitContext &cx, Value wordOffset,
                             int64_t lboBytes, int64_t sboBytes) {
  EmitBuilder &b = cx.b;
  // Bits 0-13: start address >> 4; 16-29: LBO >> 4; 32-45: SBO >> 4; base
  // offset and swizzle mode (no swizzle) zero. Addresses stay below 2^18.
  Value enc = b.add(cx.smemEnc, b.divu(wordOffset, 4));
  Value enc64 = arith::IndexCastUIOp::create(b, b.getI64Type(), enc);
  uint64_t bits = (static_cast<uint64_t>(lboBytes >> 4) << 16) |
                  (static_cast<uint64_t>(sboBytes >> 4) << 32);
  return arith::OrIOp::create(
      b, enc64,
      arith::ConstantOp::create(
          b, b.getI64IntegerAttr(static_cast<int64_t>(bits))));
}

/// Shared-memory word offset of the staged input that a wgmma's B operand
/// reads for this warpgroup's own row `i`: the staged rows from `hRow` on,
/// the staged column `col0`, and the planes of k-step `ks` (two 4-channel
/// planes a step) of the staging buffer at `bBase`.
static Value stagedInputAddress(EmitContext &cx, Value bBase, int64_t i,
                                int64_t hRow, Value col0, int64_t ks) {
  EmitBuilder &b = cx.b;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  Value row = b.add(cx.wgRowSplit, i * cx.cfg.getWgmmaRowSplit());
  return b.add(b.add(bBase, b.add(b.mul(b.add(row, hRow), smemPlan.xsRowStride),
                                  b.mul(col0, 4))),
               2 * ks * smemPlan.xsPlaneStride);
}

/// Issues one `wgmma.mma_async` m64nNk`kStep` (N = wgmmaAccN(`phase`), A and
/// B of `opType` from the descriptors, f32 accumulation) into accumulator
/// `acc[index]`, replacing it by the result. With `started` (split
/// operands), the round's first wgmma into an accumulator ignores its input
/// (scale-d = 0: the round starts from zero) and marks it started.
static void issueWgmma(EmitContext &cx, MutableArrayRef<Value> acc,
                       int64_t index, int64_t phase, Value descA, Value descB,
                       NVVM::WGMMATypes opType, int64_t kStep,
                       SmallVectorImpl<bool> *started) {
  EmitBuilder &b = cx.b;
  NVVM::WGMMAScaleOut scaleD = NVVM::WGMMAScaleOut::one;
  if (started && !(*started)[index]) {
    scaleD = NVVM::WGMMAScaleOut::zero;
    (*started)[index] = true;
  }
  acc[index] = NVVM::WgmmaMmaAsyncOp::create(
      b, wgmmaAccType(cx, phase), acc[index], descA, descB,
      NVVM::MMAShapeAttr::get(b.getContext(), 64, cx.wgmmaAccN(phase), kStep),
      opType, opType, NVVM::WGMMATypes::f32, scaleD, NVVM::WGMMAScaleIn::one,
      NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row, NVVM::MMALayout::col,
      NVVM::MMAIntOverflowAttr());
}

/// Issues the wgmma.mma_async of one staged round for this warpgroup.
/// With `started` (split operands), the round's first wgmma into each
/// accumulator ignores its input (scale-d = 0: the round starts from zero)
/// and `started` says which accumulators the round wrote.
static SmallVector<Value> issueRoundWgmma(EmitContext &cx,
                                          ArrayRef<Value> accIn, Value buf,
                                          Value hValid,
                                          SmallVectorImpl<bool> *started) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  const int64_t ownRows = cx.wgmmaAccRows(), hT = smemPlan.hTapsPerRound;

  // Byte strides: K-direction core matrices are whole planes apart, 8-row
  // groups 8 x 16 bytes apart (rows of 16 bytes: 4 channels of one column or
  // one output channel).
  const int64_t aLbo = 4 * smemPlan.wsPlaneStride;
  const int64_t bLbo = 4 * smemPlan.xsPlaneStride, sbo = 128;
  Value aChan =
      b.add(b.add(buf, smemPlan.wsOffset), b.mul(cx.wgChannelGroup, 64 * 4));
  Value bBase = b.add(buf, smemPlan.xsOffset);
  SmallVector<Value> acc(accIn);
  // Straight-line code: the W phase of every accumulator and with it its
  // valid W taps are compile-time constants (tiles start at a multiple of
  // the W stride), the h taps of a merged round are all issued (taps past
  // `hValid` have zero weights), and only descriptors depend on the
  // warpgroup. No branch or loop around a wgmma, so ptxas keeps them
  // asynchronous. Consecutive instructions go to different accumulators.
  (void)hValid;
  // Split-operand kernels (tf32x3) read the lo parts from their own areas,
  // a constant offset from the hi parts; each (tap, phase, row) takes three
  // wgmma, the small products first: a_lo b_hi, a_hi b_lo, a_hi b_hi, each
  // term issued for all accumulators before the next.
  const bool splitTF32 = cfg.usesSplitTF32();
  const int64_t aLoShift = smemPlan.wsLoOffset - smemPlan.wsOffset;
  const int64_t bLoShift = smemPlan.xsLoOffset - smemPlan.xsOffset;
  struct Term {
    bool aLo, bLo;
  };
  const SmallVector<Term, 3> terms =
      splitTF32
          ? SmallVector<Term, 3>{{true, false}, {false, true}, {false, false}}
          : SmallVector<Term, 3>{{false, false}};
  // Half operands (bf16, f16): one m64nNk16 per pair of 4-channel planes,
  // whose words pack two channels each (Relayout.cpp, packHalfWord); the
  // descriptors are those of a TF32 k8 step.
  const bool half = cfg.getTypes().usesHalfOperands();
  const NVVM::WGMMATypes opType =
      !half ? NVVM::WGMMATypes::tf32
      : isa<Float16Type>(cfg.getTypes().getOperand()) ? NVVM::WGMMATypes::f16
                                                      : NVVM::WGMMATypes::bf16;
  const int64_t kStep = half ? 16 : 8;
  if (cfg.splitsPhases()) {
    // Phases split over warpgroups: this warpgroup's phase p = wgPhase0 +
    // lp (a runtime value) has the W taps t = (p + pad) mod sw + sw j, j <
    // kw / sw (every phase the same count: kw a multiple of sw, dilation
    // 1), whose position 0 reads staged column ow0 / sw + (p + pad) / sw -
    // j - iwMin. Still straight-line: only descriptors depend on p.
    assert(dw == 1 && kw % sw == 0 && !splitTF32 &&
           "phase splits need equal W taps per phase and one term");
    const int64_t own = cx.wgmmaOwnPhases(), wTaps = kw / sw;
    const bool posM = wgmmaPositionsOnM(cfg);
    SmallVector<Value> firstTap, firstCol;
    for (int64_t lp = 0; lp < own; ++lp) {
      Value shifted = b.add(b.add(cx.wgPhase0, lp), pw);
      firstTap.push_back(emitPadPhase(b, shifted, pw, sw));
      firstCol.push_back(
          b.sub(b.add(b.divu(cx.ow0, sw), emitPadQuotient(b, shifted, pw, sw)),
                cx.iwMin));
    }
    for (int64_t ks = 0; ks < cfg.getCiChunk() / kStep; ++ks)
      for (int64_t ha = 0; ha < hT; ++ha) {
        const int64_t hRow = (hT - 1 - ha) * smemPlan.hInputStep;
        for (int64_t j = 0; j < wTaps; ++j)
          for (int64_t lp = 0; lp < own; ++lp) {
            Value t = b.add(firstTap[lp], sw * j);
            Value aAddr = b.add(
                b.add(aChan, b.mul(b.add(t, ha * kw), smemPlan.wsTapStride)),
                2 * ks * smemPlan.wsPlaneStride);
            Value descA = wgmmaDescriptor(cx, aAddr, aLbo, sbo);
            Value col0 = b.sub(firstCol[lp], b.c(j));
            for (int64_t i = 0; i < ownRows; ++i) {
              Value bAddr = stagedInputAddress(cx, bBase, i, hRow, col0, ks);
              Value descB = wgmmaDescriptor(cx, bAddr, bLbo, sbo);
              // Positions on M: the staged input (64 positions x K) is the
              // A operand, the weights (channels x K) the B operand; both
              // are K-major core matrices, so only the roles swap.
              if (posM)
                std::swap(descA, descB);
              issueWgmma(cx, acc, lp * ownRows + i, lp, descA, descB, opType,
                         kStep, started);
              if (posM)
                std::swap(descA, descB);
            }
          }
      }
    return acc;
  }
  for (int64_t ks = 0; ks < cfg.getCiChunk() / kStep; ++ks)
    for (int64_t ha = 0; ha < hT; ++ha) {
      // Tap `ha` reads staged rows from (hT - 1 - ha) x hInputStep on.
      const int64_t hRow = (hT - 1 - ha) * smemPlan.hInputStep;
      for (int64_t t = 0; t < kw; ++t) {
        Value aAddr = b.add(aChan, (ha * kw + t) * smemPlan.wsTapStride +
                                       2 * ks * smemPlan.wsPlaneStride);
        for (Term term : terms) {
          Value descA = wgmmaDescriptor(
              cx, term.aLo ? b.add(aAddr, aLoShift) : aAddr, aLbo, sbo);
          for (int64_t p = 0; p < sw; ++p) {
            // Positions ow0 + p + sw * j: tap t is valid iff t * dw = p +
            // pw (mod sw); position 0 then reads staged column
            // (ow0 + p + pw - t * dw) / sw - iwMin.
            if (((p + pw - t * dw) % sw + sw) % sw != 0)
              continue;
            Value col0 = b.sub(
                b.add(b.divu(cx.ow0, sw), (p + pw - t * dw) / sw), cx.iwMin);
            for (int64_t i = 0; i < ownRows; ++i) {
              Value bAddr = stagedInputAddress(cx, bBase, i, hRow, col0, ks);
              Value descB = wgmmaDescriptor(
                  cx, term.bLo ? b.add(bAddr, bLoShift) : bAddr, bLbo, sbo);
              issueWgmma(cx, acc, p * ownRows + i, p, descA, descB, opType,
                         kStep, started);
            }
          }
        }
      }
    }
  return acc;
}

/// This thread's place in a wgmma m64nNk8 fragment: warp w of the
/// warpgroup holds rows 16 w + lane / 4 (+ 8), element 4 j + q of column
/// 8 j + 2 (lane % 4) + q % 2.
struct FragmentLane {
  Value warp, grp, tig;
};
static FragmentLane fragmentLane(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  Value warp = b.remu(b.divu(cx.tid, 32), 4), lane = b.remu(cx.tid, 32);
  return {warp, b.divu(lane, 4), b.remu(lane, 4)};
}
/// Tile channel of this thread's fragment rows of half `half` (+ 0 or 8).
static Value fragmentChannel(EmitContext &cx, const FragmentLane &fl,
                             int64_t half) {
  EmitBuilder &b = cx.b;
  return b.add(b.add(b.mul(cx.wgChannelGroup, 64), b.mul(fl.warp, 16)),
               b.add(fl.grp, half * 8));
}
/// Whether tile channel `cl` is a real one (null: all are). Rows past the
/// weight planes' channels read other planes: they hold a padding channel,
/// whose value is zero.
static Value realChannel(EmitContext &cx, Value cl) {
  if (cx.smemPlan.wsChannels >= cx.cfg.getTileC())
    return Value();
  return cx.b.ult(cl, cx.smemPlan.wsChannels);
}

/// Element `k` of accumulator fragment `frag` + the conv bias `bias`, zero
/// on a padding channel (`real` false; null: a real channel).
static Value biasedAccumulator(EmitContext &cx, Value frag, int64_t k,
                               Value bias, Value real) {
  EmitBuilder &b = cx.b;
  Value v = LLVM::ExtractValueOp::create(b, frag, k);
  Value out = arith::AddFOp::create(b, v, bias);
  return real ? arith::SelectOp::create(b, real, out, b.f(0.0)) : out;
}

/// Writes the accumulators + conv bias to the tile as vectors where the
/// plan allows (`SharedMemoryPlan::accumulatorRuns`): a fragment's column
/// pair j with its W phases is 2 x stride consecutive positions of one
/// line, (2 (lane % 4) + 8 j) x stride on, one `st.shared.v2` (W stride
/// 1) or `.v4` (2) instead of 2 or 4 scalar stores, conflict-free at the
/// plan's line stride. Returns false (nothing emitted) where the plan has
/// no runs.
static bool storeAccumulatorRuns(EmitContext &cx, ArrayRef<Value> acc) {
  EmitBuilder &b = cx.b;
  const SharedMemoryPlan &plan = cx.smemPlan;
  const int64_t sw = cx.g.stride[2], run = plan.accumulatorRuns;
  if (run == 0)
    return false;
  assert(run == 2 * sw && !plan.rowsN && plan.tileSkew == 0 &&
         plan.tileStride % run == 0 && plan.tilesOffset % run == 0 &&
         cx.wgmmaAccN(sw - 1) == cx.wgmmaAccN(0) &&
         "accumulator runs need aligned tile lines and equal W phases");
  const int64_t split = cx.cfg.getWgmmaRowSplit(), ownRows = cx.wgmmaAccRows();
  FragmentLane fl = fragmentLane(cx);
  auto vecTy = VectorType::get({run}, b.getF32Type());
  for (int64_t half = 0; half < 2; ++half) {
    Value cl = fragmentChannel(cx, fl, half);
    Value bias = emitConvBias(cx, cl);
    Value real = realChannel(cx, cl);
    for (int64_t i = 0; i < ownRows; ++i) {
      Value row = b.add(cx.wgRowSplit, i * split);
      for (int64_t j = 0; j < cx.wgmmaAccN(0) / 8; ++j) {
        // Position (2 (lane % 4) + col + 8 j) x sw + p is element
        // col x sw + p of the run.
        SmallVector<Value> values(run);
        for (int64_t p = 0; p < sw; ++p)
          for (int64_t col = 0; col < 2; ++col)
            values[col * sw + p] = biasedAccumulator(
                cx, acc[p * ownRows + i], 4 * j + 2 * half + col, bias, real);
        Value wl = b.mul(b.add(b.mul(fl.tig, 2), 8 * j), sw);
        if (cx.halfTileType) {
          // A half tile: the run's halves, 2 x run bytes.
          for (Value &h : values)
            h = arith::TruncFOp::create(b, cx.halfTileType, h);
          Value v = vector::FromElementsOp::create(
              b, VectorType::get({run}, cx.halfTileType), values);
          vector::StoreOp::create(b, v, cx.smemHalf,
                                  ValueRange{cx.tileAddr(0, row, cl, wl)},
                                  /*nontemporal=*/false,
                                  llvm::MaybeAlign(2 * run));
          continue;
        }
        Value v = vector::FromElementsOp::create(b, vecTy, values);
        vector::StoreOp::create(b, v, cx.smem,
                                ValueRange{cx.tileAddr(0, row, cl, wl)},
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(4 * run));
      }
    }
  }
  return true;
}

/// Writes the accumulators of a block with positions on M
/// (`wgmmaPositionsOnM`) + conv bias to the tile: element 4 j + 2 h + q of
/// local phase lp is channel 8 j + 2 (lane % 4) + q at position 16 warp +
/// lane / 4 + 8 h of the phase, tile position that x stride + phase; the
/// positions past the phase's N (a shorter last tile) are not stored.
static void storeAccumulatorsPositionsM(EmitContext &cx, ArrayRef<Value> acc) {
  EmitBuilder &b = cx.b;
  const int64_t sw = cx.g.stride[2], channels = cx.wgmmaAccN(0);
  const int64_t stored = cx.phaseN(0);
  FragmentLane fl = fragmentLane(cx);
  SmallVector<Value> cls, biases;
  for (int64_t j = 0; j < channels / 8; ++j)
    for (int64_t q = 0; q < 2; ++q) {
      cls.push_back(b.add(b.mul(fl.tig, 2), 8 * j + q));
      biases.push_back(emitConvBias(cx, cls.back()));
    }
  for (int64_t h = 0; h < 2; ++h) {
    Value m = b.add(b.add(b.mul(fl.warp, 16), fl.grp), 8 * h);
    OpBuilder::InsertionGuard guard(b);
    if (stored < 64) {
      auto inside = scf::IfOp::create(b, TypeRange{}, b.ult(m, stored), false);
      b.setInsertionPointToStart(&inside.getThenRegion().front());
    }
    for (int64_t lp = 0; lp < cx.wgmmaOwnPhases(); ++lp) {
      Value wl = b.add(b.mul(m, sw), b.add(cx.wgPhase0, lp));
      for (int64_t k = 0; k < 2 * (channels / 8); ++k) {
        const int64_t j = k / 2, q = k % 2;
        Value out = biasedAccumulator(cx, acc[lp], 4 * j + 2 * h + q, biases[k],
                                      Value());
        cx.tileStore(out, cx.tileAddr(0, b.c(0), cls[k], wl));
      }
    }
  }
}

/// Writes the accumulators + conv bias to the convolution's tile.
static void storeAccumulatorsWgmma(EmitContext &cx, ArrayRef<Value> acc) {
  if (wgmmaPositionsOnM(cx.cfg)) {
    storeAccumulatorsPositionsM(cx, acc);
    return;
  }
  if (storeAccumulatorRuns(cx, acc))
    return;
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const int64_t sw = g.stride[2], split = cfg.getWgmmaRowSplit();
  const int64_t ownRows = cx.wgmmaAccRows(), span = cx.smemPlan.inputSpan;
  FragmentLane fl = fragmentLane(cx);
  for (int64_t half = 0; half < 2; ++half) {
    Value cl = fragmentChannel(cx, fl, half);
    Value bias = emitConvBias(cx, cl);
    Value real = realChannel(cx, cl);
    for (int64_t p = 0; p < cx.wgmmaOwnPhases(); ++p)
      for (int64_t i = 0; i < ownRows; ++i) {
        Value row = b.add(cx.wgRowSplit, i * split);
        // This warpgroup's p-th phase where the phases are split.
        Value phase = cx.wgPhase0 ? b.add(cx.wgPhase0, p) : b.c(p);
        for (int64_t j = 0; j < cx.wgmmaAccN(p) / 8; ++j)
          for (int64_t col = 0; col < 2; ++col) {
            // Rows as one N: positions 8 j.. are row 8 j / span's (span and
            // the tile a multiple of 8), or between rows (not stored).
            Value rowJ = row;
            int64_t first = 8 * j;
            if (cx.smemPlan.rowsN) {
              if (first % span >= cx.phaseN(p))
                continue;
              rowJ = b.add(row, first / span);
              first %= span;
            }
            Value pos = b.add(b.mul(fl.tig, 2), first + col);
            Value wl = b.add(b.mul(pos, sw), phase);
            Value out = biasedAccumulator(cx, acc[p * ownRows + i],
                                          4 * j + 2 * half + col, bias, real);
            cx.tileStore(out, cx.tileAddr(0, rowJ, cl, wl));
          }
      }
  }
}

/// The epilogue on the accumulators (`registerEpilogue`): a fragment
/// column pair j with its W phases is a run of 2 x stride consecutive
/// positions of one line, (2 (lane % 4) + 8 j) x stride on (rows as one N:
/// j's 8 columns are row 8 j / span's, from 8 j mod span on).
static void storeResultsWgmma(EmitContext &cx, ArrayRef<Value> acc) {
  assert(!cx.cfg.splitsPhases() && "split phases store through the tile");
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const int64_t sw = g.stride[2], split = cfg.getWgmmaRowSplit();
  const int64_t ownRows = cx.wgmmaAccRows(), span = cx.smemPlan.inputSpan;
  int64_t maxJ = 0;
  for (int64_t p = 0; p < sw; ++p)
    maxJ = std::max(maxJ, cx.wgmmaAccN(p) / 8);
  FragmentLane fl = fragmentLane(cx);
  SmallVector<EpilogueRun> runs;
  Value allInside;
  int64_t lastFirst = 0;
  for (int64_t half = 0; half < 2; ++half) {
    Value cl = fragmentChannel(cx, fl, half);
    Value bias = cx.a.conv.getBias() ? emitConvBias(cx, cl) : Value();
    Value real = realChannel(cx, cl);
    for (int64_t i = 0; i < ownRows; ++i) {
      Value row = b.add(cx.wgRowSplit, i * split);
      DenseMap<int64_t, Element> lines; // by row offset 8 j / span
      for (int64_t j = 0; j < maxJ; ++j) {
        int64_t first = 8 * j, rowOffset = 0;
        if (cx.smemPlan.rowsN) {
          if (first % span >= cx.phaseN(0))
            continue;
          rowOffset = first / span;
          first %= span;
        }
        if (!lines.count(rowOffset)) {
          Element line;
          line.r = b.add(row, rowOffset);
          line.cl = cl;
          line.ch = b.add(cx.co0, cl);
          line.oh = cx.rowHeight(line.r);
          Value inside = cx.lineInside(line);
          allInside = allInside ? b.andI(allInside, inside) : inside;
          lines[rowOffset] = line;
        }
        EpilogueRun run;
        run.line = lines[rowOffset];
        run.wl0 = b.mul(b.add(b.mul(fl.tig, 2), first), sw);
        run.values.assign(2 * sw, Value());
        for (int64_t p = 0; p < sw; ++p) {
          if (j >= cx.wgmmaAccN(p) / 8 ||
              (cx.smemPlan.rowsN && first >= cx.phaseN(p)))
            continue;
          for (int64_t col = 0; col < 2; ++col) {
            Value v = LLVM::ExtractValueOp::create(b, acc[p * ownRows + i],
                                                   4 * j + 2 * half + col);
            if (bias)
              v = arith::AddFOp::create(b, v, bias);
            if (real)
              v = arith::SelectOp::create(b, real, v, b.f(0.0));
            run.values[sw * col + p] = v;
          }
        }
        lastFirst = std::max(lastFirst, first);
        runs.push_back(std::move(run));
      }
    }
  }
  // The thread's last position in any line: its run at `lastFirst`'s end.
  Value last = b.add(b.mul(b.add(b.mul(fl.tig, 2), lastFirst), sw), 2 * sw - 1);
  allInside = b.andI(allInside, b.andI(b.ult(b.add(cx.ow0, last), g.out[2]),
                                       b.ult(last, cfg.getTileW())));
  if (cx.registerSoftmax)
    emitRegisterSoftmax(cx, runs, b.add(b.mul(cx.wgChannelGroup, 4), fl.warp),
                        fl.grp);
  if (cx.bulkStride)
    emitBulkStoreEpilogue(cx, runs);
  else
    emitEpilogueRuns(cx, runs, allInside);
}

/// Calls `body(e)` for the elements e in [0, total) that this thread takes:
/// e = tid + i * threads, unrolled at emit time; only the last, partial
/// sweep is guarded by `e < total`.
static void forEachThreadElement(EmitContext &cx, int64_t total,
                                 llvm::function_ref<void(Value)> body) {
  EmitBuilder &b = cx.b;
  for (int64_t it = 0; it * cx.launch.threads < total; ++it) {
    Value e = b.add(cx.tid, it * cx.launch.threads);
    if ((it + 1) * cx.launch.threads <= total) {
      body(e);
      continue;
    }
    auto ifIn = scf::IfOp::create(b, TypeRange{}, b.ult(e, total), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    body(e);
  }
}

void emit::emitWgmmaMainLoop(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  // This thread's warpgroup: its 64-channel group and its row split.
  Value wg = b.divu(cx.tid, 128);
  int64_t channelGroups = cfg.getTileC() / 64;
  cx.wgChannelGroup = b.remu(wg, channelGroups);
  cx.wgRowSplit = b.divu(wg, channelGroups);
  // Rows as one N over a row split (blocks of samples): warpgroup s owns
  // the consecutive rows s x rows / split.. (`wgmmaAccRows` is 1, so its
  // only row index is its first row).
  if (smemPlan.rowsN && cfg.getWgmmaRowSplit() > 1)
    cx.wgRowSplit =
        b.mul(cx.wgRowSplit, cfg.getRows() / cfg.getWgmmaRowSplit());
  // Split phases: warpgroups channel group fastest, then row split, then
  // phase group.
  if (cfg.splitsPhases()) {
    Value rest = cx.wgRowSplit;
    cx.wgRowSplit = b.remu(rest, cfg.getWgmmaRowSplit());
    cx.wgPhase0 =
        b.mul(b.divu(rest, cfg.getWgmmaRowSplit()), cx.wgmmaOwnPhases());
  }

  Value rounds = emitRoundCount(cx);
  if (cfg.splitsReduction())
    rounds = emitSplitRounds(cx, rounds);
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, cx.smem);
  cx.smemEnc = b.divu(arith::AndIOp::create(b, ptr, b.c(0x3FFFF)), 16);

  // Weight planes of fewer than 64 channels: a warpgroup's descriptor reads
  // 64 rows, past the last plane into a pad, zeroed once (the rows it feeds
  // are never stored, but must be finite reads of written memory).
  if (smemPlan.wsPadElems > 0) {
    const int64_t parts = cfg.usesSplitTF32() ? 2 : 1;
    const int64_t total = smemPlan.numStages * parts * smemPlan.wsPadElems;
    forEachThreadElement(cx, total, [&](Value e) {
      Value area = b.add(
          b.mul(b.divu(e, parts * smemPlan.wsPadElems), smemPlan.stageElems),
          smemPlan.wsOffset);
      Value part = b.remu(b.divu(e, smemPlan.wsPadElems), parts);
      area = b.add(area, b.mul(part, smemPlan.wsLoOffset - smemPlan.wsOffset));
      cx.sstore(b.f(0.0), b.add(b.add(area, smemPlan.wsPadOffset),
                                b.remu(e, smemPlan.wsPadElems)));
    });
  }
  // Blocks of samples: the columns after each input plane's staged rows,
  // which the N of the last rows reads past the row end, zeroed once.
  if (smemPlan.xsPadCols > 0) {
    const int64_t staged = smemPlan.stagedRows * smemPlan.xsRowStride;
    const int64_t padWords = smemPlan.xsPlaneStride - staged;
    const int64_t planes = wgmmaPlanes(cfg);
    const int64_t total = smemPlan.numStages * planes * padWords;
    forEachThreadElement(cx, total, [&](Value e) {
      Value plane = b.divu(e, padWords);
      Value stage = b.divu(plane, planes);
      Value addr =
          b.add(b.add(b.mul(stage, smemPlan.stageElems), smemPlan.xsOffset),
                b.add(b.mul(b.remu(plane, planes), smemPlan.xsPlaneStride),
                      b.add(b.remu(e, padWords), staged)));
      cx.sstore(b.f(0.0), addr);
    });
  }
  // Prologue: stage round 0 into buffer 0.
  {
    Value any = b.cmp(arith::CmpIPredicate::sgt, rounds, b.c(0));
    auto ifAny = scf::IfOp::create(b, TypeRange{}, any, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifAny.getThenRegion().front());
    Value group = emitCopyRoundWeights(cx, b.c(0), b.c(0), any);
    emitStageRoundWgmma(cx, b.c(0), b.c(0));
    emitCompleteStaging(cx, group);
  }
  // Accumulators: one struct per (W phase, owned row), zero.
  const int64_t phases = cx.wgmmaOwnPhases(), ownRows = cx.wgmmaAccRows();
  const bool splitTF32 = cfg.usesSplitTF32();
  // A main loop of at most one round (static bound: one d tap, one h round,
  // one channel chunk; kb1_81, W and H stride 5) issues its round into
  // fresh accumulators, each one's first wgmma ignoring its input
  // (scale-d = 0), as split operands do: with the zero accumulators as
  // the wgmma's inputs, LLVM folds the one-trip loop and copies the zeros
  // into each accumulator right before its wgmma, after the fence, and
  // ptxas then waits for every earlier wgmma before the next one
  // ("warpgroup.wait is injected").
  const int64_t maxRounds =
      cx.dTaps.maxCount *
      (smemPlan.hTapsPerRound > 1 ? 1 : cx.hTaps.maxCount) *
      llvm::divideCeil(g.cinPerGroup(), cfg.getCiChunk());
  const bool freshRound = splitTF32 || maxRounds <= 1;
  SmallVector<Value> init;
  for (int64_t p = 0; p < phases; ++p) {
    Value zero = LLVM::UndefOp::create(b, wgmmaAccType(cx, p));
    for (int64_t e = 0; e < cx.wgmmaAccN(p) / 2; ++e)
      zero = LLVM::InsertValueOp::create(b, zero, b.f(0.0), e);
    init.append(ownRows, zero);
  }
  const int64_t numAcc = init.size();
  // Register-staged inputs whose items fit one batch are loaded a round
  // ahead of their stores: round q + 2's loads are issued in round q and
  // carried around the loop, so that their latency spans the barrier and
  // the next round's wgmma issue (docs/perf.md section 85).
  const int64_t inputIters =
      llvm::divideCeil(inputItems(cx).total, cx.launch.threads);
  const bool pipelined = !cx.ipack && inputIters <= inputBatch(cx);
  if (pipelined) {
    RawInputs first = emitLoadRoundInputsIf(
        cx, b.cmp(arith::CmpIPredicate::sgt, rounds, b.c(1)), b.c(1),
        inputIters);
    llvm::append_range(init, first.values);
    llvm::append_range(init, first.valid);
  }
  auto loop = scf::ForOp::create(b, b.c(0), rounds, b.c(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value q = loop.getInductionVar();
    Value buf = b.mul(b.remu(q, 2), smemPlan.stageElems);
    // Round q is staged and fenced by every thread; every warpgroup has
    // retired its wgmma of round q - 1 (which read the other buffer).
    gpu::BarrierOp::create(b);
    NVVM::WgmmaFenceAlignedOp::create(b);
    auto iterArgs = loop.getRegionIterArgs();
    SmallVector<Value> running(iterArgs.take_front(numAcc));
    // Split operands: the round's products go to fresh accumulators (the
    // tensor cores truncate as they accumulate; over a whole K that bias
    // reached 1e-5 with mma.sync on the H100, docs/perf.md 95), added to
    // the running sums with IEEE f32 adds once the round is done.
    SmallVector<bool> started;
    SmallVector<Value> fresh;
    if (freshRound) {
      started.assign(numAcc, false);
      for (int64_t p = 0; p < phases; ++p)
        fresh.append(ownRows, LLVM::UndefOp::create(b, wgmmaAccType(cx, p)));
    }
    SmallVector<Value> acc = issueRoundWgmma(cx, freshRound ? fresh : running,
                                             buf, emitDecodeRound(cx, q).hValid,
                                             freshRound ? &started : nullptr);
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
    Value next = b.add(q, 1);
    Value nextBuf = b.mul(b.remu(next, 2), smemPlan.stageElems);
    Value hasNext = b.cmp(arith::CmpIPredicate::slt, next, rounds);
    Value group;
    if (cx.ipack) {
      // Past the last round the weight copies only zero-fill the idle
      // buffer: kept branch-free where the input comes by copies too
      // (kb1_77 tf32 3.7% slower with the branch, docs/perf.md section 84).
      group = emitCopyRoundWeights(cx, next, nextBuf, hasNext);
      auto more = scf::IfOp::create(b, TypeRange{}, hasNext, false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(&more.getThenRegion().front());
      emitStageRoundWgmma(cx, next, nextBuf);
    } else {
      // The inputs are staged under a branch anyway; the weights join them,
      // so that nothing is copied past the last round (an empty copy group
      // keeps every thread's group count equal).
      auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
      auto more = scf::IfOp::create(b, TypeRange{tokTy}, hasNext, true);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(&more.getThenRegion().front());
      Value staged = emitCopyRoundWeights(
          cx, next, nextBuf, arith::ConstantIntOp::create(b, 1, 1).getResult());
      if (pipelined)
        emitStoreRoundInputs(cx, carried, nextBuf, 0, inputIters);
      else
        emitStageRoundWgmma(cx, next, nextBuf);
      scf::YieldOp::create(b, staged);
      b.setInsertionPointToStart(&more.getElseRegion().front());
      scf::YieldOp::create(
          b, ValueRange{nvgpu::DeviceAsyncCreateGroupOp::create(b, tokTy,
                                                                ValueRange{})});
      group = more.getResult(0);
    }
    RawInputs ahead;
    if (pipelined)
      ahead = emitLoadRoundInputsIf(
          cx, b.cmp(arith::CmpIPredicate::slt, b.add(q, 2), rounds),
          b.add(q, 2), inputIters);
    NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
    if (splitTF32) {
      // running += the round's sums (accumulators the round did not write,
      // W phases without a valid tap, keep their value).
      for (int64_t k = 0; k < numAcc; ++k) {
        if (!started[k])
          continue;
        Value sum = running[k];
        for (int64_t e = 0; e < cx.wgmmaAccN(k / ownRows) / 2; ++e) {
          Value x = LLVM::ExtractValueOp::create(b, sum, e);
          Value y = LLVM::ExtractValueOp::create(b, acc[k], e);
          Value add = arith::AddFOp::create(b, x, y);
          sum = LLVM::InsertValueOp::create(b, sum, add, e);
        }
        acc[k] = sum;
      }
    }
    // Accumulators the round did not write (W phases without a valid tap)
    // keep their value; with a single round the fresh ones are the sums.
    if (freshRound)
      for (int64_t k = 0; k < numAcc; ++k)
        if (!started[k])
          acc[k] = running[k];
    llvm::append_range(acc, ahead.values);
    llvm::append_range(acc, ahead.valid);
    emitCompleteStaging(cx, group);
    scf::YieldOp::create(b, acc);
  }
  SmallVector<Value> results(loop.getResults().take_front(numAcc));
  // A reduction split over a cluster: block 0 adds the others' sums and
  // goes on alone (the rest is emitted into its branch).
  if (cfg.splitsReduction())
    results = emitClusterReduce(cx, results);
  if (cx.registerEpilogue || cx.bulkStride) {
    // The bulk-store tile aliases the staging buffers too.
    if (cx.bulkStride)
      gpu::BarrierOp::create(b);
    storeResultsWgmma(cx, results);
    return;
  }
  // The staging buffers alias the output tile.
  gpu::BarrierOp::create(b);
  storeAccumulatorsWgmma(cx, results);
}
