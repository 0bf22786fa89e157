"""One photo's work, the same in every engine: run the per-photo function and turn the result into a record."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter, process_time
from typing import Any

from mjsnap.batch.records import PhotoOutcome, PhotoRecord
from mjsnap.batch.scorers import PhotoScorer


@dataclass(frozen=True)
class PhotoTask:
    path: str
    sha256: str
    bytes: int
    ruleset: str
    context: dict[str, Any]
    sidecar: str | None = None

    def bookkeeping(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "sha256": self.sha256,
            "bytes": self.bytes,
            "ruleset": self.ruleset,
            "context": self.context,
            "sidecar": self.sidecar,
        }


def error_code_of(exc: BaseException) -> str:
    code = getattr(exc, "code", None)
    if isinstance(code, str) and code:
        return code
    if isinstance(exc, OSError):  # PIL's UnidentifiedImageError included
        return "unreadable_image"
    return "pipeline_error"


def run_task(task: PhotoTask, scorer: PhotoScorer, photo_path: Path | None = None) -> dict[str, Any]:
    """The JSON record of one photo; any exception of the per-photo function becomes an error record."""
    start, cpu_start = perf_counter(), process_time()
    try:
        result = scorer(photo_path or Path(task.path), dict(task.context))
        outcome = result if isinstance(result, PhotoOutcome) else PhotoOutcome.model_validate(result)
        record = PhotoRecord.from_outcome(outcome, **task.bookkeeping())
    except Exception as exc:  # noqa: BLE001 - one bad photo must not stop the archive
        # our own errors carry a code and a message for people; anything else keeps its type's name for the report
        coded = isinstance(getattr(exc, "code", None), str) and str(exc)
        detail = str(exc) if coded else traceback.format_exception_only(type(exc), exc)[-1].strip()
        record = PhotoRecord(status="error", error=detail, error_code=error_code_of(exc), **task.bookkeeping())
    record.ms = round((perf_counter() - start) * 1000, 1)
    record.cpu_ms = round((process_time() - cpu_start) * 1000, 1)
    return record.model_dump(mode="json")


def crash_record(task: PhotoTask, message: str) -> dict[str, Any]:
    """The record of a photo whose worker died while scoring it, twice (see the engines)."""
    record = PhotoRecord(status="error", error=message, error_code="worker_crashed", **task.bookkeeping())
    return record.model_dump(mode="json")
