"""Pixels to a `Reading`: find the tiles, classify them, group them into the shown hand.

Public face (nothing loads a model at import time)::

    from vision.recogniser import Recogniser
    recogniser = Recogniser.load("models")        # checks sha256 + labels, warms up
    reading = recogniser.read(frame_bgr)          # -> vision.reading.Reading
    reading.to_json()["tiles"]                    # label, box, confidence, sideways, face_down

Pipeline, one module per stage, in the order `recogniser.Recogniser.read` calls them: `find`
(finder run, peaks, close-up look: located tiles) -> `proportions` (a squeezed frame widened)
-> `refine` and `pairs` (stacked and touching pairs cut, slivers dropped) -> `classify` (crops,
classifier, half-turn and zoomed views: labelled tiles) -> `refine` again (weak peaks
recovered, nested boxes dropped) -> `standing_tops` (a standing tile's top, read White,
folded into it) -> `blank_faces` -> `assemble`: `layout` + `row_parse` (rows, gaps, melds, dora
row) and `decode` (most probable legal hand) -> `face_tops` (boxes grown to their tiles' tops)
-> `reading` (result values). Beneath them: `preprocess` (letterbox,
crops), `session` (the only onnxruntime importer), `postprocess` (heatmap peaks, NMS,
softmax), `boxes` and `kinds` (box and tile-kind helpers). `manifest` reads labelled sets,
`evaluate` measures, `synth` renders training scenes and `training` (optional torch extra)
trains and exports the models.
"""
