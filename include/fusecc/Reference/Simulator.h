//===- Simulator.h - run generated GPU code on the CPU ----------*- C++ -*-===//
//
// Executes the host functions produced by buildGPUPipeline (func.func on
// memrefs with gpu.launch_func) and their gpu.func kernels on the CPU, with
// f32 arithmetic where the kernel computes in f32.
//
// Execution model: the threads of one block run in lock step, op by op, over
// the list of active threads (SIMT with masks): scf.if splits the active set,
// scf.for runs while any active thread has iterations left. This is one valid
// schedule of a race-free kernel; because it could hide races, every shared
// memory word records its last writer/reader per barrier interval and any
// cross-thread access pair without a barrier between them is reported, as is
// a barrier or shuffle reached by only part of the threads, a read of shared
// memory never written, any out-of-bounds access, and two threads of a launch
// writing the same global element.
//
// Asynchronous copies (nvgpu.device_async_copy = cp.async, global -> shared,
// with zero fill past srcElements) read their source at issue but write
// their destination only when the issuing thread's
// nvgpu.device_async_wait {numGroups = k} (cp.async.wait_group k) completes
// their group (nvgpu.device_async_create_group = cp.async.commit_group: all
// of the thread's uncommitted copies, whatever the token operands). The
// completion is a write by that thread at the wait, visible to other
// threads after the next barrier. Any read or store of a word with a pending
// copy, pending copies of two threads to one word, copies not committed at a
// wait and copies still pending at gpu.return are reported.
//
// Hopper warpgroup MMA (nvvm.wgmma.mma_async, tf32, both operands in shared
// memory through matrix descriptors, K-major without swizzle) runs when the
// whole warpgroup (128 consecutive threads) issues it with identical
// descriptors: it reads its operands then and writes the accumulators (an
// all-f32 llvm.struct, the PTX fragment layout) at once; its shared-memory
// reads stay pending until nvvm.wgmma.wait.group retires its commit group.
// Reported: operands not written before the last barrier or not fenced for
// the async proxy (nvvm.fence.proxy async.shared by the writer after its
// write), stores to words a pending wgmma reads, a missing
// nvvm.wgmma.fence.aligned, wgmma uncommitted at a wait or pending at exit.
// Shared memory sits at window address 1024 (extract_aligned_pointer).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_REFERENCE_SIMULATOR_H
#define FUSECC_REFERENCE_SIMULATOR_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fusecc::sim {

/// A device buffer: contiguous row-major f32 elements.
struct Buffer {
  std::vector<int64_t> shape;
  std::vector<float> data;
  /// Per element: written by some kernel (any launch).
  std::vector<uint8_t> written;
};

struct Stats {
  int64_t launches = 0;
  int64_t blocks = 0;
  int64_t threadsPerBlockMax = 0;
  int64_t sharedBytesMax = 0;
  int64_t instructions = 0; ///< Thread-instructions executed.
  /// With keepGoing: memory-model violations seen (uninitialised shared
  /// memory reads, races) and the first one's description.
  int64_t violations = 0;
  std::string firstViolation;
};

/// Runs host function `hostFunc` of `module` (after the GPU pipeline) with
/// `args` bound to its memref arguments, in order. On failure `error` says
/// what went wrong (unsupported op, out-of-bounds access, race, ...).
/// With `keepGoing`, reads of uninitialised shared memory (NaN) and races
/// are counted in `stats` instead, to see their effect on the output.
/// A module compiled for a launch-time batch (`fuse.max_batch`) runs at
/// `batch` (>= 1): batched arguments hold `batch` samples, per-sample
/// launches run once per sample on its slices; ignored for static modules.
mlir::LogicalResult run(mlir::ModuleOp module, mlir::func::FuncOp hostFunc,
                        std::vector<Buffer> &args, Stats &stats,
                        std::string &error, bool keepGoing = false,
                        int64_t batch = 0);

} // namespace fusecc::sim

#endif // FUSECC_REFERENCE_SIMULATOR_H
