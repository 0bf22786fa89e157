"""Session 38's audit of issues 6 (batch) and 7 (label and retrain), each test a gap it found:

- a batch run that could not start (an input naming nothing, a Ray cluster that cannot be joined) left behind the
  --out folders it had made, empty, where the docs say nothing is written;
- `--ray-address HOST:PORT` with nothing answering there kept Ray retrying for many minutes instead of stopping;
- `mjsnap train --base` recorded a relative --data / --project, so `--resume RUN` from another folder failed;
- the JSONL and CSV schema tests compared the files with the code's own lists: a field or column dropped from both
  the code and its list went unseen; the documented ones (docs/batch.md, the issue's list) are pinned here;
- `mjsnap label import`: two images of one file name in --images (day1/IMG_0001.jpg, day2/IMG_0001.jpg) were both
  imported with the same picture; a second photo whose name is as long as a name may be stopped the import halfway;
  a --prefix no name may start with stopped it at the first photo, after the dataset folder was made.
"""

from __future__ import annotations

import csv
import json
import re
import socket
import sys
import types
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from batch_archive import make_archive
from mjsnap.batch.errors import BatchError
from mjsnap.cli import app
from mjsnap.dataset.importers import import_export, unique_name
from mjsnap.labels import NAME_MAX_LENGTH, LabelDataset, LabelError, safe_name
from scoring.tiles import CLASS_NAMES

runner = CliRunner()
FAKE = "batch_fakes:pixel_scorer"


# --- batch: a run that cannot start writes nothing, not even a folder ----------------------------------------------


def _batch(inputs: Path | str, out: Path, *extra: str):
    return runner.invoke(app, ["batch", str(inputs), "--rules", "weinan", "--out", str(out), "--scorer", FAKE,
                               "--no-progress", "--workers", "1", *extra])  # fmt: skip


@pytest.mark.parametrize(
    ("inputs", "exit_code", "folder_kept"),
    [
        ("missing", 2, False),  # names nothing
        ("empty", 2, False),  # a folder without a photo
        ("empty/*.jpg", 2, False),  # a pattern matching nothing
        ("photos", 0, True),  # a run that starts keeps the folder with its results
    ],
)
def test_a_batch_that_cannot_start_leaves_no_out_folder(tmp_path: Path, inputs: str, exit_code: int,
                                                        folder_kept: bool) -> None:
    make_archive(tmp_path / "photos")
    (tmp_path / "empty").mkdir()
    out = tmp_path / "results" / "2026" / "club.jsonl"
    result = _batch(tmp_path / inputs, out)
    assert result.exit_code == exit_code, result.output
    assert (tmp_path / "results").exists() == folder_kept
    if folder_kept:
        assert out.is_file() and not (out.parent / f".{out.name}.lock").exists()


# --- batch: the record and the CSV hold what docs/batch.md and issue 6 name ----------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs" / "batch.md"
# issue 6: "path, sha256, model version, ms, detections, the read hand, shapes, items, deltas, warnings, error"
ISSUE_FIELDS = {"path", "sha256", "model_version", "ms", "detections", "hand", "shapes", "items", "deltas",
                "warnings", "error"}


def documented_record_fields() -> set[str]:
    """The field names of docs/batch.md's record table (its first column)."""
    table = DOCS.read_text(encoding="utf-8").split("A record (`mjsnap.batch.records.PhotoRecord`):", 1)[1]
    rows = table.split("\n\n", 2)[1].splitlines()[2:]  # past the heading and the |---| line
    return {name for row in rows for name in re.findall(r"`([a-z_0-9]+)`", row.split("|")[1])}


def documented_csv_columns() -> list[str]:
    columns = re.search(r"CSV columns: `([^`]*)`", DOCS.read_text(encoding="utf-8")).group(1).split()
    index = columns.index("delta_0..delta_3")
    return columns[:index] + [f"delta_{seat}" for seat in range(4)] + columns[index + 1:]


def test_records_and_csv_rows_hold_every_documented_field(tmp_path: Path) -> None:
    from mjsnap.batch.finish import finish_run
    from mjsnap.batch.journal import iter_records
    from mjsnap.batch.runner import BatchSettings, run_batch

    fields = documented_record_fields()
    assert ISSUE_FIELDS <= fields
    out = tmp_path / "results.jsonl"
    stats = run_batch(BatchSettings(inputs=[str(make_archive(tmp_path / "photos"))], out=out, ruleset="weinan",
                                    scorer=FAKE, context={"winner": 1}))
    finish_run(out, stats, csv_path=tmp_path / "results.csv", report=False)
    records = list(iter_records(out))
    assert records and all(set(record) == fields for record in records)
    scored = next(r for r in records if r["status"] == "scored")
    assert scored["hand"] and scored["shapes"] and scored["items"] and scored["detections"] and scored["sha256"]
    assert len(scored["deltas"]) == 4 and scored["model_version"] and scored["ms"] is not None
    with (tmp_path / "results.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == documented_csv_columns() and len(rows) == len(records)
    row = next(r for r in rows if r["path"] == scored["path"])
    assert row["items"] and row["hand"] and row["winner_points"] and row["delta_1"] and row["tiles"]


# --- batch on Ray: an address where nothing answers stops at once ---------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens once it is closed


@pytest.mark.timeout(60)  # without the probe Ray would retry a bare HOST:PORT for many minutes
@pytest.mark.parametrize(
    ("address", "refused_before_ray"),
    [
        ("127.0.0.1:{port}", True),  # a head node's GCS port, as `ray start` prints it: probed first
        ("ray://127.0.0.1:{port}", False),  # Ray Client: left to Ray, which gives up within a minute
        ("auto", False),
    ],
)
def test_a_ray_address_where_nothing_answers_is_refused_before_ray_tries_it(tmp_path: Path, monkeypatch,
                                                                          address: str,
                                                                          refused_before_ray: bool) -> None:
    ray = pytest.importorskip("ray")
    from mjsnap.batch.ray_engine import connect

    tried = []

    def init(**kwargs):  # a stand-in for Ray's own retries (many minutes for a bare HOST:PORT)
        tried.append(kwargs["address"])
        raise ConnectionError("Ray's own refusal")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    given = address.format(port=_closed_port())
    with pytest.raises(BatchError, match=f"cannot join the Ray cluster at {given}: ") as refused:
        connect(given)
    assert tried == ([] if refused_before_ray else [given])
    assert ("nothing answers there" in str(refused.value)) == refused_before_ray


@pytest.mark.timeout(60)
def test_a_ray_run_whose_cluster_cannot_be_joined_leaves_no_out_folder(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    make_archive(tmp_path / "photos")
    result = _batch(tmp_path / "photos", tmp_path / "results" / "club.jsonl", "--engine", "ray",
                    "--ray-address", f"127.0.0.1:{_closed_port()}")
    assert result.exit_code == 2 and "nothing answers there" in result.output
    assert not (tmp_path / "results").exists()


# --- train --base: the run records where its data and its folder are, wherever it is resumed from -------------------


@pytest.mark.parametrize("base", [True, False])
def test_train_records_absolute_data_and_project(tmp_path: Path, monkeypatch, base: bool) -> None:
    """Recorded relative, `mjsnap train --resume RUN` run from another folder looked for ds/data.yaml there (a
    traceback), and a two-stage run's record and stages would have gone to a new runs/ folder there."""
    from vision import train as training

    LabelDataset(tmp_path / "ds").ensure()
    (tmp_path / "base").mkdir()
    started = []

    def record(settings, *args, **kwargs):
        started.append(settings)
        return tmp_path / "runs" / "ft"

    monkeypatch.setitem(sys.modules, "vision.finetune", types.SimpleNamespace(finetune=record))
    monkeypatch.setattr(training, "train", record)
    monkeypatch.chdir(tmp_path)
    args = ["train", "--data", "ds", "--project", "runs", "--name", "ft"] + (["--base", "base"] if base else [])
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    (settings,) = started
    assert Path(settings.data) == tmp_path / "ds" / "data.yaml" and Path(settings.data).is_absolute()
    assert Path(settings.project) == tmp_path / "runs" and Path(settings.project).is_absolute()


# --- label import: names ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("base", ["a" * NAME_MAX_LENGTH, "b" * (NAME_MAX_LENGTH - 1), "IMG_1"])
def test_numbered_names_stay_names(base: str) -> None:
    used: set[str] = set()
    names = [unique_name(base, used) for _ in range(12)]
    assert len(set(names)) == 12 and names[0] == base
    assert all(safe_name(name) == name for name in names)  # none longer than a name may be


def _labelstudio_yolo_export(folder: Path, stems: list[str]) -> Path:
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    (folder / "classes.txt").write_text("1man\n")
    for index, stem in enumerate(stems):
        Image.new("RGB", (80, 60), (40 * index, 90, 160)).save(folder / "images" / f"{stem}.jpg")
        (folder / "labels" / f"{stem}.txt").write_text("0 0.5 0.5 0.2 0.3\n")
    return folder


def test_photos_whose_long_names_come_out_alike_are_all_imported(tmp_path: Path) -> None:
    long = "x" * (NAME_MAX_LENGTH + 5)  # cut to the same 100 characters
    export = _labelstudio_yolo_export(tmp_path / "export", [f"{long}_1", f"{long}_2", f"{long}_3"])
    report = import_export(export, tmp_path / "ds")
    assert report.photos == 3 and not report.skipped
    assert len(list((tmp_path / "ds" / "labels" / "train").glob("*.txt"))) == 3


@pytest.mark.parametrize(
    ("prefix", "first_name"),
    [("_club", None), ("-club", None), (".club", None), ("../", None), ("club 2/", "club_2_IMG_1"), ("", "IMG_1")],
)
def test_a_prefix_no_name_can_start_with_is_refused_before_anything_is_made(tmp_path: Path, prefix: str,
                                                                          first_name: str | None) -> None:
    export = _labelstudio_yolo_export(tmp_path / "export", ["IMG_1", "IMG_2"])
    result = runner.invoke(app, ["label", "import", str(export), "--to", str(tmp_path / "ds"), "--prefix", prefix])
    if first_name is None:
        assert result.exit_code == 2 and "--prefix" in result.output and "letter or digit" in result.output
        assert not (tmp_path / "ds").exists()
    else:
        assert result.exit_code == 0, result.output
        assert (tmp_path / "ds" / "labels" / "train" / f"{first_name}.txt").is_file()


# --- label import: Label Studio JSON with one file name in several folders of --images ------------------------------

COLOURS = {"day1": (200, 30, 30), "day2": (30, 30, 200)}
TILE_OF = {"day1": "1m", "day2": "9s"}


def _labelstudio_json_export(tmp_path: Path, urls: dict[str, str]) -> tuple[Path, Path]:
    """Two photos named IMG_0001.jpg in --images (day1/, day2/), each with its own colour and its own one box."""
    images = tmp_path / "pics"
    for day, colour in COLOURS.items():
        (images / day).mkdir(parents=True)
        Image.new("RGB", (200, 100), colour).save(images / day / "IMG_0001.jpg", quality=95)
    tasks = [{"id": number, "data": {"image": urls[day]},
              "annotations": [{"id": number, "result": [{
                  "type": "rectanglelabels", "original_width": 200, "original_height": 100,
                  "value": {"x": 10, "y": 10, "width": 20, "height": 50, "rotation": 0,
                            "rectanglelabels": [TILE_OF[day]]}}]}]}
             for number, day in enumerate(urls, start=1)]  # fmt: skip
    export = tmp_path / "project.json"
    export.write_text(json.dumps(tasks))
    return export, images


def _saved_photos(root: Path) -> dict[str, tuple[str, tuple[int, int, int]]]:
    """name -> (the class of its one box, the colour of its picture)."""
    saved = {}
    for label in (root / "labels" / "train").glob("*.txt"):
        cls = CLASS_NAMES[int(label.read_text().split()[0])]
        with Image.open(root / "images" / "train" / f"{label.stem}.jpg") as image:
            saved[label.stem] = (cls, image.getpixel((100, 50)))
    return saved


def _close(colour, expected) -> bool:
    return all(abs(a - b) < 12 for a, b in zip(colour, expected))


@pytest.mark.parametrize(
    "urls",
    [
        {day: f"/data/local-files/?d=pics/{day}/IMG_0001.jpg" for day in COLOURS},  # local files keep the folders
        {day: f"/data/local-files/?d={day}/IMG_0001.jpg" for day in COLOURS},
        {day: f"s3://bucket/club/{day}/IMG_0001.jpg" for day in COLOURS},  # cloud storage: the key's folders
    ],
)
def test_each_task_gets_the_image_its_url_names_among_images_of_one_name(tmp_path: Path, urls: dict) -> None:
    export, images = _labelstudio_json_export(tmp_path, urls)
    report = import_export(export, tmp_path / "ds", images=images)
    assert report.photos == 2 and not report.ambiguous_images
    saved = _saved_photos(tmp_path / "ds")
    assert len(saved) == 2
    for cls, colour in saved.values():  # every box with its own photo: 1m on day1's red, 9s on day2's blue
        day = next(d for d, tile in TILE_OF.items() if tile == cls)
        assert _close(colour, COLOURS[day]), (cls, colour)


def test_a_task_whose_url_does_not_tell_same_named_images_apart_is_not_imported(tmp_path: Path) -> None:
    urls = {"day1": "/data/local-files/?d=IMG_0001.jpg", "day2": "/data/local-files/?d=pics/day2/IMG_0001.jpg"}
    export, images = _labelstudio_json_export(tmp_path, urls)
    result = runner.invoke(app, ["label", "import", str(export), "--to", str(tmp_path / "ds"), "--images",
                                 str(images), "--strict"])  # fmt: skip
    assert result.exit_code == 1, result.output  # --strict: a photo was left out
    assert "1 images not imported: --images holds several of that file name" in result.output
    ((cls, colour),) = _saved_photos(tmp_path / "ds").values()  # day2's task alone, with day2's photo
    assert cls == "9s" and _close(colour, COLOURS["day2"])


def test_when_no_task_tells_its_image_apart_the_import_says_so_and_makes_nothing(tmp_path: Path) -> None:
    urls = {day: f"/data/upload/3/{index:08x}-IMG_0001.jpg" for index, day in enumerate(COLOURS)}
    export, images = _labelstudio_json_export(tmp_path, urls)
    result = runner.invoke(app, ["label", "import", str(export), "--to", str(tmp_path / "ds"), "--images",
                                 str(images)])  # fmt: skip
    assert result.exit_code == 2 and "holds several images of each name" in result.output
    assert not (tmp_path / "ds").exists()


def test_a_bad_prefix_is_a_label_error_in_python_too(tmp_path: Path) -> None:
    export = _labelstudio_yolo_export(tmp_path / "export", ["IMG_1"])
    with pytest.raises(LabelError, match="letter or digit"):
        import_export(export, tmp_path / "ds", prefix="_")
    assert not (tmp_path / "ds").exists()
