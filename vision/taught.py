"""A table's taught tiles: the classifier's features of its own tiles, and how they weigh a reading.

A ``TaughtSet`` holds, per label, L2-normalised feature vectors (the classifier's ``features``
output, see ``vision.training.features``) of tiles a table showed the kiosk, laid out in a known
order (``vision.teach``). It is immutable, tied to the classifier it was taught with (its
sha256), and saved as one ``.npz`` file in a folder the caller gives.

At read time (``weigh``) each crop's features are compared by cosine with every taught
exemplar; the nearest exemplar of each taught label gives that label a similarity, a softmax at
``taught_temperature`` over them (and over one column for "none of these", at
``taught_unknown_similarity``) says which taught label the crop looks like, and its log is added,
times ``taught_weight``, to the classifier's log-probabilities. A label never taught shares the
"none of these" column, so among such labels the classifier's view stands; an untaught red five
shares its plain five's column (the classifier tells red from plain, the table's tiles the kind).
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from scorer.tiles import MODEL_CLASSES
from vision.config import VisionConfig
from vision.kinds import kind_of

TAUGHT_FILE = "taught_tiles.npz"
FORMAT = "riichi-table-assistant taught tiles"
VERSION = 1


class TaughtSetError(ValueError):
    """A taught-tiles file that is missing, corrupt, foreign or taught with another classifier;
    the message names the file."""


def normalised(features: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (a zero row stays zero)."""
    x = np.asarray(features, np.float32)
    norm = np.linalg.norm(x, axis=-1, keepdims=True)
    return np.asarray(x / np.maximum(norm, 1e-12), np.float32)


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, copy=True)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class TaughtSet:
    """Feature exemplars of a table's tiles: ``exemplars[i]`` (unit length) is one of
    ``labels[i]``'s; ``photos`` taught them, at ``taught_at`` (ISO 8601, UTC), with the
    classifier whose sha256 is ``classifier_sha256``."""

    labels: tuple[str, ...]
    exemplars: np.ndarray  # [E, C] float32, rows of unit length, read-only
    photos: int
    taught_at: str
    classifier_sha256: str

    def __post_init__(self) -> None:
        exemplars = np.asarray(self.exemplars, np.float32)
        if exemplars.ndim != 2 or len(exemplars) != len(self.labels):
            raise ValueError(
                f"{len(self.labels)} labels for exemplars of shape {tuple(exemplars.shape)}"
            )
        unknown = sorted(set(self.labels) - set(MODEL_CLASSES))
        if unknown:
            raise ValueError(f"taught labels {unknown} are no model classes")
        object.__setattr__(self, "labels", tuple(self.labels))
        object.__setattr__(self, "exemplars", _frozen(normalised(exemplars)))

    @classmethod
    def of(
        cls,
        labels: Sequence[str],
        features: np.ndarray,
        photos: int,
        classifier_sha256: str,
        taught_at: datetime | None = None,
    ) -> TaughtSet:
        """A set from raw features (normalised here); ``taught_at`` defaults to now."""
        when = (taught_at or datetime.now(UTC)).astimezone(UTC)
        return cls(
            tuple(labels),
            normalised(features),
            photos,
            when.isoformat(timespec="seconds"),
            classifier_sha256,
        )

    @property
    def kinds(self) -> tuple[str, ...]:
        """The labels taught, in the model's class order."""
        taught = set(self.labels)
        return tuple(c for c in MODEL_CLASSES if c in taught)

    def exemplars_of(self, label: str) -> np.ndarray:
        """[k, C] the exemplars of one label (k = 0 when it was never taught)."""
        return self.exemplars[[i for i, lab in enumerate(self.labels) if lab == label]]

    def counts(self) -> dict[str, int]:
        """Exemplars per taught label."""
        return {k: self.labels.count(k) for k in self.kinds}

    def merged(self, more: TaughtSet) -> TaughtSet:
        """These exemplars and ``more``'s (taught with the same classifier), as one set taught
        now-ish: at the later of the two times."""
        if more.classifier_sha256 != self.classifier_sha256:
            raise TaughtSetError("the two taught sets come from different classifiers")
        return TaughtSet(
            self.labels + more.labels,
            np.concatenate([self.exemplars, more.exemplars]),
            self.photos + more.photos,
            max(self.taught_at, more.taught_at),
            self.classifier_sha256,
        )

    def summary(self) -> dict[str, object]:
        """What the kiosk shows: labels taught, exemplars, photos, when."""
        return {
            "kinds": list(self.kinds),
            "exemplars": len(self.labels),
            "photos": self.photos,
            "taught_at": self.taught_at,
            "classifier_sha256": self.classifier_sha256,
        }

    def save(self, folder: Path | str) -> Path:
        """Write ``folder/taught_tiles.npz`` (atomically: a reader never sees half a file)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / TAUGHT_FILE
        meta = {
            "format": FORMAT,
            "version": VERSION,
            "photos": self.photos,
            "taught_at": self.taught_at,
            "classifier_sha256": self.classifier_sha256,
        }
        fd, tmp = tempfile.mkstemp(prefix=".taught-", suffix=".npz", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(
                    fh,
                    meta=np.array(json.dumps(meta)),
                    labels=np.array(self.labels, dtype="U4"),
                    exemplars=self.exemplars,
                )
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def load(cls, where: Path | str, classifier_sha256: str | None = None) -> TaughtSet:
        """Read a set from a folder (its ``taught_tiles.npz``) or a file; with
        ``classifier_sha256``, refuse one taught with another classifier. Raises TaughtSetError
        naming the file when it is missing, corrupt or not a taught set."""
        path = Path(where)
        if path.is_dir():
            path = path / TAUGHT_FILE
        if not path.is_file():
            raise TaughtSetError(f"taught tiles file {path} not found")
        if not zipfile.is_zipfile(path):
            raise TaughtSetError(f"{path} is not a taught tiles file (not an .npz archive)")
        try:
            with np.load(path, allow_pickle=False) as npz:
                meta = json.loads(str(npz["meta"][()]))
                labels = tuple(str(s) for s in npz["labels"])
                exemplars = np.asarray(npz["exemplars"], np.float32)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as err:
            raise TaughtSetError(f"{path} is not a taught tiles file ({err})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise TaughtSetError(f"{path} is not a taught tiles file (format {meta!r})")
        if meta.get("version") != VERSION:
            raise TaughtSetError(f"{path}: taught tiles version {meta.get('version')!r}")
        sha = str(meta.get("classifier_sha256", ""))
        if classifier_sha256 is not None and sha != classifier_sha256:
            raise TaughtSetError(
                f"{path} was taught with another classifier ({sha[:16]}..., this one is "
                f"{classifier_sha256[:16]}...): teach the table's tiles again"
            )
        try:
            return cls(labels, exemplars, int(meta["photos"]), str(meta["taught_at"]), sha)
        except (ValueError, KeyError, TypeError) as err:
            raise TaughtSetError(f"{path} is not a taught tiles file ({err})") from None

    def columns(self) -> np.ndarray:
        """[38] for each model class its column in ``similarities`` (``len(kinds)`` is "none of
        these": classes never taught, but a red five whose plain five was)."""
        kinds = self.kinds
        none = len(kinds)
        out = []
        for c in MODEL_CLASSES:
            if c in kinds:
                out.append(kinds.index(c))
            elif kind_of(c) != c and kind_of(c) in kinds:
                out.append(kinds.index(kind_of(c)))
            else:
                out.append(none)
        return np.array(out)

    def similarities(self, features: np.ndarray) -> np.ndarray:
        """[N, K] each crop's cosine with its nearest exemplar of each taught label (``kinds``
        order)."""
        cos = normalised(features) @ self.exemplars.T
        labels = np.array(self.labels)
        return np.stack([cos[:, labels == k].max(axis=1) for k in self.kinds], axis=1)

    def weigh(self, probs: np.ndarray, features: np.ndarray, config: VisionConfig) -> np.ndarray:
        """[N, 38] the classifier's probabilities weighed by how like each taught label the
        crops' ``features`` look (see the module's doc)."""
        if not len(probs):
            return probs
        sims = self.similarities(features)
        none = np.full((len(sims), 1), config.taught_unknown_similarity, np.float32)
        z = np.concatenate([sims, none], axis=1) / max(config.taught_temperature, 1e-6)
        z -= z.max(axis=1, keepdims=True)
        like = z - np.log(np.exp(z).sum(axis=1, keepdims=True))  # log softmax
        logits = np.log(np.maximum(probs, 1e-12)) + config.taught_weight * like[:, self.columns()]
        logits -= logits.max(axis=1, keepdims=True)
        out = np.exp(logits)
        return np.asarray(out / out.sum(axis=1, keepdims=True), probs.dtype)
