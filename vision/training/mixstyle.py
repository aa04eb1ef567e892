"""MixStyle (Zhou et al., "Domain Generalization with MixStyle", ICLR 2021) in the trunk's early
blocks while a batch of training crops passes.

An early feature map's channel means and spreads carry a crop's style (a set's inks, carving,
light) more than its glyph. Mixing them between crops of a batch shows each glyph under other
sources' styles, so a classifier learned on a few sets leans on shapes more than on one set's
look. Training only: nothing is added to the network, its export or its reading. Fives are left
as they are: the colour of a five is what tells a red one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import torch
from torch import nn

from vision.training.randconv import FIVES

# the blocks that end EfficientNet-Lite0's first three stages (the paper mixes after ResNet's
# first three of four): low-level style, not yet the glyph
MIX_AFTER = (0, 2, 4)
ALPHA = 0.1  # Beta(ALPHA, ALPHA) mixing weights, the paper's
EPS = 1e-6


def mix_styles(h: torch.Tensor, keep: torch.Tensor, rng: np.random.Generator,
               alpha: float = ALPHA) -> torch.Tensor:
    """``h`` [B, C, H, W] with each row's channel means and spreads mixed with those of a random
    row of the batch at a Beta(``alpha``, ``alpha``) weight; rows where ``keep`` as they are."""
    n = h.shape[0]
    if n < 2:
        return h
    mu = h.mean(dim=(2, 3), keepdim=True).detach()
    sig = (h.var(dim=(2, 3), keepdim=True) + EPS).sqrt().detach()
    weight = torch.from_numpy(rng.beta(alpha, alpha, (n, 1, 1, 1)).astype(np.float32))
    other = torch.from_numpy(rng.permutation(n))
    mixed = (h - mu) / sig * (weight * sig + (1 - weight) * sig[other]) \
        + weight * mu + (1 - weight) * mu[other]
    return torch.where(keep[:, None, None, None], h, mixed)


@contextmanager
def mixing(blocks: Sequence[nn.Module], y: torch.Tensor, share: float,
           rng: np.random.Generator) -> Iterator[None]:
    """While inside, each of the blocks ``MIX_AFTER`` mixes the styles of the batch it passes
    (labels ``y``; fives spared) with probability ``share``."""
    keep = torch.isin(y, FIVES)

    def hook(_module: nn.Module, _inputs: object, output: torch.Tensor) -> torch.Tensor:
        return mix_styles(output, keep, rng) if rng.random() < share else output

    handles = [blocks[i].register_forward_hook(hook) for i in MIX_AFTER if i < len(blocks)]
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()
