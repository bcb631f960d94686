//===- SimTranslate.cpp - a gpu.func into simulator instructions ----------===//
//
// A gpu.func becomes a small tree of instructions over value slots (one
// register per thread per SSA value; vectors and all-f32 structs take one
// slot per element). Everything the executor does not model is rejected
// here, with the op and why.
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/StringSwitch.h"

namespace fusecc::sim::detail {

std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << op->getName() << "' (";
  op->print(os, OpPrintingFlags().skipRegions().elideLargeElementsAttrs());
  os << ") at " << op->getLoc();
  return s;
}

namespace {

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
          !isSimFloat(mt.getElementType()))
        return fail(k.func, "kernel argument is not a static identity-layout "
                            "f32, bf16 or f16 memref");
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
    // bf16/f16 values (loaded from half storage or rounded by
    // arith.truncf) are held as the f32 of the same value.
    if (isSimFloat(t))
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
    // f32, or bf16 / f16 of half storage (a convolution's half operands,
    // its half result: FormKernels' isHalfStoreCast), each value held as
    // the f32 of the same value (a stored one rounded by arith.truncf).
    Type elem = op.getMemRefType().getElementType();
    bool half = elem.isBF16() || elem.isF16();
    if (!(elem.isF32() || half) || vt.getRank() != 1 ||
        vt.getElementType() != elem || vt.isScalable())
      return fail(op, "only 1-D f32 " + name +
                          " of an f32 memref (or a bf16/f16 one of a memref "
                          "of that type) is supported");
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
            vector::FromElementsOp, vector::BroadcastOp, nvgpu::MmaSyncOp,
            NVVM::MmaOp, LLVM::BitcastOp, arith::TruncFOp, arith::ExtFOp>(op);
    bool structAware =
        isa<arith::SelectOp, scf::ForOp, scf::IfOp, LLVM::UndefOp,
            LLVM::PoisonOp, LLVM::InsertValueOp, LLVM::ExtractValueOp,
            NVVM::WgmmaMmaAsyncOp, NVVM::MmaOp>(op);
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
    if (op.getNumResults() == 1 &&
        !isa<MemRefType>(op.getResult(0).getType())) {
      int w = widthOf(op.getResult(0).getType());
      inst.isFloat = w == 0;
      inst.width = w == 0 ? 32 : w;
    }
    if (op.getNumOperands() >= 1 &&
        !isa<MemRefType>(op.getOperand(0).getType())) {
      int w = widthOf(op.getOperand(0).getType());
      if (w > 0)
        inst.srcWidth = w;
    }

    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      inst.opc = Opc::ConstBits;
      // bf16/f16 constants (a staged input's zeros) are held, as every
      // half value, as the f32 of the same value (exact).
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (dense && isa<VectorType>(c.getType()) && dense.isSplat() &&
          (dense.getElementType().isF32() ||
           isSimFloat(dense.getElementType()))) {
        inst.imm = fromF(static_cast<float>(
            dense.getSplatValue<APFloat>().convertToDouble()));
      } else if (auto fa = dyn_cast<FloatAttr>(c.getValue())) {
        if (!fa.getType().isF32() && !isSimFloat(fa.getType()))
          return fail(&op, "non-f32 float constant");
        inst.imm = fromF(static_cast<float>(fa.getValueAsDouble()));
      } else if (auto ia = dyn_cast<IntegerAttr>(c.getValue())) {
        int w = widthOf(ia.getType());
        inst.imm =
            static_cast<uint64_t>(norm(w == 1 ? ia.getValue().getZExtValue()
                                              : ia.getValue().getSExtValue(),
                                       w));
      } else {
        return fail(&op, "unsupported constant (only f32/bf16/f16 floats and "
                         "splats, int, index)");
      }
    } else if (isa<vector::FromElementsOp>(op)) {
      inst.opc = Opc::Copy;
    } else if (auto bc = dyn_cast<vector::BroadcastOp>(op)) {
      // A scalar splat (an empty block's line value, EmptyBlocks.cpp): the
      // scalar's slot copied to each element.
      inst.opc = Opc::Copy;
      if (isa<VectorType>(bc.getSourceType()))
        return fail(&op, "only vector.broadcast of a scalar is supported");
      inst.in.assign(inst.out.size(), inst.in.front());
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
    } else if (auto m = dyn_cast<NVVM::MmaOp>(op)) {
      // mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32: in
      // = A (4 i32 of packed bf16 pairs, or 4 x 2 f16), B (2 i32 or 2 x 2
      // f16), C (4 f32); out = D (4 f32). pred 1: bf16, 2: f16.
      inst.opc = Opc::Mma;
      NVVM::MMAShapeAttr shape = m.getShapeAttr();
      std::optional<NVVM::MMATypes> ta = m.getMultiplicandAPtxType(),
                                    tb = m.getMultiplicandBPtxType();
      bool bf16 = ta == NVVM::MMATypes::bf16 && tb == NVVM::MMATypes::bf16;
      bool f16 = ta == NVVM::MMATypes::f16 && tb == NVVM::MMATypes::f16;
      if (shape.getM() != 16 || shape.getN() != 8 || shape.getK() != 16 ||
          !(bf16 || f16) || m.getLayoutA() != NVVM::MMALayout::row ||
          m.getLayoutB() != NVVM::MMALayout::col ||
          inst.in.size() != (bf16 ? 10u : 16u) || inst.out.size() != 4 ||
          !llvm::all_of(m.getOperandC(),
                        [](Value v) { return v.getType().isF32(); }))
        return fail(&op, "only nvvm.mma.sync m16n8k16 row.col with bf16 or "
                         "f16 operands and f32 accumulators is supported");
      inst.pred = bf16 ? 1 : 2;
    } else if (auto bc = dyn_cast<LLVM::BitcastOp>(op)) {
      // A bf16 pair packed into one MMA register: the first element in
      // the low 16 bits.
      inst.opc = Opc::Bitcast;
      auto vt = dyn_cast<VectorType>(bc.getArg().getType());
      if (!vt || vt.getShape() != ArrayRef<int64_t>{2} ||
          !(vt.getElementType().isBF16() || vt.getElementType().isF16()) ||
          !bc.getType().isInteger(32))
        return fail(&op, "only llvm.bitcast vector<2xbf16> or vector<2xf16> "
                         "-> i32 is supported");
      inst.pred = vt.getElementType().isBF16() ? 2 : 3;
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
      inst.opc = Opc::AlignedPointer;
      if (!ep.getSource().getDefiningOp<memref::ViewOp>() &&
          !isa<BlockArgument>(ep.getSource()))
        return fail(&op, "memref.extract_aligned_pointer_as_index is only "
                         "supported on a memref.view of "
                         "gpu.dynamic_shared_memory or a kernel argument");
    } else if (isa<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp>(op)) {
      inst.opc = Opc::ClusterArrive;
      inst.pred = isa<NVVM::ClusterArriveRelaxedOp>(op) ? 1 : 0;
    } else if (isa<NVVM::ClusterWaitOp>(op)) {
      inst.opc = Opc::ClusterWait;
    } else if (auto ip = dyn_cast<LLVM::IntToPtrOp>(op)) {
      // Pointers are their addresses (shared window, or kGlobalShift).
      inst.opc = Opc::Copy;
      unsigned space =
          cast<LLVM::LLVMPointerType>(ip.getType()).getAddressSpace();
      if ((space != 3 && space != 0) || !ip.getArg().getType().isInteger(64))
        return fail(&op, "only llvm.inttoptr of an i64 address to "
                         "!llvm.ptr<3> (shared window) or !llvm.ptr "
                         "(generic) is supported");
    } else if (auto ac = dyn_cast<LLVM::AddrSpaceCastOp>(op)) {
      inst.opc = Opc::Copy;
      if (cast<LLVM::LLVMPointerType>(ac.getArg().getType())
                  .getAddressSpace() != 0 ||
          cast<LLVM::LLVMPointerType>(ac.getType()).getAddressSpace() != 1)
        return fail(&op, "only llvm.addrspacecast of !llvm.ptr (generic) to "
                         "!llvm.ptr<1> (global) is supported");
    } else if (auto bs = dyn_cast<NVVM::CpAsyncBulkSharedCTAToGlobalOp>(op)) {
      inst.opc = Opc::BulkStore;
      if (bs.getL2CacheHint() || bs.getByteMask())
        return fail(&op, "nvvm.cp.async.bulk.global.shared.cta with an "
                         "l2_cache_hint or byte_mask is not supported");
    } else if (isa<NVVM::CpAsyncBulkCommitGroupOp>(op)) {
      inst.opc = Opc::BulkCommit;
    } else if (auto bw = dyn_cast<NVVM::CpAsyncBulkWaitGroupOp>(op)) {
      inst.opc = Opc::BulkWait;
      inst.imm = bw.getGroup();
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
      // wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32 (or m64nNk16
      // .f32.bf16.bf16 / .f16.f16): in = descA,
      // descB, then the N/2 accumulators; imm = N, pred = scale-d.
      inst.opc = Opc::Wgmma;
      // Half operands (m64nNk16, bf16 or f16, packed pairs): memId 1, 2.
      NVVM::MMAShapeAttr shape = wg.getShape();
      int n = shape.getN();
      const NVVM::WGMMATypes ta = wg.getTypeA();
      const bool half =
          ta == NVVM::WGMMATypes::bf16 || ta == NVVM::WGMMATypes::f16;
      inst.memId = ta == NVVM::WGMMATypes::bf16  ? 1
                   : ta == NVVM::WGMMATypes::f16 ? 2
                                                 : 0;
      if (shape.getM() != 64 || shape.getK() != (half ? 16 : 8) ||
          n % 8 != 0 || n < 8 || n > 256 ||
          !(ta == NVVM::WGMMATypes::tf32 || half) || wg.getTypeB() != ta ||
          wg.getTypeD() != NVVM::WGMMATypes::f32 ||
          wg.getScaleA() != NVVM::WGMMAScaleIn::one ||
          wg.getScaleB() != NVVM::WGMMAScaleIn::one ||
          wg.getLayoutA() != NVVM::MMALayout::row ||
          wg.getLayoutB() != NVVM::MMALayout::col || wg.getSatfinite() ||
          f32StructSize(wg.getInouts().getType()) != n / 2)
        return fail(&op, "only nvvm.wgmma.mma_async m64nNk8 with tf32 or "
                         "m64nNk16 with bf16 / f16 A (row) and B (col) "
                         "operands from shared memory descriptors (N a "
                         "multiple of 8 up to 256), f32 accumulators, "
                         "unscaled inputs, is supported");
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
      // f32, or the 2-byte elements of a tile of halves (chooseHalfTile).
      Type elem = mt.getElementType();
      if (!mt.hasStaticShape() ||
          !(elem.isF32() || elem.isBF16() || elem.isF16()) ||
          !mt.getLayout().isIdentity())
        return fail(&op, "view to a non-static or non-f32/bf16/f16 memref");
      if (!v.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
        return fail(&op, "view of something other than dynamic shared memory");
      inst.memId = k.numViews++;
    } else if (auto l = dyn_cast<memref::LoadOp>(op)) {
      inst.opc = Opc::Load;
      if (!isSimFloat(l.getMemRefType().getElementType()))
        return fail(&op, "load of a non-float element (f32, bf16, f16)");
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
      case NVVM::FPRoundingMode::RNA:
        inst.pred = 0;
        break;
      case NVVM::FPRoundingMode::RN:
        inst.pred = 1;
        break;
      case NVVM::FPRoundingMode::RZ:
        inst.pred = 2;
        break;
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
      if (!isSimFloat(s.getMemRefType().getElementType()))
        return fail(&op, "store of a non-float element (f32, bf16, f16)");
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
              // tanh.approx.f32 (fast epilogue math): relative error about
              // 2^-11, modelled as the rounded tanh.
              .Case("llvm.intr.tanh", Opc::Tanh)
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
      // Float ops: f32 only; half values only through the width
      // conversions (arith.extf bf16/f16 -> f32 is exact; arith.truncf
      // f32 -> bf16/f16 rounds to nearest even: pred 0 bf16, 1 f16).
      bool floatOp =
          *opc == Opc::Ex2ApproxFtz || *opc == Opc::Tanh ||
          op.getName().getStringRef().starts_with("math.") ||
          (op.getName().getStringRef().ends_with("f") && *opc != Opc::ExtF &&
           *opc != Opc::TruncF && *opc != Opc::SIToFP && *opc != Opc::UIToFP);
      if (*opc == Opc::ExtF || *opc == Opc::TruncF) {
        // Vectors element by element (a half intermediate's pairs widened
        // as they are staged, vector<2xbf16> -> vector<2xf32>).
        Type from = getElementTypeOrSelf(op.getOperand(0).getType()),
             to = getElementTypeOrSelf(op.getResult(0).getType());
        Type half = *opc == Opc::ExtF ? from : to;
        Type full = *opc == Opc::ExtF ? to : from;
        if (!full.isF32() || !(half.isBF16() || half.isF16()))
          return fail(&op, "only float width conversions between f32 and "
                           "bf16/f16 are supported");
        if (auto t = dyn_cast<arith::TruncFOp>(op))
          if (t.getRoundingmodeAttr() &&
              *t.getRoundingmode() != arith::RoundingMode::to_nearest_even)
            return fail(&op, "arith.truncf rounds to nearest even only");
        inst.pred = half.isF16() ? 1 : 0;
      }
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

} // namespace

LogicalResult compileKernel(Kernel &k, std::string &error) {
  return Compiler(k, error).compile();
}

} // namespace fusecc::sim::detail
