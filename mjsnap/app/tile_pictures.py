"""Tile pictures for the hand view and the picker: the project's own drawn faces with a frame that marks state."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import ImageDraw

from vision.tilefaces import render_face

TILE_SIZE = (38, 50)  # (w, h) on screen: 7 tiles and their gaps fit the 358 px of a 390 px phone row
FACE_STYLE = "default"
FRAMES = {
    "plain": None,
    "selected": (30, 100, 230),
    "low": (230, 30, 30),
    "fixed": (40, 170, 80),
    "added": (240, 150, 0),  # added by hand: no box in the photo, its label waits for review
}


@lru_cache(maxsize=512)
def tile_png(kind: int, frame: str = "plain") -> bytes:
    """PNG bytes of tile ``kind`` (0..33 faces, 34 back) with an optional coloured frame (see FRAMES)."""
    image = render_face(kind, FACE_STYLE, TILE_SIZE).convert("RGB")
    colour = FRAMES[frame]
    if colour is not None:
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, image.width - 1, image.height - 1), outline=colour, width=3)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
