"""Tile geometry from axis-aligned boxes: the row direction, a frame along it, and box shapes.

Detectors give axis-aligned boxes around tiles that the layout's rotation and the camera's perspective turn and
shear, so nothing here inverts a box into a tile: measures are taken relative to the other tiles of the photo.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_NEIGHBOURS = 2  # nearest neighbours per tile voting for the row direction
_BIN_DEG = 2.0
_WINDOW_DEG = 10.0
_OTHER_DEG = 30.0  # a second candidate direction lies at least this far from the first
_OTHER_MIN_VOTES = 6  # and has at least this many neighbour votes (three tiles in a row)


def row_directions(centers: np.ndarray) -> list[float]:
    """Candidate directions of tile rows in radians, in (-pi/2, pi/2]: the most voted one first, then the most
    voted one at least ``_OTHER_DEG`` away from it, if any (a discard grid turned to another seat can outvote the
    hand, so the caller picks between them).

    Tiles in a row touch their neighbours, so the vectors to the nearest neighbours point along the rows; a mode of
    their (axial) angles, refined by a doubled-angle mean inside a window, is a row direction.
    """
    n = len(centers)
    if n < 2:
        return [0.0]
    diff = centers[None, :, :] - centers[:, None, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    np.fill_diagonal(dist, np.inf)
    k = min(_NEIGHBOURS, n - 1)
    nearest = np.argsort(dist, axis=1)[:, :k]
    vec = diff[np.arange(n)[:, None], nearest].reshape(-1, 2)
    angles = np.degrees(np.arctan2(vec[:, 1], vec[:, 0])) % 180.0
    centers_deg = np.arange(0.0, 180.0, _BIN_DEG)
    votes = (_axial_gap(angles[None, :], centers_deg[:, None]) <= _WINDOW_DEG).sum(axis=1)
    best = centers_deg[int(np.argmax(votes))]
    out = [_refine(angles, best)]
    others = np.where(_axial_gap(centers_deg, best) >= _OTHER_DEG, votes, 0)
    if others.max() >= _OTHER_MIN_VOTES:
        out.append(_refine(angles, centers_deg[int(np.argmax(others))]))
    return out


def _axial_gap(a, b):
    """The angle between two axial directions in degrees (0..90)."""
    return np.abs((a - b + 90.0) % 180.0 - 90.0)


def _refine(angles: np.ndarray, mode: float) -> float:
    near = _axial_gap(angles, mode) <= _WINDOW_DEG
    doubled = np.radians(angles[near] * 2.0)
    angle = 0.5 * np.arctan2(np.sin(doubled).sum(), np.cos(doubled).sum())
    if angle <= -np.pi / 2:
        angle += np.pi
    elif angle > np.pi / 2:
        angle -= np.pi
    return float(angle)


@dataclass(frozen=True)
class Frame:
    """Coordinates along (x) and across (y) the row direction; y grows the way image y grows at angle 0."""

    angle: float

    def to_frame(self, points: np.ndarray) -> np.ndarray:
        c, s = np.cos(self.angle), np.sin(self.angle)
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return np.stack([pts[:, 0] * c + pts[:, 1] * s, -pts[:, 0] * s + pts[:, 1] * c], axis=1)


def box_aspect_angle(sizes: np.ndarray) -> np.ndarray:
    """The angle of each box's diagonal, atan2(h, w), in degrees. Upright tiles of one row share it (their boxes
    are the same parallelogram scaled); a tile turned sideways has another one, unless the row lies near 45 degrees
    where both boxes are square."""
    return np.degrees(np.arctan2(sizes[:, 1], sizes[:, 0]))


def cut_by_frame(boxes: np.ndarray, image_size: tuple[int, int], margin: float = 1.0) -> np.ndarray:
    """Boxes touching the photo's edge (within ``margin`` pixels): the frame cuts them, so their shape and size say
    nothing about how the tile lies."""
    width, height = image_size
    return (boxes[:, 0] <= margin) | (boxes[:, 1] <= margin) | (boxes[:, 2] >= width - margin) | (
        boxes[:, 3] >= height - margin)


def aspect_along_row(x: np.ndarray, aspect: np.ndarray, tolerance: float, at: np.ndarray) -> np.ndarray:
    """The box diagonal angle an upright tile of a row has at positions ``at``: a straight-line fit over the row's
    tiles (perspective shears boxes more toward one end of a long row), refitted without the tiles more than
    ``tolerance`` degrees off it (the sideways ones). A plain median where the row is too short for a slope."""
    keep = np.ones(len(x), dtype=bool)
    if len(x) < 5 or np.ptp(x) < 1e-6:
        return np.full(len(at), float(np.median(aspect)))
    for _ in range(2):
        slope, intercept = np.polyfit(x[keep], aspect[keep], 1) if keep.sum() >= 3 else (0.0, np.median(aspect))
        keep = np.abs(aspect - (slope * x + intercept)) <= tolerance
    return slope * np.asarray(at) + intercept
