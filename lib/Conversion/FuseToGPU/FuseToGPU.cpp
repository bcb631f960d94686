//===- FuseToGPU.cpp - lower fused kernels to gpu.func + launches ---------===//
//
// Implements `fuse-convert-to-gpu`: graph functions on tensors become
// destination-passing functions on memrefs that launch one gpu.func per
// tiled fuse.kernel.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Conversion/FuseToGPU/FuseToGPU.h"
#include "fusecc/Conversion/FuseToGPU/KernelBuilder.h"
#include "BatchLaunches.h"
#include "PrepareSteps.h"
#include "StandaloneKernels.h"
#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"

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

/// The epilogue math of `kernel` under the pass option `mode`: `auto`
/// approximates where the convolution's operands are rounded (tf32, bf16,
/// f16 math; not in split-operand tf32x3 kernels: those compute an ieee
/// graph, exact like the FMA kernels).
EpilogueMath epilogueMathOf(KernelOp kernel, EpilogueMathMode mode) {
  auto config = kernel.getConfig();
  if (mode == EpilogueMathMode::Fast ||
      (mode == EpilogueMathMode::Auto && config &&
       config->getTypes().roundsOperands()))
    return EpilogueMath::Fast;
  return EpilogueMath::Exact;
}

/// Views `v` (a memref of the same element count) as `type`.
Value viewAs(OpBuilder &b, Location loc, Value v, MemRefType type) {
  if (v.getType() == type)
    return v;
  SmallVector<int64_t> strides(type.getRank(), 1);
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  return memref::ReinterpretCastOp::create(b, loc, type, v, /*offset=*/0,
                                           type.getShape(), strides);
}

/// Launches a convolution kernel reading and writing `operands` (kernel
/// inputs, then the output buffer), with its re-layout kernels and their
/// scratch workspaces; adds the host value of its weight to `weights`.
LogicalResult launchConvolution(OpBuilder &b, gpu::GPUModuleOp gpuModule,
                                KernelOp kernel, SmallVector<Value> operands,
                                Value statsBuffer,
                                EpilogueMathMode epilogueMath,
                                bool registerSoftmax,
                                llvm::DenseSet<Value> &weights) {
  FailureOr<KernelAnalysis> a = KernelAnalysis::analyze(kernel);
  if (failed(a))
    return failure();
  if (auto w = dyn_cast<BlockArgument>(a->storedOperand(a->conv.getWeight())))
    weights.insert(operands[w.getArgNumber()]);
  int64_t sharedBytes = 0;
  FailureOr<gpu::GPUFuncOp> gpuFunc =
      buildKernelFunction(gpuModule, kernel, *a,
                          epilogueMathOf(kernel, epilogueMath), &sharedBytes,
                          registerSoftmax);
  if (failed(gpuFunc))
    return failure();
  LaunchPlan launch = LaunchPlan::get(*a, *kernel.getConfig());
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
    auto alloc = memref::AllocOp::create(
        b, loc, MemRefType::get({elems}, b.getF32Type()));
    alloc->setAttr(kWorkspaceRoleAttr, b.getStringAttr("scratch"));
    Value operand = operands[cast<BlockArgument>(source).getArgNumber()];
    gpu::KernelDim3 packGrid{
        idx(llvm::divideCeil(threadsNeeded, kWeightPackThreads)), one, one};
    gpu::KernelDim3 packBlock{idx(kWeightPackThreads), one, one};
    gpu::LaunchFuncOp::create(
        b, loc, *packFunc, packGrid, packBlock,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0),
        ValueRange{operand, alloc});
    workspaces.push_back(alloc);
    return success();
  };
  if (auto pack = WeightPackPlan::get(*a, *kernel.getConfig()))
    if (failed(relayout(buildWeightPackFunction(gpuModule, kernel, *a),
                        a->storedOperand(a->conv.getWeight()), pack->totalElems,
                        weightPackThreadsNeeded(*pack, a->geom))))
      return failure();
  if (auto ipack = InputPackPlan::get(*a, *kernel.getConfig()))
    if (failed(relayout(buildInputPackFunction(gpuModule, kernel, *a),
                        a->storedOperand(a->conv.getInput()),
                        ipack->totalElems,
                        ipack->totalElems / 4)))
      return failure();
  // Workspaces and statistics come before the output (last), if any.
  auto beforeOutput =
      KernelPlan::statsOnly(kernel) ? operands.end() : operands.end() - 1;
  beforeOutput =
      operands.insert(beforeOutput, workspaces.begin(), workspaces.end()) +
      workspaces.size();
  if (statsBuffer)
    operands.insert(beforeOutput, statsBuffer);
  gpu::KernelDim3 grid{idx(launch.gridX), one, one};
  gpu::KernelDim3 block{idx(launch.threads), one, one};
  Value smemBytes =
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), sharedBytes);
  gpu::LaunchFuncOp::create(b, loc, *gpuFunc, grid, block, smemBytes,
                            operands);
  for (Value workspace : workspaces)
    memref::DeallocOp::create(b, loc, workspace);
  return success();
}

/// Rewrites one graph function following its kernel plan: every op must be
/// in a kernel; kernel inputs are function arguments or earlier kernels'
/// results, held in the plan's buffers (or in the output argument when the
/// function returns them).
LogicalResult convertFunction(func::FuncOp func, gpu::GPUModuleOp gpuModule,
                              EpilogueMathMode epilogueMath,
                              bool registerSoftmax) {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("graph functions must have a single block");
  Block &body = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!ret)
    return func.emitOpError("graph functions must end with func.return");
  SmallVector<arith::ConstantOp> tensorConsts;
  for (Operation &op : body.without_terminator()) {
    if (isa<KernelOp>(op) || (isa<arith::ConstantOp>(op) && op.use_empty()))
      continue;
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      if (!dense || !isa<Float32Type, BFloat16Type, Float16Type>(
                        dense.getElementType()))
        return op.emitOpError("is a tensor constant read by a kernel; only "
                              "dense f32, bf16 and f16 constants are "
                              "supported");
      tensorConsts.push_back(cst);
      continue;
    }
    return op.emitOpError("is not part of a fused kernel; run "
                          "fuse-form-kernels first");
  }
  for (Value r : ret.getOperands())
    if (!r.getDefiningOp<KernelOp>())
      return ret.emitOpError("returns a value that no kernel computes (a "
                             "function argument or a constant)");
  FailureOr<KernelPlan> plan = KernelPlan::read(func);
  if (failed(plan))
    return failure();

  // New signature: memref inputs, then one memref per result.
  MLIRContext *ctx = func.getContext();
  SmallVector<Type> argTypes;
  for (Type t : func.getArgumentTypes())
    argTypes.push_back(fusecc::detail::memrefOf(t));
  for (Type t : func.getResultTypes())
    argTypes.push_back(fusecc::detail::memrefOf(t));

  OpBuilder b(func);
  auto newFunc = func::FuncOp::create(b, func.getLoc(), func.getSymName(),
                                      FunctionType::get(ctx, argTypes, {}));
  // For the prepare steps (PrepareSteps.h): the inputs, and the host
  // values the convolutions take as weights.
  unsigned numInputs = func.getNumArguments();
  llvm::DenseSet<Value> convWeights;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    newFunc.setArgAttrs(i, func.getArgAttrDict(i)
                               ? func.getArgAttrDict(i).getValue()
                               : ArrayRef<NamedAttribute>{});
  // A dynamic batch: the output arguments of batched results are batched.
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (func.getResultAttr(i, kBatchedAttr))
      newFunc.setArgAttr(func.getNumArguments() + i, kBatchedAttr,
                         UnitAttr::get(ctx));
  Block *entry = newFunc.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Location loc = func.getLoc();

  // The plan's buffers, flat, for the whole call.
  SmallVector<Value> buffers;
  for (const PlanBuffer &pb : plan->buffers) {
    auto alloc = memref::AllocOp::create(
        b, loc, MemRefType::get({pb.elements}, pb.elementType));
    alloc->setAttr(kWorkspaceRoleAttr,
                   b.getStringAttr(PlanBuffer::roleName(pb.role)));
    buffers.push_back(alloc);
  }
  DenseMap<Value, Value> memOf;
  // Tensor constants (weights of an imported model): module globals,
  // uploaded once by the runtime (bundle `const` records).
  // A constant without an id (made by a pass; describeGraphs numbers the
  // graph's) takes one after every id in the module, so that it never
  // shares a global with a numbered constant.
  auto module = func->getParentOfType<ModuleOp>();
  int64_t next = 0;
  auto after = [&](Operation *op) {
    if (auto id = op->getAttrOfType<IntegerAttr>(kConstIdAttr))
      next = std::max(next, id.getInt() + 1);
  };
  for (auto g : module.getOps<memref::GlobalOp>())
    after(g);
  module.walk([&](arith::ConstantOp cst) { after(cst); });
  for (arith::ConstantOp cst : tensorConsts) {
    auto ty = cast<RankedTensorType>(cst.getType());
    auto id = cst->getAttrOfType<IntegerAttr>(kConstIdAttr);
    int64_t k = id ? id.getInt() : next++;
    std::string name = "__fuse_const_" + std::to_string(k);
    OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
    auto memTy = fusecc::detail::memrefOf(ty);
    if (!module.lookupSymbol(name)) {
      auto global = memref::GlobalOp::create(
          mb, cst.getLoc(), name, mb.getStringAttr("private"), memTy,
          cast<DenseElementsAttr>(cst.getValue()), /*constant=*/true,
          /*alignment=*/IntegerAttr());
      global->setAttr(kConstIdAttr, mb.getI64IntegerAttr(k));
      if (auto n = cst->getAttrOfType<StringAttr>("fuse.name"))
        global->setAttr("fuse.name", n);
    }
    memOf[cst.getResult()] =
        memref::GetGlobalOp::create(b, cst.getLoc(), memTy, name);
  }
  for (BlockArgument arg : body.getArguments())
    memOf[arg] = entry->getArgument(arg.getArgNumber());
  for (auto [i, r] : llvm::enumerate(ret.getOperands()))
    memOf.try_emplace(r, entry->getArgument(func.getNumArguments() + i));

  // Results that are never stored (a statistics-only convolution's): the
  // kernels reading them take only the statistics.
  llvm::DenseSet<Value> onChip;
  for (KernelOp kernel : plan->steps) {
    // Half storage is read and written by elementwise kernels (the casts
    // fuse-widen-half places), and read by convolution kernels through
    // their operand casts (KernelAnalysis::operandCasts: the convolution's
    // half input, weight and bias, and half inputs of their elementwise
    // epilogue ops and of their prologue's ops, widened as they are
    // loaded) and written by convolution
    // and normalisation kernels whose last op is a cast to half (half
    // stores); every other tensor of a kernel is f32.
    if (kernelKindOf(kernel) != KernelKind::Elementwise) {
      auto f32 = [](Value v) {
        return cast<RankedTensorType>(v.getType()).getElementType().isF32();
      };
      Block &kbody = kernel.getBody().front();
      auto readDirectly = [&](unsigned i) {
        return llvm::all_of(kbody.getArgument(i).getUsers(), [](Operation *u) {
          auto c = dyn_cast<CastOp>(u);
          return c && llvm::all_of(c->getUsers(), [](Operation *cu) {
                   return isa<ConvTransposeOp, ElementwiseOpInterface,
                              ConvTransposeTapSumsOp, WindowOpInterface>(cu);
                 });
        });
      };
      // Convolution and box-sums kernels read half inputs directly.
      const bool readsHalf = kernelKindOf(kernel) == KernelKind::Convolution ||
                             kernelKindOf(kernel) == KernelKind::BoxSums;
      for (auto [i, in] : llvm::enumerate(kernel.getInputs()))
        if (!f32(in) && (!readsHalf || !readDirectly(i)))
          return kernel.emitOpError("reads or writes bf16/f16 tensors; only "
                                    "elementwise kernels convert half "
                                    "storage, and convolutions read their "
                                    "half operands through fuse.cast (run "
                                    "fuse-widen-half before "
                                    "fuse-form-kernels)");
      // A convolution or normalisation kernel whose last op is a cast to
      // half stores the half type itself (FormKernels' isHalfStoreOf).
      auto halfStore = [&] {
        auto c = kbody.getTerminator()->getOperand(0).getDefiningOp<CastOp>();
        return (kernelKindOf(kernel) == KernelKind::Convolution ||
                kernelKindOf(kernel) == KernelKind::Normalization) &&
               c &&
               isHalfType(cast<RankedTensorType>(c.getResult().getType())
                              .getElementType());
      };
      if (!f32(kernel.getResult()) && !halfStore())
        return kernel.emitOpError("reads or writes bf16/f16 tensors; only "
                                  "elementwise kernels convert half storage "
                                  "(run fuse-widen-half before "
                                  "fuse-form-kernels)");
    }
    Value result = kernel.getResult();
    MemRefType resultTy = fusecc::detail::memrefOf(result.getType());
    bool statsOnly = KernelPlan::statsOnly(kernel);
    if (statsOnly)
      onChip.insert(result);
    else if (!memOf.count(result)) {
      std::optional<int64_t> buf = KernelPlan::resultBuffer(kernel);
      if (!buf)
        return kernel.emitOpError("result has no buffer in the plan");
      memOf[result] = viewAs(b, kernel.getLoc(), buffers[*buf], resultTy);
    }
    SmallVector<Value> operands;
    for (Value in : kernel.getInputs()) {
      Value mem = memOf.lookup(in);
      if (!mem && !onChip.contains(in))
        return kernel.emitOpError("reads a value that is neither a function "
                                  "argument nor an earlier kernel's result");
      operands.push_back(mem); // Null: never a parameter (checked below).
    }
    if (!statsOnly)
      operands.push_back(memOf.lookup(result));
    if (kernelKindOf(kernel) == KernelKind::Convolution) {
      // The partial statistics its epilogue writes for a normalisation.
      Value stats;
      FailureOr<std::optional<EpilogueStatsLayout>> layout =
          KernelPlan::epilogueStats(kernel);
      if (failed(layout))
        return failure();
      if (*layout) {
        std::optional<int64_t> buf = KernelPlan::partialsBuffer(kernel);
        if (!buf)
          return kernel.emitOpError("writes partial statistics but has no "
                                    "partials workspace in the plan");
        stats = viewAs(
            b, kernel.getLoc(), buffers[*buf],
            MemRefType::get({(*layout)->elements()}, (*layout)->elementType));
      }
      if (failed(launchConvolution(b, gpuModule, kernel, operands, stats,
                                   epilogueMath, registerSoftmax, convWeights)))
        return failure();
      continue;
    }
    FailureOr<SmallVector<StandaloneLaunch>> launches =
        buildStandaloneKernel(gpuModule, kernel);
    if (failed(launches))
      return failure();
    Location kloc = kernel.getLoc();
    auto idx = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, kloc, v).getResult();
    };
    for (StandaloneLaunch l : *launches) {
      SmallVector<Value> params;
      for (auto [j, p] : llvm::enumerate(l.params)) {
        Value v;
        switch (p.kind) {
        case StandaloneLaunch::ParamKind::Input:
          v = operands[p.input];
          if (!v)
            return kernel.emitOpError("input ")
                   << p.input << " is never stored (its convolution writes "
                   << "only statistics) but a launch reads it";
          break;
        case StandaloneLaunch::ParamKind::Output:
          v = operands.back();
          break;
        case StandaloneLaunch::ParamKind::Partials: {
          std::optional<int64_t> buf = KernelPlan::partialsBuffer(kernel);
          if (!buf)
            return kernel.emitOpError("has no partials workspace in the plan");
          v = buffers[*buf];
          // The workspace holds every value the launch indexes (a split's
          // partials, or the epilogue's records and their merged records).
          int64_t need =
              cast<MemRefType>(l.func.getArgumentTypes()[j]).getNumElements();
          if (plan->buffers[*buf].elements < need)
            return kernel.emitOpError("partials workspace b")
                   << *buf << " holds " << plan->buffers[*buf].elements
                   << " values; launch " << l.func.getName() << " needs "
                   << need;
          break;
        }
        }
        params.push_back(viewAs(b, kloc, v,
                                cast<MemRefType>(l.func.getArgumentTypes()[j])));
      }
      Value one = idx(1);
      gpu::LaunchFuncOp::create(
          b, kloc, l.func, gpu::KernelDim3{idx(l.gridX), one, one},
          gpu::KernelDim3{idx(l.blockX), one, one},
          arith::ConstantIntOp::create(b, kloc, b.getI32Type(), l.sharedBytes),
          params);
    }
  }
  for (Value buffer : buffers)
    memref::DeallocOp::create(b, loc, buffer);
  func::ReturnOp::create(b, ret.getLoc());
  func.erase();
  if (newFunc->getParentOfType<ModuleOp>()->hasAttr(kMaxBatchAttr) &&
      failed(fusecc::detail::assignBatchedLaunches(newFunc)))
    return failure();
  return fusecc::detail::markPrepareSteps(newFunc, numInputs, convWeights);
}

struct FuseConvertToGPUPass
    : public fusecc::impl::FuseConvertToGPUBase<FuseConvertToGPUPass> {
  using FuseConvertToGPUBase::FuseConvertToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
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
      if (failed(convertFunction(f, gpuModule, epilogueMath, registerSoftmax)))
        return signalPassFailure();
  }
};

} // namespace
