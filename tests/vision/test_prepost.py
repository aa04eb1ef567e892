"""Pre-processing (letterbox, crops) and post-processing (peaks, NMS, finder maps, labels)."""

import math

import cv2
import numpy as np
import pytest

from vision.postprocess import decode_finder, iou, local_peaks, nms, softmax, top_labels
from vision.preprocess import (
    Letterbox,
    crop_affine,
    crop_tiles,
    letterbox,
    to_nchw,
    turned_squares,
)


def test_letterbox_scales_the_long_side_and_centres():
    frame = np.zeros((480, 640, 3), np.uint8)
    out, lb = letterbox(frame, 320)
    assert out.shape == (320, 320, 3)
    assert lb == Letterbox(scale=0.5, pad_x=0, pad_y=40)
    assert out[0, 0].tolist() == [114, 114, 114]  # padding
    assert out[40, 0].tolist() == [0, 0, 0]  # frame starts after the pad


def test_letterbox_centres_on_a_canvas_of_any_size_it_fits():
    """At half its size a 640 x 480 frame (320 x 240) on a 320 x 256 canvas: 8 px above and
    below; a canvas smaller than the scaled frame is refused, naming both sizes."""
    frame = np.zeros((480, 640, 3), np.uint8)
    out, lb = letterbox(frame, 320, canvas=(256, 320))
    assert out.shape == (256, 320, 3)
    assert lb == Letterbox(scale=0.5, pad_x=0, pad_y=8)
    assert out[7, 0].tolist() == [114, 114, 114] and out[8, 0].tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match="320x240 frame does not fit a 320x224 canvas"):
        letterbox(frame, 320, canvas=(224, 320))


def test_letterbox_maps_boxes_back_to_frame_pixels():
    lb = Letterbox(scale=0.5, pad_x=0, pad_y=40)
    back = lb.to_image(np.array([[10.0, 50.0, 30.0, 90.0]]))
    assert back.tolist() == [[20.0, 20.0, 60.0, 100.0]]


def test_letterbox_rejects_grey_frames():
    with pytest.raises(ValueError, match="HxWx3"):
        letterbox(np.zeros((10, 10), np.uint8))


def test_crop_affine_maps_the_padded_box_onto_the_square():
    m = crop_affine((100, 50, 140, 110), size=48, pad=0.1)
    corners = np.array([[96, 44, 1], [144, 116, 1]], np.float64)  # box padded by 10 % each side
    assert (corners @ m.T.astype(np.float64)).round(4).tolist() == [[0, 0], [48, 48]]


def test_crop_tiles_cuts_the_box_region():
    frame = np.zeros((100, 100, 3), np.uint8)
    frame[20:60, 30:50] = (0, 0, 255)  # a red tile 20 wide, 40 tall
    crops = crop_tiles(frame, np.array([[30, 20, 50, 60]], np.float32), size=16, pad=0.0)
    assert crops.shape == (1, 16, 16, 3)
    assert crops[0, 2:14, 2:14].reshape(-1, 3).tolist() == [[0, 0, 255]] * 144


def test_a_crop_turned_by_a_rows_angle_lays_the_row_level():
    # a bar 6 px thick running at 40 degrees (image y down) through the box's centre
    frame = np.zeros((200, 200, 3), np.uint8)
    a = np.deg2rad(40)
    dx, dy = 60 * np.cos(a), 60 * np.sin(a)
    ends = (round(100 - dx), round(100 - dy)), (round(100 + dx), round(100 + dy))
    cv2.line(frame, *ends, (255, 255, 255), 6)
    crop = crop_tiles(frame, np.array([[70, 70, 130, 130]], np.float32), 48, 0.0, 40.0)[0, :, :, 0]
    assert crop[24, 4:44].min() > 200  # the bar runs along the crop's middle row
    assert crop[4, 24] == crop[44, 24] == 0


def test_turned_squares_keep_the_centre_and_take_a_share_of_the_boxes_area():
    got = turned_squares(np.array([[10, 20, 40, 60], [0, 0, 50, 50]], np.float32), 0.9)
    side = 0.9 * np.sqrt(30 * 40)
    want = [25 - side / 2, 40 - side / 2, 25 + side / 2, 40 + side / 2, 2.5, 2.5, 47.5, 47.5]
    assert got.ravel().tolist() == pytest.approx(want, abs=1e-4)


def test_to_nchw_keeps_values_and_orders_channels_first():
    x = np.arange(2 * 3 * 2 * 3, dtype=np.uint8).reshape(2, 3, 2, 3)
    y = to_nchw(x)
    assert y.shape == (2, 3, 3, 2) and y.dtype == np.float32
    assert y[1, 2, 0, 1] == x[1, 0, 1, 2]


def test_nms_keeps_the_stronger_of_overlapping_boxes():
    boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 0, 30, 10]], np.float64)
    assert nms(boxes, np.array([0.5, 0.9, 0.7]), 0.45) == [1, 2]
    assert iou(boxes[:1], boxes[1:2])[0, 0] == pytest.approx(90 / 110)


def test_local_peaks_ignores_shoulders():
    heat = np.zeros((5, 5))
    heat[2, 2], heat[2, 3], heat[0, 4] = 0.8, 0.6, 0.35
    assert local_peaks(heat, 0.3).tolist() == [[0, 4], [2, 2]]


def test_decode_finder_reads_box_size_offset_and_angle():
    maps = np.zeros((7, 80, 80), np.float32)
    maps[0] = -10
    maps[0, 20, 30] = 5.0  # one confident centre at cell (row 20, col 30)
    maps[1, 20, 30] = math.log(32 / 16)  # 32 px wide
    maps[2, 20, 30] = math.log(48 / 16)  # 48 px tall
    maps[3, 20, 30], maps[4, 20, 30] = 0.5, 0.25
    maps[5, 20, 30], maps[6, 20, 30] = -1.0, 0.0  # long axis vertical: cos 2a = -1
    (c,) = decode_finder(maps, Letterbox(0.5, 0, 40), (640, 480), 0.3, 0.45)
    # centre (30.5 * 4, 20.25 * 4) = (122, 81) in the 320 input -> frame x2 after the pad
    assert c.box == pytest.approx((212.0, 34.0, 276.0, 130.0))
    assert c.angle == pytest.approx(math.pi / 2)
    assert c.score == pytest.approx(1 / (1 + math.exp(-5)))


def test_softmax_and_top_labels():
    p = softmax(np.array([[0.0, math.log(3.0), 0.0]]))
    assert p.round(4).tolist() == [[0.2, 0.6, 0.2]]
    assert top_labels(p, ("a", "b", "c"), 2) == [
        [("b", pytest.approx(0.6)), ("a", pytest.approx(0.2))]
    ]
