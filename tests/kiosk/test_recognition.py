"""The recogniser adapter: vision's `Reading` (tiles + grouping by index) becomes the win page's
groups, and the rules core answers the decoder's winning-shape question."""

from __future__ import annotations

from kiosk.photos.recognition import LOW_CONFIDENCE, is_complete, reading_to_hand
from vision.reading import DetectedTile, Grouping, MeldKind, MeldReading, Reading


def tile(label: str, x: float, confidence: float = 0.99, **kw: bool) -> DetectedTile:
    return DetectedTile(label, (x, 10.0, x + 20, 40.0), confidence, (("1m", 0.005),), **kw)


def test_reading_maps_to_groups_with_low_confidence_flagged() -> None:
    labels = ["2m", "3m", "4m", "4p", "5p", "6p", "2s", "2s", "7z", "7z"]
    tiles = [tile(label, 20 * i) for i, label in enumerate(labels)]
    tiles.append(tile("8s", 300, confidence=0.41))  # the winning tile, barely read
    tiles += [tile("5z", 340), tile("5z", 360, sideways=True), tile("5z", 380)]
    tiles.append(tile("1s", 20, changed_by_decoder=True))  # dora indicator, changed by decoding
    reading = Reading(tuple(tiles), Grouping(
        concealed=tuple(range(10)), winning=10,
        melds=(MeldReading(MeldKind.PON, (11, 12, 13), called=12),), dora=(14,)))
    hand = reading_to_hand(reading)
    assert [t["label"] for t in hand["concealed"]] == labels
    assert hand["win"]["label"] == "8s" and hand["win"]["low"] is True
    assert 0.41 < LOW_CONFIDENCE and hand["win"]["box"] == [300.0, 10.0, 320.0, 40.0]
    assert (hand["melds"][0]["kind"], hand["melds"][0]["called"]) == ("pon", 1)
    assert hand["melds"][0]["tiles"][1]["sideways"] is True
    assert [t["label"] for t in hand["melds"][0]["tiles"]] == ["5z", "5z", "5z"]
    assert hand["dora"][0]["label"] == "1s" and hand["dora"][0]["low"] is True
    assert hand["concealed"][0]["low"] is False
    assert hand["concealed"][0]["alternatives"] == [["1m", 0.005]]


def test_winning_shape_check_for_the_decoder() -> None:
    concealed = ["2m", "3m", "4m", "4p", "5p", "6p", "2s", "2s", "3s", "4s", "5s", "6s", "7s"]
    assert is_complete(concealed, "8s", []) is True
    assert is_complete(concealed, "9s", []) is False
    # A closed kan photographed with its two outer tiles face down.
    assert is_complete(["2m", "3m", "4m", "4p", "5p", "6p", "2s", "2s", "7s", "8s"], "9s",
                       [("ankan", ["back", "1z", "1z", "back"])]) is True
    assert is_complete(["2m"], None, []) is False
    assert is_complete(["2x"], "8s", []) is False  # not a tile: not a win, no crash
