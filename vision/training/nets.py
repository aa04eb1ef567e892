"""The two small networks: a crop classifier and a CenterNet-style tile finder.

Both take float32 NCHW BGR 0..255 and normalise inside the graph, so the exported ONNX needs no
pre-processing beyond resizing (the card records this).
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

MEAN, STD = 127.5, 64.0  # a fixed, documented normalisation: (x - 127.5) / 64


def conv_bn(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Block(nn.Module):
    """Residual block: two 3x3 convs, projection shortcut when the shape changes."""

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.a = conv_bn(cin, cout, stride)
        self.b = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.skip = (
            nn.Identity()
            if cin == cout and stride == 1
            else nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(self.b(self.a(x)) + self.skip(x))


class TileClassifier(nn.Module):
    """48x48 crop -> 38 class logits + 2 glyph-axis logits (vertical, horizontal in the crop)
    + 1 tile logit (whether the crop holds a tile at all).

    The glyph axis tells a sideways (called) tile from an upright one far better than the
    finder's box shape, which a tile's visible side blurs. The tile head tells the finder's
    false boxes (a finger, a point stick's end, a patch of table), which the 38 classes would
    read as the blank White dragon or a back. About 0.5M parameters.
    """

    def __init__(self, n_classes: int = 38, width: int = 32) -> None:
        super().__init__()
        w = width
        self.features = nn.Sequential(
            conv_bn(3, w),  # 48
            Block(w, w, 1),
            Block(w, 2 * w, 2),  # 24
            Block(2 * w, 3 * w, 2),  # 12
            Block(3 * w, 4 * w, 2),  # 6
        )
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(4 * w, n_classes)
        self.orient = nn.Linear(4 * w, 2)
        # the tile head reads the 6x6 map, not its mean: a tile's outline is where it differs
        self.tile = nn.Sequential(
            nn.Conv2d(4 * w, 16, 1),
            nn.ReLU(inplace=True),
            nn.Flatten(),
            nn.Linear(16 * 6 * 6, 32),
            nn.ReLU(inplace=True),
            nn.Linear(32, 1),
        )

    def feature_map(self, x: torch.Tensor) -> torch.Tensor:
        """[N, 4 * width, 6, 6]: what every head reads (the label and axis heads its mean)."""
        return self.features((x - MEAN) / STD)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        fmap = self.feature_map(x)
        pooled = self.drop(fmap.mean(dim=(2, 3)))
        return self.head(pooled), self.orient(pooled), self.tile(fmap)


class TileFinder(nn.Module):
    """320x320 frame -> 80x80 maps: centre heatmap (logit), box w/h, centre offset, orientation.

    Channels: 0 heat logit; 1-2 log box size in input px / 16; 3-4 sub-cell offset; 5-6 the tile's
    long-axis direction as (cos 2a, sin 2a), which tells sideways tiles in a row of upright ones.
    """

    OUT = 7

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width
        self.s2 = nn.Sequential(conv_bn(3, w, 2), conv_bn(w, w))  # 160
        self.s4 = nn.Sequential(Block(w, 2 * w, 2), Block(2 * w, 2 * w, 1))  # 80
        self.s8 = nn.Sequential(Block(2 * w, 3 * w, 2), Block(3 * w, 3 * w, 1))  # 40
        self.s16 = nn.Sequential(Block(3 * w, 4 * w, 2), Block(4 * w, 4 * w, 1))  # 20
        self.s32 = nn.Sequential(Block(4 * w, 6 * w, 2), Block(6 * w, 6 * w, 1))  # 10
        self.up16 = conv_bn(6 * w + 4 * w, 4 * w)
        self.up8 = conv_bn(4 * w + 3 * w, 3 * w)
        self.up4 = conv_bn(3 * w + 2 * w, 2 * w)
        self.head = nn.Sequential(conv_bn(2 * w, 2 * w), nn.Conv2d(2 * w, self.OUT, 1))
        nn.init.constant_(self.head[-1].bias, 0.0)
        with torch.no_grad():
            self.head[-1].bias[0] = -4.0  # start with a low heat everywhere (focal-loss practice)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - MEAN) / STD
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        u = self.up16(torch.cat([F.interpolate(f32, scale_factor=2.0, mode="nearest"), f16], 1))
        u = self.up8(torch.cat([F.interpolate(u, scale_factor=2.0, mode="nearest"), f8], 1))
        u = self.up4(torch.cat([F.interpolate(u, scale_factor=2.0, mode="nearest"), f4], 1))
        return self.head(u)


def n_params(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
