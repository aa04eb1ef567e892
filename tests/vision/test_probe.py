"""`pretrained --linear-probe`: the neck and heads learn on the frozen trunk first (LP-FT)."""

from functools import partial
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra (torch)")
pytest.importorskip("efficientnet_lite_pytorch", reason="the `train` extra")

import numpy as np  # noqa: E402

from vision.training.__main__ import main  # noqa: E402
from vision.training.data import STORE  # noqa: E402
from vision.training.pretrained import PretrainedClassifier, epoch_steps  # noqa: E402
from vision.training.probe import PROBE_FILE, linear_probe  # noqa: E402


def trunk_state(net):
    return {k: v.clone() for k, v in net.state_dict().items() if k.startswith(("stem", "blocks"))}


def test_the_probe_teaches_the_heads_and_leaves_the_trunk_as_imagenet_left_it(tmp_path):
    torch.manual_seed(0)
    net = PretrainedClassifier(upto=4).train()
    trunk, neck, head = trunk_state(net), net.neck[0].weight.clone(), net.head.weight.clone()
    rng = np.random.default_rng(0)
    crops = rng.integers(0, 256, (40, STORE, STORE, 3), dtype=np.uint8)
    y, axis = torch.from_numpy(rng.integers(0, 38, 40)), np.full(40, -1)
    args = SimpleNamespace(out=tmp_path, linear_probe=2, lr=1e-3, batch=16, seed=0, size=32,
                           randconv=0.0)
    with (tmp_path / "log.jsonl").open("w") as log:
        linear_probe(net, partial(epoch_steps, net, crops, y, axis, args), 3, args, log)
    after = trunk_state(net)
    # weights and batch statistics (running means, spreads, counts) all as they were
    assert after.keys() == trunk.keys() and all(torch.equal(after[k], trunk[k]) for k in trunk)
    assert not torch.equal(net.neck[0].weight, neck) and not torch.equal(net.head.weight, head)
    # the fine-tuning after it moves the whole network again
    assert all(p.requires_grad for p in net.parameters())
    assert net.stem.training and net.blocks.training
    assert (tmp_path / "log.jsonl").read_text().count('"probe_epoch"') == 2
    # a resumed run takes the probed heads from the run's folder instead of probing again
    again = PretrainedClassifier(upto=4)
    with (tmp_path / "log.jsonl").open("a") as log:
        linear_probe(again, partial(epoch_steps, again, crops, y, axis, args), 3, args, log)
    assert torch.equal(again.head.weight, net.head.weight)
    assert (tmp_path / PROBE_FILE).exists()
    assert (tmp_path / "log.jsonl").read_text().count('"probe_epoch"') == 2


@pytest.mark.parametrize("epochs", ["-1", "21"])
def test_a_probe_of_no_sense_is_refused_before_any_data_is_read(epochs):
    with pytest.raises(SystemExit) as stop:
        main(["pretrained", "--linear-probe", epochs, "--out", "/nonexistent/never-made"])
    assert f"--linear-probe {epochs}: 0 to 20 epochs" in str(stop.value)
