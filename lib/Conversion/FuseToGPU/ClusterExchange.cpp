//===- ClusterExchange.cpp - thread block clusters ------------------------===//
//
// A channel softmax (or log_softmax) whose channels span `clusterC` blocks
// runs them as one thread block cluster (the channel tiles of one tile,
// consecutive block ids). Every block arrives at a relaxed cluster barrier
// when it starts and waits on it before its first remote store; the blocks
// push their per-line partial statistics into every block's shared memory
// (distributed shared memory, `mapa`), meet at a cluster barrier and
// combine them.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

void emit::emitClusterStartArrive(EmitContext &cx) {
  NVVM::ClusterArriveRelaxedOp::create(cx.b, cx.b.getUnitAttr());
  cx.clusterStartWaitDue = true;
}

void emit::emitClusterStartWait(EmitContext &cx) {
  if (!cx.clusterStartWaitDue)
    return;
  NVVM::ClusterWaitOp::create(cx.b, cx.b.getUnitAttr());
  cx.clusterStartWaitDue = false;
}

void emit::emitStoreClusterShared(EmitContext &cx, Value v, Value offset,
                                  int64_t rank) {
  EmitBuilder &b = cx.b;
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto ptr7 = LLVM::LLVMPointerType::get(b.getContext(), 7);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, cx.smem);
  Value addr = arith::IndexCastOp::create(b, b.getI64Type(),
                                          b.add(base, b.mul(offset, 4)));
  Value local = LLVM::IntToPtrOp::create(b, ptr3, addr);
  Value remote = NVVM::MapaOp::create(
      b, ptr7, local,
      arith::ConstantOp::create(b, b.getI32IntegerAttr(rank)).getResult());
  LLVM::StoreOp::create(b, v, remote);
}

void emit::emitCombineClusterStatistics(EmitContext &cx, int64_t ordinal,
                                        int64_t numLines, int64_t lineWidth) {
  EmitBuilder &b = cx.b;
  const ConvGeometry &g = cx.g;
  // Every block's statistics stores (release) have landed (acquire) once
  // all blocks arrived.
  NVVM::ClusterArriveOp::create(b, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, b.getUnitAttr());
  const int64_t blocks = cx.cfg.getClusterC();
  auto loop =
      scf::ForOp::create(b, b.c(0), b.c(numLines), b.c(cx.launch.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value line = b.add(loop.getInductionVar(), cx.tid);
  Value rr = b.divu(line, lineWidth), pos = b.remu(line, lineWidth);
  Value valid =
      b.andI(b.ult(line, numLines), b.andI(b.ult(b.add(cx.ow0, pos), g.out[2]),
                                           b.ult(cx.rowHeight(rr), g.out[1])));
  auto ifValid = scf::IfOp::create(b, TypeRange{}, valid, false);
  b.setInsertionPointToStart(&ifValid.getThenRegion().front());
  // max over the cluster, then sum_j s_j exp(m_j - max); this block's
  // factor is exp(m_own - max) / sum. (A block has at least one channel:
  // clusterC is the number of channel tiles.)
  SmallVector<Value, 8> m, s;
  for (int64_t j = 0; j < blocks; ++j) {
    m.push_back(cx.sload(b.add(line, cx.statsArray(ordinal, j))));
    s.push_back(cx.sload(b.add(line, cx.statsArray(ordinal, blocks + j))));
  }
  Value mx = m[0];
  for (int64_t j = 1; j < blocks; ++j)
    mx = arith::MaximumFOp::create(b, mx, m[j]);
  auto expOf = [&](Value x) -> Value {
    return math::ExpOp::create(b, arith::SubFOp::create(b, x, mx));
  };
  Value sum = b.f(0.0);
  for (int64_t j = 0; j < blocks; ++j)
    sum = math::FmaOp::create(b, s[j], expOf(m[j]), sum);
  Value own = m[0];
  for (int64_t j = 1; j < blocks; ++j)
    own = arith::SelectOp::create(
        b, b.cmp(arith::CmpIPredicate::eq, cx.clusterRank, b.c(j)), m[j], own);
  // The log form's tile holds x - own (x - 0 where own is -inf, as its
  // sum was taken): it subtracts (max - own) + log(sum).
  Value factor;
  if (cast<NormalizationOpInterface>(cx.a.reductions[ordinal])
          .getSoftmaxForm() == SoftmaxForm::Log) {
    factor = arith::AddFOp::create(
        b, arith::SubFOp::create(b, mx, emitExpShift(b, own)),
        math::LogOp::create(b, sum));
  } else {
    factor = arith::DivFOp::create(b, expOf(own), sum);
  }
  cx.sstore(factor, b.add(line, cx.statsArray(ordinal, 2 * blocks)));
}
