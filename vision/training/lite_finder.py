"""A tile finder on pretrained visual features (``finder --backbone lite0``).

The shipped finder learned every filter from our photos and renders; it finds tiles of the sets
it saw and misses some of a set it never saw. Its maps (centre heat, box size, offset, glyph
axis at stride 4) can as well be read off EfficientNet-Lite0's first blocks, learned on
ImageNet, as the classifier's labels are: strokes, edges and colour a new set's tiles share.

The network: Lite0's stem and blocks 0 to ``upto`` (stride 16), a small top-down path that joins
the stride-16 features with those at strides 8 and 4, and the finder's 7-channel head; the same
input (BGR 0..255, normalised inside the graph) and output as `TileFinder`, so the reader needs
nothing new. The stem and the first ``frozen`` blocks keep their ImageNet weights and batch
statistics: generic edges, and on a CPU the backward pass through their full-resolution
depthwise convolutions is most of a step's time.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from vision.training.nets import TileFinder, conv_bn
from vision.training.pretrained import PretrainedClassifier, lite0_input, lite0_trunk

# the last block at each stride of Lite0: 2 ends stride 4 (24 channels), 4 stride 8 (40)
LAST_AT_4, LAST_AT_8 = 2, 4
BACKBONES = ("small", "lite0")  # the finder's own network; this one


class LiteFinder(nn.Module):
    """Frame (BGR 0..255, NCHW, sides multiples of 16) -> the finder's 7 maps at stride 4."""

    OUT = 7
    MEAN, STD = PretrainedClassifier.MEAN, PretrainedClassifier.STD

    def __init__(self, upto: int = 10, frozen: int = 3, pretrained: bool = True) -> None:
        super().__init__()
        if not LAST_AT_8 < upto <= 10:
            raise ValueError(f"upto {upto}: the last block must lie at stride 16 (5..10)")
        self.stem, self.blocks = lite0_trunk(upto, pretrained)
        self.frozen = frozen
        c4, c8, c16 = (self.blocks[i]._project_conv.out_channels for i in (LAST_AT_4, LAST_AT_8,
                                                                            upto))
        self.up8 = conv_bn(c16 + c8, 48)
        self.up4 = conv_bn(48 + c4, 32)
        self.head = nn.Sequential(conv_bn(32, 32), nn.Conv2d(32, self.OUT, 1))
        nn.init.constant_(self.head[-1].bias, 0.0)
        with torch.no_grad():
            self.head[-1].bias[0] = -4.0  # a low heat everywhere to start, as TileFinder
        for part in self._frozen_parts():
            part.requires_grad_(False)

    def _frozen_parts(self) -> list[nn.Module]:
        return [self.stem, *self.blocks[: self.frozen]]

    def train(self, mode: bool = True) -> LiteFinder:
        super().train(mode)
        for part in self._frozen_parts():  # their batch statistics stay ImageNet's
            part.eval()
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.stem(lite0_input(x))
        f4 = f8 = h
        for i, block in enumerate(self.blocks):
            h = block(h)
            if i == LAST_AT_4:
                f4 = h
            elif i == LAST_AT_8:
                f8 = h
        u = self.up8(torch.cat([F.interpolate(h, scale_factor=2.0, mode="nearest"), f8], 1))
        u = self.up4(torch.cat([F.interpolate(u, scale_factor=2.0, mode="nearest"), f4], 1))
        return self.head(u)


def finder_network(backbone: str, width: int = 16) -> nn.Module:
    """A fresh finder of ``backbone`` (one of `BACKBONES`; ``width``: the small one's)."""
    if backbone not in BACKBONES:
        raise ValueError(f"backbone {backbone!r} is none of {', '.join(BACKBONES)}")
    return TileFinder(width) if backbone == "small" else LiteFinder()
