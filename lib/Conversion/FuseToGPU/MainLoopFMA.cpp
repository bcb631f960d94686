//===- MainLoopFMA.cpp - the synchronous main loop and its FMA path -------===//
//
// The main loop of the FMA and mma.sync paths: per sub-block of channels
// whose weights are staged together, the flattened valid-tap rounds stage
// their operands (`emitStageInputs`, `emitStageWeights`) between two
// barriers, then every thread (FMA) or warp (mma.sync) accumulates into
// registers carried through scf.for iter_args. The accumulators plus the
// conv bias end in output tile 0, which aliases the staging buffer.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// Zero accumulators of the FMA path: chanPerThread x positions per thread.
static SmallVector<Value> fmaAccumulators(EmitContext &cx) {
  TileConfigAttr cfg = cx.cfg;
  int64_t ppt = cfg.getTileW() / cfg.getThreadsW();
  return SmallVector<Value>(cfg.getChanPerThread() * ppt, cx.b.f(0.0));
}

/// Accumulates one staged chunk of input channels (all valid W taps) on
/// the FMA units: each thread owns positions of one W phase (so its valid W
/// taps are one arithmetic progression) and chanPerThread channels.
static SmallVector<Value>
accumulateChunkFMA(EmitContext &cx, ArrayRef<Value> accIn, Value base) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const int64_t tw = cfg.getThreadsW(), tc = cfg.getThreadsC();
  const int64_t cpt = cfg.getChanPerThread(), ppt = cfg.getTileW() / tw;
  const int64_t sb = smemPlan.subBlock;
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  // W phase of this thread (shared by all of its positions).
  Value owt = b.add(b.add(cx.ow0, cx.tx), pw);
  Value tw0 = emitFirstTap(b, emitPadPhase(b, owt, pw, sw), kw, sw, dw);
  auto kLoop =
      scf::ForOp::create(b, b.c(0), b.c(cfg.getCiChunk()), b.c(1), accIn);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  Value k = kLoop.getInductionVar();
  auto wLoop = scf::ForOp::create(b, tw0, b.c(kw), b.c(tapStep(sw, dw)),
                                  kLoop.getRegionIterArgs());
  b.setInsertionPointToStart(wLoop.getBody());
  Value t = wLoop.getInductionVar();
  Value xBase =
      b.add(b.sub(b.divExact(b.sub(owt, b.mul(t, dw)), sw), cx.iwMin),
            b.add(b.mul(k, smemPlan.xsStride), b.add(base, smemPlan.xsOffset)));
  Value wBase =
      b.add(b.add(b.add(b.mul(k, smemPlan.wsCiStride), b.mul(t, sb)), cx.ty),
            b.add(base, smemPlan.wsOffset));
  SmallVector<Value> xv, wv;
  for (int64_t i = 0; i < ppt; ++i)
    xv.push_back(cx.sload(b.add(xBase, i * (tw / sw))));
  for (int64_t j = 0; j < cpt; ++j)
    wv.push_back(cx.sload(b.add(wBase, j * tc)));
  SmallVector<Value> acc(wLoop.getRegionIterArgs());
  for (int64_t j = 0; j < cpt; ++j)
    for (int64_t i = 0; i < ppt; ++i)
      acc[j * ppt + i] = math::FmaOp::create(b, xv[i], wv[j], acc[j * ppt + i]);
  scf::YieldOp::create(b, acc);
  b.setInsertionPointAfter(wLoop);
  scf::YieldOp::create(b, wLoop.getResults());
  b.setInsertionPointAfter(kLoop);
  return SmallVector<Value>(kLoop.getResults());
}

/// Writes the FMA accumulators + conv bias to the convolution's tile.
static void storeAccumulatorsFMA(EmitContext &cx, Value subBase,
                                 ArrayRef<Value> acc) {
  EmitBuilder &b = cx.b;
  TileConfigAttr cfg = cx.cfg;
  const int64_t tw = cfg.getThreadsW(), tc = cfg.getThreadsC();
  const int64_t cpt = cfg.getChanPerThread(), ppt = cfg.getTileW() / tw;
  for (int64_t j = 0; j < cpt; ++j) {
    Value cl = b.add(b.add(subBase, cx.ty), j * tc);
    Value bias = emitConvBias(cx, cl);
    for (int64_t i = 0; i < ppt; ++i) {
      Value v = arith::AddFOp::create(b, acc[j * ppt + i], bias);
      cx.sstore(v, cx.tileAddr(0, b.c(0), cl, b.add(cx.tx, i * tw)));
    }
  }
}

void emit::emitSyncMainLoop(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  if (cfg.usesTensorCores())
    emitMmaSyncWarpCoordinates(cx);
  const int64_t sb = cx.smemPlan.subBlock;
  // Null with a prologue: the staging evaluates it instead.
  Value input = cx.memOf.lookup(cx.a.conv.getInput());
  Value weight = cx.memOf[cx.a.conv.getWeight()];
  Value rounds = emitRoundCount(cx);
  auto subLoop = scf::ForOp::create(b, b.c(0), b.c(cfg.getTileC()), b.c(sb));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(subLoop.getBody());
  Value subBase = subLoop.getInductionVar();
  Value cs = b.add(cx.co0, subBase);
  Value grp = b.divu(cs, g.coutPerGroup());
  Value ciBase = b.mul(grp, g.cinPerGroup());
  Value coInGroup = b.sub(cs, b.mul(grp, g.coutPerGroup()));

  auto loop =
      scf::ForOp::create(b, b.c(0), rounds, b.c(1),
                         cfg.usesTensorCores() ? emitMmaSyncAccumulators(cx)
                                               : fmaAccumulators(cx));
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(loop.getBody());
    Round r = emitDecodeRound(cx, loop.getInductionVar());
    // Everyone is done with the previous round's operands.
    gpu::BarrierOp::create(b);
    emitStageInputs(cx, input, r.ci0, ciBase, r.id, r.ih);
    emitStageWeights(cx, weight, r.ci0, ciBase, coInGroup, r.td, r.th, r.hValid,
                     cx.hTaps.step);
    gpu::BarrierOp::create(b);
    SmallVector<Value> acc(loop.getRegionIterArgs());
    acc = cfg.usesTensorCores() ? emitMmaSyncRound(cx, acc, b.c(0), r.hValid)
                                : accumulateChunkFMA(cx, acc, b.c(0));
    scf::YieldOp::create(b, acc);
  }
  // The staging buffer may alias the output tile.
  gpu::BarrierOp::create(b);
  SmallVector<Value> results(loop.getResults());
  if (cfg.usesTensorCores())
    emitMmaSyncStore(cx, subBase, results);
  else
    storeAccumulatorsFMA(cx, subBase, results);
}
