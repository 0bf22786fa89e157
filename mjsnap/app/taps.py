"""A photo that can be tapped (the Score page's, the label page's): where a tap lands, in the photo's own pixels,
and which box it means. streamlit-image-coordinates reports a tap in the pixels of the picture as shown, with the
picture's shown size; the picture may be of part of the photo (the label page shows the part with the tiles)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial

import streamlit as st
from PIL import Image
from streamlit_image_coordinates import streamlit_image_coordinates

Region = tuple[float, float, float, float]  # x1, y1, x2, y2 in photo pixels


def tappable_photo(picture: Image.Image, key: str, region: Region, on_tap: Callable[[float, float], None]) -> None:
    """``picture`` (of the photo's ``region``) at the column's width; a tap calls ``on_tap(x, y)`` in photo pixels
    before the page is drawn again."""
    streamlit_image_coordinates(picture, width="stretch", key=key, image_format="JPEG", jpeg_quality=90,
                                on_click=partial(_tapped, key, region, on_tap))


def _tapped(key: str, region: Region, on_tap: Callable[[float, float], None]) -> None:
    tap = st.session_state.get(key)
    if not tap or not tap.get("width") or not tap.get("height"):
        return
    left, top, right, bottom = region
    on_tap(left + tap["x"] * (right - left) / tap["width"], top + tap["y"] * (bottom - top) / tap["height"])


def smallest_box_at(boxes: Iterable[Sequence[float] | None], x: float, y: float) -> int | None:
    """Index of the smallest of ``boxes`` (x1, y1, x2, y2; None for one not drawn) holding the point: a tile's box
    inside a larger stray one is the tile meant. None when no box holds it."""
    holding = [((b[2] - b[0]) * (b[3] - b[1]), i) for i, b in enumerate(boxes)
               if b is not None and b[0] <= x <= b[2] and b[1] <= y <= b[3]]
    return min(holding)[1] if holding else None
