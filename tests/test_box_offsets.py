"""benchmarks/box_offsets.py: how far the detector's box sides lie from the labels', and the table it writes."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

SPEC = importlib.util.spec_from_file_location("box_offsets", Path(__file__).parent.parent / "benchmarks" / "box_offsets.py")
box_offsets = importlib.util.module_from_spec(SPEC)
sys.modules["box_offsets"] = box_offsets
SPEC.loader.exec_module(box_offsets)

LABELS = np.array([[0, 0, 100, 200], [300, 0, 400, 200]], np.float32)


@pytest.mark.parametrize("boxes, expected", [
    # a box 10 px wider on the left (10 % of the width) and 20 px lower at the bottom (10 % of the height)
    ([[-10, 0, 100, 220]], {(0, 0): [-0.1, 0, 0, 0.1]}),
    # boxes in another order are paired with their own labels
    ([[305, 0, 400, 200], [0, 0, 100, 200]], {(1, 0): [0.05, 0, 0, 0], (0, 1): [0, 0, 0, 0]}),
    # a box overlapping no label well enough is left out
    ([[60, 0, 160, 200]], {}),
    ([], {}),
])
def test_sides_are_measured_against_the_paired_label(boxes, expected) -> None:
    offsets, labelled, found = box_offsets.side_offsets(LABELS, np.array(boxes, np.float32).reshape(-1, 4))
    got = {(int(i), int(j)): row for i, j, row in zip(labelled, found, offsets)}
    assert got.keys() == expected.keys()
    for pair, row in expected.items():
        assert got[pair] == pytest.approx(row, abs=1e-6)


def test_the_summary_counts_sides_past_the_training_jitter() -> None:
    summary = box_offsets.summarize(np.array([[-0.1, 0.0, 0.02, 0.0], [-0.1, 0.0, 0.02, 0.2]]))
    assert summary["boxes"] == 2
    assert summary["over_jitter"] == pytest.approx(3 / 8)
    assert summary["signed_mean"] == pytest.approx({"x1": -0.1, "y1": 0.0, "x2": 0.02, "y2": 0.1})
    assert (summary["width_change"], summary["height_change"]) == pytest.approx((0.12, 0.1))
    assert box_offsets.summarize(np.zeros((0, 4))) == {"boxes": 0}


def test_the_table_has_a_row_per_model_and_pairing() -> None:
    offsets = box_offsets.summarize(np.array([[-0.1, 0.0, 0.02, 0.0]]))
    row = {"model": "models/current", "photos": 2, "openvino_backend": "openvino",
           "offsets": {"label_to_openvino": offsets, "label_to_onnxruntime": offsets,
                       "onnxruntime_to_openvino": {"boxes": 0}},
           "classified": {"tiles": 40, "label_box_wrong": 3, "detector_box_wrong": 4}}
    text = box_offsets.markdown({"date": "d", "machine": "m", "data": "datasets/cmd.yaml", "split": "val",
                                 "models": [row]})
    assert "| `models/current` | label -> OpenVINO (bf16 detector) | 1 | 0.0300 |" in text
    assert "| `models/current` | ONNX Runtime -> OpenVINO | 0 | | | | | | | |" in text
    assert "| `models/current` | 40 | 3 | 4 |" in text
