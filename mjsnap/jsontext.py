"""JSON text that is always valid UTF-8, for output that carries file names."""

from __future__ import annotations

import json
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
