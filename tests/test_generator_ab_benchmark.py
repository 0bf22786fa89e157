"""benchmarks/generator_ab.py draws each experiment's old arm as the generator did before the change, and only
inside the arm."""

import importlib.util
import sys
from pathlib import Path

import numpy as np

from vision.synth import scene, tile
from vision.synth.scene import SynthOptions, make_sample

SPEC = importlib.util.spec_from_file_location("generator_ab", Path(__file__).parent.parent / "benchmarks" / "generator_ab.py")
generator_ab = importlib.util.module_from_spec(SPEC)
sys.modules["generator_ab"] = generator_ab  # its dataclasses look their module up while it loads
SPEC.loader.exec_module(generator_ab)
BACKS = generator_ab.EXPERIMENTS["back_colours"]
SMALL = SynthOptions(imgsz_min=256, imgsz_max=320, tileart=None)


def test_the_ivory_arm_draws_the_old_back_colours_and_restores_todays() -> None:
    today = tile.BACK_COLOURS
    assert generator_ab.IVORY not in today
    with generator_ab.generator_as(BACKS, "ivory"):
        assert len(tile.BACK_COLOURS) == 12 and tile.BACK_COLOURS[10] == generator_ab.IVORY
        assert scene.back_unlike_face((40, 40, 40), (40, 40, 44)) == (40, 40, 40)  # no rule for dark faces then
        with_ivory = [make_sample(5, i, SMALL) for i in range(3)]
    assert tile.BACK_COLOURS == today and scene.back_unlike_face((40, 40, 40), (40, 40, 44)) != (40, 40, 40)
    with generator_ab.generator_as(BACKS, "today"):
        assert tile.BACK_COLOURS == today
    # the arms draw the same photos but for the back colour: same size, same labels
    now = [make_sample(5, i, SMALL) for i in range(3)]
    assert [(a.image.shape, a.tiles) for a in with_ivory] == [(b.image.shape, b.tiles) for b in now]


def test_real_crops_are_linked_under_their_prefix(tmp_path: Path) -> None:
    real = tmp_path / "real"
    (real / "33_P").mkdir(parents=True)
    (real / "33_P" / "a.jpg").write_bytes(b"x")
    (real / "00_1m").mkdir()
    (real / "00_1m" / "b.jpg").write_bytes(b"y")
    assert generator_ab.link_real(real, tmp_path / "val") == 2
    assert sorted(p.name for p in (tmp_path / "val").rglob("*.jpg")) == ["real_a.jpg", "real_b.jpg"]


def test_read_crops_counts_tiles_read_as_back() -> None:
    class Fixed:  # a "model" whose prediction is the back class for every crop
        def __call__(self, x):
            import torch

            out = torch.zeros((len(x), 36))
            out[:, 34] = 1
            return out

        def eval(self):
            return self

    labels = np.array([33, 33, 34])
    read = generator_ab.read_crops(Fixed(), np.zeros((3, 8, 8, 3), np.uint8), labels)
    assert read["read_as_back"] == 2 and read["recall"] == {"P": 0.0, "back": 1.0}
    assert read["top_confusions"] == [["P->back", 2]]


def test_the_crop_script_is_imported_so_its_workers_can_be_forked() -> None:
    import pickle

    worker = generator_ab.gpu_classifier.synth_worker
    assert pickle.loads(pickle.dumps(worker)) is worker


def test_an_unknown_arm_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError, match="unknown arm"):
        with generator_ab.generator_as(BACKS, "bars"):
            pass


def test_focus_confusions_list_only_the_changed_classes() -> None:
    read = {"confusions": {"2s->5m": 30, "P->back": 9, "3s->2s": 4}, "top_confusions": []}
    bamboo = tuple(f"{rank}s" for rank in range(2, 10))
    assert generator_ab.focus_confusions(read, bamboo) == [("2s->5m", 30), ("3s->2s", 4)]
    old_run = {"top_confusions": [["P->back", 20], ["2s->5m", 5]]}  # kept before runs listed every confusion
    assert generator_ab.focus_confusions(old_run, BACKS.focus) == [("P->back", 20)]
