//===- PooledEpilogue.cpp - pooling in a convolution kernel's epilogue ----===//
//
// A convolution kernel whose epilogue ends in a pooling op (`a.pool`,
// `PooledEpilogue`) has blocks over the pooled result: batch n, one pooled
// depth pd, `pooledRows` pooled rows from ph0, the whole pooled row along W
// and `tileC` channels. The block computes every convolution element its
// windows read, in passes of the ordinary main loop: pass p = (depth tap
// tD, row group gi, H stride phase j) computes depth od = pd sd + tD dild
// and the `rows` rows oh = ph0 sh_pool + gi rows s_h + j + r s_h of one
// stride phase (so the main loop's taps stay those of one phase), into
// output tile p. Those tiles do not alias the staging buffers, so no pass
// overwrites an earlier one's.
//
// After the passes every pooled element is built by the pooling op itself
// (`WindowOpInterface::buildAt`, which loops over the window in bounds and
// applies max / average / divisor rules), reading each window element from
// its pass's tile through the elementwise ops before the pool; the ops
// after the pool run on the pooled value, and the result goes to global
// memory, consecutive threads on consecutive pooled positions. The
// pre-pool tensor never reaches device memory.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// The pass loop: each pass's depth, first row and tile, then `mainLoop`.
static void emitPasses(EmitContext &cx, function_ref<void()> mainLoop) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  const PooledEpilogue &pool = *cx.a.pool;
  const PooledEpilogue::Passes &ps = cx.launch.pooled;
  const int64_t sh = g.stride[1], rows = cx.cfg.getRows();
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
  cx.tileBase = b.mul(p, cx.smemPlan.tileElems);
  mainLoop();
  cx.tileBase = Value();
  cx.od = cx.oh = Value();
}

/// The convolution coordinates (n, c, d, h, w of a 3-D-normalised operand
/// coordinate list `at` of rank `rank`) as a tile element of its pass.
static Element windowElement(EmitContext &cx, ValueRange at) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  const PooledEpilogue &pool = *cx.a.pool;
  const PooledEpilogue::Passes &ps = cx.launch.pooled;
  const int64_t rank = g.rank, sh = g.stride[1], rows = cx.cfg.getRows();
  Element el;
  el.ch = at[1];
  el.cl = b.sub(el.ch, cx.co0);
  el.od = rank == 5 ? at[rank - 3] : b.c(0);
  el.oh = rank >= 4 ? at[rank - 2] : b.c(0);
  el.ow = at[rank - 1];
  el.wl = b.sub(el.ow, cx.ow0);
  // Window positions lie at or after the block's first pooled window, so
  // the offsets are non-negative.
  Value tD = b.divu(b.sub(el.od, b.mul(cx.pd, pool.s[0])), pool.dil[0]);
  Value relH = b.sub(el.oh, b.mul(cx.ph0, pool.s[1]));
  Value group = b.divu(relH, rows * sh);
  el.r = b.divu(b.remu(relH, rows * sh), sh);
  Value pass =
      b.add(b.mul(b.add(b.mul(tD, ps.hGroups), group), sh), b.remu(relH, sh));
  el.tileOffset = b.mul(pass, cx.smemPlan.tileElems);
  return el;
}

void emit::emitPooledKernel(EmitContext &cx, function_ref<void()> mainLoop) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  const PooledEpilogue &pool = *cx.a.pool;
  const PooledEpilogue::Passes &ps = cx.launch.pooled;
  emitPasses(cx, mainLoop);

  Operation *poolOp = pool.op;
  Value poolInput = poolOp->getOperand(0);
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  Value out = cx.func.getArguments().back();
  const int64_t tileC = cx.cfg.getTileC(), width = pool.out[2];
  const int64_t total = ps.pooledRows * tileC * width;
  auto loop = scf::ForOp::create(b, cx.tid, b.c(total), b.c(cx.launch.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value pw = b.remu(e, width), line = b.divu(e, width);
  Value cl = b.remu(line, tileC), ph = b.add(cx.ph0, b.divu(line, tileC));
  Value ch = b.add(cx.co0, cl);
  Value pwGlobal = b.add(b.divu(cx.ow0, pool.s[2]), pw);
  Value valid = b.andI(b.ult(ch, g.cout), b.ult(ph, pool.out[1]));
  auto ifValid = scf::IfOp::create(b, TypeRange{}, valid, false);
  b.setInsertionPointToStart(&ifValid.getThenRegion().front());
  SmallVector<Value> coords = cx.fullIndex(cx.n, ch, cx.pd, ph, pwGlobal);
  auto window = cast<WindowOpInterface>(poolOp);
  Value pooled = window.buildAt(
      b, b.getLoc(), coords,
      [&](OpBuilder &, Location, ValueRange at) -> Value {
        DenseMap<Value, Value> memo;
        return emitElementValue(cx, poolInput, windowElement(cx, at), memo);
      },
      /*lanes=*/nullptr);
  DenseMap<Value, Value> memo;
  memo[poolOp->getResult(0)] = pooled;
  Element el;
  el.ch = ch;
  el.cl = cl;
  el.od = cx.pd;
  el.oh = ph;
  el.ow = pwGlobal;
  Value v = emitElementValue(cx, result, el, memo);
  memref::StoreOp::create(b, v, out, coords);
}
