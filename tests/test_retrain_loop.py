"""The whole retraining loop on a tiny generated dataset, with real models (needs the train extra):
labels saved -> session split -> `mjsnap train --base` -> `mjsnap compare` -> `mjsnap promote` (refuses the worse
model, accepts the better one, whichever the measurement says it is) -> `mjsnap rollback`; for a one-stage base and
for a two-stage base (design (b): tile detector + crop classifier)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from dataset_fixtures import photo
from mjsnap.labels import LabelBox, LabelDataset
from mjsnap.paths import MODELS_DIR
from scoring.tiles import CLASS_NAMES

pytest.importorskip("ultralytics")
runner = CliRunner()
IMGSZ = 64
CROP = 32
SHIPPED = MODELS_DIR / "current"


def invoke(*args, expected=(0, 1)):
    from mjsnap.cli import app

    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code in expected, result.output + repr(result.exception)
    return result


@pytest.fixture
def dataset(tmp_path) -> Path:
    """Photos labelled the way the labelling page saves them, then split by session."""
    dataset = LabelDataset(tmp_path / "ds")
    for seed in range(12):
        image, boxes = photo(seed)
        dataset.save(f"p{seed}", image, [LabelBox(CLASS_NAMES.index(n), b) for n, b in boxes])
    assert invoke("label", "split", dataset.root, "--val-fraction", "0.34").exit_code == 0
    assert len(list((dataset.root / "labels" / "val").glob("*.txt"))) == 4
    return dataset.root


def compare_and_pick_metric(candidate: Path, base: Path, data: Path, tmp_path: Path, via_eval: bool = False) -> tuple[str, bool]:
    """`mjsnap compare` (or `mjsnap eval --against`) on the same validation data (table, per-class recall,
    confusions, plot); returns a metric on which the two models differ and whether the candidate is the better one."""
    models = ("eval", "--model", candidate, "--against", base) if via_eval else ("compare", "--candidate", candidate, "--current", base)
    result = invoke(*models, "--data", data, "--plot", tmp_path / "cmp.png", "--json-out", tmp_path / "cmp.json")
    assert result.exit_code == 0 and "metric" in result.output and "candidate" in result.output
    comparison = json.loads((tmp_path / "cmp.json").read_text())
    assert comparison["images"] == 4 and comparison["current"]["true_tiles"] == 12
    assert (tmp_path / "cmp.png").read_bytes()[:4] == b"\x89PNG"
    rows = {r["metric"]: r for r in comparison["metrics"]}
    metric = next((m for m, r in rows.items() if r["better"] != "same"), None)
    assert metric is not None, f"the base and the fine-tuned model measured the same on every metric: {rows}"
    return metric, rows[metric]["better"] == "candidate"


def check_promotion(candidate: Path, base: Path, data: Path, models: Path, metric: str, candidate_better: bool,
                    tmp_path: Path) -> None:
    """The worse model is refused and the better one accepted, the old one kept; then rolled back.
    ``base`` is ``models``/current, so its weights are identified by their digest taken before the promotion."""
    from vision.registry import read_meta, weights_digest

    base_digest, kept = weights_digest(base), models / "versions" / read_meta(base)["version"]
    result = invoke("promote", candidate, "--data", data, "--metric", metric, "--version", "ft1",
                    "--models-dir", models)
    assert result.exit_code == (0 if candidate_better else 1), result.output
    if candidate_better:
        assert weights_digest(models / "current") != base_digest
        assert weights_digest(kept) == base_digest
        # the old base is now the worse candidate: refused, current unchanged
        result = invoke("promote", kept, "--data", data, "--metric", metric, "--models-dir", models)
        assert result.exit_code == 1 and "NOT promoted" in result.output
        result = invoke("rollback", "--models-dir", models)
        assert result.exit_code == 0 and weights_digest(models / "current") == base_digest
    else:
        assert weights_digest(models / "current") == base_digest
        # with the fine-tuned model current, the (better) base is accepted over it, and rollback undoes that
        other = tmp_path / "models2"
        other.mkdir()
        assert invoke("promote", candidate, "--data", data, "--models-dir", other).exit_code == 0
        # nothing to compare with there: the candidate was measured on --data, as a promotion records it
        assert "map50" in json.loads((other / "current" / "meta.json").read_text())["metrics"][f"{data}:val"]
        trained = weights_digest(other / "current")
        result = invoke("promote", base, "--data", data, "--metric", metric, "--models-dir", other)
        assert result.exit_code == 0 and weights_digest(other / "current") == base_digest
        assert invoke("rollback", "--models-dir", other).exit_code == 0
        assert weights_digest(other / "current") == trained


@pytest.mark.slow
def test_label_finetune_compare_promote_rollback(dataset, tmp_path):
    from detector_model import build_tiny_model

    # The base: an untrained 36-class model directory, standing in for models/current.
    models = tmp_path / "models"
    base = build_tiny_model(models / "current", imgsz=IMGSZ)

    # Fine-tune from the base (its imgsz), 1 epoch.
    result = invoke("train", "--data", dataset / "data.yaml", "--base", base, "--epochs", 1, "--batch", 4,
                    "--project", tmp_path / "runs", "--name", "ft")
    assert result.exit_code == 0
    run = tmp_path / "runs" / "ft"
    settings = json.loads((run / "mjsnap_settings.json").read_text())
    assert settings["model"] == str((base / "model.pt").resolve()) and settings["imgsz"] == IMGSZ
    assert "--base" in settings["command"]
    # a trained model's biases warm up from 0, not from ultralytics' 0.1 (vision.train.FINETUNE_WARMUP_BIAS_LR)
    assert yaml.safe_load((run / "args.yaml").read_text())["warmup_bias_lr"] == 0.0
    assert [json.loads(line)["epoch"] for line in (run / "progress.jsonl").read_text().splitlines()] == [1, 1]
    candidate = run / "weights" / "best.pt"

    metric, candidate_better = compare_and_pick_metric(candidate, base, dataset, tmp_path, via_eval=True)
    check_promotion(candidate, base, dataset, models, metric, candidate_better, tmp_path)


def test_eval_plot_needs_a_model_to_compare_with(tmp_path):
    result = invoke("eval", "--model", tmp_path, "--data", tmp_path, "--plot", tmp_path / "p.png", expected=(2,))
    assert result.exit_code == 2 and "--against" in result.output


def tiny_two_stage_base(out: Path, work: Path) -> Path:
    """An untrained two-stage model directory that reads many confident tiles, all of them 1m: a 1-class detector
    at 64 px with its scores raised, and a 36-class classifier on 32 px crops biased to class 0 (an untrained
    classifier's probabilities, about 1/36, would keep every tile under the operating confidence), averaged with
    itself as a second classifier, as the shipped model averages two (meta classifier.ensemble)."""
    import torch

    from detector_model import calibrated_network, save_network
    from vision.twostage.export import export_two_stage
    from vision.twostage.fastcls import build_model, save_checkpoint

    detector = calibrated_network(IMGSZ, ["tile"])
    classifier, _ = build_model(None)
    with torch.no_grad():
        for branch in detector.model[-1].cv3:
            branch[-1].bias.add_(4.0)
        classifier.model[-1].linear.bias[0] += 20.0
    save_checkpoint(classifier, work / "classifier.pt", 0, {}, CROP)
    base = export_two_stage(save_network(detector, work / "detector.pt", IMGSZ), work / "classifier.pt", out,
                            detector_imgsz=IMGSZ, classifier_imgsz=CROP, version="tiny-two-stage",
                            train_command="test", data="none", extra_classifiers=[work / "classifier.pt"],
                            characters_from=SHIPPED if (SHIPPED / "characters").is_dir() else None)
    meta = json.loads((base / "meta.json").read_text())  # reading settings as the shipped model's, not the export's
    meta["classifier"] |= {"half_turn_below": 0.8, "twins": {"below": 0.9, "likeness": 0.93}}
    meta["light"] = {"red": [0.92, 1.15], "blue": [0.8, 1.05]}
    (base / "meta.json").write_text(json.dumps(meta))
    return base


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_two_stage_finetune_compare_promote_rollback(dataset, tmp_path):
    models = tmp_path / "models"
    base = tiny_two_stage_base(models / "current", tmp_path / "base")

    result = invoke("train", "--data", dataset / "data.yaml", "--base", base, "--epochs", 1, "--batch", 4,
                    "--classifier-epochs", 1, "--project", tmp_path / "runs", "--name", "ft2")
    assert result.exit_code == 0, result.output
    run = tmp_path / "runs" / "ft2"
    candidate = run / "model"
    assert f"candidate model: {candidate}" in result.output.replace("\n", "")
    record = json.loads((run / "finetune.json").read_text())
    assert record["stages"]["detector"]["epochs"] == 1 and record["stages"]["classifier"]["epochs"] == 1
    # the base's second classifier never saw these photos: the candidate reads with the fine-tuned one alone
    assert "are not fine-tuned" in result.output and not (candidate / "classifier_2").exists()
    assert "ensemble" not in json.loads((candidate / "meta.json").read_text())["classifier"]
    # as many generated photos as the dataset's 8 train photos are trained on beside them (--replay's default)
    assert record["replay"] == 8 and record["stages"]["replay"]["photos"] == 8
    assert len(list((run / "replay" / "images" / "train").iterdir())) == 8
    # the dataset shows three of the 36 classes, the replay photos more; any class left is recorded, not refused
    assert len(record["stages"]["crops"]["classes_without_train_crops"]) < len(CLASS_NAMES) - 3
    meta = json.loads((candidate / "meta.json").read_text())
    assert meta["design"] == "two_stage" and meta["detector"]["imgsz"] == IMGSZ and meta["classifier"]["imgsz"] == CROP
    assert "--base" in meta["train_command"]
    # the character recognizer is not trained: the base's is carried over with its settings
    base_meta = json.loads((base / "meta.json").read_text())
    assert meta.get("characters") == base_meta.get("characters")
    # ...and so are the reading settings that hold for any networks: the candidate reads as the base does
    assert {key: meta["classifier"][key] for key in ("half_turn_below", "twins")} == \
        {key: base_meta["classifier"][key] for key in ("half_turn_below", "twins")}
    assert meta["light"] == base_meta["light"]
    assert (candidate / "characters" / "model.onnx").is_file() == (base / "characters" / "model.onnx").is_file()
    detector_settings = json.loads((run / "detector" / "mjsnap_settings.json").read_text())
    assert detector_settings["pretrained"] == str((base / "detector" / "model.pt").resolve())
    assert yaml.safe_load((run / "detector" / "args.yaml").read_text())["warmup_bias_lr"] == 0.0

    # the same run again is refused (nothing is overwritten); --resume RUN finds every stage done
    again = invoke("train", "--data", dataset / "data.yaml", "--base", base, "--project", tmp_path / "runs",
                   "--name", "ft2", expected=(2,))
    assert "--resume" in again.output
    exported = (candidate / "meta.json").read_text()
    assert invoke("train", "--resume", run).exit_code == 0 and (candidate / "meta.json").read_text() == exported

    metric, candidate_better = compare_and_pick_metric(candidate, base, dataset, tmp_path)
    check_promotion(candidate, base, dataset, models, metric, candidate_better, tmp_path)


def test_replay_photos_are_trained_on_beside_the_data(dataset, tmp_path):
    """`--replay N`: N generated photos (every tile labelled, face-down ones too) join the train folders, the val
    folders stay the club's own, and the crops cut from them cover classes the club's photos never show."""
    from vision.twostage.finetune import cut_crops, replay_data

    data = replay_data(dataset / "data.yaml", tmp_path / "run", 2, seed=0)
    config = yaml.safe_load(data.read_text())
    replay = tmp_path / "run" / "replay"
    assert config["train"] == [str(dataset / "images" / "train"), str(replay.resolve() / "images" / "train")]
    assert config["val"] == [str(dataset / "images" / "val")]
    assert config["names"] == dict(enumerate(CLASS_NAMES))
    photos = sorted((replay / "images" / "train").iterdir())
    assert len(photos) == 2 and all((replay / "labels" / "train" / f"{p.stem}.txt").stat().st_size for p in photos)
    assert not (tmp_path / "run" / "replay.partial").exists()

    counts = cut_crops(data, tmp_path / "crops", CROP)
    with_crops = [name for name, count in counts["train"].items() if count]
    assert len(with_crops) > 3  # the dataset's photos show three classes


def test_replay_needs_a_two_stage_base(dataset, tmp_path):
    from detector_model import build_tiny_model

    base = build_tiny_model(tmp_path / "one_stage", imgsz=IMGSZ)
    result = invoke("train", "--data", dataset / "data.yaml", "--base", base, "--replay", 2,
                    "--project", tmp_path / "runs", expected=(2,))
    assert "--replay applies to a two-stage base only" in result.output
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
