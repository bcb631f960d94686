//===- Epilogue.cpp - the walk over a block's output tile -----------------===//
//
// After the main loop the convolution's output tile (accumulators plus the
// conv bias) is in shared memory. The epilogue first runs the line
// reductions, then evaluates the kernel's result at every element of the
// tile (`emitElementValue`: elementwise ops per element straight from the
// tile, reductions normalised on load, kernel inputs broadcast) and stores
// it to global memory, consecutive threads on consecutive W positions
// (coalesced; 16-byte stores where rows are multiples of 4 long; a half
// result of other rows in 8-byte chunks aligned in global memory,
// `emitHalfChunks`). Where the plan asks for partial statistics of
// the result, a single-pass kind (moments, extremes) makes the statistics
// pass the walk itself
// (EpilogueStatistics.cpp); for (max, sum of exp) the final values go back
// to tile 0 for its two passes.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "NarrowStore.h"
#include "StandaloneKernels.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// Rows at least this many positions wide whose length is not a multiple
/// of 4 take the lane-per-position epilogue mapping (4 whole groups of 32
/// positions per line: 4 independent chains per thread). Measured on the
/// H100 (docs/perf.md section 52): 11% faster for 129-wide rows, 7% slower
/// for 65-wide ones (two groups), where the quad mapping stays.
static constexpr int64_t kLaneEpilogueWidth = 128;
/// Lines a warp of the lane walk takes per iteration: kb2_91 tf32 with 1,
/// 2, 4, 8 and 16 lines 1.450, 1.383, 1.33, 1.38, 1.40 ms (docs/perf.md
/// section 61): each line's chains are latency-bound, more lines overlap
/// them until the iteration's code and registers outgrow the gain.
static constexpr int64_t kLaneLinesPerIteration = 4;

Value emit::emitConvBias(EmitContext &cx, Value cl) {
  EmitBuilder &b = cx.b;
  if (!cx.a.conv.getBias())
    return b.f(0.0);
  Value ch = b.add(cx.co0, cl);
  return b.guardedLoad(b.ult(ch, cx.g.cout), cx.memOf[cx.a.conv.getBias()],
                       ValueRange{ch});
}

/// forEachTileElement for rows that are not multiples of 4 long (no
/// 16-byte stores) and at least kLaneEpilogueWidth wide: lanes on
/// consecutive positions of a line.
static void
forEachTileElementByLanes(EmitContext &cx,
                          function_ref<void(ArrayRef<Element>, bool)> body) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const LaunchPlan &launch = cx.launch;
  const int64_t lines = cx.tileLines();
  const int64_t warps = launch.threads / 32, width = cx.tileLineWidth();
  assert(width >= kLaneEpilogueWidth && "needs 4 groups of 32 positions");
  // Rows of even length whose tile lines are 8-byte aligned give each lane
  // a pair of consecutive positions: one `ld.shared.v2` and one
  // `st.global.v2` per pair, 64 positions per warp step (docs/perf.md 147).
  // Not with statistics, whose walk writes its values back one by one.
  const bool pairs =
      !cx.stats && g.out[2] % 2 == 0 && cfg.getTileW() % 2 == 0 &&
      cx.smemPlan.tileStride % 2 == 0 && cx.smemPlan.tileSkew % 2 == 0 &&
      cx.smemPlan.tilesOffset % 2 == 0 && !cx.tileBase && width >= 64;
  const int64_t span = pairs ? 64 : 32;
  const int64_t groups = width / span, rest = width - span * groups;
  Value lane = b.remu(cx.tid, 32), warp = b.divu(cx.tid, 32);
  auto at = [&](Element el, Value wl) {
    el.wl = wl;
    el.ow = b.add(cx.ow0, wl);
    return el;
  };
  auto guarded = [&](Value valid, const Element &el) {
    auto ifOne = scf::IfOp::create(b, TypeRange{}, valid, false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifOne.getThenRegion().front());
    body(ArrayRef<Element>(el), false);
  };
  // Whole groups of 32 positions: a warp takes a (row, channel) line, its
  // lanes consecutive positions (conflict-free tile reads, 128 contiguous
  // bytes per store), each thread one position per group (>= 4 independent
  // chains). kLaneLinesPerIteration lines per iteration where the lines
  // group up, so that their tile reads and parameter loads (a per-channel
  // bias) overlap; the remaining lines one per iteration.
  auto emitLines = [&](ArrayRef<Value> lineIds) {
    SmallVector<Element> els;
    Value full;
    SmallVector<Value> valid;
    for (Value id : lineIds) {
      Element line = cx.tileLine(id);
      Value lineValid = cx.lineInside(line);
      for (int64_t j = 0; j < groups; ++j) {
        if (pairs) {
          Value wl = b.add(b.mul(lane, 2), 64 * j);
          els.push_back(at(line, wl));
          els.push_back(at(line, b.add(wl, 1)));
        } else {
          els.push_back(at(line, b.add(lane, 32 * j)));
        }
        valid.push_back(b.andI(lineValid, b.ult(els.back().ow, g.out[2])));
        if (pairs)
          valid.insert(
              valid.end() - 1,
              b.andI(lineValid, b.ult(els[els.size() - 2].ow, g.out[2])));
      }
      full = full ? b.andI(full, valid.back()) : valid.back();
    }
    auto ifFull = scf::IfOp::create(b, TypeRange{}, full, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifFull.getThenRegion().front());
    body(els, pairs);
    b.setInsertionPointToStart(&ifFull.getElseRegion().front());
    for (auto [el, ok] : llvm::zip(els, valid))
      guarded(ok, el);
  };
  const int64_t per = kLaneLinesPerIteration;
  const int64_t grouped = lines / (per * warps) * (per * warps);
  if (grouped > 0) {
    OpBuilder::InsertionGuard guard(b);
    auto loop = scf::ForOp::create(b, b.c(0), b.c(grouped), b.c(per * warps));
    b.setInsertionPointToStart(loop.getBody());
    Value first = b.add(loop.getInductionVar(), warp);
    SmallVector<Value> ids;
    for (int64_t k = 0; k < per; ++k)
      ids.push_back(b.add(first, k * warps));
    emitLines(ids);
  }
  if (grouped < lines) {
    OpBuilder::InsertionGuard guard(b);
    auto loop =
        scf::ForOp::create(b, b.add(warp, grouped), b.c(lines), b.c(warps));
    b.setInsertionPointToStart(loop.getBody());
    emitLines({loop.getInductionVar()});
  }
  // The rest of each line, element by element over all threads.
  if (rest > 0) {
    OpBuilder::InsertionGuard guard(b);
    auto loop =
        scf::ForOp::create(b, cx.tid, b.c(lines * rest), b.c(launch.threads));
    b.setInsertionPointToStart(loop.getBody());
    Value e = loop.getInductionVar();
    Element el =
        at(cx.tileLine(b.divu(e, rest)), b.add(b.remu(e, rest), span * groups));
    guarded(b.andI(cx.lineInside(el), b.ult(el.ow, g.out[2])), el);
  }
}

/// True if the tile walk takes the lane-per-position mapping
/// (`forEachTileElementByLanes`).
static bool usesLaneWalk(const EmitContext &cx) {
  return cx.g.out[2] % 4 != 0 && cx.tileLineWidth() >= kLaneEpilogueWidth &&
         cx.launch.threads % 32 == 0;
}

void emit::forEachTileElement(
    EmitContext &cx, function_ref<void(ArrayRef<Element>, bool)> body) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const LaunchPlan &launch = cx.launch;
  if (usesLaneWalk(cx)) {
    forEachTileElementByLanes(cx, body);
    return;
  }
  const int64_t tileW = cfg.getTileW();
  const int64_t quads = llvm::divideCeil(tileW, 4);
  auto loop = scf::ForOp::create(b, cx.tid, b.c(cx.tileLines() * quads),
                                 b.c(launch.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value wl0 = b.mul(b.remu(e, quads), 4);
  Element first = cx.tileLine(b.divu(e, quads));
  Value lineValid = cx.lineInside(first);
  SmallVector<Element, 4> quad(4, first);
  for (int64_t i = 0; i < 4; ++i) {
    quad[i].wl = b.add(wl0, i);
    quad[i].ow = b.add(cx.ow0, quad[i].wl);
  }
  // A quad lies wholly inside or wholly outside the tile and the tensor
  // when both widths are multiples of 4; otherwise the last quad of a line
  // may be partial and its elements are guarded one by one.
  bool aligned = tileW % 4 == 0 && g.out[2] % 4 == 0;
  Value full = b.andI(lineValid, b.ult(quad[3].ow, g.out[2]));
  if (tileW % 4 != 0)
    full = b.andI(full, b.ult(quad[3].wl, tileW));
  auto ifFull = scf::IfOp::create(b, TypeRange{}, full,
                                  /*withElseRegion=*/!aligned);
  b.setInsertionPointToStart(&ifFull.getThenRegion().front());
  body(quad, false);
  if (aligned)
    return;
  b.setInsertionPointToStart(&ifFull.getElseRegion().front());
  for (const Element &el : quad) {
    Value valid =
        b.andI(b.andI(lineValid, b.ult(el.ow, g.out[2])), b.ult(el.wl, tileW));
    auto ifOne = scf::IfOp::create(b, TypeRange{}, valid, false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifOne.getThenRegion().front());
    body(ArrayRef<Element>(el), false);
  }
}

Value emit::emitElementValue(EmitContext &cx, Value v, const Element &el,
                             DenseMap<Value, Value> &memo) {
  EmitBuilder &b = cx.b;
  if (Value known = memo.lookup(v))
    return known;
  Value result;
  Operation *def = v.getDefiningOp();
  if (def == cx.a.conv.getOperation()) {
    Value addr = cx.tileAddr(0, el.r, el.cl, el.wl);
    result = cx.tileLoad(el.tileOffset ? b.add(addr, el.tileOffset) : addr);
  } else if (def && cx.a.tileOf.count(def)) {
    result = emitNormalizedValue(cx, def, el);
  } else if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def)) {
    auto dense = cast<DenseElementsAttr>(cst.getValue());
    result = b.f(dense.getSplatValue<APFloat>().convertToDouble());
  } else if (cx.a.isParam(def)) {
    // A parameter op (per-channel scale and shift from the kernel's
    // inputs): evaluated at the element's coordinates as the elementwise
    // kernels evaluate their chains, views through their index maps; the
    // loads are of read-only inputs, so the elements of one channel share
    // them after CSE.
    detail::StandaloneContext sc{b, cx.kernel, cx.func, cx.memOf,
                                 cx.elementType};
    SmallVector<Value> full =
        cx.outputIndex(el.ch, el.od ? el.od : cx.od, el.oh, el.ow);
    result = sc.evaluate(v, full, nullptr, memo);
  } else if (auto ew = dyn_cast_or_null<ElementwiseOpInterface>(def)) {
    SmallVector<Value> operands;
    for (Value o : def->getOperands())
      operands.push_back(emitElementValue(cx, o, el, memo));
    result = ew.buildScalar(b, b.getLoc(), operands);
  } else {
    // A kernel input read with broadcasting: dims are aligned at the right,
    // size-1 dims read index 0.
    auto ty = cast<RankedTensorType>(v.getType());
    SmallVector<Value> full =
        cx.outputIndex(el.ch, el.od ? el.od : cx.od, el.oh, el.ow);
    SmallVector<Value> idx;
    int64_t lead = cx.g.rank - ty.getRank();
    for (int64_t d = 0; d < ty.getRank(); ++d)
      idx.push_back(ty.getDimSize(d) == 1 ? b.c(0) : full[lead + d]);
    // A half input (an epilogue operand cast) is widened as it is loaded.
    result = b.loadF32(cx.memOf.lookup(v), idx);
  }
  memo[v] = result;
  return result;
}

int64_t emit::lineStartAlignment(const EmitContext &cx) {
  const int64_t w = cx.g.out[2], tileW = cx.cfg.getTileW();
  const bool oneTile = cx.launch.numWTiles == 1;
  for (int64_t a : {4, 2})
    if (w % a == 0 && (oneTile || tileW % a == 0))
      return a;
  return 1;
}

Value emit::lineStart(EmitContext &cx, const Element &line) {
  EmitBuilder &b = cx.b;
  auto outTy = cast<MemRefType>(cx.func.getArguments().back().getType());
  SmallVector<Value> idx = cx.outputIndex(line.ch, cx.od, line.oh, cx.ow0);
  Value linear = idx[0];
  for (size_t d = 1; d < idx.size(); ++d)
    linear = b.add(b.mul(linear, outTy.getDimSize(d)), idx[d]);
  return linear;
}

/// Positions of a half chunk: 4 consecutive positions of a tile line, the
/// first 4-element (8-byte) aligned in global memory.
static constexpr int64_t kHalfChunk = 4;
/// Chunks a thread takes per iteration of the half walk's first pass.
static constexpr int64_t kHalfChunksPerIteration = 3;

/// True if the result is stored by `emitHalfChunks`: 2-byte elements in
/// lines that do not all start 4-element aligned (rows of odd length or of
/// 2 mod 4) and that the quad walk would take (the lane walk of long rows
/// stores as many bytes per instruction at fewer instructions a
/// position), without statistics (their walk writes values back to the
/// tile) or pass tiles.
static bool usesHalfChunks(EmitContext &cx, Value out) {
  return out && !cx.stats && !cx.tileBase && outElementBytes(out) == 2 &&
         lineStartAlignment(cx) < kHalfChunk && !usesLaneWalk(cx);
}

bool emit::usesHalfChunkWalk(EmitContext &cx) {
  return !cx.statsOnly && usesHalfChunks(cx, cx.func.getArguments().back());
}

/// Tile elements per shared-memory load of a chunk's values: a chunk's
/// first position is as aligned in the tile as the line's start is in
/// global memory where the tile's line bases are (2: two 8-byte loads; 1:
/// element by element).
static int64_t chunkLoadWidth(EmitContext &cx) {
  const SharedMemoryPlan &p = cx.smemPlan;
  for (int64_t a : {kHalfChunk, int64_t{2}})
    if (lineStartAlignment(cx) % a == 0 && p.tileStride % a == 0 &&
        p.tileSkew % a == 0 && p.tilesOffset % a == 0 && !cx.tileBase)
      return a;
  return 1;
}

namespace {
/// A tile line of the half walk: its coordinates, whether it is inside the
/// tensor, its positions inside the tensor and the positions before its
/// first 4-element boundary in global memory.
struct HalfLine {
  Element line;
  Value valid, len, head;
};
} // namespace

/// Line `id` of the block's tile for the half walk.
static HalfLine halfLine(EmitContext &cx, Value id) {
  EmitBuilder &b = cx.b;
  const int64_t width = cx.tileLineWidth();
  HalfLine l;
  l.line = cx.tileLine(id);
  l.valid = cx.lineInside(l.line);
  l.len = cx.launch.numWTiles == 1
              ? b.c(width)
              : arith::MinSIOp::create(b, b.sub(b.c(cx.g.out[2]), cx.ow0),
                                       b.c(width))
                    .getResult();
  Value shift = b.remu(lineStart(cx, l.line), kHalfChunk);
  l.head = b.remu(b.sub(b.c(kHalfChunk), shift), kHalfChunk);
  return l;
}

/// Position `wl` of `l`'s line.
static Element halfElement(EmitContext &cx, const HalfLine &l, Value wl) {
  Element el = l.line;
  el.wl = wl;
  el.ow = cx.b.add(cx.ow0, wl);
  return el;
}

/// The walk of a half result whose lines start at any 2-byte alignment
/// (docs/perf.md 193), in two passes over (line, item) pairs, consecutive
/// threads on consecutive items of a line, no item partly outside its
/// line (a warp's lanes take one path). A line's positions after its
/// `head` (up to 3 before its first 4-element boundary in global memory)
/// come in `inner` chunks of 4, as many as every line has: each one
/// 8-byte store of 4 halves (converted in pairs; 256 contiguous bytes per
/// warp store), its tile values two 8-byte loads where the tile's lines
/// allow (`chunkLoadWidth`). The `rest` positions (the head and those past
/// the last chunk) follow one by one, as do the chunks past the end of a
/// shorter line of the row's last W tile.
static void emitHalfChunks(EmitContext &cx, Value result, Value out) {
  EmitBuilder &b = cx.b;
  const int64_t threads = cx.launch.threads;
  const int64_t width = cx.tileLineWidth();
  const int64_t lines = cx.tileLines();
  const int64_t maxHead = kHalfChunk - lineStartAlignment(cx);
  const int64_t inner =
      width > maxHead ? (width - maxHead) / kHalfChunk : int64_t{0};
  const int64_t rest = width - kHalfChunk * inner;
  auto evaluate = [&](const Element &el, Value conv) {
    DenseMap<Value, Value> memo;
    if (conv)
      memo[cx.a.conv->getResult(0)] = conv;
    return emitElementValue(cx, result, el, memo);
  };
  if (inner > 0) {
    // kHalfChunksPerIteration chunks per thread and iteration: every
    // chunk's tile values are loaded first (unconditionally, from a line of
    // the tile: items past the last are clamped to it), then each chunk is
    // evaluated and stored under its checks, so that the loads of all of
    // them are in flight together (kb1_77, whose walk at one chunk per
    // iteration and 8 warps per SM was latency-bound: -3.1% in bf16 and
    // f16, docs/perf.md 198).
    OpBuilder::InsertionGuard guard(b);
    const int64_t total = lines * inner, per = kHalfChunksPerIteration;
    const bool exact = total % (threads * per) == 0;
    auto loop = scf::ForOp::create(b, cx.tid, b.c(total), b.c(threads * per));
    b.setInsertionPointToStart(loop.getBody());
    const int64_t vec = chunkLoadWidth(cx);
    struct Chunk {
      Value inRange;
      HalfLine l;
      SmallVector<Element, kHalfChunk> els;
      SmallVector<Value, kHalfChunk> conv;
    };
    SmallVector<Chunk, kHalfChunksPerIteration> chunks(per);
    for (int64_t u = 0; u < per; ++u) {
      Chunk &c = chunks[u];
      Value e = b.add(loop.getInductionVar(), u * threads);
      if (u > 0 && !exact) {
        c.inRange = b.ult(e, total);
        e = arith::MinUIOp::create(b, e, b.c(total - 1));
      }
      c.l = halfLine(cx, b.divu(e, inner));
      Value wl0 = b.add(c.l.head, b.mul(b.remu(e, inner), kHalfChunk));
      for (int64_t i = 0; i < kHalfChunk; ++i)
        c.els.push_back(halfElement(cx, c.l, b.add(wl0, i)));
      for (int64_t k = 0; k < kHalfChunk; k += vec) {
        const Element &el = c.els[k];
        Value addr = cx.tileAddr(0, el.r, el.cl, el.wl);
        if (vec == 1) {
          c.conv.push_back(cx.sload(addr));
          continue;
        }
        Value v = vector::LoadOp::create(
            b, VectorType::get({vec}, b.getF32Type()), cx.smem,
            ValueRange{addr}, false, llvm::MaybeAlign(4 * vec));
        for (int64_t i = 0; i < vec; ++i)
          c.conv.push_back(vector::ExtractOp::create(b, v, i));
      }
    }
    for (Chunk &c : chunks) {
      OpBuilder::InsertionGuard g2(b);
      if (c.inRange) {
        auto ifIn = scf::IfOp::create(b, TypeRange{}, c.inRange, false);
        b.setInsertionPointToStart(&ifIn.getThenRegion().front());
      }
      const HalfLine &l = c.l;
      Value wl0 = c.els[0].wl;
      if (cx.launch.numWTiles > 1) {
        // The last W tile's lines are shorter: their chunks past the end
        // store the positions inside one by one.
        Value whole =
            b.cmp(arith::CmpIPredicate::ule, b.add(wl0, kHalfChunk), l.len);
        auto ifWhole = scf::IfOp::create(b, TypeRange{}, whole, true);
        b.setInsertionPointToStart(&ifWhole.getElseRegion().front());
        for (auto [el, conv] : llvm::zip(c.els, c.conv)) {
          auto ifIn = scf::IfOp::create(
              b, TypeRange{},
              b.andI(l.valid, b.cmp(arith::CmpIPredicate::ult, el.wl, l.len)),
              false);
          OpBuilder::InsertionGuard g3(b);
          b.setInsertionPointToStart(&ifIn.getThenRegion().front());
          memref::StoreOp::create(b, narrowForStore(b, out, evaluate(el, conv)),
                                  out,
                                  cx.outputIndex(el.ch, cx.od, el.oh, el.ow));
        }
        b.setInsertionPointToStart(&ifWhole.getThenRegion().front());
      }
      auto ifOk = scf::IfOp::create(b, TypeRange{}, l.valid, false);
      b.setInsertionPointToStart(&ifOk.getThenRegion().front());
      SmallVector<Value, kHalfChunk> values;
      for (auto [el, conv] : llvm::zip(c.els, c.conv))
        values.push_back(evaluate(el, conv));
      Value chunk = vector::FromElementsOp::create(
          b, VectorType::get({kHalfChunk}, b.getF32Type()), values);
      vector::StoreOp::create(
          b, narrowForStore(b, out, chunk), out,
          cx.outputIndex(c.els[0].ch, cx.od, c.els[0].oh, c.els[0].ow),
          /*nontemporal=*/false,
          llvm::MaybeAlign(kHalfChunk * outElementBytes(out)));
    }
  }
  // Item k of a line's rest: position k in its head, else k + 4 inner.
  OpBuilder::InsertionGuard guard(b);
  auto loop = scf::ForOp::create(b, cx.tid, b.c(lines * rest), b.c(threads));
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  HalfLine l = halfLine(cx, b.divu(e, rest));
  Value k = b.remu(e, rest);
  Value wl = arith::SelectOp::create(
      b, b.cmp(arith::CmpIPredicate::ult, k, l.head), k,
      b.add(k, kHalfChunk * inner));
  Value ok = b.andI(l.valid, b.cmp(arith::CmpIPredicate::ult, wl, l.len));
  auto ifOk = scf::IfOp::create(b, TypeRange{}, ok, false);
  b.setInsertionPointToStart(&ifOk.getThenRegion().front());
  Element el = halfElement(cx, l, wl);
  memref::StoreOp::create(b, narrowForStore(b, out, evaluate(el, Value())), out,
                          cx.outputIndex(el.ch, cx.od, el.oh, el.ow));
}

void emit::chooseHalfTile(EmitContext &cx) {
  const KernelAnalysis &a = cx.a;
  if (cx.statsOnly || cx.stats || !cx.cfg.usesWgmma() || a.pool ||
      a.channelWindow || a.contraction || !a.reductions.empty() ||
      a.numTiles != 1 || cx.smemPlan.poolSlots || !usesLaneWalk(cx))
    return;
  Value out = cx.func.getArguments().back();
  if (outElementBytes(out) != 2)
    return;
  // The result is the convolution's value, at most cast to the half type
  // (rounded once either way): nothing reads the tile for f32 math.
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  if (auto c = result.getDefiningOp<CastOp>())
    result = c.getInput();
  if (result != a.conv->getResult(0))
    return;
  cx.halfTileType = cast<MemRefType>(out.getType()).getElementType();
  cx.smemPlan = cx.smemPlan.withHalfTile(cx.cfg);
}

void emit::emitEpilogue(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  for (auto [ordinal, op] : llvm::enumerate(cx.a.reductions))
    emitLineReduction(cx, op, ordinal);
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  Value out = cx.statsOnly ? Value() : cx.func.getArguments().back();
  // Statistics of one pass (moments, extremes): the statistics pass is the
  // walk, each element evaluated once and never written back to the tile
  // (kb2_19: docs/perf.md 102).
  if (cx.stats && cx.stats->kind != StatsKind::MaxSumExp) {
    emitEpilogueStatistics(cx, result, out);
    return;
  }
  if (usesHalfChunks(cx, out)) {
    emitHalfChunks(cx, result, out);
    return;
  }
  forEachTileElement(cx, [&](ArrayRef<Element> els, bool pairs) {
    SmallVector<Value, 4> values;
    if (pairs && !els[0].tileOffset) {
      // Each pair's tile values in one load, its results in one store.
      auto v2Ty = VectorType::get({2}, b.getF32Type());
      Value conv = cx.a.conv->getResult(0);
      SmallVector<Value> loaded;
      for (size_t k = 0; k < els.size(); k += 2) {
        Value addr = cx.tileAddr(0, els[k].r, els[k].cl, els[k].wl);
        Value v;
        if (cx.halfTileType) {
          v = vector::LoadOp::create(
              b, VectorType::get({2}, cx.halfTileType), cx.smemHalf,
              ValueRange{addr}, false, llvm::MaybeAlign(4));
          v = arith::ExtFOp::create(b, v2Ty, v);
        } else {
          v = vector::LoadOp::create(b, v2Ty, cx.smem, ValueRange{addr}, false,
                                     llvm::MaybeAlign(8));
        }
        loaded.push_back(vector::ExtractOp::create(b, v, int64_t{0}));
        loaded.push_back(vector::ExtractOp::create(b, v, int64_t{1}));
      }
      for (auto [el, l] : llvm::zip(els, loaded)) {
        DenseMap<Value, Value> memo;
        memo[conv] = l;
        values.push_back(emitElementValue(cx, result, el, memo));
      }
      for (size_t k = 0; k < els.size(); k += 2) {
        Value v2 = vector::FromElementsOp::create(
            b, v2Ty, ValueRange{values[k], values[k + 1]});
        vector::StoreOp::create(
            b, narrowForStore(b, out, v2), out,
            cx.outputIndex(els[k].ch, cx.od, els[k].oh, els[k].ow), false,
            llvm::MaybeAlign(2 * outElementBytes(out)));
      }
      return;
    }
    for (const Element &el : els) {
      DenseMap<Value, Value> memo;
      values.push_back(emitElementValue(cx, result, el, memo));
    }
    // The statistics pass reads the final values from tile 0 (each element
    // is read above and overwritten here by the same thread).
    if (cx.stats)
      for (auto [el, v] : llvm::zip(els, values))
        cx.sstore(v, cx.tileAddr(0, el.r, el.cl, el.wl));
    if (cx.statsOnly)
      return;
    // Whole quads of rows whose length is a multiple of 4 start 16-byte
    // aligned: one vector store.
    if (els.size() == 4 && cx.g.out[2] % 4 == 0) {
      auto v4Ty = VectorType::get({4}, b.getF32Type());
      Value v4 = vector::FromElementsOp::create(b, v4Ty, values);
      vector::StoreOp::create(
          b, narrowForStore(b, out, v4), out,
          cx.outputIndex(els[0].ch, cx.od, els[0].oh, els[0].ow),
          /*nontemporal=*/false, llvm::MaybeAlign(4 * outElementBytes(out)));
      return;
    }
    for (auto [el, v] : llvm::zip(els, values))
      memref::StoreOp::create(b, narrowForStore(b, out, v), out,
                              cx.outputIndex(el.ch, cx.od, el.oh, el.ow));
  });
  if (cx.stats) {
    gpu::BarrierOp::create(b);
    emitEpilogueStatistics(cx);
  }
}

/// True if the scalar code of `op` is cheap: arith ops and the math ops
/// that are single instructions. Built into a scratch block and inspected,
/// so that no op is special-cased by name.
static bool hasCheapScalarCode(ElementwiseOpInterface op) {
  OpBuilder b(op->getContext());
  auto scratch = std::make_unique<Block>();
  SmallVector<Value> operands;
  for (unsigned k = 0; k < op->getNumOperands(); ++k)
    operands.push_back(scratch->addArgument(b.getF32Type(), op->getLoc()));
  b.setInsertionPointToStart(scratch.get());
  op.buildScalar(b, op->getLoc(), operands);
  bool cheap = true;
  scratch->walk([&](Operation *inner) {
    if (isa<math::MathDialect>(inner->getDialect()) &&
        !isa<math::AbsFOp, math::CopySignOp, math::FmaOp>(inner))
      cheap = false;
  });
  return cheap;
}

bool emit::readsOnlyValuesConstantAlongW(EmitContext &cx, Operation &op) {
  KernelAnalysis &a = cx.a;
  Block &body = cx.kernel.getBody().front();
  // Kernel inputs other than the convolution's operands, and parameter
  // values (per-channel, `KernelAnalysis::params`). A half input read
  // through its operand cast is not a block argument here, so it does not
  // keep an epilogue out of registers: with 2-byte elements the scattered
  // reads are cheaper than the tile round trip (kb2_26 bf16 / f16 ~10%
  // faster than with the cast looked through, docs/perf.md 233; a 4-byte
  // input of the same shape costs 18%).
  for (Value o : op.getOperands()) {
    auto arg = dyn_cast<BlockArgument>(o);
    bool input = arg && arg.getOwner() == &body &&
                 !llvm::is_contained(a.conv->getOperands(), o);
    if (!input && !a.isParam(o.getDefiningOp()))
      continue;
    auto ty = cast<RankedTensorType>(o.getType());
    if (ty.getRank() > 0 && ty.getDimSize(ty.getRank() - 1) != 1)
      return false;
  }
  return true;
}

bool emit::resultIsElementwiseInRegisters(EmitContext &cx) {
  KernelAnalysis &a = cx.a;
  if (!cx.cfg.usesWgmma() || a.pool || a.channelEpilogue() ||
      !a.reductions.empty() || cx.stats || cx.statsOnly ||
      cx.cfg.getClusterC() > 1)
    return false;
  llvm::SmallPtrSet<Operation *, 8> prologue(a.prologue.begin(),
                                             a.prologue.end());
  Block &body = cx.kernel.getBody().front();
  for (Operation &op : body) {
    if (&op == a.conv.getOperation() || prologue.contains(&op) ||
        isa<YieldOp, arith::ConstantOp>(op) || a.isParam(&op) ||
        llvm::is_contained(a.operandCasts, dyn_cast<CastOp>(op)))
      continue;
    // The straight-line code of every accumulator must stay small: an
    // expensive epilogue (exp, log, erf, ...) outgrows the instruction
    // cache (kb2_16: 70 KB of code, 13% slower).
    auto ew = dyn_cast<ElementwiseOpInterface>(op);
    if (!ew || !hasCheapScalarCode(ew))
      return false;
    // Inputs varying along W would be read in the fragment's scattered
    // pattern (kb2_26, 18% slower); per-channel parameters are fine.
    if (!emit::readsOnlyValuesConstantAlongW(cx, op))
      return false;
  }
  return true;
}

bool emit::canEvaluateFromRegisters(EmitContext &cx) {
  if (!cx.cfg.usesWgmma() || cx.cfg.splitsPhases())
    return false;
  // Each lane's run (2 x stride consecutive positions) must be one aligned
  // 8- or 16-byte vector: with gaps between a warp's stores the partial
  // sectors cost more than the tile saves (docs/perf.md 137).
  const int64_t run = 2 * cx.g.stride[2];
  if (run > 4 || cx.g.out[2] % run != 0 || cx.cfg.getTileW() % run != 0)
    return false;
  // 8-byte runs (W stride 1) fill a sector per line and store: only where
  // the main loop dominates (split operands). tf32 kernels, which store
  // at a higher rate, measured 11% faster to 16% slower with them
  // (docs/perf.md 139).
  if (run == 2 && !cx.cfg.usesSplitTF32())
    return false;
  return resultIsElementwiseInRegisters(cx);
}

/// Stores `values` at the elements `els` (consecutive positions of one
/// line) as `vec`-wide vectors.
static void storeRun(EmitContext &cx, ArrayRef<Element> els,
                     ArrayRef<Value> values, int64_t vec) {
  EmitBuilder &b = cx.b;
  Value out = cx.func.getArguments().back();
  for (size_t k = 0; k < values.size(); k += vec) {
    SmallVector<Value> idx =
        cx.outputIndex(els[k].ch, cx.od, els[k].oh, els[k].ow);
    if (vec == 1) {
      memref::StoreOp::create(b, narrowForStore(b, out, values[k]), out, idx);
      continue;
    }
    auto vTy = VectorType::get({vec}, b.getF32Type());
    Value v = vector::FromElementsOp::create(b, vTy, values.slice(k, vec));
    vector::StoreOp::create(b, narrowForStore(b, out, v), out, idx,
                            /*nontemporal=*/false,
                            llvm::MaybeAlign(outElementBytes(out) * vec));
  }
}

Element emit::runElement(EmitContext &cx, const EpilogueRun &run, int64_t k) {
  Element el = run.line;
  el.wl = cx.b.add(run.wl0, k);
  el.ow = cx.b.add(cx.ow0, el.wl);
  return el;
}

Value emit::emitRunValue(EmitContext &cx, const EpilogueRun &run, int64_t k,
                         const Element &el) {
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  DenseMap<Value, Value> memo;
  // The run holds the convolution's values, or the softmax's where the
  // epilogue took its statistics from the accumulators.
  memo[cx.registerSoftmax ? Value(cx.registerSoftmax->getResult(0))
                          : cx.a.conv.getResult()] = run.values[k];
  return emitElementValue(cx, result, el, memo);
}

void emit::emitEpilogueRuns(EmitContext &cx, ArrayRef<EpilogueRun> runs,
                            Value allInside) {
  EmitBuilder &b = cx.b;
  const int64_t tileW = cx.cfg.getTileW(), width = cx.g.out[2];
  auto elementAt = [&](const EpilogueRun &run, int64_t k) {
    return runElement(cx, run, k);
  };
  auto valueAt = [&](const EpilogueRun &run, int64_t k, const Element &el) {
    return emitRunValue(cx, run, k, el);
  };
  // Whole runs are vectors (canEvaluateFromRegisters: every run start is
  // aligned to the run's length in the tensor).
  auto vectorWidth = [&](const EpilogueRun &run) {
    return llvm::is_contained(run.values, Value())
               ? int64_t(1)
               : static_cast<int64_t>(run.values.size());
  };
  auto ifAll = scf::IfOp::create(b, TypeRange{}, allInside, true);
  {
    // Every position of every run inside the tensor and the tile: no check.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifAll.getThenRegion().front());
    for (const EpilogueRun &run : runs) {
      SmallVector<Element> els;
      SmallVector<Value> values;
      for (auto [k, v] : llvm::enumerate(run.values)) {
        if (!v)
          continue;
        els.push_back(elementAt(run, k));
        values.push_back(valueAt(run, k, els.back()));
      }
      storeRun(cx, els, values, vectorWidth(run));
    }
  }
  // At the tensor's or the tile's edges: each position on its own.
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifAll.getElseRegion().front());
  for (const EpilogueRun &run : runs) {
    Value lineValid = cx.lineInside(run.line);
    for (auto [k, v] : llvm::enumerate(run.values)) {
      if (!v)
        continue;
      Element el = elementAt(run, k);
      Value ok =
          b.andI(lineValid, b.andI(b.ult(el.ow, width), b.ult(el.wl, tileW)));
      auto ifOne = scf::IfOp::create(b, TypeRange{}, ok, false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(&ifOne.getThenRegion().front());
      Value value = valueAt(run, k, el);
      storeRun(cx, el, value, 1);
    }
  }
}
