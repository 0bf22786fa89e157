"""The photo with every detection drawn on it: box, tile number, class and confidence; doubtful tiles in red."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from mjsnap.app.draft import DraftTile

DISPLAY_MAX_SIDE = 1280  # a phone screen never shows more; drawing on the full photo would only cost time
LOW_CONFIDENCE = 0.5
PLACE_COLOURS = {
    "hand": (40, 170, 80),
    "win": (240, 170, 0),
    "meld": (40, 110, 230),
    "aside": (150, 150, 150),
}
LOW_COLOUR = (230, 30, 30)


def is_low_confidence(tile: DraftTile, threshold: float = LOW_CONFIDENCE) -> bool:
    """A detected tile the model was unsure of (tiles a person added or corrected are not doubtful)."""
    return tile.conf is not None and tile.conf < threshold and tile.kind == tile.detected


def draw_detections(
    pixels: np.ndarray,
    to_original: tuple[float, float],
    tiles: Sequence[DraftTile],
    threshold: float = LOW_CONFIDENCE,
    max_side: int = DISPLAY_MAX_SIDE,
) -> Image.Image:
    """``pixels`` (working-size RGB) reduced to ``max_side`` with the tiles' boxes (original-photo pixels) drawn.

    The label of each box is ``#n class conf%`` with n the tile's number in the hand view; deleted tiles are not
    drawn, tiles a person corrected show their new class.
    """
    image = Image.fromarray(pixels)
    factor = min(1.0, max_side / max(image.size))
    if factor < 1.0:
        image = image.resize((max(round(image.width * factor), 1), max(round(image.height * factor), 1)))
    sx, sy = factor / to_original[0], factor / to_original[1]
    draw = ImageDraw.Draw(image)
    side = max(image.size)
    font = ImageFont.load_default(size=max(12, side // 70))
    width = max(2, side // 400)
    for number, tile in enumerate(tiles, start=1):
        if tile.box is None or tile.place == "deleted":
            continue
        x1, y1, x2, y2 = tile.box
        box = (x1 * sx, y1 * sy, x2 * sx, y2 * sy)
        low = is_low_confidence(tile, threshold)
        colour = LOW_COLOUR if low else PLACE_COLOURS.get(tile.place, PLACE_COLOURS["aside"])
        draw.rectangle(box, outline=colour, width=width * 2 if low else width)
        conf = "" if tile.conf is None or tile.kind != tile.detected else f" {tile.conf:.0%}"
        text = f"#{number} {tile.name}{conf}"
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
        label_y = box[1] - (bottom - top) - 4 if box[1] >= (bottom - top) + 4 else box[3]
        draw.rectangle((box[0], label_y, box[0] + right - left + 4, label_y + bottom - top + 4), fill=colour)
        draw.text((box[0] + 2 - left, label_y + 2 - top), text, fill=(255, 255, 255), font=font)
    return image
