"""Photo effects after composition: uneven light, colour cast, glare, blur, sensor noise. JPEG is the writer's."""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

LOW = 8  # smooth fields are computed at 1/LOW size and enlarged


@lru_cache(maxsize=1)
def _noise_bank() -> np.ndarray:
    """Fixed Gaussian noise (seeded) that photos crop from: as random as fresh noise for training, far cheaper."""
    return np.random.default_rng(12345).standard_normal((1400, 1400, 3)).astype(np.float32)


def sensor_noise(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """(h, w, 3) unit Gaussian noise: a random crop of the bank, flipped and tiled as needed."""
    bank = _noise_bank()
    y, x = int(rng.integers(0, bank.shape[0] - min(h, bank.shape[0]) + 1)), int(
        rng.integers(0, bank.shape[1] - min(w, bank.shape[1]) + 1))
    patch = bank[y:y + h, x:x + w]
    if patch.shape[0] < h or patch.shape[1] < w:
        reps = (-(-h // patch.shape[0]), -(-w // patch.shape[1]), 1)
        patch = np.tile(patch, reps)[:h, :w]
    if rng.random() < 0.5:
        patch = patch[::-1]
    return patch


def _grid(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates of a 1/LOW grid covering an (h, w) photo."""
    ys, xs = np.mgrid[0:h:LOW, 0:w:LOW].astype(np.float32)
    return ys, xs


def _enlarge(field: np.ndarray, h: int, w: int) -> np.ndarray:
    return cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)


def light_field(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A multiplicative light map: a linear gradient and a soft lamp spot (h, w) around 1."""
    ys, xs = _grid(h, w)
    a = rng.uniform(0, 2 * math.pi)
    grad = ((xs / w - 0.5) * math.cos(a) + (ys / h - 0.5) * math.sin(a)) * rng.uniform(0, 0.6)
    field = 1.0 + grad
    if rng.random() < 0.5:
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.3, 0.9) * max(h, w)
        field += rng.uniform(0.05, 0.3) * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (r * r))
    return _enlarge(field * rng.uniform(0.75, 1.15), h, w)


def photo_effects(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """float32 RGB 0..255 in, uint8 RGB out."""
    h, w = img.shape[:2]
    img *= light_field(rng, h, w)[..., None]
    img *= rng.uniform(0.85, 1.15, 3).astype(np.float32)  # white balance
    if rng.random() < 0.25:  # a specular glare patch
        ys, xs = _grid(h, w)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        rx, ry = rng.uniform(0.05, 0.3) * w, rng.uniform(0.03, 0.2) * h
        spot = rng.uniform(30, 110) * np.exp(-(((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2))
        img += _enlarge(spot.astype(np.float32), h, w)[..., None]
    roll = rng.random()
    if roll < 0.35:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.6))
    elif roll < 0.45:  # hand shake
        n = int(rng.integers(3, 9))
        kernel = np.zeros((n, n), np.float32)
        kernel[n // 2] = 1.0 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (n, n))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    elif roll < 0.55:  # a small phone photo upscaled
        f = rng.uniform(0.4, 0.7)
        small = cv2.resize(img, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    sigma = rng.uniform(0, 8) if rng.random() < 0.7 else 0.0
    if sigma > 0:
        noise = sensor_noise(rng, h, w)
        img += (noise[..., :1] if rng.random() < 0.5 else noise) * sigma
    return np.clip(img, 0, 255).astype(np.uint8)
