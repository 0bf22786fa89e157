"""The progress bar on stderr: photos done / total, rate, elapsed and ETA (rich)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class RateColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} photos/s" if speed else "- photos/s", style="progress.data.speed")


class BatchProgress:
    """A context manager; ``start(total, done, errors)`` then ``advance(record)`` per record written."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self._progress: Progress | None = None
        self._task: Any = None
        self.errors = 0

    def __enter__(self) -> BatchProgress:
        if self.enabled:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[errors]}"),
                console=Console(stderr=True), speed_estimate_period=60,
            )  # fmt: skip
            self._progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)

    def start(self, total: int, done: int, errors: int) -> None:
        # a resumed run's bar starts with the photos and the errors already recorded: it shows the whole results file
        self.errors = errors
        if self._progress is not None:
            self._task = self._progress.add_task("scoring", total=total, completed=done, errors=self._errors_text())

    def advance(self, record: dict[str, Any]) -> None:
        self.errors += record["status"] == "error"
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, advance=1, errors=self._errors_text())

    def _errors_text(self) -> str:
        return f"{self.errors} error(s)" if self.errors else ""
