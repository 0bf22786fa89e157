"""`mjsnap read` and mjsnap.pipeline: photo → detections → read hand → score, with a detector standing in for the
model where the test must not depend on the shipped one, and with the shipped model when it is present."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from mjsnap.cli import app
from mjsnap.paths import MODELS_DIR
from mjsnap.pipeline import read_photo, score_photo
from normalize_layouts import FixedDetector

runner = CliRunner()
HAND_ROWS = ["^2p 2p 2p | 4s ^5s 6s", "1m 2m 3m 4m 5m 6m 7m | 9p"]


@pytest.fixture
def photo(tmp_path):
    path = tmp_path / "hand.png"
    Image.fromarray(np.full((800, 1000, 3), 90, np.uint8)).save(path)
    return path


def test_read_photo_returns_detections_hand_and_meta(photo):
    dets, hand, meta = read_photo(photo, FixedDetector(HAND_ROWS))
    assert len(dets) == 14
    assert hand.to_json()["concealed"] == "1234567m" and hand.to_json()["win_tile"] == "9p"
    assert meta["width"] == 1000 and meta["height"] == 800 and meta["model"] == "fixed-test"


def test_score_photo_is_the_notation_json_plus_the_read_hand(photo):
    from scoring.scorer import parse_hand, score

    out = score_photo(photo, "shaanxi", context={"winner": 1, "discarder": 2}, detector=FixedDetector(HAND_ROWS))
    typed = parse_hand(
        "1234567m", "9p", [{"type": "pung", "tiles": "222p"}, {"type": "chow", "tiles": "456s"}],
        {"winner": 1, "discarder": 2},
    )
    expected = score(typed, "shaanxi").to_json()
    assert {k: out[k] for k in expected} == expected
    assert out["read"]["concealed"] == "1234567m" and out["photo"]["model"] == "fixed-test"


def test_score_photo_reports_an_unscorable_read_instead_of_raising(photo):
    out = score_photo(photo, "weinan", context={"self_draw": True}, detector=FixedDetector(["# # # # | ^E E E", "1m 2m 3m 4m 5m 6m 9p | 9p"]))
    assert out["valid"] is False and out["reason"] == "kong_kind_unknown"
    assert "kong_kind_unknown" in [w["code"] for w in out["read"]["warnings"]]


def test_score_photo_on_an_unreadable_file(tmp_path):
    bad = tmp_path / "not-a-photo.jpg"
    bad.write_text("hello")
    out = score_photo(bad, "xian", detector=FixedDetector(HAND_ROWS))
    assert out["valid"] is False and out["reason"] == "unreadable_image" and out["read"] is None


def test_read_cli_rejects_an_unreadable_file(tmp_path):
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"\x89PNG broken")
    result = runner.invoke(app, ["read", str(bad), "--json", "--model", str(MODELS_DIR / "current")])
    assert result.exit_code == 2 and "error:" in result.output


def test_read_cli_rejects_a_missing_model(photo, tmp_path):
    result = runner.invoke(app, ["read", str(photo), "--json", "--model", str(tmp_path / "no-model")])
    assert result.exit_code == 2 and "error:" in result.output


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ('{"version": 1', "{model}/meta.json is not JSON: Expecting ',' delimiter: line 1 column 14 (char 13)"),
        ("[]", "{model}/meta.json: a model's meta.json is a JSON object, not list"),
        ('{"classes": 3}', "{model}/meta.json: classes must be the 36 names of classes.txt in order"),
    ],
)
def test_read_cli_names_a_damaged_model(photo, tmp_path, meta, message):
    """A meta.json read uses could not was a traceback (read caught only a missing model, where detect says both)."""
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "meta.json").write_text(meta)
    result = runner.invoke(app, ["read", str(photo), "--model", str(tmp_path / "model")])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [f"error: {message.format(model=tmp_path / 'model')}"]


@pytest.mark.parametrize(
    "args",
    [["--meld-type", "zero=pung"], ["--face-up-kong", "kong_big"], ["--kong-kind", "9z"], ["--reread-tiles", "4"]],
)
def test_read_cli_rejects_bad_options(photo, args):
    result = runner.invoke(app, ["read", str(photo), "--json", *args])
    assert result.exit_code == 2 and "error:" in result.output


needs_model = pytest.mark.skipif(
    not (MODELS_DIR / "current" / "meta.json").is_file(), reason="no shipped model in models/current yet"
)


@needs_model
def test_read_cli_json_on_a_generated_photo(tmp_path):
    from vision.synth.scene import make_sample

    sample = make_sample(seed=11, index=3)
    path = tmp_path / "synth.jpg"
    Image.fromarray(sample.image).save(path, quality=92)
    result = runner.invoke(app, ["read", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"image", "concealed", "melds", "win_tile", "tiles", "warnings"}
    assert data["tiles"] and all({"cls", "conf", "box", "group"} <= set(t) for t in data["tiles"])
    assert all({"code", "message", "tiles"} == set(w) for w in data["warnings"])


@needs_model
def test_score_cli_on_a_photo_end_to_end(tmp_path):
    from vision.synth.scene import make_sample

    sample = make_sample(seed=11, index=3)
    path = tmp_path / "synth.jpg"
    Image.fromarray(sample.image).save(path, quality=92)
    result = runner.invoke(app, ["score", str(path), "--rules", "xian", "--self-draw", "--json"])
    data = json.loads(result.output.strip().splitlines()[-1])
    assert {"valid", "items", "read", "photo"} <= set(data)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--conf", "5"], ["'--conf'", "5.0 is not in the range 0 <= conf < 1"]),
        (["--conf", "1"], ["'--conf'", "1.0 is not in the range 0 <= conf < 1"]),
        (["--win-tile", "foo"], ["error: --win-tile foo: ", "or give set_apart, last, none"]),
        (["--face-up-kong", "big"], ["error: --face-up-kong big: ", "'kong_exposed' or 'kong_added'"]),
        (["--reread-tiles", "9"], ["error: --reread-tiles 9: ", "less than or equal to 3"]),
    ],
)
def test_read_cli_names_the_option_and_what_it_takes(photo, args, expected):
    result = runner.invoke(app, ["read", str(photo), *args])
    assert result.exit_code == 2 and all(text in result.output for text in expected), result.output
    assert "min_confidence" not in result.output and "win_tile_kind" not in result.output
