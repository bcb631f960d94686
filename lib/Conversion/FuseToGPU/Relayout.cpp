//===- Relayout.cpp - the weight and input re-layout kernels --------------===//
//
// A wgmma kernel copies its operands into shared memory with 16-byte
// asynchronous copies of exact round images. Two small kernels, launched
// before it on the same stream, write those images once per call: the
// weights (`WeightPackPlan`) and, where it pays, the input
// (`InputPackPlan`), TF32-rounded and zero-padded (split-operand kernels:
// the weights' TF32 hi and lo parts, two images per round).
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
  // chunk x ciChunk + 4 kg + j, output channel ct x tileC + cl (cl below
  // the image's channels), tap t.
  // Split-operand kernels store a round's hi image, then its lo image.
  Value rest = idx;
  Value j = split(rest, 4), cl = split(rest, pack->imageChannels);
  Value kg = split(rest, cfg.getCiChunk() / 4), t = split(rest, g.k[2]);
  Value part = pack->parts > 1 ? split(rest, pack->parts) : Value();
  Value chunk = split(rest, pack->numChunks), th = split(rest, pack->kh);
  Value td = split(rest, pack->kd), ct = rest;
  auto addI = [&](Value x, Value y) { return arith::AddIOp::create(b, x, y); };
  auto mulI = [&](Value x, int64_t y) {
    return arith::MulIOp::create(b, x, c(y));
  };
  Value ci = addI(addI(mulI(chunk, cfg.getCiChunk()), mulI(kg, 4)), j);
  Value co = addI(mulI(ct, cfg.getTileC()), cl);
  Value ok = arith::AndIOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, ci, c(g.cin)),
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, co, c(g.cout)));
  auto clamp = [&](Value v) {
    return arith::SelectOp::create(b, ok, v, c(0)).getResult();
  };
  SmallVector<Value> widx{clamp(ci), clamp(co)};
  if (g.rank == 5)
    widx.push_back(td);
  if (g.rank >= 4)
    widx.push_back(th);
  widx.push_back(t);
  Value v = memref::LoadOp::create(b, func.getArgument(0), widx);
  if (!v.getType().isF32()) // half weights, widened exactly
    v = arith::ExtFOp::create(b, f32, v);
  v = arith::SelectOp::create(
      b, ok, v, arith::ConstantOp::create(b, b.getF32FloatAttr(0.0)));
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
  SmallVector<Value> vals;
  for (int64_t j = 0; j < 4; ++j) {
    Value ch = arith::AddIOp::create(
        b,
        arith::AddIOp::create(
            b, arith::MulIOp::create(b, chunk, c(cfg.getCiChunk())),
            arith::MulIOp::create(b, kg, c(4))),
        c(j));
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
    v = arith::SelectOp::create(
        b, ok, v, arith::ConstantOp::create(b, b.getF32FloatAttr(0.0)));
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
