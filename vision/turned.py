"""Labelled photos turned by quarter turns, labels turned with them.

A phone photo whose orientation tag was lost (some messaging apps strip it) arrives a quarter or half turn round.
On the first 80 photos of cmd val turned that way in their pixels, model 0.9.1 made 110 (a quarter turn) and 101
(a half turn) tile errors against 60 upright, nearly all of them missed or extra boxes (the crop classifier cuts
every tile upright and reads it both ways up; benchmarks/orientation.py). Turned copies of the training photos show
the detector each photo in a second orientation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.evaluate import LabelledImage, load_labelled_folder
from vision.imageio import load_image


def turn_boxes(xyxy: np.ndarray, width: int, height: int, quarter_turns: int) -> np.ndarray:
    """Boxes of a width x height photo after ``np.rot90(photo, quarter_turns)`` (counter-clockwise)."""
    x1, y1, x2, y2 = np.asarray(xyxy, np.float64).reshape(-1, 4).T
    turns = quarter_turns % 4
    if turns == 1:
        return np.stack([y1, width - x2, y2, width - x1], 1)
    if turns == 2:
        return np.stack([width - x2, height - y2, width - x1, height - y1], 1)
    if turns == 3:
        return np.stack([height - y2, x1, height - y1, x2], 1)
    return np.stack([x1, y1, x2, y2], 1)


def turn_photo(rgb: np.ndarray, xyxy: np.ndarray, quarter_turns: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned counter-clockwise by ``quarter_turns`` and its boxes with it."""
    height, width = rgb.shape[:2]
    return np.ascontiguousarray(np.rot90(rgb, quarter_turns)), turn_boxes(xyxy, width, height, quarter_turns)


def write_labelled(rgb: np.ndarray, xyxy: np.ndarray, class_id: np.ndarray, image_path: Path, label_path: Path) -> None:
    """A photo as JPEG (quality 95) and its boxes as YOLO labels."""
    height, width = rgb.shape[:2]
    image_path.parent.mkdir(parents=True, exist_ok=True)
    label_path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(image_path), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95]):
        raise OSError(f"could not write {image_path}")
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    centre = (xyxy[:, :2] + xyxy[:, 2:]) / 2 / [width, height]
    size = (xyxy[:, 2:] - xyxy[:, :2]) / [width, height]
    rows = np.column_stack([np.asarray(class_id), centre, size])
    np.savetxt(label_path, rows, fmt=["%d"] + ["%.6f"] * 4)


def write_derived(
    images: list[LabelledImage], derive: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]], folder: Path
) -> list[LabelledImage]:
    """Each photo and its boxes passed through ``derive`` (rgb, xyxy) -> (rgb, xyxy), written under the same name
    to ``folder``/images/val with its labels in ``folder``/labels/val (the benchmarks' derived val sets); read back."""
    for item in images:
        rgb, boxes = derive(load_image(item.path), item.xyxy)
        write_labelled(rgb, boxes, item.class_id, Path(folder) / "images" / "val" / f"{item.path.stem}.jpg",
                       Path(folder) / "labels" / "val" / f"{item.path.stem}.txt")
    return load_labelled_folder(Path(folder) / "images" / "val")


def write_turned(images: list[LabelledImage], out: Path, split: str, seed: int) -> Iterator[tuple[Path, int]]:
    """Each photo turned by one, two or three quarter turns (drawn from ``seed``) into ``out``/images/``split`` with
    its labels in ``out``/labels/``split``; yields (photo written, quarter turns)."""
    rng = np.random.default_rng(seed)
    for item in images:
        turns = int(rng.integers(1, 4))
        rgb, boxes = turn_photo(load_image(item.path), item.xyxy, turns)
        name = f"{item.path.stem}_r{90 * turns}"
        image_path = Path(out) / "images" / split / f"{name}.jpg"
        write_labelled(rgb, boxes, item.class_id, image_path, Path(out) / "labels" / split / f"{name}.txt")
        yield image_path, turns
