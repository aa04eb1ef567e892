"""The finder soup: the mean of finders fine-tuned from one start, exported as one finder.

Training needs the `train` extra (torch, onnx); without it these tests skip.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra (torch)")
pytest.importorskip("onnx", reason="exporting needs the `train` extra (onnx)")

from vision.training.finder_export import export_finder  # noqa: E402
from vision.training.nets import TileFinder  # noqa: E402
from vision.training.soup import mean_weights, mixed_with_start  # noqa: E402

SIZE = 64


def _member(folder: Path, model: TileFinder, source: str, width: int = 8) -> Path:
    """A finder run as `finder --out RUN --export RUN/export` leaves it."""
    (folder / "export").mkdir(parents=True)
    torch.save({"model": model.state_dict(), "width": width, "size": SIZE}, folder / "final.pt")
    export_finder(model.eval(), folder / "export" / "tile_finder.onnx", {}, f"recipe {source}",
                  f"data {source}", size=SIZE, sources=["roboflow-chinese-mahjong-v4", source])
    return folder


def _soup(*args: object) -> subprocess.CompletedProcess[str]:
    """`python -m vision.training soup ARGS`, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "vision.training", "soup", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def _by_hand(folder: Path, state: dict[str, torch.Tensor]) -> Path:
    """A finder of ``state`` (weights written by hand), exported the usual way."""
    model = TileFinder(width=8)
    model.load_state_dict(state)
    folder.mkdir()
    export_finder(model.eval(), folder / "tile_finder.onnx", {}, "", "", size=SIZE)
    return folder / "tile_finder.onnx"


def _maps(path: Path, x: np.ndarray) -> np.ndarray:
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {"image": x})[0]


def test_the_mean_of_two_state_dicts_averages_weights_and_keeps_counters() -> None:
    a = {"w": torch.tensor([1.0, 2.0]), "n": torch.tensor(7)}
    b = {"w": torch.tensor([3.0, 6.0]), "n": torch.tensor(9)}
    mean = mean_weights([a, b])
    assert mean["w"].tolist() == [2.0, 4.0] and mean["w"].dtype == torch.float32
    assert int(mean["n"]) == 7  # a counter is not averaged
    with pytest.raises(SystemExit, match="member 2 is not a finder of the first one's shape"):
        mean_weights([a, {"w": torch.zeros(3), "n": torch.tensor(1)}])


def test_the_mean_moved_toward_the_start_by_a_share_keeps_counters() -> None:
    mean = {"w": torch.tensor([2.0, 4.0]), "n": torch.tensor(7)}
    start = {"w": torch.tensor([0.0, 8.0]), "n": torch.tensor(1)}
    mixed = mixed_with_start(mean, start, 0.25)
    assert mixed["w"].tolist() == [1.5, 5.0] and int(mixed["n"]) == 7
    with pytest.raises(SystemExit, match="--start is not a finder of the members' shape"):
        mixed_with_start(mean, {"w": torch.zeros(3), "n": torch.tensor(1)}, 0.5)


def test_a_soup_moved_halfway_to_its_start_reads_as_three_quarters_of_it(tmp_path: Path) -> None:
    """Members a and b, a's own ONNX the start, share 0.5: (a + b) / 4 + a / 2 = 3a/4 + b/4
    (the start read back with its batch norms folded, equal to a's but for their epsilon)."""
    torch.manual_seed(0)
    first, second = TileFinder(width=8), TileFinder(width=8)
    one = _member(tmp_path / "a", first, "leo-miura-riichi-webcam")
    two = _member(tmp_path / "b", second, "leo-miura-riichi-webcam")
    run = _soup(one, two, "--start", one / "export" / "tile_finder.onnx", "--start-share", "0.5",
                "--export", tmp_path / "soup")
    assert run.returncode == 0, run.stderr
    hand = _by_hand(tmp_path / "hand", {
        k: 0.75 * v + 0.25 * second.state_dict()[k] if v.is_floating_point() else v
        for k, v in first.state_dict().items()
    })
    x = np.random.default_rng(2).uniform(0, 255, (2, 3, SIZE, SIZE)).astype(np.float32)
    soup = _maps(tmp_path / "soup" / "tile_finder.onnx", x)
    assert np.allclose(soup, _maps(hand, x), atol=1e-4)
    card = json.loads((tmp_path / "soup" / "tile_finder.json").read_text())
    assert "moved toward their start" in card["recipe"] and "by 0.5 (WiSE-FT)" in card["recipe"]


def test_a_soup_of_two_finders_reads_as_the_finder_with_their_mean_weights(tmp_path: Path) -> None:
    torch.manual_seed(0)
    first, second = TileFinder(width=8), TileFinder(width=8)
    one = _member(tmp_path / "a", first, "leo-miura-riichi-webcam")
    two = _member(tmp_path / "b", second, "leo-miura-riichi-webcam")
    run = _soup(one, two, "--export", tmp_path / "soup")
    assert run.returncode == 0, run.stderr
    # the mean written by hand, tensor by tensor
    hand = _by_hand(tmp_path / "hand", {
        k: (v + second.state_dict()[k]) / 2 if v.is_floating_point() else v
        for k, v in first.state_dict().items()
    })
    x = np.random.default_rng(1).uniform(0, 255, (2, 3, SIZE, SIZE)).astype(np.float32)
    soup = _maps(tmp_path / "soup" / "tile_finder.onnx", x)
    assert np.allclose(soup, _maps(hand, x), atol=1e-5)
    assert not np.allclose(soup, _maps(one / "export" / "tile_finder.onnx", x), atol=1e-3)
    card = json.loads((tmp_path / "soup" / "tile_finder.json").read_text())
    assert card["sources"] == ["leo-miura-riichi-webcam", "roboflow-chinese-mahjong-v4"]
    assert card["recipe"].startswith("the mean of the weights of 2 finders")
    assert "leomiurarobot" in card["licences"]["leo-miura-riichi-webcam"]  # CC BY: attributed


def test_a_soup_refuses_one_member_and_members_of_other_widths(tmp_path: Path) -> None:
    one = _member(tmp_path / "a", TileFinder(width=8), "leo-miura-riichi-webcam")
    wide = _member(tmp_path / "b", TileFinder(width=16), "leo-miura-riichi-webcam", width=16)
    for members, said in (([one], "at least two"), ([one, wide], "differ in backbone, width"),
                          ([one, tmp_path / "none"], "lacks final.pt")):
        run = _soup(*members, "--export", tmp_path / "out")
        assert run.returncode == 1 and said in run.stderr, (members, run.stderr)
        assert not (tmp_path / "out" / "tile_finder.onnx").exists()
    start = one / "export" / "tile_finder.onnx"
    for extra, said in ((["--start-share", "0.5"], "above 0 with --start"),
                        (["--start", str(start), "--start-share", "1"], "must lie in 0..1"),
                        (["--start", str(tmp_path / "no.onnx"), "--start-share", "0.5"],
                         "no finder at"),
                        (["--start", str(one / "final.pt"), "--start-share", "0.5"],
                         "final.pt: not an ONNX model")):
        run = _soup(one, one, *extra, "--export", tmp_path / "out")
        assert run.returncode == 1 and said in run.stderr, (extra, run.stderr)
        assert not (tmp_path / "out" / "tile_finder.onnx").exists()
