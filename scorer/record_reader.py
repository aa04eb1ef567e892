"""Read one JSON line of the hand format, building only the members that `from_record` reads.

The real-wins files carry the expected result, the rules and the source with every hand: more
than half of each line, which `load_json` would build only for `from_record` to drop it.
`read_record` walks the top-level object itself: a member `from_record` reads is parsed by json's
own scanner (so its value is exactly json's), any other member is only checked to be JSON and
skipped. Whatever is out of the ordinary (an escape in a key or a skipped text, a skipped number
with an exponent, a line nested deeper than `load_json` allows, any error) goes to `load_json`,
so the result, and every error, is `load_json`'s own.

It pays once compiled (tools/compile_scorer.py): as pure Python the character loop is slower
than json's C parser, so there `READ` is `load_json` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from scorer.limits import JSON_MAX_BYTES, JSON_MAX_DEPTH, SCAN_VALUE, load_json
from scorer.records_io import FIELDS


def read_record(line: str) -> Any:
    """`load_json(line)` less the members of the top-level object that `from_record` ignores."""
    if (len(line) > JSON_MAX_BYTES
            or line.count("[") + line.count("{") > JSON_MAX_DEPTH):  # (bounds its nesting)
        return load_json(line)
    record: dict[str, Any] = {}
    n = len(line)
    i = _space(line, 0)
    if i >= n or ord(line[i]) != 123:  # {
        return load_json(line)
    i = _space(line, i + 1)
    if i < n and ord(line[i]) == 125:  # }
        return record if _space(line, i + 1) == n else load_json(line)
    while True:
        if i >= n or ord(line[i]) != 34:  # "
            return load_json(line)
        end = line.find('"', i + 1)
        key = line[i + 1:end]
        if end < 0 or "\\" in key or not key.isprintable():
            return load_json(line)
        i = _space(line, end + 1)
        if i >= n or ord(line[i]) != 58:  # :
            return load_json(line)
        i = _space(line, i + 1)
        if key in FIELDS:
            try:
                record[key], i = SCAN_VALUE(line, i)
            except Exception:  # (StopIteration, json's errors, load_json's hooks): its words
                return load_json(line)
        else:
            i = _skip(line, i)
            if i < 0:
                return load_json(line)
        i = _space(line, i)
        if i >= n:
            return load_json(line)
        c = ord(line[i])
        if c == 125:  # }
            return record if _space(line, i + 1) == n else load_json(line)
        if c != 44:  # ,
            return load_json(line)
        i = _space(line, i + 1)


def _space(s: str, i: int) -> int:
    """The index of the first character at or after `i` that is not JSON whitespace."""
    n = len(s)
    while i < n:
        c = ord(s[i])
        if c != 32 and c != 10 and c != 13 and c != 9:
            return i
        i += 1
    return i


def _skip(s: str, i: int) -> int:
    """The index just after the JSON value at `i`, or -1 where `load_json` must decide."""
    n = len(s)
    if i >= n:
        return -1
    c = ord(s[i])
    if c == 34:  # a text without escapes
        i += 1
        while i < n:
            c = ord(s[i])
            if c == 34:
                return i + 1
            if c == 92 or c < 32:
                return -1
            i += 1
        return -1
    if c == 123 or c == 91:  # { or [
        close = 125 if c == 123 else 93
        i = _space(s, i + 1)
        if i < n and ord(s[i]) == close:
            return i + 1
        while True:
            if c == 123:  # a key (a text) and a colon first
                if i >= n or ord(s[i]) != 34:
                    return -1
                i = _space(s, _skip(s, i))
                if i >= n or ord(s[i]) != 58:
                    return -1
                i = _space(s, i + 1)
            i = _skip(s, i)
            if i < 0:
                return -1
            i = _space(s, i)
            if i >= n:
                return -1
            d = ord(s[i])
            if d == close:
                return i + 1
            if d != 44:
                return -1
            i = _space(s, i + 1)
    if c == 45 or 48 <= c <= 57:  # a number: -?(0|[1-9][0-9]*)(.[0-9]+)?, no exponent
        start = i + 1 if c == 45 else i
        i = _digits(s, start)
        if i == start or (ord(s[start]) == 48 and i - start > 1) or i - start > 300:
            return -1  # (at most 300 digits: no overflow to infinity, no over-long int)
        if i < n and ord(s[i]) == 46:
            fraction = i + 1
            i = _digits(s, fraction)
            if i == fraction:
                return -1
        if i < n and ord(s[i]) in (69, 101):  # e, E
            return -1
        return i
    for word in _WORDS:
        if s.startswith(word, i):
            return i + len(word)
    return -1


def _digits(s: str, i: int) -> int:
    n = len(s)
    while i < n and 48 <= ord(s[i]) <= 57:
        i += 1
    return i


_WORDS: Final = ("true", "false", "null")

#: How the batch path reads a line: `read_record` when compiled, else `load_json`.
READ: Final[Callable[[str], Any]] = read_record if not __file__.endswith(".py") else load_json
