"""A box grows up through the face-coloured rows above it to its tile's top
(``vision.face_tops``): the rows counted, the tile above respected, the reading's boxes grown."""

from pathlib import Path

import cv2
import numpy as np

from tests.shared import ROBOFLOW, need
from tests.vision.cross_set import read_right
from vision.config import VisionConfig
from vision.face_tops import room_above, rows_of_face, with_face_tops
from vision.manifest import read_manifest
from vision.postprocess import iou
from vision.reading import DetectedTile, Reading
from vision.recogniser import Recogniser

ROOT = Path(__file__).resolve().parents[2]
TEAL, IVORY, LIT, YELLOW = (160, 150, 70), (232, 242, 246), (246, 252, 253), (60, 200, 230)
BLUE, INK = (170, 110, 30), (30, 30, 30)
PRINT_TOP, FACE_TOP, TILE_TOP = 40, 30, 16  # rows: the print, the face, the lit top's edge


def standing_row(bodies: list[tuple[int, int, int]], table=TEAL) -> tuple[np.ndarray, np.ndarray]:
    """Tiles standing in a row on ``table``, 40 px wide, one a slot of the given body colour
    (ivory ones printed, with a plain band over the print, a lit top above the face and the
    back's yellow layer above that); and boxes holding each print (rows 40-98)."""
    frame = np.full((110, 60 * len(bodies), 3), table, np.uint8)
    boxes = []
    for i, body in enumerate(bodies):
        x = 60 * i + 10
        frame[TILE_TOP - 6 : TILE_TOP, x : x + 40] = YELLOW
        frame[TILE_TOP:FACE_TOP, x : x + 40] = LIT if body == IVORY else body
        frame[FACE_TOP:100, x : x + 40] = body
        if body == IVORY:
            frame[PRINT_TOP:98:6, x + 8 : x + 32] = INK
        boxes.append((x, PRINT_TOP, x + 40, 98))
    return frame, np.array(boxes, np.float64)


def face_lab() -> np.ndarray:
    return cv2.cvtColor(np.uint8([[IVORY]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)


def test_a_box_grows_through_the_plain_band_and_the_lit_top_to_the_back_layer():
    frame, boxes = standing_row([IVORY])
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
    assert rows_of_face(lab, boxes[0], face_lab(), VisionConfig()) == PRINT_TOP - TILE_TOP
    # within reach only: 0.3 of the box's 58 rows end before the face does
    assert rows_of_face(lab, boxes[0], face_lab(), VisionConfig(face_top_reach=0.3)) == 0


def test_a_pale_table_the_colour_of_the_faces_is_no_tile_top():
    frame, boxes = standing_row([IVORY], table=IVORY)
    frame[: TILE_TOP - 6] = IVORY  # the table over the tile's top the face colour too
    frame[TILE_TOP - 6 : TILE_TOP] = IVORY
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
    assert rows_of_face(lab, boxes[0], face_lab(), VisionConfig()) == 0


def test_room_above_is_the_gap_to_the_box_of_the_tile_above():
    boxes = np.array(
        [
            [0, 0, 40, 50],  # nothing above it
            [0, 54, 40, 104],  # the first above it, 4 px off
            [100, 0, 140, 50],  # beside the others
            [200, 30, 240, 90],  # the next one above it reaches into it already
            [205, 0, 245, 40],
            [36, 120, 76, 170],  # under the second by 4 px of its 40 only: not above it
        ],
        np.float64,
    )
    assert room_above(boxes).tolist() == [np.inf, 4.0, np.inf, 0.0, np.inf, np.inf]


def reading_of(boxes: np.ndarray, labels: list[str]) -> Reading:
    tiles = tuple(
        DetectedTile(label, tuple(box), 0.9, face_down=label == "back")
        for box, label in zip(boxes, labels, strict=True)
    )
    return Reading(tiles, image_size=(600, 110))


def test_each_face_up_tile_grows_to_its_top_a_face_down_one_stays():
    frame, boxes = standing_row([IVORY, IVORY, IVORY, BLUE])
    reading = reading_of(boxes, ["1m", "2p", "3s", "back"])
    got = with_face_tops(frame, reading, VisionConfig())
    assert [t.box[1] for t in got.tiles] == [TILE_TOP] * 3 + [PRINT_TOP]
    assert [t.box[::2] for t in got.tiles] == [t.box[::2] for t in reading.tiles]
    assert [t.label for t in got.tiles] == ["1m", "2p", "3s", "back"]
    # off, or too few printed tiles to know the set's face colour: as read
    assert with_face_tops(frame, reading, VisionConfig(face_top_reach=0)) is reading
    few = reading_of(boxes[2:], ["3s", "back"])
    assert with_face_tops(frame, few, VisionConfig()) is few


def test_a_tile_grows_no_further_than_the_tile_above_it():
    frame, boxes = standing_row([IVORY] * 3)
    above = np.array([[10, 0, 50, 30]], np.float64)  # a box ending 10 rows short of the first
    reading = reading_of(np.vstack([boxes, above]), ["1m", "2p", "3s", "4m"])
    got = with_face_tops(frame, reading, VisionConfig())
    assert [t.box[1] for t in got.tiles[:3]] == [30, TILE_TOP, TILE_TOP]


def test_a_real_sets_standing_tiles_are_boxed_to_their_tops():
    """The webcam set labels a standing tile with its top; the finder, though it learned the
    set (session 29), still boxes many a print: grown to the top, more of its 582 labelled
    tiles are boxed at IoU 0.5 (stage 10, which never saw it: 525 -> 553)."""
    assert read_right(VisionConfig(face_top_reach=0))[0] == 531
    assert read_right()[0] == 546  # without standing tops (session 30): 528 -> 543


def test_photos_of_tiles_lying_face_up_read_the_same_tiles_with_their_tops_grown():
    """On `valid` (phone photos from above) the step grows many boxes a little and changes no
    label, no grouping and no tile matched at IoU 0.5. (1,259 boxes; 1,202 before session 31: 17
    of these photos show tiles larger than usual, which the close-up finder now boxes.)"""
    photos = need(*ROBOFLOW)
    off = Recogniser.load(config=VisionConfig(face_top_reach=0))
    on = Recogniser.load()
    grown = 0
    for image in read_manifest(photos, ["valid"]):
        frame = cv2.imread(str(image.path))
        before, after = off.read(frame), on.read(frame)
        assert [t.label for t in after.tiles] == [t.label for t in before.tiles], image.image
        assert after.grouping == before.grouping and after.problems == before.problems
        truth = np.array([t.box for t in image.tiles if t.label != "other"], np.float64)
        matched = [
            (iou(truth, np.array([t.box for t in r.tiles]).reshape(-1, 4)) >= 0.5).sum(axis=1)
            for r in (before, after)
        ]
        assert (matched[0] > 0).tolist() == (matched[1] > 0).tolist(), image.image
        grown += sum(a.box != b.box for a, b in zip(after.tiles, before.tiles, strict=True))
    assert grown == 1259
