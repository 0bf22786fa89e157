"""benchmarks/holdout_proxy.py copies the proxy reader with other classifiers in place of its own."""

import json
from pathlib import Path

import pytest

from benchmarks import holdout_proxy


@pytest.fixture
def exports(monkeypatch) -> list[tuple[str, str, int]]:
    from vision.twostage import export

    seen = []
    monkeypatch.setattr(export, "export_classifier",
                        lambda weights, folder, imgsz: seen.append((Path(weights).name, Path(folder).name, imgsz)))

    def export_detector(weights, folder, imgsz):
        seen.append((Path(weights).name, Path(folder).name, imgsz))
        return {"pt": "model.pt", "onnx": "model.onnx", "openvino": "model_openvino"}

    monkeypatch.setattr(export, "export_detector", export_detector)
    return seen


def _proxy(tmp_path: Path, ensemble: list[str]) -> Path:
    proxy = tmp_path / "proxy"
    for folder in ("classifier", "detector", *ensemble):
        (proxy / folder).mkdir(parents=True)
        (proxy / folder / "model.pt").write_text(folder)
    (proxy / "meta.json").write_text(json.dumps({"classifier": {"imgsz": 64, "ensemble": ensemble}}))
    return proxy


def test_other_classifiers_become_the_copys_ensemble_in_place_of_the_proxys_own(tmp_path: Path, exports) -> None:
    proxy = _proxy(tmp_path, ["classifier_2"])
    out = holdout_proxy.with_classifier(proxy, Path("a.pt"), tmp_path / "out", {"classifier": {"imgsz": 96}},
                                        [Path("b.pt"), Path("c.pt")])
    assert exports == [("a.pt", "classifier", 96), ("b.pt", "classifier_2", 96), ("c.pt", "classifier_3", 96)]
    meta = json.loads((out / "meta.json").read_text())
    assert meta["classifier"] == {"imgsz": 96, "ensemble": ["classifier_2", "classifier_3"]}
    assert not (out / "classifier_2").exists()  # the proxy's own second classifier is not copied under the new one
    assert (out / "detector").is_dir()
    assert json.loads((proxy / "meta.json").read_text())["classifier"]["imgsz"] == 64  # the proxy is left as it is


def test_without_others_the_proxys_own_ensemble_stays(tmp_path: Path, exports) -> None:
    proxy = _proxy(tmp_path, ["classifier_2"])
    out = holdout_proxy.with_classifier(proxy, Path("a.pt"), tmp_path / "out")
    assert exports == [("a.pt", "classifier", 64)]
    assert (out / "classifier_2" / "model.pt").read_text() == "classifier_2"
    assert json.loads((out / "meta.json").read_text())["classifier"]["ensemble"] == ["classifier_2"]


def test_a_derived_model_replaces_only_the_named_classifier_and_changes_its_meta(tmp_path: Path, exports) -> None:
    base = _proxy(tmp_path, ["classifier_2", "classifier_3"])
    out = holdout_proxy.derived_model(base, tmp_path / "out", {"characters": {"gate": 0.97}},
                                      {"classifier_2": Path("b.pt")}, drop=["classifier_3"])
    assert exports == [("b.pt", "classifier_2", 64)]
    assert (out / "classifier" / "model.pt").read_text() == "classifier"  # kept as it was
    assert not (out / "classifier_2").exists()  # left for the export (stubbed here) to write
    assert not (out / "classifier_3").exists()
    meta = json.loads((out / "meta.json").read_text())
    assert meta["characters"] == {"gate": 0.97} and meta["classifier"]["imgsz"] == 64
    assert json.loads((base / "meta.json").read_text()) == {"classifier": {"imgsz": 64, "ensemble": ["classifier_2", "classifier_3"]}}


def test_the_script_makes_a_candidate_with_changed_settings_and_replaces_only_a_model_directory(tmp_path, monkeypatch,
                                                                                                capsys) -> None:
    proxy = _proxy(tmp_path, [])
    out = tmp_path / "candidate"
    for settings in ('{"characters": {"flower_doubt": 0.05}}', '{"characters": {"flower_doubt": 0.1}}'):
        monkeypatch.setattr("sys.argv", ["holdout_proxy.py", "--base", str(proxy), "--out", str(out),
                                         "--settings", settings])
        holdout_proxy.main()
    meta = json.loads((out / "meta.json").read_text())
    assert meta["characters"] == {"flower_doubt": 0.1} and meta["classifier"]["imgsz"] == 64
    assert (out / "classifier" / "model.pt").read_text() == "classifier"
    kept = tmp_path / "notes"
    (kept / "a.txt").parent.mkdir()
    (kept / "a.txt").write_text("mine")
    monkeypatch.setattr("sys.argv", ["holdout_proxy.py", "--base", str(proxy), "--out", str(kept), "--settings", "{}"])
    with pytest.raises(SystemExit):
        holdout_proxy.main()
    assert (kept / "a.txt").read_text() == "mine"
    assert "not a model directory" in capsys.readouterr().err


def test_a_derived_model_with_a_new_detector_reads_it_in_f32_until_quantized(tmp_path: Path, exports) -> None:
    """A candidate tile detector (benchmarks/results/candidate_0.24.0/recipe.sh): the base's INT8 copy and its
    calibration record belong to the old detector, so the copy reads the new one in f32, named for quantize."""
    base = _proxy(tmp_path, [])
    meta = json.loads((base / "meta.json").read_text())
    meta |= {"version": "1.0.0", "detector": {"imgsz": 480, "files": {"openvino_int8": "model_openvino_int8"},
                                               "openvino_precision": "int8"},
             "quantized": {"tool": "nncf", "samples": {"detector": 500}}}
    (base / "meta.json").write_text(json.dumps(meta))
    out = holdout_proxy.derived_model(base, tmp_path / "out", detector=Path("last.pt"), version="1.1.0-f32")
    assert exports == [("last.pt", "detector", 480)]
    assert not (out / "detector").exists()  # left for the export (stubbed here) to write
    assert (out / "classifier" / "model.pt").read_text() == "classifier"
    derived = json.loads((out / "meta.json").read_text())
    assert derived["version"] == "1.1.0-f32" and "quantized" not in derived
    assert derived["detector"] == {"imgsz": 480, "openvino_precision": "f32",
                                   "files": {"pt": "model.pt", "onnx": "model.onnx", "openvino": "model_openvino"}}
    assert json.loads((base / "meta.json").read_text()) == meta  # the base is left as it is


def test_a_new_classifier_keeps_the_record_of_an_int8_detector(tmp_path: Path, exports) -> None:
    base = _proxy(tmp_path, [])
    meta = json.loads((base / "meta.json").read_text()) | {"quantized": {"samples": {"detector": 500}}}
    (base / "meta.json").write_text(json.dumps(meta))
    out = holdout_proxy.derived_model(base, tmp_path / "out", classifiers={"classifier": Path("a.pt")})
    assert json.loads((out / "meta.json").read_text())["quantized"] == meta["quantized"]
