"""One set of photo suffixes for everything that takes photos in, and the dataset subset ultralytics trains on.

A labelled HEIC or TIFF photo in a dataset folder used to be trained on by ultralytics but skipped by `mjsnap eval`
and by crop cutting (the second stage's training), and a folder of AVIF or TIFF photos showed nothing to label.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mjsnap.app import label_page
from mjsnap.batch.discovery import is_photo_candidate
from mjsnap.dataset.importers import import_export
from mjsnap.labels import LabelDataset
from vision import evaluate
from vision.imageio import DATASET_SUFFIXES, PHOTO_SUFFIXES, read_image
from dataset_fixtures import photo, yolo_line

# Pillow's format name for each suffix written below (pillow-heif registers HEIF and AVIF).
WRITERS = {".jpg": "JPEG", ".png": "PNG", ".webp": "WEBP", ".bmp": "BMP", ".tif": "TIFF", ".tiff": "TIFF",
           ".gif": "GIF", ".heic": "HEIF"}


def _save(image, path: Path) -> Path:
    if path.suffix == ".heic":
        pytest.importorskip("pillow_heif").register_heif_opener()
    image.save(path, format=WRITERS[path.suffix])
    return path


def test_dataset_suffixes_are_what_ultralytics_trains_on():
    data_utils = pytest.importorskip("ultralytics.data.utils", reason="ultralytics is the training extra")
    assert DATASET_SUFFIXES <= {f".{name}" for name in data_utils.IMG_FORMATS}
    assert DATASET_SUFFIXES < PHOTO_SUFFIXES


@pytest.mark.parametrize("suffix", sorted(WRITERS))
def test_every_written_suffix_is_read_and_taken_by_batch(tmp_path, suffix):
    image, _ = photo(3)
    path = _save(image, tmp_path / f"hand{suffix}")
    assert suffix in PHOTO_SUFFIXES and is_photo_candidate(path)
    assert read_image(path).width == image.width


def test_label_page_lists_every_photo_the_reader_reads(tmp_path):
    image, _ = photo(1)
    for suffix in (".jpg", ".tif", ".gif", ".heic"):
        _save(image, tmp_path / f"hand{suffix}")
    (tmp_path / "hand.tif").rename(tmp_path / "hand.TIF")
    (tmp_path / "notes.txt").write_text("not a photo")
    assert [p.name for p in label_page.list_photos(tmp_path)] == ["hand.TIF", "hand.gif", "hand.heic", "hand.jpg"]


@pytest.mark.parametrize("suffix", [".tif", ".gif", ".heic"])
def test_label_import_takes_photos_in_any_read_format(tmp_path, suffix):
    export = tmp_path / "export"
    (export / "images").mkdir(parents=True)
    (export / "labels").mkdir()
    (export / "classes.txt").write_text("\n".join(["1m", "5p", "C"]) + "\n")
    categories = [{"id": i, "name": n} for i, n in enumerate(["1m", "5p", "C"])]
    (export / "notes.json").write_text(json.dumps({"categories": categories, "info": {"contributor": "Label Studio"}}))
    image, boxes = photo(5)
    _save(image, export / "images" / f"IMG_5{suffix}")
    names = {"1m": 0, "5p": 1, "C": 2}
    lines = [yolo_line(names[n], b, image.size) for n, b in boxes if n in names]
    (export / "labels" / "IMG_5.txt").write_text("\n".join(lines) + "\n")
    report = import_export(export, tmp_path / "ds", fmt="labelstudio-yolo")
    assert report.photos == 1
    assert len(LabelDataset(tmp_path / "ds").load("IMG_5", "train")) == len(lines)


@pytest.mark.parametrize("suffix", [".tif", ".heic", ".png"])
def test_evaluation_reads_every_dataset_image_ultralytics_trains_on(tmp_path, suffix):
    images, labels = tmp_path / "images" / "val", tmp_path / "labels" / "val"
    images.mkdir(parents=True)
    labels.mkdir(parents=True)
    image, boxes = photo(7)
    _save(image, images / f"a{suffix}")
    _save(image, images / "b.gif")  # ultralytics does not train on GIF, so neither is it evaluated
    (labels / "a.txt").write_text(yolo_line(4, boxes[0][1], image.size) + "\n")
    (labels / "b.txt").write_text(yolo_line(4, boxes[0][1], image.size) + "\n")
    [item] = evaluate.load_labelled_folder(images)
    assert item.path.name == f"a{suffix}" and item.class_id.tolist() == [4]
    assert np.abs(item.xyxy[0] - np.array(boxes[0][1])).max() < 1
