//===- Simulator.cpp - run generated GPU code on the CPU ------------------===//
//
// See Simulator.h for the execution model. A gpu.func is first translated to
// a small tree of instructions over value slots (one register per thread per
// SSA value); a block is then executed instruction by instruction over the
// list of its active threads.
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"
#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

#include <cstring>
#include <thread>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;
using namespace fusecc::sim::detail;

BlockExecutor::BlockExecutor(Kernel &k, std::vector<Buffer *> &bufs,
                             ArrayRef<int> argIndices, int64_t grid[3],
                             int64_t block[3], int64_t smemBytes,
                             bool keepGoing, Stats &stats, std::string &error,
                             GlobalWriters &writers)
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
    Type elem = argTy.getElementType();
    d.elemBytes = elem.isBF16() || elem.isF16() ? 2 : 4;
    d.f16 = elem.isF16();
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
  hVal.assign(2 * words, 0.0f);
  hInit.assign(2 * words, 0);
  hWriter.assign(2 * words, -1);
  hWEpoch.assign(2 * words, -1);
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
  sBulkPending.assign(words, 0);
  bulkUncommitted.resize(nt);
  bulkGroups.resize(nt);
  wgUncommitted.resize((nt + kWarpgroup - 1) / kWarpgroup);
  wgGroups.resize(wgUncommitted.size());
  wgFenced.assign(wgUncommitted.size(), 0);
  all.resize(nt);
  for (int i = 0; i < nt; ++i)
    all[i] = i;
}

LogicalResult BlockExecutor::runBlock(int64_t bx, int64_t by, int64_t bz) {
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
  std::fill(sBulkPending.begin(), sBulkPending.end(), 0);
  std::fill(fenceCount.begin(), fenceCount.end(), 0);
  std::fill(fenceRecorded.begin(), fenceRecorded.end(), 0);
  for (auto &h : fenceHistory)
    h.clear();
  for (int lane = 0; lane < nt; ++lane) {
    uncommitted[lane].clear();
    groups[lane].clear();
    groupSeq[lane] = 0;
    bulkUncommitted[lane].clear();
    bulkGroups[lane].clear();
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

LogicalResult BlockExecutor::exec(const Inst &inst,
                                  const std::vector<int> &lanes) {
  switch (inst.opc) {
  case Opc::ConstBits:
  case Opc::Copy:
  case Opc::Extract:
  case Opc::Insert:
  case Opc::Bitcast:
  case Opc::CvtTF32:
  case Opc::AddI:
  case Opc::SubI:
  case Opc::MulI:
  case Opc::DivSI:
  case Opc::DivUI:
  case Opc::RemSI:
  case Opc::RemUI:
  case Opc::FloorDivSI:
  case Opc::CeilDivSI:
  case Opc::CeilDivUI:
  case Opc::AndI:
  case Opc::OrI:
  case Opc::XOrI:
  case Opc::ShLI:
  case Opc::ShRSI:
  case Opc::ShRUI:
  case Opc::MinSI:
  case Opc::MaxSI:
  case Opc::MinUI:
  case Opc::MaxUI:
  case Opc::CmpI:
  case Opc::Select:
  case Opc::IndexCast:
  case Opc::IndexCastUI:
  case Opc::ExtSI:
  case Opc::ExtUI:
  case Opc::TruncI:
  case Opc::AddF:
  case Opc::SubF:
  case Opc::MulF:
  case Opc::DivF:
  case Opc::RemF:
  case Opc::NegF:
  case Opc::CmpF:
  case Opc::MaximumF:
  case Opc::MinimumF:
  case Opc::MaxNumF:
  case Opc::MinNumF:
  case Opc::ExtF:
  case Opc::TruncF:
  case Opc::SIToFP:
  case Opc::UIToFP:
  case Opc::FPToSI:
  case Opc::FPToUI:
  case Opc::Exp:
  case Opc::Ex2ApproxFtz:
  case Opc::Exp2:
  case Opc::Log:
  case Opc::Log2:
  case Opc::Log1p:
  case Opc::Erf:
  case Opc::Tanh:
  case Opc::Sqrt:
  case Opc::Rsqrt:
  case Opc::RcpApproxFtz:
  case Opc::Fma:
  case Opc::AbsF:
  case Opc::PowF:
  case Opc::Floor:
  case Opc::Ceil:
  case Opc::Sin:
  case Opc::Cos:
  case Opc::Expm1:
  case Opc::CopySign:
    return execArith(inst, lanes);
  case Opc::DynSmem:
  case Opc::View:
  case Opc::Load:
  case Opc::VecLoad:
  case Opc::Store:
  case Opc::VecStore:
  case Opc::AlignedPointer:
    return execMemory(inst, lanes);
  case Opc::ThreadId:
  case Opc::BlockId:
  case Opc::BlockDim:
  case Opc::GridDim:
  case Opc::LaneId:
  case Opc::Barrier:
  case Opc::Return:
    return execGpu(inst, lanes);
  case Opc::Shuffle:
    return execShuffle(inst, lanes);
  case Opc::For:
    return execFor(inst, lanes);
  case Opc::If:
    return execIf(inst, lanes);
  case Opc::AsyncCopy:
  case Opc::AsyncGroup:
  case Opc::AsyncWait:
    return execAsyncCopy(inst, lanes);
  case Opc::BulkStore:
  case Opc::BulkCommit:
  case Opc::BulkWait:
    return execBulkCopy(inst, lanes);
  case Opc::Mma:
    return execMma(inst, lanes);
  case Opc::Wgmma:
    return execWgmma(inst, lanes);
  case Opc::FenceProxy:
  case Opc::WgmmaFence:
  case Opc::WgmmaCommit:
  case Opc::WgmmaWait:
    return execWgmmaSync(inst, lanes);
  case Opc::ClusterArrive:
  case Opc::ClusterWait:
    return execClusterBarrier(inst, lanes);
  case Opc::Mapa:
    return execMapa(inst, lanes);
  case Opc::ClusterStore:
    return execClusterStore(inst, lanes);
  }
  return fail(inst, -1, "internal error: unhandled instruction");
}

//===----------------------------------------------------------------------===//
// Host functions
//===----------------------------------------------------------------------===//

namespace {

LogicalResult runLaunch(gpu::LaunchFuncOp launch, bool keepGoing,
                        DenseMap<Value, int64_t> &ints, func::FuncOp host,
                        std::vector<Buffer> &args,
                        DenseMap<Value, std::pair<Buffer *, int>> &workspaces,
                        DenseMap<Operation *, std::unique_ptr<Kernel>> &kernels,
                        Stats &stats, std::string &error, int64_t batch) {
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
    if (failed(compileKernel(*kp, error)))
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
    if (!valueOf(gv[i], grid[i]) || !valueOf(bv[i], block[i]) || grid[i] < 1 ||
        block[i] < 1)
      return hostFail("grid or block size is not a positive constant");
  if (Value s = launch.getDynamicSharedMemorySize())
    if (!valueOf(s, smemBytes) || smemBytes < 0)
      return hostFail("dynamic shared memory size is not a constant");
  // The limits of the module's target (#fuse.target), which the pipeline
  // sized the launch by.
  const TargetInfo target = fuse::getTargetInfo(launch);
  int64_t nt = block[0] * block[1] * block[2];
  if (nt > target.maxThreadsPerBlock())
    return hostFail("more than " + Twine(target.maxThreadsPerBlock()) +
                    " threads per block on " + target.describe());
  if (smemBytes > target.sharedBytesPerBlock())
    return hostFail("more than " + Twine(target.sharedBytesPerBlock()) +
                    " bytes of dynamic shared memory per block on " +
                    target.describe());
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
  ++stats.launches;
  // The launch's blocks on `bufs`.
  auto runGrid = [&](std::vector<Buffer *> &bufs) -> LogicalResult {
  for (auto [i, a] : llvm::enumerate(gpuFunc.getArguments())) {
    auto mt = cast<MemRefType>(a.getType());
    if (mt.getNumElements() > static_cast<int64_t>(bufs[i]->data.size()))
      return hostFail("buffer of kernel argument " + std::to_string(i) +
                      " is smaller than its type");
  }
  GlobalWriters writers(bufs);
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
  };
  if (!launch->hasAttr(fuse::kPerSampleAttr))
    return runGrid(bufs);
  // A dynamic batch: a per-sample launch runs its grid once per sample
  // (grid z on the GPU), each batched parameter bound to that sample's
  // slice (fuse-batch-offsets advances the pointers by ctaid.z slices);
  // the other parameters are shared and must not be written.
  auto strides =
      gpuFunc->getAttrOfType<DenseI64ArrayAttr>(fuse::kBatchStridesAttr);
  if (batch < 1)
    return hostFail("a per-sample launch needs a batch (the module has "
                    "fuse.max_batch)");
  if (!strides || strides.size() != static_cast<int64_t>(bufs.size()))
    return hostFail("per-sample kernel without matching fuse.batch_strides");
  std::vector<Buffer> slices(bufs.size()), shared(bufs.size());
  std::vector<Buffer *> sampleBufs(bufs);
  for (auto [i, stride] : llvm::enumerate(strides.asArrayRef())) {
    auto mt = cast<MemRefType>(gpuFunc.getArgument(i).getType());
    int64_t bytes = mt.getElementTypeBitWidth() / 8;
    if (!stride) {
      shared[i] = *bufs[i];
      continue;
    }
    if (stride % bytes ||
        static_cast<int64_t>(bufs[i]->data.size()) != stride / bytes * batch)
      return hostFail("buffer of batched kernel argument " +
                      std::to_string(i) + " is not batch x its stride");
    slices[i].shape = {stride / bytes};
    sampleBufs[i] = &slices[i];
    // The same buffer through two parameters: one slice.
    for (size_t j = 0; j < i; ++j)
      if (bufs[i] == bufs[j] && strides[j])
        sampleBufs[i] = sampleBufs[j];
  }
  for (int64_t sample = 0; sample < batch; ++sample) {
    for (auto [i, stride] : llvm::enumerate(strides.asArrayRef())) {
      if (!stride || sampleBufs[i] != &slices[i])
        continue;
      int64_t n = slices[i].shape[0], at = sample * n;
      Buffer &full = *bufs[i];
      slices[i].data.assign(full.data.begin() + at,
                            full.data.begin() + at + n);
      slices[i].written.assign(full.written.begin() + at,
                               full.written.begin() + at + n);
    }
    if (failed(runGrid(sampleBufs)))
      return failure();
    for (auto [i, stride] : llvm::enumerate(strides.asArrayRef())) {
      if (!stride || sampleBufs[i] != &slices[i])
        continue;
      int64_t n = slices[i].shape[0], at = sample * n;
      Buffer &full = *bufs[i];
      std::copy(slices[i].data.begin(), slices[i].data.end(),
                full.data.begin() + at);
      std::copy(slices[i].written.begin(), slices[i].written.end(),
                full.written.begin() + at);
    }
    for (auto [i, stride] : llvm::enumerate(strides.asArrayRef()))
      if (!stride && (bufs[i]->written != shared[i].written ||
                      std::memcmp(bufs[i]->data.data(), shared[i].data.data(),
                                  4 * shared[i].data.size()) != 0))
        return hostFail("per-sample kernel wrote parameter " +
                        std::to_string(i) + ", which every sample shares");
  }
  return success();
}

} // namespace

LogicalResult sim::run(ModuleOp module, func::FuncOp host,
                       std::vector<Buffer> &args, Stats &stats,
                       std::string &error, bool keepGoing, int64_t batch) {
  const bool dynamic = module->hasAttr(fuse::kMaxBatchAttr);
  if (!dynamic)
    batch = 0;
  else if (batch < 1) {
    error = "simulator: a dynamic-batch module needs a batch of at least 1";
    return failure();
  }
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
    std::vector<int64_t> expected;
    if (mt)
      expected.assign(mt.getShape().begin(), mt.getShape().end());
    // A batched argument: the per-sample type's dim 0 (1) is the batch.
    if (dynamic && host.getArgAttr(i, fuse::kBatchedAttr) &&
        !expected.empty())
      expected[0] = batch;
    if (!mt || !isSimFloat(mt.getElementType()) || expected != args[i].shape) {
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
      if (!mt.hasStaticShape() || !isSimFloat(mt.getElementType()) ||
          !alloc.getDynamicSizes().empty()) {
        error = "simulator: only static f32, bf16 or f16 memref.alloc "
                "workspaces";
        return failure();
      }
      Buffer &ws = workspaceStore.emplace_back();
      // One slice per sample of a dynamic batch.
      int64_t n = mt.getNumElements() *
                  (batch && alloc->hasAttr(fuse::kPerSampleAttr) ? batch : 1);
      ws.shape = {n};
      ws.data.assign(n, std::nanf(""));
      ws.written.assign(n, 0);
      workspaces[alloc.getResult()] = {
          &ws, static_cast<int>(args.size() + workspaceStore.size() - 1)};
      continue;
    }
    // A module constant (memref.get_global of a constant dense f32
    // global): a buffer holding its values, read-only for the kernels.
    if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      auto dense = global ? dyn_cast_or_null<DenseElementsAttr>(
                                global.getInitialValueAttr())
                          : DenseElementsAttr();
      if (!dense || !isSimFloat(dense.getElementType())) {
        error = "simulator: memref.get_global of a global without dense "
                "f32, bf16 or f16 contents";
        return failure();
      }
      Buffer &cb = workspaceStore.emplace_back();
      MemRefType mt = get.getType();
      cb.shape.assign(mt.getShape().begin(), mt.getShape().end());
      for (APFloat v : dense.getValues<APFloat>())
        cb.data.push_back(static_cast<float>(v.convertToDouble()));
      cb.written.assign(cb.data.size(), 1);
      workspaces[get.getResult()] = {
          &cb, static_cast<int>(args.size() + workspaceStore.size() - 1)};
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
          static_cast<int64_t>(
              workspaces[view.getResult()].first->data.size())) {
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
                           stats, error, batch)))
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
