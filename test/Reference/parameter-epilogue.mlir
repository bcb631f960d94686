// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=never %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=plan %s | FileCheck %s --check-prefix=PLAN
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=GPU
// Parameter values in the convolution's epilogue (fuse-form-kernels,
// KernelAnalysis::params): an eval batch_norm's scale rsqrt(var + eps) *
// weight and its [C] -> [C, 1, ...] views of the mean, the bias and the
// scale are computed from the kernel's inputs where the epilogue reads
// them, so each plan is the convolution kernel alone. Shapes: channels
// that fill no tile, 1-D, 2-D (stride 2: the wgmma register epilogue,
// per-channel values in registers) and 3-D, a pooled epilogue after the
// batch norm, a channel softmax after it; FMA, mma.sync, wgmma and split
// operands. Running variances are shifted by 4 (fuse.check.mean): drawn
// from U[4.5, 5.5) (fusecc-check draws them from U[0.5, 1.5) anyway,
// docs/design/checking.md, "Vacuous references").

// PLAN-LABEL: plan @bn_2d: 1 kernel, 0 buffers
// PLAN-LABEL: plan @bn_1d: 1 kernel, 0 buffers
// PLAN-LABEL: plan @bn_3d: 1 kernel, 0 buffers
// PLAN-LABEL: plan @bn_pool: 1 kernel, 0 buffers
// PLAN-LABEL: plan @bn_softmax: 1 kernel, 0 buffers

// The batch norm keeps the register epilogue: no barrier before the stores.
// GPU-LABEL: gpu.func @bn_2d_k0(
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: scf.yield
// GPU-NOT: gpu.barrier
// GPU: vector.store {{.*}} vector<4xf32>
// GPU: gpu.return

// CHECK: @bn_2d: PASS
// CHECK: @bn_1d: PASS
// CHECK: @bn_3d: PASS
// CHECK: @bn_pool: PASS
// CHECK: @bn_softmax: PASS
// CHECK-NOT: FAIL

func.func @bn_2d(%x: tensor<2x24x5x10xf32>, %w: tensor<24x40x4x4xf32>, %rm: tensor<40xf32>, %rv: tensor<40xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<40xf32>, %bb: tensor<40xf32>) -> tensor<2x40x10x20xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x10xf32>, tensor<24x40x4x4xf32>) -> tensor<2x40x10x20xf32>
  %1 = fuse.batch_norm %0, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-05 : f64} : (tensor<2x40x10x20xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>) -> tensor<2x40x10x20xf32>
  %2 = fuse.relu %1 : tensor<2x40x10x20xf32>
  return %2 : tensor<2x40x10x20xf32>
}

func.func @bn_1d(%x: tensor<3x8x33xf32>, %w: tensor<8x12x3xf32>, %b: tensor<12xf32>, %rm: tensor<12xf32>, %rv: tensor<12xf32> {fuse.check.mean = 4.0 : f64}) -> tensor<3x12x35xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x8x33xf32>, tensor<8x12x3xf32>, tensor<12xf32>) -> tensor<3x12x35xf32>
  %1 = fuse.batch_norm %0, %rm, %rv {epsilon = 1.0e-03 : f64} : (tensor<3x12x35xf32>, tensor<12xf32>, tensor<12xf32>) -> tensor<3x12x35xf32>
  return %1 : tensor<3x12x35xf32>
}

func.func @bn_3d(%x: tensor<1x5x3x4x4xf32>, %w: tensor<5x7x3x3x3xf32>, %rm: tensor<7xf32>, %rv: tensor<7xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<7xf32>, %bb: tensor<7xf32>) -> tensor<1x7x5x7x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2, 2>, padding = array<i64: 0, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x5x3x4x4xf32>, tensor<5x7x3x3x3xf32>) -> tensor<1x7x5x7x7xf32>
  %1 = fuse.batch_norm %0, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-05 : f64} : (tensor<1x7x5x7x7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>) -> tensor<1x7x5x7x7xf32>
  %2 = fuse.tanh %1 : tensor<1x7x5x7x7xf32>
  return %2 : tensor<1x7x5x7x7xf32>
}

func.func @bn_pool(%x: tensor<2x6x4x4xf32>, %w: tensor<6x10x4x4xf32>, %rm: tensor<10xf32>, %rv: tensor<10xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<10xf32>, %bb: tensor<10xf32>) -> tensor<2x10x4x4xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x6x4x4xf32>, tensor<6x10x4x4xf32>) -> tensor<2x10x8x8xf32>
  %1 = fuse.batch_norm %0, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-05 : f64} : (tensor<2x10x8x8xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) -> tensor<2x10x8x8xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x10x8x8xf32> -> tensor<2x10x4x4xf32>
  return %2 : tensor<2x10x4x4xf32>
}

func.func @bn_softmax(%x: tensor<2x6x4x4xf32>, %w: tensor<6x10x4x4xf32>, %rm: tensor<10xf32>, %rv: tensor<10xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<10xf32>, %bb: tensor<10xf32>) -> tensor<2x10x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x6x4x4xf32>, tensor<6x10x4x4xf32>) -> tensor<2x10x8x8xf32>
  %1 = fuse.batch_norm %0, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-05 : f64} : (tensor<2x10x8x8xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) -> tensor<2x10x8x8xf32>
  %2 = fuse.softmax %1 {dim = 1 : i64} : tensor<2x10x8x8xf32>
  return %2 : tensor<2x10x8x8xf32>
}
