"""INT8 copies of a two-stage model's networks (vision.twostage.quantize, `mjsnap train-two-stage quantize`): what the
copy holds, that it reads generated photos about as well as the model it came from, and clear refusals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from mjsnap.cli import app
from mjsnap.paths import MODELS_DIR
from vision import evaluate as ev
from vision.detector import ModelNotFoundError, TileDetector
from vision.twostage.quantize import QUANTIZED_FOLDER, Reservoir, quantize_two_stage

pytest.importorskip("nncf", reason="quantizing needs NNCF (the train extra)")

SHIPPED = MODELS_DIR / "current"
SHIPPED_META = (SHIPPED / "meta.json").read_text()  # as it was before any test quantized from it
PHOTOS = 6
SEED = 20261206  # a stream no training set used


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> list[ev.LabelledImage]:
    from dataset_fixtures import synthetic_hand_photos

    return synthetic_hand_photos(tmp_path_factory.mktemp("photos"), SEED, PHOTOS, max_tilt=30.0)


@pytest.fixture(scope="module")
def quantized(generated, tmp_path_factory) -> Path:
    """The shipped model with every stage in INT8, calibrated on half the photos (the other half is read)."""
    out = tmp_path_factory.mktemp("quantized") / "model"
    return quantize_two_stage(SHIPPED, out, [item.path for item in generated[: PHOTOS // 2]],
                              stages=["detector", "classifier"], max_samples=40)


def _float_copy(tmp_path: Path) -> Path:
    """The shipped model with every stage's OpenVINO networks in f32 (whatever the shipped meta names; since 0.18.7
    its detector runs in INT8), without INT8 copies."""
    copy = tmp_path / "float"
    shutil.copytree(SHIPPED, copy, ignore=shutil.ignore_patterns(QUANTIZED_FOLDER))
    meta = json.loads((copy / "meta.json").read_text())
    for stage in ("detector", "classifier"):
        meta[stage]["openvino_precision"] = "f32"
    (copy / "meta.json").write_text(json.dumps(meta))
    return copy


@pytest.mark.slow
def test_the_copy_holds_int8_networks_for_every_stage_and_names_them_in_meta(quantized):
    meta = json.loads((quantized / "meta.json").read_text())
    folders = ["detector", "classifier", *meta["classifier"]["ensemble"]]
    for folder in folders:
        assert (quantized / folder / QUANTIZED_FOLDER / "model.xml").is_file()
        assert (quantized / folder / "model_openvino").is_dir()  # the float network stays for ONNX-less fallbacks
    assert {stage: meta[stage]["openvino_precision"] for stage in ("detector", "classifier")} == {
        "detector": "int8", "classifier": "int8"}
    assert meta["quantized"]["photos"] == PHOTOS // 2
    shipped = json.loads((SHIPPED / "meta.json").read_text())
    assert meta["quantized"]["from"] == shipped["version"] and meta["version"] == f"{shipped['version']}+int8"
    assert set(meta["quantized"]["samples"]) == set(folders)
    assert all(0 < n <= 40 for n in meta["quantized"]["samples"].values())
    assert meta["quantized"].get("before") == shipped.get("quantized")  # the base's own calibration stays told
    assert (SHIPPED / "meta.json").read_text() == SHIPPED_META  # the base is left as it was


@pytest.mark.slow
def test_a_classifier_keeps_its_first_layer_and_its_head_in_float(quantized):
    """Quantized whole, a classifier misread more of a tile set it never saw (vision.twostage.quantize._nncf_settings):
    its first convolution and its head (convolution and linear layer) keep float weights, every other convolution
    has INT8 ones (a dequantizing Multiply before it)."""
    import openvino as ov

    weights = {}
    for folder in ("classifier", "classifier_2"):
        model = ov.Core().read_model(quantized / folder / QUANTIZED_FOLDER / "model.xml")
        weights[folder] = {op.get_friendly_name().split("/")[0]: op.input_value(1).get_node().get_type_name()
                           for op in model.get_ordered_ops()
                           if op.get_type_name() == "Convolution" or op.get_friendly_name().endswith("linear/MatMul")}
    for layers in weights.values():
        in_float = {"__module.model.0.conv", "__module.model.10.conv.conv", "__module.model.10.linear"}
        assert {name for name, source in layers.items() if source == "Constant"} == in_float
        assert {source for name, source in layers.items() if name not in in_float} == {"Multiply"}


@pytest.mark.slow
def test_the_int8_copy_reads_photos_it_was_not_calibrated_on_about_as_well(quantized, generated, tmp_path):
    """Session 32 measured the INT8 copy on cmd val and the hold-out proxy (models/MODEL_CARD.md); here a broken
    quantization (a wrong input range, a classifier fed another shape) would lose most tiles."""
    unseen = generated[PHOTOS // 2:]
    reports = {}
    for name, model in (("f32", _float_copy(tmp_path)), ("int8", quantized)):
        predictor, backend = ev.detector_predictor(model, "openvino")
        reports[name] = ev.evaluate(predictor, unseen, 0.25, name, "generated")
    assert reports["int8"].true_tiles == reports["f32"].true_tiles > 20
    assert reports["int8"].tile_errors <= reports["f32"].tile_errors + 3, (reports["int8"].summary(), reports["f32"].summary())


@pytest.mark.slow
def test_the_int8_detector_puts_its_boxes_where_the_float_one_does(quantized, generated, tmp_path):
    """Its head stays in float (vision.twostage.quantize._nncf_settings): quantized, boxes moved enough (mean IoU
    0.915 on cmd val) for the classifiers to misread more of the crops cut from them."""
    from vision.imageio import read_image

    readers = [TileDetector(model, backend="openvino").stages for model in (_float_copy(tmp_path), quantized)]
    overlaps = []
    for item in generated[PHOTOS // 2:]:
        loaded = read_image(item.path)
        (float_boxes, _), (int8_boxes, _) = (reader.find_tiles(loaded) for reader in readers)
        assert abs(len(float_boxes) - len(int8_boxes)) <= 2
        overlaps.extend(ev.box_iou(float_boxes, int8_boxes).max(1))
    assert np.mean(overlaps) >= 0.95 and np.quantile(overlaps, 0.1) >= 0.85


@pytest.mark.slow
def test_by_default_only_the_detector_is_quantized(generated, tmp_path):
    out = quantize_two_stage(SHIPPED, tmp_path / "model", [generated[0].path], max_samples=4, version="9.9.9")
    meta = json.loads((out / "meta.json").read_text())
    assert meta["version"] == "9.9.9"
    assert meta["detector"]["openvino_precision"] == "int8"
    assert meta["classifier"]["openvino_precision"] == json.loads((SHIPPED / "meta.json").read_text())["classifier"]["openvino_precision"]
    assert not (out / "classifier" / QUANTIZED_FOLDER).exists()
    assert set(meta["quantized"]["samples"]) == {"detector"}
    assert len(TileDetector(out).detect(generated[0].path)) > 0


def test_meta_naming_int8_without_the_int8_network_is_a_clear_error(tmp_path):
    copy = _float_copy(tmp_path)
    meta = json.loads((copy / "meta.json").read_text())
    meta["detector"]["openvino_precision"] = "int8"
    (copy / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ModelNotFoundError, match="model_openvino_int8.*train-two-stage quantize"):
        TileDetector(copy, backend="openvino")
    assert TileDetector(copy, backend="onnxruntime").backend == "onnxruntime"  # other backends run the f32 network


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"stages": ["detector", "characters"]}, ValueError, "stages must be some of"),
        ({"stages": []}, ValueError, "stages must be some of"),
        ({"photos": []}, ValueError, "no calibration photos"),
        ({"max_samples": 0}, ValueError, "max_samples"),
        ({"out": "exists"}, FileExistsError, "already exists"),
    ],
)
def test_bad_requests_are_refused_before_anything_is_written(change, error, message, tmp_path):
    (tmp_path / "exists").mkdir()
    kwargs = {"stages": ["detector", "classifier"], "max_samples": 10, **change}
    photos = kwargs.pop("photos", [tmp_path / "photo.png"])
    out = tmp_path / kwargs.pop("out", "new")
    with pytest.raises(error, match=message):
        quantize_two_stage(SHIPPED, out, photos, **kwargs)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exists"]


def test_a_one_stage_model_is_refused(tmp_path):
    (tmp_path / "one").mkdir()
    meta = json.loads((SHIPPED / "meta.json").read_text())
    (tmp_path / "one" / "meta.json").write_text(json.dumps({"classes": meta["classes"], "imgsz": 640}))
    with pytest.raises(ValueError, match="not a two-stage model"):
        quantize_two_stage(tmp_path / "one", tmp_path / "out", [tmp_path / "photo.png"])


def test_an_unreadable_photo_stops_the_run_and_writes_nothing(tmp_path):
    bad = tmp_path / "photos" / "broken.jpg"
    bad.parent.mkdir()
    bad.write_bytes(b"not a photo")
    result = CliRunner().invoke(app, ["train-two-stage", "quantize", str(SHIPPED), "--photos", str(bad.parent),
                                      "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "broken.jpg" in result.output
    assert not (tmp_path / "out").exists()


def test_a_missing_photo_folder_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(app, ["train-two-stage", "quantize", str(SHIPPED), "--photos", str(tmp_path / "none"),
                                      "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "none" in result.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize(("size", "offered"), [(5, 3), (5, 5), (5, 200)])
def test_the_reservoir_keeps_a_bounded_sample_of_what_it_is_offered(size, offered):
    kept = []
    for seed in (0, 0, 1):
        reservoir = Reservoir(size, seed)
        for item in range(offered):
            reservoir.offer(item)
        assert len(reservoir.items) == min(size, offered) and len(set(reservoir.items)) == len(reservoir.items)
        assert set(reservoir.items) <= set(range(offered))
        kept.append(reservoir.items)
    assert kept[0] == kept[1]  # the same seed keeps the same items
    if offered > 2 * size:
        assert kept[0] != kept[2] and max(kept[0]) >= size  # later items get their chance


def test_the_reservoir_samples_uniformly():
    counts = np.zeros(100)
    for seed in range(400):
        reservoir = Reservoir(10, seed)
        for item in range(100):
            reservoir.offer(item)
        counts[reservoir.items] += 1
    # each item kept 40 times on average; the first and the last tenth alike
    assert abs(counts[:10].mean() - 40) < 8 and abs(counts[90:].mean() - 40) < 8


@pytest.mark.slow
def test_a_fine_tune_of_an_int8_base_quantizes_its_candidate_alike_on_the_photos_it_trained_on(tmp_path, monkeypatch):
    """vision.twostage.finetune's last step, where the base runs its detector in INT8: the exported candidate gains
    the INT8 detector, calibrated on the train photos of its data (spread over them), and the float export goes."""
    from vision.synth.scene import SynthOptions
    from vision.synth.writer import write_dataset
    from vision.twostage import finetune

    data = tmp_path / "data"
    list(write_dataset(data, 6, SEED, val_fraction=0.3, options=SynthOptions(imgsz_min=480, imgsz_max=640, tileart=None)))
    exported = _float_copy(tmp_path)
    monkeypatch.setattr(finetune, "CALIBRATION_PHOTOS", 2)
    finetune.quantize_like_base(exported, tmp_path / "model", data / "data.yaml", ["detector"])
    meta = json.loads((tmp_path / "model" / "meta.json").read_text())
    assert meta["detector"]["openvino_precision"] == "int8" and meta["classifier"]["openvino_precision"] == "f32"
    assert meta["quantized"]["photos"] == 2 and meta["version"] == json.loads((SHIPPED / "meta.json").read_text())["version"]
    assert (tmp_path / "model" / "detector" / QUANTIZED_FOLDER).is_dir() and not exported.exists()
