//===- IndexMath.cpp - block decomposition, valid taps, rounds ------------===//
//
// Where a block sits in the output (its tile origin from the block id), the
// valid taps of its stride phase along D and H (closed form: no multiply by
// a structural zero) and the flattened rounds of the main loops.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

Value EmitBuilder::loadF32(Value mem, ValueRange idx) {
  Value v = memref::LoadOp::create(*this, mem, idx);
  if (!v.getType().isF32())
    v = arith::ExtFOp::create(*this, getF32Type(), v);
  return v;
}

Value EmitBuilder::loadF32x4(Value mem, ValueRange idx) {
  Type elem = cast<MemRefType>(mem.getType()).getElementType();
  auto v4Ty = VectorType::get({4}, getF32Type());
  if (elem.isF32())
    return vector::LoadOp::create(*this, v4Ty, mem, idx,
                                  /*nontemporal=*/false, llvm::MaybeAlign(16));
  Value h = vector::LoadOp::create(*this, VectorType::get({4}, elem), mem, idx,
                                   /*nontemporal=*/false, llvm::MaybeAlign(8));
  SmallVector<Value, 4> lanes;
  for (int64_t i = 0; i < 4; ++i)
    lanes.push_back(arith::ExtFOp::create(
        *this, getF32Type(),
        vector::ExtractOp::create(*this, h, i).getResult()));
  return vector::FromElementsOp::create(*this, v4Ty, lanes);
}

Value EmitBuilder::guardedLoad(Value cond, Value mem, ValueRange idx) {
  auto ifOp = scf::IfOp::create(*this, TypeRange{getF32Type()}, cond,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(*this);
    setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(*this, ValueRange{loadF32(mem, idx)});
    setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(*this, ValueRange{f(0.0)});
  }
  return ifOp.getResult(0);
}

EmitContext::EmitContext(EmitBuilder &b, KernelOp kernel,
                         const KernelAnalysis &a, gpu::GPUFuncOp func,
                         EpilogueMath math)
    : b(b), kernel(kernel), a(a), g(this->a.geom), cfg(*kernel.getConfig()),
      smemPlan(SharedMemoryPlan::get(a, cfg)), launch(LaunchPlan::get(a, cfg)),
      func(func), math(math), elementType(b.getF32Type()),
      pack(WeightPackPlan::get(a, cfg)), ipack(InputPackPlan::get(a, cfg)) {}

int64_t EmitContext::phaseN(int64_t p) const {
  const int64_t sw = g.stride[2], width = tileLineWidth();
  int64_t positions = width > p ? llvm::divideCeil(width - p, sw) : 0;
  return std::clamp<int64_t>(llvm::alignTo(positions, 8), 8, cfg.getWgmmaN());
}

int64_t EmitContext::wgmmaAccN(int64_t p) const {
  // Positions on M: the N is the block's channels.
  if (wgmmaPositionsOnM(cfg))
    return smemPlan.wsChannels;
  // Split phases: local phase p is a runtime one; phase 0's N, the most.
  if (cfg.splitsPhases())
    return phaseN(0);
  return smemPlan.rowsN ? smemPlan.rowsN : phaseN(p);
}

int64_t EmitContext::wgmmaOwnPhases() const {
  return g.stride[2] / cfg.getWgmmaPhaseSplit();
}

int64_t EmitContext::wgmmaAccRows() const {
  return smemPlan.rowsN ? 1 : cfg.getRows() / cfg.getWgmmaRowSplit();
}

Value emit::emitFirstTap(EmitBuilder &b, Value r, int64_t k, int64_t stride,
                         int64_t dil) {
  int64_t step = tapStep(stride, dil);
  Value t0 = b.c(k);
  for (int64_t t = std::min(step, k) - 1; t >= 0; --t) {
    Value hit = b.cmp(arith::CmpIPredicate::eq, r, b.c((t * dil) % stride));
    t0 = arith::SelectOp::create(b, hit, b.c(t), t0);
  }
  return t0;
}

Value emit::emitPadPhase(EmitBuilder &b, Value xPlusPad, int64_t pad,
                         int64_t s) {
  if (pad < 0)
    xPlusPad = b.add(xPlusPad, llvm::divideCeil(-pad, s) * s);
  return b.remu(xPlusPad, s);
}

Value emit::emitPadQuotient(EmitBuilder &b, Value xPlusPad, int64_t pad,
                            int64_t s) {
  if (pad >= 0)
    return b.divu(xPlusPad, s);
  const int64_t lift = llvm::divideCeil(-pad, s);
  return b.sub(b.divu(b.add(xPlusPad, lift * s), s), b.c(lift));
}

void emit::emitBlockDecomposition(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const LaunchPlan &launch = cx.launch;
  cx.tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  cx.tx = b.remu(cx.tid, cfg.getThreadsW());
  cx.ty = b.divu(cx.tid, cfg.getThreadsW());
  Value bid = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  // A reduction split over clusters: clusterK consecutive blocks of one
  // tile, the rank fastest (no start barrier: the blocks meet at a cluster
  // barrier before their first remote store, ClusterReduce.cpp).
  if (cfg.splitsReduction()) {
    cx.clusterRank = b.remu(bid, cfg.getClusterK());
    bid = b.divu(bid, cfg.getClusterK());
  }
  Value wt, ct, r;
  if (cfg.getClusterC() > 1) {
    // A cluster is clusterC consecutive blocks: the channel tiles of one
    // (W tile, rows) tile.
    ct = b.remu(bid, launch.numCTiles);
    r = b.divu(bid, launch.numCTiles);
    wt = b.remu(r, launch.numWTiles);
    r = b.divu(r, launch.numWTiles);
    cx.clusterRank = ct;
    emitClusterStartArrive(cx);
  } else {
    wt = b.remu(bid, launch.numWTiles);
    r = b.divu(bid, launch.numWTiles);
    ct = b.remu(r, launch.numCTiles);
    r = b.divu(r, launch.numCTiles);
  }
  Value hb = b.remu(r, launch.numHBlocks);
  r = b.divu(r, launch.numHBlocks);
  if (cx.a.pool) {
    // A pooled depth and `pooledRows` pooled rows; the passes set od / oh.
    cx.ph0 = b.mul(hb, launch.pooled.pooledRows);
    cx.pd = b.remu(r, cx.a.pool->out[0]);
    cx.n = b.divu(r, cx.a.pool->out[0]);
  } else if (cfg.getRows() == 1) {
    cx.oh = hb; // First (and only) row of the block.
  } else {
    int64_t sh = g.stride[1];
    cx.oh = b.add(b.mul(b.divu(hb, sh), sh * cfg.getRows()), b.remu(hb, sh));
  }
  if (!cx.a.pool) {
    cx.od = b.remu(r, g.out[0]);
    cx.n = b.divu(r, g.out[0]);
    // Blocks of samples: the first of the block's `samples` samples.
    if (cfg.spansSamples())
      cx.n = b.mul(cx.n, cfg.getSamples());
  }
  cx.ow0 = b.mul(wt, cfg.getTileW());
  cx.co0 = b.mul(ct, cfg.getTileC());
  cx.wTile = wt;
  cx.cTile = ct;
  cx.hBlock = hb;
}

TapRange emit::emitTapRange(EmitContext &cx, Value outPlusPad, int64_t dim,
                            int64_t rows) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  const int64_t k = g.k[dim], s = g.stride[dim], d = g.dil[dim];
  const int64_t in = g.in[dim];
  TapRange r;
  r.step = tapStep(s, d);
  r.inputStep = r.step * d / s; // >= 1
  // A negative padding puts outPlusPad below 0 for the first outputs: their
  // i0 is negative, so no tap is valid (bias-only positions).
  Value t0 =
      emitFirstTap(b, emitPadPhase(b, outPlusPad, g.pad[dim], s), k, s, d);
  // Taps t0, t0 + step, ... < k; input index i0 - a * inputStep.
  Value numTaps = arith::SelectOp::create(
      b, b.ult(t0, k), b.divu(b.add(b.sub(b.c(k), t0), r.step - 1), r.step),
      b.c(0));
  Value i0 = b.divExact(b.sub(outPlusPad, b.mul(t0, d)), s);
  auto sge = [&](Value x, int64_t y) {
    return b.cmp(arith::CmpIPredicate::sge, x, b.c(y));
  };
  // Valid a: i0 - a * inputStep <= in - 1 and i0 - a * inputStep + rows - 1
  // >= 0 (some row inside).
  Value lo = arith::SelectOp::create(
      b, sge(i0, in), b.add(b.divu(b.sub(i0, b.c(in)), r.inputStep), 1),
      b.c(0));
  Value top = b.add(i0, rows - 1);
  Value hiPlus1 = arith::SelectOp::create(
      b, sge(top, 0), b.add(b.divu(top, r.inputStep), 1), b.c(0));
  hiPlus1 = arith::MinSIOp::create(b, hiPlus1, numTaps);
  r.count = arith::MaxSIOp::create(b, b.sub(hiPlus1, lo), b.c(0));
  r.maxCount = llvm::divideCeil(k, r.step);
  r.first = b.add(t0, b.mul(lo, r.step));
  r.input = b.sub(i0, b.mul(lo, r.inputStep));
  return r;
}

Value emit::emitRoundCount(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  cx.iwMin = b.floorDiv(b.add(cx.ow0, pw - (kw - 1) * dw), sw);
  if (smemPlan.vectorInput)
    cx.iwMin = b.mul(b.floorDiv(cx.iwMin, 4), 4);
  cx.dTaps = emitTapRange(cx, b.add(cx.od, g.pad[0]), 0, 1);
  // Every sample of a block of samples has the same rows: the taps of one.
  cx.hTaps = emitTapRange(cx, b.add(cx.oh, g.pad[1]), 1, cfg.rowsPerSample());
  // Rounds of the main loop: (valid d tap, valid h tap, channel chunk), or
  // (valid d tap, channel chunk) with all valid h taps staged at once.
  cx.hRounds =
      smemPlan.hTapsPerRound > 1
          ? arith::MinSIOp::create(b, cx.hTaps.count, b.c(1)).getResult()
          : cx.hTaps.count;
  const int64_t numChunks = llvm::divideCeil(g.cinPerGroup(), cfg.getCiChunk());
  return b.mul(b.mul(cx.dTaps.count, cx.hRounds), numChunks);
}

/// {x / n, x mod n} for a runtime n in [1, maxN]. Divisions by a runtime
/// value are a 64-bit division routine (about 30 instructions, a branch to
/// a slow path) in every round of the main loop: for maxN <= 4 the
/// quotient is selected from divisions by the constants 2 .. maxN instead.
static std::pair<Value, Value> divRemBySmall(EmitBuilder &b, Value x, Value n,
                                             int64_t maxN) {
  if (maxN <= 1)
    return {x, b.c(0)};
  if (maxN > 4)
    return {arith::DivUIOp::create(b, x, n), arith::RemUIOp::create(b, x, n)};
  Value quotient = x;
  for (int64_t d = 2; d <= maxN; ++d) {
    // One statement per op: the order of the ops must not depend on the
    // host compiler's order of evaluating arguments.
    Value isD = b.cmp(arith::CmpIPredicate::eq, n, b.c(d));
    Value byD = b.divu(x, d);
    quotient = arith::SelectOp::create(b, isD, byD, quotient);
  }
  return {quotient, b.sub(x, b.mul(quotient, n))};
}

Round emit::emitDecodeRound(EmitContext &cx, Value q) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const int64_t numChunks = llvm::divideCeil(g.cinPerGroup(), cfg.getCiChunk());
  const int64_t hPerRound = smemPlan.hTapsPerRound;
  Round r;
  // A reduction split over clusters: this block's rounds start at
  // `roundBase` of the tile's.
  if (cx.roundBase)
    q = b.add(q, cx.roundBase);
  Value chunk = b.remu(q, numChunks);
  Value rest = b.divu(q, numChunks);
  // rest = ad x hRounds + ah; with merged H taps hRounds is 1. With one d
  // tap at most (2-D and 1-D layers) rest < hRounds: ad = 0.
  Value ah = b.c(0), ad = rest;
  if (hPerRound == 1 && cx.dTaps.maxCount <= 1) {
    ah = rest;
    ad = b.c(0);
  } else if (hPerRound == 1) {
    std::tie(ad, ah) = divRemBySmall(b, rest, cx.hRounds, cx.hTaps.maxCount);
  }
  r.td = b.add(cx.dTaps.first, b.mul(ad, cx.dTaps.step));
  r.id = b.sub(cx.dTaps.input, b.mul(ad, cx.dTaps.inputStep));
  r.th = b.add(cx.hTaps.first, b.mul(ah, cx.hTaps.step));
  // Staged input rows start at the row of the last tap that may be staged
  // (tap a of block row r reads staged row (hPerRound - 1 - a) x inputStep
  // + r).
  r.ih = b.sub(cx.hTaps.input,
               b.mul(b.add(ah, hPerRound - 1), cx.hTaps.inputStep));
  r.hValid = hPerRound > 1 ? cx.hTaps.count : b.c(1);
  r.ci0 = b.mul(chunk, cfg.getCiChunk());
  return r;
}
