"""Tile pictures for the app and reports: `render_face(kind, style, size)` draws one tile face from mjsnap's own
drawn sets (committed fonts, shapes drawn in code), so it works on any machine without ../shared.

Kinds are class ids 0..35 in CLASS_NAMES order (34 faces, 34 = face-down `back`, 35 = `flower`).
"""

from __future__ import annotations

import cv2
from PIL import Image

from scoring.tiles import CLASS_NAMES
from vision.synth.drawn import BASE_SIZE, SCHEMES, STYLE_NAMES, draw_face

STYLES = STYLE_NAMES


def render_face(kind: int, style: str = "default", size: tuple[int, int] = BASE_SIZE) -> Image.Image:
    """RGB picture of one tile face, `size` = (width, height) in pixels."""
    if not isinstance(kind, int) or not 0 <= kind < len(CLASS_NAMES):
        raise ValueError(f"tile kind {kind!r} is out of range 0..{len(CLASS_NAMES) - 1}")
    if style not in SCHEMES:
        raise ValueError(f"unknown tile style {style!r}; use one of {', '.join(STYLES)}")
    w, h = size
    if w < 4 or h < 4:
        raise ValueError(f"size {size} is too small (at least 4 x 4 pixels)")
    face = draw_face(kind, SCHEMES[style])
    interpolation = cv2.INTER_AREA if w <= BASE_SIZE[0] else cv2.INTER_CUBIC
    return Image.fromarray(cv2.resize(face, (int(w), int(h)), interpolation=interpolation))
