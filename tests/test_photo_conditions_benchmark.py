"""benchmarks/photo_conditions.py: each condition changes a photo's pixels and nothing else, the same way every run."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision import evaluate as ev

SPEC = importlib.util.spec_from_file_location("photo_conditions",
                                              Path(__file__).parent.parent / "benchmarks" / "photo_conditions.py")
photo_conditions = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(photo_conditions)


def _photo(tmp_path: Path) -> ev.LabelledImage:
    source = tmp_path / "src" / "images" / "val"
    source.mkdir(parents=True)
    rgb = np.full((480, 640, 3), (40, 110, 60), np.uint8)  # the conditions are set for photos of about 640 px
    for left in range(100, 540, 44):  # light tiles with dark marks: edges for blur to soften
        rgb[200:260, left : left + 40] = (235, 232, 220)
        rgb[215:245, left + 10 : left + 30] = (30, 30, 160)
    Image.fromarray(rgb).save(source / "p.png")
    return ev.LabelledImage(source / "p.png", np.array([[100, 200, 140, 260]], np.float64), np.array([7]))


@pytest.mark.parametrize("condition", sorted(photo_conditions.CONDITIONS))
def test_a_condition_keeps_size_labels_and_is_the_same_every_run(tmp_path, condition):
    photo = _photo(tmp_path)
    (first,) = photo_conditions.write_condition_set([photo], condition, tmp_path / "a", seed=0)
    (again,) = photo_conditions.write_condition_set([photo], condition, tmp_path / "b", seed=0)
    with Image.open(first.path) as a, Image.open(again.path) as b, Image.open(photo.path) as source:
        assert a.size == source.size
        assert np.array_equal(np.asarray(a), np.asarray(b))
        tiles = np.s_[190:270, 90:550]  # where the picture has edges and colour
        changed = np.abs(np.asarray(a, np.int16)[tiles] - np.asarray(source.convert("RGB"), np.int16)[tiles]).mean()
    assert first.class_id.tolist() == [7] and np.abs(first.xyxy - photo.xyxy).max() < 0.01
    # every condition but the reference changes the tiles beyond re-saving them (quality 95 moves sharp synthetic edges 2-3 levels on average)
    assert (changed < 4.0) if condition == "as_labelled" else (changed > 6.0), changed


def test_warm_light_turns_a_white_face_yellow():
    white = np.full((4, 4, 3), 200, np.uint8)
    warm = photo_conditions.CONDITIONS["warm_light"][1](white, np.random.default_rng(0))
    assert warm[0, 0, 0] > warm[0, 0, 1] > warm[0, 0, 2]


def test_the_table_names_every_condition_and_has_a_row_per_model_and_condition():
    row = {"model": "models/current", "condition": "dim", "map50": 0.96, "tile_accuracy": 0.97, "tile_errors": 110,
           "missed": 29, "misclassified": 8, "extra": 73, "exact_match": 0.54, "name_errors": 12,
           "hands_read_right": 0.8, "ms_per_image": 55.0}
    text = photo_conditions.to_markdown({"date": "d", "data": "cmd", "images": 80, "tiles": 1266, "conf": 0.25,
                                         "conditions": ["dim", "bright"],
                                         "rows": [row, {**row, "condition": "bright"}]})
    assert "| models/current | dim | 0.960 | 0.9700 | 110 (29 / 8 / 73) | 0.540 | 12 | 0.800 | 55 |" in text
    lines = text.splitlines()
    table = lines[lines.index(next(line for line in lines if line.startswith("| model |"))):]
    assert len(table) == 4 and len({line.count("|") for line in table}) == 1, table
    assert text.count("| models/current |") == 2 and "| bright | overexposed" in text
