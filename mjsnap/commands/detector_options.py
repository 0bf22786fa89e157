"""The detector's threshold as one command-line option for `mjsnap detect`, `mjsnap read` and `mjsnap batch`:
one name, one range, one help text."""

from __future__ import annotations

from typing import Any

import typer


def _check_confidence(value: float | None) -> float | None:
    # The detector keeps boxes scoring above the threshold and no score exceeds 1, so it takes 0 <= conf < 1
    # (vision.detector.TileDetector refuses the rest).
    if value is not None and not 0.0 <= value < 1.0:
        raise typer.BadParameter(f"{value} is not in the range 0 <= conf < 1")
    return value


def confidence(default: float | None = 0.25) -> Any:
    """The --conf option; None as the default leaves the threshold to the model's reader."""
    return typer.Option(default, "--conf", callback=_check_confidence,
                        help="detector confidence threshold, 0 <= conf < 1: boxes scoring below it are dropped")
