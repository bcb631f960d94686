//===- BoxSumsKernel.cpp - per-tap box sums in one pass per plane ---------===//
//
// The box-sums kernel (`KernelKind::BoxSums`, layout in BoxSums.h): the
// (sample, channel) planes of a `fuse.conv_transpose_tap_sums` input, a
// group of whole warps per plane and one or several planes per block. Per
// spatial dim the ends of the taps' intervals cut the plane into regions;
// the plane's threads read every element once and sum each region cell:
//  - a thread's columns are fixed (`t mod unitsPerRow` plus multiples of
//    the plane's threads), so the column region of each of its
//    accumulators is known once; the rows are walked one leading-dims
//    region cell at a time (unrolled at compile time), either every row
//    step unrolled and all of the thread's loads issued before any sum
//    (rows past a cell load an in-cell row and add nothing), or `unroll`
//    row steps per loop iteration with their 16-byte (or scalar) loads
//    issued together;
//  - after each row cell the thread splits its accumulators by column
//    region, warps reduce each region's sum with shuffles and lane 0
//    stores it in the warp's shared slots;
//  - after a barrier the slots of a plane's warps are added per cell, and
//    after another each thread composes taps of one of the block's planes:
//    the sum of the cells inside the tap's box (per dim a range of regions
//    found from the tap's interval), times `scale`. A last block past the
//    planes reads the last plane again and stores nothing of it.
//
//===----------------------------------------------------------------------===//

#include "StandaloneKernels.h"
#include "WarpReduce.h"

#include "fusecc/Dialect/Fuse/IR/BoxSums.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <functional>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::detail;

namespace {

/// Builds the body of one box-sums kernel.
class BoxSumsEmitter {
public:
  BoxSumsEmitter(ImplicitLocOpBuilder &b, const BoxSumsLayout &l, Value in,
                 Value out, Value smem)
      : b(b), l(l), op(l.op), in(in), out(out), smem(smem) {}

  void emit();

private:
  ImplicitLocOpBuilder &b;
  const BoxSumsLayout &l;
  ConvTransposeTapSumsOp op;
  Value in, out, smem;
  /// The thread in the block and in its plane, and the block's first plane.
  Value tid, ptid, lane, warp, planeBase, firstPlane;
  /// The thread's row slot and, per column unit m, its first column and
  /// whether it lies in the row (null: always).
  Value rowSlot, active;
  SmallVector<Value> unitColumn, unitValid;
  /// Per accumulator (unit-major, then vector lane), its column region.
  SmallVector<Value> accRegion;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value fzero() {
    return arith::ConstantOp::create(b, b.getF32FloatAttr(0.0f));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value addf(Value x, Value y) { return arith::AddFOp::create(b, x, y); }
  Value ge(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::sge, x, y);
  }
  /// The index of the region of dim `dim` that starts at or holds `x`
  /// (the count of cuts above 0 that are <= x).
  Value regionOf(size_t dim, Value x);

  void setUpThread();
  /// The first row and extent per leading dim of lead cell `cell`, and its
  /// row count.
  int64_t cellExtent(int64_t cell, SmallVectorImpl<int64_t> &start,
                     SmallVectorImpl<int64_t> &ext);
  /// Sums row cell `cell` into the warps' shared slots of its cells with
  /// a loop of row steps.
  void sumRowCell(int64_t cell);
  /// Sums every row cell with all row steps unrolled, the thread's loads
  /// issued before any sum (BoxSumsLayout::straight).
  void sumCellsStraight();
  /// Per row `q` of `qs` (rows of the cell `start` x `ext` of the leading
  /// dims) and column unit, the loaded elements.
  SmallVector<SmallVector<Value>>
  loadRows(ArrayRef<Value> qs, ArrayRef<int64_t> start, ArrayRef<int64_t> ext);
  /// Adds the elements of plane row `q` of the cell (rows `start` x `ext`
  /// of the leading dims) to `acc`: loads all `steps` rows first.
  SmallVector<Value> addRows(ArrayRef<Value> qs, ArrayRef<int64_t> start,
                             ArrayRef<int64_t> ext, SmallVector<Value> acc);
  /// Reduces the thread's accumulators of row cell `cell` per column
  /// region over the warp into the warp's shared slots.
  void storeCell(int64_t cell, ArrayRef<Value> acc);
  void combineWarps();
  void composeTaps();
};

} // namespace

Value BoxSumsEmitter::regionOf(size_t dim, Value x) {
  ArrayRef<int64_t> cuts = l.cuts[dim];
  Value r = c(0);
  for (size_t i = 1; i < cuts.size(); ++i)
    r = arith::SelectOp::create(b, ge(x, c(cuts[i])), c(i), r);
  return r;
}

void BoxSumsEmitter::setUpThread() {
  tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  lane = arith::RemUIOp::create(b, tid, c(32));
  warp = arith::DivUIOp::create(b, tid, c(32));
  const int64_t perPlane = l.threadsPerPlane;
  firstPlane =
      mul(gpu::BlockIdOp::create(b, gpu::Dimension::x), c(l.planesPerBlock));
  Value plane = firstPlane;
  ptid = tid;
  if (l.planesPerBlock > 1) {
    plane = add(plane, arith::DivUIOp::create(b, tid, c(perPlane)));
    ptid = arith::RemUIOp::create(b, tid, c(perPlane));
    // A last block past the planes reads the last one again.
    if (l.planes % l.planesPerBlock != 0)
      plane = arith::MinUIOp::create(b, plane, c(l.planes - 1));
  }
  planeBase = mul(plane, c(l.rows * l.rowLen));
  const size_t last = l.cuts.size() - 1;
  if (l.unitsPerThread == 1) {
    // Whole rows per step: threads past rowsPerStep rows take none.
    rowSlot = arith::DivUIOp::create(b, ptid, c(l.unitsPerRow));
    active =
        l.rowsPerStep * l.unitsPerRow == perPlane
            ? Value()
            : Value(arith::CmpIOp::create(b, arith::CmpIPredicate::ult, ptid,
                                          c(l.rowsPerStep * l.unitsPerRow)));
    unitColumn.push_back(
        mul(arith::RemUIOp::create(b, ptid, c(l.unitsPerRow)), c(l.vector)));
    unitValid.push_back(Value());
  } else {
    // Rows wider than the plane's threads: every thread on every row.
    rowSlot = c(0);
    for (int64_t m = 0; m < l.unitsPerThread; ++m) {
      Value unit = add(ptid, c(m * perPlane));
      unitColumn.push_back(mul(unit, c(l.vector)));
      bool partial = (m + 1) * perPlane > l.unitsPerRow;
      unitValid.push_back(
          partial ? Value(arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                                unit, c(l.unitsPerRow)))
                  : Value());
    }
  }
  if (l.regions(last) > 1)
    for (Value col : unitColumn)
      for (int64_t v = 0; v < l.vector; ++v)
        accRegion.push_back(regionOf(last, add(col, c(v))));
}

SmallVector<SmallVector<Value>>
BoxSumsEmitter::loadRows(ArrayRef<Value> qs, ArrayRef<int64_t> start,
                         ArrayRef<int64_t> ext) {
  Type inElem = cast<MemRefType>(in.getType()).getElementType();
  const int64_t inBytes = inElem.getIntOrFloatBitWidth() / 8;
  // Per row step and unit: the loaded elements (none where the unit lies
  // past the row).
  SmallVector<SmallVector<Value>> loaded;
  for (Value q : qs) {
    // Plane row of cell row q: its leading-dims coordinates, row-major.
    Value row = c(0);
    Value rest = q;
    int64_t stride = 1;
    for (size_t i = ext.size(); i-- > 0;) {
      Value digit = i == 0 ? rest : arith::RemUIOp::create(b, rest, c(ext[i]));
      if (i > 0)
        rest = arith::DivUIOp::create(b, rest, c(ext[i]));
      row = add(row, mul(add(digit, c(start[i])), c(stride)));
      stride *= op.getInput().getType().getDimSize(i + 2);
    }
    Value rowBase = add(planeBase, mul(row, c(l.rowLen)));
    for (auto [col, valid] : llvm::zip(unitColumn, unitValid)) {
      Value at = add(rowBase, col);
      // Half storage (the widening cast read directly) is widened as it
      // is loaded: 2-byte loads, or 8-byte vectors of 4 halves.
      auto widen = [&](Value v) -> Value {
        return v.getType().isF32()
                   ? v
                   : arith::ExtFOp::create(b, b.getF32Type(), v).getResult();
      };
      auto load = [&]() -> SmallVector<Value> {
        if (l.vector == 1)
          return {widen(memref::LoadOp::create(b, in, ValueRange{at}))};
        Value v = vector::LoadOp::create(
            b, VectorType::get({4}, inElem), in, ValueRange{at},
            /*nontemporal=*/false, llvm::MaybeAlign(4 * inBytes));
        SmallVector<Value> r;
        for (int64_t i = 0; i < 4; ++i)
          r.push_back(widen(vector::ExtractOp::create(b, v, i)));
        return r;
      };
      if (!valid) {
        loaded.push_back(load());
        continue;
      }
      // The last unit of a row wider than the block: only some threads.
      SmallVector<Type> types(l.vector, b.getF32Type());
      auto inRow = scf::IfOp::create(b, types, valid, true);
      b.setInsertionPointToStart(&inRow.getThenRegion().front());
      scf::YieldOp::create(b, load());
      b.setInsertionPointToStart(&inRow.getElseRegion().front());
      scf::YieldOp::create(b, SmallVector<Value>(l.vector, fzero()));
      b.setInsertionPointAfter(inRow);
      loaded.push_back(SmallVector<Value>(inRow.getResults()));
    }
  }
  return loaded;
}

SmallVector<Value> BoxSumsEmitter::addRows(ArrayRef<Value> qs,
                                           ArrayRef<int64_t> start,
                                           ArrayRef<int64_t> ext,
                                           SmallVector<Value> acc) {
  SmallVector<SmallVector<Value>> loaded = loadRows(qs, start, ext);
  const size_t units = unitColumn.size();
  for (auto [i, values] : llvm::enumerate(loaded))
    for (auto [v, x] : llvm::enumerate(values)) {
      size_t a = (i % units) * l.vector + v;
      acc[a] = addf(acc[a], x);
    }
  return acc;
}

int64_t BoxSumsEmitter::cellExtent(int64_t cell,
                                   SmallVectorImpl<int64_t> &start,
                                   SmallVectorImpl<int64_t> &ext) {
  // Leading-dims region indices of `cell`, row-major.
  const size_t lead = l.cuts.size() - 1;
  SmallVector<int64_t> at(lead, 0);
  int64_t rest = cell;
  for (size_t i = lead; i-- > 0;) {
    at[i] = rest % l.regions(i);
    rest /= l.regions(i);
  }
  int64_t rows = 1;
  for (auto [i, r] : llvm::enumerate(at)) {
    start.push_back(l.cuts[i][r]);
    ext.push_back(l.cuts[i][r + 1] - l.cuts[i][r]);
    rows *= ext.back();
  }
  return rows;
}

void BoxSumsEmitter::sumRowCell(int64_t cell) {
  SmallVector<int64_t> start, ext;
  const int64_t cellRows = cellExtent(cell, start, ext);
  // Inactive threads start past the cell's rows.
  Value first =
      active ? Value(arith::SelectOp::create(b, active, rowSlot, c(cellRows)))
             : rowSlot;
  SmallVector<Value> acc(unitColumn.size() * l.vector, fzero());
  const int64_t step = l.rowsPerStep;
  // `unroll` row steps per iteration while all are in the cell, then one.
  auto rowLoop = [&](Value from, int64_t upper, int64_t steps) {
    SmallVector<Value> init = {from};
    llvm::append_range(init, acc);
    auto loop = scf::ForOp::create(b, from, c(upper), c(steps * step), init);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value q = loop.getInductionVar();
    SmallVector<Value> qs;
    for (int64_t u = 0; u < steps; ++u)
      qs.push_back(u == 0 ? q : add(q, c(u * step)));
    ValueRange it = loop.getRegionIterArgs();
    SmallVector<Value> next = {add(q, c(steps * step))};
    llvm::append_range(
        next, addRows(qs, start, ext, SmallVector<Value>(it.drop_front())));
    scf::YieldOp::create(b, next);
    return loop;
  };
  const int64_t mainUpper = cellRows - (l.unroll - 1) * step;
  if (l.unroll > 1 && mainUpper > 0) {
    scf::ForOp main = rowLoop(first, mainUpper, l.unroll);
    first = main.getResult(0);
    acc.assign(main.getResults().begin() + 1, main.getResults().end());
  }
  scf::ForOp rest = rowLoop(first, cellRows, 1);
  acc.assign(rest.getResults().begin() + 1, rest.getResults().end());
  storeCell(cell, acc);
}

void BoxSumsEmitter::sumCellsStraight() {
  // Every row step of every cell: its rows (an in-cell row where the step
  // passes the cell or the thread is inactive) and whether they count.
  struct Step {
    int64_t cell;
    Value valid;
    SmallVector<SmallVector<Value>> loaded;
  };
  SmallVector<Step> steps;
  for (int64_t cell = 0; cell < l.leadCells(); ++cell) {
    SmallVector<int64_t> start, ext;
    const int64_t rows = cellExtent(cell, start, ext);
    for (int64_t s = 0; s * l.rowsPerStep < rows; ++s) {
      Value q = add(rowSlot, c(s * l.rowsPerStep));
      Value valid = active;
      if ((s + 1) * l.rowsPerStep > rows) {
        Value inCell =
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, q, c(rows));
        valid = valid ? Value(arith::AndIOp::create(b, valid, inCell)) : inCell;
      }
      if (valid)
        q = arith::SelectOp::create(b, valid, q, c(0));
      steps.push_back({cell, valid, loadRows({q}, start, ext)});
    }
  }
  const size_t units = unitColumn.size();
  SmallVector<SmallVector<Value>> acc(
      l.leadCells(), SmallVector<Value>(units * l.vector, fzero()));
  for (Step &st : steps)
    for (auto [u, values] : llvm::enumerate(st.loaded))
      for (auto [v, x] : llvm::enumerate(values)) {
        Value term =
            st.valid ? Value(arith::SelectOp::create(b, st.valid, x, fzero()))
                     : x;
        Value &a = acc[st.cell][u * l.vector + v];
        a = addf(a, term);
      }
  for (int64_t cell = 0; cell < l.leadCells(); ++cell)
    storeCell(cell, acc[cell]);
}

void BoxSumsEmitter::storeCell(int64_t cell, ArrayRef<Value> acc) {
  // Per column region: the thread's sum, the warp's, into the warp's slot.
  const int64_t colRegions = l.regions(l.cuts.size() - 1);
  auto addF = [&](Value x, Value y) { return addf(x, y); };
  for (int64_t w = 0; w < colRegions; ++w) {
    Value sum;
    for (auto [a, x] : llvm::enumerate(acc)) {
      Value term = colRegions == 1
                       ? x
                       : Value(arith::SelectOp::create(
                             b,
                             arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                                   accRegion[a], c(w)),
                             x, fzero()));
      sum = sum ? addf(sum, term) : term;
    }
    sum = emitWarpAllReduce(b, sum, 32, addF);
    auto leader = scf::IfOp::create(
        b, TypeRange{},
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, c(0)), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&leader.getThenRegion().front());
    memref::StoreOp::create(
        b, sum, smem,
        ValueRange{add(mul(warp, c(l.cells())), c(cell * colRegions + w))});
  }
}

void BoxSumsEmitter::combineWarps() {
  // Cell totals after the warps' slots: slots [warps x cells, + cells).
  // Plane p's warps are the block's warps [p wpp, (p + 1) wpp), so its
  // cell's slots are wpp cells apart from (p wpp) cells + the cell.
  gpu::BarrierOp::create(b);
  const int64_t warps = l.threads / 32, wpp = l.threadsPerPlane / 32;
  auto loop =
      scf::ForOp::create(b, tid, c(l.planesPerBlock * l.cells()), c(l.threads));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Value first = i;
    if (l.planesPerBlock > 1 && wpp > 1) {
      Value p = arith::DivUIOp::create(b, i, c(l.cells()));
      first = add(i, mul(p, c((wpp - 1) * l.cells())));
    }
    Value sum = memref::LoadOp::create(b, smem, ValueRange{first});
    for (int64_t w = 1; w < wpp; ++w)
      sum = addf(sum, memref::LoadOp::create(
                          b, smem, ValueRange{add(first, c(w * l.cells()))}));
    memref::StoreOp::create(b, sum, smem,
                            ValueRange{add(i, c(warps * l.cells()))});
  }
  gpu::BarrierOp::create(b);
}

void BoxSumsEmitter::composeTaps() {
  const int64_t warps = l.threads / 32;
  ArrayRef<int64_t> k = op.getKernelSize();
  const size_t nsp = k.size();
  auto loop =
      scf::ForOp::create(b, tid, c(l.planesPerBlock * l.taps()), c(l.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  // Tap `tap` of the block's plane `p`, whose cell totals start at
  // (warps + p) cells.
  Value i = loop.getInductionVar(), tap = i, p = c(0);
  if (l.planesPerBlock > 1) {
    p = arith::DivUIOp::create(b, i, c(l.taps()));
    tap = arith::RemUIOp::create(b, i, c(l.taps()));
  }
  Value totals = mul(add(p, c(warps)), c(l.cells()));
  // Per dim the tap index, its interval and the regions it covers.
  SmallVector<Value> lo(nsp), hi(nsp);
  Value rest = tap;
  for (size_t i = nsp; i-- > 0;) {
    Value j = i == 0 ? rest : arith::RemUIOp::create(b, rest, c(k[i]));
    if (i > 0)
      rest = arith::DivUIOp::create(b, rest, c(k[i]));
    auto [from, to] = op.buildTapInterval(b, b.getLoc(), i, j);
    // An empty interval (to <= from) covers no region.
    lo[i] = regionOf(i, from);
    hi[i] = regionOf(i, arith::MaxSIOp::create(b, from, to));
  }
  // The cells of the box, row-major over the region grid.
  std::function<Value(size_t, Value, Value)> nest = [&](size_t i, Value flat,
                                                        Value acc) -> Value {
    if (i == nsp)
      return addf(
          acc, memref::LoadOp::create(b, smem, ValueRange{add(flat, totals)}));
    auto inner = scf::ForOp::create(b, lo[i], hi[i], c(1), ValueRange{acc});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(inner.getBody());
    Value f = add(mul(flat, c(l.regions(i))), inner.getInductionVar());
    scf::YieldOp::create(b, nest(i + 1, f, inner.getRegionIterArgs()[0]));
    return inner.getResult(0);
  };
  Value sum = nest(0, c(0), fzero());
  double scale = op.getScale().convertToDouble();
  if (scale != 1.0)
    sum = arith::MulFOp::create(
        b, sum, arith::ConstantOp::create(b, b.getF32FloatAttr(scale)));
  Value at = add(mul(add(firstPlane, p), c(l.taps())), tap);
  if (l.planes % l.planesPerBlock == 0) {
    memref::StoreOp::create(b, sum, out, ValueRange{at});
    return;
  }
  auto inside =
      scf::IfOp::create(b, TypeRange{},
                        arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                              add(firstPlane, p), c(l.planes)),
                        false);
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  memref::StoreOp::create(b, sum, out, ValueRange{at});
}

void BoxSumsEmitter::emit() {
  setUpThread();
  if (l.straight) {
    sumCellsStraight();
  } else {
    for (int64_t cell = 0; cell < l.leadCells(); ++cell)
      sumRowCell(cell);
  }
  combineWarps();
  composeTaps();
}

FailureOr<SmallVector<StandaloneLaunch>>
fusecc::detail::buildBoxSumsKernel(gpu::GPUModuleOp gpuModule,
                                   KernelOp kernel) {
  std::optional<BoxSumsLayout> layout = BoxSumsLayout::get(kernel);
  if (!layout)
    return kernel.emitOpError("is not a box-sums kernel (one "
                              "conv_transpose_tap_sums on its input)");
  const BoxSumsLayout &l = *layout;
  auto flat = [](Type t) {
    auto tt = cast<RankedTensorType>(t);
    return MemRefType::get({tt.getNumElements()}, tt.getElementType());
  };
  ConvTransposeTapSumsOp op = l.op;
  ImplicitLocOpBuilder b(kernel.getLoc(), kernel.getContext());
  // The kernel's input: f32, or half storage the loads widen.
  SmallVector<Type> argTypes = {flat(kernel.getInputs().front().getType()),
                                flat(kernel.getResult().getType())};
  gpu::GPUFuncOp func = createStandaloneFunc(
      b, gpuModule, kernel.getKernelName(), argTypes, l.threads);
  auto wg =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto bytesTy = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface{}, wg);
  Value raw = gpu::DynamicSharedMemoryOp::create(b, bytesTy);
  Value smem = memref::ViewOp::create(
      b,
      MemRefType::get({l.sharedBytes() / 4}, b.getF32Type(),
                      MemRefLayoutAttrInterface{}, wg),
      raw, arith::ConstantIndexOp::create(b, 0), ValueRange{});
  BoxSumsEmitter(b, l, func.getArgument(0), func.getArgument(1), smem).emit();

  StandaloneLaunch launch;
  launch.func = func;
  launch.gridX = l.blocks();
  launch.blockX = l.threads;
  launch.sharedBytes = l.sharedBytes();
  launch.params = {{StandaloneLaunch::ParamKind::Input, 0},
                   {StandaloneLaunch::ParamKind::Output, 0}};
  return SmallVector<StandaloneLaunch>{launch};
}
