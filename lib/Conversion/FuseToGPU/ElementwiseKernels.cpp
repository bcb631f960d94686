//===- ElementwiseKernels.cpp - elementwise kernels of a plan -------------===//
//
// The shared context of the standalone emitters (StandaloneKernels.h) and
// the elementwise kernel: one thread per output element, consecutive
// threads on consecutive elements (coalesced), every input read with
// broadcasting and the kernel's elementwise DAG evaluated in registers. A
// window op (pooling, reduction, reshape) in the DAG loops over its window
// in the thread, evaluating its operand's DAG at each position; a long
// window shared along contiguous runs (a reduction over trailing dims, a
// box, an adaptive pool's long rows) is built by the lanes of a warp.
//
//===----------------------------------------------------------------------===//

#include "StandaloneKernels.h"
#include "WarpReduce.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::detail;

Value StandaloneContext::c(int64_t v) {
  return arith::ConstantIndexOp::create(b, v);
}

Value StandaloneContext::f(double v) {
  return arith::ConstantOp::create(b, b.getFloatAttr(elementType, v));
}

SmallVector<Value> StandaloneContext::coordsOf(Value flat,
                                               ArrayRef<int64_t> shape) {
  SmallVector<Value> coords(shape.size());
  Value rest = flat;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    if (d == 0) {
      coords[d] = rest;
      break;
    }
    coords[d] = arith::RemUIOp::create(b, rest, c(shape[d]));
    rest = arith::DivUIOp::create(b, rest, c(shape[d]));
  }
  return coords;
}

Value StandaloneContext::loadBroadcast(Value arg, ArrayRef<Value> coords) {
  auto ty = cast<RankedTensorType>(arg.getType());
  int64_t lead = coords.size() - ty.getRank();
  SmallVector<Value> idx;
  for (int64_t d = 0; d < ty.getRank(); ++d)
    idx.push_back(ty.getDimSize(d) == 1 ? c(0) : coords[lead + d]);
  Value mem = memOf.lookup(arg);
  // A normalisation kernel's input is passed flat: linearise.
  if (cast<MemRefType>(mem.getType()).getRank() == 1 && ty.getRank() > 1) {
    Value flat = idx[0];
    for (int64_t d = 1; d < ty.getRank(); ++d)
      flat = arith::AddIOp::create(
          b, arith::MulIOp::create(b, flat, c(ty.getDimSize(d))), idx[d]);
    idx.assign({flat});
  }
  Value v = memref::LoadOp::create(b, mem, idx);
  // Half storage: the kernel computes in f32 (exact widening).
  if (isHalfType(v.getType()))
    v = arith::ExtFOp::create(b, b.getF32Type(), v);
  return v;
}

Value StandaloneContext::evaluate(
    Value v, ArrayRef<Value> coords,
    function_ref<Value(Operation *)> special, DenseMap<Value, Value> &memo) {
  if (Value known = memo.lookup(v))
    return known;
  Value result;
  Operation *def = v.getDefiningOp();
  if (Value s = def && special ? special(def) : Value()) {
    result = s;
  } else if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def)) {
    auto dense = cast<DenseElementsAttr>(cst.getValue());
    result = f(dense.getSplatValue<APFloat>().convertToDouble());
  } else if (auto ew = dyn_cast_or_null<ElementwiseOpInterface>(def)) {
    SmallVector<Value> operands;
    for (Value o : def->getOperands())
      operands.push_back(evaluate(o, coords, special, memo));
    result = ew.buildScalar(b, b.getLoc(), operands);
  } else if (auto window = dyn_cast_or_null<WindowOpInterface>(def)) {
    // The window's loop runs in this thread; its operand is evaluated at
    // each window position with a memo of its own (values inside the loop
    // neither depend on `coords` nor dominate code after it).
    // `coords` index the consumer's (broadcast) shape: the window's own
    // result coordinates drop the leading ones and read size-1 dims at 0.
    ArrayRef<int64_t> own = cast<RankedTensorType>(v.getType()).getShape();
    int64_t lead = coords.size() - own.size();
    SmallVector<Value> at;
    for (auto [d, size] : llvm::enumerate(own))
      at.push_back(size == 1 ? c(0) : coords[lead + d]);
    const WindowLanes *shared = lanes;
    lanes = nullptr;
    result = window.buildAtOperands(
        b, b.getLoc(), at,
        [&](OpBuilder &, Location, unsigned k, ValueRange at) -> Value {
          DenseMap<Value, Value> inner;
          SmallVector<Value> pos(at.begin(), at.end());
          return evaluate(def->getOperand(k), pos, special, inner);
        },
        shared);
  } else {
    result = loadBroadcast(v, coords);
  }
  memo[v] = result;
  return result;
}

MemRefType fusecc::detail::memrefOf(Type tensorType) {
  auto tt = cast<RankedTensorType>(tensorType);
  return MemRefType::get(tt.getShape(), tt.getElementType());
}

gpu::GPUFuncOp fusecc::detail::createStandaloneFunc(
    ImplicitLocOpBuilder &b, gpu::GPUModuleOp gpuModule, StringRef name,
    ArrayRef<Type> argTypes, int64_t threads) {
  MLIRContext *ctx = b.getContext();
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto func =
      gpu::GPUFuncOp::create(b, name, FunctionType::get(ctx, argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // Buffers never overlap (the runtime checks arguments; the plan gives
  // every live intermediate its own buffer).
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  b.setInsertionPointToStart(&func.getBody().front());
  gpu::ReturnOp::create(b);
  b.setInsertionPointToStart(&func.getBody().front());
  return func;
}

/// Window volume from which a warp builds each result element together,
/// where the window's op shares it among the lanes along runs of at least
/// kMinLaneRun consecutive elements (laneRunOf).
constexpr int64_t kWarpWindowVolume = 512;
constexpr int64_t kMinLaneRun = 8;

/// Consecutive operand elements (in memory) the lanes of a warp read
/// together where `w` shares its window among them (WindowLanes): a
/// reduction's lanes walk its flattened reduced positions (contiguous over
/// the reduced dims that end the operand's shape), a tap-sums box's lanes
/// its rows (of up to the operand's row length), an adaptive pool's lanes
/// the innermost window dim (its shortest window). 0 for the ops that do
/// not share (every lane would build the whole window). A run of 1 (a
/// reduction over rows, an adaptive pool over H at full W: rand37_7) reads
/// one element per 32-byte sector a lane; a thread per result element then
/// reads consecutive elements in consecutive threads instead.
static int64_t laneRunOf(WindowOpInterface w) {
  Operation *op = w;
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  if (isa<AdaptiveAvgPoolOp, AdaptiveMaxPoolOp>(op))
    return out.back() == 1 ? in.back() : in.back() / out.back();
  if (isa<ConvTransposeTapSumsOp>(op))
    return in.back();
  if (w.getSetReduction() == SetReduction::None)
    return 0;
  SmallVector<int64_t> dims = w.getReducedDims();
  int64_t run = 1;
  for (int64_t d = static_cast<int64_t>(in.size()) - 1;
       d >= 0 && llvm::is_contained(dims, d); --d)
    run *= in[d];
  return run;
}

FailureOr<SmallVector<StandaloneLaunch>>
fusecc::detail::buildElementwiseKernel(gpu::GPUModuleOp gpuModule,
                                       KernelOp kernel) {
  SmallVector<Type> argTypes;
  for (Value in : kernel.getInputs())
    argTypes.push_back(memrefOf(in.getType()));
  argTypes.push_back(memrefOf(kernel.getResult().getType()));
  ImplicitLocOpBuilder b(kernel.getLoc(), kernel.getContext());
  gpu::GPUFuncOp func = createStandaloneFunc(
      b, gpuModule, kernel.getKernelName(), argTypes, kStandaloneThreads);
  // f32 arithmetic whatever the storage (docs/design/types.md).
  StandaloneContext cx{b, kernel, func, DenseMap<Value, Value>(),
                       b.getF32Type()};
  Block &body = kernel.getBody().front();
  for (auto [arg, mem] : llvm::zip(body.getArguments(), func.getArguments()))
    cx.memOf[arg] = mem;

  ArrayRef<int64_t> shape = kernel.getResult().getType().getShape();
  int64_t numel = kernel.getResult().getType().getNumElements();
  // A long window (a reduction over many elements) is built by a warp per
  // result element, its lanes sharing the window, where every long window
  // is shared along runs of consecutive elements; else a thread per element
  // (consecutive threads on consecutive result elements read consecutive
  // window positions; the window loop's constant-trip loops are unrolled,
  // several loads in flight per thread).
  int64_t longest = 0;
  bool shared = true;
  body.walk([&](WindowOpInterface w) {
    int64_t volume = w.getWindowVolume();
    longest = std::max(longest, volume);
    if (volume >= kWarpWindowVolume && laneRunOf(w) < kMinLaneRun)
      shared = false;
  });
  const int64_t perElement = longest >= kWarpWindowVolume && shared ? 32 : 1;
  const int64_t elemsPerBlock = kStandaloneThreads / perElement;
  int64_t grid = llvm::divideCeil(numel, elemsPerBlock);
  if (grid > std::numeric_limits<int32_t>::max())
    return kernel.emitOpError("needs ")
           << grid << " blocks of " << kStandaloneThreads
           << " threads; at most 2^31 - 1 fit a grid";
  Value tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  Value e = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, gpu::BlockIdOp::create(b, gpu::Dimension::x),
                            cx.c(elemsPerBlock)),
      perElement == 1 ? tid
                      : Value(arith::DivUIOp::create(b, tid, cx.c(32))));
  auto warpAllReduce = [&](Value v,
                           function_ref<Value(Value, Value)> combine) {
    return emitWarpAllReduce(b, v, 32, combine);
  };
  WindowLanes lanes;
  if (perElement > 1) {
    lanes.lane = arith::RemUIOp::create(b, tid, cx.c(32));
    lanes.count = 32;
    lanes.allReduce = warpAllReduce;
    cx.lanes = &lanes;
  }
  auto inside = scf::IfOp::create(
      b, TypeRange{},
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, e, cx.c(numel)),
      false);
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  SmallVector<Value> coords = cx.coordsOf(e, shape);
  DenseMap<Value, Value> memo;
  Value result = cast<YieldOp>(body.getTerminator()).getValue();
  Value v = cx.evaluate(result, coords, nullptr, memo);
  if (perElement > 1) {
    // Every lane holds the element; lane 0 stores it.
    auto first = scf::IfOp::create(
        b, TypeRange{},
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lanes.lane,
                              cx.c(0)),
        false);
    b.setInsertionPointToStart(&first.getThenRegion().front());
  }
  // A half result is rounded once, to nearest even, at its store.
  Type stored = kernel.getResult().getType().getElementType();
  if (stored != v.getType())
    v = arith::TruncFOp::create(b, stored, v);
  memref::StoreOp::create(b, v, func.getArguments().back(), coords);

  StandaloneLaunch launch;
  launch.func = func;
  launch.gridX = grid;
  launch.blockX = kStandaloneThreads;
  for (int64_t i = 0, e = kernel.getInputs().size(); i < e; ++i)
    launch.params.push_back({StandaloneLaunch::ParamKind::Input, i});
  launch.params.push_back({StandaloneLaunch::ParamKind::Output, 0});
  return SmallVector<StandaloneLaunch>{launch};
}

FailureOr<SmallVector<StandaloneLaunch>>
fusecc::buildStandaloneKernel(gpu::GPUModuleOp gpuModule, KernelOp kernel) {
  switch (kernelKindOf(kernel)) {
  case KernelKind::Elementwise:
    return buildElementwiseKernel(gpuModule, kernel);
  case KernelKind::Normalization:
  case KernelKind::Reduction:
    return buildNormalizationKernel(gpuModule, kernel);
  case KernelKind::BoxSums:
    return buildBoxSumsKernel(gpuModule, kernel);
  case KernelKind::Convolution:
    break;
  }
  return kernel.emitOpError("holds a convolution; it is built by "
                            "buildKernelFunction");
}
