// The fuse graph torch.compile(model, backend="fusecc") builds for
// examples/models/unet_decoder.py at its batch of 16 (written by
// `python3 bench/models_check.py --precompile DIR --filter unet_decoder`).
// tuning/h200.json's unet_decoder entries were measured on its layers and
// are checked against it (test/fusecc/tuning-shipped.test).
func.func @fusecc_graph(%arg0: tensor<16x512x4x4xf32>,
    %arg1: tensor<512x512x4x4xf32>,
    %arg2: tensor<512xf32>,
    %arg3: tensor<512xf32>,
    %arg4: tensor<512xf32>,
    %arg5: tensor<512xf32>,
    %arg6: tensor<16x512x8x8xf32>,
    %arg7: tensor<1024x256x4x4xf32>,
    %arg8: tensor<256xf32>,
    %arg9: tensor<256xf32>,
    %arg10: tensor<256xf32>,
    %arg11: tensor<256xf32>,
    %arg12: tensor<16x256x16x16xf32>,
    %arg13: tensor<512x128x4x4xf32>,
    %arg14: tensor<128xf32>,
    %arg15: tensor<128xf32>,
    %arg16: tensor<128xf32>,
    %arg17: tensor<128xf32>,
    %arg18: tensor<16x128x32x32xf32>,
    %arg19: tensor<256x64x4x4xf32>,
    %arg20: tensor<64xf32>,
    %arg21: tensor<64xf32>,
    %arg22: tensor<64xf32>,
    %arg23: tensor<64xf32>,
    %arg24: tensor<16x64x64x64xf32>,
    %arg25: tensor<128x3x4x4xf32>,
    %arg26: tensor<3xf32>) -> tensor<16x3x128x128xf32> {
  %v0 = fuse.conv_transpose %arg0, %arg1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x512x4x4xf32>, tensor<512x512x4x4xf32>) -> tensor<16x512x8x8xf32>
  %v1 = fuse.batch_norm %v0, %arg2, %arg3 weight(%arg4) bias(%arg5) {epsilon = 1.0e-05 : f64} : (tensor<16x512x8x8xf32>, tensor<512xf32>, tensor<512xf32>, tensor<512xf32>, tensor<512xf32>) -> tensor<16x512x8x8xf32>
  %v2 = fuse.relu %v1 : tensor<16x512x8x8xf32>
  %v3 = fuse.concat %v2, %arg6 {dim = 1 : i64} : (tensor<16x512x8x8xf32>, tensor<16x512x8x8xf32>) -> tensor<16x1024x8x8xf32>
  %v4 = fuse.conv_transpose %v3, %arg7 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x1024x8x8xf32>, tensor<1024x256x4x4xf32>) -> tensor<16x256x16x16xf32>
  %v5 = fuse.batch_norm %v4, %arg8, %arg9 weight(%arg10) bias(%arg11) {epsilon = 1.0e-05 : f64} : (tensor<16x256x16x16xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<16x256x16x16xf32>
  %v6 = fuse.relu %v5 : tensor<16x256x16x16xf32>
  %v7 = fuse.concat %v6, %arg12 {dim = 1 : i64} : (tensor<16x256x16x16xf32>, tensor<16x256x16x16xf32>) -> tensor<16x512x16x16xf32>
  %v8 = fuse.conv_transpose %v7, %arg13 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x512x16x16xf32>, tensor<512x128x4x4xf32>) -> tensor<16x128x32x32xf32>
  %v9 = fuse.batch_norm %v8, %arg14, %arg15 weight(%arg16) bias(%arg17) {epsilon = 1.0e-05 : f64} : (tensor<16x128x32x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) -> tensor<16x128x32x32xf32>
  %v10 = fuse.relu %v9 : tensor<16x128x32x32xf32>
  %v11 = fuse.concat %v10, %arg18 {dim = 1 : i64} : (tensor<16x128x32x32xf32>, tensor<16x128x32x32xf32>) -> tensor<16x256x32x32xf32>
  %v12 = fuse.conv_transpose %v11, %arg19 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x256x32x32xf32>, tensor<256x64x4x4xf32>) -> tensor<16x64x64x64xf32>
  %v13 = fuse.batch_norm %v12, %arg20, %arg21 weight(%arg22) bias(%arg23) {epsilon = 1.0e-05 : f64} : (tensor<16x64x64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<16x64x64x64xf32>
  %v14 = fuse.relu %v13 : tensor<16x64x64x64xf32>
  %v15 = fuse.concat %v14, %arg24 {dim = 1 : i64} : (tensor<16x64x64x64xf32>, tensor<16x64x64x64xf32>) -> tensor<16x128x64x64xf32>
  %v16 = fuse.conv_transpose %v15, %arg25, %arg26 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x128x64x64xf32>, tensor<128x3x4x4xf32>, tensor<3xf32>) -> tensor<16x3x128x128xf32>
  %v17 = fuse.tanh %v16 : tensor<16x3x128x128xf32>
  return %v17 : tensor<16x3x128x128xf32>
}
