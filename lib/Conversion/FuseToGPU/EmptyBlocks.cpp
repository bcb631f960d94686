//===- EmptyBlocks.cpp - blocks without a valid tap store constants -------===//
//
// A transposed convolution whose stride and dilation leave whole output
// rows or depths without a valid tap (kb1_77: k3 s2 d2, 3 of 4 (depth,
// row) pairs; kb1_81: k3 s5 d2, 2 of 5 rows) has blocks whose main loop
// runs no round: a block's rows share one H stride phase and its depth,
// so either all of them have taps or none. Such a block's accumulators are
// zero, and where the result is an elementwise function of the convolution
// and of values constant along W (`resultIsElementwiseInRegisters`, and
// no half input varying along W read through its operand cast), each of
// its lines holds one value: the epilogue of the conv bias. The block
// then skips the main loop and the output tile (no staging, no barrier,
// no tile walk) and stores each line's value straight to global memory:
// its 16-byte aligned middle as 16-byte vectors, all threads over (line,
// vector) pairs, and the up to 7 positions before and after it one by one.
// Half results whose tile walk is the chunk walk only (docs/perf.md 210:
// kb1_77 3% faster; kb1_81, whose long rows take the lane walk's pairs,
// 5% slower).
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "NarrowStore.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// Halves per vector store: 16 bytes.
static constexpr int64_t kVector = 8;

/// True if some residue of an output index modulo the stride of dim `dim`
/// has no valid tap (tap t is valid for residue r iff t x dilation = r
/// modulo the stride).
static bool hasEmptyPhase(const ConvGeometry &g, int64_t dim) {
  const int64_t s = g.stride[dim];
  for (int64_t r = 0; r < s; ++r) {
    bool any = false;
    for (int64_t t = 0; t < g.k[dim] && !any; ++t)
      any = (t * g.dil[dim]) % s == r;
    if (!any)
      return true;
  }
  return false;
}

/// True if an op after the convolution reads a half kernel input that
/// varies along W through its operand cast (a bf16 graph's residual add
/// reads the widened input). `resultIsElementwiseInRegisters` checks the
/// cast's result, not the kernel input, so it takes such a value for one
/// constant along W; a block without a valid tap, which evaluates its
/// result once per line, would store the input's first position along the
/// whole line (found in session 41, docs/reliability.md).
static bool readsWidenedInputVaryingAlongW(EmitContext &cx) {
  for (CastOp c : cx.a.operandCasts) {
    auto ty = cast<RankedTensorType>(c.getType());
    if (ty.getRank() == 0 || ty.getDimSize(ty.getRank() - 1) == 1)
      continue;
    for (Operation *user : c->getUsers())
      if (user != cx.a.conv.getOperation() &&
          cx.a.conv->isBeforeInBlock(user)) // not a prologue op
        return true;
  }
  return false;
}

bool emit::storesEmptyBlocksDirectly(EmitContext &cx) {
  // Measured (docs/perf.md 210, bf16 / f16): kb1_77 (the chunk walk of
  // rows of 65, ~800 PTX instructions a line) 3% faster; kb1_81 (the lane
  // walk's pairs, rows of 638: ~5 instructions a pair, cheaper than these
  // stores' index arithmetic a vector and their 2-byte edge stores) 5%
  // slower, so the lane walk keeps empty blocks.
  // (Not for blocks of several samples, whose rows' heights run on
  // through their samples: unmeasured there.)
  if (cx.statsOnly || cx.stats || cx.cfg.spansSamples() ||
      outElementBytes(cx.func.getArguments().back()) != 2 ||
      !resultIsElementwiseInRegisters(cx) ||
      readsWidenedInputVaryingAlongW(cx) || !usesHalfChunkWalk(cx))
    return false;
  // Rows (dim 1) and depths (dim 0 of 3-D outputs) of the block's phase.
  const ConvGeometry &g = cx.g;
  return (g.rank >= 4 && hasEmptyPhase(g, 1)) ||
         (g.rank == 5 && hasEmptyPhase(g, 0));
}

namespace {
/// A tile line of an empty block: its coordinates, whether it is inside
/// the tensor, its value, its positions inside the tensor, and the
/// positions before its first 16-byte boundary in global memory and up
/// to its last one.
struct ConstantLine {
  Element line;
  Value valid, value, len, head, bodyEnd;
};
} // namespace

/// Line `id` of an empty block's tile.
static ConstantLine constantLine(EmitContext &cx, Value id) {
  EmitBuilder &b = cx.b;
  ConstantLine l;
  l.line = cx.tileLine(id);
  l.line.wl = b.c(0);
  l.line.ow = cx.ow0;
  l.valid = cx.lineInside(l.line);
  l.len = cx.launch.numWTiles == 1
              ? b.c(cx.tileLineWidth())
              : arith::MinUIOp::create(b, b.sub(b.c(cx.g.out[2]), cx.ow0),
                                       b.c(cx.cfg.getTileW()))
                    .getResult();
  Value shift = b.remu(lineStart(cx, l.line), kVector);
  l.head = arith::MinUIOp::create(
      b, b.remu(b.sub(b.c(kVector), shift), kVector), l.len);
  l.bodyEnd =
      b.add(l.head, b.mul(b.divu(b.sub(l.len, l.head), kVector), kVector));
  return l;
}

/// The line's value: the kernel's result with the convolution at its bias.
static Value lineValue(EmitContext &cx, const Element &line) {
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  DenseMap<Value, Value> memo;
  memo[cx.a.conv.getResult()] = emitConvBias(cx, line.cl);
  return emitElementValue(cx, result, line, memo);
}

void emit::emitEmptyBlockStores(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  using arith::CmpIPredicate;
  Value out = cx.func.getArguments().back();
  const int64_t lines = cx.tileLines();
  const int64_t threads = cx.launch.threads;
  // The output index of position `wl` of `l`.
  auto index = [&](const ConstantLine &l, Value wl) {
    return cx.fullIndex(cx.n, l.line.ch, cx.od, l.line.oh, b.add(cx.ow0, wl));
  };
  // The middles: vector k of a line at head + 8 k, as many items a line as
  // its longest middle can hold.
  if (const int64_t per = cx.tileLineWidth() / kVector) {
    OpBuilder::InsertionGuard guard(b);
    auto loop = scf::ForOp::create(b, cx.tid, b.c(lines * per), b.c(threads));
    b.setInsertionPointToStart(loop.getBody());
    Value e = loop.getInductionVar();
    ConstantLine l = constantLine(cx, b.divu(e, per));
    Value wl = b.add(l.head, b.mul(b.remu(e, per), kVector));
    Value ok = b.andI(l.valid, b.cmp(CmpIPredicate::ult, wl, l.bodyEnd));
    auto ifOk = scf::IfOp::create(b, TypeRange{}, ok, false);
    b.setInsertionPointToStart(&ifOk.getThenRegion().front());
    SmallVector<Value, kVector> splat(kVector, lineValue(cx, l.line));
    Value v = vector::FromElementsOp::create(
        b, VectorType::get({kVector}, b.getF32Type()), splat);
    vector::StoreOp::create(b, narrowForStore(b, out, v), out, index(l, wl),
                            /*nontemporal=*/false,
                            llvm::MaybeAlign(2 * kVector));
  }
  // The edges: item k < 7 is position k of the head, item 7 + k position
  // k after the middle.
  const int64_t edge = 2 * (kVector - 1);
  OpBuilder::InsertionGuard guard(b);
  auto loop = scf::ForOp::create(b, cx.tid, b.c(lines * edge), b.c(threads));
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  ConstantLine l = constantLine(cx, b.divu(e, edge));
  Value k = b.remu(e, edge);
  Value inHead = b.ult(k, kVector - 1);
  Value wl = arith::SelectOp::create(
      b, inHead, k, b.add(l.bodyEnd, b.sub(k, b.c(kVector - 1))));
  Value ok = b.andI(
      l.valid,
      arith::SelectOp::create(b, inHead, b.cmp(CmpIPredicate::ult, k, l.head),
                              b.cmp(CmpIPredicate::ult, wl, l.len)));
  auto ifOk = scf::IfOp::create(b, TypeRange{}, ok, false);
  b.setInsertionPointToStart(&ifOk.getThenRegion().front());
  Value v = lineValue(cx, l.line);
  memref::StoreOp::create(b, narrowForStore(b, out, v), out, index(l, wl));
}
