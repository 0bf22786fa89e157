"""Tile faces as the classifiers know them under coloured light: a photo's colour cast measured on its tile faces,
and taken off where it goes beyond the casts the classifiers learnt.

Tile faces are white or ivory in every set, so they are the photo's own grey card. A face's colour is read from
the brighter half of the pixels in the middle of its box (the face between the ink), and the photo's from the
median over its tiles, so that a few face-down backs or coloured tiles do not move it. Its chromaticity (red and
blue against green) is compared with a box (LightSettings) that holds cmd's real photos and the generator's drawn
faces; a photo whose faces lie outside it is scaled per channel onto the box's nearest edge, and a photo inside it
is left exactly as it is. Under tungsten light (red x1.25, blue x0.65) 0.18.8's classifiers misread 2.5x as many
tiles of cmd val (`benchmarks/results/candidate_0.18.9/`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

FACE_INSET = 0.2  # of the box's side on each edge: the middle of the face, not the tile's rim or the table
FACE_SHARE = 0.4  # the brightest share of those pixels: the face between the ink strokes
MIN_FACES = 3  # fewer tiles than this say little about the light
MIN_FACE_PIXELS = 9


@dataclass(frozen=True)
class LightSettings:
    """meta.json "light": the chromaticity box left as it is (red / green and blue / green of the tile faces). The
    default holds cmd val's faces (1st-99th percentile 0.98-1.08 and 0.885-1.0) and the generator's drawn ones (its
    yellowed set 1.05 and 0.85) with room around them; a tighter box (0.95-1.10, 0.85-1.02) mended tungsten light as
    well but read a generated set, whose photos carry casts the classifiers learnt, 4 tiles worse (session 40)."""

    red: tuple[float, float] = (0.92, 1.15)
    blue: tuple[float, float] = (0.80, 1.05)

    @classmethod
    def from_meta(cls, part: object) -> LightSettings:
        """The settings of meta.json's "light" object; ValueError says what is wrong with it."""
        if not isinstance(part, dict) or set(part) - {"red", "blue"}:
            raise ValueError(f'light must be {{"red": [low, high], "blue": [low, high]}}, not {part!r}')
        for name, bounds in part.items():
            if not (isinstance(bounds, list) and len(bounds) == 2
                    and all(isinstance(b, (int, float)) and not isinstance(b, bool) and np.isfinite(b) for b in bounds)
                    and 0 < bounds[0] <= bounds[1]):
                raise ValueError(f"light.{name} must be [low, high] with 0 < low <= high, not {bounds!r}")
        return cls(**{name: tuple(float(b) for b in bounds) for name, bounds in part.items()})


def face_colour(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray | None:
    """(3,) median RGB of the tile faces in `boxes` (xyxy, pixels of rgb), or None with fewer than MIN_FACES."""
    colours = []
    height, width = rgb.shape[:2]
    for x1, y1, x2, y2 in np.asarray(boxes, np.float64):
        dx, dy = (x2 - x1) * FACE_INSET, (y2 - y1) * FACE_INSET
        left, right = max(int(x1 + dx), 0), min(int(np.ceil(x2 - dx)), width)
        top, bottom = max(int(y1 + dy), 0), min(int(np.ceil(y2 - dy)), height)
        middle = rgb[top:bottom, left:right].reshape(-1, 3).astype(np.float32)
        if len(middle) < MIN_FACE_PIXELS:
            continue
        brightness = middle.sum(1)
        colours.append(middle[brightness >= _upper_quantile(brightness, 1 - FACE_SHARE)].mean(0))
    return np.median(colours, axis=0) if len(colours) >= MIN_FACES else None


def _upper_quantile(values: np.ndarray, q: float) -> np.floating:
    """np.quantile(values, q) (its default linear method, to the bit) from a partial sort: numpy's own call costs
    about 0.1 ms, a few ms for a photo's tiles, where this is a fraction of that."""
    position = (len(values) - 1) * q
    below = math.floor(position)
    above = min(below + 1, len(values) - 1)
    low, high = np.partition(values, [below, above])[[below, above]]
    t = position - below  # a Python float, as numpy keeps it for a Python q: it meets the values in their precision
    return low + (high - low) * t if t < 0.5 else high - (high - low) * (1 - t)


def cast_gains(face: np.ndarray, settings: LightSettings) -> np.ndarray:
    """(3,) per-channel gains that move the face's red / green and blue / green onto the settings' box (1 inside)."""
    green = max(float(face[1]), 1.0)
    red, blue = float(face[0]) / green, float(face[2]) / green
    return np.array([np.clip(red, *settings.red) / max(red, 1e-3), 1.0,
                     np.clip(blue, *settings.blue) / max(blue, 1e-3)], np.float32)


def balanced(rgb: np.ndarray, boxes: np.ndarray, settings: LightSettings) -> np.ndarray:
    """`rgb` with its tile faces' cast taken back onto the settings' box; `rgb` itself when it is inside the box (or
    there are too few tiles to tell)."""
    face = face_colour(rgb, boxes)
    if face is None:
        return rgb
    gains = cast_gains(face, settings)
    if np.allclose(gains, 1.0):
        return rgb
    levels = np.arange(256, dtype=np.float32)
    table = np.clip(np.round(levels[:, None] * gains[None, :]), 0, 255).astype(np.uint8)  # (256, 3): one per channel
    return cv2.LUT(np.ascontiguousarray(rgb), table[:, None, :])
