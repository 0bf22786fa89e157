"""Design (b): crops (upright, jittered, every class), a tiny training of both stages, export, two-stage inference."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mjsnap.paths import MODELS_DIR
from scoring.tiles import CLASS_NAMES
from vision.tilefaces import render_face
from vision.twostage.backend import ENSEMBLE_BELOW, EXTRA_LOOKS, FACE_FLOOR, OPENVINO_PRECISION
from vision.twostage.crops import (
    CropSettings,
    CropSource,
    build_crop_dataset,
    class_folder,
    class_id_of_folder,
    cut_tile,
    jitter_box,
)

TILE_W, TILE_H = 24, 32
SHIPPED = MODELS_DIR / "current"


def _write_board(root: Path, split: str, name: str, rng: np.random.Generator, sideways: set[int]) -> None:
    """One photo with every class once in a 9 x 4 grid (classes in `sideways` lie on their side) and its labels."""
    width, height = 9 * 40, 4 * 44
    board = np.full((height, width, 3), (40, 110, 60), np.uint8)
    lines = []
    for n, kind in enumerate(rng.permutation(len(CLASS_NAMES))):
        face = np.asarray(render_face(int(kind), size=(TILE_W, TILE_H)))
        if kind in sideways:
            face = np.rot90(face, 1)
        h, w = face.shape[:2]
        x, y = (n % 9) * 40 + 4, (n // 9) * 44 + 4
        board[y : y + h, x : x + w] = face
        lines.append(f"{kind} {(x + w / 2) / width:.5f} {(y + h / 2) / height:.5f} {w / width:.5f} {h / height:.5f}")
    (root / "images" / split).mkdir(parents=True, exist_ok=True)
    (root / "labels" / split).mkdir(parents=True, exist_ok=True)
    Image.fromarray(board).save(root / "images" / split / f"{name}.png")
    (root / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def boards(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("boards")
    rng = np.random.default_rng(3)
    for i in range(4):
        _write_board(root, "train", f"b{i}", rng, sideways={int(k) for k in rng.choice(34, 4, replace=False)})
    _write_board(root, "val", "v0", rng, sideways={5, 20})
    (root / "data.yaml").write_text("train: images/train\nval: images/val\n")
    return root


@pytest.mark.parametrize("turns", [1, 3])
def test_a_sideways_tile_is_cut_upright(turns):
    face = np.asarray(render_face(27, size=(48, 64)))  # E: not the same upside down
    image = np.full((100, 120, 3), 90, np.uint8)
    lying = np.rot90(face, 4 - turns)  # cut_tile turns it back by `turns` quarter turns
    image[10 : 10 + lying.shape[0], 20 : 20 + lying.shape[1]] = lying
    box = [20, 10, 20 + lying.shape[1], 10 + lying.shape[0]]
    upright = cut_tile(image, box, 64, margin=0.0, quarter_turns=turns).astype(float)
    expected = np.asarray(Image.fromarray(face).resize((64, 64))).astype(float)
    assert np.abs(upright - expected).mean() < 12
    wrong_way = cut_tile(image, box, 64, margin=0.0, quarter_turns=4 - turns).astype(float)
    assert np.abs(wrong_way - expected).mean() > np.abs(upright - expected).mean() + 10


@pytest.mark.parametrize("box", [[-10, -5, 20, 30], [100, 60, 140, 110], [5, 5, 6, 6]])
def test_crops_at_the_border_keep_their_size(box):
    image = np.random.default_rng(0).integers(0, 255, (80, 120, 3), dtype=np.uint8)
    assert cut_tile(image, box, 48).shape == (48, 48, 3)


def test_jitter_stays_near_the_box_and_keeps_it_valid():
    rng = np.random.default_rng(1)
    box = np.array([10.0, 20.0, 40.0, 60.0])
    for _ in range(200):
        moved = jitter_box(box, rng, 0.1)
        assert np.all(np.abs(moved - box) <= 0.1 * 40 + 1e-9)
        assert moved[2] > moved[0] and moved[3] > moved[1]


@pytest.mark.parametrize("name, expected", [("00_1m", 0), ("34_back", 34), ("35_flower", 35)])
def test_class_folders_sort_in_class_order(name, expected):
    assert class_id_of_folder(name) == expected
    assert class_folder(expected) == name
    assert sorted(class_folder(i) for i in range(len(CLASS_NAMES))) == [class_folder(i) for i in range(len(CLASS_NAMES))]


@pytest.mark.parametrize("name", ["1m", "07_1m", "99_x", "xx_1m"])
def test_bad_class_folder_names_are_refused(name):
    with pytest.raises(ValueError):
        class_id_of_folder(name)


def test_crop_dataset_has_every_class_in_every_split(boards, tmp_path):
    settings = CropSettings(size=32, copies=2)
    counts = build_crop_dataset(
        [CropSource(boards / "images/train", "train", settings), CropSource(boards / "images/val", "val", CropSettings(size=32, jitter=0.0, upside_down=0.0))],
        tmp_path,
    )
    assert counts["train"] == {class_folder(i): 8 for i in range(len(CLASS_NAMES))}
    assert counts["val"] == {class_folder(i): 1 for i in range(len(CLASS_NAMES))}
    crop = Image.open(next((tmp_path / "val" / "05_6m").iterdir()))
    assert crop.size == (32, 32)
    assert crop.filename.rsplit("/", 1)[1].startswith("s1_")  # the second source's prefix
    assert json.loads((tmp_path / "sources.json").read_text()) == {
        "s0_": {"split": "train", "folder": str(boards / "images/train")},
        "s1_": {"split": "val", "folder": str(boards / "images/val")},
    }


def test_a_val_prefix_no_crop_has_is_refused_with_the_prefixes_there(boards, tmp_path):
    from typer.testing import CliRunner

    from mjsnap.cli import app

    build_crop_dataset(
        [CropSource(boards / "images/train", "train", CropSettings(size=32)),
         CropSource(boards / "images/val", "val", CropSettings(size=32, jitter=0.0, upside_down=0.0))],
        tmp_path / "crops",
    )
    result = CliRunner().invoke(app, ["train-two-stage", "classifier", "--crops", str(tmp_path / "crops"),
                                      "--val-prefix", "s3_", "--pretrained", "none", "--name", "never"])
    assert result.exit_code == 2
    assert "no val crop name starts with 's3_'" in result.output and "s1_" in result.output
    assert "sources.json" in result.output


def test_a_split_missing_a_class_is_refused(boards, tmp_path):
    limited = CropSettings(size=32, per_class_limit=1)
    images = tmp_path / "one" / "images" / "train"
    images.mkdir(parents=True)
    (tmp_path / "one" / "labels" / "train").mkdir(parents=True)
    Image.open(boards / "images/train/b0.png").save(images / "b0.png")
    lines = (boards / "labels/train/b0.txt").read_text().splitlines()
    (tmp_path / "one" / "labels" / "train" / "b0.txt").write_text("\n".join(l for l in lines if not l.startswith("35 ")) + "\n")
    with pytest.raises(ValueError, match="35_flower"):
        build_crop_dataset([CropSource(images, "train", limited)], tmp_path / "crops")


def _refusal(args: list[str]) -> tuple[int, list[str]]:
    """Exit status and the lines a command says on stderr (a refusal is status 2, an uncaught exception's is 1)."""
    from typer.testing import CliRunner

    from mjsnap.cli import app

    result = CliRunner().invoke(app, args)
    return result.exit_code, [line for line in result.stderr.splitlines() if line.startswith(("error: ", "mjsnap "))]


def test_crops_are_cut_into_out_beside_what_it_holds(boards, tmp_path):
    """--data takes a dataset folder, as train does; the crops are cut aside and moved into --out at the end."""
    (tmp_path / "crops").mkdir()
    (tmp_path / "crops" / "notes.txt").write_text("mine")
    status, errors = _refusal(["train-two-stage", "crops", "--data", str(boards), "--out", str(tmp_path / "crops"),
                               "--size", "32", "--per-class-limit", "1"])
    assert (status, errors) == (0, [])
    assert (tmp_path / "crops" / "notes.txt").read_text() == "mine" and (tmp_path / "crops" / "sources.json").is_file()
    assert len(list((tmp_path / "crops" / "val" / "05_6m").iterdir())) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["crops"]  # no staging folder left


@pytest.mark.parametrize(
    ("data", "out", "message"),
    [
        ("one", "crops", "mjsnap train-two-stage crops: crop split 'train' has no crops of 35_flower: add a source that has "
                         "them (or, for crops to merge with others that have them, --allow-missing-classes)"),
        ("unreadable", "crops", "mjsnap train-two-stage crops: {tmp}/unreadable/images/train/b0.png: not a readable image "
                                "(expected JPEG, PNG, WebP or HEIC)"),
        ("broken.yaml", "crops", "mjsnap train-two-stage crops: {tmp}/broken.yaml: not a dataset config: it does not read "
                                 "as YAML (YAML error at line 2)"),
        ("one/images", "crops", "mjsnap train-two-stage crops: {tmp}/one/images is not a dataset folder: it has no data.yaml"),
        ("one", "notes.txt", "error: --out: {tmp}/notes.txt is a file, not a folder"),
    ],
)
def test_crops_that_cannot_be_cut_leave_out_as_it_was(boards, tmp_path, data, out, message):
    """A refusal after some crops were cut (a class missing, a photo that cannot be read) leaves no crops behind, as a
    refusal before (a bad config or --out); a dataset folder or a --out that is a file was a traceback."""
    for name in ("one", "unreadable"):
        for kind in ("images", "labels"):
            (tmp_path / name / kind / "train").mkdir(parents=True)
        (tmp_path / name / "data.yaml").write_text("train: images/train\nval: images/train\n")
    Image.open(boards / "images/train/b0.png").save(tmp_path / "one" / "images" / "train" / "b0.png")
    (tmp_path / "unreadable" / "images" / "train" / "b0.png").write_text("not a photo")
    lines = (boards / "labels/train/b0.txt").read_text().splitlines()
    for name in ("one", "unreadable"):
        (tmp_path / name / "labels" / "train" / "b0.txt").write_text("\n".join(l for l in lines if not l.startswith("35 ")))
    (tmp_path / "broken.yaml").write_text("train: [images/train\nval: images/train\n")
    (tmp_path / "notes.txt").write_text("mine")
    before = sorted(tmp_path.rglob("*"))
    status, errors = _refusal(["train-two-stage", "crops", "--data", str(tmp_path / data), "--out", str(tmp_path / out),
                               "--size", "32"])
    assert (status, errors) == (2, [message.format(tmp=tmp_path)])
    assert sorted(tmp_path.rglob("*")) == before


def test_crops_missing_a_class_are_kept_when_asked(boards, tmp_path):
    """Crops of real photos, which show no face-down tile, are cut to be merged with synthetic ones that do."""
    for kind in ("images", "labels"):
        (tmp_path / "one" / kind / "train").mkdir(parents=True)
    (tmp_path / "one" / "data.yaml").write_text("train: images/train\nval: images/train\n")
    Image.open(boards / "images/train/b0.png").save(tmp_path / "one" / "images" / "train" / "b0.png")
    lines = (boards / "labels/train/b0.txt").read_text().splitlines()
    (tmp_path / "one" / "labels" / "train" / "b0.txt").write_text("\n".join(l for l in lines if not l.startswith("35 ")))
    status, errors = _refusal(["train-two-stage", "crops", "--data", str(tmp_path / "one"), "--out",
                               str(tmp_path / "crops"), "--size", "32", "--allow-missing-classes"])
    assert (status, errors) == (0, [])
    assert (tmp_path / "crops" / "train" / "35_flower").is_dir()  # its folder is there, empty
    assert not any((tmp_path / "crops" / "train" / "35_flower").iterdir())
    assert any((tmp_path / "crops" / "train" / "05_6m").iterdir())


@pytest.mark.parametrize("trainer", ["fast", "ultralytics"])
@pytest.mark.parametrize("crops", ["gone", "notes.txt", "empty"])
def test_the_classifier_refuses_a_folder_that_is_no_crop_dataset(tmp_path, trainer, crops):
    """Either trainer, before its run folder is made (a file or, for the ultralytics trainer, any folder without
    train/ and val/ was a traceback)."""
    from vision.twostage.training import TWO_STAGE_DIR

    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "empty").mkdir()
    status, errors = _refusal(["train-two-stage", "classifier", "--crops", str(tmp_path / crops), "--trainer", trainer,
                               "--pretrained", "none", "--name", "never-started", "--epochs", "1"])
    assert (status, errors) == (2, [f"mjsnap train-two-stage classifier: --crops {tmp_path / crops} is not a crop "
                                    "dataset: it needs train/ and val/ class folders (mjsnap train-two-stage crops)"])
    assert not (TWO_STAGE_DIR / "runs" / "never-started").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("gone.yaml", "--data {tmp}/gone.yaml: no such dataset folder or datasets/*.yaml config"),
        ("empty", "--data {tmp}/empty is not a dataset folder: it has no data.yaml"),
        ("broken.yaml", "--data {tmp}/broken.yaml: {tmp}/broken.yaml: not a dataset config: it does not read as YAML "
                        "(YAML error at line 2)"),
        ("club.yaml", "--data {tmp}/club.yaml: dataset folder {tmp}/photos/val does not exist"),
    ],
)
def test_the_tile_detector_refuses_data_it_cannot_train_on_before_its_run_starts(tmp_path, data, message):
    """As `mjsnap train` refuses them; each was a traceback."""
    from vision.twostage.training import TWO_STAGE_DIR

    (tmp_path / "empty").mkdir()
    (tmp_path / "photos" / "train").mkdir(parents=True)
    (tmp_path / "broken.yaml").write_text("train: [photos/train\nval: photos/train\n")
    (tmp_path / "club.yaml").write_text("train: photos/train\nval: photos/val\n")
    status, errors = _refusal(["train-two-stage", "detector", "--data", str(tmp_path / data), "--pretrained", "none",
                               "--name", "never-started"])
    assert (status, errors) == (2, [f"mjsnap train-two-stage detector: {message.format(tmp=tmp_path)}"])
    assert not (TWO_STAGE_DIR / "runs" / "never-started").exists()


@pytest.mark.parametrize(
    ("start", "blur", "warmup_bias_lr"),
    [
        ("none", [], 0.1),  # from scratch: ultralytics' own bias warmup
        ("mahjong-detector", ["--blur", "0.35"], 0.1),  # a 34-class start whose head is remade for one class
        ("{shipped}/detector/model.pt", ["--blur", "0.35"], 0.0),  # a trained tile detector: a fine-tune
    ],
)
def test_the_tile_detector_run_gets_its_blur_share_and_a_fine_tune_warms_its_biases_from_zero(
        tmp_path, monkeypatch, start, blur, warmup_bias_lr):
    from typer.testing import CliRunner

    import vision.twostage.training as training
    from mjsnap.cli import app
    from mjsnap.commands import train as train_command
    from mjsnap.labels import LabelBox, LabelDataset

    runs = []
    monkeypatch.setattr(training, "train_tile_detector", lambda data, epochs, **kw: runs.append(kw) or tmp_path)
    monkeypatch.setattr(train_command, "_pretrained_start", lambda choice: None if choice == "none" else Path(choice))
    for split in ("train", "val"):
        LabelDataset(tmp_path / "club").save(f"p-{split}", Image.new("RGB", (64, 64)), [LabelBox(0, (1, 1, 20, 30))], split)
    result = CliRunner().invoke(app, ["train-two-stage", "detector", "--data", str(tmp_path / "club"), "--pretrained",
                                      start.format(shipped=SHIPPED), *blur])
    assert result.exit_code == 0, result.output
    (run,) = runs
    assert run["blur"] == (0.35 if blur else 0.0) and run["warmup_bias_lr"] == warmup_bias_lr
    assert run["command"].endswith(" --blur 0.35") is bool(blur)


@pytest.mark.parametrize("share", ["-0.1", "1.5", "nan"])
def test_a_blur_share_outside_0_to_1_is_refused(share):
    from typer.testing import CliRunner

    from mjsnap.cli import app

    result = CliRunner().invoke(app, ["train-two-stage", "detector", "--data", "x.yaml", "--blur", share,
                                      "--name", "never-started"])
    assert result.exit_code == 2 and "--blur" in result.stderr


@pytest.mark.parametrize(
    ("detector", "classifier", "options", "message"),
    [
        ("{tmp}/notes.pt", "{shipped}/classifier/model.pt", [],
         "mjsnap train-two-stage export: {tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
        ("{shipped}/classifier/model.pt", "{shipped}/classifier/model.pt", [],
         "mjsnap train-two-stage export: {shipped}/classifier/model.pt: a tile detector has one class, this one has 36"),
        ("{shipped}/detector/model.pt", "{shipped}/detector/model.pt", [],
         "mjsnap train-two-stage export: {shipped}/detector/model.pt: classifier classes must be the crop folders "
         "['00_1m', '01_2m', '02_3m']... in order"),
        ("{shipped}/detector/model.pt", "{shipped}/classifier/model.pt", ["--extra-classifier", "{tmp}/notes.pt"],
         "mjsnap train-two-stage export: {tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
        ("{shipped}/detector/model.pt", "{shipped}/classifier/model.pt", ["--characters-from", "{tmp}"],
         "mjsnap train-two-stage export: {tmp} has no character recognizer (characters/model.onnx and meta 'characters')"),
        ("{shipped}/detector/model.pt", "{shipped}/classifier/model.pt", ["--out", "{tmp}/notes.pt"],
         "error: --out: {tmp}/notes.pt is a file, not a folder"),
        ("{shipped}/detector/model.pt", "{shipped}/classifier/model.pt", ["--detector-imgsz", "100"],
         "error: --detector-imgsz 100: the image size must be a positive multiple of 32"),
    ],
)
def test_a_two_stage_export_that_cannot_be_made_writes_nothing(tmp_path, detector, classifier, options, message):
    """Every checkpoint and option is checked before the model directory is made: a refusal left an empty or half-made
    one behind (a classifier checkpoint refused after the detector was exported), and an --out that is a file was a
    traceback."""
    (tmp_path / "notes.pt").write_text("not weights\n")
    places = {"tmp": tmp_path, "shipped": SHIPPED}
    status, errors = _refusal(["train-two-stage", "export", "--detector", detector.format(**places), "--classifier",
                               classifier.format(**places), "--out", str(tmp_path / "model"),
                               *[option.format(**places) for option in options],
                               "--version", "t", "--train-command", "test", "--data", "boards"])
    assert (status, errors) == (2, [message.format(**places)])
    assert not (tmp_path / "model").exists()


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_tiny_two_stage_training_export_and_inference(boards, tmp_path):
    from vision.detector import TileDetector
    from vision.detections import Detections
    from vision.twostage.export import export_two_stage
    from vision.twostage.fastcls import train_fast_classifier
    from vision.twostage.training import train_tile_detector

    crops = tmp_path / "crops"
    build_crop_dataset(
        [CropSource(boards / "images/train", "train", CropSettings(size=32)),
         CropSource(boards / "images/val", "val", CropSettings(size=32, jitter=0.0, upside_down=0.0))],
        crops,
    )
    detector_run = train_tile_detector(boards / "data.yaml", 1, imgsz=64, batch=4, project=tmp_path / "runs", blur=0.5)
    args = (detector_run / "args.yaml").read_text()
    assert "cache: ram" in args  # photos decoded once, not per mosaic
    assert "GaussianBlur" in args and "MotionBlur" in args  # kept in last.pt for a resume
    classifier_run = train_fast_classifier(crops, tmp_path / "runs" / "classifier", minutes=2, max_epochs=1, batch=32)
    model_dir = export_two_stage(
        detector_run / "weights" / "best.pt", classifier_run / "weights" / "best.pt", tmp_path / "model",
        detector_imgsz=64, classifier_imgsz=32, version="tiny", train_command="test", data="boards",
        characters_from=SHIPPED if (SHIPPED / "characters").is_dir() else None,
    )
    meta = json.loads((model_dir / "meta.json").read_text())
    assert ("characters" in meta) == (SHIPPED / "characters").is_dir()  # carried over, and read below
    assert meta["design"] == "two_stage" and meta["classes"] == list(CLASS_NAMES)
    assert meta["classifier"]["half_turn_average"] is True
    assert meta["classifier"]["face_floor"] == FACE_FLOOR and meta["classifier"]["extra_looks"] == EXTRA_LOOKS
    from ultralytics import YOLO

    names = YOLO(str(model_dir / "classifier" / "model.pt")).names  # classes.txt names, not the crop folders
    assert [names[i] for i in range(len(names))] == list(CLASS_NAMES)
    image = np.asarray(Image.open(boards / "images/val/v0.png"))
    results = {}
    for backend in ("onnxruntime", "openvino"):
        detector = TileDetector(model_dir, backend=backend, conf=0.0)
        assert detector.backend == backend
        dets = detector.detect(image)
        assert isinstance(dets, Detections) and 0 < len(dets) <= 100
        assert np.all(dets.xyxy >= 0) and np.all(dets.xyxy[:, 2] <= image.shape[1]) and np.all(dets.xyxy[:, 3] <= image.shape[0])
        assert np.all((dets.confidence >= 0) & (dets.confidence <= 1))
        assert dets.class_probs.shape == (len(dets), len(CLASS_NAMES))  # the reader weighs other readings with it
        assert np.array_equal(dets.class_probs.argmax(1), dets.class_id)
        assert np.allclose(dets.class_probs.sum(1), 1, atol=1e-3)
        results[backend] = dets
    assert np.array_equal(results["onnxruntime"].class_id, results["openvino"].class_id)
    assert np.allclose(results["onnxruntime"].confidence, results["openvino"].confidence, atol=1e-3)

    # a detector exported alone (a candidate with a new detector beside the classifiers it had) reads as the whole
    # export's did
    from vision.twostage.export import export_detector

    assert export_detector(detector_run / "weights" / "best.pt", model_dir / "detector", 64) == meta["detector"]["files"]
    again = TileDetector(model_dir, backend="openvino", conf=0.0).detect(image)
    np.testing.assert_allclose(again.xyxy, results["openvino"].xyxy, atol=1e-3)
    # and a copy of the model given that detector by the candidate recipes' helper reads the same, named for quantize
    from benchmarks.holdout_proxy import derived_model

    swapped = derived_model(model_dir, tmp_path / "swapped", detector=detector_run / "weights" / "best.pt",
                            version="9.9.9-f32")
    swapped_meta = json.loads((swapped / "meta.json").read_text())
    assert swapped_meta["version"] == "9.9.9-f32" and swapped_meta["classifier"] == meta["classifier"]
    assert swapped_meta["detector"] == meta["detector"]  # bf16 needs no calibration: kept (INT8: test_holdout_proxy)
    for backend in ("onnxruntime", "openvino"):
        np.testing.assert_allclose(TileDetector(swapped, backend=backend, conf=0.0).detect(image).xyxy,
                                   results[backend].xyxy, atol=1e-3)


def test_available_backends_of_a_two_stage_model_are_those_both_stages_have(tmp_path):
    from vision.detector import available_backends

    for stage, files in (("detector", ["model.onnx", "model.pt"]), ("classifier", ["model.onnx", "model_openvino"])):
        (tmp_path / stage).mkdir()
        for name in files:
            (tmp_path / stage / name).touch()
    assert available_backends(tmp_path) == ["onnxruntime"]
    (tmp_path / "classifier" / "model.pt").touch()
    assert available_backends(tmp_path) == ["onnxruntime", "ultralytics"]


def _networks_with_fake_classifier(half_turn_average: bool):
    """TwoStageNetworks whose classifier says class 0 when a crop is brighter on its left, class 1 otherwise."""
    from vision.twostage.backend import TwoStageNetworks

    def classifier(tensor: np.ndarray) -> np.ndarray:
        probs = np.zeros((len(tensor), len(CLASS_NAMES)), np.float32)
        left_brighter = tensor[:, 0, :, 0].mean(1) > tensor[:, 0, :, -1].mean(1)
        probs[np.arange(len(tensor)), np.where(left_brighter, 0, 1)] = 1
        return probs

    networks = object.__new__(TwoStageNetworks)
    networks.model_dir, networks.backend = Path("fake"), "fake"
    networks.classifier_imgsz, networks.batch, networks.margin = 32, 4, 0.0
    networks.half_turn_average = half_turn_average
    networks._classifiers = [classifier]
    return networks


@pytest.mark.parametrize("half_turn_average, expected", [(False, [1.0, 0.0]), (True, [0.5, 0.5])])
def test_half_turn_average_averages_a_crop_with_its_180_degree_turn(half_turn_average, expected):
    rgb = np.repeat(np.linspace(255, 0, 40, dtype=np.uint8)[None, :, None], 60, axis=0).repeat(3, axis=2)
    boxes = np.array([[0, 0, 40, 60]] * 5, np.float32)  # 5 crops: more than one classifier batch either way
    probs = _networks_with_fake_classifier(half_turn_average).classify(rgb, boxes)
    assert probs.shape == (5, len(CLASS_NAMES))
    assert np.allclose(probs[:, :2], expected) and np.allclose(probs.sum(1), 1)


@pytest.mark.parametrize("half_turn_below, crops_read, sure_tile", [
    (1.0, 4, [0.475, 0.5]),  # every tile both ways up: the sure tile's turned crop reads as the other class
    (0.9, 3, [0.95, 0.0]),  # only the unsure tile is turned: the sure one keeps its upright reading
])
def test_half_turn_below_turns_only_the_tiles_the_upright_look_doubts(half_turn_below, crops_read, sure_tile):
    from vision.twostage.backend import TwoStageNetworks

    seen = []

    def classifier(tensor: np.ndarray) -> np.ndarray:
        """Class 0 (0.95) when a crop is brighter on its left, class 1 (1.0) on its right, class 2 (0.6) when even."""
        seen.append(len(tensor))
        left, right = tensor[:, 0, :, 0].mean(1), tensor[:, 0, :, -1].mean(1)
        probs = np.full((len(tensor), len(CLASS_NAMES)), 0.0, np.float32)
        for row, (a, b) in enumerate(zip(left, right)):
            best, p = (0, 0.95) if a > b + 0.1 else (1, 1.0) if b > a + 0.1 else (2, 0.6)
            probs[row] = (1 - p) / (len(CLASS_NAMES) - 1)
            probs[row, best] = p
        return probs

    classifier.any_batch = True  # as OpenVINO networks: fed the crops there are, so `seen` counts crops read
    networks = object.__new__(TwoStageNetworks)
    networks.model_dir, networks.backend = Path("fake"), "fake"
    networks.classifier_imgsz, networks.batch, networks.margin = 32, 16, 0.0
    networks.half_turn_average, networks.half_turn_below = True, half_turn_below
    networks._classifiers = [classifier]
    rgb = np.full((60, 80, 3), 128, np.uint8)
    rgb[:, :40] = np.linspace(255, 0, 40, dtype=np.uint8)[None, :, None]  # the left tile: a face it is sure of
    probs = networks.first_look(rgb, np.array([[0, 0, 40, 60], [40, 0, 80, 60]], np.float32))
    assert sum(seen) == crops_read
    np.testing.assert_allclose(probs[0, :2], sure_tile, atol=0.01)
    assert probs[1].argmax() == 2 and probs[1, 2] == pytest.approx(0.6)  # the doubted tile, turned, reads the same


def test_a_bad_half_turn_gate_in_meta_is_refused(tmp_path):
    from vision.twostage.backend import check_two_stage_meta

    meta = {"detector": {"imgsz": 480}, "classifier": {"imgsz": 64, "batch": 16, "half_turn_below": 1.5}}
    with pytest.raises(ValueError, match="half_turn_below must be a number in"):
        check_two_stage_meta(meta, tmp_path)
    check_two_stage_meta(meta | {"classifier": meta["classifier"] | {"half_turn_below": 0.8}}, tmp_path)


@pytest.mark.parametrize(
    ("face_floor", "kept", "confidence"),
    [
        (0.0, [0, 1], [0.9 * 0.9, 0.5 * 0.9]),  # the product alone: the doubted face of a clear tile is dropped
        (0.35, [0, 1, 2], [0.9 * 0.9, 0.5 * 0.9, 0.9 * 0.35]),  # a clear tile stays, whatever its face
    ],
)
def test_the_face_floor_keeps_a_clear_tile_whose_face_the_classifier_doubts(face_floor, kept, confidence):
    from vision.imageio import LoadedImage
    from vision.twostage.backend import TwoStageNetworks

    boxes = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10], [60, 0, 70, 10]], np.float32)
    det_conf = np.array([0.9, 0.5, 0.9, 0.5], np.float32)  # the last: neither tile nor face is clear
    probs = np.full((4, len(CLASS_NAMES)), 0.01, np.float32)
    probs[:2, 3], probs[2:, 7], probs[2:, 8] = 0.9, 0.25, 0.24  # the last two: face 7 or 8, the classifier can't say
    networks = object.__new__(TwoStageNetworks)
    networks.conf, networks.face_floor = 0.25, face_floor
    networks.find_tiles = lambda loaded: (boxes, det_conf)
    networks.classify_tiles = lambda rgb, found, found_conf: probs
    dets = networks.detect(LoadedImage.from_array(np.zeros((20, 80, 3), np.uint8)))
    np.testing.assert_allclose(dets.xyxy, boxes[kept])
    np.testing.assert_allclose(dets.confidence, confidence, rtol=1e-5)
    np.testing.assert_array_equal(dets.class_probs, probs[kept])  # the hand reader still sees how unsure a face is


@pytest.mark.parametrize("face_floor", [-0.1, 1.0, "0.35", True])
def test_a_bad_face_floor_in_meta_is_refused(face_floor):
    from vision.twostage.backend import check_two_stage_meta

    meta = {"detector": {"imgsz": 480}, "classifier": {"imgsz": 64, "batch": 16, "face_floor": face_floor}}
    with pytest.raises(ValueError, match="face_floor"):
        check_two_stage_meta(meta, Path("model"))


@pytest.mark.parametrize(("below", "looks"), [(0.0, [0.06]), (1.0, [0.06, 0.0, 0.12])])
def test_an_unsure_tile_is_looked_at_again_with_other_margins_and_the_looks_averaged(below, looks):
    """The fake classifier gives class 0 the share of bright pixels in the crop: a bright tile on a dark table reads
    brighter cut tight than cut wide, so each margin's look is told apart by its number."""
    from vision.twostage.backend import TwoStageNetworks

    def classifier(tensor: np.ndarray) -> np.ndarray:
        bright = (tensor[:, 0] > 0.5).mean((1, 2))
        probs = np.zeros((len(tensor), len(CLASS_NAMES)), np.float32)
        probs[:, 0], probs[:, 1] = bright, 1 - bright
        return probs

    rgb = np.zeros((100, 100, 3), np.uint8)
    rgb[20:70, 30:70] = 255
    box = np.array([[30, 20, 70, 70]], np.float32)
    networks = object.__new__(TwoStageNetworks)
    networks.model_dir, networks.backend, networks.batch, networks.classifier_imgsz = Path("fake"), "fake", 4, 50
    networks.margin, networks.half_turn_average, networks._classifiers = 0.06, True, [classifier]
    networks.extra_looks_below, networks.extra_looks_margins = below, (0.0, 0.12)
    probs = networks.classify(rgb, box)
    expected = np.mean([(cut_tile(rgb, box[0], 50, m)[..., 0] > 127).mean() for m in looks])
    assert probs[0, 0] == pytest.approx(expected, abs=1e-6)
    assert len(looks) == 1 or probs[0, 0] > (cut_tile(rgb, box[0], 50, 0.06)[..., 0] > 127).mean()  # the tight look counts


@pytest.mark.parametrize(
    "entry", [{"below": 0.9}, {"below": 1.5, "margins": [0.1]}, {"below": 0.9, "margins": 0.1},
              {"below": 0.9, "margins": [0.1, -0.1]}, {"below": 0.9, "margins": [0.1], "every": True}]
)
def test_a_bad_extra_looks_in_meta_is_refused(entry):
    from vision.twostage.backend import check_two_stage_meta

    meta = {"detector": {"imgsz": 480}, "classifier": {"imgsz": 64, "batch": 16, "extra_looks": entry}}
    with pytest.raises(ValueError, match="extra_looks"):
        check_two_stage_meta(meta, Path("model"))


def test_the_classifiers_of_an_ensemble_are_averaged():
    """Two fake classifiers, one sure of class 0, the other of class 1: each tile reads half and half."""
    networks = _networks_with_fake_classifier(False)
    networks._classifiers = [_one_hot(0), _one_hot(1)]
    probs = networks.classify(np.full((60, 40, 3), 128, np.uint8), np.array([[0, 0, 40, 60]] * 5, np.float32))
    assert np.allclose(probs[:, :2], 0.5) and np.allclose(probs.sum(1), 1)


@pytest.mark.parametrize(("below", "class_0", "second_sees"), [(1.0, [0.475, 0.3], 4), (0.9, [0.95, 0.3], 2)])
def test_with_ensemble_below_the_other_classifiers_read_only_the_tiles_the_first_doubts(below, class_0, second_sees):
    """The first classifier is sure of a bright tile (class 0 at 0.95) and doubts a dark one (0.6); the second says
    class 1 of every crop. Under ensemble_below 0.9 the sure tile keeps the first classifier's reading and the second
    classifier reads only the dark tile's two crops (upright and turned)."""
    def first(tensor: np.ndarray) -> np.ndarray:
        probs = np.zeros((len(tensor), len(CLASS_NAMES)), np.float32)
        probs[:, 0] = np.where(tensor.mean((1, 2, 3)) > 0.5, 0.95, 0.6)
        probs[:, 2] = 1 - probs[:, 0]
        return probs

    seen = []

    def second(tensor: np.ndarray) -> np.ndarray:
        seen.append(int((tensor.reshape(len(tensor), -1).max(1) > 0).sum()))  # the batch's crops, padding left out
        return _one_hot(1)(tensor)

    networks = _networks_with_fake_classifier(True)
    networks._classifiers, networks.ensemble_below = [first, second], below
    rgb = np.zeros((60, 80, 3), np.uint8)
    rgb[:, :40] = 230
    rgb[:, 40:] = 40
    probs = networks.classify(rgb, np.array([[0, 0, 40, 60], [40, 0, 80, 60]], np.float32))
    np.testing.assert_allclose(probs[:, 0], class_0, atol=1e-6)
    np.testing.assert_allclose(probs.sum(1), 1, atol=1e-6)
    assert sum(seen) == second_sees


@pytest.mark.parametrize(("any_batch", "fed"), [(False, [4, 4]), (True, [4, 2])])
def test_a_network_that_takes_any_batch_is_fed_the_crops_there_are_and_a_fixed_one_a_padded_batch(any_batch, fed):
    """3 tiles, upright and turned: 6 crops in batches of 4. An ONNX export takes 4 rows only, so the last batch is
    padded; an OpenVINO or PyTorch network (any_batch) runs the last 2 crops alone. The readings are the same."""
    sizes = []

    def classifier(tensor: np.ndarray) -> np.ndarray:
        sizes.append(len(tensor))
        return _one_hot(5)(tensor)

    if any_batch:
        classifier.any_batch = True
    networks = _networks_with_fake_classifier(True)
    networks._classifiers = [classifier]
    probs = networks.classify(np.full((60, 120, 3), 128, np.uint8), np.array([[0, 0, 40, 60], [40, 0, 80, 60],
                                                                             [80, 0, 120, 60]], np.float32))
    assert sizes == fed
    np.testing.assert_allclose(probs[:, 5], 1)


@pytest.mark.parametrize("stage", ["classifier", "classifier_2"])
def test_the_shipped_openvino_classifiers_read_a_short_batch_as_they_read_it_padded(stage):
    from vision.detector import _openvino_network

    if not (SHIPPED / stage / "model_openvino").is_dir():
        pytest.skip(f"the shipped model has no {stage}/model_openvino")
    network = _openvino_network(SHIPPED / stage)
    size = json.loads((SHIPPED / "meta.json").read_text())["classifier"]["imgsz"]  # the size the shipped model reads
    crops = np.random.default_rng(0).random((16, 3, size, size), dtype=np.float32)
    assert network.any_batch
    np.testing.assert_allclose(network(crops[:3]), network(crops)[:3], atol=1e-6)
    assert network(crops[:1]).shape == (1, len(CLASS_NAMES))


@pytest.mark.parametrize("below", [-0.1, 1.5, "0.9", True])
def test_a_bad_ensemble_below_in_meta_is_refused(below):
    from vision.twostage.backend import check_two_stage_meta

    meta = {"detector": {"imgsz": 480}, "classifier": {"imgsz": 64, "batch": 16, "ensemble_below": below}}
    with pytest.raises(ValueError, match="ensemble_below"):
        check_two_stage_meta(meta, Path("model"))


@pytest.mark.parametrize("stage", ["detector", "classifier"])
@pytest.mark.parametrize("precision", ["fp16", "int4", "INT8", 16, None])
def test_an_unknown_openvino_precision_in_meta_is_refused(stage, precision):
    from vision.twostage.backend import check_two_stage_meta

    meta = {"detector": {"imgsz": 480}, "classifier": {"imgsz": 64, "batch": 16}}
    meta[stage]["openvino_precision"] = precision
    with pytest.raises(ValueError, match=f"{stage}.openvino_precision"):
        check_two_stage_meta(meta, Path("model"))


def test_openvino_networks_load_at_the_precision_meta_names_each_stage(tmp_path, monkeypatch):
    """openvino_precision is per stage (every classifier of the ensemble takes the classifier's); f32 when absent."""
    import vision.detector
    from vision.twostage.backend import TwoStageNetworks

    for stage in ("detector", "classifier", "classifier_2"):
        (tmp_path / stage / "model_openvino").mkdir(parents=True)
        (tmp_path / stage / "model_openvino" / "model.xml").touch()
    loaded = []
    monkeypatch.setattr(vision.detector, "_openvino_network",
                        lambda folder, precision="f32": loaded.append((folder.name, precision)) or _one_hot(0))
    meta = {"detector": {"imgsz": 480, "openvino_precision": "bf16"},
            "classifier": {"imgsz": 64, "batch": 4, "ensemble": ["classifier_2"]}}
    TwoStageNetworks(tmp_path, meta, "openvino", 0.25, 0.5, characters=False)
    assert loaded == [("detector", "bf16"), ("classifier", "f32"), ("classifier_2", "f32")]
    loaded.clear()
    meta["classifier"]["openvino_precision"] = "bf16"
    TwoStageNetworks(tmp_path, meta, "openvino", 0.25, 0.5, characters=False)
    assert loaded == [("detector", "bf16"), ("classifier", "bf16"), ("classifier_2", "bf16")]
    loaded.clear()
    meta["detector"]["openvino_precision"] = meta["classifier"]["openvino_precision"] = "int8"  # since session 32
    TwoStageNetworks(tmp_path, meta, "openvino", 0.25, 0.5, characters=False)
    assert loaded == [("detector", "int8"), ("classifier", "int8"), ("classifier_2", "int8")]


def test_an_unknown_precision_is_refused_by_the_openvino_loader():
    from vision.detector import _openvino_network

    with pytest.raises(ValueError, match="unknown OpenVINO precision"):
        _openvino_network(SHIPPED / "detector", "int4")


def _one_hot(class_id: int):
    def classifier(tensor: np.ndarray) -> np.ndarray:
        probs = np.zeros((len(tensor), len(CLASS_NAMES)), np.float32)
        probs[:, class_id] = 1
        return probs

    return classifier


def test_an_ensemble_member_loads_with_the_backend_every_stage_has(tmp_path, monkeypatch):
    """TwoStageNetworks loads classifier/ and each folder of meta classifier.ensemble with one backend."""
    import vision.detector
    from vision.detector import available_backends
    from vision.twostage.backend import TwoStageNetworks

    for stage in ("detector", "classifier", "classifier_2"):
        (tmp_path / stage).mkdir()
        (tmp_path / stage / "model.onnx").touch()
    (tmp_path / "classifier" / "model.pt").touch()
    assert available_backends(tmp_path) == ["onnxruntime"]  # classifier_2 has no model.pt
    loaded = []
    monkeypatch.setitem(vision.detector._LOADERS, "onnxruntime", lambda folder: loaded.append(folder.name) or _one_hot(len(loaded)))
    meta = {"detector": {"imgsz": 480}, "classifier": {"imgsz": 64, "batch": 4, "ensemble": ["classifier_2"]}}
    networks = TwoStageNetworks(tmp_path, meta, "auto", 0.25, 0.5, characters=False)
    assert loaded == ["detector", "classifier", "classifier_2"]
    probs = networks.classify(np.full((60, 40, 3), 128, np.uint8), np.array([[0, 0, 40, 60]], np.float32))
    assert probs[0, 2] == pytest.approx(0.5) and probs[0, 3] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("ensemble", "message"),
    [("classifier_2", "must be a list"), (["detector"], "must be a list"), (["classifier_2"], "classifier_2, which is not there")],
)
def test_a_bad_ensemble_in_meta_is_refused(ensemble, message, tmp_path):
    from vision.twostage.backend import check_two_stage_meta

    meta = {"detector": {"imgsz": 480}, "classifier": {"imgsz": 64, "batch": 16, "ensemble": ensemble}}
    with pytest.raises(ValueError, match=message):
        check_two_stage_meta(meta, tmp_path)


def test_no_boxes_classify_to_an_empty_array():
    probs = _networks_with_fake_classifier(True).classify(np.zeros((10, 10, 3), np.uint8), np.zeros((0, 4), np.float32))
    assert probs.shape == (0, len(CLASS_NAMES))


@pytest.mark.parametrize("name", ["photo", "style", "warp", "blur", "blur_dim"])
def test_crop_augmentations_keep_shape_and_range_and_follow_the_seed(name):
    import torch

    from vision.twostage.fastcls import AUGMENTATIONS

    crops = torch.rand(48, 3, 32, 32, generator=torch.Generator().manual_seed(1))
    first = AUGMENTATIONS[name](crops.clone(), torch.Generator().manual_seed(7))
    again = AUGMENTATIONS[name](crops.clone(), torch.Generator().manual_seed(7))
    other = AUGMENTATIONS[name](crops.clone(), torch.Generator().manual_seed(8))
    assert first.shape == crops.shape and first.min() >= 0 and first.max() <= 1
    assert torch.equal(first, again) and not torch.equal(first, other)


def test_style_augmentation_changes_ink_colours_that_photo_augmentation_keeps(monkeypatch):
    """A red glyph on white: 'photo' jitters colour by up to 12 % per channel, so red stays the strongest channel of
    the ink; 'style' prints some crops in other inks, where it does not. No face zoom here: zoomed in, this glyph
    fills most of the crop's middle, which the ink mix takes for the face colour."""
    import torch

    from vision.twostage import fastcls
    from vision.twostage.fastcls import AUGMENTATIONS

    monkeypatch.setattr(fastcls, "FACE_ZOOM_SHARE", 0.0)

    crops = torch.ones(256, 3, 32, 32)
    crops[:, 1:, 8:24, 8:24] = 0.1  # ink: red
    crops[:, 0, 8:24, 8:24] = 0.9

    def red_ink_share(name: str) -> float:
        out = AUGMENTATIONS[name](crops.clone(), torch.Generator().manual_seed(3))
        ink = out[:, :, 12:20, 12:20].mean(dim=(2, 3))
        return float((ink.argmax(1) == 0).float().mean())

    assert red_ink_share("photo") == 1.0
    assert red_ink_share("style") < 0.95


def test_photo_augmentation_greys_faces_but_never_a_face_down_tile():
    """A yellow back turned grey is a pale blank tile, a 白 labelled `back`: the classifier must learn a face-down
    tile by its colour, so only other classes' crops are turned grey."""
    import torch

    from vision.twostage.fastcls import AUGMENTATIONS

    crops = torch.zeros(128, 3, 16, 16)
    crops[:, 0], crops[:, 1], crops[:, 2] = 0.9, 0.7, 0.2

    def greyed(class_name: str) -> int:
        labels = torch.full((128,), CLASS_NAMES.index(class_name))
        out = AUGMENTATIONS["photo"](crops.clone(), torch.Generator().manual_seed(1), labels)
        return int((out.std(dim=1).amax(dim=(1, 2)) < 1e-6).sum())

    assert greyed("back") == 0
    assert greyed("P") > 8


def test_some_training_crops_are_zoomed_past_the_tiles_edge(monkeypatch):
    """Real labels (cmd's) and detectors trained on them often box only the face's art, so FACE_ZOOM_SHARE of the
    crops lose the tile's edge (a dark frame here); the photo jitter alone hardly ever does."""
    import torch

    from vision.twostage import fastcls

    crops = torch.ones(400, 3, 64, 64)
    crops[:, :, :3], crops[:, :, -3:], crops[:, :, :, :3], crops[:, :, :, -3:] = 0, 0, 0, 0

    def edgeless() -> float:
        out = fastcls.AUGMENTATIONS["photo"](crops.clone(), torch.Generator().manual_seed(2))
        return float((out.amin(dim=(1, 2, 3)) > 0.3).float().mean())

    assert fastcls.FACE_ZOOM_SHARE == 0.4
    assert 0.12 < edgeless() < 0.3
    monkeypatch.setattr(fastcls, "FACE_ZOOM_SHARE", 0.0)
    assert edgeless() < 0.01


def _straightness_residual(crops) -> float:
    """Median over crops of the largest distance (px) of a dark vertical stroke's row centres from their best line."""
    import numpy as np

    residuals = []
    for crop in crops.mean(dim=1).numpy():
        ink = crop < crop.mean() - 0.25 * (crop.mean() - crop.min())
        rows = [y for y in range(8, 56) if ink[y].any()]
        centres = np.array([np.flatnonzero(ink[y]).mean() for y in rows])
        fit = np.polyval(np.polyfit(rows, centres, 1), rows)
        residuals.append(np.abs(centres - fit).max())
    return float(np.median(residuals))


def test_warp_augmentation_bends_strokes_that_photo_augmentation_keeps_straight():
    """An affine warp keeps a straight stroke straight; 'warp' bends it, as calligraphy differs between makers."""
    import torch

    from vision.twostage.fastcls import AUGMENTATIONS

    crops = torch.ones(64, 3, 64, 64)
    crops[:, :, 4:60, 30:34] = 0.0
    photo = _straightness_residual(AUGMENTATIONS["photo"](crops.clone(), torch.Generator().manual_seed(5)))
    warp = _straightness_residual(AUGMENTATIONS["warp"](crops.clone(), torch.Generator().manual_seed(5)))
    assert photo < 0.6
    assert warp > 0.9


@pytest.mark.parametrize(
    "degrees, length, defocus, mass_on",
    [
        (0, 9.0, False, "row"),  # a sideways smear: all its weight on the middle row, 9-10 px of it
        (90, 9.0, False, "column"),
        (45, 9.0, False, "diagonal"),
        (0, 9.0, True, "disc"),  # out of focus: round, whatever the angle
    ],
)
def test_blur_kernels_smear_along_their_angle_or_defocus_round(degrees, length, defocus, mass_on):
    import math

    import torch

    from vision.twostage.fastcls import blur_kernels

    (kernel,) = blur_kernels(torch.tensor([math.radians(degrees)]), torch.tensor([length]), torch.tensor([1.2]),
                             torch.tensor([defocus]))[:, 0]
    middle = kernel.shape[0] // 2
    assert float(kernel.sum()) == pytest.approx(1.0, abs=1e-5) and float(kernel.min()) >= 0
    if mass_on == "row":
        assert float(kernel[middle].sum()) > 0.99 and int((kernel[middle] > 0.05).sum()) in (9, 10)
    elif mass_on == "column":
        assert float(kernel[:, middle].sum()) > 0.99
    elif mass_on == "diagonal":
        assert float(torch.diagonal(kernel).sum()) > 0.5 and float(torch.fliplr(kernel).diagonal().sum()) < 0.2
    else:
        assert torch.allclose(kernel, kernel.T, atol=1e-6) and torch.allclose(kernel, torch.flipud(kernel), atol=1e-6)


def test_blur_augmentation_softens_edges_of_about_its_share_of_the_crops(monkeypatch):
    """A sharp black square on white: 'photo' (no face zoom) keeps its edges steep on every crop; 'blur' softens them
    on about BLUR_SHARE of the crops, as a moving phone or a missed focus does."""
    import torch

    from vision.twostage import fastcls

    monkeypatch.setattr(fastcls, "FACE_ZOOM_SHARE", 0.0)
    crops = torch.ones(400, 3, 64, 64)
    crops[:, :, 20:44, 20:44] = 0.0

    def soft_share(name: str) -> float:  # crops whose steepest step is under 0.8 of their whole contrast
        out = fastcls.AUGMENTATIONS[name](crops.clone(), torch.Generator().manual_seed(4)).mean(dim=1)
        steepest = torch.maximum((out[:, :, 1:] - out[:, :, :-1]).abs().amax(dim=(1, 2)),
                                 (out[:, 1:] - out[:, :-1]).abs().amax(dim=(1, 2)))
        return float((steepest < 0.8 * (out.amax(dim=(1, 2)) - out.amin(dim=(1, 2)))).float().mean())

    assert soft_share("photo") < 0.01
    assert abs(soft_share("blur") - fastcls.BLUR_SHARE) < 0.05


def test_blur_dim_augmentation_darkens_about_its_share_of_the_crops_with_sensor_noise(monkeypatch):
    """A flat grey crop stays flat under 'photo' and 'blur' (light and colour jitter move a whole channel at once);
    'blur_dim' darkens about LOW_LIGHT_SHARE of the crops and adds noise to each of their pixels, as a dim room's
    photo does."""
    import torch

    from vision.twostage import fastcls

    monkeypatch.setattr(fastcls, "FACE_ZOOM_SHARE", 0.0)
    crops = torch.full((400, 3, 32, 32), 0.5)

    def noisy(name: str):
        out = fastcls.AUGMENTATIONS[name](crops.clone(), torch.Generator().manual_seed(6))
        return out.std(dim=(2, 3)).amax(dim=1) > 0.002, out.mean(dim=(1, 2, 3))

    assert not noisy("photo")[0].any() and not noisy("blur")[0].any()
    dimmed, brightness = noisy("blur_dim")
    assert abs(float(dimmed.float().mean()) - fastcls.LOW_LIGHT_SHARE) < 0.05
    assert float(brightness[dimmed].mean()) < float(brightness[~dimmed].mean()) - 0.15


def test_an_unknown_augmentation_is_refused(tmp_path):
    from vision.twostage.fastcls import train_fast_classifier

    with pytest.raises(ValueError, match="augmentation 'flip' is not one of photo, style, warp, blur, blur_dim"):
        train_fast_classifier(tmp_path, tmp_path / "run", minutes=1, augmentation="flip")


@pytest.mark.parametrize(
    ("planned", "steps_per_epoch", "max_epochs", "expected"),
    [
        (None, 50, 4, 200),  # before the step time is measured: the epochs decide
        (10_000, 50, 4, 200),  # a generous wall-time budget: the epochs stop training first
        (120, 50, 4, 120),  # a tight budget stops it first
    ],
)
def test_the_learning_rate_schedule_ends_with_whichever_limit_comes_first(planned, steps_per_epoch, max_epochs, expected):
    from vision.twostage.fastcls import cosine_lr, schedule_steps

    total = schedule_steps(planned, steps_per_epoch, max_epochs)
    assert total == expected
    assert cosine_lr(0.002, 0, total) < 0.0001 < 0.0015 < cosine_lr(0.002, 29, total)  # warm-up
    assert cosine_lr(0.002, total, total) == pytest.approx(0.002 * 0.02)


def test_a_gpu_is_asked_for_by_name_and_refused_clearly_without_one(tmp_path, monkeypatch):
    import torch

    from vision.twostage.fastcls import train_fast_classifier

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ValueError, match="device 'cuda' asked for, but torch sees no CUDA GPU here"):
        train_fast_classifier(tmp_path, tmp_path / "run", minutes=1, device="cuda")


@pytest.mark.parametrize(("scale", "parameters"), [("n", (1.5e6, 1.7e6)), ("s", (5.3e6, 5.7e6))])
def test_the_classifier_comes_in_two_sizes_with_the_36_classes(scale, parameters):
    import torch

    from vision.twostage.fastcls import build_model

    model, transferred = build_model(None, scale)
    assert transferred == 0
    assert parameters[0] < sum(p.numel() for p in model.parameters()) < parameters[1]
    model.eval()
    with torch.inference_mode():
        probs = model(torch.zeros(2, 3, 64, 64))[0]  # eval mode: (probabilities, logits)
    assert probs.shape == (2, len(CLASS_NAMES))


def test_an_unknown_classifier_size_is_refused():
    from vision.twostage.fastcls import build_model

    with pytest.raises(ValueError, match="classifier scale 'x' is not one of n, s"):
        build_model(None, "x")



@pytest.mark.slow
@pytest.mark.timeout(400)
def test_an_exported_ensemble_of_one_classifier_twice_reads_as_that_classifier(boards, tmp_path):
    """`train-two-stage export --extra-classifier` writes classifier_2/ and meta classifier.ensemble with its gate;
    averaging a classifier with itself changes nothing; exporting again without it removes classifier_2/."""
    from vision.detector import TileDetector
    from vision.twostage.export import export_two_stage

    if not (SHIPPED / "classifier" / "model.pt").is_file():
        pytest.skip("the shipped model's checkpoints are not in this checkout")
    settings = dict(detector_imgsz=480, classifier_imgsz=64, version="t", train_command="test", data="shipped")
    detector, classifier = SHIPPED / "detector" / "model.pt", SHIPPED / "classifier" / "model.pt"
    single = export_two_stage(detector, classifier, tmp_path / "single", **settings)
    double = export_two_stage(detector, classifier, tmp_path / "double", extra_classifiers=[classifier], **settings)
    meta = json.loads((double / "meta.json").read_text())
    written = meta["classifier"]
    assert written["ensemble"] == ["classifier_2"] and written["ensemble_below"] == ENSEMBLE_BELOW
    assert {stage: meta[stage]["openvino_precision"] for stage in ("detector", "classifier")} == OPENVINO_PRECISION
    assert (double / "classifier_2" / "model.onnx").is_file() and (double / "classifier_2" / "model_openvino").is_dir()
    image = np.asarray(Image.open(boards / "images/val/v0.png"))
    one, two = (TileDetector(d, backend="onnxruntime", conf=0.0).detect(image) for d in (single, double))
    np.testing.assert_allclose(two.class_probs, one.class_probs, atol=1e-5)
    export_two_stage(detector, classifier, double, **settings)
    written = json.loads((double / "meta.json").read_text())["classifier"]
    assert not (double / "classifier_2").exists() and "ensemble" not in written and "ensemble_below" not in written
