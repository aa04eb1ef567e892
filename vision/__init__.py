"""Pixels to a `Reading`: find the tiles, classify them, group them into the shown hand.

Public face (nothing loads a model at import time)::

    from vision.recogniser import Recogniser
    recogniser = Recogniser.load("models")        # checks sha256 + labels, warms up
    reading = recogniser.read(frame_bgr)          # -> vision.reading.Reading
    reading.to_json()["tiles"]                    # label, box, confidence, sideways, face_down

Pipeline, one module per step: `preprocess` (letterbox, crops) -> `session` (the only
onnxruntime importer) -> `postprocess` (heatmap peaks, NMS, softmax) -> `layout` (rows, gaps,
melds, dora row) -> `decode` (most probable legal hand) -> `reading` (result values).
`manifest` reads labelled sets, `evaluate` measures, `synth` renders training scenes and
`training` (optional torch extra) trains and exports the models.
"""
