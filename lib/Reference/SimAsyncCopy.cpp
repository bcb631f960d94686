//===- SimAsyncCopy.cpp - nvgpu cp.async copies, groups and waits ---------===//
//
// A copy reads its source at issue and writes its destination when the
// issuing thread's wait completes its commit group (see Simulator.h).
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;
using namespace fusecc::sim::detail;

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
                    std::to_string(dByte) +
                    " of shared memory is not a "
                    "multiple of the " +
                    std::to_string(bytes) + "-byte copy size");
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
                               std::to_string(w) +
                               " completes without a "
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

LogicalResult BlockExecutor::execAsyncCopy(const Inst &inst,
                                           const std::vector<int> &lanes) {
  switch (inst.opc) {
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
  default:
    break;
  }
  return fail(inst, -1, "internal error: unhandled instruction");
}
