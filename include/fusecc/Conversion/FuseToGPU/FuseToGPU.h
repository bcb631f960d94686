//===- FuseToGPU.h - lower fuse kernels to the gpu dialect ------*- C++ -*-===//
//
// Declares the conversion of tiled fuse.kernel ops into gpu.func kernels.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_CONVERSION_FUSETOGPU_FUSETOGPU_H
#define FUSECC_CONVERSION_FUSETOGPU_FUSETOGPU_H

#include "fusecc/Support/Options.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace fusecc {

#define GEN_PASS_DECL
#include "fusecc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fusecc/Conversion/Passes.h.inc"

} // namespace fusecc

#endif // FUSECC_CONVERSION_FUSETOGPU_FUSETOGPU_H
