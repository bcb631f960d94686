// RUN: not fusecc-check --simulate-only %s | FileCheck %s
// Simulator semantics of the fast epilogue math (`--epilogue-math=fast`),
// on hand-written GPU IR: ex2.approx.ftz as an LLVM intrinsic call flushes
// denormal inputs (exp2(denormal) = 1) and results (exp2(-130) = 0), keeps
// the smallest normal result (exp2(-126)), overflows to inf. Other
// intrinsics are rejected.

// CHECK-LABEL: @ex2: OK
// CHECK-NEXT: @ex2: arg 0 [0] = 2 (0x40000000)
// CHECK-NEXT: @ex2: arg 0 [1] = 0.5 (0x3f000000)
// CHECK-NEXT: @ex2: arg 0 [2] = 1 (0x3f800000)
// CHECK-NEXT: @ex2: arg 0 [3] = 0 (0x00000000)
// CHECK-NEXT: @ex2: arg 0 [4] = 1.{{[0-9]+}}e-38 (0x00800000)
// CHECK-NEXT: @ex2: arg 0 [5] = inf (0x7f800000)
// CHECK-NEXT: @ex2: arg 0 [6] = 0 (0x00000000)
// CHECK: @bad_intrinsic: FAIL (simulator: unsupported intrinsic 'llvm.nvvm.sqrt.approx.f'
module attributes {gpu.container_module} {
  func.func @ex2(%out: memref<7xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@ex2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<7xf32>)
    return
  }
  func.func @bad_intrinsic(%out: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@bad_intrinsic blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xf32>)
    return
  }
  gpu.module @k {
    gpu.func @ex2(%out: memref<7xf32>) kernel {
      %v0 = arith.constant 1.0 : f32
      %v1 = arith.constant -1.0 : f32
      %v2 = arith.constant 0x00000FFF : f32
      %v3 = arith.constant -130.0 : f32
      %v4 = arith.constant -126.0 : f32
      %v5 = arith.constant 200.0 : f32
      %v6 = arith.constant 0xFF800000 : f32
      %r0 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%v0) : (f32) -> f32
      %r1 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%v1) : (f32) -> f32
      %r2 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%v2) : (f32) -> f32
      %r3 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%v3) : (f32) -> f32
      %r4 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%v4) : (f32) -> f32
      %r5 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%v5) : (f32) -> f32
      %r6 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%v6) : (f32) -> f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      memref.store %r0, %out[%c0] : memref<7xf32>
      memref.store %r1, %out[%c1] : memref<7xf32>
      memref.store %r2, %out[%c2] : memref<7xf32>
      memref.store %r3, %out[%c3] : memref<7xf32>
      memref.store %r4, %out[%c4] : memref<7xf32>
      memref.store %r5, %out[%c5] : memref<7xf32>
      memref.store %r6, %out[%c6] : memref<7xf32>
      gpu.return
    }
    gpu.func @bad_intrinsic(%out: memref<1xf32>) kernel {
      %v = arith.constant 4.0 : f32
      %r = llvm.call_intrinsic "llvm.nvvm.sqrt.approx.f"(%v) : (f32) -> f32
      %c0 = arith.constant 0 : index
      memref.store %r, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}
