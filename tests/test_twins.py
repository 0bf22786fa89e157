"""Twins: a tile the classifier doubts is read together with the tiles of its photo that look just like it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES
from vision.synth.drawn import draw_face, scheme_pool
from vision.twostage.twins import INNER, SIDE, faces, likenesses, pool_twins

SCHEME = scheme_pool()[0]
H, W = draw_face(0, SCHEME).shape[:2]


def table(*kinds: int, gap: int = 20, shifts: dict[int, int] | None = None, turned: set[int] = frozenset(),
          shade: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A grey table with drawn faces of `kinds` side by side (some turned 180 degrees), and their boxes."""
    rgb = np.full((H + 2 * gap, len(kinds) * (W + gap) + gap, 3), 90, np.uint8)
    boxes = []
    for n, kind in enumerate(kinds):
        face = draw_face(CLASS_NAMES.index(kind) if isinstance(kind, str) else kind, SCHEME)
        face = face[::-1, ::-1] if n in turned else face
        x = gap + n * (W + gap)
        rgb[gap : gap + H, x : x + W] = face
        dx = (shifts or {}).get(n, 0)
        boxes.append([x + dx, gap, x + W + dx, gap + H])
    if shade:  # light falling off across the table
        rgb = (rgb * np.linspace(1.0, 0.6, rgb.shape[1])[None, :, None]).astype(np.uint8)
    return rgb, np.array(boxes, np.float32)


def test_a_face_matches_its_twin_turned_shifted_and_in_other_light_and_not_a_neighbour_class():
    rgb, boxes = table("6p", "6p", "7p", "9s", "6s", shifts={1: 3}, turned={1}, shade=True)
    tile_faces = faces(rgb, boxes)
    assert tile_faces.shape == (5, 40, 40)
    alike = likenesses(tile_faces, [0])[0]
    assert alike[1] >= 0.93
    for other in (2, 3, 4):
        assert alike[other] < 0.9


def test_likeness_is_the_same_both_ways_round_and_as_opencvs_template_match():
    rgb, boxes = table("3m", "2m", "3m", shifts={1: -2, 2: 3}, turned={2})
    tile_faces = faces(rgb, boxes)
    alike = likenesses(tile_faces, [0, 1, 2])
    np.testing.assert_allclose(alike, alike.T, atol=1e-6)
    np.testing.assert_allclose(np.diag(alike), 1.0, atol=1e-5)
    lo = (SIDE - INNER) // 2
    for i, j in ((0, 1), (0, 2), (1, 2)):  # every shift of each centre, both ways up, both ways round
        one_by_one = max(float(cv2.matchTemplate(face, np.ascontiguousarray(turned[lo : lo + INNER, lo : lo + INNER]),
                                                 cv2.TM_CCOEFF_NORMED).max())
                         for face, other in ((tile_faces[i], tile_faces[j]), (tile_faces[j], tile_faces[i]))
                         for turned in (other, other[::-1, ::-1]))
        assert alike[i, j] == pytest.approx(one_by_one, abs=1e-5)
        assert likenesses(tile_faces[[i, j]], [0])[0, 1] == pytest.approx(one_by_one, abs=1e-5)


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    probs = np.full((len(rows), len(CLASS_NAMES)), 0.0, np.float32)
    for row, spread in zip(probs, rows):
        for name, p in spread.items():
            row[CLASS_NAMES.index(name)] = p
    return probs


@pytest.mark.parametrize(
    ("below", "alike", "expected_first"),
    [
        (0.9, 0.93, {"6p": 0.7, "7p": 0.3}),  # doubted, with a sure twin: averaged, now read 6p
        (0.5, 0.93, {"6p": 0.4, "7p": 0.6}),  # not doubted enough to ask
        (0.9, 1.01, {"6p": 0.4, "7p": 0.6}),  # no face is that alike: read alone
    ],
)
def test_a_doubted_tile_is_averaged_with_its_twins_only(below, alike, expected_first):
    rgb, boxes = table("6p", "6p", "7p", shifts={1: 2})
    probs = _probs([{"6p": 0.4, "7p": 0.6}, {"6p": 1.0}, {"7p": 0.55, "6p": 0.45}])
    pooled = pool_twins(probs, faces(rgb, boxes), boxes, np.ones(3, bool), below, alike)
    np.testing.assert_allclose(pooled[0], _probs([expected_first])[0], atol=1e-6)
    np.testing.assert_array_equal(pooled[1], probs[1])  # a sure tile keeps its reading
    assert pooled[2].argmax() == CLASS_NAMES.index("7p")  # the 7p looks like neither 6p: it stays alone
    np.testing.assert_array_equal(probs[0], _probs([{"6p": 0.4, "7p": 0.6}])[0])  # the input is left as it was


def test_twins_read_from_first_readings_whatever_the_order():
    rgb, boxes = table("E", "E", "E")
    probs = _probs([{"E": 0.6, "F": 0.4}, {"F": 0.7, "E": 0.3}, {"E": 1.0}])
    sure = np.ones(3, bool)
    forward = pool_twins(probs, faces(rgb, boxes), boxes, sure, 0.9, 0.9)
    order = [2, 1, 0]
    backward = pool_twins(probs[order], faces(rgb, boxes[order]), boxes[order], sure, 0.9, 0.9)
    np.testing.assert_allclose(forward[order], backward, atol=1e-6)
    np.testing.assert_allclose(forward[1], probs.mean(0), atol=1e-6)


@pytest.mark.parametrize("twin", ["a box the detector doubts", "a second box on the same tile"])
def test_only_sure_boxes_apart_from_the_tile_are_twins(twin):
    """An evaluation keeps boxes down to confidence 0.001: a stray box on the tile itself must not outvote it."""
    rgb, boxes = table("6p", "6p")
    sure = np.array([True, twin != "a box the detector doubts"])
    if twin == "a second box on the same tile":
        boxes[1] = boxes[0] + [1, 1, 1, 1]
    probs = _probs([{"6p": 0.4, "7p": 0.6}, {"6p": 1.0}])
    np.testing.assert_array_equal(pool_twins(probs, faces(rgb, boxes), boxes, sure, 0.9, 0.9), probs)


def _networks(twins: dict | None):
    """TwoStageNetworks with a fake classifier sure of every tile but the second, which it reads as 7p at 0.6."""
    from vision.twostage.backend import TwoStageNetworks

    def classifier(tensor: np.ndarray) -> np.ndarray:
        probs = np.zeros((len(tensor), len(CLASS_NAMES)), np.float32)
        probs[:, CLASS_NAMES.index("6p")] = 1.0
        return probs

    networks = object.__new__(TwoStageNetworks)
    networks.model_dir, networks.backend = Path("fake"), "fake"
    networks.classifier_imgsz, networks.batch, networks.margin = 32, 4, 0.0
    networks.half_turn_average, networks._classifiers = False, [classifier]
    if twins:
        networks.twins_below, networks.twins_likeness = twins["below"], twins["likeness"]
    doubted = _probs([{"7p": 0.6, "6p": 0.4}])[0]
    first_look = TwoStageNetworks.first_look

    def look(rgb, boxes):
        probs = first_look(networks, rgb, boxes)
        probs[1] = doubted
        return probs

    networks.first_look = look
    return networks


@pytest.mark.parametrize(("twins", "second"), [(None, "7p"), ({"below": 0.9, "likeness": 0.93}, "6p")])
def test_classify_reads_twins_together_when_meta_asks(twins, second):
    rgb, boxes = table("6p", "6p", shifts={1: 2})
    probs = _networks(twins).classify(rgb, boxes)
    assert CLASS_NAMES[probs[1].argmax()] == second
    doubted_detector = _networks(twins).classify(rgb, boxes, np.array([0.2, 0.9], np.float32))
    assert CLASS_NAMES[doubted_detector[1].argmax()] == "7p"  # its only twin is a box the detector is unsure of


@pytest.mark.parametrize("entry", [{"below": 0.9}, {"below": 1.5, "likeness": 0.9}, {"below": 0.9, "likeness": "0.9"},
                                   {"below": 0.9, "likeness": 0.9, "every": True}, [0.9, 0.93]])
def test_a_bad_twins_entry_in_meta_is_refused(entry):
    from vision.twostage.backend import check_two_stage_meta

    meta = {"detector": {"imgsz": 480}, "classifier": {"imgsz": 64, "batch": 16, "twins": entry}}
    with pytest.raises(ValueError, match="classifier.twins"):
        check_two_stage_meta(meta, Path("model"))
