"""Random convolutions over training crops (`vision.training.randconv`, `pretrained --randconv`):
a crop's texture and colours change, its shapes and mean colour stay; fives keep their colour;
crops of no tile are filtered as tiles are, so that an odd texture never tells a tile."""

import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra (torch)")

from scorer.tiles import MODEL_CLASSES  # noqa: E402
from vision.training.pretrained_data import NO_TILE  # noqa: E402
from vision.training.randconv import rand_conv  # noqa: E402

LABELS = ["1m", "5m", "0p", "5s", "9p", "7z", "back"]


def _batch(seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    x = 100 + 20 * torch.rand(len(LABELS) + 1, 3, 64, 64, generator=gen)
    y = torch.tensor([MODEL_CLASSES.index(c) for c in LABELS] + [NO_TILE])
    return x, y


@pytest.mark.parametrize("seed", range(6))
def test_every_crop_but_fives_is_filtered_at_share_one(seed):
    x, y = _batch(seed)
    out = rand_conv(x, y, 1.0, torch.Generator().manual_seed(seed))
    changed = [bool((out[i] - x[i]).abs().max() > 1e-3) for i in range(len(y))]
    assert changed == [True, False, False, False, True, True, True, True]


@pytest.mark.parametrize("seed", range(6))
def test_a_filtered_crop_keeps_each_channels_mean(seed):
    x, y = _batch(seed)
    out = rand_conv(x, y, 1.0, torch.Generator().manual_seed(seed))
    # the filter's output is standardised to the crop's mean and spread before the mix
    assert torch.allclose(out.mean((2, 3)), x.mean((2, 3)), atol=0.01)
    assert not torch.allclose(out[0], x[0], atol=1.0)


def test_share_zero_leaves_the_batch_as_it_is():
    x, y = _batch(0)
    assert torch.equal(rand_conv(x, y, 0.0, torch.Generator().manual_seed(0)), x)


def test_the_share_is_bounded():
    from vision.training.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["pretrained", "--randconv", "1.5", "--out", "/nonexistent/never-made"])
    assert "--randconv is a share, 0..1" in str(stop.value)
