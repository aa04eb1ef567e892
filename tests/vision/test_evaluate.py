"""Evaluation counting: IoU >= 0.5 with a matching label, ignore regions, exact images."""

from vision.evaluate import Totals, grouping_matches, match_image
from vision.reading import DetectedTile, Grouping, MeldKind, MeldReading, Reading

A, B, C = (0, 0, 10, 14), (12, 0, 22, 14), (24, 0, 34, 14)


def test_right_label_and_place_counts():
    s = match_image([("1m", A), ("2m", B)], [("1m", A, 0.9), ("2m", B, 0.9)])
    assert (s.tp, s.fp, s.fn, s.exact) == (2, 0, 0, True)


def test_a_loose_box_below_half_overlap_is_a_miss_and_a_false_alarm():
    s = match_image([("1m", A)], [("1m", (5, 0, 15, 14), 0.9)])  # IoU 5*14 / 15*14 = 1/3
    assert (s.tp, s.fp, s.fn) == (0, 1, 1)


def test_duplicates_count_once():
    s = match_image([("1m", A)], [("1m", A, 0.9), ("1m", A, 0.8)])
    assert (s.tp, s.fp, s.fn) == (1, 1, 0)


def test_detections_on_other_tiles_are_ignored():
    s = match_image([("1m", A)], [("1m", A, 0.9), ("7z", B, 0.8)], ignore=[B])
    assert (s.tp, s.fp, s.fn, s.exact) == (1, 0, 0, True)


def test_totals_give_f1_and_exact_share():
    t = Totals()
    t.add(match_image([("1m", A), ("2m", B)], [("1m", A, 1.0), ("2m", B, 1.0)]), 10.0)
    t.add(match_image([("1m", A), ("2m", B)], [("1m", A, 1.0), ("3m", B, 1.0)]), 30.0)
    s = t.summary()
    assert (s["precision"], s["recall"], s["f1"], s["exact_images"]) == (0.75, 0.75, 0.75, 0.5)
    assert s["median_latency_ms"] == 20.0
    assert s["confusions"] == [["2m", "3m", 1]]
    assert (s["right"], s["tiles"], s["read"]) == (3, 4, 4)  # under recall and precision


def test_grouping_must_match_exactly():
    tiles = tuple(DetectedTile(lab, A, 0.9) for lab in ["2m", "1m", "3m", "5z", "5z", "5z", "4p"])
    reading = Reading(
        tiles,
        Grouping(
            concealed=(0, 1), winning=2, melds=(MeldReading(MeldKind.PON, (3, 4, 5), 5),), dora=(6,)
        ),
    )
    layout = {
        "concealed": ["1m", "2m"],
        "winning": "3m",
        "melds": [{"kind": "pon", "tiles": ["5z", "5z", "5z"]}],
        "dora": ["4p"],
    }
    assert grouping_matches(layout, reading)
    assert not grouping_matches(layout | {"winning": "2m"}, reading)
    assert not grouping_matches(layout | {"melds": [{"kind": "chi", "tiles": ["5z"] * 3}]}, reading)


def test_a_closed_kan_is_judged_by_its_face_up_tiles():
    # read as back 6s 6s back: only the two face-up tiles can be checked
    labels = ["1m", "2m", "back", "6s", "6s", "back"]
    tiles = tuple(DetectedTile(lab, A, 0.9, face_down=lab == "back") for lab in labels)
    reading = Reading(
        tiles,
        Grouping(concealed=(0,), winning=1, melds=(MeldReading(MeldKind.ANKAN, (2, 3, 4, 5)),)),
    )
    truth = {"concealed": ["1m"], "winning": "2m", "dora": []}
    ankan = {"kind": "ankan", "tiles": ["6s", "6s", "6s", "6s"]}
    assert grouping_matches(truth | {"melds": [ankan]}, reading)
    # the hidden tiles may differ (a red five face down), the face-up ones may not
    hidden_red = {"kind": "ankan", "tiles": ["0s", "5s", "5s", "5s"]}
    assert not grouping_matches(truth | {"melds": [hidden_red]}, reading)
    assert grouping_matches(
        truth | {"melds": [{"kind": "ankan", "tiles": ["0s", "6s", "6s", "6s"]}]}, reading
    )
    assert not grouping_matches(truth | {"melds": [ankan | {"kind": "minkan"}]}, reading)


def test_side_by_side_reads_each_image_with_both_readers_first_in_turn(tmp_path):
    # two photos, each with a 1m at A and a red 0m at B; ours reads both right, the peer (34
    # kinds: the red five counts as 5m) misses the 0m on the second photo
    import cv2
    import numpy as np

    from vision.evaluate import evaluate_side_by_side
    from vision.manifest import LabelledImage, LabelledTile

    entries = []
    for k in range(2):
        path = tmp_path / f"p{k}.png"
        cv2.imwrite(str(path), np.full((20, 40, 3), 10 * k, np.uint8))
        tiles = (LabelledTile("1m", A), LabelledTile("0m", B))
        entries.append(LabelledImage(path.name, path, 40, 20, "valid", tiles))
    calls = []

    def read(img):
        calls.append(("ours", int(img[0, 0, 0])))
        return Reading((DetectedTile("1m", A, 0.9), DetectedTile("0m", B, 0.9)))

    def detect(img):
        calls.append(("peer", int(img[0, 0, 0])))
        return [("1m", A, 0.9)] + ([("5m", B, 0.8)] if img[0, 0, 0] == 0 else [])

    ours, peer = evaluate_side_by_side(entries, read, detect)
    assert calls == [("ours", 0), ("peer", 0), ("peer", 10), ("ours", 10)]
    assert (ours.tp, ours.fp, ours.fn, ours.images) == (4, 0, 0, 2)
    assert (peer.tp, peer.fp, peer.fn, peer.images) == (3, 0, 1, 2)
    assert ours.summary()["red_five_accuracy"] == 1.0
