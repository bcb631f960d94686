// RUN: fusecc-check %s --max-batch=5 --batch=1,3 --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-samples=2 | FileCheck %s
// RUN: fusecc %s --max-batch=5 --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-samples=2 --emit=fused | FileCheck %s --check-prefix=CFG
// A dynamic batch's kernels run once per sample (grid z = the batch):
// their blocks never span samples (`TileConfigAttr::samples`), even where
// asked for (the tiling sees `KernelAnalysis::perSampleLaunch`).

// CHECK-DAG: @dyn_relu[batch=1]: PASS
// CHECK-DAG: @dyn_relu[batch=3]: PASS
// CFG: fuse.kernel "dyn_relu_k0" {{.*}}wgmmaN
// CFG-NOT: samples
func.func @dyn_relu(%x: tensor<?x40x4x4xf32>, %w: tensor<40x64x4x4xf32>, %b: tensor<64xf32>) -> tensor<?x64x8x8xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<?x40x4x4xf32>, tensor<40x64x4x4xf32>, tensor<64xf32>) -> tensor<?x64x8x8xf32>
  %r = fuse.relu %c : tensor<?x64x8x8xf32>
  return %r : tensor<?x64x8x8xf32>
}
