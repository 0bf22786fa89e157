"""Training path (tiny offline run, export, eval), dataset configs, the pretrained conversion, and the metrics."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image, ImageDraw
from typer.testing import CliRunner

from scoring.tiles import CLASS_NAMES
from vision import evaluate as ev
from vision.train import resolve_data_config

runner = CliRunner()


def _draw_split(root: Path, split: str, n: int, rng: np.random.Generator) -> None:
    """n 128x128 images, each with three coloured 'tiles' labelled with a class that follows the colour."""
    (root / "images" / split).mkdir(parents=True)
    (root / "labels" / split).mkdir(parents=True)
    colours = {0: (200, 30, 30), 9: (30, 160, 30), 27: (30, 30, 200)}
    for i in range(n):
        image = Image.new("RGB", (128, 128), (235, 225, 200))
        draw = ImageDraw.Draw(image)
        lines = []
        for j, (cls, colour) in enumerate(colours.items()):
            x, y = 10 + 38 * j, int(rng.integers(10, 70))
            draw.rectangle([x, y, x + 28, y + 40], fill=colour, outline=(0, 0, 0))
            lines.append(f"{cls} {(x + 14) / 128:.5f} {(y + 20) / 128:.5f} {28 / 128:.5f} {40 / 128:.5f}")
        image.save(root / "images" / split / f"{i}.jpg")
        (root / "labels" / split / f"{i}.txt").write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def tiny_dataset(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tiny")
    rng = np.random.default_rng(0)
    _draw_split(root / "data", "train", 8, rng)
    _draw_split(root / "data", "val", 2, rng)
    config = root / "tiny.yaml"
    config.write_text("train: data/images/train\nval: data/images/val\n")  # relative to the config
    return config


def test_resolve_data_config_writes_absolute_paths_and_36_names(tiny_dataset, tmp_path):
    import yaml

    resolved = yaml.safe_load(resolve_data_config(tiny_dataset, tmp_path).read_text())
    assert resolved["train"] == [str((tiny_dataset.parent / "data/images/train").resolve())]
    assert list(resolved["names"].values()) == list(CLASS_NAMES)


@pytest.mark.parametrize(
    "content, error",
    [
        ("train: missing/images/train\nval: missing/images/val\n", FileNotFoundError),
        ("val: x\n", ValueError),
        ('train: "{shared}/datasets/cmd/images/train"\nval: x\n', FileNotFoundError),
        ("train: [a\nval: b\n", ValueError),  # not YAML: named, not yaml's multi-line report
    ],
)
def test_bad_dataset_configs_raise_clearly(tmp_path, monkeypatch, content, error):
    monkeypatch.setenv("MJSNAP_SHARED", str(tmp_path / "no-shared-here"))
    config = tmp_path / "bad.yaml"
    config.write_text(content)
    with pytest.raises(error):
        resolve_data_config(config, tmp_path)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_tiny_training_run_export_and_eval(tiny_dataset, tmp_path):
    from mjsnap.cli import app

    result = runner.invoke(
        app,
        ["train", "--data", str(tiny_dataset), "--epochs", "1", "--imgsz", "64", "--batch", "4",
         "--project", str(tmp_path / "runs"), "--name", "tiny"],
    )
    assert result.exit_code == 0, result.output
    run = tmp_path / "runs" / "tiny"
    assert (run / "weights" / "last.pt").is_file() and (run / "weights" / "best.pt").is_file()
    from vision.train import read_checkpoint

    assert read_checkpoint(run / "weights" / "last_good.pt")["epoch"] == 0  # kept after the epoch's save
    progress = [json.loads(line) for line in (run / "progress.jsonl").read_text().splitlines()]
    assert [(p["epoch"], p["epochs"], p["final_best"]) for p in progress] == [(1, 1, False), (1, 1, True)]
    assert json.loads((run / "mjsnap_settings.json").read_text())["command"].startswith("mjsnap train --data")
    assert yaml.safe_load((run / "args.yaml").read_text())["warmup_bias_lr"] == 0.1  # from scratch: ultralytics' own

    model_dir = tmp_path / "shipped"
    result = runner.invoke(
        app,
        ["export", "--weights", str(run / "weights" / "best.pt"), "--out", str(model_dir), "--imgsz", "64",
         "--version", "tiny-0", "--train-command", "mjsnap train ...", "--data", "tiny"],
    )
    assert result.exit_code == 0, result.output
    meta = json.loads((model_dir / "meta.json").read_text())
    assert meta["classes"] == list(CLASS_NAMES) and meta["imgsz"] == 64 and meta["version"] == "tiny-0"
    assert (model_dir / "model.onnx").is_file() and list((model_dir / "model_openvino").glob("*.xml"))

    report_path = tmp_path / "report.json"
    result = runner.invoke(
        app, ["eval", "--model", str(model_dir), "--data", str(tiny_dataset), "--backend", "onnxruntime",
              "--json-out", str(report_path)],
    )
    assert result.exit_code == 0, result.output
    report = ev.EvalReport.model_validate_json(report_path.read_text())
    assert report.images == 2 and report.true_tiles == 6
    assert 0.0 <= report.map50 <= 1.0 and 0.0 <= report.tile_accuracy <= 1.0
    assert report.name_errors >= 0 and 0.0 <= report.hands_read_right <= 1.0

    # an eval report from before the name figures were counted still goes into the model's metrics
    older = {k: v for k, v in json.loads(report_path.read_text()).items() if k not in ("name_errors", "hands_read_right")}
    (tmp_path / "older.json").write_text(json.dumps(older))
    for name, with_names in (("report.json", True), ("older.json", False)):
        result = runner.invoke(
            app, ["export", "--weights", str(run / "weights" / "best.pt"), "--out", str(tmp_path / f"model_{name}"), "--imgsz",
                  "64", "--version", "tiny-0", "--train-command", "t", "--data", "tiny", "--metrics-json",
                  str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        (recorded,) = json.loads((tmp_path / f"model_{name}" / "meta.json").read_text())["metrics"].values()
        assert recorded["images"] == 2 and ("name_errors" in recorded) is with_names


def test_train_without_data_or_resume_is_a_usage_error():
    from mjsnap.cli import app

    result = runner.invoke(app, ["train", "--epochs", "1"])
    assert result.exit_code != 0 and "--data" in result.output


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("nonexist", "--data {tmp}/nonexist: no such dataset folder or datasets/*.yaml config"),
        ("not_a_dataset", "--data {tmp}/not_a_dataset is not a dataset folder: it has no data.yaml"),
        ("no_photos", "{tmp}/no_photos/data.yaml: no photos in its train folders: label some photos first"),
        ("no_photos/data.yaml", "{tmp}/no_photos/data.yaml: no photos in its train folders"),
        ("no_val", "{tmp}/no_val/data.yaml: no photos in its val folders: run `mjsnap label split {tmp}/no_val`"),
    ],
)
def test_a_fine_tune_that_cannot_start_says_why_and_leaves_no_run_behind(tmp_path, data, message):
    """--data takes a dataset folder as `compare` does; a wrong or empty one is one line and exit 2, and no run
    folder is left that would make the next try with the same --name be refused."""
    from mjsnap.cli import app
    from mjsnap.labels import LabelBox, LabelDataset
    from mjsnap.paths import MODELS_DIR

    (tmp_path / "not_a_dataset").mkdir()
    LabelDataset(tmp_path / "no_photos").ensure()
    LabelDataset(tmp_path / "no_val").save("p1", Image.new("RGB", (64, 64)), [LabelBox(0, (1, 1, 20, 30))])
    result = runner.invoke(app, ["train", "--data", str(tmp_path / data), "--base", str(MODELS_DIR / "current"),
                                 "--project", str(tmp_path / "runs"), "--name", "club"])
    assert result.exit_code == 2, result.output
    assert f"error: {message.format(tmp=tmp_path)}" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "runs" / "club").exists()


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("train: photos/train\nval: gone/val\n", "--data {tmp}/club.yaml: dataset folder {tmp}/gone/val does not exist"),
        ("train: photos/train\n", "--data {tmp}/club.yaml: {tmp}/club.yaml: a dataset config needs 'train' and 'val'"),
        ("train: [photos/train\nval: gone/val\n",
         "--data {tmp}/club.yaml: {tmp}/club.yaml: not a dataset config: it does not read as YAML (YAML error at line 2)"),
    ],
)
def test_training_from_scratch_on_a_config_it_cannot_use_says_why_before_its_run_starts(tmp_path, config, message):
    from mjsnap.cli import app

    (tmp_path / "photos" / "train").mkdir(parents=True)
    (tmp_path / "club.yaml").write_text(config)
    result = runner.invoke(app, ["train", "--data", str(tmp_path / "club.yaml"), "--epochs", "1",
                                 "--project", str(tmp_path / "runs"), "--name", "club"])
    assert result.exit_code == 2, result.output
    assert f"error: {message.format(tmp=tmp_path)}" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "runs" / "club").exists()


@pytest.mark.parametrize("resume", ["runs/club", "runs/club/weights/last.pt"])
def test_resuming_a_run_that_is_not_there_is_a_usage_error(tmp_path, resume):
    from mjsnap.cli import app

    result = runner.invoke(app, ["train", "--resume", str(tmp_path / resume)])
    assert result.exit_code == 2, result.output
    assert f"error: --resume {tmp_path / resume}: no such run" in result.output


@pytest.mark.parametrize(
    ("model", "data", "message"),
    [
        ("model", "nonexist", "{tmp}/nonexist: no such dataset folder"),
        ("nonexist.pt", "dataset", "{tmp}/nonexist.pt does not exist"),
        ("model", "not_a_dataset", "{tmp}/not_a_dataset is not a dataset folder"),
    ],
)
def test_eval_names_a_wrong_model_or_data_path(tmp_path, model, data, message):
    from mjsnap.cli import app
    from mjsnap.labels import LabelBox, LabelDataset

    (tmp_path / "model").mkdir()
    (tmp_path / "not_a_dataset").mkdir()
    LabelDataset(tmp_path / "dataset").save("p1", Image.new("RGB", (64, 64)), [LabelBox(0, (1, 1, 20, 30))], "val")
    result = runner.invoke(app, ["eval", "--model", str(tmp_path / model), "--data", str(tmp_path / data)])
    assert result.exit_code == 2, result.output
    assert f"error: {message.format(tmp=tmp_path)}" in result.output and "Traceback" not in result.output


SHIPPED = Path(__file__).resolve().parent.parent / "models" / "current"


def _error_lines(result) -> list[str]:
    """What a refusal says on stderr. (Exit status 2 is a refusal, an uncaught exception's is 1; ultralytics' logger,
    bound to the stream of the runner that imported it, may add its own complaints, which are not looked at.)"""
    return [line for line in result.stderr.splitlines() if line.startswith(("error: ", "mjsnap "))]


@pytest.mark.parametrize(
    ("weights", "options", "message"),
    [
        ("{shipped}/detector/model.pt", [],
         "--weights {shipped}/detector/model.pt: the checkpoint's classes ['item']... are not the 36 names of "
         "classes.txt; `mjsnap train-two-stage export` exports a one-class tile detector with its crop classifier"),
        ("{shipped}/classifier/model.pt", [],
         "--weights {shipped}/classifier/model.pt: the checkpoint is a classify network, not a tile detector; "
         "`mjsnap train-two-stage export` exports a one-class tile detector with its crop classifier"),
        ("{tmp}/notes.pt", [], "--weights {tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
        ("{tmp}/gone.pt", [], "--weights {tmp}/gone.pt does not exist"),
        ("{shipped}/detector/model.pt", ["--out", "{tmp}/notes.pt"], "--out: {tmp}/notes.pt is a file, not a folder"),
        ("{tmp}/notes.pt", ["--imgsz", "100"], "--imgsz 100: the image size must be a positive multiple of 32"),
        ("{tmp}/notes.pt", ["--metrics-json", "{tmp}/notes.pt"],
         "--metrics-json {tmp}/notes.pt is not an eval report (mjsnap eval --json-out)"),
        ("{tmp}/notes.pt", ["--metrics-json", "{tmp}/gone.json"], "--metrics-json {tmp}/gone.json: No such file or directory"),
    ],
)
def test_export_refuses_what_it_cannot_ship_and_writes_nothing(tmp_path, weights, options, message):
    """A network of the two-stage design, a file that is no checkpoint, an --out, --imgsz or eval report it cannot
    use: one line and exit 2, not a traceback, and no model directory (the default --out is models/current)."""
    from mjsnap.cli import app

    (tmp_path / "notes.pt").write_text("not weights\n")
    places = {"tmp": tmp_path, "shipped": SHIPPED}
    result = runner.invoke(app, ["export", "--weights", weights.format(**places), "--out", str(tmp_path / "model"),
                                 *[option.format(**places) for option in options],
                                 "--version", "t", "--train-command", "mjsnap train", "--data", "club"])
    assert result.exit_code == 2, result.output
    assert _error_lines(result) == [f"error: {message.format(**places)}"]
    assert not (tmp_path / "model").exists() and (tmp_path / "notes.pt").read_text() == "not weights\n"


@pytest.mark.parametrize(
    ("model", "imgsz", "message"),
    [
        ("{shipped}/detector/model.pt", "480", "{shipped}/detector/model.pt: the checkpoint's classes ['item']... are "
         "not the 36 names of classes.txt; `mjsnap train-two-stage export` exports a one-class tile detector with its "
         "crop classifier"),
        ("{shipped}/classifier/model.pt", "480", "{shipped}/classifier/model.pt: the checkpoint is a classify network, "
         "not a tile detector; `mjsnap train-two-stage export` exports a one-class tile detector with its crop "
         "classifier"),
        ("{tmp}/notes.pt", "480", "{tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
        ("{tmp}/notes.pt", "100", "--imgsz 100: the image size must be a positive multiple of 32"),
        ("{tmp}/model", "480", "{tmp}/model/meta.json is not JSON: Expecting ',' delimiter: line 1 column 14 (char 13)"),
        ("{tmp}/listed", "480", "{tmp}/listed/meta.json: a model's meta.json is a JSON object, not list"),
    ],
)
def test_eval_refuses_a_model_of_another_design_or_none(tmp_path, model, imgsz, message):
    """eval takes a one-stage checkpoint or a model directory: a network of the two-stage design, a file that is no
    checkpoint or a damaged meta.json is one line and exit 2 (it was a traceback), and no report is written."""
    from mjsnap.cli import app
    from mjsnap.labels import LabelBox, LabelDataset

    (tmp_path / "notes.pt").write_text("not weights\n")
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "meta.json").write_text('{"version": 1')
    (tmp_path / "listed").mkdir()
    (tmp_path / "listed" / "meta.json").write_text("[]")
    LabelDataset(tmp_path / "dataset").save("p1", Image.new("RGB", (64, 64)), [LabelBox(0, (1, 1, 20, 30))], "val")
    places = {"tmp": tmp_path, "shipped": SHIPPED}
    result = runner.invoke(app, ["eval", "--model", model.format(**places), "--data", str(tmp_path / "dataset"),
                                 "--imgsz", imgsz, "--json-out", str(tmp_path / "report.json")])
    assert result.exit_code == 2, result.output
    assert _error_lines(result) == [f"error: {message.format(**places)}"]
    assert not (tmp_path / "report.json").exists()


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (["train", "--resume", "{tmp}/notes.pt"], "error: --resume {tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
        (["train", "--data", "{tmp}/club", "--base", "{tmp}/notes.pt"],
         "error: {tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
        (["train", "--data", "{tmp}/club", "--base", "{shipped}/detector/model.pt"],
         "error: {shipped}/detector/model.pt: the checkpoint's classes ['item']... are not the 36 names of classes.txt; "
         "`mjsnap train-two-stage export` exports a one-class tile detector with its crop classifier"),
        (["train", "--data", "{tmp}/club", "--pretrained", "{tmp}/notes.pt"],
         "Invalid value for --pretrained: {tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
        (["train", "--data", "{tmp}/club", "--project", "{tmp}/notes.pt"], "error: --project: {tmp}/notes.pt is a file, not a folder"),
        (["train-two-stage", "detector", "--resume", "{tmp}/notes.pt"],
         "mjsnap train-two-stage detector: --resume {tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
        (["train-two-stage", "detector", "--resume", "{tmp}/gone.pt"],
         "mjsnap train-two-stage detector: --resume {tmp}/gone.pt does not exist (expected RUN/weights/last.pt)"),
        (["train-two-stage", "classifier", "--resume", "{tmp}/notes.pt"],
         "mjsnap train-two-stage classifier: --resume {tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
    ],
)
def test_a_start_that_is_no_checkpoint_is_refused_before_a_run_starts(tmp_path, command, message):
    """--resume, --base and --pretrained naming a file that is no checkpoint (or --base a network of the two-stage
    design) say so in one line, exit 2, and leave no run folder; ultralytics failed on them with a traceback."""
    from mjsnap.cli import app
    from mjsnap.labels import LabelBox, LabelDataset

    (tmp_path / "notes.pt").write_text("not weights\n")
    for split in ("train", "val"):
        LabelDataset(tmp_path / "club").save(f"p-{split}", Image.new("RGB", (64, 64)), [LabelBox(0, (1, 1, 20, 30))], split)
    places = {"tmp": tmp_path, "shipped": SHIPPED}
    command = [part.format(**places) for part in command]
    runs = ["--project", str(tmp_path / "runs"), "--name", "club"] if command[0] == "train" else []
    result = runner.invoke(app, [command[0], *runs, *command[1:]],  # a --project in the case comes last and counts
                           env={"COLUMNS": "300"})  # typer's usage-error box, unwrapped
    assert result.exit_code == 2, result.output
    assert message.format(**places) in result.stderr
    assert not (tmp_path / "runs").exists()


def test_blur_is_asked_of_ultralytics_only_when_a_share_is_given(tmp_path):
    from vision.train import TrainSettings

    assert "augmentations" not in TrainSettings(data=tmp_path / "d.yaml", epochs=1).ultralytics_args(tmp_path / "d.yaml")
    (blur,) = TrainSettings(data=tmp_path / "d.yaml", epochs=1, blur=0.35).ultralytics_args(tmp_path / "d.yaml")["augmentations"]
    assert blur.p == 0.35


def test_blur_augmentations_blur_their_share_half_round_half_smeared_and_leave_each_tile_where_it_was():
    """On a photo of one bright dot: a soft focus spreads it round, a smear along a line; neither moves its centre
    (the tile's box stays where the label puts it: a smear shifted to one side would teach boxes off the tile)."""
    import albumentations as A

    from vision.train import blur_augmentations

    photo = np.zeros((41, 41, 3), np.uint8)
    photo[20, 20] = 255
    blur = A.Compose(blur_augmentations(0.35), seed=0)
    kinds = {"as it was": 0, "round": 0, "smeared": 0}
    ys, xs = np.mgrid[:41, :41]
    for _ in range(400):
        light = blur(image=photo)["image"][..., 0].astype(float)
        total = light.sum()
        centre = np.array([(light * ys).sum(), (light * xs).sum()]) / total
        assert np.abs(centre - 20).max() < 0.15
        if light[20, 20] == 255:
            kinds["as it was"] += 1
            continue
        spread = np.cov(np.stack([ys.ravel(), xs.ravel()]), aweights=light.ravel())
        low, high = np.linalg.eigvalsh(spread)
        kinds["round" if high < 1.5 * low else "smeared"] += 1
    assert 0.28 < 1 - kinds["as it was"] / 400 < 0.42
    assert 0.35 < kinds["round"] / (kinds["round"] + kinds["smeared"]) < 0.65


class _RecordingYOLO:
    """Stands in for ultralytics.YOLO: records what train() is given instead of training."""

    runs: list[dict] = []

    def __init__(self, model: str):
        pass

    def add_callback(self, event, callback) -> None:
        pass

    def train(self, **args) -> None:
        self.runs.append(args)


@pytest.mark.parametrize("runs", [("club1", "club2"), ("club1", "club1-again")])
def test_each_run_keeps_its_own_resolved_data_config(tmp_path, monkeypatch, runs):
    """`--resume` trains on the data path kept in last.pt: two datasets (each a DATASET/data.yaml) must not resolve
    into one shared file, or resuming the first would train on the second's photos."""
    pytest.importorskip("ultralytics")
    import ultralytics

    from mjsnap.labels import LabelDataset
    from vision.train import TrainSettings, train

    monkeypatch.setattr(ultralytics, "YOLO", _RecordingYOLO)
    monkeypatch.setattr(_RecordingYOLO, "runs", [])
    for name in runs:
        LabelDataset(tmp_path / name).ensure()
        train(TrainSettings(data=tmp_path / name / "data.yaml", epochs=1, name=name, project=tmp_path / "runs"))
    for name, args in zip(runs, _RecordingYOLO.runs):
        assert Path(args["data"]).parent == (tmp_path / "runs" / name).resolve()
        assert yaml.safe_load(Path(args["data"]).read_text())["train"] == [str((tmp_path / name / "images" / "train").resolve())]


def test_a_last_pt_cut_off_by_a_kill_resumes_from_the_copy_kept_before(tiny_model, tmp_path, monkeypatch, capsys):
    """ultralytics writes last.pt in place; killed while it wrote, the run resumes from last_good.pt."""
    import ultralytics

    from vision.train import resume

    weights = tmp_path / "run" / "weights"
    weights.mkdir(parents=True)
    good = (tiny_model / "model.pt").read_bytes()
    (weights / "last_good.pt").write_bytes(good)
    (weights / "last.pt").write_bytes(good[: len(good) // 2])
    resumed = []

    class FakeYOLO:
        def __init__(self, path):
            resumed.append(Path(path).read_bytes())

        def add_callback(self, event, callback):
            pass

        def train(self, **kwargs):
            assert kwargs == {"resume": True}

    monkeypatch.setattr(ultralytics, "YOLO", FakeYOLO)
    assert resume(weights / "last.pt") == tmp_path / "run"
    assert resumed == [good] and (weights / "last.pt").read_bytes() == good
    assert "is cut off (the run was stopped while saving it): resuming from" in capsys.readouterr().err

    (weights / "last.pt").write_bytes(good[:100])
    (weights / "last_good.pt").unlink()  # nothing to fall back on: the error it was
    with pytest.raises(ValueError, match="last.pt is not an ultralytics checkpoint"):
        resume(weights / "last.pt")


def test_resume_needs_an_existing_checkpoint(tmp_path):
    from vision.train import resume

    with pytest.raises(FileNotFoundError, match="last.pt"):
        resume(tmp_path / "weights" / "last.pt")


def test_pretrained_conversion_reproduces_mahjong_detector():
    pytest.importorskip("mahjong_detector")
    from vision.pretrained import build_source_model, verify_reproduction

    rng = np.random.default_rng(1)
    image = Image.fromarray(rng.integers(0, 255, (300, 400, 3), dtype=np.uint8))
    assert verify_reproduction(build_source_model(), image) < 1e-2


# --- metrics ---------------------------------------------------------------------------------------------------

TRUTH = ev.LabelledImage(
    Path("x.jpg"), np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], dtype=float), np.array([0, 1, 2])
)


def _predict(boxes, classes, conf=None):
    boxes = np.array(boxes, dtype=float).reshape(-1, 4)
    conf = np.ones(len(boxes)) if conf is None else np.array(conf, dtype=float)
    return lambda _path: ev.Prediction(boxes, conf, np.array(classes, dtype=np.int64))


@pytest.mark.parametrize(
    "boxes, classes, conf, expected",
    [
        # perfect
        (TRUTH.xyxy, [0, 1, 2], None,
         {"tile_accuracy": 1.0, "tile_errors": 0, "exact_match": 1.0, "name_errors": 0, "hands_read_right": 1.0}),
        # one tile read as another kind
        (TRUTH.xyxy, [0, 5, 2], None,
         {"tile_accuracy": 0.6667, "misclassified": 1, "exact_match": 0.0, "name_errors": 1, "hands_read_right": 0.0}),
        # one tile missed and one extra box elsewhere, which carries the missed tile's name: the names are right
        ([[0, 0, 10, 10], [20, 0, 30, 10], [80, 80, 90, 90]], [0, 1, 2], None,
         {"tile_accuracy": 0.6667, "missed": 1, "extra": 1, "tile_errors": 2, "name_errors": 0, "hands_read_right": 1.0}),
        # a low-confidence box is below the operating threshold: a miss, not an extra, and a name short
        (TRUTH.xyxy, [0, 1, 2], [0.9, 0.9, 0.1], {"missed": 1, "extra": 0, "tile_accuracy": 0.6667, "name_errors": 1}),
        # a box that overlaps too little (IoU < 0.5) does not count
        ([[0, 0, 10, 10], [20, 0, 30, 10], [46, 0, 56, 10]], [0, 1, 2], None, {"missed": 1, "extra": 1}),
        # an out-of-focus tile boxed at twice its size: no tile error is a name error
        ([[0, 0, 10, 10], [20, 0, 30, 10], [35, -5, 55, 15]], [0, 1, 2], None,
         {"missed": 1, "extra": 1, "exact_match": 0.0, "name_errors": 0, "hands_read_right": 1.0}),
        # an extra tile read besides the three: one name too many
        ([*TRUTH.xyxy.tolist(), [80, 80, 90, 90]], [0, 1, 2, 7], None, {"extra": 1, "name_errors": 1}),
    ],
)
def test_tile_metrics(boxes, classes, conf, expected):
    report = ev.evaluate(_predict(boxes, classes, conf), [TRUTH], 0.25, "m", "d")
    for key, value in expected.items():
        assert getattr(report, key) == pytest.approx(value, abs=1e-4), key


@pytest.mark.parametrize(
    "truth, read, changes",
    [
        ([0, 1, 2], [0, 1, 2], 0),
        ([0, 1, 2], [2, 0, 1], 0),  # order does not matter
        ([0, 1, 2], [0, 1], 1),  # one name dropped
        ([0, 1], [0, 1, 5], 1),  # one added
        ([0, 0, 1], [0, 1, 1], 1),  # one replaced
        ([0, 1], [2, 3, 4], 3),  # two replaced and one added
        ([], [], 0),
    ],
)
def test_names_apart_counts_the_fewest_one_tile_changes(truth, read, changes):
    assert ev.names_apart(np.array(truth, np.int64), np.array(read, np.int64)) == changes


def test_confusions_and_per_class_recall():
    report = ev.evaluate(_predict(TRUTH.xyxy, [0, 5, 2]), [TRUTH], 0.25, "m", "d")
    assert [(c.true, c.predicted, c.count) for c in report.top_confusions] == [("2m", "6m", 1)]
    assert {c.name: c.recall for c in report.per_class} == {"1m": 1.0, "2m": 0.0, "3m": 1.0}


def test_map_is_high_for_perfect_and_low_for_wrong_classes():
    perfect = ev.evaluate(_predict(TRUTH.xyxy, [0, 1, 2]), [TRUTH], 0.25, "m", "d")
    wrong = ev.evaluate(_predict(TRUTH.xyxy, [3, 4, 5]), [TRUTH], 0.25, "m", "d")
    assert perfect.map50 > 0.99 and perfect.map50_95 > 0.99
    assert wrong.map50 == 0.0


def test_label_path_follows_ultralytics_layout():
    assert ev.label_path_for(Path("/d/images/val/a.jpg")) == Path("/d/labels/val/a.txt")


class _Converter:
    """A model whose export fails as ultralytics' does when OpenVINO's C++ converter is interrupted, or otherwise."""

    def __init__(self, error: str):
        self.error = error

    def export(self, **kwargs):
        raise RuntimeError(self.error)


@pytest.mark.parametrize(("error", "raised"), [
    ("Check 'error_message.empty()' failed at src/frontends/pytorch/src/frontend.cpp:63:\n"
     "FrontEnd API failed with GeneralFailure:\nKeyboardInterrupt: <EMPTY MESSAGE>", KeyboardInterrupt),
    ("Exception from src/core/src/runtime/itensor.cpp: unsupported op", RuntimeError),
])
def test_an_interrupted_conversion_stops_as_ctrl_c_does(error, raised):
    from vision.export import exported

    with pytest.raises(raised) as caught:
        exported(_Converter(error), format="openvino")
    assert caught.type is raised
