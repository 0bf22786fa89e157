"""benchmarks/classifier_input.py builds readers with a classifier trained at another input, and reports timings."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SPEC = importlib.util.spec_from_file_location("classifier_input",
                                              Path(__file__).parent.parent / "benchmarks" / "classifier_input.py")
classifier_input = importlib.util.module_from_spec(SPEC)
sys.modules["classifier_input"] = classifier_input  # its dataclass looks its module up while it loads
SPEC.loader.exec_module(classifier_input)
Reader = classifier_input.Reader


@pytest.mark.parametrize("text, expected", [
    ("shipped=models/current", Reader("shipped", Path("models/current"))),
    ("px96=work/proxy:work/a/100_px96.pt@96", Reader("px96", Path("work/proxy"), Path("work/a/100_px96.pt"), 96)),
])
def test_a_reader_names_its_model_and_maybe_a_classifier_at_a_size(text, expected) -> None:
    assert Reader.parse(text) == expected


@pytest.mark.parametrize("text", ["models/current", "=models/current", "x=m:w.pt", "x=m:w.pt@100", "x=m:@96"])
def test_a_malformed_reader_is_refused(text) -> None:
    with pytest.raises(ValueError, match="--reader"):
        Reader.parse(text)


def test_a_reader_with_a_classifier_reads_a_copy_at_its_size(tmp_path: Path, monkeypatch) -> None:
    from vision.twostage import export

    model = tmp_path / "proxy"
    for folder in ("classifier", "detector", "characters"):
        (model / folder).mkdir(parents=True)
    (model / "classifier" / "model.pt").write_bytes(b"64 px weights")
    (model / "meta.json").write_text(json.dumps({"classifier": {"imgsz": 64}}))
    exported = []

    def export_classifier(weights: Path, folder: Path, imgsz: int) -> None:
        folder.mkdir()
        exported.append((weights, imgsz))

    monkeypatch.setattr(export, "export_classifier", export_classifier)
    assert Reader("shipped", model).build(tmp_path / "unused") == model
    built = Reader("px96", model, tmp_path / "px96.pt", 96).build(tmp_path / "px96")
    assert exported == [(tmp_path / "px96.pt", 96)]
    assert json.loads((built / "meta.json").read_text())["classifier"]["imgsz"] == 96
    assert (built / "detector").is_dir() and (built / "characters").is_dir()
    assert not (built / "classifier" / "model.pt").exists()  # the 64 px weights were not carried over
    assert json.loads((model / "meta.json").read_text())["classifier"]["imgsz"] == 64


def test_the_report_lists_the_network_at_each_size_and_every_reader() -> None:
    ms = {"median": 9.4, "mean": 9.0, "p90": 12.5}
    result = {"date": "d", "machine": "m", "load_before": [1.0], "load_after": [1.1], "network_model": "models/current",
              "repeats": 200, "network": {"64": ms, "96": ms | {"median": 17.7}}, "data": "datasets/cmd.yaml",
              "photos": 80, "readers": {"px96": {"model": "work/p", "classifier": "`a.pt` at 96 px", "ms": ms,
                                                 "classifier_networks_ms": 20.5},
                                        "shipped": {"model": "models/current", "classifier": None, "ms": ms,
                                                    "classifier_networks_ms": 10.25}}}
    lines = classifier_input.markdown(result).splitlines()
    assert "| 96 px | 17.7 | 9.0 | 12.5 |" in lines
    assert "| px96 | `work/p` | `a.pt` at 96 px | 9.4 | 9.0 | 12.5 | 20.5 |" in lines
    assert "| shipped | `models/current` | its own | 9.4 | 9.0 | 12.5 | 10.25 |" in lines


def test_the_classifier_calls_are_timed_and_still_answer() -> None:
    from types import SimpleNamespace

    stages = SimpleNamespace(_classify_crops=lambda crops, classifiers: f"{crops} read")
    spent = classifier_input.timed_classifiers(SimpleNamespace(stages=stages))
    assert stages._classify_crops("two crops", []) == "two crops read"
    assert len(spent) == 1 and spent[0] >= 0


@pytest.mark.parametrize("stem, expected", [("classifier_input", "classifier_input"),
                                            ("candidate_0.19.0/latency", "candidate_0.19.0/latency")])
def test_results_go_to_the_stem_asked_for_under_the_results_folder(stem, expected) -> None:
    folder = (Path(__file__).parent.parent / "benchmarks" / "results").resolve()
    assert classifier_input.results_paths(stem) == (folder / f"{expected}.json", folder / f"{expected}.md")


@pytest.mark.parametrize("stem", ["", "../latency", "/tmp/latency", "candidate/../.."])
def test_a_stem_outside_the_results_folder_is_refused(stem) -> None:
    with pytest.raises(SystemExit, match="a file stem under benchmarks/results/ is expected"):
        classifier_input.results_paths(stem)
