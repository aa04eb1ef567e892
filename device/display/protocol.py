"""The table display's ASCII line protocol: pure encode / decode (see docs/serial-protocol.md).

Every sentence is one line `$<TYPE>,<version>,<fields...>*<HH>\\r\\n`, where HH is the XOR of
every byte between `$` and `*` in two upper-case hex digits (the NMEA 0183 checksum, which
any microcontroller can compute in a loop). Host to display: `RTA` (the full table state),
`RTC` (the same for a three-player table: three points, three riichi flags), `RTB` (honba
only, for a honba-only display), `RTQ` (who are you?). Display to host: `RTH` (hello: name and
capabilities) and `RTK` (acknowledge a frame by its sequence number).

>>> encode(Ack(seq=7))
b'$RTK,1,7*4B\\r\\n'
>>> decode(b'$RTK,1,7*4B\\r\\n')
Ack(seq=7)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import reduce

from device.display.state import MAX_COUNTER, WIND_LETTERS, DisplayState

VERSION = 1
SEQ_MODULUS = 1000  # sequence numbers run 0-999 and wrap
MAX_LINE = 120  # longer lines are noise; a v1 sentence is at most 70 bytes
HONBA_ONLY_MAX = 99  # a honba-only display has two digits
_NAME = re.compile(r"[A-Za-z0-9 ._-]{1,32}")


class ProtocolError(ValueError):
    """A line that is not a valid sentence; the message says what is wrong."""


class FramingError(ProtocolError):
    """No `$...*HH` frame, or a line too long."""


class ChecksumError(ProtocolError):
    """The checksum does not match the sentence."""


class FieldError(ProtocolError):
    """A sentence with a missing, extra or malformed field."""


class Capability(Enum):
    """What a display says it can show in its hello."""

    FULL = "full"  # reads RTA frames (assumed until a display says otherwise)
    HONBA_ONLY = "honba-only"  # a two-digit honba counter: send RTB frames
    ACK = "ack"  # answers every frame with RTK


@dataclass(frozen=True, slots=True)
class StateFrame:
    """`RTA`: the full table state; `RTC` when the state has three seats (sanma)."""

    seq: int
    state: DisplayState


@dataclass(frozen=True, slots=True)
class HonbaFrame:
    """`RTB`: only the honba count (clamped to 99), for a honba-only display."""

    seq: int
    honba: int


@dataclass(frozen=True, slots=True)
class Query:
    """`RTQ`: the host asks the display to say hello (sent on every connect)."""


@dataclass(frozen=True, slots=True)
class Hello:
    """`RTH`: the display's name and capabilities."""

    name: str
    capabilities: frozenset[Capability]


@dataclass(frozen=True, slots=True)
class Ack:
    """`RTK`: the display received frame `seq`."""

    seq: int


Message = StateFrame | HonbaFrame | Query | Hello | Ack


def checksum(body: bytes) -> int:
    """XOR of every byte (the bytes between `$` and `*`)."""
    return reduce(lambda acc, b: acc ^ b, body, 0)


def _frame(fields: list[str]) -> bytes:
    body = ",".join(fields).encode("ascii")
    return b"$%s*%02X\r\n" % (body, checksum(body))


def encode(message: Message) -> bytes:
    """The exact bytes of one sentence, CR LF included."""
    v = str(VERSION)
    match message:
        case StateFrame(seq, s):
            # Three seats get a sentence type of their own rather than a shorter RTA: a
            # version-1 RTA has exactly four points, so a four-seat display drops an RTC as an
            # unknown type instead of misreading it (docs/serial-protocol.md, "Versions").
            kind = "RTA" if s.seats == 4 else "RTC"
            flags = "".join("1" if r else "0" for r in s.riichi)
            return _frame([kind, v, _seq(seq), WIND_LETTERS[s.round_wind - 1],
                           str(s.hand_number), str(s.honba), str(s.riichi_sticks),
                           str(s.dealer), *map(str, s.points), flags])
        case HonbaFrame(seq, honba):
            if not 0 <= honba <= MAX_COUNTER:
                raise FieldError(f"honba: {honba} is not a count 0-{MAX_COUNTER}")
            return _frame(["RTB", v, _seq(seq), str(min(honba, HONBA_ONLY_MAX))])
        case Query():
            return _frame(["RTQ", v])
        case Hello(name, caps):
            if not _NAME.fullmatch(name):
                raise FieldError(f"name: {name!r} is not 1-32 of A-Z a-z 0-9 space . _ -")
            tokens = sorted(c.value for c in caps)
            return _frame(["RTH", v, name, "+".join(tokens)])
        case Ack(seq):
            return _frame(["RTK", v, _seq(seq)])
    raise TypeError(f"not a protocol message: {message!r}")


def frame_for(state: DisplayState, seq: int, capabilities: frozenset[Capability]) -> Message:
    """The frame a display with these capabilities should get: RTB for honba-only ones."""
    if Capability.HONBA_ONLY in capabilities and Capability.FULL not in capabilities:
        return HonbaFrame(seq, state.honba)
    return StateFrame(seq, state)


def decode(line: bytes | str) -> Message:
    """Parse one line (CR LF optional); raise a `ProtocolError` saying what is wrong.

    A receiver accepts a higher version that appends fields and ignores the extra ones.
    """
    raw = line.encode("ascii", "replace") if isinstance(line, str) else bytes(line)
    raw = raw.rstrip(b"\r\n")
    if len(raw) > MAX_LINE:
        raise FramingError(f"line of {len(raw)} bytes is longer than {MAX_LINE}")
    if not raw.startswith(b"$") or len(raw) < 4 or raw[-3:-2] != b"*":
        raise FramingError(f"not a $...*HH sentence: {raw!r}")
    body, sent = raw[1:-3], raw[-2:]
    try:
        want = int(sent, 16)
    except ValueError:
        raise FramingError(f"checksum {sent!r} is not two hex digits") from None
    if checksum(body) != want:
        raise ChecksumError(f"checksum {sent.decode('ascii', 'replace')} does not match "
                            f"{checksum(body):02X} of {raw!r}")
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        raise FramingError(f"non-ASCII bytes in {raw!r}") from None
    kind, *fields = text.split(",")
    parser = _PARSERS.get(kind)
    if parser is None:
        raise FieldError(f"unknown sentence type {kind!r}")
    n_fields = _FIELD_COUNTS[kind]
    if not fields:
        raise FieldError(f"{kind}: missing the version field")
    version = _int(fields[0], kind, "version", 1, 999)
    if len(fields) < n_fields or (version == VERSION and len(fields) != n_fields):
        raise FieldError(f"{kind}: {len(fields)} fields, version {version} has {n_fields}")
    return parser(fields[1:n_fields])


def _seq(seq: int) -> str:
    if not 0 <= seq < SEQ_MODULUS:
        raise FieldError(f"seq: {seq} is not 0-{SEQ_MODULUS - 1}")
    return str(seq)


def _int(text: str, kind: str, field: str, low: int, high: int) -> int:
    if not re.fullmatch(r"-?[0-9]{1,8}", text) or not low <= int(text) <= high:
        raise FieldError(f"{kind}: {field} {text!r} is not a whole number {low} to {high}")
    return int(text)


def _state(f: list[str], kind: str = "RTA", seats: int = 4) -> StateFrame:
    """`RTA` (four seats) or `RTC` (three): the same fields, one point and one flag a seat."""
    seq = _int(f[0], kind, "seq", 0, SEQ_MODULUS - 1)
    if f[1] not in tuple(WIND_LETTERS):
        raise FieldError(f"{kind}: round wind {f[1]!r} is not one of E S W N")
    flags = f[6 + seats]
    if not re.fullmatch(f"[01]{{{seats}}}", flags):
        count = {3: "three", 4: "four"}[seats]
        raise FieldError(f"{kind}: riichi flags {flags!r} are not {count} 0/1 digits")
    names = ("hand", "honba", "sticks", "dealer", *(f"points{i}" for i in range(seats)))
    ints = [_int(x, kind, name, -99_999_999, 99_999_999)
            for x, name in zip(f[2:6 + seats], names, strict=True)]
    try:
        state = DisplayState(
            round_wind=WIND_LETTERS.index(f[1]) + 1, hand_number=ints[0], honba=ints[1],
            riichi_sticks=ints[2], dealer=ints[3], points=tuple(ints[4:]),
            riichi=tuple(c == "1" for c in flags))
    except ValueError as e:
        raise FieldError(f"{kind}: {e}") from None
    return StateFrame(seq, state)


def _honba(f: list[str]) -> HonbaFrame:
    return HonbaFrame(_int(f[0], "RTB", "seq", 0, SEQ_MODULUS - 1),
                      _int(f[1], "RTB", "honba", 0, HONBA_ONLY_MAX))


def _hello(f: list[str]) -> Hello:
    if not _NAME.fullmatch(f[0]):
        raise FieldError(f"RTH: name {f[0]!r} is not 1-32 of A-Z a-z 0-9 space . _ -")
    known = {c.value: c for c in Capability}
    # Unknown capabilities come from newer displays; they are ignored, not an error.
    caps = frozenset(known[t] for t in f[1].split("+") if t in known)
    return Hello(f[0], caps)


_PARSERS: dict[str, Callable[[list[str]], Message]] = {
    "RTA": _state,
    "RTC": lambda f: _state(f, "RTC", 3),
    "RTB": _honba,
    "RTQ": lambda f: Query(),
    "RTH": _hello,
    "RTK": lambda f: Ack(_int(f[0], "RTK", "seq", 0, SEQ_MODULUS - 1)),
}
# Fields after the sentence type, version included.
_FIELD_COUNTS = {"RTA": 12, "RTC": 11, "RTB": 3, "RTQ": 1, "RTH": 3, "RTK": 2}


class LineReader:
    """Splits a byte stream into candidate sentences.

    A `$` always starts a new sentence, so a frame cut short by a write timeout or line noise
    costs only that frame: the text before the last `$` of a line is dropped.
    """

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return every complete line (without CR LF) that starts with `$`."""
        self._buf += data
        lines = []
        while (end := self._buf.find(b"\n")) >= 0:
            line = bytes(self._buf[:end]).rstrip(b"\r")
            del self._buf[: end + 1]
            start = line.rfind(b"$")
            if start >= 0:
                lines.append(line[start:])
        if len(self._buf) > MAX_LINE:  # no newline in sight: keep only a possible sentence start
            start = self._buf.rfind(b"$")
            keep = self._buf[start:] if start >= 0 else b""
            self._buf = bytearray(keep[-MAX_LINE:] if len(keep) <= MAX_LINE else b"")
        return lines
