//===- Bundle.cpp - write fusecc bundles ----------------------------------===//
//
// Serialises the manifest and PTX of a compiled module (docs/bundle.md).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Target/Bundle.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

static std::string joinInts(ArrayRef<int64_t> v) {
  std::string s;
  for (auto [i, x] : llvm::enumerate(v))
    s += (i ? "," : "") + std::to_string(x);
  return s;
}

static std::string fmtDouble(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.17g", v);
  return s;
}

static FailureOr<GraphDescription> describeFunction(func::FuncOp func) {
  GraphDescription d;
  d.numInputs = func.getNumArguments();
  DenseMap<Value, unsigned> ids;
  unsigned next = 0;
  for (BlockArgument arg : func.getArguments()) {
    ids[arg] = next++;
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                  "fuse.name");
    d.argNames.push_back(name ? name.str()
                              : "arg" + std::to_string(arg.getArgNumber()));
  }
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    d.argNames.push_back(func.getNumResults() == 1
                             ? std::string("result")
                             : "result" + std::to_string(i));

  auto ref = [&](Value v) { return "%" + std::to_string(ids.lookup(v)); };
  for (Operation &op : func.getBody().front()) {
    std::string line;
    auto def = [&](StringRef kind) {
      ids[op.getResult(0)] = next;
      line = "%" + std::to_string(next++) + " = " + kind.str();
      for (Value v : op.getOperands())
        line += " " + ref(v);
    };
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      if (ret.getNumOperands() != 1)
        return ret.emitOpError("graph functions must return exactly one "
                               "tensor");
      line = "return " + ref(ret.getOperand(0));
    } else if (auto conv = dyn_cast<ConvTransposeOp>(op)) {
      def("conv_transpose");
      line += " stride=" + joinInts(conv.getStride()) +
              " padding=" + joinInts(conv.getPadding()) +
              " output_padding=" + joinInts(conv.getOutputPadding()) +
              " dilation=" + joinInts(conv.getDilation()) +
              " groups=" + std::to_string(conv.getGroups());
    } else if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      auto ty = dyn_cast<RankedTensorType>(cst.getType());
      if (!dense || !dense.isSplat() || !ty || ty.getRank() != 0 ||
          !ty.getElementType().isF32())
        return cst.emitOpError("only rank-0 f32 constants (scalars) are "
                               "supported in graphs");
      ids[cst.getResult()] = next;
      line = "%" + std::to_string(next++) + " = const " +
             fmtDouble(dense.getSplatValue<APFloat>().convertToDouble());
    } else if (auto norm = dyn_cast<NormalizationOpInterface>(op)) {
      // Graph lines list optional operands positionally (weight, then
      // bias), so a bias needs a weight.
      auto ln = dyn_cast<LayerNormOp>(op);
      auto gn = dyn_cast<GroupNormOp>(op);
      if ((ln && ln.getBias() && !ln.getWeight()) ||
          (gn && gn.getBias() && !gn.getWeight()))
        return op.emitOpError("a bias without a weight is not supported");
      def(op.getName().stripDialect());
      line += " " + norm.getGraphAttributes();
    } else if (isa<ElementwiseOpInterface>(op)) {
      def(op.getName().stripDialect());
      if (auto gelu = dyn_cast<GeluOp>(op))
        line += " approximate=" + gelu.getApproximate().str();
      if (auto lr = dyn_cast<LeakyReluOp>(op))
        line += " slope=" + fmtDouble(lr.getSlope().convertToDouble());
      if (auto cl = dyn_cast<ClampOp>(op)) {
        if (cl.getMin())
          line += " min=" + fmtDouble(cl.getMin()->convertToDouble());
        if (cl.getMax())
          line += " max=" + fmtDouble(cl.getMax()->convertToDouble());
      }
    } else {
      return op.emitOpError("is not a graph op fusecc compiles");
    }
    d.graphLines.push_back(std::move(line));
  }
  return d;
}

FailureOr<llvm::StringMap<GraphDescription>>
fusecc::describeGraphs(ModuleOp module) {
  llvm::StringMap<GraphDescription> out;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    FailureOr<GraphDescription> d = describeFunction(func);
    if (failed(d))
      return failure();
    out[func.getSymName()] = std::move(*d);
  }
  if (out.empty())
    return module.emitError("no graph function (func.func) to compile");
  return out;
}

FailureOr<std::string> fusecc::extractPTX(ModuleOp module) {
  std::string ptx;
  for (auto bin : module.getOps<gpu::BinaryOp>())
    for (Attribute a : bin.getObjects()) {
      auto obj = cast<gpu::ObjectAttr>(a);
      if (obj.getFormat() != gpu::CompilationTarget::Assembly)
        return bin.emitOpError("expected a PTX (isa) object");
      if (!ptx.empty())
        return bin.emitOpError("expected exactly one PTX object");
      ptx = obj.getObject().str();
    }
  if (ptx.empty())
    return module.emitError("no PTX was produced");
  return ptx;
}

static FailureOr<int64_t> constantOf(Operation *user, Value v) {
  APInt value;
  if (!matchPattern(v, m_ConstantInt(&value)))
    return user->emitOpError("launch dimensions must be constants");
  return value.getSExtValue();
}

LogicalResult fusecc::writeBundle(ModuleOp module,
                                  const llvm::StringMap<GraphDescription> &graphs,
                                  StringRef chip, StringRef precision,
                                  raw_ostream &os) {
  FailureOr<std::string> ptx = extractPTX(module);
  if (failed(ptx))
    return failure();
  os << "fusecc-bundle 2\nchip " << chip << "\nprecision " << precision << "\n";
  for (auto func : module.getOps<func::FuncOp>()) {
    auto it = graphs.find(func.getSymName());
    if (it == graphs.end())
      return func.emitOpError("has no graph description");
    const GraphDescription &d = it->second;
    if (d.argNames.size() != func.getNumArguments())
      return func.emitOpError("argument count changed during compilation");
    SmallVector<gpu::LaunchFuncOp> launches(
        func.getBody().getOps<gpu::LaunchFuncOp>());
    // Workspaces: the host function's memref.alloc buffers, numbered in
    // order (the runtime allocates them for the duration of one call).
    SmallVector<memref::AllocOp> allocs(
        func.getBody().getOps<memref::AllocOp>());
    DenseMap<Value, size_t> workspaceOf;
    for (auto [k, alloc] : llvm::enumerate(allocs)) {
      MemRefType ty = alloc.getType();
      if (!ty.hasStaticShape() || !ty.getElementType().isF32())
        return alloc.emitOpError("workspaces must be static f32 buffers");
      workspaceOf[alloc.getResult()] = k;
    }
    os << "entry " << func.getSymName() << " args " << func.getNumArguments()
       << " workspaces " << allocs.size() << " launches " << launches.size()
       << "\n";
    for (BlockArgument arg : func.getArguments()) {
      auto ty = cast<MemRefType>(arg.getType());
      unsigned i = arg.getArgNumber();
      os << "arg " << i << (i < d.numInputs ? " in " : " out ")
         << d.argNames[i] << " f32 " << ty.getRank();
      for (int64_t s : ty.getShape())
        os << " " << s;
      os << "\n";
    }
    for (auto [k, alloc] : llvm::enumerate(allocs))
      os << "workspace " << k << " f32 " << alloc.getType().getNumElements()
         << "\n";
    for (gpu::LaunchFuncOp l : launches) {
      int64_t dims[7];
      Value vals[7] = {l.getGridSizeX(),  l.getGridSizeY(),
                       l.getGridSizeZ(),  l.getBlockSizeX(),
                       l.getBlockSizeY(), l.getBlockSizeZ(),
                       l.getDynamicSharedMemorySize()};
      for (int i = 0; i < 7; ++i) {
        FailureOr<int64_t> v = constantOf(l, vals[i]);
        if (failed(v))
          return failure();
        dims[i] = *v;
      }
      os << "launch " << l.getKernelName().getValue() << " grid " << dims[0]
         << " " << dims[1] << " " << dims[2] << " block " << dims[3] << " "
         << dims[4] << " " << dims[5] << " smem " << dims[6] << " params "
         << l.getKernelOperands().size();
      for (Value v : l.getKernelOperands()) {
        if (auto it = workspaceOf.find(v); it != workspaceOf.end()) {
          os << " w" << it->second;
          continue;
        }
        auto arg = dyn_cast<BlockArgument>(v);
        if (!arg)
          return l.emitOpError(
              "kernel operands must be entry arguments or workspaces");
        os << " " << arg.getArgNumber();
      }
      os << "\n";
    }
    for (const std::string &line : d.graphLines)
      os << "graph " << line << "\n";
    os << "end\n";
  }
  os << "ptx " << ptx->size() << "\n" << *ptx;
  return success();
}
