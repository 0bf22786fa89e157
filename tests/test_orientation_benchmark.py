"""benchmarks/orientation.py: every photo turned the same way, labels with it, and the report's table."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision import evaluate as ev
from vision.turned import turn_boxes

SPEC = importlib.util.spec_from_file_location("orientation", Path(__file__).parent.parent / "benchmarks" / "orientation.py")
orientation = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(orientation)


@pytest.mark.parametrize("quarter_turns", [0, 1, 2, 3])
def test_a_turned_set_keeps_each_photos_labels_on_its_tiles(tmp_path, quarter_turns):
    source = tmp_path / "src" / "images" / "val"
    source.mkdir(parents=True)
    rgb = np.zeros((40, 70, 3), np.uint8)
    boxes = np.array([[10, 5, 25, 30]], np.float64)
    Image.fromarray(rgb).save(source / "p.png")
    (turned,) = orientation.write_turned_set([ev.LabelledImage(source / "p.png", boxes, np.array([7]))], quarter_turns,
                                             tmp_path / "out")
    with Image.open(turned.path) as im:
        assert im.size == ((70, 40) if quarter_turns % 2 == 0 else (40, 70))
    assert turned.class_id.tolist() == [7]
    assert np.abs(turned.xyxy - turn_boxes(boxes, 70, 40, quarter_turns)).max() < 0.01


def test_the_table_has_one_row_per_model_and_turn_and_shows_rows_from_before_name_errors_as_dashes():
    row = {"model": "models/current", "degrees": 90, "map50": 0.96, "tile_accuracy": 0.97, "tile_errors": 110,
           "missed": 29, "misclassified": 8, "extra": 73, "exact_match": 0.54, "ms_per_image": 55.0}
    text = orientation.to_markdown({"date": "d", "data": "cmd", "images": 80, "tiles": 1266, "rows": [row, {**row, "degrees": 180}]})
    assert "| models/current | 90 | 0.960 | 0.9700 | 110 (29 / 8 / 73) | 0.540 | - | - | 55 |" in text
    assert text.count("| models/current |") == 2
