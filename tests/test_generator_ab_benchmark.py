"""benchmarks/generator_ab.py draws each experiment's old arm as the generator did before the change, and only
inside the arm."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

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
    with generator_ab.arm_as(BACKS, "ivory"):
        assert len(tile.BACK_COLOURS) == 12 and tile.BACK_COLOURS[10] == generator_ab.IVORY
        assert scene.back_unlike_face((40, 40, 40), (40, 40, 44)) == (40, 40, 40)  # no rule for dark faces then
        with_ivory = [make_sample(5, i, SMALL) for i in range(3)]
    assert tile.BACK_COLOURS == today and scene.back_unlike_face((40, 40, 40), (40, 40, 44)) != (40, 40, 40)
    with generator_ab.arm_as(BACKS, "today"):
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
        with generator_ab.arm_as(BACKS, "bars"):
            pass


def test_focus_confusions_list_only_the_changed_classes() -> None:
    read = {"confusions": {"2s->5m": 30, "P->back": 9, "3s->2s": 4}, "top_confusions": []}
    bamboo = tuple(f"{rank}s" for rank in range(2, 10))
    assert generator_ab.focus_confusions(read, bamboo) == [("2s->5m", 30), ("3s->2s", 4)]
    old_run = {"top_confusions": [["P->back", 20], ["2s->5m", 5]]}  # kept before runs listed every confusion
    assert generator_ab.focus_confusions(old_run, BACKS.focus) == [("P->back", 20)]


def test_the_grey_arm_greys_backs_again_and_restores_todays() -> None:
    import torch

    from vision.twostage import fastcls

    grey_backs = generator_ab.EXPERIMENTS["grey_backs"]
    assert grey_backs.changes == "training" and fastcls.COLOUR_IS_CLASS == (34,)
    with generator_ab.arm_as(grey_backs, "grey"):
        assert fastcls.COLOUR_IS_CLASS == ()
    assert fastcls.COLOUR_IS_CLASS == (34,)
    # a batch of coloured backs: today none turns grey; in the old arm, the same draws grey some
    backs = torch.zeros((64, 3, 16, 16))
    backs[:, 0] = 0.9
    labels = torch.full((64,), 34)

    def greyed(out):
        return int((out.std(dim=1).amax(dim=(1, 2)) < 1e-6).sum())

    assert greyed(fastcls.augment(backs.clone(), torch.Generator().manual_seed(1), labels)) == 0
    with generator_ab.arm_as(grey_backs, "grey"):
        assert greyed(fastcls.augment(backs.clone(), torch.Generator().manual_seed(1), labels)) > 0


def test_the_zoom_arms_set_their_share_and_restore_todays() -> None:
    from vision.twostage import fastcls

    today = fastcls.FACE_ZOOM_SHARE
    for name, arm, share in (("face_zoom", "whole_tile", 0.0), ("face_zoom_share", "fifth", 0.2)):
        with generator_ab.arm_as(generator_ab.EXPERIMENTS[name], arm):
            assert fastcls.FACE_ZOOM_SHARE == share
        assert fastcls.FACE_ZOOM_SHARE == today


def test_the_no_cursive_arm_draws_without_the_grass_script_fonts_and_restores_todays() -> None:
    from vision.synth import drawn

    today = drawn.FONT_NAMES
    assert {"grass", "cursive"} <= set(today)
    with generator_ab.arm_as(generator_ab.EXPERIMENTS["cursive_fonts"], "no_cursive"):
        assert set(drawn.FONT_NAMES) == set(today) - {"grass", "cursive"}
    assert drawn.FONT_NAMES == today


def test_training_experiments_draw_a_seeds_crops_once_and_redraw_an_interrupted_drawing(tmp_path: Path,
                                                                                        monkeypatch) -> None:
    import argparse

    calls = []

    def draw(crops: Path, seed: int, args, real: Path) -> list[dict]:
        assert real == args.real  # a training experiment's arms share crops: the code's size, the code's real crops
        calls.append(seed)
        (crops / "train").mkdir(parents=True)
        return [{"seed": seed, "photos": 3}]

    monkeypatch.setattr(generator_ab, "draw_crops", draw)
    args = argparse.Namespace(work=tmp_path, real=tmp_path / "real")
    first = generator_ab.shared_crops(100, args)
    assert generator_ab.shared_crops(100, args) == first == (tmp_path / "crops" / "100", [{"seed": 100, "photos": 3}])
    assert calls == [100]
    (tmp_path / "crops" / "200" / "train").mkdir(parents=True)  # a drawing stopped before its stats were written
    generator_ab.shared_crops(200, args)
    assert calls == [100, 200]


def _run(seed: int, arm: str, errors: int | None) -> dict:
    read = {"crops": 10, "top1": 0.8, "read_as_back": 0, "recall": {"P": 1.0}, "top_confusions": [], "confusions": {}}
    run = {"seed": seed, "arm": arm, "photos": 50, "training_crops": 900, "real": read, "generated": read}
    if errors is not None:
        run["whole_photos"] = {"photos": 243, "tiles": 5949, "tile_errors": errors, "tile_accuracy": 1 - errors / 5949,
                               "missed": 40, "misclassified": errors - 100, "extra": 60}
    return run


def test_whole_photo_readings_get_their_own_table_with_a_mean_per_arm() -> None:
    zoom = generator_ab.EXPERIMENTS["face_zoom"]
    settings = {"seeds": "1,2", "seconds": 150, "per_class": 500, "epochs": 8, "real": "r", "real_crops": 10}
    result = {"experiment": "face_zoom", "date": "d", "machine": "m", "runs": [_run(1, "whole_tile", 900),
              _run(1, "today", 700), _run(2, "whole_tile", None), _run(2, "today", None)]}
    unread = result | {"runs": [_run(1, "whole_tile", None), _run(1, "today", None)]}
    assert "Whole photos" not in generator_ab.markdown(unread | {"settings": settings}, zoom)
    text = generator_ab.markdown(result | {"settings": settings | {"read_photos": "p", "photos": "cmd.yaml"}}, zoom)
    assert "| 1 | today | 700 | 40 / 600 / 60 | 88.23% |" in text
    assert "| mean of seeds 1 | whole_tile | 900.0 | | 84.87% |" in text
    # a seed read one way only stays out of the mean
    result["runs"].append(_run(2, "today", 500) | {"seed": 3})
    text = generator_ab.markdown(result | {"settings": settings | {"read_photos": "p", "photos": "cmd.yaml"}}, zoom)
    assert "| mean of seeds 1 | today | 700.0 | | 88.23% |" in text
    assert "the same crops of today's generator" in text


def test_the_px96_arm_draws_its_crops_at_96_px_and_the_other_at_the_codes_size(tmp_path: Path, monkeypatch) -> None:
    from types import SimpleNamespace

    experiment = generator_ab.EXPERIMENTS["crop_size_96"]
    assert generator_ab.CODE_CROP_SIZE == 64
    assert [generator_ab.arm_crop_size(experiment, arm) for arm in experiment.arms] == [96, None]
    assert generator_ab.arm_crop_size(generator_ab.EXPERIMENTS["cursive_fonts"], "no_cursive") is None
    drawn = []
    monkeypatch.setattr(generator_ab.gpu_classifier, "make_synthetic_crops",
                        lambda out, workers, seconds, tileart, per_class, seed, size: drawn.append(size) or [])
    monkeypatch.setattr(generator_ab, "link_real", lambda real, val: 0)
    args = SimpleNamespace(seconds=1, tileart=tmp_path, per_class=1)
    for arm in experiment.arms:
        generator_ab.draw_crops(tmp_path, 100, args, tmp_path, generator_ab.arm_crop_size(experiment, arm))
    assert drawn == [96, None]


def test_whole_photos_are_read_at_the_arms_crop_size(tmp_path: Path, monkeypatch) -> None:
    """The proxy's copy reads at the arm's size (meta classifier.imgsz and the export), the proxy itself is left as
    it is, and an arm at the code's size reads at the proxy's."""
    import json
    from types import SimpleNamespace

    from vision import evaluate
    from vision.twostage import export

    proxy = tmp_path / "proxy"
    (proxy / "classifier").mkdir(parents=True)
    (proxy / "detector").mkdir()
    (proxy / "meta.json").write_text(json.dumps({"classifier": {"imgsz": 64}}))
    seen = []
    monkeypatch.setattr(export, "export_classifier", lambda weights, folder, imgsz: seen.append(("export", imgsz)))

    def predictor(model: Path):
        seen.append(("meta", json.loads((model / "meta.json").read_text())["classifier"]["imgsz"]))
        return None, "openvino"

    monkeypatch.setattr(evaluate, "detector_predictor", predictor)
    monkeypatch.setattr(evaluate, "labelled_images", lambda data: [])
    read = SimpleNamespace(images=1, true_tiles=10, tile_errors=1, tile_accuracy=0.9, missed=0, misclassified=1,
                           extra=0, top_confusions=[SimpleNamespace(true="2m", predicted="3m", count=1)])
    monkeypatch.setattr(evaluate, "evaluate", lambda *args, **kwargs: read)
    report = generator_ab.read_photos(tmp_path / "w.pt", proxy, tmp_path / "cmd.yaml", tmp_path / "a.json",
                                      {"classifier": {"imgsz": 96}})
    generator_ab.read_photos(tmp_path / "w.pt", proxy, tmp_path / "cmd.yaml", tmp_path / "b.json")
    assert seen == [("export", 96), ("meta", 96), ("export", 64), ("meta", 64)]
    assert json.loads((proxy / "meta.json").read_text())["classifier"]["imgsz"] == 64
    assert report["top_confusions"] == [["2m->3m", 1]] and report["tile_errors"] == 1


def test_a_crop_size_experiment_says_which_size_each_arm_cut_and_needs_its_real_crops(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    experiment = generator_ab.EXPERIMENTS["crop_size_96"]
    settings = {"seeds": "1", "seconds": 150, "per_class": 500, "epochs": 8, "real": "r", "real_crops": 10,
                "real_at_size": "work/devcarry96/cmd_crops/val"}
    result = {"experiment": "crop_size_96", "date": "d", "machine": "m", "settings": settings,
              "runs": [_run(1, "px96", None), _run(1, "today", None)]}
    text = generator_ab.markdown(result, experiment)
    assert "cut at the code's 64 px (`today`) and at 96 px (`px96`" in text
    assert "`work/devcarry96/cmd_crops/val`" in text
    (tmp_path / "real").mkdir()
    (tmp_path / "art").mkdir()
    monkeypatch.setattr(sys, "argv", ["generator_ab.py", "--experiment", "crop_size_96", "--real", str(tmp_path / "real"),
                                      "--tileart", str(tmp_path / "art"), "--work", str(tmp_path)])
    with pytest.raises(SystemExit, match="--real-at-size must name the real crops cut at that size"):
        generator_ab.main()
