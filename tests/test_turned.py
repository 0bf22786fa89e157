"""vision.turned and `mjsnap turn`: photos turned by quarter turns keep their labels on their tiles."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from mjsnap.cli import app
from vision import evaluate as ev
from vision.turned import turn_boxes, turn_photo, write_turned


def _board(width: int = 90, height: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """A dark photo with two coloured rectangles, and their boxes."""
    rgb = np.zeros((height, width, 3), np.uint8)
    boxes = np.array([[5, 8, 20, 30], [50, 20, 80, 55]], np.float64)
    for (x1, y1, x2, y2), colour in zip(boxes.astype(int), [(255, 0, 0), (0, 255, 0)]):
        rgb[y1:y2, x1:x2] = colour
    return rgb, boxes


@pytest.mark.parametrize("quarter_turns", [0, 1, 2, 3, 4, -1])
def test_turned_boxes_still_frame_their_rectangles(quarter_turns):
    rgb, boxes = _board()
    turned, moved = turn_photo(rgb, boxes, quarter_turns)
    assert turned.shape == (rgb.shape if quarter_turns % 2 == 0 else (90, 60, 3))
    for (x1, y1, x2, y2), colour in zip(moved.astype(int), [(255, 0, 0), (0, 255, 0)]):
        inside = turned[y1:y2, x1:x2]
        assert inside.size and np.all(inside == colour)  # the whole box is the rectangle...
        assert (turned == colour).all(2).sum() == inside.shape[0] * inside.shape[1]  # ...and the rectangle the box


def test_four_quarter_turns_come_back():
    _, boxes = _board()
    width, height = 90, 60
    back = boxes
    for _ in range(4):
        back = turn_boxes(back, width, height, 1)
        width, height = height, width
    assert np.allclose(back, boxes)


def test_write_turned_is_deterministic_and_labels_read_back(tmp_path):
    rgb, boxes = _board()
    source = tmp_path / "src" / "images" / "train"
    source.mkdir(parents=True)
    images = []
    for name in ("a", "b", "c"):
        Image.fromarray(rgb).save(source / f"{name}.png")
        images.append(ev.LabelledImage(source / f"{name}.png", boxes, np.array([0, 35])))
    first = list(write_turned(images, tmp_path / "one", "train", seed=4))
    second = list(write_turned(images, tmp_path / "two", "train", seed=4))
    assert [(p.name, t) for p, t in first] == [(p.name, t) for p, t in second]
    assert all(1 <= turns <= 3 and path.stem.endswith(f"_r{90 * turns}") for path, turns in first)
    for item, (_, turns) in zip(ev.load_labelled_folder(tmp_path / "one" / "images" / "train"), first):
        assert item.class_id.tolist() == [0, 35]
        assert np.abs(item.xyxy - turn_boxes(boxes, 90, 60, turns)).max() < 0.01


def test_turn_command_writes_the_split_and_refuses_a_missing_one(tmp_path):
    data_root = tmp_path / "data"
    rgb, boxes = _board()
    (data_root / "images" / "val").mkdir(parents=True)
    (data_root / "labels" / "val").mkdir(parents=True)
    Image.fromarray(rgb).save(data_root / "images" / "val" / "x.jpg")
    (data_root / "labels" / "val" / "x.txt").write_text("3 0.138889 0.316667 0.166667 0.366667\n")
    config = tmp_path / "set.yaml"
    config.write_text(f"train: {data_root / 'images' / 'val'}\nval: {data_root / 'images' / 'val'}\n")
    result = CliRunner().invoke(app, ["turn", "--data", str(config), "--split", "val", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "out" / "images" / "val").glob("x_r*.jpg"))) == 1
    assert len(list((tmp_path / "out" / "labels" / "val").glob("x_r*.txt"))) == 1
    missing = CliRunner().invoke(app, ["turn", "--data", str(config), "--split", "test", "--out", str(tmp_path / "o2")])
    assert missing.exit_code == 2 and "'test' split" in " ".join(missing.output.split())
    again = CliRunner().invoke(app, ["turn", "--data", str(config), "--split", "val", "--out", str(tmp_path / "out"),
                                     "--seed", "9"])
    assert again.exit_code == 2 and "already holds 1 files" in " ".join(again.output.split())
    assert len(list((tmp_path / "out" / "images" / "val").iterdir())) == 1  # nothing written, nothing removed
    (data_root / "data.yaml").write_text(config.read_text())  # a dataset folder, as train and eval take
    folder = CliRunner().invoke(app, ["turn", "--data", str(data_root), "--split", "val", "--out", str(tmp_path / "o3")])
    assert folder.exit_code == 0, folder.output
    nowhere = CliRunner().invoke(app, ["turn", "--data", str(tmp_path / "nope"), "--out", str(tmp_path / "o4")])
    assert nowhere.exit_code == 2 and "no such dataset folder" in " ".join(nowhere.output.split())


@pytest.mark.parametrize(
    ("photo", "label", "out", "message"),
    [
        (None, "3 0.1 0.3 0.2 0.4\n", "notes.txt", "error: --out: {tmp}/notes.txt is a file, not a folder"),
        (b"not a photo", "3 0.1 0.3 0.2 0.4\n", "out",
         "mjsnap turn: {tmp}/data/images/val/y.jpg: not a readable image (expected JPEG, PNG, WebP or HEIC)"),
        (None, "3 0.1 0.3\n", "out", "mjsnap turn: {tmp}/data/labels/val/y.txt: not YOLO box labels ('class xc yc w h' "
                                     "lines): 3 columns"),
    ],
)
def test_turn_refuses_a_set_or_out_it_cannot_use_and_writes_nothing(tmp_path, photo, label, out, message):
    """A photo or label file of the set that cannot be read (in any folder, not only the first), or an --out that is
    a file: one line and exit 2 before any turned copy is written; each was a traceback."""
    data_root = tmp_path / "data"
    rgb, _ = _board()
    (data_root / "images" / "val").mkdir(parents=True)
    (data_root / "labels" / "val").mkdir(parents=True)
    for name in ("x", "y"):
        Image.fromarray(rgb).save(data_root / "images" / "val" / f"{name}.jpg")
        (data_root / "labels" / "val" / f"{name}.txt").write_text("3 0.138889 0.316667 0.166667 0.366667\n")
    if photo is not None:
        (data_root / "images" / "val" / "y.jpg").write_bytes(photo)
    (data_root / "labels" / "val" / "y.txt").write_text(label)
    (data_root / "data.yaml").write_text("train: images/val\nval: images/val\n")
    (tmp_path / "notes.txt").write_text("mine")
    before = sorted(tmp_path.rglob("*"))
    result = CliRunner().invoke(app, ["turn", "--data", str(data_root), "--split", "val", "--out", str(tmp_path / out)])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [message.format(tmp=tmp_path)]
    assert sorted(tmp_path.rglob("*")) == before
