"""Things between the camera and the tiles: a finger or two reaching in from the edge of the photo.

Drawn in photo pixels after the table is warped, with a soft shadow; the scene then takes what they cover off the
tiles' labels (see scene._uncover_from_occluders).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

SKIN = ((224, 172, 140), (198, 140, 105), (160, 110, 80), (235, 195, 165), (120, 80, 55))


def random_fingers(rng: np.random.Generator, W: int, H: int, targets: np.ndarray,
                   tile_px: float) -> tuple[np.ndarray, np.ndarray]:
    """(premultiplied RGB float32 (H, W, 3), alpha float32 (H, W)) of 1-2 fingers, each from a photo edge to near
    one of the `targets` (tile centres, pixels), about a tile wide."""
    rgb = np.zeros((H, W, 3), np.float32)
    mask = np.zeros((H, W), np.uint8)
    skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32) * rng.uniform(0.85, 1.1)
    for _ in range(int(rng.integers(1, 3))):
        aim = targets[int(rng.integers(len(targets)))] + rng.normal(0, tile_px * 0.4, 2)
        edge = int(rng.integers(4))
        start = np.array([
            (rng.uniform(0, W), H + tile_px), (rng.uniform(0, W), -tile_px),
            (-tile_px, rng.uniform(0, H)), (W + tile_px, rng.uniform(0, H)),
        ][edge])
        # Pointing at a tile, the fingertip usually stops at its near edge rather than covering it.
        reach = aim - start
        tip = aim - reach / max(float(np.hypot(*reach)), 1e-6) * tile_px * rng.uniform(0.0, 1.0)
        width = max(int(tile_px * rng.uniform(0.8, 1.3)), 3)
        one = np.zeros((H, W), np.uint8)
        cv2.line(one, tuple(int(v) for v in start), tuple(int(v) for v in tip), 255, width, cv2.LINE_AA)
        mask = np.maximum(mask, one)
        # The nail: a lighter oval just inside the tip.
        d = tip - start
        d = d / max(float(np.hypot(*d)), 1e-6)
        nail = tip - d * width * 0.45
        angle = math.degrees(math.atan2(d[1], d[0]))
        cv2.ellipse(rgb, (tuple(int(v) for v in nail), (width * 0.55, width * 0.45), angle),
                    tuple(float(c) for c in np.minimum(skin * 1.15, 255)), -1, cv2.LINE_AA)
    alpha = mask.astype(np.float32) / 255.0
    # Rounded shading across the finger: darker at its sides.
    core = cv2.GaussianBlur(alpha, (0, 0), max(tile_px * 0.15, 1.0))
    shade = 0.7 + 0.35 * core
    nail_mask = rgb.any(axis=2)
    body = skin[None, None, :] * shade[..., None]
    colour = np.where(nail_mask[..., None], rgb, body)
    return colour * alpha[..., None], alpha


def finger_shadow(alpha: np.ndarray, rng: np.random.Generator, tile_px: float) -> np.ndarray:
    """A soft shadow of the fingers on the table (multiplier (H, W) in 0..1)."""
    shift = rng.normal(0, tile_px * 0.4, 2)
    m = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
    moved = cv2.warpAffine(alpha, m, alpha.shape[::-1])
    soft = cv2.GaussianBlur(moved, (0, 0), max(tile_px * 0.5, 1.0))
    return 1.0 - soft * rng.uniform(0.25, 0.5)
