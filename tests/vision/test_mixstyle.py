"""MixStyle in training (`vision.training.mixstyle`, `pretrained --mixstyle`): a crop's early
feature maps take channel means and spreads between its own and a batch partner's, at the
paper's Beta weights; fives keep theirs; only the first three stages' blocks mix, and only
inside the training step."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra (torch)")

from scorer.tiles import MODEL_CLASSES  # noqa: E402
from vision.training.mixstyle import MIX_AFTER, mix_styles, mixing  # noqa: E402
from vision.training.pretrained_data import NO_TILE  # noqa: E402

LABELS = ["1m", "5m", "0p", "9p", "7z", "back"]


def _maps(seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Feature maps whose channels have very different means and spreads row by row."""
    gen = torch.Generator().manual_seed(seed)
    n = len(LABELS) + 1
    scale = 0.5 + 3 * torch.rand(n, 4, 1, 1, generator=gen)
    shift = 10 * torch.randn(n, 4, 1, 1, generator=gen)
    h = torch.randn(n, 4, 8, 8, generator=gen) * scale + shift
    y = torch.tensor([MODEL_CLASSES.index(c) for c in LABELS] + [NO_TILE])
    return h, y


@pytest.mark.parametrize("seed", range(4))
def test_each_row_takes_the_mean_and_spread_mixed_with_its_partners(seed):
    h, y = _maps(seed)
    keep = torch.isin(y, torch.tensor([MODEL_CLASSES.index(c) for c in ("5m", "0p")]))
    out = mix_styles(h, keep, np.random.default_rng(seed))
    # the same draws, in the same order, as the function makes them
    rng = np.random.default_rng(seed)
    w = rng.beta(0.1, 0.1, len(y))
    other = rng.permutation(len(y))
    mu, sd = h.mean((2, 3)).numpy(), h.std((2, 3), unbiased=True).numpy()
    for i in range(len(y)):
        if keep[i]:
            assert torch.equal(out[i], h[i])
            continue
        j = other[i]
        np.testing.assert_allclose(out[i].mean((1, 2)).numpy(), w[i] * mu[i] + (1 - w[i]) * mu[j],
                                   rtol=1e-4, atol=1e-3)
        np.testing.assert_allclose(out[i].std((1, 2), unbiased=True).numpy(),
                                   w[i] * sd[i] + (1 - w[i]) * sd[j], rtol=1e-3, atol=1e-3)


def test_a_batch_of_one_has_no_partner_and_is_unchanged():
    h, _ = _maps(0)
    assert torch.equal(mix_styles(h[:1], torch.tensor([False]), np.random.default_rng(0)), h[:1])


def test_only_the_first_three_stages_mix_and_only_inside_the_step():
    """Each block's input is the block before's output as it computed it, but after blocks 0, 2
    and 4 (inside ``mixing``, at share 1); after the step no block mixes any more."""
    from vision.training.pretrained import PretrainedClassifier

    model = PretrainedClassifier(upto=10, pretrained=False).train()
    outs: dict[int, torch.Tensor] = {}
    ins: dict[int, torch.Tensor] = {}
    mine = [b.register_forward_hook(lambda m, i, o, k=k: outs.__setitem__(k, o))
            for k, b in enumerate(model.blocks)]
    mine += [b.register_forward_pre_hook(lambda m, i, k=k: ins.__setitem__(k, i[0]))
             for k, b in enumerate(model.blocks)]
    x = torch.rand(6, 3, 32, 32) * 255
    y = torch.tensor([MODEL_CLASSES.index("1m")] * 6)
    with torch.no_grad(), mixing(model.blocks, y, 1.0, np.random.default_rng(0)):
        model.pooled(x)
    mixed = [k for k in range(len(model.blocks) - 1) if not torch.equal(outs[k], ins[k + 1])]
    assert mixed == list(MIX_AFTER) == [0, 2, 4]
    with torch.no_grad():
        model.pooled(x)
    assert all(torch.equal(outs[k], ins[k + 1]) for k in range(len(model.blocks) - 1))
    for hook in mine:
        hook.remove()
    assert not any(b._forward_hooks for b in model.blocks)


def test_the_share_is_bounded():
    from vision.training.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["pretrained", "--mixstyle", "-0.1", "--out", "/nonexistent/never-made"])
    assert "--mixstyle is a share, 0..1" in str(stop.value)
