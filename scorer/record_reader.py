"""Read one JSON line of the hand format, building only the members that `from_record` reads.

The real-wins files carry the expected result, the rules and the source after every hand's own
members: more than half of each line, which `load_json` would build only for `from_record` to
drop it. `read_record` splits the line at the comma before the first of those members, only
checks that what follows is members `from_record` ignores closing the object (a character walk
that builds nothing), and has json's own decoder, with `load_json`'s hooks, build what comes
before, closed with `}`. The split is sound because that text parses as a non-empty object only
if the comma is a top-level one after a complete member (one `}` closes one level; a text cut
inside a string leaves the string open). Whatever is out of the ordinary (an escape in a key or
a skipped text, a number with an exponent, a member `from_record` reads after the split, any
error) goes to `load_json`, so the result, and every error, is `load_json`'s own
(tests/scorer/test_record_reader.py holds it to that).

It pays once compiled (tools/compile_scorer.py): as pure Python the character loop is slower
than json's C parser, so there `READ` is `load_json` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from scorer.limits import DECODE, JSON_MAX_BYTES, JSON_MAX_DEPTH, load_json
from scorer.records_io import FIELDS, IGNORED


def read_record(line: str) -> Any:
    """`load_json(line)` less the members of the top-level object that `from_record` ignores,
    where they come last."""
    split = _split(line)
    if split < 0 or len(line) > JSON_MAX_BYTES:
        return load_json(line)
    n = len(line)
    i = split
    while True:  # at a comma, then a member from_record ignores; or at the closing brace
        c = ord(line[i])
        if c == 125:  # }
            break
        if c != 44:  # ,
            return load_json(line)
        i = _space(line, i + 1)
        if i >= n or ord(line[i]) != 34:  # "
            return load_json(line)
        end = line.find('"', i + 1)
        if end < 0:
            return load_json(line)
        key = line[i + 1:end]
        if key in FIELDS or "\\" in key or not key.isprintable():
            return load_json(line)  # (a member read after the split, or an escape: json decides)
        i = _space(line, end + 1)
        if i >= n or ord(line[i]) != 58:  # :
            return load_json(line)
        # (Nested inside the top-level object: at most JSON_MAX_DEPTH - 1 levels more.)
        i = _skip(line, _space(line, i + 1), JSON_MAX_DEPTH - 1)
        if i < 0:
            return load_json(line)
        i = _space(line, i)
        if i >= n:
            return load_json(line)
    head = line[:split]
    if _space(line, i + 1) != n or head.count("[") + head.count("{") > JSON_MAX_DEPTH:
        return load_json(line)
    try:
        record = DECODE(head + "}")
    except Exception:  # (load_json's hooks, Python's limit on digits): load_json's words
        return load_json(line)
    if type(record) is not dict or not record:
        return load_json(line)  # (nothing before the split: its comma is out of place)
    return record


def _split(line: str) -> int:
    """The index of the comma before the first key the format ignores, if the line has one."""
    at = len(line)
    for key in _IGNORED_KEYS:
        found = line.find(key, 0, at)  # (only before the earliest so far)
        if found >= 0:
            at = found
    if at == len(line):
        return -1
    at -= 1
    while at >= 0:
        c = ord(line[at])
        if c == 44:
            return at
        if c != 32 and c != 10 and c != 13 and c != 9:
            return -1
        at -= 1
    return -1


def _space(s: str, i: int) -> int:
    """The index of the first character at or after `i` that is not JSON whitespace."""
    n = len(s)
    while i < n:
        c = ord(s[i])
        if c != 32 and c != 10 and c != 13 and c != 9:
            return i
        i += 1
    return i


def _skip(s: str, i: int, depth: int) -> int:
    """The index just after the JSON value at `i`, nested at most `depth` levels, or -1 where
    `load_json` must decide."""
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
        if depth == 0:
            return -1
        close = 125 if c == 123 else 93
        i = _space(s, i + 1)
        if i < n and ord(s[i]) == close:
            return i + 1
        while True:
            if c == 123:  # a key (a text) and a colon first
                if i >= n or ord(s[i]) != 34:
                    return -1
                i = _skip(s, i, 0)
                if i < 0:
                    return -1
                i = _space(s, i)
                if i >= n or ord(s[i]) != 58:
                    return -1
                i = _space(s, i + 1)
            i = _skip(s, i, depth - 1)
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
    word = "true" if c == 116 else "false" if c == 102 else "null" if c == 110 else ""
    return i + len(word) if word and s.startswith(word, i) else -1


def _digits(s: str, i: int) -> int:
    n = len(s)
    while i < n and 48 <= ord(s[i]) <= 57:
        i += 1
    return i


#: The members the hand format ignores (`scorer.records_io`), as keys: the real files end with
#: them. A line without them, or with them elsewhere, is `load_json`'s.
_IGNORED_KEYS: Final = tuple(f'"{key}"' for key in IGNORED)

#: How the batch path reads a line: `read_record` when compiled, else `load_json`.
READ: Final[Callable[[str], Any]] = read_record if not __file__.endswith(".py") else load_json
