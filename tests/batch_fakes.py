"""A deterministic per-photo function for the batch tests: no model; the outcome follows from the pixels.

Used as ``--scorer batch_fakes:pixel_scorer`` (tests put this folder on PYTHONPATH). Photos named ``crash*``
kill their worker process, to test that one such photo cannot take the run down. ``$MJSNAP_FAKE_DELAY``
(seconds per photo) keeps photos in flight long enough for the kill tests.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from mjsnap.batch.records import PhotoOutcome
from mjsnap.batch.scorers import ScorerConfig
from scoring.tiles import CLASS_NAMES

FAKE_MODEL_VERSION = "fake-pixels-1"


def pixel_outcome(path: Path, context: dict[str, Any]) -> PhotoOutcome:
    with Image.open(path) as image:
        rgb = np.asarray(image.convert("RGB"))
    height, width = rgb.shape[:2]
    level = int(rgb.mean())
    tiles = 10 + level % 5
    detections = [
        {"cls": CLASS_NAMES[(level + i) % 34], "conf": round(0.5 + ((level + 7 * i) % 50) / 100, 3),
         "box": [float(4 * i), 1.0, float(4 * i + 3), 5.0]}
        for i in range(tiles)
    ]  # fmt: skip
    hand = {"concealed": "123m456m789m234s", "melds": [], "win_tile": "5s"}
    if width % 2:  # odd widths stand for photos whose hand is no win
        return PhotoOutcome(model_version=FAKE_MODEL_VERSION, width=width, height=height, detections=detections,
                            hand=hand, error="not a winning shape", error_code="not_a_winning_shape")
    fan = 1 + level % 3
    deltas = [-fan] * 4
    deltas[context["winner"]] = 3 * fan
    return PhotoOutcome(
        model_version=FAKE_MODEL_VERSION, width=width, height=height, detections=detections, hand=hand,
        shapes=["plain"], scored_shape="plain", valid=True, fan=fan, deltas=deltas,
        items=[{"name": "自摸", "zh": "自摸", "en": "self-draw", "value": fan, "reason": f"level {level}"}],
        warnings=[{"code": "fake", "message": f"mean level {level}"}] if level % 2 else [],
    )  # fmt: skip


def pixel_scorer(config: ScorerConfig):
    delay = float(os.environ.get("MJSNAP_FAKE_DELAY", "0"))

    def score(path: Path, context: dict[str, Any]) -> PhotoOutcome:
        if path.name.startswith("crash"):
            os._exit(3)
        if delay:
            time.sleep(delay)
        return pixel_outcome(path, context)

    return score


def unbuildable_scorer(config: ScorerConfig):
    raise RuntimeError("no model here")


def checked_unbuildable_scorer(config: ScorerConfig):
    raise RuntimeError("no model here")


def _no_model(config: ScorerConfig) -> None:
    raise FileNotFoundError(f"no model at {config.model_dir}")


checked_unbuildable_scorer.preflight = _no_model
