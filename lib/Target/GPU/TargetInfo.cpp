//===- TargetInfo.cpp - the facts of the target GPU -----------------------===//
//
// The table of known devices (one row each) and the per-operand-type MMA
// facts of TargetInfo.h.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Target/GPU/TargetInfo.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace fusecc;

namespace {

/// Limits shared by compute capabilities 8.0 and 9.0 (CUDA's table of
/// technical specifications): warps, threads and registers.
constexpr int64_t kWarpSize = 32, kMaxThreadsPerBlock = 1024,
                  kMaxThreadsPerSM = 2048, kRegistersPerSM = 65536,
                  kMaxRegistersPerThread = 255,
                  // 1 KiB of shared memory reserved by the driver per
                  // resident block.
    kReservedSharedBytes = 1024;

/// Facts of every Hopper (GH100) SM, compute capability 9.0: 228 KiB of
/// shared memory per SM, 227 KiB per block (opt-in), 50 MiB of L2
/// (cudaDeviceProp::l2CacheSize).
constexpr int64_t kHopperSharedBytesPerSM = 233472,
                  kHopperSharedBytesPerBlock = 232448,
                  kHopperL2Bytes = 52428800;

/// Facts of the Ampere (GA100) SM: CUDA's limits for compute capability
/// 8.0 (164 KiB of shared memory per SM, 163 KiB per block opt-in, 1 KiB
/// reserved per block) and the A100's 40 MiB of L2.
constexpr int64_t kAmpereSharedBytesPerSM = 167936,
                  kAmpereSharedBytesPerBlock = 166912,
                  kAmpereL2Bytes = 41943040;

/// The known devices. Hopper rates: docs TOOLCHAIN.md (cuBLAS 8192^3
/// matmuls, device-to-device copies, measured on these machines); f16 runs
/// at the bf16 rate on Hopper's tensor cores (not measured separately).
/// The A100 row is NVIDIA's datasheet (A100 SXM4 80GB: dense peaks, 2.04
/// TB/s HBM bandwidth taken as the copy rate), not measured: no A100 was
/// available. It gives the tests a target with less shared memory.
constexpr DeviceFacts kDevices[] = {
    {Device::A100, "NVIDIA A100-SXM4-80GB", Chip::SM80, /*numSMs=*/108,
     kWarpSize, kMaxThreadsPerBlock, kMaxThreadsPerSM, kRegistersPerSM,
     kMaxRegistersPerThread, kAmpereSharedBytesPerSM,
     kAmpereSharedBytesPerBlock, kReservedSharedBytes, kAmpereL2Bytes,
     /*copyBytesPerSecond=*/2.039e12, /*fp32Tflops=*/19.5, /*tf32Tflops=*/156,
     /*bf16Tflops=*/312, /*f16Tflops=*/312},
    {Device::H100, "NVIDIA H100 80GB HBM3", Chip::SM90a, /*numSMs=*/132,
     kWarpSize, kMaxThreadsPerBlock, kMaxThreadsPerSM, kRegistersPerSM,
     kMaxRegistersPerThread, kHopperSharedBytesPerSM,
     kHopperSharedBytesPerBlock, kReservedSharedBytes, kHopperL2Bytes,
     /*copyBytesPerSecond=*/3.0e12, /*fp32Tflops=*/51, /*tf32Tflops=*/409,
     /*bf16Tflops=*/791, /*f16Tflops=*/791},
    {Device::H200, "NVIDIA H200", Chip::SM90a, /*numSMs=*/132, kWarpSize,
     kMaxThreadsPerBlock, kMaxThreadsPerSM, kRegistersPerSM,
     kMaxRegistersPerThread, kHopperSharedBytesPerSM,
     kHopperSharedBytesPerBlock, kReservedSharedBytes, kHopperL2Bytes,
     /*copyBytesPerSecond=*/4.26e12, /*fp32Tflops=*/51, /*tf32Tflops=*/405,
     /*bf16Tflops=*/787, /*f16Tflops=*/787},
};

/// The operand types the tensor cores take, and their K per instruction.
enum class MmaOperand { TF32, BF16, F16 };
std::optional<MmaOperand> mmaOperandOf(mlir::Type type) {
  if (llvm::isa<mlir::FloatTF32Type>(type))
    return MmaOperand::TF32;
  if (type.isBF16())
    return MmaOperand::BF16;
  if (type.isF16())
    return MmaOperand::F16;
  return std::nullopt;
}
/// K of one MMA: 32 bytes of operands per row (8 tf32, 16 bf16 or f16).
int64_t mmaK(MmaOperand operand) {
  return operand == MmaOperand::TF32 ? 8 : 16;
}

} // namespace

const DeviceFacts &TargetInfo::factsOf(Device device) {
  for (const DeviceFacts &f : kDevices)
    if (f.device == device)
      return f;
  llvm_unreachable("every Device has a row in kDevices");
}

bool TargetInfo::supports(Device device, Chip chip) {
  // Chips are ordered oldest first; a device runs its own and older ones.
  return static_cast<int>(chip) <= static_cast<int>(factsOf(device).newestChip);
}

TargetInfo TargetInfo::get(Device device, Chip chip) {
  assert(supports(device, chip) && "the device does not run this chip's code");
  return TargetInfo(factsOf(device), chip);
}

std::string TargetInfo::describe() const {
  return (toString(getDevice()) + " (" + toString(chip) + ")").str();
}

std::optional<double> TargetInfo::peakTflops(mlir::Type operandType) const {
  if (operandType.isF32())
    return facts->fp32Tflops;
  std::optional<MmaOperand> operand = mmaOperandOf(operandType);
  if (!operand)
    return std::nullopt;
  switch (*operand) {
  case MmaOperand::TF32:
    return facts->tf32Tflops;
  case MmaOperand::BF16:
    return facts->bf16Tflops;
  case MmaOperand::F16:
    return facts->f16Tflops;
  }
  llvm_unreachable("covered switch");
}

std::optional<MmaShape> TargetInfo::mmaShape(mlir::Type operandType) const {
  std::optional<MmaOperand> operand = mmaOperandOf(operandType);
  if (!operand)
    return std::nullopt;
  return MmaShape{16, 8, mmaK(*operand)};
}

std::optional<MmaShape> TargetInfo::wgmmaShape(mlir::Type operandType) const {
  std::optional<MmaOperand> operand = mmaOperandOf(operandType);
  if (!operand || !hasWgmma())
    return std::nullopt;
  return MmaShape{64, 256, mmaK(*operand)};
}
