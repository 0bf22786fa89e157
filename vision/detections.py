"""Detections: the one structure that carries detector output through mjsnap (validated on creation).

Boxes are pixels of the original image after EXIF orientation, ``[x1, y1, x2, y2]``. Class ids follow
``scoring.tiles.CLASS_NAMES`` (34 faces, ``back``, ``flower``), so ids 0..33 are tile kinds as the scorer uses them.
``class_probs``, when the model gives it (two-stage models: the crop classifier's output), holds every class's
probability for each box; the hand reader uses it to weigh other readings of a tile (vision.normalize.reread).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.tiles import CLASS_NAMES

N_CLASSES = len(CLASS_NAMES)


@dataclass(frozen=True)
class Detections:
    xyxy: np.ndarray  # (N, 4) float32
    confidence: np.ndarray  # (N,) float32
    class_id: np.ndarray  # (N,) int64
    class_probs: np.ndarray | None = None  # (N, 36) float32, rows summing to 1, or None

    def __post_init__(self) -> None:
        xyxy = np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4)
        conf = np.asarray(self.confidence, dtype=np.float32).reshape(-1)
        cls = np.asarray(self.class_id, dtype=np.int64).reshape(-1)
        if not len(xyxy) == len(conf) == len(cls):
            raise ValueError(f"Detections: {len(xyxy)} boxes, {len(conf)} confidences, {len(cls)} class ids")
        if len(cls) and (cls.min() < 0 or cls.max() >= N_CLASSES):
            raise ValueError(f"Detections: class ids must be 0..{N_CLASSES - 1}")
        # NaN passes every comparison below unnoticed, and a NaN box was read into the hand
        if not (np.isfinite(xyxy).all() and np.isfinite(conf).all()):
            raise ValueError("Detections: boxes and confidences must be finite numbers")
        if len(conf) and (conf.min() < 0 or conf.max() > 1):
            raise ValueError("Detections: confidences must lie in [0, 1]")
        if len(xyxy) and np.any(xyxy[:, 2:] < xyxy[:, :2]):
            raise ValueError("Detections: every box needs x2 >= x1 and y2 >= y1")
        if self.class_probs is not None:
            probs = np.asarray(self.class_probs, dtype=np.float32)
            if probs.shape != (len(cls), N_CLASSES):
                raise ValueError(f"Detections: class_probs {probs.shape} is not ({len(cls)}, {N_CLASSES})")
            if not np.isfinite(probs).all() or (len(probs) and (probs.min() < 0 or probs.max() > 1)):
                raise ValueError("Detections: class_probs must lie in [0, 1]")
            object.__setattr__(self, "class_probs", probs)
        object.__setattr__(self, "xyxy", xyxy)
        object.__setattr__(self, "confidence", conf)
        object.__setattr__(self, "class_id", cls)

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4)), np.zeros(0), np.zeros(0))

    def __len__(self) -> int:
        return len(self.class_id)

    def __getitem__(self, index: Any) -> Detections:
        """Select by a boolean mask, an index array or a slice."""
        if isinstance(index, (int, np.integer)):
            index = [index]
        probs = None if self.class_probs is None else self.class_probs[index]
        return Detections(self.xyxy[index], self.confidence[index], self.class_id[index], probs)

    @property
    def class_names(self) -> list[str]:
        return [CLASS_NAMES[i] for i in self.class_id]

    @property
    def centers(self) -> np.ndarray:
        return (self.xyxy[:, :2] + self.xyxy[:, 2:]) / 2

    @property
    def sizes(self) -> np.ndarray:
        """(N, 2) widths and heights."""
        return self.xyxy[:, 2:] - self.xyxy[:, :2]

    def to_list(self) -> list[dict[str, Any]]:
        """The public JSON form: ``[{"cls": "1m", "conf": 0.97, "box": [x1, y1, x2, y2]}]``."""
        return [
            {"cls": CLASS_NAMES[c], "conf": round(float(p), 4), "box": [round(float(v), 1) for v in box]}
            for box, p, c in zip(self.xyxy, self.confidence, self.class_id)
        ]

    @classmethod
    def from_list(cls, items: list[dict[str, Any]]) -> Detections:
        """Inverse of to_list; unknown class names raise ValueError naming them."""
        ids = []
        for item in items:
            name = item["cls"]
            if name not in CLASS_NAMES:
                raise ValueError(f"unknown class name {name!r}")
            ids.append(CLASS_NAMES.index(name))
        return cls(
            np.array([i["box"] for i in items], dtype=np.float32).reshape(-1, 4),
            np.array([i.get("conf", 1.0) for i in items], dtype=np.float32),
            np.array(ids, dtype=np.int64),
        )
