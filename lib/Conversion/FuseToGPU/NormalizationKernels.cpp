//===- NormalizationKernels.cpp - normalisations as planned phases --------===//
//
// Kernels of a normalisation whose reduction sets span blocks (group_norm,
// layer_norm over several dims, a softmax not fused behind a convolution),
// followed by the kernel's elementwise ops. `NormLayout` (Plan.h) picks one
// of three shapes:
//  - Warp: one warp per set, statistics in registers and warp shuffles;
//  - Column: one thread per set (sets strided in memory, consecutive
//    threads on consecutive sets);
//  - Split: `parts` blocks per set each write partial statistics of their
//    chunk to the plan's partials workspace (`<kernel>_stats`); the
//    normalising kernel (`<kernel>`) then combines a set's partials in
//    every block (Chan et al.: no catastrophic cancellation) and normalises
//    its chunk.
//  - Epilogue: as Split, but the partials are records that the epilogue of
//    the convolution computing the input wrote (EpilogueStatistics.cpp),
//    each with its own shift; the threads of a block merge them in
//    parallel. The input is read once.
// Statistics are numerically stable throughout: a chunk's sum is taken
// relative to its first element (shifted data), its squared deviations
// about its own mean (two passes), and partials merge pairwise with Chan's
// formula. Softmax keeps (max, sum of exp(x - max)) and merges by
// rescaling.
//
//===----------------------------------------------------------------------===//

#include "StandaloneKernels.h"
#include "WarpReduce.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::detail;

namespace {

constexpr int64_t kWarps = kStandaloneThreads / 32;
/// Shared memory of a block reduction: one slot per warp, per reduction,
/// plus the two statistics broadcast to the block (Epilogue: four values
/// per warp, its merged record).
constexpr int64_t kSharedFloats = 4 * kWarps + 2;

/// The two statistics of a chunk or a set: (mean, M2) or (max, sum).
struct Stats {
  Value a, b;
};

struct NormEmitter {
  StandaloneContext &cx;
  ImplicitLocOpBuilder &b;
  const NormLayout &l;
  Operation *root; ///< The normalisation op.
  /// Softmax: (max, sum of exp) statistics; else (mean, M2).
  bool maxSum;
  double eps = 0.0;
  Value x;      ///< The root's input, flat.
  Value out;    ///< The kernel's output, flat.
  Value smem;   ///< kSharedFloats statistics (block reductions), or null.
  /// Mean/variance: the set's first element; statistics are relative to it.
  Value shift;
  int64_t reductions = 0;

  NormEmitter(StandaloneContext &cx, const NormLayout &l)
      : cx(cx), b(cx.b), l(l), root(l.root.op) {
    maxSum = !l.root.moments;
    if (auto ln = dyn_cast<LayerNormOp>(root))
      eps = ln.getEpsilon().convertToDouble();
    if (auto gn = dyn_cast<GroupNormOp>(root))
      eps = gn.getEpsilon().convertToDouble();
  }

  Value c(int64_t v) { return cx.c(v); }
  Value f(double v) { return cx.f(v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value addF(Value x, Value y) { return arith::AddFOp::create(b, x, y); }
  Value subF(Value x, Value y) { return arith::SubFOp::create(b, x, y); }
  Value mulF(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value divF(Value x, Value y) { return arith::DivFOp::create(b, x, y); }
  Value maxF(Value x, Value y) { return arith::MaximumFOp::create(b, x, y); }
  Value expF(Value x) { return math::ExpOp::create(b, x); }
  Value toF(Value index) {
    return arith::UIToFPOp::create(
        b, cx.elementType,
        arith::IndexCastUIOp::create(b, b.getI64Type(), index));
  }
  Value load(Value mem, Value i) {
    return memref::LoadOp::create(b, mem, ValueRange{i});
  }
  Value sload(int64_t i) { return load(smem, c(i)); }

  /// Sums (or maxes) `term(x[addr(j)])` over j = first, first + step, ...
  /// below `end` into one per-thread value.
  Value accumulate(Value first, Value end, int64_t step, Value init,
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

  /// Combines `v` over the 32 lanes of a warp (every lane gets the result).
  Value warpReduce(Value v, function_ref<Value(Value, Value)> combine) {
    return emitWarpAllReduce(b, v, 32, combine);
  }

  /// Combines `v` over the block (every thread gets the result): warps
  /// reduce, lane 0 of each stores its value in this reduction's own
  /// shared slots, and after one barrier every thread combines the slots.
  Value blockReduce(Value v, Value tid,
                    function_ref<Value(Value, Value)> combine) {
    v = warpReduce(v, combine);
    int64_t base = kWarps * reductions++;
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
    for (int64_t w = 1; w < kWarps; ++w)
      r = combine(r, sload(base + w));
    return r;
  }

  /// The statistics of elements first, first + step, ... below `end` of a
  /// chunk [start, end) (`count` elements), combined over the threads that
  /// split the chunk by `reduce`.
  Stats chunkStats(Value start, Value end, Value count, Value first,
                   int64_t step, function_ref<Value(Value)> addr,
                   function_ref<Value(Value, function_ref<Value(Value, Value)>)>
                       reduce) {
    auto addFn = [&](Value p, Value q) { return addF(p, q); };
    if (maxSum) {
      auto maxFn = [&](Value p, Value q) { return maxF(p, q); };
      Value m = accumulate(first, end, step,
                           f(-std::numeric_limits<double>::infinity()), addr,
                           maxFn, [](Value v) { return v; });
      m = reduce(m, maxFn);
      Value s = accumulate(first, end, step, f(0.0), addr, addFn,
                           [&](Value v) { return expF(subF(v, m)); });
      return {m, reduce(s, addFn)};
    }
    // Sums relative to the set's first element (`shift`, loaded by
    // setShift), then the squared deviations about the chunk's mean. The
    // mean is kept as shift + delta: a mean rounded to f32 would cost
    // half an ulp of |mean| on every output (3e-5 of the std at mean 1e3).
    Value s = accumulate(first, end, step, f(0.0), addr, addFn,
                         [&](Value v) { return subF(v, shift); });
    Value delta = divF(reduce(s, addFn), toF(count));
    Value m2 = accumulate(first, end, step, f(0.0), addr, addFn, [&](Value v) {
      Value d = subF(subF(v, shift), delta);
      return mulF(d, d);
    });
    return {delta, reduce(m2, addFn)};
  }

  /// Loads the set's shift (its element 0).
  void setShift(function_ref<Value(Value)> addr) {
    if (!maxSum)
      shift = load(x, addr(c(0)));
  }

  /// The per-element factors of a set from its statistics: (mean - shift,
  /// 1 / sqrt(var + eps)) or (max, 1 / sum).
  Stats finish(Stats s) {
    if (maxSum)
      return {s.a, divF(f(1.0), s.b)};
    Value var = divF(s.b, f(static_cast<double>(l.len)));
    return {s.a, divF(f(1.0), math::SqrtOp::create(b, addF(var, f(eps))))};
  }

  /// The root's value at flat element `e` (coordinates `coords`).
  Value normalized(Value e, ArrayRef<Value> coords, Stats k) {
    Value v = load(x, e);
    if (maxSum)
      return mulF(expF(subF(v, k.a)), k.b);
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

  /// Normalises elements first, first + step, ... below `end` of a set and
  /// stores the kernel's result there.
  void apply(Value first, Value end, int64_t step,
             function_ref<Value(Value)> addr, Stats k) {
    auto loop = scf::ForOp::create(b, first, end, c(step));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value e = addr(loop.getInductionVar());
    // Element e of the set in the root's shape, and in the kernel result's
    // (the same when no view follows the root).
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(l.root.op->getResult(0).getType()).getShape();
    storeResult(e, normalized(e, cx.coordsOf(e, shape), k));
  }

  /// Evaluates the kernel's ops after the root at flat output element `e`,
  /// the root's value there being `rootValue`, and stores the result.
  void storeResult(Value e, Value rootValue) {
    SmallVector<Value> coords =
        cx.coordsOf(e, cx.kernel.getResult().getType().getShape());
    DenseMap<Value, Value> memo;
    Value result =
        cast<YieldOp>(cx.kernel.getBody().front().getTerminator()).getValue();
    Value v = cx.evaluate(
        result, coords,
        [&](Operation *op) { return op == root ? rootValue : Value(); }, memo);
    memref::StoreOp::create(b, v, out, ValueRange{e});
  }

  /// A moment reduction's set `set`: its result from the set's finished
  /// statistics (k.a = mean - shift), carried through the ops after the root
  /// (they keep flat indices: the set's output element is `set`) and stored
  /// by the threads where `writer` holds (all when null).
  void storeReduction(Value set, Stats k, Value writer) {
    OpBuilder::InsertionGuard g(b);
    if (writer) {
      auto op = scf::IfOp::create(b, TypeRange{}, writer, false);
      b.setInsertionPointToStart(&op.getThenRegion().front());
    }
    Value mean = addF(shift, k.a);
    storeResult(set, l.root.reduction == MomentReduction::Sum
                         ? mulF(mean, f(static_cast<double>(l.len)))
                         : mean);
  }

  /// Merges partial statistics q (count nq) into (n, a, b).
  void merge(Value &n, Stats &acc, Value nq, Stats q) {
    if (maxSum) {
      Value m = maxF(acc.a, q.a);
      acc.b = addF(mulF(acc.b, expF(subF(acc.a, m))),
                   mulF(q.b, expF(subF(q.a, m))));
      acc.a = m;
      return;
    }
    Value total = addF(n, nq);
    Value delta = subF(q.a, acc.a);
    acc.a = addF(acc.a, mulF(delta, divF(nq, total)));
    acc.b = addF(addF(acc.b, q.b), divF(mulF(mulF(delta, delta), mulF(n, nq)),
                                        total));
    n = total;
  }

  /// A record of partial moments: count, shift, mean - shift, M2.
  struct Record {
    Value n, shift, delta, m2;
  };
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, c, x, y);
  }
  /// Merges record q into acc (Chan et al.), keeping acc's shift; a record
  /// that counts no element leaves the other unchanged.
  Record mergeRecords(const Record &acc, const Record &q) {
    Value n = addF(acc.n, q.n);
    Value diff = addF(subF(q.shift, acc.shift), subF(q.delta, acc.delta));
    Value w = divF(q.n, maxF(n, f(1.0)));
    Record m{n, acc.shift, addF(acc.delta, mulF(diff, w)),
             addF(addF(acc.m2, q.m2), mulF(mulF(diff, diff), mulF(acc.n, w)))};
    Value qEmpty = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, q.n,
                                         f(0.0));
    Value accEmpty = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ,
                                           acc.n, f(0.0));
    auto pick = [&](Value a, Value qv, Value mv) {
      return select(qEmpty, a, select(accEmpty, qv, mv));
    };
    return {pick(acc.n, q.n, m.n), pick(acc.shift, q.shift, m.shift),
            pick(acc.delta, q.delta, m.delta), pick(acc.m2, q.m2, m.m2)};
  }
  /// Merges `r` over the 32 lanes of a warp (every lane gets the result).
  Record warpMergeRecords(Record r) {
    for (int64_t off = 16; off >= 1; off /= 2) {
      auto shfl = [&](Value v) {
        return gpu::ShuffleOp::create(b, v, off, 32, gpu::ShuffleMode::XOR)
            .getShuffleResult();
      };
      r = mergeRecords(r, {shfl(r.n), shfl(r.shift), shfl(r.delta),
                           shfl(r.m2)});
    }
    return r;
  }
};

/// Flat 1-D memref of `numel` elements of `type`'s element type.
MemRefType flatOf(Type tensorType) {
  auto tt = cast<RankedTensorType>(tensorType);
  return MemRefType::get({tt.getNumElements()}, tt.getElementType());
}

} // namespace

FailureOr<SmallVector<StandaloneLaunch>>
fusecc::detail::buildNormalizationKernel(gpu::GPUModuleOp gpuModule,
                                         KernelOp kernel) {
  FailureOr<NormLayout> layout = NormLayout::get(kernel);
  if (failed(layout))
    return failure();
  const NormLayout &l = *layout;
  auto rootIn = cast<BlockArgument>(viewSource(l.root.op->getOperand(0)));
  if (kernel.getResult().getType().getNumElements() !=
      cast<RankedTensorType>(l.root.op->getResult(0).getType()).getNumElements())
    return kernel.emitOpError("broadcasts its normalisation to a larger "
                              "shape; expected the result in the "
                              "normalisation's shape or a view of it");
  int64_t sets = l.outer * l.inner;
  int64_t grid = l.mode == NormLayout::Mode::Split ||
                         l.mode == NormLayout::Mode::Epilogue
                     ? sets * l.parts
                 : l.mode == NormLayout::Mode::Warp
                     ? llvm::divideCeil(sets, kWarps)
                     : llvm::divideCeil(sets, kStandaloneThreads);
  if (grid > std::numeric_limits<int32_t>::max())
    return kernel.emitOpError("needs ")
           << grid << " blocks; at most 2^31 - 1 fit a grid";

  ImplicitLocOpBuilder b(kernel.getLoc(), kernel.getContext());
  MemRefType partialsTy = MemRefType::get({l.partialsElems()}, l.statsType);
  SmallVector<StandaloneLaunch> launches;
  // A reduction from epilogue statistics never reads its input (which its
  // convolution may not even store).
  const bool skipRootIn = l.mode == NormLayout::Mode::Epilogue &&
                          l.root.reduces() && rootIn.hasOneUse();
  // Parameters: every kernel input (the root's input flat, unless skipped),
  // [partials], the output (flat).
  auto makeContext = [&](StringRef name, bool withPartials,
                         bool statsOnly) -> StandaloneContext {
    SmallVector<Type> argTypes;
    StandaloneLaunch launch;
    Block &body = kernel.getBody().front();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      if ((statsOnly && arg != rootIn) || (skipRootIn && arg == rootIn))
        continue;
      argTypes.push_back(arg == rootIn ? flatOf(arg.getType())
                                       : memrefOf(arg.getType()));
      launch.params.push_back(
          {StandaloneLaunch::ParamKind::Input, static_cast<int64_t>(i)});
    }
    if (withPartials) {
      argTypes.push_back(partialsTy);
      launch.params.push_back({StandaloneLaunch::ParamKind::Partials, 0});
    }
    if (!statsOnly) {
      argTypes.push_back(flatOf(kernel.getResult().getType()));
      launch.params.push_back({StandaloneLaunch::ParamKind::Output, 0});
    }
    gpu::GPUFuncOp func = createStandaloneFunc(b, gpuModule, name, argTypes,
                                               kStandaloneThreads);
    StandaloneContext cx{b, kernel, func, DenseMap<Value, Value>(),
                         l.statsType};
    int64_t next = 0;
    for (BlockArgument arg : body.getArguments()) {
      if ((statsOnly && arg != rootIn) || (skipRootIn && arg == rootIn))
        continue;
      cx.memOf[arg] = func.getArgument(next++);
    }
    launch.func = func;
    launch.gridX = grid;
    launch.blockX = kStandaloneThreads;
    launch.sharedBytes = kSharedFloats * 4;
    launches.push_back(launch);
    return cx;
  };

  auto setUp = [&](NormEmitter &em, StandaloneContext &cx, bool statsOnly) {
    em.x = cx.memOf.lookup(rootIn);
    em.out = statsOnly ? Value() : cx.func.getArguments().back();
    auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                         gpu::AddressSpace::Workgroup);
    auto bytesTy = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface{}, wg);
    Value raw = gpu::DynamicSharedMemoryOp::create(b, bytesTy);
    em.smem = memref::ViewOp::create(
        b,
        MemRefType::get({kSharedFloats}, l.statsType,
                        MemRefLayoutAttrInterface{}, wg),
        raw, cx.c(0), ValueRange{});
  };

  Value tid, bid;
  auto ids = [&] {
    tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
    bid = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  };
  auto ifLess = [&](Value v, int64_t bound) {
    auto op = scf::IfOp::create(
        b, TypeRange{},
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, v,
                              arith::ConstantIndexOp::create(b, bound)),
        false);
    b.setInsertionPointToStart(&op.getThenRegion().front());
  };

  switch (l.mode) {
  case NormLayout::Mode::Warp: {
    StandaloneContext cx = makeContext(kernel.getKernelName(), false, false);
    NormEmitter em(cx, l);
    setUp(em, cx, false);
    ids();
    Value lane = arith::RemUIOp::create(b, tid, cx.c(32));
    Value set = em.add(em.mul(bid, cx.c(kWarps)),
                       arith::DivUIOp::create(b, tid, cx.c(32)));
    ifLess(set, sets);
    Value base = em.mul(set, cx.c(l.len));
    auto addr = [&](Value j) { return em.add(base, j); };
    auto reduce = [&](Value v, function_ref<Value(Value, Value)> comb) {
      return em.warpReduce(v, comb);
    };
    em.setShift(addr);
    Stats s = em.chunkStats(cx.c(0), cx.c(l.len), cx.c(l.len), lane, 32, addr,
                            reduce);
    if (l.root.reduces())
      em.storeReduction(set, em.finish(s),
                        arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                              lane, cx.c(0)));
    else
      em.apply(lane, cx.c(l.len), 32, addr, em.finish(s));
    break;
  }
  case NormLayout::Mode::Column: {
    StandaloneContext cx = makeContext(kernel.getKernelName(), false, false);
    NormEmitter em(cx, l);
    setUp(em, cx, false);
    ids();
    Value set = em.add(em.mul(bid, cx.c(kStandaloneThreads)), tid);
    ifLess(set, sets);
    Value o = arith::DivUIOp::create(b, set, cx.c(l.inner));
    Value i = arith::RemUIOp::create(b, set, cx.c(l.inner));
    Value base = em.add(em.mul(o, cx.c(l.len * l.inner)), i);
    auto addr = [&](Value j) { return em.add(base, em.mul(j, cx.c(l.inner))); };
    auto reduce = [&](Value v, function_ref<Value(Value, Value)>) {
      return v;
    };
    em.setShift(addr);
    Stats s = em.chunkStats(cx.c(0), cx.c(l.len), cx.c(l.len), cx.c(0), 1,
                            addr, reduce);
    if (l.root.reduces())
      em.storeReduction(set, em.finish(s), Value());
    else
      em.apply(cx.c(0), cx.c(l.len), 1, addr, em.finish(s));
    break;
  }
  case NormLayout::Mode::Split: {
    auto chunkOf = [&](NormEmitter &em, Value &o, Value &start, Value &end) {
      o = arith::DivUIOp::create(b, bid, em.c(l.parts));
      Value p = arith::RemUIOp::create(b, bid, em.c(l.parts));
      start = em.mul(p, em.c(l.chunk));
      end = arith::MinUIOp::create(b, em.add(start, em.c(l.chunk)),
                                   em.c(l.len));
    };
    {
      StandaloneContext cx = makeContext(
          (kernel.getKernelName() + "_stats").str(), true, true);
      NormEmitter em(cx, l);
      setUp(em, cx, true);
      ids();
      Value o, start, end;
      chunkOf(em, o, start, end);
      Value base = em.mul(o, cx.c(l.len));
      auto addr = [&](Value j) { return em.add(base, j); };
      auto reduce = [&](Value v, function_ref<Value(Value, Value)> comb) {
        return em.blockReduce(v, tid, comb);
      };
      em.setShift(addr);
      Stats s = em.chunkStats(start, end, arith::SubIOp::create(b, end, start),
                              em.add(start, tid), kStandaloneThreads, addr,
                              reduce);
      ifLess(tid, 1);
      Value partials = cx.func.getArguments().back();
      Value slot = em.mul(bid, cx.c(2));
      memref::StoreOp::create(b, s.a, partials, ValueRange{slot});
      memref::StoreOp::create(b, s.b, partials,
                              ValueRange{em.add(slot, cx.c(1))});
    }
    {
      StandaloneContext cx = makeContext(kernel.getKernelName(), true, false);
      NormEmitter em(cx, l);
      setUp(em, cx, false);
      ids();
      Value o, start, end;
      chunkOf(em, o, start, end);
      Value partials = cx.func.getArgument(cx.func.getNumArguments() - 2);
      // Thread 0 merges the set's partials in order; the block reads the
      // result from shared memory.
      {
        OpBuilder::InsertionGuard g(b);
        ifLess(tid, 1);
        Value first = em.mul(o, cx.c(2 * l.parts));
        Stats acc{em.load(partials, first),
                  em.load(partials, em.add(first, cx.c(1)))};
        Value n = em.f(static_cast<double>(std::min(l.chunk, l.len)));
        auto loop = scf::ForOp::create(b, cx.c(1), cx.c(l.parts), cx.c(1),
                                       ValueRange{n, acc.a, acc.b});
        {
          OpBuilder::InsertionGuard g2(b);
          b.setInsertionPointToStart(loop.getBody());
          Value q = loop.getInductionVar();
          Value qs = em.mul(q, cx.c(l.chunk));
          Value qe = arith::MinUIOp::create(b, em.add(qs, cx.c(l.chunk)),
                                            cx.c(l.len));
          Value slot = em.add(first, em.mul(q, cx.c(2)));
          Stats part{em.load(partials, slot),
                     em.load(partials, em.add(slot, cx.c(1)))};
          Value nn = loop.getRegionIterArgs()[0];
          Stats a{loop.getRegionIterArgs()[1], loop.getRegionIterArgs()[2]};
          em.merge(nn, a, em.toF(arith::SubIOp::create(b, qe, qs)), part);
          scf::YieldOp::create(b, ValueRange{nn, a.a, a.b});
        }
        Stats k = em.finish({loop.getResult(1), loop.getResult(2)});
        memref::StoreOp::create(b, k.a, em.smem,
                                ValueRange{cx.c(kSharedFloats - 2)});
        memref::StoreOp::create(b, k.b, em.smem,
                                ValueRange{cx.c(kSharedFloats - 1)});
      }
      gpu::BarrierOp::create(b);
      Stats k{em.sload(kSharedFloats - 2), em.sload(kSharedFloats - 1)};
      Value base = em.mul(o, cx.c(l.len));
      auto addr = [&](Value j) { return em.add(base, j); };
      em.setShift(addr);
      if (l.root.reduces())
        em.storeReduction(
            o, k,
            arith::AndIOp::create(
                b,
                arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid,
                                      cx.c(0)),
                arith::CmpIOp::create(b, arith::CmpIPredicate::eq, start,
                                      cx.c(0))));
      else
        em.apply(em.add(start, tid), end, kStandaloneThreads, addr, k);
    }
    break;
  }
  case NormLayout::Mode::Epilogue: {
    // The producing convolution's epilogue wrote the records; every block
    // of a set merges them (its threads in parallel, then shuffles and the
    // warps' results through shared memory) and normalises its chunk.
    const EpilogueStatsLayout &ps = *l.producerStats;
    StandaloneContext cx = makeContext(kernel.getKernelName(), true, false);
    NormEmitter em(cx, l);
    setUp(em, cx, false);
    ids();
    Value o = arith::DivUIOp::create(b, bid, em.c(l.parts));
    Value p = arith::RemUIOp::create(b, bid, em.c(l.parts));
    Value start = em.mul(p, em.c(l.chunk));
    Value end =
        arith::MinUIOp::create(b, em.add(start, em.c(l.chunk)), em.c(l.len));
    Value partials = cx.func.getArgument(cx.func.getNumArguments() - 2);
    // The group's channel tiles: its records of one spatial block are the
    // first tiles x partsPerBlock of the block's tilesPerGroup x parts.
    Value grp = arith::RemUIOp::create(b, o, em.c(ps.groups));
    Value cpg = em.c(ps.channelsPerGroup), tileC = em.c(ps.tileC);
    Value firstTile =
        arith::DivUIOp::create(b, em.mul(grp, cpg), tileC);
    Value lastTile = arith::DivUIOp::create(
        b,
        arith::SubIOp::create(b, em.mul(em.add(grp, em.c(1)), cpg), em.c(1)),
        tileC);
    Value tiles = em.add(arith::SubIOp::create(b, lastTile, firstTile),
                         em.c(1));
    Value perSpatial = em.mul(tiles, em.c(ps.partsPerBlock));
    Value count = em.mul(perSpatial, em.c(ps.spatialBlocks));
    const int64_t recordsPerSpatial = ps.tilesPerGroup * ps.partsPerBlock;
    Value base = em.mul(o, em.c(ps.spatialBlocks * recordsPerSpatial));
    using Record = NormEmitter::Record;
    Value zero = em.f(0.0);
    auto loop = scf::ForOp::create(b, tid, count, em.c(kStandaloneThreads),
                                   ValueRange{zero, zero, zero, zero});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value k = loop.getInductionVar();
      Value s = arith::DivUIOp::create(b, k, perSpatial);
      Value rest = arith::RemUIOp::create(b, k, perSpatial);
      Value rec = em.add(base, em.add(em.mul(s, em.c(recordsPerSpatial)), rest));
      Value at = em.mul(rec, em.c(EpilogueStatsLayout::kRecordSize));
      auto field = [&](int64_t i) {
        return em.load(partials, em.add(at, em.c(i)));
      };
      ValueRange acc = loop.getRegionIterArgs();
      Record r = em.mergeRecords({acc[0], acc[1], acc[2], acc[3]},
                                 {field(0), field(1), field(2), field(3)});
      scf::YieldOp::create(b, ValueRange{r.n, r.shift, r.delta, r.m2});
    }
    Record r = em.warpMergeRecords({loop.getResult(0), loop.getResult(1),
                                    loop.getResult(2), loop.getResult(3)});
    {
      OpBuilder::InsertionGuard g(b);
      Value lane = arith::RemUIOp::create(b, tid, cx.c(32));
      Value warp = arith::DivUIOp::create(b, tid, cx.c(32));
      ifLess(lane, 1);
      Value slot = em.mul(warp, cx.c(4));
      SmallVector<Value, 4> fields{r.n, r.shift, r.delta, r.m2};
      for (auto [i, v] : llvm::enumerate(fields))
        memref::StoreOp::create(b, v, em.smem, ValueRange{em.add(slot, cx.c(i))});
    }
    gpu::BarrierOp::create(b);
    Record acc{em.sload(0), em.sload(1), em.sload(2), em.sload(3)};
    for (int64_t w = 1; w < kWarps; ++w)
      acc = em.mergeRecords(acc, {em.sload(4 * w), em.sload(4 * w + 1),
                                  em.sload(4 * w + 2), em.sload(4 * w + 3)});
    em.shift = acc.shift;
    Stats k = em.finish({acc.delta, acc.m2});
    if (l.root.reduces()) {
      em.storeReduction(o, k,
                        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid,
                                              cx.c(0)));
      break;
    }
    Value setBase = em.mul(o, cx.c(l.len));
    auto addr = [&](Value j) { return em.add(setBase, j); };
    em.apply(em.add(start, tid), end, kStandaloneThreads, addr, k);
    break;
  }
  }
  return launches;
}
