"""benchmarks/tile_scale.py: photos moved onto a larger table, their labels moved with them."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from vision import evaluate as ev

SPEC = importlib.util.spec_from_file_location("tile_scale", Path(__file__).parent.parent / "benchmarks" / "tile_scale.py")
tile_scale = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(tile_scale)


def _photo() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    rgb = rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)
    return rgb, np.array([[10, 20, 40, 62], [100, 50, 130, 92]], np.float64)


def test_scale_one_keeps_the_photo():
    rgb, boxes = _photo()
    placed, moved = tile_scale.place_on_table(rgb, boxes, 1, np.random.default_rng(0))
    assert placed is rgb and np.array_equal(moved, boxes)


@pytest.mark.parametrize("scale", [1.5, 2, 3])
def test_the_photo_and_its_tiles_move_together_onto_a_larger_table(scale):
    rgb, boxes = _photo()
    placed, moved = tile_scale.place_on_table(rgb, boxes, scale, np.random.default_rng(7))
    assert placed.shape == (round(120 * scale), round(160 * scale), 3)
    for before, after in zip(boxes.astype(int), moved.astype(int)):
        assert np.array_equal(rgb[before[1] : before[3], before[0] : before[2]], placed[after[1] : after[3], after[0] : after[2]])


def test_written_labels_read_back_as_the_moved_boxes(tmp_path):
    from PIL import Image

    rgb, boxes = _photo()
    source = tmp_path / "src" / "images" / "val"
    source.mkdir(parents=True)
    Image.fromarray(rgb).save(source / "a.png")
    original = ev.LabelledImage(source / "a.png", boxes, np.array([3, 35]))
    (scaled,) = tile_scale.write_scaled([original], 2, tmp_path / "x2", seed=5)
    _, expected = tile_scale.place_on_table(rgb, boxes, 2, np.random.default_rng(5))
    assert scaled.class_id.tolist() == [3, 35]
    assert np.abs(scaled.xyxy - expected).max() < 0.01
    assert tile_scale.median_tile_height([scaled]) == pytest.approx(42 / 240)
