"""Random convolutions (Xu et al., ICLR 2021, "mix" variant) over a batch of training crops.

A random 3 -> 3 channel filter changes a crop's local texture and colours but not its shapes, so
a classifier taught on such crops leans on a face's glyph more than on one set's inks and
carving. Crops of no tile are filtered alike, or an odd texture would come only on tiles and
teach "odd, so a tile". Fives are left as they are: the colour of a five is what tells a red one.
"""

from __future__ import annotations

import torch

from scorer.tiles import MODEL_CLASSES, RED_FIVE_KINDS, Tile

KERNELS = (1, 3, 5, 7)  # the paper's kernel sizes
FIVES = torch.tensor([i for i, c in enumerate(MODEL_CLASSES)
                      if c != "back" and Tile.parse(c).kind in RED_FIVE_KINDS])


def rand_conv(x: torch.Tensor, y: torch.Tensor, share: float, gen: torch.Generator) -> torch.Tensor:
    """``x`` [B, 3, H, W] crops (0..255) with a ``share`` of those whose label ``y`` is no five
    (a tile's, or one of no tile) passed through one random convolution, each standardised to
    its own per-channel mean and spread and mixed with the crop at a random weight."""
    chosen = (torch.rand(len(y), generator=gen) < share) & ~torch.isin(y, FIVES)
    if not chosen.any():
        return x
    k = KERNELS[int(torch.randint(len(KERNELS), (1,), generator=gen))]
    weight = torch.randn(3, 3, k, k, generator=gen) / (3 * k * k) ** 0.5
    src = x[chosen]
    out = torch.nn.functional.conv2d(src, weight, padding=k // 2)
    mean, std = src.mean((2, 3), keepdim=True), src.std((2, 3), keepdim=True)
    out = (out - out.mean((2, 3), keepdim=True)) / (out.std((2, 3), keepdim=True) + 1e-6)
    out = out * std + mean
    a = torch.rand(len(src), 1, 1, 1, generator=gen)
    mixed = x.clone()
    mixed[chosen] = (a * out + (1 - a) * src).clamp(0, 255)
    return mixed
