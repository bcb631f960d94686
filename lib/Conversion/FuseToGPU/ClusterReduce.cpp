//===- ClusterReduce.cpp - a tile's reduction split over a cluster --------===//
//
// `clusterK = K > 1`: the K consecutive blocks of a thread block cluster
// compute the same output tile, block r taking main-loop rounds [r R / K,
// (r + 1) R / K) of the tile's R (`emitSplitRounds`; the round decoder adds
// the first, `EmitContext::roundBase`). After the main loop
// (`emitClusterReduce`) every block arrives at a cluster barrier (block 0's
// staging buffers are then dead), blocks 1 .. K - 1 store their f32
// accumulator fragments into block 0's shared memory (`mapa`; slot r - 1,
// element-major with the thread fastest: coalesced), a second barrier
// releases those stores, and block 0 adds them to its own fragments in
// rank order (a fixed summation order: deterministic results) and alone
// runs the epilogue; the others are done.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// f32 elements of the LLVM struct (or scalar) `t`.
static int64_t structElements(Type t) {
  if (auto s = dyn_cast<LLVM::LLVMStructType>(t))
    return s.getBody().size();
  return 1;
}

int64_t emit::clusterReduceWords(EmitContext &cx) {
  const int64_t k = cx.cfg.getClusterK();
  if (k <= 1)
    return 0;
  int64_t perThread = 0;
  for (int64_t p = 0; p < cx.wgmmaOwnPhases(); ++p)
    perThread += cx.wgmmaAccRows() * (cx.wgmmaAccN(p) / 2);
  return (k - 1) * perThread * cx.launch.threads;
}

Value emit::emitSplitRounds(EmitContext &cx, Value total) {
  EmitBuilder &b = cx.b;
  const int64_t k = cx.cfg.getClusterK();
  Value first = b.divu(b.mul(total, cx.clusterRank), k);
  Value end = b.divu(b.mul(total, b.add(cx.clusterRank, 1)), k);
  cx.roundBase = first;
  return b.sub(end, first);
}

SmallVector<Value> emit::emitClusterReduce(EmitContext &cx,
                                           ArrayRef<Value> acc) {
  EmitBuilder &b = cx.b;
  const int64_t k = cx.cfg.getClusterK();
  const int64_t threads = cx.launch.threads;
  int64_t perThread = 0;
  for (Value a : acc)
    perThread += structElements(a.getType());
  assert((k - 1) * perThread * threads <= cx.smemPlan.totalElems &&
         "the shared memory plan holds the peers' fragments");
  // Every block is done with its main loop (block 0's staging buffers are
  // free) and has started (its shared memory may be read).
  NVVM::ClusterArriveOp::create(b, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, b.getUnitAttr());
  Value leader = b.cmp(arith::CmpIPredicate::eq, cx.clusterRank, b.c(0));
  // Block r > 0: fragment element i into slot r - 1 of block 0.
  {
    auto ifPeer = scf::IfOp::create(
        b, TypeRange{}, b.cmp(arith::CmpIPredicate::ne, cx.clusterRank, b.c(0)),
        false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifPeer.getThenRegion().front());
    Value slot = b.mul(b.sub(cx.clusterRank, b.c(1)), b.c(perThread * threads));
    int64_t i = 0;
    for (Value a : acc)
      for (int64_t e = 0; e < structElements(a.getType()); ++e, ++i) {
        Value v = LLVM::ExtractValueOp::create(b, a, e);
        emitStoreClusterShared(cx, v, b.add(slot, b.add(cx.tid, i * threads)),
                               /*rank=*/0);
      }
  }
  // The peers' stores (released by their arrive) have landed in block 0
  // (acquired by its wait).
  NVVM::ClusterArriveOp::create(b, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, b.getUnitAttr());
  // Block 0 alone goes on: the rest of the kernel is emitted into this
  // branch.
  auto ifLeader = scf::IfOp::create(b, TypeRange{}, leader, false);
  b.setInsertionPointToStart(&ifLeader.getThenRegion().front());
  SmallVector<Value> sums;
  int64_t i = 0;
  for (Value a : acc) {
    Value sum = a;
    for (int64_t e = 0; e < structElements(a.getType()); ++e, ++i) {
      Value v = LLVM::ExtractValueOp::create(b, a, e);
      for (int64_t r = 1; r < k; ++r)
        v = arith::AddFOp::create(
            b, v,
            cx.sload(b.add(b.c((r - 1) * perThread * threads),
                           b.add(cx.tid, i * threads))));
      sum = LLVM::InsertValueOp::create(b, sum, v, e);
    }
    sums.push_back(sum);
  }
  return sums;
}
