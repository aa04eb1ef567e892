"""A win as the API receives it (JSON) -> the scorer's `Hand` and `WinContext`, or a 4xx naming
every problem. Syntax errors (unknown tile, wrong type) are 400; an impossible hand is 422.

Tiles are compact mpsz (`234m06p`) or comma-separated labels (`2m,3m,4m,0p`). `concealed` is the
hand without the winning tile, as the photo shows it (the winning tile lies apart). At a
three-player table `hand.kita` counts the Norths pulled out beside the hand (0-4).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from kiosk.errors import ApiError, impossible
from kiosk.table import checks
from scorer.context import Blessing, Riichi, WinContext
from scorer.hand import CalledFrom, Hand, Meld, MeldKind
from scorer.limits import KITA, TILES_TEXT_LENGTH, brief
from scorer.table import TableState
from scorer.tiles import Tile, TileError, parse_tiles

FLAGS = ("ippatsu", "last_tile", "rinshan", "chankan", "chankan_of_ankan")
KNOWN_KEYS = {"winner", "discarder", "riichi", "blessing", "pao", "hand", "quick", "capture",
              *FLAGS}


@dataclass(frozen=True, slots=True)
class WinSpec:
    winner: int
    discarder: int | None
    riichi: Riichi
    flags: frozenset[str]
    blessing: Blessing | None
    pao: int | None
    hand: dict[str, Any] | None
    quick: dict[str, Any] | None
    capture: dict[str, Any] | None

    @property
    def tsumo(self) -> bool:
        return self.discarder is None


def parse_tile_list(value: Any, field: str) -> tuple[Tile, ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, str):
        raise ApiError(400, f"{field}: expected tiles as text like '234m06p' or '2m,3m,4m'",
                       code="field_tiles", words={"field": field})
    if len(value) > TILES_TEXT_LENGTH:
        raise ApiError(400, f"{field}: at most {TILES_TEXT_LENGTH} characters of tiles, got "
                       f"{len(value):,}", code="field_tiles_long",
                       words={"field": field, "most": TILES_TEXT_LENGTH, "n": f"{len(value):,}"})
    try:
        if "," in value:
            return tuple(Tile.parse(v.strip()) for v in value.split(",") if v.strip())
        return parse_tiles(value)
    except TileError as e:
        raise ApiError(400, f"{field}: unknown tile", [str(e)], code="unknown_tile",
                       words={"field": field, "got": brief(value)}) from None


def _seat(value: Any, field: str, seats: int, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    return checks.seat(value, field, seats)


E = TypeVar("E", bound=Enum)


def _choice(kind: type[E], value: Any, field: str) -> E:
    """`value` as a member of `kind`, or a 400 naming the field and every allowed value."""
    try:
        return kind(value)
    except ValueError:
        names = [str(member.value) for member in kind]
        allowed = f"{', '.join(names[:-1])} or {names[-1]}"
        raise ApiError(400, f"{field}: {brief(value)} is not {allowed}", code="field_choice",
                       words={"field": field, "got": brief(value),
                              "allowed": ", ".join(names)}) from None


def _object(value: Any, field: str) -> None:
    if not isinstance(value, dict):
        raise ApiError(400, f"{field}: expected an object", code="field_object",
                       words={"field": field})


def parse_spec(body: Any, state: TableState) -> WinSpec:
    if not isinstance(body, dict):
        raise ApiError(400, "expected a JSON object describing the win", code="not_object")
    checks.known_fields(body, KNOWN_KEYS)
    winner = _seat(body.get("winner"), "winner", state.seats)
    discarder = _seat(body.get("discarder"), "discarder", state.seats, optional=True)
    if discarder == winner:
        raise ApiError(400, "discarder: the winner cannot ron their own discard "
                       "(use null for tsumo)", code="ron_own_discard")
    riichi = _choice(Riichi, body.get("riichi") or ("riichi" if winner in state.riichi else "none"),
                     "riichi")
    if riichi is not Riichi.NONE and winner not in state.riichi:
        raise ApiError(422, "riichi: the table has no riichi declared by the winner this hand "
                       "(declare it first)", code="riichi_not_declared")
    flags = {flag for flag in FLAGS if checks.flag(body.get(flag, False), flag)}
    blessing = _choice(Blessing, body["blessing"], "blessing") if body.get("blessing") else None
    pao = _seat(body.get("pao"), "pao", state.seats, optional=True)
    if pao == winner:
        raise ApiError(400, "pao: the winner cannot be liable for their own hand",
                       code="pao_winner")
    hand, quick = body.get("hand"), body.get("quick")
    if (hand is None) == (quick is None):
        raise ApiError(400, "give either 'hand' (the tiles) or 'quick' (han/fu or points)",
                       code="hand_or_quick")
    for name, value in (("hand", hand), ("quick", quick), ("capture", body.get("capture"))):
        if value is not None:
            _object(value, name)
    return WinSpec(winner, discarder, riichi, frozenset(flags), blessing, pao, hand, quick,  # type: ignore[arg-type]
                   body.get("capture"))


def _kita(value: Any, state: TableState) -> int:
    """Norths pulled out beside the hand (sanma's nukidora): 0-4, and only where the rules pull
    them (`Ruleset.nukidora`); a four-player table has no kita, so a count there is a mistake
    to name, not a 0 to assume."""
    if not state.rules.nukidora:
        raise ApiError(400, f"hand.kita: {state.rules.name} pulls out no Norths (kita is for a "
                       "three-player table with nukidora)", code="hand_kita_rules",
                       words={"n": brief(value)})
    return checks.whole(value, "hand.kita", KITA)


def parse_melds(value: Any) -> tuple[Meld, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ApiError(400, "hand.melds: expected a list of melds", code="field_list",
                       words={"field": "hand.melds"})
    melds = []
    for i, m in enumerate(value):
        where = f"hand.melds[{i}]"
        if not isinstance(m, dict):
            raise ApiError(400, f"{where}: expected an object with kind and tiles",
                           code="field_object", words={"field": where})
        kind = _choice(MeldKind, m.get("kind"), f"{where}.kind")
        raw = m.get("tiles")
        if kind is MeldKind.ANKAN and isinstance(raw, str) and "back" in raw:
            # A closed kan shows two tiles face down: they are the two visible ones again.
            shown = [t.strip() for t in raw.split(",") if t.strip() not in ("", "back")]
            raw = ",".join([shown[0] if shown else "back"] * 4)
        tiles = parse_tile_list(raw, f"{where}.tiles")
        called = parse_tile_list(m.get("called"), f"{where}.called") if m.get("called") else ()
        if len(called) > 1:
            raise ApiError(400, f"{where}.called: one tile", code="one_tile",
                           words={"field": f"{where}.called"})
        source = _choice(CalledFrom, m["source"], f"{where}.source") if m.get("source") else None
        if kind is MeldKind.ANKAN:
            called = ()
        melds.append(Meld(kind, tiles, called[0] if called else None, source))
    return tuple(melds)


def build_hand(spec: WinSpec, state: TableState) -> tuple[Hand, tuple[Tile, ...],
                                                         tuple[Tile, ...], tuple[Tile, ...]]:
    """(hand, dora indicators, ura indicators, the winner's discards for the furiten check);
    422 with every problem of an impossible hand."""
    h = spec.hand or {}
    checks.known_fields(h, {"concealed", "win", "melds", "dora", "ura", "discards", "kita"},
                        "hand")
    concealed = parse_tile_list(h.get("concealed"), "hand.concealed")
    win = parse_tile_list(h.get("win"), "hand.win")
    if len(win) != 1:
        raise ApiError(422, "hand.win: the winning tile is missing" if not win
                       else "hand.win: give exactly one winning tile",
                       code="win_one" if win else "win_missing")
    melds = parse_melds(h.get("melds"))
    kita = _kita(h["kita"], state) if "kita" in h else 0
    hand = Hand(concealed + win, melds, win[0], kita)
    problems = hand.problems()
    dora = parse_tile_list(h.get("dora"), "hand.dora")
    ura = parse_tile_list(h.get("ura"), "hand.ura")
    discards = parse_tile_list(h.get("discards"), "hand.discards")
    if problems:
        raise impossible("the hand is not possible", problems, "hand_impossible")
    return hand, dora, ura, discards


def context(spec: WinSpec, state: TableState, dora: tuple[Tile, ...],
            ura: tuple[Tile, ...]) -> WinContext:
    """The situation: winds, honba and sticks from the table; the rest from the request."""
    return WinContext(
        tsumo=spec.tsumo, seat_wind=state.seat_wind(spec.winner), round_wind=state.round_wind,
        riichi=spec.riichi, ippatsu="ippatsu" in spec.flags, rinshan="rinshan" in spec.flags,
        chankan="chankan" in spec.flags or "chankan_of_ankan" in spec.flags,
        chankan_of_ankan="chankan_of_ankan" in spec.flags, last_tile="last_tile" in spec.flags,
        blessing=spec.blessing, dora_indicators=dora, ura_indicators=ura, honba=state.honba,
        riichi_sticks=state.sticks)
