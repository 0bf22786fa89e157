"""Model registry: the promotion decision, promote/rollback of model directories, kept versions, crash recovery.
The models here are stand-in directories (meta.json + model.pt bytes); metrics are injected. The real models and
metrics run in test_retrain_loop.py."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scoring.tiles import CLASS_NAMES
from vision import compare, registry
from vision.twostage.quantize import QUANTIZED_FOLDER
from vision.evaluate import ClassMetrics, Confusion, EvalReport

runner = CliRunner()


def model_dir(path: Path, version: str, weights: bytes, **stages: bytes) -> Path:
    """A stand-in model directory: model.pt holding ``weights``, or with ``stages`` (detector=..., classifier=...)
    a two-stage one whose stage folders hold model.pt and a nested model_openvino/model.bin."""
    path.mkdir(parents=True, exist_ok=True)
    meta = {"version": version, "classes": list(CLASS_NAMES), "imgsz": 64, "created": "2026-01-01T00:00:00+00:00",
            "train_command": f"mjsnap train --name {version}", "data": f"data-of-{version}", "metrics": {}}
    if stages:
        meta["design"] = "two_stage"
        for stage, stage_weights in stages.items():
            (path / stage / "model_openvino").mkdir(parents=True, exist_ok=True)
            (path / stage / "model.pt").write_bytes(stage_weights)
            (path / stage / "model_openvino" / "model.bin").write_bytes(stage_weights + b"-openvino")
    else:
        (path / "model.pt").write_bytes(weights)
    (path / "meta.json").write_text(json.dumps(meta))
    return path


def report(map50: float, errors: int = 3, recall_1m: float = 0.5, name_errors: int | None = 2) -> EvalReport:
    return EvalReport(
        model="m", data="val.yaml:val", images=4, true_tiles=12, conf=0.25, map50=map50, map50_95=map50 / 2,
        tile_accuracy=0.5, tile_errors=errors, missed=errors, misclassified=0, extra=0, exact_match=0.25,
        ms_per_image=1.0, name_errors=name_errors, hands_read_right=None if name_errors is None else 0.5, per_class=[ClassMetrics(name="1m", true_tiles=4, ap50=map50, recall=recall_1m)],
        top_confusions=[Confusion(true="1m", predicted="2m", count=errors)],
    )


@pytest.mark.parametrize(
    "candidate, current, metric, min_gain, accepted",
    [
        (0.80, 0.70, "map50", 0.0, True),
        (0.70, 0.80, "map50", 0.0, False),
        (0.70, 0.70, "map50", 0.0, False),  # equal is not better: the current model stays
        (0.75, 0.70, "map50", 0.05, False),  # not by more than the required gain (0.05 is not > 0.05)
        (0.76, 0.70, "map50", 0.05, True),
        (2, 5, "tile_errors", 0.0, True),  # fewer errors is better
        (5, 2, "tile_errors", 0.0, False),
        (0.1, None, "map50", 0.0, True),  # nothing to beat
    ],
)
def test_decide(candidate, current, metric, min_gain, accepted):
    assert registry.decide(candidate, current, metric, min_gain).accepted is accepted


def test_decide_refuses_unknown_metric():
    with pytest.raises(ValueError, match="not one of"):
        registry.decide(0.5, 0.4, "accuracy")


def test_comparison_tables_and_decision():
    table = compare.build_comparison(report(0.6, errors=5, recall_1m=0.25), report(0.9, errors=1, recall_1m=1.0))
    rows = {r.metric: r for r in table.metrics}
    assert rows["map50"].better == "candidate" and rows["tile_errors"].better == "candidate"
    assert rows["tile_accuracy"].better == "same"
    assert table.per_class[0].current_recall == 0.25 and table.per_class[0].candidate_recall == 1.0
    assert [(c.true, c.predicted, c.current, c.candidate) for c in table.confusions] == [("1m", "2m", 5, 1)]
    assert registry.promote_decision(table).accepted
    assert not registry.promote_decision(compare.build_comparison(report(0.9), report(0.6))).accepted


def test_name_figures_compare_and_decide_and_a_report_without_them_leaves_them_out():
    table = compare.build_comparison(report(0.6, name_errors=4), report(0.6, name_errors=1))
    rows = {r.metric: r for r in table.metrics}
    assert rows["name_errors"].better == "candidate" and rows["hands_read_right"].better == "same"
    assert registry.promote_decision(table, "name_errors").accepted
    assert not registry.promote_decision(table, "hands_read_right").accepted  # equal is not better
    older = compare.build_comparison(report(0.6, name_errors=None), report(0.9))
    assert "name_errors" not in {r.metric for r in older.metrics} and "map50" in {r.metric for r in older.metrics}
    with pytest.raises(ValueError, match="written before"):
        registry.promote_decision(older, "name_errors")


def test_comparison_refuses_reports_on_different_data():
    other = report(0.9).model_copy(update={"images": 5})
    with pytest.raises(ValueError, match="not on the same data"):
        compare.build_comparison(report(0.6), other)


def test_plot_writes_a_png(tmp_path):
    out = compare.plot(compare.build_comparison(report(0.6), report(0.9)), tmp_path / "c.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_registry_lists_the_shipped_model_without_copying_it(tmp_path):
    model_dir(tmp_path / "current", "v1", b"weights-1")
    reg = registry.load(tmp_path)
    assert reg.current == "v1" and reg.history == ["v1"] and reg.versions[0].path == "current"
    assert reg.versions[0].command == "mjsnap train --name v1" and not (tmp_path / "versions").exists()


def test_install_keeps_previous_and_rollback_restores_it(tmp_path):
    model_dir(tmp_path / "current", "v1", b"weights-1")
    reg = registry.load(tmp_path)
    entry = registry.install(tmp_path, reg, model_dir(tmp_path / "cand2", "v2", b"weights-2"), "v2",
                             data="club photos", command="mjsnap train --base models/current",
                             metrics={"val": {"map50": 0.9}})
    assert entry.id == "v2" and (tmp_path / "current" / "model.pt").read_bytes() == b"weights-2"
    assert (tmp_path / "versions" / "v1" / "model.pt").read_bytes() == b"weights-1"
    meta = json.loads((tmp_path / "current" / "meta.json").read_text())
    assert meta["version"] == "v2" and meta["metrics"]["val"]["map50"] == 0.9
    saved = json.loads((tmp_path / "registry.json").read_text())
    assert saved["current"] == "v2" and [v["id"] for v in saved["versions"]] == ["v1", "v2"]
    assert saved["versions"][1]["data"] == "club photos"

    back = registry.rollback(tmp_path)
    assert back.id == "v1" and (tmp_path / "current" / "model.pt").read_bytes() == b"weights-1"
    assert (tmp_path / "versions" / "v2" / "model.pt").read_bytes() == b"weights-2"  # kept: can come back
    assert registry.load(tmp_path).current == "v1"
    with pytest.raises(registry.RegistryError, match="no earlier version"):
        registry.rollback(tmp_path)


def test_rollback_to_a_version_whose_files_are_gone_changes_nothing_and_says_what_to_do(tmp_path):
    model_dir(tmp_path / "current", "v1", b"weights-1")
    registry.install(tmp_path, registry.load(tmp_path), model_dir(tmp_path / "cand2", "v2", b"weights-2"), "v2",
                     data=None, command="", metrics={})
    shutil.rmtree(tmp_path / "versions" / "v1")
    with pytest.raises(registry.RegistryError, match=r"version v1 are missing .*put them back there, or .*promote"):
        registry.rollback(tmp_path)
    assert registry.load(tmp_path).current == "v2" and (tmp_path / "current" / "model.pt").read_bytes() == b"weights-2"


def test_identical_weights_are_stored_once(tmp_path):
    model_dir(tmp_path / "current", "v1", b"weights-1")
    reg = registry.load(tmp_path)
    registry.install(tmp_path, reg, model_dir(tmp_path / "c2", "v2", b"weights-2"), "v2", data=None, command="",
                     metrics={})
    registry.rollback(tmp_path)  # v1 current again; its copy in versions/v1 is reused, not copied twice
    reg = registry.load(tmp_path)
    registry.install(tmp_path, reg, model_dir(tmp_path / "c3", "v3", b"weights-3"), "v3", data=None, command="",
                     metrics={})
    assert sorted(p.name for p in (tmp_path / "versions").iterdir()) == ["v1", "v2"]
    assert registry.load(tmp_path).version("v1").path == "versions/v1"


@pytest.mark.parametrize("change", ["meta", "characters", "int8"])
def test_versions_with_the_same_weights_that_read_differently_are_kept_apart(tmp_path, change):
    """0.11.0 kept 0.10.0's networks and added characters/; 0.12.0 kept them and added reading settings to meta.json;
    a quantized copy (vision.twostage.quantize) adds INT8 networks made from the same model.pt. Rolling back to such
    a version must bring back its settings and files, not another version's with its weights."""
    models = tmp_path / "models"
    model_dir(models / "current", "v1", b"", detector=b"det-1", classifier=b"cls-1")
    changed = model_dir(tmp_path / "c2", "v2", b"", detector=b"det-1", classifier=b"cls-1")
    if change == "meta":
        meta = json.loads((changed / "meta.json").read_text())
        (changed / "meta.json").write_text(json.dumps(meta | {"reading": {"face_floor": 0.35}}))
    elif change == "characters":
        (changed / "characters").mkdir()
        (changed / "characters" / "model.onnx").write_bytes(b"recognizer")
    else:  # another calibration of the same networks, with the same meta.json
        (changed / "detector" / QUANTIZED_FOLDER).mkdir()
        (changed / "detector" / QUANTIZED_FOLDER / "model.bin").write_bytes(b"int8")
    registry.install(models, registry.load(models), changed, "v2", data=None, command="", metrics={})
    registry.install(models, registry.load(models), model_dir(tmp_path / "c3", "v3", b"", detector=b"det-1",
                     classifier=b"cls-1"), "v3", data=None, command="", metrics={})
    assert registry.load(models).version("v2").path == "versions/v2"  # not v1's copy, which has the same weights
    assert registry.rollback(models).id == "v2"
    assert registry.reading_digest(models / "current") == registry.reading_digest(changed)


def test_the_reading_digest_ignores_what_promote_rewrites(tmp_path):
    a = model_dir(tmp_path / "a", "v1", b"", detector=b"det-1", classifier=b"cls-1")
    b = model_dir(tmp_path / "b", "v2", b"", detector=b"det-1", classifier=b"cls-1")
    meta = json.loads((b / "meta.json").read_text())
    (b / "meta.json").write_text(json.dumps(meta | {"metrics": {"val": {"map50": 0.9}}, "created": "2026-12-04"}))
    assert registry.reading_digest(a) == registry.reading_digest(b)


def test_a_model_exported_outside_the_registry_becomes_a_new_version(tmp_path):
    model_dir(tmp_path / "current", "v1", b"weights-1")
    registry.save(registry.load(tmp_path), tmp_path)
    model_dir(tmp_path / "current", "v1", b"retrained")  # `mjsnap export` over models/current, same version name
    reg = registry.load(tmp_path)
    assert reg.current == "v1-2" and reg.version("v1").path == ""  # its files are gone
    with pytest.raises(registry.RegistryError, match="missing"):
        registry.rollback(tmp_path)


def test_a_model_whose_reading_settings_changed_outside_the_registry_becomes_a_new_version(tmp_path):
    """Same weights, meta.json's reading settings edited in place (as 0.14.1 gated 0.14.0's ensemble): a new version,
    listed once; the old one's files are gone. Descriptive fields alone (metrics) change nothing."""
    current = model_dir(tmp_path / "current", "v1", b"", detector=b"det-1", classifier=b"cls-1")
    registry.save(registry.load(tmp_path), tmp_path)
    meta = json.loads((current / "meta.json").read_text())
    (current / "meta.json").write_text(json.dumps(meta | {"metrics": {"val": {"map50": 0.9}}}))
    assert [v.id for v in registry.load(tmp_path).versions] == ["v1"]
    (current / "meta.json").write_text(json.dumps(meta | {"version": "v1.1", "classifier": {"ensemble_below": 0.9}}))
    reg = registry.load(tmp_path)
    registry.save(reg, tmp_path)
    assert reg.current == "v1.1" and reg.version("v1").path == "" and reg.version("v1.1").path == "current"
    assert [v.id for v in registry.load(tmp_path).versions] == ["v1", "v1.1"]  # listed once, not at every load


def test_a_registry_written_before_reading_digests_still_knows_its_current_model(tmp_path):
    model_dir(tmp_path / "current", "v1", b"weights-1")
    reg = registry.load(tmp_path)
    reg.versions[0].reads = None  # as older registries were saved
    registry.save(reg, tmp_path)
    assert [v.id for v in registry.load(tmp_path).versions] == ["v1"]


def test_interrupted_swap_is_recovered(tmp_path):
    model_dir(tmp_path / ".outgoing-20260101T000000", "v1", b"weights-1")  # crash between the two renames
    model_dir(tmp_path / ".incoming-20260101T000000", "v2", b"weights-2")
    reg = registry.load(tmp_path)
    assert reg.current == "v1" and (tmp_path / "current" / "model.pt").read_bytes() == b"weights-1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["current"]


@pytest.mark.parametrize("text, ok", [("v2", True), ("club run #3", True), ("..", False), ("", False)])
def test_version_ids_are_folder_names(text, ok):
    if ok:
        assert "/" not in registry.safe_version_id(text) and " " not in registry.safe_version_id(text)
    else:
        with pytest.raises(registry.RegistryError):
            registry.safe_version_id(text)


@pytest.fixture
def injected(monkeypatch, tmp_path):
    """compare_models returns the reports the test sets: the promotion logic without running models (on a
    val.yaml that is there, as promote checks)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "val.yaml").write_text("")
    reports = {}

    def fake_compare(current, candidate, data, split="val", conf=0.25, backend="auto", limit=None):
        return compare.build_comparison(reports["current"], reports["candidate"])

    def fake_measure(model, data, split="val", conf=0.25, backend="auto", limit=None):
        return reports["candidate"]

    monkeypatch.setattr(compare, "compare_models", fake_compare)
    monkeypatch.setattr(compare, "measure_model", fake_measure)
    return reports


def test_promote_refuses_worse_and_accepts_better(tmp_path, injected):
    from mjsnap.cli import app

    model_dir(tmp_path / "models" / "current", "v1", b"weights-1")
    candidate = model_dir(tmp_path / "cand", "v2", b"weights-2")
    injected.update(current=report(0.8), candidate=report(0.7))
    args = ["promote", str(candidate), "--data", "val.yaml", "--models-dir", str(tmp_path / "models")]
    result = runner.invoke(app, args)
    assert result.exit_code == 1 and "NOT promoted" in result.output
    assert (tmp_path / "models" / "current" / "model.pt").read_bytes() == b"weights-1"

    injected.update(candidate=report(0.85))
    result = runner.invoke(app, [*args, "--plot", str(tmp_path / "cmp.png")])
    assert result.exit_code == 0 and "promoted v2" in result.output, result.output
    assert (tmp_path / "models" / "current" / "model.pt").read_bytes() == b"weights-2"
    assert (tmp_path / "cmp.png").is_file()
    meta = json.loads((tmp_path / "models" / "current" / "meta.json").read_text())
    assert meta["metrics"]["val.yaml:val"]["map50"] == 0.85 and meta["data"] == "data-of-v2"

    result = runner.invoke(app, ["models", "--models-dir", str(tmp_path / "models")])
    assert result.exit_code == 0 and "* v2" in result.output and "versions/v1" in result.output
    result = runner.invoke(app, ["rollback", "--models-dir", str(tmp_path / "models")])
    assert result.exit_code == 0 and "now v1" in result.output
    assert (tmp_path / "models" / "current" / "model.pt").read_bytes() == b"weights-1"

    # the listing says where each version's files are, and which are gone
    shutil.rmtree(tmp_path / "models" / "versions" / "v2")
    listing = runner.invoke(app, ["models", "--models-dir", str(tmp_path / "models")]).output.splitlines()
    assert " current (kept in versions/v1) " in next(line for line in listing if line.startswith("* v1 "))
    assert " versions/v2 (files gone) " in next(line for line in listing if line.startswith("  v2 "))


def test_promote_into_an_empty_models_folder_measures_the_candidate(tmp_path, injected):
    """Nothing to compare with: the candidate is installed, and its scores on --data are recorded as a promotion's."""
    from mjsnap.cli import app

    (tmp_path / "models").mkdir()
    injected.update(candidate=report(0.9))
    args = ["promote", str(model_dir(tmp_path / "cand", "first", b"w")), "--data", "val.yaml"]
    result = runner.invoke(app, [*args, "--models-dir", str(tmp_path / "models")])
    assert result.exit_code == 0, result.output
    assert "promoted first: there is no current model (candidate map50 0.9000)" in result.output
    meta = json.loads((tmp_path / "models" / "current" / "meta.json").read_text())
    assert meta["metrics"]["val.yaml:val"]["map50"] == 0.9
    listed = registry.load(tmp_path / "models").version("first")
    assert listed.metrics["val.yaml:val"]["map50"] == 0.9


def test_one_stage_digest_is_that_of_model_pt(tmp_path):
    assert registry.weights_digest(model_dir(tmp_path, "v1", b"weights-1")) == hashlib.sha256(b"weights-1").hexdigest()


@pytest.mark.parametrize(
    "detector, classifier, same",
    [
        (b"det-1", b"cls-1", True),
        (b"det-1", b"cls-2", False),  # a retrained classifier alone is a new model
        (b"det-2", b"cls-1", False),
        (b"cls-1", b"det-1", False),  # the same files in the other stage
    ],
)
def test_two_stage_digest_covers_both_networks(tmp_path, detector, classifier, same):
    reference = registry.weights_digest(model_dir(tmp_path / "a", "v1", b"", detector=b"det-1", classifier=b"cls-1"))
    other = registry.weights_digest(model_dir(tmp_path / "b", "v1", b"", detector=detector, classifier=classifier))
    assert (other == reference) is same


@pytest.mark.parametrize(("second", "same"), [(b"cls-2", True), (b"cls-3", False), (None, False)])
def test_the_digest_covers_an_averaged_second_classifier(tmp_path, second, same):
    """0.14.0 averages classifier/ with classifier_2/: a new second classifier alone is a new model."""
    stages = {"detector": b"det-1", "classifier": b"cls-1"}
    reference = registry.weights_digest(model_dir(tmp_path / "a", "v1", b"", **stages, classifier_2=b"cls-2"))
    other = model_dir(tmp_path / "b", "v1", b"", **stages, **({"classifier_2": second} if second else {}))
    assert (registry.weights_digest(other) == reference) is same


def test_two_stage_versions_are_kept_and_restored_whole(tmp_path):
    from mjsnap.cli import app

    models = tmp_path / "models"
    model_dir(models / "current", "ts1", b"", detector=b"det-1", classifier=b"cls-1")
    reg = registry.load(models)
    assert reg.version("ts1").design == "two_stage"
    registry.install(models, reg, model_dir(tmp_path / "c2", "ts2", b"", detector=b"det-1", classifier=b"cls-2"),
                     "ts2", data=None, command="", metrics={})
    kept = models / "versions" / "ts1"
    assert (kept / "classifier" / "model.pt").read_bytes() == b"cls-1"
    assert (kept / "classifier" / "model_openvino" / "model.bin").read_bytes() == b"cls-1-openvino"
    assert (models / "current" / "classifier" / "model.pt").read_bytes() == b"cls-2"

    result = runner.invoke(app, ["models", "--models-dir", str(models)])
    assert result.exit_code == 0 and "* ts2" in result.output and "two_stage" in result.output
    assert registry.rollback(models).id == "ts1"
    assert (models / "current" / "classifier" / "model_openvino" / "model.bin").read_bytes() == b"cls-1-openvino"
    assert (models / "versions" / "ts2" / "detector" / "model.pt").read_bytes() == b"det-1"


@pytest.mark.parametrize("via_eval", [False, True])
def test_compare_with_a_folder_that_is_no_model_is_a_usage_error(tmp_path, via_eval):
    from typer.testing import CliRunner

    from mjsnap.cli import app

    (tmp_path / "empty").mkdir()
    args = (["eval", "--model", str(tmp_path / "empty"), "--against", str(tmp_path / "empty")] if via_eval
            else ["compare", "--candidate", str(tmp_path / "empty")])
    result = CliRunner().invoke(app, [*args, "--data", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "not a model directory" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("via_eval", [False, True])
def test_a_model_to_compare_with_that_is_not_there_is_named(tmp_path, via_eval):
    from mjsnap.cli import app

    candidate, gone = model_dir(tmp_path / "cand", "v2", b"weights-2"), tmp_path / "gone"
    args = (["eval", "--model", str(candidate), "--against", str(gone)] if via_eval
            else ["compare", "--candidate", str(candidate), "--current", str(gone)])
    result = runner.invoke(app, [*args, "--data", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert f"error: {gone}: no such model directory to compare with" in result.output  # not "pass --model DIR"


@pytest.mark.parametrize("command", [["models"], ["rollback"], ["promote", "CANDIDATE", "--data", "val.yaml"]])
def test_a_models_dir_that_is_not_there_is_refused(tmp_path, command):
    """promote too: into a new folder it would install the candidate unmeasured (no current model there)."""
    from typer.testing import CliRunner

    from mjsnap.cli import app

    candidate = model_dir(tmp_path / "cand", "v2", b"weights-2")
    args = [str(candidate) if arg == "CANDIDATE" else arg for arg in command]
    result = CliRunner().invoke(app, [*args, "--models-dir", str(tmp_path / "modles")])
    assert result.exit_code == 2 and "no such folder" in result.output
    assert not (tmp_path / "modles").exists()


@pytest.mark.parametrize("command", ["compare", "promote"])
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("nonexist", "{tmp}/nonexist: no such dataset folder or datasets/*.yaml config"),
        ("nonexist.yaml", "{tmp}/nonexist.yaml: no such dataset folder or datasets/*.yaml config"),
        ("empty", "{tmp}/empty is not a dataset folder: it has no data.yaml"),
    ],
)
def test_a_missing_data_path_is_named(tmp_path, command, data, message):
    from mjsnap.cli import app

    candidate = model_dir(tmp_path / "cand", "v2", b"weights-2")
    model_dir(tmp_path / "models" / "current", "v1", b"weights-1")
    (tmp_path / "empty").mkdir()
    args = (["compare", "--candidate", str(candidate), "--current", str(tmp_path / "models" / "current")]
            if command == "compare" else ["promote", str(candidate), "--models-dir", str(tmp_path / "models")])
    result = runner.invoke(app, [*args, "--data", str(tmp_path / data)])
    assert result.exit_code == 2, result.output
    assert f"error: {message.format(tmp=tmp_path)}" in result.output and "Errno" not in result.output
    assert (tmp_path / "models" / "current" / "model.pt").read_bytes() == b"weights-1"


@pytest.mark.parametrize(
    ("command", "option"),
    [("compare", "--plot"), ("compare", "--json-out"), ("promote", "--plot")],
)
def test_an_output_that_is_a_folder_is_refused_before_comparing(tmp_path, injected, command, option):
    from mjsnap.cli import app

    candidate = model_dir(tmp_path / "cand", "v2", b"weights-2")
    model_dir(tmp_path / "models" / "current", "v1", b"weights-1")
    injected.update(current=report(0.8), candidate=report(0.9))
    (tmp_path / "out").mkdir()
    args = (["compare", "--candidate", str(candidate), "--current", str(tmp_path / "models" / "current")]
            if command == "compare" else ["promote", str(candidate), "--models-dir", str(tmp_path / "models")])
    result = runner.invoke(app, [*args, "--data", "val.yaml", option, str(tmp_path / "out")])
    assert result.exit_code == 2 and f"error: {option}: {tmp_path / 'out'} is a folder, not a file" in result.output
    assert (tmp_path / "models" / "current" / "model.pt").read_bytes() == b"weights-1"


@pytest.mark.parametrize("content", ['{"versions": 3', "[]"])
@pytest.mark.parametrize(("command", "status"), [("models", 2), ("promote", 2), ("rollback", 1)])
def test_a_damaged_registry_is_named_and_left_as_it_is(tmp_path, injected, content, command, status):
    """A registry.json that is not JSON, or not a registry, was pydantic's traceback; rollback says so with the exit
    status of its other registry problems."""
    from mjsnap.cli import app

    models = tmp_path / "models"
    model_dir(models / "current", "v1", b"weights-1")
    (models / "registry.json").write_text(content)
    candidate = model_dir(tmp_path / "cand", "v2", b"weights-2")
    injected.update(current=report(0.5), candidate=report(0.9))
    args = {"models": ["models"], "promote": ["promote", str(candidate), "--data", "val.yaml"], "rollback": ["rollback"]}
    result = runner.invoke(app, [*args[command], "--models-dir", str(models)])
    assert result.exit_code == status, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and errors[0].startswith(f"error: {models / 'registry.json'} is not a model registry (")
    assert errors[0].endswith("); nothing was changed")
    assert (models / "registry.json").read_text() == content
    assert (models / "current" / "model.pt").read_bytes() == b"weights-1" and not (models / "versions").exists()


@pytest.mark.parametrize("command", ["compare", "promote"])
@pytest.mark.parametrize(
    ("candidate", "message"),
    [
        ("notes.pt", "{tmp}/notes.pt is not an ultralytics checkpoint (.pt)"),
        ("damaged", "{tmp}/damaged/meta.json is not JSON: Expecting ',' delimiter: line 1 column 14 (char 13)"),
    ],
)
def test_a_candidate_that_is_no_model_is_named(tmp_path, injected, command, candidate, message):
    """A file that is no checkpoint was torch's unpickling traceback; a damaged meta.json was json's message alone."""
    from mjsnap.cli import app

    (tmp_path / "notes.pt").write_text("not weights\n")
    (tmp_path / "damaged").mkdir()
    (tmp_path / "damaged" / "meta.json").write_text('{"version": 1')
    model_dir(tmp_path / "models" / "current", "v1", b"weights-1")
    injected.update(current=report(0.5), candidate=report(0.9))
    args = (["compare", "--candidate", str(tmp_path / candidate), "--current", str(tmp_path / "models" / "current")]
            if command == "compare" else ["promote", str(tmp_path / candidate), "--models-dir", str(tmp_path / "models")])
    result = runner.invoke(app, [*args, "--data", "val.yaml"])
    assert result.exit_code == 2, result.output
    assert [line for line in result.stderr.splitlines() if line.startswith("error: ")] == [
        f"error: {message.format(tmp=tmp_path)}"]
    assert (tmp_path / "models" / "current" / "model.pt").read_bytes() == b"weights-1"
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["current"]


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["eval", "--model", "{tmp}/cand"], ["--conf", "5"]),
        (["eval", "--model", "{tmp}/cand"], ["--limit", "-1"]),
        (["compare", "--candidate", "{tmp}/cand"], ["--limit", "0"]),
        (["compare", "--candidate", "{tmp}/cand"], ["--conf", "-0.1"]),
        (["promote", "{tmp}/cand", "--models-dir", "{tmp}/models"], ["--conf", "1.5"]),
    ],
)
def test_out_of_range_numbers_are_usage_errors(tmp_path, injected, command, option):
    """--limit -1 measured all but the last photo of each folder and --limit 0 none; a --conf outside 0..1 kept every
    box or none: the results read as real ones."""
    from mjsnap.cli import app

    model_dir(tmp_path / "cand", "v2", b"weights-2")
    model_dir(tmp_path / "models" / "current", "v1", b"weights-1")
    result = runner.invoke(app, [*[part.format(tmp=tmp_path) for part in command], "--data", "val.yaml", *option])
    assert result.exit_code == 2 and "is not in the range" in result.output and option[0] in result.output
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["current"]


@pytest.mark.parametrize("exchange", [True, False])
def test_a_swap_never_leaves_current_missing_where_folders_can_be_exchanged(tmp_path, monkeypatch, exchange):
    """renameat2's exchange puts the new model in place in one step; without it, two renames (and `recover`)."""
    models = tmp_path / "models"
    model_dir(models / "current", "v1", b"weights-1")
    candidate = model_dir(tmp_path / "cand", "v2", b"weights-2")
    renamed = []
    real_rename = Path.rename

    def rename(self, target):
        renamed.append(self.name)
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    if not exchange:
        monkeypatch.setattr(registry, "_exchange", lambda a, b: False)
    registry._swap_in(models, candidate)
    assert (models / "current" / "model.pt").read_bytes() == b"weights-2"
    assert sorted(p.name for p in models.iterdir()) == ["current"]  # no leftovers either way
    assert ("current" in renamed) == (not exchange)  # current itself was never renamed away when exchanged
