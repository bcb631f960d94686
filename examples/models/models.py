#!/usr/bin/env python3
# ===- examples/models/models.py - ordinary PyTorch decoders --------------=== #
#
# Three PyTorch modules of the kind fusecc's users have, written as they
# would write them (nn.Sequential of standard layers, eval mode):
#  - dcgan: a DCGAN-style image generator (ConvTranspose2d + BatchNorm2d +
#    ReLU layers, Tanh);
#  - unet3d: a 3-D U-Net decoder path (ConvTranspose3d + InstanceNorm3d +
#    LeakyReLU);
#  - vae: a VAE / super-resolution decoder (ConvTranspose2d + GroupNorm +
#    SiLU, Sigmoid);
#  - video_head: a 3-D video / volume decoder ending in a classifier
#    (ConvTranspose3d + BatchNorm3d + ReLU + MaxPool3d, ConvTranspose3d +
#    GELU, global average pooling, Flatten, Softmax);
#  - seg2d: a segmentation head (ConvTranspose2d + BatchNorm2d + LeakyReLU,
#    ConvTranspose2d to per-pixel class log-probabilities, LogSoftmax).
# `export` writes each to ONNX (torch.onnx.export, opset 17, fixed shapes)
# with its weights (seeded) and its example input shape in MODELS.
#
# Usage: models.py export OUT_DIR      (on a machine with PyTorch + onnx)
#
# ===--------------------------------------------------------------------=== #

import os
import sys

import torch
from torch import nn


def dcgan():
    return nn.Sequential(
        nn.ConvTranspose2d(128, 64, 4, 2, 1, bias=False), nn.BatchNorm2d(64),
        nn.ReLU(),
        nn.ConvTranspose2d(64, 32, 4, 2, 1, bias=False), nn.BatchNorm2d(32),
        nn.ReLU(),
        nn.ConvTranspose2d(32, 16, 4, 2, 1, bias=False), nn.BatchNorm2d(16),
        nn.ReLU(),
        nn.ConvTranspose2d(16, 3, 4, 2, 1, bias=False), nn.Tanh())


def unet3d():
    return nn.Sequential(
        nn.ConvTranspose3d(64, 32, 2, 2), nn.InstanceNorm3d(32),
        nn.LeakyReLU(0.01),
        nn.ConvTranspose3d(32, 16, 2, 2), nn.InstanceNorm3d(16),
        nn.LeakyReLU(0.01))


def vae():
    return nn.Sequential(
        nn.ConvTranspose2d(64, 64, 4, 2, 1), nn.GroupNorm(8, 64), nn.SiLU(),
        nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.GroupNorm(8, 32), nn.SiLU(),
        nn.ConvTranspose2d(32, 3, 3, 1, 1), nn.Sigmoid())


def video_head():
    return nn.Sequential(
        nn.ConvTranspose3d(32, 32, 3, 2, 1, output_padding=1),
        nn.BatchNorm3d(32), nn.ReLU(), nn.MaxPool3d(2),
        nn.ConvTranspose3d(32, 16, 3, 1, 1), nn.GELU(),
        nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Softmax(dim=1))


def seg2d():
    return nn.Sequential(
        nn.ConvTranspose2d(64, 64, 3, 1, 1), nn.BatchNorm2d(64),
        nn.LeakyReLU(0.1),
        nn.ConvTranspose2d(64, 21, 4, 2, 1), nn.LogSoftmax(dim=1))


# name -> (constructor, input shape)
MODELS = {
    "dcgan": (dcgan, [32, 128, 8, 8]),
    "unet3d": (unet3d, [8, 64, 8, 8, 8]),
    "vae": (vae, [16, 64, 16, 16]),
    "video_head": (video_head, [8, 32, 8, 16, 16]),
    "seg2d": (seg2d, [16, 64, 32, 32]),
}


def build(name):
    """The module `name` in eval mode with seeded weights and, for
    BatchNorm, non-trivial running statistics."""
    torch.manual_seed(0)
    ctor, _ = MODELS[name]
    m = ctor()
    for mod in m.modules():
        if isinstance(mod, (nn.BatchNorm2d, nn.BatchNorm3d)):
            mod.running_mean.uniform_(-0.5, 0.5)
            mod.running_var.uniform_(0.5, 1.5)
            mod.weight.data.uniform_(0.5, 1.5)
            mod.bias.data.uniform_(-0.2, 0.2)
        if isinstance(mod, nn.GroupNorm):
            mod.weight.data.uniform_(0.5, 1.5)
            mod.bias.data.uniform_(-0.2, 0.2)
    return m.eval()


def export(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for name, (_, shape) in MODELS.items():
        m = build(name)
        x = torch.randn(*shape)
        path = os.path.join(out_dir, name + ".onnx")
        kwargs = {"opset_version": 17, "input_names": ["x"],
                  "output_names": ["y"]}
        try:
            torch.onnx.export(m, (x,), path, dynamo=False, **kwargs)
        except TypeError:  # PyTorch without the dynamo switch
            torch.onnx.export(m, (x,), path, **kwargs)
        print("wrote", path)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "export":
        sys.exit("usage: models.py export OUT_DIR")
    export(sys.argv[2])
