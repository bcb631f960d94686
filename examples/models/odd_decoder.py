# ===- examples/models/odd_decoder.py - Decoder with output_size= -------=== #
#
# A decoder written as users write one when they match a skip's size: the
# transposed convolutions are called with `output_size=` (a list, a
# torch.Size, a tuple) at odd spatial sizes, so PyTorch derives each
# output_padding; a batch norm, a skip add, a kernel-3 stride-3 layer and
# an output_padding at the stride's limit through F.conv_transpose2d with an
# unequal stride. The whole forward is one fusecc partition (the small
# version is checked on the CPU in python/tests/test_output_size.py).
#
# ===--------------------------------------------------------------------=== #

import torch
import torch.nn.functional as F
from torch import nn

DESCRIPTION = ("decoder with output_size= at odd sizes: ConvT+BN+ReLU, ConvT "
               "+ skip + sigmoid, ConvT s3 + SiLU, ConvT s(3,2)")
INPUTS = [(16, 256, 15, 21), (16, 64, 61, 85)]


class OddDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.up1 = nn.ConvTranspose2d(256, 128, 3, stride=2, padding=1)
        self.bn1 = nn.BatchNorm2d(128)
        self.up2 = nn.ConvTranspose2d(128, 64, 4, stride=2, padding=1)
        self.up3 = nn.ConvTranspose2d(64, 32, 3, stride=3, padding=1)
        self.w4 = nn.Parameter(torch.randn(32, 3, 3, 3) * 0.1)

    def forward(self, x, skip):
        # 15x21 -> 30x42 (the largest of 29..30 x 41..42).
        y = F.relu(self.bn1(self.up1(x, output_size=[30, 42])))
        # 30x42 -> the skip's 61x85 (output_padding 1 past 60x84).
        y = self.up2(y, output_size=torch.Size([61, 85]))
        y = torch.sigmoid(y + skip)
        # 61x85 -> 182x254 (output_padding 1 of 0..2 at stride 3).
        y = F.silu(self.up3(y, output_size=(182, 254)))
        return F.conv_transpose2d(y, self.w4, stride=(3, 2), padding=2,
                                  output_padding=(2, 1))


def build():
    return OddDecoder()
