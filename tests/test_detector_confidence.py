"""benchmarks/detector_confidence.py: the detector's best confidence on each labelled tile, summed up by class."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES

SPEC = importlib.util.spec_from_file_location(
    "detector_confidence", Path(__file__).parent.parent / "benchmarks" / "detector_confidence.py")
detector_confidence = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(detector_confidence)

TILE = [100.0, 100.0, 140.0, 156.0]  # 40 x 56 px


@pytest.mark.parametrize(
    ("boxes", "confidences", "expected"),
    [
        ([], [], 0.0),  # no box at all
        ([TILE], [0.7], 0.7),  # the tile's own box
        ([[100, 100, 140, 156], [102, 101, 141, 157]], [0.3, 0.8], 0.8),  # the best of two boxes on it
        ([[110, 112, 130, 144]], [0.9], 0.0),  # a box on its inner frame only (IoU 0.29)
        ([[300, 300, 340, 356]], [0.9], 0.0),  # a box elsewhere
    ],
)
def test_best_confidence_takes_the_best_box_matching_the_tile(boxes, confidences, expected):
    found = detector_confidence.best_confidence(
        np.array([TILE]), np.array(boxes, float).reshape(-1, 4), np.array(confidences, float))
    assert found.shape == (1,) and found[0] == pytest.approx(expected)


def test_no_labelled_tiles_give_no_confidences():
    assert detector_confidence.best_confidence(np.zeros((0, 4)), np.array([TILE]), np.array([0.9])).shape == (0,)


def test_summary_gives_median_and_tiles_under_the_cut_in_class_order():
    p, one_m = CLASS_NAMES.index("P"), CLASS_NAMES.index("1m")
    summary = detector_confidence.summarize({p: [0.1, 0.3, 0.6], one_m: [0.9, 0.24]}, cut=0.25)
    assert list(summary) == ["1m", "P"]
    assert summary["P"] == {"tiles": 3, "median": 0.3, "under_cut": 1}
    assert summary["1m"] == {"tiles": 2, "median": 0.57, "under_cut": 1}


def test_markdown_puts_the_models_side_by_side():
    report = {"date": "today", "data": "datasets/cmd.yaml", "images": 1, "cut": 0.25, "models": {
        "0.7.0": {"model": "a", "classes": {"P": {"tiles": 3, "median": 0.62, "under_cut": 1}}},
        "0.9.0": {"model": "b", "classes": {"P": {"tiles": 3, "median": 0.36, "under_cut": 2}}},
    }}
    text = detector_confidence.to_markdown(report)
    assert "| class | tiles | 0.7.0 median | 0.7.0 under | 0.9.0 median | 0.9.0 under |" in text
    assert "| P | 3 | 0.62 | 1 | 0.36 | 2 |" in text
