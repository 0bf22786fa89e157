"""Slanted rows of tiles are classified from a view turned level (vision.twostage.deskew)."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES
from vision.twostage.deskew import MIN_TILES, MIN_TILT_DEG, level_view, match_boxes, row_tilt


def _row(tilt_deg: float, n: int = 8, step: float = 30.0, start=(150.0, 150.0), half=(12.0, 16.0)) -> np.ndarray:
    """Boxes (xyxy) of n tiles whose centres lie along a row at tilt_deg (positive: falling to the right)."""
    t = np.radians(tilt_deg)
    centres = np.array([[start[0] + i * step * np.cos(t), start[1] + i * step * np.sin(t)] for i in range(n)])
    return np.hstack([centres - half, centres + half]).astype(np.float32)


@pytest.mark.parametrize(("tilt", "expected"), [(0, 0), (4, 4), (30, 30), (-30, -30), (90, 0), (70, -20), (-60, 30)])
def test_row_tilt_is_the_turn_to_the_nearest_image_axis(tilt, expected):
    assert row_tilt(_row(tilt)) == pytest.approx(expected, abs=0.5)


@pytest.mark.parametrize("tilt", [25, -40, 60])
def test_a_slanted_row_runs_level_in_its_view_and_stays_whole(tilt):
    rgb = np.zeros((600, 600, 3), np.uint8)
    boxes = _row(tilt)
    view = level_view(rgb, boxes)
    assert view is not None and abs(view.tilt_deg) >= MIN_TILT_DEG
    placed = view.place((boxes[:, :2] + boxes[:, 2:]) / 2)
    assert np.ptp(placed[:, 1]) < 1.0 or np.ptp(placed[:, 0]) < 1.0  # one row, level (or upright: a quarter turn)
    height, width = view.image.shape[:2]
    assert np.all((placed >= 0) & (placed < [width, height]))  # every tile is in the view


def test_a_level_row_or_too_few_tiles_get_no_view():
    rgb = np.zeros((400, 400, 3), np.uint8)
    assert level_view(rgb, _row(MIN_TILT_DEG / 2)) is None
    assert level_view(rgb, _row(30, n=MIN_TILES - 1)) is None


def test_the_view_shows_the_photo_turned():
    """A bright mark beside the third tile of a slanted row lands beside that tile's centre in the level view."""
    rgb = np.zeros((500, 500, 3), np.uint8)
    boxes = _row(35)
    x, y = ((boxes[2, :2] + boxes[2, 2:]) / 2).astype(int)
    rgb[y - 2 : y + 3, x - 2 : x + 3] = 255
    view = level_view(rgb, boxes)
    px, py = view.place(np.array([[x, y]], np.float64))[0]
    mark = np.argwhere(view.image[..., 0] > 128)
    assert len(mark) and np.allclose(mark.mean(0), [py, px], atol=1.5)


def test_boxes_match_the_nearest_level_box_close_enough():
    level = np.array([[0, 0, 20, 30], [30, 0, 50, 30]], np.float32)
    points = np.array([[11, 14], [38, 16], [80, 15], [25, 15]], np.float32)
    np.testing.assert_array_equal(match_boxes(points, level), [0, 1, -1, -1])  # the last lies between two tiles
    assert match_boxes(points, np.zeros((0, 4), np.float32)).tolist() == [-1] * 4
    assert match_boxes(np.zeros((0, 2)), level).shape == (0,)


def test_slanted_tiles_are_classified_from_their_level_boxes_and_the_rest_as_they_lie():
    from vision.twostage.backend import TwoStageNetworks

    rgb = np.zeros((600, 600, 3), np.uint8)
    boxes = _row(30)
    stray = np.array([[500, 40, 524, 72]], np.float32)  # a tile far from the row: no level box
    found = np.concatenate([boxes, stray])
    calls = []

    networks = object.__new__(TwoStageNetworks)
    networks.conf, networks.level, networks.detector_imgsz = 0.25, True, 480

    def level_boxes(image, conf):  # the detector in the level view: the row's tiles, not the stray
        view = level_view(rgb, found)
        centres = view.place((boxes[:, :2] + boxes[:, 2:]) / 2)
        return np.hstack([centres - [12, 16], centres + [12, 16]]).astype(np.float32), np.ones(len(boxes))

    def classify(image, tile_boxes, detector_conf=None):
        calls.append((image.shape, tile_boxes.copy()))
        probs = np.zeros((len(tile_boxes), len(CLASS_NAMES)), np.float32)
        probs[:, 0 if image.shape == rgb.shape else 1] = 1  # class 0: read as it lies; class 1: read level
        return probs

    networks.box_tiles, networks.classify = level_boxes, classify
    probs = networks.classify_tiles(rgb, found, np.full(len(found), 0.9, np.float32))
    assert probs.argmax(1).tolist() == [1] * len(boxes) + [0]
    level_call = next(boxes_ for shape, boxes_ in calls if shape != rgb.shape)
    np.testing.assert_allclose(level_call[:, 2:] - level_call[:, :2], np.tile([24, 32], (len(boxes), 1)), atol=1e-3)  # level boxes
    networks.level = False
    assert networks.classify_tiles(rgb, found, np.full(len(found), 0.9, np.float32)).argmax(1).tolist() == [0] * len(found)


def test_the_view_is_cut_to_the_turned_row_but_not_below_the_detectors_tile_sizes():
    """A row slanting 40 degrees across a large photo: the view holds the row and a margin, not the turned region
    around it, and is at least as large as a tile of 32 px (the boxes' longer side) shown at 64 of 480 network px."""
    rgb = np.zeros((2000, 2000, 3), np.uint8)
    boxes = _row(40, start=(500.0, 500.0))
    view = level_view(rgb, boxes, network_size=480)
    height, width = view.image.shape[:2]
    assert min(height, width) >= 32 * 480 / 64 and max(height, width) < 400
    placed = view.place((boxes[:, :2] + boxes[:, 2:]) / 2)
    assert np.all((placed >= 32) & (placed < [width - 32, height - 32]))  # a margin on every side


def _slanted_hand(tilt_deg: float, folder):
    """One labelled photo of 8 white tiles (40 x 56 px) in a row slanting tilt_deg over a dark table: YOLO labels
    are the turned tiles' axis-aligned boxes, as labels of real photos are."""
    import cv2
    from PIL import Image

    rgb = np.full((500, 640, 3), 40, np.uint8)
    lines = []
    for centre in _row(tilt_deg, step=50.0, start=(120.0, 160.0))[:, :2] + [12, 16]:
        corners = cv2.boxPoints(((float(centre[0]), float(centre[1])), (40, 56), tilt_deg)).astype(np.int32)
        cv2.fillPoly(rgb, [corners], (255, 255, 255))
        (x1, y1), (x2, y2) = corners.min(0), corners.max(0)
        lines.append(f"0 {(x1 + x2) / 2 / 640} {(y1 + y2) / 2 / 500} {(x2 - x1) / 640} {(y2 - y1) / 500}")
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    Image.fromarray(rgb).save(folder / "images" / "hand.png")
    (folder / "labels" / "hand.txt").write_text("\n".join(lines) + "\n")
    return folder / "images"


def _bright_blobs(image: np.ndarray) -> np.ndarray:
    """A stand-in tile detector: the boxes of the bright blobs."""
    import cv2

    count, _, stats, _ = cv2.connectedComponentsWithStats((image[..., 0] > 128).astype(np.uint8))
    x, y, w, h = (stats[1:, i].astype(np.float32) for i in range(4))
    return np.stack([x, y, x + w, y + h], 1)


def test_training_crops_of_a_slanted_row_are_cut_level_as_inference_cuts_them(tmp_path):
    """Cut from the photo, a turned tile's crop holds the table in its corners; cut from the level view, boxed there
    by the detector, it is the tile's face (white) nearly to the edges."""
    from PIL import Image

    from vision.twostage.crops import CropSettings, Leveller, extract_crops

    images = _slanted_hand(30, tmp_path / "hand")
    exact = CropSettings(size=32, jitter=0.0, upside_down=0.0)
    whiteness = {}
    for name, leveller in (("as_it_lies", None), ("level", Leveller(_bright_blobs))):
        counts = extract_crops(images, tmp_path / name, exact, seed=0, prefix="s0", leveller=leveller)
        assert counts["00_1m"] == 8
        crops = [np.asarray(Image.open(p)) for p in sorted((tmp_path / name / "00_1m").iterdir())]
        whiteness[name] = float(np.mean([(crop[4:-4, 4:-4, 0] > 128).mean() for crop in crops]))
    assert whiteness["level"] > 0.97 and whiteness["as_it_lies"] < 0.85


def test_a_level_row_is_cut_from_the_photo_even_with_a_leveller(tmp_path):
    from vision.twostage.crops import Leveller

    calls = []
    leveller = Leveller(lambda image: calls.append(image.shape) or _bright_blobs(image))
    rgb = np.zeros((300, 400, 3), np.uint8)
    boxes = _row(MIN_TILT_DEG / 2)
    source, placed, levelled = leveller.place(rgb, boxes)
    assert source is rgb and placed is boxes and not levelled.any() and not calls
    assert leveller.place(rgb, np.zeros((0, 4), np.float32))[2].shape == (0,)


def test_level_crops_from_a_folder_that_is_no_two_stage_model_are_refused_before_any_crop(tmp_path):
    from typer.testing import CliRunner

    from mjsnap.cli import app

    images = _slanted_hand(30, tmp_path / "hand")
    (tmp_path / "data.yaml").write_text(f"train: [{images}]\nval: [{images}]\nnames: {list(CLASS_NAMES)}\n")
    for model in (tmp_path / "nowhere", images):  # no folder; a folder of photos
        result = CliRunner().invoke(app, ["train-two-stage", "crops", "--data", str(tmp_path / "data.yaml"),
                                          "--out", str(tmp_path / "crops"), "--level-with", str(model)])
        assert result.exit_code == 2 and "mjsnap train-two-stage crops:" in result.output
        assert not (tmp_path / "crops").exists()


def test_a_level_box_holding_more_than_the_tile_is_not_its_box():
    """The detector boxes the first two tiles of the level row as one: neither tile takes that box; a view where the
    detector finds nothing levels no tile."""
    rgb = np.zeros((600, 600, 3), np.uint8)
    boxes = _row(30)
    view = level_view(rgb, boxes)
    centres = view.place((boxes[:, :2] + boxes[:, 2:]) / 2)
    tight = np.hstack([centres - [12, 16], centres + [12, 16]]).astype(np.float32)
    pair = np.concatenate([tight[:1, :2], tight[1:2, 2:]], 1)  # one box over tiles 0 and 1
    placed, levelled = view.boxes_of(boxes, lambda image: np.concatenate([pair, tight[2:]]))
    assert levelled.tolist() == [False, False] + [True] * (len(boxes) - 2)
    np.testing.assert_allclose(placed[2:], tight[2:])
    assert not view.boxes_of(boxes, lambda image: np.zeros((0, 4), np.float32))[1].any()
