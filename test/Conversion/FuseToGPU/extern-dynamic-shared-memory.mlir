// fuse-extern-dynamic-shared-memory: the zero-length shared-memory globals
// that convert-gpu-to-nvvm makes of gpu.dynamic_shared_memory become
// external (PTX: `.extern .shared .align 16 .b8 __dynamic_shmem__0[];`);
// other globals keep their linkage.

// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(fuse-extern-dynamic-shared-memory))' | FileCheck %s

// CHECK-LABEL: gpu.module @dynamic
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
gpu.module @dynamic {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
    %base = llvm.mlir.addressof @__dynamic_shmem__0 : !llvm.ptr<3>
    %v = llvm.load %base : !llvm.ptr<3> -> i32
    llvm.store %v, %p : i32, !llvm.ptr
    llvm.return
  }
}

// -----

// A sized shared array, a zero-length global array and a sized global stay
// as they were.
// CHECK-LABEL: gpu.module @untouched
// CHECK: llvm.mlir.global internal @sized() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
// CHECK: llvm.mlir.global internal @global_empty() {addr_space = 1 : i32} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global private @table(dense<1.000000e+00> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
gpu.module @untouched {
  llvm.mlir.global internal @sized() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
  llvm.mlir.global internal @global_empty() {addr_space = 1 : i32} : !llvm.array<0 x i8>
  llvm.mlir.global private @table(dense<1.0> : tensor<4xf32>) : !llvm.array<4 x f32>
}
