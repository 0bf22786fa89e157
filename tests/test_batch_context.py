"""`mjsnap batch`: what a photo cannot show (the context, who fed its melds, how to read it) from the command line
and sidecars, checked before the run; and duplicates, which stand only for a copy scored in the same context."""

from __future__ import annotations

import json
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from normalize_layouts import FixedDetector
from typer.testing import CliRunner

from mjsnap.batch.context import ContextError, merge_context, read_sidecar
from mjsnap.batch.journal import latest_by_path
from mjsnap.batch.records import PhotoRecord
from mjsnap.batch.runner import BatchSettings, run_batch, sha256_of
from mjsnap.batch.scorers import ScorerConfig, pipeline_scorer
from mjsnap.cli import app

FAKE = "batch_fakes:pixel_scorer"
KONG_ROWS = ["8s 8s 8s 8s | ^2p 2p 2p", "1m 2m 3m 4m 5m 6m 9p | 9p"]  # meld 0: four face-up 8s, meld 1: a pung
runner = CliRunner()


def photo_bytes() -> bytes:
    buffer = BytesIO()
    Image.new("RGB", (40, 24), (40, 120, 200)).save(buffer, format="JPEG")  # an even width: a win for the fake
    return buffer.getvalue()


def run(folder: Path, out: Path, **overrides) -> dict[str, dict]:
    values = {"inputs": [str(folder)], "out": out, "ruleset": "weinan", "scorer": FAKE, "context": {"winner": 1}}
    run_batch(BatchSettings(**{**values, **overrides}))
    return {Path(path).name: record for path, record in latest_by_path(out).items()}


# a.jpg and b.jpg hold the same bytes (a small JPEG, or first_bytes), a.jpg met first; sidecars: the text of each one's
@pytest.mark.parametrize(
    ("first_bytes", "sidecars", "first", "second"),
    [
        (None, {}, ("scored", None), ("duplicate", None)),
        (None, {"b": '{"winner": 2}'}, ("scored", None), ("scored", None)),
        (None, {"a": '{"winner": 2}', "b": '{"winner": 2}'}, ("scored", None), ("duplicate", None)),
        (None, {"a": '{"winner": 7}'}, ("error", "bad_sidecar"), ("scored", None)),
        (None, {"a": "{not json"}, ("error", "bad_sidecar"), ("scored", None)),
        (None, {"b": '{"meld_from": {"0": 2}}'}, ("scored", None), ("scored", None)),
        (b"text, not a photo\n", {}, ("error", "unreadable_image"), ("duplicate", None)),
        (b"text, not a photo\n", {"b": '{"winner": 3}'}, ("error", "unreadable_image"), ("error", "unreadable_image")),
    ],
)
def test_a_copy_is_a_duplicate_only_of_a_photo_its_bytes_decided_in_the_same_context(
    tmp_path: Path, first_bytes, sidecars, first, second
):
    folder = tmp_path / "photos"
    folder.mkdir()
    data = first_bytes if first_bytes is not None else photo_bytes()
    for name in ("a", "b"):
        (folder / f"{name}.jpg").write_bytes(data)
        if name in sidecars:
            (folder / f"{name}.json").write_text(sidecars[name])
    records = run(folder, tmp_path / "out.jsonl")
    for name, expected in (("a.jpg", first), ("b.jpg", second)):
        PhotoRecord.model_validate(records[name])
        assert (records[name]["status"], records[name]["error_code"]) == expected, records[name]
    copy = records["b.jpg"]
    if copy["status"] == "duplicate":
        assert copy["duplicate_of"] == str((folder / "a.jpg").resolve())
        assert copy["context"] == records["a.jpg"]["context"]
    else:
        assert copy["duplicate_of"] is None


def test_resume_scores_a_copy_recorded_as_the_duplicate_of_a_photo_whose_sidecar_failed(tmp_path: Path):
    folder = tmp_path / "photos"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.jpg").write_bytes(photo_bytes())
    sha, size = sha256_of(folder / "a.jpg")
    first, copy = (str((folder / name).resolve()) for name in ("a.jpg", "b.jpg"))
    out = tmp_path / "out.jsonl"
    earlier = [  # as runs before this fix wrote them
        PhotoRecord(path=first, sha256=sha, bytes=size, status="error", ruleset="weinan", error_code="bad_sidecar"),
        PhotoRecord(path=copy, sha256=sha, bytes=size, status="duplicate", ruleset="weinan", duplicate_of=first),
    ]
    out.write_text("".join(r.model_dump_json() + "\n" for r in earlier))
    records = run(folder, out, resume=True)
    assert records["b.jpg"]["status"] in ("scored", "not_scored") and records["a.jpg"]["status"] == "error"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"meld_from": {"0": 2}}', None),
        ('{"meld_from": {"0": 4}}', "meld_from must map meld numbers to seats"),
        ('{"meld_from": {"first": 2}}', "meld_from must map meld numbers to seats"),
        ('{"meld_from": [2]}', "meld_from must map meld numbers to seats"),
        ('{"meld_from": {"0": true}}', "meld_from must map meld numbers to seats"),
    ],
)
def test_a_sidecar_names_who_fed_a_meld(tmp_path: Path, text: str, problem: str | None):
    path = tmp_path / "p.json"
    path.write_text(text)
    if problem is None:
        assert read_sidecar(path) == json.loads(text)
        return
    with pytest.raises(ContextError, match=problem) as info:
        read_sidecar(path)
    assert info.value.code == "bad_sidecar"


@pytest.mark.parametrize(
    ("defaults", "sidecar", "meld_from"),
    [
        ({"winner": 1}, {}, None),
        ({"winner": 1, "meld_from": {"0": 2}}, {}, {"0": 2}),
        ({"winner": 1, "meld_from": {"0": 2}}, {"meld_from": {"1": 3}}, {"1": 3}),  # replaced, as every field is
        ({"winner": 1, "meld_from": {"0": 2}}, {"meld_from": {}}, None),
    ],
)
def test_a_sidecars_meld_from_replaces_the_command_lines(defaults: dict, sidecar: dict, meld_from):
    merged = merge_context(defaults, sidecar)
    assert merged.get("meld_from") == meld_from and merged["winner"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--self-draw", "--discarder", "2"], "error: context: a self-drawn win has no discarder"),
        (["--winner", "2", "--discarder", "2"], "error: context: the discarder cannot be the winner"),
        (["--robbing-kong"], "error: context: robbing a kong needs the seat whose kong was robbed"),
        (["--bets", "1,2"], "error: --bets '1,2': give four whole numbers, one per seat"),
        (["--meld-from", "0=9"], "error: --meld-from 0=9: the seat is 0-3"),
        (["--meld-type", "zero=pung"], "error: --meld-type 'zero=pung': write I=TYPE"),
        (["--kong-kind", "9z"], "error: --kong-kind 9z"),
        (["--face-up-kong", "kong_big"], "error: --face-up-kong kong_big"),
        (["--reread-tiles", "4"], "error: --reread-tiles 4"),
    ],
)
def test_bad_command_line_context_or_reading_is_refused_before_the_run(tmp_path: Path, args, message):
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "a.jpg").write_bytes(photo_bytes())
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["batch", str(folder), "--rules", "xian", "--out", str(out), "--scorer", FAKE,
                                 "--no-progress", *args])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [result.stderr.strip()] and message in result.stderr
    assert not out.exists()


def test_reading_options_and_meld_feeders_reach_the_settings(tmp_path: Path, monkeypatch):
    import mjsnap.batch.runner
    from mjsnap.batch.errors import BatchError

    seen = {}

    def capture(settings, **_):
        seen["settings"] = settings
        raise BatchError("stopped by the test")

    monkeypatch.setattr(mjsnap.batch.runner, "run_batch", capture)
    result = runner.invoke(app, ["batch", str(tmp_path), "--rules", "xian", "--out", str(tmp_path / "o.jsonl"),
                                 "--discarder", "2", "--win-tile", "last", "--kong-kind", "C", "--meld-type",
                                 "1=kong_added", "--reread-tiles", "0", "--meld-from", "0=1", "--meld-from", "2=3"])
    assert result.exit_code == 2 and "stopped by the test" in result.stderr
    settings = seen["settings"]
    assert settings.read_options == {"win_tile": "last", "concealed_kong_kinds": ["C"],
                                     "meld_types": {1: "kong_added"}, "reread_tiles": 0}
    assert settings.context["meld_from"] == {"0": 1, "2": 3} and settings.context["discarder"] == 2


@pytest.mark.parametrize(
    ("read_options", "context", "valid", "code"),
    [
        ({}, {"discarder": 2}, False, "kong_feeder_missing"),
        ({}, {"discarder": 2, "meld_from": {"0": 1}}, True, None),
        ({"meld_types": {0: "kong_added"}}, {"discarder": 2}, True, None),
        ({}, {"discarder": 2, "meld_from": {"3": 1}}, False, "bad_meld"),
    ],
)
def test_the_pipeline_scorer_reads_and_scores_as_told(tmp_path: Path, monkeypatch, read_options, context, valid,
                                                       code):
    import vision.detector

    monkeypatch.setattr(vision.detector, "TileDetector", lambda *args, **kwargs: FixedDetector(KONG_ROWS))
    photo = tmp_path / "hand.png"
    Image.fromarray(np.full((800, 1000, 3), 90, np.uint8)).save(photo)
    score = pipeline_scorer(ScorerConfig(ruleset="shaanxi", read_options=read_options))
    outcome = score(photo, merge_context({"winner": 0}, context))
    assert (outcome.valid, outcome.error_code) == (valid, code), outcome.error
    if code == "kong_feeder_missing":
        assert "--meld-from 0=SEAT" in outcome.error and "--meld-type 0=kong_added" in outcome.error
