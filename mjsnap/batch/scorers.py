"""The per-photo function a batch runs, named by a ``module:factory`` spec so every worker can build its own.

A factory takes a ScorerConfig and returns a PhotoScorer; it is called once per worker process (or Ray actor),
so the model is loaded once per worker. The default is the mjsnap pipeline; tests and users may plug in others.
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
