"""Input from outside, checked before anything else reads it: JSON text and short texts.

JSON is refused before parsing when it is nested deeper than ``MAX_DEPTH`` (the parser
would recurse), and while parsing when a number is out of range; decoded values must
hold valid Unicode. Records (``companion.records.jsonl``), the web API (``web.api.body``)
and the command line read JSON through :func:`loads_checked`.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
import unicodedata
from typing import Any

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted (a record's deepest line needs 3)."""
MAX_INT = 2**53 - 1
"""Largest whole number accepted either way: what every JSON reader keeps exactly (RFC 7493)."""
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: they reorder the rest of a line wherever a name is shown."""

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring, _SHORT.maxlong, _SHORT.maxother = 2, 3, 3, 40, 24, 40
_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]', re.DOTALL)
"""A string (to its closing quote or the end, never backtracking) or a bracket: one pass over the text."""


class JsonTextError(ValueError):
    """JSON text that is refused; the message says why in a few words."""


def loads_checked(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse one JSON text; ``JsonTextError`` if it is invalid, too deep, out of range or not Unicode."""
    if too_deep(text, max_depth):
        raise JsonTextError(f"JSON nested deeper than {max_depth} levels")
    try:
        value = json.loads(text, parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:  # too_deep counts conservatively; this stays a safety net
        raise JsonTextError(f"JSON nested deeper than {max_depth} levels") from None
    problem = value_problem(value, max_depth)
    if problem:
        raise JsonTextError(problem)
    return value


def too_deep(text: str, max_depth: int = MAX_DEPTH) -> bool:
    """Whether brackets outside strings nest deeper than ``max_depth`` (a scan, without parsing)."""
    depth = 0
    for token in _TOKEN.finditer(text):
        if token.group() in ("[", "{"):
            depth += 1
            if depth > max_depth:
                return True
        elif token.group() in ("]", "}"):
            depth -= 1
    return False


def value_problem(value: Any, max_depth: int = MAX_DEPTH) -> str | None:
    """Why a decoded JSON value cannot be kept (too deep, number out of range, not Unicode), or None."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not is_unicode(item):
                return f"a lone surrogate in the text {shown(item)}"
        elif item is None or isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if not -MAX_INT <= item <= MAX_INT:
                return _out_of_range(str(item))
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"a number that is not finite ({item})"
        elif isinstance(item, list | tuple | dict):
            if depth >= max_depth:
                return f"JSON nested deeper than {max_depth} levels"
            if isinstance(item, dict):
                if not all(isinstance(key, str) for key in item):
                    return "an object key that is not text"
                stack.extend((key, depth) for key in item)
                item = item.values()
            stack.extend((member, depth + 1) for member in item)
        else:
            return f"a {type(item).__name__}, which JSON cannot hold"
    return None


def is_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode (no lone surrogates), so it can be written as UTF-8."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def clean_text(value: Any, what: str, max_length: int) -> str:
    """A short text from outside (a name, a title), NFC-normalised; ``ValueError`` says what is wrong."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, not {shown(value)}")
    if not is_unicode(value):
        raise ValueError(f"{what} holds a lone surrogate, which is not Unicode text")
    text = unicodedata.normalize("NFC", value)
    if not text.strip():
        raise ValueError(f"{what} must not be empty")
    if len(text) > max_length:
        raise ValueError(f"{what} is longer than {max_length} characters")
    bad = next((ch for ch in text if unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS), None)
    if bad is not None:
        raise ValueError(f"{what} holds the control character U+{ord(bad):04X}")
    return text


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > len(str(MAX_INT)):
        raise JsonTextError(_out_of_range(text))
    return int(text)


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonTextError(_out_of_range(text))
    return value


def _constant(name: str) -> Any:
    raise JsonTextError(f"{name} is not a JSON number")


def _out_of_range(digits: str) -> str:
    short = digits if len(digits) <= 24 else digits[:20] + "…"
    return f"a number out of range: {short} (at most {MAX_INT} either way)"


def shown(value: Any) -> str:
    """A value for a message: a short repr (about 40 characters at most)."""
    return _SHORT.repr(value)
