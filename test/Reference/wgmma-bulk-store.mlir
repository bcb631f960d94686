// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-rows=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-rows=2 --tile-max-w=16 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=GPU
// RUN: fusecc --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=SPLIT
// The result tile stored by bulk copies (docs/design/plans.md, "Kernels"): where
// the result is a cheap elementwise function of the convolution and the
// kernel has W stride 1 or split operands, each thread evaluates it on its
// accumulators, stores it to the tile (each line at its global offset
// modulo 4), and one thread per line copies the line's 16-byte-aligned
// middle with nvvm.cp.async.bulk.global.shared.cta, the up to 3 + 3 edge
// elements one by one. Shapes: rows a multiple of 4 long (16-byte tile
// stores, no edges), even (8-byte stores, lines 8 bytes off in every other
// row), odd (every line at its own offset), 1-D and 3-D, channels that fill
// no 64-channel group (padding rows), rows and positions past the output,
// under one row, two rows and 16-position tiles (lines that start inside a
// row and a last tile cut short).

// GPU-LABEL: gpu.func @bulk_w4_k0(
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: gpu.barrier
// GPU: vector.store {{.*}}, %view[{{.*}}] {alignment = 8 : i64} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// GPU: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// GPU-NEXT: gpu.barrier
// GPU: nvvm.cp.async.bulk.global.shared.cta
// GPU: nvvm.cp.async.bulk.commit.group
// GPU-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// GPU-NEXT: gpu.return
// GPU-LABEL: gpu.func @bulk_w2_k0(
// GPU: vector<2xf32>
// GPU: nvvm.cp.async.bulk.global.shared.cta
// GPU-LABEL: gpu.func @bulk_odd_k0(
// GPU: nvvm.cp.async.bulk.global.shared.cta
// GPU-LABEL: gpu.func @bulk_1d_k0(
// GPU: nvvm.cp.async.bulk.global.shared.cta
// GPU-LABEL: gpu.func @bulk_3d_k0(
// GPU: nvvm.cp.async.bulk.global.shared.cta
// tf32 at W stride 2 keeps the tile walk (its tile stores would conflict),
// and so does an expensive epilogue (exp).
// GPU-LABEL: gpu.func @s2_odd_k0(
// GPU-NOT: nvvm.cp.async.bulk
// GPU: gpu.return
// GPU-LABEL: gpu.func @exp_s1_k0(
// GPU-NOT: nvvm.cp.async.bulk
// GPU: gpu.return
// Split operands take the copies at W stride 2 too.
// SPLIT-LABEL: gpu.func @s2_odd_k0(
// SPLIT: nvvm.wgmma.wait.group.sync.aligned 0
// SPLIT: gpu.barrier
// SPLIT: memref.store {{.*}}, %view[{{.*}}] : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// SPLIT: nvvm.cp.async.bulk.global.shared.cta
// SPLIT-LABEL: gpu.func @exp_s1_k0(
// SPLIT-NOT: nvvm.cp.async.bulk
// SPLIT: gpu.return

// CHECK: @bulk_w4: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @bulk_w2: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @bulk_odd: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @bulk_1d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @bulk_3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @s2_odd: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @exp_s1: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK-NOT: FAIL

func.func @bulk_w4(%x: tensor<2x24x6x30xf32>, %w: tensor<24x40x3x3xf32>, %b: tensor<40xf32>, %bias: tensor<40x1x1xf32>) -> tensor<2x40x8x32xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x6x30xf32>, tensor<24x40x3x3xf32>, tensor<40xf32>) -> tensor<2x40x8x32xf32>
  %1 = fuse.add %0, %bias : tensor<2x40x8x32xf32>, tensor<40x1x1xf32> -> tensor<2x40x8x32xf32>
  %2 = fuse.clamp %1 {min = -0.5 : f64, max = 0.5 : f64} : tensor<2x40x8x32xf32>
  return %2 : tensor<2x40x8x32xf32>
}

func.func @bulk_w2(%x: tensor<1x16x5x28xf32>, %w: tensor<16x24x3x3xf32>) -> tensor<1x24x7x30xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x5x28xf32>, tensor<16x24x3x3xf32>) -> tensor<1x24x7x30xf32>
  return %0 : tensor<1x24x7x30xf32>
}

func.func @bulk_odd(%x: tensor<3x8x4x27xf32>, %w: tensor<8x70x3x3xf32>, %b: tensor<70xf32>) -> tensor<3x70x6x29xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x8x4x27xf32>, tensor<8x70x3x3xf32>, tensor<70xf32>) -> tensor<3x70x6x29xf32>
  %c = arith.constant dense<2.0> : tensor<f32>
  %1 = fuse.mul %0, %c : tensor<3x70x6x29xf32>, tensor<f32> -> tensor<3x70x6x29xf32>
  return %1 : tensor<3x70x6x29xf32>
}

func.func @bulk_1d(%x: tensor<3x8x128xf32>, %w: tensor<8x12x3xf32>, %b: tensor<12xf32>) -> tensor<3x12x130xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x8x128xf32>, tensor<8x12x3xf32>, tensor<12xf32>) -> tensor<3x12x130xf32>
  return %0 : tensor<3x12x130xf32>
}

func.func @bulk_3d(%x: tensor<1x8x3x4x5xf32>, %w: tensor<8x16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x5x6x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x8x3x4x5xf32>, tensor<8x16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x5x6x7xf32>
  %1 = fuse.relu %0 : tensor<1x16x5x6x7xf32>
  return %1 : tensor<1x16x5x6x7xf32>
}

func.func @s2_odd(%x: tensor<2x16x5x10xf32>, %w: tensor<16x24x3x3xf32>, %b: tensor<24xf32>) -> tensor<2x24x11x21xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x5x10xf32>, tensor<16x24x3x3xf32>, tensor<24xf32>) -> tensor<2x24x11x21xf32>
  return %0 : tensor<2x24x11x21xf32>
}

func.func @exp_s1(%x: tensor<1x16x5x28xf32>, %w: tensor<16x24x3x3xf32>) -> tensor<1x24x7x30xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x5x28xf32>, tensor<16x24x3x3xf32>) -> tensor<1x24x7x30xf32>
  %1 = fuse.exp %0 : tensor<1x24x7x30xf32>
  return %1 : tensor<1x24x7x30xf32>
}
