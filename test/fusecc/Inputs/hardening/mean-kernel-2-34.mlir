// Issue 38 (round 2): a valid graph at the int32 / int64 limits that hung
// a pass before the plan.
func.func @mean_positions_kernel_2_34(%x: tensor<1x1x4xf32>, %w: tensor<1x1x17179869184xf32>) -> tensor<1x1xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x1x4xf32>, tensor<1x1x17179869184xf32>) -> tensor<1x1x17179869187xf32>
  %r = fuse.mean %c {dims = array<i64: 2>} : tensor<1x1x17179869187xf32> -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}
