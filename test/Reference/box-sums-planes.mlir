// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=gpu | FileCheck %s --check-prefix=GPU
// RUN: fusecc %s --emit=fused | FileCheck %s --check-prefix=FUSED
//
// Box-sums kernels (BoxSums.h) of many small planes: a warp or two per
// plane (about 8 loads a thread), several planes per block while the grid
// keeps 1024 blocks, every load of a thread issued before any sum where its
// row steps are few (rows past a region cell load an in-cell row and add
// 0), a loop of row steps otherwise; against the float64 reference of the
// graph before fuse-reduce-through-conv. Planes that do not fill the last
// block (it reads the last plane again and stores nothing of it), two warps
// per plane within a block of two planes (the slots of a plane's warps
// added per cell), 3-D planes, bf16 and f16 storage (2-byte and 8-byte
// loads widened), scalar rows of 61 walked by a loop.

// CHECK: @planes_tail: PASS
// CHECK: @planes_warps: PASS
// CHECK: @planes_3d: PASS
// CHECK: @loop_rows: PASS
// CHECK: @bf16_planes: PASS {{.*}} storage bf16
// CHECK: @f16_planes_vec: PASS {{.*}} storage f16
// CHECK: @conv_output_1x1: PASS
// CHECK: @conv_rows_of_one: PASS
// CHECK-NOT: FAIL

// The convolution of output size 1 after the box sums (FP32 FMA) takes one
// thread along W: its rows hold one position (docs/perf.md 186).
// FUSED-LABEL: func.func @planes_tail(
// FUSED: fuse.kernel "planes_tail_k0" {{.*}}#fuse.tile<tileW = 1, tileC = 32, threadsW = 1, threadsC = 32, chanPerThread = 1,
// Convolutions whose rows hold one position, on the FMA path: 1 x 1 outputs
// with bias and relu, and 9 rows of 1 (stride 1 along W).
// FUSED-LABEL: func.func @conv_output_1x1(
// FUSED: #fuse.tile<tileW = 1, {{.*}}threadsW = 1,
// FUSED-LABEL: func.func @conv_rows_of_one(
// FUSED: #fuse.tile<tileW = 1, {{.*}}threadsW = 1,

// PLAN-LABEL: plan @planes_tail:
// PLAN: (box sums: conv_transpose_tap_sums, 2101 planes of 30, 2 planes per block of 64 threads, 32 per plane, scalar loads (3 per thread at once), 3x3 regions, 9 taps)
// PLAN-LABEL: plan @planes_warps:
// PLAN: (box sums: conv_transpose_tap_sums, 2050 planes of 1080, 2 planes per block of 128 threads, 64 per plane, 16-byte loads (6 per thread at once), 2x2 regions, 9 taps)
// PLAN-LABEL: plan @planes_3d:
// PLAN: (box sums: conv_transpose_tap_sums, 3075 planes of 96, 3 planes per block of 96 threads, 32 per plane, 16-byte loads (9 per thread at once), 3x3x3 regions, 27 taps)
// PLAN-LABEL: plan @loop_rows:
// PLAN: (box sums: conv_transpose_tap_sums, 2 planes of 4270, one block of 256 threads per plane, scalar loads, 3x3 regions, 9 taps)
// PLAN-LABEL: plan @bf16_planes:
// PLAN: (box sums: conv_transpose_tap_sums, 2101 planes of 35, 2 planes per block of 64 threads, 32 per plane, scalar loads (3 per thread at once), 3x3 regions, 9 taps)
// PLAN-LABEL: plan @f16_planes_vec:
// PLAN: (box sums: conv_transpose_tap_sums, 2052 planes of 64, 2 planes per block of 64 threads, 32 per plane, 8-byte loads (3 per thread at once), 3x3 regions, 9 taps)

// 1051 blocks of two planes (144 bytes of slots and totals: (2 warps + 2
// planes) x 9 cells): the last block's second plane reads plane 2100 again.
// GPU-LABEL: func.func @planes_tail(
// GPU: gpu.launch_func @fusecc_kernels::@planes_tail_k1 blocks in (%c1051, %c1, %c1) threads in (%c64, %c1, %c1) dynamic_shared_memory_size %c144_i32
// GPU-LABEL: gpu.func @planes_tail_k1(
// GPU: arith.minui %{{.*}}, %c2100 : index

func.func @planes_tail(%x: tensor<1x2101x5x6xf32>, %w: tensor<2101x2x3x3xf32>) -> tensor<1x2x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2101x5x6xf32>, tensor<2101x2x3x3xf32>) -> tensor<1x2x5x6xf32>
  %1 = fuse.sum %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x2x5x6xf32> -> tensor<1x2x1x1xf32>
  return %1 : tensor<1x2x1x1xf32>
}

// Rows of 60 (15 quads), 18 rows: 270 quads, two warps per plane.
func.func @planes_warps(%x: tensor<2x1025x18x60xf32>, %w: tensor<1025x3x3x3xf32>) -> tensor<2x3x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x1025x18x60xf32>, tensor<1025x3x3x3xf32>) -> tensor<2x3x36x120xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x3x36x120xf32> -> tensor<2x3x1x1xf32>
  return %1 : tensor<2x3x1x1xf32>
}

// 3-D planes of 3 x 4 x 8, three per block (3075 = 3 x 1025).
func.func @planes_3d(%x: tensor<3x1025x3x4x8xf32>, %w: tensor<1025x2x3x3x3xf32>, %b: tensor<2xf32>) -> tensor<3x2x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x1025x3x4x8xf32>, tensor<1025x2x3x3x3xf32>, tensor<2xf32>) -> tensor<3x2x3x4x8xf32>
  %1 = fuse.sum %0 {dims = array<i64: 2, 3, 4>, keepdim = true} : tensor<3x2x3x4x8xf32> -> tensor<3x2x1x1x1xf32>
  return %1 : tensor<3x2x1x1x1xf32>
}

// 70 rows of 61 (scalar): 18 row steps of 4 rows, more than a thread
// issues at once: a loop of row steps.
func.func @loop_rows(%x: tensor<1x2x70x61xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x70x61xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x70x61xf32>
  %1 = fuse.sum %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x3x70x61xf32> -> tensor<1x3x1x1xf32>
  return %1 : tensor<1x3x1x1xf32>
}

func.func @bf16_planes(%x: tensor<1x2101x7x5xbf16>, %w: tensor<2101x2x3x3xbf16>) -> tensor<1x2x1x1xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2101x7x5xbf16>, tensor<2101x2x3x3xbf16>) -> tensor<1x2x7x5xbf16>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x2x7x5xbf16> -> tensor<1x2x1x1xbf16>
  return %1 : tensor<1x2x1x1xbf16>
}

func.func @f16_planes_vec(%x: tensor<2x1026x8x8xf16>, %w: tensor<1026x2x3x3xf16>) -> tensor<2x2x1x1xf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x1026x8x8xf16>, tensor<1026x2x3x3xf16>) -> tensor<2x2x8x8xf16>
  %1 = fuse.sum %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x2x8x8xf16> -> tensor<2x2x1x1xf16>
  return %1 : tensor<2x2x1x1xf16>
}

func.func @conv_output_1x1(%x: tensor<2x5x1x1xf32>, %w: tensor<5x40x1x1xf32>, %b: tensor<40xf32>) -> tensor<2x40x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x1x1xf32>, tensor<5x40x1x1xf32>, tensor<40xf32>) -> tensor<2x40x1x1xf32>
  %1 = fuse.relu %0 : tensor<2x40x1x1xf32>
  return %1 : tensor<2x40x1x1xf32>
}

func.func @conv_rows_of_one(%x: tensor<2x5x7x1xf32>, %w: tensor<5x9x3x1xf32>) -> tensor<2x9x9x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x7x1xf32>, tensor<5x9x3x1xf32>) -> tensor<2x9x9x1xf32>
  return %0 : tensor<2x9x9x1xf32>
}
