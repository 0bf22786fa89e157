"""The Score page's photo overlay is readable on a phone: labels tall enough once the browser shrinks the photo to a
phone's column, not on top of one another where tiles are packed tightly, and doubtful tiles still told apart by
colour. The phone numbers are written out here rather than imported, so that a change to them fails."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from mjsnap.app.draft import DraftTile
from mjsnap.app.overlay import (
    LOW_COLOUR,
    PLACE_COLOURS,
    display_factor,
    draw_detections,
    layout,
    place_labels,
    text_colour,
)

PHONE_COLUMN = 358  # CSS px: the photo's width on a 390 px phone (tests/test_browser.py's screenshot); 360 in round
MIN_TEXT = 11  # CSS px: the least height of a label's digits there
BACKGROUND = 120
WORKING_MAX_SIDE = 1600  # vision.imageio: the app draws on the photo reduced to this


def _photo(width: int, height: int) -> tuple[np.ndarray, tuple[float, float]]:
    """Working pixels (a plain grey photo reduced as the app reads it) and the factor back to the original."""
    factor = min(1.0, WORKING_MAX_SIDE / max(width, height))
    w, h = max(round(width * factor), 1), max(round(height * factor), 1)
    return np.full((h, w, 3), BACKGROUND, dtype=np.uint8), (width / w, height / h)


def _erode(mask: np.ndarray, r: int) -> np.ndarray:
    padded = np.pad(mask, r, constant_values=False)
    rows = sliding_window_view(padded, 2 * r + 1, axis=0).all(axis=-1)
    return sliding_window_view(rows, 2 * r + 1, axis=1).all(axis=-1)


def _label_ink_height(image, fill) -> tuple[int, tuple[int, int, int, int]]:
    """The height in drawn pixels of the text on the one label filled with ``fill``, found in the pixels alone: the
    solid ``fill`` area (the box's thin outline eroded away), and in it the rows that hold ink: pixels nearer the
    text's colour (black or white, whichever the label holds) than the fill, anti-aliased edges counted at half."""
    array = np.asarray(image).astype(int)
    solid = np.all(array == fill, axis=2)
    r = 2  # a 5 x 5 block does not fit in a sure tile's outline (at most 3 px at 1280 px), it does in a label's gaps
    ys, xs = np.nonzero(_erode(solid, r))
    assert len(ys), "no label found"
    x1, y1, x2, y2 = xs.min() - r, ys.min() - r, xs.max() + r + 1, ys.max() + r + 1
    inside = array[y1:y2, x1:x2]
    to_fill = np.abs(inside - np.asarray(fill)).sum(axis=2)
    inks = [np.abs(inside - text).sum(axis=2) < to_fill for text in ((0, 0, 0), (255, 255, 255))]
    ink = max(inks, key=lambda mask: mask.sum())
    rows = np.nonzero(ink.any(axis=1))[0]
    assert len(rows), "a label without text"
    return int(rows.max() - rows.min() + 1), (int(x1), int(y1), int(x2), int(y2))


@pytest.mark.parametrize(
    ("width", "height"),
    [
        (4000, 3000),  # a phone photo held sideways
        (3000, 4000),  # held upright: shown narrower, so its labels must be drawn larger
        (4032, 1908),  # wide
        (1908, 4032),  # tall
        (6000, 1000),  # a panorama
        (1292, 969),  # the app's sample photos
        (300, 200),  # tiny
        (200, 300),
    ],
)
def test_label_digits_are_at_least_11_css_px_on_a_phone(width, height):
    pixels, to_original = _photo(width, height)
    tile = DraftTile(0, "hand", box=(0.45 * width, 0.4 * height, 0.5 * width, 0.55 * height), conf=0.9, detected=3)
    image = draw_detections(pixels, to_original, [tile])  # corrected: its label is "#1 1m", digits' height only
    ink, _ = _label_ink_height(image, PLACE_COLOURS["hand"])
    # the page shows the photo at the column's width whatever its aspect (st.image(width="stretch"))
    for column in (PHONE_COLUMN, 360):
        assert ink * column / image.width >= MIN_TEXT, (image.size, ink)


def test_labels_stay_modest_on_a_desktop():
    """The same photo on a desktop's 704 px column: labels about twice the phone's, not a banner."""
    pixels, to_original = _photo(4000, 3000)
    tile = DraftTile(0, "hand", box=(1800, 1200, 2000, 1650), conf=0.9, detected=3)
    image = draw_detections(pixels, to_original, [tile])
    ink, _ = _label_ink_height(image, PLACE_COLOURS["hand"])
    assert ink * 704 / image.width <= 2.5 * MIN_TEXT


def test_small_photos_are_drawn_large_enough_for_sharp_labels():
    pixels, to_original = _photo(300, 200)
    image = draw_detections(pixels, to_original, [])
    assert image.width >= 2 * PHONE_COLUMN and image.size[0] / image.size[1] == pytest.approx(1.5, abs=0.01)
    assert display_factor((2000, 1000), 1000) == 0.5  # big ones are still reduced to max_side


def _row(width: int, height: int, n: int, span: float, doubtful=(4, 9)) -> list[DraftTile]:
    """``n`` tiles side by side, touching, across ``span`` of the photo's width (a tile 3:4 upright)."""
    tile_w = width * span / n
    x0, y0 = width * (1 - span) / 2, height * 0.45
    tiles = []
    for i in range(n):
        place = "win" if i == n - 1 else ("meld" if i >= n - 4 else "hand")
        conf = 0.3 if i in doubtful else 0.9
        box = (x0 + i * tile_w, y0, x0 + (i + 1) * tile_w, y0 + tile_w * 4 / 3)
        tiles.append(DraftTile(i * 2 % 34, place, box=box, conf=conf, detected=i * 2 % 34))
    return tiles


def _layout_as_drawn(width, height, tiles):
    pixels, to_original = _photo(width, height)
    image = draw_detections(pixels, to_original, tiles)
    factor = display_factor((pixels.shape[1], pixels.shape[0]))
    boxes, labels = layout(image.size, (factor / to_original[0], factor / to_original[1]), tiles)
    return image, boxes, labels


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _distance(rect, box) -> float:
    dx = max(box[0] - rect[2], rect[0] - box[2], 0)
    dy = max(box[1] - rect[3], rect[1] - box[3], 0)
    return float(np.hypot(dx, dy))


@pytest.mark.parametrize(
    ("width", "height", "span"),
    [
        (4000, 3000, 0.8),  # 14 tiles across most of the photo: ~20 CSS px a tile on a phone
        (4000, 3000, 0.5),  # from further away: ~13 CSS px a tile, narrower than a two-digit label
        (3000, 4000, 0.9),
        (300, 200, 0.9),
    ],
)
def test_labels_of_a_tight_row_of_14_do_not_overlap(width, height, span):
    tiles = _row(width, height, 14, span)
    image, boxes, labels = _layout_as_drawn(width, height, tiles)
    assert [label.index for label in labels] == list(range(14))
    array = np.asarray(image)
    for k, label in enumerate(labels):
        x1, y1, x2, y2 = label.rect
        assert 0 <= x1 and x2 <= image.width and 0 <= y1 and y2 <= image.height
        for other in labels[k + 1 :]:
            assert _apart(label.rect, other.rect), (label, other)
        # the number the hand view shows under the tile, written on the label
        assert label.text.lstrip("#").split(" ")[0] == str(label.index + 1)
        # next to its own tile: touching it or inside it, or at most one label's height away
        assert _distance(label.rect, boxes[k][1]) <= (y2 - y1) + 1
        # drawn where the layout says, and nothing drawn over it: its edge is its fill all round
        edge = np.concatenate([array[y1, x1:x2], array[y2 - 1, x1:x2], array[y1:y2, x1], array[y1:y2, x2 - 1]])
        assert np.all(edge == label.colour), label


def test_a_tight_row_shortens_labels_a_loose_one_keeps_them_whole():
    tight = _layout_as_drawn(4000, 3000, _row(4000, 3000, 14, 0.5))[2]
    assert all(" " not in label.text for label in tight)  # numbers only
    loose = _layout_as_drawn(4000, 3000, _row(4000, 3000, 4, 0.9, doubtful=(1,)))[2]
    assert [label.text for label in loose] == ["#1 1m 90%", "#2 3m 30%", "#3 5m 90%", "#4 7m 90%"]


def test_place_labels_alternates_then_shortens():
    """The pure placement: 14 boxes 10 px apart, labels 25 px wide (long) or 8 px (short), 10 px tall."""
    boxes = [(20.0 + 10 * i, 50.0, 30.0 + 10 * i, 64.0) for i in range(14)]
    sizes = {"long": (25, 10), "mid": (16, 10), "s": (8, 10)}
    placed = place_labels(boxes, [("long", "mid", "s")] * 14, lambda text: sizes[text], (200, 120), gap=1)
    rects = [rect for _, rect in placed]
    assert all(_apart(a, b) for k, a in enumerate(rects) for b in rects[k + 1 :])
    assert {text for text, _ in placed} == {"mid"}  # "long" cannot be placed without overlap, "mid" can (alternating)
    assert {rect[1] for rect in rects} == {40.0, 64.0}  # right above and right below the boxes, nothing further
    roomy = place_labels(boxes[::4], [("long", "mid", "s")] * 4, lambda text: sizes[text], (200, 120), gap=1)
    assert {text for text, _ in roomy} == {"long"}


def test_doubtful_tiles_keep_their_red_and_every_label_can_be_read():
    assert LOW_COLOUR not in PLACE_COLOURS.values()
    tiles = _row(4000, 3000, 14, 0.5)  # tiles 5 and 10 doubtful, in a row so tight that labels say only numbers
    image, boxes, labels = _layout_as_drawn(4000, 3000, tiles)
    array = np.asarray(image)
    for (index, box, colour, low), label in zip(boxes, labels, strict=True):
        assert low == (index in (4, 9))
        expected = LOW_COLOUR if low else PLACE_COLOURS[tiles[index].place]
        assert colour == expected and label.colour == expected
        x1, y1, _, y2 = (round(v) for v in box)
        assert tuple(array[(y1 + y2) // 2, x1]) == expected  # the box's left edge
        assert tuple(array[label.rect[1], label.rect[0]]) == expected
    # red drawn only for the doubtful tiles: no red anywhere right of tile 10's box and its label
    right = max(boxes[9][1][2], labels[9].rect[2]) + 1
    assert not np.any(np.all(array[:, int(right) :] == LOW_COLOUR, axis=2))
    # black or white text, whichever reads better on each fill (WCAG contrast at least 4.5)
    for fill in [*PLACE_COLOURS.values(), LOW_COLOUR]:
        assert _contrast(fill, text_colour(fill)) >= 4.5, fill


def _contrast(a, b) -> float:
    def lum(colour):
        c = np.asarray(colour) / 255
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
