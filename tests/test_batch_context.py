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

from mjsnap.batch.context import READING_FIELDS, ContextError, merge_context, read_sidecar
from mjsnap.batch.journal import latest_by_path
from mjsnap.batch.records import PhotoRecord
from mjsnap.batch.runner import BatchSettings, run_batch, sha256_of
from mjsnap.batch.scorers import ScorerConfig, pipeline_scorer
from mjsnap.cli import app

FAKE = "batch_fakes:pixel_scorer"
KONG_ROWS = ["8s 8s 8s 8s | ^2p 2p 2p", "1m 2m 3m 4m 5m 6m 9p | 9p"]  # meld 0: four face-up 8s, meld 1: a pung
BACKS_ROWS = ["# # # # | ^2p 2p 2p", "1m 2m 3m 4m 5m 6m 9p | 9p"]  # meld 0: a kong shown as four backs
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
        (None, {"b": '{"win_tile": "5m"}'}, ("scored", None), ("scored", None)),  # read otherwise: read again
        (None, {"a": '{"reread_tiles": 0}', "b": '{"reread_tiles": 0}'}, ("scored", None), ("duplicate", None)),
        (None, {"b": '{"reread_tiles": 3}'}, ("scored", None), ("duplicate", None)),  # the default, written out
        (None, {"a": '{"win_tile": "9x"}'}, ("error", "bad_sidecar"), ("scored", None)),
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


@pytest.mark.parametrize("resume", [False, True])
def test_each_context_has_its_own_first_copy(tmp_path: Path, resume):
    # a.jpg in the run's context, b.jpg and c.jpg (the same bytes) both read another way: c is b's duplicate, in one
    # run or when c turns up on a resume
    folder = tmp_path / "photos"
    folder.mkdir()
    out = tmp_path / "out.jsonl"
    names = ("a", "b", "c")
    for name in names[:2] if resume else names:
        (folder / f"{name}.jpg").write_bytes(photo_bytes())
    for name in ("b", "c"):
        (folder / f"{name}.json").write_text('{"win_tile": "5m"}')
    if resume:
        run(folder, out)
        (folder / "c.jpg").write_bytes(photo_bytes())
    records = run(folder, out, resume=resume)
    assert [records[f"{name}.jpg"]["status"] for name in names] == ["scored", "scored", "duplicate"]
    assert records["c.jpg"]["duplicate_of"] == str((folder / "b.jpg").resolve())


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
        ('{"meld_from": {"\u00b2": 2}}', "meld_from must map meld numbers to seats"),  # a digit, but no number
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
        (["--meld-from", "0=\u00b2"], "error: --meld-from 0=\u00b2: the seat is 0-3"),
        (["--meld-from", "\u00b2=1"], "error: --meld-from '\u00b2=1': write I=SEAT"),
        (["--meld-type", "zero=pung"], "error: --meld-type 'zero=pung': write I=TYPE"),
        (["--kong-kind", "9z"], "error: --kong-kind 9z"),
        (["--face-up-kong", "kong_big"], "error: --face-up-kong kong_big"),
        (["--reread-tiles", "4"], "error: --reread-tiles 4"),
        (["--ship-bytes"], "error: --ship-bytes is for --engine ray"),
        (["--ray-address", "auto", "--ship-bytes"], "error: --ray-address and --ship-bytes are for --engine ray"),
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

    monkeypatch.setattr(mjsnap.batch.runner, "batch_run", capture)
    result = runner.invoke(app, ["batch", str(tmp_path), "--rules", "xian", "--out", str(tmp_path / "o.jsonl"),
                                 "--discarder", "2", "--win-tile", "last", "--kong-kind", "C", "--meld-type",
                                 "1=kong_added", "--reread-tiles", "0", "--meld-from", "0=1", "--meld-from", "2=3"])
    assert result.exit_code == 2 and "stopped by the test" in result.stderr
    context = seen["settings"].context  # the reading options as a sidecar writes them, which it may override
    reading = {name: context[name] for name in READING_FIELDS if name in context}
    assert reading == {"win_tile": "last", "kong_kind": ["C"], "meld_type": {"1": "kong_added"}, "reread_tiles": 0}
    assert context["meld_from"] == {"0": 1, "2": 3} and context["discarder"] == 2


@pytest.mark.parametrize(
    ("context", "valid", "code"),
    [
        ({"discarder": 2}, False, "kong_feeder_missing"),
        ({"discarder": 2, "meld_from": {"0": 1}}, True, None),
        ({"discarder": 2, "meld_type": {"0": "kong_added"}}, True, None),
        ({"discarder": 2, "face_up_kong": "kong_added"}, True, None),
        ({"discarder": 2, "meld_from": {"3": 1}}, False, "bad_meld"),
    ],
)
def test_the_pipeline_scorer_reads_and_scores_as_told(tmp_path: Path, monkeypatch, context, valid, code):
    import vision.detector

    monkeypatch.setattr(vision.detector, "TileDetector", lambda *args, **kwargs: FixedDetector(KONG_ROWS))
    photo = tmp_path / "hand.png"
    Image.fromarray(np.full((800, 1000, 3), 90, np.uint8)).save(photo)
    score = pipeline_scorer(ScorerConfig(ruleset="shaanxi"))
    outcome = score(photo, merge_context({"winner": 0}, context))
    assert (outcome.valid, outcome.error_code) == (valid, code), outcome.error
    if code == "kong_feeder_missing":
        assert "--meld-from 0=SEAT" in outcome.error and "--meld-type 0=kong_added" in outcome.error


def read_archive(tmp_path: Path, monkeypatch, rows: list[str], sidecar: dict | None, *args: str) -> dict[str, dict]:
    """Records of `mjsnap batch` (the real per-photo function) over a.png, beside which lies the sidecar if any, and
    b.png, both showing the tiles of ``rows`` (a stand-in detector); discarder 2 and the reading ``args`` by default."""
    import vision.detector

    monkeypatch.setattr(vision.detector, "TileDetector", lambda *_, **__: FixedDetector(rows))
    folder = tmp_path / "photos"
    folder.mkdir(exist_ok=True)
    for name, level in (("a", 90), ("b", 120)):
        Image.fromarray(np.full((800, 1000, 3), level, np.uint8)).save(folder / f"{name}.png")
    if sidecar is not None:
        (folder / "a.json").write_text(json.dumps(sidecar))
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["batch", str(folder), "--rules", "shaanxi", "--out", str(out), "--workers", "1",
                                 "--no-progress", "--no-report", "--discarder", "2", *args])
    assert result.exit_code == 0, result.output
    return {Path(path).name: record for path, record in latest_by_path(out).items()}


def reading_in(record: dict) -> dict:
    return {name: record["context"][name] for name in READING_FIELDS if name in record["context"]}


# rows: what a.png and b.png show; args: the run's reading options; sidecar: a.png's; then what a.png's record says:
# the reading in its context, its melds' types and winning tile as read, and why it is not scored (None: scored)
@pytest.mark.parametrize(
    ("rows", "args", "sidecar", "reading", "melds", "win", "code"),
    [
        (KONG_ROWS, [], None, {}, ["kong_exposed", "pung"], "9p", "kong_feeder_missing"),
        (KONG_ROWS, [], {"meld_type": {"0": "kong_added"}}, {"meld_type": {"0": "kong_added"}},
         ["kong_added", "pung"], "9p", None),
        (KONG_ROWS, [], {"face_up_kong": "kong_added"}, {"face_up_kong": "kong_added"}, ["kong_added", "pung"], "9p",
         None),
        (KONG_ROWS, [], {"win_tile": "5m", "meld_from": {"0": 1}}, {"win_tile": "5m"}, ["kong_exposed", "pung"], "5m",
         None),
        # keys a sidecar does not name keep the command line's; a meld_type replaces --meld-type whole
        (KONG_ROWS, ["--meld-type", "0=kong_added"], {"winner": 0}, {"meld_type": {"0": "kong_added"}},
         ["kong_added", "pung"], "9p", None),
        (KONG_ROWS, ["--meld-type", "0=kong_added"], {"win_tile": "5m"},
         {"meld_type": {"0": "kong_added"}, "win_tile": "5m"}, ["kong_added", "pung"], "5m", None),
        (KONG_ROWS, ["--meld-type", "0=kong_added"], {"meld_type": {"1": "pung"}}, {"meld_type": {"1": "pung"}},
         ["kong_exposed", "pung"], "9p", "kong_feeder_missing"),
        (KONG_ROWS, ["--meld-type", "0=kong_added"], {"meld_type": {}}, {}, ["kong_exposed", "pung"], "9p",
         "kong_feeder_missing"),
        (KONG_ROWS, ["--win-tile", "5m"], {"win_tile": "set_apart"}, {}, ["kong_exposed", "pung"], "9p",
         "kong_feeder_missing"),
        (BACKS_ROWS, [], None, {}, ["pung"], "9p", "kong_kind_unknown"),
        (BACKS_ROWS, [], {"kong_kind": ["8s"]}, {"kong_kind": ["8s"]}, ["kong_concealed", "pung"], "9p", None),
        (BACKS_ROWS, ["--kong-kind", "C"], {"kong_kind": ["8s"]}, {"kong_kind": ["8s"]}, ["kong_concealed", "pung"],
         "9p", None),
        (BACKS_ROWS, ["--kong-kind", "8s", "--reread-tiles", "1"], {"reread_tiles": 0},
         {"kong_kind": ["8s"], "reread_tiles": 0}, ["kong_concealed", "pung"], "9p", None),
        (BACKS_ROWS, ["--kong-kind", "8s", "--reread-tiles", "1"], {"reread_tiles": 3}, {"kong_kind": ["8s"]},
         ["kong_concealed", "pung"], "9p", None),
    ],
)
def test_a_sidecar_says_how_to_read_its_photo(tmp_path: Path, monkeypatch, rows, args, sidecar, reading, melds, win,
                                              code):
    records = read_archive(tmp_path, monkeypatch, rows, sidecar, *args)
    record = records["a.png"]
    assert (record["status"], record["error_code"]) == ("scored" if code is None else "not_scored", code), record
    assert reading_in(record) == reading
    assert ([meld["type"] for meld in record["hand"]["melds"]], record["hand"]["win_tile"]) == (melds, win)
    assert record["sidecar"] == (None if sidecar is None else str((tmp_path / "photos" / "a.json").resolve()))


# a.png's sidecar names one bad reading value: its record is a bad_sidecar error that names the field as the sidecar
# writes it and gives the reason the command line gives for the same value (cli), and b.png is still read
@pytest.mark.parametrize(
    ("sidecar", "written", "reason", "cli"),
    [
        ({"win_tile": "9x"}, 'win_tile "9x"', "unexpected character 'x' at position 1", ["--win-tile", "9x"]),
        ({"win_tile": 5}, "win_tile 5", "Input should be a valid string; or give set_apart, last, none", None),
        ({"face_up_kong": "kong_big"}, 'face_up_kong "kong_big"', "Input should be 'kong_exposed' or 'kong_added'",
         ["--face-up-kong", "kong_big"]),
        ({"kong_kind": ["8s", "9z"]}, 'kong_kind ["8s", "9z"]', "honours are 1z-7z",
         ["--kong-kind", "8s", "--kong-kind", "9z"]),
        ({"kong_kind": "8s"}, 'kong_kind "8s"', "Input should be a valid list", None),
        ({"meld_type": {"0": "kong_big"}}, 'meld_type "kong_big"', "Input should be 'chow', 'pung'",
         ["--meld-type", "0=kong_big"]),
        ({"meld_type": {"first": "pung"}}, 'meld_type {"first": "pung"}', 'write {"I": TYPE}, e.g. {"0": "kong_added"}',
         None),
        ({"meld_type": ["kong_added"]}, 'meld_type ["kong_added"]', 'write {"I": TYPE}', None),
        ({"reread_tiles": 4}, "reread_tiles 4", "Input should be less than or equal to 3", ["--reread-tiles", "4"]),
        ({"reread_tiles": True}, "reread_tiles true", "Input should be a valid integer", None),
        ({"reread_tiles": "2"}, 'reread_tiles "2"', "Input should be a valid integer", None),
    ],
)
def test_a_bad_reading_value_in_a_sidecar_is_an_error_record_naming_the_field(tmp_path: Path, monkeypatch, sidecar,
                                                                               written, reason, cli):
    records = read_archive(tmp_path, monkeypatch, KONG_ROWS, {"winner": 1, **sidecar}, "--meld-type", "0=kong_added")
    record = records["a.png"]
    assert (record["status"], record["error_code"], record["context"]) == ("error", "bad_sidecar", None)
    assert record["error"].startswith(f"sidecar a.json: {written}: ") and reason in record["error"], record["error"]
    assert "\n" not in record["error"]
    assert records["b.png"]["status"] == "scored"
    if cli is not None:
        result = runner.invoke(app, ["batch", str(tmp_path / "photos"), "--rules", "shaanxi", "--out",
                                     str(tmp_path / "cli.jsonl"), "--no-progress", *cli])
        assert result.exit_code == 2
        assert record["error"].removeprefix(f"sidecar a.json: {written}: ") == result.stderr.strip().split(": ", 2)[2]


def test_a_sidecar_naming_an_unknown_reading_field_lists_the_known_ones(tmp_path: Path):
    path = tmp_path / "p.json"
    path.write_text('{"win_tiles": "5p"}')
    with pytest.raises(ContextError, match="unknown context field.*win_tiles; known: .*win_tile, face_up_kong, "
                                           "kong_kind, meld_type, reread_tiles") as info:
        read_sidecar(path)
    assert info.value.code == "bad_sidecar"


def test_resume_retry_errors_reads_a_photo_again_once_its_sidecar_is_fixed(tmp_path: Path, monkeypatch):
    first = read_archive(tmp_path, monkeypatch, KONG_ROWS, {"meld_type": {"0": "kong_big"}})
    assert first["a.png"]["error_code"] == "bad_sidecar"
    (tmp_path / "photos" / "a.json").write_text('{"meld_type": {"0": "kong_added"}}')
    records = read_archive(tmp_path, monkeypatch, KONG_ROWS, None, "--resume", "--retry-errors")
    assert (records["a.png"]["status"], reading_in(records["a.png"])) == ("scored", {"meld_type": {"0": "kong_added"}})


@pytest.mark.parametrize(
    ("sidecar", "status"),
    [(None, "duplicate"), ('{"win_tile": "5m"}', "scored"), ('{"reread_tiles": 3}', "duplicate")],
)
def test_resume_reads_a_new_copy_again_only_when_its_reading_differs(tmp_path: Path, sidecar, status):
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "a.jpg").write_bytes(photo_bytes())
    out = tmp_path / "out.jsonl"
    run(folder, out)
    (folder / "b.jpg").write_bytes(photo_bytes())
    if sidecar is not None:
        (folder / "b.json").write_text(sidecar)
    records = run(folder, out, resume=True)
    assert records["b.jpg"]["status"] == status
    assert records["b.jpg"]["duplicate_of"] == (str((folder / "a.jpg").resolve()) if status == "duplicate" else None)
