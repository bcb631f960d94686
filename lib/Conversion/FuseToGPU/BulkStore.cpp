//===- BulkStore.cpp - the result tile stored by bulk copies --------------===//
//
// A wgmma kernel whose result is a cheap elementwise function of the
// convolution, at W stride 1 or with split operands (`chooseBulkStore`),
// evaluates it on the accumulators in registers, as the register epilogue
// does, but writes the values to an output tile in shared memory instead
// of scattering them to global memory; each line of the tile then goes to
// global memory as one asynchronous bulk copy
// (`cp.async.bulk.global.shared::cta`), issued by one thread. The copy
// engine writes whole lines; the load/store pipe only sees the tile's
// shared-memory stores and at most 6 edge elements a line.
//
// A bulk copy moves 16-byte aligned multiples of 16 bytes. A line's
// elements sit in the tile at the same offset modulo 4 as in global memory
// (its `shift`), so that its middle part (from the first 16-byte boundary
// to the last) is one copy; the head and tail elements are stored one by
// one.
//
// A half result (bf16 / f16) of lines that start at even elements holds
// its tile in halves, two positions to a word (`packHalfWord`: a run's
// position pair is one 4-byte shared store), shifted modulo 8 elements;
// the pairs of a line's head and tail (up to 6 positions each side of its
// 16-byte aligned middle) go from registers straight to global memory, so
// that the copying thread reads no half back from the tile.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "NarrowStore.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/MapVector.h"

#include <array>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// The vector width of a run's stores to the tile: runs start at
/// multiples of their length (2 x W stride), so a chunk of gcd(alignment,
/// length) is as aligned in the tile as in the tensor.
static int64_t tileStoreWidth(EmitContext &cx) {
  return std::gcd(lineStartAlignment(cx), 2 * cx.g.stride[2]);
}

/// Whether the result is stored as halves (2-byte elements): the tile
/// holds two positions to a word.
static bool halfTile(EmitContext &cx) {
  return outElementBytes(cx.func.getArguments().back()) == 2;
}

/// The alignment of every line start of a half result in elements (8, 4
/// or 2: 16, 8 or 4 bytes), or 1.
static int64_t halfLineAlignment(EmitContext &cx) {
  const int64_t w = cx.g.out[2], tileW = cx.cfg.getTileW();
  const bool oneTile = cx.launch.numWTiles == 1;
  for (int64_t a : {8, 4, 2})
    if (w % a == 0 && (oneTile || tileW % a == 0))
      return a;
  return 1;
}

/// Shared-memory wavefronts of one warp's store of run chunks to the tile
/// with line stride `stride`: lane 4 g + t writes `vec` words at g x stride
/// + 2 t x W stride (a half tile: one word, the pair of positions 2 t, at
/// g x stride + t); the hardware takes 32 / vec lanes at a time, and each
/// takes as many wavefronts as words it puts on one bank.
static int64_t tileStoreWavefronts(EmitContext &cx, int64_t stride) {
  const bool half = halfTile(cx);
  const int64_t vec = half ? 1 : tileStoreWidth(cx), perPhase = 32 / vec;
  const int64_t step = half ? 1 : 2 * cx.g.stride[2];
  int64_t total = 0;
  for (int64_t first = 0; first < 32; first += perPhase) {
    std::array<int64_t, 32> banks{};
    int64_t worst = 0;
    for (int64_t lane = first; lane < first + perPhase; ++lane)
      for (int64_t k = 0; k < vec; ++k) {
        int64_t addr = (lane / 4) * stride + (lane % 4) * step + k;
        worst = std::max(worst, ++banks[addr % 32]);
      }
    total += worst;
  }
  return total;
}

/// Tile line stride: room for the tile's positions after a shift of up to
/// 4 - alignment elements, a multiple of 4 (16-byte copies); of those that
/// fit the kernel's shared memory, the fewest store wavefronts, then the
/// shortest. 0 if none fits.
static int64_t bulkLineStride(EmitContext &cx) {
  const SharedMemoryPlan &p = cx.smemPlan;
  // Words: a half tile's line takes its positions after a shift of up to
  // 8 - alignment halves, two to a word.
  const int64_t need =
      halfTile(cx)
          ? llvm::divideCeil(cx.cfg.getTileW() + 8 - halfLineAlignment(cx), 2)
          : cx.cfg.getTileW() + 4 - lineStartAlignment(cx);
  const int64_t lines = cx.tileLines();
  int64_t best = 0, bestCost = 0;
  for (int64_t stride = llvm::alignTo(need, 4); stride < need + 32;
       stride += 4) {
    if (p.tilesOffset + lines * stride > p.totalElems)
      break;
    int64_t cost = tileStoreWavefronts(cx, stride);
    if (!best || cost < bestCost) {
      best = stride;
      bestCost = cost;
    }
  }
  return best;
}

void emit::chooseBulkStore(EmitContext &cx) {
  cx.bulkStride = 0;
  // Measured (docs/perf.md 143): the copies pay where the tile's stores are
  // conflict-free 8-byte vectors (W stride 1: -4 to -18% on eight tf32
  // layers) or the main loop dominates (split operands: -2 to -27%); tf32
  // kernels of W stride 2 or more, which store at a higher rate through
  // 2- to 4-way conflicting tile stores, lost up to 11%. An expensive
  // epilogue (gelu, mish, tanh) evaluated on the accumulators lost 2 to
  // 14% in either mode, as did a walk over the tile in place.
  if (!cx.cfg.usesWgmma() || cx.cfg.splitsPhases() ||
      cx.smemPlan.tilesOffset % 4 != 0 ||
      (cx.g.stride[2] != 1 && !cx.cfg.usesSplitTF32()) ||
      !resultIsElementwiseInRegisters(cx))
    return;
  // A half result (FormKernels' isHalfStoreCast) takes a tile of halves
  // where its lines start at even elements (a run's pair of positions is
  // one word) and it has rows (2-D and 3-D outputs); otherwise the tile
  // walk stores it (Epilogue.cpp). Measured (docs/perf.md 198, bf16 / f16):
  // the seven 2-D / 3-D kb1 layers 1-17% faster, the two 1-D ones (kb1_64,
  // kb1_74, W tiles of 128 positions) 2-11% slower.
  Type elem = cast<MemRefType>(cx.func.getArguments().back().getType())
                  .getElementType();
  if (!elem.isF32() &&
      (!halfTile(cx) || halfLineAlignment(cx) < 2 || cx.g.rank < 4))
    return;
  cx.bulkStride = bulkLineStride(cx);
}

/// `line`'s offset modulo 4 in global memory (0 where that is static).
static Value lineShift(EmitContext &cx, Value start) {
  if (lineStartAlignment(cx) == 4)
    return cx.b.c(0);
  return cx.b.remu(start, 4);
}

/// Shared-memory element of position 0 of tile line `id` (row-major over
/// rows x tileC).
static Value tileLineBase(EmitContext &cx, Value id, Value shift) {
  EmitBuilder &b = cx.b;
  return b.add(b.add(b.mul(id, cx.bulkStride), shift), cx.smemPlan.tilesOffset);
}

namespace {
/// A line of a half tile: the halves before its first 16-byte boundary in
/// global memory (`head`), the end of its 16-byte aligned middle
/// (`bodyEnd`), its positions inside the tensor (`len`), and the half
/// index of its position 0 in shared memory (`base`, at the line's
/// offset modulo 8 in global memory).
struct HalfSpan {
  Value head, bodyEnd, len, base;
};
} // namespace

/// The span of half tile line `id` starting at global element `start`.
static HalfSpan halfSpan(EmitContext &cx, Value id, Value start) {
  EmitBuilder &b = cx.b;
  HalfSpan s;
  Value shift = halfLineAlignment(cx) == 8 ? b.c(0) : b.remu(start, 8);
  s.len = cx.launch.numWTiles == 1
              ? b.c(cx.tileLineWidth())
              : arith::MinUIOp::create(b, b.sub(b.c(cx.g.out[2]), cx.ow0),
                                       b.c(cx.cfg.getTileW()))
                    .getResult();
  s.head = arith::MinUIOp::create(b, b.remu(b.sub(b.c(8), shift), 8), s.len);
  s.bodyEnd = b.add(s.head, b.mul(b.divu(b.sub(s.len, s.head), 8), 8));
  s.base = b.add(
      b.mul(b.add(b.mul(id, cx.bulkStride), cx.smemPlan.tilesOffset), 2),
      shift);
  return s;
}

/// The element whose epilogue value run position `k` holds in the tile. A
/// position past the tensor's W end (the tail of the tensor's last W tile,
/// which the bulk copy never reads) evaluates the epilogue at the line's
/// last position, so that the inputs it loads stay inside their tensors.
static Element tileRunElement(EmitContext &cx, const EpilogueRun &run,
                              int64_t k) {
  Element el = runElement(cx, run, k);
  const int64_t width = cx.g.out[2];
  if (width % cx.cfg.getTileW() != 0)
    el.ow = arith::MinUIOp::create(cx.b, el.ow, cx.b.c(width - 1));
  return el;
}

/// storeLineRuns of a half tile: each run's pair of positions one word of
/// the tile; a pair in the line's head or tail (never both: head, middle
/// and tail are even) also straight to global memory, one 4-byte store.
static void storeHalfLineRuns(EmitContext &cx,
                              ArrayRef<const EpilogueRun *> runs) {
  EmitBuilder &b = cx.b;
  Value out = cx.func.getArguments().back();
  Type half = cast<MemRefType>(out.getType()).getElementType();
  const Element &line = runs.front()->line;
  Value id = b.add(b.mul(line.r, tileLineChannels(cx.g, cx.cfg)), line.cl);
  HalfSpan span = halfSpan(cx, id, lineStart(cx, line));
  for (const EpilogueRun *run : runs) {
    assert(run->values.size() == 2 && "a half tile needs W stride 1");
    if (!run->values[0])
      continue;
    Value v0 = emitRunValue(cx, *run, 0, tileRunElement(cx, *run, 0));
    Value v1 = emitRunValue(cx, *run, 1, tileRunElement(cx, *run, 1));
    cx.sstore(packHalfWord(b, half, v0, v1),
              b.divu(b.add(span.base, run->wl0), 2));
    using arith::CmpIPredicate;
    Value edge = b.andI(
        b.cmp(CmpIPredicate::ult, run->wl0, span.len),
        arith::OrIOp::create(
            b, b.cmp(CmpIPredicate::ult, run->wl0, span.head),
            b.cmp(CmpIPredicate::uge, run->wl0, span.bodyEnd)));
    auto ifEdge = scf::IfOp::create(b, TypeRange{}, edge, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifEdge.getThenRegion().front());
    Value pair = vector::FromElementsOp::create(
        b, VectorType::get({2}, b.getF32Type()), ValueRange{v0, v1});
    vector::StoreOp::create(
        b, narrowForStore(b, out, pair), out,
        cx.outputIndex(line.ch, cx.od, line.oh, b.add(cx.ow0, run->wl0)),
        /*nontemporal=*/false, llvm::MaybeAlign(4));
  }
}

/// Stores the kernel's result at the positions of `runs` (all of one line)
/// to the line's tile.
static void storeLineRuns(EmitContext &cx, ArrayRef<const EpilogueRun *> runs) {
  EmitBuilder &b = cx.b;
  if (halfTile(cx)) {
    storeHalfLineRuns(cx, runs);
    return;
  }
  const Element &line = runs.front()->line;
  Value id = b.add(b.mul(line.r, tileLineChannels(cx.g, cx.cfg)), line.cl);
  Value base = tileLineBase(cx, id, lineShift(cx, lineStart(cx, line)));
  for (const EpilogueRun *run : runs) {
    SmallVector<Value> values;
    for (auto [k, v] : llvm::enumerate(run->values)) {
      if (!v) {
        values.push_back(v);
        continue;
      }
      values.push_back(
          emitRunValue(cx, *run, k, tileRunElement(cx, *run, k)));
    }
    const int64_t vec = tileStoreWidth(cx);
    Value at = b.add(base, run->wl0);
    for (size_t k = 0; k < values.size(); k += vec) {
      ArrayRef<Value> chunk = ArrayRef<Value>(values).slice(k, vec);
      if (vec > 1 && !llvm::is_contained(chunk, Value())) {
        auto vTy = VectorType::get({vec}, b.getF32Type());
        Value v = vector::FromElementsOp::create(b, vTy, chunk);
        vector::StoreOp::create(b, v, cx.smem, ValueRange{b.add(at, k)},
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(4 * vec));
        continue;
      }
      for (auto [i, v] : llvm::enumerate(chunk))
        if (v)
          cx.sstore(v, b.add(at, k + i));
    }
  }
}

/// An i64 byte address as a pointer of address space `space`: a generic
/// one cast to global (1), or a shared-window one (3).
static Value toPointer(EmitBuilder &b, Value byteAddr, unsigned space) {
  Value i64 = arith::IndexCastOp::create(b, b.getI64Type(), byteAddr);
  if (space == 3)
    return LLVM::IntToPtrOp::create(
        b, LLVM::LLVMPointerType::get(b.getContext(), 3), i64);
  Value generic = LLVM::IntToPtrOp::create(
      b, LLVM::LLVMPointerType::get(b.getContext()), i64);
  return LLVM::AddrSpaceCastOp::create(
      b, LLVM::LLVMPointerType::get(b.getContext(), space), generic);
}

/// One thread's share of the copies: the lines `tid`, `tid + threads`, ...
static void emitLineCopies(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  const int64_t tileW = cx.cfg.getTileW();
  const int64_t lines = cx.tileLines();
  Value out = cx.func.getArguments().back();
  Value outBase = memref::ExtractAlignedPointerAsIndexOp::create(b, out);
  Value smemBase = memref::ExtractAlignedPointerAsIndexOp::create(b, cx.smem);
  auto loop = scf::ForOp::create(b, cx.tid, b.c(lines), b.c(cx.launch.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value id = loop.getInductionVar();
  Element line = cx.tileLine(id);
  auto ifInside = scf::IfOp::create(b, TypeRange{}, cx.lineInside(line), false);
  b.setInsertionPointToStart(&ifInside.getThenRegion().front());
  if (halfTile(cx)) {
    // The middle only: its head and tail pairs went from registers.
    Value start = lineStart(cx, line);
    HalfSpan span = halfSpan(cx, id, start);
    Value body = b.sub(span.bodyEnd, span.head);
    auto ifBody = scf::IfOp::create(
        b, TypeRange{}, b.cmp(arith::CmpIPredicate::ugt, body, b.c(0)), false);
    b.setInsertionPointToStart(&ifBody.getThenRegion().front());
    Value dst =
        toPointer(b, b.add(outBase, b.mul(b.add(start, span.head), 2)), 1);
    Value src = toPointer(
        b, b.add(smemBase, b.mul(b.add(span.base, span.head), 2)), 3);
    Value bytes = arith::IndexCastOp::create(b, b.getI32Type(), b.mul(body, 2));
    NVVM::CpAsyncBulkSharedCTAToGlobalOp::create(b, dst, src, bytes,
                                                 /*l2CacheHint=*/Value(),
                                                 /*byteMask=*/Value());
    return;
  }
  Value start = lineStart(cx, line), shift = lineShift(cx, start);
  Value len =
      cx.launch.numWTiles == 1
          ? b.c(cx.tileLineWidth())
          : arith::MinUIOp::create(b, b.sub(b.c(g.out[2]), cx.ow0), b.c(tileW))
                .getResult();
  Value head = arith::MinUIOp::create(b, b.remu(b.sub(b.c(4), shift), 4), len);
  Value body = b.mul(b.divu(b.sub(len, head), 4), 4);
  Value tail = b.sub(b.sub(len, head), body);
  Value tileBase = tileLineBase(cx, id, shift);
  {
    auto ifBody = scf::IfOp::create(
        b, TypeRange{}, b.cmp(arith::CmpIPredicate::ugt, body, b.c(0)), false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifBody.getThenRegion().front());
    Value dst = toPointer(b, b.add(outBase, b.mul(b.add(start, head), 4)), 1);
    Value src =
        toPointer(b, b.add(smemBase, b.mul(b.add(tileBase, head), 4)), 3);
    Value bytes = arith::IndexCastOp::create(b, b.getI32Type(), b.mul(body, 4));
    NVVM::CpAsyncBulkSharedCTAToGlobalOp::create(b, dst, src, bytes,
                                                 /*l2CacheHint=*/Value(),
                                                 /*byteMask=*/Value());
  }
  // Up to 3 head and 3 tail elements, one by one.
  auto storeOne = [&](Value wl, Value ok) {
    auto ifOne = scf::IfOp::create(b, TypeRange{}, ok, false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifOne.getThenRegion().front());
    Value v = cx.sload(b.add(tileBase, wl));
    memref::StoreOp::create(
        b, v, out, cx.outputIndex(line.ch, cx.od, line.oh, b.add(cx.ow0, wl)));
  };
  if (lineStartAlignment(cx) < 4)
    for (int64_t k = 0; k < 3; ++k)
      storeOne(b.c(k), b.cmp(arith::CmpIPredicate::ult, b.c(k), head));
  Value tailStart = b.add(head, body);
  for (int64_t k = 0; k < 3; ++k)
    storeOne(b.add(tailStart, k),
             b.cmp(arith::CmpIPredicate::ult, b.c(k), tail));
}

void emit::emitBulkStoreEpilogue(EmitContext &cx, ArrayRef<EpilogueRun> runs) {
  EmitBuilder &b = cx.b;
  // The thread's runs by line: one check per line that its channel and row
  // are inside the tensor (positions past the row's end are stored to the
  // tile's spare columns and never copied; no operand varies along W).
  llvm::MapVector<std::pair<void *, void *>, SmallVector<const EpilogueRun *>>
      byLine;
  for (const EpilogueRun &run : runs)
    byLine[{run.line.r.getAsOpaquePointer(), run.line.cl.getAsOpaquePointer()}]
        .push_back(&run);
  for (auto &[key, lineRuns] : byLine) {
    auto ifInside = scf::IfOp::create(
        b, TypeRange{}, cx.lineInside(lineRuns.front()->line), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifInside.getThenRegion().front());
    storeLineRuns(cx, lineRuns);
  }
  // The copies read the tile through the async proxy.
  NVVM::FenceProxyOp::create(
      b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(b);
  emitLineCopies(cx);
  // The tile must stay until the copies have read it.
  NVVM::CpAsyncBulkCommitGroupOp::create(b);
  NVVM::CpAsyncBulkWaitGroupOp::create(b, b.getI32IntegerAttr(0),
                                       b.getUnitAttr());
}
