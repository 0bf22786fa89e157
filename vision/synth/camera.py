"""The camera: table plane (tile widths) -> photo pixels, as one homography.

The camera stands on the player's side (+y, where the tiles' near sides face) and looks down at the table
`tilt` degrees from vertical; `yaw` turns the layout on the table, `roll` turns the phone. A plane seen through a
pinhole is a homography, so four projected points define it exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class CameraPose:
    tilt: float  # degrees from looking straight down, 0..50
    yaw: float  # degrees, layout turned on the table
    roll: float  # degrees, photo turned
    distance: float  # camera distance in layout extents (smaller = stronger perspective)


def random_pose(rng: np.random.Generator, max_tilt: float = 50.0) -> CameraPose:
    roll_kind = rng.random()
    if roll_kind < 0.65:
        roll = rng.normal(0, 6)
    elif roll_kind < 0.9:
        roll = rng.uniform(-45, 45)
    else:
        roll = rng.uniform(-180, 180)
    return CameraPose(
        tilt=float(rng.uniform(0, max_tilt) if rng.random() < 0.8 else rng.uniform(0, 15)),
        yaw=float(rng.normal(0, 8)),
        roll=float(roll),
        distance=float(rng.uniform(0.9, 2.5)),
    )


def apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Map (N, 2) points through a 3x3 homography."""
    p = np.c_[pts, np.ones(len(pts))] @ h.T
    return p[:, :2] / p[:, 2:3]


def plane_to_camera(pose: CameraPose, centre: np.ndarray, extent: float) -> np.ndarray:
    """Homography from table coordinates to unscaled camera image coordinates."""
    ref = centre + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * extent
    t, y, r = (math.radians(a) for a in (pose.tilt, pose.yaw, pose.roll))
    d = pose.distance * extent * 2
    out = []
    for px, py in ref - centre:
        X = px * math.cos(y) - py * math.sin(y)
        Y = px * math.sin(y) + py * math.cos(y)
        z = d - Y * math.sin(t)
        u, v = X / z, Y * math.cos(t) / z
        out.append((u * math.cos(r) - v * math.sin(r), u * math.sin(r) + v * math.cos(r)))
    return cv2.getPerspectiveTransform(ref.astype(np.float32), np.array(out, np.float32)).astype(np.float64)


def fit_to_image(h: np.ndarray, polys: np.ndarray, size: tuple[int, int], fill: float,
                 rng: np.random.Generator) -> np.ndarray:
    """Scale and shift `h` so the projected polygons span `fill` of the photo, placed at a random spot."""
    W, H = size
    pts = apply(h, polys.reshape(-1, 2))
    lo, hi = pts.min(0), pts.max(0)
    span = np.maximum(hi - lo, 1e-9)
    k = fill * min(W / span[0], H / span[1])
    room = np.array([W, H]) - span * k
    offset = np.array([rng.uniform(min(0, room[0]), max(0, room[0])), rng.uniform(min(0, room[1]), max(0, room[1]))])
    fit = np.array([[k, 0, offset[0] - lo[0] * k], [0, k, offset[1] - lo[1] * k], [0, 0, 1]])
    return fit @ h
