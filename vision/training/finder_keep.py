"""Hold a fine-tuned finder to its starting maps on the real photos (``finder --keep-real``).

A fine-tune that teaches the finder new scenes (standing tiles, a low camera) drifts on the
photos it already read well: on the publisher's stretched photos its boxes stopped short along
the stretched axis. The starting finder, frozen, is the teacher: on each real image of a batch
the student's heat is held to the teacher's, and its box size and offset to the teacher's where
the teacher sees a tile, as `classifier --keep-real` holds the classifier to its starting labels.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

# a teacher cell counts as a tile (its size and offset are held) from this heat on
SEEN = 0.3


@dataclass(frozen=True)
class FinderKeep:
    """The frozen teacher and the weight of its term in the loss."""

    teacher: nn.Module
    weight: float

    def loss(self, pred: torch.Tensor, images: torch.Tensor) -> tuple[torch.Tensor, float]:
        """``weight`` x (heat term + size/offset term) of the student's ``pred`` maps on
        ``images`` against the teacher's; also the unweighted value, for the log."""
        with torch.no_grad():
            want = self.teacher(images)
        value = keep_term(pred, want)
        return self.weight * value, float(value.detach())


def keep_term(pred: torch.Tensor, want: torch.Tensor) -> torch.Tensor:
    """How far the maps ``pred`` are from ``want`` (both [N, 7, G, G], heat as logits).

    Heat: binary cross-entropy against the teacher's probabilities less its own entropy (the KL
    divergence, 0 when they agree), summed and divided by the teacher's tile cells, as the
    focal loss is divided by the tiles. Size and offset: L1 on the cells the teacher sees a tile
    at, weighted by its heat there."""
    target = want[:, 0].sigmoid()
    kl = F.binary_cross_entropy_with_logits(pred[:, 0], target, reduction="sum") - (
        F.binary_cross_entropy_with_logits(want[:, 0], target, reduction="sum")
    )
    seen = target * (target >= SEEN)
    n = seen.sum().clamp(min=1.0)
    boxes = (pred[:, 1:5] - want[:, 1:5]).abs().sum(1)
    return kl / n + (boxes * seen).sum() / n
