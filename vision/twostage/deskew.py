"""A level look at a hand whose rows lie at a slant in the photo.

The detector's boxes are axis-aligned, so the crop of a tile in a slanted row holds the tile turned and the corners
of its neighbours. The classifier learnt turned crops of the sets it trained on, but on a set it has not seen it
reads them far worse than level ones (hold-out proxy, tiles of photos whose rows lie more than 25 degrees off the
image axes: 0.69 / 0.74 / 0.63 of them right against 0.87 / 0.87 / 0.92 for level rows; gleitz, ffalt, cmd folds).
So when the rows slant, the photo is turned until they run level and cut to the tiles, the detector boxes the tiles
there again, and each tile is classified from its level box (after it, those photos: 0.85 / 0.89 / 0.81).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.normalize.geometry import row_directions
from vision.twostage.zoom import ZOOM_TILE_PX

MIN_TILT_DEG = 8.0  # rows closer than this to an image axis are read as they are
MIN_TILES = 5  # fewer boxes do not give a row direction worth turning the photo for
MARGIN_TILES = 1.0  # the view reaches this many tile lengths beyond the outermost boxes
MATCH_FRACTION = 0.5  # a level box is a tile's when their centres are within this part of its shorter side
# ... and when it is no wider or taller than this times the tile's own (axis-aligned, so larger) box: a level box
# past it holds two or more tiles (cmd's photos: 2 % of matched tiles were over 1.5, 9 % over 1.2)
MAX_GROWTH = 1.3


@dataclass(frozen=True)
class LevelView:
    """The hand turned so that its rows run level, cut to its tiles and a margin, and where working-image points land
    in it."""

    image: np.ndarray  # (H, W, 3) RGB
    forward: np.ndarray  # (2, 3) affine map: working-image pixels -> pixels of image
    tilt_deg: float  # how far the rows were turned (counter-clockwise as shown, for rows falling to the right)

    def place(self, points: np.ndarray) -> np.ndarray:
        """(N, 2) working-image points in this view's pixels."""
        return points @ self.forward[:, :2].T + self.forward[:, 2]

    def boxes_of(self, boxes: np.ndarray, find_boxes: Callable[[np.ndarray], np.ndarray],
                 max_growth: float = MAX_GROWTH) -> tuple[np.ndarray, np.ndarray]:
        """Each tile's box in this view, as ``find_boxes`` (a tile detector: image -> xyxy boxes) finds it there, and
        which tiles got one (``boxes``: the tiles in working-image pixels). Rows of tiles without one are zeros.
        A level box over ``max_growth`` times the tile's own holds more than that tile and is not its box."""
        level_boxes = np.asarray(find_boxes(self.image), np.float32).reshape(-1, 4)
        found = match_boxes(self.place((boxes[:, :2] + boxes[:, 2:]) / 2), level_boxes)
        levelled = found >= 0
        sizes = level_boxes[found[levelled], 2:] - level_boxes[found[levelled], :2]
        levelled[levelled] = (sizes / np.maximum(boxes[levelled, 2:] - boxes[levelled, :2], 1e-6)).max(1) <= max_growth
        placed = np.zeros((len(boxes), 4), np.float32)
        placed[levelled] = level_boxes[found[levelled]]
        return placed, levelled


def row_tilt(boxes: np.ndarray) -> float:
    """How far (degrees, -45..45) the rows of tiles in ``boxes`` lie off the nearest image axis; positive when a row
    falls to the right as the photo is shown. A quarter turn is left to the classifier, which reads sideways tiles."""
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    direction = float(np.degrees(row_directions(centres)[0]))
    return direction - 90.0 * round(direction / 90.0)


def level_view(rgb: np.ndarray, boxes: np.ndarray, network_size: int = 480) -> LevelView | None:
    """The level view of the tiles in ``boxes`` (xyxy, pixels of rgb), or None when their rows are level enough or
    there are too few of them to tell.

    The view is cut to the turned tiles and a margin, so the detector (input ``network_size``) sees them as large as
    the row allows: a slanted row's axis-aligned region, turned, is mostly table. It is not cut so small that tiles
    would grow past the sizes the detector learnt (vision.twostage.zoom's ZOOM_TILE_PX)."""
    if len(boxes) < MIN_TILES:
        return None
    tilt = row_tilt(boxes)
    if abs(tilt) < MIN_TILT_DEG:
        return None
    tile = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    turn = cv2.getRotationMatrix2D((0.0, 0.0), tilt, 1.0)  # about the origin; shifted into view below
    corners = np.concatenate([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [0, 3]], boxes[:, [2, 3]]])
    placed = corners @ turn[:, :2].T
    centre = (placed.min(0) + placed.max(0)) / 2
    half = np.maximum((placed.max(0) - placed.min(0)) / 2 + MARGIN_TILES * tile, tile * network_size / ZOOM_TILE_PX / 2)
    size = np.ceil(2 * half).astype(int)
    turn[:, 2] = half - centre
    image = cv2.warpAffine(rgb, turn, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return LevelView(image, turn, tilt)


def match_boxes(points: np.ndarray, level_boxes: np.ndarray) -> np.ndarray:
    """For each point (a tile's centre placed in the level view), the index of the level box it is the centre of,
    or -1: the nearest box centre, when within MATCH_FRACTION of that box's shorter side."""
    if not len(points) or not len(level_boxes):
        return np.full(len(points), -1, np.int64)
    centres = (level_boxes[:, :2] + level_boxes[:, 2:]) / 2
    shorter = np.minimum(level_boxes[:, 2] - level_boxes[:, 0], level_boxes[:, 3] - level_boxes[:, 1])
    distance = np.linalg.norm(points[:, None, :] - centres[None, :, :], axis=2)
    nearest = distance.argmin(1)
    close = distance[np.arange(len(points)), nearest] <= MATCH_FRACTION * shorter[nearest]
    return np.where(close, nearest, -1)
