"""Tile crops for the classifier: the same cut at training time (from labels) and at inference (from detections).

A crop is the tile's box grown by a small margin, turned upright when it is wider than tall (a sideways tile of a
meld; a tile is taller than wide), then resized to a square. Training crops jitter the box the way a detector's box
is off, and turn some tiles upside down, so the classifier does not depend on which way a tile was turned.
No mirroring: a mirrored glyph is not a tile.

Inference classifies the tiles of slanted rows from a view of the hand turned level (vision.twostage.deskew). With a
`Leveller`, training crops of such tiles are cut the same way: from the level view of the labelled tiles, each from
the box a tile detector gives it there, so the classifier learns the crops it will be shown.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from scoring.tiles import CLASS_NAMES
from vision.evaluate import label_path_for, yolo_rows
from vision.imageio import DATASET_SUFFIXES, opened_photo, upright
from vision.twostage.deskew import level_view

MARGIN = 0.06  # of the box's width/height on every side: the tile's edge stays in the crop
SIDEWAYS_ASPECT = 1.1  # width / height above this: the tile lies sideways


def class_folder(class_id: int) -> str:
    """ImageFolder name that sorts in class-id order ("00_1m" ... "35_flower")."""
    return f"{class_id:02d}_{CLASS_NAMES[class_id]}"


def class_id_of_folder(name: str) -> int:
    index, _, label = name.partition("_")
    if not index.isdecimal() or int(index) >= len(CLASS_NAMES) or CLASS_NAMES[int(index)] != label:
        raise ValueError(f"{name!r} is not a crop class folder (NN_name with a name from classes.txt)")
    return int(index)


def cut_tile(rgb: np.ndarray, box: Iterable[float], size: int, margin: float = MARGIN, quarter_turns: int | None = None) -> np.ndarray:
    """One upright square crop (size x size RGB uint8) of the box x1, y1, x2, y2 in pixels of rgb.

    Parts of the grown box outside the image are filled by replicating the border. A box wider than tall is turned
    a quarter (counter-clockwise unless quarter_turns says otherwise: 1 or 3)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = max(x2 - x1, 1.0), max(y2 - y1, 1.0)
    x1, x2 = x1 - margin * w, x2 + margin * w
    y1, y2 = y1 - margin * h, y2 + margin * h
    height, width = rgb.shape[:2]
    ix1, iy1 = int(np.floor(x1)), int(np.floor(y1))
    ix2, iy2 = max(int(np.ceil(x2)), ix1 + 1), max(int(np.ceil(y2)), iy1 + 1)
    pad = [max(-iy1, 0), max(iy2 - height, 0), max(-ix1, 0), max(ix2 - width, 0)]
    patch = rgb[max(iy1, 0) : min(iy2, height), max(ix1, 0) : min(ix2, width)]
    if patch.size == 0:
        patch = np.zeros((1, 1, 3), np.uint8)
    elif any(pad):
        patch = cv2.copyMakeBorder(patch, *pad, cv2.BORDER_REPLICATE)
    if w > SIDEWAYS_ASPECT * h:
        patch = np.rot90(patch, 1 if quarter_turns is None else quarter_turns)
    return cv2.resize(np.ascontiguousarray(patch), (size, size), interpolation=cv2.INTER_AREA)


def jitter_box(box: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """Move each side by up to `amount` of the box's size, as a detector's box is off."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    dx1, dx2 = rng.uniform(-amount, amount, 2) * w
    dy1, dy2 = rng.uniform(-amount, amount, 2) * h
    return np.array([x1 + dx1, y1 + dy1, max(x2 + dx2, x1 + dx1 + 1), max(y2 + dy2, y1 + dy1 + 1)])


@dataclass(frozen=True)
class CropSettings:
    size: int = 64
    jitter: float = 0.08
    upside_down: float = 0.25  # share of crops turned 180 degrees
    per_class_limit: int | None = None  # most crops kept per class from one source folder
    copies: int = 1  # jittered crops per labelled tile


def read_rgb(path: Path) -> np.ndarray:
    """The photo's upright RGB pixels; ImageReadError (a ValueError) names a photo that cannot be read."""
    with opened_photo(path) as im:
        return np.asarray(upright(im).convert("RGB"))


def labelled_boxes(image: Path, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """YOLO labels of an image as (class ids, xyxy pixel boxes); no label file means no tiles."""
    rows = yolo_rows(label_path_for(image))
    cx, cy, w, h = rows[:, 1] * width, rows[:, 2] * height, rows[:, 3] * width, rows[:, 4] * height
    return rows[:, 0].astype(np.int64), np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)


@dataclass(frozen=True)
class Leveller:
    """Where inference cuts the tiles of slanted rows: ``find_boxes`` is a tile detector (RGB image -> xyxy boxes) run
    on the level view, whose input size ``network_size`` bounds how far the view is cut (vision.twostage.deskew)."""

    find_boxes: Callable[[np.ndarray], np.ndarray]
    network_size: int = 480

    @classmethod
    def from_model(cls, model_dir: Path) -> Leveller:
        """The tile detector of a two-stage model directory, at the product's confidence."""
        from vision.detector import TileDetector

        networks = TileDetector(Path(model_dir)).stages
        if networks is None:
            raise ValueError(f"{model_dir} is not a two-stage model: it has no tile detector to box level views with")
        return cls(lambda image: networks.box_tiles(image, networks.conf)[0], networks.detector_imgsz)

    def place(self, rgb: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The level view of the tiles at ``boxes`` (or rgb itself when their rows are level), each tile's box there,
        and which tiles are cut from the view: a tile the detector does not box in it is cut from rgb as it lies."""
        view = level_view(rgb, boxes, self.network_size) if len(boxes) else None
        if view is None:
            return rgb, boxes, np.zeros(len(boxes), bool)
        level_boxes, levelled = view.boxes_of(boxes, self.find_boxes)
        return view.image, level_boxes, levelled


def extract_crops(image_folder: Path, out_dir: Path, settings: CropSettings, seed: int, prefix: str,
                  leveller: Leveller | None = None) -> dict[str, int]:
    """Write crops of every labelled tile of an ultralytics image folder into out_dir/NN_name/; returns counts.
    With a ``leveller``, tiles of slanted rows are cut from the level view, as inference cuts them."""
    image_folder, out_dir = Path(image_folder), Path(out_dir)
    images = sorted(p for p in image_folder.iterdir() if p.suffix.lower() in DATASET_SUFFIXES)
    if not images:
        raise FileNotFoundError(f"{image_folder} holds no images")
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(images))  # with a per-class limit, keep crops from all over the folder
    counts = {class_folder(c): 0 for c in range(len(CLASS_NAMES))}
    for folder in counts:
        (out_dir / folder).mkdir(parents=True, exist_ok=True)
    for index in order:
        path = images[index]
        rgb = read_rgb(path)
        classes, boxes = labelled_boxes(path, rgb.shape[1], rgb.shape[0])
        view, view_boxes, levelled = leveller.place(rgb, boxes) if leveller else (rgb, boxes, np.zeros(len(boxes), bool))
        for n, (cls, box) in enumerate(zip(classes, boxes)):
            if not 0 <= cls < len(CLASS_NAMES):
                raise ValueError(f"{label_path_for(path)}: class id {cls} is not one of the {len(CLASS_NAMES)} classes")
            folder = class_folder(int(cls))
            if settings.per_class_limit is not None and counts[folder] >= settings.per_class_limit:
                continue
            source, box = (view, view_boxes[n]) if levelled[n] else (rgb, box)
            for copy in range(settings.copies):
                crop = training_crop(source, box, settings, rng)
                Image.fromarray(crop).save(out_dir / folder / f"{prefix}_{path.stem}_{n}_{copy}.png")
                counts[folder] += 1
    return counts


def training_crop(rgb: np.ndarray, box: np.ndarray, settings: CropSettings, rng: np.random.Generator) -> np.ndarray:
    """One crop of a labelled tile as the classifier trains on it: the box jittered as a detector's is off, a
    sideways tile turned either way up, and some crops turned upside down."""
    jittered = jitter_box(box, rng, settings.jitter) if settings.jitter else box
    crop = cut_tile(rgb, jittered, settings.size, quarter_turns=int(rng.choice([1, 3])))
    if rng.random() < settings.upside_down:
        crop = np.rot90(crop, 2)
    return np.ascontiguousarray(crop)


@dataclass(frozen=True)
class CropSource:
    """One labelled image folder feeding a split of the crop dataset."""

    folder: Path
    split: str  # "train" | "val"
    settings: CropSettings


SOURCES_FILE = "sources.json"  # crop name prefix (s0_, s1_, ...) -> the split and image folder it was cut from


def build_crop_dataset(sources: list[CropSource], out_dir: Path, seed: int = 0,
                       every_class: bool = True, leveller: Leveller | None = None) -> dict[str, dict[str, int]]:
    """out_dir/{train,val}/NN_name/*.png from all sources (an ultralytics classify dataset); returns counts per split.
    Crop names start with their source's prefix, s<n>_ for sources[n]; out_dir/sources.json lists them.

    With a ``leveller``, tiles of slanted rows are cut from level views (see `extract_crops`).

    Every class gets a folder in every split, and with ``every_class`` each split must hold crops of every class:
    the classifier's class index is the folder's sort position, which then equals the class id. A fine-tune's crops
    may lack classes (its classifier already knows them: vision.twostage.finetune)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    listing = {f"s{n}_": {"split": source.split, "folder": str(source.folder)} for n, source in enumerate(sources)}
    (out_dir / SOURCES_FILE).write_text(json.dumps(listing, indent=1) + "\n")
    totals: dict[str, dict[str, int]] = {}
    for n, source in enumerate(sources):
        prefix = f"s{n}"
        counts = extract_crops(source.folder, out_dir / source.split, source.settings, seed + n, prefix, leveller)
        split_totals = totals.setdefault(source.split, {k: 0 for k in counts})
        for key, value in counts.items():
            split_totals[key] += value
    for split, counts in totals.items():
        empty = [name for name, count in counts.items() if count == 0]
        if empty and every_class:
            raise ValueError(f"crop split {split!r} has no crops of {', '.join(empty)}: add a source that has them "
                             f"(or, for crops to merge with others that have them, --allow-missing-classes)")
    return totals
