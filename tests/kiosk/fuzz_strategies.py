"""Hypothesis strategies for the API fuzz suite (test_fuzz_api.py): requests to the kiosk.

Bodies are written as JSON *text*, so they can hold what `json.dumps` refuses to write: NaN and
Infinity, numbers of up to 5,000 digits, lone surrogates, nesting 100,000 deep. Each valid body
shape comes with a spoiled twin: a field replaced by a hostile value, a key dropped or added.
Headers are junk as a server would hand them on (UTF-8 bytes read as Latin-1).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import cv2
import numpy as np
from hypothesis import strategies as st

from kiosk.table import rules_json
from kiosk.table.rules_json import bounds, option_fields
from scorer.rules import RULESETS
from scorer.table.validation import VALID_FU
from scorer.tiles import MODEL_CLASSES

# --- JSON text -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    """JSON text put into a body as it is (NaN, 1e999, 5,000 digits, 100,000 brackets)."""

    text: str


def to_json(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {to_json(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(to_json(v) for v in value) + "]"
    return json.dumps(value)  # lone surrogates come out as \ud800 escapes


# --- hostile values ---------------------------------------------------------------------------

ANY_CHAR = st.characters(exclude_categories=())  # surrogates and control characters too
ODD_TEXT = ["", " ", "\ud800", "x\udc00", "\x00", "a\x1b[2J", "\u0085", "\u2028", "\ufeff",
            "=cmd|' /C calc'!A0", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "東", "😀", "²m", "８m",
            "٣p", "0z", "8z", "back", "back,back", ",,,", "1m" * 150, "NaN", "null", "tenhou",
            "en", "ja", "riichi", "double", "pon", "ankan", "toimen", "../../etc/passwd",
            "%00", "<script>alert(1)</script>", "'; DROP TABLE events; --"]
LENGTHS = [24, 25, 40, 41, 60, 61, 200, 201, 1000, 5000]
#: Tiles, and what looks like them: digits of other scripts, tiles that do not exist.
TYPOS = ["²m", "８p", "٣s", "१z", "10m", "0z", "8z", "m", "5", "back", "", " ", "5M", "0P",
         "5ｍ", "5\x00m"]
TILE_LIKE = [f"{n}{s}" for s in "mpsz" for n in range(10)] + TYPOS
TILE_TEXT = st.tuples(st.lists(st.sampled_from(TILE_LIKE), max_size=16),
                      st.sampled_from([",", "", " ", ", "])).map(lambda t: t[1].join(t[0]))
TEXTS = st.one_of(
    st.text(ANY_CHAR, max_size=30),
    st.sampled_from(ODD_TEXT),
    TILE_TEXT,
    st.builds(lambda c, n: c * n, ANY_CHAR, st.sampled_from(LENGTHS)),
)
HUGE = st.builds(  # up to 10**5000, as integers or decimals, either sign
    lambda sign, lead, zeros, tail: Raw(sign + lead + "0" * zeros + tail),
    st.sampled_from(["", "-"]), st.sampled_from("123456789"),
    st.one_of(st.integers(0, 30), st.sampled_from([4298, 4299, 4300, 4301, 5000])),
    st.sampled_from(["", "", ".5", "e3", "E-999", "e999", ".0"]))
NUMBERS = st.one_of(
    st.integers(-5, 5),
    st.sampled_from([999, 1000, 1001, 10**7, 10**7 + 1, -(10**7) - 1, 2**31, 2**63, -(2**63),
                     2**64, 10**20]),
    st.integers(),
    st.floats(),  # NaN and the infinities too (written as NaN / Infinity)
    HUGE,
    st.sampled_from([Raw("NaN"), Raw("-Infinity"), Raw("Infinity"), Raw("1e999"), Raw("-0"),
                     Raw("0.0"), Raw("1.0"), Raw("3e0"), Raw("1E400")]),
)
SCALARS = st.one_of(NUMBERS, TEXTS, st.booleans(), st.none())
DEEP = st.builds(
    lambda n, kind: Raw({"list": "[" * n + "]" * n, "dict": '{"a": ' * n + "1" + "}" * n,
                         "open": "[" * n}[kind]),
    st.sampled_from([31, 32, 33, 40, 1000, 100_000]), st.sampled_from(["list", "dict", "open"]))
HOSTILE = st.one_of(
    SCALARS,
    st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=4)
                 | st.dictionaries(TEXTS, kids, max_size=4), max_leaves=8),
    DEEP,
)


@st.composite
def spoil(draw: st.DrawFn, value: Any, dive: int = 2) -> Any:
    """`value` with one hostile change somewhere: a value replaced, a key or item dropped or
    added, or (`dive` in 10) the same one level further in."""
    roll = draw(st.integers(0, 9))
    if roll == 0 or not isinstance(value, dict | list) or not value:
        return draw(HOSTILE)
    if isinstance(value, dict):
        out: Any = dict(value)
        at: Any = draw(st.sampled_from(sorted(out)))
    else:
        out = list(value)
        at = draw(st.integers(0, len(out) - 1))
    if roll >= 10 - dive:
        out[at] = draw(spoil(out[at], dive))
    elif roll <= 3:
        out[at] = draw(HOSTILE)
    elif roll <= 5:
        del out[at]
    elif isinstance(out, dict):
        out[draw(TEXTS)] = draw(HOSTILE)
    else:
        out.insert(at, draw(HOSTILE))
    return out


def shaped(valid: st.SearchStrategy[Any], dive: int = 2) -> st.SearchStrategy[Any]:
    """Half valid bodies, half spoiled ones."""
    return valid.flatmap(lambda v: st.one_of(st.just(v), spoil(v, dive)))


# --- valid shapes -------------------------------------------------------------------------------

SEAT = st.integers(0, 3)
SEATS = st.lists(SEAT, unique=True, max_size=4)
NAMES = st.one_of(st.sampled_from(["Ann", "Bo", "Cy", "Di", "東家", "=A1", "+Bo", "D" * 24]),
                  st.text(st.characters(categories=["L", "N", "P", "S"]), min_size=1,
                          max_size=24))
REASONS = st.one_of(st.sampled_from(["late", "miscount", "=1+1", "r" * 200]), NAMES)
FIELDS = {f["name"]: f for f in option_fields()}
UMAS = ["20,10,-10,-20", "30,10,-10,-30", "15, 5, -5, -15", "0,0,0,0",
        "12,-1,-3,-8 | 1:12,-1,-3,-8;2:8,4,-4,-8;3:8,3,1,-12"]


def option_value(name: str) -> st.SearchStrategy[Any]:
    f = FIELDS[name]
    if f["kind"] == "bool":
        return st.booleans()
    if f["kind"] == "int":
        limit = bounds(name)  # a rule option's, or a part's of chips and stakes
        assert limit is not None
        low, high = limit.low, limit.high
        usual = rules_json.to_json(RULESETS["tenhou"])[name]
        common = [v for v in (usual, low, high, 1, 50, 99, 100, 150, 999, 1000, 1001, 1500,
                              3000, 3001, 25000)
                  if low <= v <= high]
        return st.one_of(st.sampled_from(common), st.integers(low, high))
    if f["kind"] == "enum":
        return st.sampled_from(f["choices"])
    if f["kind"] == "set":
        return st.lists(st.sampled_from(f["choices"]), unique=True, max_size=3)
    if f["kind"] == "uma":
        return st.one_of(st.sampled_from(UMAS),
                         st.lists(st.integers(-1000, 1000), min_size=4, max_size=4).map(
                             lambda u: ",".join(map(str, u))))
    return st.sampled_from(["house", "club night", "t" * 40])


#: The options that decide who pays what, drawn more often than the others.
PAYING = ["riichi_stick", "noten_total", "honba_value", "start_points", "chombo", "chombo_each",
          "chombo_points", "leftover_sticks", "split_ties", "tobi", "tobi_at_zero",
          "riichi_needs_points", "nagashi_mangan", "triple_ron", "double_ron", "pao", "length"]


def options(names: list[str], min_size: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    return st.lists(st.sampled_from(names), unique=True, min_size=min_size, max_size=4).flatmap(
        lambda chosen: st.fixed_dictionaries({n: option_value(n) for n in chosen}))


PLAYERS = st.lists(NAMES, min_size=4, max_size=4)
NEW_GAME = st.fixed_dictionaries(
    {"players": PLAYERS},
    optional={"ruleset": st.sampled_from(sorted(RULESETS)), "options": options(sorted(FIELDS)),
              "first_dealer": SEAT})
#: A new game whose payments differ from the usual: the table the points are checked on. The
#: amounts (a stick, the noten payments, a honba...) are drawn twice as often as the rest.
NEW_TABLE = st.fixed_dictionaries(
    {"players": PLAYERS, "options": options(
        PAYING + [n for n in PAYING if FIELDS[n]["kind"] == "int"], min_size=1)},
    optional={"ruleset": st.sampled_from(sorted(RULESETS)), "first_dealer": SEAT})


def deltas(values: list[int]) -> list[int]:
    return [*values, -sum(values)]


CORRECTION = st.fixed_dictionaries({
    "deltas": st.lists(st.one_of(st.integers(-30000, 30000), st.sampled_from([0, 100, 10**7])),
                       min_size=3, max_size=3).map(deltas),
    "reason": REASONS})
DRAW = st.fixed_dictionaries({"tenpai": SEATS}, optional={"nagashi": st.lists(SEAT, max_size=2)})
ABORT = st.fixed_dictionaries({"kind": st.sampled_from(
    ["nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron"])})

# A hand: four groups and a pair, some groups called; not always possible (five of a tile),
# not always a win (no yaku): the kiosk must answer each with a 4xx, never a 500.
TILES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
GROUP = st.one_of(
    st.tuples(st.sampled_from("mps"), st.integers(1, 7)).map(
        lambda g: ("chi", [f"{g[1] + i}{g[0]}" for i in range(3)])),
    st.sampled_from(TILES).map(lambda t: ("pon", [t] * 3)),
    st.sampled_from(TILES).map(lambda t: ("kan", [t] * 4)))
CALLS = {"chi": ["chi"], "pon": ["pon"], "kan": ["minkan", "ankan", "kakan"]}


def redden(tiles: list[str], red: bool) -> list[str]:
    """The first five of a suit as the red one (0m, 0p, 0s)."""
    fives = [i for i, t in enumerate(tiles) if t[0] == "5" and t[1] != "z"]
    if not red or not fives:
        return tiles
    return [f"0{t[1]}" if i == fives[0] else t for i, t in enumerate(tiles)]


def notation(tiles: list[str], compact: bool) -> str:
    if not compact:
        return ",".join(tiles)
    return "".join(t[0] + ("" if b is not None and b[1] == t[1] else t[1])
                   for t, b in zip(tiles, [*tiles[1:], None], strict=True))


@st.composite
def hand(draw: st.DrawFn) -> dict[str, Any]:
    groups = draw(st.lists(GROUP, min_size=4, max_size=4))
    pair = [draw(st.sampled_from(TILES))] * 2
    called = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    red, compact = draw(st.booleans()), draw(st.booleans())
    closed = [t for (_, tiles), c in zip(groups, called, strict=True) if not c
              for t in tiles[:3]] + pair  # an uncalled kan stays three of a kind
    win = draw(st.sampled_from(closed))
    closed.remove(win)
    melds = [{"kind": draw(st.sampled_from(CALLS[kind])), "tiles": notation(tiles, compact),
              **draw(st.fixed_dictionaries({}, optional={
                  "called": st.just(tiles[0]),
                  "source": st.sampled_from(["kamicha", "toimen", "shimocha"])}))}
             for (kind, tiles), c in zip(groups, called, strict=True) if c]
    body: dict[str, Any] = {"concealed": notation(redden(sorted(closed), red), compact),
                            "win": win, "melds": melds}
    if draw(st.integers(0, 3)) == 0:  # a typo: a tile that is not one, or in another script
        field = draw(st.sampled_from(["concealed", "win", *(["melds"] if melds else [])]))
        typo = draw(st.sampled_from(TYPOS))
        if field == "melds":
            melds[0]["tiles"] = f"{typo},{melds[0]['tiles']}"
        else:
            body[field] = typo + ("," if "," in body[field] else "") + body[field]
    extra = {"dora": st.lists(st.sampled_from(TILES), max_size=3).map(",".join),
             "ura": st.lists(st.sampled_from(TILES), max_size=2).map("".join),
             "discards": st.lists(st.sampled_from(TILES), max_size=4).map(",".join)}
    body.update(draw(st.fixed_dictionaries({}, optional=extra)))
    return body


QUICK = st.one_of(
    st.fixed_dictionaries({"han": st.integers(1, 13)},
                          optional={"fu": st.sampled_from(sorted(VALID_FU))}),
    st.fixed_dictionaries({"yakuman": st.integers(1, 6)}),
    st.fixed_dictionaries({"points": st.sampled_from(
        [1000, 1500, 2000, 2900, 3900, 5200, 7700, 8000, 12000, 16000, 18000, 24000, 32000,
         48000, 1234])}))
FLAGS = {f: st.booleans() for f in ("ippatsu", "last_tile", "rinshan", "chankan",
                                    "chankan_of_ankan")}


@st.composite
def win(draw: st.DrawFn, captures: list[str], discarder: int | None | str = "any"
        ) -> dict[str, Any]:
    winner = draw(SEAT)
    if discarder == "any":
        discarder = draw(st.one_of(st.none(), SEAT.filter(lambda s: s != winner)))
    body: dict[str, Any] = {"winner": winner, "discarder": discarder}
    body.update(draw(st.one_of(st.fixed_dictionaries({"quick": QUICK}),
                               st.fixed_dictionaries({"hand": hand()}))))
    optional: dict[str, st.SearchStrategy[Any]] = {
        "riichi": st.sampled_from(["none", "riichi", "double"]),
        "blessing": st.sampled_from(["tenhou", "chiihou", "renhou"]), "pao": SEAT, **FLAGS}
    if captures:
        optional["capture"] = st.fixed_dictionaries({
            "id": st.sampled_from(captures),
            "tiles": st.lists(st.fixed_dictionaries({
                "label": st.sampled_from(MODEL_CLASSES),
                "box": st.lists(st.integers(0, 100), min_size=4, max_size=4).map(sorted)}),
                max_size=3)})
    extras = draw(st.fixed_dictionaries({}, optional=optional))
    return {**body, **dict(list(extras.items())[:2])}  # a few extras, not all at once


def wins(captures: list[str]) -> st.SearchStrategy[Any]:
    """One win, or the rons of two or three players on one discard."""
    multi = st.tuples(SEAT, st.integers(2, 3)).flatmap(lambda d: st.lists(
        win(captures, d[0]), min_size=d[1], max_size=d[1]).map(lambda w: {"wins": w}))
    return st.one_of(win(captures), win(captures), multi)


TENPAI = st.builds(lambda h: {k: v for k, v in h.items() if k in ("concealed", "melds")}, hand())


# --- photos -------------------------------------------------------------------------------------

def image(seed: int, width: int, height: int, ext: str) -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)
    ok, data = cv2.imencode(ext, pixels)
    assert ok
    return bytes(data)


BODIES = st.one_of(  # anything as a body: JSON text, bytes, text in no JSON
    st.none(), HOSTILE, st.binary(max_size=200),
    st.text(ANY_CHAR, max_size=60).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.sampled_from([b"", b" ", b"{", b'{"seat": 1', b"\xef\xbb\xbf{}", b"\xff\xfe",
                     '{"seat": 1}'.encode("utf-16"), b'{"seat": 1}{"seat": 2}']))
IMAGES = st.builds(image, st.integers(0, 2**32), st.integers(1, 96), st.integers(1, 96),
                   st.sampled_from([".png", ".jpg", ".bmp", ".webp"]))


@st.composite
def photo(draw: st.DrawFn) -> bytes:
    """Random bytes, a small real image, or one cut short, flipped or lying in its header."""
    how = draw(st.sampled_from(["bytes", "image", "image", "cut", "flip", "header"]))
    if how == "bytes":
        return draw(st.binary(max_size=300))
    data = draw(IMAGES)
    if how == "cut":
        return data[:draw(st.integers(0, len(data)))]
    if how == "flip":
        at = draw(st.integers(0, len(data) - 1))
        return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
    if how == "header":
        at = draw(st.integers(0, min(40, len(data) - 2)))
        return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at + 8:]
    return data


# --- headers -----------------------------------------------------------------------------------

def wire(text: str) -> str:
    """Text as a server hands a header to the app: its UTF-8 bytes read as Latin-1, without
    line breaks (no server passes those on)."""
    return text.encode("utf-8", "surrogatepass").decode("latin-1").replace("\r", "").replace(
        "\n", "")


HEADER = st.one_of(TEXTS, st.binary(max_size=40).map(lambda b: b.decode("latin-1"))).map(wire)
HOSTS = st.one_of(HEADER, st.sampled_from([
    "evil.example", "localhost", "localhost:8080", "127.0.0.1", "[::1]:80", "[::1", "::1",
    "127.0.0.1:99999999", "192.168.1.10:8080", "0", "", " ", "[fe80::1%25eth0]",
    "localhost.", "LOCALHOST", "127.1", "kiosk.local"]))
JUNK = st.fixed_dictionaries({}, optional={
    "X-CSRF-Token": HEADER, "Authorization": st.one_of(HEADER, HEADER.map("Bearer ".__add__)),
    "Host": HOSTS, "Cookie": st.one_of(HEADER, HEADER.map("session=".__add__)),
    "Accept": HEADER, "Accept-Language": HEADER, "X-Forwarded-For": HEADER,
    "Content-Type": st.one_of(HEADER, st.sampled_from(
        ["application/json", "image/png", "text/plain", "multipart/form-data",
         "multipart/form-data; boundary=x", "application/json; charset=utf-16"]))})
JUNK_HEADERS = st.one_of(st.just({}), st.just({}), st.just({}), JUNK)


# --- requests ----------------------------------------------------------------------------------

@dataclass
class Request:
    method: str
    path: str
    body: Any = None  # JSON (written with to_json), bytes as they are, or a dict of form fields
    who: str = "kiosk"  # kiosk | phone (a PIN session) | device (a token) | stranger
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Form:
    """A multipart body: field name -> file content."""

    fields: dict[str, bytes]


NO_BODY, KIOSK = st.none(), st.just("kiosk")


def request(method: str, path: str, body: st.SearchStrategy[Any] = NO_BODY,
            who: st.SearchStrategy[str] = KIOSK) -> st.SearchStrategy[Request]:
    return st.builds(Request, st.just(method), st.just(path), body, who, JUNK_HEADERS)


def quoted(text: str) -> str:
    """Text as one segment of a URL path (a server hands the app its UTF-8 bytes)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def token_path(token_id: str) -> str:
    return "/api/tokens/" + quoted(token_id)


def capture_path(capture_id: str) -> str:
    return f"/api/captures/{quoted(capture_id)}.jpg"


READS = ["/api/state", "/api/standings", "/api/history", "/api/games", "/api/rulesets",
         "/api/display", "/api/export.json", "/api/export.csv", "/api/tiles", "/api/camera",
         "/api/session"]
#: Every path of docs/api.md served by the Flask app (tokens and captures with an id that is
#: not there). /api/events and /api/camera/stream are the server's own (kiosk.serve.server):
#: test_server_limits.py, test_camera_stream.py.
PATHS = [*READS, "/api/session/pin", "/api/session/logout", "/api/session/language",
         "/api/tokens", "/api/tokens/0123456789ab", "/api/riichi", "/api/score", "/api/wins",
         "/api/tenpai", "/api/draws", "/api/aborts", "/api/chombo", "/api/corrections",
         "/api/undo", "/api/redo", "/api/end", "/api/import", "/api/camera/frame.jpg",
         "/api/captures", "/api/captures/upload", "/api/captures/none.jpg"]
ANY_PATH = st.one_of(
    st.sampled_from(PATHS), TEXTS.map(lambda t: "/api/" + quoted(t)),
    st.tuples(st.sampled_from(PATHS), TEXTS).map(lambda p: f"{p[0]}?lang={quoted(p[1])}"))
FORMS = st.dictionaries(st.sampled_from(["photo", "record", "seat", "x"]),
                        st.binary(max_size=60), max_size=2).map(Form)
ANYTHING = st.builds(
    Request, st.sampled_from(["GET", "POST", "POST", "PUT", "PATCH", "DELETE", "HEAD"]),
    ANY_PATH, st.one_of(BODIES, FORMS), st.sampled_from(["kiosk", "phone", "device", "stranger"]),
    st.one_of(JUNK, JUNK_HEADERS))


