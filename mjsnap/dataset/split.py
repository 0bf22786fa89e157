"""Train/val split by photo session: clusters of near-duplicate photos (mjsnap.dataset.phash) never straddle it.

Deterministic: clusters are ordered by a hash of (seed, first name) and taken into val while they fit the target,
so the same photos and seed give the same split, and adding photos moves few old ones. Photos in ``review`` are
left alone (they are not trained on). Moving a photo copies its image into the new split, renames its label there
(one atomic step), then removes the old image; `repair` finishes a move a crash interrupted.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from mjsnap.dataset.phash import DEFAULT_MAX_DISTANCE, PhotoHash, cluster, hash_photo
from mjsnap.labels import DATA_YAML, FILE_MODE, IMAGE_SUFFIX, TRAINING_SPLITS, LabelDataset, LabelError
from mjsnap.locks import holding_folder

DEFAULT_VAL_FRACTION = 0.2


@dataclass
class SplitReport:
    photos: int = 0
    clusters: int = 0
    train: int = 0
    val: int = 0
    moved: list[tuple[str, str, str]] = field(default_factory=list)  # (name, from, to)
    repaired: list[str] = field(default_factory=list)
    largest_cluster: int = 0


def labelled_photos(dataset: LabelDataset) -> dict[str, str]:
    """name -> split for every labelled photo in train and val."""
    found: dict[str, str] = {}
    for split in TRAINING_SPLITS:
        folder = dataset.root / "labels" / split
        for label in sorted(folder.glob("*.txt")) if folder.is_dir() else []:
            if label.stem in found:
                raise LabelError(
                    f"{label.stem} is labelled in both {found[label.stem]} and {split}: run repair", "labelled_twice"
                )
            found[label.stem] = split
    return found


def repair(dataset: LabelDataset) -> list[str]:
    """Remove images whose label sits in another split (the trace of an interrupted move), and of a photo labelled
    in both train and val (a save that moved it was interrupted before it cleared the old split) the older label
    and its image; returns their paths."""
    removed = []
    labelled = {}
    for split in TRAINING_SPLITS:
        folder = dataset.root / "labels" / split
        for label in folder.glob("*.txt") if folder.is_dir() else []:
            labelled.setdefault(label.stem, []).append(split)
    for name, splits in labelled.items():
        if len(splits) > 1:  # the save writes the new split's image and label first: the newer label is the one
            newest = max(splits, key=lambda s: dataset.label_path(name, s).stat().st_mtime_ns)
            for split in splits:
                if split != newest:
                    dataset.label_path(name, split).unlink()
                    removed.append(str(dataset.label_path(name, split)))
            labelled[name] = [newest]
    for split in TRAINING_SPLITS:
        folder = dataset.root / "images" / split
        for image in sorted(folder.glob(f"*{IMAGE_SUFFIX}")) if folder.is_dir() else []:
            splits = labelled.get(image.stem, [])
            if splits and split not in splits:
                image.unlink()
                removed.append(str(image))
    return removed


def plan_split(
    clusters: Sequence[Sequence[str]], val_fraction: float = DEFAULT_VAL_FRACTION, seed: int = 0
) -> dict[str, str]:
    """name -> "train" | "val" with whole clusters on one side; val holds about ``val_fraction`` of the photos."""
    if not 0.0 <= val_fraction < 1.0:
        raise ValueError(f"val fraction {val_fraction} must be in [0, 1)")
    total = sum(len(c) for c in clusters)
    target = round(val_fraction * total)
    order = sorted(clusters, key=lambda c: hashlib.sha256(f"{seed}\0{min(c)}".encode()).hexdigest())
    val: set[int] = set()
    taken = 0
    for index, group in enumerate(order):
        if taken + len(group) <= target:
            val.add(index)
            taken += len(group)
    if target > 0 and not val and len(order) > 1:  # every cluster is bigger than the target: take the smallest
        val.add(min(range(len(order)), key=lambda i: (len(order[i]), i)))
    return {name: ("val" if i in val else "train") for i, group in enumerate(order) for name in group}


def _move(dataset: LabelDataset, name: str, source: str, target: str) -> None:
    old_image, new_image = dataset.image_path(name, source), dataset.image_path(name, target)
    handle, temp = tempfile.mkstemp(dir=new_image.parent, prefix=f".{new_image.name}.", suffix=".tmp")
    os.fchmod(handle, FILE_MODE)
    os.close(handle)
    try:
        shutil.copyfile(old_image, temp)
        os.replace(temp, new_image)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    os.replace(dataset.label_path(name, source), dataset.label_path(name, target))
    old_image.unlink()


def split_dataset(
    root: Path,
    val_fraction: float = DEFAULT_VAL_FRACTION,
    seed: int = 0,
    max_distance: int = DEFAULT_MAX_DISTANCE,
    dry_run: bool = False,
) -> SplitReport:
    """Re-split a dataset folder's labelled photos by session and move the files (unless ``dry_run``)."""
    dataset = LabelDataset(root)
    if not (Path(root) / DATA_YAML).is_file():  # a typo'd path must not become a new, empty dataset
        raise LabelError(f"{root} is not a dataset folder (no {DATA_YAML})", "not_a_dataset")
    dataset.check_class_names()
    # a save (the app, an import) or another split meanwhile would find a photo half moved, or move it back
    with nullcontext() if dry_run else holding_folder(dataset.root):
        report = SplitReport()
        if not dry_run:
            report.repaired = repair(dataset)
        current = labelled_photos(dataset)
        hashes: list[PhotoHash] = []
        for name, split in current.items():
            image = dataset.image_path(name, split)
            if not image.is_file():
                raise LabelError(f"{dataset.label_path(name, split)} has no image {image.name}", "label_without_image")
            hashes.append(hash_photo(image, name))
        if not dry_run:  # the folders a move needs, made once every photo has been read: a dry run writes nothing
            dataset.ensure()
        clusters = cluster(hashes, max_distance)
        plan = plan_split(clusters, val_fraction, seed)
        report.photos, report.clusters = len(current), len(clusters)
        report.largest_cluster = max((len(c) for c in clusters), default=0)
        for name in sorted(plan):
            target, source = plan[name], current[name]
            if target != source:
                report.moved.append((name, source, target))
                if not dry_run:
                    _move(dataset, name, source, target)
        report.train = sum(1 for s in plan.values() if s == "train")
        report.val = len(plan) - report.train
    return report
