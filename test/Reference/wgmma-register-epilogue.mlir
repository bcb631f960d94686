// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-rows=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-rows=2 --tile-max-w=16 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=GPU
// RUN: fusecc --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=SPLIT
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=LAUNCH
// The epilogue on the wgmma accumulators (docs/design/plans.md, "Kernels"):
// where the result is a cheap elementwise function of the convolution,
// constants and per-channel inputs, and each lane's run of 2 x stride
// positions is one aligned vector, the kernel evaluates it in registers
// and stores from there, with no output tile. Shapes: channels that fill
// no 64-channel group (padding rows), rows and positions past the output
// (the checked path), W stride 1 (runs of 2, rows as one N in tf32) and 2
// (runs of 4), 1-D and 3-D, with and without a conv bias; under the
// tilings of the RUN lines (one row, two rows, 16-position tiles). Runs of
// 2 (8-byte stores) only with split operands: tf32 keeps the tile there.

// GPU-LABEL: gpu.func @reg_s2_k0(
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: scf.yield
// GPU-NOT: gpu.barrier
// GPU: vector.store {{.*}} vector<4xf32>
// GPU: gpu.return
// GPU-LABEL: gpu.func @reg_s1_rows_k0(
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: scf.yield
// GPU: gpu.barrier
// SPLIT-LABEL: gpu.func @reg_s2_k0(
// SPLIT: nvvm.wgmma.wait.group.sync.aligned 0
// SPLIT: scf.yield
// SPLIT-NOT: gpu.barrier
// SPLIT: vector.store {{.*}} vector<4xf32>
// SPLIT: gpu.return
// SPLIT-LABEL: gpu.func @reg_s1_rows_k0(
// SPLIT: nvvm.wgmma.wait.group.sync.aligned 0
// SPLIT: scf.yield
// SPLIT-NOT: gpu.barrier
// SPLIT: vector.store {{.*}} vector<2xf32>
// SPLIT: gpu.return
// An expensive epilogue (exp), a row whose runs are not whole vectors (odd
// W) and an input varying along W keep the output tile: the barrier after
// the main loop, then the walk over the tile.
// GPU-LABEL: gpu.func @tile_exp_k0(
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: scf.yield
// GPU: gpu.barrier
// GPU-LABEL: gpu.func @tile_odd_w_k0(
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: scf.yield
// GPU: gpu.barrier
// GPU-LABEL: gpu.func @tile_residual_k0(
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: scf.yield
// GPU: gpu.barrier

// With no output tile the block allocates its staging buffers alone
// (SharedMemoryPlan::withoutTiles): reg_s2 takes 29568 bytes of dynamic
// shared memory where tile_exp, the same convolution and tiling with an
// exp that keeps the tile, takes 44032 (the two buffers' 29568 and the
// tile aliasing them: 64 channels x 4 rows x 43-word lines x 4 bytes).
// (Its 4 rows of 16-position phases are one wgmma N: docs/perf.md 215;
// 34432 bytes before, one N a row.)
// LAUNCH: gpu.launch_func @fusecc_kernels::@reg_s2_k0 {{.*}} dynamic_shared_memory_size %c29568_i32
// LAUNCH: gpu.launch_func @fusecc_kernels::@tile_exp_k0 {{.*}} dynamic_shared_memory_size %c44032_i32

// CHECK: @reg_s2: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @reg_s1_rows: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @reg_1d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @reg_3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @tile_exp: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @tile_odd_w: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @tile_residual: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK-NOT: FAIL

func.func @reg_s2(%x: tensor<2x24x5x10xf32>, %w: tensor<24x40x4x4xf32>, %b: tensor<40xf32>, %bias: tensor<40x1x1xf32>) -> tensor<2x40x10x20xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x10xf32>, tensor<24x40x4x4xf32>, tensor<40xf32>) -> tensor<2x40x10x20xf32>
  %1 = fuse.add %0, %bias : tensor<2x40x10x20xf32>, tensor<40x1x1xf32> -> tensor<2x40x10x20xf32>
  %2 = fuse.clamp %1 {min = -0.5 : f64, max = 0.5 : f64} : tensor<2x40x10x20xf32>
  %c = arith.constant dense<2.0> : tensor<f32>
  %3 = fuse.mul %2, %c : tensor<2x40x10x20xf32>, tensor<f32> -> tensor<2x40x10x20xf32>
  return %3 : tensor<2x40x10x20xf32>
}

func.func @reg_s1_rows(%x: tensor<1x16x9x30xf32>, %w: tensor<16x24x3x3xf32>) -> tensor<1x24x11x32xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x9x30xf32>, tensor<16x24x3x3xf32>) -> tensor<1x24x11x32xf32>
  return %0 : tensor<1x24x11x32xf32>
}

func.func @reg_1d(%x: tensor<3x8x128xf32>, %w: tensor<8x12x3xf32>, %b: tensor<12xf32>) -> tensor<3x12x130xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x8x128xf32>, tensor<8x12x3xf32>, tensor<12xf32>) -> tensor<3x12x130xf32>
  %1 = fuse.relu %0 : tensor<3x12x130xf32>
  return %1 : tensor<3x12x130xf32>
}

func.func @reg_3d(%x: tensor<1x8x3x4x6xf32>, %w: tensor<8x16x3x3x3xf32>, %b: tensor<16xf32>, %s: tensor<f32>) -> tensor<1x16x6x8x12xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x8x3x4x6xf32>, tensor<8x16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x6x8x12xf32>
  %1 = fuse.mul %0, %s : tensor<1x16x6x8x12xf32>, tensor<f32> -> tensor<1x16x6x8x12xf32>
  %2 = fuse.relu %1 : tensor<1x16x6x8x12xf32>
  return %2 : tensor<1x16x6x8x12xf32>
}

func.func @tile_exp(%x: tensor<2x24x5x10xf32>, %w: tensor<24x40x4x4xf32>, %b: tensor<40xf32>) -> tensor<2x40x10x20xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x10xf32>, tensor<24x40x4x4xf32>, tensor<40xf32>) -> tensor<2x40x10x20xf32>
  %1 = fuse.exp %0 : tensor<2x40x10x20xf32>
  return %1 : tensor<2x40x10x20xf32>
}

func.func @tile_odd_w(%x: tensor<2x24x5x9xf32>, %w: tensor<24x40x4x4xf32>, %b: tensor<40xf32>) -> tensor<2x40x11x19xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x9xf32>, tensor<24x40x4x4xf32>, tensor<40xf32>) -> tensor<2x40x11x19xf32>
  %1 = fuse.relu %0 : tensor<2x40x11x19xf32>
  return %1 : tensor<2x40x11x19xf32>
}

func.func @tile_residual(%x: tensor<2x24x5x10xf32>, %w: tensor<24x40x4x4xf32>, %b: tensor<40xf32>, %r: tensor<2x40x10x20xf32>) -> tensor<2x40x10x20xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x10xf32>, tensor<24x40x4x4xf32>, tensor<40xf32>) -> tensor<2x40x10x20xf32>
  %1 = fuse.add %0, %r : tensor<2x40x10x20xf32>, tensor<2x40x10x20xf32> -> tensor<2x40x10x20xf32>
  return %1 : tensor<2x40x10x20xf32>
}
