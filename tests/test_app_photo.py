"""Photo flows through AppTest with the shipped model: sample/upload -> detections -> hand -> correction -> label,
the formats phones send (JPEG with EXIF rotation, PNG, WebP, HEIC), and a missing model. The model's accuracy is
measured in benchmarks/, not here: these tests only rely on what the app does with whatever it reads."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app_texts import APP, run  # noqa: E402

from mjsnap.app.hand_view import frame_of  # noqa: E402
from mjsnap.app.recognize import model_dir  # noqa: E402
from mjsnap.labels import DATA_YAML, LabelDataset  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "mjsnap" / "app" / "samples" / "plain_win.jpg"


@pytest.fixture
def labels(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "labels"
    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(path))
    return path


@pytest.fixture
def model() -> Path:
    path = model_dir()
    if not (path / "meta.json").is_file():
        pytest.skip(f"no model at {path} (the shipped model in models/current, or MJSNAP_MODEL_DIR)")
    return path


def upload(data: bytes, name: str, mime: str) -> AppTest:
    at = run(AppTest.from_file(APP, default_timeout=120))
    at.file_uploader(key="uploader").set_value((name, data, mime))
    return run(at)


def assert_read(at: AppTest) -> None:
    """The photo went through: no error, the photo with boxes, the timings, the hand panel and a result."""
    assert not at.error or "不能胡" in at.error[0].value or "不完整" in at.error[0].value, at.error[0].value
    reading = at.session_state["reading"]
    assert reading is not None
    assert any("识别" in c.value and "ms" in c.value for c in at.caption)
    assert "2 · 核对手牌（点一张牌来修改）" in [s.value for s in at.subheader]
    assert "4 · 结果" in [s.value for s in at.subheader] or any("听牌" in s.value for s in at.subheader)


def test_sample_photo_flow(model, labels):
    at = run(AppTest.from_file(APP, default_timeout=120))
    at.selectbox(key="sample_choice").set_value("plain_win.jpg")
    at.button(key="use_sample").click()
    run(at)
    assert_read(at)
    assert at.session_state["photo"].source == "sample"
    assert not labels.exists()  # nothing is saved until a person corrects something


def correct_a_tile(at: AppTest) -> tuple[int, int]:
    """Give the first tile with a box another face; the number of boxed tiles and the new face."""
    draft = at.session_state["draft"]
    boxed = [t for t in draft.tiles if t.box is not None and t.box[2] > t.box[0] and t.box[3] > t.box[1]]
    assert boxed, "the model found no tile in the sample photo"
    new_kind = 33 if boxed[0].kind != 33 else 27
    at.button(key=f"tile-{draft.tiles.index(boxed[0])}").click()
    run(at)
    at.button(key=f"pick-{new_kind}").click()
    run(at)
    return len(boxed), new_kind


def test_upload_correct_and_the_label_is_saved(model, labels):
    at = upload(SAMPLE.read_bytes(), "IMG_0001.JPG", "image/jpeg")
    assert_read(at)
    n_boxed, new_kind = correct_a_tile(at)
    photo_id = at.session_state["photo"].photo_id
    dataset = LabelDataset(labels)
    assert (labels / DATA_YAML).is_file()
    assert dataset.find(f"app_{photo_id}") == "train"
    saved = dataset.load(f"app_{photo_id}", "train")
    assert len(saved) == n_boxed
    assert new_kind in [b.cls for b in saved]
    assert any("已保存为训练标注" in c.value for c in at.caption)
    # a tile the photo missed has no box: the label moves to review until a person draws it
    at.button(key="add-tile").click()
    run(at)
    at.button(key="pick-0").click()
    run(at)
    assert dataset.find(f"app_{photo_id}") == "review"
    # ...and the page says so, with the tile marked, instead of the photo dropping silently out of training
    assert any("手动加上的 1 张牌（橙框）" in w.value and "images/review" in w.value for w in at.warning)
    added = at.session_state["draft"].unboxed
    assert frame_of(at.session_state["draft"], at.session_state["origin"], added[0], None, True) == "added"


def test_a_label_that_cannot_be_saved_says_why_in_the_page_language(model, labels):
    labels.mkdir()
    (labels / DATA_YAML).write_text("names: [tile]\n")  # another project's dataset: not mixed into
    at = upload(SAMPLE.read_bytes(), "IMG_0002.JPG", "image/jpeg")
    correct_a_tile(at)
    assert "标注没有保存：这个数据集文件夹用的是别的牌类别：请换一个文件夹保存" in [w.value for w in at.warning]
    at.radio(key="lang").set_value("en")
    run(at)
    assert any(w.value.startswith(f"The label was not saved: {labels / DATA_YAML} lists classes")
               and w.value.endswith("save corrections into another folder") for w in at.warning)


def _jpeg_rotated(data: bytes) -> bytes:
    """The sample stored sideways with EXIF orientation 6, as phones write portrait photos."""
    image = Image.open(io.BytesIO(data))
    stored = image.transpose(Image.Transpose.ROTATE_90)  # what the sensor wrote
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    stored.save(out, format="JPEG", quality=90, exif=exif)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["png", "webp", "heic", "exif-jpeg"])
def test_phone_formats_are_read_upright(model, labels, fmt):
    original = Image.open(SAMPLE)
    if fmt == "exif-jpeg":
        data, mime, name = _jpeg_rotated(SAMPLE.read_bytes()), "image/jpeg", "portrait.jpg"
    else:
        if fmt == "heic":
            pillow_heif = pytest.importorskip("pillow_heif")
            pillow_heif.register_heif_opener()
        out = io.BytesIO()
        try:
            original.save(out, format="HEIF" if fmt == "heic" else fmt.upper())
        except (KeyError, OSError, ValueError) as exc:
            pytest.skip(f"cannot write {fmt} on this machine: {exc}")
        data, mime, name = out.getvalue(), f"image/{fmt}", f"photo.{fmt}"
    at = upload(data, name, mime)
    assert_read(at)
    reading = at.session_state["reading"]
    assert (reading.width, reading.height) == original.size  # upright, full resolution


def test_missing_model_is_a_clear_error(labels, tmp_path, monkeypatch):
    monkeypatch.setenv("MJSNAP_MODEL_DIR", str(tmp_path / "no-model"))
    at = upload(SAMPLE.read_bytes(), "IMG_0002.JPG", "image/jpeg")
    assert "没有找到识别模型" in at.error[0].value
    assert "no-model" in at.error[0].value


def test_a_model_promoted_while_the_app_runs_reads_the_next_photo(model, labels, tmp_path, monkeypatch):
    """The retrain loop ends in `mjsnap promote`, which swaps models/current while the app may be running: the next
    photo is read by the promoted model, as the page's version line says, without a restart (until session 40 the
    app kept the model it had loaded first)."""
    import json
    import shutil

    from vision.registry import _swap_in

    models = tmp_path / "models"
    shutil.copytree(model, models / "current")
    monkeypatch.setenv("MJSNAP_MODEL_DIR", str(models / "current"))
    first_version = json.loads((model / "meta.json").read_text())["version"]
    at = upload(SAMPLE.read_bytes(), "IMG_0003.JPG", "image/jpeg")
    assert at.session_state["reading"].model_version == first_version
    promoted = tmp_path / "promoted"
    shutil.copytree(model, promoted)
    meta = json.loads((promoted / "meta.json").read_text())
    (promoted / "meta.json").write_text(json.dumps({**meta, "version": f"{first_version}-promoted"}))
    _swap_in(models, promoted)  # as mjsnap promote installs a candidate
    at.file_uploader(key="uploader").set_value(("IMG_0004.JPG", SAMPLE.read_bytes(), "image/jpeg"))
    run(at)
    assert at.session_state["reading"].model_version == f"{first_version}-promoted"
    assert any(f"{first_version}-promoted" in c.value for c in at.caption)


def test_a_correction_of_a_validation_photo_keeps_it_out_of_training(model, labels):
    """`mjsnap label split` moves some corrected photos to val; correcting such a photo again in the app put it back
    into train, where it was trained on and then still compared models as if unseen (until session 40)."""
    at = upload(SAMPLE.read_bytes(), "IMG_0005.JPG", "image/jpeg")
    correct_a_tile(at)
    name = f"app_{at.session_state['photo'].photo_id}"
    dataset = LabelDataset(labels)
    assert dataset.find(name) == "train"
    for path in (dataset.image_path(name, "train"), dataset.label_path(name, "train")):  # as label split moves it
        target = dataset.image_path(name, "val") if path.suffix == ".jpg" else dataset.label_path(name, "val")
        target.parent.mkdir(parents=True, exist_ok=True)
        path.rename(target)
    assert dataset.find(name) == "val"
    correct_a_tile(at)
    assert dataset.find(name) == "val"
    assert not dataset.image_path(name, "train").exists()
