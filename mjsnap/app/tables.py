"""Tables that fit a phone. Streamlit wraps a cell's text only in rows taller than 4rem: at one line a row, a
table with a long column (a breakdown's reasons) ran past a phone's screen, to be read by scrolling it sideways."""

from __future__ import annotations

import streamlit as st

WRAPPED_ROW_HEIGHT = 76  # px: three lines of a table's text


def wrapped(widths: dict[str, int]) -> dict:
    """``st.dataframe``'s settings for a table whose columns get these widths (px, by heading) and whose rows hold
    up to three lines of wrapped text."""
    return {"row_height": WRAPPED_ROW_HEIGHT, "height": "content",
            "column_config": {name: st.column_config.Column(width=width) for name, width in widths.items()}}
