//===- PooledEpilogue.cpp - window ops in a convolution kernel's epilogue -===//
//
// Pooling and reductions over the channels applied by the convolution
// kernel itself, so that the value before them never reaches device
// memory.
//
// A convolution kernel whose epilogue ends in a pooling op (`a.pool`,
// `PooledEpilogue`) has blocks over the pooled result: batch n, one pooled
// depth pd, `pooledRows` pooled rows from ph0, the whole pooled row along W
// and `tileC` channels. The block computes every convolution element its
// windows read, in passes of the ordinary main loop: pass p = (depth tap
// tD, row group gi, H stride phase j) computes depth od = pd sd + tD dild
// and the `rows` rows oh = ph0 sh_pool + gi rows s_h + j + r s_h of one
// stride phase (so the main loop's taps stay those of one phase), into
// output tile 0 like any convolution kernel.
//
// Where all passes' tiles fit two blocks per SM (`SharedMemoryPlan::
// poolSlots`), each pass writes a tile of its own (after the staging
// buffers) and, after the last pass, every pooled element is built once by
// the pooling op itself (`WindowOpInterface::buildAt`, which loops over the
// window in bounds and applies the max / average / divisor rules), reading
// each window element from its pass's tile through the elementwise ops
// before the pool.
//
// Otherwise, after each pass, every pooled element of the block combines
// the part of its window the pass computed: the pass's depth is one depth
// tap of every window of the block, so the walk tests the window's row taps
// (a row of the pass or not) and reads the W taps of those rows from the
// tile, through the elementwise ops before the pool; each window element
// is read in exactly one pass. The parts are combined by the window's rule
// (`SlidingWindow`: max, or sum) in shared-memory
// accumulators that the same thread owns in every pass, and the op
// finishes each (`buildWindowFinish`: an average's divisor). Finally the ops
// after the pool run on each pooled value and the result goes to global
// memory, consecutive threads on consecutive pooled positions. A reduction
// over the channels may follow the pool (blocks then hold all channels):
// each thread reduces the pooled values of one pooled position over the
// channels, from the accumulators or the kept tiles. The
// pre-pool tensor never reaches device memory; in this mode the tile of
// each pass aliases the staging buffers as usual (a barrier separates the
// partial walk from the next pass's staging). Measured (docs/perf.md 96):
// kept tiles evaluate each window once (kb2_50 0.42 against 0.87 ms), the
// partial walks keep the occupancy of large tiles (kb2_78 1.88 against
// 2.65 ms).
//
// Where the plan gives the result to a reduction or normalisation over
// whole channel groups of each sample (`cx.stats`: moments, max or min
// records, EpilogueStatsLayout), the kernel also writes the records of its
// final pooled values (`emitPooledStatistics`, after the stores, from the
// same accumulators or kept tiles); read only by reductions
// (`cx.statsOnly`), the pooled tensor is not stored at all (issue 37: a
// mean of a max_pool, an amax of an avg_pool).
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "NarrowStore.h"
#include "WarpReduce.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

namespace {

/// One pooled element of the block, as the walks see it.
struct PooledElement {
  Value ch, cl, ph, pw, acc; ///< acc: its accumulator's address.
  SmallVector<Value> coords; ///< Its coordinates in the pooled result.
};

/// The pooled element of tile channel `cl`, pooled row `ph0 + phl` and
/// pooled position `pwl` of the block: `e` its index in the block's
/// accumulators (pooled positions fastest, then channels, then rows).
PooledElement pooledElement(EmitContext &cx, Value cl, Value phl, Value pwl) {
  EmitBuilder &b = cx.b;
  const PooledEpilogue &pool = *cx.a.pool;
  const int64_t tileC = cx.cfg.getTileC(), width = pool.out[2];
  PooledElement el;
  el.cl = cl;
  el.ch = b.add(cx.co0, cl);
  el.ph = b.add(cx.ph0, phl);
  el.pw = b.add(b.divu(cx.ow0, pool.s[2]), pwl);
  Value e = b.add(b.mul(b.add(b.mul(phl, tileC), cl), width), pwl);
  el.acc = b.add(e, cx.smemPlan.poolOffset);
  el.coords = cx.fullIndex(cx.n, el.ch, cx.pd, el.ph, el.pw);
  return el;
}

/// Runs `body` for every pooled element of the block that lies inside the
/// result, distributed over the threads (pooled positions fastest): the
/// same thread gets the same elements in every walk.
void forEachPooledElement(EmitContext &cx,
                          function_ref<void(const PooledElement &)> body) {
  EmitBuilder &b = cx.b;
  const PooledEpilogue &pool = *cx.a.pool;
  const int64_t tileC = cx.cfg.getTileC(), width = pool.out[2];
  const int64_t total = cx.launch.pooled.pooledRows * tileC * width;
  auto loop = scf::ForOp::create(b, cx.tid, b.c(total), b.c(cx.launch.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value line = b.divu(e, width);
  Value cl = b.remu(line, tileC), phl = b.divu(line, tileC);
  Value ch = b.add(cx.co0, cl), ph = b.add(cx.ph0, phl);
  Value valid = b.andI(b.ult(ch, cx.g.cout), b.ult(ph, pool.out[1]));
  auto ifValid = scf::IfOp::create(b, TypeRange{}, valid, false);
  b.setInsertionPointToStart(&ifValid.getThenRegion().front());
  body(pooledElement(cx, cl, phl, b.remu(e, width)));
}

/// Pooling-operand element `at` (full-rank coordinates) as a tile element:
/// its channel, height and position; the row (and depth) are the caller's.
Element windowOperandElement(EmitContext &cx, ValueRange at) {
  EmitBuilder &b = cx.b;
  const int64_t rank = cx.g.rank;
  Element el;
  el.ch = at[1];
  el.cl = b.sub(el.ch, cx.co0);
  el.oh = rank >= 4 ? at[rank - 2] : b.c(0);
  el.ow = at[rank - 1];
  el.wl = b.sub(el.ow, cx.ow0);
  return el;
}

/// Combines two partial results of a window.
Value combine(EmitContext &cx, Value x, Value y) {
  switch (cx.a.pool->window.combine) {
  case SlidingWindow::Combine::Max:
    return arith::MaximumFOp::create(cx.b, x, y); // NaN wins.
  case SlidingWindow::Combine::Add:
    return arith::AddFOp::create(cx.b, x, y);
  }
  llvm_unreachable("unknown combine");
}

/// The part of pooled element `pe`'s window that the current pass computed
/// (depth `cx.od`, rows `cx.oh + r s_h`, r < rows), combined by the
/// window's rule (the identity where the pass holds none of it): the
/// pass's depth is one depth tap of every window of the block, so only the
/// window's row taps are tested (each pass row at most once) and its W taps
/// walked in bounds; each window element is read in exactly one pass.
Value passPartial(EmitContext &cx, const PooledElement &pe) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  const PooledEpilogue &pool = *cx.a.pool;
  const int64_t sh = g.stride[1], rows = cx.cfg.getRows();
  Value identity = cx.constant(pool.window.identity);
  // Taps of a window that starts inside the tensor stay inside where every
  // window is whole; ceil_mode windows may run past the end.
  auto wholeWindows = [&](int64_t i) {
    return (pool.out[i] - 1) * pool.s[i] + (pool.k[i] - 1) * pool.dil[i] <
           g.out[i];
  };
  Value depthIn = wholeWindows(0) ? Value() : b.ult(cx.od, g.out[0]);
  Value h0 = b.mul(pe.ph, pool.s[1]), w0 = b.mul(pe.pw, pool.s[2]);
  auto rowLoop = scf::ForOp::create(b, b.c(0), b.c(pool.k[1]), b.c(1),
                                    ValueRange{identity});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(rowLoop.getBody());
  Value acc = rowLoop.getRegionIterArgs()[0];
  Value h = b.add(h0, b.mul(rowLoop.getInductionVar(), pool.dil[1]));
  // Rows oh + r s_h, r < rows: rel = h - oh in [0, rows s_h) (an unsigned
  // compare also rejects negative ones) and a multiple of s_h.
  Value rel = b.sub(h, cx.oh);
  Value inPass = b.ult(rel, rows * sh);
  if (sh > 1)
    inPass = b.andI(inPass,
                    b.cmp(arith::CmpIPredicate::eq, b.remu(rel, sh), b.c(0)));
  if (!wholeWindows(1))
    inPass = b.andI(inPass, b.ult(h, g.out[1]));
  if (depthIn)
    inPass = b.andI(inPass, depthIn);
  auto ifIn = scf::IfOp::create(b, TypeRange{cx.elementType}, inPass, true);
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    Element el;
    el.ch = pe.ch;
    el.cl = pe.cl;
    el.oh = h;
    el.r = b.divu(rel, sh);
    auto wLoop = scf::ForOp::create(b, b.c(0), b.c(pool.k[2]), b.c(1),
                                    ValueRange{acc});
    {
      OpBuilder::InsertionGuard g3(b);
      b.setInsertionPointToStart(wLoop.getBody());
      Value wAcc = wLoop.getRegionIterArgs()[0];
      el.ow = b.add(w0, b.mul(wLoop.getInductionVar(), pool.dil[2]));
      el.wl = b.sub(el.ow, cx.ow0);
      auto value = [&]() {
        DenseMap<Value, Value> memo;
        return combine(cx, wAcc,
                       emitElementValue(cx, pool.op->getOperand(0), el, memo));
      };
      Value next;
      if (wholeWindows(2)) {
        next = value();
      } else {
        auto ifW = scf::IfOp::create(b, TypeRange{cx.elementType},
                                     b.ult(el.ow, g.out[2]), true);
        b.setInsertionPointToStart(&ifW.getThenRegion().front());
        scf::YieldOp::create(b, value());
        b.setInsertionPointToStart(&ifW.getElseRegion().front());
        scf::YieldOp::create(b, wAcc);
        b.setInsertionPointAfter(ifW);
        next = ifW.getResult(0);
      }
      scf::YieldOp::create(b, next);
    }
    scf::YieldOp::create(b, wLoop.getResult(0));
    b.setInsertionPointToStart(&ifIn.getElseRegion().front());
    scf::YieldOp::create(b, acc);
  }
  scf::YieldOp::create(b, ifIn.getResult(0));
  b.setInsertionPointAfter(rowLoop);
  return rowLoop.getResult(0);
}

/// Pooling-operand element `at` (full-rank coordinates, in bounds) read
/// from the kept tile of the pass that computed it.
Value keptElement(EmitContext &cx, ValueRange at) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  const PooledEpilogue &pool = *cx.a.pool;
  const PooledEpilogue::Passes &ps = cx.launch.pooled;
  const int64_t rank = g.rank, sh = g.stride[1], rows = cx.cfg.getRows();
  Element el = windowOperandElement(cx, at);
  el.od = rank == 5 ? at[rank - 3] : b.c(0);
  // Window positions lie at or after the block's first window, so the
  // offsets are non-negative.
  Value tD = b.divu(b.sub(el.od, b.mul(cx.pd, pool.s[0])), pool.dil[0]);
  Value relH = b.sub(el.oh, b.mul(cx.ph0, pool.s[1]));
  Value group = b.divu(relH, rows * sh);
  el.r = b.divu(b.remu(relH, rows * sh), sh);
  Value pass =
      b.add(b.mul(b.add(b.mul(tD, ps.hGroups), group), sh), b.remu(relH, sh));
  el.tileOffset = b.mul(pass, cx.smemPlan.tileElems);
  DenseMap<Value, Value> memo;
  return emitElementValue(cx, pool.op->getOperand(0), el, memo);
}

/// Pooled element `pe` as an element of the kernel's result (the ops after
/// the pool read it at these coordinates).
Element resultElement(EmitContext &cx, const PooledElement &pe) {
  Element el;
  el.ch = pe.ch;
  el.cl = pe.cl;
  el.od = cx.pd;
  el.oh = pe.ph;
  el.ow = pe.pw;
  return el;
}

/// Writes the partial statistics records (`EpilogueStatsLayout`: moments,
/// max or min) of the kernel's result over the block's pooled elements,
/// every value evaluated from its pooled value (`pooledValue`, after the
/// last pass) through the ops after the pool. As in
/// emitEpilogueStatistics, teams of `partsPerBlock` warps take the groups
/// the block's channels meet in turn; a team's warps take a group's
/// elements (valid pooled rows x its channels x the pooled row, positions
/// fastest) 32 at a time, part, part + parts, ...; each folds its elements
/// with shuffles and lane 0 writes the record. Moments are sums of d = v -
/// shift and d^2, the shift being the group's first element in the block.
void emitPooledStatistics(
    EmitContext &cx, function_ref<Value(const PooledElement &)> pooledValue) {
  EmitBuilder &b = cx.b;
  const EpilogueStatsLayout &l = *cx.stats;
  const PooledEpilogue &pool = *cx.a.pool;
  const ConvGeometry &g = cx.g;
  Value poolResult = pool.op->getResult(0);
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  const int64_t warps = cx.launch.threads / 32, parts = l.partsPerBlock;
  const int64_t teams = warps / parts, cpg = l.channelsPerGroup;
  const int64_t width = pool.out[2];
  Value lane = b.remu(cx.tid, 32), warp = b.divu(cx.tid, 32);
  Value team = b.divu(warp, parts), part = b.remu(warp, parts);
  auto minU = [&](Value x, Value y) -> Value {
    return arith::MinUIOp::create(b, x, y);
  };
  Value rowsValid = minU(b.c(cx.launch.pooled.pooledRows),
                         b.sub(b.c(pool.out[1]), cx.ph0));
  Value cEnd = minU(b.add(cx.co0, cx.cfg.getTileC()), b.c(g.cout));
  Value gFirst = b.divu(cx.co0, cpg);
  Value gEnd = b.add(b.divu(b.sub(cEnd, b.c(1)), cpg), 1);
  Value spatial = emitStatsSpatialBlock(cx, cx.pd);
  auto addF = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, x, y);
  };
  const bool isMin = l.kind == StatsKind::Min;
  auto extreme = [&](Value x, Value y) -> Value {
    return isMin ? arith::MinimumFOp::create(b, x, y).getResult()
                 : arith::MaximumFOp::create(b, x, y).getResult();
  };

  auto groups = scf::ForOp::create(b, b.add(gFirst, team), gEnd, b.c(teams));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(groups.getBody());
  Value grp = groups.getInductionVar();
  // The group's channels in the tile, [cA, cA + nc) tile-relative.
  Value cA = b.sub(arith::MaxUIOp::create(b, cx.co0, b.mul(grp, cpg)), cx.co0);
  Value nc = b.sub(b.sub(minU(cEnd, b.mul(b.add(grp, 1), cpg)), cx.co0), cA);
  // The final value of the group's element i (positions fastest, then
  // channels, then pooled rows); a group of one channel (a reduction over
  // the spatial dims) divides by constants only.
  auto valueAt = [&](Value i) {
    Value line = b.divu(i, width);
    PooledElement pe =
        cpg == 1 ? pooledElement(cx, cA, line, b.remu(i, width))
                 : pooledElement(
                       cx, b.add(cA, arith::RemUIOp::create(b, line, nc)),
                       arith::DivUIOp::create(b, line, nc), b.remu(i, width));
    DenseMap<Value, Value> memo;
    memo[poolResult] = pooledValue(pe);
    return emitElementValue(cx, result, resultElement(cx, pe), memo);
  };
  const bool moments = l.kind == StatsKind::Moments;
  Value shift = moments ? valueAt(b.c(0)) : Value();
  Value zero = cx.constant(0.0);
  Value noExtreme = cx.constant(isMin ? INFINITY : -INFINITY);
  SmallVector<Value> init =
      moments ? SmallVector<Value>{zero, zero, zero} : SmallVector<Value>{
                                                           noExtreme};
  Value total = b.mul(b.mul(nc, rowsValid), width);
  auto loop = scf::ForOp::create(b, b.add(b.mul(part, 32), lane), total,
                                 b.c(parts * 32), init);
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> acc(loop.getRegionIterArgs());
    Value v = valueAt(loop.getInductionVar());
    if (moments) {
      // count, sum of d, sum of d^2.
      Value d = arith::SubFOp::create(b, v, shift);
      acc = {addF(acc[0], cx.constant(1.0)), addF(acc[1], d),
             math::FmaOp::create(b, d, d, acc[2])};
    } else {
      acc[0] = extreme(acc[0], v); // NaN propagates.
    }
    scf::YieldOp::create(b, acc);
  }
  SmallVector<Value, 4> fields;
  if (moments) {
    Value count = emitWarpAllReduce(b, loop.getResult(0), 32, addF);
    Value s1 = emitWarpAllReduce(b, loop.getResult(1), 32, addF);
    Value s2 = emitWarpAllReduce(b, loop.getResult(2), 32, addF);
    Value nonEmpty =
        arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, count, zero);
    Value delta = arith::SelectOp::create(
        b, nonEmpty, arith::DivFOp::create(b, s1, count), zero);
    // M2 = S2 - S1^2 / n (emitEpilogueStatistics: the shift is an element
    // of the set, so only (1 + ((mean - shift) / std)^2) ulps are lost).
    Value m2 = arith::MaximumFOp::create(
        b, arith::SubFOp::create(b, s2, arith::MulFOp::create(b, s1, delta)),
        zero);
    fields = {count, shift, delta, m2};
  } else {
    fields = {emitWarpAllReduce(b, loop.getResult(0), 32, extreme)};
  }

  emitStatsRecordStore(cx, grp, spatial, part, lane, fields);
}

} // namespace

/// The ops after the pool on every pooled element of the block (whose
/// pooled value `pooledValue` gives) and the stores to global memory; with
/// a reduction over the channels after the pool (`a.channelWindow`, the
/// block holding all channels), one result per pooled position: the
/// reduction's `buildAt` over the channels' pooled values (through the
/// elementwise ops between), then the ops after it.
static void
emitPooledStores(EmitContext &cx,
                 function_ref<Value(const PooledElement &)> pooledValue) {
  EmitBuilder &b = cx.b;
  const PooledEpilogue &pool = *cx.a.pool;
  Value poolResult = pool.op->getResult(0);
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  auto elementOf = [&](const PooledElement &pe) {
    return resultElement(cx, pe);
  };
  WindowOpInterface channels = cx.a.channelWindow;
  if (!channels) {
    // The pooled values read for the records are the same whether or not
    // they are also stored (the accumulators and kept tiles are final).
    if (!cx.statsOnly) {
      Value out = cx.func.getArguments().back();
      forEachPooledElement(cx, [&](const PooledElement &pe) {
        DenseMap<Value, Value> memo;
        memo[poolResult] = pooledValue(pe);
        memref::StoreOp::create(
            b,
            narrowForStore(b, out,
                           emitElementValue(cx, result, elementOf(pe), memo)),
            out, pe.coords);
      });
    }
    if (cx.stats)
      emitPooledStatistics(cx, pooledValue);
    return;
  }
  Value out = cx.func.getArguments().back();
  const int64_t width = pool.out[2];
  const int64_t total = cx.launch.pooled.pooledRows * width;
  const bool keepdim =
      cast<RankedTensorType>(channels->getResult(0).getType()).getRank() ==
      cx.g.rank;
  auto loop = scf::ForOp::create(b, cx.tid, b.c(total), b.c(cx.launch.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value phl = b.divu(e, width), pwl = b.remu(e, width);
  PooledElement at0 = pooledElement(cx, b.c(0), phl, pwl);
  auto ifValid = scf::IfOp::create(b, TypeRange{}, b.ult(at0.ph, pool.out[1]),
                                   false);
  b.setInsertionPointToStart(&ifValid.getThenRegion().front());
  SmallVector<Value> coords(at0.coords);
  if (!keepdim)
    coords.erase(coords.begin() + 1);
  Value reduced = channels.buildAt(
      b, b.getLoc(), coords,
      [&](OpBuilder &, Location, ValueRange at) {
        // `at` differs from this position in its channel only (the block's
        // first channel is 0: it holds all of them).
        PooledElement pe = pooledElement(cx, at[1], phl, pwl);
        DenseMap<Value, Value> memo;
        memo[poolResult] = pooledValue(pe);
        return emitElementValue(cx, channels->getOperand(0), elementOf(pe),
                                memo);
      },
      /*lanes=*/nullptr);
  DenseMap<Value, Value> memo;
  memo[channels->getResult(0)] = reduced;
  memref::StoreOp::create(b, emitElementValue(cx, result, elementOf(at0), memo),
                          out, coords);
}

void emit::emitPooledKernel(EmitContext &cx, function_ref<void()> mainLoop) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  const PooledEpilogue &pool = *cx.a.pool;
  const PooledEpilogue::Passes &ps = cx.launch.pooled;
  const int64_t sh = g.stride[1], rows = cx.cfg.getRows();
  const bool kept = cx.smemPlan.poolSlots > 0;
  WindowOpInterface window = pool.op;
  {
    auto loop = scf::ForOp::create(b, b.c(0), b.c(ps.count), b.c(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value p = loop.getInductionVar();
    Value tD = b.divu(p, ps.hPasses), rem = b.remu(p, ps.hPasses);
    Value group = b.divu(rem, sh), phase = b.remu(rem, sh);
    // Passes past the convolution's end (windows clipped by ceil_mode) still
    // run: their taps are cut to the input, and no window reads them.
    cx.od = b.add(b.mul(cx.pd, pool.s[0]), b.mul(tD, pool.dil[0]));
    cx.oh =
        b.add(b.add(b.mul(cx.ph0, pool.s[1]), b.mul(group, rows * sh)), phase);
    if (kept)
      cx.tileBase = b.mul(p, cx.smemPlan.tileElems);
    mainLoop(); // Ends with a barrier: the pass's tile is complete.
    cx.tileBase = Value();
    if (!kept) {
      Value first = b.cmp(arith::CmpIPredicate::eq, p, b.c(0));
      forEachPooledElement(cx, [&](const PooledElement &pe) {
        Value partial = passPartial(cx, pe);
        // The first pass starts the accumulator (nothing is read before it
        // is written).
        auto ifFirst =
            scf::IfOp::create(b, TypeRange{cx.elementType}, first, true);
        {
          OpBuilder::InsertionGuard g2(b);
          b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
          scf::YieldOp::create(b, partial);
          b.setInsertionPointToStart(&ifFirst.getElseRegion().front());
          scf::YieldOp::create(b, combine(cx, cx.sload(pe.acc), partial));
        }
        cx.sstore(ifFirst.getResult(0), pe.acc);
      });
      // The next pass stages into the tile's shared memory.
      gpu::BarrierOp::create(b);
    }
    cx.od = cx.oh = Value();
  }
  if (kept) {
    emitPooledStores(cx, [&](const PooledElement &pe) {
      return window.buildAt(
          b, b.getLoc(), pe.coords,
          [&](OpBuilder &, Location, ValueRange at) {
            return keptElement(cx, at);
          },
          /*lanes=*/nullptr);
    });
    return;
  }
  // The accumulators hold each window's elements combined: the op finishes
  // them (an average's divisor).
  emitPooledStores(cx, [&](const PooledElement &pe) {
    return window.buildWindowFinish(b, b.getLoc(), pe.coords,
                                    cx.sload(pe.acc));
  });
}

void emit::emitChannelWindowEpilogue(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  WindowOpInterface window = cx.a.channelWindow;
  Value windowInput = window->getOperand(0);
  auto resultTy = cast<RankedTensorType>(window->getResult(0).getType());
  const bool keepdim = resultTy.getRank() == g.rank;
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  Value out = cx.func.getArguments().back();
  // One result per (row, position) of the tile, positions fastest.
  const int64_t width = cx.tileLineWidth();
  const int64_t total = cx.cfg.getRows() * width;
  auto loop = scf::ForOp::create(b, cx.tid, b.c(total), b.c(cx.launch.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Element el;
  el.r = b.divu(e, width);
  el.wl = b.remu(e, width);
  el.oh = cx.rowHeight(el.r);
  el.ow = b.add(cx.ow0, el.wl);
  Value valid = b.andI(b.ult(el.oh, g.out[1]), b.ult(el.ow, g.out[2]));
  auto ifValid = scf::IfOp::create(b, TypeRange{}, valid, false);
  b.setInsertionPointToStart(&ifValid.getThenRegion().front());
  el.ch = b.c(0);
  el.cl = b.c(0);
  SmallVector<Value> coords = cx.fullIndex(cx.n, el.ch, cx.od, el.oh, el.ow);
  if (!keepdim)
    coords.erase(coords.begin() + 1);
  Value reduced = window.buildAt(
      b, b.getLoc(), coords,
      [&](OpBuilder &, Location, ValueRange at) {
        // `at` differs from this position in its channel only.
        Element in = el;
        in.ch = at[1];
        in.cl = b.sub(in.ch, cx.co0);
        DenseMap<Value, Value> memo;
        return emitElementValue(cx, windowInput, in, memo);
      },
      /*lanes=*/nullptr);
  DenseMap<Value, Value> memo;
  memo[window->getResult(0)] = reduced;
  memref::StoreOp::create(b, emitElementValue(cx, result, el, memo), out,
                          coords);
}
