//===- Passes.td - fusecc conversion passes ----------------*- tablegen -*-===//
//
// Conversions out of the fuse dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_CONVERSION_PASSES_TD
#define FUSECC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseConvertToGPU : Pass<"fuse-convert-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower tiled fuse.kernel ops to gpu.func kernels and "
                "gpu.launch_func host code";
  let description = [{
    Every graph function becomes a destination-passing function on memrefs
    (inputs, then the output) whose body launches its kernels with
    `gpu.launch_func`; every tiled `fuse.kernel` becomes a `gpu.func` in the
    `gpu.module @fusecc_kernels`, built from `scf`, `arith`, `math`,
    `memref`, `gpu` (and `nvgpu` for tf32 tensor cores): the transposed
    convolution as a per-stride-phase implicit GEMM over the valid taps only,
    then the epilogue on the block's tile in shared memory, then coalesced
    stores of the final values.

    `epilogue-math` picks how the epilogue evaluates `exp` and the
    reciprocal of `1 / (1 + exp(y))` (sigmoid, silu): `exact` uses
    libdevice's `expf` (within 2 ulp) and the IEEE reciprocal; `fast` uses
    the hardware base-2 exponential, `ex2.approx.ftz(x * c)` (the sequence
    Triton, and so torch.compile, emits for `exp`; results below 2^-126
    flush to 0), where c is log2(e) times the negations and power-of-two
    factors peeled off x, the softmax statistics as
    `ex2.approx.ftz(fma(x, log2(e), -max log2(e)))`, and the approximate
    reciprocal `rcp.approx.ftz` (within 1 ulp): relative errors around
    1e-6, far inside tf32's 2e-3. `auto` (the default) is `fast` in kernels
    whose precision is `tf32` and `exact` in `ieee` ones.

    `register-softmax` (default false: measured 37% slower on kb2_49,
    docs/perf.md 201) lets a wgmma kernel whose block holds
    every channel of a channel softmax take the softmax's statistics from
    the accumulators (warp shuffles and a small exchange of per-warp
    partials) instead of passes over the output tile (docs/perf.md 201).
  }];
  let options = [
    Option<"epilogueMath", "epilogue-math", "::fusecc::EpilogueMathMode",
           /*default=*/"::fusecc::EpilogueMathMode::Auto",
           "Epilogue exp and reciprocal: auto (fast for tf32 kernels, "
           "exact for ieee), exact, fast",
           [{::fusecc::optionValues<::fusecc::EpilogueMathMode>()}]>,
    Option<"registerSoftmax", "register-softmax", "bool", /*default=*/"false",
           "A channel softmax whose block holds all the convolution's "
           "channels takes its statistics from the wgmma accumulators "
           "(RegisterSoftmax.cpp; measured 37% slower on kb2_49: off by "
           "default); false: through the output tile">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::func::FuncDialect"
  ];
}

def FuseBatchOffsets : Pass<"fuse-batch-offsets", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Offset the batched pointers of per-sample kernels by their "
                "sample (grid z)";
  let description = [{
    Runs on the NVVM (LLVM dialect) kernels of a dynamic-batch module
    (docs/design/plans.md, "Dynamic batch"). A kernel whose `gpu.func`
    carried `fuse.batch_strides` (bytes per sample of each parameter, 0 for
    one shared by every sample) reads its batched pointer parameters
    advanced by `ctaid.z` times their stride at entry: block z computes
    sample z of the per-sample graph. The attribute is removed; kernels
    without it are untouched, so static bundles keep their PTX.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def FuseExternDynamicSharedMemory
    : Pass<"fuse-extern-dynamic-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare the kernels' dynamic shared memory as an extern "
                "array, sized at launch";
  let description = [{
    Runs on the NVVM (LLVM dialect) kernels after `convert-gpu-to-nvvm`.
    That conversion gives `gpu.dynamic_shared_memory` an internal
    zero-length workgroup global (`__dynamic_shmem__N`); the NVPTX back end
    demotes such a global to a one-byte `.shared` variable inside the
    kernel, whose every access past its first byte ptxas reports as
    "Potential out of bound access". The bytes are there (the launch's
    dynamic shared memory follows it), but the declaration is not what the
    kernel means. Here every zero-length global in address space 3 becomes
    external, which NVPTX prints as CUDA's `extern __shared__` array:
    `.extern .shared .align A .b8 __dynamic_shmem__N[];`, sized by the
    launch's dynamic shared memory. Other globals are untouched.

    Example:
    ```mlir
    // before
    llvm.mlir.global internal @__dynamic_shmem__0()
        {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // after
    llvm.mlir.global external @__dynamic_shmem__0()
        {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // FUSECC_CONVERSION_PASSES_TD
