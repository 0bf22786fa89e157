"""Session 39's bad-input sweep of every `mjsnap` subcommand (work/s39/cli_sweep), each test a gap it found. The
rule: bad input gets one line and a non-zero exit (2 for usage), never a traceback, and nothing the user had is lost.

- Files others write, read as JSON (`score --json-in`, batch sidecars and results, Label Studio exports, eval
  reports): nesting deeper than Python's recursion limit was a RecursionError traceback, and NaN / Infinity were
  taken (a NaN case id came back as `"id": NaN`, which is no JSON).
- `score --json-in`: a `context` of [] / 0 / "" / false or `melds` of {} / 0 was silently taken as none, while "x"
  was refused.
- `-o weinan.table_overrides` took a total of 0 or less, which makes the winner pay.
- `batch --resume` cut the last line of a file that is no results file before refusing it; `--overwrite` deleted
  the old results before a Ray cluster that cannot be joined stopped the run; a record whose path is no text, and a
  `--workers` past the OS's limits (10**12), were tracebacks.
- `label import` of Label Studio JSON: a task of another shape (data, annotations, values of the wrong type) and a
  non-UTF-8 label file were tracebacks; a decompression-bomb image was a traceback after the dataset folder was made.
- A decompression bomb in a dataset was a traceback in label export, label split, eval, compare, turn and crops; a
  truncated photo was "Truncated File Read" without the file; a label naming class 5000 was an IndexError (eval,
  compare) or copied as it was (turn); `label split --dry-run` made images/review and labels/review.
- NaN passed every float option's range (typer compares, and NaN compares false): `label split --val-fraction nan`,
  `synth --val-fraction nan` and `crops --jitter nan` were tracebacks, `compare --conf nan` measured nonsense; train's
  --lr0, --hours, --warmup-epochs took negative values.
- `synth --imgsz-max 100000000` and `crops --size 100000` ran out of memory (a traceback, synth's folders left).
- models / rollback: a current/meta.json that is not a JSON object was a traceback.
- `quantize --out` under a file read every calibration photo before failing with "[Errno 17] File exists";
  `compare --current FILE` and `crops --level-with MISSING` said "pass --model DIR", an option they lack.
"""

from __future__ import annotations

import json
import socket
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from batch_archive import make_archive
from dataset_fixtures import write_yolo_dataset
from mjsnap.batch.runner import _pool_size
from mjsnap.cli import app

runner = CliRunner()
FAKE = "batch_fakes:pixel_scorer"
DEEP = "[" * 100_000 + "]" * 100_000
WIN = {"ruleset": "weinan", "hand": "123m456m789m234s5s", "win_tile": "5s"}  # a self-drawn plain win


def invoke(*args: str, stdin: str | None = None):
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "200"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception  # no traceback
    return result


def said(result) -> str:
    return " ".join(result.output.split())


def bomb_png(path: Path) -> Path:
    """A PNG whose header claims 100000 x 100000 pixels (a decompression bomb), whatever the file is named."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = chunk(b"IHDR", struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + header + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))
    return path


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else None for p in sorted(root.rglob("*"))}


# --- JSON someone else wrote ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (DEEP, "nested too deeply to read"),
        (json.dumps({**WIN, "id": "x"}).replace('"x"', "NaN"), "NaN is not a JSON number"),
        ('{"ruleset": "weinan", "hand": "123m456m789m234s5s", "win_tile": "5s", "context": {"winner": 1e400}}',
         "1e400 is too large a number"),
    ],
)
def test_json_in_refuses_what_json_has_not_with_one_line(text: str, reason: str) -> None:
    result = invoke("score", "--json-in", "-", stdin=text)
    assert result.exit_code == 2 and result.stdout == ""  # no line of invalid JSON on stdout
    assert result.stderr == f"error: - is not JSON: {reason}\n"


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [("context", [], "bad_context"), ("context", 0, "bad_context"), ("context", "", "bad_context"),
     ("context", False, "bad_context"), ("melds", {}, "bad_meld"), ("melds", 0, "bad_meld"),
     ("context", None, None), ("melds", None, None)],  # null is none, as leaving the field out
)
def test_json_in_wrong_type_is_refused_even_when_falsy(field: str, value, code: str | None) -> None:
    result = invoke("score", "--json-in", "-", stdin=json.dumps({**WIN, field: value}))
    (line,) = result.stdout.splitlines()
    assert json.loads(line)["reason"] == code
    assert result.exit_code == 0


@pytest.mark.parametrize(("total", "refused"), [(-5, True), (0, True), (9, False)])
def test_a_table_override_is_a_positive_fan(total: int, refused: bool) -> None:
    overrides = json.dumps({"大对子+天胡": total}, ensure_ascii=False)
    result = invoke("score", "123m456m789m234s5s", "--win", "5s", "--rules", "weinan",
                    "-o", f"weinan.table_overrides={overrides}")
    assert result.exit_code == (2 if refused else 0), result.output
    assert ("Input should be greater than 0" in said(result)) == refused


# --- batch ---------------------------------------------------------------------------------------------------------


def _batch(inputs: Path, out: Path, *extra: str):
    return invoke("batch", str(inputs), "--rules", "weinan", "--out", str(out), "--scorer", FAKE, "--no-progress",
                  *extra)


@pytest.mark.parametrize(
    ("content", "said_at"),
    [
        (b"my notes, line 1\nline 2 without a newline", "line 1: not a JSON record"),
        (b'{"path": 5, "status": "scored", "ruleset": "weinan"}\n{"torn', "line 1: not a photo record"),
        (b'{"path": "/a.jpg", "status": ["scored"], "ruleset": "weinan"}\n', "line 1: not a photo record"),
        (DEEP.encode() + b"\n", "line 1: not a JSON record (nested too deeply to read)"),
    ],
)
def test_resume_refuses_a_file_that_is_no_results_file_and_leaves_it_whole(tmp_path: Path, content: bytes,
                                                                          said_at: str) -> None:
    photos = make_archive(tmp_path / "photos")
    out = tmp_path / "notes.txt"
    out.write_bytes(content)
    result = _batch(photos, out, "--resume", "--workers", "1")
    assert result.exit_code == 2 and said_at in result.stderr
    assert out.read_bytes() == content  # not cut short by its last line


@pytest.mark.timeout(60)
def test_overwrite_keeps_the_old_results_when_the_ray_cluster_cannot_be_joined(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    photos = make_archive(tmp_path / "photos")
    out = tmp_path / "results.jsonl"
    assert _batch(photos, out, "--workers", "1", "--no-report").exit_code == 0
    before = out.read_bytes()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens once it is closed
    result = _batch(photos, out, "--overwrite", "--engine", "ray", "--ray-address", f"127.0.0.1:{port}")
    assert result.exit_code == 2 and "cannot join the Ray cluster" in result.stderr
    assert out.read_bytes() == before


@pytest.mark.parametrize(("asked", "to_score", "pool"), [(1, 5, 1), (4, 100, 4), (4, 3, 3), (8, 1, 2), (10**12, 7, 7)])
def test_the_pool_has_no_more_workers_than_photos(asked: int, to_score: int, pool: int) -> None:
    """Never one where more were asked: one worker scores in the batch's own process, without crash isolation."""
    assert _pool_size(asked, to_score) == pool


def test_a_huge_workers_count_scores_the_photos(tmp_path: Path) -> None:
    photo = tmp_path / "photos" / "a.jpg"
    photo.parent.mkdir()
    Image.new("RGB", (40, 24), (90, 120, 60)).save(photo)
    result = _batch(photo.parent, tmp_path / "r.jsonl", "--workers", str(10**12), "--no-report")
    assert result.exit_code == 0, result.output
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 1


@pytest.mark.parametrize(("sidecar", "reason"), [(DEEP, "nested too deeply to read"),
                                                 ('{"winner": NaN}', "NaN is not a JSON number")])
def test_an_unreadable_sidecar_is_an_error_record_and_the_run_goes_on(tmp_path: Path, sidecar: str,
                                                                     reason: str) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in ("a", "b"):
        Image.new("RGB", (40, 24), (90, 120, 60)).save(photos / f"{name}.jpg")
    (photos / "a.json").write_text(sidecar)
    result = _batch(photos, tmp_path / "r.jsonl", "--workers", "1", "--no-report")
    assert result.exit_code == 0, result.output
    records = {Path(r["path"]).name: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())}
    assert records["a.jpg"]["error_code"] == "bad_sidecar" and reason in records["a.jpg"]["error"]
    assert records["b.jpg"]["status"] != "error"


# --- label import --------------------------------------------------------------------------------------------------


def _task(image: str, result: list | None = None, **fields) -> dict:
    box = {"type": "rectanglelabels", "original_width": 40, "original_height": 24,
           "value": {"x": 10, "y": 10, "width": 20, "height": 30, "rectanglelabels": ["1m"]}}
    return {"data": {"image": f"/data/local-files/?d={image}"}, "annotations": [{"result": result or [box]}],
            **fields}


def _import(tmp_path: Path, tasks) -> tuple:
    images = tmp_path / "images"
    images.mkdir(exist_ok=True)
    for name in ("a.jpg", "b.jpg"):
        Image.new("RGB", (40, 24), (90, 120, 60)).save(images / name)
    export = tmp_path / "export.json"
    export.write_bytes(tasks if isinstance(tasks, bytes) else json.dumps(tasks).encode())
    dataset = tmp_path / "dataset"
    return invoke("label", "import", str(export), "--to", str(dataset), "--images", str(images)), dataset


RECT = {"type": "rectanglelabels"}


@pytest.mark.parametrize(
    "task",
    [
        {"data": 5, "annotations": []},
        _task("a.jpg", annotations="x"),
        _task("a.jpg", annotations=["x"]),
        _task("a.jpg", [5]),
        _task("a.jpg", [{**RECT, "value": "x"}]),
        _task("a.jpg", [{**RECT, "value": {"rectanglelabels": ["1m"]}}]),  # no x, y, width, height
        _task("a.jpg", [{**RECT, "value": {"x": "a", "y": 1, "width": 1, "height": 1, "rectanglelabels": ["1m"]}}]),
        _task("a.jpg", [{**RECT, "original_width": "wide",
                         "value": {"x": 1, "y": 1, "width": 1, "height": 1, "rectanglelabels": ["1m"]}}]),
        _task("a.jpg", [{"type": "labels", "id": [1], "value": {"labels": ["1m"]}}]),
        {"image": "/data/local-files/?d=a.jpg", "label": "x"},  # JSON-MIN with a label that is no list
    ],
)
def test_a_task_of_another_shape_is_skipped_and_the_import_goes_on(tmp_path: Path, task: dict) -> None:
    result, dataset = _import(tmp_path, [task, _task("b.jpg")])
    assert result.exit_code == 0, result.output
    assert "task 1: not in Label Studio's task format" in result.output
    assert [p.name for p in (dataset / "images" / "train").iterdir()] == ["b.jpg"]


@pytest.mark.parametrize(("content", "message"), [(b"[\xff]", "is not UTF-8 text"),
                                                  (DEEP.encode(), "is not JSON: nested too deeply to read")])
def test_an_export_that_is_no_json_text_stops_the_import(tmp_path: Path, content: bytes, message: str) -> None:
    result, dataset = _import(tmp_path, content)
    assert result.exit_code == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1
    assert not dataset.exists()


def test_a_decompression_bomb_is_skipped_and_no_dataset_is_made_for_nothing(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    bomb_png(tmp_path / "images" / "bomb.png")
    result, dataset = _import(tmp_path, [_task("bomb.png")])
    assert result.exit_code == 0, result.output
    assert "0 photos" in said(result) and "image too large to read safely" in said(result)
    assert not dataset.exists()


GOOD_LINE = b"0 0.5 0.5 0.2 0.2\n"


@pytest.mark.parametrize(("names_file", "names", "label", "message"), [
    ("notes.json", b'{"categories": [{"id": "one", "name": "1m"}]}', GOOD_LINE, "is not Label Studio's notes.json"),
    ("notes.json", DEEP.encode(), GOOD_LINE, "is not Label Studio's notes.json"),
    ("classes.txt", b"1m\n\xff\n", GOOD_LINE, "is not UTF-8 text"),
    ("classes.txt", b"1m\n", b"\xff\xfe" + GOOD_LINE, "is not a YOLO label file (not UTF-8 text)"),
])
def test_a_label_studio_yolo_export_that_cannot_be_read_stops_the_import(tmp_path: Path, names_file: str,
                                                                      names: bytes, label: bytes,
                                                                      message: str) -> None:
    export = tmp_path / "export"
    (export / "images").mkdir(parents=True)
    (export / "labels").mkdir()
    Image.new("RGB", (40, 24)).save(export / "images" / "a.jpg")
    (export / "labels" / "a.txt").write_bytes(label)
    (export / names_file).write_bytes(names)
    result = invoke("label", "import", str(export), "--to", str(tmp_path / "dataset"))
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert not (tmp_path / "dataset").exists()


# --- datasets: a photo or label that cannot be read ----------------------------------------------------------------


def _dataset(tmp_path: Path, damage: str) -> tuple[Path, Path]:
    """A dataset whose val photo p2 (or its label) is damaged; returns the dataset and that file."""
    root = write_yolo_dataset(tmp_path / "ds", {"train": 2, "val": 2})
    photo, label = root / "images" / "val" / "p2.jpg", root / "labels" / "val" / "p2.txt"
    if damage == "bomb":
        return root, bomb_png(photo)
    if damage == "truncated":
        photo.write_bytes(photo.read_bytes()[:500])
        return root, photo
    label.write_text({"class 5000": "5000 0.5 0.5 0.1 0.1\n", "nan": "0 nan 0.5 0.1 0.1\n"}[damage])
    return root, label


@pytest.mark.parametrize("damage", ["bomb", "truncated"])
@pytest.mark.parametrize("command", [["label", "export", "{ds}", "--out", "{tmp}/out/export.json"],
                                     ["label", "split", "{ds}", "--dry-run"], ["label", "split", "{ds}"]])
def test_label_commands_name_a_photo_they_cannot_read_and_change_nothing(tmp_path: Path, damage: str,
                                                                        command: list[str]) -> None:
    root, damaged = _dataset(tmp_path, damage)
    before = tree(tmp_path)
    result = invoke(*(part.format(ds=root, tmp=tmp_path) for part in command))
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {damaged}: "), result.output
    assert tree(tmp_path) == before  # no export, no moved photo, no new split folder


def test_a_dry_run_split_writes_nothing(tmp_path: Path) -> None:
    root = write_yolo_dataset(tmp_path / "ds", {"train": 2, "val": 2})
    before = tree(tmp_path)
    result = invoke("label", "split", str(root), "--dry-run")
    assert result.exit_code == 0 and "would move" in result.output
    assert tree(tmp_path) == before  # images/review and labels/review were made


@pytest.mark.parametrize("damage", ["bomb", "truncated", "class 5000", "nan"])
@pytest.mark.parametrize("command", ["turn", "crops"])
def test_turn_and_crops_name_a_photo_or_label_they_cannot_use(tmp_path: Path, damage: str, command: str) -> None:
    root, damaged = _dataset(tmp_path, damage)
    args = {"turn": ["turn", "--data", str(root), "--split", "val", "--out", str(tmp_path / "out")],
            "crops": ["train-two-stage", "crops", "--data", str(root), "--out", str(tmp_path / "out"),
                      "--allow-missing-classes"]}[command]
    before = tree(tmp_path)
    result = invoke(*args)
    assert result.exit_code == 2 and str(damaged) in result.stderr, result.output
    assert len(result.stderr.splitlines()) == 1
    assert tree(tmp_path) == before


# --- numbers typer's ranges let through ----------------------------------------------------------------------------

MISSING = "/nonexistent/s39"  # every path is missing: an option the check let through fails on it, differently


@pytest.mark.parametrize(
    ("args", "refusal"),
    [
        (["label", "split", MISSING, "--val-fraction", "nan"], "nan is not a finite number"),
        (["synth", "--n", "1", "--out", MISSING, "--val-fraction", "nan"], "nan is not a finite number"),
        (["synth", "--n", "1", "--out", MISSING, "--max-tilt", "nan"], "nan is not a finite number"),
        (["compare", "--candidate", MISSING, "--data", MISSING, "--conf", "nan"], "nan is not a finite number"),
        (["promote", MISSING, "--data", MISSING, "--conf", "nan"], "nan is not a finite number"),
        (["promote", MISSING, "--data", MISSING, "--min-gain", "nan"], "nan is not a finite number"),
        (["promote", MISSING, "--data", MISSING, "--min-gain", "inf"], "inf is not a finite number"),
        (["eval", "--model", MISSING, "--data", MISSING, "--conf", "nan"], "nan is not a finite number"),
        (["train", "--data", MISSING, "--fraction", "nan"], "nan is not a finite number"),
        (["train", "--data", MISSING, "--lr0", "nan"], "nan is not a finite number"),
        (["train", "--data", MISSING, "--lr0", "-1"], "-1.0 is not above 0"),
        (["train", "--data", MISSING, "--hours", "0"], "0.0 is not above 0"),
        (["train", "--data", MISSING, "--warmup-epochs", "-1"], "not in the range x>=0.0"),
        (["train", "--data", MISSING, "--close-mosaic", "-1"], "not in the range x>=0"),
        (["train", "--data", MISSING, "--classifier-minutes", "nan"], "nan is not a finite number"),
        (["train-two-stage", "crops", "--data", MISSING, "--out", MISSING, "--jitter", "nan"],
         "nan is not a finite number"),
        (["train-two-stage", "crops", "--data", MISSING, "--out", MISSING, "--size", "100000"], "not in the range"),
        (["train-two-stage", "detector", "--data", MISSING, "--lr0", "0"], "0.0 is not above 0"),
        (["train-two-stage", "detector", "--data", MISSING, "--hours", "nan"], "nan is not a finite number"),
        (["train-two-stage", "classifier", "--crops", MISSING, "--minutes", "nan"], "nan is not a finite number"),
    ],
)
def test_a_number_no_command_can_use_is_a_usage_error(args: list[str], refusal: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2 and refusal in said(result), result.output


def test_synth_refuses_a_photo_size_it_cannot_draw_and_makes_no_folder(tmp_path: Path) -> None:
    result = invoke("synth", "--n", "1", "--no-art", "--out", str(tmp_path / "set"), "--imgsz-max", "100000000")
    assert result.exit_code == 2 and "<= 8192" in result.stderr
    assert not (tmp_path / "set").exists()


# --- model folders -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("meta", "message"), [(b"[1]", "a model's meta.json is a JSON object, not list"),
                                               (b"\xff\xfe", "is not JSON"), (b"{bad", "is not JSON"),
                                               (b"[" * 100_000 + b"]" * 100_000, "nested too deeply")])
@pytest.mark.parametrize(("command", "exit_code"), [("models", 2), ("rollback", 1)])
def test_a_damaged_meta_json_is_one_line_and_no_registry_is_written(tmp_path: Path, meta: bytes, message: str,
                                                                   command: str, exit_code: int) -> None:
    (tmp_path / "current").mkdir()
    (tmp_path / "current" / "meta.json").write_bytes(meta)
    result = invoke(command, "--models-dir", str(tmp_path))
    assert result.exit_code == exit_code and message in result.stderr and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "registry.json").exists()


def test_quantize_checks_out_before_reading_any_photo(tmp_path: Path) -> None:
    (tmp_path / "model").mkdir()
    (tmp_path / "afile").write_text("mine")
    result = invoke("train-two-stage", "quantize", str(tmp_path / "model"), "--photos", str(tmp_path / "missing"),
                    "--out", str(tmp_path / "afile" / "int8"))
    assert result.exit_code == 2
    assert result.stderr == f"error: --out: {tmp_path}/afile/int8 cannot be made: {tmp_path}/afile is a file, not a folder\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", "--candidate", "{tmp}/afile", "--data", "{tmp}", "--current", "{tmp}/afile"],
         "error: {tmp}/afile: no such model directory to compare with"),
        (["train-two-stage", "crops", "--data", "{ds}", "--out", "{tmp}/crops", "--level-with", "{tmp}/none"],
         "mjsnap train-two-stage crops: --level-with {tmp}/none: no such model directory"),
    ],
)
def test_a_model_folder_that_is_not_there_is_named_by_its_own_option(tmp_path: Path, args: list[str],
                                                                     message: str) -> None:
    (tmp_path / "afile").write_text("mine")
    root = write_yolo_dataset(tmp_path / "ds", {"train": 1, "val": 1})
    result = invoke(*(part.format(tmp=tmp_path, ds=root) for part in args))
    assert result.exit_code == 2 and result.stderr == message.format(tmp=tmp_path) + "\n"
