// The `graph` records of the bundle (lib/Target/Bundle.cpp describeGraphs):
// one record per op of the graph as written, before fusion, in the forms of
// docs/bundle.md. Values %0..%(inputs-1) are the inputs; op results and
// constants are numbered on from there.

// RUN: fusecc %s -o - | FileCheck %s

// CHECK-LABEL: entry all_elementwise args 5 workspaces 0 launches 1
// CHECK-NEXT: arg 0 in arg0 f32 3 1 2 3
// CHECK-NEXT: arg 1 in arg1 f32 3 2 4 2
// CHECK-NEXT: arg 2 in s f32 0
// CHECK-NEXT: arg 3 in cb f32 2 4 1
// CHECK-NEXT: arg 4 out result f32 3 1 4 4
// CHECK-NEXT: launch all_elementwise_k0 grid
// CHECK-NEXT: graph %4 = conv_transpose %0 %1 stride=1 padding=0 output_padding=0 dilation=1 groups=1
// CHECK-NEXT: graph %5 = neg %4
// CHECK-NEXT: graph %6 = abs %5
// CHECK-NEXT: graph %7 = exp %6
// CHECK-NEXT: graph %8 = log %7
// CHECK-NEXT: graph %9 = sqrt %8
// CHECK-NEXT: graph %10 = rsqrt %9
// CHECK-NEXT: graph %11 = erf %10
// CHECK-NEXT: graph %12 = tanh %11
// CHECK-NEXT: graph %13 = sigmoid %12
// CHECK-NEXT: graph %14 = relu %13
// CHECK-NEXT: graph %15 = silu %14
// CHECK-NEXT: graph %16 = softplus %15
// CHECK-NEXT: graph %17 = mish %16
// CHECK-NEXT: graph %18 = hardsigmoid %17
// CHECK-NEXT: graph %19 = hardswish %18
// CHECK-NEXT: graph %20 = gelu %19 approximate=none
// CHECK-NEXT: graph %21 = gelu %20 approximate=tanh
// CHECK-NEXT: graph %22 = leaky_relu %21 slope=0.01
// CHECK-NEXT: graph %23 = leaky_relu %22 slope=0.20000000000000001
// CHECK-NEXT: graph %24 = clamp %23 min=-1
// CHECK-NEXT: graph %25 = clamp %24 max=6
// CHECK-NEXT: graph %26 = clamp %25 min=-0.5 max=0.5
// CHECK-NEXT: graph %27 = const 3
// CHECK-NEXT: graph %28 = add %26 %27
// CHECK-NEXT: graph %29 = sub %28 %2
// CHECK-NEXT: graph %30 = mul %3 %29
// CHECK-NEXT: graph %31 = div %30 %4
// CHECK-NEXT: graph %32 = maximum %31 %2
// CHECK-NEXT: graph %33 = minimum %32 %3
// CHECK-NEXT: graph %34 = const -0.25
// CHECK-NEXT: graph %35 = pow %33 %34
// CHECK-NEXT: graph return %35
// CHECK-NEXT: end
func.func @all_elementwise(%x: tensor<1x2x3xf32>, %w: tensor<2x4x2xf32>,
                           %s: tensor<f32> {fuse.name = "s"},
                           %cb: tensor<4x1xf32> {fuse.name = "cb"}) -> tensor<1x4x4xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x2x3xf32>, tensor<2x4x2xf32>) -> tensor<1x4x4xf32>
  %0 = fuse.neg %y : tensor<1x4x4xf32>
  %1 = fuse.abs %0 : tensor<1x4x4xf32>
  %2 = fuse.exp %1 : tensor<1x4x4xf32>
  %3 = fuse.log %2 : tensor<1x4x4xf32>
  %4 = fuse.sqrt %3 : tensor<1x4x4xf32>
  %5 = fuse.rsqrt %4 : tensor<1x4x4xf32>
  %6 = fuse.erf %5 : tensor<1x4x4xf32>
  %7 = fuse.tanh %6 : tensor<1x4x4xf32>
  %8 = fuse.sigmoid %7 : tensor<1x4x4xf32>
  %9 = fuse.relu %8 : tensor<1x4x4xf32>
  %10 = fuse.silu %9 : tensor<1x4x4xf32>
  %11 = fuse.softplus %10 : tensor<1x4x4xf32>
  %12 = fuse.mish %11 : tensor<1x4x4xf32>
  %13 = fuse.hardsigmoid %12 : tensor<1x4x4xf32>
  %14 = fuse.hardswish %13 : tensor<1x4x4xf32>
  %15 = fuse.gelu %14 : tensor<1x4x4xf32>
  %16 = fuse.gelu %15 {approximate = "tanh"} : tensor<1x4x4xf32>
  %17 = fuse.leaky_relu %16 : tensor<1x4x4xf32>
  %18 = fuse.leaky_relu %17 {slope = 0.2 : f64} : tensor<1x4x4xf32>
  %19 = fuse.clamp %18 {min = -1.0 : f64} : tensor<1x4x4xf32>
  %20 = fuse.clamp %19 {max = 6.0 : f64} : tensor<1x4x4xf32>
  %21 = fuse.clamp %20 {min = -0.5 : f64, max = 0.5 : f64} : tensor<1x4x4xf32>
  %c3 = arith.constant dense<3.0> : tensor<f32>
  %22 = fuse.add %21, %c3 : tensor<1x4x4xf32>, tensor<f32> -> tensor<1x4x4xf32>
  %23 = fuse.sub %22, %s : tensor<1x4x4xf32>, tensor<f32> -> tensor<1x4x4xf32>
  %24 = fuse.mul %cb, %23 : tensor<4x1xf32>, tensor<1x4x4xf32> -> tensor<1x4x4xf32>
  %25 = fuse.div %24, %y : tensor<1x4x4xf32>, tensor<1x4x4xf32> -> tensor<1x4x4xf32>
  %26 = fuse.maximum %25, %s : tensor<1x4x4xf32>, tensor<f32> -> tensor<1x4x4xf32>
  %27 = fuse.minimum %26, %cb : tensor<1x4x4xf32>, tensor<4x1xf32> -> tensor<1x4x4xf32>
  %cm = arith.constant dense<-0.25> : tensor<f32>
  %28 = fuse.pow %27, %cm : tensor<1x4x4xf32>, tensor<f32> -> tensor<1x4x4xf32>
  return %28 : tensor<1x4x4xf32>
}

// Normalisations, and a conv with groups, dilation and output padding in
// 3-D. A constant defined before the convolution is numbered in order.
// CHECK-LABEL: entry norms args 4 workspaces 0 launches 1
// CHECK:      graph %3 = const 0.5
// CHECK-NEXT: graph %4 = conv_transpose %0 %1 stride=1,2,2 padding=0,1,0 output_padding=0,0,1 dilation=1,2,1 groups=2
// CHECK-NEXT: graph %5 = layer_norm %4 normalized_rank=1 eps=1.0000000000000001e-05
// CHECK-NEXT: graph %6 = layer_norm %5 %2 normalized_rank=1 eps=0
// CHECK-NEXT: graph %7 = softmax %6 dim=4
// CHECK-NEXT: graph %8 = mul %7 %3
// CHECK-NEXT: graph return %8
// CHECK-NEXT: end
// CHECK-NEXT: ptx
func.func @norms(%x: tensor<1x4x1x3x3xf32>, %w: tensor<4x2x1x3x2xf32>,
                 %g: tensor<7xf32>) -> tensor<1x4x1x7x7xf32> {
  %h = arith.constant dense<0.5> : tensor<f32>
  // H: (3 - 1) * 2 - 2 + 2 * 2 + 0 + 1 = 7; W: 4 + 1 + 1 + 1 = 7.
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2, 2>, padding = array<i64: 0, 1, 0>,
         output_padding = array<i64: 0, 0, 1>, dilation = array<i64: 1, 2, 1>, groups = 2 : i64}
       : (tensor<1x4x1x3x3xf32>, tensor<4x2x1x3x2xf32>) -> tensor<1x4x1x7x7xf32>
  %0 = fuse.layer_norm %y : tensor<1x4x1x7x7xf32>
  %1 = fuse.layer_norm %0 weight(%g : tensor<7xf32>) {epsilon = 0.0 : f64} : tensor<1x4x1x7x7xf32>
  %2 = fuse.softmax %1 {dim = 4 : i64} : tensor<1x4x1x7x7xf32>
  %3 = fuse.mul %2, %h : tensor<1x4x1x7x7xf32>, tensor<f32> -> tensor<1x4x1x7x7xf32>
  return %3 : tensor<1x4x1x7x7xf32>
}
