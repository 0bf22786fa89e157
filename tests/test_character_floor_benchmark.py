"""benchmarks/character_floor.py reads hold-out pairs at several values of one recognizer setting, paired, and
tabulates them."""

import importlib.util
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

SPEC = importlib.util.spec_from_file_location("character_floor",
                                              Path(__file__).parent.parent / "benchmarks" / "character_floor.py")
character_floor = importlib.util.module_from_spec(SPEC)
sys.modules["character_floor"] = character_floor  # its dataclass looks its module up while it loads
SPEC.loader.exec_module(character_floor)


@pytest.mark.parametrize("text, expected", [
    ("cmd=datasets/cmd.yaml:work/a.pt", ("cmd", Path("datasets/cmd.yaml"), Path("work/a.pt"))),
    ("g=C:/data/g.yaml:w.pt", ("g", Path("C:/data/g.yaml"), Path("w.pt"))),  # the classifier follows the last colon
])
def test_a_reading_names_its_photos_and_classifier(text, expected) -> None:
    reading = character_floor.Reading.parse(text)
    assert (reading.name, reading.data, reading.classifier) == expected


@pytest.mark.parametrize("text", ["cmd", "cmd=datasets/cmd.yaml", "=a.yaml:b.pt", "cmd=a.yaml:"])
def test_a_malformed_reading_is_refused(text) -> None:
    with pytest.raises(ValueError, match="expected NAME=DATA_YAML:CLASSIFIER_PT"):
        character_floor.Reading.parse(text)


def _proxy(root: Path, characters: bool = True) -> Path:
    proxy = root / "proxy"
    (proxy / "classifier").mkdir(parents=True)
    (proxy / "characters").mkdir()
    meta = {"classifier": {"imgsz": 64}} | ({"characters": {"gate": 0.8, "kind_mass": 0.3, "floor": 0.02}} if characters else {})
    (proxy / "meta.json").write_text(json.dumps(meta))
    return proxy


def test_each_floor_is_read_by_a_copy_of_the_proxy_and_kept(tmp_path: Path, monkeypatch) -> None:
    from vision import evaluate
    from vision.twostage import export

    proxy = _proxy(tmp_path)
    seen = []
    monkeypatch.setattr(export, "export_classifier", lambda weights, folder, imgsz: seen.append(("export", weights, imgsz)))

    def predictor(model: Path):
        seen.append(("floor", json.loads((model / "meta.json").read_text())["characters"]["floor"]))
        return None, "openvino"

    monkeypatch.setattr(evaluate, "detector_predictor", predictor)
    monkeypatch.setattr(evaluate, "labelled_images", lambda data: [])
    result = SimpleNamespace(images=2, true_tiles=40, tile_errors=3, tile_accuracy=0.925, missed=1, misclassified=1, extra=1,
                             top_confusions=[SimpleNamespace(true="F", predicted="E", count=1)])
    monkeypatch.setattr(evaluate, "evaluate", lambda *args, **kwargs: result)
    reading = character_floor.Reading("cmd", tmp_path / "cmd.yaml", tmp_path / "fold.pt")
    first = character_floor.read(reading, 0.005, proxy, tmp_path / "cmd_floor0.005.json")
    again = character_floor.read(reading, 0.005, proxy, tmp_path / "cmd_floor0.005.json")  # kept: not read again
    assert seen == [("export", tmp_path / "fold.pt", 64), ("floor", 0.005)]
    assert first == again and first["tile_errors"] == 3 and first["top_confusions"] == [["F->E", 1]]
    assert json.loads((proxy / "meta.json").read_text())["characters"]["floor"] == 0.02


def test_a_proxy_without_the_recognizer_is_refused(tmp_path: Path) -> None:
    reading = character_floor.Reading("cmd", tmp_path / "cmd.yaml", tmp_path / "fold.pt")
    with pytest.raises(SystemExit, match="has no character recognizer"):
        character_floor.read(reading, 0.005, _proxy(tmp_path, characters=False), tmp_path / "kept.json")


def test_the_gate_is_set_on_a_copy_changed_by_the_proxy_settings(tmp_path: Path, monkeypatch) -> None:
    from vision import evaluate
    from vision.twostage import export

    proxy = _proxy(tmp_path)
    seen = []
    monkeypatch.setattr(export, "export_classifier", lambda weights, folder, imgsz: seen.append(("export", imgsz)))

    def predictor(model: Path):
        meta = json.loads((model / "meta.json").read_text())
        seen.append(("meta", meta["classifier"], meta["characters"]))
        return None, "openvino"

    monkeypatch.setattr(evaluate, "detector_predictor", predictor)
    monkeypatch.setattr(evaluate, "labelled_images", lambda data: [])
    result = SimpleNamespace(images=2, true_tiles=40, tile_errors=3, tile_accuracy=0.925, missed=1, misclassified=1,
                             extra=1, top_confusions=[])
    monkeypatch.setattr(evaluate, "evaluate", lambda *args, **kwargs: result)
    reading = character_floor.Reading("cmd", tmp_path / "cmd.yaml", tmp_path / "fold.pt")
    character_floor.read(reading, 0.95, proxy, tmp_path / "cmd_gate0.95.json", "gate",
                         {"classifier": {"imgsz": 96, "half_turn_below": 0.8}})
    assert seen == [("export", 96), ("meta", {"imgsz": 96, "half_turn_below": 0.8},
                                     {"gate": 0.95, "kind_mass": 0.3, "floor": 0.02})]


def test_a_setting_the_recognizer_does_not_have_is_refused(tmp_path: Path) -> None:
    reading = character_floor.Reading("cmd", tmp_path / "cmd.yaml", tmp_path / "fold.pt")
    with pytest.raises(ValueError, match="setting 'margin' is not one of floor, gate, kind_mass"):
        character_floor.read(reading, 0.1, _proxy(tmp_path), tmp_path / "kept.json", "margin")


@pytest.mark.parametrize("setting, header", [
    ("floor", "| reading | photos / tiles | floor 0.02 | floor 0.005 |"),
    ("gate", "| reading | photos / tiles | gate 0.02 | gate 0.005 |"),
])
def test_the_table_has_a_row_a_reading_and_the_totals_per_value(setting, header) -> None:
    def row(*errors: int) -> dict:
        return {str(v): {"photos": 3, "tiles": 1200, "tile_errors": e} for v, e in zip((0.02, 0.005), errors)}

    result = {"date": "d", "machine": "m", "proxy": "work/p", "setting": setting, "values": [0.02, 0.005],
              "proxy_settings": {"classifier": {"imgsz": 96}}, "readings": {"cmd": row(600, 580), "ffalt": row(300, 310)}}
    text = character_floor.markdown(result)
    lines = text.splitlines()
    assert lines[0].startswith(f"# {character_floor.SETTINGS[setting].capitalize()} on tile sets")
    assert f"`characters.{setting}`" in text and '`{"classifier": {"imgsz": 96}}`' in text
    assert header in lines
    assert "| cmd | 3 / 1,200 | 600 | 580 |" in lines
    assert lines[-1] == "| all | | 900 | 890 |"
