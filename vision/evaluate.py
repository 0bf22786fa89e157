"""Detector metrics on a labelled image folder, the same code for every model (ours in any backend, or another one).

- mAP50 and mAP50-95: COCO-style 101-point interpolated AP per class (classes present in the ground truth), from
  predictions kept down to a low confidence, as ultralytics reports them.
- At the operating confidence: each image's predictions are matched one-to-one to true tiles by IoU >= 0.5 (class
  ignored, highest IoU first). A true tile is *correct* when its match has the right class. tile accuracy =
  correct / true tiles; tile errors = missed + misclassified + extra (unmatched predictions); an image is an exact
  match when it has no tile error. Per-class recall = correct / true tiles of that class; confusions count
  (true, predicted) pairs of matched tiles with the wrong class.
- What the scorer gets, wherever the boxes lie: a photo's *name errors* are the fewest one-tile changes (a name
  added, dropped or replaced) that turn the names read into the labelled ones, counted as multisets; a photo is
  *read right* when it has none. A box twice a tile's size (out of focus) is a missed tile and an extra one above,
  and no name error here.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from scoring.tiles import CLASS_NAMES
from vision.imageio import DATASET_SUFFIXES, ImageReadError, opened_photo, upright

MATCH_IOU = 0.5
MAP_IOUS = np.linspace(0.5, 0.95, 10)


@dataclass(frozen=True)
class Prediction:
    xyxy: np.ndarray  # (N, 4) original-image pixels
    confidence: np.ndarray  # (N,)
    class_id: np.ndarray  # (N,) ids in CLASS_NAMES


@dataclass(frozen=True)
class LabelledImage:
    path: Path
    xyxy: np.ndarray  # (M, 4) pixels
    class_id: np.ndarray  # (M,)


Predictor = Callable[[Path], Prediction]  # must keep predictions down to the low confidence used for mAP


def label_path_for(image: Path) -> Path:
    """ultralytics' layout: .../images/<split>/x.jpg -> .../labels/<split>/x.txt."""
    parts = list(image.parts)
    index = len(parts) - 1 - parts[::-1].index("images")
    parts[index] = "labels"
    return Path(*parts).with_suffix(".txt")


def load_labelled_folder(folder: Path, limit: int | None = None) -> list[LabelledImage]:
    """Every image of an ultralytics image folder with its YOLO labels converted to pixel boxes."""
    folder = Path(folder)
    images = sorted(p for p in folder.iterdir() if p.suffix.lower() in DATASET_SUFFIXES)
    if not images:
        raise FileNotFoundError(f"{folder} holds no images")
    out = []
    for path in images[:limit]:
        try:
            with opened_photo(path) as im:
                width, height = upright(im).size
        except ImageReadError as exc:  # a damaged file, no photo at all, or a decompression bomb: it names the file
            raise ValueError(str(exc)) from None
        rows = yolo_rows(label_path_for(path))
        cls = rows[:, 0].astype(np.int64)
        cx, cy, w, h = rows[:, 1] * width, rows[:, 2] * height, rows[:, 3] * width, rows[:, 4] * height
        out.append(LabelledImage(path, np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1), cls))
    return out


def yolo_rows(label: Path) -> np.ndarray:
    """The (n, 5+) rows 'class xc yc w h' of a YOLO label file, none for a missing or empty one. ValueError names the
    file when they are no such labels: a class that is none of CLASS_NAMES, or a number that is not finite, would
    reach the metrics and crops as an index error or NaN boxes."""
    what = f"{label}: not YOLO box labels ('class xc yc w h' lines)"
    try:
        rows = np.loadtxt(label, ndmin=2) if label.is_file() and label.stat().st_size else np.zeros((0, 5))
    except ValueError as exc:  # numpy's message does not name the file
        raise ValueError(f"{what}: {exc}") from None
    if rows.shape[1] < 5:
        raise ValueError(f"{what}: {rows.shape[1]} columns")
    if not np.isfinite(rows).all():
        raise ValueError(f"{what}: {rows[~np.isfinite(rows)][0]} is not a number a box can have")
    classes = rows[:, 0]
    unknown = (classes != np.round(classes)) | (classes < 0) | (classes >= len(CLASS_NAMES))
    if unknown.any():
        raise ValueError(f"{label}: class {classes[unknown][0]:g} is none of the {len(CLASS_NAMES)} classes "
                         f"(0-{len(CLASS_NAMES) - 1})")
    return rows


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)) IoU matrix of xyxy boxes."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    top_left = np.maximum(a[:, None, :2], b[None, :, :2])
    bottom_right = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(bottom_right - top_left, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9)


def greedy_match(iou: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """One-to-one (row, col) pairs with IoU >= threshold, highest IoU first."""
    rows, cols = np.nonzero(iou >= threshold)
    order = np.argsort(-iou[rows, cols], kind="stable")
    used_r, used_c, pairs = set(), set(), []
    for r, c in zip(rows[order], cols[order]):
        if r not in used_r and c not in used_c:
            used_r.add(r)
            used_c.add(c)
            pairs.append((int(r), int(c)))
    return pairs


@dataclass(frozen=True)
class Matching:
    """One photo's predictions kept at an operating confidence, matched one-to-one to its labelled tiles."""

    xyxy: np.ndarray  # (K, 4) the kept predictions
    class_id: np.ndarray  # (K,)
    iou: np.ndarray  # (M, K) labelled tiles x kept predictions
    pairs: list[tuple[int, int]]  # (tile, prediction) with IoU >= MATCH_IOU, highest first


def match_at(truth: LabelledImage, pred: Prediction, conf: float) -> Matching:
    kept = pred.confidence >= conf
    iou = box_iou(truth.xyxy, pred.xyxy[kept])
    return Matching(pred.xyxy[kept], pred.class_id[kept], iou, greedy_match(iou, MATCH_IOU))


def _true_positive_flags(truth: LabelledImage, pred: Prediction) -> np.ndarray:
    """(N, 10) flags: prediction i is a true positive at each mAP IoU threshold (same class, one-to-one, best conf first)."""
    flags = np.zeros((len(pred.class_id), len(MAP_IOUS)), dtype=bool)
    iou = box_iou(truth.xyxy, pred.xyxy)
    same_class = truth.class_id[:, None] == pred.class_id[None, :]
    order = np.argsort(-pred.confidence, kind="stable")
    for t, threshold in enumerate(MAP_IOUS):
        taken = np.zeros(len(truth.class_id), dtype=bool)
        for i in order:
            candidates = np.where(same_class[:, i] & ~taken & (iou[:, i] >= threshold), iou[:, i], -1)
            if len(candidates) and candidates.max() >= 0:
                best = int(candidates.argmax())
                taken[best] = True
                flags[i, t] = True
    return flags


def average_precision(tp: np.ndarray, confidence: np.ndarray, n_true: int) -> np.ndarray:
    """AP at each IoU threshold (columns of tp), COCO 101-point interpolation."""
    if n_true == 0 or len(tp) == 0:
        return np.zeros(tp.shape[1] if tp.ndim == 2 else len(MAP_IOUS))
    order = np.argsort(-confidence, kind="stable")
    tp = tp[order]
    cum_tp = np.cumsum(tp, axis=0)
    cum_fp = np.cumsum(~tp, axis=0)
    recall = cum_tp / n_true
    precision = cum_tp / (cum_tp + cum_fp)
    grid = np.linspace(0, 1, 101)
    aps = []
    for t in range(tp.shape[1]):
        r = np.concatenate([[0.0], recall[:, t], [1.0]])
        p = np.concatenate([[1.0], precision[:, t], [0.0]])
        p = np.flip(np.maximum.accumulate(np.flip(p)))
        aps.append(np.trapezoid(np.interp(grid, r, p), grid))
    return np.array(aps)


class ClassMetrics(BaseModel):
    name: str
    true_tiles: int
    ap50: float
    recall: float  # at the operating confidence, right class


class Confusion(BaseModel):
    true: str
    predicted: str
    count: int


class EvalReport(BaseModel):
    model: str
    data: str
    images: int
    true_tiles: int
    conf: float
    map50: float
    map50_95: float
    tile_accuracy: float
    tile_errors: int
    missed: int
    misclassified: int
    extra: int
    exact_match: float
    ms_per_image: float
    name_errors: int | None = None  # None in reports written before evaluate counted them (2026-12-07)
    hands_read_right: float | None = None
    per_class: list[ClassMetrics]
    top_confusions: list[Confusion]

    def summary(self) -> str:
        return (
            f"{self.model} on {self.data}: {self.images} images, {self.true_tiles} tiles | mAP50 {self.map50:.4f} "
            f"mAP50-95 {self.map50_95:.4f} | tile accuracy {self.tile_accuracy:.4f} (conf {self.conf}), "
            f"tile errors {self.tile_errors} (missed {self.missed}, misclassified {self.misclassified}, "
            f"extra {self.extra}) | exact-match images {self.exact_match:.4f} | {self.names_summary()}"
            f"{self.ms_per_image:.1f} ms/image"
        )

    def names_summary(self) -> str:
        if self.name_errors is None or self.hands_read_right is None:
            return ""
        return f"name errors {self.name_errors}, photos read right {self.hands_read_right:.4f} | "


def evaluate(
    predictor: Predictor,
    images: Iterable[LabelledImage],
    conf: float,
    model_name: str,
    data_name: str,
    top_k: int = 10,
) -> EvalReport:
    """All the metrics above for one predictor; `conf` is the operating threshold for the tile-level figures."""
    images = list(images)
    n_classes = len(CLASS_NAMES)
    tp_rows, conf_rows, cls_rows = [], [], []
    true_per_class = np.zeros(n_classes, dtype=np.int64)
    correct_per_class = np.zeros(n_classes, dtype=np.int64)
    confusions: Counter[tuple[int, int]] = Counter()
    missed = misclassified = extra = exact = name_errors = read_right = 0
    elapsed = 0.0
    for item in images:
        start = time.perf_counter()
        pred = predictor(item.path)
        elapsed += time.perf_counter() - start
        tp_rows.append(_true_positive_flags(item, pred))
        conf_rows.append(pred.confidence)
        cls_rows.append(pred.class_id)
        np.add.at(true_per_class, item.class_id, 1)

        matching = match_at(item, pred, conf)
        wrong = 0
        for t, p in matching.pairs:
            truth_cls, pred_cls = int(item.class_id[t]), int(matching.class_id[p])
            if truth_cls == pred_cls:
                correct_per_class[truth_cls] += 1
            else:
                wrong += 1
                confusions[(truth_cls, pred_cls)] += 1
        image_missed = len(item.class_id) - len(matching.pairs)
        image_extra = len(matching.class_id) - len(matching.pairs)
        missed, misclassified, extra = missed + image_missed, misclassified + wrong, extra + image_extra
        exact += image_missed + wrong + image_extra == 0
        image_name_errors = names_apart(item.class_id, matching.class_id)
        name_errors, read_right = name_errors + image_name_errors, read_right + (image_name_errors == 0)

    tp = np.concatenate(tp_rows) if tp_rows else np.zeros((0, len(MAP_IOUS)), dtype=bool)
    confidence = np.concatenate(conf_rows) if conf_rows else np.zeros(0)
    classes = np.concatenate(cls_rows) if cls_rows else np.zeros(0, dtype=np.int64)
    present = np.flatnonzero(true_per_class)
    ap = {c: average_precision(tp[classes == c], confidence[classes == c], int(true_per_class[c])) for c in present}
    n_true = int(true_per_class.sum())
    per_class = [
        ClassMetrics(
            name=CLASS_NAMES[c],
            true_tiles=int(true_per_class[c]),
            ap50=round(float(ap[c][0]), 4),
            recall=round(float(correct_per_class[c] / true_per_class[c]), 4),
        )
        for c in present
    ]
    return EvalReport(
        model=model_name,
        data=data_name,
        images=len(images),
        true_tiles=n_true,
        conf=conf,
        map50=round(float(np.mean([ap[c][0] for c in present])) if len(present) else 0.0, 4),
        map50_95=round(float(np.mean([ap[c].mean() for c in present])) if len(present) else 0.0, 4),
        tile_accuracy=round(float(correct_per_class.sum() / n_true) if n_true else 0.0, 4),
        tile_errors=missed + misclassified + extra,
        missed=missed,
        misclassified=misclassified,
        extra=extra,
        exact_match=round(exact / len(images), 4) if images else 0.0,
        ms_per_image=round(1000 * elapsed / max(len(images), 1), 2),
        name_errors=name_errors,
        hands_read_right=round(read_right / len(images), 4) if images else 0.0,
        per_class=per_class,
        top_confusions=[
            Confusion(true=CLASS_NAMES[t], predicted=CLASS_NAMES[p], count=n) for (t, p), n in confusions.most_common(top_k)
        ],
    )


def names_apart(truth: np.ndarray, read: np.ndarray) -> int:
    """The fewest one-tile changes (add, drop or replace a name) from the names ``read`` to the ``truth``'s."""
    wanted, got = Counter(np.asarray(truth).tolist()), Counter(np.asarray(read).tolist())
    return max(sum((wanted - got).values()), sum((got - wanted).values()))


# The figures a benchmark keeps of each report (a row of its JSON) and how its tables show them, alike everywhere.
READING_FIELDS = {"map50", "tile_accuracy", "tile_errors", "missed", "misclassified", "extra", "exact_match",
                  "name_errors", "hands_read_right", "ms_per_image"}
READING_COLUMNS = ("| mAP50 | tile accuracy | errors (missed / misread / extra) | exact | name errors | read right "
                   "| ms/photo |", "|---:|---:|---|---:|---:|---:|---:|")


def reading_cells(row: dict) -> str:
    """A row's READING_FIELDS as the cells under READING_COLUMNS ("-" where a row written before them lacks a figure)."""
    names = "- | -" if row.get("name_errors") is None else f"{row['name_errors']} | {row['hands_read_right']:.3f}"
    return (f"{row['map50']:.3f} | {row['tile_accuracy']:.4f} | {row['tile_errors']} ({row['missed']} / "
            f"{row['misclassified']} / {row['extra']}) | {row['exact_match']:.3f} | {names} | {row['ms_per_image']:.0f}")


MAP_CONF = 0.001  # predictions are kept down to this confidence so the PR curves are complete


def detector_predictor(
    model_dir: Path, backend: str = "auto", iou: float = 0.5, zoom: bool = True
) -> tuple[Predictor, str]:
    """A Predictor running mjsnap's TileDetector on a model directory; returns it with the backend it chose."""
    from vision.detector import TileDetector

    detector = TileDetector(Path(model_dir), backend=backend, conf=MAP_CONF, iou=iou, zoom=zoom)

    def predict(path: Path) -> Prediction:
        dets = detector.detect(path)
        return Prediction(dets.xyxy, dets.confidence, dets.class_id)

    return predict, detector.backend


def checkpoint_model_dir(checkpoint: Path, imgsz: int, out_root: Path) -> Path:
    """A throw-away model directory (meta.json + a link to model.pt) so a training checkpoint runs in TileDetector."""
    from vision.export import check_detector_checkpoint, write_meta

    checkpoint = Path(checkpoint).resolve()
    if not checkpoint.is_file():
        raise FileNotFoundError(f"{checkpoint} does not exist")
    check_detector_checkpoint(checkpoint)  # another design or no checkpoint: refused before its folder is made
    folder = Path(out_root) / f"{checkpoint.parent.parent.name}-{checkpoint.stem}"
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / "model.pt"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(checkpoint)
    write_meta(folder, version=folder.name, imgsz=imgsz, train_command="", data=str(checkpoint), metrics={})
    return folder


def val_folders(config: Path, split: str = "val") -> list[Path]:
    """The image folders of one split of a datasets/*.yaml config (placeholders resolved)."""
    import tempfile

    import yaml

    from vision.train import resolve_data_config

    with tempfile.TemporaryDirectory(prefix="mjsnap-data-") as tmp:  # only the folders are wanted, not the file
        resolved = yaml.safe_load(resolve_data_config(Path(config), Path(tmp)).read_text())
    if split not in resolved:
        raise ValueError(f"{config} has no {split!r} split")
    return [Path(p) for p in resolved[split]]


def labelled_images(config: Path, split: str = "val", limit: int | None = None) -> list[LabelledImage]:
    """Every labelled image of one split of a datasets/*.yaml config (`limit` images per folder)."""
    return [item for folder in val_folders(config, split) for item in load_labelled_folder(folder, limit)]
