// RUN: fusecc-check %s | FileCheck %s
//
// A window op whose result an elementwise op broadcasts: the kernel builds
// it at its own result coordinates (leading dims of the consumer dropped,
// size-1 dims read at 0), like loadBroadcast does for kernel inputs. The
// squeeze-and-excitation pattern (a reshape to [N, C, 1, 1] multiplied into
// [N, C, H, W]), a pool with a 1x1 output subtracted from its input, and
// reductions broadcast over a leading dim. (Regression: commit 93d5237 built
// them at the consumer's coordinates.)

// CHECK: @se_reshape: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @pool_bcast: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @sum_rank_bcast: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @mean_keep_bcast: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @se_reshape(%x: tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32> {
  %m = fuse.mean %x {dims = array<i64: 2, 3>} : tensor<2x3x5x5xf32> -> tensor<2x3xf32>
  %r = fuse.reshape %m : tensor<2x3xf32> -> tensor<2x3x1x1xf32>
  %y = fuse.mul %x, %r : tensor<2x3x5x5xf32>, tensor<2x3x1x1xf32> -> tensor<2x3x5x5xf32>
  return %y : tensor<2x3x5x5xf32>
}
func.func @pool_bcast(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %p = fuse.max_pool %x {kernel_size = array<i64: 4, 4>, stride = array<i64: 4, 4>, padding = array<i64: 0, 0>} : tensor<1x3x4x4xf32> -> tensor<1x3x1x1xf32>
  %y = fuse.sub %x, %p : tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32> -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}
func.func @sum_rank_bcast(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32> {
  %s = fuse.sum %x {dims = array<i64: 1>} : tensor<1x3x4x5xf32> -> tensor<1x4x5xf32>
  %y = fuse.add %x, %s : tensor<1x3x4x5xf32>, tensor<1x4x5xf32> -> tensor<1x3x4x5xf32>
  return %y : tensor<1x3x4x5xf32>
}
func.func @mean_keep_bcast(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  %s = fuse.mean %x {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x3x1x1xf32>
  %y = fuse.sub %x, %s : tensor<2x3x4x5xf32>, tensor<2x3x1x1xf32> -> tensor<2x3x4x5xf32>
  return %y : tensor<2x3x4x5xf32>
}
