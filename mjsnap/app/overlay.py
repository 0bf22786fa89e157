"""The photo with every detection drawn on it: box, tile number, class and confidence; doubtful tiles in red.

The Score page shows the drawn photo at the column's width (``st.image(..., width="stretch")`` in the centred
layout): 358 CSS px on a 390 px wide phone, about 704 on a desktop. Labels are sized for the phone, the narrowest
case: their digits come out at least ``MIN_TEXT_CSS_PX`` tall there, whatever the photo's size (a desktop shows
them about twice as large, the same share of the photo). Where tiles are packed tightly the labels are shortened
(``#n class conf%`` -> ``#n class`` -> ``n``; a doubtful tile keeps its confidence till the last) and placed above,
below, a row further out, beside or inside their box so that they cover neither one another nor, where it can be
helped, other tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from mjsnap.app.draft import DraftTile

DISPLAY_MAX_SIDE = 1280  # a phone screen never shows more; drawing on the full photo would only cost time
PHONE_COLUMN_CSS_PX = 358  # the photo's width on a 390 px phone: measured in tests/test_browser.py's screenshot
MIN_TEXT_CSS_PX = 11  # height of a label's digits on that phone, in CSS px
MIN_DRAW_WIDTH = 2 * PHONE_COLUMN_CSS_PX  # small photos are drawn this wide so their labels stay sharp
LOW_CONFIDENCE = 0.5
PLACE_COLOURS = {
    "hand": (40, 170, 80),
    "win": (240, 170, 0),
    "meld": (40, 110, 230),
    "aside": (150, 150, 150),
}
LOW_COLOUR = (230, 30, 30)

Rect = tuple[float, float, float, float]  # x1, y1, x2, y2 in display pixels
_DIGITS = "#0123456789"


def is_low_confidence(tile: DraftTile, threshold: float = LOW_CONFIDENCE) -> bool:
    """A detected tile the model was unsure of (tiles a person added or corrected are not doubtful)."""
    return tile.conf is not None and tile.conf < threshold and tile.kind == tile.detected


@dataclass(frozen=True)
class LabelStyle:
    """The label font for one drawing width, and the labels' padding (display pixels)."""

    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    digit_top: int  # ink extent of the digits, relative to the text origin
    digit_bottom: int
    pad_x: int
    pad_y: int


def _digit_ink_height(font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> int:
    """How many pixel rows a "1" (a digit with neither the overshoot of a 0 nor a descender) blackens at least half,
    drawn: hinting and anti-aliasing make it a pixel or two less than the font's box for the digits."""
    left, top, right, bottom = font.getbbox("1")
    canvas = Image.new("L", (int(right - left) + 4, int(bottom - top) + 4))
    ImageDraw.Draw(canvas).text((2 - left, 2 - top), "1", fill=255, font=font)
    rows = np.nonzero((np.asarray(canvas) >= 128).any(axis=1))[0]
    return int(rows.max() - rows.min() + 1) if len(rows) else 0


@lru_cache(maxsize=64)
def label_style(display_width: int) -> LabelStyle:
    """The font whose digits, on a photo ``display_width`` pixels wide shown PHONE_COLUMN_CSS_PX wide, are at least
    MIN_TEXT_CSS_PX tall: measured on the digits as drawn, not taken from the font size."""
    needed = MIN_TEXT_CSS_PX * display_width / PHONE_COLUMN_CSS_PX
    size = max(8, int(needed / 0.72))
    font = ImageFont.load_default(size=size)
    # (a Pillow without FreeType has one bitmap font, of one size)
    while _digit_ink_height(font) < needed and isinstance(font, ImageFont.FreeTypeFont):
        size += 1
        font = ImageFont.load_default(size=size)
    _, top, _, bottom = font.getbbox(_DIGITS)
    height = bottom - top
    return LabelStyle(font, int(top), int(bottom), max(2, round(height * 0.25)), max(1, round(height * 0.15)))


@lru_cache(maxsize=4096)
def measure(display_width: int, text: str) -> tuple[int, int, int, int]:
    """The label of ``text`` on a drawing ``display_width`` wide: its width and height, and the ink's left and top
    relative to the text origin (a label is as tall as the digits, or more where its text reaches further)."""
    style = label_style(display_width)
    left, top, right, bottom = style.font.getbbox(text)
    top, bottom = min(int(top), style.digit_top), max(int(bottom), style.digit_bottom)
    return int(right - left) + 2 * style.pad_x, bottom - top + 2 * style.pad_y, int(left), top


def label_texts(number: int, tile: DraftTile, low: bool) -> tuple[str, ...]:
    """What a label may say, from the longest to the shortest: ``#n class conf%``, ``#n class``, ``n``; a doubtful
    tile keeps its confidence but at the last, where its red alone tells it (n: the tile's number in the hand
    view, where its button says n)."""
    conf = "" if tile.conf is None or tile.kind != tile.detected else f" {tile.conf:.0%}"
    doubt = conf if low else ""
    return f"#{number} {tile.name}{conf}", f"#{number} {tile.name}{doubt}", f"{number}{doubt}", str(number)


# Where a label may go around its box, and what each place costs, as a share of the label's area (covering another
# tile costs its area): right above or below the box, centred, then aligned with one of its sides; a row further
# out; beside the box, level with its middle; inside the box, over the tile's own face.
_SLOT_COSTS = np.array([0.0, 0.1, 0.1, 0.0, 0.1, 0.1, 0.6, 0.7, 0.7, 0.6, 0.7, 0.7, 0.4, 0.4, 0.8, 0.8])
_ACCEPTED = 0.25  # a level is taken when no label costs more than this (an aligned slot covering a little)


def _slots(boxes: np.ndarray, sizes: np.ndarray, inset: float) -> tuple[np.ndarray, np.ndarray]:
    """The x and y (n x len(_SLOT_COSTS)) of each box's label at each of the places _SLOT_COSTS prices."""
    x1, y1, x2, y2 = (boxes[:, k : k + 1] for k in range(4))
    w, h = sizes[:, :1], sizes[:, 1:]
    centre, left, right = (x1 + x2 - w) / 2, x1, x2 - w
    middle = (y1 + y2 - h) / 2
    xs = [centre, left, right] * 4 + [x1 - w, x2, centre, centre]
    rows = [y1 - h, y2, y1 - 2 * h, y2 + h]
    ys = [row for row in rows for _ in range(3)] + [middle, middle, y1 + inset, y2 - inset - h]
    return np.hstack(xs), np.hstack(ys)


def _place_level(
    boxes: np.ndarray, sizes: np.ndarray, image_size: tuple[int, int], inset: float, gap: float
) -> tuple[list[Rect], float, float]:
    """Greedy, left to right: each label takes its cheapest place that keeps ``gap`` away from every label placed
    before it, else the place that overlaps them least. Returns the rectangles (in ``boxes``' order), the area of
    labels on labels and the worst label's cost as a share of its area."""
    width, height = image_size
    n = len(boxes)
    w, h = sizes[:, :1], sizes[:, 1:]
    xs, ys = _slots(boxes, sizes, inset)
    xs = np.clip(xs, 0, np.maximum(width - w, 0))
    fits = (ys >= 0) & (ys + h <= height)
    some = fits.any(axis=1, keepdims=True)
    ys = np.where(some, ys, np.clip(ys, 0, np.maximum(height - h, 0)))  # a label taller than the photo: at its top
    # every place's cost: its rank, and the share of the label that covers other tiles (all places at once)
    rx1, ry1, rx2, ry2 = xs[:, :, None], ys[:, :, None], (xs + w)[:, :, None], (ys + h)[:, :, None]
    bx1, by1, bx2, by2 = (boxes[None, None, :, k] for k in range(4))
    covered = np.clip(np.minimum(rx2, bx2) - np.maximum(rx1, bx1), 0, None)
    covered = covered * np.clip(np.minimum(ry2, by2) - np.maximum(ry1, by1), 0, None)
    covered[np.arange(n), :, np.arange(n)] = 0  # a label on its own tile is priced by its place
    cost = covered.sum(axis=2) / (w * h) + _SLOT_COSTS
    cost = np.where(fits | ~some, cost, np.inf)
    ranked = np.argsort(cost, axis=1, kind="stable").tolist()
    xs_l, ys_l, w_l, h_l, cost_l = xs.tolist(), ys.tolist(), w[:, 0].tolist(), h[:, 0].tolist(), cost.tolist()
    centres = ((boxes[:, 0] + boxes[:, 2]) / 2).tolist()
    order = sorted(range(n), key=lambda i: (centres[i], boxes[i, 1]))
    placed: list[Rect] = [(0.0, 0.0, 0.0, 0.0)] * n
    taken: list[Rect] = []  # placed labels, grown by gap
    total_overlap = worst = 0.0
    for i in order:
        best, best_key = ranked[i][0], (np.inf, np.inf)
        for slot in ranked[i]:
            if cost_l[i][slot] == np.inf:
                break
            x, y = xs_l[i][slot], ys_l[i][slot]
            x2, y2 = x + w_l[i], y + h_l[i]
            overlap = 0.0
            for tx1, ty1, tx2, ty2 in taken:
                if x < tx2 and tx1 < x2 and y < ty2 and ty1 < y2:
                    overlap += (min(x2, tx2) - max(x, tx1)) * (min(y2, ty2) - max(y, ty1))
            key = (overlap, cost_l[i][slot])
            if key < best_key:
                best, best_key = slot, key
            if overlap == 0:  # places are tried cheapest first: the first free one is the best
                break
        x, y = xs_l[i][best], ys_l[i][best]
        placed[i] = (x, y, x + w_l[i], y + h_l[i])
        taken.append((x - gap, y - gap, x + w_l[i] + gap, y + h_l[i] + gap))
        total_overlap += best_key[0]
        worst = max(worst, best_key[1])
    return placed, total_overlap, worst


def place_labels(
    boxes: Sequence[Rect],
    texts: Sequence[Sequence[str]],
    size_of: Callable[[str], tuple[float, float]],
    image_size: tuple[int, int],
    inset: float = 0,
    gap: float = 0,
) -> list[tuple[str, Rect]]:
    """Each box's label: its text (one of ``texts[i]``, longest first) and rectangle, in display pixels.

    The labels say as much as the longest level of texts at which no label comes within ``gap`` of another and each
    sits next to its box, covering little of other tiles; where no level manages that, the level whose labels
    overlap least, then cost least.
    """
    if not boxes:
        return []
    array = np.asarray(boxes, dtype=float)
    best: tuple[tuple[float, float, int], list[tuple[str, Rect]]] | None = None
    previous: tuple[str, ...] | None = None
    for level in range(max(len(t) for t in texts)):
        chosen = tuple(t[min(level, len(t) - 1)] for t in texts)
        if chosen == previous:
            continue
        previous = chosen
        sizes = np.array([size_of(text) for text in chosen], dtype=float)
        rects, overlap, worst = _place_level(array, sizes, image_size, inset, gap)
        result = list(zip(chosen, rects, strict=True))
        if overlap == 0 and worst <= _ACCEPTED:
            return result
        key = (overlap, worst, level)
        if best is None or key < best[0]:
            best = (key, result)
    assert best is not None
    return best[1]


def _luminance(colour: tuple[int, int, int]) -> float:
    channels = [c / 255 for c in colour]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def text_colour(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever contrasts more with a label's fill (white on the win tiles' yellow is unreadable)."""
    lum = _luminance(fill)
    return (0, 0, 0) if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else (255, 255, 255)


@dataclass(frozen=True)
class Label:
    """One tile's label as drawn."""

    index: int  # into the tiles given
    text: str
    rect: tuple[int, int, int, int]  # the filled rectangle, display pixels, x2 and y2 excluded
    colour: tuple[int, int, int]


def display_factor(size: tuple[int, int], max_side: int = DISPLAY_MAX_SIDE) -> float:
    """Working pixels -> drawn pixels: at most ``max_side`` on the longer side, at least MIN_DRAW_WIDTH wide."""
    width, height = size
    return min(max_side / max(width, height), max(1.0, MIN_DRAW_WIDTH / width))


def layout(
    image_size: tuple[int, int],
    scale: tuple[float, float],
    tiles: Sequence[DraftTile],
    threshold: float = LOW_CONFIDENCE,
) -> tuple[list[tuple[int, Rect, tuple[int, int, int], bool]], list[Label]]:
    """The drawn boxes (tile index, rectangle, colour, doubtful) and labels on an ``image_size`` drawing, with
    ``scale`` original-photo pixels -> drawn pixels."""
    sx, sy = scale
    boxes = []
    for index, tile in enumerate(tiles):
        if tile.box is None or tile.place == "deleted":
            continue
        x1, y1, x2, y2 = tile.box
        low = is_low_confidence(tile, threshold)
        colour = LOW_COLOUR if low else PLACE_COLOURS.get(tile.place, PLACE_COLOURS["aside"])
        boxes.append((index, (x1 * sx, y1 * sy, x2 * sx, y2 * sy), colour, low))
    texts = [label_texts(index + 1, tiles[index], low) for index, _, _, low in boxes]
    placed = place_labels(
        [box for _, box, _, _ in boxes],
        texts,
        lambda text: measure(image_size[0], text)[:2],
        image_size,
        inset=2 * _line_width(image_size),
        gap=label_style(image_size[0]).pad_x,
    )
    labels = [
        Label(index, text, tuple(round(v) for v in rect), colour)  # type: ignore[arg-type]
        for (index, _, colour, _), (text, rect) in zip(boxes, placed, strict=True)
    ]
    return boxes, labels


def _line_width(image_size: tuple[int, int]) -> int:
    return max(2, max(image_size) // 400)


def draw_detections(
    pixels: np.ndarray,
    to_original: tuple[float, float],
    tiles: Sequence[DraftTile],
    threshold: float = LOW_CONFIDENCE,
    max_side: int = DISPLAY_MAX_SIDE,
) -> Image.Image:
    """``pixels`` (working-size RGB) reduced to ``max_side`` with the tiles' boxes (original-photo pixels) drawn.

    The label of each box is ``#n class conf%`` with n the tile's number in the hand view, shortened where tiles
    are packed tightly; deleted tiles are not drawn, tiles a person corrected show their new class.
    """
    image = Image.fromarray(pixels)
    factor = display_factor(image.size, max_side)
    if factor != 1.0:
        image = image.resize((max(round(image.width * factor), 1), max(round(image.height * factor), 1)))
    boxes, labels = layout(image.size, (factor / to_original[0], factor / to_original[1]), tiles, threshold)
    draw = ImageDraw.Draw(image)
    width = _line_width(image.size)
    for _, box, colour, low in boxes:
        draw.rectangle(box, outline=colour, width=width * 2 if low else width)
    style = label_style(image.width)
    for label in labels:  # after every box, so that no box is drawn over a label
        x1, y1, x2, y2 = label.rect
        draw.rectangle((x1, y1, x2 - 1, y2 - 1), fill=label.colour)
        _, _, left, top = measure(image.width, label.text)
        origin = (x1 + style.pad_x - left, y1 + style.pad_y - top)
        draw.text(origin, label.text, fill=text_colour(label.colour), font=style.font)
    return image
