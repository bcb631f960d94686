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

/// Two f32 values rounded to nearest even to `half` (bf16 or f16) and
/// packed into one 32-bit word, `lo` in the low half, as the f32 of the
/// same bits: a word of a half-operand wgmma image. Plane `kg` of a half
/// image (`wgmmaPlanes`: ciChunk / 8 of them) holds channels 8 kg + j
/// (low) and 8 kg + 4 + j (high) in word j: the hardware reads
/// them as k = 8 kg + 2 j and 8 kg + 2 j + 1, a bijection of the channels
/// that both operands share, so the products are the same.
static Value packHalfWord(ImplicitLocOpBuilder &b, Type half, Value lo,
                          Value hi) {
  Value l = arith::TruncFOp::create(b, half, lo);
  Value h = arith::TruncFOp::create(b, half, hi);
  Value pair = vector::FromElementsOp::create(b, VectorType::get({2}, half),
                                              ValueRange{l, h});
  Value bits = LLVM::BitcastOp::create(b, b.getI32Type(), pair);
  return arith::BitcastOp::create(b, b.getF32Type(), bits);
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
  Value idx;
  gpu::GPUFuncOp func =
      createRelayoutFunction(b, gpuModule, kernel, "_wpack",
                             a.storedOperand(a.conv.getWeight()),
                             pack->totalElems, pack->totalElems, idx);
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  auto split = [&](Value &rest, int64_t size) {
    return takeDigit(b, rest, size);
  };
  // Image element (t, kg, cl, j) of (ct, td, th, chunk): input channel
  // chunk x ciChunk + 4 kg + j (half operands: 8 kg + j and 8 kg + 4 + j),
  // output channel ct x tileC + cl (cl below the image's channels), tap t.
  // Split-operand kernels store a round's hi image, then its lo image.
  Value rest = idx;
  Value j = split(rest, 4), cl = split(rest, pack->imageChannels);
  Value kg = split(rest, wgmmaPlanes(cfg)), t = split(rest, g.k[2]);
  Value part = pack->parts > 1 ? split(rest, pack->parts) : Value();
  Value chunk = split(rest, pack->numChunks), th = split(rest, pack->kh);
  Value td = split(rest, pack->kd), ct = rest;
  auto addI = [&](Value x, Value y) { return arith::AddIOp::create(b, x, y); };
  auto mulI = [&](Value x, int64_t y) {
    return arith::MulIOp::create(b, x, c(y));
  };
  Value co = addI(mulI(ct, cfg.getTileC()), cl);
  // wgmma kernels have one group. A forward convolution's weight is
  // [Cout, Cin, *k] with its taps reversed.
  const bool forward = a.conv.getForwardWeight();
  auto tap = [&](Value x, int64_t k) -> Value {
    return forward ? arith::SubIOp::create(b, c(k - 1), x).getResult() : x;
  };
  // The weight of input channel `ci` (within the chunk's first ciChunk),
  // 0 outside the weights.
  auto weightAt = [&](Value ciInChunk) {
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
    widx.push_back(tap(t, g.k[2]));
    Value v = memref::LoadOp::create(b, func.getArgument(0), widx);
    if (!v.getType().isF32()) // half weights, widened exactly
      v = arith::ExtFOp::create(b, f32, v);
    return arith::SelectOp::create(
               b, ok, v, arith::ConstantOp::create(b, b.getF32FloatAttr(0.0)))
        .getResult();
  };
  if (cfg.getTypes().usesHalfOperands()) {
    // Packed half words (packHalfWord): plane kg holds channels 8 kg + j
    // and 8 kg + 4 + j.
    Value lo = addI(mulI(kg, 8), j);
    Value word = packHalfWord(b, cfg.getTypes().getOperand(),
                              weightAt(lo),
                              weightAt(addI(lo, c(4))));
    memref::StoreOp::create(b, word, func.getArgument(1), ValueRange{idx});
    return func;
  }
  Value v = weightAt(addI(mulI(kg, 4), j));
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
    Value isLo = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, part, c(0));
    stored = arith::SelectOp::create(b, isLo, lo, stored);
  }
  memref::StoreOp::create(b, stored, func.getArgument(1), ValueRange{idx});
  return func;
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
      vals.push_back(packHalfWord(
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
