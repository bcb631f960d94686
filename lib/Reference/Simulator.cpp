//===- Simulator.cpp - run generated GPU code on the CPU ------------------===//
//
// See Simulator.h for the execution model. A gpu.func is first translated to
// a small tree of instructions over value slots (one register per thread per
// SSA value); a block is then executed instruction by instruction over the
// list of its active threads.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Reference/Simulator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;

namespace {

/// `v`, or a zero of its sign if it is a denormal (the `.ftz` of PTX).
float flushDenormal(float v) {
  return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

enum class Opc : uint8_t {
  // Constants and ids.
  ConstBits,
  Copy,
  Extract,
  Insert,
  Mma,
  Bitcast,
  ThreadId,
  BlockId,
  BlockDim,
  GridDim,
  LaneId,
  // Memory.
  DynSmem,
  View,
  Load,
  VecLoad,
  Store,
  VecStore,
  // Asynchronous global -> shared copies (cp.async).
  AsyncCopy,
  AsyncGroup,
  AsyncWait,
  // Hopper warpgroup MMA with operands in shared memory (wgmma).
  SmemAddr,
  FenceProxy,
  WgmmaFence,
  Wgmma,
  WgmmaCommit,
  WgmmaWait,
  // Thread block clusters: barrier.cluster, mapa, ld.shared::cluster.
  ClusterArrive,
  ClusterWait,
  Mapa,
  ClusterStore,
  // Conversions.
  CvtTF32,
  // Control.
  For,
  If,
  Barrier,
  Shuffle,
  Return,
  // Integer.
  AddI,
  SubI,
  MulI,
  DivSI,
  DivUI,
  RemSI,
  RemUI,
  FloorDivSI,
  CeilDivSI,
  CeilDivUI,
  AndI,
  OrI,
  XOrI,
  ShLI,
  ShRSI,
  ShRUI,
  MinSI,
  MaxSI,
  MinUI,
  MaxUI,
  CmpI,
  Select,
  IndexCast,
  IndexCastUI,
  ExtSI,
  ExtUI,
  TruncI,
  // Float.
  AddF,
  SubF,
  MulF,
  DivF,
  RemF,
  NegF,
  CmpF,
  MaximumF,
  MinimumF,
  MaxNumF,
  MinNumF,
  ExtF,
  TruncF,
  SIToFP,
  UIToFP,
  FPToSI,
  FPToUI,
  // Math.
  Exp,
  /// `llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"`.
  Ex2ApproxFtz,
  Exp2,
  Log,
  Log2,
  Log1p,
  Erf,
  Tanh,
  Sqrt,
  Rsqrt,
  RcpApproxFtz,
  Fma,
  AbsF,
  PowF,
  Floor,
  Ceil,
  Sin,
  Cos,
  Expm1,
  CopySign,
};

struct Region;

struct Inst {
  Opc opc;
  Operation *op = nullptr;
  SmallVector<int, 4> in;
  SmallVector<int, 2> out;
  int width = 64;   ///< Integer width of the result (or of operands: cmpi).
  int srcWidth = 64;
  int pred = 0;     ///< cmpi/cmpf predicate, dimension, shuffle mode.
  bool isFloat = false;
  uint64_t imm = 0; ///< Constant bits.
  int memId = -1;   ///< View: its descriptor id.
  /// AsyncCopy: number of destination / source indices; whether the
  /// srcElements operand is present (the last input).
  int numDstIdx = 0, numSrcIdx = 0;
  bool hasSrcElems = false;
  std::unique_ptr<Region> r0, r1;
};

struct Region {
  std::vector<Inst> insts;
  SmallVector<int, 4> args;   ///< Block argument slots.
  SmallVector<int, 4> yields; ///< Terminator operand slots.
};

struct Kernel {
  gpu::GPUFuncOp func;
  Region body;
  SmallVector<int, 8> argSlots;
  int numSlots = 0;
  int numViews = 0;
  int64_t knownBlock = -1;
  /// Blocks per cluster along x (`nvvm.cluster_dim`); 1 without clusters.
  int64_t clusterX = 1;
};

/// Integer helpers. Values are stored sign-extended to 64 bits, except i1
/// which is stored as 0/1.
int64_t norm(int64_t v, int w) {
  if (w >= 64)
    return v;
  if (w == 1)
    return v & 1;
  return static_cast<int64_t>(static_cast<uint64_t>(v) << (64 - w)) >> (64 - w);
}
uint64_t zext(int64_t v, int w) {
  if (w >= 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t(1) << w) - 1);
}
int64_t sext(int64_t v, int w) {
  if (w == 1)
    return (v & 1) ? -1 : 0;
  return norm(v, w);
}

float asF(uint64_t bits) {
  uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint64_t fromF(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << op->getName() << "' (";
  op->print(os, OpPrintingFlags().skipRegions().elideLargeElementsAttrs());
  os << ") at " << op->getLoc();
  return s;
}

//===----------------------------------------------------------------------===//
// Translation of a gpu.func
//===----------------------------------------------------------------------===//

class Compiler {
public:
  Compiler(Kernel &k, std::string &error) : k(k), error(error) {}

  LogicalResult compile() {
    Block &entry = k.func.getBody().front();
    if (!k.func.getBody().hasOneBlock())
      return fail(k.func, "kernel with more than one block (unstructured "
                          "control flow) is not supported");
    for (BlockArgument a : entry.getArguments()) {
      auto mt = dyn_cast<MemRefType>(a.getType());
      if (!mt || !mt.hasStaticShape() || !mt.getLayout().isIdentity() ||
          !mt.getElementType().isF32())
        return fail(k.func, "kernel argument is not a static identity-layout "
                            "f32 memref");
      k.argSlots.push_back(slot(a));
    }
    if (auto kb = k.func.getKnownBlockSizeAttr())
      k.knownBlock = static_cast<int64_t>(kb[0]) * kb[1] * kb[2];
    if (Attribute cd =
            k.func->getAttr(NVVM::NVVMDialect::getClusterDimAttrName())) {
      auto dims = dyn_cast<DenseI32ArrayAttr>(cd);
      if (!dims || dims.size() != 3 || dims[0] < 1 || dims[0] > 8 ||
          dims[1] != 1 || dims[2] != 1)
        return fail(k.func, "only nvvm.cluster_dim = array<i32: X, 1, 1> "
                            "with X in [1, 8] is supported");
      k.clusterX = dims[0];
    }
    if (failed(compileBlock(entry, k.body)))
      return failure();
    k.numSlots = nextSlot;
    return success();
  }

private:
  /// First register slot of `v`; a vector value occupies one slot per
  /// element (row-major), consecutive, and so does an all-f32
  /// `!llvm.struct` (the wgmma accumulators).
  int slot(Value v) {
    auto it = slots.find(v);
    if (it != slots.end())
      return it->second;
    int s = nextSlot;
    slots[v] = s;
    nextSlot += numElems(v.getType());
    return s;
  }
  static int numElems(Type t) {
    if (auto vt = dyn_cast<VectorType>(t))
      return static_cast<int>(vt.getNumElements());
    if (int n = f32StructSize(t))
      return n;
    return 1;
  }
  /// Number of elements of an `!llvm.struct` whose body is all f32; 0 for
  /// any other type.
  static int f32StructSize(Type t) {
    auto st = dyn_cast<LLVM::LLVMStructType>(t);
    if (!st || st.isOpaque() || st.getBody().empty() ||
        !llvm::all_of(st.getBody(), [](Type e) { return e.isF32(); }))
      return 0;
    return static_cast<int>(st.getBody().size());
  }
  template <typename Vec> void expand(Value v, Vec &list) {
    int s = slot(v), n = numElems(v.getType());
    for (int i = 0; i < n; ++i)
      list.push_back(s + i);
  }

  LogicalResult fail(Operation *op, const Twine &msg) {
    error = ("simulator: " + msg + ": " + describe(op)).str();
    return failure();
  }

  /// Integer width of a scalar type; 0 for f32 (and vectors of f32 and
  /// all-f32 structs); -1 unsupported.
  static int widthOf(Type t) {
    if (auto vt = dyn_cast<VectorType>(t))
      t = vt.getElementType();
    if (f32StructSize(t))
      return 0;
    if (t.isIndex() || isa<nvgpu::DeviceAsyncTokenType>(t) ||
        isa<LLVM::LLVMPointerType>(t))
      return 64;
    if (auto it = dyn_cast<IntegerType>(t))
      return it.getWidth() <= 64 ? static_cast<int>(it.getWidth()) : -1;
    if (t.isF32())
      return 0;
    return -1;
  }

  LogicalResult compileBlock(Block &block, Region &r) {
    for (BlockArgument a : block.getArguments())
      expand(a, r.args);
    for (Operation &op : block) {
      if (isa<scf::YieldOp>(op)) {
        for (Value v : op.getOperands())
          expand(v, r.yields);
        continue;
      }
      if (failed(compileOp(op, r)))
        return failure();
    }
    return success();
  }

  /// vector.load / vector.store: n consecutive f32 elements along the last
  /// dimension; `imm` holds the alignment attribute in bytes (0: none,
  /// element alignment only).
  template <typename OpTy>
  LogicalResult compileVectorAccess(OpTy op, StringRef name, Inst &inst) {
    VectorType vt = op.getVectorType();
    if (!op.getMemRefType().getElementType().isF32() || vt.getRank() != 1 ||
        !vt.getElementType().isF32() || vt.isScalable())
      return fail(op, "only 1-D f32 " + name +
                          " of an f32 memref is "
                          "supported");
    if (op.getMemRefType().getRank() < 1)
      return fail(op, name + " of a rank-0 memref");
    if (op.getNontemporal())
      return fail(op, "nontemporal " + name + " is not supported");
    if (auto a = op.getAlignment())
      inst.imm = *a;
    return success();
  }

  LogicalResult compileOp(Operation &op, Region &r) {
    Inst inst;
    inst.op = &op;
    for (Value v : op.getOperands())
      expand(v, inst.in);
    for (Value v : op.getResults())
      expand(v, inst.out);
    // Vector values: only where the tf32 tensor-core path uses them;
    // struct values: only where the wgmma path uses them.
    bool vectorAware =
        isa<arith::ConstantOp, arith::SelectOp, scf::ForOp, scf::IfOp,
            vector::ExtractOp, vector::LoadOp, vector::StoreOp,
            vector::FromElementsOp, nvgpu::MmaSyncOp>(op);
    bool structAware = isa<arith::SelectOp, scf::ForOp, scf::IfOp,
                           LLVM::UndefOp, LLVM::PoisonOp, LLVM::InsertValueOp,
                           LLVM::ExtractValueOp, NVVM::WgmmaMmaAsyncOp>(op);
    for (Type t :
         llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes())) {
      if (!vectorAware && isa<VectorType>(t))
        return fail(&op, "vector values are not supported by this op");
      if (!structAware && isa<LLVM::LLVMStructType>(t))
        return fail(&op, "struct values are not supported by this op");
      if (isa<LLVM::LLVMStructType>(t) && !f32StructSize(t))
        return fail(&op, "only structs of f32 elements are supported");
    }
    if (auto sel = dyn_cast<arith::SelectOp>(op))
      if (isa<VectorType>(sel.getCondition().getType()))
        return fail(&op, "vector select conditions are not supported");
    // Scalar result types must be f32, index or iN (memrefs only where
    // expected below).
    for (Value v : op.getResults())
      if (!isa<MemRefType>(v.getType()) && widthOf(v.getType()) < 0)
        return fail(&op, "unsupported result type");
    if (op.getNumResults() == 1 && !isa<MemRefType>(op.getResult(0).getType())) {
      int w = widthOf(op.getResult(0).getType());
      inst.isFloat = w == 0;
      inst.width = w == 0 ? 32 : w;
    }
    if (op.getNumOperands() >= 1 && !isa<MemRefType>(op.getOperand(0).getType())) {
      int w = widthOf(op.getOperand(0).getType());
      if (w > 0)
        inst.srcWidth = w;
    }

    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      inst.opc = Opc::ConstBits;
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (dense && isa<VectorType>(c.getType()) && dense.isSplat() &&
          dense.getElementType().isF32()) {
        inst.imm = fromF(dense.getSplatValue<APFloat>().convertToFloat());
      } else if (auto fa = dyn_cast<FloatAttr>(c.getValue())) {
        if (!fa.getType().isF32())
          return fail(&op, "non-f32 float constant");
        inst.imm = fromF(static_cast<float>(fa.getValueAsDouble()));
      } else if (auto ia = dyn_cast<IntegerAttr>(c.getValue())) {
        int w = widthOf(ia.getType());
        inst.imm = static_cast<uint64_t>(norm(
            w == 1 ? ia.getValue().getZExtValue() : ia.getValue().getSExtValue(),
            w));
      } else {
        return fail(&op, "unsupported constant (only scalar f32/int/index)");
      }
    } else if (isa<vector::FromElementsOp>(op)) {
      inst.opc = Opc::Copy;
    } else if (auto e = dyn_cast<vector::ExtractOp>(op)) {
      inst.opc = Opc::Extract;
      if (!e.getDynamicPosition().empty())
        return fail(&op, "vector.extract with a dynamic position");
      auto vt = e.getSourceVectorType();
      int64_t off = 0, stride = vt.getNumElements();
      ArrayRef<int64_t> pos = e.getStaticPosition();
      for (size_t d = 0; d < pos.size(); ++d) {
        stride /= vt.getDimSize(d);
        off += pos[d] * stride;
      }
      inst.imm = static_cast<uint64_t>(off);
    } else if (auto m = dyn_cast<nvgpu::MmaSyncOp>(op)) {
      inst.opc = Opc::Mma;
      std::array<int64_t, 3> shape = m.getMmaShapeAsArray();
      auto ty = [&](Value v) { return cast<VectorType>(v.getType()); };
      if (shape != std::array<int64_t, 3>{16, 8, 8} || !m.getTf32Enabled() ||
          !ty(m.getMatrixA()).getElementType().isF32() ||
          ty(m.getMatrixA()).getNumElements() != 4 ||
          ty(m.getMatrixB()).getNumElements() != 2 ||
          ty(m.getMatrixC()).getNumElements() != 4 ||
          !ty(m.getMatrixC()).getElementType().isF32())
        return fail(&op, "only nvgpu.mma.sync m16n8k8 with tf32 operands and "
                         "f32 accumulators is supported");
    } else if (isa<LLVM::UndefOp, LLVM::PoisonOp>(op)) {
      // Undefined contents: NaN bits, as uninitialised shared memory.
      inst.opc = Opc::ConstBits;
      if (!inst.isFloat)
        return fail(&op, "only f32 or f32-struct undef/poison is supported");
      inst.imm = fromF(std::numeric_limits<float>::quiet_NaN());
    } else if (isa<LLVM::InsertValueOp, LLVM::ExtractValueOp>(op)) {
      // Insert: in = container slots, then the value. imm = the position.
      auto iv = dyn_cast<LLVM::InsertValueOp>(op);
      auto ev = dyn_cast<LLVM::ExtractValueOp>(op);
      inst.opc = iv ? Opc::Insert : Opc::Extract;
      Value container = iv ? iv.getContainer() : ev.getContainer();
      ArrayRef<int64_t> pos = iv ? iv.getPosition() : ev.getPosition();
      int n = f32StructSize(container.getType());
      if (pos.size() != 1 || pos[0] < 0 || pos[0] >= n)
        return fail(&op, op.getName().getStringRef() +
                             " needs one position in the struct");
      inst.imm = static_cast<uint64_t>(pos[0]);
    } else if (auto ep = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op)) {
      inst.opc = Opc::SmemAddr;
      if (!ep.getSource().getDefiningOp<memref::ViewOp>())
        return fail(&op, "memref.extract_aligned_pointer_as_index is only "
                         "supported on a memref.view of "
                         "gpu.dynamic_shared_memory");
    } else if (isa<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp>(op)) {
      inst.opc = Opc::ClusterArrive;
      inst.pred = isa<NVVM::ClusterArriveRelaxedOp>(op) ? 1 : 0;
    } else if (isa<NVVM::ClusterWaitOp>(op)) {
      inst.opc = Opc::ClusterWait;
    } else if (auto ip = dyn_cast<LLVM::IntToPtrOp>(op)) {
      inst.opc = Opc::Copy; // Pointers are their shared-window addresses.
      if (cast<LLVM::LLVMPointerType>(ip.getType()).getAddressSpace() != 3 ||
          !ip.getArg().getType().isInteger(64))
        return fail(&op, "only llvm.inttoptr of an i64 shared-window address "
                         "to !llvm.ptr<3> is supported");
    } else if (auto m = dyn_cast<NVVM::MapaOp>(op)) {
      inst.opc = Opc::Mapa;
      if (cast<LLVM::LLVMPointerType>(m.getA().getType()).getAddressSpace() !=
          3)
        return fail(&op, "only nvvm.mapa of a !llvm.ptr<3> (shared::cta) "
                         "address is supported");
    } else if (auto st = dyn_cast<LLVM::StoreOp>(op)) {
      inst.opc = Opc::ClusterStore;
      if (cast<LLVM::LLVMPointerType>(st.getAddr().getType())
                  .getAddressSpace() != 7 ||
          !st.getValue().getType().isF32())
        return fail(&op, "only f32 llvm.store to !llvm.ptr<7> "
                         "(distributed shared memory) is supported");
    } else if (auto fp = dyn_cast<NVVM::FenceProxyOp>(op)) {
      inst.opc = Opc::FenceProxy;
      if (fp.getKind() != NVVM::ProxyKind::async_shared ||
          fp.getSpace() != NVVM::SharedSpace::shared_cta)
        return fail(&op, "only nvvm.fence.proxy of kind async.shared, space "
                         "cta (fence.proxy.async.shared::cta) is supported");
    } else if (isa<NVVM::WgmmaFenceAlignedOp>(op)) {
      inst.opc = Opc::WgmmaFence;
    } else if (isa<NVVM::WgmmaGroupSyncAlignedOp>(op)) {
      inst.opc = Opc::WgmmaCommit;
    } else if (auto wt = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(op)) {
      inst.opc = Opc::WgmmaWait;
      inst.imm = wt.getGroup();
    } else if (auto wg = dyn_cast<NVVM::WgmmaMmaAsyncOp>(op)) {
      // wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32: in = descA,
      // descB, then the N/2 accumulators; imm = N, pred = scale-d.
      inst.opc = Opc::Wgmma;
      NVVM::MMAShapeAttr shape = wg.getShape();
      int n = shape.getN();
      if (shape.getM() != 64 || shape.getK() != 8 || n % 8 != 0 || n < 8 ||
          n > 256 || wg.getTypeA() != NVVM::WGMMATypes::tf32 ||
          wg.getTypeB() != NVVM::WGMMATypes::tf32 ||
          wg.getTypeD() != NVVM::WGMMATypes::f32 ||
          wg.getScaleA() != NVVM::WGMMAScaleIn::one ||
          wg.getScaleB() != NVVM::WGMMAScaleIn::one ||
          wg.getLayoutA() != NVVM::MMALayout::row ||
          wg.getLayoutB() != NVVM::MMALayout::col || wg.getSatfinite() ||
          f32StructSize(wg.getInouts().getType()) != n / 2)
        return fail(&op, "only nvvm.wgmma.mma_async m64nNk8 (N a multiple of "
                         "8 up to 256) with f32 accumulators and tf32 A "
                         "(row) and B (col) operands from shared memory "
                         "descriptors, unscaled inputs, is supported");
      inst.imm = static_cast<uint64_t>(n);
      inst.pred = wg.getScaleD() == NVVM::WGMMAScaleOut::one ? 1 : 0;
      inst.in.clear();
      expand(wg.getDescriptorA(), inst.in);
      expand(wg.getDescriptorB(), inst.in);
      expand(wg.getInouts(), inst.in);
    } else if (auto bc = dyn_cast<arith::BitcastOp>(op)) {
      inst.opc = Opc::Bitcast;
      Type from = bc.getIn().getType(), to = bc.getType();
      bool ok = (from.isF32() && to.isInteger(32)) ||
                (from.isInteger(32) && to.isF32());
      if (!ok)
        return fail(&op, "only f32 <-> i32 bitcasts are supported");
      inst.pred = to.isF32() ? 1 : 0;
    } else if (auto t = dyn_cast<gpu::ThreadIdOp>(op)) {
      inst.opc = Opc::ThreadId;
      inst.pred = static_cast<int>(t.getDimension());
    } else if (auto t = dyn_cast<gpu::BlockIdOp>(op)) {
      inst.opc = Opc::BlockId;
      inst.pred = static_cast<int>(t.getDimension());
    } else if (auto t = dyn_cast<gpu::BlockDimOp>(op)) {
      inst.opc = Opc::BlockDim;
      inst.pred = static_cast<int>(t.getDimension());
    } else if (auto t = dyn_cast<gpu::GridDimOp>(op)) {
      inst.opc = Opc::GridDim;
      inst.pred = static_cast<int>(t.getDimension());
    } else if (isa<gpu::LaneIdOp>(op)) {
      inst.opc = Opc::LaneId;
    } else if (isa<gpu::BarrierOp>(op)) {
      inst.opc = Opc::Barrier;
    } else if (auto s = dyn_cast<gpu::ShuffleOp>(op)) {
      inst.opc = Opc::Shuffle;
      inst.pred = static_cast<int>(s.getMode());
      if (widthOf(s.getValue().getType()) != 0 &&
          widthOf(s.getValue().getType()) != 32)
        return fail(&op, "shuffle of a non-32-bit value");
    } else if (isa<gpu::DynamicSharedMemoryOp>(op)) {
      inst.opc = Opc::DynSmem;
    } else if (auto v = dyn_cast<memref::ViewOp>(op)) {
      inst.opc = Opc::View;
      auto mt = v.getType();
      if (!mt.hasStaticShape() || !mt.getElementType().isF32() ||
          !mt.getLayout().isIdentity())
        return fail(&op, "view to a non-static or non-f32 memref");
      if (!v.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
        return fail(&op, "view of something other than dynamic shared memory");
      inst.memId = k.numViews++;
    } else if (auto l = dyn_cast<memref::LoadOp>(op)) {
      inst.opc = Opc::Load;
      if (!l.getMemRefType().getElementType().isF32())
        return fail(&op, "load of a non-f32 element");
    } else if (auto l = dyn_cast<vector::LoadOp>(op)) {
      inst.opc = Opc::VecLoad;
      if (failed(compileVectorAccess(l, "vector.load", inst)))
        return failure();
    } else if (auto st = dyn_cast<vector::StoreOp>(op)) {
      inst.opc = Opc::VecStore;
      if (failed(compileVectorAccess(st, "vector.store", inst)))
        return failure();
    } else if (auto cp = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
      // cp.async.{ca,cg}.shared.global [dst], [src], cp-size, src-size:
      // `imm` = dstElements (cp-size / 4), `pred` = bypassL1 (.cg).
      inst.opc = Opc::AsyncCopy;
      auto dt = cast<MemRefType>(cp.getDst().getType());
      auto st = cast<MemRefType>(cp.getSrc().getType());
      if (!dt.getElementType().isF32() || !st.getElementType().isF32())
        return fail(&op, "only f32 nvgpu.device_async_copy is supported");
      if (!gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(dt))
        return fail(&op, "nvgpu.device_async_copy destination is not "
                         "workgroup (shared) memory");
      if (gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(st))
        return fail(&op, "nvgpu.device_async_copy source is shared memory "
                         "(cp.async reads global memory)");
      int64_t n = cp.getDstElements().getSExtValue();
      if (n != 1 && n != 2 && n != 4)
        return fail(&op, "nvgpu.device_async_copy of " + Twine(n) +
                             " f32 elements (cp.async copies 4, 8 or 16 "
                             "bytes)");
      inst.imm = static_cast<uint64_t>(n);
      inst.pred = cp.getBypassL1().value_or(false) ? 1 : 0;
      if (inst.pred && n != 4)
        return fail(&op, "nvgpu.device_async_copy with bypassL1 (cp.async.cg) "
                         "must copy 16 bytes");
      inst.numDstIdx = static_cast<int>(cp.getDstIndices().size());
      inst.numSrcIdx = static_cast<int>(cp.getSrcIndices().size());
      inst.hasSrcElems = static_cast<bool>(cp.getSrcElements());
    } else if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op)) {
      inst.opc = Opc::AsyncGroup;
    } else if (auto wt = dyn_cast<nvgpu::DeviceAsyncWaitOp>(op)) {
      inst.opc = Opc::AsyncWait;
      inst.imm = wt.getNumGroups().value_or(0);
    } else if (auto cvt = dyn_cast<NVVM::ConvertFloatToTF32Op>(op)) {
      // cvt{.rna,.rn,.rz}{.satfinite}{.relu}.tf32.f32: pred = rounding mode
      // (0 rna, 1 rn, 2 rz), imm = satfinite (bit 0) | relu (bit 1).
      inst.opc = Opc::CvtTF32;
      switch (cvt.getRnd()) {
      case NVVM::FPRoundingMode::RNA: inst.pred = 0; break;
      case NVVM::FPRoundingMode::RN: inst.pred = 1; break;
      case NVVM::FPRoundingMode::RZ: inst.pred = 2; break;
      default:
        return fail(&op, "unsupported tf32 rounding mode (rna, rn, rz only)");
      }
      inst.imm = (cvt.getSat() == NVVM::SaturationMode::SATFINITE ? 1 : 0) |
                 (cvt.getRelu() ? 2 : 0);
      if (cvt.getSat() != NVVM::SaturationMode::NONE &&
          cvt.getSat() != NVVM::SaturationMode::SATFINITE)
        return fail(&op, "unsupported tf32 saturation mode");
    } else if (auto s = dyn_cast<memref::StoreOp>(op)) {
      inst.opc = Opc::Store;
      if (!s.getMemRefType().getElementType().isF32())
        return fail(&op, "store of a non-f32 element");
    } else if (auto f = dyn_cast<scf::ForOp>(op)) {
      inst.opc = Opc::For;
      inst.pred = f.getUnsignedCmp() ? 1 : 0;
      inst.width = widthOf(f.getInductionVar().getType());
      inst.r0 = std::make_unique<Region>();
      if (failed(compileBlock(*f.getBody(), *inst.r0)))
        return failure();
    } else if (auto i = dyn_cast<scf::IfOp>(op)) {
      inst.opc = Opc::If;
      inst.r0 = std::make_unique<Region>();
      if (failed(compileBlock(i.getThenRegion().front(), *inst.r0)))
        return failure();
      if (!i.getElseRegion().empty()) {
        inst.r1 = std::make_unique<Region>();
        if (failed(compileBlock(i.getElseRegion().front(), *inst.r1)))
          return failure();
      }
    } else if (isa<gpu::ReturnOp>(op)) {
      inst.opc = Opc::Return;
    } else if (auto c = dyn_cast<arith::CmpIOp>(op)) {
      inst.opc = Opc::CmpI;
      inst.pred = static_cast<int>(c.getPredicate());
    } else if (auto c = dyn_cast<arith::CmpFOp>(op)) {
      inst.opc = Opc::CmpF;
      inst.pred = static_cast<int>(c.getPredicate());
    } else {
      std::optional<Opc> opc =
          llvm::StringSwitch<std::optional<Opc>>(op.getName().getStringRef())
              .Case("arith.addi", Opc::AddI)
              .Case("arith.subi", Opc::SubI)
              .Case("arith.muli", Opc::MulI)
              .Case("arith.divsi", Opc::DivSI)
              .Case("arith.divui", Opc::DivUI)
              .Case("arith.remsi", Opc::RemSI)
              .Case("arith.remui", Opc::RemUI)
              .Case("arith.floordivsi", Opc::FloorDivSI)
              .Case("arith.ceildivsi", Opc::CeilDivSI)
              .Case("arith.ceildivui", Opc::CeilDivUI)
              .Case("arith.andi", Opc::AndI)
              .Case("arith.ori", Opc::OrI)
              .Case("arith.xori", Opc::XOrI)
              .Case("arith.shli", Opc::ShLI)
              .Case("arith.shrsi", Opc::ShRSI)
              .Case("arith.shrui", Opc::ShRUI)
              .Case("arith.minsi", Opc::MinSI)
              .Case("arith.maxsi", Opc::MaxSI)
              .Case("arith.minui", Opc::MinUI)
              .Case("arith.maxui", Opc::MaxUI)
              .Case("arith.select", Opc::Select)
              .Case("arith.index_cast", Opc::IndexCast)
              .Case("arith.index_castui", Opc::IndexCastUI)
              .Case("arith.extsi", Opc::ExtSI)
              .Case("arith.extui", Opc::ExtUI)
              .Case("arith.trunci", Opc::TruncI)
              .Case("arith.addf", Opc::AddF)
              .Case("arith.subf", Opc::SubF)
              .Case("arith.mulf", Opc::MulF)
              .Case("arith.divf", Opc::DivF)
              .Case("arith.remf", Opc::RemF)
              .Case("arith.negf", Opc::NegF)
              .Case("arith.maximumf", Opc::MaximumF)
              .Case("arith.minimumf", Opc::MinimumF)
              .Case("arith.maxnumf", Opc::MaxNumF)
              .Case("arith.minnumf", Opc::MinNumF)
              .Case("arith.extf", Opc::ExtF)
              .Case("arith.truncf", Opc::TruncF)
              .Case("arith.sitofp", Opc::SIToFP)
              .Case("arith.uitofp", Opc::UIToFP)
              .Case("arith.fptosi", Opc::FPToSI)
              .Case("arith.fptoui", Opc::FPToUI)
              .Case("math.exp", Opc::Exp)
              .Case("math.exp2", Opc::Exp2)
              .Case("math.expm1", Opc::Expm1)
              .Case("math.log", Opc::Log)
              .Case("math.log2", Opc::Log2)
              .Case("math.log1p", Opc::Log1p)
              .Case("math.erf", Opc::Erf)
              .Case("math.tanh", Opc::Tanh)
              .Case("math.sqrt", Opc::Sqrt)
              .Case("math.rsqrt", Opc::Rsqrt)
              .Case("nvvm.rcp.approx.ftz.f", Opc::RcpApproxFtz)
              .Case("math.fma", Opc::Fma)
              .Case("math.absf", Opc::AbsF)
              .Case("math.powf", Opc::PowF)
              .Case("math.floor", Opc::Floor)
              .Case("math.ceil", Opc::Ceil)
              .Case("math.sin", Opc::Sin)
              .Case("math.cos", Opc::Cos)
              .Case("math.copysign", Opc::CopySign)
              .Default(std::nullopt);
      if (auto call = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
        if (call.getIntrin() != "llvm.nvvm.ex2.approx.ftz.f" ||
            call.getNumOperands() != 1 || call.getNumResults() != 1)
          return fail(&op, "unsupported intrinsic '" + call.getIntrin() + "'");
        opc = Opc::Ex2ApproxFtz;
      }
      if (!opc)
        return fail(&op, "unsupported op");
      inst.opc = *opc;
      // Float ops: f32 only (ExtF/TruncF would need f64/f16 values).
      bool floatOp =
          *opc == Opc::Ex2ApproxFtz ||
          op.getName().getStringRef().starts_with("math.") ||
          (op.getName().getStringRef().ends_with("f") && *opc != Opc::ExtF &&
           *opc != Opc::TruncF && *opc != Opc::SIToFP && *opc != Opc::UIToFP);
      if (*opc == Opc::ExtF || *opc == Opc::TruncF)
        return fail(&op, "float width conversions are not supported (only "
                         "f32 values are simulated)");
      if (floatOp)
        for (Value v : op.getOperands())
          if (!v.getType().isF32())
            return fail(&op, "non-f32 float operand");
    }
    r.insts.push_back(std::move(inst));
    return success();
  }

  Kernel &k;
  std::string &error;
  DenseMap<Value, int> slots;
  int nextSlot = 0;
};

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

struct MemDesc {
  float *data = nullptr;
  int64_t size = 0; ///< Elements.
  SmallVector<int64_t, 5> shape;
  bool shared = false;
  bool raw = false;       ///< The i8 dynamic shared memory itself.
  int64_t sharedBase = 0; ///< Element offset into shared memory.
  Buffer *global = nullptr;
  int argIndex = -1;
  std::string name;
};

/// Per element of every global buffer of a launch: the global thread id of
/// its last writer and that thread's barrier epoch at the write (shared by
/// the blocks of a cluster, which run interleaved).
struct GlobalWriters {
  std::vector<std::vector<int64_t>> gid;
  std::vector<std::vector<int32_t>> epoch;
  explicit GlobalWriters(const std::vector<Buffer *> &bufs) {
    for (Buffer *b : bufs) {
      gid.emplace_back(b->data.size(), -1);
      epoch.emplace_back(b->data.size(), 0);
    }
  }
};

class BlockExecutor;

/// The blocks of one thread block cluster, one host thread each so that a
/// block can stop at a cluster barrier in the middle of its code. One block
/// runs at a time (`turn`): a block runs until it waits at a cluster
/// barrier not all blocks have reached, or exits, and then hands the turn
/// to the next block, so every run interleaves the blocks the same way.
/// `mutex` guards this state.
struct ClusterState {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<BlockExecutor *> blocks;
  /// Per block: cluster barrier arrivals so far, and whether it exited.
  std::vector<int64_t> arrivals;
  std::vector<uint8_t> exited;
  /// The block that may run.
  size_t turn = 0;
  /// Some block failed: the others stop waiting.
  bool failed = false;
  void reset() {
    arrivals.assign(blocks.size(), 0);
    exited.assign(blocks.size(), 0);
    turn = 0;
    failed = false;
  }
  /// Hands the turn from `from` to the next block that has not exited.
  void passTurn(size_t from) {
    for (size_t i = 1; i <= blocks.size(); ++i)
      if (!exited[(from + i) % blocks.size()]) {
        turn = (from + i) % blocks.size();
        break;
      }
    cv.notify_all();
  }
};

class BlockExecutor {
public:
  BlockExecutor(Kernel &k, std::vector<Buffer *> &bufs,
                ArrayRef<int> argIndices, int64_t grid[3], int64_t block[3],
                int64_t smemBytes, bool keepGoing, Stats &stats,
                std::string &error, GlobalWriters &writers)
      : k(k), error(error), stats(stats), smemBytes(smemBytes),
        keepGoing(keepGoing), writers(writers) {
    for (int i = 0; i < 3; ++i) {
      this->grid[i] = grid[i];
      this->blockDim[i] = block[i];
    }
    nt = static_cast<int>(block[0] * block[1] * block[2]);
    regs.assign(static_cast<size_t>(k.numSlots) * nt, 0);
    for (auto [i, b] : llvm::enumerate(bufs)) {
      MemDesc d;
      // The kernel sees the buffer in its argument's shape: a host view
      // (memref.reinterpret_cast) of a buffer at least that large.
      auto argTy = cast<MemRefType>(k.func.getArgumentTypes()[i]);
      d.data = b->data.data();
      d.size = argTy.getNumElements();
      d.shape.assign(argTy.getShape().begin(), argTy.getShape().end());
      d.global = b;
      d.argIndex = argIndices[i];
      d.name = "argument " + std::to_string(argIndices[i]);
      mems.push_back(d);
    }
    rawId = static_cast<int>(mems.size());
    MemDesc raw;
    raw.raw = true;
    raw.shared = true;
    raw.name = "dynamic shared memory";
    mems.push_back(raw);
    viewBase = static_cast<int>(mems.size());
    for (int i = 0; i < k.numViews; ++i) {
      MemDesc v;
      v.shared = true;
      v.name = "shared memory view";
      mems.push_back(v);
    }
    int64_t words = (smemBytes + 3) / 4;
    smem.assign(words, 0.0f);
    sInit.assign(words, 0);
    sWriter.assign(words, -1);
    sWEpoch.assign(words, -1);
    sReader.assign(words, -1);
    sREpoch.assign(words, -1);
    sPending.assign(words, 0);
    sPendLane.assign(words, -1);
    sPendBits.assign(words, 0);
    sWFence.assign(words, 0);
    sWgPending.assign(words, 0);
    sWgPendGroup.assign(words, -1);
    sRemoteWrite.assign(words, -1);
    sRemoteWriter.assign(words, -1);
    uncommitted.resize(nt);
    groups.resize(nt);
    groupSeq.assign(nt, 0);
    fenceCount.assign(nt, 0);
    fenceRecorded.assign(nt, 0);
    fenceHistory.resize(nt);
    wgUncommitted.resize((nt + kWarpgroup - 1) / kWarpgroup);
    wgGroups.resize(wgUncommitted.size());
    wgFenced.assign(wgUncommitted.size(), 0);
    all.resize(nt);
    for (int i = 0; i < nt; ++i)
      all[i] = i;
  }

  LogicalResult runBlock(int64_t bx, int64_t by, int64_t bz) {
    bid[0] = bx;
    bid[1] = by;
    bid[2] = bz;
    blockLinear = (bz * grid[1] + by) * grid[0] + bx;
    epoch = 0;
    std::fill(smem.begin(), smem.end(), std::numeric_limits<float>::quiet_NaN());
    std::fill(sInit.begin(), sInit.end(), 0);
    std::fill(sWEpoch.begin(), sWEpoch.end(), -1);
    std::fill(sREpoch.begin(), sREpoch.end(), -1);
    std::fill(sPending.begin(), sPending.end(), 0);
    std::fill(sPendLane.begin(), sPendLane.end(), -1);
    std::fill(sWgPending.begin(), sWgPending.end(), 0);
    std::fill(fenceCount.begin(), fenceCount.end(), 0);
    std::fill(fenceRecorded.begin(), fenceRecorded.end(), 0);
    for (auto &h : fenceHistory)
      h.clear();
    for (int lane = 0; lane < nt; ++lane) {
      uncommitted[lane].clear();
      groups[lane].clear();
      groupSeq[lane] = 0;
    }
    for (size_t g = 0; g < wgGroups.size(); ++g) {
      wgUncommitted[g].clear();
      wgGroups[g].clear();
      wgFenced[g] = 0;
    }
    for (int lane = 0; lane < nt; ++lane)
      for (auto [i, s] : llvm::enumerate(k.argSlots))
        R(s, lane) = i;
    returned = false;
    if (!cluster)
      return execRegion(k.body, all);
    arrivals = waits = storesSinceArrive = 0;
    std::fill(sRemoteWrite.begin(), sRemoteWrite.end(), -1);
    {
      std::unique_lock<std::mutex> lock(cluster->mutex);
      cluster->cv.wait(lock, [&] {
        return cluster->turn == static_cast<size_t>(rank) || cluster->failed;
      });
    }
    bool ok = succeeded(execRegion(k.body, all));
    if (ok && arrivals != waits) {
      error = "simulator: block (" + std::to_string(bx) +
              ") exits after an nvvm.cluster.arrive without its "
              "nvvm.cluster.wait";
      ok = false;
    }
    std::lock_guard<std::mutex> lock(cluster->mutex);
    // Exiting frees this block's shared memory: every store to it by
    // another block must be ordered before by a cluster barrier (arrive by
    // the writer, wait by this block).
    for (size_t w = 0; ok && w < sRemoteWrite.size(); ++w)
      if (sRemoteWrite[w] >= waits) {
        error = "simulator: block (" + std::to_string(bx) +
                ") exits before cluster block " +
                std::to_string(sRemoteWriter[w]) +
                "'s store to its shared memory word " + std::to_string(w) +
                " is ordered by a cluster barrier";
        ok = false;
      }
    cluster->exited[rank] = 1;
    cluster->failed |= !ok;
    cluster->passTurn(rank);
    return success(ok);
  }

  /// Makes this executor block `rank` of `state`'s clusters.
  void joinCluster(ClusterState *state, int r) {
    cluster = state;
    rank = r;
  }

private:
  uint64_t &R(int slot, int lane) {
    return regs[static_cast<size_t>(slot) * nt + lane];
  }
  int64_t I(int slot, int lane) { return static_cast<int64_t>(R(slot, lane)); }
  float F(int slot, int lane) { return asF(R(slot, lane)); }

  std::string where(int lane) {
    int64_t t[3] = {lane % blockDim[0], (lane / blockDim[0]) % blockDim[1],
                    lane / (blockDim[0] * blockDim[1])};
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "block (" << bid[0] << ", " << bid[1] << ", " << bid[2]
       << "), thread (" << t[0] << ", " << t[1] << ", " << t[2] << ")";
    return s;
  }

  LogicalResult fail(const Inst &inst, int lane, const Twine &msg) {
    error = ("simulator: " + msg + " in " + describe(inst.op) + ", " +
             (lane >= 0 ? where(lane) : std::string("block")))
                .str();
    return failure();
  }

  /// A memory-model violation (uninitialised read, race): fatal unless
  /// keepGoing, where the first one is recorded and execution continues.
  LogicalResult violation(const Inst &inst, int lane, const Twine &msg) {
    if (!keepGoing)
      return fail(inst, lane, msg);
    if (stats.violations++ == 0) {
      std::string saved = error;
      (void)fail(inst, lane, msg);
      stats.firstViolation = error;
      error = saved;
    }
    return success();
  }

  LogicalResult execRegion(const Region &r, const std::vector<int> &lanes) {
    for (const Inst &inst : r.insts) {
      stats.instructions += static_cast<int64_t>(lanes.size());
      if (failed(exec(inst, lanes)))
        return failure();
      if (returned)
        return success();
    }
    return success();
  }

  /// Linear element index of a load/store, bounds-checked per dim.
  LogicalResult address(const Inst &inst, int lane, size_t firstIdx,
                        MemDesc *&desc, int64_t &linear) {
    return addressOf(inst, lane, firstIdx - 1, inst.in.size() - firstIdx, 1,
                     desc, linear);
  }

  std::string indexList(const Inst &inst, int lane, size_t firstIdx,
                        size_t rank) {
    std::string idx;
    for (size_t e = 0; e < rank; ++e)
      idx += (e ? ", " : "") + std::to_string(I(inst.in[firstIdx + e], lane));
    return idx;
  }
  static std::string shapeOf(const MemDesc &d) {
    std::string shp;
    for (size_t e = 0; e < d.shape.size(); ++e)
      shp += (e ? "x" : "") + std::to_string(d.shape[e]);
    return shp;
  }

  /// Linear element index of an access of `n` consecutive elements along the
  /// last dimension through the memref in slot `inst.in[memIdx]` with the
  /// `rank` indices that follow it; every element bounds-checked.
  LogicalResult addressOf(const Inst &inst, int lane, size_t memIdx,
                          size_t rank, int64_t n, MemDesc *&desc,
                          int64_t &linear) {
    int64_t id = I(inst.in[memIdx], lane);
    if (id < 0 || id >= static_cast<int64_t>(mems.size()))
      return fail(inst, lane, "access through an invalid memref");
    desc = &mems[id];
    if (desc->raw)
      return fail(inst, lane, "direct access to the i8 shared memory");
    if (rank != desc->shape.size())
      return fail(inst, lane, "rank mismatch");
    size_t firstIdx = memIdx + 1;
    linear = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t i = I(inst.in[firstIdx + d], lane);
      if (i < 0 || i >= desc->shape[d])
        return fail(inst, lane,
                    "out-of-bounds access [" + indexList(inst, lane, firstIdx,
                                                         rank) +
                        "] to " + desc->name + " of shape " + shapeOf(*desc));
      linear = linear * desc->shape[d] + i;
    }
    if (n > 1 && rank > 0 && I(inst.in[firstIdx + rank - 1], lane) + n > desc->shape.back())
      return fail(inst, lane,
                  "out-of-bounds access: " + std::to_string(n) +
                      " elements at [" + indexList(inst, lane, firstIdx, rank) +
                      "] overrun the last dimension of " + desc->name +
                      " of shape " + shapeOf(*desc));
    return success();
  }

  LogicalResult load(const Inst &inst, int lane, float &v) {
    MemDesc *d;
    int64_t li;
    if (failed(address(inst, lane, 1, d, li)))
      return failure();
    return loadAt(inst, lane, d, li, v);
  }

  /// vector.load of `n` consecutive elements along the last dimension: every
  /// element in bounds, and the byte address (buffers and dynamic shared
  /// memory assumed 16-byte aligned) a multiple of the alignment attribute.
  LogicalResult vecLoad(const Inst &inst, int lane, size_t n, float *v) {
    MemDesc *d;
    int64_t li;
    if (failed(address(inst, lane, 1, d, li)))
      return failure();
    int64_t last = I(inst.in.back(), lane);
    if (last + static_cast<int64_t>(n) > d->shape.back()) {
      std::string idx;
      for (size_t e = 1; e < inst.in.size(); ++e)
        idx += (e > 1 ? ", " : "") + std::to_string(I(inst.in[e], lane));
      std::string shp;
      for (size_t e = 0; e < d->shape.size(); ++e)
        shp += (e ? "x" : "") + std::to_string(d->shape[e]);
      return fail(inst, lane,
                  "out-of-bounds access: vector of " + std::to_string(n) +
                      " elements at [" + idx + "] overruns the last dimension"
                      " of " + d->name + " of shape " + shp);
    }
    if (failed(checkAlignment(inst, lane, d, li)))
      return failure();
    for (size_t i = 0; i < n; ++i)
      if (failed(loadAt(inst, lane, d, li + static_cast<int64_t>(i), v[i])))
        return failure();
    return success();
  }

  /// The alignment attribute (`inst.imm` bytes) of a vector access at
  /// element `li` of `d`.
  LogicalResult checkAlignment(const Inst &inst, int lane, MemDesc *d,
                               int64_t li) {
    int64_t byteAddr = (d->shared ? d->sharedBase + li : li) * 4;
    if (inst.imm > 1 && byteAddr % static_cast<int64_t>(inst.imm) != 0)
      return fail(inst, lane,
                  "misaligned vector access: byte offset " +
                      std::to_string(byteAddr) + " (element " +
                      std::to_string(li) + ") of " + d->name +
                      " is not a multiple of the " + std::to_string(inst.imm) +
                      "-byte alignment");
    return success();
  }

  LogicalResult loadAt(const Inst &inst, int lane, MemDesc *d, int64_t li,
                       float &v) {
    if (d->shared) {
      int64_t w = d->sharedBase + li;
      if (sPending[w] > 0) {
        if (failed(violation(inst, lane,
                             "read of shared memory word " + std::to_string(w) +
                                 " while thread " + threadName(sPendLane[w]) +
                                 "'s cp.async (nvgpu.device_async_copy) to "
                                 "it is pending (no nvgpu.device_async_wait "
                                 "covering it)")))
          return failure();
      } else if (!sInit[w] && failed(violation(inst, lane,
                    "read of uninitialised shared memory (word " +
                        std::to_string(w) + ")")))
        return failure();
      if (failed(clusterAccess(inst, lane, w, "read")))
        return failure();
      if (sWEpoch[w] == epoch && sWriter[w] != lane &&
          failed(violation(inst, lane,
                    "shared memory race: word " + std::to_string(w) +
                        " read without a barrier after thread " +
                        std::to_string(sWriter[w]) + " wrote it")))
        return failure();
      if (sREpoch[w] != epoch) {
        sREpoch[w] = epoch;
        sReader[w] = lane;
      } else if (sReader[w] != lane) {
        sReader[w] = -2; // several readers
      }
      v = smem[w];
      return success();
    }
    int a = d->argIndex >= 0 ? static_cast<int>(d - mems.data()) : -1;
    int64_t gid = blockLinear * nt + lane;
    int64_t wg = writers.gid[a][li];
    if (wg >= 0 && wg != gid &&
        (wg / nt != blockLinear || writers.epoch[a][li] == epoch))
      return fail(inst, lane,
                  "global memory race: element " + std::to_string(li) +
                      " of " + d->name + " read after another thread (" +
                      (wg / nt != blockLinear ? "of another block" : "no barrier") +
                      ") wrote it in the same launch");
    v = d->data[li];
    return success();
  }

  LogicalResult store(const Inst &inst, int lane, float v) {
    MemDesc *d;
    int64_t li;
    if (failed(address(inst, lane, 2, d, li)))
      return failure();
    return storeAt(inst, lane, d, li, v);
  }

  /// vector.store of the `n` values in `inst.in[0, n)`: bounds of every
  /// element and the alignment attribute checked like `vecLoad`.
  LogicalResult vecStore(const Inst &inst, int lane, size_t n) {
    MemDesc *d;
    int64_t li;
    size_t memIdx = n;
    if (failed(addressOf(inst, lane, memIdx, inst.in.size() - memIdx - 1,
                         static_cast<int64_t>(n), d, li)))
      return failure();
    if (failed(checkAlignment(inst, lane, d, li)))
      return failure();
    for (size_t i = 0; i < n; ++i)
      if (failed(storeAt(inst, lane, d, li + static_cast<int64_t>(i),
                         F(inst.in[i], lane))))
        return failure();
    return success();
  }

  LogicalResult storeAt(const Inst &inst, int lane, MemDesc *d, int64_t li,
                        float v) {
    if (d->shared) {
      int64_t w = d->sharedBase + li;
      if (sPending[w] > 0 &&
          failed(violation(inst, lane,
                    "store to shared memory word " + std::to_string(w) +
                        " while thread " + threadName(sPendLane[w]) +
                        "'s cp.async (nvgpu.device_async_copy) to it is "
                        "pending")))
        return failure();
      if (sWgPending[w] > 0 &&
          failed(violation(inst, lane,
                           "store to shared memory word " + std::to_string(w) +
                               " while " + pendingWgmmaName(w))))
        return failure();
      if (sWEpoch[w] == epoch && sWriter[w] != lane &&
          failed(violation(inst, lane,
                    "shared memory race: word " + std::to_string(w) +
                        " written by two threads without a barrier (other: " +
                        std::to_string(sWriter[w]) + ")")))
        return failure();
      if (readByOther(w, lane) &&
          failed(violation(inst, lane,
                           "shared memory race: word " + std::to_string(w) +
                               " written without a barrier after " +
                               readerName(w) + " read it")))
        return failure();
      if (failed(clusterAccess(inst, lane, w, "store")))
        return failure();
      sWEpoch[w] = epoch;
      sWriter[w] = lane;
      sWFence[w] = fenceCount[lane];
      sInit[w] = 1;
      smem[w] = v;
      return success();
    }
    int a = static_cast<int>(d - mems.data());
    int64_t gid = blockLinear * nt + lane;
    int64_t wg = writers.gid[a][li];
    if (wg >= 0 && wg != gid &&
        (wg / nt != blockLinear || writers.epoch[a][li] == epoch))
      return fail(inst, lane,
                  "global memory race: element " + std::to_string(li) +
                      " of " + d->name + " written by two threads (" +
                      (wg / nt != blockLinear ? "other block" : "no barrier") +
                      ")");
    writers.gid[a][li] = gid;
    writers.epoch[a][li] = epoch;
    d->data[li] = v;
    d->global->written[li] = 1;
    return success();
  }

  std::string threadName(int lane) { return std::to_string(lane); }

  /// Threads per warpgroup (wgmma), and the shared-memory window address of
  /// dynamic shared memory byte 0 (nonzero, as on the GPU, where the first
  /// KiB of the window is reserved, so that code assuming 0 is caught).
  static constexpr int kWarpgroup = 128;
  static constexpr int64_t kSmemWindowBase = 1024;

  /// Whether shared word `w` was read since the last barrier by a thread
  /// other than `lane`. A retired wgmma's reads count as reads by every
  /// thread of its warpgroup (`sReader` = -3 - warpgroup); -2 is several
  /// readers.
  bool readByOther(int64_t w, int lane) {
    if (sREpoch[w] != epoch)
      return false;
    int32_t r = sReader[w];
    if (r >= 0)
      return r != lane;
    if (r <= -3)
      return -3 - r != lane / kWarpgroup;
    return true;
  }
  std::string readerName(int64_t w) {
    if (sReader[w] <= -3)
      return "a wgmma (nvvm.wgmma.mma_async) of warpgroup " +
             std::to_string(-3 - sReader[w]);
    return "another thread";
  }
  /// Number of nvvm.fence.proxy thread `lane` executed up to the end of
  /// epoch `e` (a past one).
  int32_t fencesBy(int lane, int32_t e) {
    const auto &h = fenceHistory[lane];
    auto it =
        std::upper_bound(h.begin(), h.end(), e,
                         [](int32_t v, const std::pair<int32_t, int32_t> &p) {
                           return v < p.first;
                         });
    return it == h.begin() ? 0 : std::prev(it)->second;
  }
  std::string pendingWgmmaName(int64_t w) {
    return "a wgmma (nvvm.wgmma.mma_async) of warpgroup " +
           std::to_string(sWgPendGroup[w]) +
           " reading it is pending (no nvvm.wgmma.wait.group.sync.aligned "
           "retiring it)";
  }

  /// One cp.async: its destination words and the values it will write.
  struct PendingCopy {
    SmallVector<int64_t, 4> words;
    SmallVector<float, 4> vals;
    const Inst *inst;
  };

  LogicalResult asyncCopy(const Inst &inst, int lane);
  /// Performs the shared-memory writes of `copies` as writes of `lane` at
  /// this point (`at`: the op completing them).
  LogicalResult completeCopies(const Inst &at, int lane,
                               std::vector<PendingCopy> &copies);
  LogicalResult exec(const Inst &inst, const std::vector<int> &lanes);
  LogicalResult execFor(const Inst &inst, const std::vector<int> &lanes);
  LogicalResult execIf(const Inst &inst, const std::vector<int> &lanes);
  LogicalResult execShuffle(const Inst &inst, const std::vector<int> &lanes);
  LogicalResult execMma(const Inst &inst, const std::vector<int> &lanes);
  /// The warpgroups of `lanes`, each of which must be complete (all its 128
  /// threads active and inside the block) for the `.aligned` op `inst`.
  LogicalResult warpgroupsOf(const Inst &inst, const std::vector<int> &lanes,
                             SmallVectorImpl<int> &wgs);
  LogicalResult execWgmma(const Inst &inst, const std::vector<int> &lanes);
  /// Reads the 64x8 (A) or Nx8 (B) tf32 operand of warpgroup `wg`'s wgmma
  /// from shared memory through descriptor `desc` into `vals` (row-major)
  /// and appends the words read to `words`.
  LogicalResult wgmmaOperand(const Inst &inst, int wg, char name, uint64_t desc,
                             int rows, std::vector<double> &vals,
                             std::vector<int64_t> &words);
  /// Retires the wgmma ops of `group` (warpgroup `wg`): their reads become
  /// reads by the warpgroup at this point.
  void retireWgmma(int wg, std::vector<std::vector<int64_t>> &group);

  Kernel &k;
  std::string &error;
  Stats &stats;
  int64_t smemBytes;
  bool keepGoing;
  int64_t grid[3], blockDim[3], bid[3];
  int64_t blockLinear = 0;
  int nt;
  int32_t epoch = 0;
  bool returned = false;
  std::vector<uint64_t> regs;
  std::vector<MemDesc> mems;
  int rawId, viewBase;
  GlobalWriters &writers;
  /// Clusters: the cluster this block belongs to and its rank in it, its
  /// cluster barrier arrivals and completed waits; per shared word, the
  /// arrivals of the block of the cluster that last stored to it through
  /// distributed shared memory (-1: none) and which block that was. The
  /// store is visible to this block once it has waited at a cluster barrier
  /// the writer arrived at afterwards (waits > that arrival count).
  ClusterState *cluster = nullptr;
  int rank = 0;
  int64_t arrivals = 0, waits = 0;
  /// Distributed shared memory stores since this block's last arrive.
  int64_t storesSinceArrive = 0;
  std::vector<int64_t> sRemoteWrite;
  std::vector<int32_t> sRemoteWriter;
  /// An access of shared word `w` by this block (`what`: "read" or
  /// "store"): reports one that a cluster barrier does not order after
  /// another block's store to `w`.
  LogicalResult clusterAccess(const Inst &inst, int lane, int64_t w,
                              StringRef what) {
    if (!cluster || sRemoteWrite[w] < 0 || sRemoteWrite[w] < waits)
      return success();
    return violation(inst, lane,
                     "distributed shared memory race: " + what.str() +
                         " of shared memory word " + std::to_string(w) +
                         " without a cluster barrier (arrive by the writer, "
                         "wait by this block) after cluster block " +
                         std::to_string(sRemoteWriter[w]) + " stored to it");
  }
  LogicalResult execClusterStore(const Inst &inst,
                                 const std::vector<int> &lanes);
  LogicalResult execClusterBarrier(const Inst &inst,
                                   const std::vector<int> &lanes);
  std::vector<float> smem;
  std::vector<uint8_t> sInit;
  std::vector<int32_t> sWriter, sWEpoch, sReader, sREpoch;
  /// cp.async state. Per shared word: number of pending copies to it, the
  /// thread that issued them and the value the last one will write. Per
  /// thread: copies not yet committed, and committed groups oldest first.
  std::vector<int32_t> sPending, sPendLane;
  std::vector<uint32_t> sPendBits;
  std::vector<std::vector<PendingCopy>> uncommitted;
  std::vector<std::deque<std::vector<PendingCopy>>> groups;
  std::vector<int64_t> groupSeq;
  /// Proxy fences: per thread the number of nvvm.fence.proxy it executed,
  /// and (epoch, count) at the barrier ending each epoch in which that
  /// number changed; per shared word that number of its last writer at the
  /// write. A write is visible to wgmma if the writer fenced between it
  /// and the end of its epoch.
  std::vector<int32_t> fenceCount, fenceRecorded, sWFence;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> fenceHistory;
  /// wgmma state. Per shared word: number of issued, not yet retired wgmma
  /// ops reading it and the warpgroup of the last one. Per warpgroup: the
  /// words read by each uncommitted wgmma, the committed groups (oldest
  /// first), and whether it executed nvvm.wgmma.fence.aligned.
  std::vector<int32_t> sWgPending, sWgPendGroup;
  std::vector<std::vector<std::vector<int64_t>>> wgUncommitted;
  std::vector<std::deque<std::vector<std::vector<int64_t>>>> wgGroups;
  std::vector<uint8_t> wgFenced;
  std::vector<int> all;
};

float maximumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == 0.0f && b == 0.0f)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
float minimumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == 0.0f && b == 0.0f)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32 on the bit pattern: keep
/// 10 mantissa bits (low 13 bits zero). NaN gives the canonical 0x7FFFFFFF;
/// inf stays inf (satfinite: the largest finite tf32 of that sign); a finite
/// value rounding past the largest finite tf32 becomes inf (satfinite: the
/// largest finite). relu clamps negative results (and -0) to +0.
uint32_t roundTF32(uint32_t u, int mode, bool satfinite, bool relu) {
  const uint32_t sign = u & 0x80000000u, mag = u & 0x7FFFFFFFu;
  const uint32_t maxTf32 = 0x7F7FE000u;
  if (mag > 0x7F800000u)
    return 0x7FFFFFFFu;
  uint32_t r;
  if (mag == 0x7F800000u) {
    r = satfinite ? maxTf32 : mag;
  } else {
    uint32_t m = mag;
    if (mode == 0)      // ties away from zero
      m += 0x1000u;
    else if (mode == 1) // ties to even
      m += 0xFFFu + ((m >> 13) & 1u);
    m &= 0xFFFFE000u;
    if (m >= 0x7F800000u)
      m = satfinite ? maxTf32 : 0x7F800000u;
    r = m;
  }
  if (relu && sign)
    return 0;
  return sign | r;
}

bool cmpF(int pred, float a, float b) {
  using P = arith::CmpFPredicate;
  bool uno = std::isnan(a) || std::isnan(b);
  switch (static_cast<P>(pred)) {
  case P::AlwaysFalse: return false;
  case P::OEQ: return !uno && a == b;
  case P::OGT: return !uno && a > b;
  case P::OGE: return !uno && a >= b;
  case P::OLT: return !uno && a < b;
  case P::OLE: return !uno && a <= b;
  case P::ONE: return !uno && a != b;
  case P::ORD: return !uno;
  case P::UEQ: return uno || a == b;
  case P::UGT: return uno || a > b;
  case P::UGE: return uno || a >= b;
  case P::ULT: return uno || a < b;
  case P::ULE: return uno || a <= b;
  case P::UNE: return uno || a != b;
  case P::UNO: return uno;
  case P::AlwaysTrue: return true;
  }
  return false;
}

bool cmpI(int pred, int64_t a, int64_t b, int w) {
  using P = arith::CmpIPredicate;
  int64_t sa = sext(a, w), sb = sext(b, w);
  uint64_t ua = zext(a, w), ub = zext(b, w);
  switch (static_cast<P>(pred)) {
  case P::eq: return ua == ub;
  case P::ne: return ua != ub;
  case P::slt: return sa < sb;
  case P::sle: return sa <= sb;
  case P::sgt: return sa > sb;
  case P::sge: return sa >= sb;
  case P::ult: return ua < ub;
  case P::ule: return ua <= ub;
  case P::ugt: return ua > ub;
  case P::uge: return ua >= ub;
  }
  return false;
}

LogicalResult BlockExecutor::exec(const Inst &inst,
                                  const std::vector<int> &lanes) {
  const int w = inst.width;
  auto intBin = [&](auto fn) -> LogicalResult {
    for (int l : lanes) {
      int64_t r;
      if (!fn(I(inst.in[0], l), I(inst.in[1], l), r))
        return fail(inst, l, "integer division by zero or overflow");
      R(inst.out[0], l) = static_cast<uint64_t>(norm(r, w));
    }
    return success();
  };
  auto fUn = [&](auto fn) {
    for (int l : lanes)
      R(inst.out[0], l) = fromF(fn(F(inst.in[0], l)));
    return success();
  };
  auto fBin = [&](auto fn) {
    for (int l : lanes)
      R(inst.out[0], l) = fromF(fn(F(inst.in[0], l), F(inst.in[1], l)));
    return success();
  };
  auto dimOf = [&](const int64_t *v) {
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(v[inst.pred]);
    return success();
  };
  switch (inst.opc) {
  case Opc::ConstBits:
    for (int o : inst.out)
      for (int l : lanes)
        R(o, l) = inst.imm;
    return success();
  case Opc::Copy:
    for (size_t i = 0; i < inst.out.size(); ++i)
      for (int l : lanes)
        R(inst.out[i], l) = R(inst.in[i], l);
    return success();
  case Opc::Extract:
    for (size_t i = 0; i < inst.out.size(); ++i)
      for (int l : lanes)
        R(inst.out[i], l) = R(inst.in[inst.imm + i], l);
    return success();
  case Opc::Insert: {
    size_t n = inst.out.size();
    for (size_t i = 0; i < n; ++i)
      for (int l : lanes)
        R(inst.out[i], l) = R(inst.in[i == inst.imm ? n : i], l);
    return success();
  }
  case Opc::Bitcast:
    for (int l : lanes)
      R(inst.out[0], l) =
          inst.pred ? zext(I(inst.in[0], l), 32)
                    : static_cast<uint64_t>(norm(I(inst.in[0], l), 32));
    return success();
  case Opc::Mma:
    return execMma(inst, lanes);
  case Opc::ThreadId:
    for (int l : lanes) {
      int64_t t[3] = {l % blockDim[0], (l / blockDim[0]) % blockDim[1],
                      l / (blockDim[0] * blockDim[1])};
      R(inst.out[0], l) = static_cast<uint64_t>(t[inst.pred]);
    }
    return success();
  case Opc::LaneId:
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(l % 32);
    return success();
  case Opc::BlockId:
    return dimOf(bid);
  case Opc::BlockDim:
    return dimOf(blockDim);
  case Opc::GridDim:
    return dimOf(grid);
  case Opc::DynSmem:
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(rawId);
    return success();
  case Opc::View: {
    auto view = cast<memref::ViewOp>(inst.op);
    auto mt = view.getType();
    int64_t elems = mt.getNumElements();
    MemDesc &d = mems[viewBase + inst.memId];
    int64_t byteShift = I(inst.in[1], lanes.front());
    for (int l : lanes)
      if (I(inst.in[1], l) != byteShift)
        return fail(inst, l, "view offset differs between threads");
    if (byteShift % 4 != 0 || byteShift < 0 ||
        byteShift + elems * 4 > smemBytes)
      return fail(inst, lanes.front(),
                  "view [" + std::to_string(byteShift) + ", +" +
                      std::to_string(elems * 4) +
                      " bytes) exceeds the launch's " +
                      std::to_string(smemBytes) + " bytes of dynamic shared "
                      "memory");
    d.sharedBase = byteShift / 4;
    d.size = elems;
    d.shape.assign(mt.getShape().begin(), mt.getShape().end());
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(viewBase + inst.memId);
    return success();
  }
  case Opc::Load:
    for (int l : lanes) {
      float v;
      if (failed(load(inst, l, v)))
        return failure();
      R(inst.out[0], l) = fromF(v);
    }
    return success();
  case Opc::VecLoad: {
    size_t n = inst.out.size();
    SmallVector<float, 8> v(n);
    for (int l : lanes) {
      if (failed(vecLoad(inst, l, n, v.data())))
        return failure();
      for (size_t i = 0; i < n; ++i)
        R(inst.out[i], l) = fromF(v[i]);
    }
    return success();
  }
  case Opc::CvtTF32:
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(norm(
          static_cast<int64_t>(roundTF32(static_cast<uint32_t>(R(inst.in[0], l)),
                                         inst.pred, inst.imm & 1, inst.imm & 2)),
          32));
    return success();
  case Opc::Store:
    for (int l : lanes)
      if (failed(store(inst, l, F(inst.in[0], l))))
        return failure();
    return success();
  case Opc::VecStore: {
    size_t n = static_cast<size_t>(
        cast<VectorType>(inst.op->getOperand(0).getType()).getNumElements());
    for (int l : lanes)
      if (failed(vecStore(inst, l, n)))
        return failure();
    return success();
  }
  case Opc::AsyncCopy:
    for (int l : lanes)
      if (failed(asyncCopy(inst, l)))
        return failure();
    return success();
  case Opc::AsyncGroup:
    // cp.async.commit_group: all of the thread's uncommitted copies (the
    // token operands are only SSA dependencies). The token: a group number.
    for (int l : lanes) {
      groups[l].push_back(std::move(uncommitted[l]));
      uncommitted[l].clear();
      R(inst.out[0], l) = static_cast<uint64_t>(++groupSeq[l]);
    }
    return success();
  case Opc::AsyncWait:
    // cp.async.wait_group k: all but the k most recent committed groups are
    // complete. Uncommitted copies are not waited for.
    for (int l : lanes) {
      if (!uncommitted[l].empty() &&
          failed(violation(inst, l,
                           std::to_string(uncommitted[l].size()) +
                               " cp.async copies not committed to a group "
                               "(nvgpu.device_async_create_group) at a wait, "
                               "which does not cover them")))
        return failure();
      while (groups[l].size() > inst.imm) {
        if (failed(completeCopies(inst, l, groups[l].front())))
          return failure();
        groups[l].pop_front();
      }
    }
    return success();
  case Opc::SmemAddr:
    // The shared-window address of a view's element 0.
    for (int l : lanes) {
      int64_t id = I(inst.in[0], l);
      if (id < viewBase || id >= viewBase + k.numViews)
        return fail(inst, l,
                    "memref.extract_aligned_pointer_as_index of a memref "
                    "that is not a view of dynamic shared memory");
      R(inst.out[0], l) =
          static_cast<uint64_t>(kSmemWindowBase + mems[id].sharedBase * 4);
    }
    return success();
  case Opc::ClusterArrive:
  case Opc::ClusterWait:
    return execClusterBarrier(inst, lanes);
  case Opc::Mapa:
    // A shared::cluster address: (rank + 1) << 40 | the shared-window
    // address in that block.
    for (int l : lanes) {
      uint64_t addr = R(inst.in[0], l);
      int64_t r = I(inst.in[1], l);
      if (r < 0 || r >= k.clusterX)
        return fail(inst, l,
                    "nvvm.mapa to block rank " + std::to_string(r) +
                        " of a cluster of " + std::to_string(k.clusterX));
      if (addr < static_cast<uint64_t>(kSmemWindowBase) ||
          addr >= static_cast<uint64_t>(kSmemWindowBase + smemBytes))
        return fail(inst, l,
                    "nvvm.mapa of address " + std::to_string(addr) +
                        ", outside the block's dynamic shared memory");
      R(inst.out[0], l) = (static_cast<uint64_t>(r + 1) << 40) | addr;
    }
    return success();
  case Opc::ClusterStore:
    return execClusterStore(inst, lanes);
  case Opc::FenceProxy:
    for (int l : lanes)
      ++fenceCount[l];
    return success();
  case Opc::WgmmaFence: {
    SmallVector<int, 8> wgs;
    if (failed(warpgroupsOf(inst, lanes, wgs)))
      return failure();
    for (int g : wgs)
      wgFenced[g] = 1;
    return success();
  }
  case Opc::Wgmma:
    return execWgmma(inst, lanes);
  case Opc::WgmmaCommit: {
    // wgmma.commit_group: all of the warpgroup's uncommitted wgmma ops
    // (possibly none) form a new group.
    SmallVector<int, 8> wgs;
    if (failed(warpgroupsOf(inst, lanes, wgs)))
      return failure();
    for (int g : wgs) {
      wgGroups[g].push_back(std::move(wgUncommitted[g]));
      wgUncommitted[g].clear();
    }
    return success();
  }
  case Opc::WgmmaWait: {
    // wgmma.wait_group N: all but the N most recent groups are retired.
    SmallVector<int, 8> wgs;
    if (failed(warpgroupsOf(inst, lanes, wgs)))
      return failure();
    for (int g : wgs) {
      if (!wgUncommitted[g].empty() &&
          failed(violation(
              inst, g * kWarpgroup,
              std::to_string(wgUncommitted[g].size()) +
                  " wgmma (nvvm.wgmma.mma_async) not committed to a group "
                  "(nvvm.wgmma.commit.group.sync.aligned) at a wait, which "
                  "does not cover them")))
        return failure();
      while (wgGroups[g].size() > inst.imm) {
        retireWgmma(g, wgGroups[g].front());
        wgGroups[g].pop_front();
      }
    }
    return success();
  }
  case Opc::For:
    return execFor(inst, lanes);
  case Opc::If:
    return execIf(inst, lanes);
  case Opc::Barrier:
    if (static_cast<int>(lanes.size()) != nt)
      return fail(inst, lanes.empty() ? -1 : lanes.front(),
                  "gpu.barrier reached by " + std::to_string(lanes.size()) +
                      " of " + std::to_string(nt) +
                      " threads (divergent barrier)");
    for (int l = 0; l < nt; ++l)
      if (fenceCount[l] != fenceRecorded[l]) {
        fenceHistory[l].push_back({epoch, fenceCount[l]});
        fenceRecorded[l] = fenceCount[l];
      }
    ++epoch;
    return success();
  case Opc::Shuffle:
    return execShuffle(inst, lanes);
  case Opc::Return:
    if (static_cast<int>(lanes.size()) != nt)
      return fail(inst, -1, "gpu.return under divergent control flow");
    for (int l : lanes) {
      size_t pending = uncommitted[l].size();
      for (auto &g : groups[l])
        pending += g.size();
      if (pending &&
          failed(violation(inst, l,
                           std::to_string(pending) +
                               " cp.async copies still pending at kernel "
                               "exit (no nvgpu.device_async_wait for them)")))
        return failure();
    }
    for (size_t g = 0; g < wgGroups.size(); ++g) {
      size_t pending = wgUncommitted[g].size();
      for (auto &grp : wgGroups[g])
        pending += grp.size();
      if (pending &&
          failed(violation(inst, static_cast<int>(g) * kWarpgroup,
                           std::to_string(pending) +
                               " wgmma (nvvm.wgmma.mma_async) still pending "
                               "at kernel exit (no "
                               "nvvm.wgmma.wait.group.sync.aligned retiring "
                               "them)")))
        return failure();
    }
    returned = true;
    return success();

  case Opc::AddI:
    return intBin([](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
      return true;
    });
  case Opc::SubI:
    return intBin([](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
      return true;
    });
  case Opc::MulI:
    return intBin([](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
      return true;
    });
  case Opc::DivSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      a = sext(a, w);
      b = sext(b, w);
      if (b == 0 || (b == -1 && a == norm(INT64_MIN, w)))
        return false;
      r = a / b;
      return true;
    });
  case Opc::RemSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      a = sext(a, w);
      b = sext(b, w);
      if (b == 0)
        return false;
      r = b == -1 ? 0 : a % b;
      return true;
    });
  case Opc::DivUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      if (zext(b, w) == 0)
        return false;
      r = static_cast<int64_t>(zext(a, w) / zext(b, w));
      return true;
    });
  case Opc::RemUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      if (zext(b, w) == 0)
        return false;
      r = static_cast<int64_t>(zext(a, w) % zext(b, w));
      return true;
    });
  case Opc::CeilDivUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      uint64_t ua = zext(a, w), ub = zext(b, w);
      if (ub == 0)
        return false;
      r = static_cast<int64_t>(ua / ub + (ua % ub != 0));
      return true;
    });
  case Opc::FloorDivSI:
  case Opc::CeilDivSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      a = sext(a, w);
      b = sext(b, w);
      if (b == 0 || (b == -1 && a == norm(INT64_MIN, w)))
        return false;
      int64_t q = a / b, rem = a % b;
      if (rem != 0) {
        bool neg = (rem < 0) != (b < 0);
        if (inst.opc == Opc::FloorDivSI && neg)
          --q;
        if (inst.opc == Opc::CeilDivSI && !neg)
          ++q;
      }
      r = q;
      return true;
    });
  case Opc::AndI:
    return intBin([](int64_t a, int64_t b, int64_t &r) { r = a & b; return true; });
  case Opc::OrI:
    return intBin([](int64_t a, int64_t b, int64_t &r) { r = a | b; return true; });
  case Opc::XOrI:
    return intBin([](int64_t a, int64_t b, int64_t &r) { r = a ^ b; return true; });
  case Opc::ShLI:
  case Opc::ShRSI:
  case Opc::ShRUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      uint64_t sh = zext(b, w);
      if (sh >= static_cast<uint64_t>(w))
        return false;
      if (inst.opc == Opc::ShLI)
        r = static_cast<int64_t>(zext(a, w) << sh);
      else if (inst.opc == Opc::ShRUI)
        r = static_cast<int64_t>(zext(a, w) >> sh);
      else
        r = sext(a, w) >> sh;
      return true;
    });
  case Opc::MinSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      r = std::min(sext(a, w), sext(b, w));
      return true;
    });
  case Opc::MaxSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      r = std::max(sext(a, w), sext(b, w));
      return true;
    });
  case Opc::MinUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(std::min(zext(a, w), zext(b, w)));
      return true;
    });
  case Opc::MaxUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(std::max(zext(a, w), zext(b, w)));
      return true;
    });
  case Opc::CmpI:
    for (int l : lanes)
      R(inst.out[0], l) =
          cmpI(inst.pred, I(inst.in[0], l), I(inst.in[1], l), inst.srcWidth);
    return success();
  case Opc::Select: {
    size_t n = inst.out.size();
    for (size_t i = 0; i < n; ++i)
      for (int l : lanes)
        R(inst.out[i], l) =
            (R(inst.in[0], l) & 1) ? R(inst.in[1 + i], l) : R(inst.in[1 + n + i], l);
    return success();
  }
  case Opc::IndexCast:
  case Opc::ExtSI:
  case Opc::TruncI:
    for (int l : lanes)
      R(inst.out[0], l) =
          static_cast<uint64_t>(norm(sext(I(inst.in[0], l), inst.srcWidth), w));
    return success();
  case Opc::IndexCastUI:
  case Opc::ExtUI:
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(
          norm(static_cast<int64_t>(zext(I(inst.in[0], l), inst.srcWidth)), w));
    return success();

  case Opc::AddF: return fBin([](float a, float b) { return a + b; });
  case Opc::SubF: return fBin([](float a, float b) { return a - b; });
  case Opc::MulF: return fBin([](float a, float b) { return a * b; });
  case Opc::DivF: return fBin([](float a, float b) { return a / b; });
  case Opc::RemF: return fBin([](float a, float b) { return std::fmod(a, b); });
  case Opc::NegF: return fUn([](float a) { return -a; });
  case Opc::MaximumF: return fBin(maximumF);
  case Opc::MinimumF: return fBin(minimumF);
  case Opc::MaxNumF: return fBin([](float a, float b) { return std::fmax(a, b); });
  case Opc::MinNumF: return fBin([](float a, float b) { return std::fmin(a, b); });
  case Opc::CopySign:
    return fBin([](float a, float b) { return std::copysign(a, b); });
  case Opc::PowF: return fBin([](float a, float b) { return std::pow(a, b); });
  case Opc::CmpF:
    for (int l : lanes)
      R(inst.out[0], l) = cmpF(inst.pred, F(inst.in[0], l), F(inst.in[1], l));
    return success();
  case Opc::SIToFP:
    for (int l : lanes)
      R(inst.out[0], l) =
          fromF(static_cast<float>(sext(I(inst.in[0], l), inst.srcWidth)));
    return success();
  case Opc::UIToFP:
    for (int l : lanes)
      R(inst.out[0], l) =
          fromF(static_cast<float>(zext(I(inst.in[0], l), inst.srcWidth)));
    return success();
  case Opc::FPToSI:
  case Opc::FPToUI:
    for (int l : lanes) {
      float f = F(inst.in[0], l);
      if (!std::isfinite(f) || std::fabs(f) > 9.2e18f)
        return fail(inst, l, "float to integer conversion out of range");
      R(inst.out[0], l) =
          static_cast<uint64_t>(norm(static_cast<int64_t>(f), w));
    }
    return success();
  case Opc::ExtF:
  case Opc::TruncF:
    return fail(inst, -1, "unsupported float conversion");
  case Opc::Exp: return fUn([](float a) { return std::exp(a); });
  case Opc::Ex2ApproxFtz:
    // ex2.approx.ftz.f32: denormal inputs and results flush to zero; the
    // approximation (<= 2 ulp) is modelled as the rounded exp2.
    return fUn(
        [](float a) { return flushDenormal(std::exp2(flushDenormal(a))); });
  case Opc::Exp2: return fUn([](float a) { return std::exp2(a); });
  case Opc::Expm1: return fUn([](float a) { return std::expm1(a); });
  case Opc::Log: return fUn([](float a) { return std::log(a); });
  case Opc::Log2: return fUn([](float a) { return std::log2(a); });
  case Opc::Log1p: return fUn([](float a) { return std::log1p(a); });
  case Opc::Erf: return fUn([](float a) { return std::erf(a); });
  case Opc::Tanh: return fUn([](float a) { return std::tanh(a); });
  case Opc::Sqrt: return fUn([](float a) { return std::sqrt(a); });
  case Opc::Rsqrt: return fUn([](float a) { return 1.0f / std::sqrt(a); });
  case Opc::RcpApproxFtz:
    // rcp.approx.ftz.f32: denormal inputs and results flush to zero; the
    // approximation (<= 1 ulp) is modelled as the rounded reciprocal.
    return fUn([](float a) { return flushDenormal(1.0f / flushDenormal(a)); });
  case Opc::AbsF: return fUn([](float a) { return std::fabs(a); });
  case Opc::Floor: return fUn([](float a) { return std::floor(a); });
  case Opc::Ceil: return fUn([](float a) { return std::ceil(a); });
  case Opc::Sin: return fUn([](float a) { return std::sin(a); });
  case Opc::Cos: return fUn([](float a) { return std::cos(a); });
  case Opc::Fma:
    for (int l : lanes)
      R(inst.out[0], l) = fromF(
          std::fma(F(inst.in[0], l), F(inst.in[1], l), F(inst.in[2], l)));
    return success();
  }
  return fail(inst, -1, "internal error: unhandled instruction");
}

/// nvgpu.device_async_copy %src[...], %dst[...], n (, srcElements): reads
/// srcElements (default n) consecutive source elements now and records n
/// pending destination words (the rest zero-filled) that are written only
/// when a wait completes the copy's group. Until then any access to them is
/// reported; the write itself must not race with accesses by other threads
/// since the last barrier.
LogicalResult BlockExecutor::asyncCopy(const Inst &inst, int lane) {
  const int64_t n = static_cast<int64_t>(inst.imm);
  const size_t dstMem = 0, srcMem = 1 + inst.numDstIdx;
  int64_t srcElems = inst.hasSrcElems ? I(inst.in.back(), lane) : n;
  if (srcElems < 0 || srcElems > n)
    return fail(inst, lane,
                "cp.async srcElements " + std::to_string(srcElems) +
                    " outside [0, " + std::to_string(n) + "]");
  MemDesc *dd;
  int64_t dl;
  if (failed(addressOf(inst, lane, dstMem, inst.numDstIdx, n, dd, dl)))
    return failure();
  if (!dd->shared)
    return fail(inst, lane, "cp.async destination is not shared memory");
  const int64_t bytes = n * 4;
  int64_t dByte = (dd->sharedBase + dl) * 4;
  if (dByte % bytes != 0)
    return fail(inst, lane,
                "misaligned cp.async destination: byte offset " +
                    std::to_string(dByte) + " of shared memory is not a "
                    "multiple of the " + std::to_string(bytes) +
                    "-byte copy size");
  PendingCopy pc;
  pc.inst = &inst;
  pc.vals.assign(n, 0.0f);
  if (srcElems > 0) {
    // With srcElements == 0 nothing is read: the address may be anything.
    MemDesc *sd;
    int64_t sl;
    if (failed(addressOf(inst, lane, srcMem, inst.numSrcIdx, srcElems, sd, sl)))
      return failure();
    if (sd->shared)
      return fail(inst, lane, "cp.async source is shared memory");
    if ((sl * 4) % bytes != 0)
      return fail(inst, lane,
                  "misaligned cp.async source: element " + std::to_string(sl) +
                      " of " + sd->name + " is not aligned to the " +
                      std::to_string(bytes) + "-byte copy size");
    for (int64_t i = 0; i < srcElems; ++i)
      if (failed(loadAt(inst, lane, sd, sl + i, pc.vals[i])))
        return failure();
  }
  for (int64_t i = 0; i < n; ++i) {
    int64_t w = dd->sharedBase + dl + i;
    uint32_t bits = static_cast<uint32_t>(fromF(pc.vals[i]));
    if (sPending[w] > 0) {
      // Two pending copies to one word: unordered unless the same thread
      // writes the same bits (e.g. zero fill of a thread's sink word).
      if (sPendLane[w] != lane) {
        if (failed(violation(inst, lane,
                             "shared memory race: word " + std::to_string(w) +
                                 " is the destination of pending cp.async "
                                 "copies of two threads (other: " +
                                 threadName(sPendLane[w]) + ")")))
          return failure();
      } else if (sPendBits[w] != bits &&
                 failed(violation(inst, lane,
                                  "word " + std::to_string(w) +
                                      " is the destination of two pending "
                                      "cp.async copies of this thread with "
                                      "different data (completion order is "
                                      "unspecified)"))) {
        return failure();
      }
    }
    if (sWEpoch[w] == epoch && sWriter[w] != lane &&
        failed(violation(inst, lane,
                         "shared memory race: cp.async to word " +
                             std::to_string(w) +
                             " without a barrier after thread " +
                             threadName(sWriter[w]) + " wrote it")))
      return failure();
    if (readByOther(w, lane) &&
        failed(violation(inst, lane,
                         "shared memory race: cp.async to word " +
                             std::to_string(w) + " without a barrier after " +
                             readerName(w) + " read it")))
      return failure();
    if (sWgPending[w] > 0 &&
        failed(violation(inst, lane,
                         "cp.async to shared memory word " + std::to_string(w) +
                             " while " + pendingWgmmaName(w))))
      return failure();
    ++sPending[w];
    sPendLane[w] = lane;
    sPendBits[w] = bits;
    pc.words.push_back(w);
  }
  R(inst.out[0], lane) = 0;
  uncommitted[lane].push_back(std::move(pc));
  return success();
}

LogicalResult BlockExecutor::completeCopies(const Inst &at, int lane,
                                            std::vector<PendingCopy> &copies) {
  for (PendingCopy &pc : copies) {
    for (size_t i = 0; i < pc.words.size(); ++i) {
      int64_t w = pc.words[i];
      --sPending[w];
      // Accesses by others since the issue were reported as accesses to a
      // pending word; these catch the rest (keepGoing).
      if (sWEpoch[w] == epoch && sWriter[w] != lane &&
          failed(violation(at, lane,
                           "shared memory race: cp.async to word " +
                               std::to_string(w) + " completes without a "
                               "barrier after thread " +
                               threadName(sWriter[w]) + " wrote it")))
        return failure();
      if (readByOther(w, lane) &&
          failed(violation(at, lane,
                           "shared memory race: cp.async to word " +
                               std::to_string(w) +
                               " completes without a barrier after " +
                               readerName(w) + " read it")))
        return failure();
      if (failed(clusterAccess(at, lane, w, "cp.async")))
        return failure();
      sWEpoch[w] = epoch;
      sWriter[w] = lane;
      // A generic-proxy write: a wgmma needs the thread's fence.proxy after
      // this point.
      sWFence[w] = fenceCount[lane];
      sInit[w] = 1;
      smem[w] = pc.vals[i];
    }
  }
  return success();
}

LogicalResult BlockExecutor::execClusterBarrier(const Inst &inst,
                                                const std::vector<int> &lanes) {
  bool arrive = inst.opc == Opc::ClusterArrive;
  const char *name = arrive ? "nvvm.cluster.arrive" : "nvvm.cluster.wait";
  if (static_cast<int>(lanes.size()) != nt)
    return fail(inst, lanes.empty() ? -1 : lanes.front(),
                std::string(name) + " reached by " +
                    std::to_string(lanes.size()) + " of " + std::to_string(nt) +
                    " threads (divergent cluster barrier)");
  if (!cluster)
    return fail(inst, -1,
                std::string(name) +
                    " in a kernel without clusters (no nvvm.cluster_dim)");
  if (arrive) {
    if (arrivals != waits)
      return fail(inst, -1,
                  "nvvm.cluster.arrive again before nvvm.cluster.wait");
    // A relaxed arrive does not release this block's earlier stores.
    if (inst.pred && storesSinceArrive > 0 &&
        failed(violation(inst, -1,
                         "nvvm.cluster.arrive.relaxed after distributed "
                         "shared memory stores (it does not release them)")))
      return failure();
    storesSinceArrive = 0;
    std::lock_guard<std::mutex> lock(cluster->mutex);
    cluster->arrivals[rank] = ++arrivals;
    cluster->cv.notify_all();
    return success();
  }
  if (waits == arrivals)
    return fail(inst, -1, "nvvm.cluster.wait without nvvm.cluster.arrive");
  ++waits;
  int missing = -1;
  bool othersFailed = false;
  {
    std::unique_lock<std::mutex> lock(cluster->mutex);
    auto released = [&] {
      if (cluster->failed)
        return othersFailed = true;
      for (size_t r = 0; r < cluster->blocks.size(); ++r)
        if (cluster->arrivals[r] < waits) {
          if (!cluster->exited[r])
            return false;
          missing = static_cast<int>(r);
        }
      return true;
    };
    // Until every block has arrived, the others run (one at a time; a
    // waiting block whose barrier is not complete passes the turn on).
    while (!released()) {
      cluster->passTurn(rank);
      cluster->cv.wait(lock, [&] {
        return cluster->turn == static_cast<size_t>(rank) || cluster->failed;
      });
    }
  }
  if (othersFailed) {
    error = "simulator: another block of the cluster failed";
    return failure();
  }
  if (missing >= 0)
    return fail(inst, -1,
                "nvvm.cluster.wait for cluster block " +
                    std::to_string(missing) +
                    ", which exited without arriving");
  return success();
}

LogicalResult BlockExecutor::execClusterStore(const Inst &inst,
                                              const std::vector<int> &lanes) {
  // llvm.store %value, %ptr: in = value, address.
  for (int l : lanes) {
    uint64_t p = R(inst.in[1], l);
    int64_t r = static_cast<int64_t>(p >> 40) - 1;
    int64_t addr = static_cast<int64_t>(p & ((uint64_t{1} << 40) - 1));
    if (!cluster || r < 0 || r >= static_cast<int64_t>(cluster->blocks.size()))
      return fail(inst, l,
                  "llvm.store to a !llvm.ptr<7> that nvvm.mapa did not make");
    BlockExecutor &owner = *cluster->blocks[r];
    // Only a completed cluster wait shows that every block has started
    // (arrived once): before that the store may hit a block that is not
    // running yet.
    if (waits == 0 &&
        failed(violation(inst, l,
                         "distributed shared memory store to cluster block " +
                             std::to_string(r) +
                             " before a cluster barrier wait (the block may "
                             "not have started)")))
      return failure();
    ++storesSinceArrive;
    if ((addr - kSmemWindowBase) % 4 != 0 || addr < kSmemWindowBase ||
        addr + 4 > kSmemWindowBase + owner.smemBytes)
      return fail(inst, l,
                  "distributed shared memory store at address " +
                      std::to_string(addr) + " of cluster block " +
                      std::to_string(r) + " is misaligned or out of bounds");
    int64_t w = (addr - kSmemWindowBase) / 4;
    std::string where =
        "word " + std::to_string(w) + " of cluster block " + std::to_string(r);
    if (cluster->exited[r] &&
        failed(violation(inst, l, "store to " + where + ", which has exited")))
      return failure();
    if (owner.sPending[w] > 0 &&
        failed(violation(inst, l,
                         "store to " + where +
                             " while a cp.async to it is "
                             "pending")))
      return failure();
    // Two blocks storing to one word without a cluster barrier between.
    if (owner.sRemoteWrite[w] >= 0 && owner.sRemoteWriter[w] != rank &&
        owner.sRemoteWrite[w] >= waits &&
        failed(violation(inst, l,
                         "distributed shared memory race: " + where +
                             " stored to by cluster blocks " +
                             std::to_string(owner.sRemoteWriter[w]) + " and " +
                             std::to_string(rank) +
                             " without a cluster barrier in between")))
      return failure();
    owner.sRemoteWrite[w] = arrivals;
    owner.sRemoteWriter[w] = rank;
    owner.sInit[w] = 1;
    owner.smem[w] = F(inst.in[0], l);
  }
  return success();
}

LogicalResult BlockExecutor::execFor(const Inst &inst,
                                     const std::vector<int> &lanes) {
  const Region &body = *inst.r0;
  const int w = inst.width;
  const bool unsignedCmp = inst.pred != 0;
  size_t nIter = body.args.size() - 1;
  auto less = [&](int64_t a, int64_t b) {
    return unsignedCmp ? zext(a, w) < zext(b, w) : sext(a, w) < sext(b, w);
  };
  std::vector<int> cur;
  for (int l : lanes) {
    int64_t step = sext(I(inst.in[2], l), w);
    if (!unsignedCmp && step <= 0)
      return fail(inst, l, "scf.for with a non-positive step");
    R(body.args[0], l) = R(inst.in[0], l);
    for (size_t i = 0; i < nIter; ++i)
      R(body.args[1 + i], l) = R(inst.in[3 + i], l);
    if (less(I(inst.in[0], l), I(inst.in[1], l)))
      cur.push_back(l);
  }
  std::vector<uint64_t> tmp;
  while (!cur.empty()) {
    if (failed(execRegion(body, cur)))
      return failure();
    if (returned)
      return fail(inst, -1, "gpu.return inside a loop");
    tmp.resize(nIter * cur.size());
    for (size_t i = 0; i < nIter; ++i)
      for (size_t j = 0; j < cur.size(); ++j)
        tmp[i * cur.size() + j] = R(body.yields[i], cur[j]);
    for (size_t i = 0; i < nIter; ++i)
      for (size_t j = 0; j < cur.size(); ++j)
        R(body.args[1 + i], cur[j]) = tmp[i * cur.size() + j];
    size_t n = 0;
    for (int l : cur) {
      int64_t iv = I(body.args[0], l);
      int64_t next = norm(static_cast<int64_t>(static_cast<uint64_t>(iv) +
                                               R(inst.in[2], l)),
                          w);
      // Stop on overflow (the iv would wrap) or at the upper bound.
      bool wrapped = unsignedCmp ? zext(next, w) <= zext(iv, w)
                                 : sext(next, w) <= sext(iv, w);
      R(body.args[0], l) = static_cast<uint64_t>(next);
      if (!wrapped && less(next, I(inst.in[1], l)))
        cur[n++] = l;
    }
    cur.resize(n);
  }
  for (int l : lanes)
    for (size_t i = 0; i < nIter; ++i)
      R(inst.out[i], l) = R(body.args[1 + i], l);
  return success();
}

LogicalResult BlockExecutor::execIf(const Inst &inst,
                                    const std::vector<int> &lanes) {
  std::vector<int> t, e;
  for (int l : lanes)
    ((R(inst.in[0], l) & 1) ? t : e).push_back(l);
  auto run = [&](const Region *r, const std::vector<int> &ls) -> LogicalResult {
    if (ls.empty() || !r)
      return success();
    if (failed(execRegion(*r, ls)))
      return failure();
    if (returned)
      return fail(inst, -1, "gpu.return inside scf.if");
    for (size_t i = 0; i < inst.out.size(); ++i)
      for (int l : ls)
        R(inst.out[i], l) = R(r->yields[i], l);
    return success();
  };
  if (failed(run(inst.r0.get(), t)))
    return failure();
  return run(inst.r1.get(), e);
}

LogicalResult BlockExecutor::execShuffle(const Inst &inst,
                                         const std::vector<int> &lanes) {
  std::vector<uint8_t> active(nt, 0);
  for (int l : lanes)
    active[l] = 1;
  for (int l : lanes) {
    int64_t lane = l % 32, base = l - lane;
    int64_t off = zext(I(inst.in[1], l), 32), width = zext(I(inst.in[2], l), 32);
    if (width < 1 || width > 32)
      return fail(inst, l, "shuffle width out of range");
    int64_t src = lane;
    bool valid = false;
    switch (static_cast<gpu::ShuffleMode>(inst.pred)) {
    case gpu::ShuffleMode::XOR:
      src = lane ^ off;
      valid = src < width;
      break;
    case gpu::ShuffleMode::DOWN:
      src = lane + off;
      valid = src < width;
      break;
    case gpu::ShuffleMode::UP:
      src = lane - off;
      valid = src >= 0;
      break;
    case gpu::ShuffleMode::IDX:
      src = off;
      valid = src < width;
      break;
    }
    if (lane >= width)
      valid = false;
    if (!valid)
      src = lane;
    int64_t srcThread = base + src;
    if (valid && (srcThread >= nt || !active[srcThread]))
      return fail(inst, l,
                  "shuffle reads lane " + std::to_string(src) +
                      " which is inactive or outside the block");
    R(inst.out[0], l) = R(inst.in[0], srcThread);
    R(inst.out[1], l) = valid ? 1 : 0;
  }
  return success();
}

/// nvgpu.mma.sync m16n8k8, tf32 x tf32 + f32, per warp, with the PTX
/// fragment layouts (groupID = lane / 4, tig = lane % 4):
///   A (16x8): a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4)
///   B (8x8):  b0 (t, g), b1 (t+4, g)
///   C/D (16x8): c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8, 2t+1)
/// The operands' low 13 mantissa bits are ignored (as the tensor cores do:
/// only the top 19 bits are used; operands pre-rounded with
/// cvt.rna.tf32.f32 already have them zero);
/// the products are exact and summed in double, rounded once to f32.
LogicalResult BlockExecutor::execMma(const Inst &inst,
                                     const std::vector<int> &lanes) {
  std::vector<int> count((nt + 31) / 32, 0);
  for (int l : lanes)
    ++count[l / 32];
  auto tf32 = [](uint64_t bits) {
    return static_cast<double>(asF(bits & 0xFFFFE000u));
  };
  for (size_t w = 0; w < count.size(); ++w) {
    if (count[w] == 0)
      continue;
    if (count[w] != 32)
      return fail(inst, static_cast<int>(w * 32),
                  "nvgpu.mma.sync executed by " + std::to_string(count[w]) +
                      " of the 32 lanes of a warp");
    double A[16][8], B[8][8], C[16][8];
    for (int lane = 0; lane < 32; ++lane) {
      int l = static_cast<int>(w * 32) + lane, g = lane >> 2, t = lane & 3;
      A[g][t] = tf32(R(inst.in[0], l));
      A[g + 8][t] = tf32(R(inst.in[1], l));
      A[g][t + 4] = tf32(R(inst.in[2], l));
      A[g + 8][t + 4] = tf32(R(inst.in[3], l));
      B[t][g] = tf32(R(inst.in[4], l));
      B[t + 4][g] = tf32(R(inst.in[5], l));
      C[g][2 * t] = F(inst.in[6], l);
      C[g][2 * t + 1] = F(inst.in[7], l);
      C[g + 8][2 * t] = F(inst.in[8], l);
      C[g + 8][2 * t + 1] = F(inst.in[9], l);
    }
    auto d = [&](int i, int j) {
      double s = C[i][j];
      for (int kk = 0; kk < 8; ++kk)
        s += A[i][kk] * B[kk][j];
      return fromF(static_cast<float>(s));
    };
    for (int lane = 0; lane < 32; ++lane) {
      int l = static_cast<int>(w * 32) + lane, g = lane >> 2, t = lane & 3;
      R(inst.out[0], l) = d(g, 2 * t);
      R(inst.out[1], l) = d(g, 2 * t + 1);
      R(inst.out[2], l) = d(g + 8, 2 * t);
      R(inst.out[3], l) = d(g + 8, 2 * t + 1);
    }
  }
  return success();
}

LogicalResult BlockExecutor::warpgroupsOf(const Inst &inst,
                                          const std::vector<int> &lanes,
                                          SmallVectorImpl<int> &wgs) {
  std::vector<int> count(wgGroups.size(), 0);
  for (int l : lanes)
    ++count[l / kWarpgroup];
  StringRef name = inst.op->getName().getStringRef();
  for (size_t g = 0; g < count.size(); ++g) {
    if (count[g] == 0)
      continue;
    int first = static_cast<int>(g) * kWarpgroup;
    if (first + kWarpgroup > nt)
      return fail(inst, first,
                  name + " executed by threads of an incomplete warpgroup " +
                      "(the block has " + std::to_string(nt) +
                      " threads; a warpgroup is 128 consecutive threads "
                      "from a multiple of 128)");
    if (count[g] != kWarpgroup)
      return fail(inst, first,
                  name + " executed by " + std::to_string(count[g]) +
                      " of the 128 threads of warpgroup " + std::to_string(g) +
                      " (a .sync.aligned warpgroup op: all of them execute "
                      "it together)");
    wgs.push_back(static_cast<int>(g));
  }
  return success();
}

LogicalResult BlockExecutor::wgmmaOperand(const Inst &inst, int wg, char name,
                                          uint64_t desc, int rows,
                                          std::vector<double> &vals,
                                          std::vector<int64_t> &words) {
  const int first = wg * kWarpgroup;
  const std::string what = std::string("wgmma descriptor ") + name + " (0x" +
                           llvm::utohexstr(desc) + ")";
  const uint64_t fields = 0x3FFFull | 0x3FFFull << 16 | 0x3FFFull << 32 |
                          0x7ull << 49 | 0x3ull << 62;
  if (uint64_t swizzle = desc >> 62)
    return fail(inst, first,
                what + " has swizzle mode " + std::to_string(swizzle) +
                    "; only 0 (no swizzle) is supported");
  if (uint64_t baseOffset = (desc >> 49) & 0x7)
    return fail(inst, first,
                what + " has matrix base offset " + std::to_string(baseOffset) +
                    "; only 0 is supported");
  if (desc & ~fields)
    return fail(inst, first, what + " has reserved bits set");
  const int64_t start = static_cast<int64_t>(desc & 0x3FFF) << 4;
  const int64_t lbo = static_cast<int64_t>((desc >> 16) & 0x3FFF) << 4;
  const int64_t sbo = static_cast<int64_t>((desc >> 32) & 0x3FFF) << 4;
  vals.resize(static_cast<size_t>(rows) * 8);
  for (int i = 0; i < rows; ++i)
    for (int kk = 0; kk < 8; ++kk) {
      // Every term is a multiple of 4: the words are aligned.
      int64_t addr =
          start + (kk / 4) * lbo + (i / 8) * sbo + (i % 8) * 16 + (kk % 4) * 4;
      int64_t off = addr - kSmemWindowBase;
      if (off < 0 || off + 4 > smemBytes)
        return fail(inst, first,
                    "wgmma operand " + std::string(1, name) + " element (" +
                        std::to_string(i) + ", " + std::to_string(kk) +
                        ") at shared address " + std::to_string(addr) +
                        " is outside the dynamic shared memory [" +
                        std::to_string(kSmemWindowBase) + ", " +
                        std::to_string(kSmemWindowBase + smemBytes) + ") (" +
                        what + ": start " + std::to_string(start) + ", LBO " +
                        std::to_string(lbo) + ", SBO " + std::to_string(sbo) +
                        ")");
      int64_t w = off / 4;
      vals[static_cast<size_t>(i) * 8 + kk] =
          static_cast<double>(asF(fromF(smem[w]) & 0xFFFFE000u));
      words.push_back(w);
    }
  return success();
}

/// nvvm.wgmma.mma_async m64nNk8, tf32 x tf32 + f32 (wgmma.mma_async.sync.
/// aligned.m64nNk8.f32.tf32.tf32), issued by whole warpgroups (128
/// consecutive threads from a multiple of 128), each with one pair of
/// descriptors for all its threads. A descriptor: bits [0, 14) start
/// address >> 4 (shared window, 18 bits), [16, 30) LBO >> 4, [32, 46)
/// SBO >> 4, [49, 52) base offset (0), [62, 64) swizzle mode (0: none).
/// Without swizzle, K-major, element (i, k) of A (64x8, i = m) or B (Nx8,
/// i = n) is the f32 at start + (k / 4) * LBO + (i / 8) * SBO + (i % 8) * 16
/// + (k % 4) * 4 (8x16-byte core matrices). D[m][n] = (scale-d ? C[m][n] :
/// 0) + sum_k A[m][k] * B[n][k], with operands and rounding as in execMma.
/// Accumulator fragment: lane l of warp w = (tid / 32) % 4 holds element
/// 4j + q = D(16w + l/4 + 8(q/2), 8j + 2(l%4) + q%2).
///
/// The operands are read at issue and the results written to the registers
/// then; the words read stay pending until a wait retires the wgmma's group
/// (a store to them before is reported), and become reads by the warpgroup
/// at the wait. Every word read must be initialised, not the destination
/// of a pending cp.async, not written since the last barrier, and its
/// writer must have executed nvvm.fence.proxy (async.shared) after the write
/// and before the next barrier (the tensor cores read through the async
/// proxy; a cp.async completion counts as a generic write of its thread).
LogicalResult BlockExecutor::execWgmma(const Inst &inst,
                                       const std::vector<int> &lanes) {
  SmallVector<int, 8> wgs;
  if (failed(warpgroupsOf(inst, lanes, wgs)))
    return failure();
  const int n = static_cast<int>(inst.imm);
  const int accBase = 2;
  std::vector<double> a, b;
  for (int g : wgs) {
    const int first = g * kWarpgroup;
    const uint64_t descA = R(inst.in[0], first), descB = R(inst.in[1], first);
    for (int l = first; l < first + kWarpgroup; ++l)
      if (R(inst.in[0], l) != descA || R(inst.in[1], l) != descB)
        return fail(
            inst, l,
            "wgmma descriptors differ within warpgroup " + std::to_string(g) +
                ": A 0x" + llvm::utohexstr(R(inst.in[0], l)) + ", B 0x" +
                llvm::utohexstr(R(inst.in[1], l)) + " here, A 0x" +
                llvm::utohexstr(descA) + ", B 0x" + llvm::utohexstr(descB) +
                " in thread " + threadName(first));
    if (!wgFenced[g] &&
        failed(violation(inst, first,
                         "nvvm.wgmma.mma_async of warpgroup " +
                             std::to_string(g) +
                             " without an earlier nvvm.wgmma.fence.aligned")))
      return failure();
    std::vector<int64_t> words;
    if (failed(wgmmaOperand(inst, g, 'A', descA, 64, a, words)) ||
        failed(wgmmaOperand(inst, g, 'B', descB, n, b, words)))
      return failure();
    for (int64_t w : words) {
      const std::string word = "shared memory word " + std::to_string(w);
      LogicalResult ok = success();
      if (sPending[w] > 0)
        ok = violation(inst, first,
                       "wgmma (nvvm.wgmma.mma_async) read of " + word +
                           " while thread " + threadName(sPendLane[w]) +
                           "'s cp.async (nvgpu.device_async_copy) to it is "
                           "pending");
      else if (!sInit[w])
        ok = violation(inst, first,
                       "read of uninitialised shared memory (word " +
                           std::to_string(w) +
                           ") by a wgmma (nvvm.wgmma.mma_async)");
      else if (sWEpoch[w] == epoch)
        ok = violation(inst, first,
                       "shared memory race: word " + std::to_string(w) +
                           " written by thread " + threadName(sWriter[w]) +
                           " without a barrier before a wgmma "
                           "(nvvm.wgmma.mma_async) reads it");
      else if (fencesBy(sWriter[w], sWEpoch[w]) == sWFence[w])
        ok = violation(inst, first,
                       word + " written by thread " + threadName(sWriter[w]) +
                           " is read by a wgmma (nvvm.wgmma.mma_async, async "
                           "proxy) without an nvvm.fence.proxy (async.shared) "
                           "of that thread between the write and the next "
                           "barrier");
      if (failed(ok))
        return failure();
    }
    for (int li = 0; li < kWarpgroup; ++li) {
      const int l = first + li, warp = li / 32, lane = li % 32;
      for (int j = 0; j < n / 8; ++j)
        for (int q = 0; q < 4; ++q) {
          int row = 16 * warp + lane / 4 + 8 * (q / 2);
          int col = 8 * j + 2 * (lane % 4) + q % 2;
          int e = 4 * j + q;
          double s =
              inst.pred ? static_cast<double>(F(inst.in[accBase + e], l)) : 0.0;
          for (int kk = 0; kk < 8; ++kk)
            s += a[static_cast<size_t>(row) * 8 + kk] *
                 b[static_cast<size_t>(col) * 8 + kk];
          R(inst.out[e], l) = fromF(static_cast<float>(s));
        }
    }
    for (int64_t w : words) {
      ++sWgPending[w];
      sWgPendGroup[w] = g;
    }
    wgUncommitted[g].push_back(std::move(words));
  }
  return success();
}

void BlockExecutor::retireWgmma(int wg,
                                std::vector<std::vector<int64_t>> &group) {
  const int32_t reader = -3 - wg;
  for (const std::vector<int64_t> &words : group)
    for (int64_t w : words) {
      --sWgPending[w];
      if (sREpoch[w] != epoch) {
        sREpoch[w] = epoch;
        sReader[w] = reader;
      } else if (sReader[w] != reader) {
        sReader[w] = -2; // several readers
      }
    }
}

//===----------------------------------------------------------------------===//
// Host functions
//===----------------------------------------------------------------------===//

LogicalResult runLaunch(gpu::LaunchFuncOp launch, bool keepGoing,
                        DenseMap<Value, int64_t> &ints, func::FuncOp host,
                        std::vector<Buffer> &args,
                        DenseMap<Value, std::pair<Buffer *, int>> &workspaces,
                        DenseMap<Operation *, std::unique_ptr<Kernel>> &kernels,
                        Stats &stats, std::string &error) {
  auto hostFail = [&](const Twine &msg) {
    error = ("simulator: " + msg + ": " + describe(launch)).str();
    return failure();
  };
  auto gpuFunc = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
      launch, launch.getKernel());
  if (!gpuFunc)
    return hostFail("launched kernel not found");
  std::unique_ptr<Kernel> &kp = kernels[gpuFunc];
  if (!kp) {
    kp = std::make_unique<Kernel>();
    kp->func = gpuFunc;
    if (failed(Compiler(*kp, error).compile()))
      return failure();
  }
  Kernel &k = *kp;
  auto valueOf = [&](Value v, int64_t &out) {
    auto it = ints.find(v);
    if (it == ints.end())
      return false;
    out = it->second;
    return true;
  };
  int64_t grid[3], block[3], smemBytes = 0;
  gpu::KernelDim3 g = launch.getGridSizeOperandValues();
  gpu::KernelDim3 b = launch.getBlockSizeOperandValues();
  Value gv[3] = {g.x, g.y, g.z}, bv[3] = {b.x, b.y, b.z};
  for (int i = 0; i < 3; ++i)
    if (!valueOf(gv[i], grid[i]) || !valueOf(bv[i], block[i]) ||
        grid[i] < 1 || block[i] < 1)
      return hostFail("grid or block size is not a positive constant");
  if (Value s = launch.getDynamicSharedMemorySize())
    if (!valueOf(s, smemBytes) || smemBytes < 0)
      return hostFail("dynamic shared memory size is not a constant");
  int64_t nt = block[0] * block[1] * block[2];
  if (nt > 1024)
    return hostFail("more than 1024 threads per block");
  if (smemBytes > 232448)
    return hostFail("more than 227 KiB of dynamic shared memory");
  if (k.knownBlock >= 0 && k.knownBlock != nt)
    return hostFail("block size differs from the kernel's known_block_size");
  if (launch.getClusterSizeX() || launch.getAsyncToken())
    return hostFail("clusters / async launches are not supported");
  std::vector<Buffer *> bufs;
  SmallVector<int> argIdx;
  for (Value v : launch.getKernelOperands()) {
    if (auto it = workspaces.find(v); it != workspaces.end()) {
      bufs.push_back(it->second.first);
      argIdx.push_back(it->second.second);
      continue;
    }
    auto ba = dyn_cast<BlockArgument>(v);
    if (!ba || ba.getOwner() != &host.getBody().front())
      return hostFail("kernel operand is neither an argument of the host "
                      "function nor a live workspace (memref.alloc)");
    bufs.push_back(&args[ba.getArgNumber()]);
    argIdx.push_back(ba.getArgNumber());
  }
  if (bufs.size() != k.argSlots.size())
    return hostFail("argument count mismatch");
  for (auto [i, a] : llvm::enumerate(gpuFunc.getArguments())) {
    auto mt = cast<MemRefType>(a.getType());
    if (mt.getNumElements() > static_cast<int64_t>(bufs[i]->data.size()))
      return hostFail("buffer of kernel argument " + std::to_string(i) +
                      " is smaller than its type");
  }
  GlobalWriters writers(bufs);
  ++stats.launches;
  stats.threadsPerBlockMax = std::max(stats.threadsPerBlockMax, nt);
  stats.sharedBytesMax = std::max(stats.sharedBytesMax, smemBytes);
  if (k.clusterX == 1) {
    BlockExecutor exec(k, bufs, argIdx, grid, block, smemBytes, keepGoing,
                       stats, error, writers);
    for (int64_t z = 0; z < grid[2]; ++z)
      for (int64_t y = 0; y < grid[1]; ++y)
        for (int64_t x = 0; x < grid[0]; ++x) {
          ++stats.blocks;
          if (failed(exec.runBlock(x, y, z)))
            return failure();
        }
    return success();
  }
  // Clusters: the blocks of one cluster run on one host thread each, one
  // at a time (ClusterState), so that a cluster barrier can stop a block.
  const int64_t cx = k.clusterX;
  if (grid[0] % cx != 0)
    return hostFail("grid x (" + std::to_string(grid[0]) +
                    ") is not a multiple of the cluster size (" +
                    std::to_string(cx) + ")");
  ClusterState state;
  std::vector<Stats> blockStats(cx);
  std::vector<std::string> errors(cx);
  std::vector<std::unique_ptr<BlockExecutor>> execs;
  for (int64_t r = 0; r < cx; ++r) {
    execs.push_back(std::make_unique<BlockExecutor>(
        k, bufs, argIdx, grid, block, smemBytes, keepGoing, blockStats[r],
        errors[r], writers));
    execs.back()->joinCluster(&state, static_cast<int>(r));
    state.blocks.push_back(execs.back().get());
  }
  auto merge = [&] {
    for (Stats &s : blockStats) {
      stats.instructions += s.instructions;
      if (s.violations && stats.violations == 0)
        stats.firstViolation = s.firstViolation;
      stats.violations += s.violations;
      s = Stats();
    }
  };
  for (int64_t z = 0; z < grid[2]; ++z)
    for (int64_t y = 0; y < grid[1]; ++y)
      for (int64_t x = 0; x < grid[0]; x += cx) {
        state.reset();
        std::vector<char> ok(cx, 0);
        std::vector<std::thread> threads;
        for (int64_t r = 1; r < cx; ++r)
          threads.emplace_back(
              [&, r] { ok[r] = succeeded(execs[r]->runBlock(x + r, y, z)); });
        ok[0] = succeeded(execs[0]->runBlock(x, y, z));
        for (std::thread &t : threads)
          t.join();
        stats.blocks += cx;
        merge();
        // Report the block that failed first, not the ones it stopped.
        for (int64_t r = 0; r < cx; ++r)
          if (!ok[r] && errors[r].find("another block of the cluster") ==
                            std::string::npos) {
            error = errors[r];
            return failure();
          }
        for (int64_t r = 0; r < cx; ++r)
          if (!ok[r]) {
            error = errors[r];
            return failure();
          }
      }
  return success();
}

} // namespace

LogicalResult sim::run(ModuleOp module, func::FuncOp host,
                       std::vector<Buffer> &args, Stats &stats,
                       std::string &error, bool keepGoing) {
  (void)module;
  if (host.isExternal() || !host.getBody().hasOneBlock()) {
    error = "simulator: host function must have one block";
    return failure();
  }
  Block &body = host.getBody().front();
  if (args.size() != body.getNumArguments()) {
    error = "simulator: wrong number of buffers for the host function";
    return failure();
  }
  for (auto [i, a] : llvm::enumerate(body.getArguments())) {
    auto mt = dyn_cast<MemRefType>(a.getType());
    if (!mt || !mt.getElementType().isF32() ||
        std::vector<int64_t>(mt.getShape().begin(), mt.getShape().end()) !=
            args[i].shape) {
      error = "simulator: buffer " + std::to_string(i) +
              " does not match the host function's argument type";
      return failure();
    }
    args[i].written.resize(args[i].data.size(), 0);
  }
  DenseMap<Value, int64_t> ints;
  DenseMap<Operation *, std::unique_ptr<Kernel>> kernels;
  // Workspaces (memref.alloc ... memref.dealloc): uninitialised f32 buffers
  // numbered after the arguments; NaN-filled so that a read before any
  // write shows up in the results.
  std::deque<Buffer> workspaceStore;
  DenseMap<Value, std::pair<Buffer *, int>> workspaces;
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType mt = alloc.getType();
      if (!mt.hasStaticShape() || !mt.getElementType().isF32() ||
          !alloc.getDynamicSizes().empty()) {
        error = "simulator: only static f32 memref.alloc workspaces";
        return failure();
      }
      Buffer &ws = workspaceStore.emplace_back();
      ws.shape.assign(mt.getShape().begin(), mt.getShape().end());
      ws.data.assign(mt.getNumElements(), std::nanf(""));
      ws.written.assign(mt.getNumElements(), 0);
      workspaces[alloc.getResult()] = {
          &ws, static_cast<int>(args.size() + workspaceStore.size() - 1)};
      continue;
    }
    // A view of an argument or workspace in another static shape: the
    // launch binds the same buffer (kernels index it in their argument's
    // shape).
    if (auto view = dyn_cast<memref::ReinterpretCastOp>(op)) {
      Value src = view.getSource();
      auto it = workspaces.find(src);
      auto ba = dyn_cast<BlockArgument>(src);
      if (it != workspaces.end()) {
        workspaces[view.getResult()] = it->second;
      } else if (ba && ba.getOwner() == &body) {
        workspaces[view.getResult()] = {&args[ba.getArgNumber()],
                                        static_cast<int>(ba.getArgNumber())};
      } else {
        error = "simulator: memref.reinterpret_cast of a value that is "
                "neither an argument nor a live workspace";
        return failure();
      }
      if (view.getType().getNumElements() >
          static_cast<int64_t>(workspaces[view.getResult()].first->data.size())) {
        error = "simulator: memref.reinterpret_cast larger than its buffer";
        return failure();
      }
      continue;
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      if (!workspaces.erase(dealloc.getMemref())) {
        error = "simulator: memref.dealloc of a value that is not a live "
                "workspace";
        return failure();
      }
      continue;
    }
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      if (auto ia = dyn_cast<IntegerAttr>(c.getValue()))
        ints[c.getResult()] = ia.getValue().getSExtValue();
      continue; // other constants are unused by launches
    }
    if (auto l = dyn_cast<gpu::LaunchFuncOp>(op)) {
      if (failed(runLaunch(l, keepGoing, ints, host, args, workspaces, kernels,
                           stats, error)))
        return failure();
      continue;
    }
    if (isa<func::ReturnOp>(op))
      return success();
    error = "simulator: unsupported host op " + describe(&op);
    return failure();
  }
  return success();
}
