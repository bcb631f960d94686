//===- EpilogueStatistics.cpp - partial statistics of a kernel's result ---===//
//
// When the plan gives a convolution kernel's result to a normalisation over
// all its non-batch dims (group_norm; `NormLayout::Mode::Epilogue`), the
// kernel's epilogue leaves its final values in output tile 0 and this pass
// over the tile writes the partial statistics of every group the block's
// channels meet: the normalisation then reads the result once, to normalise
// it, instead of twice.
//
// A block holds one batch element, so its part of a group is a box of the
// tile: the valid rows x the group's channels in the tile x the valid
// positions. The warps form teams of `partsPerBlock`; team t takes the
// tile's groups t, t + teams, ...; the warps of a team take the box's lines
// (row, channel) in turn and their lanes consecutive positions (conflict-free
// tile reads). Each warp computes, over its elements, the sum relative to
// a shift (the group's first element in the tile), the mean from it, then
// the squared deviations from that mean (two passes over shared memory, no
// cancellation), reduces them with shuffles, and lane 0 writes the record
// (count, shift, mean - shift, M2). All control flow is uniform per warp.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

namespace {

/// Sums `v` over the 32 lanes of a warp (every lane gets the sum).
Value warpSum(EmitBuilder &b, Value v) {
  for (int64_t off = 16; off >= 1; off /= 2) {
    auto shfl = gpu::ShuffleOp::create(b, v, off, 32, gpu::ShuffleMode::XOR);
    v = arith::AddFOp::create(b, v, shfl.getShuffleResult());
  }
  return v;
}

Value minU(EmitBuilder &b, Value x, Value y) {
  return arith::MinUIOp::create(b, x, y);
}
Value maxU(EmitBuilder &b, Value x, Value y) {
  return arith::MaxUIOp::create(b, x, y);
}

} // namespace

void emit::emitEpilogueStatistics(EmitContext &cx) {
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
  // Spatial block s = (od x H blocks + hb) x W tiles + wt.
  Value spatial = b.add(
      b.mul(b.add(b.mul(cx.od, cx.launch.numHBlocks), cx.hBlock),
            cx.launch.numWTiles),
      cx.wTile);
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
  Value lines = b.mul(rowsValid, nc);
  Value shift = cx.sload(cx.tileAddr(0, b.c(0), cA, b.c(0)));

  // Sums term(v) over this warp's elements: lines part, part + parts, ...;
  // positions lane, lane + 32, ...
  auto sumOver = [&](function_ref<Value(Value)> term) {
    auto lineLoop = scf::ForOp::create(b, part, lines, b.c(parts),
                                       ValueRange{b.f(0.0)});
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(lineLoop.getBody());
      Value line = lineLoop.getInductionVar();
      Value r = arith::DivUIOp::create(b, line, nc);
      Value cl = b.add(cA, arith::RemUIOp::create(b, line, nc));
      auto posLoop =
          scf::ForOp::create(b, lane, width, b.c(32),
                             ValueRange{lineLoop.getRegionIterArgs()[0]});
      {
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPointToStart(posLoop.getBody());
        Value v = cx.sload(cx.tileAddr(0, r, cl, posLoop.getInductionVar()));
        scf::YieldOp::create(
            b, ValueRange{arith::AddFOp::create(
                   b, posLoop.getRegionIterArgs()[0], term(v))});
      }
      scf::YieldOp::create(b, posLoop.getResults());
    }
    return warpSum(b, lineLoop.getResult(0));
  };

  // This warp's lines: ceil((lines - part) / parts), 0 when part >= lines.
  Value myLines = b.divu(b.sub(b.add(lines, b.c(parts - 1)), part), parts);
  Value count = arith::MulFOp::create(
      b,
      arith::UIToFPOp::create(
          b, f, arith::IndexCastUIOp::create(b, b.getI64Type(), myLines)),
      widthF);
  Value s1 = sumOver([&](Value v) { return arith::SubFOp::create(b, v, shift); });
  Value nonEmpty =
      arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, count, b.f(0.0));
  Value delta = arith::SelectOp::create(
      b, nonEmpty, arith::DivFOp::create(b, s1, count), b.f(0.0));
  Value m2 = sumOver([&](Value v) {
    Value d = arith::SubFOp::create(b, arith::SubFOp::create(b, v, shift),
                                    delta);
    return arith::MulFOp::create(b, d, d);
  });

  // Record (((n G + g) S + s) T + ct - firstTile(g)) P + part.
  Value set = b.add(b.mul(cx.n, l.groups), grp);
  Value tileInGroup = b.sub(cx.cTile, b.divu(b.mul(grp, cpg), l.tileC));
  Value record = b.add(
      b.mul(b.add(b.mul(b.add(b.mul(set, l.spatialBlocks), spatial),
                        l.tilesPerGroup),
                  tileInGroup),
            parts),
      part);
  Value first = b.mul(record, EpilogueStatsLayout::kRecordSize);
  auto lane0 = scf::IfOp::create(
      b, TypeRange{}, b.cmp(arith::CmpIPredicate::eq, lane, b.c(0)), false);
  b.setInsertionPointToStart(&lane0.getThenRegion().front());
  SmallVector<Value, 4> fields{count, shift, delta, m2};
  for (auto [k, v] : llvm::enumerate(fields))
    memref::StoreOp::create(b, v, cx.statsOut, ValueRange{b.add(first, k)});
}
