// RUN: fusecc-check --simulate-only %s | FileCheck %s
// Simulator semantics of mma.sync m16n8k8 tf32 operands and accumulation
// on hand-written GPU IR: the tensor cores read only the top 19 bits of each f32 operand (the
// low 13 mantissa bits are ignored), so an operand that was not rounded to
// TF32 loses them, and the split-operand (3xTF32) sum lo*hi + hi*lo + hi*hi
// of tf32x3 kernels gets them back. Every lane holds A = 1 + 2^-12
// (0x3F800800: only dropped bits set) in all four registers and B = 1, so
// D = sum over k of A x B = 8 x A's value as the tensor cores see it; lane 0
// stores D[0][0].

// A used as is: its dropped bits are ignored, D = 8.
// CHECK-LABEL: @unrounded: OK
// CHECK-NEXT: @unrounded: arg 0 [0] = 8 (0x41000000)
// Split: hi = rna_tf32(A) = 1, lo = rna_tf32(A - hi) = 2^-12 (exact in TF32),
// three MMAs: D = 8 (1 + 2^-12) = 8.00195312.
// CHECK-LABEL: @split: OK
// CHECK-NEXT: @split: arg 0 [0] = 8.00195312 (0x41000800)

// The accumulation (tensorCoreStep in SimTensorCore.cpp): C and the
// products are aligned to the largest exponent with 2 extra bits, the bits
// shifted out are dropped and the sum is normalised toward zero. C = 1 plus
// 8 products of 2^-26 (A = B = 2^-13): each is below the alignment's
// 2^-25 and dropped, D = 1 (the exact sum, 1 + 2^-23, is an f32).
// CHECK-LABEL: @aligned_out: OK
// CHECK-NEXT: @aligned_out: arg 0 [0] = 1 (0x3f800000)
// C = 1 plus one product of 3 x 2^-25 (A = 1.5 x 2^-12 in k = 0, B = 2^-12):
// kept in the alignment, but 1 + 0.75 ulp is normalised toward zero: D = 1
// (IEEE round to nearest: 1.00000012).
// CHECK-LABEL: @toward_zero: OK
// CHECK-NEXT: @toward_zero: arg 0 [0] = 1 (0x3f800000)
module attributes {gpu.container_module} {
  func.func @unrounded(%out: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @k::@unrounded blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<1xf32>)
    return
  }
  func.func @split(%out: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @k::@split blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<1xf32>)
    return
  }
  func.func @aligned_out(%out: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @k::@aligned_out blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<1xf32>)
    return
  }
  func.func @toward_zero(%out: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @k::@toward_zero blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<1xf32>)
    return
  }
  gpu.module @k {
    gpu.func @unrounded(%out: memref<1xf32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %a = arith.constant 0x3F800800 : f32
      %one = arith.constant 1.0 : f32
      %av = vector.from_elements %a, %a, %a, %a : vector<4x1xf32>
      %bv = vector.from_elements %one, %one : vector<2x1xf32>
      %acc = arith.constant dense<0.0> : vector<2x2xf32>
      %d = nvgpu.mma.sync(%av, %bv, %acc) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %d00 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
        memref.store %d00, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
    gpu.func @aligned_out(%out: memref<1xf32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %small = arith.constant 0x39000000 : f32
      %av = vector.from_elements %small, %small, %small, %small : vector<4x1xf32>
      %bv = vector.from_elements %small, %small : vector<2x1xf32>
      %acc = arith.constant dense<1.0> : vector<2x2xf32>
      %d = nvgpu.mma.sync(%av, %bv, %acc) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %d00 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
        memref.store %d00, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
    // Lane 0's a0 is A[0][0] and b0 is B[0][0]; every other operand is 0.
    gpu.func @toward_zero(%out: memref<1xf32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %a = arith.constant 0x39C00000 : f32
      %b = arith.constant 0x39800000 : f32
      %first = arith.cmpi eq, %tid, %c0 : index
      %a0 = arith.select %first, %a, %zero : f32
      %b0 = arith.select %first, %b, %zero : f32
      %av = vector.from_elements %a0, %zero, %zero, %zero : vector<4x1xf32>
      %bv = vector.from_elements %b0, %zero : vector<2x1xf32>
      %acc = arith.constant dense<1.0> : vector<2x2xf32>
      %d = nvgpu.mma.sync(%av, %bv, %acc) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.if %first {
        %d00 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
        memref.store %d00, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
    gpu.func @split(%out: memref<1xf32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %a = arith.constant 0x3F800800 : f32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %hiBits = nvvm.convert.float.to.tf32 %a {rnd = #nvvm.fp_rnd_mode<rna>}
      %hi = arith.bitcast %hiBits : i32 to f32
      %rest = arith.subf %a, %hi : f32
      %loBits = nvvm.convert.float.to.tf32 %rest {rnd = #nvvm.fp_rnd_mode<rna>}
      %lo = arith.bitcast %loBits : i32 to f32
      %aHi = vector.from_elements %hi, %hi, %hi, %hi : vector<4x1xf32>
      %aLo = vector.from_elements %lo, %lo, %lo, %lo : vector<4x1xf32>
      %bHi = vector.from_elements %one, %one : vector<2x1xf32>
      %bLo = vector.from_elements %zero, %zero : vector<2x1xf32>
      %acc = arith.constant dense<0.0> : vector<2x2xf32>
      %d0 = nvgpu.mma.sync(%aLo, %bHi, %acc) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %d1 = nvgpu.mma.sync(%aHi, %bLo, %d0) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %d = nvgpu.mma.sync(%aHi, %bHi, %d1) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %d00 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
        memref.store %d00, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
}
