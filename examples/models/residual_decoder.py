# ===- examples/models/residual_decoder.py - residual up block ----------=== #
#
# A residual upsampling block (BigGAN / ResNet-decoder style): the main
# path is ConvTranspose2d(k4, s2, p1) + BatchNorm2d + ReLU + ConvTranspose2d
# (k3, s1, p1) + BatchNorm2d, the shortcut a ConvTranspose2d(k2, s2) of the
# input; their sum goes through ReLU. Two stacked blocks.
#
# ===--------------------------------------------------------------------=== #

import torch
from torch import nn

DESCRIPTION = "2 residual up blocks: ConvT+BN+ReLU+ConvT+BN + ConvT shortcut"
INPUTS = [(16, 128, 16, 16)]


class ResidualUp(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(cin, cout, 4, 2, 1, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU(),
            nn.ConvTranspose2d(cout, cout, 3, 1, 1, bias=False),
            nn.BatchNorm2d(cout))
        self.shortcut = nn.ConvTranspose2d(cin, cout, 2, 2)

    def forward(self, x):
        return torch.relu(self.main(x) + self.shortcut(x))


def build():
    return nn.Sequential(ResidualUp(128, 64), ResidualUp(64, 32))
