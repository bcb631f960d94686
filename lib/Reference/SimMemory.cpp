//===- SimMemory.cpp - shared / global memory and its race model ----------===//
//
// Every load and store goes through here: bounds and alignment checks,
// and per shared word its last writer / reader per barrier interval,
// pending cp.async copies and wgmma reads, so that any cross-thread
// access pair without a barrier between them is reported; per global
// element its last writer in the launch. Also the memref / vector ops.
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;
using namespace fusecc::sim::detail;

/// Linear element index of a load/store, bounds-checked per dim.
LogicalResult BlockExecutor::address(const Inst &inst, int lane,
                                     size_t firstIdx, MemDesc *&desc,
                                     int64_t &linear) {
  return addressOf(inst, lane, firstIdx - 1, inst.in.size() - firstIdx, 1, desc,
                   linear);
}

std::string BlockExecutor::indexList(const Inst &inst, int lane,
                                     size_t firstIdx, size_t rank) {
  std::string idx;
  for (size_t e = 0; e < rank; ++e)
    idx += (e ? ", " : "") + std::to_string(I(inst.in[firstIdx + e], lane));
  return idx;
}

std::string BlockExecutor::shapeOf(const MemDesc &d) {
  std::string shp;
  for (size_t e = 0; e < d.shape.size(); ++e)
    shp += (e ? "x" : "") + std::to_string(d.shape[e]);
  return shp;
}

/// Linear element index of an access of `n` consecutive elements along the
/// last dimension through the memref in slot `inst.in[memIdx]` with the
/// `rank` indices that follow it; every element bounds-checked.
LogicalResult BlockExecutor::addressOf(const Inst &inst, int lane,
                                       size_t memIdx, size_t rank, int64_t n,
                                       MemDesc *&desc, int64_t &linear) {
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
                  "out-of-bounds access [" +
                      indexList(inst, lane, firstIdx, rank) + "] to " +
                      desc->name + " of shape " + shapeOf(*desc));
    linear = linear * desc->shape[d] + i;
  }
  if (n > 1 && rank > 0 &&
      I(inst.in[firstIdx + rank - 1], lane) + n > desc->shape.back())
    return fail(inst, lane,
                "out-of-bounds access: " + std::to_string(n) +
                    " elements at [" + indexList(inst, lane, firstIdx, rank) +
                    "] overrun the last dimension of " + desc->name +
                    " of shape " + shapeOf(*desc));
  return success();
}

LogicalResult BlockExecutor::load(const Inst &inst, int lane, float &v) {
  MemDesc *d;
  int64_t li;
  if (failed(address(inst, lane, 1, d, li)))
    return failure();
  return loadAt(inst, lane, d, li, v);
}

/// vector.load of `n` consecutive elements along the last dimension: every
/// element in bounds, and the byte address (buffers and dynamic shared
/// memory assumed 16-byte aligned) a multiple of the alignment attribute.
LogicalResult BlockExecutor::vecLoad(const Inst &inst, int lane, size_t n,
                                     float *v) {
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
                    " elements at [" + idx +
                    "] overruns the last dimension"
                    " of " +
                    d->name + " of shape " + shp);
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
LogicalResult BlockExecutor::checkAlignment(const Inst &inst, int lane,
                                            MemDesc *d, int64_t li) {
  // Global half storage has 2-byte elements.
  int64_t elemBytes = 4;
  if (auto l = dyn_cast<vector::LoadOp>(inst.op))
    elemBytes = l.getMemRefType().getElementTypeBitWidth() / 8;
  else if (auto s = dyn_cast<vector::StoreOp>(inst.op))
    elemBytes = s.getMemRefType().getElementTypeBitWidth() / 8;
  int64_t byteAddr =
      d->shared ? d->sharedBase * 4 + li * elemBytes : li * elemBytes;
  if (inst.imm > 1 && byteAddr % static_cast<int64_t>(inst.imm) != 0)
    return fail(inst, lane,
                "misaligned vector access: byte offset " +
                    std::to_string(byteAddr) + " (element " +
                    std::to_string(li) + ") of " + d->name +
                    " is not a multiple of the " + std::to_string(inst.imm) +
                    "-byte alignment");
  return success();
}

LogicalResult BlockExecutor::loadAt(const Inst &inst, int lane, MemDesc *d,
                                    int64_t li, float &v) {
  if (d->shared) {
    const bool half = d->elemBytes == 2;
    const int64_t w = d->sharedBase + (half ? li / 2 : li);
    const int64_t h = 2 * d->sharedBase + li;
    if (sPending[w] > 0) {
      if (failed(violation(inst, lane,
                           "read of shared memory word " + std::to_string(w) +
                               " while thread " + threadName(sPendLane[w]) +
                               "'s cp.async (nvgpu.device_async_copy) to "
                               "it is pending (no nvgpu.device_async_wait "
                               "covering it)")))
        return failure();
    } else if (!(half ? hInit[h] : sInit[w]) &&
               failed(violation(inst, lane,
                                "read of uninitialised shared memory (word " +
                                    std::to_string(w) + ")")))
      return failure();
    if (failed(clusterAccess(inst, lane, w, "read")))
      return failure();
    const int32_t wEpoch = half ? hWEpoch[h] : sWEpoch[w];
    const int32_t writer = half ? hWriter[h] : sWriter[w];
    if (wEpoch == epoch && writer != lane &&
        failed(violation(inst, lane,
                         "shared memory race: word " + std::to_string(w) +
                             " read without a barrier after thread " +
                             std::to_string(writer) + " wrote it")))
      return failure();
    if (sREpoch[w] != epoch) {
      sREpoch[w] = epoch;
      sReader[w] = lane;
    } else if (sReader[w] != lane) {
      sReader[w] = -2; // several readers
    }
    v = half ? hVal[h] : smem[w];
    return success();
  }
  int a = d->argIndex >= 0 ? static_cast<int>(d - mems.data()) : -1;
  int64_t gid = blockLinear * nt + lane;
  int64_t wg = writers.gid[a][li];
  if (wg >= 0 && wg != gid &&
      (wg / nt != blockLinear || writers.epoch[a][li] == epoch))
    return fail(
        inst, lane,
        "global memory race: element " + std::to_string(li) + " of " + d->name +
            " read after another thread (" +
            (wg / nt != blockLinear ? "of another block" : "no barrier") +
            ") wrote it in the same launch");
  v = d->data[li];
  return success();
}

LogicalResult BlockExecutor::store(const Inst &inst, int lane, float v) {
  MemDesc *d;
  int64_t li;
  if (failed(address(inst, lane, 2, d, li)))
    return failure();
  return storeAt(inst, lane, d, li, v);
}

/// vector.store of the `n` values in `inst.in[0, n)`: bounds of every
/// element and the alignment attribute checked like `vecLoad`.
LogicalResult BlockExecutor::vecStore(const Inst &inst, int lane, size_t n) {
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

LogicalResult BlockExecutor::storeAt(const Inst &inst, int lane, MemDesc *d,
                                     int64_t li, float v) {
  if (d->shared) {
    const bool half = d->elemBytes == 2;
    const int64_t w = d->sharedBase + (half ? li / 2 : li);
    const int64_t h = 2 * d->sharedBase + li;
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
    if (sBulkPending[w] > 0 &&
        failed(violation(inst, lane,
                         "store to shared memory word " + std::to_string(w) +
                             " while a bulk copy (nvvm.cp.async.bulk."
                             "global.shared.cta) reading it is pending (no "
                             "nvvm.cp.async.bulk.wait_group read retiring "
                             "it)")))
      return failure();
    const int32_t wEpoch = half ? hWEpoch[h] : sWEpoch[w];
    const int32_t writer = half ? hWriter[h] : sWriter[w];
    if (wEpoch == epoch && writer != lane &&
        failed(
            violation(inst, lane,
                      "shared memory race: word " + std::to_string(w) +
                          " written by two threads without a barrier (other: " +
                          std::to_string(writer) + ")")))
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
    if (half) {
      hWEpoch[h] = epoch;
      hWriter[h] = lane;
      hInit[h] = 1;
      hVal[h] = v;
      return success();
    }
    smem[w] = v;
    return success();
  }
  int a = static_cast<int>(d - mems.data());
  int64_t gid = blockLinear * nt + lane;
  int64_t wg = writers.gid[a][li];
  if (wg >= 0 && wg != gid &&
      (wg / nt != blockLinear || writers.epoch[a][li] == epoch))
    return fail(inst, lane,
                "global memory race: element " + std::to_string(li) + " of " +
                    d->name + " written by two threads (" +
                    (wg / nt != blockLinear ? "other block" : "no barrier") +
                    ")");
  writers.gid[a][li] = gid;
  writers.epoch[a][li] = epoch;
  d->data[li] = v;
  d->global->written[li] = 1;
  return success();
}

/// Whether shared word `w` was read since the last barrier by a thread
/// other than `lane`. A retired wgmma's reads count as reads by every
/// thread of its warpgroup (`sReader` = -3 - warpgroup); -2 is several
/// readers.
bool BlockExecutor::readByOther(int64_t w, int lane) {
  if (sREpoch[w] != epoch)
    return false;
  int32_t r = sReader[w];
  if (r >= 0)
    return r != lane;
  if (r <= -3)
    return -3 - r != lane / kWarpgroup;
  return true;
}

std::string BlockExecutor::readerName(int64_t w) {
  if (sReader[w] <= -3)
    return "a wgmma (nvvm.wgmma.mma_async) of warpgroup " +
           std::to_string(-3 - sReader[w]);
  return "another thread";
}

/// Number of nvvm.fence.proxy thread `lane` executed up to the end of
/// epoch `e` (a past one).
int32_t BlockExecutor::fencesBy(int lane, int32_t e) {
  const auto &h = fenceHistory[lane];
  auto it =
      std::upper_bound(h.begin(), h.end(), e,
                       [](int32_t v, const std::pair<int32_t, int32_t> &p) {
                         return v < p.first;
                       });
  return it == h.begin() ? 0 : std::prev(it)->second;
}

std::string BlockExecutor::pendingWgmmaName(int64_t w) {
  return "a wgmma (nvvm.wgmma.mma_async) of warpgroup " +
         std::to_string(sWgPendGroup[w]) +
         " reading it is pending (no nvvm.wgmma.wait.group.sync.aligned "
         "retiring it)";
}

LogicalResult BlockExecutor::execMemory(const Inst &inst,
                                        const std::vector<int> &lanes) {
  switch (inst.opc) {
  case Opc::DynSmem:
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(rawId);
    return success();
  case Opc::View: {
    auto view = cast<memref::ViewOp>(inst.op);
    auto mt = view.getType();
    int64_t elems = mt.getNumElements();
    MemDesc &d = mems[viewBase + inst.memId];
    d.elemBytes = mt.getElementTypeBitWidth() / 8;
    d.f16 = mt.getElementType().isF16();
    const int64_t bytes = elems * d.elemBytes;
    int64_t byteShift = I(inst.in[1], lanes.front());
    for (int l : lanes)
      if (I(inst.in[1], l) != byteShift)
        return fail(inst, l, "view offset differs between threads");
    if (byteShift % 4 != 0 || byteShift < 0 ||
        byteShift + bytes > smemBytes)
      return fail(inst, lanes.front(),
                  "view [" + std::to_string(byteShift) + ", +" +
                      std::to_string(bytes) +
                      " bytes) exceeds the launch's " +
                      std::to_string(smemBytes) +
                      " bytes of dynamic shared "
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
  case Opc::AlignedPointer:
    // The shared-window address of a view's element 0, or the global
    // address of a kernel argument's (kGlobalShift).
    for (int l : lanes) {
      int64_t id = I(inst.in[0], l);
      if (id >= 0 && id < static_cast<int64_t>(mems.size()) &&
          mems[id].argIndex >= 0) {
        R(inst.out[0], l) = static_cast<uint64_t>(id + 1) << kGlobalShift;
        continue;
      }
      if (id < viewBase || id >= viewBase + k.numViews)
        return fail(inst, l,
                    "memref.extract_aligned_pointer_as_index of a memref "
                    "that is not a view of dynamic shared memory or a "
                    "kernel argument");
      R(inst.out[0], l) =
          static_cast<uint64_t>(kSmemWindowBase + mems[id].sharedBase * 4);
    }
    return success();
  default:
    break;
  }
  return fail(inst, -1, "internal error: unhandled instruction");
}
