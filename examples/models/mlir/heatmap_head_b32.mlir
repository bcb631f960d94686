// The fuse graph torch.compile(model, backend="fusecc") builds for
// examples/models/heatmap_head.py at its batch of 32 (written by
// `python3 bench/models_check.py --precompile DIR --filter heatmap_head`).
// tuning/h200.json's heatmap_head entries were measured on its layers and
// are checked against it (test/fusecc/tuning-shipped.test).
func.func @fusecc_graph(%arg0: tensor<32x2048x8x6xf32>,
    %arg1: tensor<2048x256x4x4xf32>,
    %arg2: tensor<256xf32>,
    %arg3: tensor<256xf32>,
    %arg4: tensor<256xf32>,
    %arg5: tensor<256xf32>,
    %arg6: tensor<256x256x4x4xf32>,
    %arg7: tensor<256xf32>,
    %arg8: tensor<256xf32>,
    %arg9: tensor<256xf32>,
    %arg10: tensor<256xf32>,
    %arg11: tensor<256x256x4x4xf32>,
    %arg12: tensor<256xf32>,
    %arg13: tensor<256xf32>,
    %arg14: tensor<256xf32>,
    %arg15: tensor<256xf32>,
    %arg16: tensor<17x256x1x1xf32>,
    %arg17: tensor<17xf32>) -> tensor<32x17x64x48xf32> {
  %v0 = fuse.conv_transpose %arg0, %arg1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<32x2048x8x6xf32>, tensor<2048x256x4x4xf32>) -> tensor<32x256x16x12xf32>
  %v1 = fuse.batch_norm %v0, %arg2, %arg3 weight(%arg4) bias(%arg5) {epsilon = 1.0e-05 : f64} : (tensor<32x256x16x12xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<32x256x16x12xf32>
  %v2 = fuse.relu %v1 : tensor<32x256x16x12xf32>
  %v3 = fuse.conv_transpose %v2, %arg6 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<32x256x16x12xf32>, tensor<256x256x4x4xf32>) -> tensor<32x256x32x24xf32>
  %v4 = fuse.batch_norm %v3, %arg7, %arg8 weight(%arg9) bias(%arg10) {epsilon = 1.0e-05 : f64} : (tensor<32x256x32x24xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<32x256x32x24xf32>
  %v5 = fuse.relu %v4 : tensor<32x256x32x24xf32>
  %v6 = fuse.conv_transpose %v5, %arg11 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<32x256x32x24xf32>, tensor<256x256x4x4xf32>) -> tensor<32x256x64x48xf32>
  %v7 = fuse.batch_norm %v6, %arg12, %arg13 weight(%arg14) bias(%arg15) {epsilon = 1.0e-05 : f64} : (tensor<32x256x64x48xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<32x256x64x48xf32>
  %v8 = fuse.relu %v7 : tensor<32x256x64x48xf32>
  %v9 = fuse.conv %v8, %arg16, %arg17 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<32x256x64x48xf32>, tensor<17x256x1x1xf32>, tensor<17xf32>) -> tensor<32x17x64x48xf32>
  return %v9 : tensor<32x17x64x48xf32>
}
