"""Resumable training: one checkpoint a run (`last.pt`) and one JSON line a epoch in `log.jsonl`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

import torch


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


def end_epoch(record: dict[str, Any], log: TextIO, ckpt: Path, model: torch.nn.Module,
              opt: torch.optim.Optimizer, sched: Any, **extra: Any) -> None:
    """Print and log the epoch's figures, then save everything `resume` needs."""
    print(json.dumps(record), flush=True)
    log.write(json.dumps(record) + "\n")
    log.flush()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                "sched": sched.state_dict(), "epoch": record["epoch"], **extra}, ckpt)
