"""benchmarks/candidate_eval.py: which models and folders it takes, the reports it keeps and goes on from, its table."""

import argparse
import json
from pathlib import Path

import pytest

from benchmarks import candidate_eval
from vision.evaluate import EvalReport


def _report(errors: int, exact: float = 0.5) -> EvalReport:
    return EvalReport(model="m", data="d", images=4, true_tiles=50, conf=0.25, map50=0.9, map50_95=0.7,
                      tile_accuracy=1 - errors / 50, tile_errors=errors, missed=1, misclassified=errors - 1, extra=0,
                      exact_match=exact, ms_per_image=10.0, per_class=[], top_confusions=[])


def _model(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "meta.json").write_text("{}")
    return folder


def test_a_model_is_a_name_and_a_model_directory(tmp_path: Path) -> None:
    folder = _model(tmp_path, "m")
    assert candidate_eval.parse_model(f"0.20.0={folder}") == ("0.20.0", folder)


@pytest.mark.parametrize("text", ["models/current", "=models/current", "a/b={}", "a b={}", "x={}/missing"])
def test_a_model_without_a_usable_name_or_meta_json_is_refused(tmp_path: Path, text: str) -> None:
    folder = _model(tmp_path, "m")
    with pytest.raises(argparse.ArgumentTypeError):
        candidate_eval.parse_model(text.format(folder))


@pytest.mark.parametrize("text", ["candidate_9", "benchmarks/results/candidate_9",
                                  str(candidate_eval.REPO / "benchmarks" / "results" / "candidate_9")])
def test_the_results_folder_is_named_from_benchmarks_results_or_from_the_repository(text: str) -> None:
    assert candidate_eval.out_folder(text) == (candidate_eval.REPO / "benchmarks" / "results" / "candidate_9").resolve()


@pytest.mark.parametrize("text", ["", ".", "../x", "/tmp/x", "benchmarks/results", "benchmarks"])
def test_results_leave_benchmarks_results_never(text: str) -> None:
    with pytest.raises(SystemExit):
        candidate_eval.out_folder(text)


def test_a_set_that_is_not_generated_is_not_drawn_when_missing(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="not found"):
        candidate_eval.EvalSet("cmd", tmp_path / "missing.yaml").ensure()


def test_reports_are_written_once_and_read_back_when_the_run_goes_on(tmp_path: Path) -> None:
    data = tmp_path / "set" / "data.yaml"
    data.parent.mkdir()
    data.write_text("val: images")
    sets = [candidate_eval.EvalSet("s1", data)]
    models = [("current", _model(tmp_path, "current")), ("new", _model(tmp_path, "new"))]
    calls = []

    def evaluate(model: Path, set_data: Path) -> EvalReport:
        calls.append((model.name, set_data))
        return _report({"current": 12, "new": 9}[model.name])

    out = tmp_path / "out"
    first = candidate_eval.collect(models, sets, out, evaluate)
    assert calls == [("current", data), ("new", data)]
    assert json.loads((out / "eval_s1_new.json").read_text())["tile_errors"] == 9
    again = candidate_eval.collect(models, sets, out, evaluate)
    assert len(calls) == 2  # nothing read twice
    assert again == first


def test_the_table_has_a_row_per_set_and_a_column_per_model_in_the_given_order() -> None:
    table = candidate_eval.summary_table({"cmd": {"current": _report(12, 0.7), "new": _report(9, 0.75)},
                                          "val31": {"current": _report(20), "new": _report(25).model_copy(
                                              update={"name_errors": 7, "hands_read_right": 0.5})}})
    assert table.splitlines() == [  # a report written before name errors were counted shows none
        "| set | current | new |",
        "|---|---:|---:|",
        "| cmd (4 photos) | 12 (1 / 11 / 0), 0.700 | 9 (1 / 8 / 0), 0.750 |",
        "| val31 (4 photos) | 20 (1 / 19 / 0), 0.500 | 25 (1 / 24 / 0), 0.500, 7 |",
    ]


def test_unknown_sets_and_repeated_names_are_refused_before_anything_is_read(tmp_path: Path) -> None:
    folder = _model(tmp_path, "m")
    with pytest.raises(SystemExit):
        candidate_eval.main(["--out", "x", "--sets", "cmd,val7", f"a={folder}"])
    with pytest.raises(SystemExit):
        candidate_eval.main(["--out", "x", f"a={folder}", f"a={folder}"])
