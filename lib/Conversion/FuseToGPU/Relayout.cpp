//===- Relayout.cpp - the weight and input re-layout kernels --------------===//
//
// A wgmma kernel copies its operands into shared memory with 16-byte
// asynchronous copies of exact round images. Two small kernels, launched
// before it on the same stream, write those images once per call: the
// weights (`WeightPackPlan`) and, where it pays, the input
// (`InputPackPlan`), TF32-rounded and zero-padded (split-operand kernels:
// the weights' TF32 hi and lo parts, two images per round; half-operand
// kernels: channel pairs rounded to bf16 / f16 and packed per word,
// `packHalfWord`).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Conversion/FuseToGPU/KernelBuilder.h"

#include "NarrowStore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

/// The next digit (`rest` mod `size`) of a mixed-radix index; `rest`
/// keeps the quotient.
static Value takeDigit(ImplicitLocOpBuilder &b, Value &rest, int64_t size) {
  Value radix = arith::ConstantIndexOp::create(b, size);
  Value digit = arith::RemUIOp::create(b, rest, radix);
  rest = arith::DivUIOp::create(b, rest, radix);
  return digit;
}

/// A re-layout kernel `<kernel><suffix>(source, packed)`: 256-thread
/// blocks, one work item per thread; returns the function and leaves `b`
/// inside `if (item < items)` with `item` the thread's global index.
static gpu::GPUFuncOp createRelayoutFunction(ImplicitLocOpBuilder &b,
                                             gpu::GPUModuleOp gpuModule,
                                             KernelOp kernel, StringRef suffix,
                                             Value source, int64_t packedElems,
                                             int64_t items, Value &item) {
  MLIRContext *ctx = kernel.getContext();
  auto sourceTy = cast<RankedTensorType>(source.getType());
  SmallVector<Type> argTypes{
      MemRefType::get(sourceTy.getShape(), sourceTy.getElementType()),
      MemRefType::get({packedElems}, Float32Type::get(ctx))};
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, (kernel.getKernelName() + suffix).str(),
                                     FunctionType::get(ctx, argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(kWeightPackThreads), 1, 1}));
  b.setInsertionPointToStart(&func.getBody().front());
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  item = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, gpu::BlockIdOp::create(b, gpu::Dimension::x),
                            c(kWeightPackThreads)),
      gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  auto inside = scf::IfOp::create(
      b, TypeRange{},
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, item, c(items)),
      false);
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b);
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  return func;
}

FailureOr<gpu::GPUFuncOp>
fusecc::buildWeightPackFunction(gpu::GPUModuleOp gpuModule, KernelOp kernel,
                                const KernelAnalysis &analysis) {
  TileConfigAttr cfg = *kernel.getConfig();
  std::optional<WeightPackPlan> pack = WeightPackPlan::get(analysis, cfg);
  if (!pack)
    return kernel.emitOpError("has no weight re-layout (not a wgmma kernel)");
  const ConvGeometry &g = analysis.geom;
  MLIRContext *ctx = kernel.getContext();
  KernelAnalysis a = analysis;
  auto f32 = Float32Type::get(ctx);
  ImplicitLocOpBuilder b(kernel.getLoc(), ctx);
  const WeightPackTaps per = weightPackTaps(g);
  Value idx;
  gpu::GPUFuncOp func = createRelayoutFunction(
      b, gpuModule, kernel, "_wpack", a.storedOperand(a.conv.getWeight()),
      pack->totalElems, weightPackThreadsNeeded(*pack, g), idx);
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  auto split = [&](Value &rest, int64_t size) {
    return takeDigit(b, rest, size);
  };
  auto addI = [&](Value x, Value y) { return arith::AddIOp::create(b, x, y); };
  auto mulI = [&](Value x, int64_t y) {
    return arith::MulIOp::create(b, x, c(y));
  };
  // Image element (t, kg, cl, j) of (ct, td, th, chunk): input channel
  // chunk x ciChunk + 4 kg + j (half operands: 8 kg + j and 8 kg + 4 + j),
  // output channel ct x tileC + cl (cl below the image's channels), tap t.
  // Split-operand kernels store a round's hi image, then its lo image.
  // Element strides of the packed digits, fastest first: j, cl, kg, t,
  // part, chunk, th, td, ct.
  const int64_t planes = wgmmaPlanes(cfg);
  const int64_t sT = 4 * pack->imageChannels * planes;
  const int64_t sPart = sT * g.k[2], sChunk = sPart * pack->parts;
  const int64_t sTh = sChunk * pack->numChunks, sTd = sTh * pack->kh;
  const int64_t sCt = sTd * pack->kd;
  // A thread packs `per.h` x `per.w` taps of one (j, cl, kg, part, chunk,
  // td, ct) (and th, t where it packs one of them): the taps of a weight
  // row are contiguous in the source (read as 16-byte vectors where kw is a
  // multiple of 4), and for each tap the warp's stores are contiguous. One
  // element per thread read every tap of a row in a different warp
  // (heatmap_head's 2048 x 256 x 4 x 4 weights: 40 us on the H200, twice
  // the traffic's time; 16.8 us so, docs/perf.md 171).
  Value rest = idx;
  Value j = split(rest, 4), cl = split(rest, pack->imageChannels);
  Value kg = split(rest, planes);
  Value t0 = per.w == 1 ? split(rest, g.k[2]) : c(0);
  Value part = pack->parts > 1 ? split(rest, pack->parts) : Value();
  Value chunk = split(rest, pack->numChunks);
  Value th0 = per.h == 1 ? split(rest, pack->kh) : c(0);
  Value td = split(rest, pack->kd), ct = rest;
  Value base = addI(addI(j, mulI(cl, 4)), mulI(kg, 4 * pack->imageChannels));
  base = addI(base, addI(mulI(chunk, sChunk), mulI(td, sTd)));
  base = addI(base, mulI(ct, sCt));
  if (part)
    base = addI(base, mulI(part, sPart));
  Value co = addI(mulI(ct, cfg.getTileC()), cl);
  // wgmma kernels have one group. A forward convolution's weight is
  // [Cout, Cin, *k] with its taps reversed.
  const bool forward = a.conv.getForwardWeight();
  auto tap = [&](Value x, int64_t k) -> Value {
    return forward ? arith::SubIOp::create(b, c(k - 1), x).getResult() : x;
  };
  Value weight = func.getArgument(0);
  const bool f32Weights =
      cast<MemRefType>(weight.getType()).getElementType().isF32();
  Value zero = arith::ConstantOp::create(b, b.getF32FloatAttr(0.0));
  // The weights of input channel `ci` (within the chunk's first ciChunk)
  // at taps (th, t0 .. t0 + per.w - 1) loaded, and a function of t - t0
  // giving each as f32 (0 outside the weights).
  auto weightRow = [&](Value ciInChunk, Value th) {
    Value ci = addI(mulI(chunk, cfg.getCiChunk()), ciInChunk);
    Value ok = arith::AndIOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, ci, c(g.cin)),
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, co, c(g.cout)));
    auto clamp = [&](Value v) {
      return arith::SelectOp::create(b, ok, v, c(0)).getResult();
    };
    SmallVector<Value> widx{clamp(forward ? co : ci),
                            clamp(forward ? ci : co)};
    if (g.rank == 5)
      widx.push_back(tap(td, g.k[0]));
    if (g.rank >= 4)
      widx.push_back(tap(th, g.k[1]));
    // Source taps, ascending: the row's first tap is t0 (k - t0 - per.w
    // reversed).
    SmallVector<Value> src(per.w);
    if (per.w % 4 == 0 && f32Weights) {
      auto v4Ty = VectorType::get({4}, f32);
      for (int64_t q = 0; q < per.w; q += 4) {
        SmallVector<Value> at(widx);
        at.push_back(c(q));
        Value v =
            vector::LoadOp::create(b, v4Ty, weight, at,
                                   /*nontemporal=*/false, llvm::MaybeAlign(16));
        for (int64_t i = 0; i < 4; ++i)
          src[q + i] = vector::ExtractOp::create(b, v, i);
      }
    } else {
      for (int64_t i = 0; i < per.w; ++i) {
        SmallVector<Value> at(widx);
        at.push_back(per.w == 1 ? tap(t0, g.k[2]) : c(i));
        src[i] = memref::LoadOp::create(b, weight, at);
      }
    }
    // Each tap widened and zeroed outside the weights as it is used.
    return [=, &b](int64_t i) -> Value {
      Value v = src[forward && per.w > 1 ? per.w - 1 - i : i];
      if (!v.getType().isF32()) // half weights, widened exactly
        v = arith::ExtFOp::create(b, f32, v);
      return arith::SelectOp::create(b, ok, v, zero).getResult();
    };
  };
  Value out = func.getArgument(1);
  for (int64_t hi = 0; hi < per.h; ++hi) {
    Value th = per.h == 1 ? th0 : c(hi);
    Value rowBase = addI(base, mulI(th, sTh));
    auto store = [&](Value v, int64_t i) {
      Value t = per.w == 1 ? t0 : c(i);
      memref::StoreOp::create(b, v, out,
                              ValueRange{addI(rowBase, mulI(t, sT))});
    };
    if (cfg.getTypes().usesHalfOperands()) {
      // Packed half words (packHalfWord): plane kg holds channels 8 kg + j
      // and 8 kg + 4 + j.
      Value lo = addI(mulI(kg, 8), j);
      auto los = weightRow(lo, th);
      auto his = weightRow(addI(lo, c(4)), th);
      for (int64_t i = 0; i < per.w; ++i)
        store(emit::packHalfWord(b, cfg.getTypes().getOperand(), los(i),
                                 his(i)),
              i);
      continue;
    }
    auto row = weightRow(addI(mulI(kg, 4), j), th);
    for (int64_t i = 0; i < per.w; ++i) {
      Value v = row(i);
      // TF32, rounded to nearest (ties away) once here instead of per block.
      Value tf32 = NVVM::ConvertFloatToTF32Op::create(
          b, b.getI32Type(), v,
          NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RNA));
      Value stored = arith::BitcastOp::create(b, f32, tf32);
      if (part) {
        // The lo part: the rest, rounded to TF32 too (3xTF32).
        Value restBits = NVVM::ConvertFloatToTF32Op::create(
            b, b.getI32Type(), arith::SubFOp::create(b, v, stored),
            NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RNA));
        Value lo = arith::BitcastOp::create(b, f32, restBits);
        Value isLo =
            arith::CmpIOp::create(b, arith::CmpIPredicate::ne, part, c(0));
        stored = arith::SelectOp::create(b, isLo, lo, stored);
      }
      store(stored, i);
    }
  }
  return func;
}

WeightPackTaps fusecc::weightPackTaps(const fuse::ConvGeometry &g) {
  const int64_t kh = g.k[1], kw = g.k[2];
  if (kh * kw <= kMaxWeightPackTaps)
    return {kh, kw};
  if (kw <= kMaxWeightPackTaps)
    return {1, kw};
  return {1, 1};
}

int64_t fusecc::weightPackThreadsNeeded(const fuse::WeightPackPlan &pack,
                                        const fuse::ConvGeometry &g) {
  WeightPackTaps per = weightPackTaps(g);
  return pack.totalElems / (per.h * per.w);
}

FailureOr<gpu::GPUFuncOp>
fusecc::buildInputPackFunction(gpu::GPUModuleOp gpuModule, KernelOp kernel,
                               const KernelAnalysis &analysis) {
  TileConfigAttr cfg = *kernel.getConfig();
  std::optional<InputPackPlan> ipack = InputPackPlan::get(analysis, cfg);
  if (!ipack)
    return kernel.emitOpError("has no input re-layout");
  KernelAnalysis a = analysis;
  const ConvGeometry &g = a.geom;
  MLIRContext *ctx = kernel.getContext();
  auto f32 = Float32Type::get(ctx);
  ImplicitLocOpBuilder b(kernel.getLoc(), ctx);
  // One thread per 16-byte unit (4 channels of one column).
  Value idx;
  gpu::GPUFuncOp func =
      createRelayoutFunction(b, gpuModule, kernel, "_ipack",
                             a.storedOperand(a.conv.getInput()),
                             ipack->totalElems, ipack->totalElems / 4, idx);
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  auto split = [&](Value &rest, int64_t size) {
    return takeDigit(b, rest, size);
  };
  Value rest = idx;
  Value wcol = split(rest, ipack->width), kg = split(rest, ipack->groups);
  Value chunk = split(rest, ipack->numChunks), h = split(rest, g.in[1]);
  Value d = split(rest, g.in[0]), n = rest;
  Value w = arith::SubIOp::create(b, wcol, c(ipack->padL));
  Value wOk =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, w, c(g.in[2]));
  // The input of channel `inChunk` of the chunk (0 outside the input).
  auto inputAt = [&](Value inChunk) {
    Value ch = arith::AddIOp::create(
        b, arith::MulIOp::create(b, chunk, c(cfg.getCiChunk())), inChunk);
    Value ok = arith::AndIOp::create(
        b, wOk,
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, ch, c(g.cin)));
    auto clamp = [&](Value v) {
      return arith::SelectOp::create(b, ok, v, c(0)).getResult();
    };
    SmallVector<Value> iidx{n, clamp(ch)};
    if (g.rank == 5)
      iidx.push_back(d);
    if (g.rank >= 4)
      iidx.push_back(h);
    iidx.push_back(clamp(w));
    Value v = memref::LoadOp::create(b, func.getArgument(0), iidx);
    if (!v.getType().isF32()) // a half input, widened exactly
      v = arith::ExtFOp::create(b, f32, v);
    return arith::SelectOp::create(
               b, ok, v, arith::ConstantOp::create(b, b.getF32FloatAttr(0.0)))
        .getResult();
  };
  SmallVector<Value> vals;
  const bool half = cfg.getTypes().usesHalfOperands();
  for (int64_t j = 0; j < 4; ++j) {
    if (half) {
      // Packed half words (packHalfWord): plane kg holds channels 8 kg + j
      // and 8 kg + 4 + j.
      Value lo = arith::AddIOp::create(
          b, arith::MulIOp::create(b, kg, c(8)), c(j));
      vals.push_back(emit::packHalfWord(
          b, cfg.getTypes().getOperand(), inputAt(lo),
          inputAt(arith::AddIOp::create(b, lo, c(4)))));
      continue;
    }
    Value v = inputAt(
        arith::AddIOp::create(b, arith::MulIOp::create(b, kg, c(4)), c(j)));
    Value tf32 = NVVM::ConvertFloatToTF32Op::create(
        b, b.getI32Type(), v,
        NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RNA));
    vals.push_back(arith::BitcastOp::create(b, f32, tf32));
  }
  auto v4Ty = VectorType::get({4}, f32);
  vector::StoreOp::create(b, vector::FromElementsOp::create(b, v4Ty, vals),
                          func.getArgument(1),
                          ValueRange{arith::MulIOp::create(b, idx, c(4))},
                          /*nontemporal=*/false, llvm::MaybeAlign(16));
  return func;
}
