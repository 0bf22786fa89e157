"""benchmarks/error_anatomy.py sorts each tile error by what the boxes show; one labelled photo, one kind of error each."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES
from vision.evaluate import LabelledImage, Prediction

SPEC = importlib.util.spec_from_file_location("error_anatomy", Path(__file__).parent.parent / "benchmarks" / "error_anatomy.py")
error_anatomy = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(error_anatomy)

TILE = [100.0, 100.0, 140.0, 156.0]  # one labelled tile, 40 x 56 px
P, BACK, FIVE_M, SEVEN_M = (CLASS_NAMES.index(name) for name in ("P", "back", "5m", "7m"))


def _anatomy(truth_class: int, boxes: list[list[float]], classes: list[int], confidences: list[float] | None = None) -> dict:
    truth = LabelledImage(Path("photo.jpg"), np.array([TILE]), np.array([truth_class]))
    confidences = confidences or [0.9] * len(boxes)
    pred = Prediction(np.array(boxes, float).reshape(-1, 4), np.array(confidences, float), np.array(classes, np.int64))
    return error_anatomy.anatomy(lambda path: pred, [truth], conf=0.25)


@pytest.mark.parametrize(
    ("truth_class", "boxes", "classes", "confidences", "expected"),
    [
        # read right: no error at all
        (SEVEN_M, [TILE], [SEVEN_M], None, {("misread", "total"): 0, ("missed", "total"): 0, ("extra", "total"): 0}),
        # misread
        (SEVEN_M, [TILE], [FIVE_M], None, {("misread", "total"): 1, ("missed", "total"): 0}),
        # a box under the operating confidence does not count: the tile is missed, with no box near it
        (SEVEN_M, [TILE], [SEVEN_M], [0.1], {("missed", "no box near"): 1, ("extra", "total"): 0}),
        # a box around part of the tile: a miss and an extra, both partial
        (SEVEN_M, [[100, 100, 140, 128]], [SEVEN_M], None,
         {("missed", "box off the tile"): 1, ("extra", "off a labelled tile"): 1, ("missed", "read right, boxed small"): 1}),
        # a framed 白's inner frame boxed and read right
        (P, [[108, 110, 132, 146]], [P], None, {("missed", "read right, boxed small"): 1, ("extra", "total"): 1}),
        # the same small box read as another class is not "read right"
        (P, [[108, 110, 132, 146]], [BACK], None, {("missed", "read right, boxed small"): 0, ("missed", "total"): 1}),
        # a face-down tile nobody labelled
        (SEVEN_M, [TILE, [300, 100, 340, 156]], [SEVEN_M, BACK], None,
         {("extra", "away from every labelled tile"): 1, ("missed", "total"): 0}),
        # two boxes on one tile
        (SEVEN_M, [TILE, [101, 101, 141, 157]], [SEVEN_M, SEVEN_M], [0.9, 0.8], {("extra", "second box on a tile"): 1}),
    ],
)
def test_each_error_is_sorted_by_what_the_boxes_show(truth_class, boxes, classes, confidences, expected):
    report = _anatomy(truth_class, boxes, classes, confidences)
    for (kind, field), count in expected.items():
        assert report[kind][field] == count, (kind, field, report)


def test_misreads_of_tiles_labelled_1p_are_counted_apart():
    one_p = CLASS_NAMES.index("1p")
    report = _anatomy(one_p, [TILE], [FIVE_M])
    assert report["misread"] == {"total": 1, "labelled 1p": 1, "top": {"1p->5m": 1}}


def test_the_markdown_names_every_count():
    report = {"date": "2026-12-03", "model": "models/current", "version": "0.0.0", "data": "datasets/cmd.yaml",
              "conf": 0.25, "anatomy": _anatomy(P, [[108, 110, 132, 146]], [P])}
    text = error_anatomy.to_markdown(report)
    assert "| missed tile | 1 |" in text and "read right by a box inside it 1 (P 1)" in text
    assert "| extra box | 1 |" in text and "| misread tile | 0 |" in text
