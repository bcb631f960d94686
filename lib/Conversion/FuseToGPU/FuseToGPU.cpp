//===- FuseToGPU.cpp - lower fused kernels to gpu.func + launches ---------===//
//
// Implements `fuse-convert-to-gpu`: graph functions on tensors become
// destination-passing functions on memrefs that launch one gpu.func per
// tiled fuse.kernel.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Conversion/FuseToGPU/FuseToGPU.h"
#include "fusecc/Conversion/FuseToGPU/KernelBuilder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace fusecc {
#define GEN_PASS_DEF_FUSECONVERTTOGPU
#include "fusecc/Conversion/Passes.h.inc"
} // namespace fusecc

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

constexpr StringLiteral kKernelModuleName = "fusecc_kernels";

/// The epilogue math of `kernel` under the pass option `mode` (`auto`,
/// `exact` or `fast`): `auto` approximates where the convolution is tf32.
EpilogueMath epilogueMathOf(KernelOp kernel, StringRef mode) {
  auto config = kernel.getConfig();
  if (mode == "fast" ||
      (mode == "auto" && config && config->getPrecision() == "tf32"))
    return EpilogueMath::Fast;
  return EpilogueMath::Exact;
}

/// Rewrites one graph function. Every op must already be in a kernel whose
/// inputs are function arguments and whose result is returned.
LogicalResult convertFunction(func::FuncOp func, gpu::GPUModuleOp gpuModule,
                              StringRef epilogueMath) {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("graph functions must have a single block");
  Block &body = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!ret)
    return func.emitOpError("graph functions must end with func.return");
  SmallVector<KernelOp> kernels;
  for (Operation &op : body.without_terminator()) {
    if (auto k = dyn_cast<KernelOp>(op)) {
      kernels.push_back(k);
      continue;
    }
    if (isa<arith::ConstantOp>(op) && op.use_empty())
      continue;
    return op.emitOpError("is not part of a fused kernel; only transposed "
                          "convolutions and their epilogues are compiled");
  }
  for (Value r : ret.getOperands())
    if (!r.getDefiningOp<KernelOp>())
      return ret.emitOpError("returns a value that no fused kernel computes");

  // New signature: memref inputs, then one memref per result.
  MLIRContext *ctx = func.getContext();
  auto toMemRef = [](Type t) {
    auto tt = cast<RankedTensorType>(t);
    return MemRefType::get(tt.getShape(), tt.getElementType());
  };
  SmallVector<Type> argTypes;
  for (Type t : func.getArgumentTypes())
    argTypes.push_back(toMemRef(t));
  for (Type t : func.getResultTypes())
    argTypes.push_back(toMemRef(t));

  OpBuilder b(func);
  auto newFunc = func::FuncOp::create(b, func.getLoc(), func.getSymName(),
                                      FunctionType::get(ctx, argTypes, {}));
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    newFunc.setArgAttrs(i, func.getArgAttrDict(i)
                               ? func.getArgAttrDict(i).getValue()
                               : ArrayRef<NamedAttribute>{});
  Block *entry = newFunc.addEntryBlock();
  b.setInsertionPointToStart(entry);

  for (KernelOp kernel : kernels) {
    SmallVector<Value> operands;
    for (Value in : kernel.getInputs()) {
      auto arg = dyn_cast<BlockArgument>(in);
      if (!arg || arg.getOwner() != &body)
        return kernel.emitOpError("reads a value computed by another kernel; "
                                  "intermediate buffers between kernels are "
                                  "not supported yet");
      operands.push_back(entry->getArgument(arg.getArgNumber()));
    }
    auto resultIdx = llvm::find(ret.getOperands(), kernel.getResult()) -
                     ret.getOperands().begin();
    if (resultIdx == static_cast<int64_t>(ret.getNumOperands()) ||
        !kernel.getResult().hasOneUse())
      return kernel.emitOpError("result must be returned by the function "
                                "and used nowhere else");
    operands.push_back(
        entry->getArgument(func.getNumArguments() + resultIdx));

    FailureOr<KernelAnalysis> a = KernelAnalysis::analyze(kernel);
    if (failed(a))
      return failure();
    FailureOr<gpu::GPUFuncOp> gpuFunc = buildKernelFunction(
        gpuModule, kernel, *a, epilogueMathOf(kernel, epilogueMath));
    if (failed(gpuFunc))
      return failure();
    LaunchPlan launch = LaunchPlan::get(*a, *kernel.getConfig());
    SharedMemoryPlan smem = SharedMemoryPlan::get(*a, *kernel.getConfig());
    Location loc = kernel.getLoc();
    auto idx = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    Value one = idx(1);
    // wgmma kernels read their weights (and, where cheap, their input)
    // re-laid out by small kernels into workspaces that live for this call;
    // they come before the output among the main kernel's operands.
    SmallVector<Value> workspaces;
    auto relayout = [&](FailureOr<gpu::GPUFuncOp> packFunc, Value source,
                        int64_t elems, int64_t threadsNeeded) -> LogicalResult {
      if (failed(packFunc))
        return failure();
      Value workspace = memref::AllocOp::create(
          b, loc, MemRefType::get({elems}, b.getF32Type()));
      Value operand = operands[cast<BlockArgument>(source).getArgNumber()];
      gpu::KernelDim3 packGrid{
          idx(llvm::divideCeil(threadsNeeded, kWeightPackThreads)), one, one};
      gpu::KernelDim3 packBlock{idx(kWeightPackThreads), one, one};
      gpu::LaunchFuncOp::create(
          b, loc, *packFunc, packGrid, packBlock,
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0),
          ValueRange{operand, workspace});
      workspaces.push_back(workspace);
      return success();
    };
    if (auto pack = WeightPackPlan::get(*a, *kernel.getConfig()))
      if (failed(relayout(buildWeightPackFunction(gpuModule, kernel, *a),
                          a->conv.getWeight(), pack->totalElems,
                          pack->totalElems)))
        return failure();
    if (auto ipack = InputPackPlan::get(*a, *kernel.getConfig()))
      if (failed(relayout(buildInputPackFunction(gpuModule, kernel, *a),
                          a->conv.getInput(), ipack->totalElems,
                          ipack->totalElems / 4)))
        return failure();
    operands.insert(operands.end() - 1, workspaces.begin(), workspaces.end());
    gpu::KernelDim3 grid{idx(launch.gridX), one, one};
    gpu::KernelDim3 block{idx(launch.threads), one, one};
    Value smemBytes = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                                   smem.bytes());
    gpu::LaunchFuncOp::create(b, loc, *gpuFunc, grid, block, smemBytes,
                              operands);
    for (Value workspace : workspaces)
      memref::DeallocOp::create(b, loc, workspace);
  }
  func::ReturnOp::create(b, ret.getLoc());
  func.erase();
  return success();
}

struct FuseConvertToGPUPass
    : public fusecc::impl::FuseConvertToGPUBase<FuseConvertToGPUPass> {
  using FuseConvertToGPUBase::FuseConvertToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!isEpilogueMathMode(epilogueMath)) {
      module.emitError() << "fuse-convert-to-gpu: epilogue-math must be "
                            "'auto', 'exact' or 'fast', got '"
                         << epilogueMath << "'";
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal())
        funcs.push_back(f);
    if (funcs.empty())
      return;
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModuleName);
    for (func::FuncOp f : funcs)
      if (failed(convertFunction(f, gpuModule, epilogueMath)))
        return signalPassFailure();
  }
};

} // namespace
