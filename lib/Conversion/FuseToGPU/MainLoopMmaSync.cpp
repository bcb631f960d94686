//===- MainLoopMmaSync.cpp - mma.sync on the tensor cores ------------------===//
//
// The tensor-core step of the synchronous main loop (`emitSyncMainLoop`):
// warps own 16-channel x 8-position tiles of one W phase (whose valid W taps
// are then uniform over the warp) and accumulate `mma.sync m16n8k8` (tf32
// operands, rounded when staged, f32 accumulators) over a staged round;
// weight fragments are shared by the block's rows. Split-operand kernels
// (math tf32x3, ieee on the tensor cores) stage f32 operands, split
// every fragment into TF32 hi + lo in registers and issue three MMAs per
// tile and k-step (3xTF32). Half-operand kernels (bf16, f16 math) stage f32
// operands, round pairs of TF32-step fragments to the half type in
// registers and issue one `mma.sync m16n8k16` per pair. With positions on
// M (`TileConfigAttr::positionsOnM`) the same loads feed the exchanged
// operands: 16-position input fragments as A, 8-channel weight fragments
// as B, accumulators of 16 positions x 8 channels.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
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

/// Two f32 values rounded to nearest even to `half` (bf16 or f16) and
/// packed into one MMA register: the first in the low 16 bits. f16 pairs
/// stay `vector<2xf16>` (nvvm.mma.sync's f16 operand type), bf16 pairs are
/// bit-cast to i32 (its bf16 operand type).
static Value packHalf2(EmitBuilder &b, Type half, Value lo, Value hi) {
  Value l = arith::TruncFOp::create(b, half, lo);
  Value h = arith::TruncFOp::create(b, half, hi);
  Value pair =
      vector::FromElementsOp::create(b, VectorType::get({2}, half),
                                     ValueRange{l, h});
  if (isa<Float16Type>(half))
    return pair;
  return LLVM::BitcastOp::create(b, b.getI32Type(), pair);
}

/// The half-operand (bf16 / f16) steps of one tap of a round: the staged f32
/// operands are read as for two consecutive m16n8k8 TF32 steps c0 = 2s and
/// c1 = 2s + 1 and rounded to the half type in registers, and each pair
/// feeds one m16n8k16 MMA. The k index is summed over, so any bijection of
/// it applied to both operands gives the same product: thread (g, t)'s
/// TF32 fragments hold k = t and t + 4 of each step; the m16n8k16 fragment
/// holds k = 2t, 2t + 1 (registers a0 a1 / b0 b1) and 2t + 8, 2t + 9 (a4
/// a5 / b2 b3), so (c0, t) -> 2t, (c1, t) -> 2t + 1, (c0, t + 4) -> 2t + 8,
/// (c1, t + 4) -> 2t + 9: the same loads as the TF32 steps, half the MMAs.
/// The chunk is a multiple of 16 (TileConfigAttr::verify): no odd step.
static void emitHalfMmaSteps(EmitContext &cx, SmallVectorImpl<Value> &acc,
                             Value xBase, Value xCol, Value wTap, Value nBase,
                             Value mBase) {
  EmitBuilder &b = cx.b;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const int64_t mt = cfg.getMmaTilesC(), nt = cfg.getMmaTilesW();
  const int64_t rows = cfg.getRows();
  const Type half = cfg.getTypes().getOperand();
  const NVVM::MMATypes ptxType = isa<Float16Type>(half)
                                     ? NVVM::MMATypes::f16
                                     : NVVM::MMATypes::bf16;
  Type f32 = b.getF32Type();
  auto accTy = VectorType::get({2, 2}, f32);
  Type structTy = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, f32));
  auto frag = [&](Value addr) { return cx.sload(addr); };
  auto mma = [&](ArrayRef<Value> a, ArrayRef<Value> bb, Value accum) {
    SmallVector<Value, 4> c;
    for (int64_t i = 0; i < 4; ++i)
      c.push_back(vector::ExtractOp::create(
          b, accum, ArrayRef<int64_t>{i / 2, i % 2}));
    Value d = NVVM::MmaOp::create(
        b, structTy, a, bb, c, ArrayRef<int64_t>{16, 8, 16},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value, 4> out;
    for (int64_t i = 0; i < 4; ++i)
      out.push_back(LLVM::ExtractValueOp::create(b, d, i));
    return vector::FromElementsOp::create(b, accTy, out).getResult();
  };
  // The four A values (g, k0), (g + 8, k0), (g, k1), (g + 8, k1) and the two
  // B values (k0, n), (k1, n) of TF32 step `ks` (k0 = t, k1 = t + 4).
  auto rowsOf = [&](int64_t ks) {
    Value k0 = b.add(cx.mmaTig, ks * 8), k1 = b.add(cx.mmaTig, ks * 8 + 4);
    return std::array<Value, 4>{b.add(b.mul(k0, smemPlan.xsStride), xBase),
                                b.add(b.mul(k1, smemPlan.xsStride), xBase),
                                b.add(b.mul(k0, smemPlan.wsCiStride), wTap),
                                b.add(b.mul(k1, smemPlan.wsCiStride), wTap)};
  };
  // An A operand (m16 x k16: four registers of value pairs) from rows
  // `lo` and `hi` of both steps' row sets at `off` and `off` + 8, and a B
  // operand (k16 x n8: two registers) from the same rows at `off`.
  auto aOperand = [&](const std::array<Value, 4> &r0,
                      const std::array<Value, 4> &r1, int lo, int hi,
                      Value off) {
    auto vals = [&](const std::array<Value, 4> &r) {
      return std::array<Value, 4>{
          frag(b.add(r[lo], off)), frag(b.add(r[lo], b.add(off, 8))),
          frag(b.add(r[hi], off)), frag(b.add(r[hi], b.add(off, 8)))};
    };
    std::array<Value, 4> v0 = vals(r0), v1 = vals(r1);
    SmallVector<Value, 4> regs;
    for (int64_t i = 0; i < 4; ++i)
      regs.push_back(packHalf2(b, half, v0[i], v1[i]));
    return regs;
  };
  auto bOperand = [&](const std::array<Value, 4> &r0,
                      const std::array<Value, 4> &r1, int lo, int hi,
                      Value off) {
    Value v00 = frag(b.add(r0[lo], off)), v01 = frag(b.add(r0[hi], off));
    Value v10 = frag(b.add(r1[lo], off)), v11 = frag(b.add(r1[hi], off));
    return SmallVector<Value, 4>{packHalf2(b, half, v00, v10),
                                 packHalf2(b, half, v01, v11)};
  };
  const bool posM = cfg.positionsOnM();
  for (int64_t ks = 0; ks < cfg.getCiChunk() / 8; ks += 2) {
    std::array<Value, 4> r0 = rowsOf(ks), r1 = rowsOf(ks + 1);
    // Weight fragments, shared by all rows of the block: A (16 channels at
    // `mBase`), or with positions on M, B (8 channels), rows 2 and 3.
    SmallVector<SmallVector<Value, 4>> wFrag;
    for (int64_t mi = 0; mi < mt; ++mi)
      wFrag.push_back(posM ? bOperand(r0, r1, 2, 3, b.add(mBase, mi * 8))
                           : aOperand(r0, r1, 2, 3, b.add(mBase, mi * 16)));
    // The input, rows 0 and 1: B (8 positions), or with positions on M, A
    // (positions g and g + 8 of a 16-position tile).
    const int64_t posTile = posM ? 16 : 8;
    for (int64_t rr = 0; rr < rows; ++rr)
      for (int64_t ni = 0; ni < nt; ++ni) {
        Value col = b.add(b.add(xCol, b.add(nBase, ni * posTile)),
                          rr * smemPlan.xsRowStride);
        SmallVector<Value, 4> xFrag =
            posM ? aOperand(r0, r1, 0, 1, col) : bOperand(r0, r1, 0, 1, col);
        for (int64_t mi = 0; mi < mt; ++mi) {
          Value &accum = acc[(rr * mt + mi) * nt + ni];
          accum = posM ? mma(xFrag, wFrag[mi], accum)
                       : mma(wFrag[mi], xFrag, accum);
        }
      }
  }
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
  Value tw0 = emitFirstTap(b, emitPadPhase(b, owp, pw, sw), kw, sw, dw);
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
  // Positions on M: this warp's positions are 16-position tiles (lane
  // group g and g + 8 of each), its channels one 8-channel N tile each
  // (one channel warp).
  const bool posM = cfg.positionsOnM();
  Value nBase = b.add(b.mul(cx.mmaWW, nt * (posM ? 16 : 8)), cx.mmaGroup);
  Value mBase =
      posM ? cx.mmaGroup : b.add(b.mul(cx.mmaWC, mt * 16), cx.mmaGroup);
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
  if (cfg.getTypes().usesHalfOperands()) {
    SmallVector<Value> acc(wLoop.getRegionIterArgs());
    emitHalfMmaSteps(cx, acc, xBase, xCol, wTap, nBase, mBase);
    scf::YieldOp::create(b, acc);
    b.setInsertionPointAfter(hLoop);
    return SmallVector<Value>(hLoop.getResults());
  }
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
    // Weight fragments (hi, lo) are shared by all rows of the block: A
    // fragments of 16 channels, or with positions on M, B fragments of 8.
    SmallVector<std::pair<Value, Value>> wFrag;
    for (int64_t mi = 0; mi < mt; ++mi) {
      if (posM) {
        Value m = b.add(mBase, mi * 8);
        wFrag.push_back(
            fragments(bTy, {frag(b.add(wRow0, m)), frag(b.add(wRow1, m))}));
        continue;
      }
      Value m = b.add(mBase, mi * 16);
      wFrag.push_back(fragments(
          aTy, {frag(b.add(wRow0, m)), frag(b.add(wRow0, b.add(m, 8))),
                frag(b.add(wRow1, m)), frag(b.add(wRow1, b.add(m, 8)))}));
    }
    for (int64_t rr = 0; rr < rows; ++rr)
      for (int64_t ni = 0; ni < nt; ++ni) {
        // Input fragments: B of 8 positions, or A of 16 (positions g and
        // g + 8) with positions on M.
        Value col = b.add(b.add(xCol, b.add(nBase, ni * (posM ? 16 : 8))),
                          rr * smemPlan.xsRowStride);
        auto [xHi, xLo] =
            posM ? fragments(aTy, {frag(b.add(xRow0, col)),
                                   frag(b.add(xRow0, b.add(col, 8))),
                                   frag(b.add(xRow1, col)),
                                   frag(b.add(xRow1, b.add(col, 8)))})
                 : fragments(bTy,
                             {frag(b.add(xRow0, col)), frag(b.add(xRow1, col))});
        for (int64_t mi = 0; mi < mt; ++mi) {
          Value &accum = acc[(rr * mt + mi) * nt + ni];
          auto [wHi, wLo] = wFrag[mi];
          Value aHi = posM ? xHi : wHi, aLo = posM ? xLo : wLo;
          Value bHi = posM ? wHi : xHi, bLo = posM ? wLo : xLo;
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

/// emitMmaSyncStore with positions on M: accumulator (h, c) of a tile holds
/// position g + 8 h of the 16-position tile and channel 2 t + c of the
/// 8-channel tile; channels past the block's `tileC` (zero weights) are
/// not stored.
static void storePositionsOnM(EmitContext &cx, Value subBase,
                              ArrayRef<Value> acc) {
  EmitBuilder &b = cx.b;
  TileConfigAttr cfg = cx.cfg;
  const int64_t mt = cfg.getMmaTilesC(), nt = cfg.getMmaTilesW();
  const int64_t sw = cx.g.stride[2], tileC = cfg.getTileC();
  for (int64_t mi = 0; mi < mt; ++mi)
    for (int64_t col = 0; col < 2; ++col) {
      Value cl = b.add(subBase, b.add(b.mul(cx.mmaTig, 2), mi * 8 + col));
      OpBuilder::InsertionGuard guard(b);
      // Lanes of channels past the tile: only where tileC leaves some.
      if ((mi + 1) * 8 > tileC) {
        auto inside =
            scf::IfOp::create(b, TypeRange{}, b.ult(cl, tileC), false);
        b.setInsertionPointToStart(&inside.getThenRegion().front());
      }
      Value bias = emitConvBias(cx, cl);
      for (int64_t rr = 0; rr < cfg.getRows(); ++rr)
        for (int64_t ni = 0; ni < nt; ++ni)
          for (int64_t half = 0; half < 2; ++half) {
            Value j = b.add(b.add(b.mul(cx.mmaWW, nt * 16), cx.mmaGroup),
                            ni * 16 + half * 8);
            Value wl = b.add(cx.mmaPhase, b.mul(j, sw));
            Value v = vector::ExtractOp::create(
                b, acc[(rr * mt + mi) * nt + ni], ArrayRef<int64_t>{half, col});
            cx.sstore(arith::AddFOp::create(b, v, bias),
                      cx.tileAddr(0, b.c(rr), cl, wl));
          }
    }
}

void emit::emitMmaSyncStore(EmitContext &cx, Value subBase,
                            ArrayRef<Value> acc) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  if (cfg.positionsOnM())
    return storePositionsOnM(cx, subBase, acc);
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
