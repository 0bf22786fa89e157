"""Photo → score in one call: image → TileDetector → read_hand → Hand → scoring.score.

``read_photo`` raises for a photo or model it cannot use (ImageReadError, ModelNotFoundError); ``photo_score``
never raises for bad input: its result is ``valid: false`` with the reason, as the notation form of
``mjsnap score --json`` gives, and ``score_photo`` is that result's JSON plus ``read`` (the hand as read,
``mjsnap read --json``) and ``photo``. What a photo cannot show (the winning tile, a kong's kind or type, the seat
that fed a meld) is asked for with the options of `mjsnap score PHOTO` and `mjsnap batch` (--win-tile, --kong-kind,
--meld-type, --meld-from), which set ``read_options`` and ``meld_from``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.hand import Context, Hand, HandError
from scoring.options import RuleOptions
from scoring.result import ScoreResult
from scoring.scorer import invalid_input, score
from scoring.settlement import unfed_kong_message
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


@dataclass
class PhotoScore:
    """A photo scored: the result, the hand it scored (None when the read hand is no Hand), the hand as read (None
    when the photo could not be read) and the photo's facts (``image``, size, detector time, model version)."""

    result: ScoreResult
    hand: Hand | None
    read: ReadHand | None
    photo: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        out = self.result.to_json()
        out["read"] = self.read.to_json() if self.read is not None else None
        out["photo"] = self.photo
        return out


def photo_score(
    path: str | Path,
    ruleset: str,
    rule_options: RuleOptions | None = None,
    context: dict[str, Any] | Context | None = None,
    detector=None,
    read_options: ReadOptions | None = None,
    meld_from: Mapping[int, int] | None = None,
) -> PhotoScore:
    """Score the hand in a photo; never raises for bad input. ``meld_from`` names the seat that fed meld i of the
    read hand (as `mjsnap read` numbers them, from 0)."""
    from vision.detector import ModelNotFoundError
    from vision.imageio import ImageReadError

    try:
        _, read, meta = read_photo(path, detector, read_options)
    except ImageReadError as exc:
        return unread(ruleset, path, HandError(str(exc), "unreadable_image"))
    except ModelNotFoundError as exc:
        return unread(ruleset, path, HandError(str(exc), "model_not_found"))
    try:
        ctx = context if isinstance(context, Context) else Context.from_dict(dict(context or {}))
        hand = _hand_of(read, ctx, meld_from)
    except HandError as exc:
        return PhotoScore(invalid_input(ruleset, exc), None, read, meta)
    result = score(hand, ruleset, rule_options)
    if result.reason == "kong_feeder_missing":  # the scorer asks for a typed meld's 'from'; a photo's is an option
        result.error = unfed_kong_message(hand, "meld {index} (kong_exposed {tiles})", "give --meld-from {index}=SEAT",
                                          "--meld-type {index}=kong_added") or result.error
    return PhotoScore(result, hand, read, meta)


def score_photo(
    path: str | Path,
    ruleset: str,
    rule_options: RuleOptions | None = None,
    context: dict[str, Any] | Context | None = None,
    detector=None,
    read_options: ReadOptions | None = None,
    meld_from: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """Score the hand in a photo; the result JSON plus ``read`` and ``photo``. Never raises for bad input."""
    return photo_score(path, ruleset, rule_options, context, detector, read_options, meld_from).to_json()


def unread(ruleset: str, path: str | Path, exc: HandError) -> PhotoScore:
    """A photo or model that could not be used: the input error, with ``read`` null (docs/score-json.md)."""
    return PhotoScore(invalid_input(ruleset, exc), None, None, {"image": str(path)})


def _hand_of(read: ReadHand, context: Context, meld_from: Mapping[int, int] | None) -> Hand:
    """The read hand as the scorer's Hand; what the photo lacks is said with the options that supply it."""
    if not read.concealed and not read.melds and read.win_tile is None and not read.unresolved_kongs:
        left_out = " (the tiles detected were left out: see the warnings)" if read.tiles else ""
        raise HandError(f"no tiles were found in the photo{left_out}", "no_tiles")
    hand = read.to_hand(context, meld_from)
    if hand.win_tile is None:
        raise HandError("the photo shows no winning tile: set it apart at the right end of the concealed row, or "
                        "name it with --win-tile (a tile such as 5p, or last for the right-most one)",
                        "missing_win_tile")
    return hand
