"""The labelling page given folders it cannot use: each is said in the page's language, never a traceback.
(The page's flows are in test_dataset_label_page.py.)"""

from __future__ import annotations

import pathlib
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from dataset_fixtures import photo  # noqa: E402
from mjsnap.app import label_page  # noqa: E402
from mjsnap.labels import LabelBox, LabelDataset  # noqa: E402

APP = str(Path(__file__).resolve().parent.parent / "app.py")
TOO_LONG = "x" * 300  # one name past the 255 bytes a file system allows: os.stat raises, not "no such file"


def open_page(tmp_path, monkeypatch, lang: str, folder, dataset=None) -> AppTest:
    monkeypatch.setenv("MJSNAP_MODEL_DIR", str(tmp_path / "no-model"))  # start from empty boxes
    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(tmp_path / "labels"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.radio(key="lang").set_value(lang).run()
    at.radio(key="page").set_value("label").run()
    if dataset is not None:
        at.text_input(key="lp_dataset").set_value(str(dataset)).run()
    at.text_input(key="lp_folder").set_value(str(folder)).run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def photos(tmp_path) -> Path:
    folder = tmp_path / "photos"
    folder.mkdir()
    photo(1)[0].save(folder / "hand.jpg")
    return folder


@pytest.mark.parametrize(
    ("lang", "case", "expected"),
    [
        ("zh", "too long", "打不开这个文件夹：{folder}"),
        ("en", "too long", "Cannot open the folder {folder}: File name too long"),
        ("zh", "not readable", "打不开这个文件夹：{folder}"),
        ("en", "not readable", "Cannot open the folder {folder}: Permission denied"),
    ],
)
def test_a_photo_folder_that_cannot_be_opened_is_said(tmp_path, monkeypatch, photos, lang, case, expected):
    folder = tmp_path / TOO_LONG if case == "too long" else photos
    if case == "not readable":  # the tests may run as root, who reads every folder: refuse as the system would
        iterdir = pathlib.Path.iterdir

        def refused(path):
            if path == photos:
                raise PermissionError(13, "Permission denied", str(path))
            return iterdir(path)

        monkeypatch.setattr(pathlib.Path, "iterdir", refused)
    at = open_page(tmp_path, monkeypatch, lang, folder)
    assert [w.value for w in at.warning] == [expected.format(folder=folder)]


@pytest.mark.parametrize(
    ("lang", "case", "expected"),
    [
        ("zh", "too long", "不能用这个数据集文件夹：标注文件读写失败（权限、磁盘空间或文件损坏）："),
        ("en", "too long", "Cannot use this dataset folder: [Errno 36] File name too long"),
        ("zh", "nul", "不能用这个数据集文件夹：标注文件读写失败（权限、磁盘空间或文件损坏）"),
        ("en", "nul", "Cannot use this dataset folder: embedded null byte"),
        ("zh", "link out", "不能用这个数据集文件夹：路径指向数据集文件夹以外（符号链接？）"),
        ("en", "link out", "Cannot use this dataset folder: "),
    ],
)
def test_a_dataset_folder_that_cannot_be_used_is_said(tmp_path, monkeypatch, photos, lang, case, expected):
    dataset = {"too long": tmp_path / TOO_LONG, "nul": tmp_path / "data\x00set", "link out": tmp_path / "ds"}[case]
    if case == "link out":
        dataset.mkdir()
        (tmp_path / "elsewhere").mkdir()
        (dataset / "labels").symlink_to(tmp_path / "elsewhere")
    at = open_page(tmp_path, monkeypatch, lang, photos, dataset)
    assert len(at.warning) == 1 and at.warning[0].value.startswith(expected)
    assert case != "link out" or lang == "zh" or "outside the dataset folder" in at.warning[0].value


@pytest.mark.parametrize(
    ("lang", "data", "expected"),
    [
        ("zh", b"not a photo", "“a.jpg” 不是可读的照片（支持 JPEG、PNG、WebP、HEIC）"),
        ("en", b"", "“a.jpg” is not a readable photo (JPEG, PNG, WebP or HEIC)"),
    ],
)
def test_a_damaged_photo_is_said_and_the_next_one_opens(tmp_path, monkeypatch, photos, lang, data, expected):
    (photos / "a.jpg").write_bytes(data)  # sorted first
    at = open_page(tmp_path, monkeypatch, lang, photos)
    assert [e.value for e in at.error] == [expected]
    at.button(key="lp_next").click().run()
    assert not at.exception and not at.error, at.exception
    assert any(c.value.endswith("2/2: hand.jpg") for c in at.caption)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "已损坏：标注文件读写失败（权限、磁盘空间或文件损坏）"), ("en", ": 'ascii' codec can't decode byte 0xff")],
)
def test_a_label_file_that_is_not_text_is_said_damaged(tmp_path, monkeypatch, photos, lang, expected):
    dataset = LabelDataset(tmp_path / "ds")
    dataset.save("hand", label_page.upright(photos / "hand.jpg"), [LabelBox(0, (1, 1, 9, 9))])
    dataset.label_path("hand", "train").write_bytes(b"\xff\xfe\x00 0.5")
    at = open_page(tmp_path, monkeypatch, lang, photos, dataset.root)
    path = str(dataset.label_path("hand", "train"))
    assert any(c.value.startswith(path) and expected in c.value for c in at.caption), [c.value for c in at.caption]


@pytest.mark.parametrize(("lang", "field", "expected"), [
    ("zh", "", "请填写标注保存到哪个数据集文件夹"),
    ("en", "   ", "Name the dataset folder the labels are saved into"),
])
def test_an_empty_dataset_field_is_refused_not_the_working_folder(tmp_path, monkeypatch, photos, lang, field,
                                                                   expected):
    monkeypatch.chdir(tmp_path)  # where the labels would have landed
    at = open_page(tmp_path, monkeypatch, lang, photos, dataset=field)
    assert [w.value for w in at.warning] == [expected]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photos"]
