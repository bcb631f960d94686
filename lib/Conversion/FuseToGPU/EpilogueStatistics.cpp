//===- EpilogueStatistics.cpp - partial statistics of a kernel's result ---===//
//
// When the plan gives a convolution kernel's result to a normalisation or
// reduction whose sets are whole channel groups of a sample (group_norm,
// instance norm, a softmax or logsumexp, amax, amin over the spatial dims;
// `NormLayout::Mode::Epilogue`), the kernel's epilogue leaves its final
// values in output tile 0 and this pass over the tile writes the partial
// statistics of every group the block's channels meet: the normalisation
// then reads the result once, to normalise it, instead of twice, and a
// reduction not at all.
//
// A block holds one batch element, so its part of a group is a box of the
// tile: the valid rows x the group's channels in the tile x the valid
// positions. The warps form teams of `partsPerBlock`; team t takes the
// tile's groups t, t + teams, ...; the warps of a team take the box's
// channels in chunks, row by row, their lanes consecutive positions of a
// line (a warp covers several short lines at once): conflict-free tile
// reads, all loads of an iteration independent, no run-time division. By
// the records' kind (EpilogueStatsLayout), each warp
//  - moments: sums d = v - shift and d^2 over its elements (the shift is
//    the group's first element in the tile, so the data are centred up to
//    a few standard deviations and S2 - S1^2 / n keeps its digits) and
//    writes (count, shift, mean - shift, M2);
//  - max, sum of exp: takes the max m (one pass), then the sum of
//    exp(v - m) (a second pass; about 0 where m is -inf, so that a record
//    of -inf values or of none is (-inf, 0)) and writes (m, sum);
//  - max / min: writes the extreme (-inf / +inf for no element; NaN
//    propagates).
// Each pass reduces with shuffles; lane 0 writes the record. All control
// flow is uniform per warp. For the single-pass kinds (moments, extremes)
// the pass is the epilogue walk: it evaluates each element's final value
// from the tiles, stores it and folds it in, so that the tile is read once
// and never written back (kb2_19's convolution kernel 4.49 -> 3.88 ms,
// docs/perf.md 102); the shift is then the group's first element
// evaluated by every lane.
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

namespace {

/// Steps of lines a warp reduces per iteration, at least (independent loads
/// and accumulators; more where a line takes few positions per lane).
constexpr int64_t kLinesPerIteration = 4;

Value minU(EmitBuilder &b, Value x, Value y) {
  return arith::MinUIOp::create(b, x, y);
}
Value maxU(EmitBuilder &b, Value x, Value y) {
  return arith::MaxUIOp::create(b, x, y);
}

} // namespace

Value emit::emitStatsSpatialBlock(EmitContext &cx, Value depth) {
  EmitBuilder &b = cx.b;
  // s = (depth x H blocks + hb) x W tiles + wt.
  return b.add(b.mul(b.add(b.mul(depth, cx.launch.numHBlocks), cx.hBlock),
                     cx.launch.numWTiles),
               cx.wTile);
}

void emit::emitStatsRecordStore(EmitContext &cx, Value grp, Value spatial,
                                Value part, Value lane,
                                ArrayRef<Value> fields) {
  EmitBuilder &b = cx.b;
  const EpilogueStatsLayout &l = *cx.stats;
  const int64_t cpg = l.channelsPerGroup, parts = l.partsPerBlock;
  // Record (((n G + g) S + s) T + ct - firstTile(g)) P + part.
  Value set = b.add(b.mul(cx.n, l.groups), grp);
  Value tileInGroup = b.sub(cx.cTile, b.divu(b.mul(grp, cpg), l.tileC));
  Value record = b.add(
      b.mul(b.add(b.mul(b.add(b.mul(set, l.spatialBlocks), spatial),
                        l.tilesPerGroup),
                  tileInGroup),
            parts),
      part);
  Value first = b.mul(record, l.recordSize());
  OpBuilder::InsertionGuard guard(b);
  auto lane0 = scf::IfOp::create(
      b, TypeRange{}, b.cmp(arith::CmpIPredicate::eq, lane, b.c(0)), false);
  b.setInsertionPointToStart(&lane0.getThenRegion().front());
  for (auto [k, v] : llvm::enumerate(fields))
    memref::StoreOp::create(b, v, cx.statsOut, ValueRange{b.add(first, k)});
}

void emit::emitEpilogueStatistics(EmitContext &cx, Value result, Value out) {
  EmitBuilder &b = cx.b;
  const EpilogueStatsLayout &l = *cx.stats;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  Type f = cx.elementType;
  const int64_t warps = cx.launch.threads / 32, parts = l.partsPerBlock;
  const int64_t teams = warps / parts, cpg = l.channelsPerGroup;
  const int64_t sh = g.stride[1];
  Value lane = b.remu(cx.tid, 32), warp = b.divu(cx.tid, 32);
  Value team = b.divu(warp, parts), part = b.remu(warp, parts);

  // The block's box: rows oh + r sh inside the tensor (the first always
  // is), positions ow0 + w inside the tile and the tensor, channels
  // [co0, cEnd).
  Value rowsValid = minU(
      b, b.c(cfg.getRows()),
      b.divu(b.add(b.sub(b.c(g.out[1]), cx.oh), b.c(sh - 1)), sh));
  Value width = minU(b, b.c(cfg.getTileW()), b.sub(b.c(g.out[2]), cx.ow0));
  Value cEnd = minU(b, b.add(cx.co0, cfg.getTileC()), b.c(g.cout));
  Value gFirst = b.divu(cx.co0, cpg);
  Value gEnd = b.add(b.divu(b.sub(cEnd, b.c(1)), cpg), 1);
  Value spatial = emitStatsSpatialBlock(cx, cx.od);
  Value widthF = arith::UIToFPOp::create(
      b, f, arith::IndexCastUIOp::create(b, b.getI64Type(), width));

  auto groups = scf::ForOp::create(b, b.add(gFirst, team), gEnd, b.c(teams));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(groups.getBody());
  Value grp = groups.getInductionVar();
  // The group's channels in the tile, [cA, cB) tile-relative.
  Value cA = b.sub(maxU(b, cx.co0, b.mul(grp, cpg)), cx.co0);
  Value cB = b.sub(minU(b, cEnd, b.mul(b.add(grp, 1), cpg)), cx.co0);
  Value nc = b.sub(cB, cA);
  // The final value of (row r, tile channel cl, position wl): computed from
  // the tile where this pass is the walk (`result`), else read back from
  // tile 0.
  auto elementAt = [&](Value r, Value cl, Value wl) {
    if (!result)
      return cx.sload(cx.tileAddr(0, r, cl, wl));
    Element el;
    el.r = r;
    el.cl = cl;
    el.wl = wl;
    el.ch = b.add(cx.co0, cl);
    el.oh = cx.rowHeight(r);
    el.ow = b.add(cx.ow0, wl);
    DenseMap<Value, Value> memo;
    return emitElementValue(cx, result, el, memo);
  };
  // As the walk, the pass also stores every valid element to `out` (lanes
  // on consecutive positions of a line: coalesced).
  auto storeElement = [&](Value v, Value valid, Value r, Value cl, Value wl) {
    if (!result || !out)
      return;
    auto ifValid = scf::IfOp::create(b, TypeRange{}, valid, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifValid.getThenRegion().front());
    memref::StoreOp::create(b, v, out,
                            cx.fullIndex(cx.n, b.add(cx.co0, cl), cx.od,
                                         cx.rowHeight(r), b.add(cx.ow0, wl)));
  };
  Value shift =
      l.kind == StatsKind::Moments ? elementAt(b.c(0), cA, b.c(0)) : Value();

  // Passes over this warp's elements: steps of `rowStep` valid rows, and in
  // each its channel chunks part, part + parts, ... of `chunk` channels
  // (`lineSteps` steps of `perStep` lines: a line takes `lanesPerLine`
  // lanes, each on positions p, p + lanesPerLine, ..., unrolled). The
  // `unroll` lines of an iteration come from channels as far as a group
  // has them in the tile, then from rows (a group of one channel takes
  // `unroll` rows at once), so that the loads of an iteration are
  // independent, none is wasted on a channel past the group and no index
  // is divided at run time; `unroll` sets of `k` accumulators, folded by
  // `step(acc, v, valid)`.
  const int64_t lineWidth = cx.tileLineWidth();
  const int64_t lanesPerLine =
      std::min<int64_t>(32, llvm::PowerOf2Ceil(lineWidth));
  const int64_t perStep = 32 / lanesPerLine;
  const int64_t positions = llvm::divideCeil(lineWidth, lanesPerLine);
  const int64_t wanted = std::max<int64_t>(
      kLinesPerIteration, llvm::divideCeil(2 * kLinesPerIteration, positions));
  // Channels of a group in one tile, at most.
  const int64_t groupChannels = std::min(cpg, cfg.getTileC());
  const int64_t lineSteps =
      std::min<int64_t>(wanted, llvm::divideCeil(groupChannels, perStep));
  const int64_t rowStep = std::min<int64_t>(
      cfg.getRows(), llvm::divideCeil(wanted, lineSteps));
  const int64_t unroll = lineSteps * rowStep;
  const int64_t chunk = lineSteps * perStep;
  Value subLine = b.divu(lane, lanesPerLine);
  Value pos0 = b.remu(lane, lanesPerLine);
  // This lane's positions (clamped into the line) and whether each is valid.
  SmallVector<Value> posAt, posValid;
  for (int64_t j = 0; j < positions; ++j) {
    Value pos = b.add(pos0, lanesPerLine * j);
    posValid.push_back(b.cmp(arith::CmpIPredicate::ult, pos, width));
    posAt.push_back(arith::SelectOp::create(b, posValid.back(), pos, b.c(0)));
  }
  using Step = function_ref<void(MutableArrayRef<Value>, Value, Value)>;
  auto pass = [&](ArrayRef<Value> init, Step step) {
    const int64_t k = init.size();
    SmallVector<Value> inits;
    for (int64_t u = 0; u < unroll; ++u)
      inits.append(init.begin(), init.end());
    auto rowLoop = scf::ForOp::create(b, b.c(0), rowsValid, b.c(rowStep), inits);
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(rowLoop.getBody());
      Value r0 = rowLoop.getInductionVar();
      auto chunkLoop =
          scf::ForOp::create(b, b.mul(part, chunk), nc, b.c(parts * chunk),
                             rowLoop.getRegionIterArgs());
      {
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPointToStart(chunkLoop.getBody());
        SmallVector<Value> acc(chunkLoop.getRegionIterArgs());
        for (int64_t dr = 0; dr < rowStep; ++dr) {
          Value r = b.add(r0, dr);
          Value rowValid =
              dr == 0 ? Value() : b.cmp(arith::CmpIPredicate::ult, r, rowsValid);
          if (rowValid)
            r = arith::SelectOp::create(b, rowValid, r, r0);
          for (int64_t ls = 0; ls < lineSteps; ++ls) {
            const int64_t u = dr * lineSteps + ls;
            Value c = b.add(b.add(chunkLoop.getInductionVar(), ls * perStep),
                            subLine);
            Value lineValid = b.cmp(arith::CmpIPredicate::ult, c, nc);
            if (rowValid)
              lineValid = b.andI(lineValid, rowValid);
            Value cl =
                b.add(cA, arith::SelectOp::create(b, lineValid, c, b.c(0)));
            for (int64_t j = 0; j < positions; ++j) {
              Value valid = b.andI(lineValid, posValid[j]);
              Value v = elementAt(r, cl, posAt[j]);
              storeElement(v, valid, r, cl, posAt[j]);
              step(MutableArrayRef<Value>(acc).slice(u * k, k), v, valid);
            }
          }
        }
        scf::YieldOp::create(b, acc);
      }
      scf::YieldOp::create(b, chunkLoop.getResults());
    }
    return SmallVector<Value>(rowLoop.getResults());
  };
  auto fold = [&](ArrayRef<Value> accs, int64_t k, int64_t i,
                  function_ref<Value(Value, Value)> combine) {
    Value v = accs[i];
    for (int64_t u = 1; u < unroll; ++u)
      v = combine(v, accs[u * k + i]);
    return emitWarpAllReduce(b, v, 32, combine);
  };
  auto addF = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, x, y);
  };
  const bool isMin = l.kind == StatsKind::Min;
  Value noExtreme = cx.constant(isMin ? INFINITY : -INFINITY);
  auto extreme = [&](Value x, Value y) -> Value {
    return isMin ? arith::MinimumFOp::create(b, x, y).getResult()
                 : arith::MaximumFOp::create(b, x, y).getResult();
  };

  SmallVector<Value, 4> fields;
  if (l.kind != StatsKind::Moments) {
    // The extreme: invalid positions are neutral (NaN propagates).
    SmallVector<Value> acc =
        pass({noExtreme}, [&](MutableArrayRef<Value> a, Value v, Value valid) {
          a[0] = extreme(a[0], arith::SelectOp::create(b, valid, v, noExtreme));
        });
    Value m = fold(acc, 1, 0, extreme);
    fields.push_back(m);
    if (l.kind == StatsKind::MaxSumExp) {
      // sum exp(v - m), about 0 where m is -inf (every element -inf, or
      // none: the sum is 0, a neutral record).
      Value about = arith::SelectOp::create(
          b,
          arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, m,
                                cx.constant(-INFINITY)),
          cx.constant(0.0), m);
      SmallVector<Value> sums =
          pass({cx.constant(0.0)},
               [&](MutableArrayRef<Value> a, Value v, Value valid) {
                 Value e =
                     math::ExpOp::create(b, arith::SubFOp::create(b, v, about));
                 a[0] = addF(a[0], arith::SelectOp::create(b, valid, e,
                                                           cx.constant(0.0)));
               });
      fields.push_back(fold(sums, 1, 0, addF));
    }
  } else {
    // Sums of d = v - shift and d^2; M2 = S2 - S1^2 / n loses only (1 +
    // ((mean - shift) / std)^2) ulps, the shift being an element of the
    // set.
    SmallVector<Value> acc =
        pass({cx.constant(0.0), cx.constant(0.0)}, [&](MutableArrayRef<Value> a,
                                                       Value v, Value valid) {
          Value d = arith::SelectOp::create(
              b, valid, arith::SubFOp::create(b, v, shift), cx.constant(0.0));
          a[0] = addF(a[0], d);
          a[1] = math::FmaOp::create(b, d, d, a[1]);
        });
    Value s1 = fold(acc, 2, 0, addF), s2 = fold(acc, 2, 1, addF);

    // This warp's elements: valid rows x its channels x the width. Every
    // round of parts x chunk channels gives it `chunk`; of the rest, those
    // past part x chunk, at most `chunk`.
    const int64_t round = parts * chunk;
    Value rest = b.remu(nc, round), mine = b.mul(part, chunk);
    Value extra = arith::SelectOp::create(
        b, b.cmp(arith::CmpIPredicate::ugt, rest, mine),
        arith::MinUIOp::create(b, b.sub(rest, mine), b.c(chunk)), b.c(0));
    Value myChannels = b.add(b.mul(b.divu(nc, round), chunk), extra);
    Value count = arith::MulFOp::create(
        b,
        arith::UIToFPOp::create(
            b, f,
            arith::IndexCastUIOp::create(b, b.getI64Type(),
                                         b.mul(myChannels, rowsValid))),
        widthF);
    Value nonEmpty = arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, count,
                                           cx.constant(0.0));
    Value delta = arith::SelectOp::create(
        b, nonEmpty, arith::DivFOp::create(b, s1, count), cx.constant(0.0));
    Value m2 = arith::MaximumFOp::create(
        b, arith::SubFOp::create(b, s2, arith::MulFOp::create(b, s1, delta)),
        cx.constant(0.0));
    fields = {count, shift, delta, m2};
  }

  emitStatsRecordStore(cx, grp, spatial, part, lane, fields);
}
