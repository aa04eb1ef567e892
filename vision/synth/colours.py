"""The colours of tile bodies seen on real sets, which the CC0 art's scenes and the procedural
faces' styles draw from alike."""

#: (B, G, R) colours of tile fronts and backs seen on real sets.
FRONT_COLOURS = (
    (236, 244, 248),
    (222, 236, 242),
    (246, 248, 248),
    (210, 228, 236),
    (230, 240, 240),
)
BACK_COLOURS = (
    (170, 110, 30),
    (60, 140, 40),
    (40, 190, 230),
    (30, 120, 235),
    (170, 140, 240),
    (30, 30, 30),
    (150, 60, 20),
    (90, 160, 60),
)
