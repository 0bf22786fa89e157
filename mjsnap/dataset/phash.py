"""Perceptual hashes (dHash, pHash; numpy + PIL only) and clustering of near-duplicate photos.

Two photos of the same hand taken a moment apart, a re-saved copy, or a tool's resized copy hash within a few bits
of each other; different scenes differ in about half of the 64 bits. Photos are linked when either hash is within
``max_distance`` bits (either: a pair missed here would leak between train and val), and also when their names
carry the same Roboflow source (``NAME_jpg.rf.<hash>.jpg``: augmented copies of one photo, which may be turned or
flipped beyond what a perceptual hash sees). Clusters are the connected groups.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image
from vision.imageio import opened_photo, upright

HASH_SIDE = 8
PHASH_SIDE = 32
DEFAULT_MAX_DISTANCE = 10
_ROBOFLOW_COPY = re.compile(r"^(?P<source>.+?)_(?:jpe?g|png|webp|bmp|heic)\.rf\.[0-9a-f]{8,}$", re.IGNORECASE)


@dataclass(frozen=True)
class PhotoHash:
    name: str
    dhash: int
    phash: int


def _grey(image: Image.Image, size: tuple[int, int]) -> np.ndarray:
    image.draft("L", (size[0] * 4, size[1] * 4))  # JPEG: decode at a reduced scale, much faster on big photos
    grey = upright(image).convert("L").resize(size, Image.Resampling.BOX)
    return np.asarray(grey, dtype=np.float64)


def _bits_to_int(bits: np.ndarray) -> int:
    return int("".join("1" if b else "0" for b in bits.ravel()), 2)


def dhash(image: Image.Image) -> int:
    """64-bit difference hash: is each pixel brighter than its right neighbour, on a 9x8 grey thumbnail."""
    grey = _grey(image, (HASH_SIDE + 1, HASH_SIDE))
    return _bits_to_int(grey[:, 1:] > grey[:, :-1])


@lru_cache(maxsize=1)
def _dct_matrix() -> np.ndarray:
    n = np.arange(PHASH_SIDE)
    matrix = np.cos(np.pi * (2 * n[None, :] + 1) * n[:, None] / (2 * PHASH_SIDE))
    matrix[0] *= 1 / np.sqrt(2)
    return matrix * np.sqrt(2 / PHASH_SIDE)


def phash(image: Image.Image) -> int:
    """64-bit DCT hash: the 8x8 lowest frequencies of a 32x32 grey thumbnail against their median (DC excluded)."""
    grey = _grey(image, (PHASH_SIDE, PHASH_SIDE))
    dct = _dct_matrix() @ grey @ _dct_matrix().T
    low = dct[:HASH_SIDE, :HASH_SIDE].ravel()
    return _bits_to_int(low > np.median(low[1:]))


def hash_photo(path: Path, name: str | None = None) -> PhotoHash:
    with opened_photo(path) as image:  # ImageReadError names a photo that cannot be read (Pillow's words do not)
        return PhotoHash(name or Path(path).stem, dhash(image), phash(image))


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def roboflow_source(name: str) -> str | None:
    """The source photo a Roboflow export copy was made from (``IMG_1_jpg.rf.ab12...`` -> ``IMG_1``), else None."""
    match = _ROBOFLOW_COPY.match(name)
    return match.group("source") if match else None


def _distances(values: np.ndarray, index: int) -> np.ndarray:
    """Hamming distances from values[index] to every later value (uint64 popcount through bytes)."""
    xor = np.bitwise_xor(values[index + 1 :], values[index])
    return np.unpackbits(xor.view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1)


def cluster(hashes: Sequence[PhotoHash], max_distance: int = DEFAULT_MAX_DISTANCE) -> list[list[str]]:
    """Groups of near-duplicate photo names (each group sorted, groups sorted by their first name)."""
    parent = list(range(len(hashes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int) -> None:
        parent[find(i)] = find(j)

    d = np.array([h.dhash for h in hashes], dtype=np.uint64)
    p = np.array([h.phash for h in hashes], dtype=np.uint64)
    for i in range(len(hashes) - 1):
        close = (_distances(d, i) <= max_distance) | (_distances(p, i) <= max_distance)
        for j in np.flatnonzero(close):
            union(i, i + 1 + int(j))
    first_of_source: dict[str, int] = {}
    for i, item in enumerate(hashes):
        source = roboflow_source(item.name)
        if source is not None:
            union(i, first_of_source.setdefault(source, i))
    groups: dict[int, list[str]] = {}
    for i, item in enumerate(hashes):
        groups.setdefault(find(i), []).append(item.name)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])
