//===- LineReduction.cpp - softmax / layer_norm line statistics -----------===//
//
// Each softmax, log_softmax or layer_norm of the epilogue materialises its
// input in a tile (the conv tile itself when nothing reads the conv
// afterwards), reduces the tile's lines (a column for a channel softmax,
// else a row) with warp shuffles into per-line statistics in shared
// memory, and its readers normalise on load. A channel softmax whose
// channels span a cluster combines the blocks' statistics
// (ClusterExchange.cpp). The statistics kind and the softmax form come
// from NormalizationOpInterface; only layer_norm's weight and bias are its
// own.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "WarpReduce.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

Value emit::emitExpShift(EmitBuilder &b, Value m) {
  return arith::SelectOp::create(
      b, arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, m, b.f(-INFINITY)),
      b.f(0.0), m);
}

void emit::emitLineReduction(EmitContext &cx, Operation *op, int64_t ordinal) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const LaunchPlan &launch = cx.launch;
  Value input = op->getOperand(0);
  const int64_t tile = cx.a.tileOf.lookup(op);
  const int64_t tileW = cfg.getTileW(), tileC = cfg.getTileC();
  // 1. Materialise the input in this reduction's tile. Each element is read
  // and written by one thread, so the tile may be the input's own.
  // (Nothing to do when the input is the convolution and this reduction
  // took over its tile: the tile already holds the input. A reduction's tile
  // holds unnormalised values, so its readers always go through here.)
  if (input.getDefiningOp() != cx.a.conv.getOperation() || tile != 0) {
    forEachTileElement(cx, [&](ArrayRef<Element> els, bool) {
      for (const Element &el : els) {
        DenseMap<Value, Value> memo;
        Value v = emitElementValue(cx, input, el, memo);
        cx.sstore(v, cx.tileAddr(tile, el.r, el.cl, el.wl));
      }
    });
    gpu::BarrierOp::create(b);
  }

  // 2. Statistics of each line: a column (channel softmax) or a row, per
  // block row.
  auto norm = cast<NormalizationOpInterface>(op);
  const bool maxSumExp = norm.getStatisticsKind() == StatsKind::MaxSumExp;
  const bool logForm = maxSumExp && norm.getSoftmaxForm() == SoftmaxForm::Log;
  const bool alongChannels = tileReductionOf(norm) == TileReduction::Channels;
  int64_t lineWidth = alongChannels ? tileW : tileC;
  int64_t numLines = cfg.getRows() * lineWidth;
  const bool clustered = alongChannels && cfg.getClusterC() > 1;
  // In a cluster a block reduces its own channels (the last block's may be
  // fewer than tileC).
  Value lineLen = clustered ? Value(arith::MinSIOp::create(
                                  b, b.sub(b.c(g.cout), cx.co0), b.c(tileC)))
                            : b.c(alongChannels ? g.cout : g.out[2]);
  int64_t statsA = cx.statsArray(ordinal, 0),
          statsB = cx.statsArray(ordinal, 1);
  // Every block of the cluster has started (arrived) before this block
  // stores into their shared memory.
  if (clustered)
    emitClusterStartWait(cx);
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
    auto loop = scf::ForOp::create(b, b.c(lo), b.c(hi), b.c(linesPerPass));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value line = b.add(loop.getInductionVar(), b.divu(cx.tid, perLine));
    Value part = b.remu(cx.tid, perLine);
    Value rr = b.divu(line, lineWidth), pos = b.remu(line, lineWidth);
    // Lines are valid if inside the tensor (and the block's line range).
    Value inside = alongChannels ? b.ult(b.add(cx.ow0, pos), g.out[2])
                                 : b.ult(b.add(cx.co0, pos), g.cout);
    Value lineValid =
        b.andI(b.andI(b.ult(cx.tid, linesPerPass * perLine), b.ult(line, hi)),
               b.andI(inside, b.ult(cx.rowHeight(rr), g.out[1])));
    Value len = arith::SelectOp::create(b, lineValid, lineLen, b.c(0));
    auto addrOf = [&](Value idx) {
      return alongChannels ? cx.tileAddr(tile, rr, idx, pos)
                           : cx.tileAddr(tile, rr, pos, idx);
    };
    // Reduces `init` over the line's elements with `elem`, then across the
    // `perLine` threads of the line with warp shuffles.
    auto reduceLine = [&](Value init,
                          function_ref<Value(Value, Value, Value)> elem,
                          function_ref<Value(Value, Value)> combine) {
      auto l = scf::ForOp::create(b, part, len, b.c(perLine), ValueRange{init});
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(l.getBody());
        Value addr = addrOf(l.getInductionVar());
        Value x = cx.sload(addr);
        scf::YieldOp::create(
            b, ValueRange{elem(l.getRegionIterArgs()[0], x, addr)});
      }
      return emitWarpAllReduce(b, l.getResult(0), perLine, combine);
    };
    auto addF = [&](Value x, Value y) -> Value {
      return arith::AddFOp::create(b, x, y);
    };
    Value statA, statB;
    if (maxSumExp) {
      auto maxF = [&](Value x, Value y) -> Value {
        return arith::MaximumFOp::create(b, x, y);
      };
      statA = reduceLine(
          b.f(-INFINITY),
          [&](Value acc, Value x, Value) { return maxF(acc, x); }, maxF);
      // The sum is taken about 0 where the line is -inf only, so that a
      // cluster block whose channels are all -inf contributes (-inf, 0)
      // rather than a NaN sum (a whole line of -inf values is still NaN:
      // its cluster max is -inf).
      Value about = emitExpShift(b, statA);
      // exp(x - max) is kept in the tile, the apply step only scales it;
      // the log form keeps x - max and subtracts log(sum). Fast math:
      // 2^(x log2(e) - max log2(e)), one FMA; the rounding of max log2(e)
      // scales the whole line alike and cancels in the normalisation
      // (Triton's and FlashAttention's form). (The log form's exp is
      // approximated with the kernel's others, FastMath.cpp.)
      Value negMaxLog2e =
          cx.math == EpilogueMath::Fast && !logForm
              ? arith::MulFOp::create(b, about, b.f(-llvm::numbers::log2e))
                    .getResult()
              : Value();
      statB = reduceLine(
          b.f(0.0),
          [&](Value acc, Value x, Value addr) -> Value {
            if (logForm) {
              Value d = arith::SubFOp::create(b, x, about);
              cx.sstore(d, addr);
              return addF(acc, math::ExpOp::create(b, d));
            }
            Value ex =
                negMaxLog2e
                    ? emitEx2ApproxFtz(
                          b, math::FmaOp::create(
                                 b, x, b.f(llvm::numbers::log2e), negMaxLog2e))
                    : math::ExpOp::create(b, arith::SubFOp::create(b, x, about))
                          .getResult();
            cx.sstore(ex, addr);
            return addF(acc, ex);
          },
          addF);
      // In a cluster the partial sum is kept: the blocks combine theirs
      // below.
      if (!clustered)
        statB = logForm ? math::LogOp::create(b, statB).getResult()
                        : arith::DivFOp::create(b, b.f(1.0), statB).getResult();
    } else {
      auto ln = cast<LayerNormOp>(op);
      Value invLen = b.f(1.0 / static_cast<double>(g.out[2]));
      // The mean as the line's first element plus the mean of the
      // differences from it: exact for a constant line (a row the
      // convolution's taps never reach holds its bias), which then
      // normalises to exactly 0 as in PyTorch's Welford form, where
      // sum * (1 / n) would leave an ulp that rsqrt(eps) amplifies 316
      // times; and the sum of small differences rounds less.
      auto firstIf = scf::IfOp::create(b, TypeRange{b.getF32Type()}, lineValid,
                                       /*withElse=*/true);
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(&firstIf.getThenRegion().front());
        scf::YieldOp::create(b, ValueRange{cx.sload(addrOf(b.c(0)))});
        b.setInsertionPointToStart(&firstIf.getElseRegion().front());
        scf::YieldOp::create(b, ValueRange{b.f(0.0)});
      }
      Value first = firstIf.getResult(0);
      Value sum = reduceLine(
          b.f(0.0),
          [&](Value acc, Value x, Value) {
            return addF(acc, arith::SubFOp::create(b, x, first));
          },
          addF);
      statA = arith::AddFOp::create(b, first,
                                    arith::MulFOp::create(b, sum, invLen));
      Value sq = reduceLine(
          b.f(0.0),
          [&](Value acc, Value x, Value) -> Value {
            Value d = arith::SubFOp::create(b, x, statA);
            return math::FmaOp::create(b, d, d, acc);
          },
          addF);
      Value var = arith::MulFOp::create(b, sq, invLen);
      statB = math::RsqrtOp::create(
          b, arith::AddFOp::create(b, var,
                                   b.f(ln.getEpsilon().convertToDouble())));
    }
    Value writer =
        b.andI(lineValid, b.cmp(arith::CmpIPredicate::eq, part, b.c(0)));
    auto ifOp = scf::IfOp::create(b, TypeRange{}, writer, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    if (clustered) {
      // Pushed to every block of the cluster (this one included): slot
      // `rank` of their max and sum arrays. Remote stores need no reply, and
      // after the cluster barrier every block reads only its own memory.
      const int64_t blocks = cfg.getClusterC();
      Value slot = b.mul(cx.clusterRank, smemPlan.statsLen);
      for (int64_t j = 0; j < blocks; ++j) {
        emitStoreClusterShared(
            cx, statA, b.add(b.add(line, slot), cx.statsArray(ordinal, 0)), j);
        emitStoreClusterShared(
            cx, statB, b.add(b.add(line, slot), cx.statsArray(ordinal, blocks)),
            j);
      }
    } else {
      cx.sstore(statA, b.add(line, statsA));
      cx.sstore(statB, b.add(line, statsB));
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
    emitCombineClusterStatistics(cx, ordinal, numLines, lineWidth);
  gpu::BarrierOp::create(b);

  // 3. Nothing more here: readers normalise on load (`emitNormalizedValue`),
  // which saves a pass over the tile and a barrier.
}

Value emit::emitNormalizedValue(EmitContext &cx, Operation *op,
                                const Element &el) {
  EmitBuilder &b = cx.b;
  TileConfigAttr cfg = cx.cfg;
  int64_t ordinal = llvm::find(cx.a.reductions, op) - cx.a.reductions.begin();
  auto norm = cast<NormalizationOpInterface>(op);
  const bool alongChannels = tileReductionOf(norm) == TileReduction::Channels;
  int64_t lineWidth = alongChannels ? cfg.getTileW() : cfg.getTileC();
  int64_t statsA = cx.statsArray(ordinal, 0),
          statsB = cx.statsArray(ordinal, 1);
  Value x = cx.sload(cx.tileAddr(cx.a.tileOf.lookup(op), el.r, el.cl, el.wl));
  Value line = b.add(b.mul(el.r, lineWidth), alongChannels ? el.wl : el.cl);
  // The tile holds exp(x - max); the factor is 1 / sum, or in a cluster
  // exp(max - cluster max) / cluster sum. The log form's tile holds
  // x - max, less log(sum), or in a cluster (cluster max - max) +
  // log(cluster sum).
  if (norm.getStatisticsKind() == StatsKind::MaxSumExp) {
    Value factor =
        cx.sload(b.add(line, alongChannels && cfg.getClusterC() > 1
                                 ? cx.statsArray(ordinal, 2 * cfg.getClusterC())
                                 : statsB));
    if (norm.getSoftmaxForm() == SoftmaxForm::Log)
      return arith::SubFOp::create(b, x, factor);
    return arith::MulFOp::create(b, x, factor);
  }
  Value sB = cx.sload(b.add(line, statsB));
  auto ln = cast<LayerNormOp>(op);
  Value y = arith::MulFOp::create(
      b, arith::SubFOp::create(b, x, cx.sload(b.add(line, statsA))), sB);
  if (Value w = ln.getWeight())
    y = arith::MulFOp::create(
        b, y, memref::LoadOp::create(b, cx.memOf.lookup(w), ValueRange{el.ow}));
  if (Value bias = ln.getBias())
    y = arith::AddFOp::create(
        b, y,
        memref::LoadOp::create(b, cx.memOf.lookup(bias), ValueRange{el.ow}));
  return y;
}
