//===- NormEmitter.cpp - statistics of reduction sets ---------------------===//
//
// The statistics of the normalisation and reduction kernels, by kind:
//  - Moments: a chunk's sum is taken relative to the set's first element
//    (shifted data), its squared deviations about its own mean (two
//    passes); partials and records merge pairwise with Chan's formula.
//  - MaxSumExp (softmax, log_softmax, logsumexp): (max m, sum of
//    exp(x - m)), with the sum taken about 0 where m is -inf (so a chunk or
//    record of -inf values only, or of none, is (-inf, 0): neutral);
//    partials merge by rescaling each sum to the common max M by
//    exp(m - M), by 1 where m == M (two infinite maxima of one sign). A max
//    of +inf or NaN gives a NaN sum, so a softmax or log_softmax of such a
//    set is NaN, as in PyTorch; so is one of a set of -inf values only
//    (x - m is NaN). The element is exp(x - m) * (1 / s), or for the log
//    form (x - m) - log(s) (SoftmaxForm).
//  - Max, Min: the extreme (maximumf / minimumf: NaN propagates).
// A logsumexp is m + log(sum), or m where m is infinite (PyTorch takes an
// infinite max as 0: +inf stays +inf, a set of -inf values gives -inf).
//
//===----------------------------------------------------------------------===//

#include "NormEmitter.h"
#include "NarrowStore.h"
#include "WarpReduce.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::detail;

static constexpr double kInf = std::numeric_limits<double>::infinity();

NormEmitter::NormEmitter(StandaloneContext &cx, const NormLayout &l)
    : cx(cx), b(cx.b), l(l), root(l.root.op), kind(l.root.kind) {
  if (auto ln = dyn_cast<LayerNormOp>(root))
    eps = ln.getEpsilon().convertToDouble();
  if (auto gn = dyn_cast<GroupNormOp>(root))
    eps = gn.getEpsilon().convertToDouble();
}

Value NormEmitter::add(Value x, Value y) {
  return arith::AddIOp::create(b, x, y);
}
Value NormEmitter::mul(Value x, Value y) {
  return arith::MulIOp::create(b, x, y);
}
Value NormEmitter::addF(Value x, Value y) {
  return arith::AddFOp::create(b, x, y);
}
Value NormEmitter::subF(Value x, Value y) {
  return arith::SubFOp::create(b, x, y);
}
Value NormEmitter::mulF(Value x, Value y) {
  return arith::MulFOp::create(b, x, y);
}
Value NormEmitter::divF(Value x, Value y) {
  return arith::DivFOp::create(b, x, y);
}
Value NormEmitter::maxF(Value x, Value y) {
  return arith::MaximumFOp::create(b, x, y);
}
Value NormEmitter::minF(Value x, Value y) {
  return arith::MinimumFOp::create(b, x, y);
}
Value NormEmitter::expF(Value x) { return math::ExpOp::create(b, x); }
Value NormEmitter::eqF(Value x, Value y) {
  return arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, x, y);
}
Value NormEmitter::select(Value c, Value x, Value y) {
  return arith::SelectOp::create(b, c, x, y);
}
Value NormEmitter::toF(Value index) {
  return arith::UIToFPOp::create(
      b, cx.elementType,
      arith::IndexCastUIOp::create(b, b.getI64Type(), index));
}
Value NormEmitter::load(Value mem, Value i) {
  return memref::LoadOp::create(b, mem, ValueRange{i});
}
Value NormEmitter::extreme(Value x, Value y) {
  return kind == StatsKind::Min ? minF(x, y) : maxF(x, y);
}
Value NormEmitter::noExtreme() {
  return f(kind == StatsKind::Min ? kInf : -kInf);
}

Value NormEmitter::accumulate(Value first, Value end, int64_t step, Value init,
                              function_ref<Value(Value)> addr,
                              function_ref<Value(Value, Value)> combine,
                              function_ref<Value(Value)> term) {
  auto loop = scf::ForOp::create(b, first, end, c(step), ValueRange{init});
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value v = load(x, addr(loop.getInductionVar()));
  scf::YieldOp::create(
      b, ValueRange{combine(loop.getRegionIterArgs()[0], term(v))});
  return loop.getResult(0);
}

Value NormEmitter::accumulateSum(Value first, Value end, int64_t step,
                                 function_ref<Value(Value)> addr,
                                 function_ref<Value(Value)> term) {
  Value zero = f(0.0);
  auto loop =
      scf::ForOp::create(b, first, end, c(step), ValueRange{zero, zero});
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value v = term(load(x, addr(loop.getInductionVar())));
    Value sum = loop.getRegionIterArgs()[0], comp = loop.getRegionIterArgs()[1];
    // t = sum + v loses the low bits of the smaller of the two: recover them
    // exactly ((big - t) + small) and keep them in `comp`.
    Value t = addF(sum, v);
    Value sumBigger = arith::CmpFOp::create(b, arith::CmpFPredicate::OGE,
                                            math::AbsFOp::create(b, sum),
                                            math::AbsFOp::create(b, v));
    Value lost =
        select(sumBigger, addF(subF(sum, t), v), addF(subF(v, t), sum));
    scf::YieldOp::create(b, ValueRange{t, addF(comp, lost)});
  }
  return addF(loop.getResult(0), loop.getResult(1));
}

Value NormEmitter::warpReduce(Value v,
                              function_ref<Value(Value, Value)> combine) {
  return emitWarpAllReduce(b, v, 32, combine);
}

Value NormEmitter::blockReduce(Value v, Value tid,
                               function_ref<Value(Value, Value)> combine) {
  // Warps reduce, lane 0 of each stores its value in this reduction's own
  // shared slots, and after one barrier every thread combines the slots.
  v = warpReduce(v, combine);
  int64_t base = kNormWarps * reductions++;
  Value lane = arith::RemUIOp::create(b, tid, c(32));
  Value warp = arith::DivUIOp::create(b, tid, c(32));
  auto first = scf::IfOp::create(
      b, TypeRange{},
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, c(0)), false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    memref::StoreOp::create(b, v, smem, ValueRange{add(warp, c(base))});
  }
  gpu::BarrierOp::create(b);
  Value r = sload(base);
  for (int64_t w = 1; w < kNormWarps; ++w)
    r = combine(r, sload(base + w));
  return r;
}

NormStats NormEmitter::chunkStats(Value count, Value first, Value end,
                                  int64_t step, function_ref<Value(Value)> addr,
                                  Reduce reduce) {
  auto addFn = [&](Value p, Value q) { return addF(p, q); };
  auto extremeFn = [&](Value p, Value q) { return extreme(p, q); };
  auto identity = [](Value v) { return v; };
  switch (kind) {
  case StatsKind::Max:
  case StatsKind::Min:
    return {reduce(accumulate(first, end, step, noExtreme(), addr, extremeFn,
                              identity),
                   extremeFn),
            Value()};
  case StatsKind::MaxSumExp: {
    Value m = reduce(
        accumulate(first, end, step, noExtreme(), addr, extremeFn, identity),
        extremeFn);
    // About 0 where every element is -inf (or none is there): sum 0.
    Value about = select(eqF(m, f(-kInf)), f(0.0), m);
    Value s = accumulateSum(first, end, step, addr,
                            [&](Value v) { return expF(subF(v, about)); });
    return {m, reduce(s, addFn)};
  }
  case StatsKind::Moments:
    break;
  }
  // Sums relative to the set's first element (`shift`, loaded by setShift),
  // then the squared deviations about the chunk's mean. The mean is kept as
  // shift + delta: a mean rounded to f32 would cost half an ulp of |mean| on
  // every output (3e-5 of the std at mean 1e3). A sum or mean needs no
  // deviations (and no shift, `needsSpread`).
  Value s = accumulateSum(first, end, step, addr,
                          [&](Value v) { return subF(v, shift); });
  Value delta = divF(reduce(s, addFn), toF(count));
  if (!needsSpread())
    return {delta, f(0.0)};
  Value m2 = accumulateSum(first, end, step, addr, [&](Value v) {
    Value d = subF(subF(v, shift), delta);
    return mulF(d, d);
  });
  return {delta, reduce(m2, addFn)};
}

bool NormEmitter::needsSpread() const {
  return l.root.reduction != SetReduction::Sum &&
         l.root.reduction != SetReduction::Mean;
}

void NormEmitter::setShift(function_ref<Value(Value)> addr) {
  if (kind != StatsKind::Moments)
    return;
  // A sum or mean about the first element would cancel: the sum is then
  // len x shift + (sum - len x shift), off by an ulp of len x |shift| (a
  // sum of 4800 normal values at 4e-6 of the result); summed about 0 with
  // the compensation it is within an ulp of itself.
  shift = needsSpread() ? load(x, addr(c(0))) : f(0.0);
}

NormStats NormEmitter::finish(NormStats s) {
  switch (kind) {
  case StatsKind::MaxSumExp:
    if (l.root.form == SoftmaxForm::Log)
      return {s.a, math::LogOp::create(b, s.b)};
    return {s.a, divF(f(1.0), s.b)};
  case StatsKind::Max:
  case StatsKind::Min:
    return s;
  case StatsKind::Moments:
    break;
  }
  Value var = divF(s.b, f(static_cast<double>(l.len)));
  return {s.a, divF(f(1.0), math::SqrtOp::create(b, addF(var, f(eps))))};
}

Value NormEmitter::normalized(Value e, ArrayRef<Value> coords, NormStats k) {
  return normalizedValue(load(x, e), coords, k);
}

Value NormEmitter::normalizedValue(Value v, ArrayRef<Value> coords,
                                   NormStats k) {
  if (kind == StatsKind::MaxSumExp)
    return l.root.form == SoftmaxForm::Log ? subF(subF(v, k.a), k.b)
                                           : mulF(expF(subF(v, k.a)), k.b);
  Value y = mulF(subF(subF(v, shift), k.a), k.b);
  Value weight, bias;
  SmallVector<Value> pidx;
  if (auto ln = dyn_cast<LayerNormOp>(root)) {
    weight = ln.getWeight();
    bias = ln.getBias();
    pidx.append(coords.end() - ln.getNormalizedRank(), coords.end());
  } else if (auto gn = dyn_cast<GroupNormOp>(root)) {
    weight = gn.getWeight();
    bias = gn.getBias();
    pidx.push_back(coords[1]);
  }
  if (weight)
    y = mulF(y, memref::LoadOp::create(b, cx.memOf.lookup(weight), pidx));
  if (bias)
    y = addF(y, memref::LoadOp::create(b, cx.memOf.lookup(bias), pidx));
  return y;
}

void NormEmitter::apply(Value first, Value end, int64_t step,
                        function_ref<Value(Value)> addr, NormStats k) {
  auto loop = scf::ForOp::create(b, first, end, c(step));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = addr(loop.getInductionVar());
  // Element e of the set in the root's shape, and in the kernel result's
  // (the same when no view follows the root).
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(root->getResult(0).getType()).getShape();
  storeResult(e, normalized(e, cx.coordsOf(e, shape), k));
}

void NormEmitter::storeResult(Value e, Value rootValue) {
  memref::StoreOp::create(b,
                          emit::narrowForStore(b, out, resultAt(e, rootValue)),
                          out, ValueRange{e});
}

Value NormEmitter::resultAt(Value e, Value rootValue) {
  SmallVector<Value> coords =
      cx.coordsOf(e, cx.kernel.getResult().getType().getShape());
  DenseMap<Value, Value> memo;
  Value result =
      cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
  return cx.evaluate(
      result, coords,
      [&](Operation *op) { return op == root ? rootValue : Value(); }, memo);
}

bool NormEmitter::quadAligned() const {
  auto in = cast<RankedTensorType>(root->getOperand(0).getType());
  auto res = cast<RankedTensorType>(cx.kernel.getResult().getType());
  return l.len % 4 == 0 && l.chunk % 4 == 0 && in.getElementType().isF32() &&
         (res.getElementType().isF32() || isHalfType(res.getElementType())) &&
         res.getNumElements() == in.getNumElements();
}

void NormEmitter::applyChunk(Value setBase, Value start, Value end, Value tid,
                             NormStats k) {
  constexpr int64_t threads = kStandaloneThreads;
  auto addr = [&](Value j) { return add(setBase, j); };
  if (!quadAligned()) {
    apply(add(start, tid), end, threads, addr, k);
    return;
  }
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(root->getResult(0).getType()).getShape();
  auto v4Ty = VectorType::get({4}, b.getF32Type());
  // Quads q, q + 4 x threads, ... (u of them) from `first`: all loaded, then
  // normalised and stored, so that each thread has u 16-byte loads in
  // flight.
  auto quads = [&](Value first, int64_t u) {
    SmallVector<Value> loaded;
    SmallVector<Value> at;
    for (int64_t i = 0; i < u; ++i) {
      at.push_back(addr(add(first, c(i * 4 * threads))));
      loaded.push_back(vector::LoadOp::create(b, v4Ty, x, ValueRange{at[i]},
                                              /*nontemporal=*/false,
                                              llvm::MaybeAlign(16)));
    }
    for (int64_t i = 0; i < u; ++i) {
      SmallVector<Value> results;
      for (int64_t lane = 0; lane < 4; ++lane) {
        Value e = add(at[i], c(lane));
        Value v = vector::ExtractOp::create(b, loaded[i], lane);
        results.push_back(
            resultAt(e, normalizedValue(v, cx.coordsOf(e, shape), k)));
      }
      // A half result (a half store): 4 halves, one 8-byte store.
      vector::StoreOp::create(
          b,
          emit::narrowForStore(
              b, out, vector::FromElementsOp::create(b, v4Ty, results)),
          out, ValueRange{at[i]}, /*nontemporal=*/false,
          llvm::MaybeAlign(4 * emit::outElementBytes(out)));
    }
  };
  // Whole rounds of kQuadsPerThread quads per thread, then single quads.
  const int64_t round = 4 * threads * kQuadsPerThread;
  Value mine = add(start, mul(tid, c(4)));
  Value span = arith::SubIOp::create(b, end, start);
  Value full = mul(arith::DivUIOp::create(b, span, c(round)), c(round));
  Value fullEnd = add(start, full);
  {
    auto loop = scf::ForOp::create(b, mine, fullEnd, c(round));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    quads(loop.getInductionVar(), kQuadsPerThread);
  }
  auto loop =
      scf::ForOp::create(b, add(fullEnd, mul(tid, c(4))), end, c(4 * threads));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  quads(loop.getInductionVar(), 1);
}

void NormEmitter::storeReduction(Value set, NormStats s, Value writer) {
  OpBuilder::InsertionGuard g(b);
  if (writer) {
    auto op = scf::IfOp::create(b, TypeRange{}, writer, false);
    b.setInsertionPointToStart(&op.getThenRegion().front());
  }
  Value r;
  switch (l.root.reduction) {
  case SetReduction::Sum:
  case SetReduction::Mean: {
    Value mean = addF(shift, s.a);
    r = l.root.reduction == SetReduction::Sum
            ? mulF(mean, f(static_cast<double>(l.len)))
            : mean;
    break;
  }
  case SetReduction::Variance:
    // M2 / (n - correction): the set's squared deviations from its mean.
    r = divF(s.b, f(static_cast<double>(l.len - l.root.correction)));
    break;
  case SetReduction::Max:
  case SetReduction::Min:
    r = s.a;
    break;
  case SetReduction::LogSumExp: {
    Value infinite = eqF(math::AbsFOp::create(b, s.a), f(kInf));
    r = select(infinite, s.a, addF(s.a, math::LogOp::create(b, s.b)));
    break;
  }
  case SetReduction::None:
    llvm_unreachable("a reduction kernel's root reduces");
  }
  storeResult(set, r);
}

/// `sum` of a partial with max `m`, rescaled to the common max `to`.
static Value rescale(NormEmitter &em, Value sum, Value m, Value to) {
  return em.select(em.eqF(m, to), sum, em.mulF(sum, em.expF(em.subF(m, to))));
}

void NormEmitter::merge(Value &n, NormStats &acc, Value nq, NormStats q) {
  switch (kind) {
  case StatsKind::Max:
  case StatsKind::Min:
    acc.a = extreme(acc.a, q.a);
    return;
  case StatsKind::MaxSumExp: {
    Value m = maxF(acc.a, q.a);
    acc.b = addF(rescale(*this, acc.b, acc.a, m), rescale(*this, q.b, q.a, m));
    acc.a = m;
    return;
  }
  case StatsKind::Moments:
    break;
  }
  Value total = addF(n, nq);
  Value delta = subF(q.a, acc.a);
  acc.a = addF(acc.a, mulF(delta, divF(nq, total)));
  acc.b = addF(addF(acc.b, q.b),
               divF(mulF(mulF(delta, delta), mulF(n, nq)), total));
  n = total;
}

NormRecord NormEmitter::emptyRecord() {
  switch (kind) {
  case StatsKind::Moments:
    return {{f(0.0), f(0.0), f(0.0), f(0.0)}};
  case StatsKind::MaxSumExp:
    return {{f(-kInf), f(0.0)}};
  case StatsKind::Max:
  case StatsKind::Min:
    return {{noExtreme()}};
  }
  llvm_unreachable("statistics kind");
}

NormRecord NormEmitter::mergeRecords(const NormRecord &acc,
                                     const NormRecord &q) {
  const auto &a = acc.fields, &r = q.fields;
  switch (kind) {
  case StatsKind::Max:
  case StatsKind::Min:
    return {{extreme(a[0], r[0])}};
  case StatsKind::MaxSumExp: {
    Value m = maxF(a[0], r[0]);
    return {{m, addF(rescale(*this, a[1], a[0], m),
                     rescale(*this, r[1], r[0], m))}};
  }
  case StatsKind::Moments:
    break;
  }
  // (count, shift, mean - shift, M2), keeping acc's shift.
  Value n = addF(a[0], r[0]);
  Value diff = addF(subF(r[1], a[1]), subF(r[2], a[2]));
  Value w = divF(r[0], maxF(n, f(1.0)));
  SmallVector<Value, 4> m{
      n, a[1], addF(a[2], mulF(diff, w)),
      addF(addF(a[3], r[3]), mulF(mulF(diff, diff), mulF(a[0], w)))};
  Value qEmpty = eqF(r[0], f(0.0));
  Value accEmpty = eqF(a[0], f(0.0));
  NormRecord out;
  for (int64_t i = 0; i < 4; ++i)
    out.fields.push_back(select(qEmpty, a[i], select(accEmpty, r[i], m[i])));
  return out;
}

NormRecord NormEmitter::warpMergeRecords(NormRecord r) {
  for (int64_t off = 16; off >= 1; off /= 2) {
    NormRecord other;
    for (Value v : r.fields)
      other.fields.push_back(
          gpu::ShuffleOp::create(b, v, off, 32, gpu::ShuffleMode::XOR)
              .getShuffleResult());
    r = mergeRecords(r, other);
  }
  return r;
}

NormRecord NormEmitter::loadRecord(Value mem, Value at) {
  NormRecord q;
  for (int64_t i = 0, e = EpilogueStatsLayout::recordSizeOf(kind); i < e; ++i)
    q.fields.push_back(load(mem, add(at, c(i))));
  return q;
}

NormRecord NormEmitter::mergeRecordRange(Value mem, Value first, Value end,
                                         int64_t step,
                                         function_ref<Value(Value)> recordAt) {
  auto loop = scf::ForOp::create(b, first, end, c(step), emptyRecord().fields);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    NormRecord q = loadRecord(mem, recordAt(loop.getInductionVar()));
    NormRecord acc;
    acc.fields.append(loop.getRegionIterArgs().begin(),
                      loop.getRegionIterArgs().end());
    scf::YieldOp::create(b, mergeRecords(acc, q).fields);
  }
  NormRecord r;
  r.fields.append(loop.getResults().begin(), loop.getResults().end());
  return r;
}

NormRecord NormEmitter::blockMergeRecords(NormRecord r, Value tid) {
  r = warpMergeRecords(r);
  const int64_t fields = r.fields.size();
  assert(fields * kNormWarps <= kNormSharedFloats &&
         "a record per warp fits the shared statistics");
  {
    OpBuilder::InsertionGuard g(b);
    Value lane = arith::RemUIOp::create(b, tid, c(32));
    Value warp = arith::DivUIOp::create(b, tid, c(32));
    auto first = scf::IfOp::create(
        b, TypeRange{},
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, c(0)), false);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    Value slot = mul(warp, c(fields));
    for (auto [i, v] : llvm::enumerate(r.fields))
      memref::StoreOp::create(b, v, smem, ValueRange{add(slot, c(i))});
  }
  gpu::BarrierOp::create(b);
  auto warpRecord = [&](int64_t w) {
    NormRecord rec;
    for (int64_t i = 0; i < fields; ++i)
      rec.fields.push_back(sload(fields * w + i));
    return rec;
  };
  NormRecord acc = warpRecord(0);
  for (int64_t w = 1; w < kNormWarps; ++w)
    acc = mergeRecords(acc, warpRecord(w));
  return acc;
}

NormStats NormEmitter::recordStats(const NormRecord &r) {
  switch (kind) {
  case StatsKind::Moments:
    shift = r.fields[1];
    return {r.fields[2], r.fields[3]};
  case StatsKind::MaxSumExp:
    return {r.fields[0], r.fields[1]};
  case StatsKind::Max:
  case StatsKind::Min:
    return {r.fields[0], Value()};
  }
  llvm_unreachable("statistics kind");
}
