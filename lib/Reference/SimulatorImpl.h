//===- SimulatorImpl.h - the CPU simulator's internals ----------*- C++ -*-===//
//
// Shared by the simulator's files: the instruction set a gpu.func is
// translated to (SimTranslate.cpp), and the block executor, whose methods
// are defined by family: the memory and race model (SimMemory.cpp),
// arith / math (SimArith.cpp), scf control flow over SIMT masks
// (SimControl.cpp), gpu ids, barriers and shuffles (SimGpu.cpp), cp.async
// (SimAsyncCopy.cpp), mma.sync and wgmma (SimTensorCore.cpp), thread block
// clusters (SimCluster.cpp); Simulator.cpp runs launches and host
// functions.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_REFERENCE_SIMULATORIMPL_H
#define FUSECC_LIB_REFERENCE_SIMULATORIMPL_H

#include "fusecc/Reference/Simulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>

namespace fusecc::sim::detail {

using namespace mlir;

/// `v`, or a zero of its sign if it is a denormal (the `.ftz` of PTX).
inline float flushDenormal(float v) {
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
  // Asynchronous shared -> global bulk copies (cp.async.bulk).
  BulkStore,
  BulkCommit,
  BulkWait,
  // Hopper warpgroup MMA with operands in shared memory (wgmma).
  AlignedPointer, // memref.extract_aligned_pointer_as_index: shared or global
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
  int width = 64; ///< Integer width of the result (or of operands: cmpi).
  int srcWidth = 64;
  int pred = 0; ///< cmpi/cmpf predicate, dimension, shuffle mode.
  bool isFloat = false;
  uint64_t imm = 0; ///< Constant bits.
  int memId = -1;   ///< View: its descriptor id. Wgmma: operand type
                    ///< (0 tf32, 1 bf16, 2 f16).
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
inline int64_t norm(int64_t v, int w) {
  if (w >= 64)
    return v;
  if (w == 1)
    return v & 1;
  return static_cast<int64_t>(static_cast<uint64_t>(v) << (64 - w)) >> (64 - w);
}
inline uint64_t zext(int64_t v, int w) {
  if (w >= 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t(1) << w) - 1);
}
inline int64_t sext(int64_t v, int w) {
  if (w == 1)
    return (v & 1) ? -1 : 0;
  return norm(v, w);
}

/// A float type the simulator holds in f32 slots and memory: f32, and the
/// half storage types (each value the f32 of the same value).
inline bool isSimFloat(Type t) { return t.isF32() || t.isBF16() || t.isF16(); }

/// `v` rounded to nearest even to bf16 (`f16` false) or f16, as the f32 of
/// the same value (f16 overflows to +-inf from 65520 up).
float roundToHalf(float v, bool f16);

/// The binary16 encoding of `v` (an f16 value held as f32).
uint64_t halfBits(float v);

/// The value of the 16-bit bf16 (`f16` false) or f16 encoding `bits`.
float halfFromBits(uint64_t bits, bool f16);

inline float asF(uint64_t bits) {
  uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint64_t fromF(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

/// `'name' (op) at loc`, for diagnostics.
std::string describe(Operation *op);

/// Translates `k.func` into `k` (SimTranslate.cpp); on failure `error`
/// names the unsupported op or type.
LogicalResult compileKernel(Kernel &k, std::string &error);

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
  /// A kernel argument's bytes per element as the kernel addresses it
  /// (2 for bf16 / f16 storage, whose values are held as f32) and whether
  /// its halves are f16.
  int elemBytes = 4;
  bool f16 = false;
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
                std::string &error, GlobalWriters &writers);

  LogicalResult runBlock(int64_t bx, int64_t by, int64_t bz);

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

  LogicalResult execRegion(const Region &r, const std::vector<int> &lanes);

  /// Linear element index of a load/store, bounds-checked per dim.
  LogicalResult address(const Inst &inst, int lane, size_t firstIdx,
                        MemDesc *&desc, int64_t &linear);

  std::string indexList(const Inst &inst, int lane, size_t firstIdx,
                        size_t rank);
  static std::string shapeOf(const MemDesc &d);

  /// Linear element index of an access of `n` consecutive elements along the
  /// last dimension through the memref in slot `inst.in[memIdx]` with the
  /// `rank` indices that follow it; every element bounds-checked.
  LogicalResult addressOf(const Inst &inst, int lane, size_t memIdx,
                          size_t rank, int64_t n, MemDesc *&desc,
                          int64_t &linear);

  LogicalResult load(const Inst &inst, int lane, float &v);

  /// vector.load of `n` consecutive elements along the last dimension: every
  /// element in bounds, and the byte address (buffers and dynamic shared
  /// memory assumed 16-byte aligned) a multiple of the alignment attribute.
  LogicalResult vecLoad(const Inst &inst, int lane, size_t n, float *v);

  /// The alignment attribute (`inst.imm` bytes) of a vector access at
  /// element `li` of `d`.
  LogicalResult checkAlignment(const Inst &inst, int lane, MemDesc *d,
                               int64_t li);

  LogicalResult loadAt(const Inst &inst, int lane, MemDesc *d, int64_t li,
                       float &v);

  LogicalResult store(const Inst &inst, int lane, float v);

  /// vector.store of the `n` values in `inst.in[0, n)`: bounds of every
  /// element and the alignment attribute checked like `vecLoad`.
  LogicalResult vecStore(const Inst &inst, int lane, size_t n);

  LogicalResult storeAt(const Inst &inst, int lane, MemDesc *d, int64_t li,
                        float v);

  std::string threadName(int lane) { return std::to_string(lane); }

  /// Threads per warpgroup (wgmma), and the shared-memory window address of
  /// dynamic shared memory byte 0 (nonzero, as on the GPU, where the first
  /// KiB of the window is reserved, so that code assuming 0 is caught).
  static constexpr int kWarpgroup = 128;
  static constexpr int64_t kSmemWindowBase = 1024;
  /// Global addresses (`memref.extract_aligned_pointer_as_index` of a
  /// kernel argument): (memory id + 1) << kGlobalShift, plus the byte
  /// offset. Buffers are 16-byte aligned (runtime.h), so an offset's
  /// alignment is the address's.
  static constexpr int kGlobalShift = 40;

  /// Whether shared word `w` was read since the last barrier by a thread
  /// other than `lane`. A retired wgmma's reads count as reads by every
  /// thread of its warpgroup (`sReader` = -3 - warpgroup); -2 is several
  /// readers.
  bool readByOther(int64_t w, int lane);
  std::string readerName(int64_t w);
  /// Number of nvvm.fence.proxy thread `lane` executed up to the end of
  /// epoch `e` (a past one).
  int32_t fencesBy(int lane, int32_t e);
  std::string pendingWgmmaName(int64_t w);

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
  /// Executes `inst` for the active threads `lanes` (Simulator.cpp); the
  /// per-family parts below live in the Sim*.cpp files.
  LogicalResult exec(const Inst &inst, const std::vector<int> &lanes);
  /// Constants, vector / struct element moves, arith and math (SimArith).
  LogicalResult execArith(const Inst &inst, const std::vector<int> &lanes);
  /// Shared memory views, loads and stores (SimMemory).
  LogicalResult execMemory(const Inst &inst, const std::vector<int> &lanes);
  /// Thread / block ids, barriers, gpu.return (SimGpu).
  LogicalResult execGpu(const Inst &inst, const std::vector<int> &lanes);
  /// cp.async commit groups and waits (SimAsyncCopy).
  LogicalResult execAsyncCopy(const Inst &inst, const std::vector<int> &lanes);
  /// cp.async.bulk.global.shared::cta, its commit and wait (SimBulkCopy.cpp).
  LogicalResult execBulkCopy(const Inst &inst, const std::vector<int> &lanes);
  LogicalResult bulkStore(const Inst &inst, int lane);
  /// Checks a read of shared word `w` through the async proxy (a wgmma or
  /// a bulk copy; `reader` names it, without the closing parenthesis): the
  /// word is initialised, no cp.async to it is pending, and its writer
  /// wrote it before the last barrier and fenced (nvvm.fence.proxy
  /// async.shared) between the write and that barrier.
  LogicalResult asyncProxyRead(const Inst &inst, int lane, int64_t w,
                               StringRef reader);
  /// Proxy fences and the wgmma fence / commit / wait (SimTensorCore).
  LogicalResult execWgmmaSync(const Inst &inst, const std::vector<int> &lanes);
  /// nvvm.mapa (SimCluster).
  LogicalResult execMapa(const Inst &inst, const std::vector<int> &lanes);
  LogicalResult execFor(const Inst &inst, const std::vector<int> &lanes);
  LogicalResult execIf(const Inst &inst, const std::vector<int> &lanes);
  LogicalResult execShuffle(const Inst &inst, const std::vector<int> &lanes);
  LogicalResult execMma(const Inst &inst, const std::vector<int> &lanes);
  /// The bf16 / f16 m16n8k16 MMA of warp `w` (all its lanes execute it).
  void execHalfMma(const Inst &inst, int w);
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
                              StringRef what);
  LogicalResult execClusterStore(const Inst &inst,
                                 const std::vector<int> &lanes);
  LogicalResult execClusterBarrier(const Inst &inst,
                                   const std::vector<int> &lanes);
  /// Ends the block's barrier epoch (gpu.barrier, and a completed cluster
  /// barrier wait, which orders every thread of the cluster, this block's
  /// own included): records each thread's proxy fences of the epoch.
  void endEpoch();
  std::vector<float> smem;
  /// Views of 2-byte elements (bf16 / f16 tiles, `MemDesc::elemBytes` 2):
  /// per half word its value (the f32 of the half), whether it was written,
  /// and its last writer and that writer's epoch, so that two threads may
  /// write the two halves of one word (the word's other checks: pending
  /// copies, readers). Their values are not those of the word's f32 view.
  std::vector<float> hVal;
  std::vector<uint8_t> hInit;
  std::vector<int32_t> hWriter, hWEpoch;
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
  /// Bulk copy state. Per shared word: number of issued bulk copies reading
  /// it that no wait_group has retired. Per thread: the word ranges (first,
  /// count) of its uncommitted copies, and its committed groups.
  std::vector<int32_t> sBulkPending;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> bulkUncommitted;
  std::vector<std::deque<std::vector<std::pair<int64_t, int64_t>>>> bulkGroups;
  std::vector<int> all;
};

} // namespace fusecc::sim::detail

#endif // FUSECC_LIB_REFERENCE_SIMULATORIMPL_H
