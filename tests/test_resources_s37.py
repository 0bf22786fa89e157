"""Resources a long batch run holds (session 37's measurements, /tmp/resources): a resumed run keeps of the earlier
records only what planning reads, not every record whole (detections, hand, items) through the whole run."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import numpy as np
from PIL import Image

from mjsnap.batch.journal import iter_records
from mjsnap.batch.runner import BatchSettings, run_batch

FAKE = "batch_fakes:pixel_scorer"  # tests/batch_fakes.py: no model
MARKER = "s37_marker"
PHOTOS, LEFT_TO_SCORE = 12, 3


def _archive(folder: Path) -> Path:
    folder.mkdir()
    for i in range(PHOTOS):
        pixels = np.full((8, 10, 3), 10 + 17 * i, np.uint8)  # distinct bytes: no photo is a duplicate
        Image.fromarray(pixels).save(folder / f"photo_{i:02d}.png")
    return folder


def _live_marked_dicts() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, dict) and MARKER in o)


def test_a_resumed_run_does_not_hold_the_earlier_records_whole(tmp_path):
    archive = _archive(tmp_path / "photos")
    settings = {"inputs": [str(archive)], "out": tmp_path / "results.jsonl", "ruleset": "weinan", "scorer": FAKE,
                "context": {"winner": 0, "self_draw": True}}
    run_batch(BatchSettings(**settings))
    records = list(iter_records(settings["out"]))
    assert len(records) == PHOTOS
    # an interrupted run: the last photos are not recorded yet; every earlier record's hand carries a marker
    earlier = records[:-LEFT_TO_SCORE]
    for number, record in enumerate(earlier):
        record["hand"][MARKER] = number
    settings["out"].write_text("".join(json.dumps(r) + "\n" for r in earlier), encoding="utf-8")
    del records, earlier, record
    assert _live_marked_dicts() == 0

    held_while_scoring = []
    stats = run_batch(BatchSettings(**settings, resume=True),
                      on_record=lambda record: held_while_scoring.append(_live_marked_dicts()))

    assert stats.already_recorded == PHOTOS - LEFT_TO_SCORE and stats.scored_by_engine == LEFT_TO_SCORE
    assert held_while_scoring == [0] * LEFT_TO_SCORE  # before: 9 earlier records, whole, for every photo scored
    assert len(list(iter_records(settings["out"]))) == PHOTOS

