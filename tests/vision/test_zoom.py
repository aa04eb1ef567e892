"""The magnified second finder pass: which part of the frame, and when (fixed boxes)."""

from vision.config import VisionConfig
from vision.find import zoom_region
from vision.postprocess import Candidate

CFG = VisionConfig()  # zoom below 24 finder px, margin 1 tile length, gain >= 1.3, <= 32 px


def row(x0, y0, n, w, h):
    return [Candidate((x0 + i * w, y0, x0 + (i + 1) * w, y0 + h), 0.9, 0.0, 1.0) for i in range(n)]


def test_a_far_hand_is_cropped_around_its_tiles_with_a_tile_length_margin():
    # 14 tiles 20x27 px on a 640x480 frame: 13 px short side at 416 (scale 0.65), so zoom;
    # the tiles span x 200..480, y 240..267, plus 27 px: a 334 px square centred on them
    # (magnified 416 / 334 = 1.9x, 24.9 px a tile, under the 32 px cap)
    region = zoom_region(row(200, 240, 14, 20, 27), (480, 640), 416, CFG)
    assert region == (173, 86, 507, 420)


def test_the_crop_grows_so_tiles_are_not_magnified_past_the_target():
    # 3 tiles 16x22: 10.4 px at 416, their 92 px box would make them 72 px; the crop is widened
    # to 416 * 16 / 32 = 208 px so they come out 32 px
    region = zoom_region(row(300, 200, 3, 16, 22), (480, 640), 416, CFG)
    assert region == (220, 107, 428, 315)


def test_the_crop_stays_inside_the_frame():
    region = zoom_region(row(0, 0, 4, 20, 27), (480, 640), 416, CFG)
    assert region is not None and region[:2] == (0, 0)


def test_no_zoom_for_tiles_already_large_or_spread_over_the_frame():
    assert zoom_region(row(50, 200, 14, 40, 54), (480, 640), 416, CFG) is None  # 26 px
    spread = row(10, 10, 2, 20, 27) + row(580, 420, 2, 20, 27)  # the crop would be the frame
    assert zoom_region(spread, (480, 640), 416, CFG) is None
    assert zoom_region([], (480, 640), 416, CFG) is None
    off = VisionConfig(zoom_below=0.0)
    assert zoom_region(row(200, 240, 14, 20, 27), (480, 640), 416, off) is None
