// A training batch_norm reads batch statistics: its running mean and
// variance (constants, as an imported model's initializers) are read by no
// kernel once fuse-decompose has run, but the graph lines name them.
func.func @f(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %mean = arith.constant {fuse.name = "bn.running_mean"} dense<0.5> : tensor<8xf32>
  %var = arith.constant {fuse.name = "bn.running_var"} dense<2.0> : tensor<8xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.batch_norm %0, %mean, %var {training = true}
       : (tensor<1x8x7xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x7xf32>
  %c = arith.constant {fuse.name = "scale"} dense<3.0> : tensor<1x1x1xf32>
  %2 = fuse.mul %1, %c : tensor<1x8x7xf32>, tensor<1x1x1xf32> -> tensor<1x8x7xf32>
  return %2 : tensor<1x8x7xf32>
}
