#!/usr/bin/env python3
# ===- runtime/test/gpu/make_conv_bundle.py - A real conv bundle for GPUs -=== #
#
# Writes a bundle whose kernels are naive CUDA C++ transposed convolutions
# with fused epilogues, compiled to PTX by nvcc, so the runtime and
# bench/gpu_check.py can be exercised end to end on a GPU without the fusecc
# compiler. Two entries: a 3-D conv_transpose + exact gelu, and a grouped,
# dilated 2-D conv_transpose * 0.5 -> tanh. Needs nvcc (CUDA 12+).
#
# Usage: make_conv_bundle.py OUT.fcb [--arch sm_90]
#
# ===--------------------------------------------------------------------=== #

import argparse
import os
import subprocess
import sys
import tempfile

KERNEL = r"""
template <int N, int CI, int CO, int G, int ID, int IH, int IW, int KD, int KH,
          int KW, int SD, int SH, int SW, int PD, int PH, int PW, int DD,
          int DH, int DW, int OD, int OH, int OW, int EPI>
__device__ void conv_transpose(const float *x, const float *w, const float *b,
                               float *y) {
  long idx = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (idx >= (long)N * CO * OD * OH * OW)
    return;
  int ow = idx % OW;
  long t = idx / OW;
  int oh = t % OH;
  t /= OH;
  int od = t % OD;
  t /= OD;
  int co = t % CO;
  int n = t / CO;
  const int cog = CO / G, cig = CI / G;
  int g = co / cog, col = co % cog;
  float acc = b[co];
  for (int ci = g * cig; ci < (g + 1) * cig; ++ci)
    for (int kd = 0; kd < KD; ++kd) {
      int td = od + PD - kd * DD;
      if (td < 0 || td % SD || td / SD >= ID)
        continue;
      for (int kh = 0; kh < KH; ++kh) {
        int th = oh + PH - kh * DH;
        if (th < 0 || th % SH || th / SH >= IH)
          continue;
        for (int kw = 0; kw < KW; ++kw) {
          int tw = ow + PW - kw * DW;
          if (tw < 0 || tw % SW || tw / SW >= IW)
            continue;
          acc += x[(((long)(n * CI + ci) * ID + td / SD) * IH + th / SH) * IW +
                   tw / SW] *
                 w[(((ci * cog + col) * KD + kd) * KH + kh) * KW + kw];
        }
      }
    }
  float v = EPI == 0 ? 0.5f * acc * (1.0f + erff(acc * 0.70710678118654752f))
                     : tanhf(acc * 0.5f);
  y[idx] = v;
}
"""

# name, N, CI, CO, G, in spatial, kernel, stride, padding, output_padding,
# dilation, epilogue graph lines, epilogue id
CONFIGS = [
    ("convt3d_gelu", 4, 16, 32, 1, (8, 16, 16), (3, 3, 3), (2, 2, 2),
     (1, 1, 1), (1, 1, 1), (1, 1, 1),
     ["%4 = gelu %3 approximate=none", "return %4"], 0),
    ("convt2d_grouped_tanh", 2, 8, 12, 2, (20, 24), (4, 3), (3, 2), (2, 1),
     (1, 0), (2, 1),
     ["%4 = const 0.5", "%5 = mul %3 %4", "%6 = tanh %5", "return %6"], 1),
]


def csv(values):
    return ",".join(str(v) for v in values)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("output")
    parser.add_argument("--arch", default="sm_90")
    args = parser.parse_args()

    source = [KERNEL]
    manifest = ["fusecc-bundle 1", "chip " + args.arch, "precision ieee"]
    for (name, n, ci, co, g, size, k, s, p, op, d, epilogue, epi) in CONFIGS:
        out = [(i - 1) * st - 2 * pa + di * (kk - 1) + o + 1
               for i, kk, st, pa, o, di in zip(size, k, s, p, op, d)]
        pad3 = lambda v, fill: [fill] * (3 - len(v)) + list(v)
        template = ([n, ci, co, g] + pad3(size, 1) + pad3(k, 1) + pad3(s, 1) +
                    pad3(p, 0) + pad3(d, 1) + pad3(out, 1) + [epi])
        kernel = name + "_k0"
        source.append(
            'extern "C" __global__ void __launch_bounds__(256) %s(const float '
            '*x, const float *w, const float *b, float *y) {\n'
            '  conv_transpose<%s>(x, w, b, y);\n}\n'
            % (kernel, ", ".join(str(v) for v in template)))
        total = n * co
        for v in out:
            total *= v
        x_shape = [n, ci] + list(size)
        w_shape = [ci, co // g] + list(k)
        y_shape = [n, co] + out
        manifest += [
            "entry %s args 4 launches 1" % name,
            "arg 0 in x f32 %d %s" % (len(x_shape), " ".join(map(str, x_shape))),
            "arg 1 in weight f32 %d %s" % (len(w_shape),
                                          " ".join(map(str, w_shape))),
            "arg 2 in bias f32 1 %d" % co,
            "arg 3 out result f32 %d %s" % (len(y_shape),
                                           " ".join(map(str, y_shape))),
            "launch %s grid %d 1 1 block 256 1 1 smem 0 params 4 0 1 2 3"
            % (kernel, (total + 255) // 256),
            "graph %%3 = conv_transpose %%0 %%1 %%2 stride=%s padding=%s "
            "output_padding=%s dilation=%s groups=%d"
            % (csv(s), csv(p), csv(op), csv(d), g),
        ]
        manifest += ["graph " + line for line in epilogue]
        manifest.append("end")

    with tempfile.TemporaryDirectory() as tmp:
        cu = os.path.join(tmp, "conv.cu")
        ptx = os.path.join(tmp, "conv.ptx")
        with open(cu, "w") as f:
            f.write("\n".join(source))
        subprocess.run(["nvcc", "-ptx", "-arch=" + args.arch, "-o", ptx, cu],
                       check=True)
        with open(ptx, "rb") as f:
            ptx_bytes = f.read()
    with open(args.output, "wb") as f:
        f.write(("\n".join(manifest) + "\n").encode())
        f.write(b"ptx %d\n" % len(ptx_bytes))
        f.write(ptx_bytes)
    print("wrote %s (%d entries, PTX %d bytes)"
          % (args.output, len(CONFIGS), len(ptx_bytes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
