"""benchmarks/new_set.py draws training photos of a tile set by photo session and links them as a dataset."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

SPEC = importlib.util.spec_from_file_location("new_set", Path(__file__).parent.parent / "benchmarks" / "new_set.py")
new_set = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(new_set)


def _pool(root: Path) -> Path:
    """Six scenes, the first two with a Roboflow copy each, and one photo without a label."""
    images, labels = root / "images" / "train", root / "labels" / "train"
    images.mkdir(parents=True)
    labels.mkdir(parents=True)
    rng = np.random.default_rng(0)
    names = [f"scene{i}_jpg.rf.{'ab' * 8}" for i in range(6)] + [f"scene{i}_jpg.rf.{'cd' * 8}" for i in range(2)]
    for index, name in enumerate(names):
        scene = int(name[5])
        pixels = np.random.default_rng(scene).integers(0, 255, (48, 64, 3), dtype=np.uint8)
        if index >= 6:  # the copy: the same scene, slightly noisier
            pixels = np.clip(pixels.astype(int) + rng.integers(-3, 4, pixels.shape), 0, 255).astype(np.uint8)
        Image.fromarray(pixels).save(images / f"{name}.jpg")
        (labels / f"{name}.txt").write_text("0 0.5 0.5 0.2 0.3\n")
    Image.fromarray(np.zeros((48, 64, 3), np.uint8)).save(images / "unlabelled.jpg")
    return images


def test_sessions_keep_copies_together_skip_unlabelled_photos_and_follow_the_seed(tmp_path):
    pool = _pool(tmp_path)
    sessions = new_set.draw_sessions(pool, seed=0)
    assert len(sessions) == 6
    assert sorted(len(group) for group in sessions) == [1, 1, 1, 1, 2, 2]
    assert all(len({p.name.split("_jpg")[0] for p in group}) == 1 for group in sessions)
    assert "unlabelled.jpg" not in {p.name for group in sessions for p in group}
    assert new_set.draw_sessions(pool, seed=0) == sessions
    orders = {tuple(group[0].name for group in new_set.draw_sessions(pool, seed)) for seed in range(6)}
    assert len(orders) > 1


def test_a_pool_without_labelled_photos_is_refused(tmp_path):
    (tmp_path / "images" / "train").mkdir(parents=True)
    with pytest.raises(SystemExit, match="no labelled photos"):
        new_set.draw_sessions(tmp_path / "images" / "train", seed=0)


def test_linked_dataset_holds_the_drawn_photos_and_their_labels(tmp_path):
    pool = _pool(tmp_path / "pool")
    sessions = new_set.draw_sessions(pool, seed=1)
    train, val = [g[0] for g in sessions[:3]], [g[0] for g in sessions[-2:]]
    data = new_set.link_dataset(tmp_path / "data", {"train": train, "val": val})
    assert "train: images/train" in data.read_text() and "val: images/val" in data.read_text()
    for split, photos in (("train", train), ("val", val)):
        linked = sorted((tmp_path / "data" / "images" / split).iterdir())
        assert [p.name for p in linked] == sorted(p.name for p in photos)
        for photo in linked:
            label = tmp_path / "data" / "labels" / split / f"{photo.stem}.txt"
            assert label.read_text() == "0 0.5 0.5 0.2 0.3\n"
