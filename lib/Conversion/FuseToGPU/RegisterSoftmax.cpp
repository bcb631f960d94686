//===- RegisterSoftmax.cpp - a channel softmax on the wgmma accumulators --===//
//
// A wgmma kernel whose block holds every channel of its positions (one
// channel tile, no cluster) and whose epilogue is a channel softmax of the
// convolution followed by elementwise ops takes the softmax's statistics
// from the accumulators instead of three passes over a staged output tile
// (docs/perf.md 201). A position's channels are held by the two fragment
// halves of a lane, the 8 lanes of one `lane % 4` and the warps of the
// channel groups; so per position
//  1. the thread's max of its two channels, the warp's by XOR shuffles
//     over lanes 4, 8, 16 apart, lane group 0's store into a small exchange
//     (the staging buffers are free after the main loop), a barrier, and
//     the block's max as one vector load of the warps' maxima;
//  2. e = exp(x - max) per element (kept in registers), the warp's sum the
//     same way, a barrier;
//  3. one thread per position adds the warps' sums and stores 1 / sum, a
//     barrier; every thread scales its e by it and evaluates the rest of
//     the epilogue on the result before the store (`emitEpilogueRuns`).
// Statistics in f32 as the tile path's; the fast form of exp (tf32
// kernels) is the line reduction's, 2^(x log2(e) - max log2(e)).
//
// Off by default (`register-softmax`): correct (float64 PASS at full size)
// but 34-37% slower than the tile path on kb2_49 on the H200, most likely
// the unrolled epilogue's code size (docs/perf.md 201).
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

namespace {

/// Where the exchange lies in shared memory (from element 0: the staging
/// buffers, free after the main loop), in f32 elements.
struct Exchange {
  /// Positions per tile row (the tile's W, or the last position any lane
  /// holds past it, + 1), positions, and channel warps (16 channels each).
  int64_t width = 0, positions = 0, warps = 0;
  /// The warps' maxima and sums ([position][warp] each), 1 / sum
  /// ([position]).
  int64_t maxOffset = 0, sumOffset = 0, rcpOffset = 0, elems = 0;
};

Exchange exchangeOf(EmitContext &cx) {
  Exchange e;
  const int64_t sw = cx.g.stride[2];
  int64_t maxJ = 0;
  for (int64_t p = 0; p < sw; ++p)
    maxJ = std::max(maxJ, cx.wgmmaAccN(p) / 8);
  // A lane's last position: (2 x 3 + 8 (maxJ - 1)) x sw + 2 sw - 1.
  e.width = std::max(cx.cfg.getTileW(), (6 + 8 * (maxJ - 1)) * sw + 2 * sw);
  e.positions = cx.cfg.getRows() * e.width;
  e.warps = cx.cfg.getTileC() / 16;
  e.maxOffset = 0;
  e.sumOffset = e.positions * e.warps;
  e.rcpOffset = 2 * e.positions * e.warps;
  e.elems = e.rcpOffset + e.positions;
  return e;
}

} // namespace

Operation *emit::chooseRegisterSoftmax(EmitContext &cx) {
  KernelAnalysis &a = cx.a;
  TileConfigAttr cfg = cx.cfg;
  if (!cfg.usesWgmma() || a.pool || a.channelEpilogue() || a.channelWindow ||
      a.contraction || cx.stats || cx.statsOnly || cfg.getClusterC() > 1 ||
      a.reductions.size() != 1 || cx.smemPlan.rowsN)
    return nullptr;
  // Every channel of a position in the block, all of them real.
  if (cfg.getTileC() != cx.g.cout || cfg.getTileC() % 64 != 0 ||
      cx.smemPlan.wsChannels < cfg.getTileC())
    return nullptr;
  Operation *op = a.reductions.front();
  auto norm = dyn_cast<NormalizationOpInterface>(op);
  if (!norm || norm.getStatisticsKind() != StatsKind::MaxSumExp ||
      norm.getSoftmaxForm() != SoftmaxForm::Exp ||
      tileReductionOf(norm) != TileReduction::Channels ||
      op->getOperand(0) != a.conv.getResult() || !a.conv->hasOneUse())
    return nullptr;
  // Each lane's run one aligned vector (as `canEvaluateFromRegisters`).
  const int64_t run = 2 * cx.g.stride[2];
  if (run > 4 || cx.g.out[2] % run != 0 || cfg.getTileW() % run != 0 ||
      (run == 2 && !cfg.usesSplitTF32()))
    return nullptr;
  // The rest: elementwise ops of the softmax, constants and inputs constant
  // along W (read in the fragment's scattered pattern otherwise).
  llvm::SmallPtrSet<Operation *, 8> prologue(a.prologue.begin(),
                                             a.prologue.end());
  Block &body = cx.kernel.getBody().front();
  for (Operation &o : body) {
    if (&o == a.conv.getOperation() || &o == op || prologue.contains(&o) ||
        isa<YieldOp, arith::ConstantOp>(o) || a.isParam(&o) ||
        llvm::is_contained(a.operandCasts, dyn_cast<CastOp>(o)))
      continue;
    if (!isa<ElementwiseOpInterface>(o) ||
        !emit::readsOnlyValuesConstantAlongW(cx, o))
      return nullptr;
  }
  // The exchange fits the staging buffers.
  if (exchangeOf(cx).elems > cx.smemPlan.withoutTiles(cfg).totalElems)
    return nullptr;
  return op;
}

void emit::emitRegisterSoftmax(EmitContext &cx,
                               MutableArrayRef<EpilogueRun> runs,
                               Value channelWarp, Value laneGroup) {
  EmitBuilder &b = cx.b;
  const Exchange ex = exchangeOf(cx);
  const bool fast = cx.math == EpilogueMath::Fast;
  // Runs of half 0, then the same positions' runs of half 1.
  const size_t pairs = runs.size() / 2;
  assert(runs.size() == 2 * pairs && "runs come in fragment-half pairs");
  struct Slot {
    size_t q;
    int64_t k;
    Value pos;
  };
  SmallVector<Slot> slots;
  for (size_t q = 0; q < pairs; ++q)
    for (auto [k, v] : llvm::enumerate(runs[q].values))
      if (v)
        slots.push_back(
            {q, static_cast<int64_t>(k),
             b.add(b.mul(runs[q].line.r, ex.width), b.add(runs[q].wl0, k))});
  auto maxF = [&](Value x, Value y) -> Value {
    return arith::MaximumFOp::create(b, x, y);
  };
  auto addF = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, x, y);
  };
  // Over the 8 lanes of one `lane % 4` (the fragment rows lane / 4).
  auto acrossLanes = [&](Value v, function_ref<Value(Value, Value)> combine) {
    for (int64_t off = 16; off >= 4; off /= 2)
      v = combine(v, gpu::ShuffleOp::create(b, v, off, 32,
                                            gpu::ShuffleMode::XOR)
                         .getShuffleResult());
    return v;
  };
  // Lane group 0 of each warp stores the warp's partial of a position at
  // offset + position x warps + channel warp, right after its shuffles (one
  // predicated store: nothing kept live until a common store point).
  Value writer = b.cmp(arith::CmpIPredicate::eq, laneGroup, b.c(0));
  auto store = [&](const Slot &s, Value v, int64_t offset) {
    auto ifW = scf::IfOp::create(b, TypeRange{}, writer, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifW.getThenRegion().front());
    cx.sstore(v, b.add(b.add(b.mul(s.pos, ex.warps), channelWarp),
                       b.c(offset)));
  };
  auto loadWarps = [&](Value pos, int64_t offset,
                       function_ref<Value(Value, Value)> combine) {
    const int64_t vec = std::min<int64_t>(ex.warps, 4);
    Value acc;
    for (int64_t w = 0; w < ex.warps; w += vec) {
      Value v = vector::LoadOp::create(
          b, VectorType::get({vec}, b.getF32Type()), cx.smem,
          ValueRange{b.add(b.mul(pos, ex.warps), b.c(offset + w))}, false,
          llvm::MaybeAlign(4 * vec));
      for (int64_t i = 0; i < vec; ++i) {
        Value x = vector::ExtractOp::create(b, v, i);
        acc = acc ? combine(acc, x) : x;
      }
    }
    return acc;
  };

  // 1. The block's max of each position. (The staging buffers are read by
  // other warps' last round until the first barrier.)
  gpu::BarrierOp::create(b);
  for (const Slot &s : slots)
    store(s,
          acrossLanes(
              maxF(runs[s.q].values[s.k], runs[s.q + pairs].values[s.k]),
              maxF),
          ex.maxOffset);
  gpu::BarrierOp::create(b);
  // 2. exp(x - max) in place, and the sums.
  for (const Slot &s : slots) {
    // About 0 where the max is -inf (as the tile path's emitExpShift).
    Value about = emitExpShift(b, loadWarps(s.pos, ex.maxOffset, maxF));
    Value negMaxLog2e =
        fast ? arith::MulFOp::create(b, about, b.f(-llvm::numbers::log2e))
                   .getResult()
             : Value();
    Value sum;
    for (size_t q : {s.q, s.q + pairs}) {
      Value x = runs[q].values[s.k];
      Value e = fast ? emitEx2ApproxFtz(
                           b, math::FmaOp::create(
                                  b, x, b.f(llvm::numbers::log2e), negMaxLog2e))
                     : math::ExpOp::create(b, arith::SubFOp::create(b, x, about))
                           .getResult();
      runs[q].values[s.k] = e;
      sum = sum ? addF(sum, e) : e;
    }
    store(s, acrossLanes(sum, addF), ex.sumOffset);
  }
  gpu::BarrierOp::create(b);
  // 3. One thread per position: 1 / sum.
  {
    auto loop = scf::ForOp::create(b, cx.tid, b.c(ex.positions),
                                   b.c(cx.launch.threads));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value pos = loop.getInductionVar();
    Value sum = loadWarps(pos, ex.sumOffset, addF);
    cx.sstore(arith::DivFOp::create(b, b.f(1.0), sum),
              b.add(pos, ex.rcpOffset));
  }
  gpu::BarrierOp::create(b);
  for (const Slot &s : slots) {
    Value rcp = cx.sload(b.add(s.pos, ex.rcpOffset));
    for (size_t q : {s.q, s.q + pairs})
      runs[q].values[s.k] =
          arith::MulFOp::create(b, runs[q].values[s.k], rcp);
  }
}
