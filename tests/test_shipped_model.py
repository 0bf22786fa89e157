"""The shipped model in models/current: loads in every backend, has the 36 classes in order, and reads tiles.

Accuracy is checked on photos this test generates itself with the synthetic generator (our own drawn faces only, so
it runs without ../shared), and on a slice of cmd val when ../shared is present. The thresholds sit below what the
shipped model measured (see models/MODEL_CARD.md) so that a broken export or a wrong model fails.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from mjsnap.paths import MODELS_DIR
from scoring.tiles import CLASS_NAMES
from vision import evaluate as ev

MODEL_DIR = MODELS_DIR / "current"
GENERATED_PHOTOS = 12
GENERATED_SEED = 20261202  # a stream the training data (seeds 1, 2, ...) does not use
PRINT_SEED = 20261208  # the photos with print beside the hand, another such stream
# Model 0.10.0 (two-stage) measured on these exact sets: generated mAP50 0.980, tile accuracy 0.943 (ONNX Runtime and
# OpenVINO alike; 0.9.1 on the same photos: 0.980 and 0.943, 0.7.0: 0.978 and 0.928); cmd val slice mAP50 0.970,
# tile accuracy 0.968 (0.9.1: 0.970, 0.967). The thresholds sit a few points below (a broken export, a wrong
# class order or an untrained stage drops far below them). Raise them with the model.
MIN_MAP50_GENERATED = 0.94
MIN_TILE_ACCURACY_GENERATED = 0.90
MIN_MAP50_CMD_SLICE = 0.92
CMD_SLICE = 40
FAR = 3  # the far photos: the generated ones on a table three times their size
# 0.10.0 on them: tile accuracy 0.852 looking again at the hand (vision.twostage.zoom), 0.584 without (0.9.1: 0.842,
# 0.565; most tiles it misses are in one photo whose tiles are 5 px at the detector's input: too few are found there
# to place a second look).
MIN_TILE_ACCURACY_FAR = 0.78


@pytest.fixture(scope="module")
def meta() -> dict:
    return json.loads((MODEL_DIR / "meta.json").read_text())


def network_dirs(meta: dict) -> dict[str, object]:
    """Each network folder of the shipped model and the output channels its head must have.

    One-stage (design a): the model folder itself, 4 box + 36 class channels. Two-stage (design b): detector/ with
    4 box + 1 "tile" channel, classifier/ (and any classifier_N/ of meta classifier.ensemble) with 36 class
    probabilities.
    """
    if meta.get("design") == "two_stage":
        classifiers = ["classifier", *meta["classifier"].get("ensemble", [])]  # 0.14.0 averages two
        return {"detector": MODEL_DIR / "detector", **{name: MODEL_DIR / name for name in classifiers}}
    return {"detector": MODEL_DIR}


def test_meta_lists_the_36_classes_in_order(meta):
    assert meta["classes"] == list(CLASS_NAMES)
    assert isinstance(meta["imgsz"], int) and meta["imgsz"] % 32 == 0
    assert meta["train_command"].startswith("mjsnap train") and meta["version"]


@pytest.mark.parametrize("backend", ["openvino", "onnxruntime"])
def test_exports_load_and_have_the_right_outputs(backend, meta):
    from vision.detector import _LOADERS

    for stage, folder in network_dirs(meta).items():
        run = _LOADERS[backend](folder)
        if stage.startswith("classifier"):
            part = meta["classifier"]
            output = np.asarray(run(np.zeros((part["batch"], 3, part["imgsz"], part["imgsz"]), np.float32)))
            assert output.shape == (part["batch"], len(CLASS_NAMES))
            assert np.allclose(output.sum(1), 1, atol=1e-3)  # probabilities
        else:
            imgsz = meta["detector"]["imgsz"] if stage == "detector" and "detector" in meta else meta["imgsz"]
            output = np.asarray(run(np.zeros((1, 3, imgsz, imgsz), np.float32)))
            channels = 4 + 1 if meta.get("design") == "two_stage" else 4 + len(CLASS_NAMES)
            assert output.ndim == 3 and output.shape[1] == channels


@pytest.mark.parametrize("backend", ["openvino", "onnxruntime"])
def test_the_facade_runs_every_backend(backend):
    from vision.detector import TileDetector

    detector = TileDetector(MODEL_DIR, backend=backend)
    found = detector.detect(np.full((480, 640, 3), 90, np.uint8))  # an empty table: few or no tiles, no crash
    assert detector.backend == backend and len(found) <= 5
    if detector.stages is not None:  # a two-stage model has no single head output to hand out
        with pytest.raises(ValueError, match="two-stage"):
            detector.raw_output(np.zeros((1, 3, detector.imgsz, detector.imgsz), np.float32))


def test_pytorch_weights_carry_the_class_names(meta):
    pytest.importorskip("ultralytics")
    from ultralytics import YOLO

    folders = network_dirs(meta)
    for stage in [s for s in folders if s.startswith("classifier")] or ["detector"]:
        names = YOLO(str(folders[stage] / "model.pt")).names
        assert [names[i] for i in range(len(names))] == list(CLASS_NAMES), stage


@pytest.fixture(scope="module")
def generated_photos(tmp_path_factory) -> list[ev.LabelledImage]:
    from dataset_fixtures import synthetic_hand_photos

    return synthetic_hand_photos(tmp_path_factory.mktemp("generated"), GENERATED_SEED, GENERATED_PHOTOS, max_tilt=35.0)


@pytest.mark.slow
def test_reads_generated_photos(generated_photos):
    predictor, _ = ev.detector_predictor(MODEL_DIR, "onnxruntime")
    report = ev.evaluate(predictor, generated_photos, 0.25, "current", "generated")
    assert report.map50 >= MIN_MAP50_GENERATED, report.summary()
    assert report.tile_accuracy >= MIN_TILE_ACCURACY_GENERATED, report.summary()


@pytest.mark.parametrize("backend", ["openvino", "onnxruntime"])
def test_threads_reading_at_once_share_one_reader(generated_photos, backend):
    """The app's sessions share one TileDetector (mjsnap.app.recognize.load_detector), so two players who send a
    photo at once read through the same networks from two threads: each reading must come out whole and as it
    comes out alone. Until session 40 an OpenVINO network refused the second caller ("Infer Request is busy")."""
    from vision.detector import TileDetector
    from vision.imageio import read_image

    detector = TileDetector(MODEL_DIR, backend=backend)
    photos = [read_image(p.path) for p in generated_photos[:2]]
    alone = [detector.detect(photo) for photo in photos]
    with ThreadPoolExecutor(3) as pool:
        together = list(pool.map(lambda i: detector.detect(photos[i % 2]), range(9)))
    for i, detections in enumerate(together):
        assert np.array_equal(detections.class_id, alone[i % 2].class_id)
        np.testing.assert_allclose(detections.xyxy, alone[i % 2].xyxy, atol=1e-3)


def test_a_photo_under_warm_light_is_classified_in_the_colours_the_classifiers_know(generated_photos, meta,
                                                                                        monkeypatch):
    """Since 0.18.9 (meta "light"): under tungsten light (red x1.25, blue x0.65) 0.18.8 misread 2.5x as many of cmd
    val's tiles; the tiles are now classified from the photo with the cast taken back onto the box meta gives."""
    from PIL import Image

    from vision.detector import TileDetector
    from vision.imageio import from_pil, read_image
    from vision.twostage import backend
    from vision.twostage.light import LightSettings, face_colour

    settings = LightSettings.from_meta(meta["light"])
    photo = read_image(generated_photos[0].path)
    warm = from_pil(Image.fromarray(np.clip(photo.pixels * np.float32([1.25, 1.0, 0.65]), 0, 255).astype(np.uint8)))
    classified = []
    classify_tiles = backend.TwoStageNetworks.classify_tiles

    def seen(self, rgb, boxes, detector_conf):
        classified.append((rgb, boxes[detector_conf >= 0.25]))
        return classify_tiles(self, rgb, boxes, detector_conf)

    monkeypatch.setattr(backend.TwoStageNetworks, "classify_tiles", seen)
    TileDetector(MODEL_DIR).detect(warm)
    face = face_colour(*classified[0])
    assert settings.red[0] - 0.02 <= face[0] / face[1] <= settings.red[1] + 0.02
    assert settings.blue[0] - 0.02 <= face[2] / face[1] <= settings.blue[1] + 0.02


@pytest.mark.slow
def test_openvino_at_the_precision_meta_names_reads_as_well_as_onnx_runtime(generated_photos):
    """Since 0.14.2 meta may ask OpenVINO for bf16 (on a CPU that has it): about 1.7x faster for the tile detector.
    Its boxes differ a little from f32 ONNX Runtime's, and it must not read worse (0.14.2 on these photos: 7 tile
    errors in bf16 against 12 in f32; on cmd val 276 against 273, on generated seeds 1 / 3 / 9 50 / 171 / 21
    against 51 / 173 / 19). Since 0.18.7 the detector runs in INT8 on every CPU (cmd val 262 against f32's 267)."""
    reports = {}
    for backend in ("onnxruntime", "openvino"):
        predictor, _ = ev.detector_predictor(MODEL_DIR, backend)
        reports[backend] = ev.evaluate(predictor, generated_photos, 0.25, "current", "generated")
    assert reports["openvino"].tile_errors <= reports["onnxruntime"].tile_errors + 3, (
        reports["openvino"].summary(), reports["onnxruntime"].summary())
    assert reports["openvino"].map50 >= MIN_MAP50_GENERATED
    assert reports["openvino"].tile_accuracy >= MIN_TILE_ACCURACY_GENERATED


@pytest.mark.slow
def test_map50_on_a_slice_of_cmd_val(shared):
    predictor, _ = ev.detector_predictor(MODEL_DIR, "onnxruntime")
    images = ev.load_labelled_folder(shared / "datasets" / "cmd" / "images" / "val", CMD_SLICE)
    report = ev.evaluate(predictor, images, 0.25, "current", "cmd val slice")
    assert report.map50 >= MIN_MAP50_CMD_SLICE, report.summary()


def _changed_slice(shared: Path, folder: Path, condition: str) -> list[ev.LabelledImage]:
    """cmd val's first photos changed as benchmarks/photo_conditions.py changes them (the figures below are its)."""
    from PIL import Image

    from benchmarks.photo_conditions import CONDITIONS

    _, change = CONDITIONS[condition]
    changed = []
    for item in ev.load_labelled_folder(shared / "datasets" / "cmd" / "images" / "val", CMD_SLICE):
        rgb = np.asarray(Image.open(item.path).convert("RGB"))
        path = folder / f"{item.path.stem}.png"
        Image.fromarray(change(rgb, None)).save(path)
        changed.append(ev.LabelledImage(path, item.xyxy, item.class_id))
    return changed


# 0.22.0 on cmd val's first 40 photos smeared 9 px sideways (benchmarks/photo_conditions.py's motion_blur), ONNX
# Runtime: 34 name errors (0.23.0 32, 0.24.0 33); 0.18.9, whose classifiers never saw a blurred crop, 65 (8m read as 9m, 5m as 3m).
MAX_NAME_ERRORS_SMEARED_SLICE = 45


@pytest.mark.slow
def test_a_photo_taken_with_a_moving_phone_still_reads_its_tiles(shared, tmp_path):
    """Since 0.22.0 the classifiers train with smeared and soft crops (`--augment blur`, then `blur_dim`): a phone
    moved while the shutter was open joins 萬 numerals' strokes, which 0.18.9 read as the numeral a stroke apart."""
    predictor, _ = ev.detector_predictor(MODEL_DIR, "onnxruntime")
    report = ev.evaluate(predictor, _changed_slice(shared, tmp_path, "motion_blur"), 0.25, "current", "cmd val slice, smeared")
    assert report.name_errors <= MAX_NAME_ERRORS_SMEARED_SLICE, report.summary()


# The same photos out of focus (soft_focus: Gaussian blur of sigma 1.5 px at 640 px), ONNX Runtime: 0.23.0 35 tile
# errors (18 missed, 2 misread, 15 extra), 0.24.0 38 (21 / 2 / 15); 0.22.0, whose tile detector never saw a blurred photo, 90 (48 / 2 / 40: its
# boxes came out 1.2x too wide, and a box that overlaps its tile less than half is a tile missed and a box extra).
MAX_TILE_ERRORS_SOFT_SLICE = 50


@pytest.mark.slow
def test_a_photo_out_of_focus_still_gets_a_box_on_each_tile(shared, tmp_path):
    """Since 0.23.0 the tile detector trains with blurred photos (`train-two-stage detector --blur`)."""
    predictor, _ = ev.detector_predictor(MODEL_DIR, "onnxruntime")
    report = ev.evaluate(predictor, _changed_slice(shared, tmp_path, "soft_focus"), 0.25, "current", "cmd val slice, soft")
    assert report.tile_errors <= MAX_TILE_ERRORS_SOFT_SLICE, report.summary()


# 0.24.0 on the ten photos of the test below: 33 tile errors, 11 of them boxes on print (0.23.0: 84 and 57).
MAX_TILE_ERRORS_BESIDE_PRINT = 45
MAX_EXTRA_BESIDE_PRINT = 20


@pytest.mark.slow
def test_print_beside_the_hand_is_not_read_as_tiles(tmp_path, monkeypatch):
    """Score sheets, receipts and a phone's clock beside the hand (vision.synth.printed, on every photo here) carry
    the characters tiles carry; since 0.24.0 the tile detector trains with them and leaves most of them unboxed."""
    from dataset_fixtures import synthetic_hand_photos

    from vision.synth import printed

    monkeypatch.setattr(printed, "PRINT_CHANCE", 1.0)
    photos = synthetic_hand_photos(tmp_path, PRINT_SEED, 10, max_tilt=35.0)
    predictor, _ = ev.detector_predictor(MODEL_DIR, "onnxruntime")
    report = ev.evaluate(predictor, photos, 0.25, "current", "generated, print beside the hand")
    assert report.tile_errors <= MAX_TILE_ERRORS_BESIDE_PRINT, report.summary()
    assert report.extra <= MAX_EXTRA_BESIDE_PRINT, report.summary()


@pytest.fixture(scope="module")
def far_photos(generated_photos, tmp_path_factory) -> list[ev.LabelledImage]:
    """The generated photos as if taken three times as far: each pasted on a table three times its width and height."""
    from PIL import Image

    from vision.synth.background import random_background

    folder = tmp_path_factory.mktemp("far")
    rng = np.random.default_rng(GENERATED_SEED)
    photos = []
    for item in generated_photos:
        rgb = np.asarray(Image.open(item.path).convert("RGB"))
        height, width = rgb.shape[:2]
        canvas = np.clip(random_background(rng, FAR * height, FAR * width)[1], 0, 255).astype(np.uint8)
        top, left = int(rng.integers(0, (FAR - 1) * height)), int(rng.integers(0, (FAR - 1) * width))
        canvas[top : top + height, left : left + width] = rgb
        path = folder / item.path.name
        Image.fromarray(canvas).save(path)
        photos.append(ev.LabelledImage(path, item.xyxy + [left, top, left, top], item.class_id))
    return photos


@pytest.mark.slow
def test_a_hand_far_away_is_read_by_looking_again(far_photos):
    reports = {}
    for zoom in (False, True):
        predictor, _ = ev.detector_predictor(MODEL_DIR, "onnxruntime", zoom=zoom)
        reports[zoom] = ev.evaluate(predictor, far_photos, 0.25, f"current zoom={zoom}", "generated x3")
    assert reports[True].tile_accuracy >= MIN_TILE_ACCURACY_FAR, reports[True].summary()
    assert reports[True].tile_errors < reports[False].tile_errors, (reports[True].summary(), reports[False].summary())


HANDS = 60
HANDS_SEED = 20261203
# 0.10.0 on these photos (drawn faces, the normalizer benchmark's kind): 46 of the 54 hands in frame read right, 42
# without re-reading.
MIN_HANDS_RIGHT = 42


@pytest.mark.slow
def test_re_reading_a_hand_that_does_not_win_only_mends():
    """Whole hands read from the shipped model's boxes, with and without re-reading (vision.normalize.reread): a
    hand read right without it stays right, and the hands read right stay at the recorded level."""
    from collections import Counter

    from vision.detector import TileDetector
    from vision.normalize import ReadOptions, read_hand
    from vision.normalize.evaluate import compare
    from vision.synth.scene import make_sample

    detector = TileDetector(MODEL_DIR, backend="openvino")
    right = Counter()
    for index in range(HANDS):
        sample = make_sample(HANDS_SEED, index)
        if not sample.scene["hand_tiles_labelled"]:
            continue
        sideways = Counter(t.meld for t in sample.tiles if t.role == "meld" and t.sideways)
        stacked = sum(1 for i, m in enumerate(sample.hand.melds) if m.type == "kong_added" and sideways[i] >= 2)
        truth = (sample.hand.concealed, [(m.type, m.tiles) for m in sample.hand.melds], sample.hand.win_tile, stacked)
        dets = detector.detect(sample.image)
        plain = compare(read_hand(dets, sample.image.shape[1::-1], ReadOptions(reread_tiles=0)), *truth).decidable
        mended = compare(read_hand(dets, sample.image.shape[1::-1]), *truth).decidable
        assert mended or not plain, f"photo {index}: read right only without re-reading"
        right["in_frame"] += 1
        right["plain"] += plain
        right["mended"] += mended
    assert right["mended"] >= MIN_HANDS_RIGHT, dict(right)
