"""Face sources for one photo: one tile set, drawn by us or taken from an art set in ../shared/tileart.

Drawn sets and art sets get equal shares, and each art set an equal part of its share, so no single style dominates;
without ../shared every photo uses drawn sets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from scoring.tiles import FLOWER
from vision.synth.artsets import Faces, art_style_names, load_art_style
from vision.synth.drawn import Scheme, draw_face, scheme_pool
from vision.synth.tile import border_colour


@dataclass(frozen=True)
class FaceSet:
    name: str
    scheme: Scheme  # drawn faces, and the fallback for kinds an art set lacks (flowers)
    art: Faces | None = None
    ink: np.ndarray | None = field(default=None, compare=False)  # 3x3 colour mix of the ink, None = as drawn

    def face(self, kind: int, rng: np.random.Generator) -> np.ndarray:
        """RGB face art (drawn.BASE_SIZE) for a kind 0..33 or FLOWER; art sets pick one of their variants."""
        if self.art is not None and kind in self.art:
            variants = self.art[kind]
            face = variants[int(rng.integers(len(variants)))]
        else:
            face = draw_face(kind, self.scheme, int(rng.integers(8)) if kind == FLOWER else 0)
        return face if self.ink is None else _reink(face, self.ink)


def _reink(face: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """Recolour the ink (what differs from the face colour) and leave the face colour as it is: another printing
    of the same set, or ink faded by years of play."""
    base = np.array(border_colour(face), np.float32)
    out = base + (face.astype(np.float32) - base) @ ink.T
    return np.clip(out, 0, 255).astype(np.uint8)


def random_ink(rng: np.random.Generator) -> np.ndarray:
    """A colour mix near the identity: channels leak a little into each other and contrast fades a little."""
    return (np.eye(3) * rng.uniform(0.75, 1.05) + rng.normal(0, 0.12, (3, 3))).astype(np.float32)


def pick_face_set(rng: np.random.Generator, tileart: Path | None, art_style: str | None = None) -> FaceSet:
    """The photo's tile set; ``art_style`` (an art set under ``tileart``) fixes it to that set."""
    pool = scheme_pool()
    scheme = pool[int(rng.integers(len(pool)))]
    if art_style is not None:
        return FaceSet(art_style, scheme, load_art_style(tileart, art_style), random_ink(rng) if rng.random() < 0.6 else None)
    styles = art_style_names(tileart)
    if styles and rng.random() < 0.5:
        name = styles[int(rng.integers(len(styles)))]
        ink = random_ink(rng) if rng.random() < 0.6 else None
        return FaceSet(name, scheme, load_art_style(tileart, name), ink)
    return FaceSet(f"drawn:{scheme.name}", scheme, None, random_ink(rng) if rng.random() < 0.3 else None)
