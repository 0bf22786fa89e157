"""Tile faces from the three art sets in ../shared/tileart, read at run time when the folder is present.

Each set becomes one or more styles: a dict class id -> list of RGB face arrays at drawn.BASE_SIZE. Faces keep their
own face colour; fluffystuff's transparent face layers are laid over an ivory (Regular) or dark (Black) face.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from scoring.tiles import CLASS_NAMES
from vision.synth.drawn import BASE_SIZE

Faces = dict[int, list[np.ndarray]]


def _class_id(name: str | None) -> int | None:
    """Canonical class of a map.json value; red-five variants ("5m (red five variant)") count as their five."""
    if not name:
        return None
    token = name.split()[0]
    return CLASS_NAMES.index(token) if token in CLASS_NAMES else None


def _fit(img: Image.Image, background: tuple[int, int, int] | None = None) -> np.ndarray:
    rgba = img.convert("RGBA")
    if background is not None:
        base = Image.new("RGBA", rgba.size, background + (255,))
        rgba = Image.alpha_composite(base, rgba)
    arr = np.asarray(rgba.convert("RGB"))
    return cv2.resize(arr, BASE_SIZE, interpolation=cv2.INTER_AREA)


def _fluffy(root: Path, folder: str, face: tuple[int, int, int]) -> Faces:
    mapping = json.loads((root / "map.json").read_text())["map"]
    faces: Faces = {}
    for stem, name in mapping.items():
        cls = _class_id(name)
        path = root / "Export" / folder / f"{stem}.png"
        if cls is None or not path.exists():
            continue
        if cls == CLASS_NAMES.index("back"):
            continue  # the renderer draws backs in the tile's own back colour
        img = Image.open(path).convert("RGBA")
        # The art runs to the canvas edge (the body is a separate layer): give it the margin a printed face has.
        w, h = img.size
        padded = Image.new("RGBA", (int(w * 1.16), int(h * 1.12)), (0, 0, 0, 0))
        padded.paste(img, ((padded.width - w) // 2, (padded.height - h) // 2))
        faces.setdefault(cls, []).append(_fit(padded, face))
    return faces


def _flat(root: Path, mapping: dict[str, str], pattern: str) -> Faces:
    faces: Faces = {}
    for stem, name in mapping.items():
        cls = _class_id(name)
        path = root / pattern.format(stem=stem)
        if cls is None or not path.exists():
            continue
        faces.setdefault(cls, []).append(_fit(Image.open(path)))
    return faces


def art_style_names(tileart: Path | None) -> tuple[str, ...]:
    """Styles whose art set is present under `tileart` (../shared/tileart); () when it is None or missing."""
    if tileart is None or not tileart.is_dir():
        return ()
    present = {
        "fluffy_regular": tileart / "fluffystuff" / "map.json",
        "fluffy_black": tileart / "fluffystuff" / "map.json",
        "gleitz": tileart / "gleitz" / "map.json",
        "ffalt_uni": tileart / "ffalt_uni_wikimedia_pd" / "map.json",
        "ffalt_unib": tileart / "ffalt_uni_wikimedia_pd" / "map.json",
    }
    return tuple(name for name, marker in present.items() if marker.exists())


@lru_cache(maxsize=None)
def load_art_style(tileart: Path, name: str) -> Faces:
    """The faces of one style, read on first use. Raises LookupError when the set lacks any of the 34 faces."""
    if name.startswith("fluffy_"):
        folder, face = ("Regular", (244, 242, 236)) if name == "fluffy_regular" else ("Black", (40, 40, 44))
        faces = _fluffy(tileart / "fluffystuff", folder, face)
    elif name == "gleitz":
        root = tileart / "gleitz"
        faces = _flat(root, json.loads((root / "map.json").read_text()), "{stem}.png")
    elif name in ("ffalt_uni", "ffalt_unib"):
        root = tileart / "ffalt_uni_wikimedia_pd"
        mapping = json.loads((root / "map.json").read_text())["map"]
        faces = _flat(root, mapping, f"png/{name.split('_')[1]}_{{stem}}.png")
    else:
        raise LookupError(f"unknown art style {name!r}")
    missing = [CLASS_NAMES[k] for k in range(34) if k not in faces]
    if missing:
        raise LookupError(f"art style {name} under {tileart} lacks faces for {', '.join(missing)}")
    return faces
