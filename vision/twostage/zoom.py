"""A second look at a hand that is small in the photo.

The tile detector sees the whole photo letterboxed to its input size (480 px). When the hand fills a small part of
the photo, as when it is taken from standing height or with the whole table in view, each tile is only a dozen or so
network pixels long and the detector misses tiles or boxes them loosely (benchmarks/results/tile_scale.md). The first
pass still finds the hand, so the detector runs again on the region around the tiles it found, cut from the working
image, where each tile is several times larger.
"""

from __future__ import annotations

import numpy as np

ZOOM_CONF = 0.25  # boxes that place the hand: those the reader keeps (at 0.1 false boxes stretched the region)
ZOOM_BELOW_PX = 32  # look again only when the median tile's longer side is under this many network pixels
ZOOM_MIN_GAIN = 1.5  # ... and when the region makes tiles at least this much larger
ZOOM_TILE_PX = 64  # tiles are not enlarged beyond this (the detector trained on 20-70 px tiles)
MARGIN_TILES = 1.5  # the region reaches this many tile lengths beyond the outermost boxes found
SIZE_SPREAD = 2.0  # boxes more than this many times larger or smaller than the median tile are not the hand's
LINK_TILES = 4.0  # boxes this many tile lengths apart or nearer belong to one group (a hand's melds lie apart)


def zoom_region(boxes: np.ndarray, width: int, height: int, network_size: int) -> tuple[int, int, int, int] | None:
    """The pixel region (x1, y1, x2, y2) of a width x height image to run the detector on again, or None.

    ``boxes`` are the first pass's confident boxes (xyxy, pixels of the same image). The region covers the boxes that
    are about a tile's size and lie in groups of two or more, so that false boxes on the table do not stretch it over
    the whole photo.
    """
    if len(boxes) < 2:
        return None
    scale = network_size / max(width, height)  # the letterbox's network pixels per image pixel
    sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    tile = float(np.median(sides))
    if tile * scale >= ZOOM_BELOW_PX:
        return None
    boxes = boxes[(sides >= tile / SIZE_SPREAD) & (sides <= tile * SIZE_SPREAD)]  # a hand's tiles are alike in size
    boxes = boxes[grouped(boxes, LINK_TILES * tile)]
    if not len(boxes):
        return None
    margin = MARGIN_TILES * tile
    x1, y1 = boxes[:, 0].min() - margin, boxes[:, 1].min() - margin
    x2, y2 = boxes[:, 2].max() + margin, boxes[:, 3].max() + margin
    # Grow a small region around its centre so that tiles stay near the sizes the detector learnt.
    least = tile * network_size / ZOOM_TILE_PX
    centre_x, centre_y = (x1 + x2) / 2, (y1 + y2) / 2
    half_w, half_h = max(x2 - x1, least) / 2, max(y2 - y1, least) / 2
    x1, x2 = max(0.0, centre_x - half_w), min(float(width), centre_x + half_w)
    y1, y2 = max(0.0, centre_y - half_h), min(float(height), centre_y + half_h)
    if max(width, height) / max(x2 - x1, y2 - y1) < ZOOM_MIN_GAIN:
        return None
    return int(x1), int(y1), int(np.ceil(x2)), int(np.ceil(y2))


def outside(boxes: np.ndarray, region: tuple[int, int, int, int]) -> np.ndarray:
    """Mask of boxes whose centre lies outside ``region``."""
    x1, y1, x2, y2 = region
    centre_x, centre_y = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    return (centre_x < x1) | (centre_x >= x2) | (centre_y < y1) | (centre_y >= y2)


def grouped(boxes: np.ndarray, reach: float) -> np.ndarray:
    """Mask of boxes that have another box within ``reach`` pixels, gap to gap, directly or through others
    (single-linkage groups of two or more)."""
    gap_x = np.maximum(boxes[:, None, 0], boxes[None, :, 0]) - np.minimum(boxes[:, None, 2], boxes[None, :, 2])
    gap_y = np.maximum(boxes[:, None, 1], boxes[None, :, 1]) - np.minimum(boxes[:, None, 3], boxes[None, :, 3])
    near = (np.maximum(gap_x, gap_y) <= reach) & ~np.eye(len(boxes), dtype=bool)
    return near.any(1)
