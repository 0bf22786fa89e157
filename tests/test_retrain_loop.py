"""The whole retraining loop on a tiny generated dataset, with real models (needs the train extra):
labels saved -> session split -> `mjsnap train --base` -> `mjsnap compare` -> `mjsnap promote` (refuses the worse
model, accepts the better one, whichever the measurement says it is) -> `mjsnap rollback`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataset_fixtures import photo
from mjsnap.labels import LabelBox, LabelDataset
from scoring.tiles import CLASS_NAMES

pytest.importorskip("ultralytics")
runner = CliRunner()
IMGSZ = 64


def invoke(*args) -> str:
    from mjsnap.cli import app

    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.output + repr(result.exception)
    return result


@pytest.mark.slow
def test_label_finetune_compare_promote_rollback(tmp_path):
    from detector_model import build_tiny_model

    # 1. Photos labelled the way the labelling page saves them, then split by session.
    dataset = LabelDataset(tmp_path / "ds")
    for seed in range(12):
        image, boxes = photo(seed)
        dataset.save(f"p{seed}", image, [LabelBox(CLASS_NAMES.index(n), b) for n, b in boxes])
    assert invoke("label", "split", dataset.root, "--val-fraction", "0.34").exit_code == 0
    assert len(list((dataset.root / "labels" / "val").glob("*.txt"))) == 4

    # 2. The base: an untrained 36-class model directory, standing in for models/current.
    models = tmp_path / "models"
    base = build_tiny_model(models / "current", imgsz=IMGSZ)

    # 3. Fine-tune from the base (its imgsz), 1 epoch.
    result = invoke("train", "--data", dataset.root / "data.yaml", "--base", base, "--epochs", 1, "--batch", 4,
                    "--project", tmp_path / "runs", "--name", "ft")
    assert result.exit_code == 0
    run = tmp_path / "runs" / "ft"
    settings = json.loads((run / "mjsnap_settings.json").read_text())
    assert settings["model"] == str((base / "model.pt").resolve()) and settings["imgsz"] == IMGSZ
    assert "--base" in settings["command"]
    assert [json.loads(line)["epoch"] for line in (run / "progress.jsonl").read_text().splitlines()] == [1, 1]
    candidate = run / "weights" / "best.pt"

    # 4. Compare on the same validation data: table, per-class recall, confusions, plot.
    result = invoke("compare", "--candidate", candidate, "--current", base, "--data", dataset.root,
                    "--plot", tmp_path / "cmp.png", "--json-out", tmp_path / "cmp.json")
    assert result.exit_code == 0 and "metric" in result.output and "candidate" in result.output
    comparison = json.loads((tmp_path / "cmp.json").read_text())
    assert comparison["images"] == 4 and comparison["current"]["true_tiles"] == 12
    assert (tmp_path / "cmp.png").read_bytes()[:4] == b"\x89PNG"
    rows = {r["metric"]: r for r in comparison["metrics"]}
    metric = next((m for m, r in rows.items() if r["better"] != "same"), None)
    assert metric is not None, f"an untrained and a trained model measured the same on every metric: {rows}"
    candidate_better = rows[metric]["better"] == "candidate"

    # 5. Promote: the worse one is refused, the better one accepted, the old one kept; then roll back.
    base_weights = (base / "model.pt").read_bytes()
    result = invoke("promote", candidate, "--data", dataset.root, "--metric", metric, "--version", "ft1",
                    "--models-dir", models)
    assert result.exit_code == (0 if candidate_better else 1), result.output
    if candidate_better:
        assert (models / "current" / "model.pt").read_bytes() != base_weights
        assert (models / "versions" / "tiny-test" / "model.pt").read_bytes() == base_weights
        # the old base is now the worse candidate: refused, current unchanged
        result = invoke("promote", models / "versions" / "tiny-test", "--data", dataset.root, "--metric", metric,
                        "--models-dir", models)
        assert result.exit_code == 1 and "NOT promoted" in result.output
        result = invoke("rollback", "--models-dir", models)
        assert result.exit_code == 0 and (models / "current" / "model.pt").read_bytes() == base_weights
    else:
        assert (models / "current" / "model.pt").read_bytes() == base_weights
        # with the fine-tuned model current, the (better) base is accepted over it, and rollback undoes that
        other = tmp_path / "models2"
        assert invoke("promote", candidate, "--data", dataset.root, "--models-dir", other).exit_code == 0
        trained = (other / "current" / "model.pt").read_bytes()
        result = invoke("promote", base, "--data", dataset.root, "--metric", metric, "--models-dir", other)
        assert result.exit_code == 0 and (other / "current" / "model.pt").read_bytes() == base_weights
        assert invoke("rollback", "--models-dir", other).exit_code == 0
        assert (other / "current" / "model.pt").read_bytes() == trained
