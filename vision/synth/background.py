"""Procedural table surfaces: felt, wood grain, cloth, a plain table, a desk with objects. Nothing is downloaded."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.effects import sensor_noise

KINDS = ("felt", "wood", "cloth", "plain", "desk", "table", "table")  # automatic-table felt twice as often


def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Low-frequency noise in about -1..1: random values on a coarse grid, resized up."""
    gh, gw = max(2, int(h / scale)), max(2, int(w / scale))
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _colour(rng: np.random.Generator, palette: list[tuple[int, int, int]], jitter: int = 20) -> np.ndarray:
    base = np.array(palette[int(rng.integers(len(palette)))], np.float32)
    return np.clip(base + rng.integers(-jitter, jitter + 1, 3), 0, 255)


def felt(rng, h, w):
    c = _colour(rng, [(30, 110, 60), (20, 80, 50), (30, 70, 120), (110, 30, 40), (60, 60, 60), (20, 100, 110)])
    fine = sensor_noise(rng, h, w)[..., 0] * 6
    img = c + fine[..., None] + _smooth_noise(rng, h, w, 80)[..., None] * 6
    return img


def wood(rng, h, w):
    c1 = _colour(rng, [(150, 100, 60), (110, 70, 40), (190, 150, 100), (80, 50, 30), (170, 120, 80)])
    c2 = c1 * rng.uniform(0.6, 0.85)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi)
    u = xs * math.cos(a) + ys * math.sin(a)
    # Grain runs mostly straight: a gentle wander of a few periods, plus finer streaks of its own.
    period = rng.uniform(4, 16)
    warp = _smooth_noise(rng, h, w, 150) * period * rng.uniform(0.5, 2.5)
    grain = (np.sin((u + warp) / period * 2 * math.pi) * 0.5 + 0.5) ** 3
    grain = 0.75 * grain + 0.25 * (np.sin((u + warp * 0.5) / (period * 0.23) * 2 * math.pi) * 0.5 + 0.5)
    img = c1 + (c2 - c1) * grain[..., None]
    if rng.random() < 0.6:  # plank seams, along the grain
        plank = rng.uniform(80, 250)
        seam = (np.abs(((u % plank) - plank / 2)) > plank / 2 - 1.5).astype(np.float32)
        img *= (1 - 0.35 * seam)[..., None]
    return img + sensor_noise(rng, h, w)[..., :1] * 3


def cloth(rng, h, w):
    c1 = _colour(rng, [(200, 60, 60), (60, 90, 160), (230, 230, 220), (90, 140, 90), (200, 180, 120)])
    c2 = _colour(rng, [(240, 240, 235), (40, 40, 60), (180, 40, 40), (220, 200, 150)])
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi)
    period = rng.uniform(15, 80)
    u = (xs * math.cos(a) + ys * math.sin(a)) / period
    v = (-xs * math.sin(a) + ys * math.cos(a)) / period
    kind = int(rng.integers(4))
    if kind == 0:  # checks
        pattern = ((np.floor(u) + np.floor(v)) % 2).astype(np.float32) * 0.5 + (np.floor(u) % 2) * 0.25
    elif kind == 1:  # stripes
        pattern = (np.sin(u * 2 * math.pi) > 0.3).astype(np.float32)
    elif kind == 2:  # gingham: two crossing stripes, darker where they cross
        pattern = ((np.sin(u * 2 * math.pi) > 0.2).astype(np.float32) + (np.sin(v * 2 * math.pi) > 0.2)) / 2
    else:  # polka dots: the dot suit's circles with no tile around them
        pattern = ((np.hypot(u - np.round(u), v - np.round(v)) < rng.uniform(0.15, 0.35))).astype(np.float32)
    pattern = cv2.GaussianBlur(pattern, (0, 0), 1.2)
    weave = (np.sin(xs * 1.3) * np.sin(ys * 1.3)).astype(np.float32) * 4
    return c1 + (c2 - c1) * pattern[..., None] * rng.uniform(0.3, 1.0) + weave[..., None]


def plain(rng, h, w):
    c = _colour(rng, [(235, 235, 230), (200, 200, 195), (120, 120, 125), (225, 215, 190), (60, 60, 65),
                      (180, 200, 210)])
    return c + _smooth_noise(rng, h, w, 120)[..., None] * 8 + sensor_noise(rng, h, w)[..., :1] * 2


def desk(rng, h, w):
    img = (wood if rng.random() < 0.5 else plain)(rng, h, w)
    for _ in range(int(rng.integers(2, 7))):
        _desk_object(img, rng, h, w)
    return img


def _desk_object(img: np.ndarray, rng: np.random.Generator, h: int, w: int) -> None:
    """A phone, cup, sheet of paper, coin or pen lying on the table (the tiles are composited over it)."""
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    s = min(h, w) * rng.uniform(0.08, 0.3)
    kind = int(rng.integers(5))
    colour = tuple(float(c) for c in rng.integers(0, 256, 3))
    if kind == 0:  # phone: dark rounded slab with a lighter screen
        box = ((cx, cy), (s * 0.5, s), float(rng.uniform(0, 180)))
        pts = cv2.boxPoints(box).astype(np.int32)
        cv2.fillConvexPoly(img, pts, (25, 25, 30), cv2.LINE_AA)
        inner = cv2.boxPoints(((cx, cy), (s * 0.44, s * 0.88), box[2])).astype(np.int32)
        cv2.fillConvexPoly(img, inner, tuple(float(v) for v in rng.integers(30, 120, 3)), cv2.LINE_AA)
    elif kind == 1:  # cup from above: rim and drink
        cv2.circle(img, (int(cx), int(cy)), int(s * 0.4), colour, -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx), int(cy)), int(s * 0.33), (60, 40, 25), -1, cv2.LINE_AA)
    elif kind == 2:  # paper with lines
        box = ((cx, cy), (s * 1.2, s * 1.6), float(rng.uniform(0, 180)))
        cv2.fillConvexPoly(img, cv2.boxPoints(box).astype(np.int32), (240, 240, 236), cv2.LINE_AA)
    elif kind == 3:  # coins
        for _ in range(int(rng.integers(1, 5))):
            r = int(s * 0.08) + 2
            cv2.circle(img, (int(cx + rng.normal(0, s * 0.2)), int(cy + rng.normal(0, s * 0.2))), r,
                       (170, 150, 90), -1, cv2.LINE_AA)
    else:  # pen
        a = rng.uniform(0, math.pi)
        dx, dy = math.cos(a) * s * 0.7, math.sin(a) * s * 0.7
        cv2.line(img, (int(cx - dx), int(cy - dy)), (int(cx + dx), int(cy + dy)), colour, max(2, int(s * 0.05)),
                 cv2.LINE_AA)


def table(rng, h, w):
    """An automatic mahjong table: bright felt with a fine mesh, often with its wooden or plastic rim in view."""
    c = _colour(rng, [(70, 170, 70), (40, 150, 60), (30, 110, 50), (40, 110, 170), (60, 140, 190), (150, 40, 50)],
                jitter=25)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2.0, 4.0)
    mesh = (np.sin(xs * (2 * math.pi / period)) * np.sin(ys * (2 * math.pi / period))).astype(np.float32)
    img = c * (1.0 + 0.06 * mesh[..., None]) + _smooth_noise(rng, h, w, 60)[..., None] * 5
    img += sensor_noise(rng, h, w)[..., :1] * 4
    if rng.random() < 0.6:
        _rim(img, rng, h, w, xs, ys)
    return img


def _rim(img, rng, h, w, xs, ys) -> None:
    """The table's raised edge along one side: wood or white plastic, with a shaded lip where it meets the felt."""
    a = rng.uniform(0, 2 * math.pi)
    nx, ny = math.cos(a), math.sin(a)
    d = (xs - w / 2) * nx + (ys - h / 2) * ny  # signed distance from the centre along the normal
    edge = d.max() - rng.uniform(0.05, 0.35) * (d.max() - d.min())
    band = d > edge
    if rng.random() < 0.5:
        surface = wood(rng, h, w)
    else:
        surface = _colour(rng, [(235, 235, 230), (200, 200, 200), (225, 215, 190)], 10) + np.zeros_like(img)
    img[band] = surface[band]
    lip = np.abs(d - edge) < rng.uniform(1.5, 4.0)
    img[lip] *= 0.55


GENERATORS = {"table": table, "felt": felt, "wood": wood, "cloth": cloth, "plain": plain, "desk": desk}


def random_background(rng: np.random.Generator, h: int, w: int) -> tuple[str, np.ndarray]:
    """(kind, float32 RGB image (h, w, 3) in 0..255). Drawn at half size and enlarged: surfaces are smooth and the
    photo's own noise is added later, so this halves nothing visible and saves most of the time."""
    kind = KINDS[int(rng.integers(len(KINDS)))]
    small = GENERATORS[kind](rng, max(h // 2, 8), max(w // 2, 8)).astype(np.float32)
    img = cv2.resize(np.clip(small, 0, 255), (w, h), interpolation=cv2.INTER_LINEAR)
    return kind, img
