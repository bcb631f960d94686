# ===- examples/models/unet_decoder.py - pix2pix U-Net decoder ----------=== #
#
# The decoder half of a pix2pix U-Net generator: the bottleneck [N, 512, 4,
# 4] is upsampled by ConvTranspose2d(k4, s2, p1) + BatchNorm2d + ReLU blocks,
# each result concatenated (torch.cat on channels) with the encoder's skip
# feature map of the same size, and a last ConvTranspose2d + Tanh makes the
# image. The skip features are inputs here (the encoder is not part of it).
# fusecc compiles each up block; the concatenations stay in PyTorch until
# fusecc plans them (issue 36).
#
# ===--------------------------------------------------------------------=== #

import torch
from torch import nn

DESCRIPTION = "pix2pix U-Net decoder: 4 up blocks with skip concat, Tanh"
# bottleneck, then the skips from deepest to shallowest
INPUTS = [(16, 512, 4, 4), (16, 512, 8, 8), (16, 256, 16, 16),
          (16, 128, 32, 32), (16, 64, 64, 64)]


def up(cin, cout):
    return nn.Sequential(nn.ConvTranspose2d(cin, cout, 4, 2, 1, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


class UNetDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.up1 = up(512, 512)
        self.up2 = up(1024, 256)
        self.up3 = up(512, 128)
        self.up4 = up(256, 64)
        self.final = nn.Sequential(nn.ConvTranspose2d(128, 3, 4, 2, 1),
                                   nn.Tanh())

    def forward(self, x, s1, s2, s3, s4):
        x = torch.cat([self.up1(x), s1], dim=1)
        x = torch.cat([self.up2(x), s2], dim=1)
        x = torch.cat([self.up3(x), s3], dim=1)
        x = torch.cat([self.up4(x), s4], dim=1)
        return self.final(x)


def build():
    return UNetDecoder()
