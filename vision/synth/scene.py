"""One synthetic photo: hand -> layout on the table -> tiles drawn on the table plane -> camera warp over a
background (with print beside the hand) -> fingers -> photo effects, with a label for every tile that can be seen.

Label rule, in three steps:
1. Covered by other tiles (a wall's lower layer, a heap, a stacked tile): the owner map records which tile is seen
   at each plane pixel. A tile with under MIN_UNCOVERED of its drawn pixels still seen gets no label; one partly
   covered is boxed by what is seen; one (almost) uncovered is boxed by its sprite corners. A tile whose near side
   lies under a touching tile (rows of discards, a stacked added-kong tile) is drawn and boxed without that side.
2. Covered by a finger: the same, in photo pixels, against the finger mask.
3. Out of frame: the box (axis-aligned bounds of the seen outline after the warp) is clipped to the photo; it is
   kept when at least MIN_VISIBLE of it lies inside and the clipped box is at least MIN_SIDE_PX on both sides.
Unlabelled tiles are still drawn. Discards and clutter that fall wholly outside the photo are not drawn at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import CLASS_NAMES
from vision.synth.artsets import art_style_names
from vision.synth.background import random_background
from vision.synth.camera import CameraPose, apply, fit_to_image, plane_to_camera, random_pose
from vision.synth.convention import layout_facts
from vision.synth.effects import photo_effects
from vision.synth.faces import FaceSet, pick_face_set
from vision.synth.hands import HandSpec, random_hand
from vision.synth.layout import SPACINGS, Geometry, Placement, add_extras, footprint, layout_hand
from vision.synth.occluders import finger_shadow, random_fingers
from vision.synth.printed import add_printed_matter
from vision.synth.tile import TileLook, back_unlike_face, border_colour, random_look, render_standing, render_tile

MIN_VISIBLE = 0.6
MIN_SIDE_PX = 4.0
MIN_UNCOVERED = 0.5  # share of a tile's drawn pixels that other tiles may not cover for it to be labelled
FULLY_UNCOVERED = 0.98
FINGER_CHANCE = 0.08
TRAY_CHANCE = 0.6  # standing rows often stand in the table's tile tray
PRINT_STREAM = 1  # print on the table draws from its own stream, so it changes no tile of a photo


@dataclass(frozen=True)
class Tray:
    """The flat tray in front of a standing row (plane units); drawn under the tiles, never labelled."""

    x: float
    y: float
    w: float
    d: float
    lip: float
    colour: tuple[int, int, int]

    @property
    def corners(self) -> np.ndarray:
        return np.array([[self.x, self.y], [self.x + self.w, self.y], [self.x + self.w, self.y + self.d + self.lip],
                         [self.x, self.y + self.d + self.lip]])
MAX_PLANE_PIXELS = 5_000_000
SHADOW_SCALE = 4

# Longest side a photo may be drawn at: a 50 MP phone's (8160 px) and then some. The drawing holds several
# full-size float layers, so far larger sides ran out of memory halfway, after the folders were made.
MAX_IMGSZ = 8192


@dataclass(frozen=True)
class SynthOptions:
    imgsz_min: int = 640  # long side of the photo, drawn uniformly in [min, max]
    imgsz_max: int = 1280
    max_tilt: float = 50.0
    tileart: Path | None = None  # ../shared/tileart when present
    layout: str = "any"  # "conventional": every hand laid out as docs/photo-layout.md asks (layout.SPACINGS)
    art_style: str | None = None  # every photo's faces from this art set of tileart (a test set of one tile set)

    def __post_init__(self) -> None:
        if not 64 <= self.imgsz_min <= self.imgsz_max <= MAX_IMGSZ:
            raise ValueError(f"image size range {self.imgsz_min}..{self.imgsz_max} is invalid "
                             f"(64 <= min <= max <= {MAX_IMGSZ})")
        if not 0 <= self.max_tilt <= 70:
            raise ValueError(f"max tilt {self.max_tilt} is outside 0..70 degrees")
        if self.layout not in SPACINGS:
            raise ValueError(f"layout {self.layout!r} is not one of {', '.join(SPACINGS)}")
        styles = art_style_names(self.tileart)
        if self.art_style is not None and self.art_style not in styles:
            where = self.tileart or "../shared/tileart"
            raise ValueError(f"art style {self.art_style!r} is not one of the art sets present: "
                             f"{', '.join(styles) or f'none (no tile art at {where})'}")


@dataclass(frozen=True)
class LabelledTile:
    cls: int  # class id in CLASS_NAMES order (face-down tiles are `back`)
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 pixels
    role: str
    meld: int | None
    sideways: bool
    face_down: bool

    def to_json(self) -> dict:
        return {"cls": CLASS_NAMES[self.cls], "box": [round(v, 2) for v in self.box], "role": self.role,
                "meld": self.meld, "sideways": self.sideways, "face_down": self.face_down}

    def yolo_line(self, width: int, height: int) -> str:
        x1, y1, x2, y2 = self.box
        return (f"{self.cls} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
                f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}")


@dataclass
class Sample:
    image: np.ndarray  # uint8 RGB (H, W, 3)
    tiles: list[LabelledTile]
    hand: HandSpec
    scene: dict = field(default_factory=dict)


def make_sample(seed: int, index: int, options: SynthOptions | None = None) -> Sample:
    """The photo number `index` of the stream `seed`; the same pair always gives the same photo."""
    options = options or SynthOptions()
    rng = np.random.default_rng([seed, index])
    hand = random_hand(rng)
    faces = pick_face_set(rng, options.tileart, options.art_style)
    look = random_look(rng)
    body = border_colour(faces.face(0, rng))  # the body matches the set's face colour
    look = replace(look, body=body, back=back_unlike_face(look.back, body))
    pose = random_pose(rng, options.max_tilt)
    geom = _geometry(look, pose)
    standing = pose.tilt >= 30 and rng.random() < 0.3
    spacing = SPACINGS[options.layout]
    placements = layout_hand(hand, rng, geom, standing, spacing)
    placements = add_extras(placements, hand, rng, geom, spacing)
    tray = _tray(placements, geom, rng) if standing and rng.random() < TRAY_CHANCE else None
    polys = np.stack([footprint(p, geom) for p in placements])
    in_hand = np.array([p.role in ("concealed", "win", "meld") for p in placements])

    # The camera frames the hand; discards and clutter fall where they fall, and what is out of view is not drawn.
    W, H = _photo_size(rng, options)
    lo, hi = polys[in_hand].reshape(-1, 2).min(0), polys[in_hand].reshape(-1, 2).max(0)
    cam = plane_to_camera(pose, (lo + hi) / 2, float(max(hi - lo)) / 2 + 1.0)
    fill = float(rng.uniform(0.6, 0.98) if rng.random() < 0.92 else rng.uniform(0.98, 1.15))
    to_photo = fit_to_image(cam, polys[in_hand], (W, H), fill, rng)
    front = float(np.sign(np.r_[(lo + hi) / 2, 1.0] @ to_photo[2]))  # w's sign in front of the camera
    keep = [i for i in range(len(placements)) if in_hand[i] or _in_view(to_photo, polys[i], W, H, front)]
    placements, polys = [placements[i] for i in keep], polys[keep]

    extent = polys if tray is None else np.concatenate([polys, tray.corners[None]])
    plane, to_plane, scale = _plane_frame(to_photo, extent)
    rgba, owner, drawn = _draw_plane(plane, scale, placements, faces, look, geom, rng, to_plane, tray)
    h_pix = to_photo @ np.linalg.inv(to_plane)
    layer = cv2.warpPerspective(rgba, h_pix, (W, H), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    bg_kind, bg = random_background(rng, H, W)
    printed = add_printed_matter(bg, np.random.default_rng([seed, index, PRINT_STREAM]))
    img = layer[..., :3] + bg * (1.0 - layer[..., 3:4])

    # What of each tile the camera sees, as an outline in photo pixels (None: covered by other tiles).
    outlines: list[np.ndarray | None] = []
    for i, poly in enumerate(_drawn_polys(placements, geom, scale, to_plane)):
        seen = _uncovered_outline(owner, i, poly, drawn[i])
        outlines.append(None if seen is None else apply(h_pix, seen))
    fingered = 0
    if rng.random() < FINGER_CHANCE:
        img, finger = _add_fingers(img, rng, [o for o, p in zip(outlines, placements, strict=True) if o is not None
                                               and p.role in ("concealed", "win", "meld")])
        if finger is not None:
            before = [o is not None for o in outlines]
            outlines = [None if o is None else _uncovered_by_finger(o, finger) for o in outlines]
            fingered = sum(b and o is None for b, o in zip(before, outlines, strict=True))
    image = photo_effects(img, rng)

    tiles: list[LabelledTile] = []
    covered = 0
    for p, outline in zip(placements, outlines, strict=True):
        if outline is None:
            covered += 1
            continue
        box = _visible_box(outline, W, H)
        if box is not None:
            tiles.append(LabelledTile(p.label, box, p.role, p.meld, p.sideways, p.face_down))
    hand_tiles = sum(p.role in ("concealed", "win", "meld") for p in placements)
    scene = {
        "style": faces.name, "background": bg_kind, "shape": hand.shape, "tilt": round(pose.tilt, 1),
        "yaw": round(pose.yaw, 1), "roll": round(pose.roll, 1), "tile_px": round(_tile_px(tiles), 1),
        "tiles_drawn": len(placements), "tiles_labelled": len(tiles), "tiles_covered": covered,
        "standing_row": standing, "tray": tray is not None, "tiles_under_finger": fingered,
        "printed_items": printed,
        "hand_tiles_labelled": sum(t.role in ("concealed", "win", "meld") for t in tiles) == hand_tiles,
        **layout_facts(placements, geom),
    }
    return Sample(image, tiles, hand, scene)


def _tray(placements: list[Placement], g: Geometry, rng: np.random.Generator) -> Tray:
    row = [p for p in placements if p.standing]
    x0 = min(p.x for p in row) - float(rng.uniform(0.2, 1.0))
    x1 = max(p.x for p in row) + 1.0 + float(rng.uniform(0.2, 1.0))
    foot = max(p.y + g.stand_top + g.stand_face for p in row)
    colours = ((240, 240, 236), (225, 220, 205), (200, 200, 200), (150, 105, 70), (60, 60, 64))
    return Tray(x0, foot + 0.02, x1 - x0, float(rng.uniform(0.6, 1.4)), g.side * 0.5,
                colours[int(rng.integers(len(colours)))])


def _in_view(h: np.ndarray, poly: np.ndarray, W: int, H: int, front: float) -> bool:
    """Whether any of a tile lands in the photo, in front of the camera (homogeneous w of sign `front`)."""
    p = np.c_[poly, np.ones(len(poly))] @ h.T
    if (p[:, 2] * front <= 1e-9).any():  # behind the camera: the homography would fold it back into view
        return False
    xy = p[:, :2] / p[:, 2:3]
    return bool(xy[:, 0].max() > 0 and xy[:, 0].min() < W and xy[:, 1].max() > 0 and xy[:, 1].min() < H)


def _photo_size(rng: np.random.Generator, options: SynthOptions) -> tuple[int, int]:
    """Phone-photo shapes downscaled: 4:3 mostly, some 16:9 and square; landscape four times as often as portrait."""
    long_side = int(rng.integers(options.imgsz_min, options.imgsz_max + 1))
    ratio = float(rng.choice([4 / 3, 16 / 9, 1.0], p=[0.65, 0.25, 0.1]))
    short = int(round(long_side / ratio))
    return (long_side, short) if rng.random() < 0.8 else (short, long_side)


def _plane_frame(to_photo: np.ndarray, polys: np.ndarray):
    """Plane raster size and the map table units -> plane pixels, at about the tiles' largest size in the photo."""
    centres = polys.mean(axis=1)
    d = 0.05
    p0 = apply(to_photo, centres)
    px = apply(to_photo, centres + [d, 0])
    py = apply(to_photo, centres + [0, d])
    local = np.maximum(np.linalg.norm(px - p0, axis=1), np.linalg.norm(py - p0, axis=1)) / d
    scale = float(np.clip(local.max() * 1.15, 6.0, 120.0))
    lo = polys.reshape(-1, 2).min(0) - 0.6
    hi = polys.reshape(-1, 2).max(0) + 0.6
    area = float(np.prod((hi - lo) * scale))
    if area > MAX_PLANE_PIXELS:
        scale *= math.sqrt(MAX_PLANE_PIXELS / area)
    size = np.ceil((hi - lo) * scale).astype(int) + 1
    to_plane = np.array([[scale, 0, -lo[0] * scale], [0, scale, -lo[1] * scale], [0, 0, 1]])
    return (int(size[0]), int(size[1])), to_plane, scale


def _geometry(look: TileLook, pose: CameraPose) -> Geometry:
    tan = math.tan(math.radians(pose.tilt))
    return Geometry(
        aspect=look.aspect,
        # A flat tile's near side is vertical: stretched by tan(tilt) on the plane, plus a sliver that a real lens
        # shows even from straight above.
        side=look.thickness * min(0.06 + tan, 1.3),
        lift=look.thickness * tan,
        stand_top=look.thickness,
        stand_face=look.aspect * tan,
    )


def _pixel_geometry(p: Placement, g: Geometry, scale: float, to_plane: np.ndarray):
    """Integer sprite size (width, top part, lower part), its offset on the plane raster, and its rotation."""
    w, top, lower = p.sprite(g)
    w_px, h_px = max(2, int(round(w * scale))), max(2, int(round(top * scale)))
    side_px = int(round(lower * scale))
    x_px = int(round(p.x * scale + to_plane[0, 2]))
    y_px = int(round(p.y * scale + to_plane[1, 2]))
    # Rotation is about the centre of the tile's whole sprite, as layout.footprint does it.
    full_h = int(round(p.full_height(g) * scale))
    rot = cv2.getRotationMatrix2D((w_px / 2, full_h / 2), p.angle, 1.0) if p.angle else None
    return w_px, h_px, side_px, x_px, y_px, rot


def _drawn_polys(placements, g: Geometry, scale, to_plane) -> list[np.ndarray]:
    """Plane-pixel corners of each sprite exactly as drawn."""
    out = []
    for p in placements:
        w_px, h_px, side_px, x_px, y_px, rot = _pixel_geometry(p, g, scale, to_plane)
        corners = np.array([[0, 0], [w_px, 0], [w_px, h_px + side_px], [0, h_px + side_px]], np.float64)
        if rot is not None:
            corners = corners @ rot[:, :2].T + rot[:, 2]
        out.append(corners + [x_px, y_px])
    return out


def _draw_plane(size, scale, placements, faces: FaceSet, look: TileLook, g: Geometry, rng, to_plane,
                tray: Tray | None = None):
    """The table plane: premultiplied RGBA float32 raster (shadows, then tiles from far to near, lower layers
    first), the owner map (index of the tile seen at each pixel, -1 for none) and each tile's drawn pixel count."""
    Pw, Ph = size
    rgba = np.zeros((Ph, Pw, 4), np.float32)
    owner = np.full((Ph, Pw), -1, np.int32)
    drawn = [0] * len(placements)
    polys = _drawn_polys(placements, g, scale, to_plane)
    if tray is not None:
        tx, ty = (np.array([tray.x, tray.y]) * scale + to_plane[:2, 2]).round().astype(int)
        tw, td, lip = (max(int(round(v * scale)), 1) for v in (tray.w, tray.d, tray.lip))
        slab = TileLook(back=tray.colour, front_ratio=1.0, thickness=0.0, radius=0.05, aspect=1.0, margin=0.0,
                        body=tray.colour)
        _over(rgba, None, None, render_tile(None, tw, td, lip, slab, False, (0.0, 0.0, 0.0)), int(tx), int(ty))
    # Soft contact shadows, cast away from one light for the whole photo; drawn at 1/4 size since they are blurry.
    q = SHADOW_SCALE
    shadow = np.zeros((max(Ph // q, 1), max(Pw // q, 1)), np.uint8)
    a = rng.uniform(0, 2 * math.pi)
    offset = np.array([math.cos(a), math.sin(a)]) * scale * rng.uniform(0.05, 0.35)
    for poly in polys:
        cv2.fillConvexPoly(shadow, np.round((poly + offset) / q).astype(np.int32), 255, cv2.LINE_AA)
    sigma = max(scale * rng.uniform(0.06, 0.25) / q, 0.5)
    soft = cv2.GaussianBlur(shadow, (0, 0), sigma)
    shade = cv2.resize(soft, (Pw, Ph), interpolation=cv2.INTER_LINEAR).astype(np.float32) * (
        rng.uniform(0.25, 0.6) / 255.0)
    rgba[..., :3] *= 1.0 - shade[..., None]
    rgba[..., 3] = shade + rgba[..., 3] * (1.0 - shade)
    glare_strength = float(rng.uniform(0, 0.35)) if rng.random() < 0.6 else 0.0
    glare_angle = float(rng.uniform(0, 2 * math.pi))
    order = sorted(range(len(placements)), key=lambda i: (placements[i].layer, polys[i][:, 1].max()))
    for i in order:
        p = placements[i]
        w_px, h_px, side_px, x_px, y_px, rot = _pixel_geometry(p, g, scale, to_plane)
        face = None if p.face_down else faces.face(p.cls, rng)
        if face is not None and p.sideways:
            face = np.rot90(face, 1 if rng.random() < 0.5 else 3)
        glare = (glare_strength * float(rng.uniform(0.4, 1.0)), glare_angle, float(rng.uniform(0.0, 1.4)))
        if p.standing:
            sprite = render_standing(face, w_px, h_px, side_px, look, glare)
        else:
            sprite = render_tile(face, w_px, h_px, side_px, look, p.face_down, glare)
        ox, oy = x_px, y_px
        if rot is not None:
            corners = np.array([[0, 0], [w_px, 0], [w_px, h_px + side_px], [0, h_px + side_px]], np.float64)
            turned = corners @ rot[:, :2].T + rot[:, 2]
            mn = np.floor(turned.min(0)).astype(int)
            mx = np.ceil(turned.max(0)).astype(int)
            m = rot.copy()
            m[:, 2] -= mn
            out_size = (int(mx[0] - mn[0]) + 1, int(mx[1] - mn[1]) + 1)
            sprite = cv2.warpAffine(sprite, m, out_size, flags=cv2.INTER_LINEAR, borderValue=0)
            ox, oy = x_px + int(mn[0]), y_px + int(mn[1])
        drawn[i] = _over(rgba, owner, i, sprite, ox, oy)
    return rgba, owner, drawn


def _over(rgba: np.ndarray, owner: np.ndarray | None, index: int | None, sprite: np.ndarray, ox: int, oy: int) -> int:
    """Composite a premultiplied RGBA sprite over the plane at (ox, oy), clipped to the plane; mark the pixels it
    owns (alpha over one half) in `owner` (unless None) and return how many there are."""
    Ph, Pw = rgba.shape[:2]
    h, w = sprite.shape[:2]
    x0, y0, x1, y1 = max(ox, 0), max(oy, 0), min(ox + w, Pw), min(oy + h, Ph)
    if x0 >= x1 or y0 >= y1:
        return 0
    src = sprite[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
    dst = rgba[y0:y1, x0:x1]
    dst *= 1.0 - src[..., 3:4]
    dst += src
    solid = src[..., 3] > 0.5
    if owner is not None:
        owner[y0:y1, x0:x1][solid] = index
    return int(solid.sum())


def _uncovered_outline(owner: np.ndarray, index: int, poly: np.ndarray, drawn: int) -> np.ndarray | None:
    """Plane-pixel outline of what is still seen of tile `index`: its sprite corners when (almost) nothing covers
    it, the convex hull of its uncovered pixels when other tiles lie over part of it, None when mostly covered."""
    if drawn == 0:
        return None
    Ph, Pw = owner.shape
    x0, y0 = np.maximum(np.floor(poly.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(poly.max(0)).astype(int) + 2, [Pw, Ph])
    mine = owner[y0:y1, x0:x1] == index
    seen = int(mine.sum())
    if seen >= FULLY_UNCOVERED * drawn:
        return poly
    if seen < MIN_UNCOVERED * drawn:
        return None
    ys, xs = np.nonzero(mine)
    # Pixel corners, not centres, so the outline covers whole pixels like the sprite corners do.
    pts = (np.concatenate([np.c_[xs, ys], np.c_[xs + 1, ys + 1]]) + [x0, y0]).astype(np.float32)
    return cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)


def _add_fingers(img: np.ndarray, rng: np.random.Generator, hand: list[np.ndarray]):
    """Fingers reaching toward the hand, with their shadow; returns (image, finger mask or None)."""
    if not hand:
        return img, None
    H, W = img.shape[:2]
    centres = np.array([o.mean(axis=0) for o in hand])
    tile_px = float(np.median([min(np.ptp(o[:, 0]), np.ptp(o[:, 1])) for o in hand]))
    colour, alpha = random_fingers(rng, W, H, centres, max(tile_px, 4.0))
    img = img * finger_shadow(alpha, rng, tile_px)[..., None]
    return colour + img * (1.0 - alpha[..., None]), alpha > 0.5


def _uncovered_by_finger(outline: np.ndarray, finger: np.ndarray) -> np.ndarray | None:
    """The outline of what a finger leaves visible of a tile (photo pixels); None when it covers half or more."""
    H, W = finger.shape
    x0, y0 = np.maximum(np.floor(outline.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(outline.max(0)).astype(int) + 1, [W, H])
    if x0 >= x1 or y0 >= y1:
        return outline
    over = finger[y0:y1, x0:x1]
    if not over.any():
        return outline
    mine = np.zeros(over.shape, np.uint8)
    cv2.fillConvexPoly(mine, np.round(outline - [x0, y0]).astype(np.int32), 1)
    area = int(mine.sum())
    seen = mine.astype(bool) & ~over
    n_seen = int(seen.sum())
    if area == 0 or n_seen >= FULLY_UNCOVERED * area:
        return outline
    if n_seen < MIN_UNCOVERED * area:
        return None
    ys, xs = np.nonzero(seen)
    pts = (np.concatenate([np.c_[xs, ys], np.c_[xs + 1, ys + 1]]) + [x0, y0]).astype(np.float32)
    return cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)


def _visible_box(poly: np.ndarray, W: int, H: int) -> tuple[float, float, float, float] | None:
    x1, y1 = poly.min(0)
    x2, y2 = poly.max(0)
    cx1, cy1, cx2, cy2 = max(x1, 0.0), max(y1, 0.0), min(x2, float(W)), min(y2, float(H))
    if cx2 - cx1 < MIN_SIDE_PX or cy2 - cy1 < MIN_SIDE_PX:
        return None
    if (cx2 - cx1) * (cy2 - cy1) < MIN_VISIBLE * (x2 - x1) * (y2 - y1):
        return None
    return (float(cx1), float(cy1), float(cx2), float(cy2))


def _tile_px(tiles: list[LabelledTile]) -> float:
    """Median short side of the labelled boxes: how big tiles appear in this photo."""
    if not tiles:
        return 0.0
    return float(np.median([min(t.box[2] - t.box[0], t.box[3] - t.box[1]) for t in tiles]))
