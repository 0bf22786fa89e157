"""`mjsnap batch` end to end with the real per-photo function (mjsnap.pipeline.score_photo and TileDetector):
its records carry exactly what score_photo says about each photo, from one process or from two."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from detector_model import build_tiny_model, tile_scene

from mjsnap.batch.journal import latest_by_path
from mjsnap.batch.records import PhotoRecord, content_of
from mjsnap.batch.runner import BatchSettings, run_batch
from mjsnap.batch.scorers import ScorerConfig, outcome_from_pipeline
from mjsnap.paths import MODELS_DIR

SHIPPED_MODEL = MODELS_DIR / "current"
CONTEXT = {"winner": 1, "discarder": 3}


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped model; before it exists (a fresh checkout mid-project), the detector tests' tiny model."""
    if (SHIPPED_MODEL / "meta.json").is_file():
        return SHIPPED_MODEL
    pytest.importorskip("ultralytics", reason="no shipped model, and building the test model needs the train extra")
    return build_tiny_model(tmp_path_factory.getbasetemp() / "tiny-detector")


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pipeline-photos")
    for seed, (width, height) in enumerate([(960, 720), (720, 960), (1024, 576), (800, 600)]):
        cv2.imwrite(str(folder / f"scene_{seed}.jpg"), cv2.cvtColor(tile_scene(width, height, seed), cv2.COLOR_RGB2BGR))
    (folder / "not_a_photo.jpg").write_text("text, not JPEG\n")
    return folder


def test_batch_records_are_what_score_photo_says(tmp_path: Path, model_dir: Path, photos: Path) -> None:
    from mjsnap.pipeline import score_photo
    from vision.detector import TileDetector

    out = tmp_path / "results.jsonl"
    settings = BatchSettings(inputs=[str(photos)], out=out, ruleset="weinan", context=CONTEXT,
                             model_dir=str(model_dir), workers=1)  # fmt: skip
    run_batch(settings)
    records = latest_by_path(out)
    assert len(records) == 5

    detector = TileDetector(model_dir)
    for path, record in records.items():
        PhotoRecord.model_validate(record)
        if path.endswith("not_a_photo.jpg"):
            assert (record["status"], record["error_code"]) == ("error", "unreadable_image")
            assert record["error"].startswith(path)  # the reader's message naming the file, no class path
            continue
        direct = outcome_from_pipeline(score_photo(path, "weinan", context=record["context"], detector=detector))
        assert record["status"] == ("scored" if direct.valid else "not_scored")
        assert {k: record[k] for k in direct.model_dump()} == direct.model_dump(mode="json")
        assert record["model_version"] == detector.version and record["width"] in (960, 720, 1024, 800)
        assert record["context"]["winner"] == 1 and record["context"]["discarder"] == 3

    pooled = tmp_path / "pooled.jsonl"
    run_batch(settings.model_copy(update={"out": pooled, "workers": 2}))
    assert {p: content_of(r) for p, r in latest_by_path(pooled).items()} == {
        p: content_of(r) for p, r in records.items()
    }


def test_the_pipeline_scorer_loads_the_model_once(model_dir: Path, photos: Path, monkeypatch) -> None:
    import vision.detector
    from mjsnap.batch.scorers import pipeline_scorer

    loads = []
    original = vision.detector.TileDetector.__init__

    def counting_init(self, *args, **kwargs):
        loads.append(args)
        original(self, *args, **kwargs)

    monkeypatch.setattr(vision.detector.TileDetector, "__init__", counting_init)
    score = pipeline_scorer(ScorerConfig(ruleset="xian", model_dir=str(model_dir), rule_options={"xian.base_points": "2"}))
    outcomes = [score(path, {"winner": 0}) for path in sorted(photos.glob("scene_*.jpg"))]
    assert len(loads) == 1 and len(outcomes) == 4
    assert all(o.model_version and o.width for o in outcomes)


def test_a_re_read_tile_is_recorded_as_the_detector_saw_it() -> None:
    read = {"tiles": [
        {"cls": "2m", "conf": 0.4, "box": [0, 0, 10, 14], "detected_cls": "3m", "detected_conf": 0.8},
        {"cls": "5p", "conf": 0.9, "box": [12, 0, 22, 14]},
    ], "warnings": []}
    outcome = outcome_from_pipeline({"read": read, "photo": {"model": "x", "width": 30, "height": 20}, "valid": False})
    assert [(d.cls, d.conf) for d in outcome.detections] == [("3m", 0.8), ("5p", 0.9)]
