# ===- examples/models/heatmap_head.py - pose heatmap head --------------=== #
#
# The SimpleBaseline (Xiao et al.) human-pose head: backbone features [N,
# 2048, 8, 6] through three ConvTranspose2d(k4, s2, p1, no bias) +
# BatchNorm2d + ReLU layers, then a 1x1 Conv2d to 17 keypoint heatmaps.
# fusecc compiles the three deconvolution layers as one bundle; the 1x1
# projection stays in PyTorch until fusecc has forward convolutions.
#
# ===--------------------------------------------------------------------=== #

from torch import nn

DESCRIPTION = "SimpleBaseline pose head: 3x (ConvT+BN+ReLU), 1x1 conv to 17"
INPUTS = [(32, 2048, 8, 6)]


class HeatmapHead(nn.Module):
    def __init__(self, cin=2048, c=256, joints=17):
        super().__init__()
        layers = []
        for i in range(3):
            layers += [nn.ConvTranspose2d(cin if i == 0 else c, c, 4, 2, 1,
                                          bias=False),
                       nn.BatchNorm2d(c), nn.ReLU(inplace=True)]
        self.deconv = nn.Sequential(*layers)
        self.final = nn.Conv2d(c, joints, 1)

    def forward(self, x):
        return self.final(self.deconv(x))


def build():
    return HeatmapHead()
