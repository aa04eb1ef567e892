"""Resumable training: one checkpoint a run (`last.pt`) and one JSON line a epoch in `log.jsonl`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

import torch


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """The options every trainer shares: seed, threads, export folder and starting weights."""
    p.add_argument("--seed", type=int, default=0, help="data order, augmentation and renders")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    p.add_argument("--export", type=Path, default=None, help="write ONNX + card here at the end")
    p.add_argument(
        "--init",
        type=Path,
        default=None,
        help="start from these weights (a final.pt) instead of from scratch",
    )


def optimise(loss: torch.Tensor, opt: torch.optim.Optimizer, sched: Any | None = None) -> float:
    """One optimiser step on ``loss`` (and the schedule's, when given); the loss as a float."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    if sched is not None:
        sched.step()
    return float(loss.detach())


def resume(ckpt: Path, model: torch.nn.Module, opt: torch.optim.Optimizer,
           sched: Any) -> int:
    """Load `ckpt` when it exists; the epoch to start from (0 for a fresh run)."""
    if not ckpt.exists():
        return 0
    state = torch.load(ckpt, weights_only=False)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["opt"])
    sched.load_state_dict(state["sched"])
    print(f"resumed from {ckpt} at epoch {state['epoch']}", flush=True)
    return int(state["epoch"])


def write_record(record: dict[str, Any], log: TextIO) -> None:
    """Print a record of figures and add it to the run's log, a JSON line."""
    print(json.dumps(record), flush=True)
    log.write(json.dumps(record) + "\n")
    log.flush()


def end_epoch(record: dict[str, Any], log: TextIO, ckpt: Path, model: torch.nn.Module,
              opt: torch.optim.Optimizer, sched: Any, **extra: Any) -> None:
    """Print and log the epoch's figures, then save everything `resume` needs."""
    write_record(record, log)
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                "sched": sched.state_dict(), "epoch": record["epoch"], **extra}, ckpt)
