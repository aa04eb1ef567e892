"""The JSON-lines hand format of ../shared/scoring/tenhou-wins-dev.jsonl <-> Hand and WinContext.

One object per hand: `closed` (tiles, winning tile included; a list or a compact string), `melds`
(`{"type", "tiles", "called", "from"}`), `win_tile`, `tsumo`, `riichi`, `double_riichi`, `ippatsu`,
`rinshan`, `chankan`, `chankan_of_ankan` (the robbed kan was closed; optional), `haitei`,
`houtei`, `tenhou`, `chiihou`, `renhou`, `seat_wind`,
`round_wind` (1-4), `dealer`, `dora_indicators`, `ura_indicators`, `honba`, `riichi_sticks`, and
at a three-player table `kita` (Norths pulled out as nukidora, 0-4; tenhou-sanma-wins-dev.jsonl).
Anything else (`expected`, `rules`, `source`) is ignored.

>>> hand, ctx = from_record({"closed": "234m456p22s345678s", "win_tile": "8s", "tsumo": True})
>>> str(hand), ctx.tsumo
('234m456p22345678s win 8s', True)
>>> from_record(to_record(hand, ctx)) == (hand, ctx)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from scorer.context import Blessing, Riichi, WinContext, Wind
from scorer.hand import CalledFrom, Hand, InvalidInput, Meld, MeldKind, Problem, ProblemCode
from scorer.limits import HONBA, KITA, STICKS, brief
from scorer.tiles import TILE_BY_TEXT, Tile, TileError, parse_tiles

_FLAGS = ("tsumo", "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "chankan_of_ankan",
          "haitei", "houtei", "tenhou", "chiihou", "renhou")
#: Every member of a record that `from_record` reads (tests hold it to that).
FIELDS = frozenset({"closed", "melds", "win_tile", *_FLAGS, "seat_wind", "round_wind", "dealer",
                    "honba", "riichi_sticks", "kita", "dora_indicators", "ura_indicators",
                    "agari_index_in_hand"})
#: The members of the real-wins files that `from_record` ignores (they come last).
IGNORED = ("rules", "expected", "source")

# Enum members and texts as tables (under Python 3.11 `Wind(2)` and `Riichi.DOUBLE` each go
# through the enum machinery, and every record reads them).
_WINDS = {int(w): w for w in Wind}
_BLESSINGS = (Blessing.TENHOU, Blessing.CHIIHOU, Blessing.RENHOU)
_DOUBLE: Final = Riichi.DOUBLE
_RIICHI: Final = Riichi.RIICHI
_NO_RIICHI: Final = Riichi.NONE
_MELD_KINDS = {k.value: k for k in MeldKind}
_SOURCES = {c.value: c for c in CalledFrom}


def _tiles(value: Any, field: str, problems: list[Problem]) -> tuple[Tile, ...]:
    if type(value) is list:
        try:  # the common case, every item a tile's text: one dictionary look-up each
            return tuple([TILE_BY_TEXT[t] for t in value])
        except (KeyError, TypeError):
            pass  # (the loop below names the bad item)
    try:
        if isinstance(value, str):
            return parse_tiles(value)
        if isinstance(value, list):
            return tuple(Tile.parse(t) if isinstance(t, str) else _not_tile(t) for t in value)
    except TileError as e:
        problems.append(Problem(field, str(e), ProblemCode.INPUT_TILES))
        return ()
    problems.append(Problem(field, "expected a list of tiles or an mpsz string, "
                            f"not {brief(value)}", ProblemCode.INPUT_TILES_TYPE,
                            {"value": brief(value)}))
    return ()


def _not_tile(value: Any) -> Tile:
    raise TileError(f"{brief(value)} is not a tile (expected e.g. 5m, 0p, 7z)")


def _tile(value: Any, field: str, problems: list[Problem]) -> Tile | None:
    if not isinstance(value, str):
        problems.append(Problem(field, f"expected one tile such as '5m', not {brief(value)}",
                                ProblemCode.INPUT_TILE_TYPE, {"value": brief(value)}))
        return None
    try:
        return Tile.parse(value)
    except TileError as e:
        problems.append(Problem(field, str(e), ProblemCode.INPUT_TILES))
        return None


def _meld(raw: Any, index: int, problems: list[Problem]) -> Meld | None:
    field = f"melds[{index}]"
    if type(raw) is not dict and not isinstance(raw, Mapping):
        problems.append(Problem(field, "expected an object with type and tiles, "
                                f"not {brief(raw)}", ProblemCode.INPUT_MELD_TYPE,
                                {"value": brief(raw)}))
        return None
    try:
        kind_text: Any = raw.get("type")
        kind = _MELD_KINDS.get(kind_text) or MeldKind(kind_text)
    except (ValueError, TypeError):
        problems.append(Problem(f"{field}.type", f"unknown meld type {brief(raw.get('type'))} "
                                "(chi, pon, minkan, ankan, kakan)", ProblemCode.INPUT_MELD_KIND,
                                {"value": brief(raw.get('type'))}))
        return None
    tiles = _tiles(raw.get("tiles"), f"{field}.tiles", problems)
    called = None
    if raw.get("called") is not None:
        called = _tile(raw["called"], f"{field}.called", problems)
    source = None
    if raw.get("from") is not None:
        try:
            source = _SOURCES.get(raw["from"]) or CalledFrom(raw["from"])
        except (ValueError, TypeError):
            problems.append(Problem(f"{field}.from", f"unknown source {brief(raw['from'])} "
                                    "(kamicha, toimen, shimocha)",
                                    ProblemCode.INPUT_MELD_SOURCE, {"value": brief(raw["from"])}))
    return Meld(kind, tiles, called, source)


def _int(record: Mapping[str, Any], field: str, default: int, low: int, high: int,
         problems: list[Problem]) -> int:
    value = record.get(field, default)
    if type(value) is int and low <= value <= high:
        return value  # (the common case, first)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        problems.append(Problem(field, f"expected a whole number {low}-{high}, not {brief(value)}",
                                ProblemCode.INPUT_NUMBER,
                                {"low": low, "high": high, "value": brief(value)}))
        return default
    return value


def _flag(record: Mapping[str, Any], field: str, problems: list[Problem]) -> bool:
    value = record.get(field, False)
    if value is True or value is False:
        return value
    problems.append(Problem(field, f"expected true or false, not {brief(value)}",
                            ProblemCode.INPUT_FLAG, {"value": brief(value)}))
    return False


def from_record(record: Mapping[str, Any]) -> tuple[Hand, WinContext]:
    """Read one hand; raises `InvalidInput` naming every bad field at once.

    In a double ron Tenhou gives the honba and riichi sticks to the first winner only, so a
    record with `agari_index_in_hand` above 1 is read with no honba and no sticks.
    """
    problems: list[Problem] = []
    if type(record) is not dict and not isinstance(record, Mapping):
        raise InvalidInput([Problem("record", f"expected a JSON object, not {brief(record)}",
                                    ProblemCode.INPUT_RECORD, {"value": brief(record)})])
    for field in ("closed", "win_tile"):
        if field not in record:
            problems.append(Problem(field, "missing", ProblemCode.INPUT_MISSING))
    concealed = _tiles(record.get("closed", []), "closed", problems)
    win = _tile(record.get("win_tile"), "win_tile", problems) if "win_tile" in record else None
    raw_melds = record.get("melds", [])
    melds: list[Meld] = []
    if not isinstance(raw_melds, list):
        problems.append(Problem("melds", f"expected a list of melds, not {brief(raw_melds)}",
                                ProblemCode.INPUT_MELDS_TYPE, {"value": brief(raw_melds)}))
    else:
        for i, raw in enumerate(raw_melds):
            meld = _meld(raw, i, problems)
            if meld is not None:
                melds.append(meld)
    tsumo, riichi, double_riichi, ippatsu, rinshan, chankan, chankan_of_ankan, haitei, houtei, \
        tenhou, chiihou, renhou = [_flag(record, flag, problems) for flag in _FLAGS]
    before = len(problems)
    seat = _int(record, "seat_wind", 1, 1, 4, problems)
    seat_ok = len(problems) == before
    round_ = _int(record, "round_wind", 1, 1, 4, problems)
    honba = _int(record, "honba", 0, HONBA.low, HONBA.high, problems)
    sticks = _int(record, "riichi_sticks", 0, STICKS.low, STICKS.high, problems)
    if seat_ok and "dealer" in record and record["dealer"] is not (seat == 1):
        problems.append(Problem("dealer", f"dealer is {brief(record['dealer'])} but the seat "
                                f"wind is {Wind(seat).name.title()} (the dealer sits East)",
                                ProblemCode.INPUT_DEALER,
                                {"value": brief(record["dealer"]), "seat": seat}))
    kita = _int(record, "kita", 0, KITA.low, KITA.high, problems)
    dora = _tiles(record.get("dora_indicators", []), "dora_indicators", problems)
    ura = _tiles(record.get("ura_indicators", []), "ura_indicators", problems)
    blessings = [b for b, held in zip(_BLESSINGS, (tenhou, chiihou, renhou), strict=True) if held]
    if len(blessings) > 1:
        problems.append(Problem("blessing", "at most one of tenhou, chiihou and renhou",
                                ProblemCode.INPUT_BLESSINGS))
    if problems or win is None:
        raise InvalidInput(problems)
    if record.get("agari_index_in_hand", 1) != 1:
        honba = sticks = 0
    context = WinContext(
        tsumo=tsumo, seat_wind=_WINDS[seat], round_wind=_WINDS[round_],
        riichi=_DOUBLE if double_riichi else _RIICHI if riichi else _NO_RIICHI,
        ippatsu=ippatsu, rinshan=rinshan, chankan=chankan, chankan_of_ankan=chankan_of_ankan,
        last_tile=haitei or houtei,
        blessing=blessings[0] if blessings else None, dora_indicators=dora,
        ura_indicators=ura, honba=honba, riichi_sticks=sticks)
    return Hand(concealed, tuple(melds), win, kita), context


def to_record(hand: Hand, context: WinContext) -> dict[str, Any]:
    """The record of a hand and its context (the inverse of `from_record`)."""
    melds = []
    for m in hand.melds:
        meld: dict[str, Any] = {"type": m.kind.value, "tiles": [str(t) for t in m.tiles]}
        if m.called is not None:
            meld["called"] = str(m.called)
        if m.source is not None:
            meld["from"] = m.source.value
        melds.append(meld)
    riichi = context.riichi is not Riichi.NONE
    return {
        "closed": [str(t) for t in hand.concealed],
        "melds": melds,
        **({"kita": hand.kita} if hand.kita else {}),
        "win_tile": str(hand.win_tile),
        "tsumo": context.tsumo,
        "riichi": riichi,
        "double_riichi": context.riichi is Riichi.DOUBLE,
        "ippatsu": context.ippatsu,
        "rinshan": context.rinshan,
        "chankan": context.chankan,
        **({"chankan_of_ankan": True} if context.chankan_of_ankan else {}),
        "haitei": context.last_tile and context.tsumo,
        "houtei": context.last_tile and not context.tsumo,
        **{b.value: context.blessing is b for b in Blessing},
        "seat_wind": int(context.seat_wind),
        "round_wind": int(context.round_wind),
        "dealer": context.is_dealer,
        "dora_indicators": [str(t) for t in context.dora_indicators],
        "ura_indicators": [str(t) for t in context.ura_indicators],
        "honba": context.honba,
        "riichi_sticks": context.riichi_sticks,
    }
