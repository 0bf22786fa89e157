"""benchmarks/unseen_sets.py trains a fold on the other sets' crops and reads the held-out set's and what is left."""

import argparse
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES

SPEC = importlib.util.spec_from_file_location("unseen_sets", Path(__file__).parent.parent / "benchmarks" / "unseen_sets.py")
unseen_sets = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(unseen_sets)


def _groups(root: Path, per_set_and_class: int) -> dict[str, list[tuple[Path, int]]]:
    """Two tile sets with `per_set_and_class` crop files for each of the first three classes."""
    groups = {}
    for name in ("drawn", "gleitz"):
        folder = root / name
        folder.mkdir()
        groups[name] = []
        for class_id in range(3):
            for n in range(per_set_and_class):
                path = folder / f"{class_id}_{n}.png"
                path.write_bytes(b"")
                groups[name].append((path, class_id))
    return groups


@pytest.fixture
def fake_training(monkeypatch):
    """Training writes a one-epoch run; a crop is read as its own class (the fold reads perfectly)."""
    import vision.twostage.fastcls as fastcls

    def train(crops, run, **_settings):
        (run / "weights").mkdir(parents=True)
        (run / "weights" / "last.pt").write_bytes(b"weights")
        (run / "progress.jsonl").write_text(json.dumps({"epoch": 1, "val_top1": 1.0}) + "\n")
        return run

    monkeypatch.setattr(fastcls, "train_fast_classifier", train)
    monkeypatch.setattr(unseen_sets, "predictions",
                        lambda _weights, items: np.array([class_id for _, class_id in items]))


@pytest.mark.parametrize("per_set_and_class, seen_crops", [(4, None), (6, 6)])
def test_a_fold_reads_the_other_sets_crops_left_after_training(tmp_path, fake_training, per_set_and_class, seen_crops):
    """With 4 training crops a class, a set of 4 per class leaves nothing seen to read (None, not a crash); one of 6
    leaves 2 a class."""
    groups = _groups(tmp_path, per_set_and_class)
    args = argparse.Namespace(seed=0, per_class=4, eval_per_class=150, minutes=1.0, epochs=1, keep_weights=None)
    result = unseen_sets.run_fold("gleitz", groups, "photo", args, tmp_path / "start.pt", tmp_path)
    assert result["train_crops"] == 12
    assert result["unseen"]["crops"] == 3 * per_set_and_class and result["unseen"]["top1"] == 1.0
    assert (result["seen"] or {}).get("crops") == seen_crops
    report = {"created": "now", "machine": "test", "load_average": [0.0, 0.0, 0.0], "crops": 24,
              "crops_per_tile_set": {"drawn": 12, "gleitz": 12}, "per_class": 4, "minutes": 1.0, "epochs": 1,
              "start": "start.pt", "eval_per_class": 150, "folds": [result]}
    row = next(line for line in unseen_sets.markdown(report).splitlines() if line.startswith("| gleitz |"))
    assert row == f"| gleitz | 1.0 | {'(none left)' if seen_crops is None else 1.0} |"
    assert CLASS_NAMES[0] in result["unseen"]["worst_recall"]
