"""The tile detector's second look at a hand that is small in the photo (vision.twostage.zoom)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.twostage.zoom import ZOOM_BELOW_PX, ZOOM_TILE_PX, outside, zoom_region


def tiles_at(x: float, y: float, count: int, size: float) -> np.ndarray:
    """A row of ``count`` tile boxes ``size`` x 1.4 ``size`` starting at (x, y)."""
    return np.array([[x + i * size, y, x + (i + 1) * size, y + 1.4 * size] for i in range(count)], np.float32)


@pytest.mark.parametrize(
    "boxes, why",
    [
        (np.zeros((0, 4), np.float32), "no tile found"),
        (tiles_at(100, 100, 1, 10), "one tile does not place a hand"),
        (tiles_at(100, 100, 14, 100), "tiles already large for the detector (35 px at 480)"),
        (np.concatenate([tiles_at(10, 900, 14, 20), tiles_at(1850, 10, 2, 20)]), "a hand and a meld in far corners"),
        (np.concatenate([tiles_at(10, 900, 1, 20), tiles_at(1850, 10, 1, 20)]), "two lone boxes are no hand"),
    ],
)
def test_no_second_look(boxes, why):
    assert zoom_region(boxes, 1920, 1080, 480) is None, why


def test_a_small_hand_gets_a_region_around_it_with_a_margin():
    boxes = tiles_at(300, 400, 14, 20)  # 20 px tiles in a 1600 px photo: 6 network px at 480
    region = zoom_region(boxes, 1600, 1200, 480)
    assert region is not None
    x1, y1, x2, y2 = region
    assert x1 <= 300 - 20 and y1 <= 400 - 20 and x2 >= 300 + 14 * 20 + 20 and y2 >= 400 + 28 + 20
    assert max(x2 - x1, y2 - y1) <= 1600 / 1.5
    # In the region letterboxed to 480 px, each tile's longer side is no larger than the sizes the detector learnt.
    assert 28 * 480 / max(x2 - x1, y2 - y1) <= ZOOM_TILE_PX + 1


def test_false_boxes_away_from_the_hand_do_not_stretch_the_region():
    hand = tiles_at(600, 500, 14, 20)
    edge = np.array([[0, 300, 60, 460], [0, 380, 50, 520]], np.float32)  # two large boxes at the photo's edge
    lone = tiles_at(1500, 1100, 1, 20)  # one tile-sized box alone on the table
    region = zoom_region(np.concatenate([hand, edge, lone]), 1600, 1200, 480)
    assert region == zoom_region(hand, 1600, 1200, 480)
    x1, y1, x2, y2 = region
    assert x1 > 60 and x2 < 1500


def test_a_region_near_the_border_is_clipped_to_the_photo():
    x1, y1, x2, y2 = zoom_region(tiles_at(0, 0, 5, 12), 1600, 1200, 480)
    assert (x1, y1) == (0, 0) and x2 <= 1600 and y2 <= 1200


def test_the_trigger_is_the_tile_size_in_network_pixels():
    side = ZOOM_BELOW_PX * 1600 / 480  # a tile that letterboxes to exactly the threshold
    assert zoom_region(tiles_at(0, 0, 3, side / 1.4 * 1.01), 1600, 1600, 480) is None
    assert zoom_region(tiles_at(0, 0, 3, side / 1.4 * 0.9), 1600, 1600, 480) is not None


def test_outside_is_decided_by_the_box_centre():
    boxes = np.array([[0, 0, 10, 10], [95, 95, 120, 120], [200, 200, 210, 210]], np.float32)
    assert outside(boxes, (0, 0, 100, 100)).tolist() == [False, True, True]


def _fake_detector(tensor: np.ndarray) -> np.ndarray:
    """A 1-class detector that boxes every bright blob exactly, surer of larger blobs (as a real one is)."""
    mask = (tensor[0, 0] > 0.8).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    rows = []
    for x, y, w, h, _area in stats[1:count]:
        side = max(w, h)
        confidence = 0.9 if side >= 20 else 0.5 if side >= 8 else 0.3 if side >= 3 else 0.05
        rows.append([x + w / 2, y + h / 2, w, h, confidence])
    return np.array(rows or np.zeros((0, 5)), np.float32).T[None]


def _find_tiles(rgb: np.ndarray, zoom: bool, conf: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    from vision.imageio import LoadedImage
    from vision.twostage.backend import TwoStageNetworks

    networks = object.__new__(TwoStageNetworks)
    networks.model_dir, networks.backend = Path("fake"), "fake"
    networks.detector_imgsz, networks.conf, networks.iou, networks.zoom = 320, conf, 0.5, zoom
    networks._detector = _fake_detector
    return networks.find_tiles(LoadedImage.from_array(rgb))


def _table_with_a_small_hand() -> tuple[np.ndarray, np.ndarray]:
    """A 2000 x 1500 dark photo with 8 bright 'tiles' of 30 x 42 px near its top left (5 x 7 px at 320)."""
    rgb = np.full((1500, 2000, 3), 40, np.uint8)
    tiles = tiles_at(200, 300, 8, 30)
    tiles[:, [0, 2]] += (np.arange(8) * 6)[:, None]  # gaps between tiles, or the blobs would merge
    for x1, y1, x2, y2 in tiles.astype(int):
        rgb[y1:y2, x1:x2] = 250
    return rgb, tiles


def test_the_second_look_finds_a_small_hand_with_sure_and_tight_boxes():
    rgb, tiles = _table_with_a_small_hand()
    first_boxes, first_conf = _find_tiles(rgb, zoom=False)
    boxes, confidence = _find_tiles(rgb, zoom=True)
    assert len(first_boxes) == 8 and np.all(first_conf == np.float32(0.3))  # found, but doubted
    assert len(boxes) == 8 and np.all(confidence == np.float32(0.9))
    assert np.abs(boxes[np.argsort(boxes[:, 0])] - tiles).max() <= 2.0  # mapped back to the photo's pixels


@pytest.mark.parametrize(
    "name, box, confidence",
    [
        ("an object far from the hand", (1700, 1300, 1760, 1340), 0.5),  # 9.6 x 6.4 px at 320: boxed, not grouped
        ("a crumb the first pass barely sees", (1780, 1380, 1796, 1396), 0.05),  # under the region's cut
    ],
)
def test_boxes_away_from_the_hand_keep_their_first_look(name, box, confidence):
    rgb, _ = _table_with_a_small_hand()
    x1, y1, x2, y2 = box
    rgb[y1:y2, x1:x2] = 250
    boxes, found = _find_tiles(rgb, zoom=True)
    assert len(boxes) == 9 and np.sum(found == np.float32(0.9)) == 8, name
    far = outside(boxes, (0, 0, 1000, 1000))
    assert far.sum() == 1 and found[far][0] == np.float32(confidence), name
    assert np.abs(boxes[far][0] - box).max() <= 8, name


def test_the_operating_cut_still_applies_after_the_second_look():
    rgb, _ = _table_with_a_small_hand()
    assert len(_find_tiles(rgb, zoom=False, conf=0.5)[0]) == 0  # every tile doubted: all cut at 0.5
    boxes, confidence = _find_tiles(rgb, zoom=True, conf=0.5)
    assert len(boxes) == 8 and confidence.min() >= 0.5
