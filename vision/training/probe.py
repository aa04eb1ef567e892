"""A linear probe before fine-tuning (LP-FT: Kumar et al., ICLR 2022, "Fine-Tuning can Distort
Pretrained Features and Underperform Out-of-Distribution").

A newly drawn neck and heads send large, one-sided gradients into the pretrained trunk in the
first steps of fine-tuning, bending its features toward the training crops; crops of a set it
never saw are then read worse. Taught first on the frozen trunk (weights and batch statistics),
the heads start fine-tuning near right, and the trunk moves less. Its own data order, so the
fine-tuning epochs after it see the batches (and dropout) they would see without it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from vision.training import data
from vision.training.checkpoint import optimise

PROBE_FILE = "probe.pt"  # the model after the probe: a resumed run starts fine-tuning from it
PROBE_SEED = 999  # the probe's data order (``seed * 1000 + PROBE_SEED``): no epoch's


def frozen_trunk(model: nn.Module, frozen: bool) -> list[nn.Parameter]:
    """Freeze (or free) the trunk's weights and batch statistics; the parameters that learn."""
    for part in (model.stem, model.blocks):
        part.train(not frozen)
        for p in part.parameters():
            p.requires_grad_(not frozen)
    return [p for p in model.parameters() if p.requires_grad]


def linear_probe(model: nn.Module, x_stored: np.ndarray, y: torch.Tensor, axis: np.ndarray,
                 loss: Callable[..., torch.Tensor], args: Any, log: Any) -> None:
    """Teach ``model``'s neck and heads ``args.linear_probe`` epochs on its frozen trunk (AdamW,
    one-cycle to ``args.lr``), or load them from the run's ``probe.pt``; the trunk is freed
    after."""
    path = Path(args.out) / PROBE_FILE
    if path.exists():
        model.load_state_dict(torch.load(path, weights_only=True))
        print(f"linear probe loaded from {path}", flush=True)
        return
    with torch.random.fork_rng():  # the fine-tuning after it draws the dropout it would
        _probe(model, x_stored, y, axis, loss, args, log)
    frozen_trunk(model, False)
    torch.save(model.state_dict(), path)


def _probe(model: nn.Module, x_stored: np.ndarray, y: torch.Tensor, axis: np.ndarray,
           loss: Callable[..., torch.Tensor], args: Any, log: Any) -> None:
    learning = frozen_trunk(model, True)
    opt = torch.optim.AdamW(learning, args.lr / 2, weight_decay=1e-4)
    n_steps = (len(y) + args.batch - 1) // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.linear_probe
                                                * n_steps, pct_start=0.15)
    for epoch in range(args.linear_probe):
        rng = np.random.default_rng(args.seed * 1000 + PROBE_SEED + epoch)
        order, t0, total = rng.permutation(len(y)), time.time(), 0.0
        for step in tqdm(range(n_steps), desc=f"probe {epoch + 1}/{args.linear_probe}",
                         mininterval=30):
            idx = order[step * args.batch : (step + 1) * args.batch]
            x, turned = data.batch(x_stored, idx, rng, True, args.size)
            turned_axis = torch.from_numpy(data.turned_axis(axis[idx], turned))
            total += optimise(loss(model, torch.from_numpy(x), y[idx], turned_axis), opt, sched)
        record = {"probe_epoch": epoch + 1, "loss": round(total / n_steps, 4),
                  "seconds": round(time.time() - t0)}
        print(json.dumps(record), flush=True)
        log.write(json.dumps(record) + "\n")
        log.flush()
