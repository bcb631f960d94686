//===- ContractionEpilogue.cpp - a 1x1 convolution in the epilogue --------===//
//
// A channel contraction (`KernelAnalysis::contraction`, the rule is
// `isChannelContraction`: a 1x1 convolution of few output channels J, stride
// 1, no padding, one group) applied by the convolution kernel that produces
// its input: the block holds all C channels of its positions in output tile
// 0, so after the main loop every position's J outputs
//
//   out[j] = bias[j] + sum_c v[c] W[j, c]
//
// are built from the tile, `v` the epilogue's value before the contraction
// (the elementwise ops evaluated per element from the tile), on the FMA
// units with f32 accumulation, `v` and `W` rounded as the kernel's own
// convolution rounds its operands (TF32, a half type, or not at all: the
// fused 1x1 convolution computes what it computed in a kernel of its own,
// up to the order of its sums). The C-channel tensor never reaches device memory (a heatmap
// head's ConvTranspose + BatchNorm + ReLU and its final 1x1 conv: 17 of 256
// channels written).
//
// Work: `lanes` consecutive threads share a position (a power of two, as
// many as the block's threads allow, at most a warp), each summing the
// channels c = part, part + lanes, ... into J accumulators in registers;
// an XOR-shuffle all-reduce combines the lanes' sums, and lane `j mod
// lanes` stores output channel j (rounded to a half result's type where the
// kernel stores one). The weights are read from global memory
// by uniform loads (one address per warp and channel, served by the L1),
// widened where the graph stores them in half (an operand cast).
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "NarrowStore.h"
#include "WarpReduce.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// `v` rounded as the kernel's convolution rounds its operands: to TF32 on
/// the tf32 tensor cores, to the half operand type on the half ones, not
/// at all on the FMA units and with split operands (tf32x3). The 1x1
/// convolution then computes what it computed in a kernel of its own
/// (PyTorch's tf32 mode; a half graph's intermediate as PyTorch stores it),
/// up to the order of its sums.
static Value roundLikeConvolution(EmitContext &cx, Value v) {
  Type operand = cx.cfg.getTypes().getOperand();
  if (!cx.cfg.usesTensorCores() || cx.cfg.usesSplitTF32())
    return v;
  if (isa<BFloat16Type, Float16Type>(operand)) {
    Value half = arith::TruncFOp::create(cx.b, operand, v);
    return arith::ExtFOp::create(cx.b, cx.b.getF32Type(), half);
  }
  return emitRoundOperand(cx, v);
}

void emit::emitChannelContractionEpilogue(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  ConvTransposeOp contraction = cx.a.contraction;
  const int64_t channels = g.cout;
  const int64_t outChannels =
      contraction.getResult().getType().getDimSize(1);
  Value input = contraction.getInput();
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  Value out = cx.func.getArguments().back();
  Value weights = cx.memOf.lookup(contraction.getWeight());
  Value bias =
      contraction.getBias() ? cx.memOf.lookup(contraction.getBias()) : Value();
  const bool forward = contraction.getForwardWeight();

  // Positions of the tile (rows x line width, positions fastest), each
  // taken by `lanes` consecutive threads of one warp.
  const int64_t width = cx.tileLineWidth();
  const int64_t positions = cx.cfg.getRows() * width;
  const int64_t threads = cx.launch.threads;
  int64_t lanes = 1;
  if (threads % cx.a.target.warpSize() == 0)
    while (2 * lanes <= cx.a.target.warpSize() && 2 * lanes <= channels &&
           positions * 2 * lanes <= threads)
      lanes *= 2;
  // Whole warps run every iteration (the shuffles take all lanes): the
  // slots past the last position compute a clamped position and store
  // nothing.
  const int64_t slots =
      lanes == 1 ? positions
                 : llvm::alignTo(positions * lanes, cx.a.target.warpSize());

  auto loop = scf::ForOp::create(b, cx.tid, b.c(slots), b.c(threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value slot = b.divu(e, lanes);
  Value part = lanes == 1 ? b.c(0) : b.remu(e, lanes);
  Value pos = arith::MinUIOp::create(b, slot, b.c(positions - 1));
  Element el;
  el.r = b.divu(pos, width);
  el.wl = b.remu(pos, width);
  el.oh = cx.rowHeight(el.r);
  el.ow = b.add(cx.ow0, el.wl);
  Value valid =
      b.andI(b.ult(slot, positions),
             b.andI(b.ult(el.oh, g.out[1]), b.ult(el.ow, g.out[2])));

  // sum_c v[c] W[j, c] over this lane's channels, at valid positions only:
  // a position past the output's edge (a partial last block, a clamped
  // slot) has no element to read in the epilogue's other operands, and
  // contributes zeros to the shuffles (graph-fuzzer, session 34: an added
  // tensor was read one row past its end).
  SmallVector<Value> zeros(outChannels, b.f(0.0));
  auto ifValid = scf::IfOp::create(
      b, TypeRange(SmallVector<Type>(outChannels, b.getF32Type())), valid,
      /*withElse=*/true);
  OpBuilder::InsertionGuard validGuard(b);
  b.setInsertionPointToStart(&ifValid.getElseRegion().front());
  scf::YieldOp::create(b, zeros);
  b.setInsertionPointToStart(&ifValid.getThenRegion().front());
  auto cLoop = scf::ForOp::create(b, part, b.c(channels), b.c(lanes), zeros);
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(cLoop.getBody());
    Value c = cLoop.getInductionVar();
    Element in = el;
    in.ch = c;
    in.cl = b.sub(c, cx.co0);
    DenseMap<Value, Value> memo;
    Value v = roundLikeConvolution(cx, emitElementValue(cx, input, in, memo));
    SmallVector<Value> next;
    for (int64_t j = 0; j < outChannels; ++j) {
      // Forward weights are [J, C, 1...], transposed ones [C, J, 1...].
      SmallVector<Value> idx(g.rank, b.c(0));
      idx[0] = forward ? b.c(j) : c;
      idx[1] = forward ? c : b.c(j);
      Value w = roundLikeConvolution(cx, b.loadF32(weights, idx));
      Value acc = cLoop.getRegionIterArgs()[j];
      next.push_back(math::FmaOp::create(b, v, w, acc));
    }
    scf::YieldOp::create(b, next);
  }
  scf::YieldOp::create(b, cLoop.getResults());
  b.setInsertionPointAfter(ifValid);
  auto addF = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, x, y);
  };
  for (int64_t j = 0; j < outChannels; ++j) {
    Value sum = ifValid.getResult(j);
    if (lanes > 1)
      sum = emitWarpAllReduce(b, sum, lanes, addF);
    Value stores = valid;
    if (lanes > 1)
      stores = b.andI(stores, b.cmp(arith::CmpIPredicate::eq, part,
                                    b.c(j % lanes)));
    auto ifStore = scf::IfOp::create(b, TypeRange{}, stores, false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifStore.getThenRegion().front());
    if (bias)
      sum = arith::AddFOp::create(b, sum, b.loadF32(bias, {b.c(j)}));
    Element at = el;
    at.ch = b.c(j);
    at.cl = b.c(j);
    DenseMap<Value, Value> memo;
    memo[contraction.getResult()] = sum;
    // A half result (a half store, FormKernels' isHalfStoreCast) is
    // rounded by the cast's evaluation; the narrowing is then exact.
    memref::StoreOp::create(
        b, narrowForStore(b, out, emitElementValue(cx, result, at, memo)), out,
        cx.outputIndex(at.ch, cx.od, at.oh, at.ow));
  }
}
