// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=never %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-rows=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --precision=bf16 %s | FileCheck %s
// RUN: fusecc-check --precision=fp16 --chip=sm_90a %s | FileCheck %s
// RUN: fusecc %s --precision=tf32 --emit=fused | FileCheck %s --check-prefix=FUSED
// RUN: fusecc %s --precision=ieee --ieee-tensor-cores=never --emit=plan | FileCheck %s --check-prefix=PLAN
// Pooling applied in the convolution kernel's epilogue (PooledEpilogue):
// the simulator runs the one fused kernel on every main loop (FMA,
// split-operand, TF32 and bf16/f16 mma.sync, wgmma) and compares with the float64
// reference, at awkward shapes: batch 1 and 3, channel counts that fit no
// tile, spatial sizes 1, 5 and 7, overlapping windows (stride < kernel),
// gaps (stride > kernel), dilation, ceil_mode windows clipped at the end,
// a stride-1 convolution whose windows take several row groups, pooling
// over part of the spatial dims, elementwise ops before and after, and a
// reduction over the channels after the pooling.

// CHECK: @max3d_chain: PASS
// CHECK: @avg2d_overlap_ceil: PASS
// CHECK: @max1d_dilated: PASS
// CHECK: @avg3d_hw_only_divisor: PASS
// CHECK: @max2d_gaps_stride1: PASS
// CHECK: @avg3d_sp1_batch1: PASS
// CHECK: @max2d_rows_stride3: PASS
// CHECK: @max3d_partial_wide: PASS
// CHECK: @avg2d_partial_stride1: PASS
// CHECK: @max3d_then_sum: PASS
// CHECK: @avg2d_then_amax: PASS
// CHECK: @max3d_partial_then_lse: PASS
// CHECK: @max2d_partial_dilated_ceil: PASS
// CHECK: @avg3d_partial_overlap_ceil: PASS
// CHECK: @max_of_max_then_sum: PASS
// CHECK: @avg_of_avg_2d: PASS

// Small tiles keep every pass's tile; large ones (70 or 64 channels of
// 120 or 200 positions) combine partial windows after each pass.
// PLAN: step 0 max3d_chain_k0 (convolution, pooled epilogue: max_pool, 1 pooled row per block in 4 main-loop passes, tiles kept)
// PLAN: step 0 avg2d_overlap_ceil_k0 (convolution, pooled epilogue: avg_pool, 1 pooled row per block in 3 main-loop passes, tiles kept)
// PLAN: step 0 max3d_partial_wide_k0 (convolution, pooled epilogue: max_pool, 1 pooled row per block in 4 main-loop passes, partial windows combined)
// PLAN: step 0 avg2d_partial_stride1_k0 (convolution, pooled epilogue: avg_pool, 1 pooled row per block in 3 main-loop passes, partial windows combined)
// PLAN: step 0 max3d_then_sum_k0 (convolution, pooled epilogue: max_pool, {{.*}}, then sum over the channels)
// PLAN-NEXT: reads arg0 arg1 arg2 arg3
// PLAN-NEXT: writes result (3x1x2x2x3xf32)
// PLAN: step 0 avg2d_then_amax_k0 (convolution, pooled epilogue: avg_pool, {{.*}}, then amax over the channels)
// PLAN-NEXT: reads arg0 arg1
// PLAN-NEXT: writes result (1x5x5xf32)
// PLAN: step 0 max3d_partial_then_lse_k0 (convolution, pooled epilogue: max_pool, {{.*}} partial windows combined, then logsumexp over the channels)
// PLAN-NEXT: reads arg0 arg1 arg2
// PLAN-NEXT: writes result (3x1x2x3x60xf32)
// PLAN: step 0 max2d_partial_dilated_ceil_k0 (convolution, pooled epilogue: max_pool, {{.*}} partial windows combined)
// PLAN: step 0 avg3d_partial_overlap_ceil_k0 (convolution, pooled epilogue: avg_pool, {{.*}} partial windows combined)
// PLAN-LABEL: plan @max_of_max_then_sum: 1 kernel
// PLAN: step 0 max_of_max_then_sum_k0 (convolution, pooled epilogue: max_pool, {{.*}}, then sum over the channels)
// PLAN-LABEL: plan @avg_of_avg_2d: 1 kernel
// PLAN: step 0 avg_of_avg_2d_k0 (convolution, pooled epilogue: avg_pool,

// FUSED-LABEL: func.func @max3d_chain
// FUSED: fuse.kernel "max3d_chain_k0"
// FUSED: fuse.conv_transpose
// FUSED: fuse.max_pool
// FUSED: fuse.add
// FUSED: fuse.yield
// FUSED-NOT: fuse.kernel
// FUSED-LABEL: func.func @avg2d_overlap_ceil
// FUSED: fuse.conv_transpose
// FUSED-NEXT: fuse.avg_pool
// FUSED-NEXT: fuse.yield

// kb2_74's chain at 3 x 5 channels, 7 x 5 x 7 output, then a bias after the
// pool.
func.func @max3d_chain(%x: tensor<3x4x3x3x4xf32>, %w: tensor<4x5x3x3x3xf32>,
                       %cb: tensor<5xf32>, %m: tensor<5x1x1x1xf32>,
                       %pb: tensor<5x1x1x1xf32>) -> tensor<3x5x2x2x3xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<3x4x3x3x4xf32>, tensor<4x5x3x3x3xf32>, tensor<5xf32>) -> tensor<3x5x5x5x7xf32>
  %1 = fuse.leaky_relu %0 {slope = 0.2 : f64} : tensor<3x5x5x5x7xf32>
  %2 = fuse.mul %1, %m : tensor<3x5x5x5x7xf32>, tensor<5x1x1x1xf32> -> tensor<3x5x5x5x7xf32>
  %3 = fuse.max_pool %2 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<3x5x5x5x7xf32> -> tensor<3x5x2x2x3xf32>
  %4 = fuse.add %3, %pb : tensor<3x5x2x2x3xf32>, tensor<5x1x1x1xf32> -> tensor<3x5x2x2x3xf32>
  %5 = fuse.tanh %4 : tensor<3x5x2x2x3xf32>
  return %5 : tensor<3x5x2x2x3xf32>
}

// Overlapping 3 x 3 windows at stride 2 with ceil_mode (the last windows
// are clipped) on a stride-1 convolution: a block's windows span rows of
// several row groups.
func.func @avg2d_overlap_ceil(%x: tensor<1x3x6x6xf32>, %w: tensor<3x6x3x3xf32>) -> tensor<1x6x4x4xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x3x6x6xf32>, tensor<3x6x3x3xf32>) -> tensor<1x6x8x8xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, ceil_mode = true} : tensor<1x6x8x8xf32> -> tensor<1x6x4x4xf32>
  return %1 : tensor<1x6x4x4xf32>
}

// A 1-D max pool with dilation 2 after a stride-3 convolution.
func.func @max1d_dilated(%x: tensor<3x5x7xf32>, %w: tensor<5x7x4xf32>, %b: tensor<7xf32>) -> tensor<3x7x8xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<3x5x7xf32>, tensor<5x7x4xf32>, tensor<7xf32>) -> tensor<3x7x20xf32>
  %1 = fuse.gelu %0 : tensor<3x7x20xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 0>, dilation = array<i64: 2>} : tensor<3x7x20xf32> -> tensor<3x7x8xf32>
  return %2 : tensor<3x7x8xf32>
}

// Pooling over H and W of a 3-D result (kernel 1 along D) with a divisor.
func.func @avg3d_hw_only_divisor(%x: tensor<3x2x2x3x3xf32>, %w: tensor<2x3x2x3x3xf32>) -> tensor<3x3x3x3x3xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<3x2x2x3x3xf32>, tensor<2x3x2x3x3xf32>) -> tensor<3x3x3x8x8xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 1, 2, 2>, stride = array<i64: 1, 2, 2>, padding = array<i64: 0, 0, 0>, divisor_override = 3 : i64} : tensor<3x3x3x8x8xf32> -> tensor<3x3x3x4x4xf32>
  %2 = fuse.sigmoid %1 : tensor<3x3x3x4x4xf32>
  %3 = fuse.avg_pool %2 {kernel_size = array<i64: 1, 2, 2>, stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>} : tensor<3x3x3x4x4xf32> -> tensor<3x3x3x3x3xf32>
  return %3 : tensor<3x3x3x3x3xf32>
}

// Windows with gaps (kernel 2, stride 3) on a stride-1 convolution.
func.func @max2d_gaps_stride1(%x: tensor<3x17x5x7xf32>, %w: tensor<17x3x2x2xf32>) -> tensor<3x3x2x3xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x17x5x7xf32>, tensor<17x3x2x2xf32>) -> tensor<3x3x6x8xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 3, 3>, padding = array<i64: 0, 0>} : tensor<3x3x6x8xf32> -> tensor<3x3x2x3xf32>
  return %1 : tensor<3x3x2x3xf32>
}

// Spatial size 1 after pooling, batch 1, 33 channels (three channel tiles
// on some paths).
func.func @avg3d_sp1_batch1(%x: tensor<1x8x1x1x1xf32>, %w: tensor<8x33x2x2x2xf32>, %b: tensor<33xf32>) -> tensor<1x33x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<1x8x1x1x1xf32>, tensor<8x33x2x2x2xf32>, tensor<33xf32>) -> tensor<1x33x2x2x2xf32>
  %1 = fuse.relu %0 : tensor<1x33x2x2x2xf32>
  %2 = fuse.avg_pool %1 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<1x33x2x2x2xf32> -> tensor<1x33x1x1x1xf32>
  return %2 : tensor<1x33x1x1x1xf32>
}

// Several pooled rows per block over a stride-3 convolution (rows of one
// phase 3 apart, windows of 2 rows at stride 2).
func.func @max2d_rows_stride3(%x: tensor<1x4x5x3xf32>, %w: tensor<4x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x7x4xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3, 3>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x5x3xf32>, tensor<4x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x15x9xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x5x15x9xf32> -> tensor<1x5x7x4xf32>
  return %1 : tensor<1x5x7x4xf32>
}

// Partial windows: a wide 3-D max pool, and overlapping-free 3 x 3 average
// windows clipped by ceil_mode on a stride-1 convolution.
func.func @max3d_partial_wide(%x: tensor<1x6x2x3x60xf32>, %w: tensor<6x70x2x2x2xf32>, %b: tensor<70xf32>) -> tensor<1x70x2x3x60xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<1x6x2x3x60xf32>, tensor<6x70x2x2x2xf32>, tensor<70xf32>) -> tensor<1x70x4x6x120xf32>
  %1 = fuse.leaky_relu %0 {slope = 0.2 : f64} : tensor<1x70x4x6x120xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<1x70x4x6x120xf32> -> tensor<1x70x2x3x60xf32>
  return %2 : tensor<1x70x2x3x60xf32>
}
func.func @avg2d_partial_stride1(%x: tensor<1x4x7x198xf32>, %w: tensor<4x64x3x3xf32>) -> tensor<1x64x3x67xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x7x198xf32>, tensor<4x64x3x3xf32>) -> tensor<1x64x9x200xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 3, 3>, padding = array<i64: 0, 0>, ceil_mode = true} : tensor<1x64x9x200xf32> -> tensor<1x64x3x67xf32>
  return %1 : tensor<1x64x3x67xf32>
}

// A reduction over the channels after the pooling, in the same kernel
// (blocks hold all channels): elementwise ops between and after, keepdim
// or not, kept tiles and partial windows (70 channels of 120 positions).
func.func @max3d_then_sum(%x: tensor<3x4x3x3x4xf32>, %w: tensor<4x5x3x3x3xf32>,
                          %cb: tensor<5xf32>, %m: tensor<5x1x1x1xf32>) -> tensor<3x1x2x2x3xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<3x4x3x3x4xf32>, tensor<4x5x3x3x3xf32>, tensor<5xf32>) -> tensor<3x5x5x5x7xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<3x5x5x5x7xf32> -> tensor<3x5x2x2x3xf32>
  %2 = fuse.mul %1, %m : tensor<3x5x2x2x3xf32>, tensor<5x1x1x1xf32> -> tensor<3x5x2x2x3xf32>
  %3 = fuse.sum %2 {dims = array<i64: 1>, keepdim = true} : tensor<3x5x2x2x3xf32> -> tensor<3x1x2x2x3xf32>
  %c = arith.constant dense<0.5> : tensor<f32>
  %4 = fuse.add %3, %c : tensor<3x1x2x2x3xf32>, tensor<f32> -> tensor<3x1x2x2x3xf32>
  return %4 : tensor<3x1x2x2x3xf32>
}
func.func @avg2d_then_amax(%x: tensor<1x3x6x6xf32>, %w: tensor<3x70x3x3xf32>) -> tensor<1x5x5xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x6x6xf32>, tensor<3x70x3x3xf32>) -> tensor<1x70x12x12xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x70x12x12xf32> -> tensor<1x70x5x5xf32>
  %2 = fuse.amax %1 {dims = array<i64: 1>, keepdim = false} : tensor<1x70x5x5xf32> -> tensor<1x5x5xf32>
  return %2 : tensor<1x5x5xf32>
}
func.func @max3d_partial_then_lse(%x: tensor<3x6x2x3x60xf32>, %w: tensor<6x70x2x2x2xf32>, %b: tensor<70xf32>) -> tensor<3x1x2x3x60xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<3x6x2x3x60xf32>, tensor<6x70x2x2x2xf32>, tensor<70xf32>) -> tensor<3x70x4x6x120xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<3x70x4x6x120xf32> -> tensor<3x70x2x3x60xf32>
  %2 = fuse.logsumexp %1 {dims = array<i64: 1>, keepdim = true} : tensor<3x70x2x3x60xf32> -> tensor<3x1x2x3x60xf32>
  %c = arith.constant dense<-0.25> : tensor<f32>
  %3 = fuse.mul %2, %c : tensor<3x1x2x3x60xf32>, tensor<f32> -> tensor<3x1x2x3x60xf32>
  return %3 : tensor<3x1x2x3x60xf32>
}

// Partial windows with dilation, overlap and ceil_mode clipping (each pass
// walks only the window rows it computed; the average's divisor applies
// once, after the last pass).
func.func @max2d_partial_dilated_ceil(%x: tensor<1x4x5x99xf32>, %w: tensor<4x64x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x4x98xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x5x99xf32>, tensor<4x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x10x198xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, ceil_mode = true} : tensor<1x64x10x198xf32> -> tensor<1x64x4x98xf32>
  return %1 : tensor<1x64x4x98xf32>
}
func.func @avg3d_partial_overlap_ceil(%x: tensor<2x4x3x3x50xf32>, %w: tensor<4x64x2x2x2xf32>) -> tensor<2x64x3x3x50xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<2x4x3x3x50xf32>, tensor<4x64x2x2x2xf32>) -> tensor<2x64x6x6x100xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 3, 3, 3>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, ceil_mode = true, count_include_pad = false} : tensor<2x64x6x6x100xf32> -> tensor<2x64x3x3x50xf32>
  return %1 : tensor<2x64x3x3x50xf32>
}

// A max of a max (fuse-compose-pools: one 6 x 6 window of stride 6 here)
// and an average of averages, then a reduction over the channels: one
// kernel, checked against the reference of the two poolings.
func.func @max_of_max_then_sum(%x: tensor<3x4x3x4x7xf32>, %w: tensor<4x16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<3x1x1x1x2xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<3x4x3x4x7xf32>, tensor<4x16x3x3x3xf32>, tensor<16xf32>) -> tensor<3x16x6x8x14xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<3x16x6x8x14xf32> -> tensor<3x16x3x4x7xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 3, 3, 3>, stride = array<i64: 3, 3, 3>, padding = array<i64: 0, 0, 0>} : tensor<3x16x3x4x7xf32> -> tensor<3x16x1x1x2xf32>
  %3 = fuse.sum %2 {dims = array<i64: 1>, keepdim = true} : tensor<3x16x1x1x2xf32> -> tensor<3x1x1x1x2xf32>
  return %3 : tensor<3x1x1x1x2xf32>
}
func.func @avg_of_avg_2d(%x: tensor<1x5x6x9xf32>, %w: tensor<5x24x2x2xf32>) -> tensor<1x24x3x4xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x5x6x9xf32>, tensor<5x24x2x2xf32>) -> tensor<1x24x12x18xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x24x12x18xf32> -> tensor<1x24x6x9xf32>
  %2 = fuse.avg_pool %1 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x24x6x9xf32> -> tensor<1x24x3x4xf32>
  return %2 : tensor<1x24x3x4xf32>
}
