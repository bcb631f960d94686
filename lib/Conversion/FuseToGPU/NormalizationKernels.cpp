//===- NormalizationKernels.cpp - normalisations as planned phases --------===//
//
// Kernels of a normalisation whose reduction sets span blocks (group_norm,
// layer_norm over several dims, a softmax not fused behind a convolution),
// or of a reduction over whole dims, followed by the kernel's elementwise
// ops. `NormLayout` (Plan.h) picks one of four shapes:
//  - Warp: one warp per set, statistics in registers and warp shuffles;
//  - Column: one thread per set (sets strided in memory, consecutive
//    threads on consecutive sets);
//  - Split: `parts` blocks per set (rows, or columns too long for one
//    thread each) each write partial statistics of their
//    chunk to the plan's partials workspace (`<kernel>_stats`); the
//    normalising kernel (`<kernel>`) then combines a set's partials in
//    every block (Chan et al.: no catastrophic cancellation) and normalises
//    its chunk.
//  - Epilogue: as Split, but the partials are records that the epilogue of
//    the convolution computing the input wrote (EpilogueStatistics.cpp),
//    moments each with its own shift, (max, sum of exp) or extremes; the
//    threads of a block merge them in parallel. The input is read once
//    (not at all by a reduction). Where the records are many and a set
//    has several blocks (`NormLayout::mergeParts`), `<kernel>_merge`
//    merges them once per set first and the blocks merge its results.
// A reduction kernel (sum, mean, amax, amin, logsumexp) takes the same
// shapes and stores one result per set instead of normalising it. The
// statistics of each kind, stable throughout, are in NormEmitter.cpp.
//
//===----------------------------------------------------------------------===//

#include "NormEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::detail;

namespace {

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
  // Column: a thread per set; Warp (and `warpPerSet`): a warp per set;
  // Split and Epilogue: `parts` blocks per set.
  int64_t grid = llvm::divideCeil(sets, kStandaloneThreads);
  if (l.mode == NormLayout::Mode::Warp || l.warpPerSet())
    grid = llvm::divideCeil(sets, kNormWarps);
  else if (l.mode == NormLayout::Mode::Split ||
           l.mode == NormLayout::Mode::Epilogue)
    grid = sets * l.parts;
  if (grid > std::numeric_limits<int32_t>::max())
    return kernel.emitOpError("needs ")
           << grid << " blocks; at most 2^31 - 1 fit a grid";

  ImplicitLocOpBuilder b(kernel.getLoc(), kernel.getContext());
  MemRefType partialsTy = MemRefType::get({l.partialsElems()}, l.statsType);
  SmallVector<StandaloneLaunch> launches;
  // A reduction from epilogue statistics never reads its input (which its
  // convolution may not even store).
  const bool skipRootIn = l.mode == NormLayout::Mode::Epilogue &&
                          l.root.reduces() && onlyFeeds(rootIn, l.root.op);
  // Parameters: every kernel input (the root's input flat, unless skipped),
  // [partials], the output (flat).
  // A `statsOnly` launch writes only partials (and reads the root's input
  // unless `recordsOnly`: it merges partials only).
  auto skips = [&](Value arg, bool statsOnly, bool recordsOnly) {
    return (statsOnly && arg != rootIn) || (skipRootIn && arg == rootIn) ||
           recordsOnly;
  };
  auto makeContext = [&](StringRef name, bool withPartials, bool statsOnly,
                         bool recordsOnly = false) -> StandaloneContext {
    SmallVector<Type> argTypes;
    StandaloneLaunch launch;
    Block &body = kernel.getBody().front();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      if (skips(arg, statsOnly, recordsOnly))
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
      if (skips(arg, statsOnly, recordsOnly))
        continue;
      cx.memOf[arg] = func.getArgument(next++);
    }
    launch.func = func;
    launch.gridX = grid;
    launch.blockX = kStandaloneThreads;
    launch.sharedBytes = kNormSharedFloats * 4;
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
    em.smem =
        memref::ViewOp::create(b,
                               MemRefType::get({kNormSharedFloats}, l.statsType,
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
    Value set = em.add(em.mul(bid, cx.c(kNormWarps)),
                       arith::DivUIOp::create(b, tid, cx.c(32)));
    ifLess(set, sets);
    Value base = em.mul(set, cx.c(l.len));
    auto addr = [&](Value j) { return em.add(base, j); };
    auto reduce = [&](Value v, function_ref<Value(Value, Value)> comb) {
      return em.warpReduce(v, comb);
    };
    em.setShift(addr);
    NormStats s =
        em.chunkStats(cx.c(l.len), lane, cx.c(l.len), 32, addr, reduce);
    if (l.root.reduces())
      em.storeReduction(
          set, s,
          arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, cx.c(0)));
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
    NormStats s =
        em.chunkStats(cx.c(l.len), cx.c(0), cx.c(l.len), 1, addr, reduce);
    if (l.root.reduces())
      em.storeReduction(set, s, Value());
    else
      em.apply(cx.c(0), cx.c(l.len), 1, addr, em.finish(s));
    break;
  }
  case NormLayout::Mode::Split: {
    // Set o = (row r, column i) starts at flat r x len x inner + i, its
    // elements `inner` apart (1 for rows).
    auto setBase = [&](NormEmitter &em, Value o) {
      if (l.inner == 1)
        return em.mul(o, em.c(l.len));
      Value r = arith::DivUIOp::create(b, o, em.c(l.inner));
      Value i = arith::RemUIOp::create(b, o, em.c(l.inner));
      return em.add(em.mul(r, em.c(l.len * l.inner)), i);
    };
    auto element = [&](NormEmitter &em, Value base, Value j) {
      return em.add(base, l.inner == 1 ? j : em.mul(j, em.c(l.inner)));
    };
    auto chunkOf = [&](NormEmitter &em, Value &o, Value &start, Value &end) {
      o = arith::DivUIOp::create(b, bid, em.c(l.parts));
      Value p = arith::RemUIOp::create(b, bid, em.c(l.parts));
      start = em.mul(p, em.c(l.chunk));
      end = arith::MinUIOp::create(b, em.add(start, em.c(l.chunk)),
                                   em.c(l.len));
    };
    // A partial is l.stats values: (a, b), or (a) for an extreme.
    auto loadPartial = [&](NormEmitter &em, Value partials, Value slot) {
      return NormStats{em.load(partials, slot),
                       l.stats > 1 ? em.load(partials, em.add(slot, em.c(1)))
                                   : Value()};
    };
    {
      StandaloneContext cx = makeContext(
          (kernel.getKernelName() + "_stats").str(), true, true);
      NormEmitter em(cx, l);
      setUp(em, cx, true);
      ids();
      Value o, start, end;
      chunkOf(em, o, start, end);
      Value base = setBase(em, o);
      auto addr = [&](Value j) { return element(em, base, j); };
      auto reduce = [&](Value v, function_ref<Value(Value, Value)> comb) {
        return em.blockReduce(v, tid, comb);
      };
      em.setShift(addr);
      NormStats s = em.chunkStats(arith::SubIOp::create(b, end, start),
                                  em.add(start, tid), end, kStandaloneThreads,
                                  addr, reduce);
      ifLess(tid, 1);
      Value partials = cx.func.getArguments().back();
      Value slot = em.mul(bid, cx.c(l.stats));
      memref::StoreOp::create(b, s.a, partials, ValueRange{slot});
      if (l.stats > 1)
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
      // merged statistics from shared memory.
      {
        OpBuilder::InsertionGuard g(b);
        ifLess(tid, 1);
        Value first = em.mul(o, cx.c(l.stats * l.parts));
        NormStats acc = loadPartial(em, partials, first);
        Value n = em.f(static_cast<double>(std::min(l.chunk, l.len)));
        SmallVector<Value> init{n, acc.a};
        if (acc.b)
          init.push_back(acc.b);
        auto loop =
            scf::ForOp::create(b, cx.c(1), cx.c(l.parts), cx.c(1), init);
        {
          OpBuilder::InsertionGuard g2(b);
          b.setInsertionPointToStart(loop.getBody());
          Value q = loop.getInductionVar();
          Value qs = em.mul(q, cx.c(l.chunk));
          Value qe = arith::MinUIOp::create(b, em.add(qs, cx.c(l.chunk)),
                                            cx.c(l.len));
          NormStats part = loadPartial(em, partials,
                                       em.add(first, em.mul(q, cx.c(l.stats))));
          ValueRange it = loop.getRegionIterArgs();
          Value nn = it[0];
          NormStats a{it[1], acc.b ? it[2] : Value()};
          em.merge(nn, a, em.toF(arith::SubIOp::create(b, qe, qs)), part);
          SmallVector<Value> next{nn, a.a};
          if (a.b)
            next.push_back(a.b);
          scf::YieldOp::create(b, next);
        }
        memref::StoreOp::create(b, loop.getResult(1), em.smem,
                                ValueRange{cx.c(kNormSharedFloats - 2)});
        if (acc.b)
          memref::StoreOp::create(b, loop.getResult(2), em.smem,
                                  ValueRange{cx.c(kNormSharedFloats - 1)});
      }
      gpu::BarrierOp::create(b);
      NormStats k{em.sload(kNormSharedFloats - 2),
                  l.stats > 1 ? em.sload(kNormSharedFloats - 1) : Value()};
      Value base = setBase(em, o);
      auto addr = [&](Value j) { return element(em, base, j); };
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
      else if (l.inner == 1)
        em.applyChunk(base, start, end, tid, em.finish(k));
      else
        em.apply(em.add(start, tid), end, kStandaloneThreads, addr,
                 em.finish(k));
    }
    break;
  }
  case NormLayout::Mode::Epilogue: {
    // The producing convolution's epilogue wrote the records; the blocks of
    // a set merge them (their threads in parallel, then shuffles and the
    // warps' results through shared memory) and normalise their chunk, or,
    // for a reduction of few records per set, one warp per set merges them.
    // With `mergeParts`, a launch of its own first merges each set's
    // records once, into `mergeParts` records per set, and the normalising
    // blocks merge only those.
    const EpilogueStatsLayout &ps = *l.producerStats;
    const int64_t fields = ps.recordSize();
    const int64_t recordsPerSpatial = ps.tilesPerGroup * ps.partsPerBlock;
    // The epilogue's records of set o: `count` of them, record k's first
    // value at `at(k)`. The group's channel tiles: its records of one
    // spatial block are the first tiles x partsPerBlock of the block's
    // tilesPerGroup x parts.
    struct SetRecords {
      Value count;
      std::function<Value(Value)> at;
    };
    auto epilogueRecords = [&](NormEmitter &em, Value o) {
      Value grp = arith::RemUIOp::create(b, o, em.c(ps.groups));
      Value cpg = em.c(ps.channelsPerGroup), tileC = em.c(ps.tileC);
      Value firstTile = arith::DivUIOp::create(b, em.mul(grp, cpg), tileC);
      Value lastTile = arith::DivUIOp::create(
          b,
          arith::SubIOp::create(b, em.mul(em.add(grp, em.c(1)), cpg),
                                em.c(1)),
          tileC);
      Value tiles =
          em.add(arith::SubIOp::create(b, lastTile, firstTile), em.c(1));
      Value perSpatial = em.mul(tiles, em.c(ps.partsPerBlock));
      Value base = em.mul(o, em.c(ps.spatialBlocks * recordsPerSpatial));
      auto at = [&em, &b = b, perSpatial, base, recordsPerSpatial,
                 fields](Value k) {
        Value s = arith::DivUIOp::create(b, k, perSpatial);
        Value rest = arith::RemUIOp::create(b, k, perSpatial);
        Value rec =
            em.add(base, em.add(em.mul(s, em.c(recordsPerSpatial)), rest));
        return em.mul(rec, em.c(fields));
      };
      return SetRecords{em.mul(perSpatial, em.c(ps.spatialBlocks)), at};
    };
    // Merged record p of set o.
    auto mergedAt = [&](NormEmitter &em, Value o, Value p) {
      return em.add(em.c(l.mergedRecordsAt()),
                    em.mul(em.add(em.mul(o, em.c(l.mergeParts)), p),
                           em.c(fields)));
    };
    if (l.mergeParts) {
      // Block (o, p) merges run p of set o's records, `run` of them.
      StandaloneContext cx =
          makeContext((kernel.getKernelName() + "_merge").str(), true,
                      /*statsOnly=*/true, /*recordsOnly=*/true);
      launches.back().gridX = sets * l.mergeParts;
      NormEmitter em(cx, l);
      setUp(em, cx, true);
      ids();
      Value o = arith::DivUIOp::create(b, bid, em.c(l.mergeParts));
      Value p = arith::RemUIOp::create(b, bid, em.c(l.mergeParts));
      const int64_t run =
          llvm::divideCeil(l.epilogueRecordsPerSet(), l.mergeParts);
      Value partials = cx.func.getArguments().back();
      SetRecords recs = epilogueRecords(em, o);
      Value first = em.mul(p, em.c(run));
      Value end =
          arith::MinUIOp::create(b, em.add(first, em.c(run)), recs.count);
      NormRecord r = em.blockMergeRecords(
          em.mergeRecordRange(partials, em.add(first, tid), end,
                              kStandaloneThreads, recs.at),
          tid);
      ifLess(tid, 1);
      Value at = mergedAt(em, o, p);
      for (auto [i, v] : llvm::enumerate(r.fields))
        memref::StoreOp::create(b, v, partials,
                                ValueRange{em.add(at, em.c(i))});
    }
    StandaloneContext cx = makeContext(kernel.getKernelName(), true, false);
    NormEmitter em(cx, l);
    setUp(em, cx, false);
    ids();
    // A warp per set (`warpPerSet`): set o is warp o % kNormWarps of
    // block o / kNormWarps, its lanes take the records in turn; else the
    // block's threads do.
    const bool warpSet = l.warpPerSet();
    Value lane = arith::RemUIOp::create(b, tid, cx.c(32));
    Value o = warpSet ? em.add(em.mul(bid, em.c(kNormWarps)),
                               arith::DivUIOp::create(b, tid, cx.c(32)))
                      : arith::DivUIOp::create(b, bid, em.c(l.parts));
    if (warpSet)
      ifLess(o, sets);
    Value p = arith::RemUIOp::create(b, bid, em.c(l.parts));
    Value start = em.mul(p, em.c(l.chunk));
    Value end =
        arith::MinUIOp::create(b, em.add(start, em.c(l.chunk)), em.c(l.len));
    Value partials = cx.func.getArgument(cx.func.getNumArguments() - 2);
    SetRecords recs =
        l.mergeParts
            ? SetRecords{em.c(l.mergeParts),
                         [&](Value k) { return mergedAt(em, o, k); }}
            : epilogueRecords(em, o);
    NormRecord merged =
        em.mergeRecordRange(partials, warpSet ? lane : tid, recs.count,
                            warpSet ? 32 : kStandaloneThreads, recs.at);
    if (warpSet) {
      em.storeReduction(o, em.recordStats(em.warpMergeRecords(merged)),
                        arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                              lane, cx.c(0)));
      break;
    }
    NormStats k = em.recordStats(em.blockMergeRecords(merged, tid));
    if (l.root.reduces()) {
      em.storeReduction(o, k,
                        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid,
                                              cx.c(0)));
      break;
    }
    em.applyChunk(em.mul(o, cx.c(l.len)), start, end, tid, em.finish(k));
    break;
  }
  }
  return launches;
}
