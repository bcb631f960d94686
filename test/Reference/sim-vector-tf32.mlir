// RUN: not fusecc-check --simulate-only %s | FileCheck %s
// Simulator semantics of ops the kernel builder emits for staging, tf32
// operand rounding and 16-byte output stores, on hand-written GPU IR.

// cvt.rna.tf32.f32: 10 mantissa bits, ties away from zero, low 13 bits zero.
// CHECK-LABEL: @cvt: OK
// CHECK-NEXT: @cvt: arg 0 [0] = 1.00097656 (0x3f802000)
// CHECK-NEXT: @cvt: arg 0 [1] = 1 (0x3f800000)
// CHECK-NEXT: @cvt: arg 0 [2] = -1.00097656 (0xbf802000)
// CHECK-NEXT: @cvt: arg 0 [3] = 1.00097656 (0x3f802000)
// CHECK-NEXT: @cvt: arg 0 [4] = inf (0x7f800000)
// CHECK-NEXT: @cvt: arg 0 [5] = 3.{{[0-9]+}}e+38 (0x7f7fe000)
// CHECK-NEXT: @cvt: arg 0 [6] = nan (0x7fffffff)
// CHECK-NEXT: @cvt: arg 0 [7] = -inf (0xff800000)
// CHECK-NEXT: @cvt: arg 0 [8] = 1.{{[0-9]+}}e-38 (0x00802000)
// CHECK-NEXT: @cvt: arg 0 [9] = 0 (0x00000000)
module attributes {gpu.container_module} {
  func.func @cvt(%out: memref<10xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @k::@cvt blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<10xf32>)
    return
  }
  // Kernel-side vector.load: 4 consecutive elements along the last dim.
  // CHECK-LABEL: @vload: OK
  // CHECK-NEXT: @vload: arg 1 [0] = 0 (0x00000000)
  // CHECK-NEXT: @vload: arg 1 [1] = 0 (0x00000000)
  // CHECK-NEXT: @vload: arg 1 [2] = 0 (0x00000000)
  // CHECK-NEXT: @vload: arg 1 [3] = 0 (0x00000000)
  func.func @vload(%in: memref<2x8xf32>, %out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@vload blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<2x8xf32>, %out : memref<4xf32>)
    return
  }
  // Element 9 is at byte 36: not a multiple of 16.
  // CHECK: @misaligned: FAIL (simulator: misaligned vector access: byte offset 36 (element 9) of argument 0 is not a multiple of the 16-byte alignment in 'vector.load'
  func.func @misaligned(%in: memref<2x8xf32>, %out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@misaligned blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<2x8xf32>, %out : memref<4xf32>)
    return
  }
  // CHECK: @oob: FAIL (simulator: out-of-bounds access: vector of 4 elements at [1, 5] overruns the last dimension of argument 0 of shape 2x8 in 'vector.load'
  func.func @oob(%in: memref<2x8xf32>, %out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@oob blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<2x8xf32>, %out : memref<4xf32>)
    return
  }
  // Kernel-side vector.store: 4 consecutive elements along the last dim,
  // here into a 2x8 output at [1, 4].
  // CHECK-LABEL: @vstore: OK
  // CHECK-NEXT: @vstore: arg 0 [1, 4] = 1 (0x3f800000)
  // CHECK-NEXT: @vstore: arg 0 [1, 5] = 2 (0x40000000)
  // CHECK-NEXT: @vstore: arg 0 [1, 6] = 3 (0x40400000)
  // CHECK-NEXT: @vstore: arg 0 [1, 7] = 4 (0x40800000)
  func.func @vstore(%out: memref<2x8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@vstore blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<2x8xf32>)
    return
  }
  // CHECK: @vstore_misaligned: FAIL (simulator: misaligned vector access: byte offset 40 (element 10) of argument 0 is not a multiple of the 16-byte alignment in 'vector.store'
  func.func @vstore_misaligned(%out: memref<2x8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@vstore_misaligned blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<2x8xf32>)
    return
  }
  // CHECK: @vstore_oob: FAIL (simulator: out-of-bounds access: 4 elements at [0, 6] overrun the last dimension of argument 0 of shape 2x8 in 'vector.store'
  func.func @vstore_oob(%out: memref<2x8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@vstore_oob blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<2x8xf32>)
    return
  }
  // Two threads whose vectors overlap in element 3: a race, like two
  // scalar stores would be.
  // CHECK: @vstore_race: FAIL (simulator: global memory race: element 3 of argument 0 written by two threads (no barrier)
  func.func @vstore_race(%out: memref<2x8xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @k::@vstore_race blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%out : memref<2x8xf32>)
    return
  }
  gpu.module @k {
    gpu.func @vstore(%out: memref<2x8xf32>) kernel {
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %f1 = arith.constant 1.0 : f32
      %f2 = arith.constant 2.0 : f32
      %f3 = arith.constant 3.0 : f32
      %f4 = arith.constant 4.0 : f32
      %v = vector.from_elements %f1, %f2, %f3, %f4 : vector<4xf32>
      vector.store %v, %out[%c1, %c4] {alignment = 16} : memref<2x8xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @vstore_misaligned(%out: memref<2x8xf32>) kernel {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      vector.store %v, %out[%c1, %c2] {alignment = 16} : memref<2x8xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @vstore_oob(%out: memref<2x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c6 = arith.constant 6 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      vector.store %v, %out[%c0, %c6] : memref<2x8xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @vstore_race(%out: memref<2x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %tid = gpu.thread_id x
      %col = arith.muli %tid, %c3 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      vector.store %v, %out[%c0, %col] : memref<2x8xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @cvt(%out: memref<10xf32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        // Ties (only bit 12 of the dropped bits set) round away from zero;
        // max float rounds to inf; NaN becomes canonical; subnormals round.
        %v0 = arith.constant 0x3F801000 : f32
        %v1 = arith.constant 0x3F800FFF : f32
        %v2 = arith.constant 0xBF801000 : f32
        %v3 = arith.constant 0x3F801001 : f32
        %v4 = arith.constant 0x7F7FFFFF : f32
        %v5 = arith.constant 0x7F7FEFFF : f32
        %v6 = arith.constant 0x7FC00001 : f32
        %v7 = arith.constant 0xFF800000 : f32
        %v8 = arith.constant 0x00801000 : f32
        %v9 = arith.constant 0x00000FFF : f32
        %c1 = arith.constant 1 : index
        %r0 = nvvm.convert.float.to.tf32 %v0 {rnd = #nvvm.fp_rnd_mode<rna>}
        %r1 = nvvm.convert.float.to.tf32 %v1 {rnd = #nvvm.fp_rnd_mode<rna>}
        %r2 = nvvm.convert.float.to.tf32 %v2 {rnd = #nvvm.fp_rnd_mode<rna>}
        %r3 = nvvm.convert.float.to.tf32 %v3 {rnd = #nvvm.fp_rnd_mode<rna>}
        %r4 = nvvm.convert.float.to.tf32 %v4 {rnd = #nvvm.fp_rnd_mode<rna>}
        %r5 = nvvm.convert.float.to.tf32 %v5 {rnd = #nvvm.fp_rnd_mode<rna>}
        %r6 = nvvm.convert.float.to.tf32 %v6 {rnd = #nvvm.fp_rnd_mode<rna>}
        %r7 = nvvm.convert.float.to.tf32 %v7 {rnd = #nvvm.fp_rnd_mode<rna>}
        %r8 = nvvm.convert.float.to.tf32 %v8 {rnd = #nvvm.fp_rnd_mode<rna>}
        %r9 = nvvm.convert.float.to.tf32 %v9 {rnd = #nvvm.fp_rnd_mode<rna>}
        %f0 = arith.bitcast %r0 : i32 to f32
        %f1 = arith.bitcast %r1 : i32 to f32
        %f2 = arith.bitcast %r2 : i32 to f32
        %f3 = arith.bitcast %r3 : i32 to f32
        %f4 = arith.bitcast %r4 : i32 to f32
        %f5 = arith.bitcast %r5 : i32 to f32
        %f6 = arith.bitcast %r6 : i32 to f32
        %f7 = arith.bitcast %r7 : i32 to f32
        %f8 = arith.bitcast %r8 : i32 to f32
        %f9 = arith.bitcast %r9 : i32 to f32
        %c2 = arith.constant 2 : index
        %c3 = arith.constant 3 : index
        %c4 = arith.constant 4 : index
        %c5 = arith.constant 5 : index
        %c6 = arith.constant 6 : index
        %c7 = arith.constant 7 : index
        %c8 = arith.constant 8 : index
        %c9 = arith.constant 9 : index
        memref.store %f0, %out[%c0] : memref<10xf32>
        memref.store %f1, %out[%c1] : memref<10xf32>
        memref.store %f2, %out[%c2] : memref<10xf32>
        memref.store %f3, %out[%c3] : memref<10xf32>
        memref.store %f4, %out[%c4] : memref<10xf32>
        memref.store %f5, %out[%c5] : memref<10xf32>
        memref.store %f6, %out[%c6] : memref<10xf32>
        memref.store %f7, %out[%c7] : memref<10xf32>
        memref.store %f8, %out[%c8] : memref<10xf32>
        memref.store %f9, %out[%c9] : memref<10xf32>
      }
      gpu.return
    }
    gpu.func @vload(%in: memref<2x8xf32>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %v = vector.load %in[%c1, %c4] {alignment = 16} : memref<2x8xf32>, vector<4xf32>
      %e0 = vector.extract %v[0] : f32 from vector<4xf32>
      %e1 = vector.extract %v[1] : f32 from vector<4xf32>
      %e2 = vector.extract %v[2] : f32 from vector<4xf32>
      %e3 = vector.extract %v[3] : f32 from vector<4xf32>
      %s0 = memref.load %in[%c1, %c4] : memref<2x8xf32>
      %s1 = memref.load %in[%c1, %c5] : memref<2x8xf32>
      %s2 = memref.load %in[%c1, %c6] : memref<2x8xf32>
      %s3 = memref.load %in[%c1, %c7] : memref<2x8xf32>
      %d0 = arith.subf %e0, %s0 : f32
      %d1 = arith.subf %e1, %s1 : f32
      %d2 = arith.subf %e2, %s2 : f32
      %d3 = arith.subf %e3, %s3 : f32
      memref.store %d0, %out[%c0] : memref<4xf32>
      memref.store %d1, %out[%c1] : memref<4xf32>
      memref.store %d2, %out[%c2] : memref<4xf32>
      memref.store %d3, %out[%c3] : memref<4xf32>
      gpu.return
    }
    gpu.func @misaligned(%in: memref<2x8xf32>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v = vector.load %in[%c1, %c1] {alignment = 16} : memref<2x8xf32>, vector<4xf32>
      %e0 = vector.extract %v[0] : f32 from vector<4xf32>
      memref.store %e0, %out[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @oob(%in: memref<2x8xf32>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %v = vector.load %in[%c1, %c5] : memref<2x8xf32>, vector<4xf32>
      %e0 = vector.extract %v[0] : f32 from vector<4xf32>
      memref.store %e0, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
