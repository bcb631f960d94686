// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc %s --emit=gpu | FileCheck %s --check-prefix=GPU
//
// Long windows (512 positions or more) in elementwise kernels: a warp per
// result element where the window's op shares it among its lanes along
// runs of at least 8 consecutive elements (an adaptive pool's lanes stride
// its innermost window dim: long rows), else a thread per result element,
// consecutive threads on consecutive elements (an adaptive pool over H at
// the full W, rand37_7's; windows 2 wide; a max_pool, whose lanes would
// each build the whole window). Lanes load 8 positions of a row per
// iteration where rows are 512 or longer. Adaptive windows of dims whose output
// size divides the input's have one constant length; the others take
// PyTorch's floor / ceil bounds (odd sizes). Against float64, f32 and bf16
// storage.

// CHECK: @avg_rows_full_width: PASS
// CHECK: @max_long_rows: PASS
// CHECK: @avg_non_divisible_long_rows: PASS
// CHECK: @avg_divisible_short_rows: PASS
// CHECK: @bf16_avg_rows_full_width: PASS {{.*}} storage bf16
// CHECK: @max_pool_large_kernel: PASS
// CHECK: @avg_of_tanh_lanes: PASS
// CHECK-NOT: FAIL

// 240 results, a thread each: one block.
// GPU-LABEL: func.func @avg_rows_full_width(
// GPU: gpu.launch_func @fusecc_kernels::@avg_rows_full_width_k0 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
// 24 results, a warp each: 3 blocks of 8.
// GPU-LABEL: func.func @max_long_rows(
// GPU: gpu.launch_func @fusecc_kernels::@max_long_rows_k0 blocks in (%c3, %c1, %c1) threads in (%c256, %c1, %c1)
// GPU-LABEL: func.func @avg_non_divisible_long_rows(
// GPU: gpu.launch_func @fusecc_kernels::@avg_non_divisible_long_rows_k0 blocks in (%c27, %c1, %c1)
// GPU-LABEL: func.func @avg_divisible_short_rows(
// GPU: gpu.launch_func @fusecc_kernels::@avg_divisible_short_rows_k0 blocks in (%c1, %c1, %c1)
// GPU-LABEL: func.func @bf16_avg_rows_full_width(
// GPU: gpu.launch_func @fusecc_kernels::@bf16_avg_rows_full_width_k0 blocks in (%c1, %c1, %c1)
// GPU-LABEL: func.func @max_pool_large_kernel(
// GPU: gpu.launch_func @fusecc_kernels::@max_pool_large_kernel_k0 blocks in (%c1, %c1, %c1)
// GPU-LABEL: func.func @avg_of_tanh_lanes(
// GPU: gpu.launch_func @fusecc_kernels::@avg_of_tanh_lanes_k0 blocks in (%c1, %c1, %c1)
// The thread's window over 600 rows of one column: a constant-trip loop.
// GPU-LABEL: gpu.func @avg_rows_full_width_k0(
// GPU-NOT: gpu.shuffle
// GPU: scf.for %{{.*}} = %c0 to %c600 step %c1
// GPU-NOT: gpu.shuffle
// GPU: gpu.return
// The lanes' strided walk of the 700-long rows, 8 positions a lane per
// iteration (those past the row masked), then a warp all-reduce.
// GPU-LABEL: gpu.func @max_long_rows_k0(
// GPU: scf.for
// GPU: scf.for %{{.*}} = %{{.*}} to %c700 step %c256
// GPU-COUNT-7: arith.select %{{.*}}, %{{.*}}, %cst : f32
// GPU-COUNT-8: arith.maximumf
// GPU: gpu.shuffle
// GPU-LABEL: gpu.func @avg_of_tanh_lanes_k0(
// GPU: math.tanh
// GPU: gpu.shuffle

// rand37_7's adaptive pool at small size: the mean over 600 rows per column.
func.func @avg_rows_full_width(%x: tensor<2x3x600x40xf32>) -> tensor<2x3x1x40xf32> {
  %0 = fuse.adaptive_avg_pool %x : tensor<2x3x600x40xf32> -> tensor<2x3x1x40xf32>
  return %0 : tensor<2x3x1x40xf32>
}

// Windows of 2 rows of 700 (rand37_67's kind).
func.func @max_long_rows(%x: tensor<2x3x8x700xf32>) -> tensor<2x3x4x1xf32> {
  %0 = fuse.adaptive_max_pool %x : tensor<2x3x8x700xf32> -> tensor<2x3x4x1xf32>
  return %0 : tensor<2x3x4x1xf32>
}

// Windows of 8 or 9 rows of 86 or 87 columns, floor / ceil bounds.
func.func @avg_non_divisible_long_rows(%x: tensor<2x3x37x600xf32>) -> tensor<2x3x5x7xf32> {
  %0 = fuse.adaptive_avg_pool %x : tensor<2x3x37x600xf32> -> tensor<2x3x5x7xf32>
  return %0 : tensor<2x3x5x7xf32>
}

// Windows of 512 rows of 2 columns: runs of 2, a thread per result.
func.func @avg_divisible_short_rows(%x: tensor<2x2x1024x6xf32>) -> tensor<2x2x2x3xf32> {
  %0 = fuse.adaptive_avg_pool %x : tensor<2x2x1024x6xf32> -> tensor<2x2x2x3xf32>
  return %0 : tensor<2x2x2x3xf32>
}

func.func @bf16_avg_rows_full_width(%x: tensor<2x3x520x24xbf16>) -> tensor<2x3x1x24xbf16> {
  %0 = fuse.adaptive_avg_pool %x : tensor<2x3x520x24xbf16> -> tensor<2x3x1x24xbf16>
  return %0 : tensor<2x3x1x24xbf16>
}

// A 24 x 24 max_pool window (576 positions) is built by one thread.
func.func @max_pool_large_kernel(%x: tensor<1x2x50x50xf32>) -> tensor<1x2x3x3xf32> {
  %0 = fuse.max_pool %x {kernel_size = array<i64: 24, 24>, stride = array<i64: 13, 13>, padding = array<i64: 0, 0>} : tensor<1x2x50x50xf32> -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// The lanes evaluate the operand's DAG at their positions: windows of 3 x
// 500.
func.func @avg_of_tanh_lanes(%x: tensor<2x2x3x1000xf32>) -> tensor<2x2x1x2xf32> {
  %0 = fuse.tanh %x : tensor<2x2x3x1000xf32>
  %1 = fuse.adaptive_avg_pool %0 : tensor<2x2x3x1000xf32> -> tensor<2x2x1x2xf32>
  return %1 : tensor<2x2x1x2xf32>
}
