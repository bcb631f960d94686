//===- Staging.cpp - operands of a main-loop round into shared memory -----===//
//
// The synchronous main loop stages each round's input rows (16-byte vectors
// when the rows are multiples of 4 long) and weights with plain loads and
// stores, the loads of several slots issued before their stores
// (`emitBatchedStaging`), rounded to TF32 on the tf32 tensor-core path
// (split-operand tf32x3 kernels stage f32 and split in registers,
// `emitSplitTF32`). The
// wgmma main loop stages into one of two buffers: the weights (and a
// re-laid-out input) by 16-byte asynchronous copies (cp.async) of the
// re-layout kernels' images, the input otherwise through registers in
// K-major groups of 4 channels (8 for half operands, two to a word:
// `packHalfWord`), loaded up to a round ahead of their stores.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "NarrowStore.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// Registers a wgmma thread may spend on accumulators plus staged values in
/// flight (the rest of its 128 go to addresses and the epilogue).
static constexpr int64_t kStagingRegisterBudget = 104;

/// Registers a synchronous-main-loop thread keeps for its accumulators.
static int64_t syncAccumulatorRegisters(const EmitContext &cx) {
  TileConfigAttr cfg = cx.cfg;
  // Split operands hold a hi and a lo fragment of every operand besides.
  if (cfg.usesTensorCores())
    return cfg.getRows() * cfg.getMmaTilesC() * cfg.getMmaTilesW() * 4 *
           (cfg.usesSplitTF32() ? 2 : 1);
  return cfg.getChanPerThread() * (cfg.getTileW() / cfg.getThreadsW());
}

/// Most slots of a synchronous staging loop loaded before their stores.
static constexpr int64_t kMaxSlotsInFlight = 16;
/// Registers a slot in flight holds beside its words: its shared-memory
/// address and its in-bounds predicate.
static constexpr int64_t kSlotOverheadRegisters = 2;
/// Registers a synchronous-main-loop thread may spend on accumulators plus
/// staged slots in flight. Below the wgmma budget: these kernels' blocks
/// are small (64 threads, 8 per SM: 128 registers a thread) and keep more
/// addresses live. 88 to 104 spilled 24-128 bytes in vae_decoder's and
/// unet_decoder's RGB layers (64 accumulators) where main did not; 80 adds
/// no spill to the 33 examples, the decoders and the model graphs in ieee
/// or tf32 (ptxas -v, docs/perf.md 171).
static constexpr int64_t kSyncStagingRegisterBudget = 80;

/// Emits a synchronous staging loop over `total` slots distributed over the
/// block (slot e = tid + i x threads in iteration i), with the loads of up
/// to kMaxSlotsInFlight consecutive iterations issued before their stores:
/// `load(e)` returns the loaded words of slot e (branch-free, clamped in
/// bounds for any e), `store(e, words)` stores them (called only where
/// e < total). A loop of one load and one store per iteration waits for
/// every load in turn: vae_decoder's RGB layer on mma.sync (upsample
/// folded, 66 one-word slots per thread and round) took 0.547 ms alone on
/// the H200, 1% of its floor; batched, 0.327 ms (docs/perf.md 171).
/// The slots in flight are bounded by the registers the accumulators leave
/// (`wordsPerSlot` words each, plus kSlotOverheadRegisters); the batches are
/// balanced, so at most one slot per batch and thread past the last iteration
/// is loaded for nothing.
static void
emitBatchedStaging(EmitContext &cx, int64_t total, int64_t wordsPerSlot,
                   function_ref<SmallVector<Value>(Value)> load,
                   function_ref<void(Value, ArrayRef<Value>)> store) {
  EmitBuilder &b = cx.b;
  const int64_t nthreads = cx.launch.threads;
  const int64_t iters = llvm::divideCeil(total, nthreads);
  const int64_t free = std::max<int64_t>(
      kSyncStagingRegisterBudget - syncAccumulatorRegisters(cx), wordsPerSlot);
  const int64_t most = std::clamp<int64_t>(
      free / (wordsPerSlot + kSlotOverheadRegisters), 1, kMaxSlotsInFlight);
  const int64_t batches = llvm::divideCeil(iters, most);
  const int64_t perBatch = llvm::divideCeil(iters, batches);
  auto loop = scf::ForOp::create(b, b.c(0), b.c(batches), b.c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value first = b.mul(loop.getInductionVar(), perBatch * nthreads);
  SmallVector<Value> slots;
  SmallVector<SmallVector<Value>> words;
  for (int64_t i = 0; i < perBatch; ++i) {
    slots.push_back(b.add(b.add(cx.tid, first), i * nthreads));
    words.push_back(load(slots.back()));
  }
  for (int64_t i = 0; i < perBatch; ++i) {
    OpBuilder::InsertionGuard g2(b);
    // Every slot of a full batch exists where the batches cover `total`
    // exactly.
    if (batches * perBatch * nthreads != total) {
      auto inside =
          scf::IfOp::create(b, TypeRange{}, b.ult(slots[i], total), false);
      b.setInsertionPointToStart(&inside.getThenRegion().front());
    }
    store(slots[i], words[i]);
  }
}

/// The kw W taps of the weight row at `widx` (all indices but the last), as
/// f32: vector loads of 4 taps when kw % 4 == 0, else one load per tap
/// (half weights widened as they are loaded, EmitBuilder::loadF32). With
/// `reversed` (a forward convolution's weight) tap t is element kw - 1 - t
/// of the row.
static SmallVector<Value> loadWeightRow(EmitContext &cx, Value weight,
                                        ArrayRef<Value> widx, bool reversed) {
  EmitBuilder &b = cx.b;
  const int64_t kw = cx.g.k[2];
  SmallVector<Value> taps;
  auto withTap = [&](int64_t t) {
    SmallVector<Value> idx(widx);
    idx.push_back(b.c(t));
    return idx;
  };
  if (kw % 4 != 0) {
    for (int64_t t = 0; t < kw; ++t)
      taps.push_back(b.loadF32(weight, withTap(reversed ? kw - 1 - t : t)));
    return taps;
  }
  for (int64_t t = 0; t < kw; t += 4) {
    Value v4 = b.loadF32x4(weight, withTap(reversed ? kw - 4 - t : t));
    for (int64_t i = 0; i < 4; ++i)
      taps.push_back(vector::ExtractOp::create(b, v4, reversed ? 3 - i : i));
  }
  return taps;
}

/// Staging loops distribute `total` slots over the block with a static trip
/// count; out-of-range slots load from a clamped in-bounds address and are
/// replaced by zero (no branches). A slot is one element, or a 16-byte
/// vector of 4 consecutive columns when the plan says `vectorInput` (the
/// window then starts at a multiple of 4 and rows are multiples of 4 long,
/// so a vector lies wholly inside or wholly outside its row).
void emit::emitStageInputs(EmitContext &cx, Value input, Value ci0,
                           Value ciBase, Value id, Value ih) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const int64_t width = smemPlan.vectorInput ? 4 : 1;
  const int64_t kc = cfg.getCiChunk(), rows = smemPlan.stagedRows;
  const int64_t slots = smemPlan.inputSpan / width;
  const int64_t total = kc * rows * slots;
  // Slot e's channel in the chunk, staged row and column.
  struct Coords {
    Value kci, rr, col, ok;
  };
  auto coords = [&](Value e) {
    Value xs = b.remu(e, slots), rest = b.divu(e, slots);
    Value rr = b.remu(rest, rows), kci = b.divu(rest, rows);
    Value col = b.mul(xs, width);
    Value ci = b.add(ci0, kci);
    Value iw = b.add(cx.iwMin, col), ihr = b.add(ih, rr);
    Value ok = b.andI(b.andI(b.ult(e, total), b.ult(ci, g.cinPerGroup())),
                      b.andI(b.inRange(iw, g.in[2]), b.inRange(ihr, g.in[1])));
    return Coords{kci, rr, col, ok};
  };
  auto load = [&](Value e) {
    Coords at = coords(e);
    auto clamp = [&](Value v) {
      return arith::SelectOp::create(b, at.ok, v, b.c(0)).getResult();
    };
    Value iw = b.add(cx.iwMin, at.col), ihr = b.add(ih, at.rr);
    SmallVector<Value> idx =
        cx.fullIndex(cx.n, clamp(b.add(ciBase, b.add(ci0, at.kci))), clamp(id),
                     clamp(ihr), clamp(iw));
    SmallVector<Value> values;
    if (width == 1) {
      values.push_back(emitInputElement(cx, input, idx));
    } else {
      Value v = emitInputVector(cx, input, idx);
      for (int64_t i = 0; i < width; ++i)
        values.push_back(vector::ExtractOp::create(b, v, i));
    }
    return values;
  };
  auto store = [&](Value e, ArrayRef<Value> values) {
    Coords at = coords(e);
    Value addr = b.add(b.add(b.add(b.mul(at.kci, smemPlan.xsStride),
                                   b.mul(at.rr, smemPlan.xsRowStride)),
                             at.col),
                       smemPlan.xsOffset);
    for (auto [i, v] : llvm::enumerate(values))
      cx.sstore(
          emitRoundOperand(cx, arith::SelectOp::create(b, at.ok, v, b.f(0.0))),
          b.add(addr, static_cast<int64_t>(i)));
  };
  emitBatchedStaging(cx, total, width, load, store);
}

void emit::emitStageWeights(EmitContext &cx, Value weight, Value ci0,
                            Value ciBase, Value coInGroup, Value td, Value th,
                            Value hValid, int64_t hStep) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const int64_t kc = cfg.getCiChunk(), sb = smemPlan.subBlock;
  const int64_t hTaps = smemPlan.hTapsPerRound;
  const int64_t kw = g.k[2];
  const int64_t total = kc * sb * hTaps;
  const bool forward = cx.a.conv.getForwardWeight();
  // One (input channel, h tap, output channel) triple per slot; its kw taps
  // are contiguous in memory: 16-byte vector loads when kw % 4 == 0.
  struct Coords {
    Value cl, ha, kci, ok;
  };
  auto coords = [&](Value e) {
    Value cl = b.remu(e, sb), rest = b.divu(e, sb);
    Value ha = hTaps > 1 ? b.remu(rest, hTaps) : b.c(0);
    Value kci = hTaps > 1 ? b.divu(rest, hTaps) : rest;
    Value ci = b.add(ci0, kci), co = b.add(coInGroup, cl);
    Value ok = b.andI(
        b.andI(b.ult(e, total), b.cmp(arith::CmpIPredicate::ult, ha, hValid)),
        b.andI(b.ult(ci, g.cinPerGroup()), b.ult(co, g.coutPerGroup())));
    return Coords{cl, ha, kci, ok};
  };
  auto load = [&](Value e) {
    Coords at = coords(e);
    auto clamp = [&](Value v) {
      return arith::SelectOp::create(b, at.ok, v, b.c(0)).getResult();
    };
    Value ci = b.add(ci0, at.kci), co = b.add(coInGroup, at.cl);
    Value tapH = b.add(th, b.mul(at.ha, hStep));
    SmallVector<Value> widx;
    if (forward) {
      // [Cout, Cin/groups, *k], taps reversed: output channel (group,
      // co) first, the input channel within its group second.
      Value grpCo = b.mul(b.divu(ciBase, g.cinPerGroup()), g.coutPerGroup());
      widx = {clamp(b.add(grpCo, co)), clamp(ci)};
      if (g.rank == 5)
        widx.push_back(clamp(b.sub(b.c(g.k[0] - 1), td)));
      if (g.rank >= 4)
        widx.push_back(clamp(b.sub(b.c(g.k[1] - 1), tapH)));
    } else {
      widx = {clamp(b.add(ciBase, ci)), clamp(co)};
      if (g.rank == 5)
        widx.push_back(clamp(td));
      if (g.rank >= 4)
        widx.push_back(clamp(tapH));
    }
    return loadWeightRow(cx, weight, widx, forward);
  };
  auto store = [&](Value e, ArrayRef<Value> taps) {
    Coords at = coords(e);
    for (int64_t t = 0; t < kw; ++t) {
      Value v = arith::SelectOp::create(b, at.ok, taps[t], b.f(0.0));
      cx.sstore(emitRoundOperand(cx, v),
                b.add(b.add(b.add(b.mul(at.kci, smemPlan.wsCiStride),
                                  b.add(b.mul(at.ha, kw * sb), t * sb)),
                            at.cl),
                      smemPlan.wsOffset));
    }
  };
  emitBatchedStaging(cx, total, kw, load, store);
}

Value emit::emitRoundOperand(EmitContext &cx, Value v) {
  // FMA kernels compute in f32; split-operand (tf32x3) kernels stage full
  // f32 and split the fragments in registers (`emitSplitTF32`); half-operand
  // (bf16, f16) kernels stage full f32 and round the fragments in registers
  // (rounding to TF32 first would round twice).
  if (!cx.cfg.usesTensorCores() || cx.cfg.usesSplitTF32() ||
      !isa<FloatTF32Type>(cx.cfg.getTypes().getOperand()))
    return v;
  return emitRoundTF32(cx.b, v);
}

Value emit::emitRoundTF32(EmitBuilder &b, Value v) {
  // Round to TF32 to nearest, ties away (cvt.rna.tf32.f32), as the tensor
  // cores would otherwise truncate the mantissa.
  Value tf32 = NVVM::ConvertFloatToTF32Op::create(
      b, b.getI32Type(), v,
      NVVM::FPRoundingModeAttr::get(b.getContext(), NVVM::FPRoundingMode::RNA));
  return arith::BitcastOp::create(b, b.getF32Type(), tf32);
}

SplitTF32 emit::emitSplitTF32(EmitBuilder &b, Value v) {
  SplitTF32 s;
  s.hi = emitRoundTF32(b, v);
  // v - hi is exact in f32 (|v - hi| <= ulp_tf32(v) / 2, within v's own
  // 24-bit significand); its TF32 rounding leaves ~2^-22 |v|.
  s.lo = emitRoundTF32(b, arith::SubFOp::create(b, v, s.hi));
  return s;
}

/// The type of the values a wgmma kernel's register-staged items carry:
/// the half operand type itself where the kernel reads the input in that
/// type and no prologue computes it (2-byte values, loaded raw and packed
/// as they are: half the registers of widened ones), else f32.
static Type stagedInputType(const EmitContext &cx) {
  Type f32 = Float32Type::get(cx.cfg.getContext());
  Type operand = cx.cfg.getTypes().getOperand();
  if (!isa<BFloat16Type, Float16Type>(operand) || cx.a.hasPrologue())
    return f32;
  ConvTransposeOp conv = cx.a.conv;
  Value input = cx.memOf.lookup(conv.getInput());
  if (!input || cast<MemRefType>(input.getType()).getElementType() != operand)
    return f32;
  return operand;
}

InputItems emit::inputItems(const EmitContext &cx) {
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  InputItems items;
  // An item is one plane's channels (4; 8 for half operands) at a column
  // quad of a staged row.
  items.channels = wgmmaChannelsPerPlane(cfg);
  items.groups = cfg.getCiChunk() / items.channels;
  items.quads = smemPlan.inputSpan / 4;
  items.total = items.groups * items.quads * smemPlan.stagedRows;
  // Raw values per item: a 4-column vector per channel, or its words.
  items.perItem = smemPlan.vectorInput ? items.channels : 4 * items.channels;
  return items;
}

/// Item `it`'s thread element and, where some threads have no such item,
/// whether this one has (null otherwise).
static std::pair<Value, Value>
itemElement(EmitContext &cx, const InputItems &items, int64_t it) {
  EmitBuilder &b = cx.b;
  const LaunchPlan &launch = cx.launch;
  Value e = b.add(cx.tid, it * launch.threads);
  const bool all = (it + 1) * launch.threads <= items.total;
  return {e, all ? Value() : b.ult(e, items.total)};
}

/// The channel group, column quad and staged row of thread element `e`.
struct ItemCoords {
  Value kg, xq, rr;
};
static ItemCoords itemCoords(EmitContext &cx, const InputItems &items,
                             Value e) {
  EmitBuilder &b = cx.b;
  ItemCoords at;
  at.kg = b.remu(e, items.groups);
  Value rest = b.divu(e, items.groups);
  at.xq = b.remu(rest, items.quads);
  at.rr = b.divu(rest, items.quads);
  return at;
}

int64_t emit::inputBatch(const EmitContext &cx) {
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  // The staged values of an item take 16 registers beside the accumulators
  // (two sets with split operands: the running sums and the round's); half
  // operands' 8 channels 16 as well, or 32 where they are widened to f32
  // (stagedInputType).
  int64_t accRegs = 0;
  for (int64_t p = 0; p < cx.wgmmaOwnPhases(); ++p)
    accRegs += cx.wgmmaAccRows() * cx.wgmmaAccN(p) / 2;
  if (cfg.usesSplitTF32())
    accRegs *= 2;
  const int64_t itemRegs = 4 * wgmmaChannelsPerPlane(cfg) *
                           stagedInputType(cx).getIntOrFloatBitWidth() / 32;
  return std::max<int64_t>(1, (kStagingRegisterBudget - accRegs) / itemRegs);
}

/// The raw 16-byte loads (or words) of items [first, last) of round `q`
/// and whether each lies inside the input; `emitStoreRoundInputs` rounds
/// them to TF32 and stores them. Split so that the loads of a round can be
/// issued a round ahead of their stores.
static RawInputs loadRoundInputs(EmitContext &cx, Value q, int64_t first,
                                 int64_t last) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  Round r = emitDecodeRound(cx, q);
  const InputItems items = inputItems(cx);
  Value input = cx.memOf.lookup(cx.a.conv.getInput()); // null: a prologue
  // Bounds that hold for every round need no test.
  const bool ciAlwaysIn = g.cinPerGroup() % cfg.getCiChunk() == 0;
  const Type staged = stagedInputType(cx);
  // Blocks of samples: a row's sample may lie past the batch (clamped).
  const bool spans = cfg.spansSamples();
  RawInputs raw;
  for (int64_t it = first; it < last; ++it) {
    auto [e, inside] = itemElement(cx, items, it);
    auto [kg, xq, rr] = itemCoords(cx, items, e);
    Value iw = b.add(cx.iwMin, b.mul(xq, 4));
    auto [sample, ihr, rowOk] = cx.stagedRow(r.ih, rr);
    if (inside)
      rowOk = b.andI(rowOk, inside);
    // Clamped, branch-free loads: an element outside the input reads
    // element 0 and is replaced by 0 when stored.
    auto clamp = [&](Value cond, Value v) {
      return arith::SelectOp::create(b, cond, v, b.c(0)).getResult();
    };
    for (int64_t ci = 0; ci < items.channels; ++ci) {
      Value chan = b.add(b.add(r.ci0, b.mul(kg, items.channels)), ci);
      Value ok =
          ciAlwaysIn ? rowOk : b.andI(rowOk, b.ult(chan, g.cinPerGroup()));
      if (smemPlan.vectorInput) {
        Value okv = b.andI(ok, b.inRange(iw, g.in[2]));
        SmallVector<Value> idx =
            cx.fullIndex(spans ? clamp(okv, sample) : sample, clamp(okv, chan),
                         clamp(okv, r.id), clamp(okv, ihr), clamp(okv, iw));
        raw.values.push_back(
            staged.isF32()
                ? emitInputVector(cx, input, idx)
                : vector::LoadOp::create(b, VectorType::get({4}, staged),
                                         input, idx, /*nontemporal=*/false,
                                         llvm::MaybeAlign(8))
                      .getResult());
        raw.valid.push_back(okv);
        continue;
      }
      for (int64_t j = 0; j < 4; ++j) {
        Value iwj = b.add(iw, j);
        Value okj = b.andI(ok, b.inRange(iwj, g.in[2]));
        SmallVector<Value> idx =
            cx.fullIndex(spans ? clamp(okj, sample) : sample, clamp(okj, chan),
                         clamp(okj, r.id), clamp(okj, ihr), clamp(okj, iwj));
        raw.values.push_back(
            staged.isF32() ? emitInputElement(cx, input, idx)
                           : memref::LoadOp::create(b, input, idx).getResult());
        raw.valid.push_back(okj);
      }
    }
  }
  return raw;
}

RawInputs emit::emitLoadRoundInputsIf(EmitContext &cx, Value cond, Value q,
                                      int64_t iters) {
  EmitBuilder &b = cx.b;
  const int64_t n = iters * inputItems(cx).perItem;
  const Type staged = stagedInputType(cx);
  Type valueTy = cx.smemPlan.vectorInput
                     ? Type(VectorType::get({4}, staged))
                     : staged;
  SmallVector<Type> types(n, valueTy);
  types.append(n, b.getI1Type());
  auto ifOp = scf::IfOp::create(b, types, cond, true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    RawInputs raw = loadRoundInputs(cx, q, 0, iters);
    SmallVector<Value> all(raw.values);
    llvm::append_range(all, raw.valid);
    scf::YieldOp::create(b, all);
    // Past the last round: zeros (never stored).
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    SmallVector<Value> zeros;
    for (Type t : types)
      zeros.push_back(arith::ConstantOp::create(b, b.getZeroAttr(t)));
    scf::YieldOp::create(b, zeros);
  }
  RawInputs raw;
  for (int64_t i = 0; i < 2 * n; ++i)
    (i < n ? raw.values : raw.valid).push_back(ifOp.getResult(i));
  return raw;
}

void emit::emitStoreRoundInputs(EmitContext &cx, const RawInputs &raw,
                                Value buf, int64_t first, int64_t last) {
  EmitBuilder &b = cx.b;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const InputItems items = inputItems(cx);
  auto v4Ty = VectorType::get({4}, b.getF32Type());
  for (int64_t it = first; it < last; ++it) {
    OpBuilder::InsertionGuard guard(b);
    auto [e, inside] = itemElement(cx, items, it);
    if (inside) {
      auto ifInside = scf::IfOp::create(b, TypeRange{}, inside, false);
      b.setInsertionPointToStart(&ifInside.getThenRegion().front());
    }
    auto [kg, xq, rr] = itemCoords(cx, items, e);
    Value base = b.add(b.add(b.add(b.mul(rr, smemPlan.xsRowStride),
                                   b.mul(kg, smemPlan.xsPlaneStride)),
                             b.mul(xq, 16)),
                       b.add(buf, smemPlan.xsOffset));
    const int64_t at = (it - first) * items.perItem;
    // Split-operand kernels store the TF32 hi parts here and the lo parts
    // at the same place of the lo area.
    const bool split = cx.cfg.usesSplitTF32();
    const bool half = items.channels == 8;
    // Column j of the item: its 4 channels, TF32-rounded (its 8 channels
    // rounded to the half type, channels w and w + 4 in word w), one
    // 16-byte store.
    for (int64_t j = 0; j < 4; ++j) {
      SmallVector<Value, 8> rounded, lo;
      for (int64_t ci = 0; ci < items.channels; ++ci) {
        Value v, ok;
        if (smemPlan.vectorInput) {
          v = vector::ExtractOp::create(b, raw.values[at + ci], j);
          ok = raw.valid[at + ci];
        } else {
          v = raw.values[at + 4 * ci + j];
          ok = raw.valid[at + 4 * ci + j];
        }
        Value zero =
            arith::ConstantOp::create(b, b.getZeroAttr(v.getType()));
        Value x = arith::SelectOp::create(b, ok, v, zero);
        if (half) {
          rounded.push_back(x);
          continue;
        }
        if (split) {
          SplitTF32 parts = emitSplitTF32(b, x);
          rounded.push_back(parts.hi);
          lo.push_back(parts.lo);
          continue;
        }
        rounded.push_back(emitRoundOperand(cx, x));
      }
      if (half) {
        Type operand = cx.cfg.getTypes().getOperand();
        SmallVector<Value, 4> words;
        for (int64_t w = 0; w < 4; ++w)
          words.push_back(packHalfWord(b, operand, rounded[w], rounded[w + 4]));
        rounded.assign(words.begin(), words.end());
      }
      Value v = vector::FromElementsOp::create(b, v4Ty, rounded);
      vector::StoreOp::create(b, v, cx.smem, ValueRange{b.add(base, 4 * j)},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
      if (!split)
        continue;
      Value loV = vector::FromElementsOp::create(b, v4Ty, lo);
      Value loAddr =
          b.add(b.add(base, 4 * j), smemPlan.xsLoOffset - smemPlan.xsOffset);
      vector::StoreOp::create(b, loV, cx.smem, ValueRange{loAddr},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
    }
  }
}

/// The token of `copy()`: issued directly when `inside` is null, else
/// under `inside` with its own commit group (an empty one where `inside`
/// is false), so that every thread commits the same number of groups.
static Value guardedCopy(EmitContext &cx, Value inside,
                         function_ref<Value()> copy) {
  EmitBuilder &b = cx.b;
  if (!inside)
    return copy();
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  auto ifOp = scf::IfOp::create(b, TypeRange{tokTy}, inside, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value t = copy();
  scf::YieldOp::create(
      b, ValueRange{nvgpu::DeviceAsyncCreateGroupOp::create(b, tokTy, t)});
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, ValueRange{nvgpu::DeviceAsyncCreateGroupOp::create(
                              b, tokTy, ValueRange{})});
  return ifOp.getResult(0);
}

/// Issues round `q`'s input rows from `ipacked` (16-byte copies, zero
/// fill outside the input) into the buffer at `buf` and commits them.
static void copyRoundPackedInputs(EmitContext &cx, Value q, Value buf) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const LaunchPlan &launch = cx.launch;
  Round r = emitDecodeRound(cx, q);
  const int64_t span = smemPlan.inputSpan, rows = smemPlan.stagedRows;
  const int64_t groups = cx.ipack->groups, nthreads = launch.threads;
  const int64_t total = rows * groups * span;
  Value chunk = b.divu(r.ci0, cfg.getCiChunk());
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> tokens;
  // Consecutive threads take consecutive columns (16 bytes each, contiguous
  // in the packed input and in shared memory).
  for (int64_t it = 0; it * nthreads < total; ++it) {
    Value e = b.add(cx.tid, it * nthreads);
    Value col = b.remu(e, span), rest = b.divu(e, span);
    Value kg = b.remu(rest, groups), rr = b.divu(rest, groups);
    auto [sample, ihr, ok] = cx.stagedRow(r.ih, rr);
    Value row = arith::SelectOp::create(b, ok, ihr, b.c(0));
    if (cx.cfg.spansSamples())
      sample = arith::SelectOp::create(b, ok, sample, b.c(0));
    Value plane =
        b.add(b.mul(b.add(b.mul(b.add(b.mul(b.add(b.mul(sample, g.in[0]), r.id),
                                            g.in[1]),
                                      row),
                                cx.ipack->numChunks),
                          chunk),
                    groups),
              kg);
    Value src = b.mul(b.add(b.mul(plane, cx.ipack->width),
                            b.add(b.add(cx.iwMin, col), cx.ipack->padL)),
                      4);
    src = arith::SelectOp::create(b, ok, src, b.c(0));
    Value dst = b.add(b.add(b.add(b.mul(rr, smemPlan.xsRowStride),
                                  b.mul(kg, smemPlan.xsPlaneStride)),
                            b.mul(col, 4)),
                      b.add(buf, smemPlan.xsOffset));
    Value srcElems = arith::SelectOp::create(b, ok, b.c(4), b.c(0));
    auto copy = [&] {
      return nvgpu::DeviceAsyncCopyOp::create(
                 b, cx.smem, ValueRange{dst}, cx.ipacked, ValueRange{src},
                 b.getIndexAttr(4), srcElems, b.getUnitAttr())
          .getResult();
    };
    tokens.push_back(guardedCopy(
        cx, (it + 1) * nthreads <= total ? Value() : b.ult(e, total), copy));
  }
  nvgpu::DeviceAsyncCreateGroupOp::create(b, tokTy, tokens);
}

void emit::emitStageRoundWgmma(EmitContext &cx, Value q, Value buf) {
  // The weights arrive by emitCopyRoundWeights; a re-laid-out input by
  // asynchronous copies too.
  if (cx.ipack) {
    copyRoundPackedInputs(cx, q, buf);
    return;
  }
  // The thread's items are issued in batches, all loads of a batch before
  // its stores, so that one memory latency covers the batch; the batch size
  // keeps the staged values beside the accumulators within the register
  // budget.
  const int64_t iters =
      llvm::divideCeil(inputItems(cx).total, cx.launch.threads);
  const int64_t batch = inputBatch(cx);
  for (int64_t first = 0; first < iters; first += batch) {
    const int64_t last = std::min(iters, first + batch);
    emitStoreRoundInputs(cx, loadRoundInputs(cx, q, first, last), buf, first,
                         last);
  }
}

Value emit::emitCopyRoundWeights(EmitContext &cx, Value q, Value buf,
                                 Value live) {
  EmitBuilder &b = cx.b;
  TileConfigAttr cfg = cx.cfg;
  const SharedMemoryPlan &smemPlan = cx.smemPlan;
  const LaunchPlan &launch = cx.launch;
  Round r = emitDecodeRound(cx, q);
  const int64_t hT = smemPlan.hTapsPerRound, nthreads = launch.threads;
  const int64_t perImage = cx.pack->imageElems / 4; // 16-byte copies
  // Split-operand kernels copy the hi images of the round's taps to the
  // weight area and their lo images to the lo weight area.
  const int64_t parts = cx.pack->parts, perPart = hT * perImage;
  const int64_t total = parts * perPart;
  Value ct = b.divu(cx.co0, cfg.getTileC());
  Value chunk = b.divu(r.ci0, cfg.getCiChunk());
  auto v4 = b.getIndexAttr(4);
  SmallVector<Value> tokens;
  for (int64_t it = 0; it * nthreads < total; ++it) {
    Value e = b.add(cx.tid, it * nthreads);
    Value part = parts > 1 ? b.divu(e, perPart) : Value();
    Value inPart = parts > 1 ? b.remu(e, perPart) : e;
    Value ha = hT > 1 ? b.divu(inPart, perImage) : b.c(0);
    Value within = hT > 1 ? b.remu(inPart, perImage) : inPart;
    // Taps past the round's valid ones (merged h taps) are zero-filled.
    Value ok =
        hT > 1 ? b.andI(live, b.cmp(arith::CmpIPredicate::ult, ha, r.hValid))
               : live;
    Value th = arith::SelectOp::create(
        b, ok, b.add(r.th, b.mul(ha, cx.hTaps.step)), b.c(0));
    Value td = arith::SelectOp::create(b, ok, r.td, b.c(0));
    Value image = b.add(
        b.mul(b.add(b.mul(b.add(b.mul(ct, cx.pack->kd), td), cx.pack->kh), th),
              cx.pack->numChunks),
        arith::SelectOp::create(b, ok, chunk, b.c(0)));
    if (part)
      image = b.add(b.mul(image, parts), part);
    Value src = b.add(b.mul(image, cx.pack->imageElems), b.mul(within, 4));
    // The smem image of tap `ha` starts ha x kw x wsTapStride = ha x
    // imageElems into the weight area (or the lo weight area).
    Value area = b.add(buf, smemPlan.wsOffset);
    if (part)
      area = b.add(area, b.mul(part, smemPlan.wsLoOffset - smemPlan.wsOffset));
    Value dst = b.add(area, b.mul(inPart, 4));
    Value srcElems = arith::SelectOp::create(b, ok, b.c(4), b.c(0));
    auto copy = [&] {
      return nvgpu::DeviceAsyncCopyOp::create(b, cx.smem, ValueRange{dst},
                                              cx.packed, ValueRange{src}, v4,
                                              srcElems, b.getUnitAttr())
          .getResult();
    };
    tokens.push_back(guardedCopy(
        cx, (it + 1) * nthreads <= total ? Value() : b.ult(e, total), copy));
  }
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, tokTy, tokens);
}

void emit::emitCompleteStaging(EmitContext &cx, Value group) {
  EmitBuilder &b = cx.b;
  nvgpu::DeviceAsyncWaitOp::create(b, group, b.getI32IntegerAttr(0));
  // This thread's generic-proxy stores and completed copies become visible
  // to the tensor cores (async proxy) after the next barrier.
  NVVM::FenceProxyOp::create(
      b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}
