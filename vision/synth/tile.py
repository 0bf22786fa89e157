"""One tile as a photographed 3D object, drawn top-down onto the table plane.

A sprite is the tile's top surface (the face, or the back colour when face-down) above a strip for its near side:
the ivory front layer and the coloured back layer, as seen when the camera looks from the player's side. Rounded
corners, a bevelled edge and a glare band make it read as a solid object after the perspective warp.
Sprites are premultiplied float32 RGB plus alpha so they composite with one multiply-add.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class TileLook:
    """What one tile set looks like (shared by every tile in a photo)."""

    back: RGB  # back layer colour (face-down tiles show it)
    front_ratio: float  # share of the thickness that is the ivory front layer
    thickness: float  # tile thickness in tile widths
    radius: float  # corner radius in tile widths
    aspect: float  # face height / width
    margin: float  # body border around the face art, in tile widths
    body: RGB | None = None  # body colour; None = take it from the face art's border


# No ivory back: a face-down tile as pale as the face is a blank 白 drawn with the label `back`. With one in the
# list, classifiers trained on synthetic tiles alone read cmd's real framed 白 as face-down tiles more often
# (56 against 30 a run over four seeds; benchmarks/results/back_colours.md).
BACK_COLOURS: tuple[RGB, ...] = (
    (30, 130, 70), (20, 90, 60), (40, 90, 170), (30, 60, 130), (230, 180, 40), (230, 130, 30), (200, 50, 50),
    (230, 120, 150), (120, 60, 160), (70, 160, 190), (40, 40, 40),
)
FACE_LIKE = 80.0  # RGB distance under which a back colour would pass for the set's face colour


def back_unlike_face(back: RGB, face: RGB) -> RGB:
    """`back`, or where it would pass for the face (a black back on a dark-faced set), the next colour of
    BACK_COLOURS that does not: a face-down tile must not look like a blank face."""
    start = BACK_COLOURS.index(back)
    for step in range(len(BACK_COLOURS)):
        colour = BACK_COLOURS[(start + step) % len(BACK_COLOURS)]
        if float(np.linalg.norm(np.subtract(colour, face, dtype=float))) >= FACE_LIKE:
            return colour
    raise ValueError(f"every back colour passes for the face colour {face}")


def random_look(rng: np.random.Generator) -> TileLook:
    return TileLook(
        back=BACK_COLOURS[rng.integers(len(BACK_COLOURS))],
        front_ratio=float(rng.uniform(0.45, 0.75)),
        thickness=float(rng.uniform(0.5, 0.8)),
        radius=float(rng.uniform(0.06, 0.16)),
        aspect=float(rng.uniform(1.28, 1.45)),
        margin=float(rng.uniform(0.03, 0.09)),
    )


@lru_cache(maxsize=512)
def rounded_mask(w: int, h: int, r: int) -> np.ndarray:
    """Anti-aliased rounded rectangle coverage (h, w) float32 in 0..1."""
    r = max(0, min(r, w // 2, h // 2))
    scale = 4  # draw at 4x and area-downsample: smooth edges without per-pixel geometry
    W, H, R = w * scale, h * scale, r * scale
    m = np.zeros((H, W), np.uint8)
    cv2.rectangle(m, (R, 0), (W - 1 - R, H - 1), 255, -1)
    cv2.rectangle(m, (0, R), (W - 1, H - 1 - R), 255, -1)
    for cx, cy in ((R, R), (W - 1 - R, R), (R, H - 1 - R), (W - 1 - R, H - 1 - R)):
        cv2.circle(m, (cx, cy), R, 255, -1)
    small = cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255.0


def render_tile(
    face: np.ndarray | None,
    w: int,
    h: int,
    side: int,
    look: TileLook,
    face_down: bool,
    glare: tuple[float, float, float],
) -> np.ndarray:
    """Sprite of a tile whose top surface is w x h pixels with a `side`-pixel near side below it.

    `face` is the face art already turned the way the tile lies (RGB uint8); None for a face-down tile.
    `glare` = (strength 0..1, direction in radians, position 0..1) of a soft light band across the top surface.
    Returns premultiplied RGBA float32 (h+side, w, 4).
    """
    H = h + side
    r = max(1, int(round(look.radius * min(w, h))))
    img = np.empty((H, w, 3), np.float32)
    body_rgb = look.body if look.body is not None or face is None else border_colour(face)
    body = np.array(body_rgb if body_rgb is not None else (240, 236, 225), np.float32)
    back = np.array(look.back, np.float32)
    top = back if face_down else body
    img[:h] = top
    if side > 0:
        first, second = (back, body) if face_down else (body, back)
        split = int(round(side * (look.front_ratio if not face_down else 1.0 - look.front_ratio)))
        img[h:h + split] = first * 0.8
        img[h + split:] = second * 0.72
        # The side darkens toward the table and has a thin dark seam under the top edge.
        shade = np.linspace(1.0, 0.85, side, dtype=np.float32)[:, None, None]
        img[h:] *= shade
        img[h:h + 1] *= 0.75
    m = max(1, int(round(look.margin * w if w <= h else look.margin * h)))
    fw, fh = w - 2 * m, h - 2 * m
    if face_down and fw > 2 and fh > 2:  # a moulded back: a slightly lighter panel inside the rim
        inner = rounded_mask(fw, fh, max(1, r - m))[..., None] * 0.12
        img[m:m + fh, m:m + fw] = img[m:m + fh, m:m + fw] * (1 - inner) + 255.0 * inner
    elif face is not None and fw > 2 and fh > 2:
        art = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float32)
        inner = rounded_mask(fw, fh, max(1, r - m))[..., None]
        img[m:m + fh, m:m + fw] = art * inner + img[m:m + fh, m:m + fw] * (1 - inner)
    # Bevel: the far edge of the top catches light, the near edge falls off.
    ramp = np.linspace(1.06, 0.94, h, dtype=np.float32)[:, None, None]
    img[:h] *= ramp
    strength, angle, pos = glare
    if strength > 0:
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        proj = (xs / max(w, 1)) * np.cos(angle) + (ys / max(h, 1)) * np.sin(angle)
        band = np.clip(1.0 - np.abs(proj - pos) / 0.18, 0.0, 1.0) ** 2
        img[:h] += (strength * 255.0) * band[..., None]
    np.clip(img, 0, 255, out=img)
    alpha = rounded_mask(w, H, r)
    out = np.empty((H, w, 4), np.float32)
    np.multiply(img, alpha[..., None], out=out[..., :3])
    out[..., 3] = alpha
    return out


def border_colour(face: np.ndarray) -> RGB:
    """The art's own face colour, read from its outer rows, so the body border matches the face."""
    edge = np.concatenate([face[:2].reshape(-1, 3), face[-2:].reshape(-1, 3)])
    return tuple(int(v) for v in np.median(edge, axis=0))  # type: ignore[return-value]


def render_standing(
    face: np.ndarray,
    w: int,
    top: int,
    face_h: int,
    look: TileLook,
    glare: tuple[float, float, float],
) -> np.ndarray:
    """Sprite of a tile stood on its edge facing the camera: its top edge (back layer far, ivory near) above the
    face, which is `face_h` pixels tall on the plane. Returns premultiplied RGBA float32 (top+face_h, w, 4)."""
    H = top + face_h
    r = max(1, int(round(look.radius * w)))
    img = np.empty((H, w, 3), np.float32)
    body = np.array(look.body if look.body is not None else border_colour(face), np.float32)
    back = np.array(look.back, np.float32)
    split = int(round(top * (1.0 - look.front_ratio)))
    img[:split] = back * 0.95
    img[split:top] = body * 1.02
    img[top:] = body
    m = max(1, int(round(look.margin * w)))
    fw, fh = w - 2 * m, face_h - 2 * max(1, int(round(look.margin * face_h)))
    if fw > 2 and fh > 2:
        my = (face_h - fh) // 2
        art = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float32)
        img[top + my:top + my + fh, m:m + fw] = art
    if face_h > 0:  # the face turns away from the light toward its foot
        img[top:] *= np.linspace(1.02, 0.9, face_h, dtype=np.float32)[:, None, None]
        img[top:top + 1] *= 0.8
    strength, angle, pos = glare
    if strength > 0 and face_h > 0:
        xs = np.arange(w, dtype=np.float32) / max(w, 1)
        band = np.clip(1.0 - np.abs(xs - (pos % 1.0)) / 0.2, 0.0, 1.0) ** 2
        img[top:] += (strength * 255.0) * band[None, :, None]
    np.clip(img, 0, 255, out=img)
    alpha = rounded_mask(w, H, r)
    out = np.empty((H, w, 4), np.float32)
    np.multiply(img, alpha[..., None], out=out[..., :3])
    out[..., 3] = alpha
    return out
