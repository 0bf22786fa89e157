"""Photo → score in one call: image → TileDetector → read_hand → Hand → scoring.score.

``read_photo`` raises for a photo or model it cannot use (ImageReadError, ModelNotFoundError); ``score_photo``
never raises for bad input: it returns the scorer's JSON with ``valid: false`` and the reason, as the notation
form of ``mjsnap score --json`` does, plus ``read`` (the hand as read, ``mjsnap read --json``) and ``photo``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from scoring.hand import Context, HandError
from scoring.options import RuleOptions
from scoring.scorer import invalid_input, score
from vision.detections import Detections
from vision.normalize import ReadHand, ReadOptions, read_hand


def read_photo(path: str | Path, detector=None, options: ReadOptions | None = None) -> tuple[Detections, ReadHand, dict]:
    """Detect and read the hand in one photo. ``detector`` defaults to the shipped model (TileDetector())."""
    from vision.detector import TileDetector
    from vision.imageio import read_image

    loaded = read_image(path)
    detector = detector if detector is not None else TileDetector()
    start = time.perf_counter()
    dets = detector.detect(loaded)
    ms = (time.perf_counter() - start) * 1000
    read = read_hand(dets, (loaded.width, loaded.height), options)
    meta = {
        "image": str(path),
        "width": loaded.width,
        "height": loaded.height,
        "ms": round(ms, 1),
        "model": getattr(detector, "version", None),
    }
    return dets, read, meta


def score_photo(
    path: str | Path,
    ruleset: str,
    rule_options: RuleOptions | None = None,
    context: dict[str, Any] | Context | None = None,
    detector=None,
    read_options: ReadOptions | None = None,
) -> dict[str, Any]:
    """Score the hand in a photo; the result JSON plus ``read`` and ``photo``. Never raises for bad input."""
    from vision.detector import ModelNotFoundError
    from vision.imageio import ImageReadError

    try:
        _, read, meta = read_photo(path, detector, read_options)
    except ImageReadError as exc:
        return _failed(ruleset, HandError(str(exc), "unreadable_image"), None, {"image": str(path)})
    except ModelNotFoundError as exc:
        return _failed(ruleset, HandError(str(exc), "model_not_found"), None, {"image": str(path)})
    try:
        ctx = context if isinstance(context, Context) else Context.from_dict(dict(context or {}))
        hand = read.to_hand(ctx)
    except HandError as exc:
        return _failed(ruleset, exc, read, meta)
    out = score(hand, ruleset, rule_options).to_json()
    out["read"] = read.to_json()
    out["photo"] = meta
    return out


def _failed(ruleset: str, exc: HandError, read: ReadHand | None, meta: dict) -> dict[str, Any]:
    out = invalid_input(ruleset, exc).to_json()
    out["read"] = read.to_json() if read is not None else None
    out["photo"] = meta
    return out
