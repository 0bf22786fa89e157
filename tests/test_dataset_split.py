"""Session split: near-duplicate photos cluster by perceptual hash and never straddle train/val; deterministic."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from dataset_fixtures import near_copy, photo, write_yolo_dataset
from mjsnap.dataset.phash import DEFAULT_MAX_DISTANCE, PhotoHash, cluster, dhash, hamming, phash, roboflow_source
from mjsnap.dataset.split import labelled_photos, plan_split, repair, split_dataset
from mjsnap.labels import LabelDataset

runner = CliRunner()


def test_near_copies_hash_close_and_other_photos_far():
    image = photo(1)[0]
    copy, other = near_copy(image), photo(2)[0]
    near = [hamming(fn(image), fn(copy)) for fn in (dhash, phash)]
    far = [hamming(fn(image), fn(other)) for fn in (dhash, phash)]
    assert min(near) <= DEFAULT_MAX_DISTANCE < min(far)  # linked when either hash is close


@pytest.mark.parametrize(
    "name, source",
    [("IMG_1_jpg.rf.0123456789abcdef0123456789abcdef", "IMG_1"), ("a.b_png.rf.deadbeef", "a.b"), ("IMG_1", None)],
)
def test_roboflow_source(name, source):
    assert roboflow_source(name) == source


def test_cluster_links_near_copies_and_roboflow_copies():
    ones = 2**32 - 1
    hashes = [PhotoHash("a", 0, 0), PhotoHash("b", 0b111, ones << 16 & ones), PhotoHash("c", 2**64 - 1, 2**64 - 1),
              PhotoHash("x_jpg.rf.0123abcd", ones, ones << 32), PhotoHash("x_jpg.rf.4567ef01", ones << 32, ones)]
    assert cluster(hashes, max_distance=3) == [["a", "b"], ["c"], ["x_jpg.rf.0123abcd", "x_jpg.rf.4567ef01"]]


def test_plan_keeps_clusters_whole_and_is_deterministic():
    clusters = [["a1", "a2", "a3"], ["b"], ["c1", "c2"], ["d"], ["e"], ["f1", "f2"], ["g"], ["h"], ["i"], ["j"]]
    plan = plan_split(clusters, 0.25, seed=3)
    assert plan == plan_split(list(reversed(clusters)), 0.25, seed=3)
    for group in clusters:
        assert len({plan[name] for name in group}) == 1
    assert sum(s == "val" for s in plan.values()) == round(0.25 * 14)
    assert any(plan_split(clusters, 0.25, seed=s) != plan for s in range(4, 10))


def test_plan_with_only_big_clusters_still_gets_a_val_side():
    plan = plan_split([["a1", "a2", "a3"], ["b1", "b2", "b3", "b4"]], 0.2)
    assert sorted(plan.values()) == ["train"] * 4 + ["val"] * 3


def test_split_dataset_moves_whole_sessions(tmp_path):
    root = write_yolo_dataset(tmp_path / "ds", {"train": 8, "val": 2})
    # p0 and p5 get a near copy each, in the other split: the same session on both sides
    for seed, split in ((0, "val"), (5, "val")):
        source = LabelDataset(root)
        boxes = source.load(f"p{seed}", "train")
        source.save(f"again{seed}", near_copy(photo(seed)[0]), boxes, split=split)
    report = split_dataset(root, val_fraction=0.3, seed=0)
    placed = labelled_photos(LabelDataset(root))
    assert report.photos == 12 and placed[f"p0"] == placed["again0"] and placed["p5"] == placed["again5"]
    assert report.val == sum(s == "val" for s in placed.values()) > 0
    assert split_dataset(root, val_fraction=0.3, seed=0).moved == []  # deterministic: nothing left to move
    for name, split in placed.items():
        assert (root / "images" / split / f"{name}.jpg").is_file()
        assert not (root / "images" / ("val" if split == "train" else "train") / f"{name}.jpg").exists()


def test_interrupted_move_is_repaired(tmp_path):
    root = write_yolo_dataset(tmp_path / "ds", {"train": 2, "val": 1})
    # the state after the image was copied and the label moved, before the old image was removed
    (root / "images" / "val" / "p0.jpg").write_bytes((root / "images" / "train" / "p0.jpg").read_bytes())
    (root / "labels" / "train" / "p0.txt").rename(root / "labels" / "val" / "p0.txt")
    removed = repair(LabelDataset(root))
    assert removed == [str(root / "images" / "train" / "p0.jpg")]
    assert labelled_photos(LabelDataset(root))["p0"] == "val"


def test_label_split_cli(tmp_path):
    from mjsnap.cli import app

    root = write_yolo_dataset(tmp_path / "ds", {"train": 6})
    result = runner.invoke(app, ["label", "split", str(root), "--val-fraction", "0.34", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "6 photos in 6 sessions" in result.output and "would move 2" in result.output
    assert len(list((root / "labels" / "train").glob("*.txt"))) == 6


@pytest.mark.parametrize("dry_run", [True, False])
def test_label_split_refuses_a_folder_that_is_no_dataset_and_creates_nothing(tmp_path, dry_run):
    from mjsnap.cli import app

    typo = tmp_path / "datset"
    result = runner.invoke(app, ["label", "split", str(typo)] + ["--dry-run"] * dry_run)
    assert result.exit_code == 2 and "is not a dataset folder (no data.yaml)" in result.output
    assert not typo.exists()


def test_label_import_from_a_missing_export_creates_no_dataset(tmp_path):
    from mjsnap.cli import app

    result = runner.invoke(app, ["label", "import", str(tmp_path / "nosuch.zip"), "--to", str(tmp_path / "ds")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert not (tmp_path / "ds").exists()


@pytest.mark.parametrize("dry_run", [True, False])
def test_label_split_names_a_photo_it_cannot_read_and_moves_nothing(tmp_path, dry_run):
    """PIL's UnidentifiedImageError was a traceback; the photos are all read before any is moved."""
    from mjsnap.cli import app

    root = write_yolo_dataset(tmp_path / "ds", {"train": 6})
    (root / "images" / "train" / "p3.jpg").write_text("not a photo")
    files = sorted(path for path in root.rglob("*") if path.is_file())
    result = runner.invoke(app, ["label", "split", str(root), "--val-fraction", "0.34"] + ["--dry-run"] * dry_run)
    assert result.exit_code == 2, result.output
    photo = root / "images" / "train" / "p3.jpg"
    assert result.stderr.splitlines() == [f"error: {photo}: not a readable image (expected JPEG, PNG, WebP or HEIC)"]
    assert sorted(path for path in root.rglob("*") if path.is_file()) == files
