"""The per-photo function a batch runs, named by a ``module:factory`` spec so every worker can build its own.

A factory takes a ScorerConfig and returns a PhotoScorer; it is called once per worker process (or Ray actor),
so the model is loaded once per worker. The default is the mjsnap pipeline; tests and users may plug in others.
A factory may carry a ``preflight(config)`` that raises, cheaply, when the factory could not be built: the batch
calls it before it opens the results file, so a run that cannot start leaves nothing behind.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from mjsnap.batch.records import PhotoOutcome

PhotoScorer = Callable[[Path, dict[str, Any]], PhotoOutcome | dict[str, Any]]
ScorerFactory = Callable[["ScorerConfig"], PhotoScorer]
DEFAULT_SCORER = "mjsnap.batch.scorers:pipeline_scorer"


class ScorerConfig(BaseModel):
    """Everything a worker needs to build its per-photo function (picklable, sent to every worker)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    ruleset: str
    rule_options: dict[str, Any] = {}
    model_dir: str | None = None
    backend: str = "auto"
    conf: float | None = None


class PhotoError(Exception):
    """A photo the pipeline could not use at all (unreadable): an ``error`` record, not ``not_scored``."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


class ScorerSpecError(ValueError):
    """A --scorer spec that does not name an importable factory."""


def load_factory(spec: str) -> ScorerFactory:
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ScorerSpecError(f"scorer {spec!r}: use the form package.module:factory")
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ScorerSpecError(f"scorer {spec!r} cannot be loaded: {exc}") from exc
    if not callable(factory):
        raise ScorerSpecError(f"scorer {spec!r} is not callable")
    return factory


def build_scorer(spec: str, config: ScorerConfig) -> PhotoScorer:
    return load_factory(spec)(config)


def preflight(spec: str, config: ScorerConfig) -> None:
    """ScorerSpecError when ``spec`` names no factory, or the factory's own preflight says it could not be built
    (see the module's docstring)."""
    check = getattr(load_factory(spec), "preflight", None)
    if check is None:
        return
    try:
        check(config)
    except Exception as exc:  # noqa: BLE001 - whatever it is, no photo could be scored
        if spec == DEFAULT_SCORER:  # the model, not a --scorer the user never typed: its own message says it
            raise ScorerSpecError(str(exc)) from exc
        raise ScorerSpecError(f"the per-photo function {spec} could not be built: {exc}") from exc


def outcome_from_pipeline(result: dict[str, Any]) -> PhotoOutcome:
    """``mjsnap.pipeline.score_photo``'s JSON as a PhotoOutcome; a photo it could not read raises PhotoError."""
    read = result.get("read")
    if read is None:
        raise PhotoError(result.get("error") or "the photo could not be read", result.get("reason") or "unreadable")
    photo = result.get("photo") or {}
    detections = [
        {"cls": tile.get("detected_cls") or tile["cls"], "conf": tile.get("detected_conf", tile["conf"]),
         "box": tile["box"]}
        for tile in read.get("tiles", [])
    ]
    warnings = list(read.get("warnings", []))
    warnings += [{"code": "score", "message": text} for text in result.get("warnings", [])]
    return PhotoOutcome(
        model_version=photo.get("model"),
        width=photo.get("width"),
        height=photo.get("height"),
        detections=detections,
        hand={key: value for key, value in read.items() if key != "warnings"},
        shapes=result.get("shapes", []),
        scored_shape=result.get("scored_shape"),
        valid=bool(result.get("valid")),
        items=result.get("item_details", []),
        fan=result.get("fan"),
        deltas=result.get("deltas"),
        kong_points_to_winner=result.get("kong_points_to_winner"),
        per_payer_win_base=result.get("per_payer_win_base"),
        decisions=result.get("decisions", []),
        warnings=warnings,
        error=result.get("error"),
        error_code=result.get("reason"),
    )


def pipeline_scorer(config: ScorerConfig) -> PhotoScorer:
    """The default per-photo function: the shipped detector (loaded here, once) and mjsnap.pipeline.score_photo,
    with the seats that fed the photo's melds (``meld_from``) and the reading options from its context."""
    from mjsnap.batch.context import CONTEXT_FIELDS, feeders_of, reading_of
    from mjsnap.paths import MODELS_DIR
    from mjsnap.pipeline import score_photo
    from scoring.options import RuleOptions
    from vision.detector import TileDetector

    model_dir = Path(config.model_dir) if config.model_dir else MODELS_DIR / "current"
    detector_options = {"conf": config.conf} if config.conf is not None else {}
    detector = TileDetector(model_dir, backend=config.backend, **detector_options)
    rule_options = RuleOptions().with_overrides(config.rule_options)

    def score(path: Path, context: dict[str, Any]) -> PhotoOutcome:
        hand_context = {key: value for key, value in context.items() if key in CONTEXT_FIELDS}
        result = score_photo(path, config.ruleset, rule_options=rule_options, context=hand_context, detector=detector,
                             read_options=reading_of(context), meld_from=feeders_of(context))
        return outcome_from_pipeline(result)

    return score


def _model_is_there(config: ScorerConfig) -> None:
    from mjsnap.paths import MODELS_DIR
    from vision.detector import read_meta

    read_meta(Path(config.model_dir) if config.model_dir else MODELS_DIR / "current")


pipeline_scorer.preflight = _model_is_there  # a missing model directory or a damaged meta.json
