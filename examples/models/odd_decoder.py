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
    """`channels`: the five channel counts from the input to the output;
    `sizes`: the output_size= of the first three layers (the defaults:
    15x21 -> 30x42, the largest of 29..30 x 41..42; -> the skip's 61x85,
    output_padding 1 past 60x84; -> 182x254, output_padding 1 of 0..2 at
    stride 3); the last layer's output_padding (2, 1) is at its stride's
    limit. python/tests/test_output_size.py builds a small one."""

    def __init__(self, channels=(256, 128, 64, 32, 3),
                 sizes=((30, 42), (61, 85), (182, 254)), scale=0.1):
        super().__init__()
        c0, c1, c2, c3, c4 = channels
        self.sizes = sizes
        self.up1 = nn.ConvTranspose2d(c0, c1, 3, stride=2, padding=1)
        self.bn1 = nn.BatchNorm2d(c1)
        self.up2 = nn.ConvTranspose2d(c1, c2, 4, stride=2, padding=1)
        self.up3 = nn.ConvTranspose2d(c2, c3, 3, stride=3, padding=1)
        self.w4 = nn.Parameter(torch.randn(c3, c4, 3, 3) * scale)

    def forward(self, x, skip):
        s1, s2, s3 = self.sizes
        y = F.relu(self.bn1(self.up1(x, output_size=list(s1))))
        y = self.up2(y, output_size=torch.Size(s2))
        y = torch.sigmoid(y + skip)
        y = F.silu(self.up3(y, output_size=tuple(s3)))
        return F.conv_transpose2d(y, self.w4, stride=(3, 2), padding=2,
                                  output_padding=(2, 1))


def build():
    return OddDecoder()
