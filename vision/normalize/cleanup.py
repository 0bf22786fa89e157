"""Which detections can be hand tiles at all: confident enough, not flowers, not a second box on one tile."""

from __future__ import annotations

import numpy as np

from scoring.tiles import BACK, FLOWER
from vision.detections import Detections
from vision.normalize.options import ReadOptions
from vision.normalize.result import ReadWarning

_CONTAINED = 0.85  # a box this much inside another (of its area) is the same tile boxed twice
_WALL_IOU = 0.3  # face-down tiles overlapping this much lie on each other: the wall, never a kong


def _iou_and_containment(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    area_a = max((a[2] - a[0]) * (a[3] - a[1]), 1e-9)
    area_b = max((b[2] - b[0]) * (b[3] - b[1]), 1e-9)
    return inter / (area_a + area_b - inter), inter / min(area_a, area_b)


def clean_detections(dets: Detections, opts: ReadOptions, warnings: list[ReadWarning]) -> list[int]:
    """Indices of detections that can be hand tiles (confident, not flowers, not a second box on one tile), surest
    first."""
    low = [i for i in range(len(dets)) if dets.confidence[i] < opts.min_confidence]
    if low:
        warnings.append(
            ReadWarning("dropped_low_confidence", f"{len(low)} detection(s) below {opts.min_confidence} ignored", tuple(low))
        )
    flowers = [i for i in range(len(dets)) if dets.class_id[i] == FLOWER and i not in low]
    if flowers:
        warnings.append(ReadWarning("flower_ignored", "flower tiles do not count in these rules", tuple(flowers)))
    # The surest box first; ties broken by the detection's content, never by its place in the detector's output, so
    # that the same photo reads the same whatever order its boxes come in (the reader keeps this order too).
    candidates = [i for i in range(len(dets)) if i not in low and i not in flowers]
    order = sorted(candidates, key=lambda i: _by_content(dets, i))
    kept: list[int] = []
    duplicates: list[int] = []
    for i in order:
        same = False
        for j in kept:
            iou, inside = _iou_and_containment(dets.xyxy[i], dets.xyxy[j])
            if iou > opts.duplicate_iou or inside > _CONTAINED:
                same = True
                break
        (duplicates if same else kept).append(i)
    if duplicates:
        warnings.append(
            ReadWarning("duplicate_removed", f"{len(duplicates)} box(es) on an already read tile ignored", tuple(duplicates))
        )
    backs = [i for i in kept if dets.class_id[i] == BACK]
    wall = sorted({
        k for i in backs for j in backs if i < j and _iou_and_containment(dets.xyxy[i], dets.xyxy[j])[0] > _WALL_IOU
        for k in (i, j)
    })
    if wall:
        warnings.append(ReadWarning("wall_ignored", f"{len(wall)} face-down tiles lying on each other (the wall) ignored", tuple(wall)))
    return [i for i in kept if i not in wall]


def _by_content(dets: Detections, i: int) -> tuple:
    probs = () if dets.class_probs is None else tuple(dets.class_probs[i].tolist())
    return -float(dets.confidence[i]), int(dets.class_id[i]), tuple(dets.xyxy[i].tolist()), probs
