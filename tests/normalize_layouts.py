"""Hand-made tile layouts for the normalizer tests: rows written as text, turned into boxes, then turned on the
table and seen through a tilted pinhole camera (numpy), the way a phone would see them.

Row text: tokens separated by spaces, ``|`` for a gap between groups, ``^`` before a sideways (claimed) tile,
``#`` for a face-down tile, ``~`` before a tile knocked askew (turned 25 degrees and pushed a quarter tile off the
row). Rows are listed top to bottom (the first row is furthest from the camera).
"""

from __future__ import annotations

import numpy as np

from scoring.tiles import BACK, CLASS_NAMES, kind_of
from vision.detections import Detections

TILE_W, TILE_H = 30.0, 40.0


def tile_polygons(rows: list[str], gap: float = 0.6, row_gap: float = 0.8, indent: list[float] | None = None):
    """(corners (N,4,2), class ids (N,)) of the layout in flat table coordinates."""
    corners, classes = [], []
    y = 0.0
    for r, text in enumerate(rows):
        x = (indent[r] if indent else 0.0) * TILE_W
        for token in text.split():
            if token == "|":
                x += gap * TILE_W
                continue
            sideways = token.startswith("^")
            askew = token.startswith("~")
            name = token.lstrip("^~")
            cls = BACK if name == "#" else kind_of(name)
            w, h = (TILE_H, TILE_W) if sideways else (TILE_W, TILE_H)
            y0 = y + (TILE_H - h)  # a sideways tile lies along the row's bottom edge
            quad = np.array([[x, y0], [x + w, y0], [x + w, y0 + h], [x, y0 + h]])
            if askew:
                t = np.radians(25.0)
                centre = quad.mean(axis=0)
                turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
                quad = (quad - centre) @ turn.T + centre + [0.0, 0.25 * TILE_H]
            corners.append(quad)
            classes.append(cls)
            x += w
        y += TILE_H * (1 + row_gap)
    return np.array(corners, dtype=np.float64), np.array(classes, dtype=np.int64)


def photograph(
    corners: np.ndarray,
    rotate_deg: float = 0.0,
    tilt_deg: float = 0.0,
    distance: float = 2.0,
    scale: float = 2.0,
    jitter: float = 0.0,
    seed: int = 0,
    offset: tuple[float, float] = (500.0, 400.0),
) -> np.ndarray:
    """Axis-aligned boxes (N,4) of the tiles as a pinhole camera sees them: the layout turned by ``rotate_deg`` on
    the table, the camera tilted ``tilt_deg`` from straight down at ``distance`` layout-widths, pixel jitter."""
    pts = corners.reshape(-1, 2).astype(np.float64)
    pts = pts - pts.mean(axis=0)
    t = np.radians(rotate_deg)
    pts = pts @ np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]).T
    width = float(np.ptp(corners.reshape(-1, 2)[:, 0])) or TILE_W
    phi = np.radians(tilt_deg)
    cam = distance * width * np.array([0.0, np.sin(phi), np.cos(phi)])
    forward = np.array([0.0, -np.sin(phi), -np.cos(phi)])
    down = np.array([0.0, np.cos(phi), -np.sin(phi)])
    q = np.c_[pts, np.zeros(len(pts))] - cam
    depth = q @ forward
    focal = distance * width * scale
    img = np.stack([focal * q[:, 0] / depth, focal * (q @ down) / depth], axis=1) + np.array(offset)
    img = img.reshape(-1, 4, 2)
    boxes = np.concatenate([img.min(axis=1), img.max(axis=1)], axis=1)
    if jitter:
        boxes += np.random.default_rng(seed).normal(0, jitter, boxes.shape)
    return boxes


def detections(rows: list[str], conf: float = 0.95, **kwargs) -> Detections:
    layout_keys = {"gap", "row_gap", "indent"}
    corners, classes = tile_polygons(rows, **{k: v for k, v in kwargs.items() if k in layout_keys})
    boxes = photograph(corners, **{k: v for k, v in kwargs.items() if k not in layout_keys})
    boxes[:, 2:] = np.maximum(boxes[:, 2:], boxes[:, :2] + 1)
    return Detections(boxes, np.full(len(classes), conf), classes)


def names(dets: Detections) -> list[str]:
    return [CLASS_NAMES[c] for c in dets.class_id]


class FixedDetector:
    """Stands in for vision.detector.TileDetector: the same detections for any photo, what a perfect detector sees
    on ``rows`` (none for no rows)."""

    version = "fixed-test"

    def __init__(self, rows: list[str]):
        empty = Detections(np.zeros((0, 4)), np.zeros(0), np.zeros(0, dtype=np.int64))
        self.dets = detections(rows) if rows else empty

    def detect(self, image) -> Detections:
        return self.dets
