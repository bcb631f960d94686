# ===- examples/models/vae_decoder.py - VAE / SR decoder block ----------=== #
#
# A latent-diffusion-style VAE decoder stage: a 3x3 conv_in, a ResNet block
# (GroupNorm + SiLU + 3x3 conv, twice, plus the shortcut), a learned 2x
# upsampling by ConvTranspose2d(k4, s2, p1) + GroupNorm + SiLU, a nearest
# 2x upsampling (F.interpolate) and a 3x3 conv_out to RGB. fusecc compiles
# the transposed convolution with its GroupNorm and SiLU; the forward
# convolutions, the residual add and the interpolation stay in PyTorch
# until fusecc has them (issue 36).
#
# ===--------------------------------------------------------------------=== #

import torch.nn.functional as F
from torch import nn

DESCRIPTION = ("VAE decoder stage: conv_in, GN+SiLU+conv3x3 resblock, "
               "ConvT+GN+SiLU, nearest x2, conv_out")
INPUTS = [(8, 4, 32, 32)]


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.norm1, self.conv1 = nn.GroupNorm(32, c), nn.Conv2d(c, c, 3, 1, 1)
        self.norm2, self.conv2 = nn.GroupNorm(32, c), nn.Conv2d(c, c, 3, 1, 1)

    def forward(self, x):
        h = self.conv1(F.silu(self.norm1(x)))
        h = self.conv2(F.silu(self.norm2(h)))
        return x + h


class VAEDecoder(nn.Module):
    def __init__(self, latent=4, c=128):
        super().__init__()
        self.conv_in = nn.Conv2d(latent, c, 3, 1, 1)
        self.res = ResBlock(c)
        self.up = nn.ConvTranspose2d(c, c, 4, 2, 1)
        self.norm = nn.GroupNorm(32, c)
        self.conv_out = nn.Conv2d(c, 3, 3, 1, 1)

    def forward(self, z):
        h = self.res(self.conv_in(z))
        h = F.silu(self.norm(self.up(h)))
        h = F.interpolate(h, scale_factor=2.0, mode="nearest")
        return self.conv_out(h)


def build():
    return VAEDecoder()
