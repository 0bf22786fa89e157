"""Face sources for one photo: one tile set, drawn by us or taken from an art set in ../shared/tileart.

Drawn sets and art sets get equal shares, and each art set an equal part of its share, so no single style dominates;
without ../shared every photo uses drawn sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scoring.tiles import FLOWER
from vision.synth.artsets import Faces, art_style_names, load_art_style
from vision.synth.drawn import Scheme, draw_face, scheme_pool


@dataclass(frozen=True)
class FaceSet:
    name: str
    scheme: Scheme  # drawn faces, and the fallback for kinds an art set lacks (flowers)
    art: Faces | None = None

    def face(self, kind: int, rng: np.random.Generator) -> np.ndarray:
        """RGB face art (drawn.BASE_SIZE) for a kind 0..33 or FLOWER; art sets pick one of their variants."""
        if self.art is not None and kind in self.art:
            variants = self.art[kind]
            return variants[int(rng.integers(len(variants)))]
        return draw_face(kind, self.scheme, int(rng.integers(8)) if kind == FLOWER else 0)


def pick_face_set(rng: np.random.Generator, tileart: Path | None) -> FaceSet:
    pool = scheme_pool()
    scheme = pool[int(rng.integers(len(pool)))]
    styles = art_style_names(tileart)
    if styles and rng.random() < 0.5:
        name = styles[int(rng.integers(len(styles)))]
        return FaceSet(name, scheme, load_art_style(tileart, name))
    return FaceSet(f"drawn:{scheme.name}", scheme)
