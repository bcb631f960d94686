// A dynamic batch (docs/design/plans.md, "Dynamic batch"; docs/bundle.md,
// "Version 4"): `--max-batch=N` compiles a graph whose batched tensors have
// a dynamic leading dim into one bundle for batches 1..N. The manifest
// gives one sample's sizes: batched args' dim 0 is `b`, per-sample
// workspaces are `<elements>*b`, per-sample launches have grid z `b`; the
// weight re-layout reads only the weight and runs once. Each per-sample
// kernel advances its batched pointers by ctaid.z slices (the batch is the
// grid's z extent, so no kernel takes it as an argument or guards on it);
// the shared ones (weight, bias, the weight image) are not advanced.
// REQUIRES: ptxas

// RUN: fusecc %s --max-batch=64 --precision=tf32 --chip=sm_90a --tile-wgmma=always -o - | FileCheck %s
// RUN: fusecc %s --max-batch=64 --precision=tf32 --chip=sm_90a --tile-wgmma=always --emit=nvvm | FileCheck %s --check-prefix=NVVM
// RUN: fusecc %s --max-batch=64 --precision=tf32 --chip=sm_90a --tile-wgmma=always --emit=ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: not fusecc %s -o %t.fcb 2>&1 | FileCheck %s --check-prefix=NOBOUND
// RUN: not fusecc %s --max-batch=0 -o %t.fcb 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not fusecc %S/../../examples/decoder2d.mlir --max-batch=4 -o %t.fcb 2>&1 | FileCheck %s --check-prefix=STATIC

// CHECK: fusecc-bundle 4
// The weight re-layouts are prepare steps (docs/bundle.md), listed first.
// CHECK: entry dec args 4 workspaces 4 steps 5 prepare 2 max_batch 64
// CHECK-NEXT: arg 0 in x f32 4 b 16 8 8
// CHECK-NEXT: arg 1 in w f32 4 16 8 4 4
// CHECK-NEXT: arg 2 in b f32 1 8
// CHECK-NEXT: arg 3 out result f32 4 b 8 16 16
// CHECK-NEXT: workspace 0 f32 64*b partials
// CHECK-NEXT: workspace 1 f32 8*b intermediate
// CHECK-NEXT: workspace 2 f32 2048 prepared
// CHECK-NEXT: workspace 3 f32 2048 prepared
// CHECK-NEXT: launch dec_k0_wpack grid 1 1 1 block 256 1 1 smem 0 params 2 1 w2
// CHECK-NEXT: launch dec_k1_wpack grid 1 1 1 block 256 1 1 smem 0 params 2 1 w3
// CHECK-NEXT: launch dec_k0 grid 4 1 b block 128 1 1 smem {{[0-9]+}} params 5 0 1 2 w2 w0
// CHECK-NEXT: launch dec_k2 grid 1 1 b block 256 1 1 smem {{[0-9]+}} params 2 w0 w1
// CHECK-NEXT: launch dec_k1 grid 4 1 b block 128 1 1 smem {{[0-9]+}} params 6 0 1 2 w1 w3 3
// CHECK: graph %4 = reshape %3 shape=-1,8,256
// CHECK-NEXT: graph %5 = softmax %4 dim=2
// CHECK-NEXT: graph %6 = reshape %5 shape=-1,8,16,16

// The weight re-layout: no offset. The convolution (recomputed for the
// softmax, tf32): x (0) and its statistics advanced, the weight image not.
// NVVM-LABEL: llvm.func @dec_k0(
// NVVM: %[[Z:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// NVVM-NEXT: %[[S:.*]] = llvm.zext %[[Z]] : i32 to i64
// NVVM-NEXT: %[[O0:.*]] = llvm.mul %[[S]], %{{.*}} : i64
// NVVM-NEXT: llvm.getelementptr %arg0[%[[O0]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// NVVM-NEXT: %[[O4:.*]] = llvm.mul %[[S]], %{{.*}} : i64
// NVVM-NEXT: llvm.getelementptr %arg4[%[[O4]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// NVVM-LABEL: llvm.func @dec_k0_wpack(
// NVVM-NOT: ctaid.z
// NVVM-LABEL: llvm.func @dec_k2(

// NOBOUND: error: the graph has dynamic dims ('?'); compile it with --max-batch=N
// RANGE: error: --max-batch must be 1..65535, got 0
// STATIC: error: --max-batch needs a graph whose batched tensors have a dynamic leading dim

func.func @dec(%x: tensor<?x16x8x8xf32> {fuse.name = "x"},
               %w: tensor<16x8x4x4xf32> {fuse.name = "w"},
               %b: tensor<8xf32> {fuse.name = "b"}) -> tensor<?x8x16x16xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<?x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<8xf32>) -> tensor<?x8x16x16xf32>
  %v = fuse.reshape %c : tensor<?x8x16x16xf32> -> tensor<?x8x256xf32>
  %s = fuse.softmax %v {dim = 2 : i64} : tensor<?x8x256xf32>
  %r = fuse.reshape %s : tensor<?x8x256xf32> -> tensor<?x8x16x16xf32>
  return %r : tensor<?x8x16x16xf32>
}
