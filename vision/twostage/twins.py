"""Tiles of one photo that look alike are read alike: a tile the classifier doubts takes in the readings of its twins.

A hand holds pairs, pungs and kongs, so most tiles have another of their class in the same photo, printed by the same
set under the same light. Two such tiles match each other pixel for pixel far better than two different tiles do:
on ground-truth boxes a tile's best match at normalised correlation >= 0.93 has its class 99.8 % of the time on
cmd val's real photos and 98.7 / 99.2 % on generated photos of gleitz's / ffalt's art
(benchmarks/results/twins_probe.md). Where the classifier is sure of one copy and unsure of another (glare, blur, a
steep angle), the sure copy's reading is evidence for the unsure one.

With classifier.twins {"below": b, "likeness": s}, a tile whose best class is under b is read as the mean of its own
probabilities and those of every other tile of the photo it matches at >= s (each tile as first read, so the order of
the tiles does not matter). Only boxes the detector is sure of count as twins, so a reading does not depend on the
confidence the reader runs at. A match is the best normalised correlation of one tile's centre (32 of 40 px: grey,
the rim left out, light and shade taken off) anywhere in the other, either way up, taken both ways round.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.evaluate import box_iou
from vision.twostage.crops import cut_tile

SIDE = 40  # px of the grey face a tile is matched at
INNER = 32  # the centre that is looked for in the other tile: boxes a few pixels off still match
# The face without the tile's rim (a share of the box's width and height off each side): every tile has the same rim
# and sides, which made faint faces match each other (ffalt's generated photos: 82 % of best matches at >= 0.95 had
# the tile's class whole, 97 % without the rim, 100 % without the rim and the light's slow changes)
RIM = (0.12, 0.10)
# Twins do not overlap the tile (neighbours in a row touch; a box over the tile is its own duplicate)
APART_IOU = 0.1
SHADE_SIGMA = 4.0  # px at SIDE: what a blur this wide keeps is light and shade, not ink, and is taken off


def faces(rgb: np.ndarray, boxes: Sequence[Sequence[float]]) -> np.ndarray:
    """(N, SIDE, SIDE) float32 grey faces of the boxes (the rim left out), upright as the classifier sees them,
    lightly blurred, with light and shade taken off so that the ink is what matches."""
    out = np.empty((len(boxes), SIDE, SIDE), np.float32)
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        dx, dy = RIM[0] * (x2 - x1), RIM[1] * (y2 - y1)
        grey = cv2.cvtColor(cut_tile(rgb, (x1 + dx, y1 + dy, x2 - dx, y2 - dy), SIDE, 0.0), cv2.COLOR_RGB2GRAY)
        grey = cv2.GaussianBlur(grey.astype(np.float32), (3, 3), 0)
        out[i] = grey - cv2.GaussianBlur(grey, (0, 0), SHADE_SIGMA)
    return out


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Vectors (last axis) less their mean, of unit length: their dot products are normalised correlations."""
    centred = np.array(vectors, np.float32)  # a copy, changed in place below
    centred -= centred.mean(-1, keepdims=True)
    centred /= np.maximum(np.sqrt(np.einsum("...k,...k->...", centred, centred))[..., None], 1e-6)
    return centred


def likenesses(tile_faces: np.ndarray, rows: Sequence[int]) -> np.ndarray:
    """(len(rows), N) likeness of each face in `rows` to every face: the best normalised correlation of either one's
    centre anywhere in the other, upright or turned half (a tile lies either way up), as cv2.matchTemplate's
    TM_CCOEFF_NORMED gives it."""
    count, lo, shifts = len(tile_faces), (SIDE - INNER) // 2, SIDE - INNER + 1
    centres = np.ascontiguousarray(tile_faces[:, lo : lo + INNER, lo : lo + INNER])
    centres = np.stack([centres, centres[:, ::-1, ::-1]], 1)  # (N, 2, INNER, INNER)
    all_centres = _unit(centres.reshape(2 * count, INNER * INNER))
    side_by_side = np.ascontiguousarray(np.concatenate(list(tile_faces), axis=1))  # (SIDE, N * SIDE)
    out = np.empty((len(rows), count), np.float32)
    for n, i in enumerate(rows):
        own_windows = np.lib.stride_tricks.sliding_window_view(tile_faces[i], (INNER, INNER))
        # einsum, not a BLAS product: BLAS's threads keep spinning after the call and slowed the networks that run
        # next by half (the recognizer, in mjsnap batch's workers)
        own = _unit(own_windows.reshape(-1, INNER * INNER))
        others_in_it = np.einsum("pk,ck->pc", own, all_centres, optimize=False).max(0).reshape(count, 2).max(1)
        it_in_others = np.full(count, -1.0, np.float32)
        for centre in centres[i]:  # one pass over every face at once; windows across two faces are left out
            scores = cv2.matchTemplate(side_by_side, np.ascontiguousarray(centre), cv2.TM_CCOEFF_NORMED)
            scores = np.pad(scores, ((0, 0), (0, INNER - 1)), constant_values=-1.0)  # to N * SIDE columns
            it_in_others = np.maximum(it_in_others, scores.reshape(shifts, count, SIDE)[:, :, :shifts].max((0, 2)))
        out[n] = np.maximum(others_in_it, it_in_others)
    return out


def pool_twins(probs: np.ndarray, tile_faces: np.ndarray, boxes: np.ndarray, sure: np.ndarray, below: float,
               alike: float) -> np.ndarray:
    """Probabilities with each doubted tile (best class under `below`) averaged with its twins: tiles the detector is
    `sure` of, apart from it (boxes overlapping it are its own duplicates), alike at >= `alike`."""
    doubted = np.flatnonzero(probs.max(1) < below)
    twins = (box_iou(boxes[doubted], boxes) < APART_IOU) & sure & (likenesses(tile_faces, doubted) >= alike)
    twins[np.arange(len(doubted)), doubted] = False
    pooled = probs.copy()
    for row, i in enumerate(doubted):
        if twins[row].any():
            pooled[i] = probs[[i, *np.flatnonzero(twins[row])]].mean(0)
    return pooled
