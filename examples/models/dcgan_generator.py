# ===- examples/models/dcgan_generator.py - DCGAN generator -------------=== #
#
# The DCGAN generator (Radford et al.) as torchvision-era code writes it: a
# latent vector z [N, 100, 1, 1] through ConvTranspose2d + BatchNorm2d + ReLU
# layers to a 64x64 RGB image, Tanh last. Every layer is a transposed
# convolution and what fuses after it: fusecc compiles the model whole.
#
# ===--------------------------------------------------------------------=== #

from torch import nn

DESCRIPTION = "DCGAN generator, z 100 -> 3x64x64 (ConvT+BN+ReLU, Tanh)"
INPUTS = [(64, 100, 1, 1)]


class Generator(nn.Module):
    def __init__(self, nz=100, ngf=64, nc=3):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 8), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, z):
        return self.main(z)


def build():
    return Generator()
