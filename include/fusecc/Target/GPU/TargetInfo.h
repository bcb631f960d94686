//===- TargetInfo.h - the facts of the target GPU ---------------*- C++ -*-===//
//
// One description of the GPU that kernels are planned for: the device's
// facts (SMs, shared memory, registers, threads, L2, memory bandwidth, MMA
// peak rates per operand type) and the chip's capabilities (the PTX
// target: wgmma on sm_90a, clusters from sm_90). Transforms and code
// generation ask this description instead of keeping chip constants; the
// module carries it as `#fuse.target<chip = ..., device = ...>`
// (fuse-attach-target), and `getTargetInfo(op)` (FuseDialect.h) reads it.
// Adding a chip: docs/design/target.md.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_TARGET_GPU_TARGETINFO_H
#define FUSECC_TARGET_GPU_TARGETINFO_H

#include "fusecc/Support/Options.h"

#include "mlir/IR/Types.h"

#include <cstdint>
#include <optional>
#include <string>

namespace fusecc {

/// The shape of one tensor-core MMA instruction: M x N x K (for wgmma, N is
/// the largest; any multiple of 8 up to it is valid).
struct MmaShape {
  int64_t m = 0, n = 0, k = 0;
};

/// The measured and documented facts of one device (one row of the table
/// in TargetInfo.cpp).
struct DeviceFacts {
  Device device;
  /// The product name (as `nvidia-smi` and the tuning files write it).
  llvm::StringRef productName;
  /// The newest PTX target the device runs.
  Chip newestChip;
  int64_t numSMs;
  int64_t warpSize;
  int64_t maxThreadsPerBlock;
  int64_t maxThreadsPerSM;
  int64_t registersPerSM;
  int64_t maxRegistersPerThread;
  /// Shared memory of an SM, the most one block may use (opt-in dynamic
  /// shared memory) and the part the driver reserves per resident block.
  int64_t sharedBytesPerSM, sharedBytesPerBlock, reservedSharedBytesPerBlock;
  int64_t l2Bytes;
  /// Device-to-device copy rate (read + write), bytes per second, measured.
  double copyBytesPerSecond;
  /// Peak rates, TFLOP/s (dense, measured with cuBLAS matmuls where noted
  /// in the table): FP32 FMA and the tensor cores with tf32, bf16 and f16
  /// operands (f32 accumulation).
  double fp32Tflops, tf32Tflops, bf16Tflops, f16Tflops;
};

/// The target of a compilation: the device whose facts size the kernels and
/// the chip (PTX target) whose instructions they may use.
class TargetInfo {
public:
  /// The target `chip` on `device`. The chip must be one the device runs
  /// (`supports`).
  static TargetInfo get(Device device, Chip chip);
  /// The target of a module without a `#fuse.target`: the pipeline
  /// defaults (sm_90 on an H200).
  static TargetInfo getDefault() { return get(kDefaultDevice, kDefaultChip); }
  static constexpr Device kDefaultDevice = Device::H200;
  static constexpr Chip kDefaultChip = Chip::SM90;

  /// The facts of `device`.
  static const DeviceFacts &factsOf(Device device);
  /// True if `device` runs code for `chip`.
  static bool supports(Device device, Chip chip);

  Device getDevice() const { return facts->device; }
  Chip getChip() const { return chip; }
  /// The target as diagnostics name it, device and chip (`h200 (sm_90a)`):
  /// a limit in a message comes from the device's facts, and the chip says
  /// which instructions were considered.
  std::string describe() const;
  const DeviceFacts &getFacts() const { return *facts; }

  int64_t numSMs() const { return facts->numSMs; }
  int64_t warpSize() const { return facts->warpSize; }
  int64_t maxThreadsPerBlock() const { return facts->maxThreadsPerBlock; }
  int64_t maxThreadsPerSM() const { return facts->maxThreadsPerSM; }
  int64_t registersPerSM() const { return facts->registersPerSM; }
  int64_t maxRegistersPerThread() const { return facts->maxRegistersPerThread; }
  int64_t sharedBytesPerSM() const { return facts->sharedBytesPerSM; }
  int64_t sharedBytesPerBlock() const { return facts->sharedBytesPerBlock; }
  int64_t reservedSharedBytesPerBlock() const {
    return facts->reservedSharedBytesPerBlock;
  }
  int64_t l2Bytes() const { return facts->l2Bytes; }
  double copyBytesPerSecond() const { return facts->copyBytesPerSecond; }

  /// Hopper warpgroup MMA (`wgmma.mma_async`): sm_90a only.
  bool hasWgmma() const { return chip == Chip::SM90a; }
  /// Thread block clusters and distributed shared memory: sm_90 and up.
  bool hasClusters() const { return chip != Chip::SM80; }
  /// The most blocks of a portable cluster (0 without clusters).
  int64_t maxClusterBlocks() const { return hasClusters() ? 8 : 0; }

  /// Peak TFLOP/s with operands of `operandType`: f32 (FMA), tf32, bf16 or
  /// f16 (tensor cores, f32 accumulation); std::nullopt for another type.
  std::optional<double> peakTflops(mlir::Type operandType) const;
  /// The `mma.sync` shape for operands of `operandType` (tf32: m16n8k8;
  /// bf16, f16: m16n8k16); std::nullopt for a type without one.
  std::optional<MmaShape> mmaShape(mlir::Type operandType) const;
  /// The `wgmma.mma_async` shape for operands of `operandType` (tf32:
  /// m64n256k8; bf16, f16: m64n256k16; N: the largest); std::nullopt
  /// without wgmma or for another type.
  std::optional<MmaShape> wgmmaShape(mlir::Type operandType) const;

private:
  TargetInfo(const DeviceFacts &facts, Chip chip) : facts(&facts), chip(chip) {}
  const DeviceFacts *facts;
  Chip chip;
};

} // namespace fusecc

#endif // FUSECC_TARGET_GPU_TARGETINFO_H
