//===- SimGpu.cpp - gpu ids, barriers, shuffles and return ----------------===//
//
// Thread, block and grid ids, gpu.barrier (every thread of the block, and
// the end of a barrier interval of the race model), gpu.shuffle within a
// warp, and gpu.return with the checks for work still pending at exit.
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;
using namespace fusecc::sim::detail;

/// Asynchronous operations a thread (or warpgroup) has not retired: its
/// uncommitted ones and those of its committed groups.
template <typename Ops, typename Groups>
static size_t pendingOps(const Ops &uncommitted, const Groups &groups) {
  size_t n = uncommitted.size();
  for (const auto &g : groups)
    n += g.size();
  return n;
}

void BlockExecutor::endEpoch() {
  for (int l = 0; l < nt; ++l)
    if (fenceCount[l] != fenceRecorded[l]) {
      fenceHistory[l].push_back({epoch, fenceCount[l]});
      fenceRecorded[l] = fenceCount[l];
    }
  ++epoch;
}

LogicalResult BlockExecutor::execGpu(const Inst &inst,
                                     const std::vector<int> &lanes) {
  auto dimOf = [&](const int64_t *v) {
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(v[inst.pred]);
    return success();
  };
  switch (inst.opc) {
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
  case Opc::Barrier:
    if (static_cast<int>(lanes.size()) != nt)
      return fail(inst, lanes.empty() ? -1 : lanes.front(),
                  "gpu.barrier reached by " + std::to_string(lanes.size()) +
                      " of " + std::to_string(nt) +
                      " threads (divergent barrier)");
    endEpoch();
    return success();
  case Opc::Return:
    if (static_cast<int>(lanes.size()) != nt)
      return fail(inst, -1, "gpu.return under divergent control flow");
    for (int l : lanes) {
      if (size_t n = pendingOps(uncommitted[l], groups[l]);
          n && failed(violation(inst, l,
                                std::to_string(n) +
                                    " cp.async copies still pending at kernel "
                                    "exit (no nvgpu.device_async_wait for "
                                    "them)")))
        return failure();
      if (size_t n = pendingOps(bulkUncommitted[l], bulkGroups[l]);
          n && failed(violation(inst, l,
                                std::to_string(n) +
                                    " bulk copies (nvvm.cp.async.bulk.global."
                                    "shared.cta) may still read shared memory "
                                    "at kernel exit (no "
                                    "nvvm.cp.async.bulk.wait_group read "
                                    "retiring them)")))
        return failure();
    }
    for (size_t g = 0; g < wgGroups.size(); ++g)
      if (size_t n = pendingOps(wgUncommitted[g], wgGroups[g]);
          n && failed(violation(inst, static_cast<int>(g) * kWarpgroup,
                                std::to_string(n) +
                                    " wgmma (nvvm.wgmma.mma_async) still "
                                    "pending at kernel exit (no "
                                    "nvvm.wgmma.wait.group.sync.aligned "
                                    "retiring them)")))
        return failure();
    returned = true;
    return success();
  default:
    break;
  }
  return fail(inst, -1, "internal error: unhandled instruction");
}

LogicalResult BlockExecutor::execShuffle(const Inst &inst,
                                         const std::vector<int> &lanes) {
  std::vector<uint8_t> active(nt, 0);
  for (int l : lanes)
    active[l] = 1;
  for (int l : lanes) {
    int64_t lane = l % 32, base = l - lane;
    int64_t off = zext(I(inst.in[1], l), 32),
            width = zext(I(inst.in[2], l), 32);
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
