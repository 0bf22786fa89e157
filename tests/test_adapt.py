"""`mjsnap adapt`: the tiles a model reads surely become labels of a classifier fine-tune (vision.twostage.adapt).

A colour detector stands in for the model in the pseudo-labelling tests: it finds the generated photos' three
coloured tiles wherever the photo's orientation puts them, and gives each the probability its test asks for."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from dataset_fixtures import TILES, near_copy, photo
from mjsnap.dataset.phash import PhotoHash
from scoring.tiles import CLASS_NAMES
from vision.detections import Detections
from vision.imageio import SUPPORTED  # noqa: F401  (registers the HEIC opener and saver)
from vision.twostage.adapt import PseudoLabelSettings, pseudo_label, split_sessions, sure_tiles, yolo_lines
from vision.twostage.crops import labelled_boxes, read_rgb

runner = CliRunner()
EXIF_ORIENTATION = 0x0112


class ColourDetector:
    """Boxes the three coloured tiles of dataset_fixtures.photo; ``reading`` maps a tile's name to
    (detector confidence, class probability)."""

    def __init__(self, reading: dict[str, tuple[float, float]]):
        self.reading = reading

    def detect(self, loaded) -> Detections:
        boxes, conf, cls, probs = [], [], [], []
        to_x, to_y = loaded.to_original
        for name, colour in TILES:
            ys, xs = np.nonzero(np.abs(loaded.pixels.astype(int) - colour).sum(axis=2) < 60)
            if not len(xs):
                continue
            boxes.append([xs.min() * to_x, ys.min() * to_y, (xs.max() + 1) * to_x, (ys.max() + 1) * to_y])
            confidence, probability = self.reading[name]
            row = np.full(len(CLASS_NAMES), (1 - probability) / (len(CLASS_NAMES) - 1), np.float32)
            row[CLASS_NAMES.index(name)] = probability
            conf.append(confidence)
            cls.append(CLASS_NAMES.index(name))
            probs.append(row)
        return Detections(np.array(boxes), np.array(conf), np.array(cls), np.array(probs))


SURE_1M_ONLY = {"1m": (0.9, 0.95), "5p": (0.9, 0.6), "C": (0.3, 0.99)}  # 5p: class in doubt; C: maybe no tile


def write_photos(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in range(count):
        image, _ = photo(seed)
        paths.append(folder / f"p{seed}.jpg")
        image.save(paths[-1], quality=95)
    return paths


def tile_colour_at(image: Path, label_line: str) -> np.ndarray:
    """The mean colour the crop cutter sees inside a label line's box."""
    rgb = read_rgb(image)
    label = image.parent.parent.parent / "labels" / image.parent.name / f"{image.name.rsplit('.', 1)[0]}.txt"
    label.write_text(label_line + "\n")
    _, boxes = labelled_boxes(image, rgb.shape[1], rgb.shape[0])
    x1, y1, x2, y2 = boxes[0].round().astype(int)
    return rgb[y1 + 3 : y2 - 3, x1 + 3 : x2 - 3].reshape(-1, 3).mean(axis=0)


@pytest.mark.parametrize(("conf", "prob", "sure"), [
    (0.9, 0.95, True),
    (0.9, 0.80, True),  # at the bar
    (0.9, 0.79, False),  # the class is in doubt
    (0.49, 0.99, False),  # the box may be no tile
])
def test_sure_tiles_need_both_a_tile_and_its_class(conf, prob, sure):
    row = np.full(len(CLASS_NAMES), (1 - prob) / 35, np.float32)
    row[4] = prob
    detections = Detections(np.array([[0, 0, 10, 10]]), np.array([conf]), np.array([4]), row[None])
    assert sure_tiles(detections, PseudoLabelSettings()).tolist() == [sure]


def test_sure_tiles_needs_class_probabilities():
    with pytest.raises(ValueError, match="two-stage"):
        sure_tiles(Detections(np.array([[0, 0, 10, 10]]), np.array([0.9]), np.array([4])), PseudoLabelSettings())


@pytest.mark.parametrize("settings", [dict(min_prob=0), dict(min_prob=1.2), dict(min_conf=-0.1), dict(val_share=1)])
def test_settings_out_of_range_are_refused(settings):
    with pytest.raises(ValueError):
        PseudoLabelSettings(**settings)


def test_yolo_lines_normalise_by_the_photo():
    detections = Detections(np.array([[10, 20, 50, 80]]), np.array([0.9]), np.array([27]))
    assert yolo_lines(detections, 200, 100) == ["27 0.150000 0.500000 0.200000 0.600000"]


def _hashes(groups: list[int]) -> list[PhotoHash]:
    """Photo hashes in sessions: photos of one session hash alike, different sessions far apart."""
    rng = np.random.default_rng(0)
    session_bits = [int(rng.integers(0, 2**62)) for _ in range(max(groups) + 1)]
    return [PhotoHash(f"p{i}", session_bits[g], session_bits[g]) for i, g in enumerate(groups)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sessions_stay_whole_and_both_sides_get_photos(seed):
    groups = [0, 0, 0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 9]
    train, val = split_sessions(_hashes(groups), 0.2, seed)
    assert train and val and not train & val and len(train | val) == len(groups)
    assert len(val) <= 0.2 * len(groups) + 3  # one session may carry it past the share
    for session in set(groups):
        names = {f"p{i}" for i, g in enumerate(groups) if g == session}
        assert names <= train or names <= val


def test_one_session_is_split_photo_by_photo():
    train, val = split_sessions(_hashes([0] * 6), 0.2, 0)
    assert len(val) == 1 and len(train) == 5


def test_sure_tiles_become_labels_where_the_crop_cutter_finds_them(tmp_path):
    """JPEG photos are linked; an EXIF-turned photo and a HEIC one keep their boxes on their tiles; an unreadable
    file is reported and the others still read; unsure tiles are left unlabelled."""
    photos = write_photos(tmp_path / "photos", 6)
    image, _ = photo(100)
    turned = tmp_path / "photos" / "turned.jpg"
    exif = Image.Exif()
    exif[EXIF_ORIENTATION] = 6  # stored turned a quarter to the left; shown upright
    image.transpose(Image.Transpose.ROTATE_90).save(turned, quality=95, exif=exif)
    heic = tmp_path / "photos" / "phone.heic"
    photo(101)[0].save(heic)
    broken = tmp_path / "photos" / "broken.jpg"
    broken.write_text("not a photo")
    out = tmp_path / "pseudo"
    said = []

    report = pseudo_label(ColourDetector(SURE_1M_ONLY), [*photos, turned, heic, broken], out, PseudoLabelSettings(),
                          seed=0, say=said.append)

    assert report["photos"] == 9 and report["readable"] == 8 and list(report["unreadable"]) == [str(broken)]
    assert "not a readable image" in report["unreadable"][str(broken)]
    assert report["tiles_read"] == 24 and report["sure_tiles"] == 8 and report["sure_per_class"] == {"1m": 8}
    assert report["train_photos"] + report["val_photos"] == 8 and report["val_photos"] >= 1
    assert said[-1] == "read 9/9 photos: 8 of 24 tiles sure"
    assert not Path(f"{out}.partial").exists() and (out / "data.yaml").is_file()
    images = sorted(out.glob("images/*/*"))
    assert len(images) == 8 and len(list(out.glob("labels/*/*.txt"))) == 8
    for image_path in images:
        lines = (out / "labels" / image_path.parent.name / f"{image_path.name.rsplit('.', 1)[0]}.txt").read_text().split("\n")
        assert lines[0].startswith("0 ") and lines[1:] == [""]
        assert np.abs(tile_colour_at(image_path, lines[0]) - TILES[0][1]).max() < 25, image_path.name
        source = image_path.resolve()
        if "phone" in image_path.name:
            assert image_path.suffix == ".jpg" and not image_path.is_symlink()  # the crop cutter reads no HEIC
        else:
            assert image_path.is_symlink() and source.parent == (tmp_path / "photos").resolve()


def test_near_copies_stay_on_one_side(tmp_path):
    photos = write_photos(tmp_path / "photos", 8)
    for k in range(3):
        near_copy(photo(0)[0], shift=k + 1).save(tmp_path / "photos" / f"p0_again{k}.jpg", quality=95)
    out = tmp_path / "pseudo"
    pseudo_label(ColourDetector(SURE_1M_ONLY), sorted((tmp_path / "photos").iterdir()), out, PseudoLabelSettings(),
                 seed=3, say=lambda _: None)
    sides = {path.parent.name for path in out.glob("images/*/*") if "_p0" in path.name}
    assert len(photos) == 8 and len(sides) == 1


def test_nothing_sure_is_a_clear_error_and_leaves_nothing(tmp_path):
    photos = write_photos(tmp_path / "photos", 6)
    with pytest.raises(ValueError, match="--min-prob"):
        pseudo_label(ColourDetector(SURE_1M_ONLY), photos, tmp_path / "pseudo", PseudoLabelSettings(min_prob=0.99),
                     say=lambda _: None)
    assert not (tmp_path / "pseudo").exists() and not (tmp_path / "pseudo.partial").exists()


def test_too_few_readable_photos_are_refused(tmp_path):
    photos = write_photos(tmp_path / "photos", 3)
    with pytest.raises(ValueError, match="at least 4"):
        pseudo_label(ColourDetector(SURE_1M_ONLY), photos, tmp_path / "pseudo", PseudoLabelSettings(), say=lambda _: None)


def invoke(*args):
    from mjsnap.cli import app

    return runner.invoke(app, ["adapt", *[str(a) for a in args]])


@pytest.mark.parametrize(("args", "message"), [
    ((), "give the photos"),
    (("nowhere/*.jpg",), "no such file"),
    (("{photos}", "--resume", "{tmp}"), "not both"),
    (("--resume", "{tmp}"), "holds no adaptation"),
    (("{photos}", "--base", "{tmp}"), "not a two-stage model"),
])
def test_adapt_command_refuses_bad_input_clearly(tmp_path, args, message):
    photos = write_photos(tmp_path / "photos", 4)[0].parent
    result = invoke(*[a.format(photos=photos, tmp=tmp_path) for a in args], "--project", tmp_path / "runs")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not (tmp_path / "runs" / "adapt" / "pseudo").exists()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_adapt_fine_tunes_the_classifier_alone_and_resumes(tmp_path):
    """From a two-stage base (tiny, reading every tile as 1m, surely): the sure tiles' photos and replay photos are
    cut into crops, the classifier is fine-tuned, the tile detector kept; a finished run resumes to the same model
    and the same run is not started twice."""
    pytest.importorskip("ultralytics")
    import torch

    from detector_model import tiny_two_stage_base

    base = tiny_two_stage_base(tmp_path / "base", tmp_path / "base_work", 64, 32)
    photos = write_photos(tmp_path / "photos", 8)[0].parent
    args = (photos, "--base", base, "--project", tmp_path / "runs", "--name", "club", "--classifier-epochs", 1,
            "--replay", 2)
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    run = tmp_path / "runs" / "club"
    candidate = run / "model"
    assert f"candidate model: {candidate}" in result.output.replace("\n", "")
    assert "note: 8 photos" in result.output
    record = json.loads((run / "adapt.json").read_text())
    assert record["pseudo"]["readable"] == 8 and record["pseudo"]["sure_per_class"] == {"1m": record["pseudo"]["sure_tiles"]}
    assert record["command"].startswith("mjsnap adapt ")
    tune = json.loads((run / "finetune.json").read_text())
    # the replay photos' crops learn the base's readings of them, at most 100 crops a class from each folder
    assert tune["replay_soft"] is True and tune["crops_per_class"] == 100 and tune["tune_detector"] is False
    stages = tune["stages"]
    assert stages["detector"] == {"weights": str((base / "detector" / "model.pt").resolve()), "epochs": 0, "kept": True}
    assert stages["replay"]["photos"] == 2 and stages["classifier"]["epochs"] == 1
    assert not (run / "detector").exists()
    meta = json.loads((candidate / "meta.json").read_text())
    assert meta["design"] == "two_stage" and "mjsnap adapt" in meta["train_command"]

    def weights(model_dir: Path, stage: str) -> dict:
        return torch.load(model_dir / stage / "model.pt", map_location="cpu", weights_only=False)["model"].float().state_dict()

    kept, tuned = weights(candidate, "detector"), weights(base, "detector")
    assert all(torch.equal(kept[k], tuned[k]) for k in tuned)
    before, after = weights(base, "classifier"), weights(candidate, "classifier")
    assert any(not torch.equal(before[k], after[k]) for k in before)

    again = invoke(*args)
    assert again.exit_code == 2 and "--resume" in again.output
    exported = (candidate / "meta.json").read_text()
    resumed = invoke("--resume", run)
    assert resumed.exit_code == 0 and (candidate / "meta.json").read_text() == exported
