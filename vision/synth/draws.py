"""What kind of scene each rendered scene of a training run is: one draw per kind and scene.

Every kind (printed clutter, standing tiles and whether they stand in loose groups, solid
standing tiles seen low) is drawn from the run's seed and the scene's index (`art.drawn_for`),
never from the scene's own random stream, so a scene renders the same at any share of the
others; the finder and classifier trainers, and the finder's choice of the scenes it holds to
its starting weights, all read them here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from vision.synth.art import Art, drawn_for
from vision.synth.hands import HandSpec
from vision.synth.scene import SCATTERED_SHARE, SceneTile, render
from vision.synth.upright import render_upright


@dataclass(frozen=True)
class SceneDraws:
    """One scene's kinds: printed clutter, standing tiles (in loose groups), solid upright."""

    clutter: bool = False
    standing: bool = False
    scattered: bool = False
    upright: bool = False

    @classmethod
    def of(
        cls,
        seed: int,
        index: int,
        clutter_share: float = 0.0,
        standing_share: float = 0.0,
        upright_share: float = 0.0,
    ) -> SceneDraws:
        """The draws of scene ``index`` of a run with ``seed`` at these shares."""
        standing = drawn_for("standing", seed, index, standing_share)
        return cls(
            drawn_for("clutter", seed, index, clutter_share),
            standing,
            standing and drawn_for("scattered", seed, index, SCATTERED_SHARE),
            drawn_for("upright", seed, index, upright_share),
        )

    def render(
        self, hand: HandSpec, art: Art, rng: random.Random, size: tuple[int, int]
    ) -> tuple[np.ndarray, list[SceneTile]]:
        """The scene: solid standing tiles (`render_upright`, ``hand`` unused) or ``hand`` laid
        out (`scene.render`) with the drawn clutter and standing tiles."""
        if self.upright:
            return render_upright(art, rng, size)
        return render(hand, art, rng, size, self.clutter, self.standing, self.scattered)
