"""A linear probe before fine-tuning (LP-FT: Kumar et al., ICLR 2022, "Fine-Tuning can Distort
Pretrained Features and Underperform Out-of-Distribution").

A newly drawn neck and heads send large, one-sided gradients into the pretrained trunk in the
first steps of fine-tuning, bending its features toward the training crops; crops of a set it
never saw are then read worse. Taught first on the frozen trunk (weights and batch statistics),
the heads start fine-tuning near right, and the trunk moves less. Its own data order, so the
fine-tuning epochs after it see the batches (and dropout) they would see without it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from vision.training.checkpoint import write_record

PROBE_FILE = "probe.pt"  # the model after the probe: a resumed run starts fine-tuning from it
PROBE_SEED = 999  # the probe's data order (``seed * 1000 + PROBE_SEED``): no epoch's
# one pass over the crops (``pretrained.epoch_steps`` bound to its model and crops): optimiser,
# schedule, data order, progress label -> the mean loss
Steps = Callable[[torch.optim.Optimizer, Any, np.random.Generator, str], float]


def frozen_trunk(model: nn.Module, frozen: bool) -> list[nn.Parameter]:
    """Freeze (or free) the trunk's weights and batch statistics; the parameters that learn."""
    for part in (model.stem, model.blocks):
        part.train(not frozen)
        for p in part.parameters():
            p.requires_grad_(not frozen)
    return [p for p in model.parameters() if p.requires_grad]


def linear_probe(model: nn.Module, steps: Steps, n_steps: int, args: Any, log: Any) -> None:
    """Teach ``model``'s neck and heads ``args.linear_probe`` epochs of ``n_steps`` on its frozen
    trunk (AdamW, one-cycle to ``args.lr``), or load them from the run's ``probe.pt``; the trunk
    is freed after."""
    path = Path(args.out) / PROBE_FILE
    if path.exists():
        model.load_state_dict(torch.load(path, weights_only=True))
        print(f"linear probe loaded from {path}", flush=True)
        return
    with torch.random.fork_rng():  # the fine-tuning after it draws the dropout it would
        opt = torch.optim.AdamW(frozen_trunk(model, True), args.lr / 2, weight_decay=1e-4)
        sched = torch.optim.lr_scheduler.OneCycleLR(
            opt, args.lr, total_steps=args.linear_probe * n_steps, pct_start=0.15)
        for epoch in range(args.linear_probe):
            rng = np.random.default_rng(args.seed * 1000 + PROBE_SEED + epoch)
            t0 = time.time()
            loss = steps(opt, sched, rng, f"probe {epoch + 1}/{args.linear_probe}")
            write_record({"probe_epoch": epoch + 1, "loss": round(loss, 4),
                          "seconds": round(time.time() - t0)}, log)
    frozen_trunk(model, False)
    torch.save(model.state_dict(), path)
