"""The per-photo record: one JSON line of the results file, the same for every engine.

``status`` says what became of a photo:
- ``scored``: the hand was read and is a win under the rule set (items, fan, deltas filled);
- ``not_scored``: the photo was read but the hand is no scorable win (``error`` / ``error_code`` say why);
- ``error``: the photo could not be processed (unreadable file, bad sidecar, pipeline failure);
- ``duplicate``: the same bytes as ``duplicate_of``, reported and not scored twice.
``ms``, ``cpu_ms`` and ``finished_at`` are the only fields that differ between two runs over the same photos.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

RECORD_SCHEMA = 1
Status = Literal["scored", "not_scored", "error", "duplicate"]
TIMING_FIELDS = frozenset({"ms", "cpu_ms", "finished_at"})


class Detection(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cls: str
    conf: float
    box: list[float] = Field(min_length=4, max_length=4)


class PhotoWarning(BaseModel):
    model_config = ConfigDict(extra="allow")
    code: str
    message: str


class PhotoOutcome(BaseModel):
    """What the per-photo function returns: everything about one photo except bookkeeping."""

    model_config = ConfigDict(extra="forbid")
    model_version: str | None = None
    width: int | None = None
    height: int | None = None
    detections: list[Detection] = []
    hand: dict[str, Any] | None = None  # the read hand, `mjsnap read --json` form
    shapes: list[str] = []
    scored_shape: str | None = None
    valid: bool = False
    items: list[dict[str, Any]] = []  # ScoreItem dicts (name, zh, en, value, reason)
    fan: int | None = None
    deltas: list[int] | None = None
    kong_points_to_winner: int | None = None
    per_payer_win_base: int | None = None
    decisions: list[str] = []  # the [A#] rule switches that decided something
    warnings: list[PhotoWarning] = []
    error: str | None = None  # why the hand is not scored (human message)
    error_code: str | None = None  # the scorer's machine code ("not_a_winning_shape", ...)


class PhotoRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int = RECORD_SCHEMA
    path: str
    sha256: str | None
    bytes: int | None
    status: Status
    ruleset: str
    context: dict[str, Any] | None = None
    sidecar: str | None = None
    duplicate_of: str | None = None
    model_version: str | None = None
    width: int | None = None
    height: int | None = None
    detections: list[Detection] = []
    hand: dict[str, Any] | None = None
    shapes: list[str] = []
    scored_shape: str | None = None
    valid: bool = False
    items: list[dict[str, Any]] = []
    fan: int | None = None
    deltas: list[int] | None = None
    kong_points_to_winner: int | None = None
    per_payer_win_base: int | None = None
    decisions: list[str] = []
    warnings: list[PhotoWarning] = []
    error: str | None = None
    error_code: str | None = None
    ms: float | None = None  # wall time of the per-photo function
    cpu_ms: float | None = None  # CPU time of its process meanwhile (ms >> cpu_ms: the worker waited for a core)
    finished_at: str = Field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="milliseconds"))

    @classmethod
    def from_outcome(cls, outcome: PhotoOutcome, **bookkeeping: Any) -> PhotoRecord:
        status: Status = "scored" if outcome.valid else "not_scored"
        return cls(status=status, **outcome.model_dump(), **bookkeeping)


def content_of(record: dict[str, Any]) -> dict[str, Any]:
    """A record without its timing fields: what two runs over the same photo must agree on."""
    return {k: v for k, v in record.items() if k not in TIMING_FIELDS}
