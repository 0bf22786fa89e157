"""The batch machinery with a deterministic per-photo function (tests/batch_fakes.py): discovery, records,
the fsynced journal and its torn-tail repair, resume, duplicates, sidecar context, CSV, summary and report."""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner
from batch_archive import BAD_FILES, BAD_SIDECAR_PHOTO, DUPLICATE, GOOD_PHOTOS, SIDECAR, SIDECAR_PHOTO, make_archive
from batch_fakes import FAKE_MODEL_VERSION

from mjsnap.batch.context import ContextError, merge_context, read_sidecar
from mjsnap.batch.discovery import DiscoveryError, discover, sniff_image_format
from mjsnap.batch.export import CSV_COLUMNS, write_csv
from mjsnap.batch.finish import finish_run, report_path, summary_path
from mjsnap.batch.journal import JournalError, JournalWriter, iter_records, latest_by_path, repair_tail
from mjsnap.batch.progress import BatchProgress
from mjsnap.batch.records import PhotoRecord, content_of
from mjsnap.batch.runner import BatchError, BatchSettings, run_batch
from mjsnap.batch.scorers import ScorerSpecError
from mjsnap.cli import app

FAKE = "batch_fakes:pixel_scorer"


def settings(tmp_path: Path, archive: Path, **overrides) -> BatchSettings:
    values = {"inputs": [str(archive)], "out": tmp_path / "results.jsonl", "ruleset": "weinan", "scorer": FAKE}
    return BatchSettings(**{**values, **overrides})


def by_name(out: Path, archive: Path) -> dict[str, dict]:
    return {str(Path(p).relative_to(archive.resolve())): r for p, r in latest_by_path(out).items()}


@pytest.fixture()
def archive(tmp_path: Path) -> Path:
    return make_archive(tmp_path / "photos")


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "jpeg"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "png"),
        (b"RIFF\x10\x00\x00\x00WEBPVP8 ", "webp"),
        (b"\x00\x00\x00\x18ftypheic\x00\x00", "heif"),
        (b"\x00\x00\x00\x18ftypmif1\x00\x00", "heif"),
        (b"\x00\x00\x00\x18ftypavif\x00\x00", "heif"),
        (b"GIF89a\x10\x00", "gif"),
        (b"II*\x00\x08\x00\x00\x00", "tiff"),
        (b"MM\x00*\x00\x00\x00\x08", "tiff"),
        (b"\x00\x00\x00\x18ftypisom\x00\x00", None),  # an MP4 video
        (b"this is text", None),
        (b"", None),
    ],
)
def test_sniff_image_format(head: bytes, expected: str | None) -> None:
    assert sniff_image_format(head) == expected


def test_discovery_finds_photos_by_extension_or_content(archive: Path) -> None:
    found = {str(p.relative_to(archive.resolve())) for p in discover([archive])}
    assert found == set(GOOD_PHOTOS) | {DUPLICATE[0]} | set(BAD_FILES)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("*.jpg", {"a.jpg", "g.jpg", *BAD_FILES}),
        ("nested/**/*.*", {"nested/c.webp", "nested/deeper/d.JPEG", "nested/e.jpg", DUPLICATE[0]}),
        ("f_no_extension", {"f_no_extension"}),
    ],
)
def test_discovery_globs(archive: Path, pattern: str, expected: set[str]) -> None:
    found = {str(p.relative_to(archive.resolve())) for p in discover([str(archive / pattern)])}
    assert found == expected


def test_discovery_rejects_an_input_that_names_nothing(tmp_path: Path) -> None:
    with pytest.raises(DiscoveryError, match="no such file"):
        discover([str(tmp_path / "missing" / "*.jpg")])


@pytest.mark.parametrize(
    ("make", "pattern", "message"),
    [
        ({"empty": None}, "empty", "empty: no photo in this folder or its subfolders"),
        ({"notes/.hidden.jpg": b"x", "notes/a.txt": b"x"}, "notes", "notes: no photo in this folder"),
        ({"a.txt": b"x", "b.json": b"{}"}, "*.*", "*.*: matches no photo"),
    ],
)
def test_discovery_rejects_an_input_with_no_photo(tmp_path: Path, make: dict, pattern: str, message: str) -> None:
    for name, content in make.items():
        if content is None:
            (tmp_path / name).mkdir()
        else:
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_bytes(content)
    with pytest.raises(DiscoveryError, match=re.escape(message)):
        discover([str(tmp_path / pattern)])


def test_discovery_rejects_a_link_to_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "photo.jpg").symlink_to(tmp_path / "gone.jpg")
    with pytest.raises(DiscoveryError, match="a link to a file that does not exist"):
        discover([str(tmp_path / "photo.jpg")])


@pytest.mark.parametrize("suffix", [".gif", ".tif", ".TIFF", ".bmp", ".avif"])
def test_discovery_takes_every_format_the_reader_reads(tmp_path: Path, suffix: str) -> None:
    Image.new("RGB", (8, 8)).save(tmp_path / "other.png")
    (tmp_path / f"photo{suffix}").write_bytes((tmp_path / "other.png").read_bytes())  # found by its name alone
    assert {p.name for p in discover([tmp_path])} == {"other.png", f"photo{suffix}"}


@pytest.mark.parametrize(
    ("defaults", "sidecar", "expected"),
    [
        ({"winner": 0}, {}, {"winner": 0, "self_draw": True, "discarder": None}),
        ({"winner": 0, "discarder": 3}, {"self_draw": True}, {"self_draw": True, "discarder": None}),
        ({"winner": 0, "self_draw": True}, {"winner": 1, "discarder": 0}, {"winner": 1, "self_draw": False}),
        ({"bets": [1, 1, 1, 1]}, {"bets": [0, 2, 0, 0]}, {"bets": [0, 2, 0, 0]}),
        ({"missing_suit": None}, {"missing_suit": "p"}, {"missing_suit": "p"}),
    ],
)
def test_sidecar_overrides_defaults(defaults: dict, sidecar: dict, expected: dict) -> None:
    merged = merge_context(defaults, sidecar)
    assert {k: merged[k] for k in expected} == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not readable JSON"),
        ("[1, 2]", "JSON object"),
        ('{"winer": 1}', "unknown context field"),
        ('{"self_draw": "yes"}', "true or false"),
    ],
)
def test_bad_sidecar_is_rejected(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    with pytest.raises(ContextError, match=message) as info:
        read_sidecar(path)
    assert info.value.code == "bad_sidecar"


def test_sidecar_may_wrap_the_context_like_a_golden_case(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"context": {"winner": 3}}))
    assert read_sidecar(path) == {"winner": 3}
    path.write_text(json.dumps({"context": {"winner": 3}, "meld_from": {"0": 2}, "win_tile": "5p"}))
    assert read_sidecar(path) == {"winner": 3, "meld_from": {"0": 2}, "win_tile": "5p"}


def test_a_field_both_in_and_beside_a_wrapped_context_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"context": {"winner": 3}, "winner": 2}))
    with pytest.raises(ContextError, match='winner both in and beside "context"') as info:
        read_sidecar(path)
    assert info.value.code == "bad_sidecar"


def _line(path: str) -> str:
    return json.dumps({"path": path, "status": "scored", "ruleset": "weinan"})


@pytest.mark.parametrize(
    ("tail", "torn", "kept"),
    [
        ("", False, ["/a", "/b"]),  # a sound file is left alone
        ('{"path": "/c", "sta', True, ["/a", "/b"]),  # a torn write is cut off
        (_line("/c"), False, ["/a", "/b", "/c"]),  # a whole record missing only its newline is kept
        ("\x00\x00\x00", True, ["/a", "/b"]),  # zero-filled garbage after a crash
    ],
)
def test_torn_tail_is_repaired(tmp_path: Path, tail: str, torn: bool, kept: list[str]) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text(_line("/a") + "\n" + _line("/b") + "\n" + tail)
    assert [r["path"] for r in iter_records(out)] == kept  # reading never trips on the tail
    repair = repair_tail(out)
    assert repair.dropped_bytes == (len(tail) if torn else 0)
    assert repair.completed_line == (bool(tail) and not torn)
    assert out.read_text().endswith("\n")
    assert [r["path"] for r in iter_records(out)] == kept


def test_damage_before_the_last_line_is_an_error(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text(_line("/a") + "\n{broken\n" + _line("/b") + "\n")
    with pytest.raises(JournalError, match="line 2"):
        list(iter_records(out))


def test_writer_appends_whole_lines(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "r.jsonl"
    with JournalWriter(out) as journal:
        journal.append({"path": "/a", "status": "scored", "hand": "一二三"})
    with JournalWriter(out) as journal:
        journal.append({"path": "/b", "status": "error"})
    assert out.read_text(encoding="utf-8").count("\n") == 2
    assert [r["path"] for r in iter_records(out)] == ["/a", "/b"]


def test_batch_records_every_photo_once(tmp_path: Path, archive: Path) -> None:
    stats = run_batch(settings(tmp_path, archive, context={"winner": 1}))
    records = by_name(tmp_path / "results.jsonl", archive)
    assert len(list(iter_records(tmp_path / "results.jsonl"))) == len(records) == stats.written
    assert set(records) == set(GOOD_PHOTOS) | {DUPLICATE[0]} | set(BAD_FILES)
    for record in records.values():
        PhotoRecord.model_validate(record)  # the JSONL schema

    for name in set(GOOD_PHOTOS) - {BAD_SIDECAR_PHOTO}:
        record = records[name]
        assert record["status"] in ("scored", "not_scored"), record
        assert record["model_version"] == FAKE_MODEL_VERSION and record["detections"] and record["ms"] >= 0
        assert len(record["sha256"]) == 64 and record["bytes"] > 0
        if record["status"] == "scored":
            winner = record["context"]["winner"]
            assert record["deltas"][winner] == 3 * record["fan"] and sum(record["deltas"]) == 0
        else:
            assert record["error_code"] == "not_a_winning_shape" and record["deltas"] is None
    assert records["a.jpg"]["context"]["winner"] == 1  # the command-line default

    duplicate = records[DUPLICATE[0]]
    assert duplicate["status"] == "duplicate" and duplicate["detections"] == []
    assert duplicate["duplicate_of"] == str((archive / DUPLICATE[1]).resolve())
    assert duplicate["sha256"] == records[DUPLICATE[1]]["sha256"]

    for name, code in BAD_FILES.items():
        assert (records[name]["status"], records[name]["error_code"]) == ("error", code), records[name]
        assert records[name]["error"] and not records[name]["error"].startswith("mjsnap.")  # a message, no class path


def test_sidecar_context_reaches_the_scorer(tmp_path: Path, archive: Path) -> None:
    run_batch(settings(tmp_path, archive, context={"winner": 1, "self_draw": True, "bets": [0, 0, 0, 0]}))
    records = by_name(tmp_path / "results.jsonl", archive)
    with_sidecar = records[SIDECAR_PHOTO]
    assert with_sidecar["sidecar"] == str((archive / "g.json").resolve())
    assert {k: with_sidecar["context"][k] for k in SIDECAR} == SIDECAR
    assert with_sidecar["context"]["self_draw"] is False  # naming a discarder overrides the default self-draw
    assert with_sidecar["status"] == "not_scored" or with_sidecar["deltas"][2] > 0
    bad = records[BAD_SIDECAR_PHOTO]
    assert (bad["status"], bad["error_code"]) == ("error", "bad_sidecar")
    assert "e.json" in bad["error"] and "out of range" in bad["error"]
    assert records["a.jpg"]["sidecar"] is None and records["a.jpg"]["context"]["winner"] == 1


def test_incomplete_default_context_is_an_error_record(tmp_path: Path, archive: Path) -> None:
    run_batch(settings(tmp_path, archive, context={"winner": 1, "discarder": 1}))
    record = by_name(tmp_path / "results.jsonl", archive)["a.jpg"]
    assert (record["status"], record["error_code"]) == ("error", "bad_seat")
    assert "--discarder" in record["error"]


def test_a_broken_link_to_a_photo_in_a_folder_is_an_error_record(tmp_path: Path, archive: Path) -> None:
    (archive / "lost.jpg").symlink_to(tmp_path / "moved_away.jpg")
    (archive / "readme.md").symlink_to(tmp_path / "gone.md")  # no photo by its name: not counted
    run_batch(settings(tmp_path, archive))
    records = by_name(tmp_path / "results.jsonl", archive)
    assert (records["lost.jpg"]["status"], records["lost.jpg"]["error_code"]) == ("error", "unreadable_file")
    assert "readme.md" not in records


def _truncate(out: Path, keep_lines: int, torn: str) -> None:
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:keep_lines]) + torn, encoding="utf-8")


@pytest.mark.parametrize("keep_lines", [0, 1, 5, 9])
def test_resume_after_a_torn_write_equals_an_uninterrupted_run(tmp_path: Path, archive: Path, keep_lines: int) -> None:
    reference = settings(tmp_path, archive, out=tmp_path / "reference.jsonl")
    run_batch(reference)
    interrupted = settings(tmp_path, archive, resume=True)
    run_batch(interrupted)
    _truncate(interrupted.out, keep_lines, torn='{"path": "/half a rec')
    stats = run_batch(interrupted)
    assert stats.tail_repair.dropped_bytes > 0 and stats.already_recorded == keep_lines
    records = list(iter_records(interrupted.out))
    assert len(records) == len({r["path"] for r in records}) == stats.discovered
    expected = {p: content_of(r) for p, r in latest_by_path(reference.out).items()}
    assert {r["path"]: content_of(r) for r in records} == expected


def test_resume_skips_what_is_recorded(tmp_path: Path, archive: Path) -> None:
    first = run_batch(settings(tmp_path, archive))
    again = run_batch(settings(tmp_path, archive, resume=True))
    assert (again.already_recorded, again.written, again.scored_by_engine) == (first.discovered, 0, 0)


@pytest.mark.parametrize(("keep_lines", "retry_errors"), [(0, False), (5, False), (9, False), (99, False), (99, True)])
def test_resumed_progress_counts_the_errors_already_recorded(tmp_path: Path, archive: Path, keep_lines: int,
                                                             retry_errors: bool) -> None:
    run_batch(settings(tmp_path, archive))
    _truncate(tmp_path / "results.jsonl", keep_lines, torn="")
    bar = BatchProgress(enabled=False)
    run_batch(settings(tmp_path, archive, resume=True, retry_errors=retry_errors), on_start=bar.start,
              on_record=bar.advance)
    # the bar's count is the results file's, earlier runs' errors included (and a retried error counted once)
    assert bar.errors == sum(r["status"] == "error" for r in latest_by_path(tmp_path / "results.jsonl").values()) > 0


def test_a_photo_moved_after_scoring_is_a_duplicate_on_resume(tmp_path: Path, archive: Path) -> None:
    run_batch(settings(tmp_path, archive))
    (archive / "a.jpg").rename(archive / "renamed.jpg")
    stats = run_batch(settings(tmp_path, archive, resume=True))
    record = by_name(tmp_path / "results.jsonl", archive)["renamed.jpg"]
    assert (stats.scored_by_engine, record["status"]) == (0, "duplicate")
    assert record["duplicate_of"] == str((archive / "a.jpg").resolve())


def test_a_photo_edited_after_scoring_is_scored_again_on_resume(tmp_path: Path, archive: Path) -> None:
    run_batch(settings(tmp_path, archive))
    before = by_name(tmp_path / "results.jsonl", archive)["a.jpg"]
    Image.new("RGB", (64, 30), (1, 2, 3)).save(archive / "a.jpg")
    stats = run_batch(settings(tmp_path, archive, resume=True))
    after = by_name(tmp_path / "results.jsonl", archive)["a.jpg"]
    assert after["sha256"] != before["sha256"] and after["width"] == 64
    # its copy was a duplicate of what a.jpg held; that content is now nowhere else, so the copy is scored itself
    copy = by_name(tmp_path / "results.jsonl", archive)[DUPLICATE[0]]
    assert stats.scored_by_engine == 2 and copy["status"] != "duplicate" and copy["sha256"] == before["sha256"]
    assert {**content_of(copy), "path": None} == {**content_of(before), "path": None}  # read as a.jpg was


def test_retry_errors_scores_fixed_photos_again(tmp_path: Path, archive: Path) -> None:
    run_batch(settings(tmp_path, archive))
    (archive / BAD_SIDECAR_PHOTO).with_suffix(".json").write_text(json.dumps({"winner": 3}))
    stats = run_batch(settings(tmp_path, archive, resume=True, retry_errors=True))
    assert stats.scored_by_engine == 1 + len(BAD_FILES)  # the fixed sidecar and the still-bad files
    assert by_name(tmp_path / "results.jsonl", archive)[BAD_SIDECAR_PHOTO]["context"]["winner"] == 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({}, "already exists: pass --resume"),
        ({"resume": True, "ruleset": "xian"}, "scored with --rules weinan"),
        ({"ruleset": "mahjong", "overwrite": True}, "unknown rule set"),
        ({"scorer": "batch_fakes:no_such_factory", "overwrite": True}, "cannot be loaded"),
        ({"retry_errors": True}, "--retry-errors .* needs --resume"),
        ({"retry_errors": True, "overwrite": True}, "--retry-errors .* needs --resume"),
        ({"resume": True, "overwrite": True}, "--resume continues --out and --overwrite starts it afresh"),
    ],
)
def test_runs_that_cannot_start_say_why(tmp_path: Path, archive: Path, change: dict, message: str) -> None:
    run_batch(settings(tmp_path, archive))
    before = (tmp_path / "results.jsonl").read_bytes()
    with pytest.raises((BatchError, ValueError), match=message):
        run_batch(settings(tmp_path, archive, **change))
    assert (tmp_path / "results.jsonl").read_bytes() == before


def test_overwrite_starts_afresh(tmp_path: Path, archive: Path) -> None:
    first = run_batch(settings(tmp_path, archive))
    second = run_batch(settings(tmp_path, archive, overwrite=True))
    assert second.written == first.written == len(list(iter_records(tmp_path / "results.jsonl")))


def test_process_pool_gives_the_same_records(tmp_path: Path, archive: Path) -> None:
    run_batch(settings(tmp_path, archive, out=tmp_path / "serial.jsonl"))
    run_batch(settings(tmp_path, archive, out=tmp_path / "pool.jsonl", workers=2))
    serial = {p: content_of(r) for p, r in latest_by_path(tmp_path / "serial.jsonl").items()}
    pooled = [content_of(r) for r in iter_records(tmp_path / "pool.jsonl")]
    assert len(pooled) == len(serial) and {r["path"]: r for r in pooled} == serial


def test_a_photo_that_kills_its_worker_is_an_error_and_the_rest_are_scored(tmp_path: Path, archive: Path) -> None:
    (archive / "crash.jpg").write_bytes((archive / "g.jpg").read_bytes() + b"different bytes")
    run_batch(settings(tmp_path, archive, workers=2))
    records = by_name(tmp_path / "results.jsonl", archive)
    assert (records["crash.jpg"]["status"], records["crash.jpg"]["error_code"]) == ("error", "worker_crashed")
    assert all(records[name]["status"] in ("scored", "not_scored") for name in set(GOOD_PHOTOS) - {BAD_SIDECAR_PHOTO})
    assert len(list(iter_records(tmp_path / "results.jsonl"))) == len(records)


@pytest.mark.parametrize("workers", [1, 2])
def test_workers_that_cannot_start_stop_the_run(tmp_path: Path, archive: Path, workers: int) -> None:
    with pytest.raises(BatchError, match="could not be built: .*no model here"):
        run_batch(settings(tmp_path, archive, workers=workers, scorer="batch_fakes:unbuildable_scorer"))
    assert {r["status"] for r in iter_records(tmp_path / "results.jsonl")} <= {"error", "duplicate"}


@pytest.mark.parametrize("resume", [False, True])
def test_a_scorer_whose_preflight_fails_stops_the_run_before_out_is_touched(tmp_path: Path, archive: Path,
                                                                            resume: bool) -> None:
    out = tmp_path / "results.jsonl"
    if resume:
        run_batch(settings(tmp_path, archive))
    before = out.read_bytes() if resume else None
    with pytest.raises(ScorerSpecError, match=r"could not be built: no model at /nowhere"):
        run_batch(settings(tmp_path, archive, scorer="batch_fakes:checked_unbuildable_scorer", model_dir="/nowhere",
                           resume=resume))
    # the archive's duplicates and bad sidecar would have been recorded before the workers failed to start
    assert (out.read_bytes() if out.exists() else None) == before


def test_batch_with_a_missing_model_writes_no_results_file(tmp_path: Path, archive: Path) -> None:
    out = tmp_path / "results.jsonl"
    result = CliRunner().invoke(app, ["batch", str(archive), "--rules", "weinan", "--out", str(out), "--no-progress",
                                      "--model", str(tmp_path / "no-model")])
    assert result.exit_code == 2 and "no model directory at" in result.output
    assert "per-photo function" not in result.output  # the default scorer is no --scorer the user typed
    assert not out.exists()


def test_csv_summary_and_report(tmp_path: Path, archive: Path) -> None:
    stats = run_batch(settings(tmp_path, archive))
    out = tmp_path / "results.jsonl"
    summary = finish_run(out, stats, csv_path=tmp_path / "results.csv")
    with (tmp_path / "results.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == CSV_COLUMNS
    records = latest_by_path(out)
    assert [row["path"] for row in rows] == list(records)
    for row in rows:
        record = records[row["path"]]
        assert row["status"] == record["status"]
        if record["status"] == "scored":
            assert int(row["winner_points"]) == record["deltas"][record["context"]["winner"]]
            assert int(row["tiles"]) == len(record["detections"])

    assert json.loads(summary_path(out).read_text()) == summary
    scored = [r for r in records.values() if r["status"] == "scored"]
    assert summary["photos"] == len(records)
    assert summary["status"]["duplicate"] == 1 and summary["errors"] == {"unreadable_image": 3, "bad_sidecar": 1}
    weinan = summary["rulesets"]["weinan"]
    assert weinan["scored"] == len(scored) > 0
    assert weinan["winner_points"]["max"] == max(r["deltas"][r["context"]["winner"]] for r in scored)
    assert summary["run"]["written"] == stats.written
    report = report_path(out).read_text(encoding="utf-8")
    assert report.count("<svg") == 3 and "Score distribution" in report and "bad_sidecar" in report


def test_a_csv_that_cannot_be_written_leaves_no_partial_file(tmp_path: Path) -> None:
    (tmp_path / "results.csv").mkdir()
    with pytest.raises(OSError):
        write_csv([], tmp_path / "results.csv")
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]


def test_two_runs_given_the_same_csv_never_write_into_one_file(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"

    def first_run():  # a second run writes the same CSV, whole, while the first is halfway through its rows
        yield {"path": "a1.jpg", "status": "scored"}
        assert write_csv([{"path": "b1.jpg", "status": "error"}], path) == 1
        yield {"path": "a2.jpg", "status": "scored"}

    assert write_csv(first_run(), path) == 2
    with path.open(encoding="utf-8", newline="") as handle:
        assert [(row["path"], row["status"]) for row in csv.DictReader(handle)] == [("a1.jpg", "scored"), ("a2.jpg", "scored")]
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]
    assert path.stat().st_mode & 0o777 == 0o644


def test_a_file_name_that_is_not_utf8_is_scored_recorded_and_resumed(tmp_path: Path, archive: Path) -> None:
    # a GBK name from a Windows zip: Python keeps its bytes as lone surrogates, which UTF-8 cannot encode
    gbk = archive / "麻将.jpg".encode("gbk").decode("utf-8", "surrogateescape")
    gbk.write_bytes((archive / "a.jpg").read_bytes() + b"\0")  # not a duplicate of a.jpg
    out = tmp_path / "results.jsonl"
    stats = run_batch(settings(tmp_path, archive, context={"winner": 1}))
    records = latest_by_path(out)
    assert records[str(gbk.resolve())]["status"] in ("scored", "not_scored")
    out.read_bytes().decode("utf-8")  # the results stay valid UTF-8 ...
    again = run_batch(settings(tmp_path, archive, context={"winner": 1}, resume=True))
    assert (again.written, len(latest_by_path(out))) == (0, stats.written)  # ... and the name reads back the same
    finish_run(out, again, csv_path=tmp_path / "results.csv")
    assert "\\udc" in (tmp_path / "results.csv").read_text(encoding="utf-8")  # shown escaped in the CSV
    json.loads(summary_path(out).read_text(encoding="utf-8"))



def test_a_second_run_on_the_same_out_is_refused_while_the_first_runs(tmp_path: Path, archive: Path) -> None:
    """Two runs on one --out would score photos twice, and one's tail repair could cut the other's line."""
    from mjsnap.batch.out_lock import holding, lock_path

    out = tmp_path / "results.jsonl"
    with holding(out):
        with pytest.raises(BatchError, match=rf"{out} is being written by another mjsnap batch run \(process "
                                             rf"{os.getpid()}\): let it finish"):
            run_batch(settings(tmp_path, archive))
        assert not out.exists()
    run_batch(settings(tmp_path, archive))  # free again once the first has ended
    assert out.is_file() and not lock_path(out).exists()


def test_a_killed_run_leaves_no_lock_behind(tmp_path: Path, archive: Path) -> None:
    """SIGKILL runs no cleanup: its lock file stays, but the kernel has dropped the lock with the process."""
    import signal
    import subprocess
    import sys

    from mjsnap.batch.out_lock import lock_path

    out = tmp_path / "results.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom pathlib import Path\nfrom mjsnap.batch.out_lock import holding\n"
                               "with holding(Path(sys.argv[1])):\n    print('held', flush=True)\n    time.sleep(60)",
         str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(BatchError, match="being written by another"):
            run_batch(settings(tmp_path, archive))
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert lock_path(out).exists()
    run_batch(settings(tmp_path, archive))
    assert latest_by_path(out) and not lock_path(out).exists()


def test_the_outputs_read_a_compact_record_and_say_the_same(tmp_path: Path, archive: Path) -> None:
    """finish_run keeps of each record what the CSV, summary and report read (about a tenth of it in memory)."""
    from mjsnap.batch.export import csv_row
    from mjsnap.batch.finish import for_outputs
    from mjsnap.batch.report import render_report
    from mjsnap.batch.summary import summarize

    run_batch(settings(tmp_path, archive))
    whole = list(latest_by_path(tmp_path / "results.jsonl").values())
    compact = list(latest_by_path(tmp_path / "results.jsonl", for_outputs).values())
    assert any(r.get("hand") and r.get("detections") for r in whole)  # the fake scorer reads hands, with boxes
    assert [csv_row(r) for r in compact] == [csv_row(r) for r in whole]
    assert summarize(compact) == summarize(whole)
    # the tables and errors alike (the plots' SVG carries the time and random ids; they plot what csv_row reads)
    tables = [re.sub(r"<svg.*?</svg>", "", render_report(r, summarize(whole), "t"), flags=re.S) for r in (compact, whole)]
    assert tables[0] == tables[1]
    assert all("box" not in d for r in compact for d in r.get("detections") or [])


@pytest.mark.parametrize(("workers", "noted"), [(["--workers", "2"], True), (["--workers", "1"], False), ([], False)])
def test_more_local_workers_than_cpus_are_noted(tmp_path: Path, archive: Path, monkeypatch, workers, noted) -> None:
    """Said, not refused: on 2 cores 16 workers took twice as long as 2, with eight times the memory."""
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    result = CliRunner().invoke(app, ["batch", str(archive), "--rules", "weinan", "--out", str(tmp_path / "r.jsonl"),
                                      "--no-progress", "--scorer", FAKE, *workers])
    assert result.exit_code == 0, result.output
    note = "note: --workers 2 is more than this machine's 1 CPU: the workers share the cores"
    assert (note in result.stderr) == noted
