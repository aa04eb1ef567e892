"""Training, export and fine-tuning of the tile models (needs the ``train`` extra: torch).

``python -m vision.training {classifier,finder,synth,export,finetune} --help``. Checkpoints and
logs go to ``runs/`` (ignored by git); exported models and their cards go to ``models/``.
"""
