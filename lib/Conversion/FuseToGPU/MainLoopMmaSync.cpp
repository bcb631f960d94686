//===- MainLoopMmaSync.cpp - mma.sync m16n8k8 on the tensor cores ---------===//
//
// The tensor-core step of the synchronous main loop (`emitSyncMainLoop`):
// warps own 16-channel x 8-position tiles of one W phase (whose valid W taps
// are then uniform over the warp) and accumulate `mma.sync m16n8k8` (tf32
// operands, rounded when staged, f32 accumulators) over a staged round;
// weight fragments are shared by the block's rows. Split-operand kernels
// (precision tf32x3, ieee on the tensor cores) stage f32 operands, split
// every fragment into TF32 hi + lo in registers and issue three MMAs per
// tile and k-step (3xTF32).
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

void emit::emitMmaSyncWarpCoordinates(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  TileConfigAttr cfg = cx.cfg;
  Value warp = b.divu(cx.tid, 32), lane = b.remu(cx.tid, 32);
  int64_t warpsC = cfg.getMmaWarpsC(), warpsW = cfg.getMmaWarpsW();
  cx.mmaWW = b.remu(warp, warpsW);
  Value r = b.divu(warp, warpsW);
  cx.mmaWC = b.remu(r, warpsC);
  cx.mmaPhase = b.divu(r, warpsC);
  cx.mmaGroup = b.divu(lane, 4);
  cx.mmaTig = b.remu(lane, 4);
}

SmallVector<Value> emit::emitMmaSyncAccumulators(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  TileConfigAttr cfg = cx.cfg;
  auto accTy = VectorType::get({2, 2}, b.getF32Type());
  Value zero = arith::ConstantOp::create(
      b, DenseElementsAttr::get(accTy, b.getF32FloatAttr(0.0)));
  return SmallVector<Value>(
      cfg.getRows() * cfg.getMmaTilesC() * cfg.getMmaTilesW(), zero);
}

SmallVector<Value> emit::emitMmaSyncRound(EmitContext &cx,
                                          ArrayRef<Value> accIn, Value base,
                                          Value hValid) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const int64_t mt = cfg.getMmaTilesC(), nt = cfg.getMmaTilesW();
  const int64_t sb = smemPlan.subBlock;
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  const int64_t hTaps = smemPlan.hTapsPerRound;
  // Output positions of this warp: ow = ow0 + phase + sw * j, so its W
  // residue, and with it the valid tap set, is uniform over the warp.
  Value owp = b.add(b.add(cx.ow0, cx.mmaPhase), pw);
  Value tw0 = emitFirstTap(b, b.remu(owp, sw), kw, sw, dw);
  // The round's valid h taps: tap a reads staged rows from (hTaps - 1 - a)
  // x hInputStep on, and its own weight plane.
  auto hLoop = scf::ForOp::create(b, b.c(0), hValid, b.c(1), accIn);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(hLoop.getBody());
  Value ha = hLoop.getInductionVar();
  Value hRow = b.mul(b.sub(b.c(hTaps - 1), ha), smemPlan.hInputStep);
  auto wLoop = scf::ForOp::create(b, tw0, b.c(kw), b.c(tapStep(sw, dw)),
                                  hLoop.getRegionIterArgs());
  b.setInsertionPointAfter(wLoop);
  scf::YieldOp::create(b, wLoop.getResults());
  b.setInsertionPointToStart(wLoop.getBody());
  Value t = wLoop.getInductionVar();
  // Staged input column of position j = 0 of this warp's phase at tap t.
  Value xCol = b.add(b.sub(b.divExact(b.sub(owp, b.mul(t, dw)), sw), cx.iwMin),
                     b.mul(hRow, smemPlan.xsRowStride));
  Value nBase = b.add(b.mul(cx.mmaWW, nt * 8), cx.mmaGroup);
  Value mBase = b.add(b.mul(cx.mmaWC, mt * 16), cx.mmaGroup);
  Value wTap = b.add(b.add(b.mul(t, sb), b.mul(ha, kw * sb)),
                     b.add(base, smemPlan.wsOffset));
  Value xBase = b.add(base, smemPlan.xsOffset);
  // tf32: operands were rounded to TF32 when staged. tf32x3: they were
  // staged in f32; each fragment is split into TF32 hi + lo here (the
  // weights once per k-step, shared by the rows) and every tile takes
  // three MMAs, the small products first: a_lo b_hi + a_hi b_lo + a_hi
  // b_hi (a_lo b_lo, ~2^-22 relative, is dropped).
  const bool split = cfg.usesSplitTF32();
  auto frag = [&](Value addr) { return cx.sload(addr); };
  auto aTy = VectorType::get({4, 1}, b.getF32Type());
  auto bTy = VectorType::get({2, 1}, b.getF32Type());
  // The fragment of `vals` (hi parts and lo parts when split).
  auto fragments = [&](VectorType ty, ArrayRef<Value> vals) {
    if (!split)
      return std::pair<Value, Value>(
          vector::FromElementsOp::create(b, ty, vals), Value());
    SmallVector<Value, 4> hi, lo;
    for (Value v : vals) {
      SplitTF32 parts = emitSplitTF32(b, v);
      hi.push_back(parts.hi);
      lo.push_back(parts.lo);
    }
    // One op per statement: the IR order must not depend on the order in
    // which the compiler evaluates arguments.
    Value hiFrag = vector::FromElementsOp::create(b, ty, hi);
    Value loFrag = vector::FromElementsOp::create(b, ty, lo);
    return std::pair<Value, Value>(hiFrag, loFrag);
  };
  auto mma = [&](Value aFrag, Value bFrag, Value accum) {
    return nvgpu::MmaSyncOp::create(b, aFrag, bFrag, accum,
                                    ArrayRef<int64_t>{16, 8, 8},
                                    /*tf32Enabled=*/true)
        .getResult();
  };
  const int64_t rows = cfg.getRows();
  Value zero;
  if (split)
    zero = arith::ConstantOp::create(
        b, DenseElementsAttr::get(VectorType::get({2, 2}, b.getF32Type()),
                                  b.getF32FloatAttr(0.0)));
  SmallVector<Value> acc(wLoop.getRegionIterArgs());
  for (int64_t ks = 0; ks < cfg.getCiChunk() / 8; ++ks) {
    Value k0 = b.add(cx.mmaTig, ks * 8), k1 = b.add(cx.mmaTig, ks * 8 + 4);
    Value xRow0 = b.add(b.mul(k0, smemPlan.xsStride), xBase);
    Value xRow1 = b.add(b.mul(k1, smemPlan.xsStride), xBase);
    Value wRow0 = b.add(b.mul(k0, smemPlan.wsCiStride), wTap);
    Value wRow1 = b.add(b.mul(k1, smemPlan.wsCiStride), wTap);
    // Weight fragments (hi, lo) are shared by all rows of the block.
    SmallVector<std::pair<Value, Value>> aFrag;
    for (int64_t mi = 0; mi < mt; ++mi) {
      Value m = b.add(mBase, mi * 16);
      aFrag.push_back(fragments(
          aTy, {frag(b.add(wRow0, m)), frag(b.add(wRow0, b.add(m, 8))),
                frag(b.add(wRow1, m)), frag(b.add(wRow1, b.add(m, 8)))}));
    }
    for (int64_t rr = 0; rr < rows; ++rr)
      for (int64_t ni = 0; ni < nt; ++ni) {
        Value col =
            b.add(b.add(xCol, b.add(nBase, ni * 8)), rr * smemPlan.xsRowStride);
        auto [bHi, bLo] =
            fragments(bTy, {frag(b.add(xRow0, col)), frag(b.add(xRow1, col))});
        for (int64_t mi = 0; mi < mt; ++mi) {
          Value &accum = acc[(rr * mt + mi) * nt + ni];
          auto [aHi, aLo] = aFrag[mi];
          if (!split) {
            accum = mma(aHi, bHi, accum);
            continue;
          }
          // The tensor cores add into their accumulator with truncation:
          // over K / 8 steps into one register that bias grows to ~1e-5
          // relative (measured on the H100, docs/perf.md 95). Each k-step's
          // three products start from zero and are added to the running sum
          // with an IEEE f32 add, as the FMA loop rounds.
          Value step = mma(aLo, bHi, zero);
          step = mma(aHi, bLo, step);
          step = mma(aHi, bHi, step);
          for (int64_t i = 0; i < 4; ++i) {
            SmallVector<int64_t, 2> pos = {i / 2, i % 2};
            Value sum = vector::ExtractOp::create(b, accum, pos);
            Value add = vector::ExtractOp::create(b, step, pos);
            sum = arith::AddFOp::create(b, sum, add);
            accum = vector::InsertOp::create(b, sum, accum, pos);
          }
        }
      }
  }
  scf::YieldOp::create(b, acc);
  b.setInsertionPointAfter(hLoop);
  return SmallVector<Value>(hLoop.getResults());
}

void emit::emitMmaSyncStore(EmitContext &cx, Value subBase,
                            ArrayRef<Value> acc) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const int64_t mt = cfg.getMmaTilesC(), nt = cfg.getMmaTilesW();
  const int64_t sw = g.stride[2];
  for (int64_t mi = 0; mi < mt; ++mi)
    for (int64_t half = 0; half < 2; ++half) {
      // Rows group and group + 8 of the 16-channel tile.
      Value cl = b.add(b.add(subBase, b.mul(cx.mmaWC, mt * 16)),
                       b.add(cx.mmaGroup, mi * 16 + half * 8));
      Value bias = emitConvBias(cx, cl);
      for (int64_t rr = 0; rr < cfg.getRows(); ++rr)
        for (int64_t ni = 0; ni < nt; ++ni)
          for (int64_t col = 0; col < 2; ++col) {
            // Column 2 * threadInGroup + col of the 8-position tile.
            Value j = b.add(b.add(b.mul(cx.mmaWW, nt * 8), b.mul(cx.mmaTig, 2)),
                            ni * 8 + col);
            Value wl = b.add(cx.mmaPhase, b.mul(j, sw));
            Value v = vector::ExtractOp::create(
                b, acc[(rr * mt + mi) * nt + ni], ArrayRef<int64_t>{half, col});
            cx.sstore(arith::AddFOp::create(b, v, bias),
                      cx.tileAddr(0, b.c(rr), cl, wl));
          }
    }
}
