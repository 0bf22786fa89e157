"""Nothing lost when things run at once or stop midway: label saves from two sessions, a photo of another folder
saved under a taken name, imports over a dataset, an interrupted move between train and val, two promotions at
once, a crash after a model swap, two exports to one file, a second synth run into the same folder."""

from __future__ import annotations

import fcntl
import json
import shutil
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from dataset_fixtures import photo
from mjsnap import labels
from mjsnap.app import label_page
from mjsnap.dataset import exporters
from mjsnap.dataset.importers import import_export
from mjsnap.dataset.split import split_dataset
from mjsnap.labels import LabelBox, LabelDataset, LabelError
from test_registry import model_dir
from vision import registry

BOX = [LabelBox(0, (2, 2, 20, 20))]


def _files(root: Path, name: str) -> dict[str, list[str]]:
    return {f"{kind}/{split}": sorted(p.name for p in (root / kind / split).glob(f"{name}.*"))
            for kind in ("images", "labels") for split in labels.SPLITS}


def test_two_sessions_saving_one_photo_at_once_leave_it_whole(tmp_path, monkeypatch):
    """Session A saves IMG_1 for later (review) while session B marks it done (train): B's save used to clear A's
    review copy while A cleared B's train copy, and the photo was gone from every split."""
    dataset = LabelDataset(tmp_path / "ds")
    image = np.full((40, 60, 3), 128, np.uint8)
    b_waits_or_ended = threading.Event()
    errors: list[BaseException] = []
    real_flock, real_write = fcntl.flock, labels.write_atomic

    def flock(fd, operation):  # B says when it must wait for A's save (the fix); it is otherwise unchanged
        if threading.current_thread().name == "B" and operation == fcntl.LOCK_EX:
            try:
                return real_flock(fd, operation | fcntl.LOCK_NB)
            except BlockingIOError:
                b_waits_or_ended.set()
        return real_flock(fd, operation)

    def session_b():
        try:
            dataset.save("IMG_1", image, BOX, split="train")
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            b_waits_or_ended.set()

    b = threading.Thread(target=session_b, name="B")

    def write_atomic(path, data):
        real_write(path, data)
        if threading.current_thread().name == "A" and path.suffix == ".txt":  # A's files are written; B saves now
            b.start()
            assert b_waits_or_ended.wait(60)

    monkeypatch.setattr(fcntl, "flock", flock)
    monkeypatch.setattr(labels, "write_atomic", write_atomic)
    a = threading.Thread(target=lambda: dataset.save("IMG_1", image, BOX, split="review"), name="A")
    a.start()
    a.join(60)
    b.join(60)
    assert not errors and not a.is_alive() and not b.is_alive()
    assert _files(dataset.root, "IMG_1") == {
        "images/train": ["IMG_1.jpg"], "images/val": [], "images/review": [],
        "labels/train": ["IMG_1.txt"], "labels/val": [], "labels/review": [],
    }


def _two_folders(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "day1").mkdir()
    (tmp_path / "day2").mkdir()
    photo(1)[0].save(tmp_path / "day1" / "IMG_1.jpg", quality=95)
    photo(2)[0].save(tmp_path / "day2" / "IMG_1.jpg", quality=95)  # another photo, the same file name
    return tmp_path / "day1" / "IMG_1.jpg", tmp_path / "day2" / "IMG_1.jpg"


def test_the_label_page_never_saves_a_photo_over_another_of_the_same_name(tmp_path, monkeypatch):
    first, second = _two_folders(tmp_path)
    dataset = LabelDataset(tmp_path / "ds")
    rows = [{"cls": "5p", "x1": 10.0, "y1": 10.0, "x2": 40.0, "y2": 50.0}]
    label_page.save_photo(dataset, "IMG_1", first, rows, done=True)
    kept_image = dataset.image_path("IMG_1", "train").read_bytes()
    kept_label = dataset.label_path("IMG_1", "train").read_text()
    label_page.save_photo(dataset, "IMG_1", first, rows, done=True)  # the same photo again: its label is updated

    monkeypatch.setattr(label_page.recognize, "model_dir", lambda: tmp_path / "no-model")
    shown, note = label_page.initial_rows(dataset, "IMG_1", second, "en")
    assert shown == [] and "another photo" in note  # not the first photo's boxes over the second photo
    with pytest.raises(LabelError) as refused:
        label_page.save_photo(dataset, "IMG_1", second, [], done=True)
    assert refused.value.code == "name_taken" and "not replaced" in str(refused.value)
    assert dataset.image_path("IMG_1", "train").read_bytes() == kept_image
    assert dataset.label_path("IMG_1", "train").read_text() == kept_label


def test_an_import_keeps_another_photo_of_the_same_name(tmp_path):
    first, second = _two_folders(tmp_path)
    for folder in (first.parent, second.parent):  # two Label Studio YOLO exports, each with an IMG_1
        (folder / "images").mkdir()
        (folder / "labels").mkdir()
        (folder / "classes.txt").write_text("1m\n")
        shutil.move(folder / "IMG_1.jpg", folder / "images" / "IMG_1.jpg")
        (folder / "labels" / "IMG_1.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    import_export(first.parent, tmp_path / "ds")
    kept = (tmp_path / "ds" / "images" / "train" / "IMG_1.jpg").read_bytes()
    report = import_export(second.parent, tmp_path / "ds")
    assert report.photos == 1 and report.replaced == [] and report.renamed == {"images/IMG_1.jpg": "IMG_1-2"}
    assert (tmp_path / "ds" / "images" / "train" / "IMG_1.jpg").read_bytes() == kept
    assert (tmp_path / "ds" / "labels" / "train" / "IMG_1-2.txt").is_file()
    again = import_export(first.parent, tmp_path / "ds")  # the same photo again: its label is replaced, as before
    assert again.replaced == ["IMG_1"] and again.renamed == {}


class Crash(BaseException):
    pass


def test_a_save_stopped_before_it_cleared_the_old_split_is_repaired_by_split(tmp_path, monkeypatch):
    """An import moving a photo from val to train, killed after writing train: it is labelled on both sides. `label
    split` said "run repair", which did not repair it; it now keeps the newer label."""
    dataset = LabelDataset(tmp_path / "ds")
    image = np.asarray(photo(3)[0])
    dataset.save("IMG_1", image, BOX, split="val")
    real_unlink = Path.unlink

    def unlink(self, missing_ok=False):
        if self == dataset.label_path("IMG_1", "val"):
            raise Crash
        return real_unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink)
    with pytest.raises(Crash):
        dataset.save("IMG_1", image, [*BOX, LabelBox(1, (30, 30, 50, 50))], split="train")
    monkeypatch.undo()
    older = dataset.label_path("IMG_1", "val").stat().st_mtime_ns - 10**9
    os_utime = __import__("os").utime
    os_utime(dataset.label_path("IMG_1", "val"), ns=(older, older))
    report = split_dataset(dataset.root, val_fraction=0.0)
    assert _files(dataset.root, "IMG_1")["labels/train"] == ["IMG_1.txt"]
    assert _files(dataset.root, "IMG_1")["labels/val"] == [] and _files(dataset.root, "IMG_1")["images/val"] == []
    assert len(dataset.load("IMG_1", "train")) == 2 and len(report.repaired) == 2


def test_two_promotions_at_once_keep_every_version(tmp_path):
    """Both read the registry, then both install: the second stored the first's model over v1's kept copy and
    saved a registry without v2."""
    model_dir(tmp_path / "current", "v1", b"weights-1")
    first, second = registry.load(tmp_path), registry.load(tmp_path)
    registry.install(tmp_path, first, model_dir(tmp_path / "c2", "v2", b"weights-2"), "v2", data=None, command="",
                     metrics={})
    with pytest.raises(registry.RegistryError, match="changed from v1 to v2.*run promote again"):
        registry.install(tmp_path, second, model_dir(tmp_path / "c3", "v3", b"weights-3"), "v3", data=None,
                         command="", metrics={})
    now = registry.load(tmp_path)
    assert now.current == "v2" and now.history == ["v1", "v2"]
    assert (tmp_path / "versions" / "v1" / "model.pt").read_bytes() == b"weights-1"
    assert registry.rollback(tmp_path).id == "v1"
    assert (tmp_path / "current" / "model.pt").read_bytes() == b"weights-1"


@pytest.mark.parametrize("operation", ["install", "rollback"])
def test_a_crash_right_after_the_swap_loses_no_version(tmp_path, monkeypatch, operation):
    """Killed after the new model reached current but before registry.json was saved: the outgoing model's kept
    copy was not in the registry (rollback refused: files missing), and a rollback came back as a new version."""
    model_dir(tmp_path / "current", "v1", b"weights-1")
    registry.install(tmp_path, registry.load(tmp_path), model_dir(tmp_path / "c2", "v2", b"weights-2"), "v2",
                     data=None, command="", metrics={})
    real_swap = registry._swap_in

    def swap_then_crash(models_dir, source):
        real_swap(models_dir, source)
        raise Crash

    monkeypatch.setattr(registry, "_swap_in", swap_then_crash)
    with pytest.raises(Crash):
        if operation == "install":
            registry.install(tmp_path, registry.load(tmp_path), model_dir(tmp_path / "c3", "v3", b"weights-3"), "v3",
                             data=None, command="", metrics={})
        else:
            registry.rollback(tmp_path)
    monkeypatch.undo()
    after = registry.load(tmp_path)
    if operation == "install":
        assert after.current == "v3" and after.history == ["v1", "v2", "v3"]
        assert registry.rollback(tmp_path).id == "v2"
        assert (tmp_path / "current" / "model.pt").read_bytes() == b"weights-2"
    else:
        assert after.current == "v1" and after.history == ["v1"] and [v.id for v in after.versions] == ["v1", "v2"]
        assert (tmp_path / "versions" / "v2" / "model.pt").read_bytes() == b"weights-2"


def test_two_yolo_exports_to_one_file_at_once_both_write_a_whole_zip(tmp_path, monkeypatch):
    root = tmp_path / "ds"
    LabelDataset(root).save("IMG_1", np.asarray(photo(1)[0]), BOX)
    out = tmp_path / "d.zip"
    real_write = exporters._write_yolo_zip
    nested = []

    def write(dataset, splits, path):
        count = real_write(dataset, splits, path)
        if not nested:  # a second export to the same --out runs while the first is writing
            nested.append(None)
            nested[0] = exporters.export_yolo_zip(root, out)
        return count

    monkeypatch.setattr(exporters, "_write_yolo_zip", write)
    assert exporters.export_yolo_zip(root, out) == 1 and nested == [1]
    with zipfile.ZipFile(out) as archive:
        assert archive.testzip() is None and "labels/train/IMG_1.txt" in archive.namelist()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.zip", "ds"]


def test_a_second_synth_run_with_another_n_leaves_no_photo_in_both_splits(tmp_path):
    from vision.synth.scene import SynthOptions
    from vision.synth.writer import write_dataset

    options = SynthOptions(imgsz_min=64, imgsz_max=64, tileart=None)
    list(write_dataset(tmp_path, 3, 0, 0.34, 1, options))  # photo 2 of 3 goes to val
    list(write_dataset(tmp_path, 6, 0, 0.34, 1, options))  # photo 2 of 6 goes to train
    for kind in ("images", "labels", "layouts"):
        train = {p.stem for p in (tmp_path / kind / "train").iterdir()}
        val = {p.stem for p in (tmp_path / kind / "val").iterdir()}
        assert not train & val and len(train | val) == 6, kind
    assert all(json.loads(p.read_text())["image"].startswith("images/val/")
               for p in (tmp_path / "layouts" / "val").iterdir())


@pytest.mark.parametrize("out", ["data.yaml", "labels/train/IMG_1.txt", "images/train/tasks.json"])
def test_an_export_never_writes_over_the_datasets_own_files(tmp_path, out):
    from typer.testing import CliRunner

    from mjsnap.cli import app

    root = tmp_path / "ds"
    LabelDataset(root).save("IMG_1", np.asarray(photo(1)[0]), BOX)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    result = CliRunner().invoke(app, ["label", "export", str(root), "--out", str(root / out)])
    assert result.exit_code == 2 and "is a file of the dataset" in result.output
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
