"""scripts/gpu_classifier.py, the one GPU run of the crop classifier: its CPU parts, run small here."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES
from vision.twostage.crops import class_folder

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def gpu_run():
    spec = importlib.util.spec_from_file_location("gpu_classifier", REPO / "scripts" / "gpu_classifier.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its workers are pickled by module name
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def test_synthetic_crops_are_capped_per_class_and_every_40th_photo_is_val(gpu_run, tmp_path):
    for split in ("train", "val"):
        for cls in range(len(CLASS_NAMES)):
            (tmp_path / split / class_folder(cls)).mkdir(parents=True)
    stats = gpu_run.synth_worker((7, (256, 320, "any"), None, str(tmp_path), time.time() + 4, 2, None))
    assert stats["photos"] >= 2 and stats["capped"] > 0
    assert all(count <= 2 for count in stats["per_class_train"].values())
    on_disk = {folder.name: len(list(folder.iterdir())) for folder in (tmp_path / "train").iterdir()}
    assert {k: v for k, v in on_disk.items() if v} == stats["per_class_train"]
    assert stats["train"] == sum(on_disk.values())
    expected_val = stats["photos"] // gpu_run.VAL_EVERY
    assert (stats["val"] > 0) == (expected_val > 0)
    crop = next(p for p in (tmp_path / "train").rglob("*.png"))
    assert crop.name.startswith("syn7_")


def test_the_club_crops_are_linked_as_often_as_asked(gpu_run, tmp_path):
    source = tmp_path / "cmd" / "train"
    (source / "00_1m").mkdir(parents=True)
    (source / "33_P").mkdir()
    for name in ("cmd_a.jpg", "cmd_b.jpg"):
        (source / "00_1m" / name).write_bytes(b"x")
    (source / "33_P" / "cmd_c.jpg").write_bytes(b"y")
    assert gpu_run.link_tree(source, tmp_path / "full", repeat=3) == 9
    names = sorted(p.name for p in (tmp_path / "full" / "00_1m").iterdir())
    assert names == ["cmd_a.jpg", "cmd_a_r1.jpg", "cmd_a_r2.jpg", "cmd_b.jpg", "cmd_b_r1.jpg", "cmd_b_r2.jpg"]


def test_the_checkpoint_comes_back_in_fp16_and_reads_as_before(gpu_run, tmp_path):
    import torch

    from vision.twostage.fastcls import build_model, predict_classes, save_checkpoint

    model, _ = build_model(None)
    save_checkpoint(model, tmp_path / "last.pt", 1, {}, 64)
    gpu_run.save_half(tmp_path / "last.pt", tmp_path / "half.pt")
    half = torch.load(str(tmp_path / "half.pt"), map_location="cpu", weights_only=False)["model"]
    assert next(half.parameters()).dtype == torch.float16
    full = torch.load(str(tmp_path / "last.pt"), map_location="cpu", weights_only=False)["model"]
    crops = np.random.default_rng(0).integers(0, 255, (16, 64, 64, 3), dtype=np.uint8)
    assert (predict_classes(half.float(), crops) == predict_classes(full, crops)).mean() >= 0.9


def test_prepare_keeps_a_seeded_share_of_the_club_crops_as_named_jpegs(gpu_run, tmp_path):
    import cv2

    from mjsnap.paths import shared_tileart

    crops = tmp_path / "crops"
    rng = np.random.default_rng(1)
    for split in ("train", "val"):
        (crops / split / "00_1m").mkdir(parents=True)
        for n in range(40):
            cv2.imwrite(str(crops / split / "00_1m" / f"s0_photo_{n}_0.png"), rng.integers(0, 255, (64, 64, 3), dtype=np.uint8))
    report = gpu_run.prepare(crops, tmp_path / "out", keep_train=0.5, keep_val=1.0, quality=90)
    kept = sorted((tmp_path / "out" / "cmd_crops" / "train" / "00_1m").iterdir())
    assert report["cmd_crops"] == {"train": len(kept), "val": 40} and 10 < len(kept) < 30
    assert all(p.name.startswith("cmd_s0_photo_") and p.suffix == ".jpg" for p in kept)
    assert cv2.imread(str(kept[0])).shape == (64, 64, 3)
    again = gpu_run.prepare(crops, tmp_path / "again", keep_train=0.5, keep_val=1.0, quality=90)
    assert again == report  # the share is seeded
    assert report["tileart"] == (shared_tileart() is not None)
    assert (tmp_path / "out" / "mahjong_detector_yolo11n.pt").stat().st_size > 4_000_000


def test_workers_draw_the_streams_from_the_first_seed(gpu_run, tmp_path):
    stats = gpu_run.make_synthetic_crops(tmp_path, 2, 1.0, None, per_class=1, first_seed=300)
    assert [s["seed"] for s in stats] == [300, 301]
    assert all(name.startswith(("syn300_", "syn301_")) for name in (p.name for p in tmp_path.rglob("*.png")))


def test_crops_can_be_cut_at_another_size(gpu_run, tmp_path):
    import cv2

    gpu_run.make_synthetic_crops(tmp_path, 1, 1.0, None, per_class=2, first_seed=300, crop_size=96)
    crops = list(tmp_path.rglob("*.png"))
    assert crops and {cv2.imread(str(p)).shape[:2] for p in crops} == {(96, 96)}
