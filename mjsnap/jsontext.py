"""JSON text that is always valid UTF-8, for output that carries file names; and JSON read from files others wrote,
whose every fault is a ValueError."""

from __future__ import annotations

import json
import math
from typing import Any


def dumps(value: Any, **kwargs: Any) -> str:
    """``json.dumps`` that keeps Chinese and other text readable, except where a string holds a file name's
    undecodable bytes (a GBK name from a Windows zip, which Python keeps as lone surrogates): then the whole text is
    written with ASCII escapes, so it stays valid UTF-8 and reads back to the very same name."""
    text = json.dumps(value, ensure_ascii=False, **kwargs)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, **kwargs)
    return text


def loads(text: str | bytes) -> Any:
    """``json.loads`` for a file someone else wrote (cases, sidecars, exports, results): every way the text can be
    no JSON is a ValueError, so a caller's one ``except ValueError`` turns it into a one-line message. Beyond
    json's own errors: nesting deeper than Python's recursion limit (RecursionError), and NaN, Infinity and numbers
    too large for a float, which JSON has not and which would be echoed back as output that is no JSON either."""
    try:
        return json.loads(text, parse_constant=_not_json_number, parse_float=_finite_float)
    except RecursionError:
        raise ValueError("nested too deeply to read") from None


def _not_json_number(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"{text} is too large a number")
    return value
