//===- SimBulkCopy.cpp - cp.async.bulk shared -> global copies ------------===//
//
// A bulk copy reads its shared-memory source through the async proxy and
// writes global memory at issue; the words it read stay pending until a
// wait_group of the issuing thread retires its group, and a store to them
// before that is reported, as is a kernel exit with copies not retired.
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

#include <cstring>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;
using namespace fusecc::sim::detail;

/// nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size: `size` bytes, a
/// positive multiple of 16, from shared-window address `src` to global
/// address `dst` (kGlobalShift), both 16-byte aligned. Every word read must
/// be initialised, not the destination of a pending cp.async, not written
/// since the last barrier, and fenced by its writer (nvvm.fence.proxy
/// async.shared) before that barrier, as for a wgmma.
LogicalResult BlockExecutor::bulkStore(const Inst &inst, int lane) {
  const uint64_t dst = R(inst.in[0], lane), src = R(inst.in[1], lane);
  const int64_t bytes = I(inst.in[2], lane);
  if (bytes <= 0 || bytes % 16 != 0)
    return fail(inst, lane,
                "bulk copy size " + std::to_string(bytes) +
                    " is not a positive multiple of 16 bytes");
  if (src < static_cast<uint64_t>(kSmemWindowBase) ||
      src + bytes > static_cast<uint64_t>(kSmemWindowBase + smemBytes))
    return fail(inst, lane,
                "bulk copy source [" + std::to_string(src) + ", +" +
                    std::to_string(bytes) +
                    ") is outside the block's shared memory");
  if (src % 16 != 0 || dst % 16 != 0)
    return fail(inst, lane,
                "misaligned bulk copy: source " + std::to_string(src) +
                    ", destination offset " +
                    std::to_string(dst & ((uint64_t(1) << kGlobalShift) - 1)) +
                    " (both must be multiples of 16 bytes)");
  const int64_t id = static_cast<int64_t>(dst >> kGlobalShift) - 1;
  if (id < 0 || id >= static_cast<int64_t>(mems.size()) ||
      mems[id].argIndex < 0)
    return fail(inst, lane,
                "bulk copy destination is not a kernel argument's global "
                "address");
  MemDesc *d = &mems[id];
  // A half destination (2-byte elements) takes each shared word as two
  // halves, the low one first (the bits packHalfWord packed).
  const int64_t eb = d->elemBytes;
  const int64_t first = static_cast<int64_t>(
      (dst & ((uint64_t(1) << kGlobalShift) - 1)) / eb);
  const int64_t words = bytes / 4, elems = bytes / eb;
  if (first + elems > d->size)
    return fail(inst, lane,
                "bulk copy of elements [" + std::to_string(first) + ", +" +
                    std::to_string(elems) + ") out of bounds of " + d->name +
                    " (" + std::to_string(d->size) + " elements)");
  const int64_t w0 = (static_cast<int64_t>(src) - kSmemWindowBase) / 4;
  for (int64_t i = 0; i < words; ++i) {
    const int64_t w = w0 + i;
    if (failed(asyncProxyRead(
            inst, lane, w, "bulk copy (nvvm.cp.async.bulk.global.shared.cta")))
      return failure();
    if (eb == 4) {
      if (failed(storeAt(inst, lane, d, first + i, smem[w])))
        return failure();
    } else {
      uint32_t bits;
      std::memcpy(&bits, &smem[w], sizeof bits);
      if (failed(storeAt(inst, lane, d, first + 2 * i,
                         halfFromBits(bits & 0xFFFF, d->f16))) ||
          failed(storeAt(inst, lane, d, first + 2 * i + 1,
                         halfFromBits(bits >> 16, d->f16))))
        return failure();
    }
    ++sBulkPending[w];
  }
  bulkUncommitted[lane].push_back({w0, words});
  return success();
}

LogicalResult BlockExecutor::execBulkCopy(const Inst &inst,
                                          const std::vector<int> &lanes) {
  switch (inst.opc) {
  case Opc::BulkStore:
    for (int l : lanes)
      if (failed(bulkStore(inst, l)))
        return failure();
    return success();
  case Opc::BulkCommit:
    // cp.async.bulk.commit_group: the thread's uncommitted copies (possibly
    // none) become one group.
    for (int l : lanes) {
      bulkGroups[l].push_back(std::move(bulkUncommitted[l]));
      bulkUncommitted[l].clear();
    }
    return success();
  case Opc::BulkWait:
    // cp.async.bulk.wait_group N: all but the N most recent groups retire;
    // uncommitted copies are not covered.
    for (int l : lanes) {
      if (!bulkUncommitted[l].empty() &&
          failed(violation(inst, l,
                           std::to_string(bulkUncommitted[l].size()) +
                               " uncommitted bulk copies at a "
                               "nvvm.cp.async.bulk.wait_group (no "
                               "nvvm.cp.async.bulk.commit.group before)")))
        return failure();
      while (bulkGroups[l].size() > inst.imm) {
        for (auto [first, count] : bulkGroups[l].front())
          for (int64_t w = first; w < first + count; ++w)
            --sBulkPending[w];
        bulkGroups[l].pop_front();
      }
    }
    return success();
  default:
    return fail(inst, -1, "internal error: not a bulk copy instruction");
  }
}
