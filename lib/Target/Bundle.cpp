//===- Bundle.cpp - write fusecc bundles ----------------------------------===//
//
// Serialises the manifest and PTX of a compiled module (docs/bundle.md).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Target/Bundle.h"
#include "fusecc/Support/Format.h"

#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"
#include "fusecc/Dialect/Fuse/Transforms/Plan.h"
#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

static std::string joinInts(ArrayRef<int64_t> v) {
  std::string s;
  for (auto [i, x] : llvm::enumerate(v))
    s += (i ? "," : "") + std::to_string(x);
  return s;
}


/// The manifest dtype of a float element type (`f32`, `bf16`, `f16`), or
/// empty for any other.
static StringRef dtypeName(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isBF16())
    return "bf16";
  if (t.isF16())
    return "f16";
  return "";
}

/// A tensor constant (more than a rank-0 scalar): a module constant of the
/// bundle (`const` records, bytes in the data section).
static bool isTensorConstant(arith::ConstantOp cst) {
  auto ty = dyn_cast<RankedTensorType>(cst.getType());
  return ty && ty.getRank() > 0;
}

static FailureOr<GraphDescription> describeFunction(func::FuncOp func,
                                                    int64_t &nextConst) {
  GraphDescription d;
  // Unused ops are not compiled (fuse-form-kernels drops them); they are
  // dropped here first so that every constant described is one the
  // kernels read.
  for (Operation &op : llvm::make_early_inc_range(
           llvm::reverse(func.getBody().front().getOperations())))
    if (isOpTriviallyDead(&op))
      op.erase();
  d.numInputs = func.getNumArguments();
  DenseMap<Value, unsigned> ids;
  unsigned next = 0;
  // A dynamic batch: the values carrying it (a reshape's line then writes
  // its batch as -1).
  llvm::DenseSet<Value> batched;
  for (BlockArgument arg : func.getArguments()) {
    if (func.getArgAttr(arg.getArgNumber(), kBatchedAttr))
      batched.insert(arg);
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
    // `%k = <kind> <operands>`; an op with several results defines
    // consecutive values, `%k %k+1 ... = <kind> ...`.
    auto def = [&](StringRef kind) {
      for (Value r : op.getResults()) {
        ids[r] = next;
        line += "%" + std::to_string(next++) + " ";
      }
      line += "= " + kind.str();
      for (Value v : op.getOperands())
        line += " " + ref(v);
    };
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      if (ret.getNumOperands() == 0)
        return ret.emitOpError("graph functions must return at least one "
                               "tensor");
      line = "return";
      for (Value v : ret.getOperands())
        line += " " + ref(v);
    } else if (auto conv = dyn_cast<ConvTransposeOp>(op)) {
      def("conv_transpose");
      line += " stride=" + joinInts(conv.getStride()) +
              " padding=" + joinInts(conv.getPadding()) +
              " output_padding=" + joinInts(conv.getOutputPadding()) +
              " dilation=" + joinInts(conv.getDilation()) +
              " groups=" + std::to_string(conv.getGroups());
      if (conv.getForwardWeight())
        line += " forward_weight=1";
    } else if (auto cst = dyn_cast<arith::ConstantOp>(op);
               cst && isTensorConstant(cst)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      if (!dense || dtypeName(dense.getElementType()).empty())
        return cst.emitOpError("tensor constants must be dense f32, bf16 or "
                               "f16");
      int64_t id = nextConst++;
      cst->setAttr(kConstIdAttr, IntegerAttr::get(
                                     IntegerType::get(cst.getContext(), 64), id));
      auto name = cst->getAttrOfType<StringAttr>("fuse.name");
      d.constants.push_back({id, name ? name.str() : std::string(), dense});
      ids[cst.getResult()] = next;
      line = "%" + std::to_string(next++) + " = const_tensor c" +
             std::to_string(id);
    } else if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      auto ty = dyn_cast<RankedTensorType>(cst.getType());
      if (!dense || !dense.isSplat() || !ty || ty.getRank() != 0 ||
          dtypeName(ty.getElementType()).empty())
        return cst.emitOpError("only rank-0 f32, bf16 or f16 constants "
                               "(scalars) are supported in graphs");
      ids[cst.getResult()] = next;
      line = "%" + std::to_string(next++) + " = const " +
             fusecc::formatExact(dense.getSplatValue<APFloat>().convertToDouble());
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
    } else if (auto composite = dyn_cast<CompositeOpInterface>(op)) {
      // The user's op, not its decomposition (fuse-decompose runs later).
      FailureOr<std::string> attrs = composite.getGraphAttributes();
      if (failed(attrs))
        return failure();
      def(op.getName().stripDialect());
      line += " " + *attrs;
    } else if (auto window = dyn_cast<WindowOpInterface>(op)) {
      def(op.getName().stripDialect());
      std::string attrs = window.getGraphAttributes();
      if (isa<ReshapeOp>(op) && batched.contains(op.getOperand(0)) &&
          StringRef(attrs).starts_with("shape=1"))
        attrs = "shape=-1" + attrs.substr(7);
      line += " " + attrs;
    } else if (isa<ElementwiseOpInterface>(op)) {
      def(op.getName().stripDialect());
      if (auto c = dyn_cast<CastOp>(op))
        line += " to=" +
                dtypeName(c.getResult().getType().getElementType()).str();
      if (auto gelu = dyn_cast<GeluOp>(op))
        line += " approximate=" + gelu.getApproximate().str();
      if (auto lr = dyn_cast<LeakyReluOp>(op))
        line += " slope=" + fusecc::formatExact(lr.getSlope().convertToDouble());
      if (auto cl = dyn_cast<ClampOp>(op)) {
        if (cl.getMin())
          line += " min=" + fusecc::formatExact(cl.getMin()->convertToDouble());
        if (cl.getMax())
          line += " max=" + fusecc::formatExact(cl.getMax()->convertToDouble());
      }
    } else {
      return op.emitOpError("is not a graph op fusecc compiles");
    }
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return batched.contains(v); }))
      batched.insert(op.getResults().begin(), op.getResults().end());
    d.graphLines.push_back(std::move(line));
  }
  return d;
}

FailureOr<llvm::StringMap<GraphDescription>>
fusecc::describeGraphs(ModuleOp module) {
  llvm::StringMap<GraphDescription> out;
  int64_t nextConst = 0;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    FailureOr<GraphDescription> d = describeFunction(func, nextConst);
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
  // Version 2 where every workspace is scratch (the single-kernel bundles
  // of before plans, unchanged); version 3 once a plan passes tensors
  // between kernels (workspace roles, steps), for module constants and for
  // several outputs.
  // Module constants: first every constant the graph lines name, in id
  // order, whether or not a kernel still reads it (a training batch_norm's
  // running statistics, which its decomposition does not read, an operand
  // a fold replaced); then the kernels' constants that the graph does not
  // name (made by a pass), numbered after them. A kernel's constant is the
  // graph's constant of its id only if it holds the same value.
  struct BundleConst {
    std::string name;
    DenseElementsAttr value;
  };
  SmallVector<BundleConst> consts;
  DenseMap<StringRef, int64_t> constOf;
  std::map<int64_t, const GraphConstant *> described;
  for (const auto &g : graphs)
    for (const GraphConstant &c : g.second.constants)
      described[c.id] = &c;
  for (auto [id, c] : described) {
    if (id != static_cast<int64_t>(consts.size()))
      return module.emitError("graph constants must be numbered 0, 1, ... "
                              "without gaps; expected ")
             << consts.size() << ", got " << id;
    consts.push_back({c->name, c->value});
  }
  std::map<int64_t, memref::GlobalOp> byId;
  for (auto g : module.getOps<memref::GlobalOp>())
    if (auto id = g->getAttrOfType<IntegerAttr>(kConstIdAttr))
      byId[id.getInt()] = g;
  for (auto [id, g] : byId) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(g.getInitialValueAttr());
    if (!dense || dtypeName(dense.getElementType()).empty() ||
        !g.getType().hasStaticShape())
      return g.emitOpError("module constants must be static dense f32, bf16 "
                           "or f16");
    auto it = described.find(id);
    if (it != described.end() && it->second->value == dense) {
      constOf[g.getSymName()] = id;
      continue;
    }
    auto name = g->getAttrOfType<StringAttr>("fuse.name");
    constOf[g.getSymName()] = consts.size();
    consts.push_back({name ? name.str() : std::string(), dense});
  }
  // Several outputs (`return %a %b`, an op defining several values) are
  // version 3 graph-line forms.
  bool v3 = !consts.empty();
  for (const auto &g : graphs)
    v3 |= g.second.argNames.size() > g.second.numInputs + 1;
  module.walk([&](memref::AllocOp alloc) {
    auto role = alloc->getAttrOfType<StringAttr>(kWorkspaceRoleAttr);
    v3 |= (role && role.getValue() != "scratch") ||
          !alloc.getType().getElementType().isF32();
  });
  // A launch-time batch (`fuse.max_batch`): version 4 (`b` extents).
  int64_t maxBatch = 0;
  if (auto a = module->getAttrOfType<IntegerAttr>(kMaxBatchAttr))
    maxBatch = a.getInt();
  os << "fusecc-bundle " << (maxBatch ? 4 : v3 ? 3 : 2) << "\nchip " << chip
     << "\nprecision " << precision << "\n";
  // Constant k at a 16-byte aligned offset of the data section.
  SmallVector<int64_t> offsets;
  int64_t dataBytes = 0;
  for (auto [k, c] : llvm::enumerate(consts)) {
    ShapedType ty = c.value.getType();
    offsets.push_back(dataBytes);
    dataBytes = llvm::alignTo(
        dataBytes + ty.getNumElements() * (ty.getElementTypeBitWidth() / 8),
        16);
    std::string n = !c.name.empty() ? c.name : "const" + std::to_string(k);
    for (char &ch : n)
      if (!llvm::isPrint(ch) || ch == ' ')
        ch = '_';
    os << "const " << k << " " << n << " "
       << dtypeName(ty.getElementType()) << " " << ty.getRank();
    for (int64_t dim : ty.getShape())
      os << " " << dim;
    os << " offset " << offsets.back() << "\n";
  }
  for (auto func : module.getOps<func::FuncOp>()) {
    // Declarations are not entries (describeGraphs skips them too).
    if (func.isExternal())
      continue;
    auto it = graphs.find(func.getSymName());
    if (it == graphs.end())
      return func.emitOpError("has no graph description");
    const GraphDescription &d = it->second;
    if (d.argNames.size() != func.getNumArguments())
      return func.emitOpError("argument count changed during compilation");
    // The prepare steps (weight re-layouts, `kPrepareAttr`) first, then the
    // others in program order: a prepare step reads only inputs and
    // constants and writes only its own workspace, so it may run first.
    SmallVector<gpu::LaunchFuncOp> launches(
        func.getBody().getOps<gpu::LaunchFuncOp>());
    auto firstCall = std::stable_partition(
        launches.begin(), launches.end(),
        [](gpu::LaunchFuncOp l) { return l->hasAttr(kPrepareAttr); });
    size_t prepareSteps = firstCall - launches.begin();
    for (gpu::LaunchFuncOp l : llvm::make_range(launches.begin(), firstCall))
      if (l->hasAttr(kPerSampleAttr))
        return l.emitOpError("a prepare step cannot run per sample");
    // Workspaces: the host function's memref.alloc buffers, numbered in
    // order (the runtime allocates them for the duration of one call).
    SmallVector<memref::AllocOp> allocs(
        func.getBody().getOps<memref::AllocOp>());
    DenseMap<Value, size_t> workspaceOf;
    for (auto [k, alloc] : llvm::enumerate(allocs)) {
      MemRefType ty = alloc.getType();
      if (!ty.hasStaticShape() || dtypeName(ty.getElementType()).empty())
        return alloc.emitOpError("workspaces must be static f32, bf16 or "
                                 "f16 buffers");
      workspaceOf[alloc.getResult()] = k;
    }
    // Views (memref.reinterpret_cast) of arguments and workspaces pass the
    // same pointer.
    DenseMap<Value, int64_t> constArg;
    for (auto get : func.getBody().getOps<memref::GetGlobalOp>()) {
      auto it = constOf.find(get.getName());
      if (it == constOf.end())
        return get.emitOpError("reads a global that is not a module "
                               "constant");
      constArg[get.getResult()] = it->second;
    }
    DenseMap<Value, Value> rootOf;
    for (auto view : func.getBody().getOps<memref::ReinterpretCastOp>()) {
      Value src = view.getSource();
      rootOf[view.getResult()] = rootOf.lookup(src) ? rootOf.lookup(src) : src;
    }
    os << "entry " << func.getSymName() << " args " << func.getNumArguments()
       << " workspaces " << allocs.size()
       << (v3 || maxBatch ? " steps " : " launches ") << launches.size();
    if (prepareSteps)
      os << " prepare " << prepareSteps;
    // Only an entry with a batched argument has a launch-time batch (a
    // static function of a --max-batch module stays static).
    bool entryBatched = false;
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      entryBatched |= maxBatch && func.getArgAttr(i, kBatchedAttr);
    if (entryBatched)
      os << " max_batch " << maxBatch;
    os << "\n";
    for (BlockArgument arg : func.getArguments()) {
      auto ty = cast<MemRefType>(arg.getType());
      unsigned i = arg.getArgNumber();
      StringRef dtype = dtypeName(ty.getElementType());
      if (dtype.empty())
        return func.emitOpError("argument ")
               << i << " has element type " << ty.getElementType()
               << "; expected f32, bf16 or f16";
      os << "arg " << i << (i < d.numInputs ? " in " : " out ")
         << d.argNames[i] << " " << dtype << " " << ty.getRank();
      bool argBatched = maxBatch && func.getArgAttr(i, kBatchedAttr);
      if (argBatched && (ty.getRank() == 0 || ty.getDimSize(0) != 1))
        return func.emitOpError("batched argument ")
               << i << " must have a per-sample dim 0 of 1";
      for (auto [dim, s] : llvm::enumerate(ty.getShape()))
        if (dim == 0 && argBatched)
          os << " b";
        else
          os << " " << s;
      os << "\n";
    }
    for (auto [k, alloc] : llvm::enumerate(allocs)) {
      os << "workspace " << k << " "
         << dtypeName(alloc.getType().getElementType()) << " "
         << alloc.getType().getNumElements()
         << (alloc->hasAttr(kPerSampleAttr) ? "*b" : "");
      if (v3 || maxBatch) {
        auto role = alloc->getAttrOfType<StringAttr>(kWorkspaceRoleAttr);
        os << " " << (role ? role.getValue() : StringRef("scratch"));
      }
      os << "\n";
    }
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
      bool perSample = l->hasAttr(kPerSampleAttr);
      if (perSample && dims[2] != 1)
        return l.emitOpError("a per-sample launch must have grid z 1");
      os << "launch " << l.getKernelName().getValue() << " grid " << dims[0]
         << " " << dims[1] << " ";
      if (perSample)
        os << "b";
      else
        os << dims[2];
      os << " block " << dims[3] << " "
         << dims[4] << " " << dims[5] << " smem " << dims[6] << " params "
         << l.getKernelOperands().size();
      for (Value v : l.getKernelOperands()) {
        if (Value root = rootOf.lookup(v))
          v = root;
        if (auto it = constArg.find(v); it != constArg.end()) {
          os << " c" << it->second;
          continue;
        }
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
  if (!consts.empty()) {
    os << "data " << dataBytes << "\n";
    int64_t written = 0;
    for (auto [k, c] : llvm::enumerate(consts)) {
      for (; written < offsets[k]; ++written)
        os << '\0';
      // Little-endian, in the constant's own width (2 bytes for half).
      int bytes = c.value.getType().getElementTypeBitWidth() / 8;
      for (APFloat v : c.value.getValues<APFloat>()) {
        uint32_t bits =
            static_cast<uint32_t>(v.bitcastToAPInt().getZExtValue());
        for (int b = 0; b < bytes; ++b)
          os << static_cast<char>((bits >> (8 * b)) & 0xff);
        written += bytes;
      }
    }
    for (; written < dataBytes; ++written)
      os << '\0';
  }
  return success();
}
