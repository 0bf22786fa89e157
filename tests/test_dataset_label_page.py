"""The labelling page (Streamlit AppTest) and its helpers: open a folder, start from the saved label or the model,
add/delete boxes, set a class with the tile picker, done -> train, later -> review."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app_texts import assert_no_english  # noqa: E402
from dataset_fixtures import photo  # noqa: E402
from mjsnap.app import label_page  # noqa: E402
from mjsnap.app.i18n import label_problem  # noqa: E402
from mjsnap.labels import LabelBox, LabelDataset, LabelError  # noqa: E402
from scoring.tiles import CLASS_NAMES  # noqa: E402

APP = str(Path(__file__).resolve().parent.parent / "app.py")
GOOD_ROW = {"cls": "5p", "x1": 1, "y1": 1, "x2": 9, "y2": 9}


@pytest.fixture
def photos(tmp_path) -> Path:
    folder = tmp_path / "photos"
    folder.mkdir()
    for seed in (1, 2):
        photo(seed)[0].save(folder / f"hand {seed}.jpg")
    (folder / "notes.txt").write_text("not a photo")
    return folder


def open_page(tmp_path, monkeypatch, photos: Path) -> AppTest:
    monkeypatch.setenv("MJSNAP_MODEL_DIR", str(tmp_path / "no-model"))  # start from empty boxes
    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(tmp_path / "labels"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.radio(key="lang").set_value("en").run()
    at.radio(key="page").set_value("label").run()
    at.text_input(key="lp_folder").set_value(str(photos)).run()
    assert not at.exception, at.exception
    return at


def test_list_photos_skips_other_files(photos):
    assert [p.name for p in label_page.list_photos(photos)] == ["hand 1.jpg", "hand 2.jpg"]


@pytest.mark.parametrize(
    ("folder", "warning", "info"),
    [("no such folder", "No such folder: ", None), ("empty", None, "No photos in this folder")],
)
def test_a_folder_that_is_not_there_is_told_from_an_empty_one(tmp_path, monkeypatch, folder, warning, info):
    (tmp_path / "empty").mkdir()
    at = open_page(tmp_path, monkeypatch, tmp_path / folder)
    assert [w.value for w in at.warning] == ([f"{warning}{tmp_path / folder}"] if warning else [])
    assert [i.value for i in at.info] == ([info] if info else [])


@pytest.mark.parametrize(
    "rows, error, code, zh",
    [([{"cls": "joker", "x1": 1, "y1": 1, "x2": 5, "y2": 5}], "box 1: choose a tile class", "no_tile_class",
      "第 1 个框：请为这个框选择牌"),
     ([GOOD_ROW, {"cls": "1m", "x1": 5, "y1": 1, "x2": 5, "y2": 5}], "box 2: .* no area", "box_without_area",
      "第 2 个框：框没有面积：x2 要大于 x1，y2 要大于 y1"),
     ([{"cls": "1m", "x1": None, "y1": 1, "x2": 5, "y2": 5}], "box 1", "bad_box_numbers",
      "第 1 个框：框要有四个数：x1 y1 x2 y2")],
)
def test_bad_rows_are_refused_with_the_row_named_in_either_language(rows, error, code, zh):
    with pytest.raises(LabelError, match=error) as refused:
        label_page.boxes_from_rows(rows)
    assert (refused.value.code, refused.value.box) == (code, len(rows))
    assert label_problem(refused.value, "zh") == zh
    assert label_problem(refused.value, "en") == str(refused.value)


def test_a_file_error_names_the_file_in_chinese():
    error = PermissionError(13, "Permission denied", "/data/labels/train/p.txt")
    assert label_problem(error, "zh") == "标注文件读写失败（权限、磁盘空间或文件损坏）：/data/labels/train/p.txt"
    assert label_problem(error, "en") == str(error)


@pytest.mark.parametrize(
    "files, names",
    [(["第一手.jpg", "第二手.jpg"], ["photo", "photo-2"]),
     (["IMG 1.jpg", "IMG_1.png"], ["IMG_1", "IMG_1-2"]),
     (["a.jpg", "a.png", "b.jpg"], ["a", "a-2", "b"])],
)
def test_photos_whose_names_come_out_alike_keep_a_label_each(tmp_path, files, names):
    """Two photos must never be saved under one name: the second's Done would replace the first's label."""
    folder = tmp_path / "photos"
    folder.mkdir()
    for seed, file in enumerate(files):
        photo(seed)[0].save(folder / file)
    paths = label_page.list_photos(folder)
    assert sorted(label_page.photo_names(paths)) == sorted(names)
    dataset = LabelDataset(tmp_path / "ds")
    for path, name in zip(paths, label_page.photo_names(paths)):
        label_page.save_photo(dataset, name, path, [GOOD_ROW], done=True)
    assert sorted(p.stem for p in (dataset.root / "labels" / "train").iterdir()) == sorted(names)


def test_done_keeps_a_val_photo_in_val(tmp_path, photos):
    dataset = LabelDataset(tmp_path / "ds")
    path = photos / "hand 1.jpg"
    dataset.save("hand_1", label_page.upright(path), [LabelBox(0, (1, 1, 9, 9))], split="val")
    rows = [{"cls": "C", "x1": 2, "y1": 2, "x2": 20, "y2": 30}]
    assert label_page.save_photo(dataset, "hand_1", path, rows, done=True).split == "val"
    assert label_page.save_photo(dataset, "hand_1", path, rows, done=False).split == "review"
    assert dataset.find("hand_1") == "review" and dataset.load("hand_1", "review")[0].cls == CLASS_NAMES.index("C")


def test_add_pick_and_done_saves_the_label(tmp_path, monkeypatch, photos):
    at = open_page(tmp_path, monkeypatch, photos)
    assert any("no model, starting empty" in c.value for c in at.caption)
    at.button(key="lp_add").click().run()
    at.button(key="lp_pick_13").click().run()  # 5p
    at.button(key="lp_done").click().run()
    assert not at.exception, at.exception
    dataset = LabelDataset(tmp_path / "labels")
    boxes = dataset.load("hand_1", "train")
    assert [b.cls for b in boxes] == [CLASS_NAMES.index("5p")]
    assert any("hand 2.jpg" in c.value for c in at.caption)  # moved on to the next photo
    assert "1 of 2 done" in at.get("progress")[0].proto.text


def test_the_box_being_fixed_stays_selected_after_each_edit(tmp_path, monkeypatch, photos):
    """Each edit gives the box selector a fresh key; it went back to box 1, so a second tap on the picker (a tile
    mis-tapped) changed box 1."""
    at = open_page(tmp_path, monkeypatch, photos)
    at.button(key="lp_add").click().run()
    at.button(key="lp_add").click().run()
    assert _box_selector(at).value == 1  # the box just added
    at.button(key="lp_pick_13").click().run()  # 5p
    at.button(key="lp_pick_31").click().run()  # C: the tile meant
    assert _box_selector(at).value == 1
    _box_selector(at).set_value(0).run()
    at.button(key="lp_pick_8").click().run()  # 9m
    at.button(key="lp_done").click().run()
    assert not at.exception, at.exception
    assert [CLASS_NAMES[b.cls] for b in LabelDataset(tmp_path / "labels").load("hand_1", "train")] == ["9m", "C"]


def _box_selector(at: AppTest):
    return next(s for s in at.selectbox if s.key.startswith("lp_selected_"))


def test_saved_label_is_reopened_and_a_deleted_box_is_saved_for_later(tmp_path, monkeypatch, photos):
    image, boxes = photo(1)
    LabelDataset(tmp_path / "labels").save(
        "hand_1", image, [LabelBox(CLASS_NAMES.index(n), b) for n, b in boxes], split="train")
    at = open_page(tmp_path, monkeypatch, photos)
    assert any("saved label (train)" in c.value for c in at.caption)
    at.button(key="lp_delete").click().run()  # the first box is selected
    at.button(key="lp_later").click().run()
    assert not at.exception, at.exception
    saved = LabelDataset(tmp_path / "labels").load("hand_1", "review")
    assert [CLASS_NAMES[b.cls] for b in saved] == ["5p", "C"]


def test_photos_start_from_the_models_boxes(tmp_path, monkeypatch, photos):
    pytest.importorskip("ultralytics")
    from detector_model import build_tiny_model

    from vision.detector import TileDetector

    model = build_tiny_model(tmp_path / "model", imgsz=64)
    monkeypatch.setenv("MJSNAP_MODEL_DIR", str(model))
    rows, note = label_page.initial_rows(LabelDataset(tmp_path / "ds"), "hand_1", photos / "hand 1.jpg", "en")
    dets = TileDetector(model).detect(label_page.upright(photos / "hand 1.jpg"))
    assert note == "pre-labelled by model tiny-test: check every box"
    usable = [(c, b) for c, b in zip(dets.class_id, dets.xyxy) if b[2] > b[0] and b[3] > b[1]]  # no empty boxes
    assert len(usable) > 0
    assert [r["cls"] for r in rows] == [CLASS_NAMES[c] for c, _ in usable]
    assert [[r[k] for k in ("x1", "y1", "x2", "y2")] for r in rows] == [[round(float(v), 1) for v in b] for _, b in usable]


def test_a_damaged_saved_label_is_said_and_replaced(tmp_path, monkeypatch, photos):
    monkeypatch.setenv("MJSNAP_MODEL_DIR", str(tmp_path / "no-model"))
    dataset = LabelDataset(tmp_path / "ds")
    dataset.save("hand_1", label_page.upright(photos / "hand 1.jpg"), [LabelBox(0, (1, 1, 9, 9))])
    dataset.label_path("hand_1", "train").write_text("garbage line\n")
    rows, note = label_page.initial_rows(dataset, "hand_1", photos / "hand 1.jpg", "en")
    assert rows == [] and "is not 'class xc yc w h'" in note and "no model" in note
    _, note = label_page.initial_rows(dataset, "hand_1", photos / "hand 1.jpg", "zh")
    assert note.startswith(f"{dataset.label_path('hand_1', 'train')} 已损坏：标注文件有一行格式不对")


def test_the_chinese_label_page_says_nothing_in_english(tmp_path, monkeypatch):
    folder = tmp_path / "照片"
    folder.mkdir()
    photo(1)[0].save(folder / "第一手.jpg")
    monkeypatch.setenv("MJSNAP_MODEL_DIR", str(tmp_path / "no-model"))
    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(tmp_path / "labels"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.radio(key="page").set_value("label").run()
    assert_no_english(at)  # no folder yet
    at.text_input(key="lp_folder").set_value(str(folder)).run()
    at.button(key="lp_add").click().run()
    at.button(key="lp_later").click().run()
    assert not at.exception, at.exception
    assert at.success[0].value.startswith("已保存：")
    assert_no_english(at)
    (tmp_path / "labels" / "data.yaml").write_text("names: [tile]\n")  # another project's dataset
    at.button(key="lp_later").click().run()
    assert at.error[0].value == "没有保存：这个数据集文件夹用的是别的牌类别：请换一个文件夹保存"
    assert_no_english(at)
