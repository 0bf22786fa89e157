"""vision.twostage.light: a photo's colour cast measured on its tile faces and taken off beyond what the classifiers
learnt; a photo inside the box is left exactly as it is."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.twostage.light import LightSettings, balanced, cast_gains, face_colour

SETTINGS = LightSettings()


def tiles_photo(face=(236, 232, 222), ink=(40, 40, 140), back=None, tiles=8) -> tuple[np.ndarray, np.ndarray]:
    """Tiles on a green cloth, each a face with an ink mark in its middle (and `back`-coloured tiles at the end)."""
    rgb = np.full((300, 40 + 50 * tiles, 3), (40, 110, 60), np.uint8)
    boxes = []
    for i in range(tiles):
        x = 20 + 50 * i
        rgb[100:160, x : x + 44] = back if back is not None and i >= tiles - 2 else face
        rgb[118:142, x + 14 : x + 30] = ink
        boxes.append([x, 100, x + 44, 160])
    return rgb, np.array(boxes, np.float32)


def under(rgb: np.ndarray, gains) -> np.ndarray:
    return np.clip(rgb * np.asarray(gains, np.float32), 0, 255).astype(np.uint8)


def test_the_face_colour_is_the_face_between_the_ink_not_the_ink_or_the_table():
    rgb, boxes = tiles_photo()
    np.testing.assert_allclose(face_colour(rgb, boxes), (236, 232, 222), atol=0.5)


def test_two_face_down_tiles_do_not_move_the_face_colour():
    rgb, boxes = tiles_photo(back=(30, 120, 70))
    np.testing.assert_allclose(face_colour(rgb, boxes), (236, 232, 222), atol=0.5)


@pytest.mark.parametrize("tiles", [0, 2])
def test_too_few_tiles_say_nothing_about_the_light(tiles):
    rgb, boxes = tiles_photo(tiles=max(tiles, 1))
    assert face_colour(rgb, boxes[:tiles]) is None
    assert balanced(rgb, boxes[:tiles], SETTINGS) is rgb


@pytest.mark.parametrize("face", [(236, 232, 222), (250, 250, 250), (240, 232, 205), (228, 226, 228), (236, 224, 190)])
def test_faces_the_classifiers_know_are_left_exactly_as_they_are(face):
    """Ivory, white, cream and a cool white as cmd's real photos show them, and the generator's yellowed set: the
    photo itself comes back."""
    rgb, boxes = tiles_photo(face=face)
    np.testing.assert_array_equal(cast_gains(face_colour(rgb, boxes), SETTINGS), 1.0)
    assert balanced(rgb, boxes, SETTINGS) is rgb


@pytest.mark.parametrize(("light", "red", "blue"), [
    ((1.25, 1.0, 0.65), SETTINGS.red[1], SETTINGS.blue[0]),  # tungsten: too red and too little blue
    ((0.8, 1.0, 1.3), SETTINGS.red[0], SETTINGS.blue[1]),  # shade: too blue
    ((1.0, 1.3, 1.0), SETTINGS.red[0], SETTINGS.blue[0]),  # a green fluorescent tube
])
def test_a_cast_beyond_the_box_is_taken_back_to_its_nearest_edge(light, red, blue):
    rgb, boxes = tiles_photo(face=(200, 196, 188))
    lit = under(rgb, light)
    out = balanced(lit, boxes, SETTINGS)
    assert out.shape == lit.shape and out.dtype == np.uint8
    face = face_colour(out, boxes)
    assert face[0] / face[1] == pytest.approx(red, abs=0.01)
    assert face[2] / face[1] == pytest.approx(blue, abs=0.01)
    assert (out[..., 1] == lit[..., 1]).all()  # green is the reference: only red and blue move


@pytest.mark.parametrize("part", [
    [0.95, 1.1], {"red": [1.1, 0.95]}, {"red": [0, 1]}, {"blue": [0.9]}, {"blue": "0.9,1"}, {"green": [0.9, 1.1]},
    {"red": [float("nan"), 1.0]}, {"red": [True, 1.0]},
])
def test_light_settings_that_are_not_a_box_are_refused(part):
    with pytest.raises(ValueError, match="light"):
        LightSettings.from_meta(part)


def test_light_settings_from_meta_are_the_box_they_give():
    assert LightSettings.from_meta(json.loads('{"red": [0.9, 1.2]}')) == LightSettings(red=(0.9, 1.2))
    assert LightSettings.from_meta({"red": [0.92, 1.15], "blue": [0.8, 1.05]}) == LightSettings()  # 0.18.9's
    assert LightSettings.from_meta({}) == SETTINGS


def test_a_model_with_light_settings_that_are_not_a_box_says_which_file(tmp_path):
    import shutil

    from mjsnap.paths import MODELS_DIR
    from vision.detector import TileDetector

    shipped = MODELS_DIR / "current"
    if not (shipped / "meta.json").is_file():
        pytest.skip("no shipped model in this checkout")
    model = tmp_path / "model"
    shutil.copytree(shipped, model)
    meta = json.loads((model / "meta.json").read_text())
    (model / "meta.json").write_text(json.dumps({**meta, "light": {"red": [2, 1]}}))
    with pytest.raises(ValueError, match=r"meta\.json: light\.red must be \[low, high\]"):
        TileDetector(model)


def test_a_fine_tune_reads_as_its_base_reads(tmp_path):
    """vision.twostage.export carries the base's reading settings that hold for any networks into a fine-tune."""
    from vision.twostage.export import _carried_reading

    base = tmp_path / "base"
    base.mkdir()
    (base / "meta.json").write_text(json.dumps({
        "classifier": {"imgsz": 96, "half_turn_below": 0.8, "twins": {"below": 0.9, "likeness": 0.93}, "batch": 16},
        "light": {"red": [0.92, 1.15]}, "detector": {"imgsz": 480}}))
    assert _carried_reading(base) == {"classifier": {"half_turn_below": 0.8, "twins": {"below": 0.9, "likeness": 0.93}},
                                      "light": {"red": [0.92, 1.15]}}
    (base / "meta.json").write_text(json.dumps({"classifier": {"imgsz": 96}}))
    assert _carried_reading(base) == {} and _carried_reading(None) == {}


@pytest.mark.parametrize("size", [1, 2, 3, 5, 6, 11, 16, 100, 257, 1000, 4097])
def test_the_partial_sort_quantile_is_numpys_to_the_bit(size):
    """face_colour's threshold is np.quantile's (0.18.9 was measured with it) at a fraction of its cost."""
    from vision.twostage.light import _upper_quantile

    rng = np.random.default_rng(size)
    for _ in range(50):
        values = rng.integers(0, 256, (size, 3)).astype(np.float32).sum(1)  # a face's pixel brightness
        for q in (0.6, 0.5, 0.25, 0.9):
            ours, numpys = np.asarray(_upper_quantile(values, q)), np.asarray(np.quantile(values, q))
            assert ours.dtype == numpys.dtype and ours.tobytes() == numpys.tobytes()
