"""`mjsnap detect`: the JSON-lines contract, rotated photos, bad files among good ones, the table, a missing model."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from detector_model import tile_scene
from mjsnap.cli import app
from scoring.tiles import CLASS_NAMES

ORIENTATION_TAG = 0x0112


@pytest.fixture()
def photos(tmp_path: Path) -> dict[str, Path]:
    """An upright PNG, the same scene written sideways as a JPEG with EXIF orientation 6, and two bad files."""
    scene = tile_scene(480, 640, seed=4)
    upright = tmp_path / "upright.png"
    Image.fromarray(scene).save(upright)
    exif = Image.Exif()
    exif[ORIENTATION_TAG] = 6
    rotated = tmp_path / "rotated.jpg"
    Image.fromarray(np.ascontiguousarray(np.rot90(scene, 1))).save(rotated, quality=95, exif=exif.tobytes())
    text = tmp_path / "notes.jpg"
    text.write_text("this is a text file")
    return {"upright": upright, "rotated": rotated, "text": text, "missing": tmp_path / "missing.heic"}


def run(*args: str):
    return CliRunner().invoke(app, ["detect", *args])


def json_lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def check_detection_record(record: dict) -> None:
    assert set(record) == {"image", "width", "height", "ms", "detections"}
    assert isinstance(record["width"], int) and isinstance(record["height"], int)
    assert isinstance(record["ms"], float) and record["ms"] >= 0
    for item in record["detections"]:
        assert set(item) == {"cls", "conf", "box"}
        assert item["cls"] in CLASS_NAMES
        assert 0 < item["conf"] <= 1
        x1, y1, x2, y2 = item["box"]
        assert 0 <= x1 <= x2 <= record["width"] and 0 <= y1 <= y2 <= record["height"]


def test_json_lines_for_good_and_bad_files(tiny_model: Path, photos: dict[str, Path]) -> None:
    order = ["upright", "text", "rotated", "missing"]
    result = run(*(str(photos[name]) for name in order), "--json", "--model", str(tiny_model), "--conf", "0.2")
    assert result.exit_code == 1, result.output
    records = json_lines(result.stdout)
    assert [r["image"] for r in records] == [str(photos[name]) for name in order]
    upright, text, rotated, missing = records
    for good in (upright, rotated):
        check_detection_record(good)
        assert (good["width"], good["height"]) == (480, 640)  # the rotated JPEG is reported upright
    assert len(upright["detections"]) > 0
    assert set(text) == {"image", "error"} and "not a readable image" in text["error"]
    assert set(missing) == {"image", "error"} and "no such file" in missing["error"]


def test_all_good_files_exit_zero(tiny_model: Path, photos: dict[str, Path]) -> None:
    result = run(str(photos["upright"]), "--json", "--model", str(tiny_model), "--backend", "onnxruntime")
    assert result.exit_code == 0, result.output
    (record,) = json_lines(result.stdout)
    check_detection_record(record)


def test_table_output(tiny_model: Path, photos: dict[str, Path]) -> None:
    result = run(str(photos["upright"]), str(photos["text"]), "--model", str(tiny_model), "--conf", "0.2")
    assert result.exit_code == 1
    assert "upright.png" in result.stdout and "480x640" in result.stdout and "tiles" in result.stdout
    assert "notes.jpg: not a readable image" in result.stderr


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    image = tmp_path / "a.png"
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buffer, format="PNG")
    image.write_bytes(buffer.getvalue())
    result = run(str(image), "--json", "--model", str(tmp_path / "no-model"))
    assert result.exit_code == 2
    assert "no model directory" in result.stderr and "--model DIR" in result.stderr
