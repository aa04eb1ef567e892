"""The kiosk: the Flask application beside the table, and the wiring of scorer, vision and device.

`python -m kiosk` (kiosk/__main__.py) is the one composition root: configuration
(`kiosk.config`), services (`kiosk.services`: event store, game, camera, recogniser, captures,
serial display, live updates, security), `kiosk.web.app.create_app(config, services)` with the
page blueprint (`kiosk.web.views`) and the JSON API (`kiosk.web.api`, documented in
docs/api.md), served by `kiosk.serve.server` (uvicorn in front, live updates on its event loop).
The packages, one layer each: `web`, `serve`, `table` (the game), `photos` (camera and
recogniser), `store`, `words`, `parlor`, and `bench` apart (docs/kiosk.md, "Where the code is").
Importing this package opens nothing.
"""

import os as _os

from kiosk.photos.image_header import MAX_PIXELS as _MAX_PIXELS

# OpenCV reads its decoder's pixel bound once, when cv2 is loaded: set it here, before any kiosk
# module imports cv2, so no upload decodes to more than 50 megapixels whatever its header says
# (kiosk.photos.image_header.decoder_bounded checks that it took).
_os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] = str(_MAX_PIXELS)
