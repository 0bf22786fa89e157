"""Several people or processes at once (session 40): what one of them changes while another is midway. Each test
puts the other's step at the critical point itself (inside a patched function, or between two app sessions' runs),
so none depends on timing."""

from __future__ import annotations

import json
from pathlib import Path

from scoring.tiles import CLASS_NAMES
from vision import detector as detector_module
from vision import registry
from vision.detector import TileDetector


def stand_in_model(path: Path, version: str) -> Path:
    """A one-stage model folder whose model.onnx holds the text ``weights of VERSION`` (read by a patched loader)."""
    path.mkdir(parents=True)
    (path / "meta.json").write_text(json.dumps({"version": version, "classes": list(CLASS_NAMES), "imgsz": 64}))
    (path / "model.onnx").write_text(f"weights of {version}")
    return path


def test_a_model_promoted_while_a_detector_loads_is_loaded_whole(tmp_path, monkeypatch):
    """`mjsnap promote` swapping models/current while a batch worker, `mjsnap detect` or the app loads it: the
    detector read the old meta.json (its version, imgsz, reading settings) and the new model's networks, and read
    every photo of the run with that mix, under the old version's name."""
    models = tmp_path / "models"
    stand_in_model(models / "current", "v1")
    candidate = stand_in_model(tmp_path / "candidate", "v2")
    registry.refresh(models)
    promoted = []

    def load_network(folder: Path):
        if not promoted:  # the promotion lands after meta.json was read, before the network is
            promoted.append(registry.install(models, registry.load(models), candidate, "v2", data=None, command="",
                                             metrics={}))
        weights = (folder / "model.onnx").read_text()
        return lambda tensor: weights

    monkeypatch.setitem(detector_module._LOADERS, "onnxruntime", load_network)
    loaded = TileDetector(models / "current", backend="onnxruntime")
    assert promoted and loaded.version == "v2"
    assert loaded._network(None) == "weights of v2"


def test_a_second_batch_run_on_the_same_out_waits_for_the_first_runs_summary(tmp_path, monkeypatch):
    """The lock on --out was let go when the last photo was scored, before the CSV, summary and report were
    written from the results file: a second run (an overlapping cron job, `--overwrite` in another terminal) was let
    in then, and the first run's summary and CSV described the second run's records (here: its one photo)."""
    from batch_archive import make_archive
    from PIL import Image
    from typer.testing import CliRunner

    from mjsnap.batch import finish
    from mjsnap.batch.finish import summary_path
    from mjsnap.batch.runner import BatchError, BatchSettings, run_batch
    from mjsnap.cli import app

    archive, other = make_archive(tmp_path / "photos"), tmp_path / "other"
    other.mkdir()
    Image.new("RGB", (40, 24)).save(other / "one.jpg")
    out = tmp_path / "results.jsonl"
    second: list[str] = []
    first_finish = finish.finish_run

    def finish_run(out_path, stats, **outputs):  # the first run, as it starts on its CSV, summary and report
        try:
            run_batch(BatchSettings(inputs=[str(other)], out=out, ruleset="weinan", overwrite=True,
                                    scorer="batch_fakes:pixel_scorer"))
            second.append("ran")
        except BatchError as exc:
            second.append(str(exc))
        return first_finish(out_path, stats, **outputs)

    monkeypatch.setattr(finish, "finish_run", finish_run)
    result = CliRunner().invoke(app, ["batch", str(archive), "--rules", "weinan", "--out", str(out), "--csv",
                                      str(tmp_path / "results.csv"), "--scorer", "batch_fakes:pixel_scorer",
                                      "--workers", "1", "--no-progress", "--no-report"])
    assert result.exit_code == 0, result.output
    assert len(second) == 1 and "is being written by another mjsnap batch run" in second[0]
    summary = json.loads(summary_path(out).read_text())
    assert summary["photos"] == summary["run"]["discovered"] > 1
    assert len((tmp_path / "results.csv").read_text().splitlines()) == 1 + summary["photos"]


def test_a_photo_labelled_in_another_session_is_not_replaced_unasked(tmp_path, monkeypatch):
    """Two people labelling one folder (two phones, two tabs): both pages open the first photo. One boxes it and
    presses Done; the other, whose page still held the boxes it opened with (none here), pressed Save for later and
    silently replaced the finished label with its own. Now it is told, and a second press replaces it."""
    from dataset_fixtures import photo
    from streamlit.testing.v1 import AppTest

    from mjsnap.labels import LabelDataset

    monkeypatch.setenv("MJSNAP_MODEL_DIR", str(tmp_path / "no-model"))  # both start from no boxes
    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(tmp_path / "labels"))
    folder = tmp_path / "photos"
    folder.mkdir()
    photo(1)[0].save(folder / "hand.jpg")

    def label_page() -> AppTest:
        at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=60)
        at.run()
        at.radio(key="lang").set_value("en").run()
        at.radio(key="page").set_value("label").run()
        at.text_input(key="lp_folder").set_value(str(folder)).run()
        return at

    first, second = label_page(), label_page()
    first.button(key="lp_add").click().run()
    first.button(key="lp_add").click().run()
    first.button(key="lp_done").click().run()
    dataset = LabelDataset(tmp_path / "labels")
    assert dataset.find("hand") == "train" and len(dataset.load("hand", "train")) == 2
    second.button(key="lp_later").click().run()
    assert not second.exception, second.exception
    assert [e.value for e in second.error] == [
        "Not saved: hand was saved again (by another session) after these boxes were loaded; it was not replaced: "
        "save once more to replace it with these boxes"]
    assert dataset.find("hand") == "train" and len(dataset.load("hand", "train")) == 2  # the finished label stays
    second.button(key="lp_later").click().run()
    assert dataset.find("hand") == "review" and dataset.load("hand", "review") == []  # asked for, on a second press
    assert not second.error
