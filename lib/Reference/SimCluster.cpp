//===- SimCluster.cpp - thread block clusters -----------------------------===//
//
// The blocks of a cluster run on one host thread each, one at a time
// (ClusterState), so that a cluster barrier can stop a block; stores to
// another block's shared memory (nvvm.mapa + llvm.store) must be ordered
// by cluster barriers before that block touches the word or exits.
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;
using namespace fusecc::sim::detail;

/// An access of shared word `w` by this block (`what`: "read" or
/// "store"): reports one that a cluster barrier does not order after
/// another block's store to `w`.
LogicalResult BlockExecutor::clusterAccess(const Inst &inst, int lane,
                                           int64_t w, StringRef what) {
  if (!cluster || sRemoteWrite[w] < 0 || sRemoteWrite[w] < waits)
    return success();
  return violation(inst, lane,
                   "distributed shared memory race: " + what.str() +
                       " of shared memory word " + std::to_string(w) +
                       " without a cluster barrier (arrive by the writer, "
                       "wait by this block) after cluster block " +
                       std::to_string(sRemoteWriter[w]) + " stored to it");
}

LogicalResult BlockExecutor::execMapa(const Inst &inst,
                                      const std::vector<int> &lanes) {
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
  // The aligned arrive (release) and wait (acquire) order every thread of
  // the cluster, so this block's own shared memory accesses before the
  // barrier come before those after it, as at a gpu.barrier. (clusterK:
  // block 0 reads its peers' fragments where its own threads staged the
  // main loop's last round; only the cluster barriers lie between.)
  endEpoch();
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
