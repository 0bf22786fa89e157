"""Imports from Label Studio (JSON, JSON-MIN, YOLO), CVAT Ultralytics YOLO and Roboflow YOLO exports built here in
each tool's documented structure; classes by name with aliases; unknown names reported; exports round-trip."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjsnap.dataset.classes import class_id, classes_txt_text, map_names
from mjsnap.dataset.exporters import export_labelstudio_json, export_yolo_zip
from mjsnap.dataset.importers import ImportFormatError, detect_format, import_export
from mjsnap.labels import LabelDataset
from scoring.tiles import CLASS_NAMES
from dataset_fixtures import photo, write_yolo_dataset, yolo_line

runner = CliRunner()


@pytest.mark.parametrize(
    "name, expected",
    [("1m", "1m"), ("m1", "1m"), ("1man", "1m"), ("Man-1", "1m"), ("一万", "1m"), ("sc3", "3m"), ("dot5", "5p"),
     ("5 Dots", "5p"), ("0p", "5p"), ("9-bamboo", "9s"), ("sou9", "9s"), ("1s", "1s"), ("S", "S"), ("south", "S"),
     ("wind-east", "E"), ("East Wind", "E"), ("1z", "E"), ("5z", "C"), ("red-dragon", "C"), ("中", "C"),
     ("Green_Dragon", "F"), ("hdw", "P"), ("white", "P"), ("P", "P"), ("back", "back"), ("face-down", "back"),
     ("flower-plum", "flower"), ("season_3", "flower"), ("chrysanthemum", "flower")],
)
def test_class_aliases(name, expected):
    assert CLASS_NAMES[class_id(name)] == expected


@pytest.mark.parametrize("name", ["joker", "10m", "dragon", "", "m10"])
def test_unknown_names_are_not_guessed(name):
    assert class_id(name) is None


def test_map_names_reports_unknown_once():
    known, unknown = map_names(["1man", "joker", "joker", "red-dragon"])
    assert known == {"1man": 0, "red-dragon": CLASS_NAMES.index("C")} and unknown == ["joker"]


def test_classes_txt_is_generated_from_class_names():
    path = Path(__file__).resolve().parent.parent / "datasets" / "classes.txt"
    assert path.read_text() == classes_txt_text()


def test_classes_txt_equals_shared(shared):
    path = Path(__file__).resolve().parent.parent / "datasets" / "classes.txt"
    assert path.read_text().split() == (shared / "datasets" / "classes.txt").read_text().split()


# --- the exports -------------------------------------------------------------------------------------------------

# mjsnap name -> how each tool's project spelled it (never the same index as mjsnap's)
SPELLING = {"1m": "1man", "5p": "dot5", "C": "red-dragon"}


def _expected(seed: int) -> list[tuple[int, tuple]]:
    _, boxes = photo(seed)
    return sorted((CLASS_NAMES.index(n), b) for n, b in boxes)


def _saved(dataset: Path, name: str, split: str) -> list[tuple[int, tuple]]:
    return sorted((b.cls, b.box) for b in LabelDataset(dataset).load(name, split))


def _assert_boxes(dataset: Path, name: str, split: str, seed: int, tolerance: float = 0.6) -> None:
    got, want = _saved(dataset, name, split), _expected(seed)
    assert [c for c, _ in got] == [c for c, _ in want]
    for (_, a), (_, b) in zip(got, want):
        assert max(abs(x - y) for x, y in zip(a, b)) <= tolerance, (a, b)


def _labelstudio_json(folder: Path) -> tuple[Path, Path]:
    """A Label Studio JSON export (tasks of uploaded images) and the folder with the images."""
    images = folder / "media"
    images.mkdir(parents=True)
    tasks = []
    for seed in (1, 2):
        image, boxes = photo(seed)
        image.save(images / f"IMG_{seed}.jpg", quality=95)
        w, h = image.size
        result = [
            {"id": f"r{seed}{k}", "type": "rectanglelabels", "from_name": "label", "to_name": "image",
             "original_width": w, "original_height": h, "image_rotation": 0,
             "value": {"x": 100 * x1 / w, "y": 100 * y1 / h, "width": 100 * (x2 - x1) / w,
                       "height": 100 * (y2 - y1) / h, "rotation": 0, "rectanglelabels": [SPELLING[name]]}}
            for k, (name, (x1, y1, x2, y2)) in enumerate(boxes)
        ]
        if seed == 2:  # a box of a class mjsnap does not know
            result.append({**result[0], "id": "joker", "value": {**result[0]["value"], "rectanglelabels": ["joker"]}})
        tasks.append({
            "id": seed, "data": {"image": f"/data/upload/1/{seed:08x}-IMG_{seed}.jpg"},
            "annotations": [
                {"id": 10 + seed, "result": [], "was_cancelled": True, "updated_at": "2025-01-02T00:00:00Z"},
                {"id": 20 + seed, "result": result, "was_cancelled": False, "updated_at": "2025-01-01T00:00:00Z"},
            ],
            "predictions": [],
        })
    tasks.append({"id": 3, "data": {"image": "/data/upload/1/0000000a-IMG_3.jpg"}, "annotations": [],
                  "predictions": [{"result": []}]})  # not labelled yet: reported, not imported
    export = folder / "project-1-at-2025-01-01.json"
    export.write_text(json.dumps(tasks))
    return export, images


def test_labelstudio_json_import(tmp_path):
    export, images = _labelstudio_json(tmp_path / "ls")
    report = import_export(export, tmp_path / "ds", images=images)
    assert report.format == "labelstudio-json" and report.photos == 2
    _assert_boxes(tmp_path / "ds", "IMG_1", "train", 1)
    _assert_boxes(tmp_path / "ds", "IMG_2", "review", 2)  # the unknown class keeps it out of training
    assert report.unknown_classes == {"joker": 1} and report.review == ["IMG_2"]
    assert any("task 3" in s and "no annotation" in s for s in report.skipped)


def test_labelstudio_json_min_and_local_files(tmp_path):
    image, boxes = photo(4)
    (tmp_path / "pics").mkdir()
    image.save(tmp_path / "pics" / "hand 4.jpg", quality=95)
    w, h = image.size
    labels = [{"x": 100 * x1 / w, "y": 100 * y1 / h, "width": 100 * (x2 - x1) / w, "height": 100 * (y2 - y1) / h,
               "rotation": 0, "rectanglelabels": [SPELLING[n]], "original_width": w, "original_height": h}
              for n, (x1, y1, x2, y2) in boxes]
    export = tmp_path / "min.json"
    export.write_text(json.dumps([{"image": "/data/local-files/?d=pics/hand%204.jpg", "id": 1, "label": labels}]))
    report = import_export(export, tmp_path / "ds", images=tmp_path / "pics")
    assert report.photos == 1 and report.renamed == {"/data/local-files/?d=pics/hand%204.jpg": "hand_4"}
    _assert_boxes(tmp_path / "ds", "hand_4", "train", 4)


def test_reimport_replaces_and_says_so(tmp_path):
    folder = _labelstudio_yolo(tmp_path / "lsy")
    assert import_export(folder, tmp_path / "ds").replaced == []
    again = import_export(folder, tmp_path / "ds")
    assert again.replaced == ["IMG_5"] and "--prefix" in again.summary()
    assert import_export(folder, tmp_path / "ds", prefix="club2_").replaced == []
    _assert_boxes(tmp_path / "ds", "club2_IMG_5", "train", 5)


def test_labelstudio_json_missing_images_are_reported(tmp_path):
    export, images = _labelstudio_json(tmp_path / "ls")
    (images / "IMG_2.jpg").unlink()
    report = import_export(export, tmp_path / "ds", images=images)
    assert report.photos == 1 and report.missing_images == ["/data/upload/1/00000002-IMG_2.jpg"]


@pytest.mark.parametrize("images", [None, "elsewhere"])
def test_labelstudio_json_with_no_image_found_stops_with_a_hint(tmp_path, images):
    export, _ = _labelstudio_json(tmp_path / "ls")
    with pytest.raises(ImportFormatError, match="none of the 2 labelled images was found.*pass --images"):
        import_export(export, tmp_path / "ds", images=None if images is None else tmp_path / images)
    assert not (tmp_path / "ds").exists()


def _labelstudio_yolo(folder: Path) -> Path:
    """Label Studio's YOLO export: classes.txt, notes.json, images/, labels/ (its own class order)."""
    order = ["red-dragon", "dot5", "1man"]
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    (folder / "classes.txt").write_text("\n".join(order) + "\n")
    notes = {"categories": [{"id": i, "name": n} for i, n in enumerate(order)],
             "info": {"year": 2025, "version": "1.0", "contributor": "Label Studio"}}
    (folder / "notes.json").write_text(json.dumps(notes))
    image, boxes = photo(5)
    image.save(folder / "images" / "0a1b2c3d-IMG_5.jpg", quality=95)
    lines = [yolo_line(order.index(SPELLING[n]), b, image.size) for n, b in boxes]
    (folder / "labels" / "0a1b2c3d-IMG_5.txt").write_text("\n".join(lines) + "\n")
    return folder


def test_labelstudio_yolo_import(tmp_path):
    report = import_export(_labelstudio_yolo(tmp_path / "lsy"), tmp_path / "ds")
    assert report.format == "labelstudio-yolo" and report.photos == 1 and not report.unknown_classes
    _assert_boxes(tmp_path / "ds", "IMG_5", "train", 5)


def _cvat_zip(path: Path) -> Path:
    """CVAT 'Ultralytics YOLO Detection 1.0': data.yaml (index: name), train.txt, images/<subset>, labels/<subset>."""
    order = ["wind-east", "m1", "Dot5", "Red Dragon"]
    with zipfile.ZipFile(path, "w") as archive:
        listed = []
        for subset, seed in (("train", 6), ("validation", 7)):
            image, boxes = photo(seed)
            local = path.parent / f"cvat{seed}.jpg"
            image.save(local, quality=95)
            archive.write(local, f"images/{subset}/frame_{seed:06d}.jpg")
            spelled = {"1m": "m1", "5p": "Dot5", "C": "Red Dragon"}
            archive.writestr(f"labels/{subset}/frame_{seed:06d}.txt",
                             "\n".join(yolo_line(order.index(spelled[n]), b, image.size) for n, b in boxes) + "\n")
            listed.append(f"images/{subset}/frame_{seed:06d}.jpg")
        names = "".join(f"  {i}: {n}\n" for i, n in enumerate(order))
        archive.writestr("data.yaml", f"path: ./\ntrain: train.txt\nvalidation: validation.txt\n\nnames:\n{names}")
        archive.writestr("train.txt", listed[0] + "\n")
        archive.writestr("validation.txt", listed[1] + "\n")
    return path


def test_cvat_ultralytics_zip_import(tmp_path):
    report = import_export(_cvat_zip(tmp_path / "task_1-ultralytics.zip"), tmp_path / "ds")
    assert report.format == "cvat-yolo" and report.photos == 2 and dict(report.splits) == {"train": 1, "val": 1}
    _assert_boxes(tmp_path / "ds", "frame_000006", "train", 6)
    _assert_boxes(tmp_path / "ds", "frame_000007", "val", 7)


def _roboflow(folder: Path) -> Path:
    """Roboflow YOLOv8 export: train/valid/test with images/ and labels/, data.yaml with alphabetical names."""
    names = sorted(["1m", "5p", "C", "flower-plum"])  # ['1m', '5p', 'C', 'flower-plum']: alphabetical
    seeds = {"train": 8, "valid": 9, "test": 10}
    for split, seed in seeds.items():
        (folder / split / "images").mkdir(parents=True)
        (folder / split / "labels").mkdir(parents=True)
        image, boxes = photo(seed)
        stem = f"IMG_{seed}_jpg.rf.{seed:032x}"
        image.save(folder / split / "images" / f"{stem}.jpg", quality=95)
        lines = [yolo_line(names.index(n), b, image.size) for n, b in boxes]
        (folder / split / "labels" / f"{stem}.txt").write_text("\n".join(lines) + "\n")
    (folder / "data.yaml").write_text(
        "train: ../train/images\nval: ../valid/images\ntest: ../test/images\n\n"
        f"nc: {len(names)}\nnames: {names!r}\n\nroboflow:\n  workspace: club\n  project: tiles\n  version: 1\n"
        "  license: CC BY 4.0\n  url: https://universe.roboflow.com/club/tiles/dataset/1\n"
    )
    return folder


def test_roboflow_import_maps_alphabetical_names(tmp_path):
    report = import_export(_roboflow(tmp_path / "rf"), tmp_path / "ds")
    assert report.format == "roboflow-yolo" and report.photos == 3
    assert dict(report.splits) == {"train": 1, "val": 2}  # valid and test both become val
    for split, seed in (("train", 8), ("val", 9), ("val", 10)):
        _assert_boxes(tmp_path / "ds", f"IMG_{seed}_jpg.rf.{seed:032x}", split, seed)


@pytest.mark.parametrize(
    ("make", "image"),
    [(_labelstudio_yolo, "images/0a1b2c3d-IMG_5.jpg"), (_roboflow, "valid/images/IMG_9_jpg.rf.{:032x}.jpg".format(9))],
)
def test_a_yolo_label_without_its_image_is_reported_and_strict_fails(tmp_path, make, image):
    """Its boxes cannot be imported: saying nothing would lose them unnoticed."""
    from mjsnap.cli import app

    export = make(tmp_path / "export")
    (export / image).unlink()
    label = str(Path(image.replace("images", "labels", 1)).with_suffix(".txt"))
    result = runner.invoke(app, ["label", "import", str(export), "--to", str(tmp_path / "ds"), "--strict"])
    assert result.exit_code == 1, result.output
    assert f"1 images not found: {label} (a label without its image)" in result.output


def test_detect_format_refuses_other_folders(tmp_path):
    (tmp_path / "x").mkdir()
    with pytest.raises(ImportFormatError, match="not a known export"):
        detect_format(tmp_path / "x")


def test_yolo_polygon_lines_become_boxes_and_bad_lines_are_reported(tmp_path):
    folder = _labelstudio_yolo(tmp_path / "lsy")
    label = folder / "labels" / "0a1b2c3d-IMG_5.txt"
    label.write_text(label.read_text() + "1 0.1 0.1 0.3 0.1 0.3 0.4 0.1 0.4\n7 0.5 0.5 0.1 0.1\nx y\n")
    report = import_export(folder, tmp_path / "ds")
    boxes = _saved(tmp_path / "ds", "IMG_5", "train")
    polygon = [box for cls, box in boxes if cls == CLASS_NAMES.index("5p") and box[0] < 20]
    assert len(boxes) == 4 and polygon == [pytest.approx((16.0, 12.0, 48.0, 48.0))]
    assert any("class index 7" in s for s in report.skipped) and any("'x y'" in s for s in report.skipped)


# --- exports and round trips -------------------------------------------------------------------------------------


def test_labelstudio_export_round_trip(tmp_path):
    source = write_yolo_dataset(tmp_path / "src", {"train": 2, "val": 1})
    count = export_labelstudio_json(source, tmp_path / "tasks.json")
    tasks = json.loads((tmp_path / "tasks.json").read_text())
    assert count == 3 and tasks[0]["annotations"][0]["result"][0]["original_width"] == 160
    assert '<Label value="flower"/>' in (tmp_path / "tasks.config.xml").read_text()
    report = import_export(tmp_path / "tasks.json", tmp_path / "back", images=source / "images")
    assert report.photos == 3
    for seed in (0, 1):
        _assert_boxes(tmp_path / "back", f"p{seed}", "train", seed)


def test_yolo_zip_export_imports_as_cvat(tmp_path):
    source = write_yolo_dataset(tmp_path / "src", {"train": 2, "val": 1})
    assert export_yolo_zip(source, tmp_path / "out.zip") == 3
    with zipfile.ZipFile(tmp_path / "out.zip") as archive:
        assert {"data.yaml", "train.txt", "val.txt", "images/val/p2.jpg", "labels/val/p2.txt"} <= set(archive.namelist())
    report = import_export(tmp_path / "out.zip", tmp_path / "back")
    assert report.format == "cvat-yolo" and dict(report.splits) == {"train": 2, "val": 1}
    _assert_boxes(tmp_path / "back", "p2", "val", 2)


def test_label_cli_import_export(tmp_path):
    from mjsnap.cli import app

    _roboflow(tmp_path / "rf")
    result = runner.invoke(app, ["label", "import", str(tmp_path / "rf"), "--to", str(tmp_path / "ds")])
    assert result.exit_code == 0, result.output
    assert "roboflow-yolo: 3 photos, 9 boxes" in result.output
    result = runner.invoke(app, ["label", "export", str(tmp_path / "ds"), "--out", str(tmp_path / "t.json")])
    assert result.exit_code == 0 and "3 photos" in result.output


def test_label_cli_strict_fails_on_unknown_names(tmp_path):
    from mjsnap.cli import app

    export, images = _labelstudio_json(tmp_path / "ls")
    result = runner.invoke(app, ["label", "import", str(export), "--to", str(tmp_path / "ds"), "--images",
                                 str(images), "--strict"])
    assert result.exit_code == 1 and "'joker' x1" in result.output


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (["label", "import", "{ls}", "--to", "{file}"], "--to: {file} is a file, not a folder"),
        (["label", "import", "{ls}", "--to", "{file}/ds"], "--to: {file}/ds cannot be made: {file} is a file"),
        (["label", "import", "{ls}", "--to", "{tmp}/ds"], "labelled images was found without --images"),
        (["label", "export", "{src}", "--out", "{dir}"], "--out: {dir} is a folder, not a file"),
        (["label", "export", "{src}", "--out", "{dir}", "--format", "yolo-zip"], "--out: {dir} is a folder"),
        (["label", "export", "{src}", "--out", "{file}/t.json"], "--out: {file}/t.json cannot be made: {file} is a"),
        (["label", "export", "{src}", "--out", "{dir}.json"], "--out's labelling config: {dir}.config.xml is a folder"),
    ],
)
def test_label_cli_refuses_outputs_it_cannot_write_and_leaves_nothing(tmp_path, command, message):
    from mjsnap.cli import app

    export, _ = _labelstudio_json(tmp_path / "ls")
    places = {"ls": export, "src": write_yolo_dataset(tmp_path / "src", {"train": 1}), "tmp": tmp_path,
              "file": tmp_path / "afile", "dir": tmp_path / "out"}
    places["file"].write_text("kept")
    (tmp_path / "out.config.xml").mkdir()
    places["dir"].mkdir()
    before = sorted(tmp_path.rglob("*"))
    result = runner.invoke(app, [part.format(**places) for part in command])
    assert result.exit_code == 2, result.output
    assert message.format(**places) in result.output and "Traceback" not in result.output
    assert sorted(tmp_path.rglob("*")) == before and places["file"].read_text() == "kept"


@pytest.mark.parametrize(
    ("data_yaml", "message"),
    [
        (b"train: [../train/images\nnames: ['1m']\n", "{yaml} does not read as YAML"),
        (b"\xff\xd8\xff\xe0 a photo", "{yaml} is not a YAML file"),
        (b"- 1m\n- 5p\n", "{yaml} lists no class names"),
        (b"names: 4\n", "{yaml} lists no class names"),
    ],
)
def test_an_export_whose_data_yaml_cannot_be_read_is_refused(tmp_path, data_yaml, message):
    """Each was a traceback (yaml's, the codec's, or a list's missing .get); nothing is imported."""
    from mjsnap.cli import app

    export = _roboflow(tmp_path / "rf")
    (export / "data.yaml").write_bytes(data_yaml)
    result = runner.invoke(app, ["label", "import", str(export), "--to", str(tmp_path / "ds"), "--format", "roboflow-yolo"])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [f"error: {message.format(yaml=export / 'data.yaml')}"]
    assert not (tmp_path / "ds").exists()


@pytest.mark.parametrize(
    ("fmt", "damage", "message"),
    [
        ("labelstudio-json", "label", "{src}/labels/train/p1.txt: label line 1 'three tiles' is not 'class xc yc w h'"),
        ("labelstudio-json", "bom", "{src}/labels/train/p1.txt is not an ASCII YOLO label file"),
        # a photo as `mjsnap read` says it (vision.imageio), not in Pillow's words, which do not always name it
        ("labelstudio-json", "photo", "{src}/images/train/p1.jpg: not a readable image (expected JPEG, PNG, WebP or HEIC)"),
        ("labelstudio-json", "missing", "{src}/images/train/p1.jpg: no such file"),
        ("yolo-zip", "missing", "[Errno 2] No such file or directory: '{src}/images/train/p1.jpg'"),
    ],
)
def test_label_export_of_a_damaged_dataset_names_the_file_and_writes_nothing(tmp_path, fmt, damage, message):
    """A label line, a photo that cannot be read or is gone: one line naming the file (tracebacks before), no export.
    (The YOLO zip copies labels and photos as they are, unread: only a missing file stops it.)"""
    from mjsnap.cli import app

    src = write_yolo_dataset(tmp_path / "src", {"train": 2})
    label, image = src / "labels" / "train" / "p1.txt", src / "images" / "train" / "p1.jpg"
    if damage == "label":
        label.write_text("three tiles\n")
    elif damage == "bom":
        label.write_bytes(b"\xef\xbb\xbf" + label.read_bytes())
    elif damage == "photo":
        image.write_text("not a photo")
    else:
        image.unlink()
    out = tmp_path / ("tasks.json" if fmt == "labelstudio-json" else "set.zip")
    result = runner.invoke(app, ["label", "export", str(src), "--out", str(out), "--format", fmt])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [f"error: {message.format(src=src)}"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]
