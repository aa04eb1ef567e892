"""Vision thresholds and switches, as one immutable value built from a mapping (e.g. TOML)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


class ConfigError(ValueError):
    """An unknown or badly typed vision option; the message names the key."""


@dataclass(frozen=True)
class VisionConfig:
    """Every threshold the pipeline uses: what each stage is for in docs/vision.md ("Pipeline"), how
    its default was chosen in the comment beside it."""

    detect_threshold: float = 0.4  # finder heat a peak needs (chosen on train + a synth tuning set)
    min_tile_ratio: float = 0.55  # boxes with a side under this share of the median are no tile
    nms_iou: float = 0.45  # boxes overlapping more than this keep only the stronger one
    weak_peaks: bool = True  # the finder's weaker peaks may be kept as tiles (False: never)
    back_recovery_heat: float = 0.2  # the weakest finder peaks looked at again (weak peaks)
    # ... kept as a tile the finder half saw beside a located one (a cut-off tile at a stretched
    # photo's edge, a worn face): a peak this hot, the tile head this sure, the label this
    # likely, within this many tile sizes (root of a box's area) of a located tile (chosen on
    # the `train` photos; 1 turns it off)
    row_recovery_heat: float = 0.3
    row_recovery_tile: float = 0.8
    row_recovery_prob: float = 0.5
    row_recovery_reach: float = 1.5
    # a box this much wider across the row than its neighbours may be an added kan's stacked
    # pair boxed as one: cut in two where the halves read as one kind (0 turns it off; fresh
    # synth seeds: 1.3 read 4 more called tiles right than 1.35 and grouped 1 scene more, 1.25
    # the same but a red five less)
    stack_split: float = 1.3
    # a box this much wider (taller) than its neighbours, as tall (wide) as them within
    # ``pair_like`` either way, may hold two touching tiles: cut in two where both halves read
    # as a tile and a label this surely (vision.pairs; 0 turns it off)
    pair_split: float = 1.5
    # a sideways tile among upright ones is narrower than they by a face's aspect (about 0.76),
    # just outside 1/1.3 (0.77): a little perspective makes it a pair its halves' reading then
    # decides (1.15, between the two, read one upright tuning render fewer right: session 28)
    pair_like: float = 1.3
    pair_split_prob: float = 0.5
    closeup_below: int = 5  # fewer tiles found: a close-up? looked at again shrunk (a hand is 14)
    closeup_shrinks: tuple[float, ...] = (3.0, 5.0)  # ... the frame a third and a fifth of the
    # finder's view (chosen on close-ups cut from the train photos, loose and tight)
    # fewer tiles than a hand's, most of them lying in tiles the frame shrunk shows, two or more
    # in each, read more surely there: those were prints, boxed in tiles seen close and sharp
    # (vision.find). A hand's tiles; 0: off
    closeup_prints_below: int = 14
    # a frame from which no tile is read is read as the one tile the finder boxed filling at least
    # half of it, else as one tile filling it where the classifier reads it surely
    # (``flip_below``; vision.recogniser)
    read_filling: bool = True
    # A close-up: tiles whose median short side, in the finder's view of the whole frame (measured
    # on the frame shrunk as ``closeup_shrinks`` says), is above this are larger than any photo the
    # finder learned from had them (its training photos: 74.5 px at most, roboflow train) ...
    closeup_above: float = 75.0  # 0: off
    closeup_target: float = 43.0  # ... read in the frame shrunk to make them this (their median)
    # of a box lying this share of its area inside a larger one (a tile's print or plain top
    # boxed again, or a box over a group) in a close-up, one is no tile (vision.refine
    # .without_nested): "most of it", set before measuring; 0: off
    nested_share: float = 0.5
    # a box read White no taller than this share of the face-up box it lies on is that standing
    # tile's top (vision.standing_tops); 0: off
    standing_top_height: float = 0.6
    # crops the classifier's tile head gives less are no tile (a finger, a stick's end): 0.03
    # read 19 more of 1,600 fresh synthetic scenes right (0.01: 13, 0.1: 15, 0.5: 1)
    no_tile_below: float = 0.03
    alternatives: int = 3  # classifier alternatives kept per tile
    # rows further than this (degrees) off a frame axis are classified on crops turned level
    # with the row, so the glyph-axis head tells upright from sideways there too (above 45: never)
    turn_crops_from: float = 25.0
    turned_crop_side: float = 0.9  # ... a square this share of sqrt(box area) (synth tuning)
    # a frame whose median located box is longer than this (either way) was resized out of a
    # camera's proportions: it is read again widened to tiles of ``tile_aspect`` (the median
    # labelled tile of the training photos taken as shot; none of theirs passes 1.95), unless
    # that needs more than ``unstretch_max`` (a 21:9 frame squeezed to a square)
    stretched_from: float = 2.0  # 0: never widen
    tile_aspect: float = 1.48
    unstretch_max: float = 2.5
    # a tile read face down whose plain surface is the colour of the frame's faces is a blank
    # White dragon (vision.blank_faces): its chroma this close, no more than this much darker
    # (Lab, 8-bit scale; about the p90 of a face's spread about its photo's median in the `train`
    # photos; 0: off)
    blank_face_chroma: float = 5.0
    blank_face_darker: float = 30.0
    # a box grows up through the rows above it that are the face colour (vision.face_tops), up
    # to this many box heights; 0: off
    face_top_reach: float = 0.6
    test_time_flip: bool = True  # also classify unsure crops turned half round, average
    flip_below: float = 0.7  # ... those whose top probability is below this (synth tuning sets)
    zoom_views: float = 0.1  # ... and read again with their boxes this share larger and smaller
    # sideways log-odds = weights x cues (layout.sideways_scores), fitted on synth seeds 13 + 21
    sideways_box_weight: float = 10.0  # box's log(along / across the row) above the median
    sideways_axis_weight: float = 5.0  # finder's long axis along the row (times its strength)
    sideways_glyph_weight: float = 1.75  # classifier's glyph-axis log-odds (level crops)
    sideways_bias: float = 2.1
    meld_grammar: bool = True  # the layout's grammar sets sideways flags and the winning cut
    # grammar: an unflagged meld's likeliest tile needs these log-odds to be flagged (-6 left a
    # called tile half hidden by its neighbour, -6.1, upright; -7 to -100 read the same)
    meld_called_min: float = -10.0
    red_fives: tuple[int, int, int] = (1, 1, 1)  # red fives the set holds in m, p, s (rules)
    dora_row_max: int = 10  # a row of more tiles is no dora row (five dora + five ura at most)
    dora_reach: float = 5.0  # ... nor one further from the hand's line (tile widths; the
    # convention's row beside the hand; the renders lay it 2.2-3.6 widths away)
    row_split: float = 1.5  # rows are split where centres differ by this many tile widths
    gap_split: float = 0.15  # a gap wider than this share of a tile width separates groups
    decode_tiles: int = 8  # least-confident tiles the decoder may change
    decode_budget: int = 4000  # assignments the decoder may try before reporting failure
    min_alternative: float = 0.01  # alternatives below this probability are never chosen
    min_alternative_ratio: float = 0.05  # ... nor those under this share of the tile's top one
    # a table's taught tiles (vision.taught) weigh the classifier's log-probabilities by this
    # times the log-softmax, at this temperature, of each crop's cosine with its nearest
    # exemplar of each taught label; labels never taught share a column at this cosine
    taught_weight: float = 2.0
    taught_temperature: float = 0.05
    taught_unknown_similarity: float = 0.8
    threads: int = 1  # onnxruntime intra-op threads (a Raspberry Pi has 4 cores)
    reference_kernels: bool = False  # onnxruntime's unfused kernels: slow, alike on every CPU

    @classmethod
    def from_mapping(cls, raw: dict[str, Any] | None) -> VisionConfig:
        """Build from a mapping, rejecting unknown keys and wrong types by name."""
        raw = dict(raw or {})
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise ConfigError(f"unknown vision option(s): {', '.join(unknown)}")
        values: dict[str, Any] = {}
        for key, value in raw.items():
            default = getattr(cls, key)
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ConfigError(f"vision option {key} must be true or false, got {value!r}")
            elif isinstance(default, int):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ConfigError(f"vision option {key} must be an integer, got {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(f"vision option {key} must be a number, got {value!r}")
            values[key] = type(default)(value)
        return cls(**values)
