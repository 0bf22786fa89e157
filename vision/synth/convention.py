"""How far a generated layout keeps to the photo convention (docs/photo-layout.md), measured on the table plane.

The generator draws layouts more loosely than the convention asks (a winning tile not set apart, a meld close to
the row, a stray tile beside the hand), as real photos are. These measures let a benchmark tell photos whose answer
the convention decides from those where it cannot.
"""

from __future__ import annotations

import numpy as np

from scoring.tiles import FLOWER
from vision.synth.layout import Geometry, Placement, footprint

HAND_ROLES = ("concealed", "win", "meld")


def _bounds(tiles: list[Placement], g: Geometry) -> np.ndarray:
    """(N, 4) axis-aligned plane bounds x0, y0, x1, y1 of the tiles' drawn sprites."""
    polys = np.stack([footprint(p, g) for p in tiles])
    return np.concatenate([polys.min(axis=1), polys.max(axis=1)], axis=1)


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """The smallest empty space between two sets of bounds, in tile widths (0 where they touch or overlap)."""
    dx = np.maximum(b[None, :, 0] - a[:, None, 2], a[:, None, 0] - b[None, :, 2])
    dy = np.maximum(b[None, :, 1] - a[:, None, 3], a[:, None, 1] - b[None, :, 3])
    return float(np.maximum(np.maximum(dx, dy), 0.0).min())


def layout_facts(placements: list[Placement], g: Geometry) -> dict:
    """``win_gap``: space between the winning tile and the concealed row (None without one); ``meld_gap``: the
    smallest space between a meld and the rest of the hand (None without melds); ``stray_gap``: the smallest space
    between a tile that is not the hand's (flowers aside) and the hand (None without any). Tile widths."""
    groups: dict[object, list[Placement]] = {}
    for p in placements:
        if p.role in HAND_ROLES:
            groups.setdefault(p.meld if p.role == "meld" else p.role, []).append(p)
    bounds = {key: _bounds(tiles, g) for key, tiles in groups.items()}
    win_gap = _gap(bounds["win"], bounds["concealed"]) if "win" in bounds and "concealed" in bounds else None
    melds = [key for key in bounds if isinstance(key, int)]
    meld_gap = min(
        (_gap(bounds[m], bounds[other]) for m in melds for other in bounds if other != m), default=None
    )
    strays = [p for p in placements if p.role not in HAND_ROLES and p.cls != FLOWER]
    hand = np.concatenate(list(bounds.values())) if bounds else np.zeros((0, 4))
    stray_gap = _gap(_bounds(strays, g), hand) if strays and len(hand) else None
    return {
        "win_gap": None if win_gap is None else round(win_gap, 3),
        "meld_gap": None if meld_gap is None else round(meld_gap, 3),
        "stray_gap": None if stray_gap is None else round(stray_gap, 3),
    }


# The convention's numbers (docs/photo-layout.md): the winning tile about half a tile apart (generated photos set it
# 0.35 tile or more apart, or at the row's spacing), a meld at least a third of a tile from its neighbours, discards
# and strays a tile or more away from the hand.
WIN_APART = 0.3
MELD_APART = 1 / 3
STRAY_APART = 1.0


def convention_breaks(scene: dict) -> list[str]:
    """The ways a generated photo's layout leaves the convention, from its scene's layout facts: the answer then
    rests on a fallback (the right-most tile as the winning tile) or on spacing the convention does not promise."""
    breaks = []
    if scene["win_gap"] is not None and scene["win_gap"] < WIN_APART:
        breaks.append("win_not_set_apart")
    if scene["meld_gap"] is not None and scene["meld_gap"] < MELD_APART:
        breaks.append("meld_too_close")
    if scene["stray_gap"] is not None and scene["stray_gap"] < STRAY_APART:
        breaks.append("stray_near_hand")
    return breaks
