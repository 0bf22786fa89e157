"""Where each tile lies on the table, in tile widths (x right, y toward the camera).

A hand is laid out as players show it: the concealed row, the winning tile at its right end (often set apart),
the declared melds as groups beside the row or above it (the claimed tile turned sideways, concealed kongs with
two or four backs), and sometimes discards or stray tiles around. Every placement keeps its role and meld index
so the layout JSON can say which tiles form which meld. How far apart the parts lie is a `Spacing`: `LOOSE` (as
real photos often are) or `CONVENTIONAL` (as docs/photo-layout.md asks players to lay a hand out).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from scoring.tiles import BACK, FLOWER
from vision.synth.hands import HandSpec, MeldSpec


@dataclass(frozen=True)
class Geometry:
    """Sizes on the table plane, in tile widths, for one photo's tile set and camera tilt.

    A raised surface seen at tilt t lands `height * tan(t)` further from the camera on the plane, so vertical faces
    are drawn on the plane stretched by tan(t); the warp then foreshortens them back to their seen height.
    """

    aspect: float  # face height / width
    side: float  # drawn depth of a flat tile's near side
    lift: float  # plane shift of a tile lying on top of another (one thickness higher)
    stand_top: float  # drawn depth of a standing tile's top edge
    stand_face: float  # drawn height of a standing tile's face


@dataclass(frozen=True)
class Spacing:
    """How far apart the hand's parts are laid, in tile widths of empty table."""

    win_apart_share: float  # share of hands whose winning tile is set apart (the others keep the row's spacing)
    win_gap: tuple[float, float]  # range of that gap
    group_gap: tuple[float, float]  # range of the gap between melds, and between a meld and the row beside it
    clear_near_side: bool  # melds above the row keep their gap from the row beyond their own near side
    extras_margin: float  # empty table around each hand tile that discards, the wall and strays stay out of
    clear_in_line: float  # table in line with the concealed row, this far beyond either end, kept free of extras
    # (a lone tile there reads as the winning tile set apart)


# LOOSE is what the generator has always drawn (the default stream and the training data must not change).
# CONVENTIONAL keeps every gap clear of vision.synth.convention's limits (win 0.3, meld 1/3, stray 1 tile), with room
# for the row's wobble: a meld above the row keeps its gap beyond its near side, which tilted photos stretch up to
# a tile deep on the table plane.
LOOSE = Spacing(win_apart_share=0.7, win_gap=(0.35, 1.2), group_gap=(0.3, 1.0), clear_near_side=False,
                extras_margin=0.15, clear_in_line=0.0)
CONVENTIONAL = Spacing(win_apart_share=1.0, win_gap=(0.5, 1.2), group_gap=(0.45, 1.0), clear_near_side=True,
                       extras_margin=1.15, clear_in_line=3.0)
SPACINGS = {"any": LOOSE, "conventional": CONVENTIONAL}


@dataclass(frozen=True)
class Placement:
    cls: int  # the tile's kind 0..33, or FLOWER; a face-down tile keeps its kind here and is labelled `back`
    role: str  # concealed | win | meld | discard | clutter
    meld: int | None
    sideways: bool
    face_down: bool
    x: float  # top-left of the top surface before rotation
    y: float
    angle: float = 0.0  # degrees, about the centre of the tile's full footprint (top surface + side)
    side_hidden: bool = False  # a nearer tile touches it, so its near side is not seen
    standing: bool = False  # stood on its edge, face toward the camera
    layer: int = 0  # drawing order before nearness: tiles on top of others have a higher layer

    def size(self, aspect: float) -> tuple[float, float]:
        """(w, h) of the top surface of a flat tile in tile widths."""
        return (aspect, 1.0) if self.sideways else (1.0, aspect)

    def sprite(self, g: Geometry) -> tuple[float, float, float]:
        """(width, top part, lower part) of the drawn sprite: top surface and near side for a flat tile, top edge
        and face for a standing one. The lower part of a flat tile is 0 when its side is hidden."""
        if self.standing:
            return 1.0, g.stand_top, g.stand_face
        w, h = self.size(g.aspect)
        return w, h, 0.0 if self.side_hidden else g.side

    def full_height(self, g: Geometry) -> float:
        """Sprite height with the lower part shown: rotations turn about the centre of this box."""
        w, top, lower = self.sprite(g)
        return top + (g.side if not self.standing else lower)

    @property
    def label(self) -> int:
        return BACK if self.face_down else self.cls


def footprint(p: Placement, g: Geometry) -> np.ndarray:
    """(4, 2) corners of the tile's drawn sprite (top surface plus near side, or top edge plus face), rotated."""
    w, top, lower = p.sprite(g)
    corners = np.array([[0, 0], [w, 0], [w, top + lower], [0, top + lower]], np.float64)
    centre = np.array([w / 2, p.full_height(g) / 2])
    if p.angle:
        a = math.radians(p.angle)
        rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
        corners = (corners - centre) @ rot.T + centre
    return corners + np.array([p.x, p.y])


def _meld_slots(meld: MeldSpec, rng: np.random.Generator) -> list[tuple[int, bool, bool, bool]]:
    """(kind, sideways, face_down, stacked-above-previous) for each tile of a declared meld, in display order."""
    tiles = list(meld.tiles)
    if meld.type == "chow":
        claimed = int(rng.integers(3))
        tiles = [tiles[claimed]] + tiles[:claimed] + tiles[claimed + 1:] if rng.random() < 0.5 else tiles
    n = len(tiles)
    if meld.type == "kong_concealed":
        roll = rng.random()
        if roll < 0.45:
            down = {0, 3}
        elif roll < 0.65:
            down = {1, 2}
        else:
            down = {0, 1, 2, 3}
        return [(k, False, i in down, False) for i, k in enumerate(tiles)]
    turned = int(rng.integers(3 if n == 3 else 4)) if rng.random() < 0.7 else None
    slots = [(k, i == turned, False, False) for i, k in enumerate(tiles)]
    if meld.type == "kong_added" and turned is not None and rng.random() < 0.6:
        # The added tile lies on the far side of the claimed sideways tile (as in riichi play).
        slots = [s for i, s in enumerate(slots) if i != (turned + 1) % 4]
        slots.insert(slots.index((tiles[turned], True, False, False)) + 1, (tiles[0], True, False, True))
    return slots


def _lay_group(slots, x: float, base: float, g: Geometry, gap: float, role: str, meld: int | None,
               standing: bool = False):
    """Place slots left to right from x, top surfaces ending at `base`; returns (placements, right edge)."""
    out: list[Placement] = []
    for kind, sideways, face_down, stacked in slots:
        w, h = (g.aspect, 1.0) if sideways else (1.0, g.aspect)
        if stacked:
            below = out[-1]
            out.append(Placement(kind, role, meld, True, face_down, below.x, below.y - 1.0, side_hidden=True))
            continue
        if standing:  # the sprite's bottom (face foot) lines up with a flat tile's near side
            y = base + g.side - g.stand_top - g.stand_face
            out.append(Placement(kind, role, meld, False, False, x, y, standing=True))
        else:
            out.append(Placement(kind, role, meld, sideways, face_down, x, base - h))
        x += w + gap
    return out, x - gap


def layout_hand(hand: HandSpec, rng: np.random.Generator, g: Geometry, standing: bool = False,
                spacing: Spacing = LOOSE) -> list[Placement]:
    """Hand tiles only: the concealed row (flat, or standing toward the camera), the winning tile and the melds."""
    aspect = g.aspect
    gap = float(rng.uniform(0.0, 0.06)) if rng.random() < 0.8 else float(rng.uniform(0.06, 0.2))
    wobble = rng.random() < 0.4  # tiles pushed into a row by hand are a little askew
    if wobble:
        gap = max(gap, 0.08)  # room for a 2-degree turn without touching the neighbour
    concealed = list(hand.concealed)
    if rng.random() < 0.15:  # not everyone sorts: move one run of tiles elsewhere
        i, j = sorted(rng.choice(len(concealed) + 1, size=2, replace=False))
        run = concealed[i:j]
        del concealed[i:j]
        k = int(rng.integers(len(concealed) + 1))
        concealed[k:k] = run
    row, right = _lay_group([(k, False, False, False) for k in concealed], 0.0, aspect, g, gap, "concealed", None,
                            standing)
    if hand.win_tile is not None:
        apart = rng.random() < spacing.win_apart_share
        wgap = float(rng.uniform(*spacing.win_gap)) if apart else gap
        win, right = _lay_group([(hand.win_tile, False, False, False)], right + wgap, aspect, g, gap, "win", None,
                                standing and (not apart or rng.random() < 0.5))
        row += win
    if wobble:
        row = [replace(p, angle=float(np.clip(rng.normal(0, 1.0), -2, 2)), y=p.y + float(rng.normal(0, 0.03)))
               for p in row]
    groups = [_meld_slots(m, rng) for m in hand.melds]
    mode = str(rng.choice(["left", "right", "above", "split"], p=[0.35, 0.25, 0.3, 0.1])) if groups else "none"
    group_gap = float(rng.uniform(*spacing.group_gap))
    mgap = float(rng.uniform(0.0, 0.06))
    placed: list[Placement] = []
    if mode in ("left", "split"):
        n_left = len(groups) if mode == "left" else int(rng.integers(1, len(groups) + 1))
        widths = [_group_width(grp, aspect, mgap) for grp in groups[:n_left]]
        x = -sum(widths) - group_gap * n_left
        for i, grp in enumerate(groups[:n_left]):
            ps, end = _lay_group(grp, x, aspect, g, mgap, "meld", i)
            placed += ps
            x = end + group_gap
        rest = range(n_left, len(groups))
        x = right + group_gap * 1.5
    elif mode == "right":
        rest = range(len(groups))
        x = right + float(rng.uniform(0.8, 2.0))
    else:
        rest = range(0)
    for i in rest:
        ps, end = _lay_group(groups[i], x, aspect, g, mgap, "meld", i)
        placed += ps
        x = end + group_gap
    if mode == "above":
        top = min(p.y for p in row)
        placed += _melds_above(groups, rng, g, mgap, group_gap, right, top, spacing.clear_near_side)
    return row + placed


def _group_width(slots, aspect: float, gap: float) -> float:
    widths = [aspect if s[1] else 1.0 for s in slots if not s[3]]
    return sum(widths) + gap * (len(widths) - 1)


def _melds_above(groups, rng, g: Geometry, mgap: float, group_gap: float, row_right: float,
                 row_top: float, clear_near_side: bool = False) -> list[Placement]:
    """Melds in one or two rows above the concealed row (far side of the table)."""
    rows: list[list[int]] = [[]]
    limit = max(row_right * float(rng.uniform(0.6, 1.1)), 11.0)
    width = 0.0
    for i, grp in enumerate(groups):
        w = _group_width(grp, g.aspect, mgap) + group_gap
        if rows[-1] and width + w > limit:
            rows.append([])
            width = 0.0
        rows[-1].append(i)
        width += w
    out: list[Placement] = []
    vgap = float(rng.uniform(0.4, 1.2)) + (g.side if clear_near_side else 0.0)
    base = row_top - vgap
    for row in rows:
        # Stacked (kong_added) tiles need one more tile width of room above their row.
        stacked = any(slot[3] for i in row for slot in groups[i])
        x = float(rng.uniform(-1.0, max(row_right - limit, 0.0) + 1.0))
        for i in row:
            ps, end = _lay_group(groups[i], x, base, g, mgap, "meld", i)
            out += ps
            x = end + group_gap
        base -= g.aspect + g.side + (1.0 if stacked else 0.0) + vgap
    return out


def add_extras(placements: list[Placement], hand: HandSpec, rng: np.random.Generator, g: Geometry,
               spacing: Spacing = LOOSE) -> list[Placement]:
    """Discards (a tidy grid beyond the hand), a stretch of wall (two layers of backs), a heap of loose tiles
    (turned, overlapping, some face-down) and single strays. None of them comes within `spacing.extras_margin` of a
    hand tile, nor in line with the concealed row within `spacing.clear_in_line` beyond its ends (those that would
    are left out)."""
    pool = list(hand.pool)
    boxes = [_aabb(footprint(p, g), spacing.extras_margin) for p in placements]
    x0 = min(b[0] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y0 = min(b[1] for b in boxes)
    y1 = max(b[3] for b in boxes)
    if spacing.clear_in_line:
        boxes.append(in_line_with_row(placements, g, spacing.clear_in_line))
    out = list(placements)

    def draw_kind() -> int:
        if rng.random() < 0.04:
            return FLOWER
        left = [k for k in range(34) if pool[k] > 0] or list(range(34))
        kind = int(rng.choice(left))
        pool[kind] = max(pool[kind] - 1, 0)
        return kind

    def add_if_free(group: list[Placement]) -> None:
        group_boxes = [_aabb(footprint(p, g), 0.05) for p in group]
        if group and not any(_overlaps(b, boxes) for b in group_boxes):
            out.extend(group)
            boxes.extend(group_boxes)

    if rng.random() < 0.1:  # flowers and seasons drawn during play, laid out beside the hand
        n = int(rng.integers(1, 5))
        fx = x0 - float(rng.uniform(1.2, 2.5)) - n * 1.05 if rng.random() < 0.5 else x1 + float(rng.uniform(1.2, 2.5))
        fy = (y1 - g.aspect - g.side) if rng.random() < 0.6 else (y0 - float(rng.uniform(1.0, 2.0)) - g.aspect)
        add_if_free([Placement(FLOWER, "clutter", None, False, False, fx + i * 1.05, fy) for i in range(n)])
    if rng.random() < 0.3:
        per_row = int(rng.integers(4, 8))
        n_rows = int(rng.integers(1, 4))
        n = int(rng.integers(per_row * (n_rows - 1) + 1, per_row * n_rows + 1))
        gx = float(rng.uniform(x0, max(x0, x1 - per_row)))
        gy = y0 - float(rng.uniform(1.0, 3.0)) - n_rows * g.aspect - g.side
        # Half the time the discards are another player's, turned to face that player's seat.
        grid_angle = float(rng.normal(0, 4)) + float(rng.choice([0, 0, 0, 90, 180, 270]))
        grid = []
        for i in range(n):
            r, c = divmod(i, per_row)
            last_row = r == (n - 1) // per_row
            # Rows touch: only the nearest row shows its side; tiles of the next row cover the rest.
            grid.append(Placement(draw_kind(), "discard", None, False, False, gx + c * 1.03, gy + r * g.aspect,
                                  side_hidden=not last_row))
        grid = _turn_group(grid, grid_angle, g)
        add_if_free(grid)
    if rng.random() < 0.2:  # a stretch of the wall: two layers of face-down tiles, side by side
        n = int(rng.integers(4, 13))
        sideways = bool(rng.random() < 0.5)
        step = g.aspect if sideways else 1.0
        wx = float(rng.uniform(x0 - 2, max(x0 - 2, x1 - n * step + 2)))
        wy = (y0 - float(rng.uniform(2.0, 5.0))) if rng.random() < 0.7 else (y1 + float(rng.uniform(0.5, 2.0)))
        wall = []
        for i in range(n):
            for level in (0, 1):
                wall.append(Placement(draw_kind(), "clutter", None, sideways, True, wx + i * step,
                                      wy - level * g.lift, layer=level))
        add_if_free(wall)
    if rng.random() < 0.15:  # a heap of loose tiles, drawn in random order so they lie over each other
        cx, cy = float(rng.uniform(x0, x1)), y0 - float(rng.uniform(3.0, 6.0))
        heap = [Placement(draw_kind(), "clutter", None, False, bool(rng.random() < 0.5),
                          cx + float(rng.normal(0, 1.5)), cy + float(rng.normal(0, 1.0)),
                          float(rng.uniform(-180, 180)), layer=2 + i)
                for i in range(int(rng.integers(5, 16)))]
        add_if_free(heap)
    if rng.random() < 0.35:
        for _ in range(int(rng.integers(1, 5))):
            for _try in range(8):
                p = Placement(
                    draw_kind(), "clutter", None, False, bool(rng.random() < 0.4),
                    float(rng.uniform(x0 - 4, x1 + 3)), float(rng.uniform(y0 - 5, y1 + 4)),
                    float(rng.uniform(-180, 180)),
                )
                box = _aabb(footprint(p, g), 0.15)
                if not _overlaps(box, boxes):
                    out.append(p)
                    boxes.append(box)
                    break
    return out


def in_line_with_row(placements: list[Placement], g: Geometry, reach: float) -> tuple[float, float, float, float]:
    """The table in line with the concealed row (winning tile included), up to `reach` beyond either end."""
    row = np.concatenate([footprint(p, g) for p in placements if p.role in ("concealed", "win")])
    return row[:, 0].min() - reach, row[:, 1].min(), row[:, 0].max() + reach, row[:, 1].max()


def _turn_group(group: list[Placement], angle: float, g: Geometry) -> list[Placement]:
    """Turn a group of tiles as one piece about its centre (each tile turns, and its position moves round)."""
    a = math.radians(angle)
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])  # as footprint() turns corners
    half = np.array([[p.sprite(g)[0] / 2, p.full_height(g) / 2] for p in group])
    centres = np.array([[p.x, p.y] for p in group]) + half
    middle = centres.mean(axis=0)
    moved = (centres - middle) @ rot.T + middle - half
    return [replace(p, x=float(x), y=float(y), angle=p.angle + angle) for p, (x, y) in zip(group, moved, strict=True)]


def _aabb(poly: np.ndarray, margin: float) -> tuple[float, float, float, float]:
    return (poly[:, 0].min() - margin, poly[:, 1].min() - margin, poly[:, 0].max() + margin,
            poly[:, 1].max() + margin)


def _overlaps(box, boxes) -> bool:
    return any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes)
