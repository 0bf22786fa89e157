"""vision.detections.Detections: validated on creation, and read back from the detect JSON it writes."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detections import Detections


def test_the_detect_json_reads_back_as_the_same_detections():
    made = Detections(np.array([[10, 20, 40, 60], [50, 20, 80, 61.5]]), np.array([0.97, 0.5]), np.array([0, 35]))
    items = made.to_list()
    assert items[1] == {"cls": "flower", "conf": 0.5, "box": [50.0, 20.0, 80.0, 61.5]}
    back = Detections.from_list(items)
    assert back.to_list() == items and back.class_id.tolist() == [0, 35]
    assert len(Detections.from_list([])) == 0


@pytest.mark.parametrize(("args", "message"), [
    ((np.zeros((2, 4)), np.zeros(1), np.zeros(2)), "2 boxes, 1 confidences, 2 class ids"),
    ((np.zeros((1, 4)), np.zeros(1), np.array([36])), "class ids must be 0..35"),
    ((np.array([[10, 10, 5, 20]]), np.ones(1), np.zeros(1)), "x2 >= x1"),
])
def test_bad_detections_are_refused_on_creation(args, message):
    with pytest.raises(ValueError, match=message):
        Detections(*args)


def test_an_unknown_class_name_is_named():
    with pytest.raises(ValueError, match="unknown class name '1z'"):
        Detections.from_list([{"cls": "1z", "conf": 0.9, "box": [0, 0, 1, 1]}])
