"""Saving corrections as YOLO labels: layout, round trip, atomic writes, paths that cannot escape."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mjsnap import labels as labels_module
from mjsnap.labels import (
    DATA_YAML,
    LabelBox,
    LabelDataset,
    LabelError,
    data_yaml_text,
    parse_yolo_lines,
    read_class_names,
    safe_name,
    yolo_lines,
)
from scoring.tiles import CLASS_NAMES


def _image(width: int = 320, height: int = 200, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 255, (height, width, 3), dtype=np.uint8)


BOXES = [LabelBox(0, (10, 20, 50, 80)), LabelBox(33, (100.5, 30, 140.5, 90)), LabelBox(34, (200, 100, 240, 160))]


def test_save_writes_ultralytics_layout(tmp_path):
    dataset = LabelDataset(tmp_path / "corrections")
    saved = dataset.save("photo1", _image(), BOXES)
    root = tmp_path / "corrections"
    assert saved.image == root / "images/train/photo1.jpg" and saved.image.is_file()
    assert saved.label == root / "labels/train/photo1.txt"
    assert read_class_names((root / DATA_YAML).read_text()) == list(CLASS_NAMES)
    assert (root / "images/val").is_dir() and (root / "labels/val").is_dir()
    lines = saved.label.read_text().splitlines()
    assert [line.split()[0] for line in lines] == ["0", "33", "34"]
    assert lines[0] == "0 0.093750 0.250000 0.125000 0.300000"


def test_saved_files_are_readable_by_others_as_files_written_in_place_are(tmp_path):
    """Not the 0600 of the temporary files they are written through: a training job of another user reads them."""
    from mjsnap.dataset.split import split_dataset

    dataset = LabelDataset(tmp_path / "corrections")
    saved = [dataset.save(f"photo{n}", _image(seed=n), BOXES) for n in range(5)]
    split_dataset(dataset.root, val_fraction=0.4)  # moves some images to val through a temporary file too
    files = [p for p in dataset.root.rglob("*") if p.is_file() and p.suffix in (".jpg", ".txt")]
    assert len(files) == 2 * len(saved)
    assert {oct(p.stat().st_mode & 0o777) for p in files} == {"0o644"}


def test_round_trip_returns_the_same_boxes(tmp_path):
    dataset = LabelDataset(tmp_path)
    dataset.save("p", _image(), BOXES)
    loaded = dataset.load("p", "train")
    assert [b.cls for b in loaded] == [b.cls for b in BOXES]
    np.testing.assert_allclose([b.box for b in loaded], [b.box for b in BOXES], atol=1e-3)


def test_saved_image_keeps_its_size_and_no_exif_rotation(tmp_path):
    saved = LabelDataset(tmp_path).save("p", _image(321, 123), BOXES[:1])
    with Image.open(saved.image) as image:
        assert image.size == (321, 123)
        assert image.getexif().get(0x0112) is None


def test_resaving_moves_the_photo_to_its_new_split(tmp_path):
    dataset = LabelDataset(tmp_path)
    dataset.save("p", _image(), BOXES, split="review")
    assert dataset.find("p") == "review"
    dataset.save("p", _image(), BOXES[:2], split="train")
    assert dataset.find("p") == "train"
    assert not dataset.label_path("p", "review").exists() and not dataset.image_path("p", "review").exists()
    assert len(dataset.load("p", "train")) == 2


def test_a_photo_with_no_tiles_is_an_empty_label(tmp_path):
    saved = LabelDataset(tmp_path).save("empty", _image(), [])
    assert saved.label.read_text() == ""


@pytest.mark.parametrize(
    "name", ["../escape", "/etc/passwd", ".hidden", "a/b", "a\\b", "", "x" * 101, "ok..no", "名字", "a b"]
)
def test_names_that_could_escape_or_hide_are_refused(tmp_path, name):
    with pytest.raises(LabelError, match="not allowed") as refused:
        LabelDataset(tmp_path).save(name, _image(), BOXES)
    assert refused.value.code == "bad_label_name"
    assert not any(p.is_file() for p in tmp_path.rglob("*") if p.name != DATA_YAML)


@pytest.mark.parametrize("name", ["photo_1", "IMG-2024.05.01", "a" * 100, "0abc"])
def test_plain_names_are_accepted(name):
    assert safe_name(name) == name


def test_a_symlinked_split_folder_pointing_outside_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "ds"
    (root / "images").mkdir(parents=True)
    (root / "images" / "train").symlink_to(outside, target_is_directory=True)
    with pytest.raises(LabelError, match="outside the dataset folder") as refused:
        LabelDataset(root).save("p", _image(), BOXES)
    assert refused.value.code == "outside_dataset"
    assert list(outside.iterdir()) == []


def test_a_crash_while_writing_leaves_no_half_label(tmp_path, monkeypatch):
    dataset = LabelDataset(tmp_path)
    dataset.save("p", _image(), BOXES)
    before = dataset.label_path("p", "train").read_text()

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(labels_module.os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        dataset.save("p", _image(), BOXES[:1])
    monkeypatch.undo()
    assert dataset.label_path("p", "train").read_text() == before  # the old label is intact
    assert not [p for p in tmp_path.rglob("*.tmp")], "temporary files must be cleaned up"


def test_existing_dataset_with_other_classes_is_not_mixed_into(tmp_path):
    (tmp_path / DATA_YAML).write_text("train: images/train\nval: images/val\nnames:\n  0: tile\n  1: other\n")
    with pytest.raises(LabelError, match="lists classes") as refused:
        LabelDataset(tmp_path).save("p", _image(), BOXES)
    assert refused.value.code == "other_class_names"


def test_existing_dataset_in_block_form_with_our_classes_is_reused(tmp_path):
    block = "names:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES))
    (tmp_path / DATA_YAML).write_text("train: images/train\nval: images/val\n" + block)
    LabelDataset(tmp_path).save("p", _image(), BOXES)
    assert (tmp_path / DATA_YAML).read_text().endswith(block)  # left as it was


@pytest.mark.parametrize(
    ("cls", "box", "message", "code"),
    [
        (36, (0, 0, 1, 1), "class id", "bad_class_id"),
        (-1, (0, 0, 1, 1), "class id", "bad_class_id"),
        (0, (5, 5, 5, 9), "no area", "box_without_area"),
        (0, (5, 9, 8, 2), "no area", "box_without_area"),
        (0, (0, 0, float("nan"), 1), "finite", "bad_box_numbers"),
    ],
)
def test_bad_boxes_are_refused(cls, box, message, code):
    with pytest.raises(LabelError, match=message) as refused:
        LabelBox(cls, box)
    assert refused.value.code == code and refused.value.box is None


def test_boxes_are_clipped_to_the_image_and_outside_ones_refused():
    assert yolo_lines([LabelBox(1, (-10, -10, 50, 50))], 100, 100) == ["1 0.250000 0.250000 0.500000 0.500000"]
    with pytest.raises(LabelError, match="outside") as refused:
        yolo_lines([LabelBox(1, (120, 0, 150, 50))], 100, 100)
    assert refused.value.code == "box_outside_image"


def test_bad_label_lines_name_the_line():
    with pytest.raises(LabelError, match="line 2") as refused:
        parse_yolo_lines("0 0.5 0.5 0.1 0.1\n0 0.5 zero 0.1 0.1\n", 100, 100)
    assert refused.value.code == "bad_label_line"


@pytest.mark.parametrize("split", ["test", "../train"])
def test_unknown_splits_are_refused(tmp_path, split):
    with pytest.raises(LabelError, match="not one of") as refused:
        LabelDataset(tmp_path).label_path("p", split)
    assert refused.value.code == "bad_split"


def test_an_image_without_pixels_is_refused():
    with pytest.raises(LabelError, match="no pixels") as refused:
        yolo_lines(BOXES, 0, 100)
    assert refused.value.code == "image_without_pixels"


def test_ultralytics_reads_the_dataset(tmp_path):
    utils = pytest.importorskip("ultralytics.data.utils", reason="ultralytics is only in the train extra")
    dataset = LabelDataset(tmp_path / "ds")
    dataset.save("p", _image(), BOXES)
    dataset.save("q", _image(), BOXES[:1], split="val")
    info = utils.check_det_dataset(str(tmp_path / "ds" / DATA_YAML))
    assert info["nc"] == len(CLASS_NAMES) and list(info["names"].values()) == list(CLASS_NAMES)
    assert Path(info["train"]) == (tmp_path / "ds/images/train").resolve()
    assert "review" not in data_yaml_text().split("#", 1)[1].split("\n", 1)[1]  # only named in the comment
    assert os.path.isdir(info["val"])
