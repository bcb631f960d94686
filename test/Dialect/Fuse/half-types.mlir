// RUN: fusecc-opt %s | fusecc-opt | FileCheck %s
// bf16 and f16 tensors on the ops of the vocabulary (docs/design/types.md):
// one element type per op, f32 normalisation parameters beside half data,
// and fuse.cast between the float types.

// CHECK-LABEL: func.func @bf16_conv_epilogue
// CHECK: fuse.conv_transpose {{.*}} : (tensor<1x4x3x3xbf16>, tensor<4x2x3x3xbf16>, tensor<2xbf16>) -> tensor<1x2x5x5xbf16>
// CHECK: fuse.gelu {{.*}} : tensor<1x2x5x5xbf16>
// CHECK: fuse.add {{.*}} : tensor<1x2x5x5xbf16>, tensor<bf16> -> tensor<1x2x5x5xbf16>
// CHECK: fuse.softmax {{.*}} : tensor<1x2x5x5xbf16>
// CHECK: fuse.max_pool {{.*}} : tensor<1x2x5x5xbf16> -> tensor<1x2x2x2xbf16>
// CHECK: fuse.mean {{.*}} : tensor<1x2x2x2xbf16> -> tensor<1x2x1x1xbf16>
func.func @bf16_conv_epilogue(%x: tensor<1x4x3x3xbf16>, %w: tensor<4x2x3x3xbf16>,
                              %b: tensor<2xbf16>) -> tensor<1x2x1x1xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>,
         padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>,
         dilation = array<i64: 1, 1>, groups = 1 : i64}
       : (tensor<1x4x3x3xbf16>, tensor<4x2x3x3xbf16>, tensor<2xbf16>)
         -> tensor<1x2x5x5xbf16>
  %g = fuse.gelu %y : tensor<1x2x5x5xbf16>
  %c = arith.constant dense<0.5> : tensor<bf16>
  %a = fuse.add %g, %c : tensor<1x2x5x5xbf16>, tensor<bf16> -> tensor<1x2x5x5xbf16>
  %s = fuse.softmax %a {dim = 1 : i64} : tensor<1x2x5x5xbf16>
  %p = fuse.max_pool %s {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>,
         padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : tensor<1x2x5x5xbf16> -> tensor<1x2x2x2xbf16>
  %m = fuse.mean %p {dims = array<i64: 2, 3>, keepdim = true}
       : tensor<1x2x2x2xbf16> -> tensor<1x2x1x1xbf16>
  return %m : tensor<1x2x1x1xbf16>
}

// CHECK-LABEL: func.func @f16_norms_f32_params
// CHECK: fuse.layer_norm {{.*}} weight(%{{.*}} : tensor<5xf32>) bias(%{{.*}} : tensor<5xf32>){{.*}} : tensor<2x3x5xf16>
// CHECK: fuse.group_norm {{.*}} weight(%{{.*}} : tensor<3xf16>) {{.*}} : tensor<2x3x5xf16>
// CHECK: fuse.batch_norm {{.*}} : (tensor<2x3x5xf16>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf16>
func.func @f16_norms_f32_params(%x: tensor<2x3x5xf16>, %g: tensor<5xf32>,
                                %b: tensor<5xf32>, %gh: tensor<3xf16>,
                                %rm: tensor<3xf32>, %rv: tensor<3xf32>)
    -> tensor<2x3x5xf16> {
  %l = fuse.layer_norm %x weight(%g : tensor<5xf32>) bias(%b : tensor<5xf32>)
         {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x3x5xf16>
  %n = fuse.group_norm %l weight(%gh : tensor<3xf16>)
         {num_groups = 3 : i64, epsilon = 1.0e-05 : f64} : tensor<2x3x5xf16>
  %y = fuse.batch_norm %n, %rm, %rv : (tensor<2x3x5xf16>, tensor<3xf32>,
         tensor<3xf32>) -> tensor<2x3x5xf16>
  return %y : tensor<2x3x5xf16>
}

// CHECK-LABEL: func.func @casts
// CHECK: fuse.cast %{{.*}} : tensor<4x8xf32> -> tensor<4x8xf16>
// CHECK: fuse.cast %{{.*}} : tensor<4x8xf16> -> tensor<4x8xbf16>
// CHECK: fuse.cast %{{.*}} : tensor<4x8xbf16> -> tensor<4x8xf32>
func.func @casts(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %h = fuse.cast %x : tensor<4x8xf32> -> tensor<4x8xf16>
  %b = fuse.cast %h : tensor<4x8xf16> -> tensor<4x8xbf16>
  %f = fuse.cast %b : tensor<4x8xbf16> -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// The decoder ops on half tensors: a forward convolution, a nearest
// upsample and a skip concatenation, all bf16.
// CHECK-LABEL: func.func @bf16_decoder_ops
// CHECK: fuse.conv {{.*}} : (tensor<1x4x4x4xbf16>, tensor<2x4x3x3xbf16>, tensor<2xbf16>) -> tensor<1x2x4x4xbf16>
// CHECK: fuse.upsample {{.*}} : tensor<1x2x4x4xbf16> -> tensor<1x2x8x8xbf16>
// CHECK: fuse.concat {{.*}} : (tensor<1x2x8x8xbf16>, tensor<1x3x8x8xbf16>) -> tensor<1x5x8x8xbf16>
func.func @bf16_decoder_ops(%x: tensor<1x4x4x4xbf16>, %w: tensor<2x4x3x3xbf16>,
                            %b: tensor<2xbf16>, %s: tensor<1x3x8x8xbf16>)
    -> tensor<1x5x8x8xbf16> {
  %c = fuse.conv %x, %w, %b {stride = array<i64: 1, 1>,
         padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
       : (tensor<1x4x4x4xbf16>, tensor<2x4x3x3xbf16>, tensor<2xbf16>)
         -> tensor<1x2x4x4xbf16>
  %u = fuse.upsample %c {scales = array<f64: 2.0, 2.0>}
       : tensor<1x2x4x4xbf16> -> tensor<1x2x8x8xbf16>
  %y = fuse.concat %u, %s {dim = 1 : i64}
       : (tensor<1x2x8x8xbf16>, tensor<1x3x8x8xbf16>) -> tensor<1x5x8x8xbf16>
  return %y : tensor<1x5x8x8xbf16>
}
