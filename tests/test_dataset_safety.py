"""Imports cannot write outside the dataset folder, and a crash mid-save leaves no half-written label."""

from __future__ import annotations

import json
import os
import zipfile

import pytest

from dataset_fixtures import photo
from mjsnap.dataset.importers import ImportFormatError, dataset_name, import_export
from mjsnap.labels import LabelBox, LabelDataset, LabelError


@pytest.mark.parametrize(
    "source, name",
    [("../../etc/passwd.jpg", "passwd"), ("/data/upload/1/0a1b2c3d-..%2F..%2Fx.jpg", "x"), (".hidden.jpg", "hidden"),
     ("手牌 1.jpg", "1"), ("a b/c d.png", "c_d"), ("....jpg", "photo")],
)
def test_imported_names_are_plain_file_names(source, name):
    assert dataset_name(source) == name


def test_zip_members_outside_the_folder_are_refused(tmp_path):
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("data.yaml", "names: ['1m']\n")
        zf.writestr("../../outside.txt", "x")
    with pytest.raises(ImportFormatError, match="outside"):
        import_export(archive, tmp_path / "ds")
    assert not (tmp_path / "outside.txt").exists() and not (tmp_path.parent / "outside.txt").exists()


def test_label_studio_image_url_cannot_reach_outside(tmp_path):
    image, boxes = photo(1)
    (tmp_path / "media").mkdir()
    image.save(tmp_path / "media" / "x.jpg")
    w, h = image.size
    result = [{"type": "rectanglelabels", "original_width": w, "original_height": h,
               "value": {"x": 10, "y": 10, "width": 10, "height": 10, "rectanglelabels": ["1m"]}}]
    export = tmp_path / "e.json"
    export.write_text(json.dumps([{"data": {"image": "/data/upload/1/../../../x.jpg"}, "annotations": [{"result": result}]}]))
    report = import_export(export, tmp_path / "ds", images=tmp_path / "media")
    assert report.photos == 1
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert [str(p) for p in written if not str(p).startswith(("media", "e.json"))] == [
        "ds/data.yaml", "ds/images/train/x.jpg", "ds/labels/train/x.txt"]


def test_a_symlinked_split_folder_pointing_outside_is_refused(tmp_path):
    dataset = LabelDataset(tmp_path / "ds")
    dataset.ensure()
    (tmp_path / "ds" / "labels" / "val").rmdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "ds" / "labels" / "val").symlink_to(tmp_path / "outside")
    with pytest.raises(LabelError, match="outside the dataset folder"):
        dataset.save("p", photo(1)[0], [LabelBox(0, (1, 1, 20, 20))], split="val")
    assert list((tmp_path / "outside").iterdir()) == []


def test_a_crash_while_writing_a_label_leaves_the_old_label_whole(tmp_path, monkeypatch):
    dataset = LabelDataset(tmp_path / "ds")
    image, _ = photo(1)
    dataset.save("p", image, [LabelBox(0, (1, 1, 20, 20))])
    before = dataset.label_path("p", "train").read_bytes()

    real_fsync = os.fsync
    calls = {"n": 0}

    def crash_on_label(fd):  # the image is written first, the label second: crash during the label
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt("power cut")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", crash_on_label)
    with pytest.raises(KeyboardInterrupt):
        dataset.save("p", image, [LabelBox(3, (5, 5, 30, 30)), LabelBox(4, (40, 5, 70, 30))])
    assert dataset.label_path("p", "train").read_bytes() == before
    leftovers = [p.name for p in (tmp_path / "ds").rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []


def test_a_crash_before_the_first_label_leaves_no_label(tmp_path, monkeypatch):
    dataset = LabelDataset(tmp_path / "ds")
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("disk gone")))
    with pytest.raises(OSError):
        dataset.save("p", photo(1)[0], [LabelBox(0, (1, 1, 20, 20))])
    assert not dataset.label_path("p", "train").exists()
    assert [p for p in (tmp_path / "ds").rglob("*") if p.is_file() and p.name != "data.yaml"] == []
