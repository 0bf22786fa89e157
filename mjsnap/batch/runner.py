"""A batch run from start to end: discover, plan (resume, duplicates, context), score, write, summarise.

Everything is written by this process, in the order records arrive, through one JournalWriter: errors and
duplicates found while planning go straight to the file; photos to score go to the engine, whose records follow.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mjsnap.batch.context import ContextError, photo_context
from mjsnap.batch.discovery import discover
from mjsnap.batch.errors import BatchError
from mjsnap.batch.journal import JournalWriter, TailRepair, iter_records, repair_tail
from mjsnap.batch.out_lock import holding
from mjsnap.batch.records import PhotoRecord
from mjsnap.batch.scorers import DEFAULT_SCORER, ScorerConfig, preflight
from mjsnap.batch.work import PhotoTask

HASH_CHUNK = 1 << 20
# error codes that the photo's bytes cause, so a copy of them would get the same
BYTES_ERRORS = frozenset({"unreadable_image", "worker_crashed"})
# What a resumed run reads of the earlier records. The rest (detections, hand, items: most of a record) stays in the
# file: kept whole, every earlier record stayed in memory through the whole run, about 40 KB a photo (0.8 GB for a
# results file of 20,000 photos), beside the workers'.
PLANNING_FIELDS = ("path", "status", "ruleset", "bytes", "sha256", "context", "duplicate_of", "error_code")


class BatchSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    inputs: list[str] = Field(min_length=1)
    out: Path
    ruleset: str
    rule_options: dict[str, Any] = {}
    # command-line defaults: golden.json context fields (and meld_from, and the reading options written as fields)
    context: dict[str, Any] = {}
    workers: int | None = Field(default=1, ge=1)  # None: every CPU (of this machine, or of the Ray cluster)
    resume: bool = False
    overwrite: bool = False
    retry_errors: bool = False
    engine: Literal["local", "ray"] = "local"
    ray_address: str | None = None
    ship_bytes: bool = False
    scorer: str = DEFAULT_SCORER
    model_dir: str | None = None
    backend: str = "auto"
    conf: float | None = None

    def scorer_config(self) -> ScorerConfig:
        return ScorerConfig(ruleset=self.ruleset, rule_options=self.rule_options, model_dir=self.model_dir,
                            backend=self.backend, conf=self.conf)


@dataclass
class RunStats:
    """What this invocation did (the results file may hold records of earlier, resumed runs too)."""

    discovered: int = 0
    already_recorded: int = 0
    written: int = 0
    scored_by_engine: int = 0
    tail_repair: TailRepair = field(default_factory=TailRepair)
    seconds: float = 0.0

    @property
    def photos_per_second(self) -> float:
        return self.scored_by_engine / self.seconds if self.seconds > 0 else 0.0


def sha256_of(path: Path) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        while chunk := handle.read(HASH_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


class Planner:
    """Turns discovered photos into engine tasks; records errors and duplicates on the way."""

    def __init__(self, settings: BatchSettings, earlier: list[dict[str, Any]], write: Callable[[dict], None]):
        self.settings = settings
        self.write = write
        retried = {"error"} if settings.retry_errors else set()
        self.latest = latest = {r["path"]: r for r in earlier}
        # Recorded photos by path, with the size they had (None: the file could not be read then).
        self.done: dict[str, int | None] = {
            path: r.get("bytes") for path, r in latest.items() if r["status"] not in retried
        }
        # The photo first recorded with each content hash and context (how it was read and scored): a later path
        # with that hash and that context is a duplicate. Only a record of what the bytes gave counts (see
        # speaks_for_its_bytes). A path whose file has changed since no longer holds its old content (a photo moved
        # away still does: its record stands).
        self.first_of: dict[tuple[str, str], str] = {}
        for path, record in latest.items():
            if speaks_for_its_bytes(record) and record.get("sha256") and _unchanged(path, record.get("bytes")):
                self.first_of.setdefault(_copy_key(record["sha256"], record.get("context")), record["path"])
        # A duplicate stands while the photo it copies still holds that content; else it is planned again
        self.duplicate_of = {path: (_copy_key(r.get("sha256"), r.get("context")), r.get("duplicate_of"))
                             for path, r in latest.items() if r["status"] == "duplicate"}

    def is_done(self, photo: Path) -> bool:
        """Recorded already, and not changed since: the same size (hashing the whole archive again on every resume
        would cost as much reading as the first run). A photo whose size changed is scored again, and so is a
        duplicate whose first copy changed."""
        if str(photo) not in self.done:
            return False
        if str(photo) in self.duplicate_of:
            key, first = self.duplicate_of[str(photo)]
            if self.first_of.get(key) != first:
                return False
        return _unchanged(photo, self.done[str(photo)])

    def _record(self, **fields: Any) -> None:
        self.write(PhotoRecord(ruleset=self.settings.ruleset, **fields).model_dump(mode="json"))

    def tasks(self, photos: list[Path]) -> Iterator[PhotoTask]:
        for photo in photos:
            path = str(photo)
            if self.is_done(photo):
                continue
            try:
                sha, size = sha256_of(photo)
            except OSError as exc:
                self._record(path=path, sha256=None, bytes=None, status="error", error=f"cannot read: {exc}",
                             error_code="unreadable_file")
                continue
            try:
                context, sidecar = photo_context(photo, self.settings.context)
            except ContextError as exc:  # this path's own problem: a copy of its bytes elsewhere is still scored
                hint = "" if exc.code == "bad_sidecar" else " (pass --self-draw or --discarder, or add a sidecar)"
                self._record(path=path, sha256=sha, bytes=size, status="error", error=f"{exc}{hint}",
                             error_code=exc.code)
                continue
            sidecar_path = str(sidecar) if sidecar else None
            first = self.first_of.setdefault(_copy_key(sha, context), path)
            if first != path:
                self._record(path=path, sha256=sha, bytes=size, status="duplicate", duplicate_of=first,
                             context=context, sidecar=sidecar_path)
                continue
            # the first copy, or the same bytes in another context or reading (its sidecar's): a photo of its own
            yield PhotoTask(path, sha, size, self.settings.ruleset, context, sidecar_path)


def _copy_key(sha: str | None, context: dict[str, Any] | None) -> tuple[str, str]:
    """What makes two photos copies: the same bytes, read and scored in the same context."""
    return str(sha), json.dumps(context, sort_keys=True)


def speaks_for_its_bytes(record: dict[str, Any]) -> bool:
    """Whether a record says what a copy of its photo's bytes would get, scored in the same context: a photo read
    (scored or not), or one the bytes themselves failed (not an image; a decoder that killed its worker). An error
    of the path or its sidecar (bad_sidecar, unreadable_file, a bad context) says nothing of another copy."""
    return record["status"] in ("scored", "not_scored") or record.get("error_code") in BYTES_ERRORS


def _unchanged(path: str | Path, size: int | None) -> bool:
    """Whether a recorded photo still has the size it was recorded with. A file now missing or unreadable counts as
    unchanged (moved away, or unreadable since: its record stands), and so does one recorded without a size."""
    if size is None:
        return True
    try:
        return Path(path).stat().st_size == size
    except OSError:
        return True


def _load_earlier(settings: BatchSettings, stats: RunStats) -> list[dict[str, Any]]:
    out = settings.out
    if not out.exists() or out.stat().st_size == 0:
        return []
    if settings.overwrite:
        return []  # removed by _run once the run surely starts: a refusal until then keeps the old results
    if not settings.resume:
        raise BatchError(f"{out} already exists: pass --resume to continue it, or --overwrite to start over")
    # read (a torn last line skipped) and checked before the tail is cut: a file that is no results file, given as
    # --out by mistake, is refused whole, not first cut short by a line
    earlier = [{key: r[key] for key in PLANNING_FIELDS if key in r} for r in iter_records(out)]  # one at a time
    other = sorted({r.get("ruleset") for r in earlier} - {settings.ruleset})
    if other:
        raise BatchError(
            f"{out} holds records scored with --rules {', '.join(map(str, other))}; resume it with the same "
            f"rules, or write --rules {settings.ruleset} to another --out"
        )
    stats.tail_repair = repair_tail(out)
    return earlier


def _engine(settings: BatchSettings, tasks: Iterator[PhotoTask], to_score: int) -> Iterator[dict[str, Any]]:
    config = settings.scorer_config()
    if settings.engine == "ray":
        from mjsnap.batch.ray_engine import score_on_ray

        workers = settings.workers and _pool_size(settings.workers, to_score)  # None: one actor per cluster CPU
        return score_on_ray(tasks, settings.scorer, config, workers, settings.ship_bytes)
    from mjsnap.batch.local_engine import score_locally

    workers = _pool_size(settings.workers or os.cpu_count() or 1, to_score)
    return score_locally(tasks, settings.scorer, config, workers)


def _pool_size(asked: int, to_score: int) -> int:
    """The workers asked for, but no more than there are photos to score: each extra one would only start and load
    the model (Ray starts every actor at once), and a number past the OS's limits (--workers 1000000000000) failed
    to make the pool at all. Never one where more were asked: one scores in this process, where a photo that
    crashes its decoder is not survived."""
    return asked if asked <= 1 else max(2, min(asked, to_score))


def run_batch(settings: BatchSettings, on_start: Callable[[int, int, int], None] | None = None,
              on_record: Callable[[dict[str, Any]], None] | None = None) -> RunStats:
    """Score every photo not yet in ``settings.out``; ``on_start(total, already_done, errors_among_them)`` and
    ``on_record`` let a caller draw progress. Raises BatchError before writing anything when the run cannot start."""
    with batch_run(settings, on_start, on_record) as stats:
        return stats


@contextmanager
def batch_run(settings: BatchSettings, on_start: Callable[[int, int, int], None] | None = None,
              on_record: Callable[[dict[str, Any]], None] | None = None) -> Iterator[RunStats]:
    """`run_batch`, with ``settings.out`` kept locked until the block ends: the run's CSV, summary and report are
    written in it, so that another run on the same --out (refused meanwhile) cannot remove or add records under them."""
    from scoring.scorer import RULESETS

    if settings.ruleset not in RULESETS:
        raise BatchError(f"unknown rule set {settings.ruleset!r}; use one of {', '.join(RULESETS)}")
    if settings.retry_errors and not settings.resume:
        raise BatchError("--retry-errors scores the error records of --out again: it needs --resume")
    if settings.resume and settings.overwrite:  # guessing either way could throw away a long run's records
        raise BatchError("--resume continues --out and --overwrite starts it afresh: pass only one of them")
    preflight(settings.scorer, settings.scorer_config())  # a bad --scorer or a missing model: here, before --out
    with holding(settings.out):
        yield _run(settings, on_start, on_record)


def _run(settings: BatchSettings, on_start: Callable[[int, int, int], None] | None,
         on_record: Callable[[dict[str, Any]], None] | None) -> RunStats:
    stats = RunStats()
    photos = discover(settings.inputs)
    out = settings.out.resolve()
    photos = [p for p in photos if p != out]
    stats.discovered = len(photos)
    earlier = _load_earlier(settings, stats)
    if settings.engine == "ray":  # before --out is opened: a cluster that cannot be joined leaves nothing behind
        from mjsnap.batch.ray_engine import connect

        connect(settings.ray_address)
    if settings.overwrite:
        settings.out.unlink(missing_ok=True)
    with JournalWriter(settings.out) as journal:
        def write(record: dict[str, Any]) -> None:
            journal.append(record)
            stats.written += 1
            if on_record is not None:
                on_record(record)

        planner = Planner(settings, earlier, write)
        done = [p for p in photos if planner.is_done(p)]
        stats.already_recorded = len(done)
        if on_start is not None:
            on_start(len(photos), stats.already_recorded,
                     sum(planner.latest[str(p)]["status"] == "error" for p in done))
        engine_started = time.perf_counter()
        for record in _engine(settings, planner.tasks(photos), len(photos) - len(done)):
            write(record)
            stats.scored_by_engine += 1
        stats.seconds = time.perf_counter() - engine_started
    return stats
